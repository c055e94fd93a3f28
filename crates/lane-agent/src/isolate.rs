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
//!   it is found out by a probe that runs the same wrapper and checks a
//!   marker only the private `/tmp` holds; where it does not, the attempt
//!   runs on the machine's `/tmp` and its record says so, naming the fixed
//!   paths a mint is known to write there ([`shared_paths`]);
//! - in a pod (one attempt per container) the container's own `/tmp`.
//!
//! What the attempt got is its [`Isolation`] record (`result.json`,
//! `mint.json`).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use lane_core::{Isolation, TmpIsolation};

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
pub const SLASH_TMP: &str = "iso/slash-tmp";

/// The marker only the attempt's own `/tmp` holds.
pub const MARKER: &str = ".lane-private-tmp";

/// The start of the reason when `unshare` cannot be run at all.
const NO_UNSHARE: &str = "cannot run unshare";

/// How long the probe may take before the machine is said not to allow it.
const PROBE_TIMEOUT: Duration = Duration::from_secs(20);

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

/// What the attempt runs with.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The variables and the folders they point at.
    pub env: Vec<(&'static str, PathBuf)>,
    /// The program and arguments the mint command runs under (the private
    /// `/tmp` wrapper), empty when it runs as it is.
    pub wrapper: Vec<String>,
    /// What the attempt got.
    pub record: Isolation,
}

impl Prepared {
    /// `command` as it runs: under the wrapper, when there is one.
    pub fn command(&self, command: &[String]) -> Vec<String> {
        self.wrapper.iter().chain(command).cloned().collect()
    }
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
    let iso = dir.join("iso");
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
    if container_per_attempt {
        return Ok(Prepared {
            env,
            wrapper: Vec::new(),
            record: Isolation {
                tmp: TmpIsolation::Container {
                    why: "one attempt per container: its /tmp is the container's own".into(),
                },
                roots,
                shared: Vec::new(),
            },
        });
    }
    let slash = dir.join(SLASH_TMP);
    std::fs::create_dir_all(&slash).map_err(io(&slash))?;
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&slash, std::fs::Permissions::from_mode(0o1777))
            .map_err(io(&slash))?;
    }
    std::fs::write(slash.join(MARKER), b"lane: this attempt's own /tmp\n").map_err(io(&slash))?;
    let mut why = Vec::new();
    match script(&slash, keep) {
        Err(e) => why.push(e),
        Ok(script) => {
            for (args, how) in WAYS {
                let mut wrapper: Vec<String> = vec![unshare.into()];
                wrapper.extend(args.iter().map(|a| (*a).to_owned()));
                wrapper.extend(["--".into(), "sh".into(), "-c".into(), script.clone()]);
                wrapper.push("lane-private-tmp".into());
                match probe(&wrapper, dir) {
                    Ok(()) => {
                        return Ok(Prepared {
                            env,
                            wrapper,
                            record: Isolation {
                                tmp: TmpIsolation::Private { how: how.into() },
                                roots,
                                shared: Vec::new(),
                            },
                        })
                    }
                    // No `unshare` at all: the second way cannot do better.
                    Err(e) if e.starts_with(NO_UNSHARE) => {
                        why.push(e);
                        break;
                    }
                    Err(e) => why.push(format!("{}: {e}", args.join(" "))),
                }
            }
        }
    }
    let real_home = std::env::var_os("HOME").map(PathBuf::from);
    Ok(Prepared {
        env,
        wrapper: Vec::new(),
        record: Isolation {
            tmp: TmpIsolation::Shared {
                why: format!("no private mount namespace: {}", why.join("; ")),
            },
            roots,
            shared: shared_paths(real_home.as_deref()),
        },
    })
}

/// The wrapper's script: bind each kept path under `/tmp` into the
/// attempt's own `/tmp` folder at the same place, put that folder on
/// `/tmp` (recursively, so the kept paths come along), check the marker,
/// and run the command.
fn script(slash: &Path, keep: &[PathBuf]) -> Result<String, String> {
    let tmp = std::fs::canonicalize("/tmp").map_err(|e| format!("/tmp: {e}"))?;
    let text = |p: &Path| {
        p.to_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("{} is not UTF-8", p.display()))
    };
    // The working directory is entered again through the new /tmp once it
    // is mounted: a cwd kept on the old mount and a TMPDIR on the new one
    // are two mounts, and a rename between them fails (EXDEV: the 0.126
    // rig's safetensors checkpoint, on the H200).
    let mut s = format!("set -e\nS={}\nW=$(pwd -P)\n", quoted(&text(slash)?));
    let mut kept: Vec<(PathBuf, PathBuf)> = Vec::new();
    // A path written with `..` (`/tmp/x/crates/app/../../data`) is resolved
    // through the folders before its first `..`: they must exist in the
    // new /tmp too, or the path the mint was given does not resolve there.
    let mut lexical: Vec<PathBuf> = Vec::new();
    for k in keep {
        let before_up: PathBuf = k
            .components()
            .take_while(|c| !matches!(c, std::path::Component::ParentDir))
            .collect();
        if before_up != *k && before_up.is_dir() {
            if let Ok(rel) = before_up.strip_prefix(&tmp) {
                if !rel.as_os_str().is_empty() {
                    lexical.push(rel.to_owned());
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
        let (from, to) = (
            quoted(&text(real)?),
            format!("\"$S\"/{}", quoted(&text(rel)?)),
        );
        if real.is_dir() {
            // Recursively: a disk mounted inside a kept folder (an `--out`
            // on a tmpfs of its own) comes along.
            s.push_str(&format!("mkdir -p {to}\nmount --rbind {from} {to}\n"));
        } else {
            s.push_str(&format!(
                "mkdir -p \"$(dirname {to})\"\n: > {to}\nmount --bind {from} {to}\n"
            ));
        }
    }
    for rel in &lexical {
        s.push_str(&format!("mkdir -p \"$S\"/{}\n", quoted(&text(rel)?)));
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
            let to = format!("\"$S\"/{}", quoted(&text(rel)?));
            s.push_str(&format!(
                "mkdir -p \"$(dirname {to})\"\nln -sfn {} {to}\n",
                quoted(&text(&target)?)
            ));
        }
    }
    s.push_str(&format!(
        "mount --rbind \"$S\" /tmp\ntest -e /tmp/{MARKER}\ncd \"$W\"\nexec \"$@\"\n"
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

/// Runs the wrapper on `sh -c 'exit 0'` in the attempt's folder (where
/// the mint will run; lane's own working directory may be a path the
/// private `/tmp` does not keep): it holds when that exits 0.
fn probe(wrapper: &[String], dir: &Path) -> Result<(), String> {
    let mut cmd = Command::new(&wrapper[0]);
    cmd.current_dir(dir)
        .args(&wrapper[1..])
        .args(["sh", "-c", "exit 0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .map_err(|e| format!("cannot run unshare: {e}"))?;
    let mut stderr = child.stderr.take();
    let status = match crate::procs::wait_within(child, PROBE_TIMEOUT) {
        Ok(Some(status)) => status,
        Ok(None) => return Err(format!("no answer in {} s", PROBE_TIMEOUT.as_secs())),
        Err(e) => return Err(e.to_string()),
    };
    if status.success() {
        return Ok(());
    }
    let mut text = String::new();
    if let Some(e) = stderr.as_mut() {
        let _ = e.take(2000).read_to_string(&mut text);
    }
    let text = crate::report::bounded_text(text.trim(), 300);
    Err(if text.is_empty() {
        format!("exited with {status}")
    } else {
        format!("exited with {status}: {text}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
            &[d.path().join("m"), inner, PathBuf::from("/etc")],
        )
        .unwrap();
        // The mint folder is bound once (its source folder comes along);
        // a path outside /tmp needs nothing.
        assert_eq!(s.matches("mount --rbind").count(), 2, "{s}");
        assert!(!s.contains("/etc"), "{s}");
        assert!(s.ends_with(
            "mount --rbind \"$S\" /tmp\ntest -e /tmp/.lane-private-tmp\ncd \"$W\"\nexec \"$@\"\n"
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
        let s = script(&d.path().join("m/iso/slash-tmp"), &[written]).unwrap();
        let tmp = std::fs::canonicalize("/tmp").unwrap();
        let root = std::fs::canonicalize(d.path()).unwrap();
        let rel = root.strip_prefix(&tmp).unwrap().display().to_string();
        assert!(
            s.contains(&format!("mount --rbind '{}/data'", root.display())),
            "{s}"
        );
        assert!(
            s.contains(&format!("mkdir -p \"$S\"/'{rel}/crates/app'\n")),
            "{s}"
        );
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
        let s = script(
            &d.path().join("m/iso/slash-tmp"),
            &[d.path().join("pair/r1/named.json")],
        )
        .unwrap();
        let tmp = std::fs::canonicalize("/tmp").unwrap();
        let rel = std::fs::canonicalize(d.path()).unwrap();
        let rel = rel.strip_prefix(&tmp).unwrap().display().to_string();
        assert!(s.contains("/run/r1/report.json' \"$S\"/"), "{s}");
        // The folder link on the way, then the file link at its end.
        let folder = s
            .find(&format!("ln -sfn 'run' \"$S\"/'{rel}/pair'\n"))
            .unwrap_or_else(|| panic!("{s}"));
        let file = s
            .find(&format!(
                "ln -sfn 'report.json' \"$S\"/'{rel}/pair/r1/named.json'\n"
            ))
            .unwrap_or_else(|| panic!("{s}"));
        assert!(folder < file, "{s}");
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
        let s = script(&d.path().join("m/iso/slash-tmp"), &[d.path().to_owned()]).unwrap();
        assert!(!s.contains("mount --bind "), "{s}");
        assert!(s.contains("mount --rbind '"), "{s}");
    }

    #[test]
    fn without_unshare_the_attempt_runs_on_the_shared_tmp_and_says_what_is_shared() {
        let d = tempfile::tempdir().unwrap();
        let p = prepare_with("/nonexistent/unshare", d.path(), &[], false).unwrap();
        assert!(p.wrapper.is_empty());
        assert!(!p.record.is_cold());
        match &p.record.tmp {
            TmpIsolation::Shared { why } => {
                assert!(
                    why.starts_with("no private mount namespace: cannot run unshare"),
                    "{why}"
                )
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(p.record.shared.len(), 4);
        assert!(p.record.shared[0].starts_with("/tmp/tensorhub-cache (gen-worker 0.117-0.126"));
        assert!(p.record.shared[1].starts_with("/tmp/torchinductor_<user>"));
        assert!(p.record.shared[2].contains("/.triton/cache"));
        assert!(p.record.shared[3].contains("/.nv/ComputeCache"));
    }

    #[test]
    fn a_pod_gets_its_containers_tmp_and_every_root() {
        let d = tempfile::tempdir().unwrap();
        let p = prepare(d.path(), &[], true).unwrap();
        assert!(p.wrapper.is_empty());
        assert!(p.record.is_cold());
        assert!(matches!(p.record.tmp, TmpIsolation::Container { .. }));
        assert_eq!(p.record.roots.len(), ROOTS.len());
        for (_, path) in &p.env {
            assert!(path.is_dir() && path.starts_with(d.path().join("iso")));
        }
    }
}
