//! Assembling a release's changelog section from fragments, in the
//! upstream's own format (`scripts/assemble_changelog.py`, pgw#968): the
//! heading `## <version> (<date>)[ — <headline>]`, a blank line, each
//! fragment's text stripped and joined by one blank line, a blank line; the
//! section goes right below the `## Unreleased` block. Fragments are ordered
//! by issue number, then prefix, then name, never by filesystem order.
//!
//! Pure text functions: the cut reads blobs, calls these, writes blobs.

/// One fragment used for the section.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Fragment {
    /// Its path in the repository.
    pub path: String,
    /// Its text.
    pub text: String,
}

impl Fragment {
    /// The file name without `.md`.
    pub fn stem(&self) -> &str {
        let name = self.path.rsplit('/').next().unwrap_or(&self.path);
        name.strip_suffix(".md").unwrap_or(name)
    }
    /// The ordering key: (issue number, prefix, name), as the upstream sorts.
    /// A name with no `<prefix><number>` core sorts last, by name.
    pub fn order(&self) -> (u64, String, String) {
        let stem = self.stem();
        let prefix: String = stem.chars().take_while(char::is_ascii_lowercase).collect();
        let digits: String = stem[prefix.len()..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let number = digits.parse().unwrap_or(u64::MAX);
        (number, prefix, self.path.clone())
    }
}

/// The heading line of a release section.
pub fn heading(version: &str, date: &str, headline: Option<&str>) -> String {
    match headline.map(str::trim).filter(|h| !h.is_empty()) {
        Some(h) => format!("## {version} ({date}) — {h}"),
        None => format!("## {version} ({date})"),
    }
}

/// The section text: heading, blank line, the preamble (when given) and a
/// blank line, the fragments joined by blank lines, a blank line.
pub fn section(heading: &str, preamble: Option<&str>, fragments: &[Fragment]) -> String {
    let mut sorted: Vec<&Fragment> = fragments.iter().collect();
    sorted.sort_by_key(|f| f.order());
    let body = sorted
        .iter()
        .map(|f| f.text.trim())
        .collect::<Vec<_>>()
        .join("\n\n");
    let mut s = format!("{heading}\n\n");
    if let Some(p) = preamble.map(str::trim_end).filter(|p| !p.trim().is_empty()) {
        s.push_str(p);
        s.push_str("\n\n");
    }
    s.push_str(&body);
    s.push_str("\n\n");
    s
}

/// Whether `changelog` already has a section for `version`.
pub fn has_section(changelog: &str, version: &str) -> bool {
    let prefix = format!("## {version} ");
    changelog
        .lines()
        .any(|l| l.starts_with(&prefix) || l.trim_end() == format!("## {version}"))
}

/// Inserts `section` where the upstream's assembler does: right after the
/// `## Unreleased` block (up to the next `## ` heading). Without such a
/// block, above the first release heading (`## ` and a digit), else at the
/// end.
pub fn insert(changelog: &str, section: &str) -> String {
    let at = unreleased_end(changelog).or_else(|| first_release_heading(changelog));
    let mut out = String::with_capacity(changelog.len() + section.len() + 1);
    match at {
        Some(i) => {
            out.push_str(&changelog[..i]);
            out.push_str(section);
            out.push_str(&changelog[i..]);
        }
        None => {
            out.push_str(changelog);
            if !changelog.is_empty() && !changelog.ends_with('\n') {
                out.push('\n');
            }
            if !changelog.is_empty() && !changelog.ends_with("\n\n") {
                out.push('\n');
            }
            out.push_str(section.trim_end());
            out.push('\n');
        }
    }
    out
}

/// Byte offsets of each line start, with the line.
fn lines_at(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    text.split_inclusive('\n').map(move |l| {
        let at = offset;
        offset += l.len();
        (at, l)
    })
}

/// The end of the `## Unreleased` block: the start of the next `## ` line
/// after it (`^## Unreleased\b.*?(?=^## )`, multi-line, dot-all).
fn unreleased_end(text: &str) -> Option<usize> {
    let mut in_block = false;
    for (at, line) in lines_at(text) {
        if in_block && line.starts_with("## ") {
            return Some(at);
        }
        if !in_block {
            if let Some(rest) = line.strip_prefix("## Unreleased") {
                // `\b`: the word ends here.
                let boundary = rest
                    .chars()
                    .next()
                    .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
                in_block = boundary;
            }
        }
    }
    None
}

fn first_release_heading(text: &str) -> Option<usize> {
    lines_at(text)
        .find(|(_, l)| {
            l.strip_prefix("## ")
                .and_then(|r| r.chars().next())
                .is_some_and(|c| c.is_ascii_digit())
        })
        .map(|(at, _)| at)
}

/// The byte range of `version`'s section: from its heading to the next
/// `## ` heading (or the end).
pub fn section_range(text: &str, version: &str) -> Option<std::ops::Range<usize>> {
    let prefix = format!("## {version} ");
    let exact = format!("## {version}");
    let mut start = None;
    for (at, line) in lines_at(text) {
        let l = line.trim_end_matches(['\n', '\r']);
        if let Some(s) = start {
            if line.starts_with("## ") {
                return Some(s..at);
            }
        } else if l.starts_with(&prefix) || l == exact {
            start = Some(at);
        }
    }
    start.map(|s| s..text.len())
}

/// Puts `preamble` right below `version`'s heading (after its blank line),
/// followed by a blank line: what a person adds to a section an assembler
/// wrote.
pub fn insert_preamble(text: &str, version: &str, preamble: &str) -> Result<String, String> {
    let range = section_range(text, version).ok_or_else(|| format!("no section for {version}"))?;
    let section = &text[range.clone()];
    let after_heading = section.find('\n').map(|i| i + 1).unwrap_or(section.len());
    let body_at = if section[after_heading..].starts_with('\n') {
        after_heading + 1
    } else {
        after_heading
    };
    let mut out = String::with_capacity(text.len() + preamble.len() + 2);
    out.push_str(&text[..range.start + body_at]);
    out.push_str(preamble.trim_end());
    out.push_str("\n\n");
    out.push_str(&text[range.start + body_at..]);
    Ok(out)
}

/// Folds `version`'s section, as `source` holds it, into `text`: placed
/// among the release sections in descending version order (below the
/// newer ones). Refused when `text` already has one or `source` has none.
pub fn fold(text: &str, source: &str, version: &str) -> Result<String, String> {
    if has_section(text, version) {
        return Err(format!("already has a section for {version}"));
    }
    let range = section_range(source, version)
        .ok_or_else(|| format!("the source changelog has no section for {version}"))?;
    let section = &source[range];
    let wanted = semver::Version::parse(version).map_err(|e| e.to_string())?;
    // Before the first release heading whose version is lower.
    let at = lines_at(text).find_map(|(at, l)| {
        let rest = l.strip_prefix("## ")?;
        let v = rest.split([' ', '\n']).next()?;
        let v = semver::Version::parse(v).ok()?;
        (v < wanted).then_some(at)
    });
    let mut out = String::with_capacity(text.len() + section.len());
    match at {
        Some(i) => {
            out.push_str(&text[..i]);
            out.push_str(section);
            if !section.ends_with("\n\n") {
                out.push('\n');
            }
            out.push_str(&text[i..]);
        }
        None => {
            out.push_str(text);
            if !text.ends_with("\n\n") {
                out.push('\n');
            }
            out.push_str(section);
        }
    }
    Ok(out)
}

/// `consumed.tsv` after recording `stems` as consumed by `version` (the
/// upstream's format from 0.115: `<version>\t<stem>` rows under a `#` header).
pub fn record_consumed(tsv: Option<&str>, version: &str, stems: &[&str]) -> String {
    let mut out = match tsv {
        Some(t) => t.to_owned(),
        None => "# fragments a cut has assembled, and the version whose tree contains them.\n# Written by the cut; lanes never edit it.\n# <version>\\t<fragment stem>\n".to_owned(),
    };
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    for s in stems {
        out.push_str(&format!("{version}\t{s}\n"));
    }
    out
}

/// The stems `consumed.tsv` lists.
pub fn consumed_stems(tsv: &str) -> std::collections::BTreeSet<String> {
    tsv.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split('\t').nth(1))
        .map(|s| s.trim().to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "# Changelog\n\n## Unreleased\n\nFragments live in `changelog.d/`.\n\n## 0.93.2 (2026-07-20) — fixes\n\n- pgw#900: x\n";

    fn frag(name: &str, text: &str) -> Fragment {
        Fragment {
            path: format!("changelog.d/{name}.md"),
            text: text.to_owned(),
        }
    }

    #[test]
    fn a_section_goes_below_unreleased_in_the_upstreams_format() {
        let s = section(
            &heading("0.93.3", "2026-11-30", Some("honest mint phases")),
            None,
            &[
                frag("pgw992", "- pgw#992: b\n  more\n"),
                frag("pgw989", "\n- pgw#989: a\n"),
            ],
        );
        let out = insert(LOG, &s);
        let expected = "# Changelog\n\n## Unreleased\n\nFragments live in `changelog.d/`.\n\n## 0.93.3 (2026-11-30) — honest mint phases\n\n- pgw#989: a\n\n- pgw#992: b\n  more\n\n## 0.93.2 (2026-07-20) — fixes\n\n- pgw#900: x\n";
        assert_eq!(out, expected);
    }

    #[test]
    fn fragments_order_by_number_then_prefix_not_by_name() {
        let mut f = [
            frag("th1887", "c"),
            frag("pgw1213", "b"),
            frag("pgw1202", "a"),
            frag("ie681", "d"),
        ];
        f.sort_by_key(Fragment::order);
        let names: Vec<_> = f.iter().map(Fragment::stem).collect();
        assert_eq!(names, ["ie681", "pgw1202", "pgw1213", "th1887"]);
    }

    #[test]
    fn a_preamble_sits_below_the_heading() {
        let s = section(
            &heading("1.0.1", "d", None),
            Some("> why\n"),
            &[frag("pgw1", "- a")],
        );
        assert_eq!(s, "## 1.0.1 (d)\n\n> why\n\n- a\n\n");
        let out = insert_preamble(
            &insert(
                LOG,
                &section(&heading("0.93.3", "d", None), None, &[frag("pgw1", "- a")]),
            ),
            "0.93.3",
            "> why",
        )
        .unwrap();
        assert!(
            out.contains("## 0.93.3 (d)\n\n> why\n\n- a\n\n## 0.93.2"),
            "{out}"
        );
    }

    #[test]
    fn a_changelog_without_unreleased_gets_it_above_the_first_release() {
        let out = insert("# C\n\n## 1.0.0 (d)\n\n- x\n", "## 1.0.1 (e)\n\n- y\n\n");
        assert_eq!(out, "# C\n\n## 1.0.1 (e)\n\n- y\n\n## 1.0.0 (d)\n\n- x\n");
        assert_eq!(
            insert("# C\n", "## 1.0.0 (d)\n\n- a\n\n"),
            "# C\n\n## 1.0.0 (d)\n\n- a\n"
        );
    }

    #[test]
    fn a_folded_section_lands_in_version_order() {
        let source =
            "# C\n\n## 0.95.0 (d) — x\n\n- five\n\n## 0.94.1 (d)\n\n- four\n\n## 0.94.0 (d)\n";
        let text = "# C\n\n## Unreleased\n\n## 0.95.1 (e)\n\n- new\n\n## 0.94.0 (d)\n\n- old\n";
        let out = fold(text, source, "0.95.0").unwrap();
        let out = fold(&out, source, "0.94.1").unwrap();
        assert_eq!(
            out,
            "# C\n\n## Unreleased\n\n## 0.95.1 (e)\n\n- new\n\n## 0.95.0 (d) — x\n\n- five\n\n## 0.94.1 (d)\n\n- four\n\n## 0.94.0 (d)\n\n- old\n"
        );
        assert!(fold(&out, source, "0.94.1").is_err());
    }

    #[test]
    fn consumed_rows_append_under_the_header() {
        let t = record_consumed(None, "0.126.1", &["pgw1390"]);
        assert!(t.ends_with("0.126.1\tpgw1390\n"));
        assert_eq!(
            consumed_stems(&t).into_iter().collect::<Vec<_>>(),
            ["pgw1390"]
        );
        let t2 = record_consumed(Some("# h\n0.115.0\tpgw1224"), "0.115.1", &["pgw9"]);
        assert_eq!(t2, "# h\n0.115.0\tpgw1224\n0.115.1\tpgw9\n");
    }
}
