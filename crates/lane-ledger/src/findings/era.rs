//! What the later eras' report shapes call for (0.114 on): a whole-mint
//! table with no rows (pgw#1356), a compile pool share's last-class
//! members, a mint that resolved what it should have compiled.

use super::*;

/// What the later eras' shapes say: a table with no rows (pgw#1356), a
/// share's last-class members, a mint that reused instead of compiling,
/// unservable graphs.
pub(super) fn era_findings(b: &MintBreakdown, out: &mut Vec<Finding>) {
    if let Some(aot) = &b.aot {
        if let Some(m) = &aot.missing_rows {
            let count = |n: Option<u64>| n.map_or_else(|| "?".to_owned(), |n| n.to_string());
            out.push(
                Finding::new(
                    FindingKind::UpstreamTableDefect,
                    Severity::Info,
                    format!(
                        "the whole-mint table lists no entry (n_entries 0, entries {{}}, phases {{}}) while the mint packed {} cell(s) and the pool was given {} class(es): the upstream's defect pgw#1356 (0.114.3-0.123: the table is built from the deleted serial driver's rows; fixed in 0.124), not \"no entry compiled\"; its export_s, compile_s and warm_s are sums over no row. {}",
                        count(m.packed),
                        count(m.declared),
                        if m.from_shares > 0 {
                            format!("The {} class row(s) here are the compile pool's share reports'.", m.from_shares)
                        } else {
                            "The per-class times are in the compile pool's share reports (compile-pool/share-NNN/report.json), which were not read with it.".to_owned()
                        }
                    ),
                )
                .subject("mint_phases"),
            );
        }
        for share in &aot.shares {
            let Some(p) = &share.compile_wall else {
                continue;
            };
            if let Some(written) = p.residual.reported_s {
                if (written - p.residual.seconds).abs() > tolerance(p.total.seconds) {
                    out.push(
                        Finding::new(
                            FindingKind::SharePartitionLastClass,
                            Severity::Info,
                            format!(
                                "{}: its written compiler members are its last class's only ({}), so its written compile_other_s {:.3} s holds the other classes' phases; split by its {} classes' own spans, compile_other_s is {:.3} s of compile_wall_s {:.3} s",
                                quote(&share.name, SHORT_MAX_CHARS),
                                share.classes.last().map_or_else(|| "?".to_owned(), |c| quote(c, SHORT_MAX_CHARS)),
                                written,
                                share.classes.len(),
                                p.residual.seconds,
                                p.total.seconds
                            ),
                        )
                        .subject(format!("{}: compile_other_s", share.name))
                        .seconds(written),
                    );
                }
            }
        }
    }
    let reused: Vec<String> = b
        .entries
        .iter()
        .filter_map(|e| {
            let fact = |n: &str| {
                e.facts
                    .iter()
                    .find(|f| f.name == n)
                    .and_then(|f| f.seconds())
            };
            // The same rule as `lane diff`'s coldness: resolved from the
            // cache, or no compile time at all (a warm repeat whose
            // `reuse_s` reads 0 is still warm).
            match (fact("reuse_s"), fact("compile_s")) {
                (Some(r), c) if r > 0.0 => Some(format!(
                    "{} (reuse_s {r:.3} s, compile_s {})",
                    quote(&e.name, SHORT_MAX_CHARS),
                    c.map_or("absent".into(), |c| if c == 0.0 {
                        "0".into()
                    } else {
                        format!("{c:.3} s")
                    })
                )),
                (_, Some(c)) if c <= 0.0 => {
                    Some(format!("{} (compile_s 0)", quote(&e.name, SHORT_MAX_CHARS)))
                }
                _ => None,
            }
        })
        .collect();
    if !reused.is_empty() {
        out.push(
            Finding::new(
                FindingKind::NotCold,
                Severity::Error,
                format!(
                    "{} of {} class(es) were not compiled by this repeat: {}; this repeat is not cold, and its compile times are not a cold mint's",
                    reused.len(),
                    b.entries.len(),
                    reused.join(", ")
                ),
            )
            .subject("reuse_s"),
        );
    }
    verdict::verdict_findings(b, out);
}
