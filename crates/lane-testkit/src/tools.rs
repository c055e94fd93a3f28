//! The test tools `./just tools` installs under the workspace's `.tools/`.
//! Every lookup fails the test (never skips it) when the tool is missing,
//! naming the path and the recipe that installs it.

use std::path::{Path, PathBuf};

/// The workspace root (this crate lives in `crates/lane-testkit`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `.tools/` folder (whether or not it was installed: lane's own tool
/// lookup takes the folder and installs into it).
pub fn dir() -> PathBuf {
    root().join(".tools")
}

/// `path` if it exists; otherwise fails the test, naming `what` and the fix.
pub fn require(path: PathBuf, what: &str) -> PathBuf {
    assert!(
        path.exists(),
        "{what} is missing at {}: run `./just tools`",
        path.display()
    );
    path
}

/// An executable of the test servers' virtual environment (`moto_server`,
/// `python`, ...), made by `./just tools` with uv.
pub fn venv_bin(name: &str) -> PathBuf {
    require(
        dir().join("venv/bin").join(name),
        &format!("{name} (from .tools/venv: moto[server], pypiserver[passlib], kmock)"),
    )
}

/// The virtual environment's Python (it has moto, pypiserver and kmock).
pub fn venv_python() -> PathBuf {
    venv_bin("python")
}

/// uv, as `./just tools` installs it (`.tools/bin/uv`, or the package's own
/// `.tools/uv/bin/uv`).
pub fn uv() -> PathBuf {
    let candidates = [dir().join("bin/uv"), dir().join("uv/bin/uv")];
    let found = candidates.iter().find(|p| p.is_file()).cloned();
    found.unwrap_or_else(|| require(candidates[1].clone(), "uv"))
}

/// Prism's command-line entry point (`@stoplight/prism-cli`).
pub fn prism() -> PathBuf {
    require(
        dir().join("node/node_modules/.bin/prism"),
        "Prism (@stoplight/prism-cli)",
    )
}

/// GitHub's official OpenAPI description (`@octokit/openapi`).
pub fn github_openapi() -> PathBuf {
    require(
        dir().join("node/node_modules/@octokit/openapi/generated/api.github.com.json"),
        "GitHub's OpenAPI description (@octokit/openapi)",
    )
}

/// GitHub's example webhook deliveries (`@octokit/webhooks-examples`): one
/// JSON array of events, each `{"name": ..., "examples": [payload, ...]}`.
pub fn webhooks_examples() -> PathBuf {
    require(
        dir().join("node/node_modules/@octokit/webhooks-examples/api.github.com/index.json"),
        "GitHub's example webhook deliveries (@octokit/webhooks-examples)",
    )
}

/// The folder to run `node` in to import octokit's reference webhook
/// signer (`import { sign, verify } from "@octokit/webhooks-methods"`).
pub fn webhooks_methods() -> PathBuf {
    require(
        dir().join("node/node_modules/@octokit/webhooks-methods/dist-node/index.js"),
        "octokit's webhook signer (@octokit/webhooks-methods)",
    );
    dir().join("node")
}

/// The `PYTHONPATH` folder of `kubernetes-validate` (offline schemas).
pub fn kubernetes_validate() -> PathBuf {
    let dir = dir().join("kv");
    require(dir.join("kubernetes_validate"), "kubernetes-validate");
    dir
}

/// The `PYTHONPATH` folder of `helm-python-sdk` (Helm's Go library).
pub fn helm_python() -> PathBuf {
    let dir = dir().join("helm");
    require(dir.join("helm_python"), "helm-python-sdk");
    dir
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_tool_fails_naming_its_path_and_the_recipe() {
        let missing = dir().join("no-such-tool");
        let err = std::panic::catch_unwind(|| require(missing.clone(), "no-such-tool"))
            .expect_err("a missing tool fails the test");
        let msg = err.downcast_ref::<String>().unwrap();
        assert!(msg.contains("no-such-tool is missing at"), "{msg}");
        assert!(msg.contains(&missing.display().to_string()), "{msg}");
        assert!(msg.contains("run `./just tools`"), "{msg}");
    }
}
