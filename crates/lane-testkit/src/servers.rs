//! The real test servers, each on loopback, each binding port 0 itself and
//! announcing the port it got:
//!
//! - [`Prism`]: `prism mock --errors -p 0` serving GitHub's OpenAPI
//!   description; it prints `Prism is listening on http://127.0.0.1:PORT`.
//! - [`Moto`]: `moto_server -p 0` (S3); werkzeug prints
//!   `Running on http://127.0.0.1:PORT` once bound.
//! - [`PypiServer`]: pypiserver's WSGI app served by `servers/pypi.py` on a
//!   socket it binds (`pypi-server -p 0` would print `:0`, not the port).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::process::{Announce, ServerProcess};
use crate::tools;

/// Prism serving GitHub's official OpenAPI description with `--errors`: a
/// request the description does not allow answers 4xx. Killed on drop.
#[derive(Debug)]
pub struct Prism(ServerProcess);

impl Prism {
    /// Starts Prism (it reads a 13 MB description: seconds, at most 300).
    pub fn start() -> Prism {
        Prism::start_with(&["--errors"])
    }

    /// Prism without `--errors`, for an endpoint whose example in GitHub's
    /// description fails the description's own schema (the collaborator
    /// permission example lacks `user.role_name`, so `--errors` answers it
    /// 500). A request the description does not allow still answers 422;
    /// only the example's own flaw is let through.
    pub fn start_answering_flawed_examples() -> Prism {
        Prism::start_with(&[])
    }

    fn start_with(flags: &[&str]) -> Prism {
        let mut cmd = Command::new(tools::prism());
        cmd.arg("mock")
            .args(flags)
            .args(["-h", "127.0.0.1", "-p", "0"])
            .arg(tools::github_openapi());
        Prism(ServerProcess::start(
            "prism",
            cmd,
            Announce {
                after: "Prism is listening on",
                within: Duration::from_secs(300),
            },
        ))
    }

    /// `http://127.0.0.1:PORT`, the API base to give a client.
    pub fn url(&self) -> String {
        self.0.url()
    }
}

/// moto's S3-compatible server (access key `testing`, any secret; moto
/// checks no signature). Killed on drop.
#[derive(Debug)]
pub struct Moto(ServerProcess);

impl Moto {
    /// Starts `moto_server` on a port of its own.
    pub fn start() -> Moto {
        let mut cmd = Command::new(tools::venv_bin("moto_server"));
        cmd.args(["-H", "127.0.0.1", "-p", "0"]);
        Moto(ServerProcess::start(
            "moto_server",
            cmd,
            Announce {
                after: "Running on",
                within: Duration::from_secs(60),
            },
        ))
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.0.port()
    }

    /// `http://127.0.0.1:PORT`, the S3 endpoint.
    pub fn endpoint(&self) -> String {
        self.0.url()
    }
}

/// A package index (pypiserver) whose uploads need `user` / `password`
/// (HTTP basic auth against an htpasswd file it writes); downloads need
/// none. Killed on drop.
#[derive(Debug)]
pub struct PypiServer {
    server: ServerProcess,
    packages: PathBuf,
}

impl PypiServer {
    /// Serves `dir/index` (made if missing), with `dir/htpasswd` holding
    /// `user`'s password.
    pub fn start(dir: &Path, user: &str, password: &str) -> PypiServer {
        let packages = dir.join("index");
        std::fs::create_dir_all(&packages)
            .unwrap_or_else(|e| panic!("{}: {e}", packages.display()));
        let mut cmd = Command::new(tools::venv_python());
        cmd.arg(launcher("pypi.py"))
            .arg(&packages)
            .arg(dir.join("htpasswd"))
            .arg(user)
            // The password goes by the environment, never the command line.
            .env("LANE_TESTKIT_PYPI_PASSWORD", password);
        let server = ServerProcess::start(
            "pypiserver",
            cmd,
            Announce {
                after: "pypiserver listening on",
                within: Duration::from_secs(60),
            },
        );
        PypiServer { server, packages }
    }

    /// Its port.
    pub fn port(&self) -> u16 {
        self.server.port()
    }

    /// `http://127.0.0.1:PORT/`: the upload URL (and `…/simple/` the index).
    pub fn url(&self) -> String {
        format!("{}/", self.server.url())
    }

    /// The folder the packages are stored in.
    pub fn packages(&self) -> &Path {
        &self.packages
    }
}

/// A launcher script of this crate's `servers/` folder.
pub(crate) fn launcher(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("servers")
        .join(name)
}
