//! `lane init --from-tag`: a real release explained as a lane file.
//!
//! From the history alone: how the release was made (a hotfix on the
//! previous tag, an off-master release commit, or a trunk cut through a cut
//! PR), its base, what each commit of the line is (`classify`), the cut
//! (which version files it touched, how its changelog was written, and
//! what a person added at the cut: `sections`), and a guard proposal. The
//! lane file is then proved: its cut is made in memory and its tree
//! compared with the release's, and where they differ the report says
//! which paths and why.

mod classify;
mod guards;
pub mod sections;

use git2::{Oid, Repository};
use lane_file::{
    Changelog, Date, FragmentText, LaneFile, LaneKind, LaneVersion, Pick, PickRef, Prose, RefName,
    RepoPath, TagOn, Title, Trunk, Upstream, VersionFile,
};
use serde::Serialize;

pub use classify::{LineClass, LineCommit};

use crate::cut::Simulated;
use crate::error::{Ctx, GitError};
use crate::picks::default_branch_ref;
use crate::repo::{diff_paths, folder_texts, reaches, read_text, resolve_commit};
use crate::version_files::find_version;
use classify::{CutPaths, Mainline};

/// What `lane init --from-tag` is asked.
#[derive(Debug, Clone)]
pub struct InitFromTag {
    /// The version the tag released.
    pub version: LaneVersion,
    /// The tag.
    pub tag: String,
    /// The upstream's default branch.
    pub default_branch: String,
    /// `upstream.repo` for the lane file.
    pub upstream: String,
}

/// A trunk release's shape.
#[derive(Debug, Clone, Serialize)]
pub struct TrunkFacts {
    /// The master commit the cut was made on.
    pub fork: String,
    /// The master commit the cut PR merged into (the merge's first parent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub merged_into: Option<String>,
    /// The cut PR's head (the merge's second parent), or the cut commit.
    pub cut_head: String,
    /// Where the tag is.
    pub tag_on: TagOn,
    /// Master moved between the fork and the merge, so the tag's tree is
    /// the merge's, not the cut's.
    pub master_moved: bool,
}

/// Whether the lane file reproduces the release.
#[derive(Debug, Clone, Serialize)]
pub struct Reproduction {
    /// The cut's tree equals the expected tree.
    pub tree_equal: bool,
    /// The cut's tree.
    pub lane_tree: String,
    /// What it is compared with.
    pub expected: String,
    /// Its tree.
    pub expected_tree: String,
    /// Paths that differ.
    pub differs: Vec<String>,
    /// Why, where lane can tell.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub why: Vec<String>,
}

/// A release, explained.
#[derive(Debug, Clone, Serialize)]
pub struct Explained {
    /// The lane file that reproduces it.
    pub lane: LaneFile,
    /// The tag.
    pub tag: String,
    /// The tagged commit.
    pub tag_commit: String,
    /// The tag object is annotated.
    pub annotated: bool,
    /// The tag object's signature (`ssh`, `openpgp`), when signed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tag_signature: Option<String>,
    /// The base commit.
    pub base_commit: String,
    /// The tag is on the default branch.
    pub on_default_branch: bool,
    /// A trunk release's shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trunk: Option<TrunkFacts>,
    /// Every commit of the line, classified.
    pub commits: Vec<LineCommit>,
    /// The proof.
    pub reproduced: Reproduction,
    /// What a reader should know.
    pub notes: Vec<String>,
}

/// The previous release tag of `version`'s line (or of the line below).
pub fn previous_tag(
    repo: &Repository,
    version: &LaneVersion,
) -> Result<Option<(String, semver::Version)>, GitError> {
    let names = repo.tag_names(None).ctx(|| "listing tags".into())?;
    let v = version.semver();
    Ok(names
        .iter()
        .flatten()
        .flatten()
        .filter_map(|n| {
            let parsed = semver::Version::parse(n.strip_prefix('v')?).ok()?;
            (parsed < *v && parsed.pre.is_empty()).then(|| (n.to_owned(), parsed))
        })
        .max_by(|a, b| a.1.cmp(&b.1)))
}

fn first_parent_line(repo: &Repository, from: Oid, to: Oid) -> Result<Vec<Oid>, GitError> {
    let mut out = Vec::new();
    let mut at = repo.find_commit(to).ctx(|| format!("reading {to}"))?;
    let mut steps = 0;
    while at.id() != from {
        out.push(at.id());
        steps += 1;
        if steps > 2000 {
            return Err(GitError::Unresolved {
                what: "line",
                name: format!("{from}..{to}"),
                source: git2::Error::from_str(
                    "the first-parent line does not reach the base within 2000 commits",
                ),
            });
        }
        at = match at.parent(0) {
            Ok(p) => p,
            Err(_) => break,
        };
    }
    out.reverse();
    Ok(out)
}

/// The version files the release changed to `version`, from those the
/// upstream keeps (`pyproject.toml`'s `[project] version`, its package in
/// `uv.lock`).
fn version_files(
    repo: &Repository,
    base: &git2::Tree<'_>,
    after: &git2::Tree<'_>,
    version: &str,
) -> Result<Vec<VersionFile>, GitError> {
    let mut out = Vec::new();
    let spec = |y: &str| -> VersionFile { serde_yaml::from_str(y).expect("a valid version file") };
    let py = spec("path: pyproject.toml\nkind: pyproject\n");
    let project = read_text(repo, after, "pyproject.toml")?.and_then(|t| project_name(&t));
    for vf in [
        Some(py),
        project.map(|p| spec(&format!("path: uv.lock\nkind: uv-lock\npackage: {p}\n"))),
    ]
    .into_iter()
    .flatten()
    {
        let read = |t: &git2::Tree<'_>| -> Result<Option<String>, GitError> {
            Ok(read_text(repo, t, vf.path.as_str())?
                .and_then(|text| find_version(&vf, &text).ok().map(|s| s.version)))
        };
        if read(after)?.as_deref() == Some(version) && read(base)?.as_deref() != Some(version) {
            out.push(vf);
        }
    }
    Ok(out)
}

fn project_name(pyproject: &str) -> Option<String> {
    let mut in_project = false;
    for line in pyproject.lines() {
        let t = line.trim();
        if t.starts_with('[') {
            in_project = t == "[project]";
        } else if in_project {
            if let Some(v) = t.strip_prefix("name") {
                let v = v.trim_start().strip_prefix('=')?.trim();
                return Some(v.trim_matches('"').trim_matches('\'').to_owned());
            }
        }
    }
    None
}

/// Explains `tag` as a lane file and proves it.
pub fn explain(repo: &Repository, req: &InitFromTag) -> Result<Explained, GitError> {
    let version = req.version.as_str();
    let tag_commit = resolve_commit(repo, "tag", &req.tag)?;
    let t = tag_commit.id();
    let branch_ref = default_branch_ref(repo, &req.default_branch)?;
    let master = repo
        .revparse_single(&branch_ref)
        .and_then(|o| o.peel_to_commit())
        .ctx(|| format!("reading {branch_ref}"))?
        .id();
    let mainline = Mainline::read(repo, &branch_ref)?;
    let on_default_branch = reaches(repo, master, t)?;
    let previous = previous_tag(repo, &req.version)?;
    let mut notes = Vec::new();

    // How it was made, and from what.
    let (kind, base, line, trunk, expected) = if on_default_branch {
        if tag_commit.parent_count() > 1 {
            let p1 = tag_commit.parent_id(0).ctx(|| "first parent".into())?;
            let p2 = tag_commit.parent_id(1).ctx(|| "second parent".into())?;
            let fork = repo.merge_base(p1, p2).ctx(|| "the cut PR's fork".into())?;
            let line = first_parent_line(repo, fork, p2)?;
            let facts = TrunkFacts {
                fork: fork.to_string(),
                merged_into: Some(p1.to_string()),
                cut_head: p2.to_string(),
                tag_on: TagOn::Merge,
                master_moved: p1 != fork,
            };
            (LaneKind::Trunk, fork, line, Some(facts), p2)
        } else {
            let fork = tag_commit.parent_id(0).ctx(|| "parent".into())?;
            let facts = TrunkFacts {
                fork: fork.to_string(),
                merged_into: None,
                cut_head: t.to_string(),
                tag_on: TagOn::Cut,
                master_moved: false,
            };
            (LaneKind::Trunk, fork, vec![t], Some(facts), t)
        }
    } else {
        match &previous {
            Some((name, _)) if reaches(repo, t, resolve_commit(repo, "tag", name)?.id())? => {
                let b = resolve_commit(repo, "tag", name)?.id();
                (LaneKind::Hotfix, b, first_parent_line(repo, b, t)?, None, t)
            }
            _ => {
                let b = repo
                    .merge_base(t, master)
                    .ctx(|| "the fork from master".into())?;
                (
                    LaneKind::OffMaster,
                    b,
                    first_parent_line(repo, b, t)?,
                    None,
                    t,
                )
            }
        }
    };
    let base_name = match (kind, &previous) {
        (LaneKind::Hotfix, Some((name, _))) => name.clone(),
        _ => base.to_string(),
    };
    let expected_tree = repo
        .find_commit(expected)
        .ctx(|| format!("reading {expected}"))?
        .tree()
        .ctx(|| "expected tree".into())?;
    let base_tree = repo
        .find_commit(base)
        .and_then(|c| c.tree())
        .ctx(|| "base tree".into())?;

    // The cut's own files, and what the line did.
    let vfs = version_files(repo, &base_tree, &expected_tree, version)?;
    let cut_paths = CutPaths {
        version_files: vfs.iter().map(|v| v.path.to_string()).collect(),
        changelog: "CHANGELOG.md".into(),
        fragments: "changelog.d/".into(),
    };
    let mut commits = Vec::new();
    for id in &line {
        commits.push(classify::classify(repo, &mainline, &cut_paths, "pgw", *id)?);
    }
    // A PR master merged only after the release could not have been picked
    // as its merge: its head's commits are what the line took.
    let tag_time = tag_commit.time().seconds();
    let merged_before = |pr: u64| {
        mainline
            .of_pr(pr)
            .and_then(|id| repo.find_commit(id).ok())
            .is_some_and(|c| c.time().seconds() <= tag_time)
    };
    let groups = pick_groups(&commits, &mainline, &merged_before);

    let title = None::<Title>;
    let mut lane = LaneFile {
        version: req.version.clone(),
        title,
        upstream: Upstream {
            repo: req.upstream.clone(),
            default_branch: RefName::parse(&req.default_branch).map_err(|m| {
                GitError::Unresolved {
                    what: "default branch",
                    name: req.default_branch.clone(),
                    source: git2::Error::from_str(&m),
                }
            })?,
        },
        kind,
        base: RefName::parse(&base_name).map_err(|m| GitError::Unresolved {
            what: "base",
            name: base_name.clone(),
            source: git2::Error::from_str(&m),
        })?,
        previous: match (kind, &previous) {
            (LaneKind::Hotfix, _) | (_, None) => None,
            (_, Some((name, _))) => RefName::parse(name).ok(),
        },
        branch: None,
        tag: None,
        picks: Vec::new(),
        version_files: vfs,
        changelog: Some(none_changelog()),
        guards: Vec::new(),
        baseline: None,
        github: None,
        mint: None,
        trunk: trunk.as_ref().map(|f| Trunk { tag_on: f.tag_on }),
    };
    let date = tag_date(&tag_commit);

    // The picks: the simplest alternatives whose result matches the
    // release's files outside the cut.
    let (picks, code_differs) =
        choose_picks(repo, &lane, &groups, &expected_tree, &cut_paths, &date)?;
    lane.picks = picks;
    name_adaptations(repo, &mut lane, &date)?;
    if !code_differs.is_empty() {
        notes.push(format!(
            "no choice of picks gives the release's files outside the cut; these differ: {}",
            code_differs.join(", ")
        ));
    }

    // The changelog, as the release wrote it.
    infer_changelog(
        repo,
        &mut lane,
        &expected_tree,
        &cut_paths,
        &date,
        &mut notes,
    )?;
    lane.guards = guards::propose(repo, &mainline, base, &base_tree)?;

    // The proof.
    let reproduced = prove(
        repo,
        &lane,
        &expected_tree,
        expected,
        &date,
        &cut_paths,
        &commits,
    )?;
    let (annotated, tag_signature) = tag_object_facts(repo, &req.tag);
    if let Some(f) = &trunk {
        if f.master_moved {
            notes.push(format!(
                "master moved under the cut PR: the tag is the merge of the cut into {}, so its tree is the merge's; the lane reproduces the cut PR's head ({})",
                &f.merged_into.clone().unwrap_or_default()[..12],
                &f.cut_head[..12]
            ));
        }
    }
    Ok(Explained {
        lane,
        tag: req.tag.clone(),
        tag_commit: t.to_string(),
        annotated,
        tag_signature,
        base_commit: base.to_string(),
        on_default_branch,
        trunk,
        commits,
        reproduced,
        notes,
    })
}

fn none_changelog() -> Changelog {
    let mut c = Changelog::defaults();
    c.assemble = lane_file::Assemble::None;
    c
}

/// The commit's author date in its own zone, `YYYY-MM-DD` (the day a
/// person ran the cut).
fn tag_date(c: &git2::Commit<'_>) -> String {
    let when = c.author().when();
    civil_date(when.seconds(), when.offset_minutes())
}

fn civil_date(seconds: i64, offset_minutes: i32) -> String {
    let zone = jiff::tz::Offset::from_seconds(offset_minutes * 60)
        .unwrap_or(jiff::tz::Offset::UTC)
        .to_time_zone();
    jiff::Timestamp::from_second(seconds)
        .map(|t| t.to_zoned(zone).strftime("%Y-%m-%d").to_string())
        .unwrap_or_else(|_| "1970-01-01".into())
}

/// The cut of `lane` made in memory, dated as `lane cut` dates it: the
/// lane file's changelog date, else `fallback` (the day the cut was made).
fn replay<T>(
    repo: &Repository,
    lane: &LaneFile,
    fallback: &str,
    f: impl FnOnce(&Repository, &Simulated) -> Result<T, GitError>,
) -> Result<T, GitError> {
    let date = lane
        .changelog
        .as_ref()
        .and_then(|c| c.date.as_ref())
        .map_or(fallback, |d| d.as_str());
    crate::cut::simulate(repo, lane, date, f)
}

/// One pick to make, with the forms it could take, simplest first.
#[derive(Debug, Clone)]
struct Group {
    alternatives: Vec<Pick>,
}

fn pick(target: PickRef, why: Option<String>) -> Pick {
    Pick {
        target,
        issue: None,
        mainline: None,
        why: why.and_then(|w| Title::parse(&w).ok()),
    }
}

fn commit_id(s: &str) -> lane_file::CommitId {
    lane_file::CommitId::parse(s).expect("a full commit id")
}

/// Groups the line's commits into picks, each with its alternatives: a PR's
/// master squash before its head's commits; a PR's master squash before the
/// hand adaptation; the adaptation as it is.
fn pick_groups(
    commits: &[LineCommit],
    mainline: &Mainline,
    merged_before: &dyn Fn(u64) -> bool,
) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut i = 0;
    while i < commits.len() {
        let c = &commits[i];
        match c.class {
            LineClass::Cut | LineClass::Merge => {}
            LineClass::Pick | LineClass::MergePick => {
                let origin = c.origin.clone().expect("a pick has its origin");
                let by_pr = c
                    .pr
                    .filter(|n| mainline.of_pr(*n).map(|o| o.to_string()) == Some(origin.clone()));
                groups.push(Group {
                    alternatives: vec![match by_pr {
                        Some(n) => pick(PickRef::Pr(n), None),
                        None => pick(PickRef::Commit(commit_id(&origin)), None),
                    }],
                });
            }
            LineClass::PrHeadPick => {
                let pr = c.pr.expect("a PR head pick has its PR");
                let mut taken = vec![commit_id(c.origin.as_deref().expect("origin"))];
                while i + 1 < commits.len()
                    && commits[i + 1].class == LineClass::PrHeadPick
                    && commits[i + 1].pr == Some(pr)
                {
                    i += 1;
                    taken.push(commit_id(commits[i].origin.as_deref().expect("origin")));
                }
                let head = pick(
                    PickRef::PrHead { pr, commits: taken },
                    Some(format!(
                        "PR #{pr}'s head commits, taken before master merged it"
                    )),
                );
                let mut alternatives = Vec::new();
                match (mainline.of_pr(pr).is_some(), merged_before(pr)) {
                    // Merged before the release: its merge is the simpler pick.
                    (true, true) => alternatives.extend([pick(PickRef::Pr(pr), None), head]),
                    (true, false) => alternatives.extend([head, pick(PickRef::Pr(pr), None)]),
                    (false, _) => alternatives.push(head),
                }
                groups.push(Group { alternatives });
            }
            LineClass::Adapted => {
                let mut alternatives = Vec::new();
                if let Some(pr) = c.pr.filter(|n| mainline.of_pr(*n).is_some()) {
                    alternatives.push(pick(PickRef::Pr(pr), None));
                }
                let from = match c.pr {
                    Some(pr) => lane_file::Origin::Pr(pr),
                    None => {
                        lane_file::Origin::Commit(commit_id(c.origin.as_deref().expect("origin")))
                    }
                };
                alternatives.push(pick(
                    PickRef::Adapted {
                        commit: commit_id(&c.commit),
                        from,
                    },
                    Some("adapted on the line by hand (another patch than its origin)".into()),
                ));
                groups.push(Group { alternatives });
            }
            LineClass::Line => groups.push(Group {
                alternatives: vec![pick(
                    PickRef::Commit(commit_id(&c.commit)),
                    Some("made on the release line itself".into()),
                )],
            }),
        }
        i += 1;
    }
    groups
}

/// Says why each adapted pick was adapted: what its origin would have
/// done at the same place (conflict there, or give other files).
fn name_adaptations(repo: &Repository, lane: &mut LaneFile, date: &str) -> Result<(), GitError> {
    let checks = replay(repo, lane, date, |_, sim| {
        Ok(sim
            .picks
            .iter()
            .filter_map(|p| p.adapted.clone().map(|a| (p.pick.commit, a)))
            .collect::<Vec<_>>())
    })?;
    for p in &mut lane.picks {
        let PickRef::Adapted { commit, from } = &p.target else {
            continue;
        };
        let Some((_, check)) = checks
            .iter()
            .find(|(id, _)| id.to_string().starts_with(commit.as_str()))
        else {
            continue;
        };
        let why = if !check.conflicts.is_empty() {
            format!(
                "{from} itself conflicts on this line in {}",
                check.conflicts.join(", ")
            )
        } else if !check.differs.is_empty() {
            format!(
                "{from} picks cleanly here but differs from the adaptation in {}",
                check.differs.join(", ")
            )
        } else {
            format!("the same change as {from}, as another patch")
        };
        p.why = Title::parse(&why).ok();
    }
    Ok(())
}

/// Paths that differ between two trees, outside the cut's paths when asked.
fn differing(
    repo: &Repository,
    a: Oid,
    b: Oid,
    skip: Option<&CutPaths>,
) -> Result<Vec<String>, GitError> {
    let ta = repo.find_tree(a).ctx(|| format!("tree {a}"))?;
    let tb = repo.find_tree(b).ctx(|| format!("tree {b}"))?;
    let diff = repo
        .diff_tree_to_tree(Some(&ta), Some(&tb), None)
        .ctx(|| "comparing trees".into())?;
    Ok(diff_paths(&diff)
        .into_iter()
        .filter(|p| skip.is_none_or(|c| !c.covers(p)))
        .collect())
}

/// The first combination of alternatives (simplest first, at most 64
/// tried) whose picks apply and give the release's files outside the cut.
fn choose_picks(
    repo: &Repository,
    lane: &LaneFile,
    groups: &[Group],
    expected: &git2::Tree<'_>,
    cut: &CutPaths,
    date: &str,
) -> Result<(Vec<Pick>, Vec<String>), GitError> {
    let sizes: Vec<usize> = groups.iter().map(|g| g.alternatives.len()).collect();
    let total: usize = sizes.iter().product::<usize>().min(64);
    let mut fallback: Option<(Vec<Pick>, Vec<String>)> = None;
    for n in 0..total.max(1) {
        let mut k = n;
        let mut chosen: Vec<Pick> = Vec::new();
        for g in groups {
            let len = g.alternatives.len();
            let p = g.alternatives[k % len].clone();
            k /= len;
            // A PR's squash brings all of its commits the line took one by one.
            if !chosen.iter().any(|c| c.target == p.target) {
                chosen.push(p);
            }
        }
        let mut trial = lane.clone();
        trial.picks = chosen.clone();
        trial.changelog = Some(none_changelog());
        let outcome = replay(repo, &trial, date, |r, sim| {
            if sim.conflict.is_some() {
                return Ok(None);
            }
            Ok(Some(differing(r, sim.tree, expected.id(), Some(cut))?))
        })?;
        match outcome {
            Some(d) if d.is_empty() => return Ok((chosen, d)),
            Some(d) if fallback.as_ref().is_none_or(|f| f.1.len() > d.len()) => {
                fallback = Some((chosen, d));
            }
            Some(_) => {}
            None => {}
        }
    }
    Ok(fallback.unwrap_or_else(|| {
        (
            groups
                .iter()
                .map(|g| g.alternatives.last().expect("one").clone())
                .collect(),
            vec!["(every choice of picks conflicts)".into()],
        )
    }))
}

/// The name the upstream's first assembler accepts (`<prefix><number>`),
/// for a fragment whose name it refuses (`pgw1002-pgw1005.md`).
fn accepted_name(path: &str) -> Option<String> {
    let (folder, file) = path.rsplit_once('/')?;
    let stem = file.strip_suffix(".md")?;
    let prefix: String = stem.chars().take_while(char::is_ascii_lowercase).collect();
    let digits: String = stem[prefix.len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let plain = prefix.len() + digits.len() == stem.len();
    (!plain && !prefix.is_empty() && !digits.is_empty())
        .then(|| format!("{folder}/{prefix}{digits}.md"))
}

/// Reads how the release wrote its changelog into `lane.changelog`.
fn infer_changelog(
    repo: &Repository,
    lane: &mut LaneFile,
    expected: &git2::Tree<'_>,
    cut: &CutPaths,
    date: &str,
    notes: &mut Vec<String>,
) -> Result<(), GitError> {
    let version = lane.version.to_string();
    let file = cut.changelog.clone();
    let released_log = read_text(repo, expected, &file)?;
    let released_frags = folder_texts(repo, expected, &cut.fragments)?;
    // What the picks alone leave.
    let (picked_log, picked_frags) = replay(repo, lane, date, |r, sim| {
        let tree = r.find_tree(sim.tree).ctx(|| "picked tree".into())?;
        Ok((
            read_text(r, &tree, &file)?,
            folder_texts(r, &tree, &cut.fragments)?,
        ))
    })?;
    if released_log == picked_log && released_frags == picked_frags {
        lane.changelog = Some(none_changelog());
        if released_log.is_none() {
            notes.push(format!(
                "the release keeps no {file}: the cut writes no changelog"
            ));
        }
        return Ok(());
    }
    let Some(log) = released_log else {
        notes.push(format!(
            "the release deleted {file}: lane does not reproduce that"
        ));
        return Ok(());
    };
    let Some(range) = crate::changelog::section_range(&log, &version) else {
        notes.push(format!(
            "{file} changed but has no {version} section: lane leaves it as the picks left it"
        ));
        lane.changelog = Some(none_changelog());
        return Ok(());
    };
    let section = &log[range];
    let heading = sections::parse_heading(section.lines().next().unwrap_or(""), &version);
    let mut cl = Changelog::defaults();
    if let Some(h) = &heading {
        cl.date = Date::parse(&h.date).ok();
        lane.title = h.headline.as_deref().and_then(|t| Title::parse(t).ok());
    }
    let released_section = section.to_owned();
    // Fragments removed by the release but not in its section: dropped.
    for (path, text) in &picked_frags {
        if path.ends_with("/README.md") || !path.ends_with(".md") {
            continue;
        }
        if !released_frags.contains_key(path) && !released_section.contains(text.trim()) {
            if let Ok(p) = RepoPath::parse(path) {
                cl.drop.push(p);
            }
        }
    }
    // Other releases' sections the release brought in: folded.
    let picked_versions = headings(picked_log.as_deref().unwrap_or(""));
    for v in headings(&log) {
        if v == version || picked_versions.contains(&v) {
            continue;
        }
        let Some(r) = crate::changelog::section_range(&log, &v) else {
            continue;
        };
        match fold_source(repo, &log[r], &v, &file)? {
            Some(from) => cl.fold.push(lane_file::Fold {
                from: RefName::parse(&from).expect("a tag name"),
                version: LaneVersion::parse(&v).expect("a version heading"),
            }),
            None => notes.push(format!(
                "the release added a {v} section lane found in no tag's {file}"
            )),
        }
    }
    lane.changelog = Some(cl.clone());
    // Run it; a name the tree's assembler refuses is renamed as the release did.
    let mut generated = try_changelog(repo, lane, date, &file, &cut.fragments)?;
    if generated.is_err() {
        for path in picked_frags.keys() {
            if let Some(to) = accepted_name(path) {
                if cl.drop.iter().any(|d| d.as_str() == path) {
                    continue;
                }
                cl.rename.push(lane_file::Rename {
                    from: RepoPath::parse(path).expect("a repo path"),
                    to: RepoPath::parse(&to).expect("a repo path"),
                });
            }
        }
        lane.changelog = Some(cl.clone());
        generated = try_changelog(repo, lane, date, &file, &cut.fragments)?;
    }
    let (gen_log, used) = match generated {
        Ok(g) => g,
        Err(message) => {
            notes.push(format!("the changelog cannot be assembled: {message}"));
            return Ok(());
        }
    };
    let gen_section = crate::changelog::section_range(&gen_log, &version)
        .map(|r| gen_log[r].to_owned())
        .unwrap_or_default();
    if gen_section.trim_end() != released_section.trim_end() {
        let extras = sections::extras(&released_section, &used);
        if let Some(p) = extras
            .preamble
            .as_deref()
            .and_then(|p| Prose::parse(p).ok())
        {
            cl.preamble = Some(p);
        }
        for (name, text) in extras.writes {
            if let (Ok(path), Ok(text)) = (
                RepoPath::parse(&format!("{}{name}", cut.fragments)),
                Prose::parse(&text),
            ) {
                cl.write.push(FragmentText { path, text });
            }
        }
        for u in extras.unplaced {
            notes.push(format!(
                "text of the released section lane could not place: {}",
                u.chars().take(80).collect::<String>()
            ));
        }
    }
    lane.changelog = Some(cl);
    Ok(())
}

/// The release headings' versions in a changelog, in order.
fn headings(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter_map(|r| r.split(' ').next())
        .filter(|v| semver::Version::parse(v).is_ok())
        .map(str::to_owned)
        .collect()
}

/// A tag whose changelog holds exactly this section: `v<version>` first,
/// then the newest tags.
fn fold_source(
    repo: &Repository,
    section: &str,
    version: &str,
    file: &str,
) -> Result<Option<String>, GitError> {
    let names = repo.tag_names(None).ctx(|| "listing tags".into())?;
    let mut tags: Vec<(semver::Version, String)> = names
        .iter()
        .flatten()
        .flatten()
        .filter_map(|n| {
            Some((
                semver::Version::parse(n.strip_prefix('v')?).ok()?,
                n.to_owned(),
            ))
        })
        .collect();
    tags.sort();
    tags.reverse();
    let own = format!("v{version}");
    let order =
        std::iter::once(own.clone()).chain(tags.into_iter().map(|t| t.1).filter(|n| *n != own));
    for name in order.take(200) {
        let Ok(c) = resolve_commit(repo, "tag", &name) else {
            continue;
        };
        let tree = c.tree().ctx(|| format!("tree of {name}"))?;
        let Some(text) = read_text(repo, &tree, file)? else {
            continue;
        };
        if let Some(r) = crate::changelog::section_range(&text, version) {
            if text[r].trim_end() == section.trim_end() {
                return Ok(Some(name));
            }
        }
    }
    Ok(None)
}

type Generated = Result<(String, Vec<sections::Used>), String>;

/// Runs the lane's cut and returns its changelog text and the fragments
/// its assembler used; an assembler's refusal is the error text.
fn try_changelog(
    repo: &Repository,
    lane: &LaneFile,
    date: &str,
    file: &str,
    folder: &str,
) -> Result<Generated, GitError> {
    let picked = {
        let mut bare = lane.clone();
        bare.changelog = Some(none_changelog());
        replay(repo, &bare, date, |r, sim| {
            let tree = r.find_tree(sim.tree).ctx(|| "tree".into())?;
            folder_texts(r, &tree, folder)
        })?
    };
    let result = replay(repo, lane, date, |r, sim| {
        let tree = r.find_tree(sim.tree).ctx(|| "tree".into())?;
        let text = read_text(r, &tree, file)?.unwrap_or_default();
        let plan = sim.changelog.clone();
        Ok((text, plan))
    });
    match result {
        Ok((text, plan)) => {
            let mut used = Vec::new();
            let cl = lane.changelog.as_ref();
            for path in plan.map(|p| p.fragments).unwrap_or_default() {
                let written = cl.and_then(|c| c.write.iter().find(|w| w.path.as_str() == path));
                let renamed_from = cl
                    .and_then(|c| c.rename.iter().find(|r| r.to.as_str() == path))
                    .map(|r| r.from.to_string());
                let text = match (written, renamed_from) {
                    (Some(w), _) => Some(w.text.as_str().to_owned()),
                    (None, Some(from)) => picked.get(&from).cloned(),
                    (None, None) => picked.get(&path).cloned(),
                };
                if let Some(t) = text {
                    used.push(sections::Used { path, text: t });
                }
            }
            Ok(Ok((text, used)))
        }
        Err(GitError::Assembler { message, .. }) => Ok(Err(message)),
        Err(e) => Err(e),
    }
}

fn prove(
    repo: &Repository,
    lane: &LaneFile,
    expected: &git2::Tree<'_>,
    expected_commit: Oid,
    date: &str,
    cut: &CutPaths,
    commits: &[LineCommit],
) -> Result<Reproduction, GitError> {
    let what = format!("the tree of {}", &expected_commit.to_string()[..12]);
    let outcome = replay(repo, lane, date, |r, sim| {
        let d = differing(r, sim.tree, expected.id(), None)?;
        Ok((sim.tree, d, sim.conflict.clone()))
    });
    let (tree, differs, conflict) = match outcome {
        Ok(o) => o,
        Err(e) => {
            return Ok(Reproduction {
                tree_equal: false,
                lane_tree: String::new(),
                expected: what,
                expected_tree: expected.id().to_string(),
                differs: Vec::new(),
                why: vec![format!("the cut cannot be made: {e}")],
            })
        }
    };
    let mut why = Vec::new();
    if let Some((i, paths)) = conflict {
        why.push(format!("pick {} conflicts in {}", i + 1, paths.join(", ")));
    }
    for p in &differs {
        let by: Vec<&str> = commits
            .iter()
            .filter(|c| c.code_files.contains(p) || (cut.covers(p) && c.class == LineClass::Cut))
            .map(|c| &c.commit[..12])
            .collect();
        if !by.is_empty() {
            why.push(format!("{p}: changed on the line by {}", by.join(", ")));
        }
    }
    Ok(Reproduction {
        tree_equal: differs.is_empty() && why.is_empty(),
        lane_tree: tree.to_string(),
        expected: what,
        expected_tree: expected.id().to_string(),
        differs,
        why,
    })
}

/// Whether the tag object is annotated, and how it is signed.
fn tag_object_facts(repo: &Repository, tag: &str) -> (bool, Option<String>) {
    let Ok(r) = repo.find_reference(&format!("refs/tags/{tag}")) else {
        return (false, None);
    };
    let Some(id) = r.target() else {
        return (false, None);
    };
    let Ok(obj) = repo.find_tag(id) else {
        return (false, None);
    };
    let msg = String::from_utf8_lossy(obj.message_bytes().unwrap_or_default()).into_owned();
    let sig = if msg.contains("-----BEGIN SSH SIGNATURE-----") {
        Some("ssh".to_owned())
    } else if msg.contains("-----BEGIN PGP SIGNATURE-----") {
        Some("openpgp".to_owned())
    } else {
        None
    };
    (true, sig)
}

/// What `lane init <version>` (without a tag) starts from.
#[derive(Debug, Clone, Serialize)]
pub struct Started {
    /// The new lane file.
    pub lane: LaneFile,
    /// The line's last tag, its base.
    pub base: String,
    /// The base commit.
    pub base_commit: String,
    /// What a reader should know.
    pub notes: Vec<String>,
}

/// How a new lane writes its changelog, by what the base's tree keeps: no
/// `CHANGELOG.md` (0.127 on): none. An assembler that records consumed
/// fragments in `consumed.tsv` (0.115-0.126) dates them from git tags and
/// history, which an in-memory cut cannot give it: lane's assembler does
/// the same recording (`take: pending`, `consumed: tsv`). Otherwise the
/// tree's own assembler, when it has one.
pub fn changelog_for_era(
    repo: &Repository,
    tree: &git2::Tree<'_>,
    notes: &mut Vec<String>,
) -> Result<Changelog, GitError> {
    let mut c = Changelog::defaults();
    if read_text(repo, tree, c.file.as_str())?.is_none() {
        notes.push(format!(
            "the base keeps no {} (0.127 on): the cut writes no changelog",
            c.file
        ));
        return Ok(none_changelog());
    }
    if read_text(repo, tree, c.assembler.as_str())?.is_some_and(|t| t.contains("consumed.tsv")) {
        notes.push(format!(
            "{} records consumed fragments in consumed.tsv and dates them from git history: lane's assembler does the same recording (take: pending, consumed: tsv)",
            c.assembler
        ));
        c.assemble = lane_file::Assemble::Builtin;
        c.take = lane_file::Take::Pending;
        c.consumed = lane_file::Consumed::Tsv;
    }
    Ok(c)
}

/// Starts a new lane on its line's last tag, with the era's version files,
/// changelog mode and wire guards filled in (picks are the engineer's).
pub fn start(
    repo: &Repository,
    version: &LaneVersion,
    default_branch: &str,
    upstream: &str,
) -> Result<Started, GitError> {
    let Some((name, previous)) = previous_tag(repo, version)? else {
        return Err(GitError::Unresolved {
            what: "line's last tag",
            name: version.to_string(),
            source: git2::Error::from_str("no release tag below this version"),
        });
    };
    let v = version.semver();
    let mut notes = Vec::new();
    if (previous.major, previous.minor) != (v.major, v.minor) {
        notes.push(format!(
            "the newest tag below {version} is {name}, on another line: a patch lane starts from its own line's last tag"
        ));
    }
    let base = resolve_commit(repo, "tag", &name)?;
    let tree = base.tree().ctx(|| format!("tree of {name}"))?;
    let branch_ref = default_branch_ref(repo, default_branch)?;
    let mainline = Mainline::read(repo, &branch_ref)?;
    let mut vfs = Vec::new();
    let py: VersionFile =
        serde_yaml::from_str("path: pyproject.toml\nkind: pyproject\n").expect("valid");
    if let Some(text) = read_text(repo, &tree, "pyproject.toml")? {
        if find_version(&py, &text).is_ok() {
            vfs.push(py);
        }
        if let Some(project) = project_name(&text) {
            let lock: VersionFile = serde_yaml::from_str(&format!(
                "path: uv.lock\nkind: uv-lock\npackage: {project}\n"
            ))
            .expect("valid");
            if read_text(repo, &tree, "uv.lock")?.is_some_and(|t| find_version(&lock, &t).is_ok()) {
                vfs.push(lock);
            }
        }
    }
    let changelog = changelog_for_era(repo, &tree, &mut notes)?;
    let lane = LaneFile {
        version: version.clone(),
        title: None,
        upstream: Upstream {
            repo: upstream.to_owned(),
            default_branch: RefName::parse(default_branch).map_err(|m| GitError::Unresolved {
                what: "default branch",
                name: default_branch.to_owned(),
                source: git2::Error::from_str(&m),
            })?,
        },
        kind: LaneKind::Hotfix,
        base: RefName::parse(&name).expect("a tag name"),
        previous: None,
        branch: None,
        tag: None,
        picks: Vec::new(),
        version_files: vfs,
        changelog: Some(changelog),
        guards: guards::propose(repo, &mainline, base.id(), &tree)?,
        baseline: None,
        github: None,
        mint: None,
        trunk: None,
    };
    Ok(Started {
        lane,
        base: name,
        base_commit: base.id().to_string(),
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_civil_days_in_the_authors_zone() {
        assert_eq!(civil_date(0, 0), "1970-01-01");
        assert_eq!(civil_date(951_782_400, 0), "2000-02-29");
        // 2026-08-13T23:38:09-06:00 is the 14th in UTC and the 13th where it was made.
        let t = jiff::Timestamp::from_second(1_786_685_889).unwrap();
        assert_eq!(t.strftime("%Y-%m-%d").to_string(), "2026-08-14");
        assert_eq!(civil_date(1_786_685_889, -360), "2026-08-13");
    }

    #[test]
    fn a_range_named_fragment_takes_its_first_number() {
        assert_eq!(
            accepted_name("changelog.d/pgw1002-pgw1005.md").as_deref(),
            Some("changelog.d/pgw1002.md")
        );
        assert_eq!(accepted_name("changelog.d/pgw1002.md"), None);
        assert_eq!(accepted_name("changelog.d/README.md"), None);
    }
}
