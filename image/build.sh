#!/usr/bin/env bash
# lane's image, built without a Docker engine: buildah (rootless-capable,
# no daemon) assembles it from files, with Debian's own packages as the
# base, fetched by `apt-get download` and unpacked by `dpkg-deb`:
#   busybox-static   `cp` for the mint pods' init container (and `sh`)
#   libc6, libgcc-s1, zlib1g   the C libraries the lane binary links
#   ca-certificates  the CA bundle for HTTPS to S3 and GitHub
# The binary is the distribution profile's (`./just dist`). The result is an
# OCI archive, `target/image/lane-<version>.oci.tar`, that `skopeo copy` or
# `podman load` pushes or loads; the Dockerfile builds the same image where a
# Docker engine and registry base images are at hand.
#
# usage: image/build.sh [BINARY] [OUT_DIR]
set -euo pipefail

bin=$(realpath "${1:-target/dist/lane}")
out=$(realpath -m "${2:-target/image}")
uid=65532
[ -x "$bin" ] || { echo "image/build.sh: no lane binary at $bin (run ./just dist)" >&2; exit 2; }
version=$("$bin" --version | awk '{print $2}')
[ -n "$version" ] || { echo "image/build.sh: $bin --version printed no version" >&2; exit 2; }

# A daemonless, rootless-capable buildah: vfs storage and chroot isolation
# work where overlayfs and user namespaces may not (CI sandboxes); the
# storage lives under target/ and is removed with it.
export STORAGE_DRIVER=vfs BUILDAH_ISOLATION=chroot
store=$(realpath -m target/image/containers)
mkdir -p "$store" "$out"
storage=(--root "$store/root" --runroot "$store/run" --storage-driver vfs)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/debs" "$work/rootfs"
# `apt-get download` runs as `_apt` and must be able to write there.
chmod 0755 "$work" "$work/debs"
packages=(busybox-static libc6 libgcc-s1 zlib1g ca-certificates)
# A fresh machine may have no package lists yet: fetch them once, then retry.
(cd "$work/debs" && { apt-get download -q "${packages[@]}" >/dev/null 2>&1 \
  || { apt-get update -q >/dev/null && apt-get download -q "${packages[@]}" >/dev/null; }; })
for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$work/rootfs"; done
root=$work/rootfs

# What the image needs of each package, and nothing of the rest.
rm -rf "$root"/usr/share/{doc,man,info,lintian,locale,bug} "$root"/usr/lib/x86_64-linux-gnu/gconv \
       "$root"/usr/sbin "$root"/etc/ca-certificates.conf "$root"/usr/lib/x86_64-linux-gnu/audit
mkdir -p "$root"/bin "$root"/etc/ssl/certs "$root"/usr/local/bin "$root"/tmp "$root"/var/lib/lane
# Debian's bookworm packages put the loader and libraries under /lib: keep
# that layout (the binary's interpreter is /lib64/ld-linux-x86-64.so.2).
for tool in cp sh ls cat; do ln -sf /bin/busybox "$root/bin/$tool"; done
# update-ca-certificates is a maintainer script: its bundle, made here.
find "$root"/usr/share/ca-certificates -name '*.crt' -print0 | sort -z | xargs -0 cat > "$root"/etc/ssl/certs/ca-certificates.crt
printf 'root:x:0:0:root:/root:/sbin/nologin\nlane:x:%s:%s:lane:/var/lib/lane:/sbin/nologin\n' $uid $uid > "$root"/etc/passwd
printf 'root:x:0:\nlane:x:%s:\n' $uid > "$root"/etc/group
install -m 0555 "$bin" "$root"/usr/local/bin/lane
chmod 1777 "$root"/tmp

# Every file dated the epoch: the same binary and packages, the same layer.
find "$root" -exec touch -h -d @0 {} +

ctr=$(buildah "${storage[@]}" from --quiet scratch)
cleanup_ctr() { buildah "${storage[@]}" rm "$ctr" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap cleanup_ctr EXIT
buildah "${storage[@]}" copy --quiet "$ctr" "$root"/ / >/dev/null
buildah "${storage[@]}" copy --quiet --chown $uid:$uid "$ctr" "$root"/var/lib/lane /var/lib/lane >/dev/null
buildah "${storage[@]}" config \
  --user $uid:$uid \
  --workingdir /var/lib/lane \
  --entrypoint '["/usr/local/bin/lane"]' \
  --cmd '["--help"]' \
  --env PATH=/usr/local/bin:/usr/bin:/bin \
  --env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
  --label org.opencontainers.image.title=lane \
  --label org.opencontainers.image.version="$version" \
  --label org.opencontainers.image.source=https://github.com/gen-worker/lane \
  "$ctr"
archive=$out/lane-$version.oci.tar
rm -f "$archive"
# A fixed timestamp: the same binary and packages give the same layers.
buildah "${storage[@]}" commit --quiet --format oci --disable-compression=false --timestamp 0 --rm "$ctr" "oci-archive:$archive:lane:$version" >/dev/null
trap 'rm -rf "$work"' EXIT
echo "$archive"
