#!/usr/bin/env bash
# Records buf's own verdicts on every real proto change of the upstream, the
# table lane-wire's integration test (tests/wire.rs) holds it to:
#   - every commit (any ref, pull requests included) that touches proto/,
#     against its first parent;
#   - every pair of consecutive version tags (vX.Y.Z, sorted by version);
#   - each patch tag of a lane against its base (the tag before it on its line).
# Each pair is judged by `buf breaking` once per category (WIRE, WIRE_JSON,
# PACKAGE) on the two proto/ trees exported with `git archive`; buf's exit
# code says pass (0), fail (100) or refused (anything else: a side without
# .proto files, a file that does not compile), and its JSON lines the rule
# ids that fired.
#
# usage: record-buf.sh <gen-worker clone> [out.json]
# (clone: git clone gen-worker.bundle dir && git -C dir fetch origin 'refs/pull/*:refs/pull/*')
set -euo pipefail

repo=${1:?usage: record-buf.sh <gen-worker clone> [out.json]}
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/buf-verdicts.json}
root=$(cd "$here/../../../.." && pwd)
BUF=${BUF:-$root/.tools/node/node_modules/.bin/buf}
[ -x "$BUF" ] || { echo "buf not found at $BUF (./just tools installs it)" >&2; exit 2; }
PATCH_TAGS="v0.93.3 v0.94.1 v0.95.1 v0.96.1 v0.96.2 v0.96.3 v0.100.1 v0.113.1 v0.113.2 v0.114.1 v0.114.2 v0.114.3 v0.126.1 v0.126.2 v0.126.3 v0.127.1 v0.127.2"
CATEGORIES="WIRE WIRE_JSON PACKAGE"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
g() { git -C "$repo" "$@"; }

# The pairs, one per line: kind, name, before (empty: none), after.
{
    g log --all --format='%H %P' -- proto/ | while read -r c p _; do
        printf 'commit\t%s\t%s\t%s\n' "$c" "${p:-}" "$c"
    done
    prev=
    for t in $(g tag -l 'v*' --sort=version:refname | grep -E '^v[0-9]+\.[0-9]+\.[0-9]+$'); do
        [ -n "$prev" ] && printf 'tags\t%s..%s\t%s\t%s\n' "$prev" "$t" "$prev" "$t"
        prev=$t
    done
    for t in $PATCH_TAGS; do
        line=${t%.*}; patch=${t##*.}
        base=$(g tag -l "$line.*" --sort=-version:refname | grep -E "^${line//./\\.}\.[0-9]+$" \
            | awk -F. -v p="$patch" '$3 < p { print; exit }')
        printf 'patch\t%s..%s\t%s\t%s\n' "$base" "$t" "$base" "$t"
    done
} > "$work/pairs.tsv"

# A side: the proto/ tree of a commit, exported once per tree id.
tree_of() { [ -n "$1" ] && g rev-parse -q --verify "$1^{commit}:proto" 2>/dev/null || echo none; }
export_tree() {
    local commit=$1 tree=$2 dir="$work/trees/$2"
    [ -d "$dir" ] && return
    mkdir -p "$dir.tmp/proto"
    [ "$tree" != none ] && g archive "$commit" proto | tar -x -C "$dir.tmp"
    mv "$dir.tmp/proto" "$dir" && rmdir "$dir.tmp"
}

judge() { # before-tree after-tree -> one JSON object keyed by category
    local b=$1 a=$2 key="$1-$2" c rc
    [ -f "$work/cache/$key" ] && { cat "$work/cache/$key"; return; }
    mkdir -p "$work/cache" "$work/run"
    local verdicts='{}'
    for c in $CATEGORIES; do
        rm -rf "$work/run/before" "$work/run/after"
        cp -r "$work/trees/$b" "$work/run/before"
        cp -r "$work/trees/$a" "$work/run/after"
        for s in before after; do
            printf 'version: v2\nbreaking:\n  use: [%s]\n' "$c" > "$work/run/$s/buf.yaml"
        done
        rc=0
        (cd "$work/run" && "$BUF" breaking after --against before --error-format json) \
            > "$work/run/out" 2> "$work/run/err" || rc=$?
        case $rc in
            0 | 100)
                verdicts=$(jq -c --arg c "$c" --argjson passed "$([ $rc = 0 ] && echo true || echo false)" \
                    --slurpfile found <(jq -c '.type' "$work/run/out") \
                    '. + {($c): {passed: $passed, rules: ($found | unique)}}' <<< "$verdicts") ;;
            *)
                verdicts=$(jq -c --arg c "$c" --arg e "$(head -c 300 "$work/run/err" | tr -d '\n')" \
                    '. + {($c): {refused: $e}}' <<< "$verdicts") ;;
        esac
    done
    echo "$verdicts" | tee "$work/cache/$key"
}

: > "$work/out.jsonl"
while IFS=$'\t' read -r kind name before after; do
    bt=$(tree_of "$before"); at=$(tree_of "$after")
    export_tree "$before" "$bt"; export_tree "$after" "$at"
    if [ "$kind" = commit ]; then
        summary=$(g log -1 --format=%s "$after")
    else
        summary="$name"
    fi
    buf=$(judge "$bt" "$at")
    jq -nc --arg kind "$kind" --arg name "$name" --arg before "$before" --arg after "$after" \
        --arg bt "$bt" --arg at "$at" --arg summary "$summary" --argjson buf "$buf" \
        '{kind: $kind, name: $name, before: $before, after: $after,
          before_tree: $bt, after_tree: $at, summary: $summary, buf: $buf}' >> "$work/out.jsonl"
done < "$work/pairs.tsv"

jq -s --arg v "$("$BUF" --version)" \
    '{buf_version: $v, categories: ["WIRE", "WIRE_JSON", "PACKAGE"], pairs: .}' \
    "$work/out.jsonl" > "$out"
echo "recorded $(jq '.pairs | length' "$out") pairs into $out" >&2
