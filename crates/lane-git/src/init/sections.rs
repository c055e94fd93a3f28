//! Reading what a person added to a changelog section at a real cut, by
//! comparing the released section with what the fragments alone give: a
//! preamble above the fragments, entries written at the cut for changes
//! that carried no fragment, and fragments edited at the cut. Pure text.

/// A section heading's parts: `## <version> (<date>)[ — <headline>]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Heading {
    /// The date in parentheses.
    pub date: String,
    /// The headline after ` — `, when there is one.
    pub headline: Option<String>,
}

/// Reads `version`'s heading line.
pub fn parse_heading(line: &str, version: &str) -> Option<Heading> {
    let rest = line.strip_prefix(&format!("## {version} ("))?;
    let (date, after) = rest.split_once(')')?;
    let headline = after
        .strip_prefix(" — ")
        .map(|h| h.trim_end().to_owned())
        .filter(|h| !h.is_empty());
    Some(Heading {
        date: date.to_owned(),
        headline,
    })
}

/// One fragment the assembler used: its path and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Used {
    /// The fragment's path.
    pub path: String,
    /// Its text.
    pub text: String,
}

/// What a person added at the cut, read off the released section.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extras {
    /// Text between the heading and the first entry.
    pub preamble: Option<String>,
    /// Fragments to write before assembly: (file name, text). An existing
    /// fragment's name is an edit; a new one an entry owed at the cut.
    pub writes: Vec<(String, String)>,
    /// What could not be placed (shown, never dropped).
    pub unplaced: Vec<String>,
}

/// The body of a section: everything after its heading and blank line.
fn body(section: &str) -> &str {
    let after = section.find('\n').map(|i| &section[i + 1..]).unwrap_or("");
    after.strip_prefix('\n').unwrap_or(after)
}

/// `<prefix>#<number>` at the start of an entry (`- **pgw#1184: …`), as a
/// fragment name `<prefix><number>`.
pub fn entry_name(entry: &str) -> Option<String> {
    let t = entry.trim_start_matches(['-', '*', ' ', '>']);
    let prefix: String = t.chars().take_while(char::is_ascii_lowercase).collect();
    let rest = t[prefix.len()..].strip_prefix('#')?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    (!prefix.is_empty() && !digits.is_empty()).then(|| format!("{prefix}{digits}"))
}

/// Splits a leftover region into entries at blank lines followed by a
/// bullet that names an issue.
fn entries(region: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for para in region.split("\n\n") {
        let starts_entry = para.starts_with("- ") && entry_name(para).is_some();
        match out.last_mut() {
            Some(last) if !starts_entry => {
                last.push_str("\n\n");
                last.push_str(para);
            }
            _ => out.push(para.to_owned()),
        }
    }
    out.into_iter()
        .map(|e| e.trim().to_owned())
        .filter(|e| !e.is_empty())
        .collect()
}

/// Compares the released section with the fragments the assembler used
/// and names what a person added.
pub fn extras(released: &str, used: &[Used]) -> Extras {
    let text = body(released);
    let mut spans: Vec<(usize, usize)> = Vec::new();
    let mut unmatched: Vec<&Used> = Vec::new();
    for u in used {
        let needle = u.text.trim();
        if needle.is_empty() {
            continue;
        }
        match text.find(needle) {
            Some(at) => spans.push((at, at + needle.len())),
            None => unmatched.push(u),
        }
    }
    spans.sort();
    let mut regions: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for (s, e) in &spans {
        if *s > at {
            regions.push((at, &text[at..*s]));
        }
        at = at.max(*e);
    }
    if at < text.len() {
        regions.push((at, &text[at..]));
    }
    let first_entry = spans.first().map_or(usize::MAX, |s| s.0);
    let mut out = Extras::default();
    for (start, region) in regions {
        let region = region.trim();
        if region.is_empty() {
            continue;
        }
        let mut parts = entries(region);
        // Above every entry, text that is not itself an entry is the preamble.
        if start < first_entry && !parts.is_empty() && entry_name(&parts[0]).is_none()
            || start < first_entry && !parts.is_empty() && !parts[0].starts_with("- ")
        {
            out.preamble = Some(parts.remove(0));
        }
        for p in parts {
            match entry_name(&p) {
                Some(name) => {
                    let edited = unmatched.iter().position(|u| stem(&u.path) == name);
                    let file = match edited {
                        Some(i) => file_name(&unmatched.remove(i).path),
                        None => format!("{name}.md"),
                    };
                    out.writes.push((file, format!("{p}\n")));
                }
                None => out.unplaced.push(p),
            }
        }
    }
    out
}

fn file_name(path: &str) -> String {
    path.rsplit('/').next().unwrap_or(path).to_owned()
}

fn stem(path: &str) -> String {
    let f = file_name(path);
    f.strip_suffix(".md").unwrap_or(&f).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn used(name: &str, text: &str) -> Used {
        Used {
            path: format!("changelog.d/{name}.md"),
            text: text.into(),
        }
    }

    #[test]
    fn a_heading_gives_its_date_and_headline() {
        assert_eq!(
            parse_heading("## 0.96.1 (2026-08-09) — **a cell** (pgw#1058)", "0.96.1"),
            Some(Heading {
                date: "2026-08-09".into(),
                headline: Some("**a cell** (pgw#1058)".into())
            })
        );
        assert_eq!(
            parse_heading("## 0.93.3 (2026-08-06)", "0.93.3")
                .unwrap()
                .headline,
            None
        );
        assert_eq!(parse_heading("## 0.93.30 (d)", "0.93.3"), None);
    }

    #[test]
    fn a_preamble_an_owed_entry_and_an_edit_are_told_apart() {
        let released = "## 1.0.1 (d) — h\n\n> Why this release.\n> Two lines.\n\n- **pgw#5: five**\n  body\n\n- **pgw#7: seven, edited**\n\n- **th#9: owed**\n  more\n\n";
        let got = extras(
            released,
            &[
                used("pgw5", "- **pgw#5: five**\n  body\n"),
                used("pgw7", "- **pgw#7: seven**\n"),
            ],
        );
        assert_eq!(
            got.preamble.as_deref(),
            Some("> Why this release.\n> Two lines.")
        );
        assert_eq!(
            got.writes,
            vec![
                (
                    "pgw7.md".to_owned(),
                    "- **pgw#7: seven, edited**\n".to_owned()
                ),
                ("th9.md".to_owned(), "- **th#9: owed**\n  more\n".to_owned())
            ]
        );
        assert!(got.unplaced.is_empty());
    }

    #[test]
    fn a_section_the_fragments_explain_needs_nothing() {
        let got = extras(
            "## 1 (d)\n\n- **pgw#1: a**\n\n- **pgw#2: b**\n\n",
            &[
                used("pgw2", "- **pgw#2: b**"),
                used("pgw1", "- **pgw#1: a**"),
            ],
        );
        assert_eq!(got, Extras::default());
    }
}
