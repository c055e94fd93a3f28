#!/bin/bash
# Run on the device from the checkout root, with .device/pair.tar.xz: a tar
# of two stripped release `lane` builds, `new` (this build) and `old`
# (d6c4f35), carried there (`run` with carry [".device"]).
# Device run (session 13, second build: a finished agent's place freed for
# the next agent at once): overhead with places, 4 runs in the checkout, 2
# under /tmp, and session 12's build once beside them.
set -u
root=$(pwd)
mkdir -p /tmp/new /tmp/old /tmp/pair
xz -dc .device/pair.tar.xz | tar -C /tmp/pair -xf - && mv /tmp/pair/new /tmp/new/lane && mv /tmp/pair/old /tmp/old/lane && chmod +x /tmp/new/lane /tmp/old/lane
for i in 1 2 3 4; do
  echo "== new (run $i, out/ in the checkout)"
  BENCH_WORK_DIR=$root BENCH_BIN_DIR=/tmp/new crates/lane-mint/benches/local_overhead.sh 200 0.5 4
  if [ $i = 2 ]; then echo "== old (session 12's build, out/ in the checkout)"; BENCH_WORK_DIR=$root BENCH_BIN_DIR=/tmp/old crates/lane-mint/benches/local_overhead.sh 200 0.5 4; fi
done > $OUT/overhead_checkout.txt 2>&1
for i in 1 2; do echo "== new (run $i, out/ under /tmp)"; BENCH_BIN_DIR=/tmp/new crates/lane-mint/benches/local_overhead.sh 200 0.5 4; done > $OUT/overhead_tmp.txt 2>&1
cat $OUT/*.txt
