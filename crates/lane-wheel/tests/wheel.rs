//! The wheel built for real with `uv build` from a generated gen-worker-like
//! upstream, verified, staged; and every refusal on a tampered wheel.

use lane_store::{ArtifactStore, LocalStore, PutOutcome};
use lane_wheel::{build, stage, BuildRequest, WheelError};
use std::io::{Cursor, Read, Write};
use std::time::Duration;

fn upstream() -> (tempfile::TempDir, git2::Repository) {
    let dir = tempfile::tempdir().unwrap();
    let up = lane_fixture::generate_upstream(&dir.path().join("up"), &Default::default()).unwrap();
    let repo = git2::Repository::open(&up.path).unwrap();
    (dir, repo)
}

fn request(lane: &str, branch: &str) -> BuildRequest {
    BuildRequest {
        lane: lane.into(),
        branch: branch.into(),
        tools_dir: lane_testkit::tools::dir(),
    }
}

/// A branch `name` off release/0.93.2 whose `pyproject.toml` is what
/// `edit` makes of the release's.
fn branch_with_pyproject(repo: &git2::Repository, name: &str, edit: impl Fn(&str) -> String) {
    let head = repo
        .find_branch("release/0.93.2", git2::BranchType::Local)
        .unwrap()
        .get()
        .peel_to_commit()
        .unwrap();
    let tree = head.tree().unwrap();
    let old = repo
        .find_blob(tree.get_name("pyproject.toml").unwrap().id())
        .unwrap();
    let text = edit(std::str::from_utf8(old.content()).unwrap());
    let blob = repo.blob(text.as_bytes()).unwrap();
    let mut tb = repo.treebuilder(Some(&tree)).unwrap();
    tb.insert("pyproject.toml", blob, 0o100644).unwrap();
    let tree = repo.find_tree(tb.write().unwrap()).unwrap();
    let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
    let c = repo
        .commit(None, &sig, &sig, "edit pyproject.toml", &tree, &[&head])
        .unwrap();
    repo.branch(name, &repo.find_commit(c).unwrap(), false)
        .unwrap();
}

/// Rewrites `wheel`, passing each (name, bytes) through `edit` (None drops it).
fn rezip(
    wheel: &[u8],
    edit: impl Fn(&str, Vec<u8>) -> Option<Vec<u8>>,
    extra: Option<(&str, &[u8])>,
) -> Vec<u8> {
    let mut src = zip::ZipArchive::new(Cursor::new(wheel)).unwrap();
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for i in 0..src.len() {
        let mut f = src.by_index(i).unwrap();
        let name = f.name().to_owned();
        let mut data = Vec::new();
        f.read_to_end(&mut data).unwrap();
        if let Some(d) = edit(&name, data) {
            out.start_file(name, opts).unwrap();
            out.write_all(&d).unwrap();
        }
    }
    if let Some((n, d)) = extra {
        out.start_file(n, opts).unwrap();
        out.write_all(d).unwrap();
    }
    out.finish().unwrap().into_inner()
}

fn record_line(name: &str, data: &[u8]) -> String {
    use base64::Engine as _;
    use sha2::Digest;
    let h = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(data));
    format!("{name},sha256={h},{}", data.len())
}

#[test]
fn builds_from_the_branch_tree_verifies_stages_and_refuses_tampering() {
    let (dir, repo) = upstream();
    // A change in the work tree must not reach the wheel: lane builds from the branch's tree.
    let workdir = repo.workdir().unwrap().to_owned();
    std::fs::write(
        workdir.join("src/gen_worker/__init__.py"),
        "WORK TREE EDIT\n",
    )
    .unwrap();
    std::fs::write(workdir.join("src/gen_worker/untracked.py"), "x = 1\n").unwrap();

    let mut built = build(&repo, &request("0.93.2", "release/0.93.2")).unwrap();
    let m = built.manifest.clone();
    assert_eq!(m.wheel, "gen_worker-0.93.2-py3-none-any.whl");
    assert_eq!(m.verified.name, "gen-worker");
    assert_eq!(m.verified.version, "0.93.2");
    assert!(m.verified.package_files >= 5, "{m:?}");
    let branch = repo
        .find_branch("release/0.93.2", git2::BranchType::Local)
        .unwrap();
    let commit = branch.get().peel_to_commit().unwrap();
    assert_eq!(m.commit, commit.id().to_string());
    assert_eq!(m.tree, commit.tree_id().to_string());
    assert!(m.tools.uv.starts_with("uv "), "{:?}", m.tools);
    assert!(m.tools.python.starts_with("Python 3"), "{:?}", m.tools);
    let bytes = std::fs::read(&built.path).unwrap();
    assert_eq!(m.sha256, lane_store::sha256_hex(&bytes));
    assert_eq!(m.size, bytes.len() as u64);

    let store = LocalStore::new(dir.path().join("store")).unwrap();
    let staged = stage(&store, &mut built, Duration::from_secs(60)).unwrap();
    assert!(matches!(staged.wheel, PutOutcome::Written { .. }));
    assert_eq!(
        staged.wheel_key,
        format!("lanes/0.93.2/{}/{}", m.commit, m.wheel)
    );
    let (loaded, wheel) = lane_wheel::load_staged(&store, "0.93.2", &m.commit).unwrap();
    assert_eq!(loaded, m);
    lane_wheel::reverify(&repo, &loaded, &wheel).unwrap();
    // A rebuild of the same commit is the same wheel: re-staging is a no-op.
    let mut again = build(&repo, &request("0.93.2", "release/0.93.2")).unwrap();
    assert_eq!(again.manifest, m, "the build is reproducible");
    let staged = stage(&store, &mut again, Duration::from_secs(60)).unwrap();
    assert!(matches!(staged.wheel, PutOutcome::AlreadyThere { .. }));
    assert!(matches!(staged.manifest, PutOutcome::AlreadyThere { .. }));
    // The wheel, its manifest, and the lane tree as a source archive (the
    // same bytes again: the rebuild re-staged nothing).
    let keys = store.list("lanes/0.93.2/").unwrap();
    assert_eq!(keys.len(), 3, "{keys:?}");
    let src = m
        .source
        .as_ref()
        .expect("the manifest names the source archive");
    assert_eq!(src.file, "gen_worker-0.93.2.src.tar.gz");
    let key = format!("lanes/0.93.2/{}/{}", m.commit, src.file);
    assert!(keys.contains(&key), "{keys:?}");
    let archive = store.get(&lane_store::StoreKey::new(key).unwrap()).unwrap();
    assert_eq!(lane_store::sha256_hex(&archive), src.sha256);
    // It holds every blob of the tree, byte for byte.
    let tree = lane_wheel::LaneTree::read(&repo, "release/0.93.2").unwrap();
    let mut ar = tar::Archive::new(flate2::read::GzDecoder::new(&archive[..]));
    let mut seen = 0;
    for e in ar.entries().unwrap() {
        let mut e = e.unwrap();
        let path = e.path().unwrap().to_string_lossy().into_owned();
        let (oid, _) = tree.blobs[&path];
        let mut body = Vec::new();
        std::io::Read::read_to_end(&mut e, &mut body).unwrap();
        assert_eq!(body, repo.find_blob(oid).unwrap().content(), "{path}");
        seen += 1;
    }
    assert_eq!(seen, tree.blobs.len());
    assert_eq!(src.files, tree.blobs.len() as u64);

    check_refusals(&repo, &m, &bytes);
}

fn check_refusals(repo: &git2::Repository, m: &lane_wheel::WheelManifest, bytes: &[u8]) {
    let di = "gen_worker-0.93.2.dist-info";
    let verify = |name: &str, b: &[u8]| {
        let mut mm = m.clone();
        mm.wheel = name.to_owned();
        lane_wheel::reverify(repo, &mm, b).unwrap_err()
    };
    // A package file changed, RECORD updated to match: the tree catches it.
    let evil = b"print('not the lane')\n";
    let tampered = rezip(
        bytes,
        |n, d| match n {
            "gen_worker/__init__.py" => Some(evil.to_vec()),
            n if n == format!("{di}/RECORD") => Some(
                String::from_utf8(d)
                    .unwrap()
                    .lines()
                    .map(|l| {
                        if l.starts_with("gen_worker/__init__.py,") {
                            record_line("gen_worker/__init__.py", evil)
                        } else {
                            l.to_owned()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
                    .into_bytes(),
            ),
            _ => Some(d),
        },
        None,
    );
    let e = verify(&m.wheel, &tampered);
    let msg = e.to_string();
    assert!(matches!(e, WheelError::PackageFileDiffers { .. }), "{msg}");
    assert!(
        msg.contains("src/gen_worker/__init__.py") && msg.contains("tree blob"),
        "{msg}"
    );

    // A file changed without RECORD: RECORD catches it, both hashes shown.
    let e = verify(
        &m.wheel,
        &rezip(
            bytes,
            |n, d| {
                Some(if n == "gen_worker/__init__.py" {
                    evil.to_vec()
                } else {
                    d
                })
            },
            None,
        ),
    );
    assert!(
        matches!(
            e,
            WheelError::RecordMismatch {
                field: "sha256",
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("RECORD says `sha256="), "{e}");

    // A file RECORD does not list.
    let e = verify(
        &m.wheel,
        &rezip(bytes, |_, d| Some(d), Some(("gen_worker/extra.py", b"x"))),
    );
    assert!(matches!(e, WheelError::RecordIncomplete { .. }), "{e}");

    // A file dropped from the wheel (and RECORD): the tree says it is missing.
    let e = verify(
        &m.wheel,
        &rezip(
            bytes,
            |n, d| match n {
                "gen_worker/__init__.py" => None,
                n if n == format!("{di}/RECORD") => Some(
                    String::from_utf8(d)
                        .unwrap()
                        .lines()
                        .filter(|l| !l.starts_with("gen_worker/__init__.py,"))
                        .collect::<Vec<_>>()
                        .join("\n")
                        .into_bytes(),
                ),
                _ => Some(d),
            },
            None,
        ),
    );
    assert!(matches!(e, WheelError::MissingFromWheel { .. }), "{e}");

    // METADATA claims another version: refused with both values.
    let e = verify(
        &m.wheel,
        &rezip(
            bytes,
            |n, d| {
                Some(if n.ends_with("/METADATA") {
                    String::from_utf8(d)
                        .unwrap()
                        .replace("Version: 0.93.2", "Version: 0.93.9")
                        .into_bytes()
                } else {
                    d
                })
            },
            None,
        ),
    );
    let msg = e.to_string();
    assert!(
        matches!(
            e,
            WheelError::RecordMismatch { .. } | WheelError::IdentityMismatch { .. }
        ),
        "{msg}"
    );
    assert!(msg.contains("0.93.2") && msg.contains("0.93.9"), "{msg}");

    // A file name naming another distribution.
    let e = verify("other_pkg-0.93.2-py3-none-any.whl", bytes);
    assert_eq!(
        e.to_string(),
        "file name name: the lane says `gen_worker`, the wheel says `other_pkg`"
    );
}

#[test]
fn a_lane_whose_version_is_not_the_trees_is_refused_with_both_versions() {
    let (_dir, repo) = upstream();
    let e = build(&repo, &request("0.93.3", "release/0.93.2")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "file name version: the lane says `0.93.3`, the wheel says `0.93.2`"
    );
    let e = build(&repo, &request("0.93.3", "release/0.93.3")).unwrap_err();
    assert!(matches!(e, WheelError::NoBranch { .. }), "{e}");
}

#[test]
fn a_failing_build_shows_the_log_tail() {
    let (_dir, repo) = upstream();
    branch_with_pyproject(&repo, "broken", |_| {
        "[build-system]\nrequires = [\"hatchling\"]\nbuild-backend = \"hatchling.build\"\n[project]\nname = \"gen-worker\"\nversion = \"0.93.2\"\n[tool.hatch.build.targets.wheel]\npackages = [\"src/no_such_package\"]\nbogus = [\n".into()
    });
    let e = build(&repo, &request("0.93.2", "broken")).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, WheelError::BuildFailed { .. }), "{msg}");
    assert!(
        msg.contains("uv build failed") && msg.contains("pyproject.toml"),
        "{msg}"
    );
}

/// Issue 34: `lane wheel` built 0.93.3, which requires Python 3.12, with
/// 3.11 and said nothing. A tree whose `requires-python` excludes the
/// interpreter uv builds with (here: above whatever this machine's is) is
/// refused before any build, naming the file, the specifier and the
/// interpreter.
#[test]
fn regression_a_wheel_is_not_built_with_a_python_the_project_excludes() {
    let (_dir, repo) = upstream();
    let uv = lane_wheel::Uv::locate(&lane_testkit::tools::dir()).unwrap();
    let found = uv.tools.python.trim_start_matches("Python ").to_owned();
    let spec = format!(">{found}");
    branch_with_pyproject(&repo, "newer", |text| {
        assert!(text.contains("requires-python = \">=3.11\""), "{text}");
        text.replace(">=3.11", &spec)
    });
    let e = lane_wheel::build_with(&repo, &request("0.93.2", "newer"), &uv).unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, WheelError::PythonUnsupported { .. }), "{msg}");
    for part in ["pyproject.toml", spec.as_str(), uv.tools.python.as_str()] {
        assert!(msg.contains(part), "{part} not in: {msg}");
    }
    assert!(msg.contains(&uv.python.display().to_string()), "{msg}");
    // The untouched tree (`>=3.11`) still builds with it.
    build(&repo, &request("0.93.2", "release/0.93.2")).unwrap();
}
