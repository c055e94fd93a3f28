//! Escaping every string that came from a report, a repository or a user
//! before it reaches output: one path per target.
//!
//! - Markdown (GitHub-flavoured, which also reads HTML): [`text`].
//! - HTML: the page is built with `maud`, which escapes every interpolated
//!   value; [`html_clean`] first replaces the control characters HTML has
//!   no escape for (see [`crate::html`]).
//! - Terminal text: [`terminal`].
//!
//! [`text`] makes a string inert inline: HTML is entity-encoded, markdown
//! punctuation is backslash-escaped, a table's `|` cannot split a cell,
//! `@mention` and `#123` cannot notify or autolink (a zero-width joiner is
//! put after the `@` or `#`), line breaks become spaces, and the string is
//! cut at [`MAX_CHARS`] characters with an ellipsis (very long lines). Use it
//! for every cell name, detail, path or message. [`label`] is the stricter
//! form for mermaid labels.

/// The longest string, in characters, kept from one input value.
pub const MAX_CHARS: usize = 200;

/// U+200D ZERO WIDTH JOINER: breaks `@user` and `#123` autolinks invisibly.
pub const ZWJ: char = '\u{200D}';

/// `s` escaped for inline markdown and HTML (table cells, list items,
/// `<summary>`), at most [`MAX_CHARS`] characters of it kept.
pub fn text(s: &str) -> String {
    text_max(s, MAX_CHARS)
}

/// As [`text`], keeping at most `max` characters of `s`.
pub fn text_max(s: &str, max: usize) -> String {
    bounded(s, max, |out, c| match c {
        '`' => out.push_str("&#96;"),
        '|' => out.push_str("&#124;"),
        '\\' | '*' | '_' | '[' | ']' | '~' => {
            out.push('\\');
            out.push(c);
        }
        '@' | '#' => {
            out.push(c);
            out.push(ZWJ);
        }
        c => html_char(out, c),
    })
}

/// `s` with the characters HTML cannot escape made harmless (line breaks
/// and tabs as spaces, other control characters replaced), at most `max`
/// characters of it kept; `maud` escapes the rest.
pub fn html_clean(s: &str, max: usize) -> String {
    bounded(s, max, |out, c| match c {
        '\r' | '\n' | '\t' => out.push(' '),
        c if c.is_control() || bidi(c) => out.push('\u{FFFD}'),
        c => out.push(c),
    })
}

/// `s` made inert for a terminal: every control character (C0, DEL, C1:
/// ESC, OSC, CR, LF, BEL) and every bidirectional or zero-width formatting
/// character is written as an escape (`\n`, `\r`, `\t`, `\u{1b}`), so no
/// foreign byte moves the cursor, sets a title or reorders a line. Other
/// text, backslashes included, is kept, so a second pass changes nothing.
pub fn terminal(s: &str) -> String {
    if !s.chars().any(|c| c.is_control() || bidi(c)) {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || bidi(c) => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// `s`, text lane composed around foreign words, made inert line by line:
/// each line as [`terminal`] makes it, the line feeds between them kept.
pub fn terminal_lines(s: &str) -> String {
    s.split('\n').map(terminal).collect::<Vec<_>>().join("\n")
}

/// `s`, a whole text about to be written on a terminal, with what can
/// move the cursor, set a title, ring, or reorder a line escaped as
/// [`terminal`] escapes it (C0 controls but line feed and tab, DEL, C1,
/// bidirectional embeddings, overrides, isolates and marks); line feeds,
/// tabs and zero-width characters (a markdown answer's mention breakers)
/// are kept. The last guard of text output: foreign words are made inert
/// where they are put in, and this catches one that was not.
pub fn terminal_output(s: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char =
        |c: char| (c.is_control() && c != '\n' && c != '\t') || (bidi(c) && !zero_width(c));
    if !s.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\r' => out.push_str("\\r"),
            c if unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// JSON text (serde_json's, which escapes C0 controls inside strings but
/// not DEL, C1 controls or bidirectional marks) with each such character
/// written as its JSON `\uXXXX` escape: the same document, read by any
/// JSON parser, and inert on a terminal. Outside strings JSON holds none.
pub fn json_output(s: &str) -> std::borrow::Cow<'_, str> {
    let unsafe_char = |c: char| (c.is_control() && !matches!(c, '\n' | '\t' | '\r')) || bidi(c);
    if !s.chars().any(unsafe_char) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if unsafe_char(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Zero-width characters and the byte-order mark: invisible, but they
/// neither move the cursor nor reorder a line.
fn zero_width(c: char) -> bool {
    matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
}

/// Bidirectional embeddings, overrides, isolates and marks, zero-width
/// characters, the byte-order mark and the line and paragraph separators.
fn bidi(c: char) -> bool {
    matches!(c,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}'
        | '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}' | '\u{2028}' | '\u{2029}')
}

/// Markdown's HTML part: entities for `&<>"'`, whitespace controls as
/// spaces, other controls and formatting characters replaced.
fn html_char(out: &mut String, c: char) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '"' => out.push_str("&quot;"),
        '\'' => out.push_str("&#39;"),
        '\r' | '\n' | '\t' => out.push(' '),
        c if c.is_control() || bidi(c) => out.push('\u{FFFD}'),
        c => out.push(c),
    }
}

/// Maps at most `max` characters of `s` through `push`; an ellipsis marks a cut.
fn bounded(s: &str, max: usize, mut push: impl FnMut(&mut String, char)) -> String {
    let mut out = String::with_capacity(s.len().min(max) + 8);
    for (i, c) in s.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        push(&mut out, c);
    }
    out
}

/// A mermaid label: only letters, digits, space and `._-/+%` are kept,
/// anything else becomes `_`, cut at 60 characters. Mermaid has no escape
/// that GitHub's renderer honours everywhere, so nothing else is let in.
pub fn label(s: &str) -> String {
    let mut out: String = s
        .chars()
        .take(60)
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, ' ' | '.' | '_' | '-' | '/' | '+' | '%') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.chars().count() > 60 {
        out.push_str("...");
    }
    out
}

/// A URL for a markdown link: only `https://` and `http://` URLs are kept,
/// with characters that could end the link or open HTML percent-encoded.
pub fn url(s: &str) -> Option<String> {
    let lower = s.to_ascii_lowercase();
    if !(lower.starts_with("https://") || lower.starts_with("http://")) {
        return None;
    }
    let mut out = String::with_capacity(s.len());
    for c in s.chars().take(2000) {
        match c {
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '"' => out.push_str("%22"),
            '\'' => out.push_str("%27"),
            ' ' => out.push_str("%20"),
            '`' => out.push_str("%60"),
            '|' => out.push_str("%7C"),
            '@' => out.push_str("%40"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_output_is_the_same_document_and_inert() {
        let doc = serde_json::json!({"phase": "a\u{202e}b\u{7f}c\u{9b}d", "n": 1});
        let text = serde_json::to_string_pretty(&doc).unwrap();
        let inert = json_output(&text);
        assert!(
            !inert
                .chars()
                .any(|c| c == '\u{202e}' || c == '\u{7f}' || c == '\u{9b}'),
            "{inert}"
        );
        assert!(inert.contains("\\u202e"), "{inert}");
        let back: serde_json::Value = serde_json::from_str(&inert).unwrap();
        assert_eq!(back, doc);
    }

    #[test]
    fn terminal_lines_keeps_the_line_breaks_and_nothing_else() {
        let s = "picks:\n  #1 \u{1b}]0;owned\u{7}fix \u{202e}gnp.exe\tx\n";
        assert_eq!(
            terminal_lines(s),
            "picks:\n  #1 \\u{1b}]0;owned\\u{7}fix \\u{202e}gnp.exe\\tx\n"
        );
        assert_eq!(terminal_lines(&terminal_lines(s)), terminal_lines(s));
    }

    #[test]
    fn terminal_output_escapes_what_moves_the_terminal_and_keeps_layout() {
        let s = "a\tb\n@\u{200d}x \u{1b}[2J\r\u{9b}\u{7f}\u{202e}y\n";
        assert_eq!(
            terminal_output(s),
            "a\tb\n@\u{200d}x \\u{1b}[2J\\r\\u{9b}\\u{7f}\\u{202e}y\n"
        );
        assert!(matches!(
            terminal_output("plain\n"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn html_is_inert() {
        let s = text("<script>alert('x')</script>");
        assert!(!s.contains('<') && !s.contains('>'));
        assert_eq!(s, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    }

    #[test]
    fn pipes_backticks_and_breaks() {
        let s = text("a|b`c`\nd");
        assert!(!s.contains('|') && !s.contains('`') && !s.contains('\n'));
    }

    #[test]
    fn mentions_and_references_do_not_link() {
        let s = text("@octocat fixes #123 and GH-1");
        assert!(!s.contains("@octocat"));
        assert!(!s.contains("#123"));
        assert!(s.contains(&format!("@{ZWJ}octocat")));
        assert!(s.contains(&format!("#{ZWJ}123")));
    }

    #[test]
    fn long_lines_are_cut() {
        let long = "x".repeat(10_000);
        let s = text(&long);
        assert_eq!(s.chars().count(), MAX_CHARS + 1);
        assert!(s.ends_with('…'));
    }

    #[test]
    fn terminal_text_carries_no_control_byte() {
        assert_eq!(
            terminal("a\u{1b}[31mb\u{1b}]0;title\u{7}\r\nc"),
            "a\\u{1b}[31mb\\u{1b}]0;title\\u{7}\\r\\nc"
        );
        assert_eq!(terminal("x\u{202e}y\u{9b}"), "x\\u{202e}y\\u{9b}");
        assert_eq!(terminal("plain, ünïcode \\ kept"), "plain, ünïcode \\ kept");
        let once = terminal("a\nb");
        assert_eq!(terminal(&once), once);
    }

    #[test]
    fn html_clean_leaves_no_control_character() {
        let s = html_clean("a\u{1b}b\nc\u{202e}", 100);
        assert_eq!(s, "a\u{FFFD}b c\u{FFFD}");
        assert!(html_clean(&"x".repeat(300), 10).ends_with('…'));
    }

    #[test]
    fn labels_and_urls() {
        assert_eq!(label("a\"b:c;d"), "a_b_c_d");
        assert_eq!(url("javascript:alert(1)"), None);
        assert_eq!(
            url("https://x.invalid/a b)").as_deref(),
            Some("https://x.invalid/a%20b%29")
        );
    }
}
