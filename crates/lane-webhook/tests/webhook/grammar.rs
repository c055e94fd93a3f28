//! Property tests of the comment grammar: it never panics, and its work
//! is bounded by its caps.

use lane_webhook::{
    parse_comment, CommandError, CommentCommand, MAX_COMMAND_LINE_BYTES, MAX_COMMENT_BYTES,
};
use proptest::prelude::*;

/// Comments made of the pieces the grammar reacts to, and anything else.
fn comment() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("/lane".to_owned()),
        Just("/lanes".to_owned()),
        Just(" mint".to_owned()),
        Just(" 0.93.3".to_owned()),
        Just(" --cell".to_owned()),
        Just("=a".to_owned()),
        Just(" --gpu L4".to_owned()),
        Just("\n".to_owned()),
        Just("\r\n".to_owned()),
        Just("```".to_owned()),
        Just("~~~".to_owned()),
        Just("> ".to_owned()),
        Just(" ".to_owned()),
        Just("\t".to_owned()),
        Just("é".to_owned()),
        any::<String>(),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn parse_comment_never_panics_and_keeps_its_caps(body in comment()) {
        match parse_comment(&body) {
            CommentCommand::Command(c) => {
                prop_assert!(body.len() <= MAX_COMMENT_BYTES);
                prop_assert!(c.to_string().len() <= MAX_COMMAND_LINE_BYTES);
                // The canonical spelling reads back as itself.
                prop_assert_eq!(parse_comment(&c.to_string()), CommentCommand::Command(c));
            }
            CommentCommand::Invalid(e) => {
                // What is refused is never longer than what was written.
                if let Some(word) = e.offending() {
                    prop_assert!(word.len() <= MAX_COMMAND_LINE_BYTES);
                }
            }
            CommentCommand::None => {}
        }
    }

    #[test]
    fn an_overlong_comment_is_read_only_up_to_the_cap(
        head in comment(),
        tail_a in comment(),
        tail_b in comment(),
    ) {
        // Past the cap, nothing after it is read: two comments that share
        // their first MAX_COMMENT_BYTES bytes get the same answer.
        let filler = "x".repeat(MAX_COMMENT_BYTES);
        let a = format!("{head}\n{filler}{tail_a}");
        let b = format!("{head}\n{filler}{tail_b}");
        let (ra, rb) = (parse_comment(&a), parse_comment(&b));
        prop_assert!(!matches!(ra, CommentCommand::Command(_)));
        let same = match (&ra, &rb) {
            (
                CommentCommand::Invalid(CommandError::CommentTooLong { limit: la, .. }),
                CommentCommand::Invalid(CommandError::CommentTooLong { limit: lb, .. }),
            ) => la == lb,
            (x, y) => x == y,
        };
        prop_assert!(same, "{:?} vs {:?}", ra, rb);
    }

    #[test]
    fn an_overlong_line_is_refused(prefix in "[ \t]{0,4}", pad in (MAX_COMMAND_LINE_BYTES..4 * MAX_COMMAND_LINE_BYTES)) {
        let line = format!("{prefix}/lane mint 0.93.3 --cell {}", "a".repeat(pad));
        let refused = matches!(
            parse_comment(&line),
            CommentCommand::Invalid(CommandError::LineTooLong { .. })
        );
        prop_assert!(refused);
    }
}
