//! Where lane's history lives: in the lane's artifact store (a local
//! folder by default, any S3 bucket through `object_store`), append-only.
//! The store is write-once per key, so appending is one new object per run
//! and one per acknowledgement:
//!
//! ```text
//! history/<line>/runs/<run>.jsonl          one run's rows (lane_history::Row, JSON Lines)
//! history/<line>/acks/<run>.<sha12>.jsonl  one acknowledgement (lane_history::Ack)
//! ```
//!
//! A run id starts with its UTC time (`20261201T213145Z-0.0.0-<sha12>`), so
//! the keys of a line sort oldest first. Retention is bounded: a line keeps
//! its newest [`RETAIN_RUNS`] runs; adding a run removes the older ones
//! and the acknowledgements of the runs removed.

use lane_core::layout;
use lane_history::{read_acks, read_rows, write_rows, Ack, Row};
use lane_store::{ArtifactStore, Content, PutOutcome, StoreKey};

use crate::error::AppError;
use crate::history::RecordedRun;

/// The runs a release line keeps (Apache Otava's window: the change-point
/// search looks at no more; the verdict at the newest 20).
pub const RETAIN_RUNS: usize = 50;

/// The history of every line in one store.
#[derive(Debug, Clone)]
pub struct HistoryStore<'a> {
    store: &'a dyn ArtifactStore,
    name: Option<String>,
}

/// What adding a run did.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Appended {
    /// The run's key.
    pub key: String,
    /// Written now, or already there with the same rows.
    pub written: bool,
    /// Keys removed by retention (older runs and their acknowledgements).
    pub removed: Vec<String>,
}

fn key(text: String) -> Result<StoreKey, AppError> {
    Ok(StoreKey::new(text)?)
}

/// A store key's segment for a line or run: the key charset only (a line
/// is `MAJOR.MINOR` of a version lane already checked).
pub(crate) fn segment(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.+=@".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl<'a> HistoryStore<'a> {
    /// The history in `store`.
    pub fn new(store: &'a dyn ArtifactStore) -> HistoryStore<'a> {
        HistoryStore { store, name: None }
    }

    /// The history in `store`, opened from `location` as it was given
    /// (a relative folder stays relative in what lane shows).
    pub fn named(store: &'a dyn ArtifactStore, location: &str) -> HistoryStore<'a> {
        HistoryStore {
            store,
            name: Some(location.to_owned()),
        }
    }

    /// The store's location as it was given, else the store's own (never
    /// with secrets: a location holding credentials is refused when opened).
    pub fn location(&self) -> String {
        self.name.clone().unwrap_or_else(|| self.store.location())
    }

    fn runs_prefix(line: &str) -> String {
        layout::history_runs_prefix(&segment(line))
    }

    /// The key of `run` of `line`.
    pub fn run_key(line: &str, run: &str) -> String {
        layout::history_run_key(&segment(line), &segment(run))
    }

    /// Every line that has a run, sorted.
    pub fn lines(&self) -> Result<Vec<String>, AppError> {
        let mut lines: Vec<String> = self
            .store
            .list(layout::HISTORY_PREFIX)?
            .iter()
            .filter_map(|k| {
                let rest = k.strip_prefix(layout::HISTORY_PREFIX)?;
                let (line, tail) = rest.split_once('/')?;
                tail.starts_with("runs/").then(|| line.to_owned())
            })
            .collect();
        lines.dedup();
        Ok(lines)
    }

    /// The run ids of `line`, oldest first.
    pub fn runs(&self, line: &str) -> Result<Vec<String>, AppError> {
        let prefix = Self::runs_prefix(line);
        Ok(self
            .store
            .list(&prefix)?
            .iter()
            .filter_map(|k| k.strip_prefix(&prefix)?.strip_suffix(".jsonl"))
            .map(str::to_owned)
            .collect())
    }

    /// `run` as the history already holds it: a run of the same line whose
    /// id ends in the same content digest (`-<sha12>`) is the same results,
    /// whatever time its folder's files now say (a `touch`ed `summary.json`
    /// never makes a second run); `run` relabelled with that id and time.
    /// Otherwise `run` as it is.
    pub fn identify(&self, mut run: RecordedRun) -> Result<RecordedRun, AppError> {
        let digest = match run.id.rsplit_once('-') {
            Some((_, d)) if !d.is_empty() => format!("-{d}"),
            _ => return Ok(run),
        };
        let held = self
            .runs(&run.line)?
            .into_iter()
            .find(|id| id.ends_with(&digest) && *id != run.id);
        let Some(held) = held else {
            return Ok(run);
        };
        // A damaged held object keeps its id; `append` repairs it.
        let rows = self
            .read(&Self::run_key(&run.line, &held), read_rows)
            .unwrap_or_default();
        if let Some(time) = rows.first().map(|r| r.time) {
            run.time = time;
        }
        for row in &mut run.rows {
            row.run.clone_from(&held);
            row.time = run.time;
        }
        tracing::info!(run = %run.id, held = %held, "the same results are already in the history");
        run.id = held;
        Ok(run)
    }

    /// Adds one run's rows (all of one line), then keeps the line's newest
    /// [`RETAIN_RUNS`] runs. The same rows again are a no-op.
    pub fn append(&self, line: &str, run: &str, rows: &[Row]) -> Result<Appended, AppError> {
        let key = Self::run_key(line, run);
        let text = write_rows(rows);
        let put = match self
            .store
            .put_atomic(&self::key(key.clone())?, Content::Bytes(text.as_bytes()))
        {
            // The same run's object, but damaged: set aside, written anew.
            Err(lane_store::StoreError::Conflict { .. }) if self.read(&key, read_rows).is_err() => {
                self.set_aside(&key)?;
                self.store
                    .put_atomic(&self::key(key.clone())?, Content::Bytes(text.as_bytes()))?
            }
            other => other?,
        };
        let removed = self.retain(line, RETAIN_RUNS)?;
        Ok(Appended {
            key,
            written: matches!(put, PutOutcome::Written { .. }),
            removed,
        })
    }

    /// Removes all but the newest `keep` runs of `line`, and the
    /// acknowledgements of the runs removed.
    fn retain(&self, line: &str, keep: usize) -> Result<Vec<String>, AppError> {
        let runs = self.runs(line)?;
        let drop = runs.len().saturating_sub(keep);
        let mut removed = Vec::new();
        for run in &runs[..drop] {
            let k = Self::run_key(line, run);
            if self.store.remove(&key(k.clone())?)? {
                removed.push(k);
            }
            let acks = layout::history_acks_of(&segment(line), &segment(run));
            for a in self.store.list(&acks)? {
                if self.store.remove(&key(a.clone())?)? {
                    removed.push(a);
                }
            }
        }
        Ok(removed)
    }

    /// Every row of `line`'s retained runs, oldest run first. A run whose
    /// object is damaged (truncated, not UTF-8, not rows) is left out and
    /// said (see [`HistoryStore::rows_and_damaged`]): one bad object never
    /// blocks its line.
    pub fn rows(&self, line: &str) -> Result<Vec<Row>, AppError> {
        Ok(self.rows_and_damaged(line)?.0)
    }

    /// The rows of `line` as [`HistoryStore::rows`], and each damaged
    /// run object left out: its key and what is wrong with it. Re-adding
    /// the same results (`lane history add`) sets the damaged object aside
    /// and writes it anew.
    pub fn rows_and_damaged(&self, line: &str) -> Result<(Vec<Row>, Vec<String>), AppError> {
        let mut out = Vec::new();
        let mut damaged = Vec::new();
        for run in self.runs(line)? {
            let k = Self::run_key(line, &run);
            match self.read(&k, read_rows) {
                Ok(rows) => out.extend(rows),
                Err(e @ (AppError::History { .. } | AppError::InvalidInput { .. })) => {
                    tracing::warn!(key = %k, error = %e, "a damaged history object is left out");
                    damaged.push(crate::describe(&e));
                }
                Err(e) => return Err(e),
            }
        }
        Ok((out, damaged))
    }

    /// Moves the object at `key` aside, to `<key>.damaged-<sha12>` (kept for
    /// a person to look at, never read as rows), so the key can be written
    /// anew.
    fn set_aside(&self, key: &str) -> Result<String, AppError> {
        let k = self::key(key.to_owned())?;
        let bytes = self.store.get(&k)?;
        let digest = lane_store::sha256_hex(&bytes);
        let aside = format!("{key}.damaged-{}", &digest[..12]);
        self.store
            .put_atomic(&self::key(aside.clone())?, Content::Bytes(&bytes))?;
        self.store.remove(&k)?;
        tracing::warn!(key, aside = %aside, "a damaged history object was set aside");
        Ok(aside)
    }

    /// Every acknowledgement of `line`.
    pub fn acks(&self, line: &str) -> Result<Vec<Ack>, AppError> {
        let mut out = Vec::new();
        for k in self
            .store
            .list(&layout::history_acks_prefix(&segment(line)))?
        {
            out.extend(self.read(&k, read_acks)?);
        }
        Ok(out)
    }

    fn read<T>(
        &self,
        k: &str,
        parse: impl Fn(&str) -> Result<Vec<T>, lane_history::HistoryError>,
    ) -> Result<Vec<T>, AppError> {
        let bytes = self.store.get(&key(k.to_owned())?)?;
        let text = String::from_utf8(bytes)
            .map_err(|_| AppError::invalid(format!("{}/{k}", self.location()), "not UTF-8"))?;
        parse(&text).map_err(|source| AppError::History {
            at: format!("{}/{k}", self.location()),
            source,
        })
    }

    /// Records `ack` for `line`, in an object of its own (its key names
    /// the run and the ack's digest, so the same ack again is a no-op).
    pub fn acknowledge(&self, line: &str, ack: &Ack) -> Result<Appended, AppError> {
        let mut text = serde_json::to_string(ack).map_err(AppError::Json)?;
        text.push('\n');
        let digest = lane_store::sha256_hex(text.as_bytes());
        let k = layout::history_ack_key(&segment(line), &segment(&ack.run), &digest[..12]);
        let put = self
            .store
            .put_atomic(&key(k.clone())?, Content::Bytes(text.as_bytes()))?;
        Ok(Appended {
            key: k,
            written: matches!(put, PutOutcome::Written { .. }),
            removed: Vec::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lane_history::{AckScope, Fingerprint, Role, RunTime};

    fn row(run: &str, secs: f64) -> Row {
        Row {
            run: run.into(),
            time: RunTime::Unix(secs as i64),
            lane: "0.93.4".into(),
            line: "0.93".into(),
            fingerprint: Fingerprint::default(),
            cell: "c".into(),
            gpu: "H200".into(),
            phase: "phase/load".into(),
            role: Role::Member,
            repeat: 1,
            seconds: Some(secs),
        }
    }

    #[test]
    fn runs_append_once_and_the_oldest_go_with_their_acks() {
        let dir = tempfile::tempdir().unwrap();
        let store = lane_store::open(dir.path().to_str().unwrap()).unwrap();
        let h = HistoryStore::new(store.as_ref());
        for i in 0..RETAIN_RUNS {
            let run = format!("2026{i:04}");
            let a = h
                .append("0.93", &run, &[row(&run, i as f64 + 1.0)])
                .unwrap();
            assert!(a.written && a.removed.is_empty(), "{a:?}");
        }
        let again = h
            .append("0.93", "20260003", &[row("20260003", 4.0)])
            .unwrap();
        assert!(!again.written);
        let ack = Ack {
            run: "20260000".into(),
            scope: AckScope::All,
            reason: "new image".into(),
        };
        assert!(h.acknowledge("0.93", &ack).unwrap().written);
        assert!(!h.acknowledge("0.93", &ack).unwrap().written);
        assert_eq!(h.acks("0.93").unwrap(), vec![ack]);
        let newest = h
            .append("0.93", "20269999", &[row("20269999", 99.0)])
            .unwrap();
        assert_eq!(newest.removed.len(), 2, "{:?}", newest.removed);
        assert!(newest.removed[0].ends_with("runs/20260000.jsonl"));
        assert!(h.acks("0.93").unwrap().is_empty());
        assert_eq!(h.runs("0.93").unwrap().len(), RETAIN_RUNS);
        assert_eq!(h.lines().unwrap(), vec!["0.93".to_owned()]);
        assert_eq!(h.rows("0.93").unwrap().len(), RETAIN_RUNS);
    }

    #[test]
    fn a_bad_object_is_named_with_its_line_and_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let store = lane_store::open(dir.path().to_str().unwrap()).unwrap();
        let h = HistoryStore::new(store.as_ref());
        h.append("0.93", "r1", &[row("r1", 1.0)]).unwrap();
        let path = dir.path().join("history/0.93/runs/r0.jsonl");
        std::fs::write(&path, "{\"run\": 1}\n").unwrap();
        let (rows, damaged) = h.rows_and_damaged("0.93").unwrap();
        assert_eq!(rows, vec![row("r1", 1.0)]);
        assert_eq!(damaged.len(), 1, "{damaged:?}");
        assert!(
            damaged[0].contains("history/0.93/runs/r0.jsonl") && damaged[0].contains("line 1"),
            "{damaged:?}"
        );
        assert_eq!(h.rows("0.93").unwrap(), vec![row("r1", 1.0)]);
    }
}
