//! A test server run as a child process that binds its own port (port 0)
//! and announces it on a line of its output. Nothing picks a port for it:
//! binding port 0, closing the socket and handing the number to a child is
//! a race (another process may take it in between), so the child binds and
//! tells.
//!
//! Both output streams are read to the end on threads (a full pipe would
//! stall the server), and their last lines are kept for the panic message
//! when the server never announces its port or exits early.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many lines of each stream are kept for a panic message.
const TAIL_LINES: usize = 30;

type Tail = Arc<Mutex<VecDeque<String>>>;

/// A running server; killed (SIGKILL) and reaped on drop.
#[derive(Debug)]
pub struct ServerProcess {
    name: String,
    child: Child,
    port: u16,
    stdout: Tail,
    stderr: Tail,
}

/// How a server announces the port it bound: the first output line (on
/// stdout or stderr) that contains `after`, followed somewhere later on the
/// same line by `127.0.0.1:PORT`.
#[derive(Debug, Clone, Copy)]
pub struct Announce {
    /// The text before the address, e.g. `"Running on"`.
    pub after: &'static str,
    /// How long the server may take to announce it.
    pub within: Duration,
}

impl ServerProcess {
    /// Starts `command` and waits (at most `announce.within`) for the port
    /// it announces. Panics, naming `name` and the tail of its output, when
    /// it cannot start, exits first, or stays silent past the limit.
    pub fn start(name: &str, mut command: Command, announce: Announce) -> ServerProcess {
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("{name} did not start ({command:?}): {e}"));
        let (tx, rx) = mpsc::channel();
        let stdout = read_lines(child.stdout.take().unwrap(), announce.after, tx.clone());
        let stderr = read_lines(child.stderr.take().unwrap(), announce.after, tx);
        let mut server = ServerProcess {
            name: name.to_owned(),
            child,
            port: 0,
            stdout,
            stderr,
        };
        let deadline = Instant::now() + announce.within;
        loop {
            match rx.recv_timeout(Duration::from_millis(50)) {
                Ok(port) => {
                    server.port = port;
                    return server;
                }
                Err(mpsc::RecvTimeoutError::Timeout) if Instant::now() < deadline => {
                    if let Ok(Some(status)) = server.child.try_wait() {
                        server.fail(&format!("exited ({status}) before it announced its port"));
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => server.fail(&format!(
                    "did not announce its port within {:?}",
                    announce.within
                )),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    // Both streams closed without the line: it is ending.
                    let status = server.child.wait().map(|s| s.to_string());
                    server.fail(&format!(
                        "closed its output ({}) before it announced its port",
                        status.unwrap_or_else(|e| e.to_string())
                    ));
                }
            }
        }
    }

    /// The port the server bound on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The last lines the server wrote to stderr (then stdout), for a test's
    /// own assertion messages.
    pub fn output_tail(&self) -> String {
        format!(
            "--- {} stderr (last lines) ---\n{}\n--- {} stdout (last lines) ---\n{}",
            self.name,
            joined(&self.stderr),
            self.name,
            joined(&self.stdout)
        )
    }

    fn fail(&mut self, what: &str) -> ! {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // The readers finish once the pipes close; give them a moment.
        std::thread::sleep(Duration::from_millis(100));
        panic!("test server {} {what}\n{}", self.name, self.output_tail());
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn joined(tail: &Tail) -> String {
    let lines = tail.lock().unwrap_or_else(|e| e.into_inner());
    lines.iter().cloned().collect::<Vec<_>>().join("\n")
}

/// Reads `stream` line by line to its end, keeping the last lines, and
/// sends the port of the first line announcing one.
fn read_lines(
    stream: impl Read + Send + 'static,
    after: &'static str,
    tx: mpsc::Sender<u16>,
) -> Tail {
    let tail: Tail = Arc::default();
    let kept = tail.clone();
    std::thread::spawn(move || {
        let mut tx = Some(tx);
        for line in BufReader::new(stream).split(b'\n') {
            let Ok(line) = line else { return };
            let line = String::from_utf8_lossy(&line).into_owned();
            if let Some(port) = tx.as_ref().and(announced_port(&line, after)) {
                let _ = tx.take().unwrap().send(port);
            }
            let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
            if kept.len() == TAIL_LINES {
                kept.pop_front();
            }
            kept.push_back(line);
        }
    });
    tail
}

/// The port in `line` if it announces one: `after`, then `127.0.0.1:PORT`.
fn announced_port(line: &str, after: &str) -> Option<u16> {
    let rest = &line[line.find(after)? + after.len()..];
    let digits = &rest[rest.find("127.0.0.1:")? + "127.0.0.1:".len()..];
    let end = digits
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(digits.len());
    digits[..end].parse().ok().filter(|p| *p != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUICK: Announce = Announce {
        after: "listening on",
        within: Duration::from_secs(5),
    };

    fn sh(script: &str) -> Command {
        let mut c = Command::new("sh");
        c.args(["-c", script]);
        c
    }

    fn panic_text(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let err = std::panic::catch_unwind(f).expect_err("it panics");
        err.downcast_ref::<String>().cloned().unwrap_or_default()
    }

    #[test]
    fn the_announced_port_is_read_from_each_servers_own_line() {
        let prism =
            "[10:48:20 AM] › [CLI] ▶  start     Prism is listening on http://127.0.0.1:36411";
        assert_eq!(announced_port(prism, "is listening on"), Some(36411));
        let moto = " * Running on http://127.0.0.1:39285\u{1b}[0m";
        assert_eq!(announced_port(moto, "Running on"), Some(39285));
        // Port 0 is what was asked for, not what was bound (bottle says so).
        assert_eq!(
            announced_port("Listening on http://127.0.0.1:0/", "Listening on"),
            None
        );
        assert_eq!(
            announced_port("GET http://127.0.0.1:5/x", "Running on"),
            None
        );
    }

    #[test]
    fn a_server_is_ready_once_it_announces_and_is_killed_on_drop() {
        let server = ServerProcess::start(
            "echo-server",
            sh("echo noise; echo 'listening on http://127.0.0.1:4242' >&2; exec sleep 60"),
            QUICK,
        );
        assert_eq!(server.port(), 4242);
        assert_eq!(server.url(), "http://127.0.0.1:4242");
        let pid = server.child.id();
        drop(server);
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        assert!(stat.is_empty(), "the server survived its drop: {stat}");
    }

    #[test]
    fn a_server_that_exits_first_is_named_with_its_stderr_tail() {
        let msg = panic_text(|| {
            ServerProcess::start(
                "broken-server",
                sh("echo 'bind: in use' >&2; exit 3"),
                QUICK,
            );
        });
        assert!(msg.contains("test server broken-server"), "{msg}");
        assert!(msg.contains("before it announced its port"), "{msg}");
        assert!(msg.contains("bind: in use"), "{msg}");
    }

    #[test]
    fn a_silent_server_fails_within_the_bound() {
        let started = Instant::now();
        let msg = panic_text(|| {
            ServerProcess::start(
                "silent-server",
                sh("echo starting >&2; exec sleep 60"),
                Announce {
                    after: "listening on",
                    within: Duration::from_millis(300),
                },
            );
        });
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(
            msg.contains("silent-server did not announce its port within 300ms"),
            "{msg}"
        );
        assert!(msg.contains("starting"), "{msg}");
    }
}
