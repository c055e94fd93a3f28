#!/usr/bin/env bash
# `lane diff` of two GB-sized packed cells that differ in 4 bytes, beside
# its floor: the same two archives inflated by pigz (else gzip) into
# sha256sum, both sides in parallel, one pass. Each cell is what a pod
# gathers: `cell.tar.gz` = `metadata.json` + `model.pt2` (stored, as torch
# writes it) holding a wrapper and MIB MiB of weights that do not compress
# (a 64 MiB random block repeated); B's weights differ from A's in 4 bytes
# at 1 GiB + 6 (or the middle, for smaller cells). lane's default content
# cap (64 MiB) is far below the weights: they are compared chunk by chunk
# (lane_diff::chunks), and the script checks that the output names the
# member and the bytes. Wall time best of BENCH_RUNS, peak RSS from
# /usr/bin/time -v (for the floor, of its largest process).
#
# Usage: crates/lane-diff/benches/gb_cells.sh [MIB]
#   MIB          weights per side, in MiB (default 2048)
#   LANE         the lane binary (default target/release/lane; build it
#                with `cargo build --release -p lane-cli`)
#   BENCH_RUNS   runs per measurement (default 1)
#   BENCH_CORE   the cores to pin to with taskset -c (default: none)
#   BENCH_WORK_DIR  where the cells are built (default: a fresh folder
#                under $TMPDIR; needs 2 x MIB MiB, and lane's spools
#                another 2 x MIB MiB in $TMPDIR)
set -euo pipefail

root="$(cd "$(dirname "$0")/../../.." && pwd)"
mib="${1:-2048}"
lane="${LANE:-$root/target/release/lane}"
runs="${BENCH_RUNS:-1}"
pin=()
if [ -n "${BENCH_CORE:-}" ]; then pin=(taskset -c "$BENCH_CORE"); fi
work="$(mktemp -d "${BENCH_WORK_DIR:-${TMPDIR:-/tmp}}/lane-gb-cells.XXXXXX")"
trap 'rm -rf "$work"' EXIT

[ -x "$lane" ] || { echo "no lane binary at $lane (cargo build --release -p lane-cli)" >&2; exit 2; }
unzip_cmd="gzip -dc"
zip_cmd="gzip -1"
if command -v pigz >/dev/null; then unzip_cmd="pigz -dc"; zip_cmd="pigz -1"; fi

python3 - "$work" "$mib" <<'PY'
import os, sys, zipfile
work, mib = sys.argv[1], int(sys.argv[2])
size = mib << 20
at = min(1 << 30, size // 2) + 6
block = os.urandom(64 << 20)
for r in ("r1", "r2"):
    os.makedirs(f"{work}/{r}")
    with open(f"{work}/{r}/metadata.json", "w") as m:
        m.write('{"cell": "gb", "kernel_lane": {"winner": "baseline+dense"}}')
    with zipfile.ZipFile(f"{work}/{r}/model.pt2", "w", zipfile.ZIP_STORED) as z:
        z.writestr("model/data/aotinductor/unet/cabc.wrapper.cpp", "// the wrapper\n")
        with z.open("model/data/weights/weight_0", "w", force_zip64=True) as w:
            done = 0
            while done < size:
                piece = bytearray(block[: min(len(block), size - done)])
                if r == "r2" and done <= at < done + len(piece):
                    for i in range(4):
                        piece[at - done + i] ^= 0xFF
                w.write(piece)
                done += len(piece)
PY
for r in r1 r2; do
  tar -C "$work/$r" -cf - metadata.json model.pt2 | $zip_cmd >"$work/$r/cell.tar.gz"
  rm "$work/$r/model.pt2"
done

# measure LABEL CMD...: best wall, its user + sys and peak RSS.
# shellcheck source=measure.sh
source "$root/crates/lane-diff/benches/measure.sh"
MEASURE_CPU=1

a="$work/r1/cell.tar.gz"; b="$work/r2/cell.tar.gz"
echo "cells: $(stat -c %s "$a") bytes packed each, ${mib} MiB of weights"
echo
echo "| what | wall (best of $runs) | user + sys | peak RSS |"
echo "| --- | --- | --- | --- |"
floor='for f in "$@"; do '"$unzip_cmd"' "$f" | sha256sum >/dev/null & done; wait'
measure "floor: $unzip_cmd into sha256sum, both sides in parallel" bash -c "$floor" floor "$a" "$b"
floor_s="$(cat "$work/last")"
measure "lane diff (default 64 MiB content cap: weights compared in 1 MiB chunks)" "$lane" diff "$a" "$b"
lane_s="$(cat "$work/last")"
echo
grep -m1 '^verdict' "$work/out" || true
grep -m1 'weights/weight_0' "$work/out" | sed 's/^ *//' | cut -c1-400 || true
grep -q 'model.pt2/data/weights/weight_0' "$work/out" && grep -q '4 byte(s) differ' "$work/out" ||
  { echo "lane did not name the member and its 4 bytes:" >&2; cat "$work/out" "$work/err" >&2; exit 1; }
echo
echo "lane / floor: $(echo "$lane_s / $floor_s" | bc -l | cut -c1-4)x"
