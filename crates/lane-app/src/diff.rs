//! `lane diff`: the determinism diff of two cold mints. Each side is a
//! folder (a mint's `artifacts/`, a bundle with `package/` and `cache/`), a
//! packed cell (`cell.tar.gz`: `metadata.json` + `model.pt2`, or a dynamo
//! compile-cache tarball), or a `.pt2` package; archives inside folders and
//! archives are opened too, in any order. `--configs-a`/`--configs-b` add
//! best_config files from a cache folder or from a report's `best_configs`
//! map.
//!
//! This is the IO edge of `lane_diff`: it lists folders and
//! opens files (a [`Source`]), gives nested zips a temporary file to be
//! read from (a [`Spool`]), and lets the library stream, fingerprint and
//! load only the content it needs, in two passes.

use std::fs::File;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};

use lane_diff::content_plan;
use lane_diff::ingest::{
    complete_side, read_side, Keep, Opened, ReadLimits, Source, Spool, SpoolFile, TopEntry, TopKind,
};
use lane_diff::{
    diff_sides, ArtifactFile, CellSide, DeterminismReport, DeterminismVerdict, SkippedKind,
};
use lane_render::escape::terminal as escape;
use sha2::{Digest, Sha256};

use crate::error::AppError;

/// What `lane diff` is asked: two sides and how much of them to read.
#[derive(Debug, Clone)]
pub struct DiffRequest {
    /// The first mint: a folder, a packed cell (`.tar.gz`) or a `.pt2`.
    pub a: PathBuf,
    /// The second mint.
    pub b: PathBuf,
    /// Extra best_configs for A: an inductor cache directory or a report
    /// JSON with a `best_configs` map.
    pub configs_a: Option<PathBuf>,
    /// Extra best_configs for B.
    pub configs_b: Option<PathBuf>,
    /// The verdict at or above which the diff is a finding (exit 7).
    pub fail_on: Option<DeterminismVerdict>,
    /// Largest file whose content is compared, in bytes.
    pub max_content_bytes: u64,
    /// Largest file or archive member read at all, in bytes.
    pub max_member_bytes: u64,
}

/// What `lane diff` found.
#[derive(Debug)]
pub struct DiffOutcome {
    /// The determinism report.
    pub report: DeterminismReport,
    /// The request's `--fail-on`.
    pub fail_on: Option<DeterminismVerdict>,
}

impl DiffOutcome {
    /// A verdict at or above `fail_on` is a finding.
    pub fn verdict(&self) -> Result<(), AppError> {
        match self.fail_on {
            Some(v) if self.report.verdict >= v => Err(AppError::VerdictAtLeast {
                verdict: verdict_name(self.report.verdict),
                fail_on: verdict_name(v),
            }),
            _ => Ok(()),
        }
    }
}

/// A verdict as `--fail-on` spells it (`decisions-flipped`).
fn verdict_name(v: DeterminismVerdict) -> String {
    serde_json::to_value(v)
        .ok()
        .and_then(|n| n.as_str().map(|n| n.replace('_', "-")))
        .unwrap_or_else(|| format!("{v:?}"))
}

/// `lane diff`: the determinism diff of two cold mints.
pub fn diff(request: &DiffRequest) -> Result<DiffOutcome, AppError> {
    let limits = ReadLimits {
        max_content_bytes: request.max_content_bytes,
        max_member_bytes: request.max_member_bytes,
        ..ReadLimits::default()
    };
    let extra = [request.configs_a.as_deref(), request.configs_b.as_deref()];
    let report = diff_with(&request.a, &request.b, &limits, extra)?;
    Ok(DiffOutcome {
        report,
        fail_on: request.fail_on,
    })
}

/// The determinism diff of two sides (folders, packed cells or `.pt2`
/// packages), read exactly as `lane diff` reads them; shared with
/// `lane report`, which diffs the first two repeats' `artifacts/`.
pub fn diff_paths(
    a: &Path,
    b: &Path,
    max_content_bytes: u64,
) -> Result<DeterminismReport, AppError> {
    let limits = ReadLimits {
        max_content_bytes,
        ..ReadLimits::default()
    };
    diff_with(a, b, &limits, [None, None])
}

fn diff_with(
    a: &Path,
    b: &Path,
    limits: &ReadLimits,
    extra_configs: [Option<&Path>; 2],
) -> Result<DeterminismReport, AppError> {
    let mut src_a = open_source(a, "A")?;
    let mut src_b = open_source(b, "B")?;
    let mut spool = TempSpool;
    let mut side_a = read_side(&mut *src_a, Keep::First, limits, &mut spool)?;
    let mut side_b = read_side(&mut *src_b, Keep::First, limits, &mut spool)?;
    let plan = content_plan(&side_a.tree, &side_b.tree, limits.max_content_bytes);
    complete_side(&mut side_a, &plan.a, &mut *src_a, limits, &mut spool)?;
    complete_side(&mut side_b, &plan.b, &mut *src_b, limits, &mut spool)?;
    for (side, extra) in [
        (&mut side_a, extra_configs[0]),
        (&mut side_b, extra_configs[1]),
    ] {
        if let Some(p) = extra {
            add_configs(side, p, limits.max_content_bytes)?;
        }
    }
    // The pure diff knows its trees as A and B: name the file the user gave.
    diff_sides(&side_a, &side_b).map_err(|e| {
        let path = if e.side() == "A" { a } else { b };
        invalid(path, e)
    })
}

fn invalid(path: &Path, e: impl std::fmt::Display) -> AppError {
    AppError::invalid(escape(&path.display().to_string()), e)
}

fn open_source(path: &Path, side: &str) -> Result<Box<dyn Source>, AppError> {
    let meta = std::fs::metadata(path).map_err(|e| invalid(path, format!("tree {side}: {e}")))?;
    let label = path.display().to_string();
    if meta.is_dir() {
        Ok(Box::new(DirSource {
            root: path.to_owned(),
            label,
        }))
    } else {
        Ok(Box::new(FileSource {
            path: path.to_owned(),
            label,
        }))
    }
}

/// A folder: every entry below it, links and pipes listed but never read.
struct DirSource {
    root: PathBuf,
    label: String,
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn skipped_kind(ty: &std::fs::FileType) -> SkippedKind {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ty.is_fifo() {
            return SkippedKind::Fifo;
        }
        if ty.is_char_device() || ty.is_block_device() {
            return SkippedKind::Device;
        }
    }
    if ty.is_symlink() {
        SkippedKind::Symlink
    } else {
        SkippedKind::Other
    }
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<TopEntry>) -> io::Result<()> {
    let mut entries: Vec<std::fs::DirEntry> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let ty = e.file_type()?;
        let path = e.path();
        if ty.is_dir() {
            walk(root, &path, out)?;
            continue;
        }
        let kind = if ty.is_file() {
            TopKind::File
        } else {
            // Following a link could leave the tree; a pipe could block forever.
            let target = std::fs::read_link(&path)
                .ok()
                .map(|t| t.display().to_string());
            TopKind::Skipped(skipped_kind(&ty), target)
        };
        out.push(TopEntry {
            path: rel(root, &path),
            name: e.file_name().to_string_lossy().into_owned(),
            kind,
        });
    }
    Ok(())
}

impl Source for DirSource {
    fn label(&self) -> String {
        self.label.clone()
    }
    fn entries(&mut self) -> io::Result<Vec<TopEntry>> {
        let mut out = Vec::new();
        walk(&self.root, &self.root, &mut out)?;
        Ok(out)
    }
    fn open(&mut self, path: &str) -> io::Result<Opened> {
        let f = File::open(self.root.join(path))?;
        Ok(Opened::Seekable(Box::new(BufReader::with_capacity(
            256 * 1024,
            f,
        ))))
    }
}

/// One file: a packed cell, a `.pt2`, or any single file.
struct FileSource {
    path: PathBuf,
    label: String,
}

impl Source for FileSource {
    fn label(&self) -> String {
        self.label.clone()
    }
    fn entries(&mut self) -> io::Result<Vec<TopEntry>> {
        let name = self
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(vec![TopEntry {
            path: String::new(),
            name,
            kind: TopKind::File,
        }])
    }
    fn open(&mut self, _path: &str) -> io::Result<Opened> {
        let f = File::open(&self.path)?;
        Ok(Opened::Seekable(Box::new(BufReader::with_capacity(
            256 * 1024,
            f,
        ))))
    }
}

/// Nested zips too large for memory go to a temporary file, unlinked as
/// soon as it is open (nothing is left behind, whatever happens next).
struct TempSpool;

impl Spool for TempSpool {
    fn create(&mut self) -> io::Result<Box<dyn SpoolFile>> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = std::env::temp_dir().join(format!("lane-diff-{}-{n}.spool", std::process::id()));
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)?;
        std::fs::remove_file(&path)?;
        Ok(Box::new(f))
    }
}

fn push_config(side: &mut CellSide, path: String, bytes: Vec<u8>) {
    let sha256 = format!("{:x}", Sha256::digest(&bytes));
    side.tree.files.push(ArtifactFile {
        path,
        size: bytes.len() as u64,
        sha256,
        content: Some(bytes),
    });
}

/// Adds best_configs from a cache directory (under `configs/`) or a
/// report's `best_configs` map (as `configs/<name>`).
fn add_configs(side: &mut CellSide, path: &Path, max_bytes: u64) -> Result<(), AppError> {
    if path.is_dir() {
        let mut entries = Vec::new();
        walk(path, path, &mut entries).map_err(|e| invalid(path, e))?;
        for e in entries {
            let keep = matches!(e.kind, TopKind::File)
                && (e.name.ends_with(".best_config") || e.name.ends_with(".py"));
            if !keep {
                continue;
            }
            let p = path.join(&e.path);
            let len = std::fs::metadata(&p).map_err(|x| invalid(&p, x))?.len();
            if len > max_bytes {
                return Err(invalid(
                    &p,
                    format!("above the {max_bytes}-byte content cap"),
                ));
            }
            let bytes = std::fs::read(&p).map_err(|x| invalid(&p, x))?;
            push_config(side, format!("configs/{}", e.path), bytes);
        }
        return Ok(());
    }
    let Some(value) = crate::report::results::read_json(path)? else {
        return Err(invalid(path, "no such file"));
    };
    let Some(configs) = value.get("best_configs").and_then(|v| v.as_object()) else {
        return Err(invalid(
            path,
            "$.best_configs: expected an object of best_config files",
        ));
    };
    for (name, cfg) in configs {
        if !cfg.is_object() {
            return Err(invalid(
                path,
                format!("$.best_configs[{name:?}]: expected an object"),
            ));
        }
        let text = serde_json::to_vec(cfg).map_err(|e| invalid(path, e))?;
        push_config(side, format!("configs/{}", name.replace('/', "_")), text);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_is_named_as_fail_on_spells_it() {
        assert_eq!(
            verdict_name(DeterminismVerdict::DecisionsFlipped),
            "decisions-flipped"
        );
        assert_eq!(
            verdict_name(DeterminismVerdict::PathNoiseOnly),
            "path-noise-only"
        );
    }
}
