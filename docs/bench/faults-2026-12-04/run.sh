#!/bin/sh
# The faults suite's 20-trial runs of 2026-12-04, kept raw: one file per
# seed, cargo test's whole output (the suite's line, the harness's lines),
# and the machine beside them. Run from the repository root after a build
# of lane-cli's tests (`cargo test -p lane-cli --no-run`).
set -eu
here=docs/bench/faults-2026-12-04
{ git rev-parse HEAD; uname -srm; nproc; free -m | sed -n 2p; } > "$here/machine.txt"
for seed in 1375999237 1592596741 20261204; do
  LANE_FAULT_TRIALS=20 LANE_FAULT_SEED=$seed \
    cargo test --locked -q -p lane-cli --test cli faults::fault_injection -- --nocapture \
    > "$here/seed-$seed.txt" 2>&1
done
