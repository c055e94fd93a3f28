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

use crate::error::AgentError;
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

/// A cell a report's `entries` names: `[key, path, sha256]` (gen-worker
/// 0.114 on: one packed graph class each).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NamedEntry {
    /// The compiled-graph key (`cg-key-v1-...`).
    pub key: String,
    /// The path (absolute, or relative to the mint folder).
    pub path: String,
    /// Its sha256, as the report gives it.
    pub sha256: String,
}

/// The report as the agent read it: its state, the cells it names and the
/// notes it made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadReport {
    /// How it classifies.
    pub state: ReportState,
    /// The report's `artifact`, when it names one.
    pub artifact: Option<String>,
    /// The report's `digest` (the artifact's sha256), when given.
    pub digest: Option<String>,
    /// The report's `entries` (0.114 on), in order.
    pub entries: Vec<NamedEntry>,
    /// The graphs a `gen-worker compile` verdict (0.127 on) says were
    /// built: their packages are found under the attempt's home.
    pub verdict_graphs: Vec<String>,
    /// The specializations the verdict says this attempt did not build
    /// (`present`, `reused`, `claimed`), each `graph (state)`: resolved
    /// from a store or cache another compile filled, so the attempt is not
    /// cold and has no cell of its own for them.
    pub not_built: Vec<String>,
    /// True when the file is a `gen-worker compile --verdict` file.
    pub is_verdict: bool,
    /// Things worth saying that change nothing (an echo not believed).
    pub notes: Vec<String>,
}

impl ReadReport {
    fn state(state: ReportState) -> ReadReport {
        ReadReport {
            state,
            artifact: None,
            digest: None,
            entries: Vec::new(),
            verdict_graphs: Vec::new(),
            not_built: Vec::new(),
            is_verdict: false,
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

/// The recipe a report's own shape shows, whatever it echoes: the aot
/// phase table (`mint_phases.v`), the dynamo warm ledger
/// (`mint_phases.spans_v`), packed graph classes (`entries`, 0.114 on).
/// gen-worker 0.95 and later have no dynamo recipe at all (pgw#1010:
/// `PGW978_RECIPE` is read nowhere) and no `recipe` echo.
fn shape_recipe(v: &serde_json::Value) -> Option<&'static str> {
    let table = v.get("mint_phases").filter(|t| t.is_object());
    if table.is_some_and(|t| t.get("spans_v").is_some()) {
        Some("dynamo")
    } else if table.is_some_and(|t| t.get("v").is_some()) || v.get("entries").is_some() {
        Some("aot")
    } else {
        None
    }
}

/// `entries`: `[[key, path, sha256], ...]`, or why not (with its JSON path).
fn entries(v: &serde_json::Value) -> Result<Vec<NamedEntry>, String> {
    let Some(list) = v.get("entries") else {
        return Ok(Vec::new());
    };
    let Some(list) = list.as_array() else {
        return Err("$.entries: expected an array of [key, path, sha256]".into());
    };
    list.iter()
        .enumerate()
        .map(|(i, row)| match row.as_array().map(Vec::as_slice) {
            Some([k, p, h]) => match (k.as_str(), p.as_str(), h.as_str()) {
                (Some(key), Some(path), Some(sha256)) if !path.is_empty() => Ok(NamedEntry {
                    key: key.to_owned(),
                    path: path.to_owned(),
                    sha256: sha256.to_owned(),
                }),
                _ => Err(format!(
                    "$.entries[{i}]: expected three strings [key, path, sha256] with a path"
                )),
            },
            _ => Err(format!("$.entries[{i}]: expected [key, path, sha256]")),
        })
        .collect()
}

/// A graph name usable as a file name (it names a folder under the home).
fn file_name_safe(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 200
        && !s.starts_with('.')
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Reads a `gen-worker compile --verdict` file (0.127 on; `cli/compile.py`
/// `_write_verdict`): `rc` 0 servable, 1 a fatal gap or a failed
/// specialization, 2 no sm (`:1223-1335`).
fn read_verdict(value: &serde_json::Value, cell_recipe: &str) -> ReadReport {
    let rc = value
        .get("rc")
        .and_then(serde_json::Value::as_i64)
        .unwrap_or(-1);
    let summary = string_field(value, "summary");
    let specs: Vec<&serde_json::Value> = value
        .get("specializations")
        .and_then(|s| s.as_array())
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    let field = |s: &serde_json::Value, k: &str| string_field(s, k).unwrap_or_default();
    let failed = specs.iter().find(|s| field(s, "state") == "failed");
    let failure = failed.map(|s| format!("{}: {}", field(s, "graph"), field(s, "detail")));
    let (status, detail) = match (rc, &failure) {
        (0, None) => ("minted", summary.clone()),
        (0 | 1, Some(f)) => ("failed", Some(f.clone())),
        (1, None) => ("failed", summary.clone()),
        (2, _) => ("refused", summary.clone()),
        _ => (
            "crashed",
            Some(format!("gen-worker compile's verdict says rc {rc}")),
        ),
    };
    let mut out = ReadReport::state(ReportState::Status {
        status: status.to_owned(),
        detail: detail.map(|d| d.lines().next().unwrap_or_default().to_owned()),
        phase: None,
    });
    out.is_verdict = true;
    let mut unsafe_names = 0;
    for s in &specs {
        let graph = field(s, "graph");
        match field(s, "state").as_str() {
            "built" => {}
            state @ ("reused" | "present" | "claimed") => {
                out.not_built
                    .push(format!("{} ({state})", bounded_text(&graph, 80)));
                continue;
            }
            _ => continue,
        }
        if file_name_safe(&graph) {
            out.verdict_graphs.push(graph);
        } else {
            unsafe_names += 1;
        }
    }
    if unsafe_names > 0 {
        out.notes.push(format!(
            "{unsafe_names} specialization(s) of the verdict name a graph that is not a file name: not gathered"
        ));
    }
    if status == "minted" && cell_recipe != "aot" {
        out.state = ReportState::WrongCell {
            found: format!(
                "an aot mint (gen-worker compile: AOTInductor through torchcg), not this cell's {}",
                bounded_text(cell_recipe, 40)
            ),
        };
    }
    out
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
    if value.get("status").is_none() && value.get("rc").is_some_and(|r| r.is_i64()) {
        return read_verdict(&value, recipe);
    }
    let Some(status) = value.get("status").and_then(|s| s.as_str()) else {
        return ReadReport::state(ReportState::Invalid {
            reason: "no string `status` field".into(),
        });
    };
    let named = match entries(&value) {
        Ok(e) => e,
        Err(reason) => return ReadReport::state(ReportState::Invalid { reason }),
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
    // No echo (gen-worker 0.95 on): what the report's own shape shows.
    if let (true, None, Some(shown)) = (
        minted && wrong.is_none(),
        string_field(&value, "recipe"),
        shape_recipe(&value),
    ) {
        if shown != recipe {
            wrong = Some(format!(
                "a{} {shown} mint (its report's {}; gen-worker 0.95 and later run only the aot \
                 recipe and read PGW978_RECIPE nowhere), not this cell's {}",
                if shown == "aot" { "n" } else { "" },
                if shown == "aot" {
                    "aot phase table or packed entries"
                } else {
                    "dynamo warm ledger"
                },
                bounded_text(recipe, 40)
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
        entries: named,
        verdict_graphs: Vec::new(),
        not_built: not_compiled(&value),
        is_verdict: false,
        notes,
    }
}

/// The graph classes of an aot phase table (`mint_phases.entries`, gen-worker
/// 0.93 to 0.126) that this attempt did not compile: a class with
/// `compile_s` 0 (or none) was resolved, and one with `reuse_s` above 0
/// took its graph from the compiled-graph cache another compile filled.
/// Each `class (why)`. The ledger's `not_cold` rule, read where the mint
/// ends, so such a repeat is never counted minted and cold.
fn not_compiled(report: &serde_json::Value) -> Vec<String> {
    let Some(classes) = report
        .get("mint_phases")
        .and_then(|m| m.get("entries"))
        .and_then(|e| e.as_object())
    else {
        return Vec::new();
    };
    let seconds = |row: &serde_json::Value, k: &str| row.get(k).and_then(serde_json::Value::as_f64);
    classes
        .iter()
        .filter(|(_, row)| row.is_object())
        .filter_map(|(name, row)| {
            let compile = seconds(row, "compile_s");
            let reuse = seconds(row, "reuse_s").unwrap_or(0.0);
            let why = match compile {
                _ if reuse > 0.0 => format!("reuse_s {reuse:.3}: from the compiled-graph cache"),
                Some(c) if c > 0.0 => return None,
                Some(_) => "compile_s 0".to_owned(),
                None => "no compile_s".to_owned(),
            };
            Some(format!("{} ({why})", bounded_text(name, 80)))
        })
        .take(64)
        .collect()
}

/// What the report says of one cell it names.
#[derive(Debug, Clone, Copy)]
pub struct Named<'a> {
    /// The path it names (absolute, or relative to the mint folder).
    pub path: &'a str,
    /// The sha256 it gives (`digest`, an `entries` row's third field).
    pub sha256: Option<&'a str>,
    /// The key it gives (an `entries` row's, a verdict's graph).
    pub key: Option<&'a str>,
    /// The name under `artifacts/` (default: the file's own name).
    pub dest: Option<&'a str>,
}

impl<'a> Named<'a> {
    /// The report's one `artifact`, with its `digest`.
    pub fn artifact(path: &'a str, digest: Option<&'a str>) -> Named<'a> {
        Named {
            path,
            sha256: digest,
            key: None,
            dest: None,
        }
    }
}

/// Copies the cell `named` names into `artifacts`, streamed, refusing
/// more than `max_bytes`, and checks it against the sha256 the report
/// gives. Only a regular file inside the mint folder is gathered: the
/// report is foreign text and must not make lane copy `/etc/shadow` into a
/// bundle.
pub fn gather_artifact(
    mint_dir: &Path,
    artifacts: &Path,
    named: Named<'_>,
    max_bytes: u64,
) -> Result<ArtifactState, AgentError> {
    let shown = bounded_text(named.path, 200);
    let key = named.key.map(|k| bounded_text(k, 200));
    let refuse = |why: String| {
        Ok(ArtifactState::NotGathered {
            named: shown.clone(),
            why,
            key: key.clone(),
        })
    };
    let path = mint_dir.join(named.path);
    let Ok(real) = std::fs::canonicalize(&path) else {
        return refuse(lane_core::results::MISSING.into());
    };
    let Ok(root) = std::fs::canonicalize(mint_dir) else {
        return refuse("the mint folder is gone".into());
    };
    if !real.starts_with(&root) {
        return refuse("it is outside the mint folder".into());
    }
    let file = match named.dest {
        Some(d) => d.to_owned(),
        None => match real.file_name() {
            Some(n) => n.to_string_lossy().into_owned(),
            None => return refuse("it has no file name".into()),
        },
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
    let hashed = if dest == real {
        // The mint wrote it into `artifacts/` itself.
        hash_file(&real, max_bytes)
    } else {
        copy_capped(&real, &dest, max_bytes).inspect_err(|_| {
            let _ = std::fs::remove_file(&dest);
        })
    };
    match hashed {
        Ok((size, sha256)) => Ok(ArtifactState::Gathered {
            named: shown,
            file,
            size,
            digest_matches: named.sha256.map(|d| d.eq_ignore_ascii_case(&sha256)),
            sha256,
            key,
            cubins: crate::inspect::gpu_code(&dest, mint_dir),
        }),
        Err(CopyFail::Mint(why)) => refuse(why),
        Err(CopyFail::Lane { path, source }) => Err(AgentError::Io { path, source }),
    }
}

/// Why a cell was not copied: the mint's file (over the cap, unreadable),
/// or lane's own side (writing the copy: a full disk, EIO, a permission).
enum CopyFail {
    Mint(String),
    Lane {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn hash_file(path: &Path, max_bytes: u64) -> Result<(u64, String), CopyFail> {
    copy_into(path, &mut std::io::sink(), Path::new(""), max_bytes)
}

fn copy_capped(from: &Path, to: &Path, max_bytes: u64) -> Result<(u64, String), CopyFail> {
    let lane = |path: &Path| {
        let path = path.to_owned();
        move |source| CopyFail::Lane { path, source }
    };
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(lane(parent))?;
    }
    let tmp = to.with_extension("lane-partial");
    let mut out = std::fs::File::create(&tmp).map_err(lane(&tmp))?;
    let copied = copy_into(from, &mut out, &tmp, max_bytes)
        .and_then(|r| out.sync_all().map_err(lane(&tmp)).map(|()| r));
    match copied {
        Ok(r) => {
            std::fs::rename(&tmp, to).map_err(lane(to))?;
            Ok(r)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// Copies `from` into `out` (the file `to`, for errors), hashing it; a
/// read error is the mint's file's, a write error lane's.
fn copy_into(
    from: &Path,
    out: &mut dyn Write,
    to: &Path,
    max_bytes: u64,
) -> Result<(u64, String), CopyFail> {
    let mint = |e: std::io::Error| CopyFail::Mint(format!("{}: {e}", from.display()));
    let f = std::fs::File::open(from).map_err(mint)?;
    let mut f = f.take(max_bytes + 1);
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut size = 0u64;
    loop {
        let n = f.read(&mut buf).map_err(mint)?;
        if n == 0 {
            break;
        }
        size += n as u64;
        if size > max_bytes {
            return Err(CopyFail::Mint(format!(
                "over the {max_bytes}-byte artifact cap"
            )));
        }
        h.update(&buf[..n]);
        out.write_all(&buf[..n]).map_err(|source| CopyFail::Lane {
            path: to.to_owned(),
            source,
        })?;
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
        let s = gather_artifact(
            d.path(),
            &art,
            Named::artifact("rig/mint/cell.tar.gz", Some(&sha)),
            1 << 20,
        )
        .unwrap();
        assert_eq!(
            s,
            ArtifactState::Gathered {
                named: "rig/mint/cell.tar.gz".into(),
                file: "cell.tar.gz".into(),
                size: 10,
                sha256: sha.clone(),
                digest_matches: Some(true),
                key: None,
                cubins: None,
            }
        );
        assert_eq!(
            std::fs::read(art.join("cell.tar.gz")).unwrap(),
            b"cell bytes"
        );
        // An absolute path inside the folder works too; a wrong digest is said.
        let abs = d.path().join("rig/mint/cell.tar.gz");
        let s = gather_artifact(
            d.path(),
            &art,
            Named::artifact(abs.to_str().unwrap(), Some("00")),
            1 << 20,
        )
        .unwrap();
        assert!(matches!(
            s,
            ArtifactState::Gathered {
                digest_matches: Some(false),
                ..
            }
        ));
    }

    /// Regression (issue 19, item 1): lane's own copy failing (a full
    /// disk) was the mint's `not gathered`, so a minted mint was `failed`
    /// for good. A write on lane's side is lane's error, never the cell's.
    #[test]
    fn regression_a_copy_lane_cannot_write_is_lanes_error_not_the_cells() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "cell.bin", "cell bytes");
        // `artifacts` is a file: nothing can be written under it.
        let art = write(d.path(), "artifacts", "in the way");
        let e = gather_artifact(d.path(), &art, Named::artifact("cell.bin", None), 1 << 20)
            .expect_err("lane's side failed");
        assert!(matches!(e, AgentError::Io { .. }), "{e:?}");
    }

    #[test]
    fn an_artifact_over_the_cap_outside_the_folder_or_missing_is_not_gathered() {
        let d = tempfile::tempdir().unwrap();
        write(d.path(), "big.bin", "0123456789");
        let art = d.path().join("artifacts");
        let s = gather_artifact(d.path(), &art, Named::artifact("big.bin", None), 4).unwrap();
        assert_eq!(
            s,
            ArtifactState::NotGathered {
                named: "big.bin".into(),
                why: "10 bytes, over the 4-byte artifact cap".into(),
                key: None,
            }
        );
        assert!(!art.join("big.bin").exists(), "nothing half-written");
        let s = gather_artifact(
            d.path(),
            &art,
            Named::artifact("/etc/hostname", None),
            1 << 20,
        )
        .unwrap();
        assert!(
            matches!(&s, ArtifactState::NotGathered { why, .. } if why == "it is outside the mint folder" || why == "no such file"),
            "{s:?}"
        );
        let s = gather_artifact(d.path(), &art, Named::artifact("../../x", None), 1 << 20).unwrap();
        assert!(matches!(s, ArtifactState::NotGathered { .. }));
        let s = gather_artifact(
            d.path(),
            &art,
            Named::artifact("nope.tar.gz", None),
            1 << 20,
        )
        .unwrap();
        assert_eq!(
            s,
            ArtifactState::NotGathered {
                named: "nope.tar.gz".into(),
                why: "no such file".into(),
                key: None,
            }
        );
    }
}
