//! A lane's version: the release a patch lane ships (`0.93.3`). The lane
//! file's `version`, the `release/<version>` branch, the `/lane mint
//! <version>` command and every path of a lane's run name it with this one
//! type.

/// What a lane version looks like, as an error says it.
const EXPECTING: &str = "a version MAJOR.MINOR.PATCH such as 0.93.3";

/// A release version, `MAJOR.MINOR.PATCH` in decimal digits: no leading
/// `v` (that spells a tag), no pre-release or build suffix (a lane releases
/// one version), no leading zeros (`0.93.3`, not `00.93.3`).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LaneVersion {
    // First, so the derived order is the versions' (0.9.0 < 0.10.0), not
    // the texts'.
    version: semver::Version,
    text: String,
}

impl LaneVersion {
    /// Parses `0.93.3`; a leading `v` is refused (that is a tag, not a version).
    pub fn parse(s: &str) -> Result<Self, String> {
        let version = semver::Version::parse(s)
            .map_err(|e| format!("expected {EXPECTING}, found `{s}` ({e})"))?;
        if !version.pre.is_empty() || !version.build.is_empty() {
            return Err(format!(
                "expected a release version MAJOR.MINOR.PATCH such as 0.93.3, found `{s}`: a lane releases one version, without a pre-release (`-rc1`) or build (`+build.1`) suffix"
            ));
        }
        Ok(LaneVersion {
            text: s.to_owned(),
            version,
        })
    }

    /// The version as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The parsed semantic version.
    pub fn semver(&self) -> &semver::Version {
        &self.version
    }

    /// MAJOR.
    pub fn major(&self) -> u64 {
        self.version.major
    }

    /// MINOR.
    pub fn minor(&self) -> u64 {
        self.version.minor
    }

    /// PATCH.
    pub fn patch(&self) -> u64 {
        self.version.patch
    }
}

impl std::str::FromStr for LaneVersion {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        LaneVersion::parse(s)
    }
}

// Checked inside the deserializer's visitor, so a bad value is reported at
// its own line:column in a lane file.
crate::string_scalar!(
    LaneVersion,
    EXPECTING,
    {
        "type": "string",
        "pattern": "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$",
        "description": "A release version, MAJOR.MINOR.PATCH, e.g. 0.93.3 (quote it in YAML)."
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_strict() {
        let v = LaneVersion::parse("0.93.3").unwrap();
        assert_eq!((v.major(), v.minor(), v.patch()), (0, 93, 3));
        assert_eq!(v.to_string(), "0.93.3");
        assert!(LaneVersion::parse("10.0.12").is_ok());
        for bad in [
            "",
            "0.93",
            "0.93.3.1",
            "v0.93.3",
            "0.93.3-rc1",
            "0.93.3+b1",
            "00.93.3",
            "0.093.3",
            "0.93.03",
            " 0.93.3",
            "0.93.3 ",
            "0..3",
            "+1.2.3",
            "-1.2.3",
            "99999999999999999999.0.0",
            "1.2.99999999999999999999",
            "1.2.٣",
        ] {
            assert!(LaneVersion::parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn versions_order_by_number_not_text() {
        let v = |s| LaneVersion::parse(s).unwrap();
        assert!(v("0.9.0") < v("0.10.0"));
        assert!(v("0.126.3") > v("0.93.3"));
    }

    #[test]
    fn a_number_in_yaml_is_told_to_be_quoted() {
        use serde::de::value::{Error, F64Deserializer};
        use serde::Deserialize;
        let e = LaneVersion::deserialize(F64Deserializer::<Error>::new(0.93)).unwrap_err();
        assert!(e.to_string().contains("(quote it)"), "{e}");
    }
}
