//! GitHub's example deliveries, from `@octokit/webhooks-examples`: the
//! github.com set and every GHES set the package ships.

use lane_webhook::Delivery;
use serde_json::Value;
use std::path::PathBuf;
use std::sync::OnceLock;

/// One example delivery: which set it is from, its event and its payload.
pub struct Example {
    /// `api.github.com`, `ghes-35`, ...
    pub set: String,
    /// Its `X-GitHub-Event`.
    pub event: String,
    /// Its position among the set's examples of that event.
    pub index: usize,
    /// The payload.
    pub payload: Value,
}

impl Example {
    /// A name for assertion messages.
    pub fn name(&self) -> String {
        format!("{}/{}[{}]", self.set, self.event, self.index)
    }
}

/// Every `index.json` of the package (`api.github.com/` and `ghes-*/`).
fn sets() -> Vec<(String, PathBuf)> {
    let dotcom = lane_testkit::tools::webhooks_examples();
    let package = dotcom.parent().and_then(|p| p.parent()).unwrap().to_owned();
    let mut sets: Vec<_> = std::fs::read_dir(&package)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("index.json").is_file())
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, p.join("index.json"))
        })
        .collect();
    sets.sort();
    assert!(
        sets.iter().any(|(n, _)| n == "api.github.com") && sets.len() > 1,
        "{sets:?}"
    );
    sets
}

/// Every example of the package.
pub fn all() -> &'static [Example] {
    static ALL: OnceLock<Vec<Example>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all = Vec::new();
        for (set, path) in sets() {
            let events: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            for e in events.as_array().unwrap() {
                let event = e["name"].as_str().unwrap().to_owned();
                for (index, payload) in e["examples"].as_array().unwrap().iter().enumerate() {
                    all.push(Example {
                        set: set.clone(),
                        event: event.clone(),
                        index,
                        payload: payload.clone(),
                    });
                }
            }
        }
        all
    })
}

/// Every example of `event`, from every set (at least one).
pub fn of(event: &str) -> Vec<&'static Example> {
    let found: Vec<_> = all().iter().filter(|e| e.event == event).collect();
    assert!(!found.is_empty(), "no {event} example in the package");
    found
}

/// The github.com example of `event` whose `action` is `action`.
pub fn dotcom(event: &str, action: Option<&str>) -> Value {
    of(event)
        .into_iter()
        .find(|e| e.set == "api.github.com" && e.payload["action"].as_str() == action)
        .unwrap_or_else(|| panic!("no api.github.com {event} example with action {action:?}"))
        .payload
        .clone()
}

/// A payload's body as GitHub would send it (JSON, UTF-8).
pub fn body(payload: &Value) -> Vec<u8> {
    serde_json::to_vec(payload).unwrap()
}

/// A delivery id as GitHub sends one.
pub const DELIVERY_ID: &str = "72d3162e-cc78-11e3-81ab-4c9367dc0958";

/// `payload` read as a delivery of `event`.
pub fn parse(event: &str, payload: &Value) -> Delivery {
    Delivery::parse(event, DELIVERY_ID, &body(payload)).unwrap_or_else(|e| panic!("{e}"))
}
