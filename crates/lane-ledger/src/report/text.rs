//! Foreign text (a report's `detail`, `phase`, entry names, the pool's
//! `width_reason`, unknown values) made safe to show: no raw control byte
//! from a report reaches a terminal, a JSON consumer or a log line, and no
//! value is unbounded.

use std::fmt::Write;

/// The longest `detail` shown (the upstream's own `MintOutcome.line` cuts it
/// at 400 characters too).
pub const DETAIL_MAX_CHARS: usize = 400;

/// The longest short field shown (phase names, bases, entry names).
pub const SHORT_MAX_CHARS: usize = 120;

/// `s` with every control character (C0, DEL, C1) and every bidirectional
/// or zero-width formatting character escaped (`\n`, `\t`, `\u{1b}`), cut to
/// `max_chars` characters with the number of characters left out.
pub fn quote(s: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max_chars * 2));
    let mut chars = s.chars();
    for (shown, c) in chars.by_ref().enumerate() {
        if shown == max_chars {
            let left = 1 + chars.count();
            let _ = write!(out, "... ({left} more characters)");
            return out;
        }
        if c == '\\' {
            out.push_str("\\\\");
        } else {
            push_escaped(&mut out, c);
        }
    }
    out
}

/// Pushes `c`, escaped when it is a control or formatting character.
fn push_escaped(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if needs_escape(c) => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// `s` with control and formatting characters escaped as in [`quote`], but
/// backslashes and length kept: for lane's own sentences, which embed
/// foreign text already [`quote`]d, so a second pass changes nothing.
pub fn sanitize(s: &str) -> String {
    if !s.chars().any(needs_escape) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    out
}

fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c,
            // bidirectional embeddings, overrides and isolates
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}'
            // zero-width characters and the byte-order mark
            | '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}'
            // line and paragraph separators
            | '\u{2028}' | '\u{2029}')
}

/// A JSON value (an unknown key's) as compact text, bounded and escaped.
pub fn value_text(v: &serde_json::Value, max_chars: usize) -> String {
    match v {
        serde_json::Value::String(s) => format!("\"{}\"", quote(s, max_chars)),
        other => quote(&other.to_string(), max_chars),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_bytes_are_escaped_and_plain_text_kept() {
        assert_eq!(
            quote("AttributeError: x\n\u{1b}[31mred\u{7f}\u{9b}", 100),
            "AttributeError: x\\n\\u{1b}[31mred\\u{7f}\\u{9b}"
        );
        assert_eq!(
            quote("unet/B=2 \u{202e}gnp.exe", 100),
            "unet/B=2 \\u{202e}gnp.exe"
        );
        assert_eq!(quote("plain, ünïcode", 100), "plain, ünïcode");
    }

    #[test]
    fn sanitize_keeps_quoted_text_and_escapes_raw_controls() {
        let quoted = quote("a\nb\\c", 100);
        assert_eq!(sanitize(&quoted), quoted);
        assert_eq!(sanitize("job \u{1b}[2J"), "job \\u{1b}[2J");
    }

    #[test]
    fn long_text_is_bounded_with_what_was_cut() {
        assert_eq!(quote("abcdef", 3), "abc... (3 more characters)");
        assert_eq!(quote("abc", 3), "abc");
    }
}
