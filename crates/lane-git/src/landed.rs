//! Tagging a cut made earlier. A hotfix lane's tag goes on its branch's
//! head. A trunk lane's goes where the cut landed on the default branch:
//! the merge of the cut PR whose second parent is the cut branch's head
//! (`tag_on: merge`, the upstream's way from 0.114), or the cut commit
//! itself once the default branch reaches it, or the squash that carries
//! exactly its tree (`tag_on: cut`). A cut that has not landed is refused:
//! lane tags only what is on the default branch and carries the tree cut.

use git2::{Oid, Repository};
use lane_file::{LaneFile, LaneKind, TagOn};

use crate::cut::{signature, tag_message, CutOptions, CutReport, CutStatus, Landed};
use crate::error::{ref_not_created, Ctx, GitError};
use crate::picks::default_branch_ref;
use crate::repo::{commit_tree, reaches, read_text};

/// How far back the default branch is searched for the landing.
const SEARCH: usize = 20_000;

/// Finds where the cut at `tip` landed on the lane's default branch.
pub fn find_landing(repo: &Repository, lane: &LaneFile, tip: Oid) -> Result<Landed, GitError> {
    let on = default_branch_ref(repo, lane.upstream.default_branch.as_str())?;
    let tag_on = lane.trunk.as_ref().map(|t| t.tag_on).unwrap_or_default();
    let cut = repo.find_commit(tip).ctx(|| format!("reading {tip}"))?;
    let mut walk = repo.revwalk().ctx(|| "starting a history walk".into())?;
    walk.push_ref(&on).ctx(|| format!("walking {on}"))?;
    walk.simplify_first_parent()
        .ctx(|| "first-parent walk".into())?;
    for id in walk.take(SEARCH) {
        let id = id.ctx(|| format!("walking {on}"))?;
        let c = repo.find_commit(id).ctx(|| format!("reading {id}"))?;
        let found = match tag_on {
            TagOn::Merge => c.parent_count() > 1 && c.parent_id(1).ok() == Some(tip),
            TagOn::Cut => id == tip || c.tree_id() == cut.tree_id(),
        };
        if found {
            return Ok(Landed {
                commit: id.to_string(),
                on: on.clone(),
                cut_head: tip.to_string(),
                master_moved: c.tree_id() != cut.tree_id(),
            });
        }
    }
    if tag_on == TagOn::Cut {
        let head = repo
            .revparse_single(&on)
            .and_then(|o| o.peel_to_commit())
            .ctx(|| format!("reading {on}"))?;
        if reaches(repo, head.id(), tip)? {
            return Ok(Landed {
                commit: tip.to_string(),
                on,
                cut_head: tip.to_string(),
                master_moved: false,
            });
        }
    }
    Err(GitError::NotLanded {
        branch: lane.branch_name(),
        on,
    })
}

/// Tags the cut whose branch head is `tip` (see the module doc); the tag
/// object is made, and signed when asked, before its ref.
pub(crate) fn tag_cut(
    repo: &Repository,
    lane: &LaneFile,
    opts: &CutOptions,
    report: &mut CutReport,
    tip: Oid,
) -> Result<(), GitError> {
    let target = match lane.kind {
        LaneKind::Trunk => {
            let landed = find_landing(repo, lane, tip)?;
            let id = Oid::from_str(&landed.commit).ctx(|| "the landing".into())?;
            report.landed = Some(landed);
            id
        }
        _ => tip,
    };
    let tag = lane.tag_name();
    let tree = commit_tree(repo, target)?;
    let section = match &lane.changelog {
        Some(cl) => read_text(repo, &tree, cl.file.as_str())?.and_then(|text| {
            crate::changelog::section_range(&text, lane.version.as_str())
                .map(|r| text[r].trim_end().to_owned())
        }),
        None => None,
    };
    let signing = match opts.sign {
        true => Some(crate::sign::SigningConfig::read(repo)?),
        false => None,
    };
    let bytes = crate::sign::tag_object(
        &tag,
        target,
        &signature(repo),
        &tag_message(lane, section.as_deref()),
        signing.as_ref(),
    )?;
    let id = crate::sign::write_tag_object(repo, &bytes)?;
    repo.reference(
        &format!("refs/tags/{tag}"),
        id,
        false,
        &format!("lane cut: tag {}", lane.version),
    )
    .map_err(|e| ref_not_created("tag", &tag, e))?;
    report.status = CutStatus::Tagged;
    report.tag = Some(tag);
    report.head = Some(target.to_string());
    report.signed = opts.sign;
    report.written = true;
    Ok(())
}
