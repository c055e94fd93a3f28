//! A lane's version as a command names it (`/lane mint 0.93.3`), and the
//! lane a pull request belongs to by its base branch (`release/0.93.3`).

use lane_core::LaneVersion;

/// The branch prefix of a lane (`lane cut` makes `release/<version>`).
const RELEASE_PREFIX: &str = "release/";

/// The lane (its version, `0.93.3`) of a pull request whose base branch
/// is `base_ref` (`release/0.93.3`, as GitHub's `pull_request.base.ref`
/// names it: without `refs/heads/`); `None` for any other branch.
///
/// This is the branch `lane cut` makes by default; a lane file that names
/// another `branch` is found by the server from its lane files, not here.
pub fn lane_of_base_ref(base_ref: &str) -> Option<String> {
    let version = LaneVersion::parse(base_ref.strip_prefix(RELEASE_PREFIX)?).ok()?;
    Some(version.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lane_of_a_release_branch() {
        assert_eq!(
            lane_of_base_ref("release/0.93.3").as_deref(),
            Some("0.93.3")
        );
        for other in [
            "master",
            "main",
            "release/",
            "release/0.93",
            "release/v0.93.3",
            "refs/heads/release/0.93.3",
            "release/0.93.3/x",
            "Release/0.93.3",
            "hotfix/release/0.93.3",
        ] {
            assert_eq!(lane_of_base_ref(other), None, "{other:?}");
        }
    }
}
