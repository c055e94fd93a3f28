//! A minimal JSON walker for the two trace records lane reads, so that the
//! reader stays near disk speed. `compilation_metrics` lines are ~30 KB of
//! which lane needs a dozen numbers; most of the rest is two JSON documents
//! escaped into strings (`inductor_config`, `dynamo_config`), which a
//! general parser walks escape by escape. This walker skips a string by
//! jumping from quote to quote and checking the backslashes before each.
//!
//! It is a fast path only: whenever it meets something it does not handle
//! (an escape inside a key, a string field with escapes), it returns `None`
//! and the caller falls back to `serde_json`, which also produces the error
//! message for a malformed record.

/// A position in a JSON text.
pub struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
    /// Newlines passed as whitespace.
    newlines: usize,
    /// True once a newline was followed by something other than a tab (a
    /// trace payload line always starts with one).
    untabbed_newline: bool,
}

/// A scalar value as the walker reads it.
pub enum Scalar<'a> {
    /// `null`.
    Null,
    /// A number.
    Number(f64),
    /// A string without escapes (raw bytes between the quotes).
    Str(&'a [u8]),
    /// Anything else (bool, object, array, string with escapes): skipped.
    Other,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `s`.
    pub fn new(s: &'a [u8]) -> Self {
        Cursor {
            s,
            i: 0,
            newlines: 0,
            untabbed_newline: false,
        }
    }

    fn ws(&mut self) {
        while let Some(&b) = self.s.get(self.i) {
            match b {
                b' ' | b'\t' | b'\r' => {}
                b'\n' => {
                    self.newlines += 1;
                    if self.s.get(self.i + 1) != Some(&b'\t') {
                        self.untabbed_newline = true;
                    }
                }
                _ => return,
            }
            self.i += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.ws();
        self.s.get(self.i).copied()
    }

    /// Consumes `b` (after whitespace), or `None` when it is not next.
    pub fn eat(&mut self, b: u8) -> Option<()> {
        (self.peek()? == b).then(|| self.i += 1)
    }

    fn string_end(&self, from: usize) -> Option<(usize, bool)> {
        string_end(self.s, from)
    }

    /// An object key without escapes, and the `:` after it.
    pub fn key(&mut self) -> Option<&'a [u8]> {
        self.eat(b'"')?;
        let start = self.i;
        let (end, escaped) = self.string_end(start)?;
        if escaped {
            return None;
        }
        let key = &self.s[start..end];
        self.i = end + 1;
        self.eat(b':')?;
        Some(key)
    }

    /// After a member: `Some(true)` at `,`, `Some(false)` at the closing `}`.
    pub fn next_member(&mut self) -> Option<bool> {
        match self.peek()? {
            b',' => {
                self.i += 1;
                Some(true)
            }
            b'}' => {
                self.i += 1;
                Some(false)
            }
            _ => None,
        }
    }

    /// Reads a value, skipping nested ones.
    pub fn scalar(&mut self) -> Option<Scalar<'a>> {
        match self.peek()? {
            b'"' => {
                let start = self.i + 1;
                let (end, escaped) = self.string_end(start)?;
                self.i = end + 1;
                let raw = &self.s[start..end];
                Some(if escaped {
                    Scalar::Other
                } else {
                    Scalar::Str(raw)
                })
            }
            b'{' | b'[' => {
                self.skip_nested()?;
                Some(Scalar::Other)
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len()
                    && !matches!(
                        self.s[self.i],
                        b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t'
                    )
                {
                    self.i += 1;
                }
                let token = &self.s[start..self.i];
                match token {
                    b"null" => Some(Scalar::Null),
                    b"true" | b"false" => Some(Scalar::Other),
                    _ => {
                        // JSON numbers only: `NaN`/`Infinity` are not JSON.
                        let ok = !token.is_empty()
                            && token.iter().all(|b| {
                                b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E')
                            });
                        if !ok {
                            return None;
                        }
                        std::str::from_utf8(token)
                            .ok()?
                            .parse::<f64>()
                            .ok()
                            .map(Scalar::Number)
                    }
                }
            }
        }
    }

    fn skip_nested(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            let b = *self.s.get(self.i)?;
            match b {
                b'"' => {
                    let (end, _) = self.string_end(self.i + 1)?;
                    self.i = end + 1;
                    continue;
                }
                b'\n' => {
                    self.newlines += 1;
                    if self.s.get(self.i + 1) != Some(&b'\t') {
                        self.untabbed_newline = true;
                    }
                }
                b'{' | b'[' => depth += 1,
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        self.i += 1;
                        return Some(());
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
    }
}

/// Index of the quote closing the string whose content starts at
/// `from`, and whether the string holds an escape.
///
/// Escape-dense strings (JSON documents escaped into a string) put a
/// `\"` every dozen bytes, where calling `memchr` per quote costs more
/// than looking at the bytes: eight bytes at a time are checked for a
/// quote or a backslash (SWAR), and only words holding one are walked.
pub fn string_end(s: &[u8], from: usize) -> Option<(usize, bool)> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has = |w: u64, b: u8| {
        let x = w ^ (ONES * u64::from(b));
        x.wrapping_sub(ONES) & !x & HIGHS
    };
    let mut i = from;
    let mut escaped = false;
    loop {
        match s.get(i..i + 8) {
            Some(chunk) => {
                let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
                // The lowest flagged byte is exact (false flags can only
                // sit above a true match).
                let m = has(w, b'"') | has(w, b'\\') | has(w, b'\n');
                if m == 0 {
                    i += 8;
                    continue;
                }
                i += (m.trailing_zeros() / 8) as usize;
            }
            None => {
                // Fewer than eight bytes left: walk them.
                let k = s[i.min(s.len())..]
                    .iter()
                    .position(|&b| b == b'"' || b == b'\\' || b == b'\n')?;
                i += k;
            }
        }
        match s[i] {
            b'"' => return Some((i, escaped)),
            // A raw newline cannot be inside a JSON string; refusing it
            // here keeps every newline visible to the line checks.
            b'\n' => return None,
            _ => {}
        }
        // A backslash escapes the next byte (`\"`, `\\`, `\u`...).
        escaped = true;
        i += 2;
    }
}

/// A chromium event as [`chromium_event`] reads it.
pub struct RawEvent<'a> {
    /// `name`, raw.
    pub name: &'a [u8],
    /// `ph`, the phase letter, raw.
    pub ph: &'a [u8],
    /// `ts`, microseconds.
    pub ts: f64,
    /// `dur`, microseconds.
    pub dur: Option<f64>,
    /// `pid`.
    pub pid: Option<u64>,
    /// `tid`.
    pub tid: Option<u64>,
    /// Offset just past the object's closing brace.
    pub end: usize,
    /// Newlines inside the object (and before it).
    pub newlines: usize,
    /// False when a newline was followed by something other than a tab.
    pub tabbed: bool,
}

/// Reads one chromium event payload (`{"name": ..., "ts": ..., "ph": ...,
/// ...}`, pretty-printed over tab-prefixed lines) in one tight pass: the
/// hottest path of a trace, one event every few kilobytes. `None` for
/// anything unusual (escapes in keys or names, non-JSON numbers, a missing
/// field), which the caller hands to `serde_json`.
pub fn chromium_event(p: &[u8]) -> Option<RawEvent<'_>> {
    let n = p.len();
    let mut i = 0;
    let mut newlines = 0usize;
    let mut tabbed = true;
    macro_rules! ws {
        () => {
            while i < n {
                match p[i] {
                    b' ' | b'\t' | b'\r' => i += 1,
                    b'\n' => {
                        newlines += 1;
                        if p.get(i + 1) != Some(&b'\t') {
                            tabbed = false;
                        }
                        i += 1;
                    }
                    _ => break,
                }
            }
        };
    }
    ws!();
    if p.get(i) != Some(&b'{') {
        return None;
    }
    i += 1;
    let (mut name, mut ph, mut ts, mut dur, mut pid, mut tid) =
        (None, None, None, None, None, None);
    loop {
        ws!();
        if p.get(i) != Some(&b'"') {
            return None;
        }
        let key_start = i + 1;
        let mut j = key_start;
        loop {
            match *p.get(j)? {
                b'"' => break,
                b'\\' | b'\n' => return None,
                _ => j += 1,
            }
        }
        let key = &p[key_start..j];
        i = j + 1;
        ws!();
        if p.get(i) != Some(&b':') {
            return None;
        }
        i += 1;
        ws!();
        match key {
            b"name" | b"ph" | b"cat" => {
                if p.get(i) != Some(&b'"') {
                    return None;
                }
                let (end, escaped) = string_end(p, i + 1)?;
                if escaped {
                    return None;
                }
                let value = &p[i + 1..end];
                i = end + 1;
                match key {
                    b"name" => name = Some(value),
                    b"ph" => ph = Some(value),
                    _ => {}
                }
            }
            b"ts" | b"dur" | b"pid" | b"tid" => {
                let start = i;
                while i < n
                    && matches!(
                        p[i],
                        b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E' | b'n' | b'u' | b'l'
                    )
                {
                    i += 1;
                }
                let token = &p[start..i];
                let value = if token == b"null" {
                    None
                } else {
                    Some(number(token)?)
                };
                match key {
                    b"ts" => ts = value,
                    b"dur" => dur = value,
                    b"pid" => {
                        pid = match value {
                            Some(v) => Some(id(v)?),
                            None => None,
                        }
                    }
                    _ => {
                        tid = match value {
                            Some(v) => Some(id(v)?),
                            None => None,
                        }
                    }
                }
            }
            _ => {
                // Any other value (`args` and whatever a torch adds): skip
                // it, still watching its newlines.
                let mut c = Cursor {
                    s: p,
                    i,
                    newlines: 0,
                    untabbed_newline: false,
                };
                c.scalar()?;
                i = c.i;
                newlines += c.newlines;
                tabbed &= !c.untabbed_newline;
            }
        }
        ws!();
        match p.get(i)? {
            b',' => i += 1,
            b'}' => {
                i += 1;
                break;
            }
            _ => return None,
        }
    }
    Some(RawEvent {
        name: name?,
        ph: ph?,
        ts: ts?,
        dur,
        pid,
        tid,
        end: i,
        newlines,
        tabbed,
    })
}

/// [`chromium_event`] for the exact layout torch writes (keys in its order,
/// one per tab-prefixed line, `args` skipped as a whole):
/// literal compares instead of a walk, several times faster on the hottest
/// path. Any deviation returns `None` and the general walker decides.
pub fn chromium_event_layout(p: &[u8]) -> Option<RawEvent<'_>> {
    let mut i = 0;
    macro_rules! lit {
        ($s:expr) => {{
            let s: &[u8] = $s;
            if p.get(i..i + s.len())? != s {
                return None;
            }
            i += s.len();
        }};
    }
    // A string value: no escape, no newline.
    macro_rules! text {
        () => {{
            let start = i;
            loop {
                match *p.get(i)? {
                    b'"' => break,
                    b'\\' | b'\n' => return None,
                    _ => i += 1,
                }
            }
            &p[start..i]
        }};
    }
    // A number token (validated by `number`).
    macro_rules! token {
        () => {{
            let start = i;
            while p
                .get(i)
                .is_some_and(|b| matches!(b, b'0'..=b'9' | b'.' | b'-' | b'+' | b'e' | b'E'))
            {
                i += 1;
            }
            number(&p[start..i])?
        }};
    }
    lit!(b"\t{\n\t\"name\": \"");
    let name = text!();
    lit!(b"\",\n\t\"ts\": ");
    let ts = match timestamp(p, i) {
        Some((v, next)) => {
            i = next;
            v
        }
        None => token!(),
    };
    lit!(b",\n\t\"args\": ");
    if p.get(i) != Some(&b'{') {
        return None;
    }
    let mut args = Cursor {
        s: p,
        i,
        newlines: 0,
        untabbed_newline: false,
    };
    args.skip_nested()?;
    if args.untabbed_newline {
        return None;
    }
    i = args.i;
    lit!(b",\n\t\"ph\": \"");
    let ph = text!();
    lit!(b"\",\n\t\"cat\": \"");
    let _ = text!();
    lit!(b"\",\n\t\"tid\": ");
    let tid = id(token!())?;
    lit!(b",\n\t\"pid\": ");
    let pid = id(token!())?;
    lit!(b"\n\t}");
    // Every newline sits in a literal above (eight, each followed by a tab)
    // or in `args` (checked while skipping it).
    let newlines = 8 + args.newlines;
    Some(RawEvent {
        name,
        ph,
        ts,
        dur: None,
        pid: Some(pid),
        tid: Some(tid),
        end: i,
        newlines,
        tabbed: true,
    })
}

/// A timestamp `I.F` at `p[i..]` (see [`microseconds`]) parsed in one pass:
/// the value and the offset after it. `None` for any other shape.
fn timestamp(p: &[u8], mut i: usize) -> Option<(f64, usize)> {
    let start = i;
    let mut int: u64 = 0;
    while let Some(d @ b'0'..=b'9') = p.get(i).copied() {
        int = int.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
        i += 1;
    }
    if i == start || p.get(i) != Some(&b'.') || int >= 1 << 53 {
        return None;
    }
    i += 1;
    let frac_start = i;
    let mut frac: u64 = 0;
    while let Some(d @ b'0'..=b'9') = p.get(i).copied() {
        frac = frac * 10 + u64::from(d - b'0');
        i += 1;
        if i - frac_start > 3 {
            return None;
        }
    }
    let digits = i - frac_start;
    if digits == 0 || matches!(p.get(i), Some(b'e' | b'E')) {
        return None;
    }
    let scale = [1.0, 10.0, 100.0, 1000.0][digits];
    Some((int as f64 + frac as f64 / scale, i))
}

/// A JSON number (never `NaN`/`Infinity`). Small integers, the usual case
/// for ids, skip the float parser.
fn number(token: &[u8]) -> Option<f64> {
    if !token.is_empty() && token.len() <= 15 && token.iter().all(u8::is_ascii_digit) {
        let v = token
            .iter()
            .fold(0u64, |acc, d| acc * 10 + u64::from(d - b'0'));
        // Exact: below 10^15 < 2^53.
        return Some(v as f64);
    }
    if let Some(v) = microseconds(token) {
        return Some(v);
    }
    let ok = !token.is_empty()
        && token
            .iter()
            .all(|b| b.is_ascii_digit() || matches!(b, b'-' | b'+' | b'.' | b'e' | b'E'));
    if !ok {
        return None;
    }
    std::str::from_utf8(token).ok()?.parse::<f64>().ok()
}

/// The common shape of a chromium timestamp, `I.F` with `I < 2^53` and at
/// most 3 fraction digits, converted as `I + F / 10^k`: `I` is exact
/// below 2^53, the fraction's rounding error (< 2^-60) cannot move the sum
/// across a rounding boundary of a number with at most three decimals, so
/// the result equals the correctly rounded parse (checked against
/// `str::parse` in the tests).
fn microseconds(token: &[u8]) -> Option<f64> {
    let dot = token.iter().position(|&b| b == b'.')?;
    let (int, frac) = (&token[..dot], &token[dot + 1..]);
    if int.is_empty() || int.len() > 16 || frac.is_empty() || frac.len() > 3 {
        return None;
    }
    if !int.iter().chain(frac).all(u8::is_ascii_digit) {
        return None;
    }
    let i = int
        .iter()
        .fold(0u64, |acc, d| acc * 10 + u64::from(d - b'0'));
    if i >= 1 << 53 {
        return None;
    }
    let f = frac
        .iter()
        .fold(0u64, |acc, d| acc * 10 + u64::from(d - b'0'));
    let scale = [1.0, 10.0, 100.0, 1000.0][frac.len()];
    Some(i as f64 + f as f64 / scale)
}

/// A process or thread id: a non-negative integer.
fn id(v: f64) -> Option<u64> {
    (v >= 0.0 && v.fract() == 0.0 && v < 9.0e15).then_some(v as u64)
}

/// Walks the members of the object at the cursor, calling `member` with
/// each key and its value. `None` when the walker cannot handle the text.
pub fn for_each_member<'a>(
    c: &mut Cursor<'a>,
    mut member: impl FnMut(&'a [u8], Scalar<'a>),
) -> Option<()> {
    c.eat(b'{')?;
    if c.peek()? == b'}' {
        c.i += 1;
        return Some(());
    }
    loop {
        let key = c.key()?;
        let value = c.scalar()?;
        member(key, value);
        if !c.next_member()? {
            return Some(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skips_escaped_json_inside_strings() {
        let text = br#"{"a": "{\"x\": \"y\\\\\", \"z\": [1]}", "b": 2.5, "c": {"d": [1, {"e": "}"}]}, "f": null, "g": "plain"}"#;
        let mut seen = Vec::new();
        for_each_member(&mut Cursor::new(text), |k, v| {
            let v = match v {
                Scalar::Null => "null".to_owned(),
                Scalar::Number(n) => n.to_string(),
                Scalar::Str(s) => String::from_utf8_lossy(s).into_owned(),
                Scalar::Other => "other".to_owned(),
            };
            seen.push(format!("{}={v}", String::from_utf8_lossy(k)));
        })
        .unwrap();
        assert_eq!(seen, ["a=other", "b=2.5", "c=other", "f=null", "g=plain"]);
    }

    #[test]
    fn timestamp_fast_path_matches_the_float_parser() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let int = x % (1 << 53);
            let digits = (x >> 50) % 4;
            let frac = (x >> 20) % [1, 10, 100, 1000][digits as usize];
            let text = if digits == 0 {
                format!("{int}.0")
            } else {
                format!("{int}.{frac:0width$}", width = digits as usize)
            };
            assert_eq!(number(text.as_bytes()), text.parse::<f64>().ok(), "{text}");
            if let Some((v, end)) = timestamp(text.as_bytes(), 0) {
                assert_eq!(Some(v), text.parse::<f64>().ok(), "{text}");
                assert_eq!(end, text.len());
            }
        }
        for t in [
            "1796012454462382.5",
            "0.125",
            "999999999999999.999",
            "12.375",
        ] {
            assert_eq!(number(t.as_bytes()), t.parse::<f64>().ok(), "{t}");
        }
    }

    #[test]
    fn layout_fast_path_agrees_with_the_walker_on_the_real_trace() {
        let dir = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/data/h200-torch2.11/trace"
        );
        let path = std::fs::read_dir(dir)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let log = std::fs::read(path).unwrap();
        let mut checked = 0;
        let mut at = 0;
        while let Some(k) = memchr::memmem::find(&log[at..], b"{\"chromium_event\"") {
            let start = at + k + memchr::memchr(b'\n', &log[at + k..]).unwrap() + 1;
            let walked = chromium_event(&log[start..]).unwrap();
            if let Some(fast) = chromium_event_layout(&log[start..]) {
                assert_eq!(
                    (
                        fast.name,
                        fast.ph,
                        fast.ts,
                        fast.pid,
                        fast.tid,
                        fast.end,
                        fast.newlines,
                        fast.tabbed
                    ),
                    (
                        walked.name,
                        walked.ph,
                        walked.ts,
                        walked.pid,
                        walked.tid,
                        walked.end,
                        walked.newlines,
                        walked.tabbed
                    )
                );
                checked += 1;
            }
            at = start;
        }
        // All but the odd event with an extra key take the fast path.
        assert!(checked >= 160, "{checked}");
        // A reordered payload is left to the walker.
        let reordered = b"\t{\n\t\"ts\": 1.5,\n\t\"name\": \"a\",\n\t\"ph\": \"B\"\n\t}\n";
        assert!(chromium_event_layout(reordered).is_none());
        assert!(chromium_event(reordered).is_some());
    }

    #[test]
    fn refuses_what_it_cannot_read() {
        assert!(for_each_member(&mut Cursor::new(br#"{"a": NaN}"#), |_, _| {}).is_none());
        assert!(for_each_member(&mut Cursor::new(br#"{"a": 1"#), |_, _| {}).is_none());
        assert!(for_each_member(&mut Cursor::new(br#"{"a\"b": 1}"#), |_, _| {}).is_none());
        assert!(for_each_member(&mut Cursor::new(br#"{"a": "unterminated}"#), |_, _| {}).is_none());
    }
}
