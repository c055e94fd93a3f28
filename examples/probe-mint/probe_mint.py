#!/usr/bin/env python3
"""probe_mint: a real, instrumented mint of a small model, without gen-worker.

It compiles a small conv + group-norm + attention + GELU-MLP block (fp16, a
few MB of weights) with torch on one CUDA GPU and writes its report in the
upstream's shape (see docs/probe-mint.md), so `lane mint` can validate a GPU
node or the pod pipeline without the upstream library.

Recipes (`$LANE_RECIPE`, or `--recipe`):
  dynamo  torch.compile; five warm jobs; the warm ledger (`spans_v: 1`) from
          `torch._dynamo.utils.compilation_time_metrics` deltas per job.
  aot     torch.export + AOTInductor, one entry compiled in a child process;
          the per-entry table (`v: 1`) with its three nested partitions; the
          sealed `.pt2` is loaded back and run once (the warm forward).

Contract with lane's agent (crates/lane-mint/src/agent.rs): the report goes
to `$LANE_REPORT_PATH`, artifacts under `$LANE_ARTIFACTS_DIR` (`package/` =
the `.pt2` members, the wrapper `.so` left out; `cache/` = the inductor
cache's generated kernel sources `*.py`, `*.best_config` and metadata
`*.json`); the caches come from `TORCHINDUCTOR_CACHE_DIR`/`TRITON_CACHE_DIR`.
A node without torch or CUDA gets a `failed` report naming what is missing
(deterministic: never retried), a CUDA out-of-memory a `resource` report.

Only the standard library is imported at module level, so the script runs
(and reports) anywhere python3 does.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
import traceback
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

# --- key sets over compilation_time_metrics (seen on torch 2.11) ----------
# The JIT total: dynamo's frame compile.
TOTAL_KEY = "_compile.compile_inner"
# Members of the compile partition; the residual is `compile_other_s`.
JIT_PARTITION = {
    "tracing_s": ("bytecode_tracing", "build_guards", "variable_builder_call"),
    "graph_passes_s": ("_recursive_pre_grad_passes", "_recursive_joint_graph_passes",
                       "_recursive_post_grad_passes"),
    "lowering_s": ("GraphLowering.run",),
    "codegen_s": ("GraphLowering.codegen",),
    "kernel_compile_s": ("PyCodeCache.load_by_key_path",),
    "host_compile_s": ("AotCodeCompiler.compile",),
}
# Overlays nest inside members: shown beside the partition, never summed.
JIT_OVERLAYS = {
    "async_wait_s": ("async_compile.wait",),
    "parallel_kernel_cpu_s": ("compile_file",),
    "aot_dispatch_s": ("create_aot_dispatcher_function",),
    "autotune_s": ("CachingAutotuner.benchmark_all_configs",),
}
AOT_PARTITION = {
    "lowering_s": ("GraphLowering.run",),
    "codegen_s": ("GraphLowering.codegen",),
    "graph_passes_s": ("_recursive_pre_grad_passes", "_recursive_joint_graph_passes",
                       "_recursive_post_grad_passes"),
    "host_compile_s": ("AotCodeCompiler.compile",),
}
AOT_OVERLAYS = {
    "autotune_s": ("CachingAutotuner.benchmark_all_configs",),
    "async_wait_s": ("async_compile.wait",),
    "parallel_kernel_cpu_s": ("compile_file",),
    "inductor_total_s": ("compile_fx.<locals>.fw_compiler_base",),
}

# The warm jobs of the dynamo recipe: (name, input shape). The 4th repeats
# the 1st shape and compiles nothing: a warm job that buys no coverage.
WARM_PLAN = [("b1_32", (1, 4, 32, 32)), ("b2_32", (2, 4, 32, 32)), ("b1_64", (1, 4, 64, 64)),
             ("b1_32_again", (1, 4, 32, 32)), ("b4_48", (4, 4, 48, 48))]
# The one AOT entry (graph class): its example input shape.
AOT_ENTRY = ("b2_48", (2, 4, 48, 48))
INDUCTOR_CONFIGS = {"max_autotune": False}


def r3(x: float) -> float:
    return round(float(x), 3)


# --- the model -------------------------------------------------------------
def build_model(torch):
    import torch.nn as nn
    import torch.nn.functional as F

    class Block(nn.Module):
        def __init__(self, c=128, d=512):
            super().__init__()
            self.conv_in = nn.Conv2d(4, c, 3, padding=1)
            self.norm = nn.GroupNorm(8, c)
            self.conv2 = nn.Conv2d(c, c, 3, padding=1)
            self.q = nn.Linear(c, c)
            self.k = nn.Linear(c, c)
            self.v = nn.Linear(c, c)
            self.ff1 = nn.Linear(c, d)
            self.ff2 = nn.Linear(d, c)
            self.conv_out = nn.Conv2d(c, 4, 3, padding=1)

        def forward(self, x):
            h = F.silu(self.norm(self.conv_in(x)))
            h = h + F.silu(self.conv2(h))
            b, c, hh, ww = h.shape
            t = h.flatten(2).transpose(1, 2)  # b, hw, c
            a = F.scaled_dot_product_attention(self.q(t), self.k(t), self.v(t))
            t = t + a
            t = t + self.ff2(F.gelu(self.ff1(t)))
            h = t.transpose(1, 2).reshape(b, c, hh, ww)
            return self.conv_out(h)

    torch.manual_seed(0)
    return Block().cuda().half().eval()


def example_input(torch, shape):
    g = torch.Generator(device="cuda").manual_seed(1)
    return torch.randn(*shape, device="cuda", dtype=torch.half, generator=g)


# --- compilation_time_metrics deltas -----------------------------------------
def snap():
    import torch._dynamo.utils as du
    return {str(k): float(sum(v)) for k, v in du.compilation_time_metrics.items()}


def delta(before, after):
    raw = {k: round(after.get(k, 0.0) - before.get(k, 0.0), 4) for k in set(before) | set(after)}
    return {k: v for k, v in sorted(raw.items()) if v > 0.0005}


def ssum(raw, keys):
    return r3(sum(raw.get(k, 0.0) for k in keys))


def overlays_of(raw, table):
    out = {k: v for k, ks in table.items() if (v := ssum(raw, ks))}
    triton = r3(sum(v for k, v in raw.items() if "triton" in k.lower() and k != "compile_file"))
    if triton:
        out["triton_s"] = triton
    return out


# --- artifacts ---------------------------------------------------------------
def copy_cache_sources(cache: Path, dest: Path) -> int:
    """The inductor cache's generated kernel sources, autotune choices and
    metadata, as `cache/<rel>` (binaries and pickles stay out)."""
    n = 0
    if not cache.is_dir():
        return n
    for p in sorted(cache.rglob("*")):
        if p.is_file() and p.suffix in (".py", ".best_config", ".json") and p.stat().st_size < 2_000_000:
            d = dest / "cache" / p.relative_to(cache)
            d.parent.mkdir(parents=True, exist_ok=True)
            d.write_bytes(p.read_bytes())
            n += 1
    return n


def unpack_package(pkg: Path, dest: Path) -> int:
    """The `.pt2` members as `package/<rel>` (the package's own first folder
    stripped); the wrapper `.so` and anything over 8 MB left out."""
    n = 0
    with zipfile.ZipFile(pkg) as z:
        for info in z.infolist():
            if info.is_dir():
                continue
            rel = info.filename.split("/", 1)[1] if "/" in info.filename else info.filename
            if info.file_size > 8_000_000 or rel.endswith(".so"):
                continue
            d = dest / "package" / rel
            d.parent.mkdir(parents=True, exist_ok=True)
            d.write_bytes(z.read(info))
            n += 1
    return n


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


# --- the dynamo recipe ---------------------------------------------------------
def mint_dynamo(ctx) -> dict:
    import torch
    phases = ctx["phases"]
    ctx["phase"] = "load"
    s = time.monotonic()
    m = build_model(torch)
    torch.cuda.synchronize()
    phases["load"] = r3(ctx["import_s"] + time.monotonic() - s)

    ctx["phase"] = "warmup_forward"
    cm = torch.compile(m, dynamic=False)
    jobs, raw_total, wall_total = [], {}, 0.0
    s = time.monotonic()
    for name, shape in WARM_PLAN:
        x = example_input(torch, shape)
        before = snap()
        js = time.monotonic()
        with torch.no_grad():
            for _ in range(3):
                cm(x)
        torch.cuda.synchronize()
        wall = r3(time.monotonic() - js)
        wall_total += wall
        raw = delta(before, snap())
        for k, v in raw.items():
            raw_total[k] = round(raw_total.get(k, 0.0) + v, 4)
        cs = r3(raw.get(TOTAL_KEY, 0.0))
        jobs.append({"job": name, "wall_s": wall, "compile_s": cs, "execute_s": r3(wall - cs)})
    phases["warmup_forward"] = r3(time.monotonic() - s)
    # No router in the probe: nothing queued, nothing drained.
    phases["router_drain"] = 0.0

    ctx["phase"] = "seal_publish"
    s = time.monotonic()
    art = ctx["artifacts"]
    art.mkdir(parents=True, exist_ok=True)
    weights = art / "cell.pt"
    torch.save(m.state_dict(), weights)
    digest = sha256(weights)
    weights.unlink()  # the digest seals the weights; the bundle need not carry them
    copy_cache_sources(ctx["inductor_cache"], art)
    phases["seal_publish"] = r3(time.monotonic() - s)

    ctx["phase"] = "finalize"
    s = time.monotonic()
    torch.cuda.synchronize()
    phases["finalize"] = r3(time.monotonic() - s)

    members = {k: ssum(raw_total, v) for k, v in JIT_PARTITION.items()}
    total = r3(raw_total.get(TOTAL_KEY, 0.0))
    # The named residual: reported as is, never clamped.
    members["compile_other_s"] = r3(total - sum(members.values()))
    wall = r3(wall_total)
    totals = {"warm_wall_s": wall, "warm_compile_s": total, "warm_execute_s": r3(wall - total),
              "warm_jobs": len(jobs), "warm_jobs_compiling": sum(1 for j in jobs if j["compile_s"] > 0.5)}
    if wall > 0:
        totals["compile_fraction"] = round(total / wall, 4)
    return {
        "status": "minted",
        "cell_key": f"{ctx['cell']}-{digest[:16]}",
        "digest": digest,
        "peak_vram_bytes": int(torch.cuda.max_memory_allocated()),
        "mint_phases": {"spans_v": 1, "totals": totals, "phases": members,
                        "overlays": overlays_of(raw_total, JIT_OVERLAYS), "jobs": jobs},
        "raw_metrics": raw_total,
    }


# --- the aot recipe --------------------------------------------------------------
# The entry's child: one cold AOTInductor compile. Times are wall-clock
# (time.time) so the parent can place the child's start and end.
AOT_CHILD = r'''
import time
T0 = time.time()
import json, os, sys
from pathlib import Path
sys.path.insert(0, os.environ["PROBE_DIR"])
out = {"t0": T0}
try:
    import torch
    out["torch_import_s"] = time.time() - T0
    import probe_mint as pm
    s = time.time()
    m = pm.build_model(torch)
    x = pm.example_input(torch, tuple(json.loads(os.environ["PROBE_SHAPE"])))
    before = pm.snap()
    e = time.time()
    with torch.no_grad():
        ep = torch.export.export(m, (x,))
    out["export_s"] = time.time() - e
    out["program_load_s"] = time.time() - s
    c = time.time()
    pkg = Path(os.environ["PROBE_PKG"])
    torch._inductor.aoti_compile_and_package(ep, package_path=str(pkg),
                                             inductor_configs=pm.INDUCTOR_CONFIGS)
    out["compile_wall_s"] = time.time() - c
    out["raw"] = pm.delta(before, pm.snap())
    s = time.time()
    art = Path(os.environ["LANE_ARTIFACTS_DIR"])
    out["digest"] = pm.sha256(pkg)
    out["package_files"] = pm.unpack_package(pkg, art)
    out["cache_files"] = pm.copy_cache_sources(Path(os.environ["TORCHINDUCTOR_CACHE_DIR"]), art)
    out["seal_s"] = time.time() - s
    out["peak_vram_bytes"] = int(torch.cuda.max_memory_allocated())
except BaseException as exc:
    out["error"] = f"{type(exc).__name__}: {exc}"
    out["oom"] = type(exc).__name__ == "OutOfMemoryError"
out["t1"] = time.time()
Path(os.environ["PROBE_CHILD_OUT"]).write_text(json.dumps(out))
'''


# The warm forward's child: load the sealed package, run it once, compare
# with eager. Prints one JSON line.
WARM_CHILD = r'''
import json, os, sys, time
sys.path.insert(0, os.environ["PROBE_DIR"])
import torch
import probe_mint as pm
t = time.time()
runner = torch._inductor.aoti_load_package(os.environ["PROBE_PKG"])
load_s = time.time() - t
x = pm.example_input(torch, tuple(json.loads(os.environ["PROBE_SHAPE"])))
with torch.no_grad():
    y = runner(x)
    y = y[0] if isinstance(y, (list, tuple)) else y
    ref = pm.build_model(torch)(x)
torch.cuda.synchronize()
print(json.dumps({"load_s": load_s, "max_abs": float((y.float() - ref.float()).abs().max())}))
'''


def mint_aot(ctx) -> dict:
    import torch
    phases = ctx["phases"]
    work = Path.cwd()
    name, shape = AOT_ENTRY
    pkg = work / f"{ctx['cell']}.pt2"
    child_out = work / f"entry-{name}.json"

    ctx["phase"] = "load"
    s = time.monotonic()
    m = build_model(torch)
    x = example_input(torch, shape)
    with torch.no_grad():
        m(x)
    torch.cuda.synchronize()
    phases["load"] = r3(ctx["import_s"] + time.monotonic() - s)

    # One entry, one child; the parent stays out of the way while it compiles.
    ctx["phase"] = "inductor_compile"
    env = dict(os.environ)
    env.update({"PROBE_DIR": str(HERE), "PROBE_SHAPE": json.dumps(list(shape)),
                "PROBE_PKG": str(pkg), "PROBE_CHILD_OUT": str(child_out),
                "LANE_ARTIFACTS_DIR": str(ctx["artifacts"]),
                "TORCHINDUCTOR_CACHE_DIR": str(ctx["inductor_cache"])})
    ctx["artifacts"].mkdir(parents=True, exist_ok=True)
    spawn = time.time()
    proc = subprocess.run([sys.executable, "-c", AOT_CHILD], env=env, stdin=subprocess.DEVNULL)
    reaped = time.time()
    if not child_out.exists():
        raise RuntimeError(f"the entry's compile child exited {proc.returncode} without a record")
    c = json.loads(child_out.read_text())
    if "error" in c:
        if c.get("oom"):
            ctx["status"] = "resource"
        raise RuntimeError(f"entry {name}: {c['error']}")

    # Third partition: the compile wall.
    raw = c["raw"]
    part = {k: ssum(raw, v) for k, v in AOT_PARTITION.items()}
    compile_wall = r3(c["compile_wall_s"])
    part["compile_other_s"] = r3(compile_wall - sum(part.values()))
    # Second: the child's wall.
    cw = {"child_seal_s": r3(c["seal_s"]), "child_torch_import_s": r3(c["torch_import_s"]),
          # the probe takes no device lock: 0 s
          "child_devlock_s": 0.0, "child_program_load_s": r3(c["program_load_s"]),
          "compile_wall_s": compile_wall}
    child_wall = r3(c["t1"] - c["t0"])
    cw["child_other_s"] = r3(child_wall - sum(cw.values()))
    # First: the parent's view of the entry.
    compile_s = r3(reaped - spawn)
    boot = r3(c["t0"] - spawn)
    entry = {"entry": name, "compile_s": compile_s, "child_boot_s": boot, "child_wall_s": child_wall,
             "reap_lag_s": r3(compile_s - boot - child_wall), **cw, **part}
    ov = overlays_of(raw, AOT_OVERLAYS)
    entry.update({k: ov[k] for k in ("autotune_s", "triton_s", "inductor_total_s") if k in ov})
    phases["trace_graph"] = r3(c["export_s"])
    phases["inductor_compile"] = r3(compile_wall)

    # What the compile measured is kept even when the warm forward fails.
    table = {
        "v": 1,
        "n_entries": 1,
        "autotune": "off (max_autotune=False; pointwise/reduction configs still benchmarked)",
        "inductor_configs": INDUCTOR_CONFIGS,
        "totals": {"export_s": r3(c["export_s"]), "compile_s": compile_s},
        "phases": part,
        "overlays": ov,
        "entries": [entry],
        "pool": {"k": 1, "reason": "one entry, compiled in one child"},
    }
    ctx["partial"] = {"cell_key": f"{ctx['cell']}-{c['digest'][:16]}", "artifact": pkg.name,
                      "digest": c["digest"], "mint_phases": table, "raw_metrics": raw}

    # The warm forward: the sealed package, loaded back in a fresh process (as
    # a worker would load it; a crash there is named, not a crashed mint).
    ctx["phase"] = "warmup_forward"
    s = time.monotonic()
    w = subprocess.run([sys.executable, "-X", "faulthandler", "-c", WARM_CHILD], env=env,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
    warm = r3(time.monotonic() - s)
    sys.stderr.write(w.stderr)
    phases["warmup_forward"] = warm
    phases["router_drain"] = 0.0
    if w.returncode != 0:
        how = f"died by signal {-w.returncode}" if w.returncode < 0 else f"exited {w.returncode}"
        last = [ln.strip() for ln in w.stderr.strip().splitlines()[-6:]]
        raise RuntimeError(f"loading the sealed package and running it in a fresh process {how}: "
                           + " | ".join(last))
    wr = json.loads(w.stdout.strip().splitlines()[-1])
    max_abs = wr["max_abs"]
    if max_abs != max_abs or max_abs == float("inf"):
        raise RuntimeError(f"the sealed package's forward is not finite: max |diff| {max_abs}")

    ctx["phase"] = "seal_publish"
    phases["seal_publish"] = r3(c["seal_s"])
    ctx["phase"] = "finalize"
    s = time.monotonic()
    pkg.unlink()  # its members are under artifacts/package; the digest seals the whole
    phases["finalize"] = r3(time.monotonic() - s)

    table["totals"]["warm_s"] = warm
    peak = max(int(torch.cuda.max_memory_allocated()), int(c.get("peak_vram_bytes", 0)))
    return {
        "status": "minted",
        "cell_key": f"{ctx['cell']}-{c['digest'][:16]}",
        "artifact": pkg.name,
        "digest": c["digest"],
        "peak_vram_bytes": peak,
        "mint_phases": table,
        "raw_metrics": raw,
        "detail": f"warm forward max |diff| vs eager {max_abs:.2e}",
    }


# --- the frame ----------------------------------------------------------------------
def write_report(path: Path, report: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(report, indent=1, sort_keys=False) + "\n")
    os.replace(tmp, path)


def main(argv) -> int:
    recipe = os.environ.get("LANE_RECIPE", "")
    if "--recipe" in argv:
        recipe = argv[argv.index("--recipe") + 1]
    report_path = Path(os.environ.get("LANE_REPORT_PATH") or "report.json")
    cell = os.environ.get("LANE_CELL") or f"probe-{recipe or 'unknown'}"
    ctx = {"cell": cell, "phase": "load", "phases": {}, "status": "failed", "import_s": 0.0,
           "artifacts": Path(os.environ.get("LANE_ARTIFACTS_DIR") or "artifacts").resolve(),
           "inductor_cache": Path(os.environ.get("TORCHINDUCTOR_CACHE_DIR") or "cache/inductor").resolve()}
    t0 = time.monotonic()
    # `recipe` is echoed only when it is one: a wrong echo would misname the mint.
    base = {"cell": cell, **({"recipe": recipe} if recipe in ("dynamo", "aot") else {})}
    try:
        if recipe not in ("dynamo", "aot"):
            raise ValueError(f"unknown recipe {recipe!r}: set LANE_RECIPE or --recipe to dynamo or aot")
        try:
            import torch
        except Exception as exc:  # a node without torch: deterministic, never retried
            raise RuntimeError(f"torch is not importable on this node: {type(exc).__name__}: {exc}")
        if not torch.cuda.is_available():
            raise RuntimeError(f"CUDA is not available to torch {torch.__version__} on this node")
        torch.cuda.init()
        # `load` counts importing torch and starting CUDA too: they are this
        # process's cost of getting to the model.
        ctx["import_s"] = time.monotonic() - t0
        body = mint_dynamo(ctx) if recipe == "dynamo" else mint_aot(ctx)
        report = {**body, **base, "elapsed_s": r3(time.monotonic() - t0), "phases": ctx["phases"]}
        # The key order of the upstream's report.
        order = ["status", "cell", "cell_key", "artifact", "digest", "detail", "elapsed_s",
                 "peak_vram_bytes", "phases", "mint_phases", "recipe", "raw_metrics"]
        write_report(report_path, {k: report[k] for k in order if k in report})
        print(f"probe_mint: {cell} ({recipe}) minted in {report['elapsed_s']} s", flush=True)
        return 0
    except BaseException as exc:  # the child names its error: `failed` (or `resource`)
        status = ctx["status"]
        if type(exc).__name__ == "OutOfMemoryError":
            status = "resource"
        traceback.print_exc()
        partial = ctx.get("partial", {})
        write_report(report_path, {"status": status, **base, **partial,
                                   "detail": f"{type(exc).__name__}: {exc}",
                                   "phase": ctx["phase"], "elapsed_s": r3(time.monotonic() - t0),
                                   "phases": ctx["phases"]})
        print(f"probe_mint: {cell} ({recipe}) {status} in phase {ctx['phase']}: {exc}",
              file=sys.stderr, flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
