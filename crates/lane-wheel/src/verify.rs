//! Proving a wheel is the lane: its file name and METADATA name the lane's
//! distribution and version, RECORD matches every file, and every package
//! file is byte-for-byte a blob of the lane's tree. Pure: it takes the
//! wheel's bytes and the tree's blob ids.

use base64::Engine as _;
use git2::{ObjectType, Oid};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::io::{Cursor, Read};

use crate::error::WheelError;

/// What the lane expects of its wheel.
#[derive(Debug, Clone)]
pub struct Expected<'a> {
    /// The distribution name (`gen-worker`), from the tree's pyproject.
    pub name: &'a str,
    /// The lane's version (`0.93.3`).
    pub version: &'a str,
    /// The lane tree's blobs by path.
    pub blobs: &'a BTreeMap<String, (Oid, i32)>,
}

/// What verification established about a wheel.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct VerifiedWheel {
    /// The wheel's file name.
    pub file_name: String,
    /// METADATA `Name`.
    pub name: String,
    /// METADATA `Version`.
    pub version: String,
    /// METADATA `Metadata-Version`.
    pub metadata_version: String,
    /// The file name's Python tag (`py3`).
    pub python_tag: String,
    /// Files listed in RECORD and checked.
    pub recorded_files: usize,
    /// Package files proven equal to tree blobs.
    pub package_files: usize,
}

/// The wheel spec's name normalisation: runs of `-_.` become `_`, lower case.
pub fn normalize_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut last_sep = false;
    for c in name.chars() {
        if matches!(c, '-' | '_' | '.') {
            if !last_sep {
                out.push('_');
            }
            last_sep = true;
        } else {
            out.extend(c.to_lowercase());
            last_sep = false;
        }
    }
    out
}

fn malformed(wheel: &str, why: impl Into<String>) -> WheelError {
    WheelError::Malformed {
        wheel: wheel.to_owned(),
        why: why.into(),
    }
}

/// Verifies the wheel `file_name` with content `bytes` against `expected`.
pub fn verify(
    file_name: &str,
    bytes: &[u8],
    expected: &Expected<'_>,
) -> Result<VerifiedWheel, WheelError> {
    let stem = file_name
        .strip_suffix(".whl")
        .ok_or_else(|| malformed(file_name, "the name does not end in .whl"))?;
    let parts: Vec<&str> = stem.split('-').collect();
    if parts.len() != 5 && parts.len() != 6 {
        return Err(malformed(
            file_name,
            "the name is not {dist}-{version}(-{build})?-{py}-{abi}-{platform}.whl",
        ));
    }
    identity(
        "file name",
        "name",
        &normalize_name(expected.name),
        &normalize_name(parts[0]),
    )?;
    identity("file name", "version", expected.version, parts[1])?;
    let python_tag = parts[parts.len() - 3].to_owned();

    let mut zip = zip::ZipArchive::new(Cursor::new(bytes))
        .map_err(|e| malformed(file_name, e.to_string()))?;
    let mut files: BTreeMap<String, Vec<u8>> = BTreeMap::new();
    for i in 0..zip.len() {
        let mut f = zip
            .by_index(i)
            .map_err(|e| malformed(file_name, e.to_string()))?;
        if f.is_dir() {
            continue;
        }
        let mut data = Vec::with_capacity(f.size() as usize);
        f.read_to_end(&mut data)
            .map_err(|e| malformed(file_name, format!("{}: {e}", f.name())))?;
        files.insert(f.name().to_owned(), data);
    }
    let dist_info = format!("{}-{}.dist-info", parts[0], parts[1]);
    let metadata = files
        .get(&format!("{dist_info}/METADATA"))
        .ok_or_else(|| malformed(file_name, format!("no {dist_info}/METADATA")))?;
    let headers = metadata_headers(&String::from_utf8_lossy(metadata));
    let header = |k: &str| headers.get(k).cloned().unwrap_or_default();
    let (name, version) = (header("Name"), header("Version"));
    identity(
        "METADATA",
        "name",
        &normalize_name(expected.name),
        &normalize_name(&name),
    )?;
    identity("METADATA", "version", expected.version, &version)?;

    let record_path = format!("{dist_info}/RECORD");
    let record = files
        .get(&record_path)
        .ok_or_else(|| malformed(file_name, format!("no {record_path}")))?;
    let recorded = check_record(
        file_name,
        &record_path,
        &String::from_utf8_lossy(record),
        &files,
    )?;
    let package_files = check_against_tree(&files, &dist_info, expected.blobs)?;
    Ok(VerifiedWheel {
        file_name: file_name.to_owned(),
        name,
        version,
        metadata_version: header("Metadata-Version"),
        python_tag,
        recorded_files: recorded,
        package_files,
    })
}

fn identity(
    place: &'static str,
    field: &'static str,
    expected: &str,
    found: &str,
) -> Result<(), WheelError> {
    if expected == found {
        Ok(())
    } else {
        Err(WheelError::IdentityMismatch {
            place,
            field,
            expected: expected.to_owned(),
            found: found.to_owned(),
        })
    }
}

/// The RFC 822 headers of a METADATA file (first value of each).
fn metadata_headers(text: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for line in text.lines() {
        if line.is_empty() {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if !k.starts_with([' ', '\t']) {
                out.entry(k.trim().to_owned())
                    .or_insert_with(|| v.trim().to_owned());
            }
        }
    }
    out
}

/// Splits one CSV row (RECORD quotes paths that hold commas or quotes).
fn csv_row(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let (mut quoted, mut chars) = (false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cells.last_mut().expect("one cell").push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => cells.push(String::new()),
            (c, _) => cells.last_mut().expect("one cell").push(c),
        }
    }
    cells
}

fn check_record(
    wheel: &str,
    record_path: &str,
    record: &str,
    files: &BTreeMap<String, Vec<u8>>,
) -> Result<usize, WheelError> {
    let mut listed = std::collections::BTreeSet::new();
    for line in record.lines().filter(|l| !l.trim().is_empty()) {
        let row = csv_row(line);
        let [path, hash, size] = <[String; 3]>::try_from(row).map_err(|_| {
            malformed(
                wheel,
                format!("RECORD line `{line}` does not have 3 fields"),
            )
        })?;
        let Some(data) = files.get(&path) else {
            return Err(WheelError::RecordIncomplete {
                path,
                where_: "in RECORD but not in the wheel",
            });
        };
        listed.insert(path.clone());
        if path == record_path {
            continue;
        }
        let actual = format!(
            "sha256={}",
            base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(Sha256::digest(data))
        );
        if hash != actual {
            return Err(WheelError::RecordMismatch {
                path,
                field: "sha256",
                recorded: hash,
                actual,
            });
        }
        if size != data.len().to_string() {
            return Err(WheelError::RecordMismatch {
                path,
                field: "size",
                recorded: size,
                actual: data.len().to_string(),
            });
        }
    }
    if let Some(path) = files.keys().find(|p| {
        !listed.contains(*p)
            && !p.ends_with(".dist-info/RECORD.jws")
            && !p.ends_with(".dist-info/RECORD.p7s")
    }) {
        return Err(WheelError::RecordIncomplete {
            path: path.clone(),
            where_: "in the wheel but not in RECORD",
        });
    }
    Ok(listed.len())
}

/// Every file outside `.dist-info` must equal the tree blob whose path ends
/// with its path (the shortest such path, so `src/gen_worker/x.py` maps to
/// `gen_worker/x.py`); every tree file under a package folder so found must
/// be in the wheel.
fn check_against_tree(
    files: &BTreeMap<String, Vec<u8>>,
    dist_info: &str,
    blobs: &BTreeMap<String, (Oid, i32)>,
) -> Result<usize, WheelError> {
    // Every path suffix at a `/` boundary -> the shortest tree path with it.
    let mut by_suffix: HashMap<&str, &str> = HashMap::new();
    for path in blobs.keys() {
        let mut rest = path.as_str();
        loop {
            let e = by_suffix.entry(rest).or_insert(path);
            if path.len() < e.len() {
                *e = path;
            }
            match rest.split_once('/') {
                Some((_, r)) => rest = r,
                None => break,
            }
        }
    }
    let mut roots = std::collections::BTreeSet::new();
    let mut count = 0;
    for (path, data) in files {
        let data_dir = format!("{}.data/", dist_info.trim_end_matches(".dist-info"));
        if path.starts_with(&format!("{dist_info}/")) || path.starts_with(&data_dir) {
            continue;
        }
        let tree_path = by_suffix
            .get(path.as_str())
            .ok_or_else(|| WheelError::NotInTree { path: path.clone() })?;
        let (tree_blob, _) = blobs[*tree_path];
        let wheel_blob =
            Oid::hash_object(ObjectType::Blob, data).expect("hashing in memory cannot fail");
        if wheel_blob != tree_blob {
            return Err(WheelError::PackageFileDiffers {
                path: path.clone(),
                tree_path: (*tree_path).to_owned(),
                tree_blob: tree_blob.to_string(),
                wheel_blob: wheel_blob.to_string(),
            });
        }
        // The tree folder of the top-level package this file belongs to.
        let prefix = &tree_path[..tree_path.len() - path.len()];
        if let Some((top, _)) = path.split_once('/') {
            roots.insert(format!("{prefix}{top}/"));
        }
        count += 1;
    }
    for root in &roots {
        let strip = root.len()
            - root
                .trim_end_matches('/')
                .rsplit('/')
                .next()
                .map_or(0, |t| t.len() + 1);
        for tree_path in blobs.keys().filter(|p| p.starts_with(root.as_str())) {
            let path = &tree_path[strip..];
            if !files.contains_key(path) && !path.contains("/__pycache__/") {
                return Err(WheelError::MissingFromWheel {
                    tree_path: tree_path.clone(),
                    path: path.to_owned(),
                });
            }
        }
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_normalise_per_the_wheel_spec() {
        assert_eq!(normalize_name("Gen-Worker"), "gen_worker");
        assert_eq!(normalize_name("gen_worker"), "gen_worker");
        assert_eq!(normalize_name("a.-_b"), "a_b");
    }

    #[test]
    fn csv_rows_keep_quoted_commas() {
        assert_eq!(csv_row("\"a,b\",sha256=x,3"), ["a,b", "sha256=x", "3"]);
        assert_eq!(csv_row("r/RECORD,,"), ["r/RECORD", "", ""]);
    }
}
