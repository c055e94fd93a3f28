#!/usr/bin/env bash
# lane mint's local backend against the ideal and against `xargs -P` running
# the very same mint commands, side by side in one run.
#
#   crates/lane-mint/benches/local_overhead.sh [MINTS=200] [SECONDS=0.5] [CONCURRENCY=4]
#
# Each synthetic mint sleeps SECONDS and writes a minted report. The ideal
# wall is ceil(MINTS / CONCURRENCY) * SECONDS. lane's run includes its agent
# per mint (claim, cold caches, fingerprinting, result.json), the SQLite run
# store and gathering into results/. Peak memory of `lane mint` itself comes
# from /usr/bin/time when present, else from /proc polling.
set -euo pipefail
mints=${1:-200}; secs=${2:-0.5}; conc=${3:-4}
root=$(cd "$(dirname "$0")/../../.." && pwd)
# BENCH_BIN_DIR: a folder holding a release `lane` built elsewhere (a
# machine without cargo, such as the H200 device); BENCH_PROFILE=debug
# measures an existing debug build (quicker to get, not the figure to
# record). Otherwise a release build is made here.
profile=${BENCH_PROFILE:-release}
if [ -n "${BENCH_BIN_DIR:-}" ]; then
  lane="$BENCH_BIN_DIR/lane"
else
  [ "$profile" = release ] && cargo build --release -q -p lane-cli --manifest-path "$root/Cargo.toml"
  lane="${CARGO_TARGET_DIR:-$root/target}/$profile/lane"
fi
# BENCH_WORK_DIR: where the lane's checkout and out/ live (default: under
# TMPDIR). A lane's out/ is normally in its checkout, outside /tmp; under
# /tmp each attempt's private /tmp has to bind it back in (one mount more).
work=$(mktemp -d "${BENCH_WORK_DIR:-${TMPDIR:-/tmp}}/lane-overhead.XXXXXX"); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lanes"
# A minted report must name its cell (lane counts one that names none as
# crashed), so each mint writes a small one and names it.
script="sleep $secs; echo cell > cell.bin; printf '{\"status\":\"minted\",\"recipe\":\"dynamo\",\"artifact\":\"cell.bin\"}' > \"\$LANE_REPORT_PATH\""
{
  echo 'version: "0.93.3"'; echo 'upstream: {repo: ./up}'; echo 'base: v0.93.2'
  echo 'mint:'; echo '  gpus: [L4]'; echo '  cold_repeats: 1'; echo "  concurrency: $conc"; echo '  cells:'
  for i in $(seq 1 "$mints"); do
    printf '    - {name: c%04d, recipe: dynamo, command: [sh, -c, %s]}\n' "$i" "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$script")"
  done
} > "$work/lanes/0.93.3.yaml"

peak_rss() { # command... ; prints "wall_s peak_kib"
  local start end pid peak=0 rss
  start=$(date +%s.%N)
  "$@" >/dev/null 2>"$work/stderr.log" & pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    rss=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ "${rss:-0}" -gt "$peak" ] && peak=$rss
    sleep 0.05
  done
  wait "$pid" || { tail -5 "$work/stderr.log" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$(python3 -c "print($end - $start)") $peak"
}

cd "$work"
ideal=$(python3 -c "import math; print(math.ceil($mints/$conc)*$secs)")
read -r lane_wall lane_peak < <(peak_rss "$lane" mint 0.93.3 --out "$work/out")
grep -q '"green": true' "$work/out/lanes/0.93.3/results/summary.json"
read -r xargs_wall _ < <(peak_rss sh -c "seq 1 $mints | xargs -P $conc -I{} sh -c 'mkdir -p x/{} && cd x/{} && LANE_REPORT_PATH=r.json sh -c \"\$0\"' '$script'")
python3 - "$mints" "$conc" "$secs" "$ideal" "$lane_wall" "$lane_peak" "$xargs_wall" <<'PY'
import sys
m, c, s, ideal, lw, lp, xw = sys.argv[1:]
m, c, s, ideal, lw, lp, xw = int(m), int(c), float(s), float(ideal), float(lw), int(lp), float(xw)
print(f"mints={m} concurrency={c} mint_seconds={s}")
print(f"ideal wall            {ideal:8.2f} s")
print(f"xargs -P {c} (peer)     {xw:8.2f} s  overhead {100*(xw-ideal)/ideal:5.1f} %")
print(f"lane mint (local)     {lw:8.2f} s  overhead {100*(lw-ideal)/ideal:5.1f} %, {1000*(lw-ideal)/m:6.1f} ms per mint")
print(f"lane mint peak RSS    {lp/1024:8.1f} MiB")
PY
