"""Drive gen-worker >= 0.127's `gen-worker compile` on the rig's toy UNet.

0.127 has no rig and no tests/harness/tiny_diffusion. `gen-worker compile`
reads an endpoint dir: `endpoint.lock` (a [derive] block holding the graph-set
document), a `uv.lock` beside it (the compile stack), and the exported
programs banked in the graph CAS under their cg-graph-v1 identity. Normally
`gen-worker lock` (author-time) writes all three; here they are built the way
the upstream's own tests build them (tests/test_compile_servability.py's
`endpoint` fixture + tests/test_mint_child_compile.py's `_request`), from
the SAME toy model the 0.126 rig mints (TinyUNet, three specializations
B=1, 2, 4 as shim_classes declares), exported on cuda. Then the real CLI runs:

    python -m gen_worker.cli compile EP --sm sm_90 --graph-store CAS \
        --module microrig.main --verdict RUN/verdict.json

which spawns one `gen_worker.serving.mint_child` per specialization.

argv: GW_SRC (the 0.127.2 tree) HARNESS (a tree's tests/harness holding
tiny_diffusion.py) RUN (the run dir). GW_TOY_CAS, when set, is the graph
store instead of RUN/graph-cas: a store shared by two repeats makes the
second one warm on purpose (`lanes/0.0.5.yaml`), every specialization
`present`.
"""
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

gw, harness, run = (Path(a) for a in sys.argv[1:4])
sys.path.insert(0, str(gw / "src"))
sys.path.insert(0, str(harness.parent))
run.mkdir(parents=True, exist_ok=True)
t0 = time.time()
log = {"steps": []}


def step(name, **facts):
    log["steps"].append({"step": name, "t": round(time.time() - t0, 2), **facts})
    print("TOY127", name, json.dumps(facts, default=str)[:600], flush=True)
    (run / "toy127.json").write_text(json.dumps(log, indent=1, default=str))


import torch  # noqa: E402
import triton  # noqa: E402

from harness.tiny_diffusion import CONTEXT_DIM, LATENT_CHANNELS, LATENT_SIZE, TEXT_LEN, TinyUNet  # noqa: E402
from gen_worker._vendor.tensorfs import LocalCAS  # noqa: E402
from gen_worker._vendor.torchcg import build_call_ingress  # noqa: E402
from gen_worker._vendor.torchcg.document import GraphRecord, GraphSetDocument, LaneGraphs  # noqa: E402
from gen_worker._vendor.torchcg.graph_identity import graph_hash  # noqa: E402
from gen_worker._vendor.torchcg.store import LocalGraphStore  # noqa: E402
from gen_worker.cli import endpoint_lock as el  # noqa: E402

STACK = (("torch", torch.__version__.split("+")[0]), ("triton", triton.__version__))
LANE = "sd15.diffusers-bf16@1"   # the upstream test's lane reference (a contract ref string)
MODULE = "microrig.main"
cas = Path(os.environ["GW_TOY_CAS"]) if os.environ.get("GW_TOY_CAS") else run / "graph-cas"
endpoint = run / "endpoint"
endpoint.mkdir(parents=True, exist_ok=True)
cas.mkdir(parents=True, exist_ok=True)
store = LocalGraphStore(LocalCAS(cas))

torch.manual_seed(978)
model = TinyUNet().eval().to("cuda")
records = []
for batch in (1, 2, 4):
    args = (
        torch.randn(batch, LATENT_CHANNELS, LATENT_SIZE, LATENT_SIZE, device="cuda"),
        torch.full((batch,), 100.0, device="cuda"),
        torch.randn(batch, TEXT_LEN, CONTEXT_DIM, device="cuda"),
    )
    with torch.no_grad():
        program = torch.export.export(model, args)
    ingress = build_call_ingress(program, ("sample", "timestep", "encoder_hidden_states"), args, {})
    try:
        graph = graph_hash(program, ingress)
        graph_from = "torchcg.graph_identity.graph_hash"
    except Exception as exc:  # noqa: BLE001 - a well-formed stand-in keeps the CLI runnable
        graph = "cg-graph-v1-" + hashlib.sha256(f"microrig/B={batch}".encode()).hexdigest()[:56]
        graph_from = f"stand-in ({type(exc).__name__}: {exc})"[:300]
    blob = run / "programs" / f"B{batch}.pt2"
    blob.parent.mkdir(parents=True, exist_ok=True)
    torch.export.save(program, blob)
    store.put_program(graph, blob)
    records.append(GraphRecord(graph=graph, target="unet", ingress=ingress))
    step("exported", batch=batch, graph=graph, graph_from=graph_from, blob_bytes=blob.stat().st_size)

document = GraphSetDocument(stack=STACK, lanes=(LaneGraphs(contract=LANE, targets=("unet",), graphs=tuple(records)),))
(endpoint / "uv.lock").write_text(
    "version = 1\n" + "".join(f'\n[[package]]\nname = "{n}"\nversion = "{v}"\n' for n, v in STACK))
raw = json.dumps(document.as_dict(), separators=(",", ":"), sort_keys=True)
payload = json.dumps({"graphs": json.loads(raw)}, separators=(",", ":"))
el.write_lock(endpoint / el.LOCK_FILENAME, {}, el.DeriveBlock(
    v=el.DERIVE_BLOCK_V, interface_v=el.torchcg_format_versions()[0], inputs_digest="0" * 64,
    document_digest=hashlib.sha256(payload.encode("ascii")).hexdigest(), document=payload,
    trace_device="cuda", endpoint="microrig.main:MicroRig"))
step("endpoint_written", stack=STACK, lane=LANE, graphs=[r.graph for r in records])
del model
torch.cuda.empty_cache()

# The CLI and the mint children it spawns import gen_worker from the tree
# given, as this driver does: its src on their PYTHONPATH too.
child_env = dict(os.environ)
child_env["PYTHONPATH"] = os.pathsep.join(
    p for p in (str(gw / "src"), str(harness.parent), os.environ.get("PYTHONPATH", "")) if p)
argv = [sys.executable, "-m", "gen_worker.cli", "compile", str(endpoint), "--sm", "sm_90",
        "--graph-store", str(cas), "--module", MODULE, "--verdict", str(run / "verdict.json")]
step("compile_start", argv=argv, TORCH_TRACE=os.environ.get("TORCH_TRACE", ""))
done = subprocess.run(argv, stdout=open(run / "compile.stdout.log", "w"),
                      stderr=open(run / "compile.stderr.log", "w"), env=child_env)
step("compile_done", rc=done.returncode)

# Fallback evidence when the CLI built nothing: the child it spawns, run directly
# on specialization B=2 (the request shape `cli/compile.py:_build` writes).
verdict = {}
try:
    verdict = json.loads((run / "verdict.json").read_text())
except Exception as exc:  # noqa: BLE001
    step("verdict_unreadable", error=repr(exc))
built = [s for s in verdict.get("specializations", []) if s.get("state") in ("built", "reused")]
if not built:
    from gen_worker.serving.mint_child import contract_digest
    from gen_worker.toolchain import toolchain_digest

    rec = records[1]
    req = {"blob": str(run / "programs" / "B2.pt2"), "graph": rec.graph, "target": rec.target,
           "ingress": rec.ingress.as_dict(), "target_arch": "sm_90", "toolchain": dict(toolchain_digest()),
           "cas": str(run / "direct-cas"), "destination": str(run / "direct-artifact"),
           "result": str(run / "direct.result.txt"), "contract": contract_digest()}
    (run / "direct-cas").mkdir(exist_ok=True)
    (run / "direct.request.json").write_text(json.dumps(req))
    d = subprocess.run([sys.executable, "-m", "gen_worker.serving.mint_child", str(run / "direct.request.json")],
                       stdout=open(run / "direct.stdout.log", "w"), stderr=open(run / "direct.stderr.log", "w"),
                       env=child_env)
    step("direct_child_done", rc=d.returncode)
step("end")
# The compile entry's own exit is this driver's: a compile that failed is
# not a mint that minted nothing quietly.
sys.exit(done.returncode)
