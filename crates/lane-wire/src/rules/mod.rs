//! buf's breaking rules of the WIRE, WIRE_JSON and PACKAGE categories, one
//! module per kind of element they pair, each rule as buf's own handler
//! (`bufcheckserverhandle/breaking.go`) judges: elements are paired by
//! path (files), full name (messages, enums, services), number (fields,
//! enum values), extendee and number (extensions) or name (methods,
//! oneofs); what has no pair on the after side is a deletion.

mod fields;
mod files;
mod package;
mod ranges;
mod services;
mod types;

use crate::index::Index;
use crate::model::{Finding, RuleId};

/// The findings of one rule run, in emission order.
pub(crate) struct Out {
    findings: Vec<Finding>,
}

impl Out {
    fn add(&mut self, rule: RuleId, file: &str, element: &str, message: String) {
        let mut categories = rule.categories().to_vec();
        categories.sort();
        self.findings.push(Finding {
            rule,
            categories,
            file: file.to_owned(),
            element: element.to_owned(),
            message,
        });
    }
}

/// Every rule on a pair of sides: all findings, sorted and without
/// duplicates (buf writes one per name where several names share a
/// number; their messages are the same).
pub(crate) fn run(before: &Index, after: &Index) -> Vec<Finding> {
    let mut out = Out {
        findings: Vec::new(),
    };
    files::check(before, after, &mut out);
    types::check(before, after, &mut out);
    fields::check(before, after, &mut out);
    services::check(before, after, &mut out);
    package::check(before, after, &mut out);
    let mut findings = out.findings;
    findings.sort_by(|a, b| {
        (&a.file, a.rule.as_str(), &a.element, &a.message).cmp(&(
            &b.file,
            b.rule.as_str(),
            &b.element,
            &b.message,
        ))
    });
    findings.dedup();
    findings
}

/// buf's quoted list: `"A", "B"`.
fn quoted_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    names
        .into_iter()
        .map(|n| format!("{n:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
pub(crate) mod tests {
    use std::collections::BTreeSet;

    use crate::{judge, Category, Judgement, ProtoTree};

    /// One file, `a.proto`, before and after, judged in every category.
    pub fn judge_pair(was: &str, now: &str) -> Judgement {
        let before: ProtoTree = [("a.proto", was)].into_iter().collect();
        let after: ProtoTree = [("a.proto", now)].into_iter().collect();
        judge(&before, &after, &Category::ALL).unwrap()
    }

    /// The ids of the rules that fired, sorted.
    pub fn fired(was: &str, now: &str) -> Vec<&'static str> {
        let ids: BTreeSet<&str> = judge_pair(was, now)
            .findings
            .iter()
            .map(|f| f.rule.as_str())
            .collect();
        ids.into_iter().collect()
    }

    /// buf's own verdicts on small hand-written changes (recorded by
    /// `record-cases.py` with the real buf): lane-wire fires the same rules
    /// with the same messages.
    #[test]
    fn every_hand_written_case_is_judged_as_buf_judged_it() {
        #[derive(serde::Deserialize)]
        struct Case {
            name: String,
            before: std::collections::BTreeMap<String, String>,
            after: std::collections::BTreeMap<String, String>,
            rules: Vec<String>,
            messages: Vec<String>,
        }
        let cases: Vec<Case> = serde_json::from_str(include_str!("cases.json")).unwrap();
        let mut covered = BTreeSet::new();
        let mut wrong = Vec::new();
        for case in &cases {
            let before: ProtoTree = case.before.clone().into_iter().collect();
            let after: ProtoTree = case.after.clone().into_iter().collect();
            let j = judge(&before, &after, &Category::ALL).unwrap();
            let rules: BTreeSet<String> = j.findings.iter().map(|f| f.rule.to_string()).collect();
            let messages: BTreeSet<String> = j.findings.iter().map(|f| f.message.clone()).collect();
            let want_rules: BTreeSet<String> = case.rules.iter().cloned().collect();
            // buf's FIELD_SAME_ONEOF writes `"M"q moved` (a stray `q` in its
            // format string, `%sq`); lane-wire writes it without
            let want_messages: BTreeSet<String> = case
                .messages
                .iter()
                .map(|m| m.replace("\"q moved from oneof", "\" moved from oneof"))
                .collect();
            if rules != want_rules || messages != want_messages {
                wrong.push(format!(
                    "{}:\n  rules   buf {want_rules:?}\n     lane-wire {rules:?}\n  messages buf {:?}\n     lane-wire {:?}",
                    case.name,
                    want_messages.difference(&messages).collect::<Vec<_>>(),
                    messages.difference(&want_messages).collect::<Vec<_>>(),
                ));
            }
            covered.extend(want_rules);
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        // every rule of the three categories is exercised by a case
        let uncovered: Vec<&str> = crate::RuleId::ALL
            .iter()
            .filter(|r| !r.categories().is_empty() && !covered.contains(r.as_str()))
            .map(|r| r.as_str())
            .collect();
        assert!(uncovered.is_empty(), "no case fires {uncovered:?}");
    }

    /// The findings' messages.
    pub fn messages(was: &str, now: &str) -> Vec<String> {
        judge_pair(was, now)
            .findings
            .into_iter()
            .map(|f| f.message)
            .collect()
    }
}
