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

use anyhow::anyhow;
use lane_diff::content_plan;
use lane_diff::ingest::{
    complete_side, read_side, Keep, Opened, ReadLimits, Source, Spool, SpoolFile, TopEntry, TopKind,
};
use lane_diff::{
    diff_sides, ArtifactFile, CellSide, DeterminismReport, DeterminismVerdict, SkippedKind,
    DEFAULT_MAX_CONTENT_BYTES,
};
use lane_render::escape::terminal as escape;
use lane_render::text::render_determinism as render;
use sha2::{Digest, Sha256};

use crate::exit::{CliError, CliResult, Exit};
use crate::output::print_json;

/// Arguments of `lane diff`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The first mint: a folder, a packed cell (`.tar.gz`) or a `.pt2`.
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// The second mint: a folder, a packed cell (`.tar.gz`) or a `.pt2`.
    #[arg(value_name = "B")]
    pub b: PathBuf,
    /// Extra best_configs for A: an inductor cache directory or a report
    /// JSON with a `best_configs` map.
    #[arg(long, value_name = "DIR_OR_JSON")]
    pub configs_a: Option<PathBuf>,
    /// Extra best_configs for B (as `--configs-a`).
    #[arg(long, value_name = "DIR_OR_JSON")]
    pub configs_b: Option<PathBuf>,
    /// Exit 7 when the verdict is this or worse: `path-noise-only`,
    /// `autotune-configs-only`, `decisions-flipped` or `unexplained`.
    #[arg(long, value_name = "VERDICT", value_parser = parse_verdict)]
    pub fail_on: Option<DeterminismVerdict>,
    /// Largest file whose content is compared, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_CONTENT_BYTES, value_name = "BYTES")]
    pub max_content_bytes: u64,
    /// Largest file or archive member read at all, in bytes (larger is an
    /// error naming the archive and member).
    #[arg(long, default_value_t = ReadLimits::default().max_member_bytes, value_name = "BYTES")]
    pub max_member_bytes: u64,
    /// Print JSON for scripts instead of text.
    #[arg(long)]
    pub json: bool,
}

fn parse_verdict(s: &str) -> Result<DeterminismVerdict, String> {
    match s {
        "path-noise-only" => Ok(DeterminismVerdict::PathNoiseOnly),
        "autotune-configs-only" => Ok(DeterminismVerdict::AutotuneConfigsOnly),
        "decisions-flipped" => Ok(DeterminismVerdict::DecisionsFlipped),
        "unexplained" => Ok(DeterminismVerdict::Unexplained),
        other => Err(format!(
            "unknown verdict `{other}` (expected path-noise-only, autotune-configs-only, decisions-flipped or unexplained)"
        )),
    }
}

/// Runs `lane diff`.
pub fn run(args: Args) -> CliResult {
    let limits = ReadLimits {
        max_content_bytes: args.max_content_bytes,
        max_member_bytes: args.max_member_bytes,
        ..ReadLimits::default()
    };
    let extra = [args.configs_a.as_deref(), args.configs_b.as_deref()];
    let report = diff_with(&args.a, &args.b, &limits, extra)?;
    if args.json {
        print_json(&report)?;
    } else {
        println!(
            "A: {}\nB: {}\n",
            escape(&args.a.display().to_string()),
            escape(&args.b.display().to_string())
        );
        print!("{}", render(&report));
    }
    if args.fail_on.is_some_and(|v| report.verdict >= v) {
        return Ok(Exit::Findings);
    }
    Ok(Exit::Ok)
}

/// The determinism diff of two sides (folders, packed cells or `.pt2`
/// packages), read exactly as `lane diff` reads them; shared with
/// `lane report`, which diffs the first two repeats' `artifacts/`.
pub(crate) fn diff_paths(
    a: &Path,
    b: &Path,
    max_content_bytes: u64,
) -> Result<DeterminismReport, CliError> {
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
) -> Result<DeterminismReport, CliError> {
    let mut src_a = open_source(a, "A")?;
    let mut src_b = open_source(b, "B")?;
    let mut spool = TempSpool;
    let ingest = |e| CliError::new(Exit::InvalidInput, anyhow!("{e}"));
    let mut side_a = read_side(&mut *src_a, Keep::First, limits, &mut spool).map_err(ingest)?;
    let mut side_b = read_side(&mut *src_b, Keep::First, limits, &mut spool).map_err(ingest)?;
    let plan = content_plan(&side_a.tree, &side_b.tree, limits.max_content_bytes);
    complete_side(&mut side_a, &plan.a, &mut *src_a, limits, &mut spool).map_err(ingest)?;
    complete_side(&mut side_b, &plan.b, &mut *src_b, limits, &mut spool).map_err(ingest)?;
    for (side, extra) in [
        (&mut side_a, extra_configs[0]),
        (&mut side_b, extra_configs[1]),
    ] {
        if let Some(p) = extra {
            add_configs(side, p, limits.max_content_bytes)?;
        }
    }
    diff_sides(&side_a, &side_b).map_err(|e| CliError::new(Exit::InvalidInput, e))
}

fn invalid(path: &Path, e: impl std::fmt::Display) -> CliError {
    CliError::new(
        Exit::InvalidInput,
        anyhow!("{}: {e}", escape(&path.display().to_string())),
    )
}

fn open_source(path: &Path, side: &str) -> Result<Box<dyn Source>, CliError> {
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
fn add_configs(side: &mut CellSide, path: &Path, max_bytes: u64) -> Result<(), CliError> {
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
    let Some(value) = crate::cmd::report::results::read_json(path)? else {
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
