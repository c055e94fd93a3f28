# Per-tree variant of ../shared/device/gen-worker-mint/shim_gw.py: teach
# compile_cache._cubin_arch the CUDA 13 ELF flags, where the tree still has the
# pre-CUDA-13 reader (v0.100.1 does; v0.114.3 and later do not). A no-op otherwise.
import pathlib, sys
root = pathlib.Path(sys.argv[1])
p = root / "src/gen_worker/compile_cache.py"
if not p.exists():
    print(root, "shim_gw: no compile_cache.py"); raise SystemExit(0)
s = p.read_text()
old = "    return flags & 0xFF\n"
new = "    low = flags & 0xFF\n    return low if low >= 20 else (flags >> 8) & 0xFF\n"
if old in s:
    p.write_text(s.replace(old, new, 1)); print(root, "shim_gw: _cubin_arch reads CUDA 13 e_flags")
else:
    print(root, "shim_gw: nothing to patch")
