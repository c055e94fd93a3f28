#!/bin/bash
# The real GPU run behind tests/data/gw-0.93.3-h200/{dynamo,aot3}-pair: the
# upstream's own rig (gen-worker 0.93.3, scripts/micro_mint_rig.py) minted as
# lane cells THROUGH `lane mint` (lanes/0.0.0.yaml's rig-* cells, two cold
# repeats each), on one H200 with torch 2.11 + triton 3.6.
#
# Prepared as ../shared/device/gen-worker-mint/README.md says, in .device/
# (ignored by git): the upstream tarball, the three shims, the dependency
# wheels (whl/), and a stripped lane (lane.xz). Run from the repository root
# on the device; everything worth keeping goes to $OUT.
set -u -o pipefail
OUT=${OUT:-$PWD/gw-out}
D=${DEVICE_DIR:-$PWD/.device}
RUN=/tmp/gw-run
mkdir -p "$OUT"
python3 -m pip install -q --no-index --no-deps --target /tmp/site "$D"/whl/*.whl
export PYTHONPATH=/tmp/site
rm -rf /tmp/gw && mkdir -p /tmp/gw && tar -xJf "$D/gen-worker-v0.93.3.tar.xz" -C /tmp/gw
# The device adaptations (torch 2.11 lacks three 2.13 surfaces; CUDA 13
# cubin flags) and three graph classes instead of one.
# SHIMS=0: none of them, so the mints meet torch 2.11 as it is (the
# upstream pins 2.13): their own refusal is what shows.
if [ "${SHIMS:-1}" = 1 ]; then
  python3 "$D/shim_torch.py" && python3 "$D/shim_gw.py" && python3 "$D/shim_classes.py"
fi
xz -dc "$D/lane.xz" >/tmp/lane && chmod +x /tmp/lane
python3 - >"$OUT/env.json" <<'PY'
import json, subprocess, sys, datetime, os
import torch, triton
smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                      "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
print(json.dumps({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "torch": torch.__version__, "triton": triton.__version__,
                  "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(0),
                  "nvidia_smi": smi, "python": sys.version.split()[0],
                  "cpus": os.cpu_count(), "gen_worker": "0.93.3 (shimmed for torch 2.11)"}, indent=1))
PY
cat "$OUT/env.json"
rm -rf "$RUN"
timeout "${MINT_TIMEOUT_S:-520}" /tmp/lane mint lanes/0.0.0.yaml --cell rig-dynamo --cell rig-aot \
  --source /tmp/gw --out "$RUN" --concurrency "${CONCURRENCY:-2}" 2>&1 | tee "$OUT/lane-mint.log"
echo "lane mint exit: ${PIPESTATUS[0]}" | tee -a "$OUT/lane-mint.log"
LANE_DIR="$RUN/lanes/0.0.0"
# The results folder as lane gathered it (reports, mint.json, the packed cells).
(cd "$LANE_DIR" && tar czf "$OUT/results.tgz" results report)
# Each attempt's own record and logs (no caches, no checkpoint, no cell copies).
(cd "$LANE_DIR" && find mints -type f \( -name '*.log' -o -name 'result.json' -o -name 'rig.json' \
   -o -name 'request.json' -o -name 'mint_phases.json' \) -print0 | tar czf "$OUT/logs.tgz" --null -T -)
ls -la "$OUT"
