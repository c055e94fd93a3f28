//! A determinism diff: the verdict, what each side was read as, the file
//! counts, the decisions that flipped, the kernels whose config differs
//! (both configs and the lines that carry them), the files explained, the
//! inputs' findings and what is unexplained.

use std::collections::BTreeMap;

use lane_diff::coldness::Coldness;
use lane_diff::{ConfigSource, ContainerInfo, DiffClass, SkippedEntry, Unexplained, WrapperLine};
use lane_diff::{DeterminismReport, DeterminismVerdict};
use serde::Serialize;
use serde_json::Value as Json;

use super::doc::{capped, Blocks, Depth, RowRole, Table, TableKind};
use super::value::{Cell, Tone};
use super::{bound, short, LONG, PROSE};

/// A determinism diff, ready to lay out.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DeterminismView {
    /// The verdict's words.
    pub verdict: String,
    /// How the verdict reads.
    pub tone: Tone,
    /// Everything else, in order.
    pub blocks: Blocks,
}

/// The most wrapper lines shown per kernel.
const KERNEL_LINES: usize = 8;
/// The most lines or values shown per unexplained difference.
const UNEXPLAINED_ROWS: usize = 20;
/// The most files named per explaining reason.
const EXAMPLES: usize = 3;

/// A verdict's tone.
pub(crate) fn verdict_tone(v: DeterminismVerdict) -> Tone {
    match v {
        DeterminismVerdict::Unexplained => Tone::Bad,
        DeterminismVerdict::DecisionsFlipped | DeterminismVerdict::IdenticalNotProven => Tone::Warn,
        _ => Tone::Quiet,
    }
}

pub(crate) fn name_of(v: impl Serialize) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn json(v: &Option<Json>) -> String {
    v.as_ref()
        .map_or_else(|| "absent".to_owned(), |v| short(&v.to_string()))
}

fn config_line(c: &BTreeMap<String, Json>) -> String {
    c.iter()
        .map(|(k, v)| format!("{}={}", short(k), short(&v.to_string())))
        .collect::<Vec<_>>()
        .join(" ")
}

fn containers(list: &[ContainerInfo]) -> String {
    if list.is_empty() {
        return "plain files (no archive)".into();
    }
    list.iter()
        .map(|c| {
            let at = if c.path.is_empty() {
                "itself ".to_owned()
            } else {
                format!("{} ", short(&c.path))
            };
            let top = c
                .stripped_top
                .as_deref()
                .map(|t| format!(", top folder {}/ stripped", short(t)))
                .unwrap_or_default();
            format!("{at}({}, {} members{top})", c.format, c.members)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

/// A source line, kept whole up to [`LONG`] (a config sits at its end).
fn line(s: &str) -> String {
    bound(s, LONG)
}

fn pair(a: &Option<String>, b: &Option<String>) -> String {
    format!(
        "{} | {}",
        a.as_deref().map_or("(none)".into(), short),
        b.as_deref().map_or("(none)".into(), short)
    )
}

/// A recorded decision's name: the first word of its headline after the
/// file (`kernel_lane`, `pad_mm`), else the last key of its JSON path.
fn decision_name(d: &lane_diff::DecisionDiff) -> String {
    let rest = d
        .headline
        .strip_prefix(&d.file)
        .unwrap_or(&d.headline)
        .trim_start();
    let word = rest.split([':', ' ']).next().unwrap_or("");
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return short(word);
    }
    let key = d.path.trim_start_matches('$').trim_start_matches('.');
    let last = key.rsplit('.').next().unwrap_or(key);
    short(last.split('[').next().unwrap_or(last))
}

fn winner(v: &Option<Json>) -> String {
    match v {
        Some(Json::String(s)) => short(s),
        Some(other) => short(&other.to_string()),
        None => "absent".to_owned(),
    }
}

/// Why two cold repeats differ, in one clause: the decisions that
/// flipped, how many kernels chose other configs, what is unexplained
/// (``its cold repeats differ: `kernel_lane` flipped (baseline+packed ->
/// baseline+dense); 6 of 48 kernels on other configs``).
/// Why two repeats differ: the cells', or (class by class) the worst
/// class's cause, named by its class; a class on one side only is said.
pub(crate) fn pair_cause(d: &lane_diff::PairDiff) -> String {
    // The pair's coldness speaks first: identical classes of repeats not
    // proven cold are no proof, whatever each class reads.
    if d.verdict() == DeterminismVerdict::IdenticalNotProven {
        let why = match d {
            lane_diff::PairDiff::Cells(r) => &r.summary,
            lane_diff::PairDiff::Classes(m) => &m.summary,
        };
        return super::bound(why, super::LONG);
    }
    match d {
        lane_diff::PairDiff::Cells(r) => cause(r),
        lane_diff::PairDiff::Classes(m) => {
            if !m.only_a.is_empty() || !m.only_b.is_empty() {
                return format!(
                    "{} graph class(es) on one side only",
                    m.only_a.len() + m.only_b.len()
                );
            }
            match m.classes.iter().max_by_key(|c| c.report.verdict) {
                None => "no graph class to diff".to_owned(),
                Some(worst) if m.classes.len() == 1 => cause(&worst.report),
                Some(worst) => format!(
                    "{} graph classes; the worst, {}: {}",
                    m.classes.len(),
                    super::short(&worst.class.key),
                    cause(&worst.report)
                ),
            }
        }
    }
}

pub(crate) fn cause(r: &DeterminismReport) -> String {
    match r.verdict {
        DeterminismVerdict::ByteIdentical => return "its cold repeats are byte-identical".into(),
        DeterminismVerdict::IdenticalNotProven => {
            return "its repeats are identical, but not a proof of determinism (not both proven cold)"
                .into()
        }
        DeterminismVerdict::PathNoiseOnly => {
            return "its cold repeats differ only by path noise".into()
        }
        _ => {}
    }
    let mut parts: Vec<String> = r
        .decisions
        .iter()
        .take(3)
        .map(|d| {
            let name = decision_name(d);
            match (&d.winner_a, &d.winner_b) {
                (a, b) if a != b => format!("`{name}` flipped ({} → {})", winner(a), winner(b)),
                (Some(_), _) => format!(
                    "`{name}` recorded other evidence for the same winner ({})",
                    winner(&d.winner_a)
                ),
                (None, _) => format!("`{name}` changed"),
            }
        })
        .collect();
    if r.decisions.len() > 3 {
        parts.push(format!("and {} more decisions", r.decisions.len() - 3));
    }
    if r.kernels.differing > 0 {
        parts.push(format!(
            "{} of {} kernels on other configs",
            r.kernels.differing, r.kernels.with_configs
        ));
    }
    if !r.unexplained.is_empty() {
        parts.push(format!("{} difference(s) unexplained", r.unexplained.len()));
    }
    if parts.is_empty() {
        parts.push(r.verdict.describe().to_owned());
    }
    format!("its cold repeats differ: {}", parts.join("; "))
}

/// Each side's coldness, one line a side, when the edge looked.
pub(crate) fn coldness(out: &mut Blocks, c: Option<&Coldness>) {
    let Some(c) = c else { return };
    for (side, s) in [("A", &c.a), ("B", &c.b)] {
        let line = format!("cold, {side}: {} ({})", name_of(s.cold), s.why);
        out.line(Depth::Collapsed, 0, bound(&line, PROSE));
    }
}

/// The attempt folders normalised first and the names derived from them
/// (rule 0), one line each, when there are any.
fn derivation(out: &mut Blocks, d: &lane_diff::Derivation) {
    for (side, folders) in [("A", &d.attempt_a), ("B", &d.attempt_b)] {
        if !folders.is_empty() {
            let line = format!("attempt folder, {side}: {}", folders.join(", "));
            out.line(Depth::Collapsed, 0, bound(&line, PROSE));
        }
    }
    for n in &d.derived_names {
        let line = format!(
            "derived {}: {} <-> {}, derived from {}",
            name_of(n.kind),
            n.a,
            n.b,
            n.derived_from
        );
        out.line(Depth::Collapsed, 0, bound(&line, PROSE));
        out.line(Depth::Full, 1, bound(&n.evidence, PROSE));
    }
    for note in &d.notes {
        out.line(Depth::Collapsed, 0, bound(note, PROSE));
    }
}

/// Builds the view of a determinism diff.
pub fn determinism(r: &DeterminismReport) -> DeterminismView {
    let mut out = Blocks::default();
    out.line(Depth::Collapsed, 0, bound(&r.summary, PROSE));
    coldness(&mut out, r.coldness.as_ref());
    derivation(&mut out, &r.derivation);
    inputs(&mut out, r);
    let f = &r.files;
    out.para(
        Depth::Collapsed,
        0,
        format!(
            "files: A {}, B {}; identical {}; paired by path {}, by role/kernel {}; differing {}; only in A {}; only in B {}",
            f.a, f.b, f.identical, f.paired_by_path, f.paired_by_role, f.differing,
            f.only_a.len(), f.only_b.len()
        ),
    );
    if !r.noise.is_empty() {
        let list: Vec<String> = r
            .noise
            .iter()
            .map(|n| format!("{} ({} file(s))", name_of(n.kind), n.files))
            .collect();
        out.line(
            Depth::Full,
            0,
            format!("noise removed: {}", list.join(", ")),
        );
    }
    let k = &r.kernels;
    out.line(
        Depth::Collapsed,
        0,
        format!(
            "configs: {} kernel(s) ({} from a best_config, {} from wrapper launchers); {} differ, {} agree",
            k.with_configs, k.from_best_config, k.from_wrapper, k.differing, k.agreeing
        ),
    );
    decisions(&mut out, r);
    kernels(&mut out, r);
    explained(&mut out, r);
    let noise_only = r
        .file_diffs
        .iter()
        .filter(|d| d.class == DiffClass::Noise)
        .count();
    out.para(
        Depth::Collapsed,
        0,
        format!("files differing only by noise: {noise_only}"),
    );
    let mut t = Table::new(
        TableKind::InputFindings,
        &["Side", "Path", "Field", "Value", "Expected"],
    )
    .titled(format!("findings ({})", r.findings.len()));
    for x in &r.findings {
        t.push(
            RowRole::Plain,
            vec![
                Cell::text(x.side),
                Cell::text(short(&x.path)),
                Cell::text(short(&x.field)),
                Cell::text(short(&x.value.to_string())),
                Cell::text(x.expected),
            ],
        );
    }
    out.table(Depth::Collapsed, 0, t);
    unexplained(&mut out, r);
    DeterminismView {
        verdict: r.verdict.describe().to_owned(),
        tone: verdict_tone(r.verdict),
        blocks: out,
    }
}

fn inputs(out: &mut Blocks, r: &DeterminismReport) {
    let i = &r.inputs;
    let mut t = Table::new(TableKind::Inputs, &["Side", "Read as"]).titled("read");
    t.push(
        RowRole::Plain,
        vec![Cell::text("A"), Cell::text(containers(&i.containers_a))],
    );
    t.push(
        RowRole::Plain,
        vec![Cell::text("B"), Cell::text(containers(&i.containers_b))],
    );
    out.table(Depth::Full, 0, t);
    let mut t = Table::new(TableKind::Inputs, &["Side", "Kind", "Path", "Target"])
        .titled("skipped (not read: links, pipes, devices, lane's records of the mint)");
    let mut skipped = |side: &str, list: &[SkippedEntry]| {
        for s in list {
            t.push(
                RowRole::Plain,
                vec![
                    Cell::text(side),
                    Cell::text(name_of(s.kind)),
                    Cell::text(short(&s.path)),
                    Cell::text(s.target.as_deref().map(short).unwrap_or_default()),
                ],
            );
        }
    };
    skipped("A", &i.skipped_a);
    skipped("B", &i.skipped_b);
    out.table(Depth::Full, 0, t);
}

fn decisions(out: &mut Blocks, r: &DeterminismReport) {
    if r.decisions.is_empty() {
        return;
    }
    out.para(
        Depth::Collapsed,
        0,
        format!("decisions that flipped ({}):", r.decisions.len()),
    );
    for d in &r.decisions {
        out.line(Depth::Collapsed, 1, bound(&d.headline, PROSE));
        out.line(Depth::Full, 2, format!("at: {}", short(&d.path)));
        if let Some(w) = &d.what {
            out.line(Depth::Full, 2, format!("what: {}", bound(w, LONG)));
        }
        let mut t = Table::new(TableKind::Decision, &["Field", "A", "B"]);
        for c in &d.changed {
            let field = c.path.strip_prefix(&d.path).unwrap_or(&c.path);
            let field = match field.trim_start_matches('.') {
                "" => "value",
                f => f,
            };
            t.push(
                RowRole::Plain,
                vec![
                    Cell::text(short(field)),
                    Cell::text(json(&c.a)),
                    Cell::text(json(&c.b)),
                ],
            );
        }
        let winner = if d.winner_a == d.winner_b {
            "winner (the same in both)"
        } else {
            "winner"
        };
        t.push(
            RowRole::Plain,
            vec![
                Cell::text(winner),
                Cell::text(json(&d.winner_a)),
                Cell::text(json(&d.winner_b)),
            ],
        );
        out.table(Depth::Full, 2, t);
        let on: Vec<String> = d
            .decided_on
            .iter()
            .map(|(k, v)| format!("{}={}", short(k), short(&v.to_string())))
            .collect();
        out.line(Depth::Full, 2, format!("decided on: {}", on.join(", ")));
        for m in &d.meaning {
            out.line(Depth::Full, 2, format!("meaning: {}", bound(m, PROSE)));
        }
        if !d.source_nodes.is_empty() {
            let nodes: Vec<String> = d.source_nodes.iter().map(|n| short(n)).collect();
            out.line(
                Depth::Full,
                2,
                format!("the decided op in the traced program: {}", nodes.join(", ")),
            );
        }
        // The kernels it brought, each with the graph link that makes it its.
        let mut t = Table::new(
            TableKind::Decision,
            &["Kernel", "Where", "Link", "Evidence"],
        )
        .titled(format!("kernels it brought ({})", d.kernels.len()));
        for k in &d.kernels {
            t.push(
                RowRole::Plain,
                vec![
                    Cell::text(short(&k.kernel)),
                    Cell::text(name_of(k.presence)),
                    Cell::text(name_of(k.link)),
                    Cell::text(bound(&k.evidence, LONG)),
                ],
            );
        }
        if !d.kernels.is_empty() {
            out.table(Depth::Full, 2, t);
        }
        // The output-code lines it explains line by line, per file.
        let mut files: Vec<&str> = d.lines.iter().map(|l| l.file.as_str()).collect();
        files.dedup();
        for file in files {
            let ls: Vec<WrapperLine> = d.lines.iter().filter(|l| l.file == file).cloned().collect();
            out.table(
                Depth::Full,
                2,
                lines_table(file, &ls, UNEXPLAINED_ROWS).titled(format!(
                    "lines of {} that follow it ({})",
                    short(file),
                    ls.len()
                )),
            );
        }
    }
}

fn lines_table(kernel: &str, ls: &[WrapperLine], cap: usize) -> Table {
    let mut t = Table::new(
        TableKind::WrapperLines,
        &["Kernel", "Role", "Lines (A:B)", "A", "B"],
    );
    capped(&mut t, ls, cap, |t, l| {
        let at = format!(
            "{}:{}",
            l.line_a.map_or_else(|| "-".to_owned(), |n| n.to_string()),
            l.line_b.map_or_else(|| "-".to_owned(), |n| n.to_string())
        );
        t.push(
            RowRole::Plain,
            vec![
                Cell::text(short(kernel)),
                Cell::text(name_of(l.role)),
                Cell::text(at),
                Cell::text(l.text_a.as_deref().map_or("(no line)".into(), line)),
                Cell::text(l.text_b.as_deref().map_or("(no line)".into(), line)),
            ],
        )
    });
    t
}

fn kernels(out: &mut Blocks, r: &DeterminismReport) {
    let mut t = Table::new(
        TableKind::Kernels,
        &["Kernel", "Config from", "A", "B", "Differs"],
    )
    .titled(format!(
        "kernels whose config differs ({})",
        r.kernel_diffs.len()
    ));
    for kd in &r.kernel_diffs {
        let entry = kd
            .entry
            .as_deref()
            .map(|e| format!(" [{}]", short(e)))
            .unwrap_or_default();
        let source = match kd.source {
            ConfigSource::BestConfig => "its best_config",
            ConfigSource::WrapperLaunch => "its launcher in the wrapper",
        };
        let changed: Vec<String> = kd
            .fields
            .iter()
            .map(|f| format!("{} {} -> {}", short(&f.field), json(&f.a), json(&f.b)))
            .collect();
        t.push(
            RowRole::Plain,
            vec![
                Cell::text(format!("{}{entry}", short(&kd.kernel))),
                Cell::text(source),
                Cell::text(config_line(&kd.config_a)),
                Cell::text(config_line(&kd.config_b)),
                Cell::text(if changed.is_empty() {
                    "no field named".to_owned()
                } else {
                    changed.join(", ")
                }),
            ],
        );
    }
    out.table(Depth::Collapsed, 0, t);
    for kd in &r.kernel_diffs {
        out.table(
            Depth::Full,
            1,
            lines_table(&kd.kernel, &kd.wrapper_lines, KERNEL_LINES),
        );
        if let Some((a, b)) = &kd.cubin {
            out.line(
                Depth::Full,
                1,
                format!(
                    "{}: cubin follows the config: {} | {}",
                    short(&kd.kernel),
                    short(a),
                    short(b)
                ),
            );
        }
    }
    if !r.kernels.config_same.is_empty() {
        out.para(
            Depth::Full,
            0,
            format!(
                "same config ({}): {}",
                r.kernels.config_same.len(),
                r.kernels
                    .config_same
                    .iter()
                    .map(|s| short(s))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        );
    }
}

fn explained(out: &mut Blocks, r: &DeterminismReport) {
    // One row per reason, with the first files it explains.
    let mut by_reason: Vec<(&str, Vec<String>)> = Vec::new();
    for d in r
        .file_diffs
        .iter()
        .filter(|d| matches!(d.class, DiffClass::AutotuneConfig | DiffClass::Decision))
    {
        let reason = d.reason.as_deref().unwrap_or("");
        let files = pair(&d.a, &d.b);
        match by_reason.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, v)) => v.push(files),
            None => by_reason.push((reason, vec![files])),
        }
    }
    let total: usize = by_reason.iter().map(|(_, f)| f.len()).sum();
    let mut t = Table::new(TableKind::Explained, &["Reason", "Files", "First files"])
        .titled(format!("files explained by configs or decisions ({total})"));
    for (reason, files) in &by_reason {
        let mut first = files.iter().take(EXAMPLES).cloned().collect::<Vec<_>>();
        if files.len() > EXAMPLES {
            first.push(format!("... and {} more", files.len() - EXAMPLES));
        }
        t.push(
            RowRole::Plain,
            vec![
                Cell::text(bound(reason, PROSE)),
                Cell::count(files.len() as u64),
                Cell::text(first.join("; ")),
            ],
        );
    }
    out.table(Depth::Full, 0, t);
}

/// One row per unexplained difference: its cause, files and reason.
pub(crate) fn unexplained_table(title: &str, list: &[Unexplained]) -> Table {
    let mut t = Table::new(TableKind::Unexplained, &["Cause", "A | B", "Reason"])
        .titled(format!("{title} ({})", list.len()));
    for u in list {
        t.push(
            RowRole::Plain,
            vec![
                Cell::toned(name_of(u.cause), Tone::Bad),
                Cell::text(pair(&u.a, &u.b)),
                Cell::text(bound(&u.reason, PROSE)),
            ],
        );
    }
    t
}

fn unexplained(out: &mut Blocks, r: &DeterminismReport) {
    if r.unexplained.is_empty() {
        out.line(Depth::Collapsed, 0, "unexplained: none");
        return;
    }
    out.table(
        Depth::Collapsed,
        0,
        unexplained_table("unexplained", &r.unexplained),
    );
    for u in &r.unexplained {
        let file = pair(&u.a, &u.b);
        out.table(
            Depth::Full,
            1,
            lines_table(&file, &u.lines, UNEXPLAINED_ROWS).titled(format!("lines of {file}")),
        );
        let mut v = Table::new(TableKind::Unexplained, &["Value", "A", "B"])
            .titled(format!("values of {file}"));
        capped(&mut v, &u.values, UNEXPLAINED_ROWS, |t, x| {
            t.push(
                RowRole::Plain,
                vec![
                    Cell::text(short(&x.path)),
                    Cell::text(json(&x.a)),
                    Cell::text(json(&x.b)),
                ],
            )
        });
        out.table(Depth::Full, 1, v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lane_diff::{Derivation, DerivedKind, DerivedName};

    #[test]
    fn the_derivation_is_shown_name_by_name() {
        let d = Derivation {
            attempt_a: vec!["/o/mints/c/g/r1/a1".into()],
            attempt_b: vec!["/o/mints/c/g/r2/a1".into()],
            derived_names: vec![DerivedName {
                kind: DerivedKind::HashedName,
                a: "ca".into(),
                b: "cb".into(),
                derived_from: "the attempt folders".into(),
                evidence: "k/ca.kernel.cpp | k/cb.kernel.cpp".into(),
            }],
            notes: Vec::new(),
        };
        let mut out = Blocks::default();
        derivation(&mut out, &d);
        let text = serde_json::to_string(&out).unwrap();
        assert!(
            text.contains("attempt folder, B: /o/mints/c/g/r2/a1"),
            "{text}"
        );
        assert!(
            text.contains("derived hashed_name: ca <-> cb, derived from the attempt folders"),
            "{text}"
        );
        let mut none = Blocks::default();
        derivation(&mut none, &Derivation::default());
        assert!(none.0.is_empty());
    }
}
