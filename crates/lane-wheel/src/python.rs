//! A wheel is built only with an interpreter its project supports: the
//! tree's `requires-python` (PEP 440 specifiers, read by `pep440_rs` as uv
//! reads them) against the version of the Python `uv build` is given.
//! Pure: texts in, a verdict out.

use std::path::Path;
use std::str::FromStr;

use pep440_rs::{Version, VersionSpecifiers};

use crate::error::WheelError;

/// Where `requires-python` is read.
pub const PYPROJECT: &str = "pyproject.toml";

/// Refuses when `requires_python` (the tree's, `None`: it says nothing)
/// excludes the interpreter at `python`, which says `found` (`python
/// --version`: `Python 3.11.7`).
pub fn check_requires_python(
    requires_python: Option<&str>,
    python: &Path,
    found: &str,
) -> Result<(), WheelError> {
    let Some(spec) = requires_python else {
        return Ok(());
    };
    let specifiers =
        VersionSpecifiers::from_str(spec).map_err(|e| WheelError::RequiresPythonInvalid {
            file: PYPROJECT,
            specifier: spec.to_owned(),
            why: e.to_string(),
        })?;
    let unsupported = |why: &str| WheelError::PythonUnsupported {
        file: PYPROJECT,
        specifier: spec.to_owned(),
        python: python.to_owned(),
        found: if found.is_empty() {
            format!("no version ({why})")
        } else {
            found.to_owned()
        },
    };
    let version = found
        .trim()
        .strip_prefix("Python ")
        .and_then(|v| Version::from_str(v.trim()).ok())
        .ok_or_else(|| unsupported("`python --version` said nothing lane can read"))?;
    if specifiers.contains(&version) {
        Ok(())
    } else {
        Err(unsupported("outside the specifier"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(spec: Option<&str>, found: &str) -> Result<(), WheelError> {
        check_requires_python(spec, Path::new("/usr/bin/python3"), found)
    }

    #[test]
    fn regression_a_3_12_project_is_not_built_with_python_3_11() {
        let e = check(Some(">=3.12"), "Python 3.11.7").unwrap_err();
        let text = e.to_string();
        for part in [
            "pyproject.toml",
            ">=3.12",
            "Python 3.11.7",
            "/usr/bin/python3",
        ] {
            assert!(text.contains(part), "{part} not in: {text}");
        }
        assert!(text.contains("uv python install"), "{text}");
    }

    #[test]
    fn a_supported_interpreter_or_no_requirement_builds() {
        check(Some(">=3.12"), "Python 3.12.1").unwrap();
        check(Some(">=3.10,<3.13"), "Python 3.11.7").unwrap();
        check(None, "").unwrap();
    }

    #[test]
    fn an_unreadable_interpreter_or_specifier_is_refused_not_guessed() {
        assert!(matches!(
            check(Some(">=3.12"), ""),
            Err(WheelError::PythonUnsupported { .. })
        ));
        assert!(matches!(
            check(Some(">=three"), "Python 3.12.1"),
            Err(WheelError::RequiresPythonInvalid { .. })
        ));
    }
}
