//! What a `gen-worker compile --verdict` (0.127 on) calls for: a
//! specialization not built here (not cold), a failed one, the gaps it
//! left (a deferred graph's gap is pending by the run's choice, any other
//! is a gap it could not close: `summarize` in `cli/compile.py` tells them
//! apart by the gap's graph, and so does lane), and each wall's split.

use super::{negative_residual_check, partition_checks, Finding, FindingKind, Severity};
use crate::breakdown::MintBreakdown;
use crate::report::text::{quote, DETAIL_MAX_CHARS, SHORT_MAX_CHARS};
use crate::report::SpecState;

fn gaps(list: &[&(String, String)]) -> String {
    list.iter()
        .map(|(g, d)| {
            format!(
                "{} ({})",
                quote(g, SHORT_MAX_CHARS),
                quote(d, SHORT_MAX_CHARS)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn verdict_findings(b: &MintBreakdown, out: &mut Vec<Finding>) {
    let Some(v) = &b.verdict else {
        return;
    };
    let not_built: Vec<String> = v
        .specializations
        .iter()
        .filter(|s| {
            matches!(
                s.state.as_ref().and_then(|n| n.known()),
                Some(SpecState::Present | SpecState::Reused | SpecState::Claimed)
            )
        })
        .map(|s| {
            format!(
                "{} {}",
                quote(&s.graph, SHORT_MAX_CHARS),
                s.state.as_ref().map_or("", |n| n.as_str())
            )
        })
        .collect();
    if !not_built.is_empty() {
        out.push(
            Finding::new(
                FindingKind::NotCold,
                Severity::Error,
                format!(
                    "{} of {} specialization(s) were not built here: {}; this repeat is not cold",
                    not_built.len(),
                    v.specializations.len(),
                    not_built.join(", ")
                ),
            )
            .subject("state"),
        );
    }
    for s in v
        .specializations
        .iter()
        .filter(|s| s.state.as_ref().and_then(|n| n.known()) == Some(SpecState::Failed))
    {
        let mut f = Finding::new(
            FindingKind::FailedJob,
            Severity::Warning,
            format!(
                "specialization {} failed{}; its seconds stay in the ledger",
                quote(&s.graph, SHORT_MAX_CHARS),
                s.detail
                    .as_deref()
                    .map_or_else(String::new, |d| format!(": {}", quote(d, DETAIL_MAX_CHARS)))
            ),
        )
        .subject(&s.graph);
        if let Some(w) = s.wall_s {
            f = f.seconds(w);
        }
        out.push(f);
    }
    let (pending, fatal): (Vec<_>, Vec<_>) = v
        .unservable
        .iter()
        .partition(|(g, _)| v.deferred.contains(g));
    if !fatal.is_empty() {
        out.push(Finding::new(
            FindingKind::Unservable,
            Severity::Warning,
            format!(
                "gen-worker compile names {} graph(s) it could not make servable: {}",
                fatal.len(),
                gaps(&fatal)
            ),
        ));
    }
    if !v.deferred.is_empty() {
        out.push(
            Finding::new(
                FindingKind::Deferred,
                Severity::Info,
                format!(
                    "gen-worker compile deferred {} specialization(s) on purpose (`deferred`{}), not a failure: {}{}",
                    v.deferred.len(),
                    v.fill.as_deref().map_or_else(
                        || ", no fill started".to_owned(),
                        |f| format!(", fill: {}", quote(f, SHORT_MAX_CHARS))
                    ),
                    v.deferred
                        .iter()
                        .map(|g| quote(g, SHORT_MAX_CHARS))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if pending.is_empty() {
                        String::new()
                    } else {
                        format!(
                            "; {} not servable yet, served eagerly until it lands: {}",
                            pending.len(),
                            gaps(&pending)
                        )
                    }
                ),
            )
            .subject("deferred"),
        );
    }
    let Some(l) = &b.verdict_ledger else {
        return;
    };
    for s in &l.specializations {
        if let Some(p) = &s.partition {
            negative_residual_check(&quote(&s.graph, SHORT_MAX_CHARS), p, out);
        }
    }
    if let Some(whole) = &l.whole {
        partition_checks("the specializations' walls", whole, out);
    }
    // Untied records and built specializations are said only beside a
    // trace: without one, nothing was there to tie.
    if b.trace.is_none() {
        return;
    }
    let untied: Vec<String> = l
        .specializations
        .iter()
        .zip(&v.specializations)
        .filter(|(s, spec)| {
            s.compiles.is_empty()
                && spec.state.as_ref().and_then(|n| n.known()) == Some(SpecState::Built)
        })
        .map(|(s, _)| quote(&s.graph, SHORT_MAX_CHARS))
        .collect();
    if !untied.is_empty() || !l.unmatched.is_empty() {
        out.push(
            Finding::new(
                FindingKind::TraceNotTied,
                Severity::Warning,
                format!(
                    "{} built specialization(s) have no TORCH_TRACE compile tied to them{}, so their compile_s is unobserved and outside_compile_s holds their whole wall; {} compile record(s) tie to none{}",
                    untied.len(),
                    if untied.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", untied.join(", "))
                    },
                    l.unmatched.len(),
                    l.unmatched
                        .first()
                        .map_or_else(String::new, |u| format!(
                            " (the first: {})",
                            quote(&u.reason, DETAIL_MAX_CHARS)
                        ))
                ),
            )
            .subject("compile_s"),
        );
    }
}
