//! `graph_dump` records: the files inductor wrote a compile's code to
//! (`inductor_aot_wrapper_code`, `inductor_aot_kernel_code`, each with its
//! `filename`). Their names are content hashes of the code, and the
//! package a 0.127 mint child publishes keeps the same names under
//! `data/aotinductor/<graph>/` (torchcg's package): the evidence that ties
//! one child's log to its specialization ([`crate::breakdown::verdict`]).

use serde::{Deserialize, Serialize};

/// One `graph_dump` record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GraphDump {
    /// The file, when the caller labelled it (one log per process).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// 1-based line of the record in that file.
    pub line: u64,
    /// The dump's `name` (`inductor_aot_wrapper_code`), when written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The last component of its `filename`
    /// (`cwsazpfk….wrapper.cpp`): the device's folders are dropped, the
    /// content-hashed name is what a package repeats.
    pub file: String,
}

#[derive(Deserialize)]
struct Envelope {
    graph_dump: RawDump,
}

#[derive(Deserialize)]
struct RawDump {
    #[serde(default)]
    name: Option<serde_json::Value>,
    #[serde(default)]
    filename: Option<serde_json::Value>,
}

/// The `graph_dump` record `json` (the envelope after the glog prefix), or
/// why it cannot be read. A record without a `filename` is `Ok(None)`:
/// nothing to tie, nothing wrong.
pub(super) fn graph_dump(line: u64, json: &[u8]) -> Result<Option<GraphDump>, String> {
    let env: Envelope = serde_json::from_slice(json).map_err(|e| format!("graph_dump: {e}"))?;
    let text = |v: Option<serde_json::Value>| match v {
        Some(serde_json::Value::String(s)) => Some(s),
        _ => None,
    };
    let Some(path) = text(env.graph_dump.filename) else {
        return Ok(None);
    };
    let file = path
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or_default()
        .to_owned();
    if file.is_empty() {
        return Err(format!(
            "graph_dump: filename {path:?} names a folder, not a file"
        ));
    }
    Ok(Some(GraphDump {
        source: None,
        line,
        name: text(env.graph_dump.name),
        file,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dump_keeps_its_file_name_without_the_device_folders() {
        let d = graph_dump(
            7,
            br#"{"graph_dump": {"name": "inductor_aot_wrapper_code", "type": "cpp", "filename": "/tmp/x/torchinductor_root/cu65/cbi2.wrapper.cpp"}, "stack": []}"#,
        )
        .unwrap()
        .unwrap();
        assert_eq!(d.file, "cbi2.wrapper.cpp");
        assert_eq!(d.name.as_deref(), Some("inductor_aot_wrapper_code"));
        assert_eq!(d.line, 7);
    }

    #[test]
    fn a_dump_without_a_file_is_nothing_and_a_broken_one_is_said() {
        assert_eq!(graph_dump(1, br#"{"graph_dump": {"name": "x"}}"#), Ok(None));
        assert!(graph_dump(1, br#"{"graph_dump": 3}"#)
            .unwrap_err()
            .starts_with("graph_dump: "));
        assert!(graph_dump(1, br#"{"graph_dump": {"filename": "/tmp/"}}"#)
            .unwrap_err()
            .contains("names a folder"));
    }
}
