//! `lane diff`'s text: the verdict, then every cause by name (decisions,
//! kernels with both configs and their carriers, explained files, noise,
//! findings, unexplained). Every string that came from the inputs (paths,
//! lines, JSON values) goes through [`escape`]: no raw control byte
//! reaches a terminal.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde::Serialize;
use serde_json::Value;

use super::model::{
    ConfigSource, ContainerInfo, DeterminismReport, DiffClass, SkippedEntry, WrapperLine,
};

/// The longest string, in characters, shown from one input value.
pub const MAX_SHOWN_CHARS: usize = 300;

/// `s` made inert for a terminal: control characters and bidirectional
/// overrides become `\u{..}` escapes, and at most [`MAX_SHOWN_CHARS`]
/// characters are kept (an ellipsis marks a cut).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(MAX_SHOWN_CHARS) + 8);
    for (i, c) in s.chars().enumerate() {
        if i == MAX_SHOWN_CHARS {
            out.push('…');
            break;
        }
        let bidi = matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
        if c.is_control() || bidi {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

fn name_of(v: impl Serialize) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

fn json(v: &Option<Value>) -> String {
    v.as_ref()
        .map_or_else(|| "absent".to_owned(), |v| escape(&v.to_string()))
}

fn config_line(c: &BTreeMap<String, Value>) -> String {
    c.iter()
        .map(|(k, v)| format!("{}={}", escape(k), escape(&v.to_string())))
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
                format!("{} ", escape(&c.path))
            };
            let top = c
                .stripped_top
                .as_deref()
                .map(|t| format!(", top folder {}/ stripped", escape(t)))
                .unwrap_or_default();
            format!("{at}({}, {} members{top})", c.format, c.members)
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn skipped(out: &mut String, side: &str, list: &[SkippedEntry]) {
    for s in list {
        let target = s
            .target
            .as_deref()
            .map(|t| format!(" -> {}", escape(t)))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {side}: {} {}{target} (not read)",
            name_of(s.kind),
            escape(&s.path)
        );
    }
}

fn lines(out: &mut String, ls: &[WrapperLine], indent: &str, max: usize) {
    for l in ls.iter().take(max) {
        let at = format!(
            "{}:{}",
            l.line_a.map_or_else(|| "-".to_owned(), |n| n.to_string()),
            l.line_b.map_or_else(|| "-".to_owned(), |n| n.to_string())
        );
        let _ = writeln!(out, "{indent}{} (line {at})", name_of(l.role));
        let _ = writeln!(
            out,
            "{indent}  A: {}",
            l.text_a.as_deref().map_or("(no line)".into(), escape)
        );
        let _ = writeln!(
            out,
            "{indent}  B: {}",
            l.text_b.as_deref().map_or("(no line)".into(), escape)
        );
    }
    if ls.len() > max {
        let _ = writeln!(out, "{indent}... and {} more line(s)", ls.len() - max);
    }
}

fn pair(a: &Option<String>, b: &Option<String>) -> String {
    format!(
        "{} | {}",
        a.as_deref().map_or("(none)".into(), escape),
        b.as_deref().map_or("(none)".into(), escape)
    )
}

/// The report as text.
pub fn render(r: &DeterminismReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "verdict: {}", r.verdict.describe());
    let _ = writeln!(out, "  {}", escape_long(&r.summary));
    let i = &r.inputs;
    let _ = writeln!(
        out,
        "\nread: A {}\n      B {}",
        containers(&i.containers_a),
        containers(&i.containers_b)
    );
    if !i.skipped_a.is_empty() || !i.skipped_b.is_empty() {
        let _ = writeln!(out, "skipped (links, pipes, devices):");
        skipped(&mut out, "A", &i.skipped_a);
        skipped(&mut out, "B", &i.skipped_b);
    }
    let f = &r.files;
    let _ = writeln!(
        out,
        "files: A {}, B {}; identical {}; paired by path {}, by role/kernel {}; differing {}; only in A {}; only in B {}",
        f.a, f.b, f.identical, f.paired_by_path, f.paired_by_role, f.differing,
        f.only_a.len(), f.only_b.len()
    );
    if !r.noise.is_empty() {
        let list: Vec<String> = r
            .noise
            .iter()
            .map(|n| format!("{} ({} file(s))", name_of(n.kind), n.files))
            .collect();
        let _ = writeln!(out, "noise removed: {}", list.join(", "));
    }
    let k = &r.kernels;
    let _ = writeln!(
        out,
        "configs: {} kernel(s) ({} from a best_config, {} from wrapper launchers); {} differ, {} agree",
        k.with_configs,
        k.from_best_config,
        k.from_wrapper,
        k.differing,
        k.agreeing
    );
    decisions(&mut out, r);
    kernels(&mut out, r);
    let explained: Vec<_> = r
        .file_diffs
        .iter()
        .filter(|d| matches!(d.class, DiffClass::AutotuneConfig | DiffClass::Decision))
        .collect();
    if !explained.is_empty() {
        let _ = writeln!(
            out,
            "\nfiles explained by configs or decisions ({}):",
            explained.len()
        );
        // One line per reason, with the first files it explains.
        let mut by_reason: Vec<(&str, Vec<String>)> = Vec::new();
        for d in explained {
            let reason = d.reason.as_deref().unwrap_or("");
            let files = pair(&d.a, &d.b);
            match by_reason.iter_mut().find(|(r, _)| *r == reason) {
                Some((_, v)) => v.push(files),
                None => by_reason.push((reason, vec![files])),
            }
        }
        for (reason, files) in by_reason {
            let _ = writeln!(out, "  {} ({} file(s))", escape_long(reason), files.len());
            for f in files.iter().take(3) {
                let _ = writeln!(out, "    {f}");
            }
            if files.len() > 3 {
                let _ = writeln!(out, "    ... and {} more", files.len() - 3);
            }
        }
    }
    let noise_only = r
        .file_diffs
        .iter()
        .filter(|d| d.class == DiffClass::Noise)
        .count();
    let _ = writeln!(out, "\nfiles differing only by noise: {noise_only}");
    if !r.findings.is_empty() {
        let _ = writeln!(out, "findings ({}):", r.findings.len());
        for x in &r.findings {
            let _ = writeln!(
                out,
                "  {} {}: {} is {}, expected {}",
                x.side,
                escape(&x.path),
                escape(&x.field),
                escape(&x.value.to_string()),
                x.expected
            );
        }
    }
    if r.unexplained.is_empty() {
        let _ = writeln!(out, "unexplained: none");
    } else {
        let _ = writeln!(out, "unexplained ({}):", r.unexplained.len());
        for u in &r.unexplained {
            let _ = writeln!(
                out,
                "  [{}] {}: {}",
                name_of(u.cause),
                pair(&u.a, &u.b),
                escape_long(&u.reason)
            );
            lines(&mut out, &u.lines, "    ", 20);
            for v in u.values.iter().take(20) {
                let _ = writeln!(
                    out,
                    "    {}: {} -> {}",
                    escape(&v.path),
                    json(&v.a),
                    json(&v.b)
                );
            }
            if u.values.len() > 20 {
                let _ = writeln!(out, "    ... and {} more value(s)", u.values.len() - 20);
            }
        }
    }
    out
}

/// As [`escape`], for lane's own sentences that quote inputs (longer).
fn escape_long(s: &str) -> String {
    s.split_inclusive(' ')
        .map(escape)
        .collect::<String>()
        .chars()
        .take(4 * MAX_SHOWN_CHARS)
        .collect()
}

fn decisions(out: &mut String, r: &DeterminismReport) {
    if r.decisions.is_empty() {
        return;
    }
    let _ = writeln!(out, "\ndecisions that flipped ({}):", r.decisions.len());
    for d in &r.decisions {
        let _ = writeln!(out, "  {}", escape_long(&d.headline));
        let _ = writeln!(out, "    at: {}", escape(&d.path));
        if let Some(w) = &d.what {
            let _ = writeln!(out, "    what: {}", escape_long(w));
        }
        for c in &d.changed {
            let field = c.path.strip_prefix(&d.path).unwrap_or(&c.path);
            let field = match field.trim_start_matches('.') {
                "" => "value",
                f => f,
            };
            let _ = writeln!(
                out,
                "    {}: {} -> {}",
                escape(field),
                json(&c.a),
                json(&c.b)
            );
        }
        if d.winner_a == d.winner_b {
            let _ = writeln!(out, "    winner: {} in both", json(&d.winner_a));
        } else {
            let _ = writeln!(
                out,
                "    winner: {} -> {}",
                json(&d.winner_a),
                json(&d.winner_b)
            );
        }
        let on: Vec<String> = d
            .decided_on
            .iter()
            .map(|(k, v)| format!("{}={}", escape(k), escape(&v.to_string())))
            .collect();
        let _ = writeln!(out, "    decided on: {}", on.join(", "));
        for m in &d.meaning {
            let _ = writeln!(out, "    meaning: {}", escape_long(m));
        }
    }
}

fn kernels(out: &mut String, r: &DeterminismReport) {
    if r.kernel_diffs.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nkernels whose config differs ({}):",
        r.kernel_diffs.len()
    );
    for kd in &r.kernel_diffs {
        let entry = kd
            .entry
            .as_deref()
            .map(|e| format!(" [{}]", escape(e)))
            .unwrap_or_default();
        let source = match kd.source {
            ConfigSource::BestConfig => "from its best_config",
            ConfigSource::WrapperLaunch => "from its launcher in the wrapper",
        };
        let _ = writeln!(out, "  {}{entry} ({source})", escape(&kd.kernel));
        let _ = writeln!(out, "    A: {}", config_line(&kd.config_a));
        let _ = writeln!(out, "    B: {}", config_line(&kd.config_b));
        let changed: Vec<String> = kd
            .fields
            .iter()
            .map(|f| format!("{} {} -> {}", escape(&f.field), json(&f.a), json(&f.b)))
            .collect();
        let _ = writeln!(out, "    differs: {}", changed.join(", "));
        lines(out, &kd.wrapper_lines, "    ", 8);
        if let Some((a, b)) = &kd.cubin {
            let _ = writeln!(
                out,
                "    cubin follows the config: {} | {}",
                escape(a),
                escape(b)
            );
        }
    }
    if !r.kernels.config_same.is_empty() {
        let _ = writeln!(
            out,
            "\n  same config ({}): {}",
            r.kernels.config_same.len(),
            r.kernels
                .config_same
                .iter()
                .map(|s| escape(s))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_bytes_and_bidi_overrides_are_escaped() {
        assert_eq!(escape("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(escape("x\u{202e}y\n"), "x\\u{202e}y\\u{a}");
        let long = "x".repeat(MAX_SHOWN_CHARS + 5);
        assert_eq!(escape(&long).chars().count(), MAX_SHOWN_CHARS + 1);
    }
}
