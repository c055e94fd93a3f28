//! An error and its causes as one line, for a record lane writes (a slot's
//! reason, a bundle's error) where the chain must survive as text.

/// `e` and each of its causes, `: `-joined, a cause whose words the text
/// already holds said once.
pub fn chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut text = e.to_string();
    let mut next = e.source();
    while let Some(cause) = next {
        let said = cause.to_string();
        if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
        next = cause.source();
    }
    text
}

#[cfg(test)]
mod tests {
    #[derive(Debug, thiserror::Error)]
    #[error("outer")]
    struct Outer(#[source] std::io::Error);

    #[test]
    fn every_cause_is_said_once() {
        let e = Outer(std::io::Error::other("inner"));
        assert_eq!(super::chain(&e), "outer: inner");
        let io = std::io::Error::other("just one");
        assert_eq!(super::chain(&io), "just one");
    }
}
