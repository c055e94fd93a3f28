//! What the agent reads off a mint's report, and the artifact it names.
//!
//! The upstream's `MintReport` (gen-worker `mint_process.py`) is the mint's
//! typed terminal word: `status` is authoritative, `detail` and `phase` say
//! why and where it ended, `artifact` names the packed cell it wrote, and
//! `recipe` echoes what produced it. A child that died before it knew its
//! recipe echoes MintReport's default (`dynamo`), so an echo is believed
//! only when the report says `minted`; otherwise a mismatch is a note.
//! The full reading of the numbers is `lane-ledger`'s; the agent needs only
//! these fields to classify the attempt and gather its cell.

use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use lane_core::{ArtifactState, ReportState};

/// Reports over this size are not read (a report is a few KB).
pub const REPORT_LIMIT: u64 = 64 << 20;

/// The default cap on the artifact a report names (a real sdxl AOT cell
/// is a few GB).
pub const DEFAULT_MAX_ARTIFACT_BYTES: u64 = 32 << 30;

/// Characters of a report's `detail` kept in a reason.
pub const DETAIL_CHARS: usize = 400;

/// Foreign text made safe for a one-line reason: control characters
/// (escape sequences, newlines) are written as `\u{..}` escapes, and the
/// text is cut at `max` characters with an ellipsis.
pub fn bounded_text(s: &str, max: usize) -> String {
    let mut out = String::new();
    for (n, c) in s.chars().enumerate() {
        if n == max {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// The report as the agent read it: its state and the notes it made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadReport {
    /// How it classifies.
    pub state: ReportState,
    /// The report's `artifact`, when it names one.
    pub artifact: Option<String>,
    /// The report's `digest` (the artifact's sha256), when given.
    pub digest: Option<String>,
    /// Things worth saying that change nothing (an echo not believed).
    pub notes: Vec<String>,
}

impl ReadReport {
    fn state(state: ReportState) -> ReadReport {
        ReadReport {
            state,
            artifact: None,
            digest: None,
            notes: Vec::new(),
        }
    }
}

fn string_field(v: &serde_json::Value, key: &str) -> Option<String> {
    v.get(key)
        .and_then(|s| s.as_str())
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
}

/// Reads the report at `path`, for the cell `cell` of recipe `recipe`.
pub fn read_report(path: &Path, cell: &str, recipe: &str) -> ReadReport {
    let Ok(meta) = std::fs::metadata(path) else {
        return ReadReport::state(ReportState::Absent);
    };
    if meta.len() > REPORT_LIMIT {
        return ReadReport::state(ReportState::Invalid {
            reason: format!("{} bytes, over the {REPORT_LIMIT}-byte limit", meta.len()),
        });
    }
    let value: serde_json::Value = match std::fs::read(path).map(|b| serde_json::from_slice(&b)) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => {
            return ReadReport::state(ReportState::Invalid {
                reason: format!("not JSON: {e}"),
            })
        }
        Err(e) => {
            return ReadReport::state(ReportState::Invalid {
                reason: e.to_string(),
            })
        }
    };
    let Some(status) = value.get("status").and_then(|s| s.as_str()) else {
        return ReadReport::state(ReportState::Invalid {
            reason: "no string `status` field".into(),
        });
    };
    let minted = status == "minted";
    let mut notes = Vec::new();
    // The echoes: believed when the report says it minted, a note otherwise.
    let mut wrong = None;
    for (key, want, what) in [("cell", cell, "cell"), ("recipe", recipe, "recipe")] {
        let Some(found) = string_field(&value, key) else {
            continue;
        };
        if found == want {
            continue;
        }
        let found = bounded_text(&found, 80);
        if minted {
            wrong.get_or_insert(match what {
                "recipe" => format!("a {found} mint (this cell's recipe is {want})"),
                _ => found,
            });
        } else {
            notes.push(format!(
                "the report's `{key}` echo is `{found}`, not `{want}`: not believed, since \
                 the report says `{}` (a child that ends early echoes MintReport's defaults)",
                bounded_text(status, 40)
            ));
        }
    }
    let state = match wrong {
        Some(found) => ReportState::WrongCell { found },
        None => ReportState::Status {
            status: status.to_owned(),
            detail: string_field(&value, "detail"),
            phase: string_field(&value, "phase"),
        },
    };
    ReadReport {
        state,
        artifact: string_field(&value, "artifact"),
        digest: string_field(&value, "digest"),
        notes,
    }
}

/// Copies the artifact `named` (absolute, or relative to `mint_dir`) into
/// `artifacts`, streamed, refusing more than `max_bytes`. Only a regular
/// file inside the mint folder is gathered: the report is foreign text and
/// must not make lane copy `/etc/shadow` into a bundle.
pub fn gather_artifact(
    mint_dir: &Path,
    artifacts: &Path,
    named: &str,
    digest: Option<&str>,
    max_bytes: u64,
) -> ArtifactState {
    let shown = bounded_text(named, 200);
    let refuse = |why: String| ArtifactState::NotGathered {
        named: shown.clone(),
        why,
    };
    let path = mint_dir.join(named);
    let Ok(real) = std::fs::canonicalize(&path) else {
        return refuse("no such file".into());
    };
    let Ok(root) = std::fs::canonicalize(mint_dir) else {
        return refuse("the mint folder is gone".into());
    };
    if !real.starts_with(&root) {
        return refuse("it is outside the mint folder".into());
    }
    let Some(file) = real.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return refuse("it has no file name".into());
    };
    let meta = match std::fs::metadata(&real) {
        Ok(m) if m.is_file() => m,
        Ok(_) => return refuse("it is not a regular file".into()),
        Err(e) => return refuse(e.to_string()),
    };
    if meta.len() > max_bytes {
        return refuse(format!(
            "{} bytes, over the {max_bytes}-byte artifact cap",
            meta.len()
        ));
    }
    let dest: PathBuf = artifacts.join(&file);
    if dest == real {
        // The mint wrote it into `artifacts/` itself.
        return match hash_file(&real, max_bytes) {
            Ok((size, sha256)) => gathered(shown, file, size, sha256, digest),
            Err(why) => refuse(why),
        };
    }
    match copy_capped(&real, &dest, max_bytes) {
        Ok((size, sha256)) => gathered(shown, file, size, sha256, digest),
        Err(why) => {
            let _ = std::fs::remove_file(&dest);
            refuse(why)
        }
    }
}

fn gathered(
    named: String,
    file: String,
    size: u64,
    sha256: String,
    digest: Option<&str>,
) -> ArtifactState {
    ArtifactState::Gathered {
        named,
        file,
        size,
        digest_matches: digest.map(|d| d.eq_ignore_ascii_case(&sha256)),
        sha256,
    }
}

fn hash_file(path: &Path, max_bytes: u64) -> Result<(u64, String), String> {
    copy_into(path, &mut std::io::sink(), max_bytes)
}

fn copy_capped(from: &Path, to: &Path, max_bytes: u64) -> Result<(u64, String), String> {
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    let tmp = to.with_extension("lane-partial");
    let mut out = std::fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let copied = copy_into(from, &mut out, max_bytes).and_then(|r| {
        out.sync_all()
            .map_err(|e| format!("{}: {e}", tmp.display()))?;
        Ok(r)
    });
    match copied {
        Ok(r) => {
            std::fs::rename(&tmp, to).map_err(|e| format!("{}: {e}", to.display()))?;
            Ok(r)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Streams `from` into `out` (64 KiB at a time), hashing, and stops with
/// an error past `max_bytes` (the file may grow while it is read).
fn copy_into(from: &Path, out: &mut dyn Write, max_bytes: u64) -> Result<(u64, String), String> {
    let f = std::fs::File::open(from).map_err(|e| format!("{}: {e}", from.display()))?;
    let mut f = f.take(max_bytes + 1);
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut size = 0u64;
    loop {
        let n = f
            .read(&mut buf)
            .map_err(|e| format!("{}: {e}", from.display()))?;
        if n == 0 {
            break;
        }
        size += n as u64;
        if size > max_bytes {
            return Err(format!("over the {max_bytes}-byte artifact cap"));
        }
        h.update(&buf[..n]);
        out.write_all(&buf[..n]).map_err(|e| e.to_string())?;
    }
    Ok((size, format!("{:x}", h.finalize())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_text_escapes_control_bytes_and_cuts() {
        assert_eq!(bounded_text("a\x1b[2Jb\nc", 100), "a\\u{1b}[2Jb\\u{a}c");
        assert_eq!(bounded_text("abcdef", 3), "abc…");
    }

    fn write(dir: &Path, name: &str, body: &str) -> PathBuf {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, body).unwrap();
        p
    }

    #[test]
    fn recipe_echo_of_a_failed_report_is_a_note_not_a_verdict() {
        let d = tempfile::tempdir().unwrap();
        let p = write(
            d.path(),
            "r.json",
            r#"{"status":"failed","detail":"AttributeError: x","recipe":"dynamo","phases":{"load":7.2}}"#,
        );
        let r = read_report(&p, "rig-aot", "aot");
        assert_eq!(
            r.state,
            ReportState::Status {
                status: "failed".into(),
                detail: Some("AttributeError: x".into()),
                phase: None,
            }
        );
        assert_eq!(r.notes.len(), 1);
        assert!(
            r.notes[0].contains("`recipe` echo is `dynamo`"),
            "{:?}",
            r.notes
        );
    }

    #[test]
    fn recipe_echo_of_a_minted_report_is_believed() {
        let d = tempfile::tempdir().unwrap();
        let p = write(
            d.path(),
            "r.json",
            r#"{"status":"minted","recipe":"dynamo"}"#,
        );
        let r = read_report(&p, "rig-aot", "aot");
        assert_eq!(
            r.state,
            ReportState::WrongCell {
                found: "a dynamo mint (this cell's recipe is aot)".into()
            }
        );
    }

    #[test]
    fn the_named_artifact_is_copied_hashed_and_checked_against_the_digest() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "rig/mint/cell.tar.gz", "cell bytes");
        let sha = format!("{:x}", Sha256::digest(b"cell bytes"));
        let art = d.path().join("artifacts");
        let s = gather_artifact(d.path(), &art, "rig/mint/cell.tar.gz", Some(&sha), 1 << 20);
        assert_eq!(
            s,
            ArtifactState::Gathered {
                named: "rig/mint/cell.tar.gz".into(),
                file: "cell.tar.gz".into(),
                size: 10,
                sha256: sha.clone(),
                digest_matches: Some(true),
            }
        );
        assert_eq!(
            std::fs::read(art.join("cell.tar.gz")).unwrap(),
            b"cell bytes"
        );
        // An absolute path inside the folder works too; a wrong digest is said.
        let abs = d.path().join("rig/mint/cell.tar.gz");
        let s = gather_artifact(d.path(), &art, abs.to_str().unwrap(), Some("00"), 1 << 20);
        assert!(matches!(
            s,
            ArtifactState::Gathered {
                digest_matches: Some(false),
                ..
            }
        ));
    }

    #[test]
    fn an_artifact_over_the_cap_outside_the_folder_or_missing_is_not_gathered() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "big.bin", "0123456789");
        let art = d.path().join("artifacts");
        let s = gather_artifact(d.path(), &art, "big.bin", None, 4);
        assert_eq!(
            s,
            ArtifactState::NotGathered {
                named: "big.bin".into(),
                why: "10 bytes, over the 4-byte artifact cap".into()
            }
        );
        assert!(!art.join("big.bin").exists(), "nothing half-written");
        let s = gather_artifact(d.path(), &art, "/etc/hostname", None, 1 << 20);
        assert!(
            matches!(&s, ArtifactState::NotGathered { why, .. } if why == "it is outside the mint folder" || why == "no such file"),
            "{s:?}"
        );
        let s = gather_artifact(d.path(), &art, "../../x", None, 1 << 20);
        assert!(matches!(s, ArtifactState::NotGathered { .. }));
        let s = gather_artifact(d.path(), &art, "nope.tar.gz", None, 1 << 20);
        assert_eq!(
            s,
            ArtifactState::NotGathered {
                named: "nope.tar.gz".into(),
                why: "no such file".into()
            }
        );
    }
}
