//! Sides on disk, read as `lane diff` reads them (a folder walked with
//! links listed not followed, or one file), for the tests on real cells.

use std::io;
use std::path::{Path, PathBuf};

use lane_diff::ingest::{
    complete_side, read_side, IngestError, Keep, MemorySpool, Opened, ReadLimits, Source, TopEntry,
    TopKind,
};
use lane_diff::{
    content_plan, diff_sides, CellSide, DeterminismReport, DeterminismVerdict, SkippedKind,
};

/// A side on disk, as `lane diff` lists it: a folder (walked, links
/// listed not followed) or one file.
pub struct Disk {
    pub root: PathBuf,
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<TopEntry>) -> io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let ty = e.file_type()?;
        if ty.is_dir() {
            walk(root, &e.path(), out)?;
            continue;
        }
        let rel = e
            .path()
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let kind = if ty.is_file() {
            TopKind::File
        } else {
            let target = std::fs::read_link(e.path())
                .ok()
                .map(|t| t.display().to_string());
            TopKind::Skipped(SkippedKind::Symlink, target)
        };
        out.push(TopEntry {
            path: rel,
            name: e.file_name().to_string_lossy().into_owned(),
            kind,
        });
    }
    Ok(())
}

impl Source for Disk {
    fn label(&self) -> String {
        self.root.display().to_string()
    }
    fn entries(&mut self) -> io::Result<Vec<TopEntry>> {
        if self.root.is_dir() {
            let mut out = Vec::new();
            walk(&self.root, &self.root, &mut out)?;
            return Ok(out);
        }
        let name = self
            .root
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        Ok(vec![TopEntry {
            path: String::new(),
            name,
            kind: TopKind::File,
        }])
    }
    fn open(&mut self, path: &str) -> io::Result<Opened> {
        let p = if self.root.is_dir() {
            self.root.join(path)
        } else {
            self.root.clone()
        };
        Ok(Opened::Seekable(Box::new(io::BufReader::new(
            std::fs::File::open(p)?,
        ))))
    }
}

pub fn read_both(
    a: &Path,
    b: &Path,
    limits: &ReadLimits,
) -> Result<(CellSide, CellSide), IngestError> {
    let (mut da, mut db) = (Disk { root: a.into() }, Disk { root: b.into() });
    let mut sa = read_side(&mut da, Keep::First, limits, &mut MemorySpool)?;
    let mut sb = read_side(&mut db, Keep::First, limits, &mut MemorySpool)?;
    let plan = content_plan(&sa.tree, &sb.tree, limits.max_content_bytes);
    complete_side(&mut sa, &plan.a, &mut da, limits, &mut MemorySpool)?;
    complete_side(&mut sb, &plan.b, &mut db, limits, &mut MemorySpool)?;
    Ok((sa, sb))
}

pub fn diff(a: &Path, b: &Path) -> DeterminismReport {
    let (sa, sb) = read_both(a, b, &ReadLimits::default()).unwrap();
    diff_sides(&sa, &sb).unwrap()
}

/// Asserts that `r` reads `verdict` with nothing unexplained.
pub fn assert_explained(r: &DeterminismReport, verdict: DeterminismVerdict) {
    assert_eq!(r.verdict, verdict, "{}: {:#?}", r.summary, r.unexplained);
    assert!(r.unexplained.is_empty(), "{:#?}", r.unexplained);
}
