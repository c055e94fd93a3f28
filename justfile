# lane's tasks. `./just <recipe>` installs `just` itself when missing.

set shell := ["bash", "-euo", "pipefail", "-c"]

tools := justfile_directory() / ".tools"
export PATH := tools / "bin" + ":" + env_var("PATH")

# List the recipes.
default:
    @just --list

# The main job on embedded defaults: a whole lane on a generated demo upstream
# (no cluster, no GitHub, no GPU). A debug build: on a fresh 2-core machine it
# is built in about a third of a release build's time and shared with `test`.
demo:
    cargo run --locked -q -p lane-cli -- demo --out out/demo

# The whole test suite (installs what the tests need first). Its property
# tests grow their inputs from a fixed seed (PROPTEST_RNG_SEED overrides it),
# so a red run is the change's doing; `./just fuzz` explores.
test: tools
    PROPTEST_RNG_SEED=${PROPTEST_RNG_SEED:-1729} cargo test --workspace --locked --no-fail-fast 2>&1 | tee target/test.log
    @grep -E '^test result:' target/test.log | awk '{p+=$4; f+=$6; i+=$8} END {print p " passed, " f " failed, " i " skipped"}'

# The fault-injection run (issue 19): lanes of 20 cheap mints driven through
# kill -9 of lane, agents and mints and a disk that fills and frees (a tmpfs
# in a private mount namespace), then resumed until green; prints the figures.
# The test suite runs 2 trials; FAULT_TRIALS / FAULT_SEED size this one.
faults trials="20" seed="1375999237":
    LANE_FAULT_TRIALS={{trials}} LANE_FAULT_SEED={{seed}} cargo test --locked -p lane-cli --test cli faults::fault_injection -- --nocapture 2>&1 | grep -E '^fault injection|^test result'

# Formatting and lints, as CI runs them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets --locked -- -D warnings

build-release:
    cargo build --release --locked -p lane-cli

# The shipped binary: the dist profile (stripped, LTO, one codegen unit),
# without the demo edge (no fixture generator in the product).
dist:
    cargo build --profile dist --locked -p lane-cli --no-default-features --features kube,github
    @ls -l target/dist/lane

# lane's image, without a Docker engine: buildah assembles it from Debian's
# own packages and the dist binary (image/build.sh), then the smoke test runs
# it as the chart's user and validates the Jobs and CronJob that use it
# (image/smoke.sh). Installs buildah and umoci with apt-get when missing.
image: dist tools
    @command -v buildah >/dev/null && command -v umoci >/dev/null \
        || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends buildah umoci >/dev/null; }
    bash image/build.sh target/dist/lane target/image
    bash image/smoke.sh target/image/lane-$(target/dist/lane --version | awk '{print $2}').oci.tar
    @ls -l target/image/*.oci.tar

# Test tools from PyPI/npm, installed into .tools/ (idempotent).
tools:
    @mkdir -p {{tools}}/bin target
    @# Prism and GitHub's OpenAPI description, for lane-github's contract tests;
    @# GitHub's example webhook deliveries and octokit's reference signer, for lane-webhook's;
    @# buf, the reference judge lane-wire's verdicts are held to.
    @test -x {{tools}}/node/node_modules/.bin/prism -a -f {{tools}}/node/node_modules/@octokit/openapi/generated/api.github.com.json \
        -a -f {{tools}}/node/node_modules/@octokit/webhooks-examples/api.github.com/index.json \
        -a -f {{tools}}/node/node_modules/@octokit/webhooks-methods/dist-node/index.js \
        -a -x {{tools}}/node/node_modules/.bin/buf \
        || npm install --prefix {{tools}}/node --no-audit --no-fund @stoplight/prism-cli @octokit/openapi @octokit/webhooks-examples @octokit/webhooks-methods @bufbuild/buf
    @# uv (builds the wheel; lane wheel also installs it itself when missing)
    @[ -x {{tools}}/uv/bin/uv ] || python3 -m pip install --quiet --disable-pip-version-check --target {{tools}}/uv uv
    @ln -sf {{tools}}/uv/bin/uv {{tools}}/bin/uv
    @# Kubernetes schemas (offline) and Helm's Go library, for the chart and Job manifests
    @[ -d {{tools}}/kv/kubernetes_validate ] || python3 -m pip install --quiet --disable-pip-version-check --target {{tools}}/kv kubernetes-validate
    @[ -d {{tools}}/helm/helm_python ] || python3 -m pip install --quiet --disable-pip-version-check --target {{tools}}/helm helm-python-sdk
    @# headless Chromium, for the screenshots of the HTML report (lane-cli's report page test)
    @command -v chromium >/dev/null \
        || { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends chromium >/dev/null; }
    @# test servers: S3 (moto), a package index (pypiserver) and an emulated Kubernetes API (kmock), in a venv made by uv
    @[ -x {{tools}}/venv/bin/moto_server ] && [ -x {{tools}}/venv/bin/pypi-server ] && {{tools}}/venv/bin/python -c 'import kmock' 2>/dev/null || { {{tools}}/bin/uv venv -q --allow-existing {{tools}}/venv && {{tools}}/bin/uv pip install -q --python {{tools}}/venv/bin/python 'moto[server]' 'pypiserver[passlib]' 'kmock==0.8'; }

# Regenerate the kept JSON Schemas: lane files, and the files of a results folder.
schema:
    cargo run -q -p lane-cli -- schema > docs/lane.schema.json
    @mkdir -p docs/schemas
    for f in summary mint result manifest; do cargo run -q -p lane-cli -- schema $f > docs/schemas/$f.schema.json; done

# The bounded fuzz suite on fresh inputs, and more of them: CI runs it on a
# fixed seed; a failure here prints the LANE_FUZZ_SEED that reproduces it.
fuzz cases="1024":
    LANE_FUZZ_SEED=random LANE_FUZZ_CASES={{cases}} cargo test --locked -p lane-fuzz --test fuzz

# Benchmarks (see docs/performance.md for what each measures).
bench:
    cargo bench --workspace
