//! A lane's version as a command names it (`/lane mint 0.93.3`), and the
//! lane a pull request belongs to by its base branch (`release/0.93.3`).

use std::fmt;

/// The branch prefix of a lane (`lane cut` makes `release/<version>`).
const RELEASE_PREFIX: &str = "release/";

/// A release version, `MAJOR.MINOR.PATCH` in decimal digits, as a lane
/// file's `version` is: no leading `v`, no pre-release or build suffix, no
/// leading zeros (`0.93.3`, not `00.93.3`), each part a `u64`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// MAJOR.
    pub major: u64,
    /// MINOR.
    pub minor: u64,
    /// PATCH.
    pub patch: u64,
}

impl Version {
    /// Reads `0.93.3`; anything else is `None`.
    pub fn parse(s: &str) -> Option<Version> {
        let mut parts = s.split('.');
        let version = Version {
            major: part(parts.next()?)?,
            minor: part(parts.next()?)?,
            patch: part(parts.next()?)?,
        };
        parts.next().is_none().then_some(version)
    }
}

fn part(s: &str) -> Option<u64> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let canonical = s == "0" || !s.starts_with('0');
    if digits && canonical {
        s.parse().ok()
    } else {
        None
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The lane (its version, `0.93.3`) of a pull request whose base branch
/// is `base_ref` (`release/0.93.3`, as GitHub's `pull_request.base.ref`
/// names it: without `refs/heads/`); `None` for any other branch.
///
/// This is the branch `lane cut` makes by default; a lane file that names
/// another `branch` is found by the server from its lane files, not here.
pub fn lane_of_base_ref(base_ref: &str) -> Option<String> {
    let version = Version::parse(base_ref.strip_prefix(RELEASE_PREFIX)?)?;
    Some(version.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_strict() {
        let v = Version::parse("0.93.3").unwrap();
        assert_eq!((v.major, v.minor, v.patch), (0, 93, 3));
        assert_eq!(v.to_string(), "0.93.3");
        assert!(Version::parse("10.0.12").is_some());
        for bad in [
            "",
            "0.93",
            "0.93.3.1",
            "v0.93.3",
            "0.93.3-rc1",
            "0.93.3+b1",
            "00.93.3",
            "0.093.3",
            "0..3",
            "0.93.",
            " 0.93.3",
            "0.93.3 ",
            "+1.2.3",
            "1.2.٣",
            "1.2.99999999999999999999",
        ] {
            assert_eq!(Version::parse(bad), None, "{bad:?}");
        }
    }

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
