//! What the service answers on a pull request, in words: one comment per
//! pull request for the service's own answers ([`marker`]), updated in
//! place; the lane's report keeps its own sticky comment
//! (`lane_render::marker`).

use lane_webhook::{help_text, AuthorAssociation, Policy, RefusalReason};

/// The hidden marker of the service's answer comment on pull request `pr`.
pub fn marker(pr: u64) -> String {
    format!("<!-- lane-serve pr={pr} -->")
}

/// The answer comment's body: the marker, then `text`.
pub fn body(pr: u64, text: &str) -> String {
    format!("{}\n{text}\n", marker(pr))
}

/// The one polite refusal of a comment lane will not run.
pub fn refusal(reason: &RefusalReason, policy: &Policy) -> String {
    match reason {
        RefusalReason::NotAuthorised { association } => {
            let who = match association {
                AuthorAssociation::Unknown(_) => "an unknown association",
                known => known.as_str(),
            };
            format!(
                "Sorry, lane runs commands only for {policy} (GitHub says your association \
                 with this repository is {who}). Nothing was run; a maintainer can run it for you."
            )
        }
        RefusalReason::InvalidCommand(e) => {
            format!(
                "lane did not understand that command: {e}.\n\n{}",
                help_text()
            )
        }
    }
}

/// A command refused by a policy that goes by permission: the permission
/// GitHub gave (`None`: it could not be read, so nothing runs).
pub fn permission_refusal(policy: &Policy, have: Option<lane_webhook::Permission>) -> String {
    match have {
        Some(p) => format!(
            "Sorry, lane runs commands only for people with {policy} on this repository \
             (GitHub says yours is {p}). Nothing was run; a maintainer can run it for you."
        ),
        None => format!(
            "Sorry, lane runs commands only for people with {policy} on this repository, \
             and GitHub did not tell lane yours. Nothing was run."
        ),
    }
}

/// The progress body of the lane's sticky comment while it mints.
pub fn progress(lane_marker: &str, lane: &str, done: usize, total: usize) -> String {
    format!(
        "{lane_marker}\n**lane {lane}**: minting, {done} of {total} mints in. \
         This comment becomes the lane's report when every mint is in.\n"
    )
}

/// A mint asked while the pull request's lane runs.
pub fn already_running(lane: &str) -> String {
    format!(
        "lane {lane} is already running for this pull request: see the lane's report \
         comment, which fills in as mints finish; `/lane cancel` stops it. Nothing new was started."
    )
}

/// The lane's sticky comment `body` (as last posted) with the line saying
/// that new commits (head `head_sha`) outdated it, on top: right under the
/// hidden marker when the body starts with it. A body outdated before
/// keeps one such line, the newest.
pub fn outdated(body: &str, lane: &str, head_sha: &str) -> String {
    let line = format!(
        "> **outdated**: new commits since this report (head {head_sha}); `/lane mint {lane}` mints them."
    );
    let (marker, rest) = match body.split_once('\n') {
        Some((first, rest)) if first.starts_with("<!--") => (Some(first), rest),
        _ => (None, body),
    };
    let rest = match rest.split_once('\n') {
        Some((first, after)) if first.starts_with("> **outdated**") => after,
        _ => rest,
    };
    match marker {
        Some(m) => format!("{m}\n{line}\n\n{}", rest.trim_start_matches('\n')),
        None => format!("{line}\n\n{}", rest.trim_start_matches('\n')),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outdated_line_goes_under_the_marker_once() {
        let body = "<!-- lane-report lane=0.93.3 -->\n## lane 0.93.3\n\nall green\n";
        let once = outdated(body, "0.93.3", "aaa");
        assert_eq!(
            once,
            "<!-- lane-report lane=0.93.3 -->\n> **outdated**: new commits since this report (head aaa); `/lane mint 0.93.3` mints them.\n\n## lane 0.93.3\n\nall green\n"
        );
        let twice = outdated(&once, "0.93.3", "bbb");
        assert_eq!(twice, once.replace("aaa", "bbb"));
    }
}
