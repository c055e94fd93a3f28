#!/usr/bin/env bash
# Whole-process benchmarks of the ledger, recorded in docs/performance.md
# (## Ledger):
#
# 1. TORCH_TRACE metric extraction on a >= 1 GB trace built by repeating the
#    real H200 records, side by side with `cat FILE > /dev/null` (merely
#    reading it) and `tlparse` (crates.io) on the same file, each pinned to
#    one core; wall time (best of N, interleaved) and peak RSS.
# 2. `lane diff` of two >= 200 MB artifact trees (the real H200 pair plus
#    identical weight blobs): wall time and peak RSS.
#
# Usage: crates/lane-ledger/benches/trace_vs_tlparse.sh [TRACE_MB] [TREE_MB]
# Env:   BENCH_RUNS (default 5), BENCH_CORE (default 0; `any` pins nothing,
#        so lane's read-ahead thread gets a core of its own), TLPARSE (a tlparse
#        binary; else `tlparse` on PATH; else installed with
#        `cargo install tlparse --locked` into a temporary root; `none`
#        leaves tlparse out). TREE_MB 0 leaves the diff benchmark out (and
#        the build of lane-cli).
# Temporary files live under one mktemp directory, removed on exit.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
TRACE_MB=${1:-1024}
TREE_MB=${2:-200}
RUNS=${BENCH_RUNS:-5}
CORE=${BENCH_CORE:-0}
if [[ "$CORE" == any ]]; then PIN=(env); else PIN=(taskset -c "$CORE"); fi
WORK=$(mktemp -d "${TMPDIR:-/tmp}/lane-ledger-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

# BENCH_BIN_DIR: a folder holding release builds of `lane` and
# `trace_metrics` made elsewhere (a machine without cargo, such as the H200
# device); without it both are built here.
if [[ -n "${BENCH_BIN_DIR:-}" ]]; then
    LANE_TRACE="$BENCH_BIN_DIR/trace_metrics"
    LANE="$BENCH_BIN_DIR/lane"
else
    TARGET_DIR=$(cd "$ROOT" && cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
    (cd "$ROOT" && cargo build --release -q -p lane-ledger --example trace_metrics)
    if [[ "$TREE_MB" != 0 ]]; then
        (cd "$ROOT" && cargo build --release -q -p lane-cli)
    fi
    LANE_TRACE="$TARGET_DIR/release/examples/trace_metrics"
    LANE="$TARGET_DIR/release/lane"
fi

if [[ "${TLPARSE:-}" == none ]]; then
    TLPARSE=
elif [[ -n "${TLPARSE:-}" ]]; then
    :
elif command -v tlparse >/dev/null; then
    TLPARSE=$(command -v tlparse)
else
    echo "installing tlparse into $WORK/tlparse-root" >&2
    cargo install -q tlparse --locked --root "$WORK/tlparse-root"
    TLPARSE="$WORK/tlparse-root/bin/tlparse"
fi

# Wall time from the shell clock (nanoseconds); peak RSS from /usr/bin/time
# when present (its own %e has only 10 ms resolution).
# Standard output goes to $MEASURE_TO (default $WORK/out.txt; /dev/null for cat;
# not $OUT, which the device machine sets for its own use).
measure() { # label, command...: prints "label seconds peak_kib"
    local label=$1 t0 t1 kib=NA out=${MEASURE_TO:-$WORK/out.txt}
    shift
    t0=$(date +%s.%N)
    if [[ -x /usr/bin/time ]]; then
        /usr/bin/time -f "%M" -o "$WORK/time.txt" "${PIN[@]}" "$@" >"$out" 2>"$WORK/err.txt"
        t1=$(date +%s.%N)
        kib=$(tail -n 1 "$WORK/time.txt")
    else
        "${PIN[@]}" "$@" >"$out" 2>"$WORK/err.txt"
        t1=$(date +%s.%N)
    fi
    echo "$label $(python3 -c "print(round($t1 - $t0, 4))") $kib"
}

best() { # label: min seconds over the rows of that label, with its RSS
    awk -v l="$1" '$1 == l { if (best == "" || $2 < best) { best = $2; rss = $3 } } END { print best, rss }' "$WORK/runs.txt"
}

echo "== building a ${TRACE_MB} MB trace from the real records" >&2
SRC=$(ls "$ROOT"/tests/data/h200-torch2.11/trace/*.log | head -n 1)
SRC_BYTES=$(stat -c %s "$SRC")
COPIES=$(( (TRACE_MB * 1024 * 1024 + SRC_BYTES - 1) / SRC_BYTES ))
for _ in $(seq "$COPIES"); do cat "$SRC"; done >"$WORK/trace.log"
TRACE_BYTES=$(stat -c %s "$WORK/trace.log")
cat "$WORK/trace.log" >/dev/null # warm the page cache for everyone

: >"$WORK/runs.txt"
for _ in $(seq "$RUNS"); do
    MEASURE_TO=/dev/null measure cat cat "$WORK/trace.log" >>"$WORK/runs.txt"
    measure lane "$LANE_TRACE" "$WORK/trace.log" >>"$WORK/runs.txt"
    cp "$WORK/out.txt" "$WORK/lane-out.txt"
    TRACE_READER=single measure lane-1-thread "$LANE_TRACE" "$WORK/trace.log" >>"$WORK/runs.txt"
done
# tlparse writes a report about twice the input's size: run it once.
if [[ -n "$TLPARSE" ]]; then
    measure tlparse "$TLPARSE" "$WORK/trace.log" -o "$WORK/tl_out" --overwrite --no-browser >>"$WORK/runs.txt"
    TL_OUT=$(du -sm "$WORK/tl_out" | cut -f1)
    rm -rf "$WORK/tl_out"
fi

read -r CAT_S CAT_K <<<"$(best cat)"
read -r LANE_S LANE_K <<<"$(best lane)"
read -r ONE_S ONE_K <<<"$(best lane-1-thread)"
mbps() { python3 -c "print(round($TRACE_BYTES / $1 / 1e6))"; }
ratio() { python3 -c "print(round($1 / $2, 2))"; }

echo "trace: $TRACE_BYTES bytes ($COPIES copies of $(basename "$SRC")), core $CORE, best of $RUNS${TLPARSE:+ (tlparse: 1 run)}"
printf '%-28s %9s %10s %12s\n' "reader" "seconds" "MB/s" "peak RSS KiB"
printf '%-28s %9s %10s %12s\n' "cat > /dev/null" "$CAT_S" "$(mbps "$CAT_S")" "$CAT_K"
printf '%-28s %9s %10s %12s\n' "lane (trace_metrics)" "$LANE_S" "$(mbps "$LANE_S")" "$LANE_K"
printf '%-28s %9s %10s %12s\n' "lane, one thread" "$ONE_S" "$(mbps "$ONE_S")" "$ONE_K"
echo "lane / cat speed: $(ratio "$CAT_S" "$LANE_S") (one thread: $(ratio "$CAT_S" "$ONE_S"))"
if [[ -n "$TLPARSE" ]]; then
    read -r TL_S TL_K <<<"$(best tlparse)"
    printf '%-28s %9s %10s %12s\n' "tlparse $("$TLPARSE" --version | cut -d' ' -f2)" "$TL_S" "$(mbps "$TL_S")" "$TL_K"
    echo "lane / tlparse speed: $(ratio "$TL_S" "$LANE_S"); tlparse output ${TL_OUT} MB"
fi
echo "lane says: $(cut -c1-240 "$WORK/lane-out.txt")"

# Flat memory: the same reader on a tenth of the file.
head -c $(( TRACE_BYTES / 10 )) "$WORK/trace.log" >"$WORK/small.log"
read -r _ SMALL_S SMALL_K <<<"$(measure lane-small "$LANE_TRACE" "$WORK/small.log")"
echo "peak RSS on a tenth of the trace: $SMALL_K KiB (full: $LANE_K KiB)"
rm -f "$WORK/trace.log" "$WORK/small.log"
if [[ "$TREE_MB" == 0 ]]; then exit 0; fi

echo "== building two ${TREE_MB} MB artifact trees" >&2
for side in a b; do
    cp -r "$ROOT/tests/data/h200-torch2.11/aot_$side" "$WORK/tree_$side"
    mkdir -p "$WORK/tree_$side/package/data/weights"
done
# Identical weights on both sides (as two mints of one cell have): the diff
# must hash them and move on.
BLOBS=$(( (TREE_MB + 19) / 20 ))
for i in $(seq "$BLOBS"); do
    head -c $((20 * 1024 * 1024)) /dev/urandom >"$WORK/tree_a/package/data/weights/w$i.bin"
    cp "$WORK/tree_a/package/data/weights/w$i.bin" "$WORK/tree_b/package/data/weights/w$i.bin"
done
sync
TREE_BYTES=$(du -sb "$WORK/tree_a" | cut -f1)
: >"$WORK/runs.txt"
for _ in $(seq "$RUNS"); do
    measure diff "$LANE" diff "$WORK/tree_a" "$WORK/tree_b" --json >>"$WORK/runs.txt" || true
done
read -r DIFF_S DIFF_K <<<"$(best diff)"
VERDICT=$(python3 -c "import json; print(json.load(open('$WORK/out.txt'))['verdict'])")
echo "diff: two trees of $TREE_BYTES bytes each: $DIFF_S s (best of $RUNS), peak RSS $DIFF_K KiB, verdict $VERDICT"
