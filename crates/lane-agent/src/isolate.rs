//! Cold means cold, whatever the mint erases or hard-codes.
//!
//! The upstream's mint child erases every `TORCH*`/`TRITON*` variable from
//! its own environment (`env_seal.scrub_env`, pgw#718), so the cache
//! variables the agent sets do not reach its compiler: inductor falls back
//! to `$TMPDIR/torchinductor_<user>` (else `/tmp/...`), triton to
//! `~/.triton/cache`, and gen-worker 0.117-0.126's compile child writes its
//! compiled graphs into `/tmp/tensorhub-cache/cas` whatever
//! `TENSORHUB_CACHE_DIR` says (`models/cache_paths.py`). A second "cold"
//! repeat then resolves every class from the first one's cache (recorded on
//! an H200: `tests/data/gw-eras/v0.126.3/r2`).
//!
//! So each attempt gets, under its mint folder's `iso/`:
//! - its own temporary, home and cache roots ([`ROOTS`]: `TMPDIR`, `HOME`,
//!   `XDG_CACHE_HOME`, `TENSORHUB_CACHE_DIR`, `GEN_WORKER_LOCAL_CELLS_DIR`,
//!   the 0.127 graph store, the CUDA driver's compute cache);
//! - its own `/tmp`: the mint runs in a private mount namespace
//!   (util-linux `unshare`, then `mount --rbind` of `iso/slash-tmp` on
//!   `/tmp`), with the mint folder, the source tree and every path under
//!   `/tmp` the cell names left where they are. Whether the machine allows
//!   it is found out by the attempt itself, not by a probe run before it
//!   (a probe cost every attempt a second `unshare` and its mounts): the
//!   wrapper checks a marker only the private `/tmp` holds and says it
//!   entered ([`ENTERED`]) just before it becomes the mint. A wrapper that
//!   ends without having entered never ran the mint; the next way is tried,
//!   and where none holds the attempt runs on the machine's `/tmp` and its
//!   record says so, naming the fixed paths a mint is known to write there
//!   ([`shared_paths`]);
//! - in a pod (one attempt per container) the container's own `/tmp`.
//!
//! What the attempt got is its [`Isolation`] record (`result.json`,
//! `mint.json`).

use std::path::{Path, PathBuf};

use lane_core::{Isolation, ProcessEnd, TmpIsolation};

use crate::error::AgentError;

/// The variables pointed at the attempt's own folders, and where under
/// `<mint folder>/iso/` each goes.
pub const ROOTS: [(&str, &str); 8] = [
    ("TMPDIR", "tmp"),
    ("HOME", "home"),
    ("XDG_CACHE_HOME", "home/.cache"),
    ("TENSORHUB_CACHE_DIR", "tensorhub-cache"),
    ("GEN_WORKER_LOCAL_CELLS_DIR", "compile-cells"),
    // gen-worker 0.127's graph store (`COZY_GRAPH_CAS`; a cell passes
    // `--graph-store "$LANE_GRAPH_STORE"` to `gen-worker compile`).
    ("COZY_GRAPH_CAS", "graph-store"),
    ("LANE_GRAPH_STORE", "graph-store"),
    // The CUDA driver's JIT cache (`~/.nv/ComputeCache`); not scrubbed.
    ("CUDA_CACHE_PATH", "home/.nv/ComputeCache"),
];

/// The folder bound on `/tmp` inside the private mount namespace.
pub const SLASH_TMP: &str = lane_core::layout::file::SLASH_TMP;

/// The marker only the attempt's own `/tmp` holds.
pub const MARKER: &str = ".lane-private-tmp";

/// The gate: the wrapper waits for the agent's word (a line on its stdin)
/// before the mint, so the mint's group is recorded before the mint
/// starts; an agent gone before that closes the pipe and the mint never
/// runs (125). A private `/tmp` is made before the word, while the agent
/// may still be waiting for its place (the mounts are the wrapper's own
/// namespace's, seen by nobody else).
pub const WAIT_FOR_GO: &str = "read -r go || exit 125";

/// Emptied by the wrapper once the private `/tmp` is in place, just before
/// it becomes the mint: a wrapper that ended with it still holding its
/// byte never ran the mint. Made by the agent and only truncated by the
/// wrapper, so a full disk cannot keep the wrapper from saying it entered
/// (and send the mint to the machine's `/tmp`).
pub const ENTERED: &str = lane_core::layout::file::ENTERED;

/// The two ways of making a private mount namespace, tried in order: a
/// mount namespace alone (root, or CAP_SYS_ADMIN), then a user namespace
/// with one (any user, where unprivileged user namespaces are allowed).
const WAYS: [(&[&str], &str); 2] = [
    (
        &["--mount", "--propagation", "private"],
        "mount namespace (unshare --mount)",
    ),
    (
        &[
            "--user",
            "--map-root-user",
            "--mount",
            "--propagation",
            "private",
        ],
        "user and mount namespaces (unshare --user --map-root-user --mount: \
         the mint runs as uid 0 of its own user namespace)",
    ),
];

/// Fixed paths a mint is known to write whatever its environment says:
/// shared with every other attempt on the machine when `/tmp` (or, for
/// a mint that resolves its home from the password database rather than
/// `$HOME`, the home) is the machine's.
pub fn shared_paths(real_home: Option<&Path>) -> Vec<String> {
    let home = real_home.map_or_else(|| "~".to_owned(), |h| h.display().to_string());
    vec![
        "/tmp/tensorhub-cache (gen-worker 0.117-0.126: the compile child's compiled-graph CAS, \
         whatever TENSORHUB_CACHE_DIR says)"
            .to_owned(),
        "/tmp/torchinductor_<user> (inductor's cache, for a mint that does not honour TMPDIR)"
            .to_owned(),
        format!("{home}/.triton/cache (triton's cache, for a mint that does not honour HOME)"),
        format!(
            "{home}/.nv/ComputeCache (the CUDA driver's JIT cache, for a mint that honours \
             neither HOME nor CUDA_CACHE_PATH)"
        ),
    ]
}

/// The caches a cell itself points outside its attempt: a cache variable
/// (one of [`ROOTS`], the compilers' own cache variables, or any
/// `*_CACHE_DIR`, `*_CACHE_HOME`, `*_CACHE_PATH`) that its lane file sets
/// to a path outside the attempt's folder, and a path it names at or under
/// one of the fixed caches [`shared_paths`] lists (kept from the machine's
/// `/tmp`, it is every attempt's). Each is said with why; every other
/// attempt given the same path shares it.
pub fn outside_the_attempt(
    env: &std::collections::BTreeMap<String, String>,
    named: &[PathBuf],
    dir: &Path,
) -> Vec<String> {
    const COMPILER_CACHES: [&str; 2] = ["TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR"];
    let is_cache_var = |k: &str| {
        ROOTS.iter().any(|(v, _)| *v == k)
            || COMPILER_CACHES.contains(&k)
            || ["_CACHE_DIR", "_CACHE_HOME", "_CACHE_PATH"]
                .iter()
                .any(|s| k.ends_with(s))
    };
    let dir = lexically_normal(dir);
    let mut out: Vec<String> = env
        .iter()
        .filter(|(k, v)| {
            is_cache_var(k) && !lexically_normal(Path::new(v.as_str())).starts_with(&dir)
        })
        .map(|(k, v)| {
            format!(
                "{k}={} (the lane file points this cache outside the attempt)",
                crate::report::bounded_text(v, 200)
            )
        })
        .collect();
    let fixed = |p: &Path| {
        let p = lexically_normal(p);
        p.starts_with("/tmp/tensorhub-cache")
            || p.components().nth(2).is_some_and(|c| {
                p.starts_with("/tmp")
                    && c.as_os_str()
                        .to_string_lossy()
                        .starts_with("torchinductor_")
            })
    };
    for p in named.iter().filter(|p| fixed(p)) {
        let said = format!(
            "{} (a fixed cache the cell names: kept from the machine's /tmp, shared with every attempt that names it)",
            p.display()
        );
        if !out.contains(&said) {
            out.push(said);
        }
    }
    out
}

/// What the attempt runs with: its roots, and the ways of a private `/tmp`
/// to try, in order ([`Prepared::run`]).
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The variables and the folders they point at.
    pub env: Vec<(&'static str, PathBuf)>,
    /// The wrappers to try, in order; empty in a pod, or where none can be.
    ways: Vec<Way>,
    /// The variables of [`ROOTS`], for the record.
    roots: Vec<String>,
    /// One attempt per container: its `/tmp` is its own.
    container_per_attempt: bool,
    /// Why no way could be tried at all (no `unshare`, a path that is not
    /// UTF-8), when so.
    untried: Vec<String>,
    /// Further folders of the attempt that must be empty when its mint
    /// starts (its compile caches), by variable.
    watched: Vec<(String, PathBuf)>,
}

/// One way of a private `/tmp`: the program and arguments the mint command
/// runs under.
#[derive(Debug, Clone)]
struct Way {
    wrapper: Vec<String>,
    /// `unshare`'s own arguments, to say which way failed and why.
    args: String,
    /// What the record says of it.
    how: &'static str,
}

impl Prepared {
    /// Runs the attempt: `attempt` is called with the wrapper to put before
    /// the mint command (empty: as it is) and runs it to its end (`None`:
    /// stopped). A wrapper that exits non-zero without having entered
    /// ([`ENTERED`]) never ran the mint: its `stderr` (the mint's own log,
    /// which `attempt` makes afresh each time) says why, and the next way
    /// is tried; the last resort is the machine's `/tmp`. Returns the end
    /// and what the attempt got.
    pub fn run(
        &self,
        dir: &Path,
        stderr: &Path,
        mut attempt: impl FnMut(&[String]) -> Result<Option<ProcessEnd>, AgentError>,
    ) -> Result<(Option<ProcessEnd>, Isolation), AgentError> {
        let entered = dir.join(ENTERED);
        let mut failed = self.untried.clone();
        for way in &self.ways {
            std::fs::write(&entered, b"w").map_err(io(&entered))?;
            let at_start = self.not_empty();
            let end = attempt(&way.wrapper)?;
            let did_not_enter = std::fs::metadata(&entered).is_ok_and(|m| m.len() > 0);
            match end {
                Some(ProcessEnd::Exited { code }) if code != 0 && did_not_enter => {
                    let text = std::fs::read(stderr).unwrap_or_default();
                    let text = String::from_utf8_lossy(&text);
                    let text = crate::report::bounded_text(text.trim(), 300);
                    failed.push(if text.is_empty() {
                        format!("{}: exited with {code}", way.args)
                    } else {
                        format!("{}: exited with {code}: {text}", way.args)
                    });
                }
                end => {
                    let mut record = self.private(way.how);
                    record.not_empty_at_start = Some(at_start);
                    return Ok((end, record));
                }
            }
        }
        let at_start = self.not_empty();
        let end = attempt(&[])?;
        let mut record = self.without_a_way(&failed);
        record.not_empty_at_start = Some(at_start);
        Ok((end, record))
    }

    /// Adds the attempt's folder `path` (set as `var`) to those that must
    /// be empty when the mint starts.
    pub fn watch(&mut self, var: &str, path: PathBuf) {
        self.watched.push((var.to_owned(), path));
    }

    /// The roots and watched folders (their variables) that hold anything
    /// now: looked at just before the mint starts, the evidence that it
    /// started cold. The roots nest (`HOME` holds `XDG_CACHE_HOME`), so a
    /// folder holding folders alone is empty; one that cannot be read, or
    /// holds more entries than are looked at, counts as holding something.
    fn not_empty(&self) -> Vec<String> {
        let roots = self.env.iter().map(|(v, p)| ((*v).to_owned(), p.clone()));
        roots
            .chain(self.watched.iter().cloned())
            .filter(|(_, path)| !holds_no_file(path))
            .map(|(var, _)| var)
            .collect()
    }

    /// The record of an attempt that ran under a private `/tmp`.
    fn private(&self, how: &str) -> Isolation {
        Isolation {
            tmp: TmpIsolation::Private { how: how.into() },
            roots: self.roots.clone(),
            shared: Vec::new(),
            outside: Vec::new(),
            not_empty_at_start: None,
        }
    }

    /// The record of an attempt that ran as it is: the container's own
    /// `/tmp`, or the machine's, saying why and what is shared.
    fn without_a_way(&self, why: &[String]) -> Isolation {
        if self.container_per_attempt {
            return Isolation {
                tmp: TmpIsolation::Container {
                    why: "one attempt per container: its /tmp is the container's own".into(),
                },
                roots: self.roots.clone(),
                shared: Vec::new(),
                outside: Vec::new(),
                not_empty_at_start: None,
            };
        }
        let real_home = std::env::var_os("HOME").map(PathBuf::from);
        Isolation {
            tmp: TmpIsolation::Shared {
                why: format!("no private mount namespace: {}", why.join("; ")),
            },
            roots: self.roots.clone(),
            shared: shared_paths(real_home.as_deref()),
            outside: Vec::new(),
            not_empty_at_start: None,
        }
    }
}

/// Whether `dir` holds nothing but folders, looking at most at 4,096 entries.
fn holds_no_file(dir: &Path) -> bool {
    let mut stack = vec![dir.to_owned()];
    let mut seen = 0usize;
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            return false;
        };
        for e in entries {
            seen += 1;
            let Ok(e) = e else { return false };
            match e.file_type() {
                Ok(t) if t.is_dir() && seen <= 4096 => stack.push(e.path()),
                _ => return false,
            }
        }
    }
    true
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> AgentError + '_ {
    move |source| AgentError::Io {
        path: path.to_owned(),
        source,
    }
}

/// A path for a shell script: single-quoted, `'` written `'\''`.
fn quoted(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Makes the attempt's roots under `dir/iso/` (fresh and empty) and finds
/// out which `/tmp` it gets. `keep` are paths the mint needs at their own
/// place (the mint folder, the source tree, paths the cell names);
/// `container_per_attempt`: the agent runs in a container of its own (a
/// pod), whose `/tmp` no other attempt shares.
pub fn prepare(
    dir: &Path,
    keep: &[PathBuf],
    container_per_attempt: bool,
) -> Result<Prepared, AgentError> {
    prepare_with("unshare", dir, keep, container_per_attempt)
}

/// [`prepare`] with the `unshare` program named.
fn prepare_with(
    unshare: &str,
    dir: &Path,
    keep: &[PathBuf],
    container_per_attempt: bool,
) -> Result<Prepared, AgentError> {
    let iso = dir.join(lane_core::layout::file::ISO);
    if iso.exists() {
        std::fs::remove_dir_all(&iso).map_err(io(&iso))?;
    }
    let mut env = Vec::new();
    for (var, rel) in ROOTS {
        let p = iso.join(rel);
        std::fs::create_dir_all(&p).map_err(io(&p))?;
        env.push((var, p));
    }
    let roots = env.iter().map(|(v, _)| (*v).to_owned()).collect();
    let mut prepared = Prepared {
        env,
        ways: Vec::new(),
        roots,
        container_per_attempt,
        untried: Vec::new(),
        watched: Vec::new(),
    };
    if container_per_attempt {
        return Ok(prepared);
    }
    let slash = dir.join(SLASH_TMP);
    std::fs::create_dir_all(&slash).map_err(io(&slash))?;
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&slash, std::fs::Permissions::from_mode(0o1777))
            .map_err(io(&slash))?;
    }
    std::fs::write(slash.join(MARKER), b"lane: this attempt's own /tmp\n").map_err(io(&slash))?;
    if !on_path(unshare) {
        prepared
            .untried
            .push(format!("cannot run unshare: {unshare} not found"));
        return Ok(prepared);
    }
    match script(&slash, &dir.join(ENTERED), keep) {
        Err(e) => prepared.untried.push(e),
        Ok(script) => {
            for (args, how) in WAYS {
                let mut wrapper: Vec<String> = vec![unshare.into()];
                wrapper.extend(args.iter().map(|a| (*a).to_owned()));
                wrapper.extend(["--".into(), "sh".into(), "-c".into(), script.clone()]);
                wrapper.push("lane-private-tmp".into());
                prepared.ways.push(Way {
                    wrapper,
                    args: args.join(" "),
                    how,
                });
            }
        }
    }
    Ok(prepared)
}

/// Whether `program` can be run: a path that is an executable file, or a
/// name found on `PATH` (looked up here, so a machine without it costs no
/// failed process per attempt).
fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &Path| {
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.contains('/') {
        return runnable(Path::new(program));
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| runnable(&d.join(program))))
}

/// Lays out the attempt's own `/tmp` folder (`slash`, on the real disk:
/// the folders, files and links the kept paths need there, made here
/// rather than by a process each inside the wrapper) and returns the
/// wrapper's script: bind each kept path under `/tmp` into that folder at
/// the same place, put the folder on `/tmp` (recursively, so the kept
/// paths come along), check the marker, wait for the agent's word (the
/// wrapper is the mint's gate, see `agent::spawn`), say it entered
/// (`entered`, a path in the kept attempt folder), and become the command.
fn script(slash: &Path, entered: &Path, keep: &[PathBuf]) -> Result<String, String> {
    let tmp = std::fs::canonicalize("/tmp").map_err(|e| format!("/tmp: {e}"))?;
    let text = |p: &Path| {
        p.to_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("{} is not UTF-8", p.display()))
    };
    let made = |what: &str, p: &Path, r: std::io::Result<()>| {
        r.map_err(|e| format!("cannot make {what} {}: {e}", p.display()))
    };
    // The working directory is entered again through the new /tmp once it
    // is mounted: a cwd kept on the old mount and a TMPDIR on the new one
    // are two mounts, and a rename between them fails (EXDEV: the 0.126
    // rig's safetensors checkpoint, on the H200).
    let mut s = format!(
        "set -e\nS={}\nE={}\nW=$(pwd -P)\n",
        quoted(&text(slash)?),
        quoted(&text(entered)?)
    );
    let mut kept: Vec<(PathBuf, PathBuf)> = Vec::new();
    // A path written with `..` (`/tmp/x/crates/app/../../data`) is resolved
    // through the folders before its first `..`: they must exist in the
    // new /tmp too, or the path the mint was given does not resolve there.
    for k in keep {
        let before_up: PathBuf = k
            .components()
            .take_while(|c| !matches!(c, std::path::Component::ParentDir))
            .collect();
        if before_up != *k && before_up.is_dir() {
            if let Ok(rel) = before_up.strip_prefix(&tmp) {
                if !rel.as_os_str().is_empty() {
                    let at = slash.join(rel);
                    made("folder", &at, std::fs::create_dir_all(&at))?;
                }
            }
        }
    }
    for k in keep {
        let Ok(real) = std::fs::canonicalize(k) else {
            continue;
        };
        let Ok(rel) = real.strip_prefix(&tmp) else {
            continue;
        };
        if rel.as_os_str().is_empty() || kept.iter().any(|(r, _)| real.starts_with(r)) {
            continue;
        }
        kept.retain(|(r, _)| !r.starts_with(&real));
        kept.push((real.clone(), rel.to_owned()));
    }
    for (real, rel) in &kept {
        let at = slash.join(rel);
        let (from, to) = (
            quoted(&text(real)?),
            format!("\"$S\"/{}", quoted(&text(rel)?)),
        );
        if real.is_dir() {
            // Recursively: a disk mounted inside a kept folder (an `--out`
            // on a tmpfs of its own) comes along.
            made("folder", &at, std::fs::create_dir_all(&at))?;
            s.push_str(&format!("mount --rbind {from} {to}\n"));
        } else {
            if let Some(parent) = at.parent() {
                made("folder", parent, std::fs::create_dir_all(parent))?;
            }
            made("file", &at, std::fs::File::create(&at).map(drop))?;
            s.push_str(&format!("mount --bind {from} {to}\n"));
        }
    }
    // A path given through a symlink (a recorded report linking to its
    // twin) is bound where it leads; the link itself is made again at its
    // own place, unless a kept folder already brings it along.
    let mut links: Vec<PathBuf> = Vec::new();
    for k in keep {
        let path = lexically_normal(k);
        // Every folder or file on the way that is a link (`aot3-pair ->
        // h200-run/results/rig-aot/H200`), outermost first.
        let mut on_the_way: Vec<&Path> = path.ancestors().collect();
        on_the_way.reverse();
        for link in on_the_way {
            let (Ok(target), Ok(rel)) = (std::fs::read_link(link), link.strip_prefix(&tmp)) else {
                continue;
            };
            // Never made inside a bound folder (that would write on the
            // machine's own disk): there it is already in place.
            let parent = link.parent().and_then(|p| std::fs::canonicalize(p).ok());
            let bound = |p: &Path| kept.iter().any(|(r, _)| p.starts_with(r));
            if links.iter().any(|l| l == link)
                || bound(link)
                || parent.as_deref().is_some_and(bound)
            {
                continue;
            }
            links.push(link.to_owned());
            let at = slash.join(rel);
            if let Some(parent) = at.parent() {
                made("folder", parent, std::fs::create_dir_all(parent))?;
            }
            // A link already there (a retried layout) is made again; a
            // folder or file there is left alone, never removed.
            match std::fs::symlink_metadata(&at) {
                Ok(m) if m.is_symlink() => {
                    made("link", &at, std::fs::remove_file(&at))?;
                    made("link", &at, std::os::unix::fs::symlink(&target, &at))?;
                }
                Ok(_) => {}
                Err(_) => made("link", &at, std::os::unix::fs::symlink(&target, &at))?,
            }
        }
    }
    s.push_str(&format!(
        "mount --rbind \"$S\" /tmp\ntest -e /tmp/{MARKER}\ncd \"$W\"\n{WAIT_FOR_GO}\n: > \"$E\"\nexec \"$@\" </dev/null\n"
    ));
    Ok(s)
}

/// `p` with `.` and `..` taken away by their names alone (no symlink is
/// followed): the path as the mint will walk it.
fn lexically_normal(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cache_the_lane_file_points_outside_the_attempt_is_named() {
        let dir = Path::new("/runs/lanes/0.0.4/mints/c/H200/r2/a1");
        let env: std::collections::BTreeMap<String, String> = [
            ("HOME", "/var/tmp/shared-home"),
            (
                "TRITON_CACHE_DIR",
                "/runs/lanes/0.0.4/mints/c/H200/r2/a1/own",
            ),
            ("MY_CACHE_DIR", "/srv/cache"),
            ("GW_TOY127", "/tmp/lane/toy127.py"),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect();
        let named = [
            PathBuf::from("/tmp/tensorhub-cache"),
            PathBuf::from("/tmp/torchinductor_root/fx"),
            PathBuf::from("/tmp/lane/toy127.py"),
        ];
        assert_eq!(
            outside_the_attempt(&env, &named, dir),
            [
                "HOME=/var/tmp/shared-home (the lane file points this cache outside the attempt)",
                "MY_CACHE_DIR=/srv/cache (the lane file points this cache outside the attempt)",
                "/tmp/tensorhub-cache (a fixed cache the cell names: kept from the machine's /tmp, shared with every attempt that names it)",
                "/tmp/torchinductor_root/fx (a fixed cache the cell names: kept from the machine's /tmp, shared with every attempt that names it)",
            ]
        );
        let own: std::collections::BTreeMap<String, String> =
            [("HOME".to_owned(), format!("{}/../a1/h", dir.display()))].into();
        assert!(outside_the_attempt(&own, &[], dir).is_empty());
    }

    #[test]
    fn quoting_survives_quotes_and_spaces() {
        assert_eq!(quoted("a b"), "'a b'");
        assert_eq!(quoted("it's"), r"'it'\''s'");
    }

    #[test]
    fn the_script_keeps_only_outermost_paths_under_tmp() {
        let d = tempfile::tempdir().unwrap();
        let inner = d.path().join("m/src");
        std::fs::create_dir_all(&inner).unwrap();
        let s = script(
            &d.path().join("m/iso/slash-tmp"),
            &d.path().join("m/iso/entered"),
            &[d.path().join("m"), inner, PathBuf::from("/etc")],
        )
        .unwrap();
        // The mint folder is bound once (its source folder comes along);
        // a path outside /tmp needs nothing.
        assert_eq!(s.matches("mount --rbind").count(), 2, "{s}");
        assert!(!s.contains("/etc"), "{s}");
        // The wrapper is the mint's gate: its private /tmp is made before
        // the word (ahead of its turn), the mint only after it.
        assert!(s.starts_with("set -e\nS="), "{s}");
        assert!(s.ends_with(
            "mount --rbind \"$S\" /tmp\ntest -e /tmp/.lane-private-tmp\ncd \"$W\"\nread -r go || exit 125\n: > \"$E\"\nexec \"$@\" </dev/null\n"
        ));
    }

    /// Regression: `./just demo` from a checkout under /tmp crashed every
    /// mint: its replay cells name the recorded data as
    /// `<checkout>/crates/lane-app/../../tests/data/...`, and in the private
    /// /tmp only the resolved folder was bound, so the path as written,
    /// which goes through `crates/lane-app`, did not resolve.
    #[test]
    fn a_kept_path_written_with_dot_dot_still_resolves_in_the_private_tmp() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("crates/app")).unwrap();
        std::fs::create_dir_all(d.path().join("data")).unwrap();
        let written = d.path().join("crates/app/../../data");
        let slash = d.path().join("m/iso/slash-tmp");
        let s = script(&slash, Path::new("/e"), &[written]).unwrap();
        let tmp = std::fs::canonicalize("/tmp").unwrap();
        let root = std::fs::canonicalize(d.path()).unwrap();
        let rel = root.strip_prefix(&tmp).unwrap();
        assert!(
            s.contains(&format!("mount --rbind '{}/data'", root.display())),
            "{s}"
        );
        assert!(slash.join(rel).join("crates/app").is_dir());
        assert!(slash.join(rel).join("data").is_dir());
    }

    /// Regression: the recorded `aot3-pair` is a symlink to its twin under
    /// `h200-run/`; only the twin was bound, so the path the cell names
    /// (`aot3-pair/r1/report.json`) did not exist in the private /tmp (`cp:
    /// cannot stat`). Each link on the way is made again at its place.
    #[test]
    fn a_kept_symlink_is_made_again_at_its_own_place() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("run/r1")).unwrap();
        std::fs::write(d.path().join("run/r1/report.json"), "{}").unwrap();
        std::os::unix::fs::symlink("run", d.path().join("pair")).unwrap();
        std::os::unix::fs::symlink("report.json", d.path().join("run/r1/named.json")).unwrap();
        let slash = d.path().join("m/iso/slash-tmp");
        let s = script(
            &slash,
            Path::new("/e"),
            &[d.path().join("pair/r1/named.json")],
        )
        .unwrap();
        let tmp = std::fs::canonicalize("/tmp").unwrap();
        let rel = std::fs::canonicalize(d.path()).unwrap();
        let at = slash.join(rel.strip_prefix(&tmp).unwrap());
        assert!(s.contains("/run/r1/report.json' \"$S\"/"), "{s}");
        // The folder link on the way, and the file link at its end, which
        // leads (through the folder link) to the bound file's place.
        assert_eq!(
            std::fs::read_link(at.join("pair")).unwrap(),
            Path::new("run")
        );
        assert_eq!(
            std::fs::read_link(at.join("pair/r1/named.json")).unwrap(),
            Path::new("report.json")
        );
        assert!(at.join("pair/r1/named.json").is_file());
    }

    /// Regression: a kept folder was bound without what is mounted inside
    /// it (`mount --bind`), so an `--out` on a disk of its own under a kept
    /// folder vanished in the private /tmp and the mint could not enter its
    /// own folder (`cd: can't cd`). Kept folders are bound recursively.
    /// (With it, the probe now runs in the attempt's folder, not in lane's
    /// own working directory, which the private /tmp need not keep.)
    #[test]
    fn kept_folders_are_bound_with_what_is_mounted_inside_them() {
        let d = tempfile::tempdir().unwrap();
        let s = script(
            &d.path().join("m/iso/slash-tmp"),
            Path::new("/e"),
            &[d.path().to_owned()],
        )
        .unwrap();
        assert!(!s.contains("mount --bind "), "{s}");
        assert!(s.contains("mount --rbind '"), "{s}");
    }

    /// Runs `wrapper + command` in `dir` with its stderr in `stderr`, as the
    /// agent does (without the gate), to its end.
    fn run_in(dir: &Path, stderr: &Path, wrapper: &[String], command: &str) -> ProcessEnd {
        let log = std::fs::File::create(stderr).unwrap();
        let mut argv: Vec<String> = wrapper.to_vec();
        argv.extend(["sh".into(), "-c".into(), command.into()]);
        let status = std::process::Command::new(&argv[0])
            .args(&argv[1..])
            .current_dir(dir)
            .stderr(log)
            .status()
            .unwrap();
        ProcessEnd::Exited {
            code: status.code().unwrap_or(-1),
        }
    }

    #[test]
    fn without_unshare_the_attempt_runs_on_the_shared_tmp_and_says_what_is_shared() {
        let d = tempfile::tempdir().unwrap();
        let p = prepare_with("/nonexistent/unshare", d.path(), &[], false).unwrap();
        let mut wrappers = Vec::new();
        let (end, record) = p
            .run(d.path(), &d.path().join("stderr.log"), |w| {
                wrappers.push(w.to_vec());
                Ok::<_, AgentError>(Some(ProcessEnd::Exited { code: 0 }))
            })
            .unwrap();
        // Run once, as it is: no failed wrapper first.
        assert_eq!(wrappers, [Vec::<String>::new()]);
        assert_eq!(end, Some(ProcessEnd::Exited { code: 0 }));
        assert!(!record.is_cold());
        match &record.tmp {
            TmpIsolation::Shared { why } => {
                assert_eq!(
                    why,
                    "no private mount namespace: cannot run unshare: /nonexistent/unshare not found"
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(record.shared.len(), 4);
        assert!(record.shared[0].starts_with("/tmp/tensorhub-cache (gen-worker 0.117-0.126"));
        assert!(record.shared[1].starts_with("/tmp/torchinductor_<user>"));
        assert!(record.shared[2].contains("/.triton/cache"));
        assert!(record.shared[3].contains("/.nv/ComputeCache"));
    }

    /// The attempt is its own probe: the mint runs once, under the first
    /// way, in its private `/tmp` (where the machine allows one).
    #[test]
    fn the_mint_runs_once_in_its_private_tmp_without_a_probe_before_it() {
        let d = tempfile::tempdir().unwrap();
        let dir = d.path().join("m");
        std::fs::create_dir_all(&dir).unwrap();
        let p = prepare(&dir, std::slice::from_ref(&dir), false).unwrap();
        let stderr = dir.join("stderr.log");
        let mut runs = 0;
        let (end, record) = p
            .run(&dir, &stderr, |w| {
                runs += 1;
                Ok::<_, AgentError>(Some(run_in(
                    &dir,
                    &stderr,
                    w,
                    &format!("test -e /tmp/{MARKER} && echo ran >> ran.log"),
                )))
            })
            .unwrap();
        match &record.tmp {
            TmpIsolation::Private { how } => {
                assert_eq!(runs, 1);
                assert_eq!(end, Some(ProcessEnd::Exited { code: 0 }));
                assert!(how.starts_with("mount namespace") || how.starts_with("user and"));
                assert_eq!(
                    std::fs::read_to_string(dir.join("ran.log")).unwrap(),
                    "ran\n"
                );
                assert_eq!(std::fs::metadata(dir.join(ENTERED)).unwrap().len(), 0);
            }
            // A machine without mount namespaces: the mint ran once, as it is.
            TmpIsolation::Shared { why } => {
                assert!(why.starts_with("no private mount namespace: "), "{why}");
                assert!(!dir.join("ran.log").exists());
            }
            other => panic!("{other:?}"),
        }
    }

    /// Regression for the probe's removal: a way the machine refuses (an
    /// `unshare --mount` without the right to it) ends before the mint runs;
    /// the next way is tried, and the record says why the first failed.
    #[test]
    fn a_refused_way_never_runs_the_mint_and_the_next_one_is_tried() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        // Refuses the first way as a machine without CAP_SYS_ADMIN does;
        // hands the second to the real `unshare`.
        let fake = d.path().join("unshare");
        std::fs::write(
            &fake,
            "#!/bin/sh\ncase \"$1\" in --mount) echo 'unshare: unshare failed: Operation not permitted' >&2; exit 1;; esac\nexec unshare \"$@\"\n",
        )
        .unwrap();
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let dir = d.path().join("m");
        std::fs::create_dir_all(&dir).unwrap();
        let p = prepare_with(
            fake.to_str().unwrap(),
            &dir,
            std::slice::from_ref(&dir),
            false,
        )
        .unwrap();
        let stderr = dir.join("stderr.log");
        let mut runs = 0;
        let (end, record) = p
            .run(&dir, &stderr, |w| {
                runs += 1;
                Ok::<_, AgentError>(Some(run_in(&dir, &stderr, w, "echo ran >> ran.log")))
            })
            .unwrap();
        assert_eq!(end, Some(ProcessEnd::Exited { code: 0 }));
        // Whichever way held, the mint ran exactly once.
        assert_eq!(
            std::fs::read_to_string(dir.join("ran.log")).unwrap(),
            "ran\n"
        );
        match &record.tmp {
            TmpIsolation::Private { how } => {
                assert_eq!(runs, 2);
                assert!(how.starts_with("user and mount namespaces"), "{how}");
            }
            TmpIsolation::Shared { why } => {
                assert_eq!(runs, 3);
                assert!(
                    why.starts_with(
                        "no private mount namespace: --mount --propagation private: exited with 1: \
                         unshare: unshare failed: Operation not permitted; --user"
                    ),
                    "{why}"
                );
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_pod_gets_its_containers_tmp_and_every_root() {
        let d = tempfile::tempdir().unwrap();
        let p = prepare(d.path(), &[], true).unwrap();
        assert!(p.ways.is_empty());
        let (_, record) = p
            .run(d.path(), &d.path().join("e"), |w| {
                assert!(w.is_empty());
                Ok::<_, AgentError>(None)
            })
            .unwrap();
        assert!(record.is_cold());
        assert_eq!(
            record.not_empty_at_start,
            Some(Vec::new()),
            "looked at, all empty"
        );
        assert!(matches!(record.tmp, TmpIsolation::Container { .. }));
        assert_eq!(record.roots.len(), ROOTS.len());
        for (_, path) in &p.env {
            assert!(path.is_dir() && path.starts_with(d.path().join("iso")));
        }
    }

    #[test]
    fn a_root_that_holds_something_when_the_mint_starts_is_no_cold_start() {
        let d = tempfile::tempdir().unwrap();
        let mut p = prepare(d.path(), &[], true).unwrap();
        let cache = d.path().join("cache/inductor");
        std::fs::create_dir_all(&cache).unwrap();
        p.watch("TORCHINDUCTOR_CACHE_DIR", cache.clone());
        // Something wrote into the attempt's inductor cache between its
        // making and the mint's start.
        std::fs::write(cache.join("fxgraph"), "warm").unwrap();
        let (_, record) = p
            .run(d.path(), &d.path().join("e"), |_| Ok::<_, AgentError>(None))
            .unwrap();
        assert_eq!(
            record.not_empty_at_start,
            Some(vec!["TORCHINDUCTOR_CACHE_DIR".to_owned()])
        );
        assert!(!record.is_cold());
    }
}
