//! The real upstream's history (`../shared/upstream/gen-worker.bundle`):
//! every patch tag from v0.93.3 on, explained by `lane init --from-tag`
//! and cut again in a clone where the tag does not exist yet, must give the
//! tag's tree byte for byte. Needs the bundle; without it each test says so
//! in one line and passes (a clone of lane has no `../shared`; CI has it).

use std::path::{Path, PathBuf};

use git2::Repository;
use lane_git::cut::{cut, CutOptions, CutStatus, OnConflict, PickOutcome};
use lane_git::init::{explain, InitFromTag};

use lane_testkit::history::{git, mirror};

macro_rules! needs_history {
    () => {
        match mirror() {
            Some(m) => m,
            None => return,
        }
    };
}

/// A clone before `version`'s release, kept alive by its folder.
fn before_release(m: &Path, version: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let made = lane_testkit::history::before_release(m, version, dir.path());
    assert_eq!(made, dir.path().join("gen-worker.git"));
    dir
}

fn tree_of(repo: &Path, rev: &str) -> String {
    git(repo, &["rev-parse", &format!("{rev}^{{tree}}")])
}

/// `lane init <version> --from-tag v<version>`, written and read back as a
/// lane file, then `lane cut` in a clone before the release: the cut's
/// tree is the release's, its guards pass.
fn round_trip(version: &str) {
    let m = needs_history!();
    let repo = Repository::open(m).unwrap();
    let tag = format!("v{version}");
    let e = explain(
        &repo,
        &InitFromTag {
            version: lane_file::LaneVersion::parse(version).unwrap(),
            tag: tag.clone(),
            default_branch: "master".into(),
            upstream: "https://github.com/cozy-creator/python-gen-worker".into(),
        },
    )
    .unwrap();
    assert!(e.reproduced.tree_equal, "{tag}: {:#?}", e.reproduced);
    let yaml = serde_yaml::to_string(&e.lane).unwrap();
    let lane = lane_file::parse(&format!("lanes/{version}.yaml"), &yaml).unwrap_or_else(|err| {
        panic!("{tag}: the written lane file does not read back: {err}\n{yaml}")
    });

    let clone = before_release(m, version);
    let path = clone.path().join("gen-worker.git");
    let date = lane
        .changelog
        .as_ref()
        .and_then(|c| c.date.as_ref())
        .map(|d| d.as_str().to_owned())
        .unwrap_or_else(|| "2026-12-02".into());
    let r = cut(
        &Repository::open(&path).unwrap(),
        &lane,
        &CutOptions {
            dry_run: false,
            on_conflict: OnConflict::Abort,
            date,
            tag: false,
            sign: false,
            lane_file: PathBuf::from(format!("lanes/{version}.yaml")),
        },
    )
    .unwrap();
    assert_eq!(r.status, CutStatus::Cut, "{tag}: {r:#?}");
    assert!(
        r.guards_after.as_ref().unwrap().passed(),
        "{tag}: {:#?}",
        r.guards_after
    );
    let branch = lane.branch_name();
    let expected = match &e.trunk {
        Some(t) => t.cut_head.clone(),
        None => tag.clone(),
    };
    assert_eq!(
        tree_of(&path, &branch),
        tree_of(m, &expected),
        "{tag}: the cut's tree is not {expected}'s"
    );
    // A trunk release is tagged on master: the cut PR's merge is the tag's tree.
    if let Some(t) = e.trunk.as_ref().and_then(|t| t.merged_into.clone()) {
        let merged = git(&path, &["merge-tree", "--write-tree", &t, &branch]);
        assert_eq!(merged, tree_of(m, &tag), "{tag}: the cut merged into {t}");
    }
}

macro_rules! every_patch_tag {
    ($($name:ident => $v:literal),* $(,)?) => {$(
        #[test]
        fn $name() {
            round_trip($v);
        }
    )*};
}

every_patch_tag! {
    init_then_cut_reproduces_v0_93_3 => "0.93.3",
    init_then_cut_reproduces_v0_94_1 => "0.94.1",
    init_then_cut_reproduces_v0_95_1 => "0.95.1",
    init_then_cut_reproduces_v0_96_1 => "0.96.1",
    init_then_cut_reproduces_v0_96_2 => "0.96.2",
    init_then_cut_reproduces_v0_96_3 => "0.96.3",
    init_then_cut_reproduces_v0_100_1 => "0.100.1",
    init_then_cut_reproduces_v0_113_1 => "0.113.1",
    init_then_cut_reproduces_v0_113_2 => "0.113.2",
    init_then_cut_reproduces_v0_114_1 => "0.114.1",
    init_then_cut_reproduces_v0_114_2 => "0.114.2",
    init_then_cut_reproduces_v0_114_3 => "0.114.3",
    init_then_cut_reproduces_v0_126_1 => "0.126.1",
    init_then_cut_reproduces_v0_126_2 => "0.126.2",
    init_then_cut_reproduces_v0_126_3 => "0.126.3",
    init_then_cut_reproduces_v0_127_1 => "0.127.1",
    init_then_cut_reproduces_v0_127_2 => "0.127.2",
}

fn shipped(version: &str, repo: &Path) -> lane_file::LaneFile {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../lanes/{version}.yaml"));
    let text = std::fs::read_to_string(&p).unwrap();
    let mut lane = lane_file::parse(&format!("lanes/{version}.yaml"), &text).unwrap();
    lane.upstream.repo = repo.display().to_string();
    lane
}

fn cut_opts(version: &str, dry_run: bool) -> CutOptions {
    CutOptions {
        dry_run,
        on_conflict: OnConflict::Abort,
        date: "2026-12-02".into(),
        tag: false,
        sign: false,
        lane_file: PathBuf::from(format!("lanes/{version}.yaml")),
    }
}

#[test]
fn the_shipped_lanes_cut_their_real_releases() {
    let m = needs_history!();
    for version in ["0.93.3", "0.126.1", "0.127.1"] {
        let clone = before_release(m, version);
        let path = clone.path().join("gen-worker.git");
        let lane = shipped(version, &path);
        let mut opts = cut_opts(version, false);
        if let Some(d) = lane.changelog.as_ref().and_then(|c| c.date.as_ref()) {
            opts.date = d.as_str().to_owned();
        }
        let r = cut(&Repository::open(&path).unwrap(), &lane, &opts).unwrap();
        assert_eq!(r.status, CutStatus::Cut, "{version}: {r:#?}");
        assert!(
            r.guards_after.as_ref().unwrap().passed(),
            "{version}: {:#?}",
            r.guards_after
        );
        let expected = match lane.kind {
            lane_file::LaneKind::Trunk => format!("v{version}^2"),
            _ => format!("v{version}"),
        };
        assert_eq!(
            tree_of(&path, &lane.branch_name()),
            tree_of(m, &expected),
            "lanes/{version}.yaml does not cut the real {version}"
        );
        // Its branch is proved exactly its cut, and a hotfix lane's is
        // tagged on it (a trunk lane's waits for its cut PR to land).
        let repo = Repository::open(&path).unwrap();
        let proof = lane_git::proof::require_branch_is_cut(&repo, &lane).unwrap();
        assert!(proof.exact(), "{version}: {proof:#?}");
        if lane.kind != lane_file::LaneKind::Trunk {
            opts.tag = true;
            let r = cut(&repo, &lane, &opts).unwrap();
            assert_eq!(r.status, CutStatus::Tagged, "{version}: {r:#?}");
        }
    }
}

#[test]
fn the_shipped_lanes_of_the_later_lines_plan_on_their_bases() {
    let m = needs_history!();
    for version in ["0.100.2", "0.126.4", "0.128.1"] {
        let clone = before_release(m, version);
        let path = clone.path().join("gen-worker.git");
        let lane = shipped(version, &path);
        let r = cut(
            &Repository::open(&path).unwrap(),
            &lane,
            &cut_opts(version, true),
        )
        .unwrap();
        assert_eq!(r.status, CutStatus::Planned, "{version}: {r:#?}");
        assert!(
            r.guards_after.as_ref().unwrap().passed(),
            "{version}: {:#?}",
            r.guards_after
        );
        let bumped: Vec<&str> = r.version_files.iter().map(|b| b.to.as_str()).collect();
        assert!(
            bumped.iter().all(|v| *v == version),
            "{version}: {bumped:?}"
        );
    }
}

#[test]
fn pr_511_conflicts_on_the_0_93_line_which_is_why_0_93_3_adapts_it() {
    let m = needs_history!();
    let clone = before_release(m, "0.93.3");
    let path = clone.path().join("gen-worker.git");
    let mut lane = shipped("0.93.3", &path);
    // The lane as first written: #515, then #511 itself.
    lane.picks = serde_yaml::from_str("- pr: 515\n- pr: 511\n").unwrap();
    let r = cut(
        &Repository::open(&path).unwrap(),
        &lane,
        &cut_opts("0.93.3", true),
    )
    .unwrap();
    assert_eq!(r.status, CutStatus::WouldConflict);
    match &r.picks[1].outcome {
        PickOutcome::Conflict { paths } => assert_eq!(paths, &["src/gen_worker/mint_child.py"]),
        o => panic!("{o:?}"),
    }
    // The shipped lane records the adaptation and why; its plan says so.
    let lane = shipped("0.93.3", &path);
    let r = cut(
        &Repository::open(&path).unwrap(),
        &lane,
        &cut_opts("0.93.3", true),
    )
    .unwrap();
    let adapted = r
        .picks
        .iter()
        .find_map(|p| p.adapted.clone())
        .expect("an adapted pick");
    assert_eq!(adapted.conflicts, ["src/gen_worker/mint_child.py"]);
}

/// The wire guard on a real change: `check_after` from `base` to `head`.
fn wire_verdict(m: &Path, base: &str, head: &str, rules: &str) -> lane_git::guard::GuardReport {
    let repo = Repository::open(m).unwrap();
    let lane: lane_file::LaneFile = serde_yaml::from_str(&format!(
        "version: \"9.9.9\"\nupstream: {{repo: x}}\nbase: {base}\nguards:\n  - name: wire\n    wire: {{proto: [proto/], generated: [src/gen_worker/pb/], rules: [{rules}]}}\n"
    ))
    .unwrap();
    let b = repo
        .revparse_single(&format!("{base}^{{commit}}"))
        .unwrap()
        .id();
    let h = repo
        .revparse_single(&format!("{head}^{{commit}}"))
        .unwrap()
        .id();
    lane_git::guard::check_after(&repo, &lane, b, h, head, &mut Default::default()).unwrap()
}

#[test]
fn the_wire_guard_passes_the_real_compatible_changes_and_refuses_wire_v1() {
    let m = needs_history!();
    // 0.126.1 adds RunJob.file_base_url = 22; 0.114.1 deletes field 7 with
    // its number and name reserved and adds field 24: both shipped, both WIRE.
    for (base, head) in [("v0.126.0", "v0.126.1"), ("v0.114.0", "v0.114.1")] {
        let r = wire_verdict(m, base, head, "WIRE");
        assert!(r.passed(), "{base}..{head}: {:#?}", r.verdicts);
        assert!(
            r.verdicts[0].proven[0].contains("hold buf's WIRE rules"),
            "{:?}",
            r.verdicts[0].proven
        );
    }
    // The wire-v1 cut renames the package: refused, naming buf's rule.
    let v1 = "d322e547ffd013d890a4fd268f0a9b5a63b741af";
    let parent = git(m, &["rev-parse", &format!("{v1}^")]);
    let r = wire_verdict(m, &parent, v1, "WIRE");
    assert!(!r.passed());
    let refusals: Vec<String> = r.refusals().map(|(_, x)| x.to_string()).collect();
    assert!(
        refusals.iter().any(|x| x.contains("FILE_SAME_PACKAGE")),
        "{refusals:#?}"
    );
}

#[test]
fn a_trunk_lane_is_tagged_on_its_cut_prs_merge_once_it_has_landed() {
    let m = needs_history!();
    let clone = before_release(m, "0.127.1");
    let path = clone.path().join("gen-worker.git");
    let lane = shipped("0.127.1", &path);
    let repo = Repository::open(&path).unwrap();
    // Master as it was when the cut PR was opened.
    git(
        &path,
        &["update-ref", "refs/heads/master", lane.base.as_str()],
    );
    let r = cut(&repo, &lane, &cut_opts("0.127.1", false)).unwrap();
    assert_eq!(r.status, CutStatus::Cut);
    let mut tag = cut_opts("0.127.1", false);
    tag.tag = true;
    // Not merged yet: nothing is tagged.
    let e = cut(&repo, &lane, &tag).unwrap_err();
    assert!(matches!(e, lane_git::GitError::NotLanded { .. }), "{e}");
    assert!(git(&path, &["tag", "-l", "v0.127.1"]).is_empty());
    // The cut PR lands as a true merge (what GitHub's merge does).
    let cut_head = git(&path, &["rev-parse", "cut/0.127.1"]);
    let tree = git(
        &path,
        &["merge-tree", "--write-tree", "master", "cut/0.127.1"],
    );
    let merge = git(
        &path,
        &[
            "commit-tree",
            &tree,
            "-p",
            "master",
            "-p",
            &cut_head,
            "-m",
            "Merge pull request #1163",
        ],
    );
    git(&path, &["update-ref", "refs/heads/master", &merge]);
    let r = cut(&repo, &lane, &tag).unwrap();
    assert_eq!(r.status, CutStatus::Tagged, "{r:#?}");
    let landed = r.landed.clone().unwrap();
    assert_eq!(landed.commit, merge);
    assert!(!landed.master_moved);
    assert_eq!(git(&path, &["rev-parse", "v0.127.1^{commit}"]), merge);
    git(
        &path,
        &["merge-base", "--is-ancestor", "v0.127.1", "master"],
    );
    // The tag's tree is the real release's.
    assert_eq!(tree_of(&path, "v0.127.1"), tree_of(m, "v0.127.1"));
}

const PATCH_TAGS: [&str; 17] = [
    "0.93.3", "0.94.1", "0.95.1", "0.96.1", "0.96.2", "0.96.3", "0.100.1", "0.113.1", "0.113.2",
    "0.114.1", "0.114.2", "0.114.3", "0.126.1", "0.126.2", "0.126.3", "0.127.1", "0.127.2",
];

/// One row of `docs/releasing.md`'s table, from what `lane init` explains.
fn row(e: &lane_git::init::Explained) -> String {
    use lane_file::{Assemble, LaneKind, Origin, PickRef};
    let lane = &e.lane;
    let kind = match lane.kind {
        LaneKind::Hotfix => "hotfix",
        LaneKind::OffMaster => "off_master",
        LaneKind::Trunk => "trunk",
    };
    let short = |s: &str| s[..12.min(s.len())].to_owned();
    let base = if lane.base.as_str().len() == 40 {
        short(lane.base.as_str())
    } else {
        lane.base.to_string()
    };
    let picks: Vec<String> = lane
        .picks
        .iter()
        .map(|p| match &p.target {
            PickRef::Pr(n) => format!("PR #{n}"),
            PickRef::Commit(c) => short(c.as_str()),
            PickRef::PrHead { pr, commits } => {
                format!("PR #{pr}'s head ({} commits)", commits.len())
            }
            PickRef::Adapted { commit, from } => {
                let from = match from {
                    Origin::Pr(n) => format!("PR #{n}"),
                    Origin::Commit(c) => short(c.as_str()),
                };
                format!("{} adapted from {from}", short(commit.as_str()))
            }
        })
        .collect();
    let files: Vec<&str> = lane.version_files.iter().map(|v| v.path.as_str()).collect();
    let changelog = match &lane.changelog {
        None => "not configured".to_owned(),
        Some(c) if c.assemble == Assemble::None => "none".to_owned(),
        Some(c) => {
            let mut parts = vec!["the tree's assembler".to_owned()];
            if c.preamble.is_some() {
                parts.push("a preamble".into());
            }
            if !c.write.is_empty() {
                parts.push(format!("{} written at the cut", c.write.len()));
            }
            if !c.rename.is_empty() {
                parts.push(format!("{} renamed", c.rename.len()));
            }
            if !c.drop.is_empty() {
                parts.push(format!("{} dropped", c.drop.len()));
            }
            if !c.fold.is_empty() {
                parts.push(format!("{} folded", c.fold.len()));
            }
            parts.join(", ")
        }
    };
    let tag = match (e.annotated, e.tag_signature.as_deref()) {
        (true, Some(s)) => format!("annotated, {s}-signed"),
        (true, None) => "annotated".to_owned(),
        (false, _) => "lightweight".to_owned(),
    };
    let result = if e.reproduced.tree_equal {
        format!("tree equal ({})", short(&e.reproduced.expected_tree))
    } else {
        format!("DIFFERS: {}", e.reproduced.differs.join(", "))
    };
    format!(
        "| v{} | {kind} | {base} | {} | {} | {changelog} | {tag} | {result} |",
        lane.version,
        if picks.is_empty() {
            "none".to_owned()
        } else {
            picks.join("; ")
        },
        files.join(", ")
    )
}

#[test]
fn the_releasing_docs_table_is_what_lane_init_explains() {
    let m = needs_history!();
    let repo = Repository::open(m).unwrap();
    let mut rows = vec![
        "| tag | kind | base | picks | version files | changelog | tag object | lane init, then lane cut |".to_owned(),
        "| --- | --- | --- | --- | --- | --- | --- | --- |".to_owned(),
    ];
    for v in PATCH_TAGS {
        let e = explain(
            &repo,
            &InitFromTag {
                version: lane_file::LaneVersion::parse(v).unwrap(),
                tag: format!("v{v}"),
                default_branch: "master".into(),
                upstream: "https://github.com/cozy-creator/python-gen-worker".into(),
            },
        )
        .unwrap();
        rows.push(row(&e));
    }
    let table = rows.join("\n") + "\n";
    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/releasing.md");
    let doc = std::fs::read_to_string(&doc_path).unwrap();
    let (open, close) = (
        "<!-- releases: generated by the_releasing_docs_table_is_what_lane_init_explains -->\n",
        "<!-- /releases -->",
    );
    let start = doc.find(open).expect("the table's opening marker") + open.len();
    let end = doc.find(close).expect("the table's closing marker");
    if std::env::var_os("LANE_BLESS").is_some() {
        let new = format!("{}{table}{}", &doc[..start], &doc[end..]);
        std::fs::write(&doc_path, new).unwrap();
        return;
    }
    assert_eq!(
        &doc[start..end],
        table,
        "docs/releasing.md's table is stale: LANE_BLESS=1 cargo test -p lane-git --test cut releasing"
    );
}

#[test]
fn the_fold_back_of_0_96_x_onto_master_is_the_upstreams_own() {
    // pgw#1039: after each 0.96.x hotfix the upstream folded it back onto
    // master (#570, #579, #588): the section, its fragment, the versions.
    let m = needs_history!();
    let repo = Repository::open(m).unwrap();
    for (version, fold) in [
        ("0.96.1", "185a1485"),
        ("0.96.2", "53ae96a0"),
        ("0.96.3", "07318612"),
    ] {
        let e = explain(
            &repo,
            &InitFromTag {
                version: lane_file::LaneVersion::parse(version).unwrap(),
                tag: format!("v{version}"),
                default_branch: "master".into(),
                upstream: "https://github.com/cozy-creator/python-gen-worker".into(),
            },
        )
        .unwrap();
        let onto = git(m, &["rev-parse", &format!("{fold}^")]);
        let r = lane_git::foldback::fold_back(&repo, &e.lane, Some(&onto), true).unwrap();
        assert!(r.section_folded, "{version}: {r:#?}");
        assert!(!r.written);
        assert_eq!(
            r.tree.as_deref().unwrap(),
            tree_of(m, fold),
            "{version}: lane's fold-back is not {fold}'s tree: {r:#?}"
        );
    }
}

/// The shipped 0.93.3 lane cut (untagged) in a clone before the release.
fn cut_0_93_3(m: &Path, picks: Option<&str>) -> (tempfile::TempDir, PathBuf) {
    let clone = before_release(m, "0.93.3");
    let path = clone.path().join("gen-worker.git");
    let mut lane = shipped("0.93.3", &path);
    if let Some(p) = picks {
        lane.picks = serde_yaml::from_str(p).unwrap();
    }
    let mut opts = cut_opts("0.93.3", false);
    opts.date = "2026-08-06".into();
    let r = cut(&Repository::open(&path).unwrap(), &lane, &opts).unwrap();
    assert_eq!(r.status, CutStatus::Cut, "{r:#?}");
    (clone, path)
}

fn tag_opts() -> CutOptions {
    let mut o = cut_opts("0.93.3", false);
    o.date = "2026-08-06".into();
    o.tag = true;
    o
}

/// The proof `--tag` refused with.
fn refusal(e: lane_git::GitError) -> lane_git::proof::CutProof {
    match e {
        lane_git::GitError::NotTheCut { proof, .. } => *proof,
        e => panic!("not refused as not the cut: {e}"),
    }
}

#[test]
fn the_exact_cut_of_0_93_3_is_proved_pick_by_pick_and_tagged() {
    let m = needs_history!();
    let (_keep, path) = cut_0_93_3(m, None);
    let repo = Repository::open(&path).unwrap();
    let lane = shipped("0.93.3", &path);
    let r = cut(&repo, &lane, &tag_opts()).unwrap();
    assert_eq!(r.status, CutStatus::Tagged, "{r:#?}");
    assert_eq!(tree_of(&path, "v0.93.3"), tree_of(m, "v0.93.3"));
    let proof = lane_git::proof::require_branch_is_cut(&repo, &lane).unwrap();
    assert!(proof.exact());
    assert_eq!(proof.picks.len(), 3, "{proof:#?}");
    for p in &proof.picks {
        assert!(
            matches!(
                p.found,
                lane_git::proof::PickFound::At {
                    by: lane_git::proof::FoundBy::SameTree,
                    ..
                }
            ),
            "{proof:#?}"
        );
    }
}

/// Issue 34: a release branch missing one of the lane's picks (here
/// pgw#993, PR #516, cut by a lane file without it) was `tagged v0.93.3
/// ... exit 0`, by ancestry and version files alone.
#[test]
fn regression_tag_refuses_branch_missing_a_pick() {
    let m = needs_history!();
    let (_keep, path) = cut_0_93_3(
        m,
        Some("- pr: 515\n- adapted: 0720e64c0894ddd05a08232bde5406e5c60bd28d\n  from: {pr: 511}\n  issue: 989\n"),
    );
    let repo = Repository::open(&path).unwrap();
    let lane = shipped("0.93.3", &path);
    let proof = refusal(cut(&repo, &lane, &tag_opts()).unwrap_err());
    let missing: Vec<&str> = proof.missing().map(|c| c.id.as_str()).collect();
    let pr_516 = git(m, &["rev-parse", "6f5db9ed"]);
    assert_eq!(missing, [pr_516.as_str()]);
    assert!(proof.extra.is_empty(), "{proof:#?}");
    assert!(git(&path, &["tag", "-l", "v0.93.3"]).is_empty());
}

/// Issue 34: a release branch carrying a commit nobody picked, on top of
/// the cut, was tagged too.
#[test]
fn regression_tag_refuses_branch_carrying_an_extra_commit() {
    let m = needs_history!();
    let (_keep, path) = cut_0_93_3(m, None);
    let repo = Repository::open(&path).unwrap();
    let tip = repo
        .find_reference("refs/heads/release/0.93.3")
        .unwrap()
        .peel_to_commit()
        .unwrap();
    let blob = repo.blob(b"print('nobody reviewed this')\n").unwrap();
    let mut tb = repo.treebuilder(Some(&tip.tree().unwrap())).unwrap();
    tb.insert("unreviewed.py", blob, 0o100644).unwrap();
    let tree = repo.find_tree(tb.write().unwrap()).unwrap();
    let sig = git2::Signature::now("someone", "someone@example.org").unwrap();
    let extra = repo
        .commit(
            Some("refs/heads/release/0.93.3"),
            &sig,
            &sig,
            "hotfix: \u{1b}[31mtrust me\u{1b}[0m",
            &tree,
            &[&tip],
        )
        .unwrap();
    let lane = shipped("0.93.3", &path);
    let proof = refusal(cut(&repo, &lane, &tag_opts()).unwrap_err());
    assert_eq!(proof.missing().count(), 0, "{proof:#?}");
    let extra_ids: Vec<&str> = proof.extra.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(extra_ids, [extra.to_string()]);
    // The cut commit is found, but it is no longer the head.
    assert_eq!(proof.cut_commit.as_ref().unwrap().id, tip.id().to_string());
    assert!(git(&path, &["tag", "-l", "v0.93.3"]).is_empty());
    // Named inert where shown: the escape sequence is written out.
    let named = lane_git::proof::describe(&proof, |s| s.escape_debug().to_string());
    assert!(
        named
            .iter()
            .any(|l| l.contains("hotfix: \\u{1b}[31mtrust me")),
        "{named:?}"
    );
}

/// Issue 34: a lane with no picks reported a three-pick branch as
/// "already holds this cut".
#[test]
fn regression_a_lane_without_picks_is_not_already_cut_by_a_three_pick_branch() {
    let m = needs_history!();
    let (_keep, path) = cut_0_93_3(m, None);
    let repo = Repository::open(&path).unwrap();
    let mut lane = shipped("0.93.3", &path);
    lane.picks.clear();
    let proof = refusal(cut(&repo, &lane, &cut_opts("0.93.3", false)).unwrap_err());
    assert_eq!(proof.extra.len(), 3, "{proof:#?}");
    assert!(proof.cut_commit.is_some());
}
