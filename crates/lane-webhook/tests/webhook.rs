//! The one integration-test binary of `lane-webhook`, on real parts:
//! GitHub's own example deliveries (`@octokit/webhooks-examples`) and
//! octokit's reference signer (`@octokit/webhooks-methods`), both under
//! `.tools/node` (`./just tools`; a missing one fails, never skips).

#[path = "webhook/examples.rs"]
mod examples;

#[path = "webhook/deliveries.rs"]
mod deliveries;

#[path = "webhook/signatures.rs"]
mod signatures;

#[path = "webhook/decisions.rs"]
mod decisions;

#[path = "webhook/grammar.rs"]
mod grammar;

// The permission answer of GitHub's API, from its description.
#[path = "webhook/permission.rs"]
mod permission;
