//! Files lane-app writes whole or not at all, and files it reads from
//! folders it does not own (a results folder, a mint's slot): bounded,
//! regular files only, never through a link out of their own folder.

use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;

use crate::error::AppError;

/// Opens `path` for reading: `None` when it does not exist. Refused
/// (naming the file) when it is not a regular file (a device such as
/// `/dev/zero`, a FIFO) or is reached through a link that leaves the
/// folder it sits in: a results folder's `report.json` linked to any file
/// elsewhere is never read, copied or posted.
pub(crate) fn open_inside(path: &Path) -> Result<Option<File>, AppError> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(AppError::io(path, e)),
        Ok(_) => {}
    }
    let real = std::fs::canonicalize(path).map_err(|e| AppError::io(path, e))?;
    let folder = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let folder = std::fs::canonicalize(folder).map_err(|e| AppError::io(folder, e))?;
    if !real.starts_with(&folder) {
        return Err(AppError::invalid_file(
            path,
            format!(
                "a link to {}, outside its folder: lane reads only the files inside it",
                real.display()
            ),
        ));
    }
    let file = File::open(&real).map_err(|e| AppError::io(path, e))?;
    let meta = file.metadata().map_err(|e| AppError::io(path, e))?;
    if !meta.is_file() {
        return Err(AppError::invalid_file(
            path,
            "not a regular file: lane reads only regular files here",
        ));
    }
    Ok(Some(file))
}

/// The whole of `path` (see [`open_inside`]), at most `max_bytes`: above
/// it is an invalid input naming the file and the cap. Memory never grows
/// past the cap, whatever the file's size says or becomes while read.
pub(crate) fn read_capped(path: &Path, max_bytes: u64) -> Result<Option<Vec<u8>>, AppError> {
    let Some(file) = open_inside(path)? else {
        return Ok(None);
    };
    let mut bytes = Vec::new();
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| AppError::io(path, e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(AppError::invalid_file(
            path,
            format!("file above the {max_bytes}-byte cap"),
        ));
    }
    Ok(Some(bytes))
}

/// Feeds `path` (see [`open_inside`]) to `digest` in chunks, at most
/// `max_bytes`: `false` when it does not exist. Flat memory, whatever its size.
pub(crate) fn digest_capped(
    path: &Path,
    max_bytes: u64,
    digest: &mut impl sha2::Digest,
) -> Result<bool, AppError> {
    let Some(file) = open_inside(path)? else {
        return Ok(false);
    };
    let mut reader = file.take(max_bytes.saturating_add(1));
    let mut buf = vec![0u8; 1 << 16];
    let mut seen: u64 = 0;
    loop {
        let n = reader.read(&mut buf).map_err(|e| AppError::io(path, e))?;
        if n == 0 {
            break;
        }
        seen += n as u64;
        if seen > max_bytes {
            return Err(AppError::invalid_file(
                path,
                format!("file above the {max_bytes}-byte cap"),
            ));
        }
        digest.update(&buf[..n]);
    }
    Ok(true)
}

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// folder, synced, then renamed over `path`. A full disk or a kill leaves
/// the file as it was (or absent), never half-written; the temporary file
/// is removed on failure.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), AppError> {
    let dir = match path.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => dir,
        None => Path::new("."),
    };
    std::fs::create_dir_all(dir).map_err(|e| AppError::io(dir, e))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".lane-tmp-")
        .tempfile_in(dir)
        .map_err(|e| AppError::io(dir, e))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| AppError::io(path, e))?;
    tmp.persist(path).map_err(|e| AppError::io(path, e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::Digest as _;

    #[test]
    fn regression_a_report_linked_to_dev_zero_was_read_without_end() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        std::os::unix::fs::symlink("/dev/zero", &path).unwrap();
        let err = read_capped(&path, 1 << 20).unwrap_err().to_string();
        assert!(err.contains("outside its folder"), "{err}");
    }

    #[test]
    fn regression_a_report_linked_out_of_its_folder_was_copied() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("slot")).unwrap();
        std::fs::write(dir.path().join("secret.json"), "{}").unwrap();
        let path = dir.path().join("slot/report.json");
        std::os::unix::fs::symlink("../secret.json", &path).unwrap();
        assert!(read_capped(&path, 1 << 20).is_err());
        // A link inside the folder is the folder's own file.
        std::fs::write(dir.path().join("slot/real.json"), "{}").unwrap();
        std::fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink("real.json", &path).unwrap();
        assert_eq!(read_capped(&path, 1 << 20).unwrap().unwrap(), b"{}");
    }

    #[test]
    fn a_device_inside_the_folder_is_not_a_regular_file() {
        let err = read_capped(Path::new("/dev/zero"), 16)
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a regular file"), "{err}");
    }

    #[test]
    fn regression_a_sparse_3_gb_report_cost_its_size_in_memory() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.json");
        let f = File::create(&path).unwrap();
        f.set_len(3 << 30).unwrap();
        let err = read_capped(&path, 1 << 20).unwrap_err().to_string();
        assert!(err.contains("above the 1048576-byte cap"), "{err}");
        let mut h = sha2::Sha256::new();
        assert!(digest_capped(&path, 1 << 20, &mut h).is_err());
        let mut h = sha2::Sha256::new();
        assert!(!digest_capped(&dir.path().join("absent"), 1, &mut h).unwrap());
    }

    #[test]
    fn an_atomic_write_replaces_the_file_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/report.md");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = std::fs::read_dir(dir.path().join("sub"))
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("report.md")]);
    }

    #[test]
    fn a_failed_atomic_write_keeps_the_old_file_and_no_temporary() {
        // A folder where the file should be makes the rename fail after
        // the temporary file was written.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.md");
        std::fs::create_dir(&path).unwrap();
        std::fs::write(path.join("keep"), "old").unwrap();
        assert!(write_atomic(&path, b"new").is_err());
        assert_eq!(std::fs::read(path.join("keep")).unwrap(), b"old");
        let left: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left, vec![std::ffi::OsString::from("report.md")]);
    }
}
