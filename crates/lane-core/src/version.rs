//! A lane's version: the release a patch lane ships (`0.93.3`). The lane
//! file's `version`, the `release/<version>` branch, the `/lane mint
//! <version>` command and every path of a lane's run name it with this one
//! type.

use std::borrow::Cow;
use std::fmt;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

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

impl fmt::Display for LaneVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
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
impl<'de> Deserialize<'de> for LaneVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = LaneVersion;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(EXPECTING)
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<LaneVersion, E> {
                LaneVersion::parse(s).map_err(E::custom)
            }
            // YAML reads `0.93` or `2` as numbers; say what was meant.
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<LaneVersion, E> {
                Err(E::custom(format!(
                    "expected {EXPECTING}, found the number {v} (quote it)"
                )))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<LaneVersion, E> {
                LaneVersion::parse(&v.to_string()).map_err(E::custom)
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<LaneVersion, E> {
                LaneVersion::parse(&v.to_string()).map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

impl Serialize for LaneVersion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl JsonSchema for LaneVersion {
    fn schema_name() -> Cow<'static, str> {
        "LaneVersion".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "string",
            "pattern": "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$",
            "description": "A release version, MAJOR.MINOR.PATCH, e.g. 0.93.3 (quote it in YAML)."
        })
    }
}

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
        let e = LaneVersion::deserialize(F64Deserializer::<Error>::new(0.93)).unwrap_err();
        assert!(e.to_string().contains("(quote it)"), "{e}");
    }
}
