#!/bin/bash
# Run on the device from the checkout root, with .device/pair.tar.xz: a tar
# of two stripped release `lane` builds, `new` (this build) and `old`
# (d6c4f35), carried there (`run` with carry [".device"]).
# Device run (session 13): the local backend's overhead with places (agents
# started ahead) against session 12's build, alternating, out/ in the
# checkout; once under /tmp; then the slot timeline at concurrency 1.
set -u
root=$(pwd)
mkdir -p /tmp/new /tmp/old
mkdir -p /tmp/pair && xz -dc .device/pair.tar.xz | tar -C /tmp/pair -xf - && mv /tmp/pair/new /tmp/new/lane && mv /tmp/pair/old /tmp/old/lane && chmod +x /tmp/new/lane /tmp/old/lane
{ nproc; uname -r; which flock unshare; /tmp/new/lane --version; } > $OUT/machine.txt 2>&1
for i in 1 2; do
  for b in new old; do
    echo "== $b (run $i, out/ in the checkout)"
    BENCH_WORK_DIR=$root BENCH_BIN_DIR=/tmp/$b crates/lane-mint/benches/local_overhead.sh 200 0.5 4
  done
done > $OUT/overhead_checkout.txt 2>&1
{ echo "== new (out/ under /tmp)"; BENCH_BIN_DIR=/tmp/new crates/lane-mint/benches/local_overhead.sh 200 0.5 4; } > $OUT/overhead_tmp.txt 2>&1
cat $OUT/*.txt
