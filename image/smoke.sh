#!/usr/bin/env bash
# The image's smoke test: what the chart and the mint Jobs ask of the image,
# done inside its own root filesystem, as the chart's user.
#  1. unpack the OCI archive (umoci) and read its config: non-root user,
#     the entrypoint lane, the version label;
#  2. `lane --version` inside the root filesystem (chroot, as uid 65532);
#  3. the init container's own command, taken from a mint Job that
#     `lane mint --backend kube --dry-run` renders with this image, copies
#     lane into an emptyDir-like folder, and the copy runs;
#  4. that Job, and the chart's CronJob rendered with this image and tag,
#     pass kubernetes-validate --strict (1.30 and the newest schema).
#
# usage: image/smoke.sh ARCHIVE   (as root: chroot; CI runs as root)
set -euo pipefail

archive=$(realpath "$1")
repo=$(pwd)
tools=$repo/.tools
lane_bin=${LANE_BIN:-$repo/target/dist/lane}
uid=65532
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "image smoke: FAILED: $*" >&2; exit 1; }

# 1. Unpack and read the config.
mkdir "$work/oci"
tar -xf "$archive" -C "$work/oci"
tag=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1])); print(m["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"])' "$work/oci/index.json")
umoci unpack --image "$work/oci:$tag" "$work/bundle" >/dev/null
rootfs=$work/bundle/rootfs
python3 - "$work/bundle/config.json" "$uid" <<'PY' || fail "the runtime config"
import json, sys
c = json.load(open(sys.argv[1]))
uid = int(sys.argv[2])
assert c["process"]["user"]["uid"] == uid and c["process"]["user"]["gid"] == uid, c["process"]["user"]
assert c["process"]["args"][0] == "/usr/local/bin/lane", c["process"]["args"]
assert c["process"]["cwd"] == "/var/lib/lane", c["process"]["cwd"]
PY
version=${tag#lane:}
[ "$version" != "$tag" ] || version=$tag
echo "unpacked $tag: user $uid, entrypoint /usr/local/bin/lane"

# 2. lane --version inside the image, as the chart's user, with the
#    image's PATH and nothing of this machine's.
chroot=$(command -v chroot)
in_image() { env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/var/lib/lane "$chroot" --userspec=$uid:$uid "$rootfs" "$@"; }
said=$(in_image /usr/local/bin/lane --version) || fail "lane --version in the image"
[ "$said" = "lane $version" ] || fail "lane --version said '$said', the image is tagged $version"
echo "in the image: $said"
# It reaches its CA bundle (HTTPS to S3 and GitHub).
[ -s "$rootfs/etc/ssl/certs/ca-certificates.crt" ] || fail "no CA bundle"

# 3. The init container's command, from a Job lane renders with this image.
image_ref="ghcr.io/gen-worker/lane:$version"
mkdir -p "$work/lane"
cat > "$work/lane/kube.yaml" <<YAML
laneImage: $image_ref
mintImage: ghcr.io/gen-worker/gw-mint:cuda12.8
YAML
# The lane as shipped (lanes/0.93.3.yaml); a dry run contacts nothing.
(cd "$repo" && "$lane_bin" mint 0.93.3 --backend kube --kube-config "$work/lane/kube.yaml" --dry-run --json) > "$work/jobs.json" 2>"$work/mint.log" || fail "lane mint --backend kube --dry-run"
python3 - "$work/jobs.json" "$image_ref" "$work/job" <<'PY' || fail "the rendered Jobs"
import json, os, sys
doc = json.load(open(sys.argv[1]))
image, out = sys.argv[2], sys.argv[3]
os.makedirs(out)
assert doc["kind"] == "List" and doc["items"], "no Jobs"
for i, job in enumerate(doc["items"]):
    init = job["spec"]["template"]["spec"]["initContainers"][0]
    assert init["image"] == image, init["image"]
    json.dump(job, open(os.path.join(out, f"job-{i}.json"), "w"))
json.dump(init["command"], open(os.path.join(out, "init-command.json"), "w"))
PY
mapfile -t init_cmd < <(python3 -c 'import json,sys; print("\n".join(json.load(open(sys.argv[1]))))' "$work/job/init-command.json")
dest=${init_cmd[-1]}
# The Job mounts an emptyDir at the destination's folder, writable by the pod.
mkdir -p "$rootfs$(dirname "$dest")"
chown $uid:$uid "$rootfs$(dirname "$dest")"
in_image "${init_cmd[@]}" || fail "the init container's command: ${init_cmd[*]}"
copied=$(in_image "$dest" --version) || fail "the copied lane does not run"
[ "$copied" = "lane $version" ] || fail "the copied lane said '$copied'"
echo "init container: ${init_cmd[*]} -> $copied"
rm -rf "$rootfs$(dirname "$dest")"

# 4. The Job and the chart's CronJob with this image pass kubernetes-validate.
# The chart twice: its defaults (the CronJob) and with the webhook service on.
mkdir -p "$work/chart"
repo_values='"image": {"repository": "ghcr.io/gen-worker/lane", "tag": "'$version'"}'
serve_values='"serve": {"enabled": true, "webhookSecret": {"existingSecret": "lane-webhook"}}'
PYTHONPATH=$tools/helm python3 "$repo/crates/lane-kube/tests/helm_render.py" "$repo/charts/lane" "{$repo_values}" "$work/chart" cron \
  >/dev/null || fail "rendering the chart"
PYTHONPATH=$tools/helm python3 "$repo/crates/lane-kube/tests/helm_render.py" "$repo/charts/lane" "{$repo_values, $serve_values}" "$work/chart" serve \
  >/dev/null || fail "rendering the chart with serve enabled"
for kind in CronJob Deployment; do
  grep -l "kind: $kind" "$work"/chart/*.yaml | xargs grep -q "image: \"\?ghcr.io/gen-worker/lane:$version" \
    || fail "the chart's $kind does not run ghcr.io/gen-worker/lane:$version"
done
newest=$(PYTHONPATH=$tools/kv python3 -c 'import kubernetes_validate.utils as u; print(u.latest_version())')
for v in 1.30.0 "$newest"; do
  PYTHONPATH=$tools/kv python3 -m kubernetes_validate --strict -k "$v" "$work"/chart/*.yaml "$work"/job/job-*.json >"$work/kv.log" 2>&1 \
    || { cat "$work/kv.log" >&2; fail "kubernetes-validate --strict for $v"; }
done
echo "kubernetes-validate --strict (1.30.0, $newest): the CronJob, the serve Deployment and $(ls "$work"/job/job-*.json | wc -l) mint Jobs with $image_ref"
echo "image smoke: passed"
