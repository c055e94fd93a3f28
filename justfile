# lane's tasks. `./just <recipe>` installs `just` itself when missing.

set shell := ["bash", "-euo", "pipefail", "-c"]

tools := justfile_directory() / ".tools"
export PATH := tools / "bin" + ":" + env_var("PATH")

# List the recipes.
default:
    @just --list

# The main job on embedded defaults: a whole lane on a generated demo upstream
# (no cluster, no GitHub, no GPU).
demo:
    cargo run --release --locked -q -p lane-cli -- demo --out out/demo

# The whole test suite (installs what the tests need first).
test: tools
    cargo test --workspace --locked --no-fail-fast 2>&1 | tee target/test.log
    @grep -E '^test result:' target/test.log | awk '{p+=$4; f+=$6; i+=$8} END {print p " passed, " f " failed, " i " skipped"}'

# Formatting and lints, as CI runs them.
lint:
    cargo fmt --all -- --check
    cargo clippy --workspace --all-targets --locked -- -D warnings

build-release:
    cargo build --release --locked -p lane-cli

# Test tools from PyPI/npm, installed into .tools/ (idempotent).
tools:
    @mkdir -p {{tools}}/bin target

# Regenerate the kept JSON Schema of lane files.
schema:
    cargo run -q -p lane-cli -- schema > docs/lane.schema.json

# Benchmarks (see docs/performance.md for what each measures).
bench:
    cargo bench --workspace
