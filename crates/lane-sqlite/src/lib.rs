//! How every SQLite file of lane's is opened: the run store of `lane mint`
//! (`lane-mint`) and the delivery store of `lane serve` (`lane-serve`)
//! keep one policy, owned here so that neither depends on the other.
//!
//! What it owns: [`open_sqlite`] (WAL with `synchronous = FULL`, a 10 s
//! busy timeout, migrations run to the latest) and why an open failed
//! ([`OpenFailure`]). What it must not touch: any schema (each store
//! passes its own migrations), any lane noun, any other lane crate.

use std::path::Path;

use rusqlite::Connection;

/// Why a SQLite store of lane's did not open.
#[derive(Debug)]
pub enum OpenFailure {
    /// SQLite refused the file or a setting.
    Sqlite(rusqlite::Error),
    /// Its schema is not one this lane can use, or a migration failed.
    Schema(rusqlite_migration::Error),
}

/// Opens (or creates) a SQLite file the way every store of lane's is kept:
/// WAL with `synchronous = FULL` (a record whose transaction returned
/// survives a crash or power cut), a 10 s busy timeout for the other
/// processes that share it, and `migrations` run to the latest.
pub fn open_sqlite(
    path: &Path,
    migrations: &rusqlite_migration::Migrations<'_>,
) -> Result<Connection, OpenFailure> {
    let mut conn = Connection::open(path).map_err(OpenFailure::Sqlite)?;
    conn.busy_timeout(std::time::Duration::from_secs(10))
        .map_err(OpenFailure::Sqlite)?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(OpenFailure::Sqlite)?;
    conn.pragma_update(None, "synchronous", "FULL")
        .map_err(OpenFailure::Sqlite)?;
    migrations
        .to_latest(&mut conn)
        .map_err(OpenFailure::Schema)?;
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn migrations() -> rusqlite_migration::Migrations<'static> {
        rusqlite_migration::Migrations::new(vec![rusqlite_migration::M::up(
            "CREATE TABLE t (x INTEGER);",
        )])
    }

    #[test]
    fn a_store_opens_in_wal_with_full_sync_and_its_schema() {
        let d = tempfile::tempdir().unwrap();
        let conn = open_sqlite(&d.path().join("s.sqlite"), &migrations()).unwrap();
        let mode: String = conn
            .pragma_query_value(None, "journal_mode", |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
        let sync: i64 = conn
            .pragma_query_value(None, "synchronous", |r| r.get(0))
            .unwrap();
        assert_eq!(sync, 2, "FULL");
        conn.execute("INSERT INTO t (x) VALUES (1)", []).unwrap();
    }

    #[test]
    fn a_file_of_a_newer_schema_is_refused_as_schema() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join("s.sqlite");
        let newer = rusqlite_migration::Migrations::new(vec![
            rusqlite_migration::M::up("CREATE TABLE t (x INTEGER);"),
            rusqlite_migration::M::up("CREATE TABLE u (y INTEGER);"),
        ]);
        drop(open_sqlite(&path, &newer).unwrap());
        assert!(matches!(
            open_sqlite(&path, &migrations()),
            Err(OpenFailure::Schema(_))
        ));
    }
}
