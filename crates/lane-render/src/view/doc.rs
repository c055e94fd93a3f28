//! The shapes every renderer lays out: tables of rows, lines, and blocks
//! that hold them with how deep a rendering must go to show them.

use serde::Serialize;

use super::value::{Cell, Seconds, Tone};

/// What a row is, so a renderer can mark it (a residual in italics, an
/// overlay apart) and a chart knows what to stack. Only members and
/// residuals are ever stacked; overlays never are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RowRole {
    /// An ordinary row.
    Plain,
    /// A member of a partition (or a phase of a mint).
    Member,
    /// A partition's residual, shown with its name.
    Residual,
    /// A member the source did not observe: absent, not zero.
    Unobserved,
    /// A span nested inside members: shown apart, never summed.
    Overlay,
    /// A failed job or entry: its seconds are kept.
    Failed,
    /// "... and N more": what a cap left out, counted.
    More,
}

/// One table row.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// What the row is.
    pub role: RowRole,
    /// One cell per column.
    pub cells: Vec<Cell>,
}

impl Row {
    /// A row of `cells`.
    pub fn new(role: RowRole, cells: Vec<Cell>) -> Row {
        Row { role, cells }
    }
}

/// What a table shows (stable names, used for charts, styling and tests).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TableKind {
    /// A lane's header: wheel, base, picks, guards, verdict.
    Header,
    /// One row per cell, GPU and repeat.
    Cells,
    /// Findings with their severity.
    Findings,
    /// A mint's phases and `outside_phases_s`.
    Phases,
    /// `warmup_forward` split by the warm ledger.
    WarmSplit,
    /// A partition with its named residual.
    Partition,
    /// Overlays beside a partition.
    Overlays,
    /// The warm jobs.
    Jobs,
    /// Typed values (an AOT table's totals, an entry's facts).
    Facts,
    /// A trace's compile records.
    Compiles,
    /// Report keys lane does not know, with their values.
    UnknownKeys,
    /// A comparison's rows.
    Comparison,
    /// A determinism diff: what each side was read as.
    Inputs,
    /// A determinism diff: a decision's changed fields.
    Decision,
    /// A determinism diff: kernels whose config differs, field by field.
    Kernels,
    /// A determinism diff: wrapper lines carrying a config.
    WrapperLines,
    /// A determinism diff: files explained, by reason.
    Explained,
    /// A determinism diff: findings about the inputs.
    InputFindings,
    /// A determinism diff: what is not explained.
    Unexplained,
    /// A mint pair's graph classes, each with its verdict.
    Classes,
    /// History: series' verdicts against the earlier runs of the line.
    History,
}

/// A chart a renderer may draw from a table's rows (never from anything
/// else).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Chart {
    /// No chart.
    None,
    /// Member and residual rows' seconds (column 1) stacked against `total`.
    Stacked {
        /// The whole the rows divide.
        total: Seconds,
    },
    /// Each overlay row's seconds (column 1) as its own bar against
    /// `against`, clipped there, never stacked.
    Overlays {
        /// The partition's total.
        against: Seconds,
    },
    /// Baseline (column 2) and candidate (column 3) seconds side by side.
    Pairs,
}

/// A column header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Column {
    /// Its name (lane's own words).
    pub name: &'static str,
}

/// A table: a title, columns and rows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// What it shows.
    pub kind: TableKind,
    /// A sentence above it (may quote report names), when it has one.
    pub title: Option<String>,
    /// Its columns.
    pub columns: Vec<Column>,
    /// Its rows, in order.
    pub rows: Vec<Row>,
    /// The chart drawn from its rows, if any.
    pub chart: Chart,
}

impl Table {
    /// An empty table of `kind` with `columns`.
    pub fn new(kind: TableKind, columns: &[&'static str]) -> Table {
        Table {
            kind,
            title: None,
            columns: columns.iter().map(|&name| Column { name }).collect(),
            rows: Vec::new(),
            chart: Chart::None,
        }
    }

    /// The same table with `title`.
    pub fn titled(mut self, title: impl Into<String>) -> Table {
        self.title = Some(title.into());
        self
    }

    /// The same table with `chart`.
    pub fn charted(mut self, chart: Chart) -> Table {
        self.chart = chart;
        self
    }

    /// Adds a row; it must have one cell per column (a short row is
    /// padded with empty cells, so no table is ever ragged).
    pub fn push(&mut self, role: RowRole, mut cells: Vec<Cell>) {
        cells.resize(self.columns.len(), Cell::empty());
        self.rows.push(Row::new(role, cells));
    }
}

/// A line of prose (lane's words, possibly quoting a report), unescaped.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    /// The text.
    pub text: String,
    /// How it reads.
    pub tone: Tone,
    /// True when it starts a new paragraph (a blank line before it in text).
    pub gap: bool,
}

/// How deep a rendering must go to show a block: the size-budgeted
/// comment drops the deepest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Depth {
    /// The essentials: partitions, overlays, verdicts.
    Collapsed,
    /// Everything: per-job rows, entries, kernels, config fields.
    Full,
}

/// What a block holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Body {
    /// A line.
    Line(Line),
    /// A table.
    Table(Table),
}

/// One block of a section: a line or a table, how deep it sits in the
/// section (nesting, e.g. the pool inside the AOT table) and how deep a
/// rendering must go to show it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Block {
    /// What it holds.
    pub body: Body,
    /// Nesting below the section (0 at the top).
    pub nest: u8,
    /// The rendering depth that shows it.
    pub depth: Depth,
}

/// A list of blocks, built in order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Blocks(pub Vec<Block>);

impl Blocks {
    /// A line at `nest`, shown from `depth`.
    pub fn line(&mut self, depth: Depth, nest: u8, text: impl Into<String>) {
        self.push_line(depth, nest, text.into(), Tone::Plain, false);
    }

    /// A line in a tone.
    pub fn line_toned(&mut self, depth: Depth, nest: u8, text: impl Into<String>, tone: Tone) {
        self.push_line(depth, nest, text.into(), tone, false);
    }

    /// A line that starts a paragraph.
    pub fn para(&mut self, depth: Depth, nest: u8, text: impl Into<String>) {
        self.push_line(depth, nest, text.into(), Tone::Plain, true);
    }

    /// A line in a tone that starts a paragraph.
    pub fn para_toned(&mut self, depth: Depth, nest: u8, text: impl Into<String>, tone: Tone) {
        self.push_line(depth, nest, text.into(), tone, true);
    }

    fn push_line(&mut self, depth: Depth, nest: u8, text: String, tone: Tone, gap: bool) {
        self.0.push(Block {
            body: Body::Line(Line { text, tone, gap }),
            nest,
            depth,
        });
    }

    /// A table at `nest`, shown from `depth` (an empty table is left out:
    /// it would say nothing).
    pub fn table(&mut self, depth: Depth, nest: u8, table: Table) {
        if table.rows.is_empty() {
            return;
        }
        self.0.push(Block {
            body: Body::Table(table),
            nest,
            depth,
        });
    }

    /// Every table, in order.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.0.iter().filter_map(|b| match &b.body {
            Body::Table(t) => Some(t),
            Body::Line(_) => None,
        })
    }
}

/// At most `cap` of `items` through `row`, then one [`RowRole::More`] row
/// counting the rest: every renderer shows the same cut.
pub fn capped<T>(table: &mut Table, items: &[T], cap: usize, mut row: impl FnMut(&mut Table, &T)) {
    for item in items.iter().take(cap) {
        row(table, item);
    }
    if items.len() > cap {
        let more = format!("... and {} more", items.len() - cap);
        table.push(RowRole::More, vec![Cell::toned(more, Tone::Quiet)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_never_ragged_and_caps_are_counted() {
        let mut t = Table::new(TableKind::Jobs, &["Job", "Wall"]);
        capped(&mut t, &[1, 2, 3], 2, |t, n| {
            t.push(RowRole::Plain, vec![Cell::count(*n)])
        });
        assert_eq!(t.rows.len(), 3);
        assert!(t.rows.iter().all(|r| r.cells.len() == 2));
        assert_eq!(t.rows[2].role, RowRole::More);
        assert_eq!(t.rows[2].cells[0].plain(), "... and 1 more");
    }

    #[test]
    fn an_empty_table_is_left_out() {
        let mut b = Blocks::default();
        b.table(Depth::Full, 0, Table::new(TableKind::Jobs, &["Job"]));
        assert!(b.0.is_empty());
    }
}
