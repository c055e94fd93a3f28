//! `lane serve --allow-permission`: who may command is what GitHub's API
//! says of the commenter's permission on the repository, asked for each
//! command off the acknowledgement. Prism serves GitHub's description, whose
//! example answer for the endpoint is `admin`.

use std::time::Duration;

use super::{
    commands, metric, say_as, serve_with_prism_args, wait_for, wait_refused_nothing_ran,
    write_lane, Serve,
};

const LOG: &str = "lane_serve=debug,lane_app=info,lane_github=debug";

#[test]
fn by_permission_a_contributor_github_calls_an_admin_commands_through_githubs_contract() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    // GitHub's example answer of the permission endpoint fails its own
    // schema (no `user.role_name`): `--errors` would answer it 500.
    let prism = lane_testkit::Prism::start_answering_flawed_examples();
    let serve = serve_with_prism_args(d.path(), &prism, &["--allow-permission", "write"], LOG);
    // By association a CONTRIBUTOR would be refused; by permission GitHub
    // decides.
    say_as(&serve, 9801, "/lane help", "CONTRIBUTOR");
    wait_for(&serve, "the help answer", Duration::from_secs(60), || {
        metric(&serve, "lane_serve_commands_total{command=\"help\"") > 0.0
    });
    let log = serve.output();
    // The permission was asked of GitHub, in a request its description
    // accepts (Prism answers an invalid one 4xx).
    assert!(
        log.contains("/collaborators/Codertocat/permission"),
        "the permission was not asked: {log}"
    );
    for bad in [
        "could not be read",
        "GitHub answered 4",
        "refused: permission",
    ] {
        assert!(!log.contains(bad), "{bad}: {log}");
    }
    assert_eq!(
        metric(
            &serve,
            "lane_serve_commands_total{command=\"refusal\",outcome=\"done\"}"
        ),
        0.0
    );
}

#[test]
fn by_permission_a_permission_lane_cannot_read_refuses_and_runs_nothing() {
    let d = tempfile::tempdir().unwrap();
    write_lane(d.path(), 1, 0.1);
    // No GitHub credentials: nothing can be asked, so nothing runs, even
    // for an OWNER.
    let serve = Serve::start_with(
        d.path(),
        &["--allow-permission", "write"],
        &[("LANE_LOG", LOG)],
    );
    say_as(&serve, 9802, "/lane mint 0.93.3", "OWNER");
    wait_refused_nothing_ran(&serve, d.path());
    assert!(!d.path().join("state/out").exists(), "nothing ran");
    let c = commands(d.path());
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(
        (c[0].1.as_str(), c[0].3.as_str()),
        ("done", "refused: permission"),
        "{c:?}"
    );
    let log = serve.kill();
    assert!(log.contains("could not be read"), "{log}");
}

#[test]
fn allow_and_allow_permission_are_one_or_the_other() {
    let d = tempfile::tempdir().unwrap();
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_lane"))
        .args(["serve", "--allow", "OWNER", "--allow-permission", "write"])
        .current_dir(d.path())
        .env("LANE_WEBHOOK_SECRET", super::SECRET)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--allow-permission"), "{err}");
}
