#!/bin/bash
# One cold mint per gen-worker era on one H200, concurrently, each in its own
# TMPDIR/HOME/XDG_CACHE_HOME/TENSORHUB_CACHE_DIR; then a second repeat of
# v0.126.3 (0.114-0.126 era) with the same isolation. Shapes, not timings.
#   v0.100.1, v0.114.3, v0.126.3: scripts/micro_mint_rig.py --stage mint (aot)
#   v0.127.2: `gen-worker compile` on the same toy UNet (.device/toy127.py)
# Everything worth keeping goes to $OUT as <= 8 files (tarballs per tag).
set -u
D=$PWD/.device
OUT=${OUT:-$PWD/eras-out}
R=/tmp/eras
mkdir -p "$OUT" "$R"
T0=$(date +%s)
DEADLINE=$((T0 + ${MINT_BUDGET_S:-470}))
LOG=$OUT/run.log
say() { echo "[$(( $(date +%s) - T0 ))s] $*" | tee -a "$LOG"; }

mkdir -p /tmp/site && tar -xJf "$D/site.tar.xz" -C /tmp/site
say "site unpacked"
for t in v0.100.1 v0.114.3 v0.126.3 v0.127.2; do
  mkdir -p "$R/$t/tree" && tar -xJf "$D/gen-worker-$t.tar.xz" -C "$R/$t/tree"
done
say "trees unpacked"
# Fixed-path snapshot BEFORE anything runs, and a marker for stray writes.
touch /tmp/eras-mark; sleep 1
{ echo "== before"; ls -la /tmp /root /root/.cache 2>&1; ls -d /tmp/torchinductor_* /tmp/tensorhub-cache /root/.triton /root/.cache/cozy 2>&1; } > "$R/fixed-before.txt" 2>&1
PYTHONPATH=/tmp/site python3 "$D/shim_torch.py" >>"$LOG" 2>&1 || say "shim_torch FAILED"
for t in v0.100.1 v0.114.3 v0.126.3; do
  python3 "$D/shim_classes_at.py" "$R/$t/tree" >>"$LOG" 2>&1 || say "shim_classes $t FAILED"
  python3 "$D/shim_gw_at.py" "$R/$t/tree" >>"$LOG" 2>&1
done
PYTHONPATH=/tmp/site python3 - >"$R/env.json" 2>&1 <<'PY'
import json, subprocess, sys, datetime, os
import torch, triton
smi = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"],
                     capture_output=True, text=True).stdout.strip()
print(json.dumps({"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
                  "torch": torch.__version__, "triton": triton.__version__, "cuda": torch.version.cuda,
                  "gpu": torch.cuda.get_device_name(0), "nvidia_smi": smi, "python": sys.version.split()[0],
                  "cpus": os.cpu_count(), "user": os.environ.get("USER", ""), "uid": os.getuid()}, indent=1))
PY
cat "$R/env.json" >>"$LOG"
say "shims applied"

# iso RUNDIR: the per-run isolation, as env assignments
iso() { mkdir -p "$1/tmp" "$1/home" "$1/xdg" "$1/thc"
  echo "TMPDIR=$1/tmp HOME=$1/home XDG_CACHE_HOME=$1/xdg TENSORHUB_CACHE_DIR=$1/thc PYTHONUNBUFFERED=1"; }

run_rig() {  # tag run timeout
  local t=$1 run=$2 to=$3 W=$R/$1/$2
  mkdir -p "$W"; local s=$(date +%s)
  ( cd "$W" && env $(iso "$W") PYTHONPATH=/tmp/site PGW978_RECIPE=aot \
      timeout "$to" python3 "$R/$t/tree/scripts/micro_mint_rig.py" --root "$W/rig" --stage mint \
      --force-load --device cuda --json "$W/rig.json" >"$W/stdout.log" 2>"$W/stderr.log"; echo $? >"$W/rc" )
  say "$t $run rc=$(cat "$W/rc") wall=$(( $(date +%s) - s ))s"
}

run_127() {  # run timeout
  local t=v0.127.2 run=$1 to=$2 W=$R/v0.127.2/$1
  mkdir -p "$W/trace"; local s=$(date +%s)
  ( cd "$W" && env $(iso "$W") PYTHONPATH="/tmp/site:$R/$t/tree/src" TORCH_TRACE="$W/trace" \
      timeout "$to" python3 "$D/toy127.py" "$R/$t/tree" "$R/v0.126.3/tree/tests/harness" "$W" \
      >"$W/stdout.log" 2>"$W/stderr.log"; echo $? >"$W/rc" )
  say "$t $run rc=$(cat "$W/rc") wall=$(( $(date +%s) - s ))s"
}

run_rig v0.100.1 r1 420 &
run_rig v0.114.3 r1 420 &
( run_rig v0.126.3 r1 420
  left=$(( DEADLINE - $(date +%s) )); [ $left -gt 420 ] && left=420
  if [ $left -ge 60 ]; then run_rig v0.126.3 r2 $left; else say "v0.126.3 r2 SKIPPED (only ${left}s left)"; fi ) &
run_127 r1 420 &
wait
say "all mints done"

# Stray writes outside the run dirs, and the fixed paths after.
{ echo "== files newer than the marker outside $R and /tmp/site (first 400)";
  find /tmp /root /var/tmp /dev/shm -xdev -newer /tmp/eras-mark \( -path "$R" -o -path /tmp/site -o -path "$OUT" \) -prune -o -printf '%s\t%p\n' 2>/dev/null | head -400
  echo "== after"; ls -la /tmp /root /root/.cache 2>&1
  for p in /tmp/torchinductor_* /tmp/tensorhub-cache /root/.triton /root/.cache/cozy /root/.cache/torch; do
    [ -e "$p" ] && { echo "-- $p"; du -sb "$p"; find "$p" -maxdepth 3 -printf '%s\t%p\n' | head -50; }; done
} > "$R/fixed-after.txt" 2>&1

collect() {  # tag: one tarball per tag, every run under it
  local t=$1 C=/tmp/collect/$1; rm -rf "$C"; mkdir -p "$C"
  for W in "$R/$t"/r*; do
    [ -d "$W" ] || continue; local r=$(basename "$W") O=$C/$(basename "$W"); mkdir -p "$O"
    cp "$W/rc" "$O/" 2>/dev/null
    for f in "$W"/*.log; do [ -f "$f" ] && tail -n 400 "$f" >"$O/$(basename "$f").tail400"; done
    find "$W" -printf '%s\t%p\n' >"$O/find.txt"
    find "$W" \( -name '*.tar.gz' -o -name '*.pt2' -o -name '*.zip' -o -name '*.so' -o -name '*.cubin' \) -type f \
      -exec sha256sum {} + >"$O/sha256.txt" 2>/dev/null
    # every report/phase/share/verdict JSON, keeping paths (checkpoint and caches left out)
    (cd "$W" && find . \( -path ./rig/checkpoint -o -path ./tmp -o -path '*/inductor-cache' -o -path './home/.cache/cozy/compile-cells' \) -prune -o \
        -type f \( -name '*.json' -o -name '*.lock' -o -name '*.txt' -o -name '*.toml' \) -size -4M -print \
        | tar -cf - -T - 2>/dev/null) | tar -xf - -C "$O" 2>/dev/null
    # the packed cells / entries / compiled artifacts, when small
    (cd "$W" && find . -path ./tmp -prune -o -type f \( -path './rig/mint/*.tar.gz' -o -path './home/.cache/cozy/compiled-graphs/*' \
        -o -path './direct-artifact/*' \) -size -20M -print | tar -cf - -T - 2>/dev/null) | tar -xf - -C "$O" 2>/dev/null
    (cd "$W" && find . -path ./tmp -prune -o -type f -path './rig/mint/*.tar.gz' -size +20M -printf '%s\t%p\n') >"$O/cells-over-20MB.txt"
    # TORCH_TRACE logs, xz'd
    if [ -d "$W/trace" ]; then mkdir -p "$O/trace"; for f in "$W/trace"/*; do [ -f "$f" ] && xz -c "$f" >"$O/trace/$(basename "$f").xz"; done; fi
    # the inductor cache dirs' top level (where the child really compiled)
    find "$W" -maxdepth 4 -type d \( -name 'torchinductor_*' -o -name 'inductor-cache' -o -name '.mint-resume' -o -name 'triton' \) \
      -exec du -sb {} + >"$O/cache-dirs.txt" 2>/dev/null
  done
  cp "$R/env.json" "$R/fixed-before.txt" "$R/fixed-after.txt" "$C/" 2>/dev/null
  tar -C /tmp/collect -cf - "$t" | xz -T0 -6 >"$OUT/$t.tar.xz"
  local sz=$(stat -c %s "$OUT/$t.tar.xz")
  if [ "$sz" -gt 16000000 ]; then   # over the per-file cap: drop the cells, keep their sha256
    find "$C" -path '*/rig/mint/*.tar.gz' -delete; rm -rf "$C"/*/home/.cache/cozy/compiled-graphs
    tar -C /tmp/collect -cf - "$t" | xz -T0 -6 >"$OUT/$t.tar.xz"; say "$t: cells dropped (tarball was $sz bytes)"
  fi
  say "$t collected: $(stat -c %s "$OUT/$t.tar.xz") bytes"
}
for t in v0.100.1 v0.114.3 v0.126.3 v0.127.2; do collect $t; done
ls -la "$OUT" | tee -a "$LOG"
say "end"
