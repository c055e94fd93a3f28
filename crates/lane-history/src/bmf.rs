//! The export in Bencher's metric format (BMF), so a lane's values can be
//! tracked by Bencher beside lane's own verdicts:
//! `{"<benchmark>": {"<measure>": {"value", "lower_value", "upper_value"}}}`.
//!
//! One benchmark per series of one run, named `<cell>/<gpu>/<phase>`; one
//! measure, [`MEASURE`] (seconds, not Bencher's nanosecond `latency`); the
//! value is the median of the run's cold repeats, the bounds their minimum
//! and maximum (absent with one repeat). A series with no measured value
//! is left out, never exported as 0.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::row::Row;
use crate::stats::median;

/// The measure's slug: seconds of a mint phase.
pub const MEASURE: &str = "seconds";

/// One BMF metric.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BmfMetric {
    /// The median of the repeats.
    pub value: f64,
    /// The smallest repeat (absent with one repeat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_value: Option<f64>,
    /// The largest repeat (absent with one repeat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub upper_value: Option<f64>,
}

/// The BMF document of the rows of one run (`run`): benchmark name →
/// measure → metric, in name order.
pub fn to_bmf(rows: &[Row], run: &str) -> BTreeMap<String, BTreeMap<&'static str, BmfMetric>> {
    let mut values: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for r in rows.iter().filter(|r| r.run == run) {
        if let Some(s) = r.seconds {
            values.entry(r.key().to_string()).or_default().push(s);
        }
    }
    values
        .into_iter()
        .filter_map(|(name, v)| {
            let value = median(&v)?;
            let (lo, hi) = v
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                    (a.min(*x), b.max(*x))
                });
            let metric = BmfMetric {
                value,
                lower_value: (v.len() > 1).then_some(lo),
                upper_value: (v.len() > 1).then_some(hi),
            };
            Some((name, BTreeMap::from([(MEASURE, metric)])))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::row::read_rows;

    #[test]
    fn one_benchmark_per_series_with_the_repeats_as_bounds() {
        let line = |repeat: u32, phase: &str, seconds: &str| {
            format!(
                r#"{{"run":"a","time":0,"lane":"0.93.4","line":"0.93","cell":"c","gpu":"H200","phase":"{phase}","role":"member","repeat":{repeat}{seconds}}}"#
            )
        };
        let text = [
            line(1, "load", r#","seconds":10.0"#),
            line(2, "load", r#","seconds":12.0"#),
            line(3, "load", r#","seconds":11.0"#),
            line(1, "codegen", r#","seconds":3.5"#),
            line(1, "absent", ""),
        ]
        .join("\n");
        let rows = read_rows(&text).unwrap();
        let bmf = serde_json::to_string(&to_bmf(&rows, "a")).unwrap();
        assert_eq!(
            bmf,
            r#"{"c/H200/codegen":{"seconds":{"value":3.5}},"c/H200/load":{"seconds":{"value":11.0,"lower_value":10.0,"upper_value":12.0}}}"#
        );
        assert!(to_bmf(&rows, "other").is_empty());
    }
}
