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
