//! One writer per lane: the commands that change a lane's run folder
//! (`mint`, `reopen`, `report`, `publish`, `cancel`, the serve worker)
//! hold `<lane out>/lane.lock` while they plan, run, gather and report.
//! A second invocation waits for it, saying what it waits for, or, asked
//! not to wait, is refused at once with its own exit code (9).
//!
//! The lock is an OS file lock (`flock`): it is released when its holder
//! exits, however it exits (`kill -9` included), so a dead holder never
//! blocks a lane. The file's text says who holds it, for the waiter.

use std::fs::{File, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use lane_core::layout;

use crate::error::AppError;

/// Whether a command waits for a lane another command holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LockWait {
    /// Wait until the holder is done (the default).
    #[default]
    Wait,
    /// Refuse at once (`--no-wait`): exit 9.
    NoWait,
}

/// A held lane: released when dropped (or when the process ends).
#[derive(Debug)]
pub struct LaneLock {
    _file: File,
    path: PathBuf,
}

impl LaneLock {
    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// How often a waiting command looks again, and says it still waits.
const POLL: Duration = Duration::from_millis(100);
const SAY_AGAIN: Duration = Duration::from_secs(30);

/// Takes the lane whose run folder is `lane_out` for `command` (`lane
/// mint`, ...). Held by another: with [`LockWait::Wait`], `waiting` is
/// called with the holder's own words (at once, then every 30 s) until
/// it is free (given the holder's words); with [`LockWait::NoWait`], [`AppError::LaneBusy`].
pub fn lock_lane(
    lane_out: &Path,
    lane: &str,
    command: &str,
    wait: LockWait,
    waiting: &mut dyn FnMut(&str),
) -> Result<LaneLock, AppError> {
    std::fs::create_dir_all(lane_out).map_err(|e| AppError::io(lane_out, e))?;
    let path = layout::lane_lock(lane_out);
    let mut file = File::options()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| AppError::io(&path, e))?;
    let mut said: Option<Instant> = None;
    loop {
        match file.try_lock() {
            Ok(()) => break,
            Err(TryLockError::WouldBlock) => {
                let holder = holder(&mut file);
                if wait == LockWait::NoWait {
                    return Err(AppError::LaneBusy {
                        lane: lane.to_owned(),
                        holder,
                    });
                }
                if said.is_none_or(|t| t.elapsed() >= SAY_AGAIN) {
                    tracing::info!(lane, holder = %holder, "waiting for the lane");
                    waiting(&holder);
                    said = Some(Instant::now());
                }
                std::thread::sleep(POLL);
            }
            Err(TryLockError::Error(e)) => return Err(AppError::io(&path, e)),
        }
    }
    let words = format!(
        "held by `{command}` (pid {}) since {}",
        std::process::id(),
        jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ")
    );
    // Who holds it, for a waiter; the lock itself is the flock, not this text.
    let _ = file
        .set_len(0)
        .and_then(|()| file.rewind())
        .and_then(|()| file.write_all(words.as_bytes()));
    Ok(LaneLock { _file: file, path })
}

/// The holder's words, as it wrote them (at most a line; inert).
fn holder(file: &mut File) -> String {
    let mut text = String::new();
    let _ = file
        .rewind()
        .and_then(|()| file.take(512).read_to_string(&mut text));
    let line = text.lines().next().unwrap_or("").trim();
    if line.is_empty() {
        "held by another lane command".to_owned()
    } else {
        lane_render::escape::terminal(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_without_waiting_and_says_who_holds_it() {
        let dir = tempfile::tempdir().unwrap();
        let held = lock_lane(
            dir.path(),
            "0.93.3",
            "lane mint",
            LockWait::Wait,
            &mut |_| {},
        )
        .unwrap();
        let err = lock_lane(
            dir.path(),
            "0.93.3",
            "lane report",
            LockWait::NoWait,
            &mut |_| {},
        )
        .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("held by `lane mint`"), "{text}");
        assert_eq!(err.exit(), crate::Exit::LaneBusy);
        drop(held);
        lock_lane(
            dir.path(),
            "0.93.3",
            "lane report",
            LockWait::NoWait,
            &mut |_| {},
        )
        .unwrap();
    }

    #[test]
    fn a_waiter_says_what_it_waits_for_and_goes_on_once_it_is_free() {
        let dir = tempfile::tempdir().unwrap();
        let held = lock_lane(
            dir.path(),
            "0.93.3",
            "lane mint",
            LockWait::Wait,
            &mut |_| {},
        )
        .unwrap();
        let path = dir.path().to_owned();
        let waiter = std::thread::spawn(move || {
            let mut said = Vec::new();
            let lock = lock_lane(&path, "0.93.3", "lane mint", LockWait::Wait, &mut |s| {
                said.push(s.to_owned())
            });
            (lock.is_ok(), said)
        });
        std::thread::sleep(Duration::from_millis(300));
        drop(held);
        let (locked, said) = waiter.join().unwrap();
        assert!(locked);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with("held by `lane mint` (pid "), "{said:?}");
    }
}
