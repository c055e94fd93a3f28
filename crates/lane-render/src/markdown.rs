//! The comment body: header, per-cell table, findings, mermaid chart,
//! per-cell details, link; rendered whole at one [`Level`] and degraded a
//! level at a time until it fits the budget, so a table is never cut.

use std::fmt::Write;

use lane_ledger::compare::DeltaVerdict;
use lane_ledger::{Comparison, DeterminismReport, MintBreakdown, Partition};
use serde::Serialize;

use crate::escape::{label, text, url};
use crate::policy::{conclusion, serde_kind};
use crate::{CellResult, LaneResults, RepeatResult};

/// GitHub's limit on an issue comment's body, in characters.
pub const GITHUB_BODY_LIMIT: usize = 65_536;

/// How much a rendering shows; each level drops more to fit the budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// Everything: details with per-job rows, kernels, config fields, files.
    Full,
    /// Details collapsed to each cell's partition, overlays and verdicts.
    Collapsed,
    /// Header, per-cell table and findings; no details, no chart.
    Summary,
    /// Header and a link to the full report.
    Link,
}

/// How to render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RenderOptions {
    /// The most characters the body may have.
    pub limit: usize,
    /// Start the body with the hidden sticky-comment marker.
    pub marker: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            limit: GITHUB_BODY_LIMIT,
            marker: true,
        }
    }
}

/// A rendered body and the level it took to fit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rendered {
    /// The markdown.
    pub body: String,
    /// The level it was rendered at.
    pub level: Level,
}

/// The hidden marker that finds a lane's comment again: an HTML comment
/// holding the lane version (only `[0-9A-Za-z._+-]` kept).
pub fn marker(lane: &str) -> String {
    let clean: String = lane
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-'))
        .take(64)
        .collect();
    format!("<!-- lane-report lane={clean} -->")
}

/// Renders the comment at the richest level that fits `options.limit`
/// characters. Only a limit too small for even the [`Level::Link`] body
/// (a few hundred characters) returns a body above it.
pub fn render_comment(r: &LaneResults, options: &RenderOptions) -> Rendered {
    let mut last = String::new();
    for level in [Level::Full, Level::Collapsed, Level::Summary, Level::Link] {
        let body = render_at(r, level, options.marker);
        if body.chars().count() <= options.limit {
            return Rendered { body, level };
        }
        last = body;
    }
    let minimal = minimal(r, options.marker);
    if minimal.chars().count() <= last.chars().count() {
        last = minimal;
    }
    Rendered {
        body: last,
        level: Level::Link,
    }
}

fn secs(v: Option<f64>) -> String {
    v.map_or_else(|| "absent".to_owned(), |v| format!("{v:.3} s"))
}

fn pct(v: Option<f64>) -> String {
    v.map_or_else(|| "absent".to_owned(), |v| format!("{:.1} %", 100.0 * v))
}

fn signed(v: f64) -> String {
    format!("{v:+.3} s")
}

fn render_at(r: &LaneResults, level: Level, with_marker: bool) -> String {
    let mut out = String::new();
    if with_marker {
        out.push_str(&marker(&r.lane));
        out.push('\n');
    }
    header(&mut out, r);
    if level == Level::Link {
        let _ = writeln!(
            out,
            "\nThe per-cell breakdown of {} cell(s) is too large for a comment.",
            r.cells.len()
        );
        link(&mut out, r, true);
        footer(&mut out);
        return out;
    }
    cells_table(&mut out, r);
    findings(&mut out, r, level);
    if level <= Level::Collapsed {
        chart(&mut out, r);
        for c in &r.cells {
            details(&mut out, c, level);
        }
    }
    link(&mut out, r, false);
    footer(&mut out);
    out
}

fn minimal(r: &LaneResults, with_marker: bool) -> String {
    let mut out = String::new();
    if with_marker {
        out.push_str(&marker(&r.lane));
        out.push('\n');
    }
    let _ = writeln!(out, "## lane {}", text(&r.lane));
    link(&mut out, r, true);
    out
}

fn header(out: &mut String, r: &LaneResults) {
    let _ = write!(out, "## lane {}", text(&r.lane));
    if let Some(t) = &r.title {
        let _ = write!(out, " — {}", text(t));
    }
    out.push_str("\n\n| | |\n|---|---|\n");
    let wheel = r.wheel.as_ref().map_or_else(
        || "not staged".to_owned(),
        |w| format!("{} (sha256 {})", text(&w.file), text(&w.sha256)),
    );
    let _ = writeln!(out, "| Wheel | {wheel} |");
    let _ = writeln!(
        out,
        "| Base | {} |",
        r.base.as_deref().map_or_else(|| "unknown".to_owned(), text)
    );
    if let Some(b) = &r.branch {
        let _ = writeln!(out, "| Branch | {} |", text(b));
    }
    let picks = if r.picks.is_empty() {
        "none".to_owned()
    } else {
        let shown: Vec<String> = r.picks.iter().take(30).map(|p| text(p)).collect();
        let more = r.picks.len().saturating_sub(30);
        if more > 0 {
            format!("{} and {more} more", shown.join(", "))
        } else {
            shown.join(", ")
        }
    };
    let _ = writeln!(out, "| Picks | {picks} |");
    let guard = r.guard.as_ref().map_or_else(
        || "not recorded".to_owned(),
        |g| {
            format!(
                "{} — {}",
                if g.passed { "passed" } else { "**refused**" },
                text(&g.summary)
            )
        },
    );
    let _ = writeln!(out, "| Guards | {guard} |");
    if let Some(b) = &r.baseline {
        let _ = writeln!(out, "| Baseline lane | {} |", text(b));
    }
    if r.replay {
        out.push_str("| Replay | yes: these numbers were replayed, not measured fresh |\n");
    }
    let v = conclusion(r);
    let _ = writeln!(out, "| Verdict | **{}** |", v.conclusion.as_str());
    if !v.reasons.is_empty() {
        out.push('\n');
        for reason in v.reasons.iter().take(10) {
            let _ = writeln!(out, "- {}", text(reason));
        }
        if v.reasons.len() > 10 {
            let _ = writeln!(out, "- and {} more", v.reasons.len() - 10);
        }
    }
}

fn status_of(rep: &RepeatResult) -> String {
    rep.status()
        .map_or_else(|| "unknown".to_owned(), |s| text(&s))
}

fn recipe_of(c: &CellResult, rep: &RepeatResult) -> String {
    rep.recipe(c)
        .map_or_else(|| "unknown".to_owned(), |s| text(&s))
}

fn phases_cell(b: &MintBreakdown) -> String {
    let mut parts: Vec<String> = b
        .phases
        .iter()
        .map(|p| {
            format!(
                "{} {} ({})",
                text(&p.name),
                secs(Some(p.seconds)),
                pct(p.share)
            )
        })
        .collect();
    if let Some(res) = &b.outside_phases {
        parts.push(format!(
            "{} (residual) {} ({})",
            text(&res.name),
            secs(Some(res.seconds)),
            pct(res.share)
        ));
    }
    if parts.is_empty() {
        "absent".to_owned()
    } else {
        parts.join("<br>")
    }
}

fn warmup_cell(b: &MintBreakdown) -> String {
    match &b.warmup_split {
        Some(w) => format!(
            "compile {} / execute {}",
            secs(w.compile_s),
            secs(w.execute_s)
        ),
        None if b.phases.iter().any(|p| p.name == "warmup_forward") => {
            "no split (ledger cannot say)".to_owned()
        }
        None => "—".to_owned(),
    }
}

fn determinism_cell(d: Option<&DeterminismReport>, note: Option<&String>) -> String {
    match (d, note) {
        (Some(d), _) => d.verdict.describe().to_owned(),
        (None, Some(n)) => format!("not diffed: {}", text(n)),
        (None, None) => "not diffed".to_owned(),
    }
}

fn delta_cell(c: &CellResult) -> String {
    if let Some(cmp) = &c.comparison {
        return match cmp.rows.iter().find(|row| row.group == "total") {
            Some(row) => delta_text(row),
            None => "no total".to_owned(),
        };
    }
    match &c.comparison_note {
        Some(n) => format!("not compared: {}", text(n)),
        None => "no baseline".to_owned(),
    }
}

fn delta_text(row: &lane_ledger::compare::DeltaRow) -> String {
    let rel = row
        .delta_rel
        .map_or_else(String::new, |r| format!(" ({:+.1} %)", 100.0 * r));
    match (row.delta_s, row.verdict) {
        (Some(d), DeltaVerdict::Noise) => format!("{}{rel} ~noise", signed(d)),
        (Some(d), DeltaVerdict::Slower) => format!("{}{rel} **slower**", signed(d)),
        (Some(d), DeltaVerdict::Faster) => format!("{}{rel} faster", signed(d)),
        (_, DeltaVerdict::OnlyBaseline) => "only in baseline".to_owned(),
        (_, DeltaVerdict::OnlyCandidate) => "only in this lane".to_owned(),
        (None, _) => "absent".to_owned(),
    }
}

fn cells_table(out: &mut String, r: &LaneResults) {
    out.push_str("\n### Cells\n\n");
    if r.cells.is_empty() {
        out.push_str("No cells in the results.\n");
        return;
    }
    out.push_str(
        "| Cell | GPU | Recipe | Run | Status | Total | Phases (share) | `warmup_forward` | Compile fraction | Determinism | Δ vs baseline |\n\
         |---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for c in &r.cells {
        let det = determinism_cell(c.determinism.as_ref(), c.determinism_note.as_ref());
        let delta = delta_cell(c);
        if c.repeats.is_empty() {
            let _ = writeln!(
                out,
                "| {} | {} | {} | — | no runs | no report | | | | {det} | {delta} |",
                text(&c.cell),
                text(&c.gpu),
                c.recipe
                    .as_deref()
                    .map_or_else(|| "unknown".to_owned(), text)
            );
        }
        for (i, rep) in c.repeats.iter().enumerate() {
            let (det, delta) = if i == 0 {
                (det.as_str(), delta.as_str())
            } else {
                ("″", "″")
            };
            let b = &rep.breakdown;
            let (total, phases, warm, frac) = if rep.measured() {
                (
                    secs(b.total_s),
                    phases_cell(b),
                    warmup_cell(b),
                    pct(b.compile_fraction),
                )
            } else {
                let wall = rep
                    .mint
                    .as_ref()
                    .and_then(|m| m.wall_s)
                    .map_or_else(String::new, |w| format!(" (job wall {})", secs(Some(w))));
                (
                    format!("no report{wall}"),
                    String::new(),
                    String::new(),
                    String::new(),
                )
            };
            let _ = writeln!(
                out,
                "| {} | {} | {} | r{} | {} | {total} | {phases} | {warm} | {frac} | {det} | {delta} |",
                text(&c.cell),
                text(&c.gpu),
                recipe_of(c, rep),
                rep.repeat,
                status_of(rep),
            );
        }
    }
}

const SUMMARY_FINDINGS: usize = 30;

fn findings(out: &mut String, r: &LaneResults, level: Level) {
    let mut all = Vec::new();
    for c in &r.cells {
        for rep in &c.repeats {
            for f in &rep.breakdown.findings {
                all.push((c, rep.repeat, f));
            }
        }
    }
    out.push_str("\n### Findings\n\n");
    if all.is_empty() {
        out.push_str("None.\n");
        return;
    }
    all.sort_by_key(|f| std::cmp::Reverse(f.2.severity));
    let cap = if level >= Level::Summary {
        SUMMARY_FINDINGS
    } else {
        usize::MAX
    };
    for (c, repeat, f) in all.iter().take(cap) {
        let subject = f
            .subject
            .as_deref()
            .map_or_else(String::new, |s| format!(" ({})", text(s)));
        let _ = writeln!(
            out,
            "- **{}** {}{subject} — {} on {} r{repeat}: {}",
            f.severity,
            serde_kind(f),
            text(&c.cell),
            text(&c.gpu),
            text(&f.message)
        );
    }
    if all.len() > cap {
        let _ = writeln!(out, "- and {} more (see the full report)", all.len() - cap);
    }
}

fn chart(out: &mut String, r: &LaneResults) {
    let mut charts = String::new();
    for c in &r.cells {
        let Some(rep) = c.repeats.iter().find(|r| r.measured()) else {
            continue;
        };
        let b = &rep.breakdown;
        let mut slices: Vec<(String, f64)> = b
            .phases
            .iter()
            .map(|p| (label(&p.name), p.seconds))
            .collect();
        if let Some(res) = &b.outside_phases {
            slices.push((format!("{} (residual)", label(&res.name)), res.seconds));
        }
        let positive: Vec<&(String, f64)> = slices.iter().filter(|(_, s)| *s > 0.0).collect();
        if positive.is_empty() {
            continue;
        }
        let _ = writeln!(
            charts,
            "\n```mermaid\npie showData\n    title {} on {} r{} (seconds)",
            label(&c.cell),
            label(&c.gpu),
            rep.repeat
        );
        for (name, s) in positive {
            let _ = writeln!(charts, "    \"{name}\" : {s:.3}");
        }
        charts.push_str("```\n");
        let dropped: Vec<&(String, f64)> = slices.iter().filter(|(_, s)| *s <= 0.0).collect();
        if !dropped.is_empty() {
            let names: Vec<String> = dropped
                .iter()
                .map(|(n, s)| format!("{n} {}", secs(Some(*s))))
                .collect();
            let _ = writeln!(
                charts,
                "\nNot drawn (zero or negative, see the table): {}",
                names.join(", ")
            );
        }
    }
    if !charts.is_empty() {
        out.push_str("\n### Phase shares\n");
        out.push_str(&charts);
    }
}

fn partition_table(out: &mut String, p: &Partition) {
    let _ = writeln!(
        out,
        "\n{} {} partitioned:\n\n| Member | Seconds | Share |\n|---|---|---|",
        text(&p.total.name),
        secs(Some(p.total.seconds))
    );
    for m in &p.members {
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            text(&m.name),
            secs(Some(m.seconds)),
            pct(m.share)
        );
    }
    let _ = writeln!(
        out,
        "| *{} (residual)* | {} | {} |",
        text(&p.residual.name),
        secs(Some(p.residual.seconds)),
        pct(p.residual.share)
    );
    if !p.unobserved.is_empty() {
        let names: Vec<String> = p.unobserved.iter().map(|n| text(n)).collect();
        let _ = writeln!(
            out,
            "\nNot observed (absent, not zero): {}",
            names.join(", ")
        );
    }
}

fn breakdown_details(out: &mut String, rep: &RepeatResult, level: Level) {
    let b = &rep.breakdown;
    let _ = writeln!(out, "\n#### r{} ({})", rep.repeat, text(&b.ledger.label()));
    if let Some(m) = &rep.mint {
        let _ = writeln!(
            out,
            "\nJob: status {}, attempt {}, wall {}, exit code {}{}",
            m.status
                .as_deref()
                .map_or_else(|| "unknown".to_owned(), text),
            m.attempt
                .map_or_else(|| "unknown".to_owned(), |a| a.to_string()),
            secs(m.wall_s),
            m.exit_code
                .map_or_else(|| "absent".to_owned(), |c| c.to_string()),
            if m.replay { ", replayed" } else { "" }
        );
    }
    if !rep.measured() {
        let reason = match &b.ledger {
            lane_ledger::LedgerKind::Missing { reason } => text(reason),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "\nNo report ({reason}): nothing was measured; no numbers are shown."
        );
        return;
    }
    let _ = writeln!(
        out,
        "\nTotal {}{}.",
        secs(b.total_s),
        b.total_from
            .map_or_else(String::new, |f| format!(" (from {})", text(f)))
    );
    if !b.phases.is_empty() {
        out.push_str("\n| Phase | Seconds | Share |\n|---|---|---|\n");
        for p in &b.phases {
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                text(&p.name),
                secs(Some(p.seconds)),
                pct(p.share)
            );
        }
        if let Some(res) = &b.outside_phases {
            let _ = writeln!(
                out,
                "| *{} (residual)* | {} | {} |",
                text(&res.name),
                secs(Some(res.seconds)),
                pct(res.share)
            );
        }
    }
    if let Some(w) = &b.warmup_split {
        let _ = writeln!(
            out,
            "\n{}: compile {}, execute {}, outside the ledger {} (wall {}).",
            text(&w.phase),
            secs(w.compile_s),
            secs(w.execute_s),
            secs(w.outside_ledger_s),
            secs(w.wall_s)
        );
    }
    if let Some(p) = &b.compile_partition {
        partition_table(out, p);
    }
    if !b.overlays.is_empty() {
        out.push_str("\nOverlays (shown apart, never summed into the partition):\n\n");
        for o in &b.overlays {
            let _ = writeln!(
                out,
                "- {} {} ({} of total){}",
                text(&o.name),
                secs(Some(o.seconds)),
                pct(o.share_of_total),
                if o.exceeds_total {
                    ", exceeds the total"
                } else {
                    ""
                }
            );
        }
    }
    if level == Level::Full {
        if !b.jobs.is_empty() {
            out.push_str("\n| Job | Wall | Compile | Execute | Compiled nothing | Failed |\n|---|---|---|---|---|---|\n");
            for j in &b.jobs {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {} | {} |",
                    text(&j.job),
                    secs(j.wall_s),
                    secs(j.compile_s),
                    secs(j.execute_s),
                    j.compiled_nothing
                        .map_or("absent", |c| if c { "yes" } else { "no" }),
                    if j.failed { "**failed**" } else { "no" }
                );
            }
        }
        for e in &b.entries {
            let _ = writeln!(
                out,
                "\nAOT entry {}{}:",
                text(&e.name),
                if e.failed {
                    " (**failed**, seconds kept)"
                } else {
                    ""
                }
            );
            for p in [&e.compile, &e.child_wall, &e.compile_wall]
                .into_iter()
                .flatten()
            {
                partition_table(out, p);
            }
        }
    }
}

fn determinism_details(out: &mut String, d: &DeterminismReport, level: Level) {
    let _ = writeln!(
        out,
        "\n#### Determinism (r1 against r2): {}\n\n{}\n\nFiles: {} in r1, {} in r2, {} identical, {} differing.",
        d.verdict.describe(),
        text(&d.summary),
        d.files.a,
        d.files.b,
        d.files.identical,
        d.files.differing
    );
    if !d.kernel_diffs.is_empty() {
        if level == Level::Full {
            out.push_str("\n| Kernel | Config field | r1 | r2 |\n|---|---|---|---|\n");
            for k in &d.kernel_diffs {
                for f in &k.fields {
                    let v = |x: &Option<_>| {
                        x.as_ref().map_or_else(
                            || "absent".to_owned(),
                            |v: &serde_json::Value| text(&v.to_string()),
                        )
                    };
                    let _ = writeln!(
                        out,
                        "| {} | {} | {} | {} |",
                        text(&k.kernel),
                        text(&f.field),
                        v(&f.a),
                        v(&f.b)
                    );
                }
            }
        } else {
            let names: Vec<String> = d
                .kernel_diffs
                .iter()
                .take(20)
                .map(|k| text(&k.kernel))
                .collect();
            let _ = writeln!(
                out,
                "\nKernels whose autotune config differs ({}): {}",
                d.kernel_diffs.len(),
                names.join(", ")
            );
        }
    }
    if !d.unexplained.is_empty() {
        out.push_str("\nUnexplained:\n\n");
        let cap = if level == Level::Full { usize::MAX } else { 10 };
        for u in d.unexplained.iter().take(cap) {
            let _ = writeln!(
                out,
                "- {} / {}: {}",
                u.a.as_deref().map_or_else(|| "absent".to_owned(), text),
                u.b.as_deref().map_or_else(|| "absent".to_owned(), text),
                text(&u.reason)
            );
        }
        if d.unexplained.len() > cap {
            let _ = writeln!(out, "- and {} more", d.unexplained.len() - cap);
        }
    }
}

fn comparison_details(out: &mut String, cmp: &Comparison, baseline: &str, level: Level) {
    let _ = writeln!(
        out,
        "\n#### Against {} ({} baseline mint(s), {} here; noise: below max({:.3} s, {:.1} %))\n\n| Row | Baseline | This lane | Δ |\n|---|---|---|---|",
        baseline,
        cmp.baseline.mints,
        cmp.candidate.mints,
        cmp.noise_rule.floor_s,
        100.0 * cmp.noise_rule.relative
    );
    for row in &cmp.rows {
        if level != Level::Full && !matches!(row.group, "total" | "phase") {
            continue;
        }
        let _ = writeln!(
            out,
            "| {} {} | {} | {} | {} |",
            text(row.group),
            text(&row.name),
            secs(row.baseline_s),
            secs(row.candidate_s),
            delta_text(row)
        );
    }
}

fn details(out: &mut String, c: &CellResult, level: Level) {
    let _ = writeln!(
        out,
        "\n<details><summary>{} on {}: partition, overlays, jobs, determinism</summary>\n",
        text(&c.cell),
        text(&c.gpu)
    );
    for rep in &c.repeats {
        breakdown_details(out, rep, level);
    }
    if let Some(d) = &c.determinism {
        determinism_details(out, d, level);
    }
    if let Some(cmp) = &c.comparison {
        comparison_details(out, cmp, "the baseline lane", level);
    }
    out.push_str("\n</details>\n");
}

fn link(out: &mut String, r: &LaneResults, always: bool) {
    match r.report_url.as_deref().and_then(url) {
        Some(u) => {
            let _ = writeln!(out, "\nFull report: [{}]({u})", text(&u));
        }
        None if always => out.push_str("\nThe full report is in the lane's results folder.\n"),
        None => {}
    }
}

fn footer(out: &mut String) {
    out.push_str("\n<sub>Posted by lane; this comment is updated in place on every run.</sub>\n");
}
