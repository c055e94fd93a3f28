//! The one integration-test binary of `lane-wire`, held to the real thing:
//! the upstream's whole proto history (the gen-worker bundle in
//! `shared/upstream`, cloned once per run) judged by lane-wire and by buf.
//! buf's verdicts are recorded in `tests/data/buf-verdicts.json`
//! (`tests/data/record-buf.sh` regenerates them); a handful of real pairs
//! are also judged by the real `buf` binary live (`./just tools` installs
//! it; a missing buf fails, never skips). Without the bundle (a checkout
//! without `shared/`), each test says so in one line and passes.

#[path = "wire/upstream.rs"]
mod upstream;

#[path = "wire/verdicts.rs"]
mod verdicts;

#[path = "wire/live.rs"]
mod live;

#[path = "wire/generated.rs"]
mod generated;
