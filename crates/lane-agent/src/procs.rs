//! Processes known by pid AND start time (Linux `/proc/<pid>/stat`), so a
//! pid the kernel handed to another process since is never mistaken for
//! the one lane recorded; process groups (a mint's), found and ended; and
//! a bounded wait on a child that sees its end at once ([`wait_within`]).

use std::path::Path;
use std::time::{Duration, Instant};

/// A process as lane records it: its pid and its start time (clock ticks
/// after boot, `/proc/<pid>/stat` field 22).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Proc {
    /// The pid (for a group leader, also the group's id).
    pub pid: u32,
    /// Its start time; `None` in a record written before lane kept it
    /// (then the pid alone is believed).
    pub start: Option<u64>,
}

/// The fields of `/proc/<pid>/stat` after the command's `)`: state is [0],
/// the process group [2], the start time [19].
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let (_, rest) = stat.rsplit_once(')')?;
    Some(rest.split_whitespace().map(str::to_owned).collect())
}

fn live_fields(pid: u32) -> Option<Vec<String>> {
    stat_fields(pid).filter(|f| f.first().is_some_and(|s| s != "Z" && s != "X"))
}

/// The start time of a live (not zombie) process `pid`.
pub fn start_time(pid: u32) -> Option<u64> {
    live_fields(pid)?.get(19)?.parse().ok()
}

impl Proc {
    /// This process.
    pub fn me() -> Proc {
        Proc::of(std::process::id())
    }

    /// Process `pid` as it is now.
    pub fn of(pid: u32) -> Proc {
        Proc {
            pid,
            start: start_time(pid),
        }
    }

    /// Whether this very process is alive (not a zombie, not a newer
    /// process that reuses its pid).
    pub fn alive(&self) -> bool {
        match (start_time(self.pid), self.start) {
            (Some(now), Some(then)) => now == then,
            (Some(_), None) => true,
            (None, _) => false,
        }
    }

    /// `pid start`, as lane's record files keep it.
    pub fn to_line(self) -> String {
        match self.start {
            Some(s) => format!("{} {s}", self.pid),
            None => self.pid.to_string(),
        }
    }

    /// Reads `pid [start]`.
    pub fn parse(line: &str) -> Option<Proc> {
        let mut it = line.split_whitespace();
        let pid = it.next()?.parse().ok()?;
        let start = match it.next() {
            Some(s) => Some(s.parse().ok()?),
            None => None,
        };
        Some(Proc { pid, start })
    }

    /// Reads the record in `path`.
    pub fn read(path: &Path) -> Option<Proc> {
        Proc::parse(&std::fs::read_to_string(path).ok()?)
    }

    /// The live (not zombie) members of the process group this process
    /// led. A group outlives its leader; its id is never handed to another
    /// process while a member lives, so members of a group whose leader is
    /// gone are still this group's. A live process under the leader's pid
    /// with another start time means the group is long gone.
    pub fn group_members(&self) -> Vec<u32> {
        if start_time(self.pid).is_some() && !self.alive() {
            return Vec::new();
        }
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        let group = self.pid.to_string();
        dir.filter_map(Result::ok)
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
            .filter(|pid| live_fields(*pid).is_some_and(|f| f.get(2) == Some(&group)))
            .collect()
    }

    /// Ends the process group this process led: SIGKILL to the group until
    /// no member lives, for at most `within`. True when it is gone.
    pub fn end_group(&self, within: Duration) -> bool {
        let deadline = Instant::now() + within;
        loop {
            if self.group_members().is_empty() {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(self.pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// Waits for `child` for at most `within`, blocking on it in a thread so
/// its end is seen at once (a short helper process takes a couple of
/// milliseconds; polling added up to the poll interval to every mint).
/// Kills it when the time is up: `Ok(None)` then.
pub fn wait_within(
    mut child: std::process::Child,
    within: Duration,
) -> std::io::Result<Option<std::process::ExitStatus>> {
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    let (tx, rx) = std::sync::mpsc::channel();
    let waiter = std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    let status = match rx.recv_timeout(within) {
        Ok(status) => status.map(Some),
        Err(_) => {
            // Not reaped yet (the waiter still blocks on it), so the pid
            // is still this child's.
            let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGKILL);
            let _ = rx.recv();
            Ok(None)
        }
    };
    let _ = waiter.join();
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bounded_wait_sees_an_end_at_once_and_kills_what_outlives_it() {
        let quick = std::process::Command::new("sh")
            .args(["-c", "exit 3"])
            .spawn()
            .unwrap();
        let status = wait_within(quick, Duration::from_secs(20)).unwrap();
        assert_eq!(status.and_then(|s| s.code()), Some(3));
        let slow = std::process::Command::new("sleep")
            .arg("30")
            .spawn()
            .unwrap();
        let start = Instant::now();
        assert!(wait_within(slow, Duration::from_millis(200))
            .unwrap()
            .is_none());
        assert!(start.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn a_process_is_known_by_pid_and_start_time() {
        let me = Proc::me();
        assert!(me.alive());
        assert_eq!(Proc::parse(&me.to_line()), Some(me));
        // The same pid with another start time is another process.
        let other = Proc {
            start: me.start.map(|s| s + 1),
            ..me
        };
        assert!(!other.alive());
        assert!(other.group_members().is_empty());
        assert_eq!(
            Proc::parse("12"),
            Some(Proc {
                pid: 12,
                start: None
            })
        );
        assert_eq!(Proc::parse("x"), None);
    }

    #[test]
    fn a_group_is_ended_with_every_member_even_after_its_leader() {
        use std::os::unix::process::CommandExt;
        // A leader that leaves a child behind in its group and exits.
        let mut leader = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & echo $!"])
            .stdout(std::process::Stdio::piped())
            .process_group(0)
            .spawn()
            .unwrap();
        let group = Proc::of(leader.id());
        leader.wait().unwrap();
        let members = group.group_members();
        assert_eq!(members.len(), 1, "the orphaned sleep: {members:?}");
        assert!(group.end_group(Duration::from_secs(5)));
        assert!(group.group_members().is_empty());
    }
}
