#!/bin/bash
# The real GPU run behind tests/data/h200-probe/: run from the repository
# root on a GPU node with a built `lane` (LANE_BIN, default target/release/lane);
# writes env.json, lane-mint.log, results.tgz and logs.tgz into $OUT (default ./probe-out).
set -u -o pipefail
OUT=${OUT:-$PWD/probe-out}
LANE_BIN=${LANE_BIN:-$PWD/target/release/lane}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
export LANE_PROBE="$PWD/examples/probe-mint/probe_mint.py"
python3 - >"$OUT/env.json" <<'PY'
import json, subprocess, sys, datetime
import torch, triton
smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total",
                      "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
print(json.dumps({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "torch": torch.__version__, "triton": triton.__version__,
                  "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name(0),
                  "nvidia_smi": smi, "python": sys.version.split()[0]}, indent=1))
PY
cat "$OUT/env.json"
RUN=/tmp/probe-run
rm -rf "$RUN"
"$LANE_BIN" mint lanes/probe.yaml --out "$RUN" 2>&1 | tee "$OUT/lane-mint.log"
echo "lane mint exit: $?" | tee -a "$OUT/lane-mint.log"
LANE_DIR="$RUN/lanes/0.0.0"
# Results: reports, mint records, artifacts (binaries over 1 MB left out).
(cd "$LANE_DIR" && find results -type f -size +1M -print >"$OUT/left-out.txt";
 tar czf "$OUT/results.tgz" --exclude='*.so' -X "$OUT/left-out.txt" results)
# The mints' own logs and records (no caches, no artifacts), and one TORCH_TRACE.
(cd "$LANE_DIR" && find mints -type f \( -name '*.log' -o -name 'result.json' -o -name 'entry-*.json' \) -print0 \
   | tar czf "$OUT/logs.tgz" --null -T -)
ls -la "$OUT"
