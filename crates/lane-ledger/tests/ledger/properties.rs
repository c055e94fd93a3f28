//! Property tests of the partition arithmetic.

use lane_ledger::partition::{overlay_rows, Partition, Term};
use lane_ledger::{from_report, parse_report};
use proptest::prelude::*;
use serde_json::json;

fn seconds() -> impl Strategy<Value = f64> {
    // Millisecond-rounded like upstream, up to a day.
    (0u64..86_400_000).prop_map(|ms| ms as f64 / 1000.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn residual_is_exactly_total_minus_sum_of_members(
        total in seconds(),
        members in prop::collection::vec(seconds(), 0..10),
    ) {
        let terms: Vec<Term> = members.iter().enumerate().map(|(i, s)| Term::new(format!("m{i}"), *s)).collect();
        let p = Partition::new(Term::new("t", total), terms, "other", None);
        let sum = members.iter().fold(0.0, |acc, v| acc + v);
        prop_assert_eq!(p.residual.seconds, total - sum);
        prop_assert_eq!(p.members_sum(), sum);
        // Never clamped: members past the total give a negative residual.
        if sum > total {
            prop_assert!(p.residual.seconds < 0.0);
        }
        // Shares of members and residual add up to the whole.
        if total > 0.0 {
            let shares: f64 = p.members.iter().map(|m| m.share.unwrap()).sum::<f64>() + p.residual.share.unwrap();
            prop_assert!((shares - 1.0).abs() < 1e-9 * (1.0 + sum / total));
        } else {
            prop_assert!(p.residual.share.is_none());
        }
    }

    #[test]
    fn overlays_never_change_the_partition(
        members in prop::collection::vec(seconds(), 1..7),
        overlays in prop::collection::vec(seconds(), 0..6),
        slack in seconds(),
    ) {
        let names = ["tracing_s", "graph_passes_s", "lowering_s", "codegen_s", "kernel_compile_s", "host_compile_s"];
        let total: f64 = members.iter().sum::<f64>() + slack;
        let mut phases = serde_json::Map::new();
        for (n, s) in names.iter().zip(&members) {
            phases.insert((*n).to_owned(), json!(s));
        }
        let overlay_names = ["async_wait_s", "parallel_kernel_cpu_s", "aot_dispatch_s", "triton_s", "autotune_s", "x_s"];
        let mut ov = serde_json::Map::new();
        for (n, s) in overlay_names.iter().zip(&overlays) {
            ov.insert((*n).to_owned(), json!(s));
        }
        let report = |overlays: serde_json::Map<String, serde_json::Value>| {
            let v = json!({"recipe": "dynamo", "mint_phases": {"spans_v": 1,
                "totals": {"warm_compile_s": total}, "phases": phases.clone(), "overlays": overlays}});
            from_report("p", &parse_report(&serde_json::to_vec(&v).unwrap()).unwrap())
        };
        let with = report(ov);
        let without = report(serde_json::Map::new());
        prop_assert_eq!(&with.compile_partition, &without.compile_partition);
        prop_assert_eq!(with.overlays.len(), overlays.len());
        let rows = overlay_rows(
            &overlays.iter().map(|s| Term::new("o", *s)).collect::<Vec<_>>(),
            Some(total),
        );
        for (r, s) in rows.iter().zip(&overlays) {
            prop_assert_eq!(r.seconds, *s);
        }
    }

    #[test]
    fn serial_aot_entry_residual_is_compile_minus_its_four_members_whatever_triton_says(
        members in prop::collection::vec(seconds(), 4),
        triton in seconds(),
        slack in seconds(),
    ) {
        let names = ["lowering_s", "codegen_s", "host_compile_s", "graph_passes_s"];
        let compile: f64 = members.iter().sum::<f64>() + slack;
        let report = |triton: Option<f64>| {
            let mut phases = serde_json::Map::new();
            for (n, s) in names.iter().zip(&members) {
                phases.insert((*n).to_owned(), json!(s));
            }
            if let Some(t) = triton {
                phases.insert("triton_s".into(), json!(t));
            }
            let v = json!({"status": "minted", "recipe": "aot", "mint_phases": {"v": 1, "n_entries": 1,
                "totals": {"compile_s": compile}, "entries": {"e": {"compile_s": compile, "phases": phases}}}});
            from_report("p", &parse_report(&serde_json::to_vec(&v).unwrap()).unwrap())
        };
        let with = report(Some(triton));
        let without = report(None);
        let p = with.entries[0].compile.as_ref().unwrap();
        prop_assert_eq!(&with.entries[0].compile, &without.entries[0].compile);
        prop_assert_eq!(p.residual.name.as_str(), "compile_other_s");
        prop_assert_eq!(p.residual.seconds, p.total.seconds - p.members_sum());
        prop_assert!((p.total.seconds - compile).abs() <= 1e-9 * compile.max(1.0));
        let sum: f64 = members.iter().sum();
        prop_assert!((p.members_sum() - sum).abs() <= 1e-9 * sum.max(1.0));
        prop_assert_eq!(p.members.len(), 4);
        prop_assert!(with.entries[0].overlays.iter().any(|o| o.name == "triton_s" && o.seconds == triton));
    }
}
