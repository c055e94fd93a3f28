//! Finds a key path's line:column in block-style YAML text, for the checks
//! that run after deserialization (which no longer knows positions).

/// The 1-based line and column of `key` at the top level, or of item
/// `index` of the top-level sequence under `key`; falls back to the key,
/// then to 1:1.
pub(crate) fn locate(text: &str, key: &str, index: Option<usize>) -> (usize, usize) {
    let mut key_line = None;
    for (n, line) in text.lines().enumerate() {
        if line.starts_with(key) && line[key.len()..].trim_start().starts_with(':') {
            key_line = Some(n);
            break;
        }
    }
    let Some(k) = key_line else {
        return (1, 1);
    };
    let Some(want) = index else {
        return (k + 1, 1);
    };
    let mut seen = 0usize;
    let mut item_indent: Option<usize> = None;
    for (n, line) in text.lines().enumerate().skip(k + 1) {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if indent == 0 && !trimmed.starts_with('-') {
            break; // the next top-level key
        }
        if trimmed.starts_with("- ") || trimmed == "-" {
            match item_indent {
                None => item_indent = Some(indent),
                Some(i) if i != indent => continue,
                Some(_) => {}
            }
            if seen == want {
                return (n + 1, indent + 3);
            }
            seen += 1;
        }
    }
    (k + 1, 1)
}

#[cfg(test)]
mod tests {
    use super::locate;

    #[test]
    fn finds_items_of_a_block_sequence() {
        let t = "version: '1'\npicks:\n  - pr: 1\n  - commit: abcdefa\n    issue: 3\nguards: []\n";
        assert_eq!(locate(t, "picks", None), (2, 1));
        assert_eq!(locate(t, "picks", Some(0)), (3, 5));
        assert_eq!(locate(t, "picks", Some(1)), (4, 5));
        assert_eq!(locate(t, "picks", Some(5)), (2, 1));
        assert_eq!(locate(t, "nothing", None), (1, 1));
    }
}

/// The line and column of the second `key:` of the mapping that starts at
/// `line`:`column` (1-based): where a duplicate key really is.
pub(crate) fn second_key(
    text: &str,
    key: &str,
    line: usize,
    column: usize,
) -> Option<(usize, usize)> {
    let indent = column.saturating_sub(1);
    let mut seen = 0;
    for (i, raw) in text.lines().enumerate().skip(line.saturating_sub(1)) {
        let body = raw.trim_start_matches(' ');
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let at = raw.len() - body.len();
        // The mapping's first key may follow a list item's `- `.
        let (at, body) = match body.strip_prefix("- ") {
            Some(rest) if i + 1 == line => (at + 2, rest.trim_start_matches(' ')),
            _ => (at, body),
        };
        if at < indent && i + 1 > line {
            break;
        }
        if at == indent {
            let name = body
                .split(':')
                .next()
                .unwrap_or("")
                .trim()
                .trim_matches(['"', '\'']);
            if name == key
                && body[name.len()..]
                    .trim_start_matches(['"', '\''])
                    .starts_with(':')
            {
                seen += 1;
                if seen == 2 {
                    return Some((i + 1, at + 1));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod second_key_tests {
    use super::second_key;

    #[test]
    fn the_second_key_of_a_mapping_is_found_at_its_own_line() {
        let text = "version: \"0.93.3\"\nbase: a\npicks:\n  - pr: 1\n    pr: 2\nbase: b\n";
        assert_eq!(second_key(text, "base", 1, 1), Some((6, 1)));
        // Inside a list item, at the item's own indentation.
        assert_eq!(second_key(text, "pr", 4, 5), Some((5, 5)));
        assert_eq!(second_key(text, "title", 1, 1), None);
    }
}
