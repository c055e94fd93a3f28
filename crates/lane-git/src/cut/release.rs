//! The release commit on top of the picks: the version files bumped and the
//! changelog written the lane's way (the tree's own assembler, lane's, or
//! none), with what a person adds at the cut.

use std::collections::BTreeMap;

use git2::{build::TreeUpdateBuilder, FileMode, Oid, Repository, Tree};
use lane_file::{Assemble, Consumed, LaneFile, Take};

use super::{signature, ChangelogMode, ChangelogPlan, PickOutcome, PickReport, VersionBump};
use crate::changelog::{self, Fragment};
use crate::error::{Ctx, GitError};
use crate::repo::{folder_texts, read_text};
use crate::version_files::{bump_version, find_version};

/// The release commit: version bump and assembled changelog, on top of `head`.
pub(crate) struct Release {
    pub head: Oid,
    pub bumps: Vec<VersionBump>,
    pub changelog: ChangelogPlan,
    pub disagree: Option<Vec<(String, String)>>,
}

fn is_fragment(path: &str) -> bool {
    path.ends_with(".md") && !path.ends_with("/README.md")
}

/// What the cut does to the changelog: the new files (path -> Some(text),
/// or None to delete) and the plan shown.
fn changelog_step(
    repo: &Repository,
    lane: &LaneFile,
    tree: &Tree<'_>,
    picks: &[PickReport],
    date: &str,
) -> Result<(BTreeMap<String, Option<String>>, ChangelogPlan), GitError> {
    let mut plan = ChangelogPlan::empty(ChangelogMode::NotConfigured);
    let mut edits = BTreeMap::new();
    let Some(cl) = &lane.changelog else {
        return Ok((edits, plan));
    };
    let version = lane.version.as_str();
    let file = cl.file.as_str().to_owned();
    plan.file = Some(file.clone());
    let mode = match cl.assemble {
        Assemble::None => ChangelogMode::None,
        Assemble::Builtin => ChangelogMode::Builtin,
        Assemble::Tree => ChangelogMode::Tree,
        Assemble::Auto if read_text(repo, tree, cl.assembler.as_str())?.is_some() => {
            ChangelogMode::Tree
        }
        Assemble::Auto => ChangelogMode::Builtin,
    };
    plan.mode = mode;
    if mode == ChangelogMode::None {
        return Ok((edits, plan));
    }
    let failed = |message: String| GitError::Changelog {
        path: file.clone(),
        message,
    };
    let folder = cl.fragments.trimmed().to_owned();
    // The fragments as the picks left them, then what a person does at the cut.
    let original = folder_texts(repo, tree, &folder)?;
    let mut frags = original.clone();
    for r in &cl.rename {
        let text = frags
            .remove(r.from.as_str())
            .ok_or_else(|| failed(format!("cannot rename {}: no such fragment", r.from)))?;
        frags.insert(r.to.as_str().to_owned(), text);
        plan.renamed.push((r.from.to_string(), r.to.to_string()));
    }
    for d in &cl.drop {
        frags
            .remove(d.as_str())
            .ok_or_else(|| failed(format!("cannot drop {d}: no such fragment")))?;
        plan.dropped.push(d.to_string());
    }
    for w in &cl.write {
        frags.insert(w.path.as_str().to_owned(), w.text.as_str().to_owned());
        plan.written.push(w.path.to_string());
    }
    let text = read_text(repo, tree, &file)?;
    let headline = lane.title.as_ref().map(lane_file::Title::as_str);
    let mut new_text = match mode {
        ChangelogMode::Tree => {
            let script = cl.assembler.as_str();
            let Some(source) = read_text(repo, tree, script)? else {
                return Err(failed(format!(
                    "`assemble: tree` but the tree has no {script}"
                )));
            };
            let Some(text) = text else {
                return Err(failed(format!(
                    "the tree has no {file} for its assembler to write into (from 0.127 the upstream keeps none: `assemble: none`)"
                )));
            };
            let mut files = crate::assembler::Files::new();
            files.insert(script.to_owned(), source);
            files.insert(file.clone(), text);
            files.extend(frags.clone());
            let out = match crate::assembler::run(script, &files, version, date, headline) {
                Err(GitError::Assembler { message, .. }) if no_fragment(&frags) => {
                    return Err(GitError::NothingToRelease {
                        folder: folder.clone(),
                        version: version.to_owned(),
                        script: script.to_owned(),
                        said: message,
                    })
                }
                other => other?,
            };
            plan.assembler = Some(out.command);
            let mut after = out.files;
            let new_text = after.remove(&file).unwrap_or_default();
            let after_frags: BTreeMap<String, String> = after
                .into_iter()
                .filter(|(p, _)| p.starts_with(&format!("{folder}/")))
                .collect();
            plan.fragments = frags
                .keys()
                .filter(|p| is_fragment(p) && !after_frags.contains_key(*p))
                .cloned()
                .collect();
            frags = after_frags;
            new_text
        }
        _ => {
            let text = text.unwrap_or_default();
            if changelog::has_section(&text, version) {
                return Err(failed(format!("already has a section for {version}")));
            }
            let tsv_path = format!("{folder}/consumed.tsv");
            let consumed = frags
                .get(&tsv_path)
                .map(|t| changelog::consumed_stems(t))
                .unwrap_or_default();
            let mut chosen: Vec<Fragment> = Vec::new();
            match cl.take {
                Take::Pending => {
                    for (path, text) in &frags {
                        let f = Fragment {
                            path: path.clone(),
                            text: text.clone(),
                        };
                        if is_fragment(path)
                            && !(cl.consumed == Consumed::Tsv && consumed.contains(f.stem()))
                        {
                            chosen.push(f);
                        }
                    }
                }
                Take::Picks => {
                    for p in picks {
                        if matches!(
                            p.outcome,
                            PickOutcome::Conflict { .. } | PickOutcome::NotReached
                        ) {
                            continue;
                        }
                        match p.pick.issue {
                            None => plan
                                .picks_without_issue
                                .push(format!("{} ({})", p.pick.target, p.pick.subject)),
                            Some(issue) => {
                                let path = cl.fragment_path(issue);
                                match frags.get(&path) {
                                    Some(text) => chosen.push(Fragment {
                                        path,
                                        text: text.clone(),
                                    }),
                                    None => plan.missing_fragments.push(issue),
                                }
                            }
                        }
                    }
                    for w in &cl.write {
                        let path = w.path.as_str().to_owned();
                        if is_fragment(&path) && !chosen.iter().any(|f| f.path == path) {
                            chosen.push(Fragment {
                                path,
                                text: w.text.as_str().to_owned(),
                            });
                        }
                    }
                    chosen.sort_by(|a, b| a.path.cmp(&b.path));
                    chosen.dedup_by(|a, b| a.path == b.path);
                }
            }
            if chosen.is_empty() {
                plan.notes
                    .push("no fragment to assemble: the section says none was picked".into());
            }
            let heading = changelog::heading(version, date, headline);
            let section = changelog::section(&heading, None, &chosen);
            let out = changelog::insert(&text, &section);
            plan.fragments = chosen.iter().map(|f| f.path.clone()).collect();
            match cl.consumed {
                Consumed::Delete => {
                    for f in &chosen {
                        frags.remove(&f.path);
                    }
                }
                Consumed::Tsv => {
                    let stems: Vec<&str> = chosen.iter().map(Fragment::stem).collect();
                    let tsv = changelog::record_consumed(
                        frags.get(&tsv_path).map(String::as_str),
                        version,
                        &stems,
                    );
                    frags.insert(tsv_path, tsv);
                }
            }
            out
        }
    };
    if let Some(p) = &cl.preamble {
        new_text = changelog::insert_preamble(&new_text, version, p.as_str()).map_err(failed)?;
    }
    for f in &cl.fold {
        let source_tree = crate::repo::resolve_commit(repo, "fold source", f.from.as_str())?
            .tree()
            .ctx(|| format!("tree of {}", f.from))?;
        let source = read_text(repo, &source_tree, &file)?.ok_or_else(|| {
            failed(format!(
                "{} has no {file} to fold {} from",
                f.from, f.version
            ))
        })?;
        new_text = changelog::fold(&new_text, &source, f.version.as_str())
            .map_err(|m| failed(format!("folding {} from {}: {m}", f.version, f.from)))?;
        plan.folded.push(format!("{} from {}", f.version, f.from));
    }
    plan.section = changelog::section_range(&new_text, version)
        .map(|r| new_text[r].trim_end().to_owned())
        .unwrap_or_default();
    edits.insert(file, Some(new_text));
    for path in original.keys() {
        if !frags.contains_key(path) {
            edits.insert(path.clone(), None);
        }
    }
    for (path, text) in frags {
        if original.get(&path) != Some(&text) {
            edits.insert(path, Some(text));
        }
    }
    Ok((edits, plan))
}

pub(crate) fn release_commit(
    repo: &Repository,
    lane: &LaneFile,
    head: Oid,
    picks: &[PickReport],
    date: &str,
) -> Result<Release, GitError> {
    let version = lane.version.as_str();
    let head_commit = repo.find_commit(head).ctx(|| format!("reading {head}"))?;
    let tree = head_commit.tree().ctx(|| format!("tree of {head}"))?;
    let mut update = TreeUpdateBuilder::new();
    let mut bumps = Vec::new();
    for vf in &lane.version_files {
        let path = vf.path.as_str();
        let text = read_text(repo, &tree, path)?.ok_or_else(|| GitError::VersionFile {
            path: path.to_owned(),
            message: "the file does not exist in the lane".into(),
        })?;
        let (new_text, old) =
            bump_version(vf, &text, version).map_err(|message| GitError::VersionFile {
                path: path.to_owned(),
                message,
            })?;
        let blob = repo
            .blob(new_text.as_bytes())
            .ctx(|| format!("writing {path}"))?;
        update.upsert(path, blob, FileMode::Blob);
        let crosses_line = match semver::Version::parse(&old) {
            Ok(v) => {
                let l = lane.version.semver();
                (v.major, v.minor) != (l.major, l.minor)
            }
            Err(_) => true,
        };
        bumps.push(VersionBump {
            path: path.to_owned(),
            from: old,
            to: version.to_owned(),
            crosses_line,
        });
    }
    let (edits, plan) = changelog_step(repo, lane, &tree, picks, date)?;
    for (path, text) in &edits {
        match text {
            Some(t) => {
                let blob = repo.blob(t.as_bytes()).ctx(|| format!("writing {path}"))?;
                update.upsert(path, blob, FileMode::Blob);
            }
            None => {
                update.remove(path);
            }
        }
    }
    let new_tree_id = update
        .create_updated(repo, &tree)
        .ctx(|| "building the release tree".into())?;
    // Verify from the written tree, not from what we meant to write.
    let new_tree = repo
        .find_tree(new_tree_id)
        .ctx(|| "reading the release tree".into())?;
    let mut found = Vec::new();
    for vf in &lane.version_files {
        let text = read_text(repo, &new_tree, vf.path.as_str())?.unwrap_or_default();
        let v = find_version(vf, &text)
            .map(|s| s.version)
            .unwrap_or_else(|e| format!("unreadable ({e})"));
        found.push((vf.path.to_string(), v));
    }
    let disagree = found.iter().any(|(_, v)| v != version).then_some(found);
    if new_tree_id == tree.id() {
        return Ok(Release {
            head,
            bumps,
            changelog: plan,
            disagree,
        });
    }
    let message = release_message(lane, &bumps, &plan);
    let sig = signature(repo);
    let new = repo
        .commit(None, &sig, &sig, &message, &new_tree, &[&head_commit])
        .ctx(|| "committing the release".into())?;
    Ok(Release {
        head: new,
        bumps,
        changelog: plan,
        disagree,
    })
}

fn release_message(lane: &LaneFile, bumps: &[VersionBump], plan: &ChangelogPlan) -> String {
    let version = lane.version.as_str();
    let mut message = match &lane.title {
        Some(t) => format!("release {version}: {}\n\n", t.as_str()),
        None => format!("release {version}\n\n"),
    };
    if !bumps.is_empty() {
        message.push_str(&format!(
            "Version {version} in {}.\n",
            bumps
                .iter()
                .map(|b| b.path.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(file) = &plan.file {
        match plan.mode {
            ChangelogMode::Builtin | ChangelogMode::Tree => message.push_str(&format!(
                "{file} assembled from {}.\n",
                if plan.fragments.is_empty() {
                    "no fragments".to_owned()
                } else {
                    plan.fragments.join(", ")
                }
            )),
            _ => {}
        }
    }
    message
}

/// True when a fragment folder holds nothing but its README and hidden
/// files (`.gitkeep`): what the upstream's assemblers call empty.
fn no_fragment(frags: &BTreeMap<String, String>) -> bool {
    frags.keys().all(|path| {
        let name = path.rsplit('/').next().unwrap_or(path);
        name.starts_with('.') || name.to_ascii_uppercase().starts_with("README")
    })
}
