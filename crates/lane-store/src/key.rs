//! Store keys: `/`-separated, relative, no `.`/`..` segments, a safe
//! character set, so a key is the same path on disk and in a bucket.

use crate::StoreError;

/// A validated store key such as `lanes/0.93.3/<commit>/gen_worker-0.93.3-py3-none-any.whl`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StoreKey(String);

impl StoreKey {
    /// Validates `key`.
    pub fn new(key: impl Into<String>) -> Result<StoreKey, StoreError> {
        let key = key.into();
        let bad = |why: &str| StoreError::BadKey {
            key: key.clone(),
            why: why.to_owned(),
        };
        if key.is_empty() {
            return Err(bad("empty"));
        }
        if key.starts_with('/') || key.ends_with('/') {
            return Err(bad("must not start or end with `/`"));
        }
        for seg in key.split('/') {
            if seg.is_empty() || seg == "." || seg == ".." {
                return Err(bad("empty, `.` or `..` segment"));
            }
            if seg.starts_with(".lane-tmp-") {
                return Err(bad("`.lane-tmp-` is reserved for partial writes"));
            }
        }
        if let Some(c) = key
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || "-_.+=@/".contains(*c)))
        {
            return Err(bad(&format!("character {c:?} is not allowed")));
        }
        Ok(StoreKey(key))
    }

    /// The key's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for StoreKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The key of `file` staged for `lane` at `commit`: `lanes/<lane>/<commit>/<file>`.
pub fn lane_key(lane: &str, commit: &str, file: &str) -> Result<StoreKey, StoreError> {
    StoreKey::new(lane_core::layout::staged_key(lane, commit, file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_refuse_escapes_and_odd_characters() {
        assert!(StoreKey::new("lanes/0.93.3/abc/x.whl").is_ok());
        for k in [
            "",
            "/a",
            "a/",
            "a//b",
            "a/../b",
            "./a",
            "a b",
            "a\\b",
            "a/.lane-tmp-x",
        ] {
            assert!(StoreKey::new(k).is_err(), "{k:?}");
        }
        assert_eq!(
            lane_key("0.93.3", "abc", "m.json").unwrap().as_str(),
            "lanes/0.93.3/abc/m.json"
        );
    }
}
