//! The commenter's permission as GitHub's API answers it: the examples in
//! GitHub's own OpenAPI description (`@octokit/openapi`) for `GET
//! /repos/{owner}/{repo}/collaborators/{username}/permission`, read and
//! weighed by a policy that goes by permission.

use lane_webhook::{Permission, Policy};
use serde_json::Value;

/// Every example answer of the endpoint, as JSON bytes.
fn examples() -> Vec<(String, Vec<u8>)> {
    let spec: Value = serde_json::from_slice(
        &std::fs::read(lane_testkit::tools::github_openapi()).expect("the description reads"),
    )
    .expect("the description is JSON");
    let op = &spec["paths"]["/repos/{owner}/{repo}/collaborators/{username}/permission"]["get"];
    let examples = op["responses"]["200"]["content"]["application/json"]["examples"]
        .as_object()
        .expect("the 200 answer has examples");
    examples
        .iter()
        .map(|(name, e)| {
            let value = match e["$ref"].as_str() {
                Some(r) => {
                    let key = r.rsplit('/').next().unwrap();
                    spec["components"]["examples"][key]["value"].clone()
                }
                None => e["value"].clone(),
            };
            (name.clone(), serde_json::to_vec(&value).unwrap())
        })
        .collect()
}

#[test]
fn githubs_own_permission_answers_read_and_weigh() {
    let all = examples();
    assert!(!all.is_empty(), "the description has an example answer");
    for (name, body) in &all {
        let p = Permission::from_answer(body).unwrap_or_else(|e| panic!("{name}: {e}"));
        let v: Value = serde_json::from_slice(body).unwrap();
        // The role, where GitHub names one lane knows, else the permission.
        let word = v["role_name"]
            .as_str()
            .filter(|r| Permission::parse(r).is_some());
        let word = word.or(v["permission"].as_str()).unwrap();
        assert_eq!(p.as_str(), word, "{name}");
        assert_eq!(
            Policy::by_permission(Permission::Write).permits(p),
            p >= Permission::Write,
            "{name}"
        );
    }
}
