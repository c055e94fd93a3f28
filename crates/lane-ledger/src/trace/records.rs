//! Decoding the two record kinds lane reads: `chromium_event` payloads and
//! `compilation_metrics` envelopes, each through a fast path
//! ([`crate::tracejson`]) with `serde_json` behind it for anything unusual.

use serde::Deserialize;

use super::{CompileRecord, MetricFields};
use lane_json::walk::{for_each_member, Cursor, Scalar};
use lane_json::MAX_SECONDS;

#[derive(Deserialize)]
pub(super) struct ChromiumEvent<'a> {
    #[serde(borrow, with = "serde_bytes_cow")]
    pub(super) name: std::borrow::Cow<'a, [u8]>,
    #[serde(borrow, with = "serde_bytes_cow")]
    pub(super) ph: std::borrow::Cow<'a, [u8]>,
    pub(super) ts: f64,
    #[serde(default)]
    pub(super) dur: Option<f64>,
    #[serde(default)]
    pub(super) pid: Option<u64>,
    #[serde(default)]
    pub(super) tid: Option<u64>,
}

/// Reads a JSON string as bytes (borrowed when it has no escapes), so a
/// span name is hashed as bytes without a UTF-8 check per event.
mod serde_bytes_cow {
    use std::borrow::Cow;

    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(
        d: D,
    ) -> Result<Cow<'de, [u8]>, D::Error> {
        let s: Cow<'de, str> = serde::Deserialize::deserialize(d)?;
        Ok(match s {
            Cow::Borrowed(b) => Cow::Borrowed(b.as_bytes()),
            Cow::Owned(o) => Cow::Owned(o.into_bytes()),
        })
    }
}

#[derive(Deserialize)]
pub(super) struct MetricsEnvelope {
    pub(super) compilation_metrics: RawCompilationMetrics,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct RawCompilationMetrics {
    #[serde(deserialize_with = "lenient_string")]
    compile_id: Option<String>,
    #[serde(deserialize_with = "lenient_string")]
    co_name: Option<String>,
    #[serde(deserialize_with = "lenient_string")]
    fail_type: Option<String>,
    #[serde(deserialize_with = "lenient_string")]
    pub(super) pytorch_version: Option<String>,
    // Older seconds fields.
    entire_frame_compile_time_s: Option<f64>,
    backend_compile_time_s: Option<f64>,
    inductor_compile_time_s: Option<f64>,
    code_gen_time_s: Option<f64>,
    // Newer microsecond fields.
    duration_us: Option<f64>,
    start_time_us: Option<f64>,
    end_time_us: Option<f64>,
    aot_autograd_cumulative_compile_time_us: Option<f64>,
    inductor_cumulative_compile_time_us: Option<f64>,
    inductor_code_gen_cumulative_compile_time_us: Option<f64>,
    triton_compile_time_us: Option<f64>,
    compile_time_autotune_time_us: Option<f64>,
}

/// A string, or absent for `null` and for any other shape (a `compile_id`
/// has been an object in some versions; it is a label, not a measurement).
fn lenient_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Lenient {
        S(String),
        N(f64),
        Other(serde::de::IgnoredAny),
    }
    Ok(match Option::<Lenient>::deserialize(d)? {
        Some(Lenient::S(s)) => Some(s),
        Some(Lenient::N(n)) => Some(n.to_string()),
        Some(Lenient::Other(_)) | None => None,
    })
}

/// The fast path for a chromium event payload; `None` hands over to serde.
pub(super) fn fast_chromium_event(payload: &[u8]) -> Option<ChromiumEvent<'_>> {
    fast_chromium_event_at(payload).map(|(event, _, _)| event)
}

/// The fast path, also returning where the event's object ends and how
/// many newlines it spans (`None` when one was not followed by a tab).
pub(super) fn fast_chromium_event_at(
    payload: &[u8],
) -> Option<(ChromiumEvent<'_>, usize, Option<usize>)> {
    let raw = lane_json::walk::chromium_event_layout(payload)
        .or_else(|| lane_json::walk::chromium_event(payload))?;
    let event = ChromiumEvent {
        name: std::borrow::Cow::Borrowed(raw.name),
        ph: std::borrow::Cow::Borrowed(raw.ph),
        ts: raw.ts,
        dur: raw.dur,
        pid: raw.pid,
        tid: raw.tid,
    };
    Some((event, raw.end, raw.tabbed.then_some(raw.newlines)))
}

/// The fast path for a `compilation_metrics` envelope; `None` hands over to serde.
pub(super) fn fast_compilation_metrics(json: &[u8]) -> Option<RawCompilationMetrics> {
    let mut c = Cursor::new(json);
    c.eat(b'{')?;
    if c.key()? != b"compilation_metrics" {
        return None;
    }
    let mut raw = RawCompilationMetrics::default();
    let mut ok = true;
    for_each_member(&mut c, |key, value| {
        let text = |v: &Scalar<'_>, ok: &mut bool| match v {
            Scalar::Null => None,
            Scalar::Str(s) => match std::str::from_utf8(s) {
                Ok(t) => Some(t.to_owned()),
                Err(_) => {
                    *ok = false;
                    None
                }
            },
            Scalar::Number(n) => Some(n.to_string()),
            // An escaped string or another shape: let serde decide.
            Scalar::Other => {
                *ok = false;
                None
            }
        };
        let number = |v: &Scalar<'_>, ok: &mut bool| match v {
            Scalar::Null => None,
            Scalar::Number(n) => Some(*n),
            _ => {
                *ok = false;
                None
            }
        };
        match key {
            b"compile_id" => raw.compile_id = text(&value, &mut ok),
            b"co_name" => raw.co_name = text(&value, &mut ok),
            b"fail_type" => raw.fail_type = text(&value, &mut ok),
            b"pytorch_version" => raw.pytorch_version = text(&value, &mut ok),
            b"entire_frame_compile_time_s" => {
                raw.entire_frame_compile_time_s = number(&value, &mut ok)
            }
            b"backend_compile_time_s" => raw.backend_compile_time_s = number(&value, &mut ok),
            b"inductor_compile_time_s" => raw.inductor_compile_time_s = number(&value, &mut ok),
            b"code_gen_time_s" => raw.code_gen_time_s = number(&value, &mut ok),
            b"duration_us" => raw.duration_us = number(&value, &mut ok),
            b"start_time_us" => raw.start_time_us = number(&value, &mut ok),
            b"end_time_us" => raw.end_time_us = number(&value, &mut ok),
            b"aot_autograd_cumulative_compile_time_us" => {
                raw.aot_autograd_cumulative_compile_time_us = number(&value, &mut ok)
            }
            b"inductor_cumulative_compile_time_us" => {
                raw.inductor_cumulative_compile_time_us = number(&value, &mut ok)
            }
            b"inductor_code_gen_cumulative_compile_time_us" => {
                raw.inductor_code_gen_cumulative_compile_time_us = number(&value, &mut ok)
            }
            b"triton_compile_time_us" => raw.triton_compile_time_us = number(&value, &mut ok),
            b"compile_time_autotune_time_us" => {
                raw.compile_time_autotune_time_us = number(&value, &mut ok)
            }
            _ => {}
        }
    })?;
    ok.then_some(raw)
}

/// Validates one duration field: finite, non-negative, plausible.
fn field(name: &'static str, value: Option<f64>, scale: f64) -> Result<Option<f64>, String> {
    match value {
        None => Ok(None),
        Some(v) => {
            let s = v * scale;
            if !(0.0..=MAX_SECONDS).contains(&s) {
                Err(format!(
                    "compilation_metrics.{name} = {v} is not a duration"
                ))
            } else {
                Ok(Some(s))
            }
        }
    }
}

pub(super) fn compile_record(
    line: u64,
    raw: &RawCompilationMetrics,
) -> Result<CompileRecord, String> {
    const US: f64 = 1e-6;
    let old_wall = field(
        "entire_frame_compile_time_s",
        raw.entire_frame_compile_time_s,
        1.0,
    )?;
    let new_wall = field("duration_us", raw.duration_us, US)?;
    let span_wall = match (raw.start_time_us, raw.end_time_us) {
        (Some(a), Some(b)) => field("end_time_us - start_time_us", Some(b - a), US)?,
        _ => None,
    };
    let (wall_s, wall_from) = match (new_wall, old_wall, span_wall) {
        (Some(w), _, _) => (Some(w), Some("duration_us")),
        (None, Some(w), _) => (Some(w), Some("entire_frame_compile_time_s")),
        (None, None, Some(w)) => (Some(w), Some("end_time_us - start_time_us")),
        _ => (None, None),
    };
    let backend_new = field(
        "aot_autograd_cumulative_compile_time_us",
        raw.aot_autograd_cumulative_compile_time_us,
        US,
    )?;
    let backend_old = field("backend_compile_time_s", raw.backend_compile_time_s, 1.0)?;
    let inductor_new = field(
        "inductor_cumulative_compile_time_us",
        raw.inductor_cumulative_compile_time_us,
        US,
    )?;
    let inductor_old = field("inductor_compile_time_s", raw.inductor_compile_time_s, 1.0)?;
    let codegen_new = field(
        "inductor_code_gen_cumulative_compile_time_us",
        raw.inductor_code_gen_cumulative_compile_time_us,
        US,
    )?;
    let codegen_old = field("code_gen_time_s", raw.code_gen_time_s, 1.0)?;
    let triton = field("triton_compile_time_us", raw.triton_compile_time_us, US)?;
    let autotune = field(
        "compile_time_autotune_time_us",
        raw.compile_time_autotune_time_us,
        US,
    )?;
    let any_old = [old_wall, backend_old, inductor_old, codegen_old]
        .iter()
        .any(Option::is_some);
    let any_new = [
        new_wall,
        backend_new,
        inductor_new,
        codegen_new,
        triton,
        autotune,
    ]
    .iter()
    .any(Option::is_some);
    let fields = match (any_old, any_new) {
        (true, true) => MetricFields::Both,
        (true, false) => MetricFields::Seconds,
        (false, true) => MetricFields::Micros,
        (false, false) => MetricFields::None,
    };
    Ok(CompileRecord {
        source: None,
        line,
        compile_id: raw.compile_id.clone(),
        co_name: raw.co_name.clone(),
        wall_s,
        wall_from,
        backend_compile_s: backend_new.or(backend_old),
        inductor_compile_s: inductor_new.or(inductor_old),
        code_gen_s: codegen_new.or(codegen_old),
        triton_compile_s: triton,
        autotune_s: autotune,
        fail_type: raw.fail_type.clone(),
        fields,
    })
}
