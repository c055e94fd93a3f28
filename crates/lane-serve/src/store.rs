//! The service's state, one SQLite file (`<state>/serve.sqlite`), its
//! schema by `user_version` (as lane-mint's run store; both open through lane-sqlite):
//!
//! - `deliveries`: every `X-GitHub-Delivery` id accepted (a replay is
//!   refused, also after a restart);
//! - `ran`: every comment id that ran (or was refused) a command, so an
//!   edited comment never runs twice;
//! - `commands`: each command, `queued` → `running` → `done`/`failed`,
//!   recorded before the delivery is acknowledged; at start the ones left
//!   `queued` or `running` are adopted, once;
//! - `lanes`: the last lane minted from each pull request, whether new
//!   commits outdated its report, and the body of the lane's sticky comment
//!   as last posted there (so an outdated report is re-posted as it was,
//!   with the outdated line on top).

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rusqlite::{params, Connection, OptionalExtension};

use crate::error::ServeError;

/// How many times a command is started at most (the first start and one
/// adoption after a restart).
pub const MAX_STARTS: i64 = 2;

fn migrations() -> rusqlite_migration::Migrations<'static> {
    rusqlite_migration::Migrations::new(vec![
        rusqlite_migration::M::up(
            "CREATE TABLE deliveries (id TEXT PRIMARY KEY, event TEXT NOT NULL);
         CREATE TABLE ran (comment_id INTEGER PRIMARY KEY);
         CREATE TABLE commands (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            delivery TEXT NOT NULL,
            repo TEXT NOT NULL, pr INTEGER NOT NULL, comment_id INTEGER NOT NULL,
            kind TEXT NOT NULL, text TEXT NOT NULL,
            state TEXT NOT NULL, starts INTEGER NOT NULL DEFAULT 0,
            detail TEXT
         );
         CREATE TABLE lanes (
            repo TEXT NOT NULL, pr INTEGER NOT NULL, lane TEXT NOT NULL,
            outdated_sha TEXT,
            PRIMARY KEY (repo, pr)
         );",
        ),
        rusqlite_migration::M::up("ALTER TABLE lanes ADD COLUMN sticky TEXT;"),
        // Who asked: a policy by permission asks GitHub about them.
        rusqlite_migration::M::up("ALTER TABLE commands ADD COLUMN login TEXT;"),
    ])
}

/// What a queued command is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A `/lane` command to run (`text` is its canonical spelling).
    Run,
    /// A refusal to answer (`text` is the answer).
    Refuse,
}

impl Kind {
    fn as_str(self) -> &'static str {
        match self {
            Kind::Run => "run",
            Kind::Refuse => "refuse",
        }
    }
}

/// A command as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandRow {
    /// Its id (the kube backend's run id is `serve-<id>`).
    pub id: i64,
    /// The repository, `owner/name`.
    pub repo: String,
    /// The pull request.
    pub pr: u64,
    /// The comment that asked.
    pub comment_id: u64,
    /// Run or refuse.
    pub kind: Kind,
    /// The canonical command, or the refusal's answer.
    pub text: String,
    /// `queued`, `running`, `done` or `failed`.
    pub state: String,
    /// How many times it was started.
    pub starts: i64,
    /// Who asked (absent for commands recorded before it was kept).
    pub login: Option<String>,
}

/// A command to record with its delivery.
#[derive(Debug, Clone, Copy)]
pub struct NewCommand<'a> {
    /// `owner/name`.
    pub repo: &'a str,
    /// The pull request.
    pub pr: u64,
    /// The comment that asked.
    pub comment_id: u64,
    /// Run or refuse.
    pub kind: Kind,
    /// The canonical command, or the refusal's answer.
    pub text: &'a str,
    /// Who asked.
    pub login: &'a str,
}

/// What recording a delivery did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Recorded {
    /// New: recorded (with its command's id, if it queued one).
    New(Option<i64>),
    /// Its id was seen before: nothing recorded.
    Replay,
}

/// The state store.
#[derive(Debug)]
pub struct Store {
    conn: Mutex<Connection>,
    path: PathBuf,
}

impl Store {
    /// Opens (or creates) `<dir>/serve.sqlite`.
    pub fn open(dir: &Path) -> Result<Store, ServeError> {
        std::fs::create_dir_all(dir).map_err(|source| ServeError::StateDir {
            path: dir.to_owned(),
            source,
        })?;
        let path = dir.join("serve.sqlite");
        // One policy for lane's SQLite files (WAL, synchronous FULL).
        let conn = lane_sqlite::open_sqlite(&path, &migrations()).map_err(|f| match f {
            lane_sqlite::OpenFailure::Sqlite(source) => ServeError::State {
                path: path.clone(),
                source,
            },
            lane_sqlite::OpenFailure::Schema(source) => ServeError::StateSchema {
                path: path.clone(),
                source,
            },
        })?;
        Ok(Store {
            conn: Mutex::new(conn),
            path,
        })
    }

    fn err(&self, source: rusqlite::Error) -> ServeError {
        ServeError::State {
            path: self.path.clone(),
            source,
        }
    }

    fn with<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, ServeError> {
        let mut conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut conn).map_err(|e| self.err(e))
    }

    /// Whether the store answers (`/readyz`).
    pub fn ping(&self) -> bool {
        self.with(|c| c.query_row("SELECT 1", [], |r| r.get::<_, i64>(0)))
            .is_ok()
    }

    /// Whether comment `id` ran a command before.
    pub fn already_ran(&self, id: u64) -> bool {
        self.with(|c| {
            c.query_row(
                "SELECT 1 FROM ran WHERE comment_id = ?1",
                [id as i64],
                |_| Ok(()),
            )
            .optional()
        })
        .map(|r| r.is_some())
        // A store that cannot answer: say it ran (run nothing twice).
        .unwrap_or(true)
    }

    /// Records delivery `id` (of `event`), and with `command` the command it
    /// queues and its comment as ran, in one transaction: a replayed id
    /// records nothing.
    pub fn record(
        &self,
        id: &str,
        event: &str,
        command: Option<NewCommand<'_>>,
    ) -> Result<Recorded, ServeError> {
        self.with(|c| {
            let tx = c.transaction()?;
            let fresh = tx.execute(
                "INSERT OR IGNORE INTO deliveries (id, event) VALUES (?1, ?2)",
                params![id, event],
            )?;
            if fresh == 0 {
                return Ok(Recorded::Replay);
            }
            let mut queued = None;
            if let Some(c) = command {
                tx.execute(
                    "INSERT OR IGNORE INTO ran (comment_id) VALUES (?1)",
                    [c.comment_id as i64],
                )?;
                tx.execute(
                    "INSERT INTO commands (delivery, repo, pr, comment_id, kind, text, state, login)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, 'queued', ?7)",
                    params![
                        id,
                        c.repo,
                        c.pr as i64,
                        c.comment_id as i64,
                        c.kind.as_str(),
                        c.text,
                        c.login
                    ],
                )?;
                queued = Some(tx.last_insert_rowid());
            }
            tx.commit()?;
            Ok(Recorded::New(queued))
        })
    }

    /// The command `id`.
    pub fn command(&self, id: i64) -> Result<Option<CommandRow>, ServeError> {
        self.with(|c| {
            c.query_row(
                "SELECT id, repo, pr, comment_id, kind, text, state, starts, login FROM commands WHERE id = ?1",
                [id],
                row,
            )
            .optional()
        })
    }

    /// Every command (oldest first), for tests and `/metrics`.
    pub fn commands(&self) -> Result<Vec<CommandRow>, ServeError> {
        self.with(|c| {
            let mut s = c.prepare(
                "SELECT id, repo, pr, comment_id, kind, text, state, starts, login FROM commands ORDER BY id",
            )?;
            let rows = s.query_map([], row)?.collect();
            rows
        })
    }

    /// The commands a restart adopts: left `queued` or `running`. One
    /// started [`MAX_STARTS`] times already is marked failed instead.
    pub fn adopt(&self) -> Result<Vec<i64>, ServeError> {
        self.with(|c| {
            c.execute(
                "UPDATE commands SET state = 'failed', detail = 'abandoned: the service stopped while it ran, twice'
                 WHERE state IN ('queued', 'running') AND starts >= ?1",
                [MAX_STARTS],
            )?;
            let mut s = c.prepare(
                "SELECT id FROM commands WHERE state IN ('queued', 'running') ORDER BY id",
            )?;
            let ids = s.query_map([], |r| r.get(0))?.collect();
            ids
        })
    }

    /// Marks command `id` running (one start more).
    pub fn start(&self, id: i64) -> Result<(), ServeError> {
        self.with(|c| {
            c.execute(
                "UPDATE commands SET state = 'running', starts = starts + 1 WHERE id = ?1",
                [id],
            )
            .map(drop)
        })
    }

    /// Marks command `id` ended (`done` or `failed`) with `detail`.
    pub fn end(&self, id: i64, ok: bool, detail: &str) -> Result<(), ServeError> {
        let state = if ok { "done" } else { "failed" };
        self.with(|c| {
            c.execute(
                "UPDATE commands SET state = ?2, detail = ?3 WHERE id = ?1",
                params![id, state, detail],
            )
            .map(drop)
        })
    }

    /// Records `lane` as the last lane minted from `repo#pr` (its report
    /// is current again).
    pub fn set_lane(&self, repo: &str, pr: u64, lane: &str) -> Result<(), ServeError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO lanes (repo, pr, lane, outdated_sha) VALUES (?1, ?2, ?3, NULL)
                 ON CONFLICT (repo, pr) DO UPDATE SET lane = ?3, outdated_sha = NULL",
                params![repo, pr as i64, lane],
            )
            .map(drop)
        })
    }

    /// The last lane minted from `repo#pr` and, when new commits came
    /// since, the head that outdated its report.
    pub fn lane(
        &self,
        repo: &str,
        pr: u64,
    ) -> Result<Option<(String, Option<String>)>, ServeError> {
        self.with(|c| {
            c.query_row(
                "SELECT lane, outdated_sha FROM lanes WHERE repo = ?1 AND pr = ?2",
                params![repo, pr as i64],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
        })
    }

    /// Records `body` as the lane's sticky comment on `repo#pr` as last
    /// posted (the report, or where it went).
    pub fn set_sticky(&self, repo: &str, pr: u64, body: &str) -> Result<(), ServeError> {
        self.with(|c| {
            c.execute(
                "UPDATE lanes SET sticky = ?3 WHERE repo = ?1 AND pr = ?2",
                params![repo, pr as i64, body],
            )
            .map(drop)
        })
    }

    /// The lane's sticky comment on `repo#pr` as last posted, if any.
    pub fn sticky(&self, repo: &str, pr: u64) -> Result<Option<String>, ServeError> {
        self.with(|c| {
            c.query_row(
                "SELECT sticky FROM lanes WHERE repo = ?1 AND pr = ?2",
                params![repo, pr as i64],
                |r| r.get(0),
            )
            .optional()
            .map(Option::flatten)
        })
    }

    /// Marks the lane of `repo#pr` outdated by `head_sha` (its lane is
    /// `lane` when none was minted from it yet). Returns the lane marked.
    pub fn outdate(
        &self,
        repo: &str,
        pr: u64,
        lane: Option<&str>,
        head_sha: &str,
    ) -> Result<Option<String>, ServeError> {
        self.with(|c| {
            let n = c.execute(
                "UPDATE lanes SET outdated_sha = ?3 WHERE repo = ?1 AND pr = ?2",
                params![repo, pr as i64, head_sha],
            )?;
            if n == 0 {
                if let Some(lane) = lane {
                    c.execute(
                        "INSERT INTO lanes (repo, pr, lane, outdated_sha) VALUES (?1, ?2, ?3, ?4)",
                        params![repo, pr as i64, lane, head_sha],
                    )?;
                }
            }
            c.query_row(
                "SELECT lane FROM lanes WHERE repo = ?1 AND pr = ?2",
                params![repo, pr as i64],
                |r| r.get(0),
            )
            .optional()
        })
    }
}

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<CommandRow> {
    let kind: String = r.get(4)?;
    Ok(CommandRow {
        id: r.get(0)?,
        repo: r.get(1)?,
        pr: r.get::<_, i64>(2)? as u64,
        comment_id: r.get::<_, i64>(3)? as u64,
        kind: if kind == "refuse" {
            Kind::Refuse
        } else {
            Kind::Run
        },
        text: r.get(5)?,
        state: r.get(6)?,
        starts: r.get(7)?,
        login: r.get(8)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_are_refused_across_reopen_and_restarts_adopt_once() {
        let d = tempfile::tempdir().unwrap();
        let s = Store::open(d.path()).unwrap();
        let cmd = Some(NewCommand {
            repo: "o/r",
            pr: 7,
            comment_id: 42,
            kind: Kind::Run,
            text: "/lane status",
            login: "octocat",
        });
        let Recorded::New(Some(id)) = s.record("d1", "issue_comment", cmd).unwrap() else {
            panic!()
        };
        assert!(s.already_ran(42));
        assert_eq!(
            s.record("d1", "issue_comment", cmd).unwrap(),
            Recorded::Replay
        );
        assert_eq!(
            s.command(id).unwrap().unwrap().login.as_deref(),
            Some("octocat")
        );
        s.start(id).unwrap();
        drop(s);
        let s = Store::open(d.path()).unwrap();
        assert_eq!(
            s.record("d1", "issue_comment", None).unwrap(),
            Recorded::Replay
        );
        assert_eq!(s.adopt().unwrap(), [id]);
        s.start(id).unwrap();
        // Started twice and still running: failed, not started a third time.
        assert_eq!(s.adopt().unwrap(), Vec::<i64>::new());
        assert_eq!(s.command(id).unwrap().unwrap().state, "failed");
    }

    #[test]
    fn lanes_and_outdated_reports() {
        let d = tempfile::tempdir().unwrap();
        let s = Store::open(d.path()).unwrap();
        assert_eq!(s.outdate("o/r", 1, None, "a").unwrap(), None);
        s.set_lane("o/r", 1, "0.93.3").unwrap();
        assert_eq!(
            s.outdate("o/r", 1, Some("9.9.9"), "b").unwrap().as_deref(),
            Some("0.93.3")
        );
        assert_eq!(
            s.lane("o/r", 1).unwrap(),
            Some(("0.93.3".into(), Some("b".into())))
        );
        s.set_lane("o/r", 1, "0.93.3").unwrap();
        assert_eq!(s.lane("o/r", 1).unwrap(), Some(("0.93.3".into(), None)));
        assert_eq!(s.sticky("o/r", 1).unwrap(), None);
        s.set_sticky("o/r", 1, "report").unwrap();
        drop(s);
        let s = Store::open(d.path()).unwrap();
        assert_eq!(s.sticky("o/r", 1).unwrap().as_deref(), Some("report"));
    }
}
