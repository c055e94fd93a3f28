//! The run store: every submission, state change and gathered result of a
//! lane's mints, in one SQLite file (WAL). Each change is committed before
//! lane acts on it, so a `kill -9` at any point loses nothing: a restarted
//! `lane mint` reads where every mint stands and re-attaches.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::MintError;
use lane_core::MintId;
use lane_core::MintStatus;

/// Where a mint stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MintState {
    /// Planned, not yet handed to a backend.
    Planned,
    /// Handed to a backend (its agent may be running).
    Submitted,
    /// The agent finished and its result is recorded.
    Finished,
    /// The result is copied into the lane's results folder.
    Gathered,
}

impl MintState {
    fn as_str(self) -> &'static str {
        match self {
            MintState::Planned => "planned",
            MintState::Submitted => "submitted",
            MintState::Finished => "finished",
            MintState::Gathered => "gathered",
        }
    }
    /// The state a row names; `None` for one this lane does not know.
    fn parse(s: &str) -> Option<MintState> {
        Some(match s {
            "planned" => MintState::Planned,
            "submitted" => MintState::Submitted,
            "finished" => MintState::Finished,
            "gathered" => MintState::Gathered,
            _ => return None,
        })
    }
}

/// One row of the run store.
#[derive(Debug, Clone, Serialize)]
pub struct MintRow {
    /// The attempt's id.
    pub id: MintId,
    /// Where it stands.
    pub state: MintState,
    /// The agent's process id (local backend) once known.
    pub pid: Option<u32>,
    /// The attempt's working folder.
    pub mint_dir: Option<PathBuf>,
    /// Its outcome once finished.
    pub outcome: Option<MintStatus>,
    /// Why, in words.
    pub reason: Option<String>,
    /// Wall seconds the attempt cost (a failed one keeps its seconds).
    pub wall_s: Option<f64>,
    /// Not before this unix time may the next attempt start (resource backoff).
    pub retry_after: Option<f64>,
    /// The agent's start time (`/proc/<pid>/stat`), with `pid`.
    pub agent_start: Option<u64>,
    /// The mint's process group, as its agent recorded it before the mint started.
    pub mint_pgid: Option<u32>,
    /// The group leader's start time.
    pub mint_start: Option<u64>,
}

/// The run store of one lane.
pub struct RunStore {
    conn: Connection,
    path: PathBuf,
}

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// The run store's schema, one step per lane release that changed it; the
/// version is SQLite's `user_version`. Step 1 is the schema every store
/// before versioning had (`IF NOT EXISTS`: such a store is adopted as is).
/// A store from a newer lane (a higher version) is refused, not guessed at.
fn migrations() -> rusqlite_migration::Migrations<'static> {
    rusqlite_migration::Migrations::new(vec![
        rusqlite_migration::M::up(
            "CREATE TABLE IF NOT EXISTS mints (
            id TEXT PRIMARY KEY,
            slot TEXT NOT NULL,
            lane TEXT NOT NULL, cell TEXT NOT NULL, gpu TEXT NOT NULL,
            repeat INTEGER NOT NULL, attempt INTEGER NOT NULL,
            state TEXT NOT NULL,
            pid INTEGER, mint_dir TEXT,
            outcome TEXT, reason TEXT, wall_s REAL, retry_after REAL,
            result TEXT, updated_at REAL NOT NULL
         );
         CREATE TABLE IF NOT EXISTS events (
            seq INTEGER PRIMARY KEY AUTOINCREMENT,
            at REAL NOT NULL, mint_id TEXT NOT NULL, kind TEXT NOT NULL, detail TEXT
         );",
        ),
        // 2: the agent's start time (a pid with another start time is another
        // process) and the mint's process group, recorded before it started.
        rusqlite_migration::M::up(
            "ALTER TABLE mints ADD COLUMN agent_start INTEGER;
         ALTER TABLE mints ADD COLUMN mint_pgid INTEGER;
         ALTER TABLE mints ADD COLUMN mint_start INTEGER;",
        ),
    ])
}

pub use lane_sqlite::{open_sqlite, OpenFailure};

impl RunStore {
    /// Opens (or creates) the store at `path`.
    pub fn open(path: &Path) -> Result<RunStore, MintError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|source| MintError::Io {
                path: dir.to_owned(),
                source,
            })?;
        }
        let conn = open_sqlite(path, &migrations()).map_err(|f| match f {
            OpenFailure::Sqlite(source) => MintError::Store {
                path: path.to_owned(),
                source,
            },
            OpenFailure::Schema(source) => MintError::StoreSchema {
                path: path.to_owned(),
                source,
            },
        })?;
        Ok(RunStore {
            conn,
            path: path.to_owned(),
        })
    }

    fn err(&self, source: rusqlite::Error) -> MintError {
        MintError::Store {
            path: self.path.clone(),
            source,
        }
    }

    /// Runs `f` in one transaction: a row's change and its event are one
    /// commit (one sync of the WAL, not two; never one without the other).
    fn in_tx<T>(&self, f: impl FnOnce() -> Result<T, MintError>) -> Result<T, MintError> {
        let tx = self.conn.unchecked_transaction().map_err(|e| self.err(e))?;
        let out = f()?;
        tx.commit().map_err(|e| self.err(e))?;
        Ok(out)
    }

    fn event(&self, id: &MintId, kind: &str, detail: &str) -> Result<(), MintError> {
        self.conn
            .execute(
                "INSERT INTO events (at, mint_id, kind, detail) VALUES (?1, ?2, ?3, ?4)",
                params![now(), id.to_string(), kind, detail],
            )
            .map(|_| ())
            .map_err(|e| self.err(e))
    }

    /// Records a planned attempt unless it exists (then nothing changes).
    pub fn ensure_planned(&self, id: &MintId) -> Result<bool, MintError> {
        self.in_tx(|| self.insert_planned(id))
    }

    /// [`RunStore::ensure_planned`] for a whole plan, in one commit (a lane
    /// of 200 attempts is planned with one sync, not 400).
    pub fn ensure_all_planned<'a>(
        &self,
        ids: impl IntoIterator<Item = &'a MintId>,
    ) -> Result<(), MintError> {
        self.in_tx(|| {
            for id in ids {
                self.insert_planned(id)?;
            }
            Ok(())
        })
    }

    fn insert_planned(&self, id: &MintId) -> Result<bool, MintError> {
        let n = self
            .conn
            .execute(
                "INSERT OR IGNORE INTO mints (id, slot, lane, cell, gpu, repeat, attempt, state, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'planned', ?8)",
                params![id.to_string(), id.slot().to_string(), id.lane, id.cell, id.gpu, id.repeat, id.attempt, now()],
            )
            .map_err(|e| self.err(e))?;
        if n > 0 {
            self.event(id, "planned", "")?;
        }
        Ok(n > 0)
    }

    /// Records a planned retry with a not-before time.
    pub fn plan_retry(&self, id: &MintId, not_before: Option<f64>) -> Result<(), MintError> {
        self.in_tx(|| self.planned_retry(id, not_before))
    }

    fn planned_retry(&self, id: &MintId, not_before: Option<f64>) -> Result<(), MintError> {
        self.insert_planned(id)?;
        self.conn
            .execute(
                "UPDATE mints SET retry_after = ?2 WHERE id = ?1 AND state = 'planned'",
                params![id.to_string(), not_before],
            )
            .map_err(|e| self.err(e))?;
        Ok(())
    }

    /// Re-opens a slot on purpose: `closed` (its last attempt, kept as it
    /// is) is followed by `next`, planned now, in one transaction.
    pub fn reopen(&self, closed: &MintId, next: &MintId) -> Result<(), MintError> {
        self.in_tx(|| {
            self.insert_planned(next)?;
            self.event(closed, "reopened", &next.to_string())
        })
    }

    /// Marks an attempt submitted (before its agent is started).
    pub fn mark_submitted(&self, id: &MintId, mint_dir: &Path) -> Result<(), MintError> {
        self.in_tx(|| {
            self.conn
                .execute(
                    "UPDATE mints SET state = 'submitted', mint_dir = ?2, updated_at = ?3 WHERE id = ?1",
                    params![id.to_string(), mint_dir.to_string_lossy(), now()],
                )
                .map_err(|e| self.err(e))?;
            self.event(id, "submitted", &mint_dir.to_string_lossy())
        })
    }

    /// Records the agent's process id (and its start time, read now).
    pub fn set_pid(&self, id: &MintId, pid: u32) -> Result<(), MintError> {
        let start = lane_agent::procs::start_time(pid);
        self.in_tx(|| {
            self.conn
                .execute(
                    "UPDATE mints SET pid = ?2, agent_start = ?3, updated_at = ?4 WHERE id = ?1",
                    params![id.to_string(), pid, start, now()],
                )
                .map_err(|e| self.err(e))?;
            self.event(id, "started", &pid.to_string())
        })
    }

    /// Records the mint's process group (its leader's pid and start time).
    pub fn set_mint_group(
        &self,
        id: &MintId,
        group: lane_agent::procs::Proc,
    ) -> Result<(), MintError> {
        self.in_tx(|| {
            self.conn
                .execute(
                    "UPDATE mints SET mint_pgid = ?2, mint_start = ?3, updated_at = ?4 WHERE id = ?1",
                    params![id.to_string(), group.pid, group.start, now()],
                )
                .map_err(|e| self.err(e))?;
            self.event(id, "mint-group", &group.to_line())
        })
    }

    /// Records an attempt's result and, when its slot is retried (`retry`:
    /// not before that time, if any), plans the next attempt in the same
    /// commit: a full disk between the two would leave ended for good a
    /// slot its policy retries.
    pub fn mark_finished(
        &self,
        id: &MintId,
        outcome: MintStatus,
        reason: &str,
        wall_s: Option<f64>,
        result_json: &str,
        retry: Option<Option<f64>>,
    ) -> Result<(), MintError> {
        self.in_tx(|| {
            self.finished(id, outcome, reason, wall_s, result_json)?;
            match retry {
                Some(not_before) => self.planned_retry(&id.next_attempt(), not_before),
                None => Ok(()),
            }
        })
    }

    fn finished(
        &self,
        id: &MintId,
        outcome: MintStatus,
        reason: &str,
        wall_s: Option<f64>,
        result_json: &str,
    ) -> Result<(), MintError> {
        let o = outcome.as_str();
        self.conn
            .execute(
                "UPDATE mints SET state = 'finished', outcome = ?2, reason = ?3, wall_s = ?4, result = ?5, updated_at = ?6 WHERE id = ?1",
                params![id.to_string(), o, reason, wall_s, result_json, now()],
            )
            .map_err(|e| self.err(e))?;
        self.event(id, "finished", reason)
    }

    /// Records an attempt lane ended itself: its agent was gone and its
    /// mint, still running, was ended by lane before anything else happened
    /// to the slot. The attempt reads `crashed` with `reason`; its
    /// `ended-by-lane` event keeps it off the slot's retry budget (the mint
    /// never failed; lane's agent did). The slot's next attempt is planned
    /// now, in the same commit.
    pub fn mark_ended_by_lane(&self, id: &MintId, reason: &str) -> Result<(), MintError> {
        self.in_tx(|| {
            self.finished(id, MintStatus::Crashed, reason, None, "null")?;
            self.event(id, "ended-by-lane", reason)?;
            self.planned_retry(&id.next_attempt(), None)
        })
    }

    /// How many attempts of `id`'s slot before `id` lane ended itself
    /// ([`RunStore::mark_ended_by_lane`]): retries they did not spend.
    pub fn ended_by_lane_before(&self, id: &MintId) -> Result<u32, MintError> {
        self.conn
            .query_row(
                "SELECT COUNT(DISTINCT e.mint_id) FROM events e JOIN mints m ON m.id = e.mint_id
                 WHERE e.kind = 'ended-by-lane' AND m.slot = ?1 AND m.attempt < ?2",
                params![id.slot().to_string(), id.attempt],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))
    }

    /// Marks an attempt's result as copied into the results folder.
    pub fn mark_gathered(&self, id: &MintId) -> Result<(), MintError> {
        self.in_tx(|| {
            self.conn
                .execute(
                    "UPDATE mints SET state = 'gathered', updated_at = ?2 WHERE id = ?1",
                    params![id.to_string(), now()],
                )
                .map_err(|e| self.err(e))?;
            self.event(id, "gathered", "")
        })
    }

    /// The stored result JSON of an attempt.
    pub fn result_json(&self, id: &MintId) -> Result<Option<String>, MintError> {
        self.conn
            .query_row(
                "SELECT result FROM mints WHERE id = ?1",
                params![id.to_string()],
                |r| r.get::<_, Option<String>>(0),
            )
            .optional()
            .map(Option::flatten)
            .map_err(|e| self.err(e))
    }

    /// Every row, ordered by slot and attempt.
    pub fn rows(&self) -> Result<Vec<MintRow>, MintError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT lane, cell, gpu, repeat, attempt, state, pid, mint_dir, outcome, reason, wall_s, retry_after,
                        agent_start, mint_pgid, mint_start
                 FROM mints ORDER BY cell, gpu, repeat, attempt",
            )
            .map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map([], |r| {
                let outcome: Option<String> = r.get(8)?;
                // A state or status this lane does not know (a store written
                // by another lane) is an error, never read as `planned`.
                let unknown = |column: usize, value: &str| {
                    rusqlite::Error::FromSqlConversionFailure(
                        column,
                        rusqlite::types::Type::Text,
                        format!("`{value}` is not a state or status this lane knows").into(),
                    )
                };
                let state: String = r.get(5)?;
                let state = MintState::parse(&state).ok_or_else(|| unknown(5, &state))?;
                let outcome = match outcome {
                    None => None,
                    Some(o) => Some(MintStatus::parse(&o).ok_or_else(|| unknown(8, &o))?),
                };
                Ok(MintRow {
                    id: MintId {
                        lane: r.get(0)?,
                        cell: r.get(1)?,
                        gpu: r.get(2)?,
                        repeat: r.get(3)?,
                        attempt: r.get(4)?,
                    },
                    state,
                    pid: r.get(6)?,
                    mint_dir: r.get::<_, Option<String>>(7)?.map(PathBuf::from),
                    outcome,
                    reason: r.get(9)?,
                    wall_s: r.get(10)?,
                    retry_after: r.get(11)?,
                    agent_start: r.get(12)?,
                    mint_pgid: r.get(13)?,
                    mint_start: r.get(14)?,
                })
            })
            .map_err(|e| self.err(e))?;
        rows.collect::<Result<Vec<_>, _>>().map_err(|e| self.err(e))
    }

    /// How many submissions the store has seen for `id` (to prove no duplicates).
    pub fn submissions(&self, id: &MintId) -> Result<u32, MintError> {
        self.conn
            .query_row(
                "SELECT COUNT(*) FROM events WHERE mint_id = ?1 AND kind = 'submitted'",
                params![id.to_string()],
                |r| r.get(0),
            )
            .map_err(|e| self.err(e))
    }
}

impl MintState {
    /// The state's name.
    pub fn name(self) -> &'static str {
        self.as_str()
    }
}
