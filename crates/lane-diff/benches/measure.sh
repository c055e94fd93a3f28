# Shared by the diff benchmarks (sourced): measure LABEL CMD... runs CMD
# $runs times under /usr/bin/time -v (pinned with "${pin[@]}"), prints a
# table row with the best wall and that run's peak RSS (and, with
# MEASURE_CPU=1, its user + sys seconds), and leaves the best wall in
# $work/last and that run's output in $work/out, $work/err.
measure() {
  local label="$1"; shift
  local best="" rss="" cpu=""
  for _ in $(seq "$runs"); do
    /usr/bin/time -v -o "$work/time" "${pin[@]}" "$@" >"$work/out" 2>"$work/err" || true
    local wall kb
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$work/time" |
      awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
    kb=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
    if [ -z "$best" ] || awk -v a="$wall" -v b="$best" 'BEGIN { exit !(a < b) }'; then
      best="$wall"; rss="$kb"
      cpu="$(awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} END {print u " s + " s " s"}' "$work/time")"
    fi
  done
  if [ "${MEASURE_CPU:-}" = 1 ]; then
    printf '| %s | %.2f s | %s | %.1f MiB |\n' "$label" "$best" "$cpu" "$(echo "$rss / 1024" | bc -l)"
  else
    printf '| %s | %.3f s | %.1f MiB |\n' "$label" "$best" "$(echo "$rss / 1024" | bc -l)"
  fi
  echo "$best" >"$work/last"
}
