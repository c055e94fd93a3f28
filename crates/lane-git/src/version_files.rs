//! Reading and bumping the version in version files, as text edits that keep
//! every other byte of the file (comments, order, quoting) as it was.
//!
//! Pure functions over text: the cut reads blobs, calls these, writes blobs.

use lane_file::{VersionFile, VersionFileKind};

/// Where a version sits in a file: the byte range of the version text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionSpot {
    /// Byte range of the version (without quotes).
    pub range: std::ops::Range<usize>,
    /// The version found there.
    pub version: String,
}

/// Finds the version in `text` as `vf` describes it.
pub fn find_version(vf: &VersionFile, text: &str) -> Result<VersionSpot, String> {
    match vf.kind {
        VersionFileKind::Pyproject => find_in_toml_table(text, |header, _| header == "[project]")
            .ok_or_else(|| "expected a `version = \"…\"` key in the `[project]` table".to_owned()),
        VersionFileKind::UvLock => {
            let name = vf.package.as_deref().unwrap_or_default();
            find_uv_lock_package(text, name)
        }
        VersionFileKind::Regex => {
            let pattern = vf
                .pattern
                .as_ref()
                .expect("validated: regex kind has a pattern");
            let caps = pattern
                .regex()
                .captures(text)
                .ok_or_else(|| format!("pattern `{}` matches nothing", pattern.as_str()))?;
            let m = caps.name("version").ok_or_else(|| {
                "the pattern's `version` group took no part in the match".to_owned()
            })?;
            Ok(VersionSpot {
                range: m.range(),
                version: m.as_str().to_owned(),
            })
        }
    }
}

/// Replaces the version in `text` by `new`, returning the new text and the old version.
pub fn bump_version(vf: &VersionFile, text: &str, new: &str) -> Result<(String, String), String> {
    let spot = find_version(vf, text)?;
    let mut out = String::with_capacity(text.len() + new.len());
    out.push_str(&text[..spot.range.start]);
    out.push_str(new);
    out.push_str(&text[spot.range.end..]);
    Ok((out, spot.version))
}

/// A `[table]` or `[[array]]` header line, trimmed, or None.
fn header_of(line: &str) -> Option<&str> {
    let t = line.trim();
    (t.starts_with('[') && !t.starts_with("[\"")).then_some(t.split('#').next().unwrap_or(t).trim())
}

/// The value range of `key = "…"` on `line` (offset `at` in the text).
fn quoted_value(line: &str, at: usize, key: &str) -> Option<VersionSpot> {
    let t = line.trim_start();
    let rest = t.strip_prefix(key)?;
    let rest_trim = rest.trim_start();
    let rest_trim = rest_trim.strip_prefix('=')?.trim_start();
    let quote = rest_trim
        .chars()
        .next()
        .filter(|c| *c == '"' || *c == '\'')?;
    let inner = &rest_trim[1..];
    let end = inner.find(quote)?;
    let start = at + (line.len() - rest_trim.len()) + 1;
    Some(VersionSpot {
        range: start..start + end,
        version: inner[..end].to_owned(),
    })
}

/// Finds `version = "…"` in the first table whose header satisfies `pick`.
fn find_in_toml_table(text: &str, pick: impl Fn(&str, usize) -> bool) -> Option<VersionSpot> {
    let mut inside = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if let Some(h) = header_of(line) {
            inside = pick(h, at);
        } else if inside {
            if let Some(spot) = quoted_value(line, at, "version") {
                return Some(spot);
            }
        }
        at += line.len();
    }
    None
}

/// Finds the `version` of the `[[package]]` named `name` in a `uv.lock`;
/// when several share the name, the editable/virtual one (the project itself).
fn find_uv_lock_package(text: &str, name: &str) -> Result<VersionSpot, String> {
    struct Block {
        name: Option<String>,
        version: Option<VersionSpot>,
        local: bool,
    }
    let mut blocks: Vec<Block> = Vec::new();
    let mut in_package = false;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if let Some(h) = header_of(line) {
            in_package = h == "[[package]]";
            if in_package {
                blocks.push(Block {
                    name: None,
                    version: None,
                    local: false,
                });
            }
        } else if in_package {
            let b = blocks.last_mut().expect("a block was pushed at its header");
            if let Some(n) = quoted_value(line, at, "name") {
                b.name = Some(n.version);
            } else if let Some(v) = quoted_value(line, at, "version") {
                b.version = Some(v);
            } else if line.trim_start().starts_with("source")
                && (line.contains("editable") || line.contains("virtual"))
            {
                b.local = true;
            }
        }
        at += line.len();
    }
    let mut matching: Vec<Block> = blocks
        .into_iter()
        .filter(|b| b.name.as_deref() == Some(name))
        .collect();
    if matching.len() > 1 {
        matching.retain(|b| b.local);
    }
    match matching.len() {
        0 => Err(format!(
            "expected a `[[package]]` named `{name}`, found none"
        )),
        1 => matching
            .pop()
            .and_then(|b| b.version)
            .ok_or_else(|| format!("the `[[package]]` named `{name}` has no `version`")),
        _ => Err(format!(
            "several `[[package]]` entries are named `{name}` and none or several are editable"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lane_file::{Pattern, RepoPath};

    fn vf(kind: VersionFileKind) -> VersionFile {
        VersionFile {
            path: RepoPath::parse("x").unwrap(),
            kind,
            package: (kind == VersionFileKind::UvLock).then(|| "gen-worker".to_owned()),
            pattern: (kind == VersionFileKind::Regex)
                .then(|| Pattern::parse(r#"__version__ = "(?P<version>[^"]+)""#).unwrap()),
        }
    }

    const PYPROJECT: &str = "[build-system]\nrequires = [\"hatchling\"]\nversion = \"9.9.9\"\n\n[project]\nname = \"gen-worker\"\nversion = \"0.93.2\"  # bumped by lane\n\n[tool.x]\nversion = \"1\"\n";

    #[test]
    fn pyproject_bump_touches_only_the_project_version() {
        let (out, old) =
            bump_version(&vf(VersionFileKind::Pyproject), PYPROJECT, "0.93.3").unwrap();
        assert_eq!(old, "0.93.2");
        assert_eq!(out, PYPROJECT.replace("\"0.93.2\"", "\"0.93.3\""));
        assert!(out.contains("version = \"9.9.9\""));
    }

    #[test]
    fn pyproject_without_project_version_is_an_error() {
        let e =
            find_version(&vf(VersionFileKind::Pyproject), "[project]\nname = \"x\"\n").unwrap_err();
        assert!(e.contains("[project]"));
    }

    const UV_LOCK: &str = "version = 1\nrequires-python = \">=3.11\"\n\n[[package]]\nname = \"protobuf\"\nversion = \"5.28.0\"\nsource = { registry = \"https://pypi.org/simple\" }\n\n[[package]]\nname = \"gen-worker\"\nversion = \"0.93.2\"\nsource = { editable = \".\" }\ndependencies = [\n    { name = \"protobuf\" },\n]\n";

    #[test]
    fn uv_lock_bump_touches_only_the_named_package() {
        let (out, old) = bump_version(&vf(VersionFileKind::UvLock), UV_LOCK, "0.93.3").unwrap();
        assert_eq!(old, "0.93.2");
        assert!(out.contains("name = \"gen-worker\"\nversion = \"0.93.3\""));
        assert!(out.contains("version = \"5.28.0\""));
        assert!(out.starts_with("version = 1\n"));
    }

    #[test]
    fn uv_lock_without_the_package_is_an_error() {
        let e = find_version(&vf(VersionFileKind::UvLock), "version = 1\n").unwrap_err();
        assert!(e.contains("gen-worker"));
    }

    #[test]
    fn regex_version_file() {
        let (out, old) = bump_version(
            &vf(VersionFileKind::Regex),
            "__version__ = \"0.93.2\"\n",
            "0.93.3",
        )
        .unwrap();
        assert_eq!(
            (out.as_str(), old.as_str()),
            ("__version__ = \"0.93.3\"\n", "0.93.2")
        );
    }

    proptest::proptest! {
        #[test]
        fn bump_then_read_gives_the_new_version(v in "[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}") {
            for kind in [VersionFileKind::Pyproject, VersionFileKind::UvLock] {
                let text = if kind == VersionFileKind::UvLock { UV_LOCK } else { PYPROJECT };
                let (out, _) = bump_version(&vf(kind), text, &v).unwrap();
                proptest::prop_assert_eq!(find_version(&vf(kind), &out).unwrap().version, v.clone());
                proptest::prop_assert_eq!(out.len() as isize - text.len() as isize, v.len() as isize - 6);
            }
        }
    }
}
