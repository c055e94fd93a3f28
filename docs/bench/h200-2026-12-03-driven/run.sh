#!/bin/bash
# Run on the device from the checkout root, with .device/new.tar.xz: a tar
# of this build's stripped release `lane` (driven agents started ahead),
# carried there (`run` with carry [".device/new.tar.xz"]).
# The local backend's overhead twice with out/ in the checkout, once under
# /tmp, then the slot timeline at concurrency 1.
set -u
root=$(pwd)
mkdir -p /tmp/new /tmp/pk
xz -dc .device/new.tar.xz | tar -C /tmp/pk -xf - && mv /tmp/pk/new /tmp/new/lane && chmod +x /tmp/new/lane || exit 1
{ nproc; uname -r; cat /proc/sys/kernel/pid_max; /tmp/new/lane --version; } > $OUT/machine.txt 2>&1
for i in 1 2; do
  echo "== new (run $i, out/ in the checkout)"
  BENCH_WORK_DIR=$root BENCH_BIN_DIR=/tmp/new crates/lane-mint/benches/local_overhead.sh 200 0.5 4
done > $OUT/overhead_checkout.txt 2>&1
echo "== new (out/ under /tmp)" > $OUT/overhead_tmp.txt
BENCH_BIN_DIR=/tmp/new crates/lane-mint/benches/local_overhead.sh 200 0.5 4 >> $OUT/overhead_tmp.txt 2>&1
BENCH_BIN_DIR=/tmp/new crates/lane-mint/benches/slot_timeline.sh "$root/.tl" /tmp/tl > $OUT/timeline.txt 2>&1
cat $OUT/*.txt
