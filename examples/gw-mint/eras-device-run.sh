#!/bin/bash
# The real GPU run behind tests/data/gw-eras/lane-*: one probe lane per
# later era of gen-worker, minted THROUGH `lane mint` (two cold repeats
# each, every attempt in its own TMPDIR, HOME, caches and private /tmp), on
# one H200 with torch 2.11 + triton 3.6:
#
#   lanes/0.0.1.yaml --source v0.100.1   the rig, aot (0.95-0.113)
#   lanes/0.0.2.yaml --source v0.114.3   the rig, aot (0.114-0.123: empty table, rig exits 1)
#   lanes/0.0.2.yaml --source v0.126.3   the rig, aot (0.124-0.126: /tmp/tensorhub-cache)
#   lanes/0.0.3.yaml --source v0.127.2   `gen-worker compile` through toy127.py (0.127+)
#
# Prepared as ../shared/device/gen-worker-mint/README.md says, in .device/
# (ignored by git): site.tar.xz (the dependency wheels, installed), the
# four trees (gen-worker-<tag>.tar.xz: src scripts tests/harness
# examples/micro-diffusion pyproject.toml), the shims (shim_torch.py;
# shim_classes_at.py and shim_gw_at.py taking a tree), and a stripped lane
# (lane.xz). Run from the repository root on the device; what is worth
# keeping goes to $OUT (at most 8 files: run.log, meta.tar.xz, and one
# lane-<tag>.tar.xz per lane, the 0.127 one split by repeat).
set -u -o pipefail
OUT=${OUT:-$PWD/eras-lane-out}
D=${DEVICE_DIR:-$PWD/.device}
T0=$(date +%s)
LOG=$OUT/run.log
mkdir -p "$OUT"
say() { echo "[$(( $(date +%s) - T0 ))s] $*" | tee -a "$LOG"; }

# The wheels outside /tmp: each attempt gets a /tmp of its own, and only
# the paths a cell names (its source, its env) are bound into it.
mkdir -p /opt/lane-site && tar -xJf "$D/site.tar.xz" -C /opt/lane-site
export PYTHONPATH=/opt/lane-site
for t in 0.100.1 0.114.3 0.126.3 0.127.2; do
  rm -rf "/tmp/gw-$t" && mkdir -p "/tmp/gw-$t" && tar -xJf "$D/gen-worker-v$t.tar.xz" -C "/tmp/gw-$t"
done
# The 0.127 cells name their driver and the rig's toy model (the 0.126.3
# tree's tests/harness) by path.
mkdir -p /tmp/lane/examples/gw-mint && cp examples/gw-mint/toy127.py /tmp/lane/examples/gw-mint/
python3 "$D/shim_torch.py" >>"$LOG" 2>&1 || say "shim_torch FAILED"
for t in 0.100.1 0.114.3 0.126.3; do
  python3 "$D/shim_classes_at.py" "/tmp/gw-$t" >>"$LOG" 2>&1 || say "shim_classes $t FAILED"
  python3 "$D/shim_gw_at.py" "/tmp/gw-$t" >>"$LOG" 2>&1
done
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
# What the machine's own /tmp and home hold before: a cold repeat writes none of it.
touch /tmp/eras-mark; sleep 1
ls -d /tmp/torchinductor_* /tmp/tensorhub-cache /root/.triton /root/.cache/cozy >"$M/fixed-before.txt" 2>&1
say "prepared"

mint() {  # lane-file tag
  local lane=$1 t=$2 R=/tmp/run-$2 s=$(date +%s)
  rm -rf "$R"
  timeout "${MINT_TIMEOUT_S:-480}" /tmp/lane-bin mint "$lane" --source "/tmp/gw-${t#v}" --out "$R" \
    --concurrency 2 >"$R.log" 2>&1
  local rc=$?
  say "$t ($lane) lane mint exit $rc, $(( $(date +%s) - s ))s"
  echo "lane mint exit: $rc" >>"$R.log"
}
# ERAS picks which of the four run (default all), e.g. ERAS="v0.126.3 v0.127.2".
ERAS=${ERAS:-v0.100.1 v0.114.3 v0.126.3 v0.127.2}
for t in $ERAS; do
  case $t in
    v0.100.1) mint lanes/0.0.1.yaml v0.100.1 & ;;
    v0.114.3|v0.126.3) mint lanes/0.0.2.yaml "$t" & ;;
    v0.127.2) mint lanes/0.0.3.yaml v0.127.2 & ;;
  esac
done
wait
say "all lanes done"
{ echo "== written outside the runs since the start (first 200)"
  # Prune first: a pruned folder older than the mark must not be walked.
  find /tmp /root /var/tmp /dev/shm -xdev \( -path '/tmp/run-*' -o -path /tmp/meta -o -path "$OUT" -o -path '/tmp/gw-*' -o -path /tmp/lane \) -prune -o -newer /tmp/eras-mark -printf '%s\t%p\n' 2>/dev/null | head -200
  echo "== fixed paths after"
  ls -d /tmp/torchinductor_* /tmp/tensorhub-cache /root/.triton /root/.cache/cozy 2>&1
} >"$M/fixed-after.txt"

collect() {  # tag lane-version [repeat]: the lane's folder as lane gathered it
  local t=$1 v=$2 part=${3:-} L=/tmp/run-$1/lanes/$2 name=lane-$1${3:+-$3}
  [ -d "$L" ] || { say "$t: no lane folder"; return; }
  # results (reports, mint.json, the gathered cells, the ledger files), the
  # report, and each attempt's own record and logs (no caches, no checkpoints).
  (cd "$L" && {
     if [ -n "$part" ]; then find results -path "*/$part/*" -type f; find results -maxdepth 1 -type f; else find results report -type f; fi
     find mints -type f \( -name 'result.json' -o -name '*.log' -o -name 'rig.json' -o -name 'toy127.json' \
        -o -name 'isolation.json' \) ${part:+-path "*/$part/*"}
   } | tar -cf - -T - 2>/dev/null) | xz -T0 -6 >"$OUT/$name.tar.xz"
  cp "/tmp/run-$t.log" "$M/" 2>/dev/null
  say "$name: $(stat -c %s "$OUT/$name.tar.xz") bytes"
}
for t in $ERAS; do
  case $t in
    v0.100.1) collect v0.100.1 0.0.1 ;;
    v0.114.3|v0.126.3) collect "$t" 0.0.2 ;;
    v0.127.2) collect v0.127.2 0.0.3 r1; collect v0.127.2 0.0.3 r2 ;;
  esac
done
ls -la "$OUT" | tee -a "$LOG"
say "end"
# The machine's facts, the fixed paths before and after, and each lane's
# own output, in one file (at most 8 come back).
cp "$LOG" "$M/" && tar -C /tmp -cf - meta | xz -6 >"$OUT/meta.tar.xz"
