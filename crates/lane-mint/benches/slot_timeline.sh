#!/usr/bin/env bash
# Where a slot's time goes between two mints: one lane of 20 mints of
# 0.5 s at concurrency 1, each mint stamping its first and last line, the
# agent's files' times (mint.pid: the gate opened; ended.json; result.json)
# and lane's "agent started" log line, side by side. File times are as
# fine as the file system keeps them (a few ms on some kernels): the last
# line, from the mints' own stamps, is the precise one.
#
#   crates/lane-mint/benches/slot_timeline.sh [WORK_DIR...]
#
# Each WORK_DIR (default: a folder under TMPDIR) holds one lane's checkout
# and out/; BENCH_BIN_DIR names a folder holding a release `lane` built
# elsewhere, else a release build is made here.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
if [ -n "${BENCH_BIN_DIR:-}" ]; then
  lane="$BENCH_BIN_DIR/lane"
else
  cargo build --release -q -p lane-cli --manifest-path "$root/Cargo.toml"
  lane="${CARGO_TARGET_DIR:-$root/target}/release/lane"
fi
[ $# -gt 0 ] || set -- "$(mktemp -d "${TMPDIR:-/tmp}/lane-timeline.XXXXXX")"
for where in "$@"; do
  rm -rf "$where"; mkdir -p "$where/lanes"; cd "$where"
  log="$where/mint-times.log"
  script="echo \"\$LANE_MINT_ID start \$(date +%s.%N)\" >> $log; sleep 0.5; echo cell > cell.bin; printf '{\"status\":\"minted\",\"recipe\":\"dynamo\",\"artifact\":\"cell.bin\"}' > \"\$LANE_REPORT_PATH\"; echo \"\$LANE_MINT_ID end \$(date +%s.%N)\" >> $log"
  { echo 'version: "0.93.3"'; echo 'upstream: {repo: ./up}'; echo 'base: v0.93.2'; echo 'mint:'; echo '  gpus: [L4]'; echo '  cold_repeats: 1'; echo '  concurrency: 1'; echo '  cells:'
    for i in $(seq 1 20); do printf '    - {name: c%04d, recipe: dynamo, command: [sh, -c, %s]}\n' "$i" "$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$script")"; done; } > lanes/0.93.3.yaml
  t0=$(date +%s.%N)
  LANE_LOG=info "$lane" mint 0.93.3 --out out > stdout.txt 2> stderr.txt
  t1=$(date +%s.%N)
  echo "== out/ under $where: wall $(python3 -c "print($t1-$t0)") s for 20 x 0.5 s"
  python3 - "$where" <<'PY'
import os, sys, re, datetime, statistics
w = sys.argv[1]
def ts(s): return datetime.datetime.fromisoformat(s.replace('Z', '+00:00')).timestamp()
started = {}
for line in open(f"{w}/stderr.txt"):
    m = re.match(r"(\S+)\s+INFO agent started mint=(\S+)", line)
    if m: started[m.group(2)] = ts(m.group(1))
mint = {}
for line in open(f"{w}/mint-times.log"):
    i, k, t = line.split(); mint.setdefault(i, {})[k] = float(t)
rows = []
for i in sorted(mint):
    d = f"{w}/out/lanes/0.93.3/mints/" + "/".join(i.split("/")[1:])
    mt = lambda n: os.stat(os.path.join(d, n)).st_mtime
    rows.append(dict(spawn=started[i], pid=mt("mint.pid"), start=mint[i]["start"], end=mint[i]["end"], ended=mt("ended.json"), result=mt("result.json")))
steps = {
    "run loop: previous result -> next agent spawned": [b["spawn"] - a["result"] for a, b in zip(rows, rows[1:])],
    "agent: spawned -> gate opened (mint.pid)": [r["pid"] - r["spawn"] for r in rows],
    "wrapper: gate -> mint's first line": [r["start"] - r["pid"] for r in rows],
    "mint's last line -> ended.json": [r["ended"] - r["end"] for r in rows],
    "ended.json -> result.json (gather)": [r["result"] - r["ended"] for r in rows],
}
tot = 0
for k, v in steps.items():
    med = statistics.median(v) * 1000; tot += med
    print(f"{k:52s} median {med:7.2f} ms  (min {min(v)*1000:6.2f}, max {max(v)*1000:6.2f})")
print(f"{'sum of medians':52s}        {tot:7.2f} ms")
per = [b["start"] - a["end"] for a, b in zip(rows, rows[1:])]
print(f"{'mint end -> next mint start':52s} median {statistics.median(per)*1000:7.2f} ms")
PY
  cd "$root"
done
