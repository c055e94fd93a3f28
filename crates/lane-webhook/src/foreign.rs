//! Text a webhook's sender wrote: a comment body, a login, a branch name,
//! a word of a command lane did not understand. Anyone who can comment on
//! a pull request writes it, so it is kept as data: [`Foreign`] has no
//! `Display`, and nothing in this crate puts it into a message.

use std::fmt;

/// How many characters of a [`Foreign`] text `Debug` shows.
const DEBUG_CHARS: usize = 64;

/// Text a webhook's sender wrote, kept as written.
///
/// It has no `Display` on purpose: where it is shown (a PR comment, a log
/// line, a terminal) it goes through that target's escaping, reached by
/// [`Foreign::as_raw`]. `Debug` shows at most 64 characters, escaped
/// (`str::escape_debug`), and the length, for logs and test failures.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Foreign(String);

impl Foreign {
    /// Wraps text a sender wrote.
    pub fn new(text: impl Into<String>) -> Self {
        Foreign(text.into())
    }

    /// The text as written (raw: escape it where it is shown).
    pub fn as_raw(&self) -> &str {
        &self.0
    }

    /// The text as written (raw: escape it where it is shown).
    pub fn into_raw(self) -> String {
        self.0
    }

    /// Its length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether it is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Foreign {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Foreign(\"")?;
        for c in self.0.chars().take(DEBUG_CHARS) {
            write!(f, "{}", c.escape_debug())?;
        }
        f.write_str("\"")?;
        if self.0.chars().nth(DEBUG_CHARS).is_some() {
            write!(f, "…, {} bytes", self.0.len())?;
        }
        f.write_str(")")
    }
}

#[cfg(test)]
mod tests {
    use super::Foreign;

    #[test]
    fn debug_escapes_and_bounds_the_text() {
        let f = Foreign::new("a\u{1b}[31m\n\"b\"");
        assert_eq!(format!("{f:?}"), r#"Foreign("a\u{1b}[31m\n\"b\"")"#);
        let long = Foreign::new("x".repeat(1000));
        let shown = format!("{long:?}");
        assert!(shown.len() < 100, "{shown}");
        assert!(shown.ends_with("…, 1000 bytes)"), "{shown}");
        assert_eq!(long.as_raw().len(), 1000);
    }
}
