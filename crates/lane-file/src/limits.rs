//! The bounds of a lane file's numbers, each written once: the JSON Schema
//! (`#[schemars(range(...))]`) and the parser (the field's deserializer, so
//! an error names the value's line:column and the bound) both read them
//! here. A number only the schema bounded once hung `lane mint --dry-run`
//! (`cold_repeats: 100000000` planned 10⁸ mints per cell).
//!
//! [`BOUNDED`] lists every bounded field; a test walks the schema and
//! refuses a bound that is not in it, and parses each bound's edges.

use serde::Deserializer;

/// The fewest cold repeats per cell and GPU class.
pub const COLD_REPEATS_MIN: u32 = 1;
/// The most cold repeats per cell and GPU class: two make a determinism
/// diff; sixteen are far beyond what a release needs.
pub const COLD_REPEATS_MAX: u32 = 16;
/// The shortest timeout of one mint, in seconds.
pub const TIMEOUT_S_MIN: u64 = 1;
/// The fewest mints run at once.
pub const CONCURRENCY_MIN: u32 = 1;
/// The smallest PR or issue number (GitHub counts from 1).
pub const NUMBER_MIN: u64 = 1;
/// The first parent of a merge commit (git counts parents from 1).
pub const MAINLINE_MIN: u32 = 1;

/// One bounded field: where the schema defines it and its bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// The schema definition holding the field (`MintMatrix`).
    pub definition: &'static str,
    /// The field's key.
    pub field: &'static str,
    /// The least value.
    pub min: u64,
    /// The greatest value, when bounded above.
    pub max: Option<u64>,
}

/// Every bounded field of a lane file.
pub const BOUNDED: &[Bound] = &[
    Bound {
        definition: "MintMatrix",
        field: "cold_repeats",
        min: COLD_REPEATS_MIN as u64,
        max: Some(COLD_REPEATS_MAX as u64),
    },
    Bound {
        definition: "MintMatrix",
        field: "timeout_s",
        min: TIMEOUT_S_MIN,
        max: None,
    },
    Bound {
        definition: "MintMatrix",
        field: "concurrency",
        min: CONCURRENCY_MIN as u64,
        max: None,
    },
    Bound {
        definition: "PickSpec",
        field: "pr",
        min: NUMBER_MIN,
        max: None,
    },
    Bound {
        definition: "PickSpec",
        field: "pr_head",
        min: NUMBER_MIN,
        max: None,
    },
    Bound {
        definition: "PickSpec",
        field: "issue",
        min: NUMBER_MIN,
        max: None,
    },
    Bound {
        definition: "PickSpec",
        field: "mainline",
        min: MAINLINE_MIN as u64,
        max: None,
    },
    Bound {
        definition: "OriginSpec",
        field: "pr",
        min: NUMBER_MIN,
        max: None,
    },
];

/// `value` checked against `min..=max`, in words a reader can act on.
pub(crate) fn check(value: u64, min: u64, max: Option<u64>) -> Result<u64, String> {
    match max {
        Some(max) if value < min || value > max => Err(format!(
            "expected {min} to {max}, found {value} (the bound is {min}..={max})"
        )),
        None if value < min => Err(format!("expected at least {min}, found {value}")),
        _ => Ok(value),
    }
}

/// Reads a whole number and checks it inside the visitor, so the parser's
/// error carries the number's own line:column and key path.
struct Bounded {
    min: u64,
    max: Option<u64>,
}

impl serde::de::Visitor<'_> for Bounded {
    type Value = u64;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.max {
            Some(max) => write!(f, "a whole number from {} to {max}", self.min),
            None => write!(f, "a whole number of at least {}", self.min),
        }
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<u64, E> {
        check(v, self.min, self.max).map_err(E::custom)
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<u64, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self)),
        }
    }
}

fn bounded<'de, D: Deserializer<'de>>(d: D, min: u64, max: Option<u64>) -> Result<u64, D::Error> {
    d.deserialize_u64(Bounded { min, max })
}

/// `mint.cold_repeats`, refused outside its bounds where it is written.
pub(crate) fn cold_repeats<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let v = bounded(d, COLD_REPEATS_MIN.into(), Some(COLD_REPEATS_MAX.into()))?;
    // Within COLD_REPEATS_MAX, a u32.
    Ok(v as u32)
}

/// `mint.timeout_s`, refused below its bound where it is written.
pub(crate) fn timeout_s<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    bounded(d, TIMEOUT_S_MIN, None)
}

/// `mint.concurrency`, refused below its bound where it is written.
pub(crate) fn concurrency<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let v = bounded(d, CONCURRENCY_MIN.into(), Some(u32::MAX.into()))?;
    Ok(Some(v as u32))
}

/// A PR or issue number, refused below its bound where it is written.
pub(crate) fn number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    bounded(d, NUMBER_MIN, None).map(Some)
}

/// A merge commit's `mainline`, refused below its bound where it is written.
pub(crate) fn mainline<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let v = bounded(d, MAINLINE_MIN.into(), Some(u32::MAX.into()))?;
    Ok(Some(v as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edges_are_in_and_one_past_them_is_out() {
        assert_eq!(check(1, 1, Some(16)), Ok(1));
        assert_eq!(check(16, 1, Some(16)), Ok(16));
        assert!(check(17, 1, Some(16)).unwrap_err().contains("1..=16"));
        assert!(check(0, 1, None).unwrap_err().contains("at least 1"));
        assert_eq!(check(u64::MAX, 1, None), Ok(u64::MAX));
    }
}
