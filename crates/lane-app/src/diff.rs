//! `lane diff`: the determinism diff of two cold mints. Each side is a
//! folder (a mint's `artifacts/`, a bundle with `package/` and `cache/`), a
//! packed cell (`cell.tar.gz`: `metadata.json` + `model.pt2`, or a dynamo
//! compile-cache tarball), or a `.pt2` package; archives inside folders and
//! archives are opened too, in any order. `--configs-a`/`--configs-b` add
//! best_config files from a cache folder or from a report's `best_configs`
//! map.
//!
//! Two folders whose `report.json` names its graph classes (gen-worker
//! 0.114+: `entries`, `[[key, path, sha256], ...]`; a results slot or the
//! mint's own folder) are two mints of several cells: each entry's file is
//! found by its name beside the report or under `artifacts/`, checked
//! against the report's sha256, and the classes are paired by key and
//! diffed one pair at a time (`lane_diff::classes`).
//!
//! This is the IO edge of `lane_diff`: it lists folders and
//! opens files (a [`Source`]), gives nested zips a temporary file to be
//! read from (a [`Spool`]), and lets the library stream, fingerprint and
//! load only the content it needs, in two passes: both sides at once, one
//! thread each, the second pass reading from what the first spooled.

use lane_core::layout::file;
use std::fs::File;
use std::io::{self, BufReader};
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use lane_diff::chunks::window_plan;
use lane_diff::content_plan;
use lane_diff::ingest::{
    complete_side_planned, read_side_retaining, Opened, ReadLimits, Source, Spool, SpoolFile,
    TopEntry, TopKind, Windows,
};
use lane_diff::{
    diff_sides, pair_classes, ArtifactFile, CellSide, DeterminismReport, DeterminismVerdict,
    GraphClass, MintDiffReport, PairDiff, SkippedKind,
};
use lane_render::escape::terminal as escape;
use sha2::{Digest, Sha256};

use crate::error::AppError;

mod cold;

/// What `lane diff` is asked: two sides and how much of them to read.
#[derive(Debug, Clone)]
pub struct DiffRequest {
    /// The first mint: a folder, a packed cell (`.tar.gz`) or a `.pt2`;
    /// or a folder whose `report.json` names its graph classes.
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

/// What `lane diff` compared, and found: two cells, or two mints whose
/// reports name one packed file per graph class (class by class).
pub use lane_diff::PairDiff as DiffFound;

/// What `lane diff` found.
#[derive(Debug)]
pub struct DiffOutcome {
    /// The determinism report.
    pub report: DiffFound,
    /// The request's `--fail-on`.
    pub fail_on: Option<DeterminismVerdict>,
}

impl DiffOutcome {
    /// A verdict at or above `fail_on` is a finding.
    pub fn verdict(&self) -> Result<(), AppError> {
        let verdict = self.report.verdict();
        // Identical bytes of a pair not proven cold are no determinism
        // pass, whatever the level asked.
        let unproven = verdict == DeterminismVerdict::IdenticalNotProven;
        match self.fail_on {
            Some(v) if verdict >= v || unproven => Err(AppError::VerdictAtLeast {
                verdict: verdict_name(verdict),
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

/// `lane diff`: the determinism diff of two cold mints: two cells, or
/// two mints whose reports name their graph classes, class by class.
pub fn diff(request: &DiffRequest) -> Result<DiffOutcome, AppError> {
    let limits = ReadLimits {
        max_member_bytes: request.max_member_bytes,
        ..content_limits(request.max_content_bytes)
    };
    let report = match (classes_of(&request.a)?, classes_of(&request.b)?) {
        (None, None) => {
            let extra = [request.configs_a.as_deref(), request.configs_b.as_deref()];
            DiffFound::Cells(Box::new(diff_with(&request.a, &request.b, &limits, extra)?))
        }
        (Some(a), Some(b)) => {
            if request.configs_a.is_some() || request.configs_b.is_some() {
                return Err(AppError::Usage(
                    "--configs-a and --configs-b add best_configs to a cell; A and B are mints of graph classes (their reports name entries)".into(),
                ));
            }
            DiffFound::Classes(diff_mints(&a, &b, &limits)?)
        }
        (Some(m), None) | (None, Some(m)) => {
            let other = if m.dir == request.a {
                &request.b
            } else {
                &request.a
            };
            return Err(AppError::invalid_file(
                other,
                format!(
                    "{}'s report names graph classes (entries) and this side is no such mint: a mint of graph classes is diffed against another",
                    escape(&m.dir.display().to_string())
                ),
            ));
        }
    };
    let report = report.with_coldness(cold::coldness(&request.a, &request.b));
    Ok(DiffOutcome {
        report,
        fail_on: request.fail_on,
    })
}

/// The most graph classes one report may name.
const MAX_CLASSES: usize = 4096;

/// A mint folder whose report names its graph classes: each class with
/// its file and the sha256 the report gives it.
struct ClassedMint {
    dir: PathBuf,
    report: PathBuf,
    classes: Vec<(GraphClass, String)>,
}

/// The graph classes `side` holds, when it is a folder whose `report.json`
/// has `entries` (gen-worker 0.114+); `None` for anything else (a cell).
fn classes_of(side: &Path) -> Result<Option<ClassedMint>, AppError> {
    let report = side.join(file::REPORT);
    let is_report = std::fs::symlink_metadata(&report).is_ok_and(|m| m.is_file());
    if !side.is_dir() || !is_report {
        return Ok(None);
    }
    let Some(value) = crate::report::results::read_json(&report)? else {
        return Ok(None);
    };
    let Some(entries) = value.get("entries") else {
        return Ok(None);
    };
    let bad = |at: String, what: &str| AppError::invalid_file(&report, format!("{at}: {what}"));
    let list = entries.as_array().ok_or_else(|| {
        bad(
            "$.entries".into(),
            "expected an array of [key, path, sha256]",
        )
    })?;
    if list.len() > MAX_CLASSES {
        return Err(bad(
            "$.entries".into(),
            &format!(
                "{} entries, more than the {MAX_CLASSES} lane reads",
                list.len()
            ),
        ));
    }
    let mut classes = Vec::with_capacity(list.len());
    for (i, e) in list.iter().enumerate() {
        let at = format!("$.entries[{i}]");
        let parts: Option<Vec<&str>> = e
            .as_array()
            .filter(|p| p.len() == 3)
            .and_then(|p| p.iter().map(|x| x.as_str()).collect());
        let Some([key, named, sha]) = parts.as_deref().map(|p| [p[0], p[1], p[2]]) else {
            return Err(bad(at, "expected [key, path, sha256], three strings"));
        };
        if sha.len() != 64 || !sha.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad(format!("{at}[2]"), "expected a sha256 (64 hex digits)"));
        }
        let file = locate(side, &report, &at, key, named)?;
        classes.push((
            GraphClass {
                key: key.to_owned(),
                path: file.display().to_string(),
            },
            sha.to_ascii_lowercase(),
        ));
    }
    Ok(Some(ClassedMint {
        dir: side.to_owned(),
        report,
        classes,
    }))
}

/// An entry's file, by its name: beside the report (the mint's own
/// folder), else under `artifacts/` (a results slot). The report's path is
/// where the mint wrote it, on its machine; only its file name is used,
/// so nothing outside the side is ever opened. A link is never followed.
fn locate(
    side: &Path,
    report: &Path,
    at: &str,
    key: &str,
    named: &str,
) -> Result<PathBuf, AppError> {
    let name = named.rsplit('/').next().unwrap_or("");
    if name.is_empty() || name == "." || name == ".." || name.contains(['\\', '\0']) {
        return Err(AppError::invalid_file(
            report,
            format!("{at}[1]: {named:?} names no file"),
        ));
    }
    for dir in [side.to_owned(), side.join(file::ARTIFACTS)] {
        let p = dir.join(name);
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.is_file() => return Ok(p),
            Ok(m) if m.file_type().is_symlink() => {
                return Err(AppError::invalid_file(
                    &p,
                    format!("graph class {key:?}: a symbolic link, never followed"),
                ))
            }
            _ => {}
        }
    }
    Err(AppError::invalid_file(
        report,
        format!("{at}: graph class {key:?}: its file {name:?} is neither beside the report nor under artifacts/"),
    ))
}

/// Checks a class's file against the sha256 its report names, streamed
/// and bounded by the member cap.
fn check_digest(file: &Path, key: &str, expected: &str, max_bytes: u64) -> Result<(), AppError> {
    let f = File::open(file).map_err(|e| AppError::io(file, e))?;
    let mut hasher = Sha256::new();
    let n = io::copy(
        &mut io::Read::take(BufReader::new(f), max_bytes.saturating_add(1)),
        &mut hasher,
    )
    .map_err(|e| AppError::io(file, e))?;
    if n > max_bytes {
        return Err(AppError::invalid_file(
            file,
            format!("more than the {max_bytes}-byte cap"),
        ));
    }
    let got = format!("{:x}", hasher.finalize());
    if got != expected {
        return Err(AppError::invalid_file(
            file,
            format!("its sha256 is {got}; the report names {expected} for graph class {key:?}"),
        ));
    }
    Ok(())
}

/// Two mints of graph classes: every file checked against its report,
/// the classes paired by key, each pair read and diffed in turn.
fn diff_mints(
    a: &ClassedMint,
    b: &ClassedMint,
    limits: &ReadLimits,
) -> Result<MintDiffReport, AppError> {
    for m in [a, b] {
        for (c, sha) in &m.classes {
            check_digest(Path::new(&c.path), &c.key, sha, limits.max_member_bytes)?;
        }
    }
    let list = |m: &ClassedMint| m.classes.iter().map(|(c, _)| c.clone()).collect::<Vec<_>>();
    let pairing = pair_classes(&list(a), &list(b)).map_err(|e| {
        let report = if e.side() == "A" {
            &a.report
        } else {
            &b.report
        };
        AppError::invalid_file(report, e)
    })?;
    pairing.diff_each(|p| {
        diff_with(
            Path::new(&p.path_a),
            Path::new(&p.path_b),
            limits,
            [None, None],
        )
    })
}

/// The determinism diff of two repeats of one cell, each a results slot
/// (`<cell>/<gpu>/r<N>/`), as `lane report`, `lane mint`'s report and
/// `lane serve`'s `/lane diff` make it: class by class, exactly as `lane
/// diff` pairs two mints, when both slots' reports name graph classes
/// (`entries`, gen-worker 0.114+), the classes' files named relative to
/// their slot; else their `artifacts/` folders as one tree each. One
/// report naming classes and the other none is an invalid input.
pub fn diff_repeats(a: &Path, b: &Path, max_content_bytes: u64) -> Result<PairDiff, AppError> {
    let limits = content_limits(max_content_bytes);
    // Identical bytes prove determinism only where both repeats are proven
    // cold: the same rule as `lane diff` of two folders.
    let pair = match (classes_of(a)?, classes_of(b)?) {
        (Some(ma), Some(mb)) => {
            let mut r = diff_mints(&ma, &mb, &limits)?;
            within_slots(&mut r, a, b);
            PairDiff::Classes(r)
        }
        (None, None) => PairDiff::Cells(Box::new(diff_with(
            &a.join(file::ARTIFACTS),
            &b.join(file::ARTIFACTS),
            &limits,
            [None, None],
        )?)),
        (Some(m), None) | (None, Some(m)) => {
            let other = if m.dir == a { b } else { a };
            return Err(AppError::invalid_file(
                &other.join(file::REPORT),
                format!(
                    "names no graph classes (entries) while {} names them: the two repeats are not mints of one kind",
                    escape(&m.report.display().to_string())
                ),
            ));
        }
    };
    Ok(pair.with_coldness(cold::coldness(a, b)))
}

/// The determinism diff of two sides (folders, packed cells or `.pt2`
/// packages), read exactly as `lane diff` reads them.
pub fn diff_paths(
    a: &Path,
    b: &Path,
    max_content_bytes: u64,
) -> Result<DeterminismReport, AppError> {
    diff_with(a, b, &content_limits(max_content_bytes), [None, None])
}

/// The default limits, with files up to `max_content_bytes` loaded and
/// compared: the side's content budget grows to hold at least one such
/// file (a larger file is compared chunk by chunk, `lane_diff::chunks`).
fn content_limits(max_content_bytes: u64) -> ReadLimits {
    let default = ReadLimits::default();
    ReadLimits {
        max_content_bytes,
        max_total_content_bytes: default.max_total_content_bytes.max(max_content_bytes),
        ..default
    }
}

/// The files of a class-by-class diff named relative to their slots
/// (`artifacts/<key>.tar.gz`): what a report shows, without the machine's
/// folders.
fn within_slots(r: &mut MintDiffReport, a: &Path, b: &Path) {
    let rel = |root: &Path, p: &mut String| {
        if let Ok(inner) = Path::new(p.as_str()).strip_prefix(root) {
            *p = inner.display().to_string();
        }
    };
    for c in &mut r.classes {
        rel(a, &mut c.class.path_a);
        rel(b, &mut c.class.path_b);
    }
    for c in &mut r.only_a {
        rel(a, &mut c.path);
    }
    for c in &mut r.only_b {
        rel(b, &mut c.path);
    }
    for u in &mut r.unexplained {
        if let Some(p) = &mut u.a {
            rel(a, p);
        }
        if let Some(p) = &mut u.b {
            rel(b, p);
        }
    }
}

fn diff_with(
    a: &Path,
    b: &Path,
    limits: &ReadLimits,
    extra_configs: [Option<&Path>; 2],
) -> Result<DeterminismReport, AppError> {
    let (mut side_a, mut side_b) = read_both(a, b, limits)?;
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
        AppError::invalid_file(path, e)
    })
}

/// Reads both sides at once, one thread each: each side's first pass,
/// the content plan from both, then each side's second pass, which reads
/// what the plan needs from the zips its first pass spooled (a packed
/// cell is inflated once). The errors are those of reading A then B in
/// turn: A's, when both fail.
fn read_both(a: &Path, b: &Path, limits: &ReadLimits) -> Result<(CellSide, CellSide), AppError> {
    type FirstPass = mpsc::Sender<CellSide>;
    type Plan = mpsc::Receiver<(CellSide, Vec<String>, Windows)>;
    // One side, in its own thread: `None` when the other side failed
    // before the plan was made.
    let side = |path: &Path, name: &str, first: FirstPass, plan: Plan| {
        let mut src = open_source(path, name)?;
        let mut spool = TempSpool;
        let (side, retained) = read_side_retaining(&mut *src, limits, &mut spool)?;
        if first.send(side).is_err() {
            return Ok(None);
        }
        drop(first);
        let Ok((mut side, plan, windows)) = plan.recv() else {
            return Ok(None);
        };
        let src = &mut *src;
        complete_side_planned(
            &mut side, &plan, &windows, src, limits, &mut spool, retained,
        )?;
        Ok::<_, AppError>(Some(side))
    };
    let (first_a, from_a) = mpsc::channel();
    let (first_b, from_b) = mpsc::channel();
    let (plan_a, to_a) = mpsc::channel();
    let (plan_b, to_b) = mpsc::channel();
    let (got_a, got_b) = std::thread::scope(|s| {
        let ta = s.spawn(|| side(a, "A", first_a, to_a));
        let tb = s.spawn(|| side(b, "B", first_b, to_b));
        if let (Ok(sa), Ok(sb)) = (from_a.recv(), from_b.recv()) {
            let plan = content_plan(&sa.tree, &sb.tree, limits.max_content_bytes);
            let windows = window_plan(&sa, &sb, limits.max_content_bytes);
            // A side that has gone (failed) is reported by its join.
            let _ = plan_a.send((sa, plan.a, windows.clone()));
            let _ = plan_b.send((sb, plan.b, windows));
        }
        drop((plan_a, plan_b));
        let join = |t: std::thread::ScopedJoinHandle<'_, _>| {
            t.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
        };
        (join(ta), join(tb))
    });
    match (got_a?, got_b?) {
        (Some(sa), Some(sb)) => Ok((sa, sb)),
        _ => unreachable!("a side stops before its plan only when the other failed"),
    }
}

fn open_source(path: &Path, side: &str) -> Result<Box<dyn Source>, AppError> {
    let meta = std::fs::metadata(path)
        .map_err(|e| AppError::invalid_file(path, format!("tree {side}: {e}")))?;
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
        walk(path, path, &mut entries).map_err(|e| AppError::invalid_file(path, e))?;
        for e in entries {
            let keep = matches!(e.kind, TopKind::File)
                && (e.name.ends_with(".best_config") || e.name.ends_with(".py"));
            if !keep {
                continue;
            }
            let p = path.join(&e.path);
            let len = std::fs::metadata(&p)
                .map_err(|x| AppError::invalid_file(&p, x))?
                .len();
            if len > max_bytes {
                return Err(AppError::invalid_file(
                    &p,
                    format!("above the {max_bytes}-byte content cap"),
                ));
            }
            let bytes = std::fs::read(&p).map_err(|x| AppError::invalid_file(&p, x))?;
            push_config(side, format!("configs/{}", e.path), bytes);
        }
        return Ok(());
    }
    let Some(value) = crate::report::results::read_json(path)? else {
        return Err(AppError::invalid_file(path, "no such file"));
    };
    let Some(configs) = value.get("best_configs").and_then(|v| v.as_object()) else {
        return Err(AppError::invalid_file(
            path,
            "$.best_configs: expected an object of best_config files",
        ));
    };
    for (name, cfg) in configs {
        if !cfg.is_object() {
            return Err(AppError::invalid_file(
                path,
                format!("$.best_configs[{name:?}]: expected an object"),
            ));
        }
        let text = serde_json::to_vec(cfg).map_err(|e| AppError::invalid_file(path, e))?;
        push_config(side, format!("configs/{}", name.replace('/', "_")), text);
    }
    Ok(())
}

#[cfg(test)]
mod tests;
