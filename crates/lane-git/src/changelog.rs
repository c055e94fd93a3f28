//! Assembling the release's changelog section from fragments. The changelog
//! is assembled, never edited by hand: each fix adds `changelog.d/<issue>.md`
//! and the cut collapses the picked fixes' fragments, ordered by issue
//! number, into a new section above the previous releases.

/// One fragment used for the section.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Fragment {
    /// The issue number it belongs to.
    pub issue: u64,
    /// Its path in the repository.
    pub path: String,
    /// Its text.
    pub text: String,
}

/// Inserts the section for `version` into `changelog` and returns the new
/// text. The section goes above the first existing release section (`## `
/// followed by a digit), i.e. below `## Unreleased`; fragments are ordered by
/// issue number.
pub fn assemble(
    changelog: &str,
    version: &str,
    date: &str,
    title: Option<&str>,
    fragments: &[Fragment],
) -> Result<String, String> {
    let heading_prefix = format!("## {version} ");
    if changelog
        .lines()
        .any(|l| l.starts_with(&heading_prefix) || l.trim_end() == format!("## {version}"))
    {
        return Err(format!("already has a section for {version}"));
    }
    let mut sorted: Vec<&Fragment> = fragments.iter().collect();
    sorted.sort_by_key(|f| f.issue);
    let mut section = match title {
        Some(t) if !t.trim().is_empty() => format!("## {version} ({date}) — {}\n\n", t.trim()),
        _ => format!("## {version} ({date})\n\n"),
    };
    for f in &sorted {
        let body = f.text.trim();
        if body.starts_with("- ") || body.starts_with("* ") {
            section.push_str(body);
        } else {
            section.push_str("- ");
            section.push_str(body);
        }
        section.push('\n');
    }
    if sorted.is_empty() {
        section.push_str("- No changelog fragments were picked.\n");
    }
    section.push('\n');

    // Insert before the first release heading; else at the end.
    let mut at = None;
    let mut offset = 0;
    for line in changelog.split_inclusive('\n') {
        if line.starts_with("## ") && line[3..].chars().next().is_some_and(|c| c.is_ascii_digit()) {
            at = Some(offset);
            break;
        }
        offset += line.len();
    }
    let mut out = String::with_capacity(changelog.len() + section.len() + 1);
    match at {
        Some(i) => {
            out.push_str(&changelog[..i]);
            out.push_str(&section);
            out.push_str(&changelog[i..]);
        }
        None => {
            out.push_str(changelog);
            if !changelog.ends_with('\n') && !changelog.is_empty() {
                out.push('\n');
            }
            if !changelog.is_empty() {
                out.push('\n');
            }
            out.push_str(section.trim_end());
            out.push('\n');
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "# Changelog\n\n## Unreleased\n\nFragments live in `changelog.d/`.\n\n## 0.93.2 (2026-07-20) — fixes\n\n- pgw#900: x\n";

    fn frag(issue: u64, text: &str) -> Fragment {
        Fragment {
            issue,
            path: format!("changelog.d/pgw{issue}.md"),
            text: text.to_owned(),
        }
    }

    #[test]
    fn section_goes_below_unreleased_ordered_by_issue() {
        let out = assemble(
            LOG,
            "0.93.3",
            "2026-11-30",
            Some("honest mint phases"),
            &[frag(992, "- pgw#992: b\n"), frag(989, "pgw#989: a")],
        )
        .unwrap();
        let expected = "# Changelog\n\n## Unreleased\n\nFragments live in `changelog.d/`.\n\n## 0.93.3 (2026-11-30) — honest mint phases\n\n- pgw#989: a\n- pgw#992: b\n\n## 0.93.2 (2026-07-20) — fixes\n\n- pgw#900: x\n";
        assert_eq!(out, expected);
    }

    #[test]
    fn a_second_section_for_the_same_version_is_refused() {
        let e = assemble(LOG, "0.93.2", "d", None, &[]).unwrap_err();
        assert!(e.contains("already has a section"));
    }

    #[test]
    fn a_changelog_without_releases_gets_the_section_at_the_end() {
        let out = assemble("# Changelog\n", "1.0.0", "d", None, &[frag(1, "- a")]).unwrap();
        assert_eq!(out, "# Changelog\n\n## 1.0.0 (d)\n\n- a\n");
    }
}
