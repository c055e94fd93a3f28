//! Line-level scanning of a TORCH_TRACE: where a record line's JSON
//! starts, its kind, and how to pass runs of payload lines without visiting
//! each one.

/// Where a run of payload lines ends.
pub(super) struct PayloadRun {
    /// Newlines passed (each ends one payload line).
    pub(super) newlines: u64,
    /// Offset of the first line that does not start with a tab, when it
    /// starts inside the slice.
    pub(super) next_line: Option<usize>,
    /// True when the slice ends right after a newline (the next line starts
    /// in the next buffer).
    pub(super) ended_on_newline: bool,
}

/// Window of [`skip_payload_lines`]'s fast path.
const SKIP_WINDOW: usize = 2048;

/// Skips payload lines from inside one, up to the first newline followed by
/// a byte other than a tab. Windows where every newline is followed by a tab
/// are passed by counting (which the compiler vectorises) instead of
/// visiting each line; only the window holding the end is scanned line by line.
pub(super) fn skip_payload_lines(hay: &[u8]) -> PayloadRun {
    let mut newlines = 0;
    // Short runs (a chromium event is a dozen short lines) end before a
    // window would pay off: walk the first lines one by one.
    let mut i = 0;
    for j in memchr::memchr_iter(b'\n', hay) {
        newlines += 1;
        match hay.get(j + 1) {
            Some(b'\t') => {}
            Some(_) => {
                return PayloadRun {
                    newlines,
                    next_line: Some(j + 1),
                    ended_on_newline: false,
                }
            }
            None => {
                return PayloadRun {
                    newlines,
                    next_line: None,
                    ended_on_newline: true,
                }
            }
        }
        i = j + 1;
        if i >= SKIP_WINDOW / 2 {
            break;
        }
    }
    if i == 0 {
        // No newline at all: the run goes on past this slice.
        return PayloadRun {
            newlines,
            next_line: None,
            ended_on_newline: false,
        };
    }
    while i + SKIP_WINDOW < hay.len() {
        let (nl, followed_by_tab) = count_newlines(&hay[i..=i + SKIP_WINDOW]);
        if nl != followed_by_tab {
            break;
        }
        newlines += nl;
        i += SKIP_WINDOW;
    }
    for j in memchr::memchr_iter(b'\n', &hay[i..]) {
        let k = i + j;
        newlines += 1;
        match hay.get(k + 1) {
            Some(b'\t') => continue,
            Some(_) => {
                return PayloadRun {
                    newlines,
                    next_line: Some(k + 1),
                    ended_on_newline: false,
                }
            }
            None => {
                return PayloadRun {
                    newlines,
                    next_line: None,
                    ended_on_newline: true,
                }
            }
        }
    }
    PayloadRun {
        newlines,
        next_line: None,
        ended_on_newline: false,
    }
}

/// Over the byte pairs `(h[i], h[i + 1])`: how many `h[i]` are newlines, and
/// how many of those are followed by a tab. Written as byte-lane counters so
/// that it compiles to vector compares (no `unsafe`, no intrinsics).
pub(super) fn count_newlines(h: &[u8]) -> (u64, u64) {
    const LANES: usize = 32;
    if h.len() < 2 {
        return (0, 0);
    }
    let (a, b) = (&h[..h.len() - 1], &h[1..]);
    let (mut nl, mut pairs) = (0u64, 0u64);
    // u8 lanes overflow after 255 additions.
    for (ba, bb) in a.chunks(255 * LANES).zip(b.chunks(255 * LANES)) {
        let mut acc_nl = [0u8; LANES];
        let mut acc_pair = [0u8; LANES];
        let mut ia = ba.chunks_exact(LANES);
        let mut ib = bb.chunks_exact(LANES);
        for (ca, cb) in (&mut ia).zip(&mut ib) {
            for k in 0..LANES {
                let n = u8::from(ca[k] == b'\n');
                let t = u8::from(cb[k] == b'\t');
                acc_nl[k] = acc_nl[k].wrapping_add(n);
                acc_pair[k] = acc_pair[k].wrapping_add(n & t);
            }
        }
        nl += acc_nl.iter().map(|&x| u64::from(x)).sum::<u64>();
        pairs += acc_pair.iter().map(|&x| u64::from(x)).sum::<u64>();
        for (x, y) in ia.remainder().iter().zip(ib.remainder()) {
            nl += u64::from(*x == b'\n');
            pairs += u64::from(*x == b'\n' && *y == b'\t');
        }
    }
    (nl, pairs)
}

/// The JSON part of a structured-trace line, when the line has the glog
/// prefix `[VIWEF]MMDD HH:MM:SS.uuuuuu <pid> <file>:<line>] {`.
pub(super) fn record_json(line: &[u8]) -> Option<&[u8]> {
    if line.len() < 8 || !matches!(line[0], b'V' | b'I' | b'W' | b'E' | b'F') {
        return None;
    }
    if !line[1..5].iter().all(u8::is_ascii_digit) || line[5] != b' ' {
        return None;
    }
    let close = memchr::memchr(b']', line)?;
    let rest = line.get(close + 1..)?;
    let rest = rest.strip_prefix(b" ")?;
    rest.first().is_some_and(|&b| b == b'{').then_some(rest)
}

/// The first key of a JSON object, cheaply (`{"kind": ...` -> `kind`).
pub(super) fn first_key(json: &[u8]) -> Option<&[u8]> {
    let rest = json.strip_prefix(b"{\"")?;
    let end = memchr::memchr(b'"', rest)?;
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn newline_counting_matches_a_naive_count() {
        let mut bytes = Vec::new();
        let mut x: u32 = 12345;
        for _ in 0..20_000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            bytes.push([b'\n', b'\t', b'a', b'\n', b'\t'][(x >> 16) as usize % 5]);
        }
        for len in [0, 1, 2, 31, 32, 33, 255 * 32 + 5, bytes.len()] {
            let h = &bytes[..len];
            let naive_nl = h
                .iter()
                .take(len.saturating_sub(1))
                .filter(|&&b| b == b'\n')
                .count() as u64;
            let naive_pairs = h.windows(2).filter(|w| w == b"\n\t").count() as u64;
            assert_eq!(count_newlines(h), (naive_nl, naive_pairs), "len {len}");
        }
    }

    #[test]
    fn payload_runs_stop_at_the_first_line_without_a_tab() {
        let mut text = String::new();
        for _ in 0..3000 {
            text.push_str("\tpayload line of some length\n");
        }
        text.push_str("garbage\n\tmore\n");
        let run = skip_payload_lines(text.as_bytes());
        assert_eq!(run.newlines, 3000);
        assert_eq!(&text.as_bytes()[run.next_line.unwrap()..][..7], b"garbage");
        let run = skip_payload_lines(b"\tabc\n\tdef\n");
        assert_eq!(
            (run.newlines, run.next_line, run.ended_on_newline),
            (2, None, true)
        );
        let run = skip_payload_lines(b"\tabc\n\tde");
        assert_eq!(
            (run.newlines, run.next_line, run.ended_on_newline),
            (1, None, false)
        );
    }
}
