//! The fold-back of a release made off master onto master (pgw#1039's
//! invariant: master's version equals the newest published line, and
//! master's changelog holds every release's section). On a branch
//! `fold/<version>` off the default branch: the release's changelog
//! section, taken from its tag, folded into master's changelog in version
//! order; the fragments that section consumed removed from master's
//! fragments folder; master's version files raised to the release's
//! version when they are below it. One commit; objects are made in memory
//! and written only with the branch.

use git2::{build::TreeUpdateBuilder, FileMode, Oid, Repository};
use lane_file::LaneFile;
use serde::Serialize;

use crate::changelog;
use crate::cut::{on_disk, persist, signature};
use crate::error::{ref_not_created, Ctx, GitError};
use crate::picks::default_branch_ref;
use crate::repo::{read_text, resolve_commit};
use crate::version_files::{bump_version, find_version};

/// What the fold-back did (or, in a dry run, would do).
#[derive(Debug, Clone, Serialize)]
pub struct FoldBack {
    /// The branch, `fold/<version>`.
    pub branch: String,
    /// The default branch it forks from, and the commit.
    pub onto: String,
    /// The commit it forks from.
    pub onto_commit: String,
    /// The release tag the section comes from.
    pub from_tag: String,
    /// Whether the section was folded (false: master had it already).
    pub section_folded: bool,
    /// Fragments removed from master (the section consumed them).
    pub fragments_removed: Vec<String>,
    /// Version files raised: path, from, to.
    pub versions_raised: Vec<(String, String, String)>,
    /// The fold-back commit (a dry run: what it would be).
    pub head: Option<String>,
    /// Its tree.
    pub tree: Option<String>,
    /// Whether anything was written.
    pub written: bool,
}

/// Folds `lane`'s released version back onto the default branch (or onto
/// `onto`, a commit or ref).
pub fn fold_back(
    repo: &Repository,
    lane: &LaneFile,
    onto: Option<&str>,
    dry_run: bool,
) -> Result<FoldBack, GitError> {
    let version = lane.version.as_str();
    let tag = lane.tag_name();
    let released = resolve_commit(repo, "release tag", &tag)?;
    let onto_name = match onto {
        Some(o) => o.to_owned(),
        None => default_branch_ref(repo, lane.upstream.default_branch.as_str())?,
    };
    let base = resolve_commit(repo, "fold-back base", &onto_name)?;
    let branch = format!("fold/{version}");
    if repo.find_reference(&format!("refs/heads/{branch}")).is_ok() {
        return Err(GitError::RefExists {
            kind: "branch",
            name: branch,
            existing: "(a fold-back branch exists)".into(),
        });
    }
    let base_tree = base.tree().ctx(|| "the base tree".into())?;
    let released_tree = released.tree().ctx(|| "the release's tree".into())?;
    let mut report = FoldBack {
        branch: branch.clone(),
        onto: onto_name,
        onto_commit: base.id().to_string(),
        from_tag: tag.clone(),
        section_folded: false,
        fragments_removed: Vec::new(),
        versions_raised: Vec::new(),
        head: None,
        tree: None,
        written: false,
    };
    let private = on_disk(repo)?;
    let repo = &private;
    let odb = repo.odb().ctx(|| "opening the object database".into())?;
    let mempack = odb
        .add_new_mempack_backend(1000)
        .ctx(|| "adding an in-memory object store".into())?;
    let mut update = TreeUpdateBuilder::new();
    let version_semver = lane.version.semver();
    for vf in &lane.version_files {
        let path = vf.path.as_str();
        let Some(text) = read_text(repo, &base_tree, path)? else {
            continue;
        };
        let Ok(spot) = find_version(vf, &text) else {
            continue;
        };
        let below = semver::Version::parse(&spot.version).is_ok_and(|v| v < *version_semver);
        if below {
            let (new, old) =
                bump_version(vf, &text, version).map_err(|message| GitError::VersionFile {
                    path: path.to_owned(),
                    message,
                })?;
            let blob = repo
                .blob(new.as_bytes())
                .ctx(|| format!("writing {path}"))?;
            update.upsert(path, blob, FileMode::Blob);
            report
                .versions_raised
                .push((path.to_owned(), old, version.to_owned()));
        }
    }
    if let Some(cl) = &lane.changelog {
        let file = cl.file.as_str();
        let source = read_text(repo, &released_tree, file)?;
        let target = read_text(repo, &base_tree, file)?;
        if let (Some(source), Some(target)) = (source, target) {
            let section = changelog::section_range(&source, version)
                .map(|r| source[r].to_owned())
                .ok_or_else(|| GitError::Changelog {
                    path: file.to_owned(),
                    message: format!("{tag} has no {version} section to fold back"),
                })?;
            if !changelog::has_section(&target, version) {
                let folded = changelog::fold(&target, &source, version).map_err(|message| {
                    GitError::Changelog {
                        path: file.to_owned(),
                        message,
                    }
                })?;
                let blob = repo
                    .blob(folded.as_bytes())
                    .ctx(|| format!("writing {file}"))?;
                update.upsert(file, blob, FileMode::Blob);
                report.section_folded = true;
            }
            let folder = cl.fragments.trimmed();
            if let Ok(entry) = base_tree.get_path(std::path::Path::new(folder)) {
                if let Ok(sub) = repo.find_tree(entry.id()) {
                    for e in sub.iter() {
                        let name = String::from_utf8_lossy(e.name_bytes()).into_owned();
                        if !name.ends_with(".md") || name == "README.md" {
                            continue;
                        }
                        let blob = repo.find_blob(e.id()).ctx(|| format!("reading {name}"))?;
                        let text = String::from_utf8_lossy(blob.content());
                        if !text.trim().is_empty() && section.contains(text.trim()) {
                            let path = format!("{folder}/{name}");
                            update.remove(&path);
                            report.fragments_removed.push(path);
                        }
                    }
                }
            }
        }
    }
    let tree_id = update
        .create_updated(repo, &base_tree)
        .ctx(|| "building the fold-back tree".into())?;
    if tree_id == base_tree.id() {
        report.tree = Some(tree_id.to_string());
        return Ok(report);
    }
    let tree = repo
        .find_tree(tree_id)
        .ctx(|| "reading the fold-back tree".into())?;
    let sig = signature(repo);
    let message = format!(
        "release: fold {version} back onto {}\n\nThe {version} section from {tag}, its fragments removed, and the\nversion files raised to {version} where they were below it\n(master's version is the newest published line's).\n",
        lane.upstream.default_branch
    );
    let head: Oid = repo
        .commit(None, &sig, &sig, &message, &tree, &[&base])
        .ctx(|| "committing the fold-back".into())?;
    report.head = Some(head.to_string());
    report.tree = Some(tree_id.to_string());
    if dry_run {
        return Ok(report);
    }
    persist(repo, &odb, &mempack)?;
    let disk = on_disk(repo)?;
    disk.reference(
        &format!("refs/heads/{branch}"),
        head,
        false,
        "lane cut --fold-back",
    )
    .map_err(|e| ref_not_created("branch", &branch, e))?;
    report.written = true;
    Ok(report)
}
