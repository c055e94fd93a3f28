#!/usr/bin/env bash
# `lane diff` beside diffoscope on the real cold aot pair
# (tests/data/gw-0.93.3-h200/aot-pair/r{1,2}/cell.tar.gz), then lane alone on
# GB-sized cells made from it by repetition: the same weights in both
# sides (memory flat in the cell's size), and every weight differing
# (memory bounded by the per-side content budget), each beside its
# floor: the same two archives inflated and hashed by the fastest tools
# on the machine (pigz, else gzip, into sha256sum), both sides in
# parallel, one pass. The floor inflates the outer gzip only: the .pt2
# inside is stored (not deflated), so that is all the inflating there is.
# Wall time best of BENCH_RUNS, peak RSS from /usr/bin/time -v (for the
# floor, of its largest process); everything pinned to BENCH_CORE when
# set (a core list: lane reads both sides at once and the floor runs both
# in parallel, so give both the same two cores, e.g. 0,1).
#
# Usage: crates/lane-diff/benches/diff_vs_diffoscope.sh [SHARDS]
#   SHARDS       weight shards added to each side's model.pt2 (default 300:
#                ~700 MB of weights per side, identical in both)
#   LANE         the lane binary (default target/release/lane; build it
#                with `cargo build --release -p lane-cli`)
#   DIFFOSCOPE   the diffoscope command (default: diffoscope on PATH; see
#                docs/performance.md for the venv and Debian packages);
#                its row is left out when there is none
#   BENCH_RUNS   runs per measurement (default 3)
#   BENCH_CORE   the cores to pin to with taskset -c (default: none)
set -euo pipefail

root="$(cd "$(dirname "$0")/../../.." && pwd)"
shards="${1:-300}"
lane="${LANE:-$root/target/release/lane}"
diffoscope="${DIFFOSCOPE:-diffoscope}"
runs="${BENCH_RUNS:-3}"
pin=()
if [ -n "${BENCH_CORE:-}" ]; then pin=(taskset -c "$BENCH_CORE"); fi
pair="$root/tests/data/gw-0.93.3-h200/aot-pair"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

[ -x "$lane" ] || { echo "no lane binary at $lane (cargo build --release -p lane-cli)" >&2; exit 2; }
have_diffoscope=1
command -v "$diffoscope" >/dev/null || { echo "no diffoscope ($diffoscope): its row is left out" >&2; have_diffoscope=; }
unzip_cmd="gzip -dc"
if command -v pigz >/dev/null; then unzip_cmd="pigz -dc"; fi

# measure LABEL CMD...: best wall of $runs, and the peak RSS of that run.
# shellcheck source=measure.sh
source "$root/crates/lane-diff/benches/measure.sh"

# The GB-sized pair: each side's model.pt2 with SHARDS weight shards
# appended (the same bytes in both sides, as weights are: r1's wrapper .so,
# so they do not compress away), packed again as cell.tar.gz beside its
# metadata.json.
python3 - "$pair" "$work" "$shards" <<'EOF'
import copy, io, sys, tarfile, zipfile, os
pair, work, shards = sys.argv[1], sys.argv[2], int(sys.argv[3])
cells = {}
for r in ("r1", "r2"):
    src = tarfile.open(f"{pair}/{r}/cell.tar.gz")
    meta = src.extractfile("./metadata.json").read()
    pt2 = zipfile.ZipFile(io.BytesIO(src.extractfile("./model.pt2").read()))
    so = pt2.read(next(n for n in pt2.namelist() if n.endswith(".wrapper.so")))
    cells[r] = (meta, pt2, so)
# big: the same weights in both sides (r1's .so bytes); worst: every shard
# differs between the sides (each side's own .so, numbered).
for variant in ("big", "worst"):
    for r, (meta, pt2, so) in cells.items():
        os.makedirs(f"{work}/{variant}/{r}", exist_ok=True)
        big_pt2 = f"{work}/{variant}/{r}/model.pt2"
        with zipfile.ZipFile(big_pt2, "w", zipfile.ZIP_STORED) as out:
            for info in pt2.infolist():
                # writestr updates the ZipInfo it is given: hand it a copy.
                out.writestr(copy.copy(info), pt2.read(info.filename))
            for i in range(shards):
                blob = cells["r1"][2] if variant == "big" else so + i.to_bytes(4, "little")
                out.writestr(f"model/data/weights/shard_{i:04d}.bin", blob)
        with tarfile.open(f"{work}/{variant}/{r}/cell.tar.gz", "w:gz", compresslevel=1) as t:
            ti = tarfile.TarInfo("metadata.json"); ti.size = len(meta)
            t.addfile(ti, io.BytesIO(meta))
            t.add(big_pt2, "model.pt2")
        os.remove(big_pt2)
EOF

bytes() { stat -c %s "$1"; }
unpacked() { python3 -c 'import sys,tarfile; print(sum(m.size for m in tarfile.open(sys.argv[1])))' "$1"; }

echo "real pair: $(bytes "$pair/r1/cell.tar.gz") + $(bytes "$pair/r2/cell.tar.gz") bytes packed"
echo "big pair: $(bytes "$work/big/r1/cell.tar.gz") bytes packed, $(unpacked "$work/big/r1/cell.tar.gz") unpacked, per side"
echo
echo "| what | wall (best of $runs) | peak RSS |"
echo "| --- | --- | --- |"
measure "lane diff, real aot pair (text)" "$lane" diff "$pair/r1/cell.tar.gz" "$pair/r2/cell.tar.gz"
lane_real="$(cat "$work/last")"
measure "lane diff --json, real aot pair" "$lane" diff --json "$pair/r1/cell.tar.gz" "$pair/r2/cell.tar.gz"
if [ -n "$have_diffoscope" ]; then
  measure "diffoscope, real aot pair (text)" "$diffoscope" --text "$work/diffoscope.txt" "$pair/r1/cell.tar.gz" "$pair/r2/cell.tar.gz"
  diffo_real="$(cat "$work/last")"
fi
# The floor: both archives inflated ($unzip_cmd) and hashed (sha256sum),
# one pass each, the two sides in parallel.
floor='for f in "$@"; do '"$unzip_cmd"' "$f" | sha256sum >/dev/null & done; wait'
measure "floor: $unzip_cmd into sha256sum, both sides in parallel, big pair" bash -c "$floor" floor "$work/big/r1/cell.tar.gz" "$work/big/r2/cell.tar.gz"
floor_big="$(cat "$work/last")"
measure "lane diff, big pair ($shards shards, same weights)" "$lane" diff "$work/big/r1/cell.tar.gz" "$work/big/r2/cell.tar.gz"
big_verdict="$(grep -m1 '^verdict' "$work/out" || true)"
lane_big="$(cat "$work/last")"
measure "floor: $unzip_cmd into sha256sum, both sides in parallel, worst pair" bash -c "$floor" floor "$work/worst/r1/cell.tar.gz" "$work/worst/r2/cell.tar.gz"
floor_worst="$(cat "$work/last")"
measure "lane diff, worst pair ($shards shards, every one differs)" "$lane" diff "$work/worst/r1/cell.tar.gz" "$work/worst/r2/cell.tar.gz"
lane_worst="$(cat "$work/last")"
echo
echo "big pair: $big_verdict"
echo "worst pair: $(grep -m1 '^verdict' "$work/out" || true)"
awk -v l="$lane_big" -v f="$floor_big" 'BEGIN { printf "lane / floor, big pair: %.2fx\n", l / f }'
awk -v l="$lane_worst" -v f="$floor_worst" 'BEGIN { printf "lane / floor, worst pair: %.2fx\n", l / f }'
if [ -n "$have_diffoscope" ]; then
  awk -v l="$lane_real" -v d="$diffo_real" 'BEGIN { printf "diffoscope / lane on the real pair: %.1fx\n", d / l }'
fi
