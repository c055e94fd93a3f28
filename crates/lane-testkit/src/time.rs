//! Timestamps as the Kubernetes API writes them (RFC 3339, UTC, seconds).

use jiff::{SignedDuration, Timestamp};

/// Now, e.g. `2026-01-02T03:04:05Z`.
pub fn now() -> String {
    ago(0)
}

/// `secs` seconds before now.
pub fn ago(secs: i64) -> String {
    let t = Timestamp::now() - SignedDuration::from_secs(secs);
    t.strftime("%Y-%m-%dT%H:%M:%SZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_rfc3339_utc_seconds_and_go_back() {
        let (a, b) = (ago(7), now());
        for t in [&a, &b] {
            assert_eq!(t.len(), 20, "{t}");
            assert!(t.ends_with('Z') && t.as_bytes()[10] == b'T', "{t}");
        }
        let parse = |t: &str| t.parse::<Timestamp>().unwrap();
        let gap = parse(&b).duration_since(parse(&a)).as_secs();
        assert!((6..=8).contains(&gap), "{a} .. {b}");
    }
}
