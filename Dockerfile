# lane's image: the scheduled `lane mint` (charts/lane) and the init container
# of every mint pod, which copies /usr/local/bin/lane into a shared emptyDir
# (so the runtime stage must have `cp`; busybox's musl build is static).
#
#   docker build -t ghcr.io/<org>/lane:<version> .

# ---- build: a static (musl) lane ----------------------------------------
FROM rust:1-bookworm AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends musl-tools \
 && rm -rf /var/lib/apt/lists/* \
 && rustup target add x86_64-unknown-linux-musl
WORKDIR /src
COPY . .
# The dist profile (stripped, fat LTO), without the demo edge: `just dist`'s binary.
RUN cargo build --profile dist --locked -p lane-cli --no-default-features --features kube,github \
      --target x86_64-unknown-linux-musl \
 && cp target/x86_64-unknown-linux-musl/dist/lane /lane \
 && ! ldd /lane 2>/dev/null | grep -q '=>'

# ---- runtime: static binary, non-root, nothing else --------------------
FROM busybox:1.37-musl
COPY --from=build --chown=0:0 --chmod=0555 /lane /usr/local/bin/lane
USER 65532:65532
WORKDIR /var/lib/lane
ENTRYPOINT ["/usr/local/bin/lane"]
