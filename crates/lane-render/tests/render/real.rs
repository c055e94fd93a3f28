//! The real gen-worker 0.93.3 lane recorded on an H200
//! (`tests/data/gw-0.93.3-h200/h200-run/results`), loaded as `lane report`
//! loads a results folder (the mints' records, their reports, the
//! determinism diff of r1 against r2 read from the packed cells): the
//! markdown, HTML and text show the same rows, and the page and the text
//! are snapshotted (the CLI's tests snapshot this lane's markdown).

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use lane_core::results::Contract;
use lane_diff::diff_sides;
use lane_diff::ingest::{
    complete_side, read_side, Keep, MemorySpool, Opened, ReadLimits, Source, TopEntry, TopKind,
};
use lane_diff::{content_plan, DeterminismReport};
use lane_ledger::{from_report, parse_report};
use lane_render::view::{Cell, RowRole, Table};
use lane_render::{
    escape, html, markdown, text, view, CellResult, LaneResults, Level, RenderOptions, RepeatResult,
};
use maud::Render;

use super::ROOT;

fn results() -> PathBuf {
    Path::new(ROOT).join("tests/data/gw-0.93.3-h200/h200-run/results")
}

/// A folder of plain files (an `artifacts/` folder holding `cell.tar.gz`),
/// as the diff's edge lists it.
struct Folder(PathBuf);

impl Source for Folder {
    fn label(&self) -> String {
        self.0.display().to_string()
    }

    fn entries(&mut self) -> io::Result<Vec<TopEntry>> {
        let mut names: Vec<String> = std::fs::read_dir(&self.0)?
            .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect::<io::Result<_>>()?;
        names.sort();
        Ok(names
            .into_iter()
            .map(|name| TopEntry {
                path: name.clone(),
                name,
                kind: TopKind::File,
            })
            .collect())
    }

    fn open(&mut self, path: &str) -> io::Result<Opened> {
        Ok(Opened::Stream(Box::new(File::open(self.0.join(path))?)))
    }
}

/// One file as a whole side (a packed cell given to `lane diff`).
pub struct Single(pub PathBuf);

impl Source for Single {
    fn label(&self) -> String {
        self.0.display().to_string()
    }

    fn entries(&mut self) -> io::Result<Vec<TopEntry>> {
        let name = self.0.file_name().unwrap().to_string_lossy().into_owned();
        Ok(vec![TopEntry {
            path: String::new(),
            name,
            kind: TopKind::File,
        }])
    }

    fn open(&mut self, _path: &str) -> io::Result<Opened> {
        Ok(Opened::Stream(Box::new(File::open(&self.0)?)))
    }
}

/// The diff of two repeats' `artifacts/`.
fn diff(a: &Path, b: &Path) -> DeterminismReport {
    diff_sources(&mut Folder(a.to_owned()), &mut Folder(b.to_owned()))
}

/// The diff of two sides, in the reader's two passes.
pub fn diff_sources(src_a: &mut dyn Source, src_b: &mut dyn Source) -> DeterminismReport {
    let limits = ReadLimits::default();
    let mut side_a = read_side(src_a, Keep::First, &limits, &mut MemorySpool).unwrap();
    let mut side_b = read_side(src_b, Keep::First, &limits, &mut MemorySpool).unwrap();
    let plan = content_plan(&side_a.tree, &side_b.tree, limits.max_content_bytes);
    complete_side(&mut side_a, &plan.a, src_a, &limits, &mut MemorySpool).unwrap();
    complete_side(&mut side_b, &plan.b, src_b, &limits, &mut MemorySpool).unwrap();
    diff_sides(&side_a, &side_b).unwrap()
}

/// One of lane's own files, read through the type that wrote it.
fn read<T: Contract>(path: &Path) -> T {
    T::from_json(&path.display().to_string(), &std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{e}"))
}

fn dirs(path: &Path) -> Vec<(String, PathBuf)> {
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(path)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    out.sort();
    out
}

fn cell(name: &str, gpu: &str, dir: &Path) -> CellResult {
    let mut recipe = None;
    let repeats: Vec<RepeatResult> = dirs(dir)
        .into_iter()
        .map(|(run, p)| {
            let m: lane_core::MintRecord = read(&p.join("mint.json"));
            recipe = recipe.take().or(Some(m.recipe.as_str().to_owned()));
            let label = format!("{name}/{gpu}/{run}");
            let report = parse_report(&std::fs::read(p.join("report.json")).unwrap()).unwrap();
            RepeatResult {
                repeat: run[1..].parse().unwrap(),
                mint: Some(m),
                breakdown: from_report(&label, &report),
            }
        })
        .collect();
    CellResult {
        cell: name.into(),
        gpu: gpu.into(),
        recipe,
        determinism: Some(lane_diff::PairDiff::Cells(Box::new(diff(
            &dir.join("r1/artifacts"),
            &dir.join("r2/artifacts"),
        )))),
        repeats,
        determinism_note: None,
        not_diffed: None,
        comparison: None,
        comparison_note: None,
    }
}

/// The recorded lane (read once: the diffs open 7 MB of packed cells).
pub fn h200_run() -> LaneResults {
    static LANE: OnceLock<LaneResults> = OnceLock::new();
    LANE.get_or_init(load).clone()
}

fn load() -> LaneResults {
    let s: lane_core::Summary = read(&results().join("summary.json"));
    let cells = dirs(&results())
        .into_iter()
        .flat_map(|(c, cdir)| {
            dirs(&cdir)
                .into_iter()
                .map(move |(g, gdir)| cell(&c, &g, &gdir))
        })
        .collect();
    LaneResults {
        lane: s.lane,
        title: None,
        base: None,
        branch: None,
        picks: Vec::new(),
        wheel: s.wheel,
        guard: s.guard,
        green: Some(s.green),
        cancelled: s.cancelled,
        replay: s.replay,
        baseline: None,
        report_url: None,
        cells,
        history: None,
        history_note: None,
        disagreements: Vec::new(),
    }
}

/// True when `cells` stand in `line` in order (empty cells aside).
pub fn in_order(line: &str, cells: &[String]) -> bool {
    let mut rest = line;
    for c in cells.iter().filter(|c| !c.is_empty()) {
        match rest.find(c.as_str()) {
            Some(i) => rest = &rest[i + c.len()..],
            None => return false,
        }
    }
    true
}

fn row_cells(r: &lane_render::view::Row, esc: impl Fn(&str) -> String) -> Vec<String> {
    let cells: Vec<String> = r.cells.iter().map(|c: &Cell| esc(&c.plain())).collect();
    if r.role == RowRole::More {
        cells[..1].to_vec()
    } else {
        cells
    }
}

fn html_text(s: &str) -> String {
    html::Esc(s).render().into_string()
}

#[test]
fn markdown_html_and_text_show_the_same_rows() {
    let v = view::lane(&h200_run());
    let tables: Vec<&Table> = v.tables();
    assert!(tables.len() > 20, "{}", tables.len());
    let rows: usize = tables.iter().map(|t| t.rows.len()).sum();
    let md = markdown::render_view(
        &v,
        &RenderOptions {
            limit: usize::MAX,
            marker: true,
        },
    );
    assert_eq!(md.level, Level::Full);
    let page = html::page(&v);
    let txt = text::lane(&v);

    // Markdown: one line per row and one header line per table, nothing else.
    let md_rows: Vec<&str> = md
        .body
        .lines()
        .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
        .collect();
    assert_eq!(md_rows.len(), rows + tables.len());
    // HTML: one <tr> per row and one per named header.
    let headers = tables
        .iter()
        .filter(|t| t.columns.iter().any(|c| !c.name.is_empty()))
        .count();
    let trs: Vec<&str> = page.split("<tr").skip(1).collect();
    assert_eq!(trs.len(), rows + headers);
    let txt_lines: Vec<&str> = txt.lines().collect();

    for t in &tables {
        for r in &t.rows {
            let want = row_cells(r, escape::text);
            assert!(
                md_rows.iter().any(|l| in_order(l, &want)),
                "markdown lacks {:?} row {want:?}",
                t.kind
            );
            let want = row_cells(r, html_text);
            assert!(
                trs.iter().any(|tr| in_order(tr, &want)),
                "HTML lacks {:?} row {want:?}",
                t.kind
            );
            let want = row_cells(r, escape::terminal);
            assert!(
                txt_lines.iter().any(|l| in_order(l, &want)),
                "text lacks {:?} row {want:?}",
                t.kind
            );
        }
    }
}

#[test]
fn the_page_shows_the_warm_jobs_and_the_residuals_by_name() {
    let page = html::render_html(&h200_run());
    assert!(page.contains("<h4>warm jobs</h4>"), "no warm-jobs table");
    assert!(page.contains("rig-generate"));
    assert!(page.contains("<tr class=\"residual\">"));
    assert!(page.contains("compile_other_s"));
    assert!(page.contains("outside_phases_s"));
}

#[test]
fn snapshot_h200_run_page() {
    insta::assert_snapshot!("h200_run_page", html::render_html(&h200_run()));
}

#[test]
fn snapshot_h200_run_text() {
    insta::assert_snapshot!("h200_run_text", text::render_lane(&h200_run()));
}
