"""Write mint reports with gen-worker 0.93.3's OWN table builders.

Until the pooled and dynamo mints recorded on a GPU land, the pooled AOT table
(three nested `child_*` partitions per entry), an aborted pooled mint's
partial table (`terminus`, `at`) and a dynamo warm ledger are produced here by
the upstream's code, not written by hand:

- the width decision: `aot_compile_pool.entry_workers(...)` -> `PoolWidth.facts()`;
- one entry child's partitions: `aot_compile_spans.SpanLedger` +
  `aot_compile_spans.phase_delta` + `aot_compile_child._span_fields`, closed by
  `aot_compile_pool.EntryCompilePool._close_entry_partition`;
- the pool's ledger: `aot_compile_pool.PoolLedger.facts()` via
  `aot_mint._pool_facts`;
- the table: `aot_mint._mint_phase_table` and `aot_mint.partial_phase_table`
  (with `MintProgress.beat` for `at`);
- the warm ledger: `warm_spans.WarmLedger.job()` / `.table()`;
- the report: `mint_process.MintReport`, encoded by msgspec as the child does.

What is NOT the upstream's: the NUMBERS (torch's counters, the clocks, the
pod's budget), which need a GPU and torch; they are fed in below. No torch is
imported: every function used here imports torch lazily or not at all.

Usage (Python >= 3.12 with gen-worker's base dependencies installed; torch not
needed):

    python write_reports.py /path/to/gen-worker-v0.93.3/src OUT_DIR
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, sys.argv[1])
OUT = Path(sys.argv[2])

import msgspec  # noqa: E402

from gen_worker import (  # noqa: E402
    aot_compile_child,
    aot_compile_pool,
    aot_compile_spans,
    aot_export_parallel,
    aot_mint,
    mint_process,
    warm_spans,
)
from gen_worker.worker_goals import WorkerGoals  # noqa: E402

GIB = 1024**3
EPOCH = 1_800_000_000.0
ENTRIES = ["unet/B=1", "unet/B=2", "unet/B=4"]
INDUCTOR_CONFIGS = {"compile_threads": 4}


def counters(lowering, codegen, host, passes, inductor_total, triton, wait):
    """A `compilation_time_metrics` snapshot, keyed as torch 2.13 keys it."""
    return {
        "GraphLowering.run": lowering,
        "GraphLowering.codegen": codegen,
        "AotCodeCompiler.compile": host,
        "_recursive_pre_grad_passes": passes * 0.25,
        "_recursive_post_grad_passes": passes * 0.75,
        "compile_fx.<locals>.fw_compiler_base": inductor_total,
        "triton_heuristics.run": triton,
        "async_compile.wait": wait,
    }


class Row(SimpleNamespace):
    """What `_close_entry_partition` reads off a running entry."""


def entry_partition(index, *, seal, torch_import, devlock, load, compile_wall,
                    other, boot, interp, reap, metrics):
    """One entry child's report, closed by the pool, as the pool does it."""
    ledger = aot_compile_spans.SpanLedger()
    ledger.mark("child_seal_s", seal)
    ledger.mark("child_devlock_s", devlock)
    ledger.mark("child_torch_import_s", torch_import)
    ledger.mark("child_program_load_s", load)
    ledger.mark("compile_wall_s", compile_wall)
    # The child's own wall = the marked spans + the time nobody claimed.
    wall = seal + devlock + torch_import + load + compile_wall + other
    ledger._t0 = time.monotonic() - wall
    start = EPOCH + 1000.0 * index
    ledger.start_epoch = start
    aot_compile_child.MODULE_IMPORT_EPOCH = start - boot + interp
    partition, overlays, raw = aot_compile_spans.phase_delta({}, metrics)
    seal_detail = {"seal_scrub_s": 0.002, "seal_config_s": round(seal * 0.8, 3),
                   "seal_libhash_s": 0.071}
    fields = aot_compile_child._span_fields(ledger, partition, overlays, seal_detail)
    fields["report_epoch"] = start + wall
    report = aot_compile_pool.EntryReport(
        entry=ENTRIES[index], status=aot_compile_pool.COMPILED,
        files=[f"/pool/entry-{index}/model.so"], phases=dict(partition),
        detail="3 loose file(s)", elapsed_s=round(wall, 2),
        peak_rss_bytes=int(2.1 * GIB), peak_device_bytes=int(6.5 * GIB),
        peak_device_reserved_bytes=int(7 * GIB),
        metrics_raw={k: v for k, v in sorted(raw.items())}, **fields)
    pool = SimpleNamespace(
        entry_stage_seconds={ENTRIES[index]: 1.25 + index * 0.5},
        entry_spawn_seconds={ENTRIES[index]: 0.04})
    row = Row(entry=ENTRIES[index], spawn_epoch=start - boot)
    elapsed = boot + wall + reap
    spans = aot_compile_pool.EntryCompilePool._close_entry_partition(
        pool, row, report, elapsed=elapsed, reap_epoch=start + wall + reap)
    return round(elapsed, 2), spans, dict(report.overlays)


def entry_rows():
    shapes = [
        dict(seal=2.1, torch_import=3.4, devlock=0.01, load=4.2,
             compile_wall=61.7, other=0.41, boot=1.9, interp=1.2, reap=0.3,
             metrics=counters(0.52, 5.1, 51.3, 0.31, 57.2, 3.9, 2.2)),
        dict(seal=2.0, torch_import=3.3, devlock=0.01, load=4.4,
             compile_wall=63.9, other=0.38, boot=1.8, interp=1.1, reap=0.4,
             metrics=counters(0.55, 5.4, 53.0, 0.33, 59.4, 4.1, 2.3)),
        dict(seal=2.2, torch_import=3.5, devlock=0.01, load=4.9,
             compile_wall=70.2, other=0.44, boot=2.0, interp=1.2, reap=0.2,
             metrics=counters(0.61, 6.2, 58.1, 0.35, 65.3, 4.6, 2.6)),
    ]
    rows = []
    for i, shape in enumerate(shapes):
        compile_s, spans, overlays = entry_partition(i, **shape)
        rows.append((compile_s, spans, overlays))
    return rows


def width():
    return aot_compile_pool.entry_workers(
        len(ENTRIES), peak_rss_bytes=int(2.1 * GIB),
        device_bytes=int(9 * GIB), vcpus=16, available_bytes=96 * GIB,
        free_vram_bytes=130 * GIB, device_basis="measured", device_lock=True,
        goals=WorkerGoals(serve=False, mint=True))


def pool_facts(busy_walls, *, wall_s, idle=None, failed_entry=""):
    """The pool's ledger as `EntryCompilePool.compile` leaves it: `busy_s` is
    the sum of the walls `_collect` booked, the idle buckets what `charge`
    accumulated, the capacity `workers * wall` at a constant K."""
    busy = round(sum(busy_walls), 3)
    capacity = round(3 * wall_s, 3)
    if idle is None:
        # A finished pool: every slot-second was running or idle.
        idle = {"idle_staging_s": 4.1, "idle_drain_s": 3.9, "idle_spawn_s": 0.12}
        idle["idle_other_s"] = round(capacity - busy - sum(idle.values()), 3)
    ledger = aot_compile_pool.PoolLedger(
        workers=3, workers_initial=3, wall_s=wall_s, busy_s=busy,
        capacity_s=capacity, stage_total_s=4.2, spawn_total_s=0.12,
        seal_seed_s=0.09, entries=len(ENTRIES), **idle)
    pool = SimpleNamespace(
        ledger=ledger, peak_concurrency=3, peak_rss_bytes=int(6.4 * GIB),
        peak_device_bytes=int(21 * GIB), oom_entry=failed_entry,
        oom_basis="sigkill" if failed_entry else "")
    return aot_mint._pool_facts(pool)


def export_timings(timings, rows):
    timings["export_reuse_eligible"] = 0.0
    timings["canonicalized_entries"] = 0.0
    timings["export_all_s"] = 3.87
    timings["export_peak_device_bytes"] = float(int(3.2 * GIB))
    timings["export_peak_device_reserved_bytes"] = float(int(3.5 * GIB))
    timings.update(aot_export_parallel.decide(
        [(None, None)] * len(rows), timings,
        free_device_bytes=int(130 * GIB), cpu_workers=8))


def minted_entries(rows, *, compiled=True):
    minted = []
    for i, name in enumerate(ENTRIES):
        timings = {"export_s": [1.21, 1.18, 1.3][i], "prop_probe_s": 0.06}
        if compiled:
            compile_s, spans, overlays = rows[i]
            timings["compile_s"] = compile_s
            timings["phases"] = dict(spans)
            timings["overlays"] = dict(overlays)
        minted.append(SimpleNamespace(name=name, timings=timings))
    return minted


def pooled_minted():
    rows = entry_rows()
    timings = {}
    export_timings(timings, rows)
    timings["entry_workers"] = 3.0
    timings["package_s"] = 0.21
    timings["declare_s"] = 1.42
    pool_wall = 81.3
    timings["total_s"] = round(3.87 + 0.09 + pool_wall + 0.21 + 1.42 + 0.36, 2)
    table = aot_mint._mint_phase_table(
        minted_entries(rows), timings, INDUCTOR_CONFIGS, width(),
        pool_facts([r[0] for r in rows], wall_s=pool_wall))
    return mint_process.MintReport(
        status="minted",
        artifact="/mint/out/cell.tar.gz",
        digest="ab" * 32,
        cell_key="ck6-" + "7f" * 28,
        detail="exported 3 graph class(es) for family 'microrig' as one "
               "aot-inductor cell",
        phase="finalize",
        peak_vram_bytes=int(3.2 * GIB),
        elapsed_s=131.92,
        phases={"load": 29.9, "trace_graph": 88.61, "seal_publish": 1.7,
                "finalize": 0.001},
        mint_phases=table,
        recipe="aot",
    )


def pooled_aborted():
    """The pool lost entry 3 to the OOM killer; `mint()` attaches the partial
    table to the refusal, and the mint child writes it in its report."""
    rows = entry_rows()
    progress = aot_mint.MintProgress(inductor_configs=INDUCTOR_CONFIGS)
    progress.t_mint = time.monotonic() - 63.9
    export_timings(progress.timings, rows)
    progress.minted.extend(minted_entries(rows, compiled=False))
    progress.width = width()
    progress.beat(aot_mint.PHASE_INDUCTOR_COMPILE, 0, 3, "3 entries, 3 wide")
    # Entry 3 is reaped first, SIGKILLed at 58 s: `_collect` books its wall
    # and raises; the two siblings still running are torn down in `finally`
    # and never booked, so their slot-seconds are neither busy nor idle.
    progress.pool_ledger = pool_facts(
        [58.0], wall_s=59.6, failed_entry=ENTRIES[2],
        idle={"idle_staging_s": 4.1, "idle_drain_s": 0.0,
              "idle_spawn_s": 0.12, "idle_other_s": 0.05})
    table = aot_mint.partial_phase_table(progress)
    return mint_process.MintReport(
        status="refused",
        detail=(f"aot mint refused: entry {ENTRIES[2]!r}: compile child exited "
                f"-9 after 58s (killed by SIGKILL): no detail"),
        elapsed_s=94.1,
        phases={"load": 30.1, "trace_graph": 63.92},
        phase="trace_graph",
        peak_vram_bytes=int(3.2 * GIB),
        mint_phases=table,
    )


class Clock:
    """Scripted `time.monotonic` for the warm ledger's wall clock."""

    def __init__(self, walls):
        self.t = 0.0
        self.walls = list(walls)
        self.open = False

    def monotonic(self):
        if self.open:
            self.t += self.walls.pop(0)
        self.open = not self.open
        return self.t


def warm_minted():
    """A dynamo mint's warm ledger: four warm jobs, the third compiles nothing."""
    jobs = [
        ("txt2img/1024", 41.27, {"_compile.compile_inner": 36.901,
                                 "bytecode_tracing": 1.204, "build_guards": 0.11,
                                 "_recursive_post_grad_passes": 0.9,
                                 "GraphLowering.run": 2.8,
                                 "GraphLowering.codegen": 4.1,
                                 "PyCodeCache.load_by_key_path": 24.3,
                                 "async_compile.wait": 21.0,
                                 "compile_file": 88.2,
                                 "create_aot_dispatcher_function": 33.5,
                                 "triton_compile": 19.6}),
        ("txt2img/768", 17.05, {"_compile.compile_inner": 12.45,
                                "bytecode_tracing": 0.4,
                                "GraphLowering.run": 1.1,
                                "GraphLowering.codegen": 1.6,
                                "PyCodeCache.load_by_key_path": 8.7,
                                "async_compile.wait": 7.9,
                                "compile_file": 30.4,
                                "create_aot_dispatcher_function": 11.9,
                                "triton_compile": 6.8}),
        ("txt2img/1024-again", 3.92, {}),
        ("img2img/1024", 9.61, {"_compile.compile_inner": 4.2,
                                "bytecode_tracing": 0.3,
                                "GraphLowering.run": 0.4,
                                "GraphLowering.codegen": 0.6,
                                "PyCodeCache.load_by_key_path": 2.5,
                                "async_compile.wait": 2.1,
                                "create_aot_dispatcher_function": 3.9}),
    ]
    totals = {}
    snapshots = []
    for _, _, delta in jobs:
        before = dict(totals)
        for k, v in delta.items():
            totals[k] = totals.get(k, 0.0) + v
        snapshots.append((before, dict(totals)))
    feed = iter(s for pair in snapshots for s in pair)
    warm_spans.aot_compile_spans.phase_snapshot = lambda: dict(next(feed))
    warm_spans.time = Clock([wall for _, wall, _ in jobs])
    ledger = warm_spans.WarmLedger()
    for name, _, _ in jobs:
        with ledger.job(name):
            pass
    table = ledger.table()
    wall = table["totals"]["warm_wall_s"]
    return mint_process.MintReport(
        status="minted",
        artifact="/mint/out/cell.tar.gz",
        digest="cd" * 32,
        cell_key="ck5-" + "3e" * 28,
        detail="packed cell.tar.gz for family 'microrig'",
        phase="finalize",
        peak_vram_bytes=int(9.1 * GIB),
        elapsed_s=round(27.4 + wall + 0.002 + 3.1 + 0.01 + 0.4, 3),
        phases={"load": 27.4, "warmup_forward": round(wall + 0.35, 3),
                warm_spans.PHASE_ROUTER_DRAIN: 0.002, "seal_publish": 3.1,
                "finalize": 0.01},
        mint_phases=table,
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, make in [("pooled-3-entry.report.json", pooled_minted),
                       ("pooled-aborted.report.json", pooled_aborted),
                       ("warm-ledger.report.json", warm_minted)]:
        (OUT / name).write_bytes(msgspec.json.encode(make()))
        print("wrote", OUT / name)


if __name__ == "__main__":
    main()
