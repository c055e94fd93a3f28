#!/bin/bash
# The real GPU run behind tests/data/gw-h100/: two probe lanes minted
# THROUGH `lane mint` on an H100 standing in for their H200 class
# (`mint.stand_in: {H200: H100}`), two cold repeats each, every attempt in
# its own TMPDIR, HOME, caches and private /tmp, with torch 2.11 + triton 3.6:
#
#   lanes/0.0.0.yaml --source v0.93.3   the rig, rig-dynamo and rig-aot
#   lanes/0.0.3.yaml --source v0.127.2  `gen-worker compile` through toy127.py
#
# Prepared in .device/ (ignored by git; see eras-device-run.sh): site.tar.xz
# (the dependency wheels of both, installed), gen-worker-v0.93.3.tar.xz,
# -v0.126.3 (the toy model's harness) and -v0.127.2, the shims, and a
# stripped lane (lane.xz). What is worth keeping goes to $OUT.
#
# ONLY_AOT=1 mints lane 0.0.0's `rig-aot` alone (two cold repeats) and
# skips 0.127.2: the run behind tests/data/gw-h100/aot-again/ (the aot
# pair's cells kept, to name what its `kernel_lane` flip changed).
set -u -o pipefail
OUT=${OUT:-$PWD/h100-lane-out}
D=${DEVICE_DIR:-$PWD/.device}
T0=$(date +%s)
LOG=$OUT/run.log
mkdir -p "$OUT"
say() { echo "[$(( $(date +%s) - T0 ))s] $*" | tee -a "$LOG"; }

mkdir -p /opt/lane-site && tar -xJf "$D/site.tar.xz" -C /opt/lane-site
export PYTHONPATH=/opt/lane-site
rm -rf /tmp/gw && mkdir -p /tmp/gw && tar -xJf "$D/gen-worker-v0.93.3.tar.xz" -C /tmp/gw
for t in 0.126.3 0.127.2; do
  [ "${ONLY_AOT:-}" = 1 ] && break
  rm -rf "/tmp/gw-$t" && mkdir -p "/tmp/gw-$t" && tar -xJf "$D/gen-worker-v$t.tar.xz" -C "/tmp/gw-$t"
done
mkdir -p /tmp/lane/examples/gw-mint && cp examples/gw-mint/toy127.py /tmp/lane/examples/gw-mint/
python3 "$D/shim_torch.py" >>"$LOG" 2>&1 || say "shim_torch FAILED"
python3 "$D/shim_gw.py" >>"$LOG" 2>&1 || say "shim_gw FAILED"
python3 "$D/shim_classes.py" >>"$LOG" 2>&1 || say "shim_classes FAILED"
xz -dc "$D/lane.xz" >/tmp/lane-bin && chmod +x /tmp/lane-bin
M=/tmp/meta; mkdir -p "$M"
python3 - >"$M/env.json" <<'PY'
import json, subprocess, sys, datetime, os
import torch, triton
smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                      "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
print(json.dumps({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "torch": torch.__version__, "triton": triton.__version__,
                  "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(0),
                  "nvidia_smi": smi, "python": sys.version.split()[0],
                  "cpus": os.cpu_count(), "uid": os.getuid()}, indent=1))
PY
/tmp/lane-bin --version >>"$LOG" 2>&1
say "prepared"

mint() {  # lane-file source tag [lane mint's other arguments]
  local lane=$1 src=$2 t=$3 R=/tmp/run-$3 s=$(date +%s)
  shift 3
  rm -rf "$R"
  timeout "${MINT_TIMEOUT_S:-500}" /tmp/lane-bin mint "$lane" --source "$src" --out "$R" \
    --concurrency 2 "$@" >"$R.log" 2>&1
  local rc=$?
  say "$t ($lane) lane mint exit $rc, $(( $(date +%s) - s ))s"
  echo "lane mint exit: $rc" >>"$R.log"
}
if [ "${ONLY_AOT:-}" = 1 ]; then
  mint lanes/0.0.0.yaml /tmp/gw v0.93.3 --cell rig-aot
else
  mint lanes/0.0.0.yaml /tmp/gw v0.93.3 &
  mint lanes/0.0.3.yaml /tmp/gw-0.127.2 v0.127.2 &
  wait
fi
say "both lanes done"

collect() {  # tag lane-version
  local t=$1 v=$2 L=/tmp/run-$1/lanes/$2
  [ -d "$L" ] || { say "$t: no lane folder"; return; }
  (cd "$L" && {
     find results report -type f -size -8M
     find mints -type f \( -name 'result.json' -o -name 'agent.log' -o -name 'rig.json' -o -name 'toy127.json' \)
   } | tar -cf - -T - 2>/dev/null) | xz -T0 -6 >"$OUT/lane-$t.tar.xz"
  cp "/tmp/run-$t.log" "$M/" 2>/dev/null
  say "lane-$t: $(stat -c %s "$OUT/lane-$t.tar.xz") bytes"
}
collect v0.93.3 0.0.0
[ "${ONLY_AOT:-}" = 1 ] || collect v0.127.2 0.0.3
ls -la "$OUT" | tee -a "$LOG"
say "end"
cp "$LOG" "$M/" && tar -C /tmp -cf - meta | xz -6 >"$OUT/meta.tar.xz"
