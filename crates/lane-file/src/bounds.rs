//! Bounds a lane file is held to before the YAML parser sees it: its size,
//! how deep it nests, and how much its aliases could expand. A lane file is
//! a few kilobytes a few levels deep; without these, a 1 MB anchor aliased
//! ten thousand times exhausts memory, and 100k levels of nesting take
//! minutes (the parser's time grows with the square of the depth).
//!
//! The scan is linear and conservative: it reads the text as YAML's lexical
//! rules have it (quotes, comments, flow brackets, indentation), never
//! builds a tree, and refuses with the line and column of the first place
//! a bound is crossed.

/// The largest lane file: far above any real one (a few KiB).
pub const MAX_BYTES: usize = 1 << 20;
/// The deepest nesting (block indentation levels and flow brackets).
pub const MAX_DEPTH: usize = 64;
/// The most aliases (`*name`) in one file.
pub const MAX_ALIASES: usize = 64;
/// The most bytes aliases may repeat in all (each alias counts its
/// anchor's text once more).
pub const MAX_ALIAS_BYTES: usize = 1 << 20;

/// A bound crossed: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crossed {
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was crossed, in words.
    pub message: String,
}

fn at(line: usize, column: usize, message: String) -> Crossed {
    Crossed {
        line,
        column,
        message,
    }
}

/// An anchor's name and the size of the node it anchors.
struct Anchor {
    name: String,
    bytes: usize,
    /// Whether its node holds an alias itself (nested expansion).
    holds_alias: bool,
}

/// Checks `text` against every bound.
pub fn check(text: &str) -> Result<(), Crossed> {
    if text.len() > MAX_BYTES {
        return Err(at(
            1,
            1,
            format!(
                "the file is {} bytes: a lane file is at most {MAX_BYTES} bytes (1 MiB)",
                text.len()
            ),
        ));
    }
    foreign_line_break(text)?;
    let lines: Vec<&str> = text.lines().collect();
    let mut anchors: Vec<Anchor> = Vec::new();
    let mut aliases = 0usize;
    let mut alias_bytes = 0usize;
    // Indentation of the open block levels.
    let mut indents: Vec<usize> = Vec::new();
    let mut flow = 0usize;
    for (i, raw) in lines.iter().enumerate() {
        let line_no = i + 1;
        let indent = raw.len() - raw.trim_start_matches(' ').len();
        let body = raw.trim_start_matches(' ');
        let blank = body.is_empty() || body.starts_with('#');
        if !blank && flow == 0 {
            while indents.last().is_some_and(|&d| d > indent) {
                indents.pop();
            }
            if indents.last() != Some(&indent) {
                indents.push(indent);
            }
            // `- - - x` nests one level per dash.
            let dashes = body.split(' ').take_while(|t| *t == "-").count();
            if indents.len() + dashes > MAX_DEPTH {
                return Err(at(
                    line_no,
                    indent + 1,
                    format!("it nests deeper than {MAX_DEPTH} levels"),
                ));
            }
        }
        let bytes = raw.as_bytes();
        let mut quote: Option<u8> = None;
        let mut j = 0;
        while j < bytes.len() {
            let b = bytes[j];
            match quote {
                Some(q) => {
                    if b == b'\\' && q == b'"' {
                        j += 1;
                    } else if b == q {
                        quote = None;
                    }
                }
                None => {
                    let starts_token =
                        j == 0 || matches!(bytes[j - 1], b' ' | b'\t' | b'[' | b'{' | b',');
                    match b {
                        b'#' if starts_token => break,
                        b'"' | b'\'' if starts_token => quote = Some(b),
                        b'[' | b'{' => {
                            flow += 1;
                            if indents.len() + flow > MAX_DEPTH {
                                return Err(at(
                                    line_no,
                                    column(raw, j),
                                    format!("it nests deeper than {MAX_DEPTH} levels"),
                                ));
                            }
                        }
                        b']' | b'}' => flow = flow.saturating_sub(1),
                        b'&' | b'*' if starts_token => {
                            let name: String = raw[j + 1..]
                                .chars()
                                .take_while(|c| !c.is_whitespace() && !",[]{}".contains(*c))
                                .collect();
                            let skip = name.len();
                            if b == b'&' {
                                let (node, holds_alias) =
                                    anchored(&lines, i, j + 1 + name.len(), indent);
                                anchors.push(Anchor {
                                    name,
                                    bytes: node,
                                    holds_alias,
                                });
                            } else {
                                aliases += 1;
                                if aliases > MAX_ALIASES {
                                    return Err(at(
                                        line_no,
                                        column(raw, j),
                                        format!("it has more than {MAX_ALIASES} aliases"),
                                    ));
                                }
                                let anchor = anchors.iter().rev().find(|a| a.name == name);
                                if let Some(a) = anchor {
                                    if a.holds_alias {
                                        return Err(at(
                                            line_no,
                                            column(raw, j),
                                            format!("the alias `*{name}` repeats an anchor that holds an alias itself: nested aliases are refused (they expand exponentially)"),
                                        ));
                                    }
                                    alias_bytes += a.bytes;
                                    if alias_bytes > MAX_ALIAS_BYTES {
                                        return Err(at(
                                            line_no,
                                            column(raw, j),
                                            format!("its aliases would repeat more than {MAX_ALIAS_BYTES} bytes"),
                                        ));
                                    }
                                }
                            }
                            j += skip;
                        }
                        _ => {}
                    }
                }
            }
            j += 1;
        }
    }
    Ok(())
}

/// The 1-based column of byte `j` of `line`, in characters, as editors
/// and the YAML parser count it.
fn column(line: &str, j: usize) -> usize {
    line.get(..j).map_or(j, |s| s.chars().count()) + 1
}

/// The first line break YAML counts and editors, `grep -n` and `git diff`
/// do not (a lone CR, and YAML 1.1's NEL, LS and PS): past one, the line
/// an error names is not the line the user sees, so it is refused at the
/// place it stands, counted in LF lines.
/// Outside YAML's printable set (YAML 1.2 §5.1): C0 controls but tab, LF
/// and CR; DEL; C1 controls but NEL; U+FFFE and U+FFFF.
fn forbidden_in_yaml(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{B}' | '\u{C}' | '\u{E}'..='\u{1F}' | '\u{7F}')
        || matches!(c, '\u{80}'..='\u{9F}') && c != '\u{85}'
        || matches!(c, '\u{FFFE}' | '\u{FFFF}')
}

fn foreign_line_break(text: &str) -> Result<(), Crossed> {
    let (mut line, mut column) = (1, 1);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let name = match c {
            '\n' => {
                (line, column) = (line + 1, 1);
                continue;
            }
            '\r' if chars.peek() != Some(&'\n') => "a carriage return (U+000D) without a line feed",
            '\u{85}' => "a next-line character (U+0085)",
            '\u{2028}' => "a line separator (U+2028)",
            '\u{2029}' => "a paragraph separator (U+2029)",
            c if forbidden_in_yaml(c) => {
                return Err(at(
                    line,
                    column,
                    format!(
                        "a control character (U+{:04X}): YAML allows none in a file but tab, \
                         line feed and carriage return; remove it",
                        u32::from(c)
                    ),
                ))
            }
            _ => {
                column += 1;
                continue;
            }
        };
        return Err(at(
            line,
            column,
            format!("{name}: YAML reads it as a line break where editors do not, so every line after it would be misnumbered; a lane file ends its lines with LF or CRLF"),
        ));
    }
    Ok(())
}

/// The size of the node anchored at `lines[line][from..]` (the rest of the
/// line, and the lines below indented deeper than the anchor's line), and
/// whether it holds an alias.
fn anchored(lines: &[&str], line: usize, from: usize, indent: usize) -> (usize, bool) {
    let rest = lines[line].get(from..).unwrap_or("");
    let mut bytes = rest.len();
    let mut holds_alias = rest.contains(" *") || rest.contains("[*") || rest.contains(",*");
    for l in &lines[line + 1..] {
        let body = l.trim_start_matches(' ');
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        if l.len() - body.len() <= indent {
            break;
        }
        bytes += l.len() + 1;
        holds_alias |= body.starts_with('*') || l.contains(" *") || l.contains("[*");
    }
    (bytes, holds_alias)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_real_lane_file_is_within_every_bound() {
        let text = include_str!("../../../lanes/0.93.3.yaml");
        assert_eq!(check(text), Ok(()));
    }

    #[test]
    fn a_line_break_editors_do_not_count_is_refused_where_it_stands() {
        // Found by the fuzz suite: a lone CR made the parser's line 22 of a
        // 20-line file.
        let e = check("version: \"0.0.0\"\ntitle: probe\r mints\nbase: v0.93.2\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 13), "{}", e.message);
        assert!(
            e.message.contains("carriage return (U+000D)"),
            "{}",
            e.message
        );
        let e = check("a: 1\nb: x\u{2028}y\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 5), "{}", e.message);
        assert!(e.message.contains("U+2028"), "{}", e.message);
        // CRLF is a line end editors count too.
        assert_eq!(check("a: 1\r\nb: 2\r\n"), Ok(()));
    }

    /// Regression (issue 35): a BEL in a value was reported at `1:1 …
    /// position 617` (the YAML reader's byte offset, no line): now at its
    /// own line and column, by its code point. A tab and NEL's neighbours
    /// that YAML allows stay allowed.
    #[test]
    fn a_control_character_is_refused_at_its_line_and_column() {
        let e = check("version: \"0.0.0\"\nkind: hot\u{7}fix\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 10), "{}", e.message);
        assert!(
            e.message.contains("control character (U+0007)"),
            "{}",
            e.message
        );
        for c in ['\u{0}', '\u{1b}', '\u{7f}', '\u{9b}', '\u{fffe}'] {
            let e = check(&format!("a: x{c}y\n")).unwrap_err();
            assert_eq!((e.line, e.column), (1, 5), "{c:?}: {}", e.message);
        }
        assert_eq!(check("a: x\ty é ✓\n"), Ok(()));
    }

    #[test]
    fn a_bound_crossed_after_wide_characters_is_named_at_their_column() {
        // Columns count characters, as the parser's and editors' do: `é`
        // is two bytes and one column.
        let e = check(&format!("é: {}", "[".repeat(100))).unwrap_err();
        assert_eq!((e.line, e.column), (1, 3 + MAX_DEPTH), "{}", e.message);
        let text = format!("t: x\na: [\"ü ß\", {}", "[".repeat(100));
        let e = check(&text).unwrap_err();
        let line = text.lines().nth(1).unwrap();
        let crossing = line.match_indices('[').nth(MAX_DEPTH - 1).unwrap().0;
        assert_eq!(
            (e.line, e.column),
            (2, line[..crossing].chars().count() + 1)
        );
    }

    #[test]
    fn a_large_file_is_refused_before_parsing() {
        let text = "#".repeat(MAX_BYTES + 1);
        let e = check(&text).unwrap_err();
        assert_eq!((e.line, e.column), (1, 1));
        assert!(e.message.contains("at most 1048576 bytes"), "{}", e.message);
    }

    #[test]
    fn deep_nesting_is_refused_at_the_level_it_crosses() {
        let flow = format!("a: {}{}", "[".repeat(100), "]".repeat(100));
        let e = check(&flow).unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("deeper than 64"), "{}", e.message);
        let mut block = String::new();
        for d in 0..100 {
            block.push_str(&format!("{}k{d}:\n", "  ".repeat(d)));
        }
        let e = check(&block).unwrap_err();
        assert_eq!(e.line, MAX_DEPTH + 1, "{}", e.message);
    }

    #[test]
    fn aliases_are_bounded_by_count_size_and_nesting() {
        // One small anchor, a few uses: fine (a lane file may share an env).
        let ok = "env: &e {A: \"1\"}\ncells:\n  - env: *e\n  - env: *e\n";
        assert_eq!(check(ok), Ok(()));
        // Ten thousand aliases of a big anchor: refused at the 65th.
        let big = format!(
            "a: &big \"{}\"\nb: [{}]\n",
            "x".repeat(1000),
            vec!["*big"; 10_000].join(", ")
        );
        let e = check(&big).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("more than 64 aliases"), "{}", e.message);
        // Fewer aliases of a huge anchor: refused by the bytes they repeat.
        let huge = format!(
            "a: &h \"{}\"\nb: [{}]\n",
            "x".repeat(900_000),
            ["*h"; 3].join(", ")
        );
        let e = check(&huge).unwrap_err();
        assert!(e.message.contains("repeat more than"), "{}", e.message);
        // A billion laughs: an anchor that holds aliases, aliased again.
        let laughs = "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n";
        let e = check(laughs).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(
            e.message.contains("nested aliases are refused"),
            "{}",
            e.message
        );
    }

    #[test]
    fn quotes_and_comments_hide_what_looks_like_aliases() {
        let text = format!(
            "a: \"{}\"\n# {}\nb: '*x [ ['\n",
            "*x ".repeat(100),
            "*y ".repeat(100)
        );
        assert_eq!(check(&text), Ok(()));
    }
}
