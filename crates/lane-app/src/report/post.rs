//! Posting a lane's report to GitHub (the `github` edge): one sticky
//! comment per target PR, updated in place, and a check run; or, with
//! `--dry-run`, the exact requests written to files.

use std::path::{Path, PathBuf};

use lane_github::{plan, Auth, CheckRun, ClientConfig, GithubClient, Repo};
use lane_render::{conclusion, marker, render_comment, LaneResults, RenderOptions};

use super::{targets, write, Posted, PostedCheckRun, PostedComment};
use crate::error::AppError;
use crate::lane::LoadedLane;

/// Posts a lane's rendered report (`body`, from `results`): one sticky
/// comment on each target PR and a check run on `head_sha` (else the lane
/// branch's head, when the lane's repository is local). `dry_run` writes
/// the exact requests under `<lane_out>/requests/` and sends nothing. Used
/// by `lane report --post` and `lane mint --post`.
pub fn post_lane_report(
    loaded: &LoadedLane,
    results: &LaneResults,
    body: &str,
    head_sha: Option<String>,
    lane_out: &Path,
    dry_run: bool,
) -> Result<Posted, AppError> {
    let lane = &loaded.lane;
    let version = lane.version.to_string();
    let verdict = conclusion(results);
    let targets = targets(lane);
    let mut output = Posted::default();
    let repo_name = lane.github_repo().ok_or(AppError::NoGithubRepo)?;
    let repo = Repo::parse(&repo_name)?;
    let head_sha = head_sha.or_else(|| self::head_sha(loaded));
    let check = head_sha.map(|sha| {
        let summary = render_comment(
            results,
            &RenderOptions {
                limit: 65_535,
                marker: false,
            },
        );
        CheckRun {
            name: format!("lane {version}"),
            head_sha: sha,
            conclusion: verdict.conclusion.as_str().to_owned(),
            title: format!("lane {version}: {}", verdict.conclusion.as_str()),
            summary: summary.body,
            details_url: results
                .report_url
                .clone()
                .filter(|u| u.starts_with("https://")),
        }
    });
    if check.is_none() {
        tracing::warn!("no head commit for the check run (give --head-sha)");
    }
    if dry_run {
        output.requests = self::dry_run(lane_out, &repo, &targets, body, check.as_ref())?;
    } else {
        post(&repo, &targets, &version, body, check.as_ref(), &mut output)?;
    }
    Ok(output)
}

/// Renders a lane's loaded results (`model`, as `write_lane_report`
/// returned it, its history verdict included) and posts it
/// ([`post_lane_report`]): `lane mint --post`.
pub fn post_results(
    loaded: &LoadedLane,
    model: &LaneResults,
    head_sha: Option<String>,
    lane_out: &Path,
) -> Result<Posted, AppError> {
    let rendered = render_comment(model, &RenderOptions::default());
    post_lane_report(loaded, model, &rendered.body, head_sha, lane_out, false)
}

/// The lane branch's head in the lane's local repository (no clone).
fn head_sha(loaded: &LoadedLane) -> Option<String> {
    if loaded.lane.upstream.is_url() {
        return None;
    }
    let path = crate::lane::repository(loaded, None).ok()?;
    let repo = lane_git::repo::open(&path).ok()?;
    let commit =
        lane_git::repo::resolve_commit(&repo, "lane branch", &loaded.lane.branch_name()).ok()?;
    Some(commit.id().to_string())
}

fn dry_run(
    lane_out: &Path,
    repo: &Repo,
    targets: &[u64],
    body: &str,
    check: Option<&CheckRun>,
) -> Result<Vec<PathBuf>, AppError> {
    let dir = lane_out.join("requests");
    let mut written = Vec::new();
    let mut n = 0;
    let mut put = |name: String, req: plan::PlannedRequest| -> Result<(), AppError> {
        n += 1;
        let path = dir.join(format!("{n:03}-{name}.json"));
        let text = serde_json::to_string_pretty(&req).map_err(AppError::Json)? + "\n";
        write(&path, &text)?;
        written.push(path);
        Ok(())
    };
    for t in targets {
        put(format!("comment-{t}"), plan::comment(repo, *t, body))?;
    }
    if let Some(c) = check {
        put("check-run".to_owned(), plan::check_run(repo, c))?;
    }
    Ok(written)
}

fn post(
    repo: &Repo,
    targets: &[u64],
    version: &str,
    body: &str,
    check: Option<&CheckRun>,
    output: &mut Posted,
) -> Result<(), AppError> {
    let auth = Auth::from_env().ok_or(lane_github::GithubError::NoCredentials)?;
    let config = ClientConfig::from_env(auth);
    let marker = marker(version);
    lane_runtime::block_on_here(async {
        let client = GithubClient::connect(config, repo.clone()).await?;
        for t in targets {
            let outcome = client.upsert_comment(*t, &marker, body).await?;
            tracing::info!(issue = t, id = outcome.comment_id, "comment posted");
            output.comments.push(PostedComment::from(outcome));
        }
        if let Some(c) = check {
            let run = PostedCheckRun::from(client.upsert_check_run(c).await?);
            tracing::info!(id = run.id, conclusion = %c.conclusion, "check run concluded");
            output.check_run = Some(run);
        }
        Ok::<_, AppError>(())
    })
    .map_err(AppError::Runtime)?
}

impl From<lane_github::CommentOutcome> for PostedComment {
    fn from(c: lane_github::CommentOutcome) -> Self {
        PostedComment {
            issue: c.issue,
            comment_id: c.comment_id,
            html_url: c.html_url,
            action: match c.action {
                lane_github::CommentAction::Created => "created",
                lane_github::CommentAction::Updated => "updated",
                lane_github::CommentAction::Unchanged => "unchanged",
            }
            .to_owned(),
            removed: c.removed,
        }
    }
}

impl From<lane_github::CheckRunOutcome> for PostedCheckRun {
    fn from(c: lane_github::CheckRunOutcome) -> Self {
        PostedCheckRun {
            id: c.id,
            created: c.created,
        }
    }
}
