//! Reserved and extension ranges: which numbers a range of the before side
//! no longer covers on the after side (buf's `checkTagRanges`).

/// A range of numbers, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Range {
    start: i64,
    end: i64,
}

/// The largest field number.
pub(super) const MESSAGE_MAX: i64 = 536_870_911;
/// The largest enum number.
pub(super) const ENUM_MAX: i64 = i32::MAX as i64;

impl Range {
    /// A descriptor's message range: `end` excluded.
    pub fn half_open(start: i64, end: i64) -> Self {
        Range {
            start,
            end: end - 1,
        }
    }

    /// An enum's range: both ends included.
    pub fn inclusive(start: i64, end: i64) -> Self {
        Range { start, end }
    }

    pub fn contains(&self, n: impl Into<i64>) -> bool {
        let n = n.into();
        self.start <= n && n <= self.end
    }

    fn show(&self, max: i64) -> String {
        if self.start == self.end {
            format!("[{}]", self.start)
        } else if self.end == max {
            format!("[{},max]", self.start)
        } else {
            format!("[{},{}]", self.start, self.end)
        }
    }
}

/// buf's messages for every range of `was` that `now` no longer covers
/// whole: `Previously present reserved range "[5,10]" on message "M" is
/// missing values: [7] were removed.`
pub(super) fn check_ranges(
    range_kind: &str,
    element_kind: &str,
    element: &str,
    was: &[Range],
    now: &[Range],
    max: i64,
) -> Vec<String> {
    let collapsed = collapse(now);
    was.iter()
        .filter_map(|r| {
            let missing = missing(*r, &collapsed);
            (!missing.is_empty()).then(|| {
                let removed = missing
                    .iter()
                    .map(|m| m.show(max))
                    .collect::<Vec<_>>()
                    .join(", ");
                format!(
                    "Previously present {range_kind} range {:?} on {element_kind} {element:?} is missing values: {removed} were removed.",
                    r.show(max)
                )
            })
        })
        .collect()
}

/// Sorted, overlapping and adjacent ranges merged.
fn collapse(ranges: &[Range]) -> Vec<Range> {
    let mut sorted = ranges.to_vec();
    sorted.sort();
    let mut out: Vec<Range> = Vec::with_capacity(sorted.len());
    for r in sorted {
        match out.last_mut() {
            Some(last) if r.start <= last.end.saturating_add(1) => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// The parts of `r` outside every (collapsed, sorted) range.
fn missing(r: Range, collapsed: &[Range]) -> Vec<Range> {
    let mut out = Vec::new();
    let mut next = r.start;
    for c in collapsed {
        if c.end < next {
            continue;
        }
        if c.start > r.end {
            break;
        }
        if c.start > next {
            out.push(Range::inclusive(next, c.start - 1));
        }
        next = c.end.saturating_add(1);
        if next > r.end {
            return out;
        }
    }
    if next <= r.end {
        out.push(Range::inclusive(next, r.end));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(start: i64, end: i64) -> Range {
        Range::inclusive(start, end)
    }

    #[test]
    fn a_range_split_or_narrowed_names_what_was_removed() {
        let was = [r(5, 10)];
        assert!(
            check_ranges("reserved", "message", "M", &was, &[r(5, 10)], MESSAGE_MAX).is_empty()
        );
        assert!(check_ranges(
            "reserved",
            "message",
            "M",
            &was,
            &[r(1, 6), r(7, 20)],
            MESSAGE_MAX
        )
        .is_empty());
        assert_eq!(
            check_ranges("reserved", "message", "M", &was, &[r(5, 6), r(8, 9)], MESSAGE_MAX),
            ["Previously present reserved range \"[5,10]\" on message \"M\" is missing values: [7], [10] were removed."]
        );
        assert_eq!(
            check_ranges("extension", "message", "M", &[r(100, MESSAGE_MAX)], &[r(100, 199)], MESSAGE_MAX),
            ["Previously present extension range \"[100,max]\" on message \"M\" is missing values: [200,max] were removed."]
        );
        assert_eq!(
            check_ranges("reserved", "enum", "E", &[r(3, 3)], &[], ENUM_MAX),
            ["Previously present reserved range \"[3]\" on enum \"E\" is missing values: [3] were removed."]
        );
    }

    #[test]
    fn half_open_ranges_end_one_before() {
        assert!(Range::half_open(7, 8).contains(7));
        assert!(!Range::half_open(7, 8).contains(8));
    }
}
