# Per-tree variant of ../shared/device/gen-worker-mint/shim_classes.py: the same
# edit (the rig's toy endpoint declares three graph classes B=1, CFG_BATCH, 4
# instead of one), applied to the tree named on argv. The declaration line is
# byte-identical at v0.93.3, v0.100.1, v0.114.3 and v0.126.3 (checked).
import pathlib, sys
root = pathlib.Path(sys.argv[1])
p = root / "tests/harness/tiny_diffusion_endpoint.py"; s = p.read_text()
old = 'classes=(GraphClass(dims={"B": CFG_BATCH}),),'
new = 'classes=(GraphClass(dims={"B": 1}), GraphClass(dims={"B": CFG_BATCH}), GraphClass(dims={"B": 4})),'
assert old in s, "declaration not found"; p.write_text(s.replace(old, new, 1)); print(root, "classes: B=1, CFG_BATCH, 4")
