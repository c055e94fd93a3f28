//! Finding the `/lane` line of a comment: the first line that starts with
//! the word `/lane`, outside fenced code blocks and quotes.

/// The command's line (leading whitespace trimmed), if the comment has one.
pub(super) fn command_line(body: &str) -> Option<&str> {
    let mut fence: Option<Fence> = None;
    for raw in body.lines() {
        let line = raw.trim_start();
        if let Some(open) = fence {
            if open.closed_by(line) {
                fence = None;
            }
            continue;
        }
        if let Some(open) = Fence::opened_by(line) {
            fence = Some(open);
            continue;
        }
        if line.starts_with('>') {
            continue;
        }
        if is_lane(line) {
            return Some(line);
        }
    }
    None
}

/// Whether `line` starts with the word `/lane` (then its end or ASCII
/// whitespace: `/lanes` and `/lane:` are not it).
fn is_lane(line: &str) -> bool {
    line.strip_prefix("/lane")
        .is_some_and(|rest| rest.bytes().next().is_none_or(|b| b.is_ascii_whitespace()))
}

/// An open fenced code block (CommonMark): at least three backticks or
/// tildes, closed by a line of at least as many of the same.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Fence {
    mark: u8,
    len: usize,
}

impl Fence {
    fn run(line: &str, mark: u8) -> usize {
        line.bytes().take_while(|&b| b == mark).count()
    }

    /// The fence `line` opens, if it does. A backtick fence's info string
    /// holds no backtick (```` ```x``` ```` is inline code, not a fence).
    fn opened_by(line: &str) -> Option<Fence> {
        let mark = *line.as_bytes().first()?;
        if mark != b'`' && mark != b'~' {
            return None;
        }
        let len = Fence::run(line, mark);
        let info_ok = mark == b'~' || !line[len..].contains('`');
        (len >= 3 && info_ok).then_some(Fence { mark, len })
    }

    /// Whether `line` closes this fence: the same mark, at least as many,
    /// and nothing after but whitespace.
    fn closed_by(self, line: &str) -> bool {
        let len = Fence::run(line, self.mark);
        len >= self.len && line[len..].trim().is_empty()
    }
}

/// The largest index `<= at` on a character boundary of `s`.
pub(super) fn floor_char_boundary(s: &str, at: usize) -> usize {
    if at >= s.len() {
        return s.len();
    }
    (0..=at).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_lane_line_is_the_command() {
        let cases: &[(&str, Option<&str>)] = &[
            ("/lane", Some("/lane")),
            ("/lane mint 0.93.3", Some("/lane mint 0.93.3")),
            ("  \t/lane status  ", Some("/lane status  ")),
            ("LGTM\r\n/lane mint 1.2.3\r\n", Some("/lane mint 1.2.3")),
            ("/lane status\n/lane cancel", Some("/lane status")),
            ("/lanes", None),
            ("/lane:", None),
            ("/lane\u{a0}mint", None),
            ("/LANE mint", None),
            ("please /lane mint 1.2.3", None),
            ("`/lane mint 1.2.3`", None),
            ("- /lane mint 1.2.3", None),
            ("", None),
        ];
        for (body, want) in cases {
            assert_eq!(command_line(body), *want, "{body:?}");
        }
    }

    #[test]
    fn quoted_lines_are_not_commands() {
        let body = "> /lane mint 0.93.3\n>/lane cancel\n  > > /lane status\nthanks";
        assert_eq!(command_line(body), None);
        let body = "> /lane mint 0.93.3\n\n/lane status";
        assert_eq!(command_line(body), Some("/lane status"));
    }

    #[test]
    fn fenced_lines_are_not_commands() {
        let fenced = [
            "```\n/lane mint 0.93.3\n```",
            "```text\n/lane mint 0.93.3\n```",
            "~~~\n/lane mint 0.93.3\n~~~",
            "  ````\n/lane mint 0.93.3\n```\n/lane cancel\n````",
            "~~~\n/lane mint 0.93.3\n```\n/lane cancel",
            "```\nunclosed\n/lane mint 0.93.3",
            "```\n/lane mint 0.93.3\n``` not a close\n/lane cancel",
        ];
        for body in fenced {
            assert_eq!(command_line(body), None, "{body:?}");
        }
        let after = "```\n/lane mint 0.93.3\n```\n/lane status";
        assert_eq!(command_line(after), Some("/lane status"));
        // Inline code spans are not fences.
        let inline = "```x```\n/lane status";
        assert_eq!(command_line(inline), Some("/lane status"));
        // Two backticks open nothing.
        assert_eq!(command_line("``\n/lane status"), Some("/lane status"));
    }

    #[test]
    fn the_boundary_never_splits_a_character() {
        let s = "aé€😀";
        for at in 0..=s.len() + 2 {
            let i = floor_char_boundary(s, at);
            assert!(i <= at && s.is_char_boundary(i), "{at} -> {i}");
        }
        assert_eq!(floor_char_boundary(s, 2), 1);
    }
}
