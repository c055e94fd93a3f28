//! `lane history`: the memory across lanes (see `lane_app::history`,
//! `docs/history.md`). `lane history <CELL>` shows a cell's series; the
//! subcommands add a run, judge one, acknowledge a change, list
//! regressions and export.

use std::path::PathBuf;

use lane_app::history::{
    history_export, history_regressions, history_show, ExportFormat, HistoryExportRequest,
    HistoryRegressionsRequest, HistoryShowRequest, Since,
};
use lane_app::{AppError, HistoryAckRequest, HistoryAddRequest, HistoryCheckRequest};
use lane_render::escape::terminal;
use lane_render::view::history::{short_run, sparkline, verdict_words};

use crate::cmd::args::{HistoryArg, Store};
use crate::output::print_json;

/// Arguments of `lane history`.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// `lane history <CELL>`: the cell's series over the runs.
    #[command(flatten)]
    pub show: ShowArgs,
}

/// `lane history <CELL> [--gpu] [--phase] [--since]`.
#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// The cell.
    #[arg(value_name = "CELL", required = true)]
    pub cell: Option<String>,
    /// Only this GPU class.
    #[arg(long, value_name = "CLASS")]
    pub gpu: Option<String>,
    /// Only this phase (`trace_graph` or `phase/trace_graph`).
    #[arg(long, value_name = "PHASE")]
    pub phase: Option<String>,
    /// Only runs since a lane version (`v0.90`) or a date (`2026-12-01`).
    #[arg(long, value_name = "VERSION_OR_DATE")]
    pub since: Option<String>,
    /// Only this release line (`0.93`).
    #[arg(long, value_name = "LINE")]
    pub line: Option<String>,
    #[command(flatten)]
    pub store: Store,
}

/// `lane history`'s subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Add a results folder's run to the history (a recorded folder too).
    Add {
        /// The results folder.
        #[arg(value_name = "RESULTS")]
        results: PathBuf,
        #[command(flatten)]
        store: Store,
    },
    /// Judge a results folder's run against its line's history (exit 7 on
    /// a confirmed regression).
    Check {
        /// The results folder.
        #[arg(value_name = "RESULTS")]
        results: PathBuf,
        #[command(flatten)]
        store: Store,
    },
    /// Record a known change with its reason: from that run on, the
    /// series (or every series) starts a new segment.
    Ack {
        /// The run that brought the change.
        #[arg(
            long,
            value_name = "RUN",
            conflicts_with = "results",
            required_unless_present = "results"
        )]
        run: Option<String>,
        /// Or the results folder whose run it is.
        #[arg(long, value_name = "DIR")]
        results: Option<PathBuf>,
        /// One series: its cell (with --gpu and --phase).
        #[arg(long, value_name = "CELL", requires_all = ["gpu", "phase"])]
        cell: Option<String>,
        /// One series: its GPU class.
        #[arg(long, value_name = "CLASS", requires_all = ["cell", "phase"])]
        gpu: Option<String>,
        /// One series: its phase (`phase/load`).
        #[arg(long, value_name = "PHASE", requires_all = ["cell", "gpu"])]
        phase: Option<String>,
        /// Why.
        #[arg(long, value_name = "TEXT")]
        reason: String,
        #[command(flatten)]
        store: Store,
    },
    /// The runs that regressed a series, and the steps with the run that
    /// began each.
    Regressions {
        /// Only runs since a lane version (`v0.90`) or a date.
        #[arg(long, value_name = "VERSION_OR_DATE")]
        since: Option<String>,
        /// Only this release line.
        #[arg(long, value_name = "LINE")]
        line: Option<String>,
        #[command(flatten)]
        store: Store,
    },
    /// Write the rows as JSON Lines, or one run in Bencher's metric format.
    #[command(mut_arg("history", |a| a.help("The store the history lives in")))]
    Export {
        /// `jsonl` (every row) or `bmf` (one run: --run, else the newest).
        #[arg(long, value_name = "FORMAT", default_value = "jsonl", value_parser = ["jsonl", "bmf"])]
        format: String,
        /// Only this run.
        #[arg(long, value_name = "RUN")]
        run: Option<String>,
        /// Only this release line.
        #[arg(long, value_name = "LINE")]
        line: Option<String>,
        #[command(flatten)]
        history: HistoryArg,
    },
}

impl Args {
    /// Whether `--json` was asked.
    pub fn json(&self) -> bool {
        match &self.command {
            None => self.show.store.json,
            Some(
                Command::Add { store, .. }
                | Command::Check { store, .. }
                | Command::Ack { store, .. }
                | Command::Regressions { store, .. },
            ) => store.json,
            Some(Command::Export { .. }) => false,
        }
    }
}

fn since(s: Option<&str>) -> Result<Option<Since>, AppError> {
    s.map(Since::parse).transpose()
}

/// `rig-aot/H200/phase/load   unchanged   ×1.031`, and what an
/// inconclusive series offers.
fn series_line(s: &lane_history::SeriesVerdict) -> String {
    let offer = match s.offer {
        Some(lane_history::Offer::ExtraRepeat { gpu_minutes, .. }) => format!(
            "  one more cold repeat, about {gpu_minutes:.1} GPU-minutes (repeat-to-repeat noise dominates)"
        ),
        Some(lane_history::Offer::NextLane) => "  the next lane is the cheaper test".to_owned(),
        None => String::new(),
    };
    format!(
        "{:<60} {:<28} {}{offer}",
        terminal(&s.key.to_string()),
        verdict_words(s),
        s.ratio.map(|r| format!("×{r:.3}")).unwrap_or_default()
    )
}

/// `done` when the object was written now, `there` when the store held it.
fn written(
    a: &lane_app::history::Appended,
    done: &'static str,
    there: &'static str,
) -> &'static str {
    if a.written {
        done
    } else {
        there
    }
}

fn seconds(v: Option<f64>) -> String {
    lane_render::view::Seconds::of(v).to_string()
}

/// Runs `lane history`.
pub fn run(args: Args) -> Result<(), AppError> {
    match args.command {
        None => show(args.show),
        Some(Command::Add { results, store }) => {
            let o = lane_app::history_add(&HistoryAddRequest {
                results,
                history: store.at.history,
            })?;
            if store.json {
                return print_json(&o);
            }
            outln!(
                "{} run {} (lane {}, line {}, {}): {} rows",
                written(&o.appended, "added", "already there:"),
                o.run.run,
                o.run.lane,
                o.run.line,
                o.run.time,
                o.rows
            );
            outln!("{}/{}", terminal(&o.store), o.appended.key);
            for k in &o.appended.removed {
                outln!("removed by retention: {k}");
            }
            for why in &o.left_out {
                outln!("kept out, not a cold sample: {}", terminal(why));
            }
            Ok(())
        }
        Some(Command::Check { results, store }) => {
            let o = lane_app::history_check(&HistoryCheckRequest {
                results,
                history: store.at.history,
            })?;
            if store.json {
                print_json(&o)?;
            } else {
                outln!(
                    "run {} (lane {}) against {} earlier run(s) of line {}",
                    o.run.run,
                    o.run.lane,
                    o.history_runs,
                    o.run.line
                );
                for d in &o.damaged {
                    outln!(
                        "left out, damaged: {} (add its results again to repair it)",
                        terminal(d)
                    );
                }
                if let Some(u) = &o.unjudged {
                    outln!(
                        "not judged: {} ({} of {} series)",
                        terminal(&u.reason),
                        u.series,
                        u.of
                    );
                }
                for c in &o.changes {
                    let role = serde_json::to_value(c.role).unwrap_or_default();
                    outln!(
                        "changed: {} {} → {} ({})",
                        c.field,
                        terminal(&c.before),
                        terminal(&c.after),
                        role.as_str().unwrap_or_default()
                    );
                }
                if let Some(s) = &o.common_move {
                    let what = if s.declared {
                        "environment shift"
                    } else {
                        "common move"
                    };
                    outln!(
                        "{what}: ×{:.3} ({} cells; {} up, {} down): taken out of every verdict",
                        s.ratio,
                        s.cells,
                        s.up,
                        s.down
                    );
                }
                for s in &o.series {
                    outln!("{}", series_line(s));
                }
                if !o.totals.is_empty() {
                    outln!("totals (each the sum of series above):");
                }
                for s in &o.totals {
                    let by = if s.explained_by.is_empty() {
                        String::new()
                    } else {
                        format!(" (explained by {})", terminal(&s.explained_by.join(", ")))
                    };
                    outln!("{}{by}", series_line(s));
                }
            }
            o.verdict()
        }
        Some(Command::Ack {
            run,
            results,
            cell,
            gpu,
            phase,
            reason,
            store,
        }) => {
            let o = lane_app::history_ack(&HistoryAckRequest {
                history: store.at.history,
                run,
                results,
                cell,
                gpu,
                phase,
                reason,
            })?;
            if store.json {
                return print_json(&o);
            }
            outln!(
                "{} acknowledgement of run {} (line {}): {}",
                written(&o.appended, "recorded", "already recorded:"),
                o.ack.run,
                o.line,
                o.appended.key
            );
            Ok(())
        }
        Some(Command::Regressions {
            since: s,
            line,
            store,
        }) => {
            let o = history_regressions(&HistoryRegressionsRequest {
                history: store.at.history,
                since: since(s.as_deref())?,
                line,
            })?;
            if store.json {
                return print_json(&o);
            }
            outln!(
                "{} run(s) judged, {} with a regression or a step",
                o.runs_judged,
                o.runs.len()
            );
            for r in &o.runs {
                outln!(
                    "{} {} (lane {}, line {})",
                    r.run.time,
                    r.run.run,
                    r.run.lane,
                    r.run.line
                );
                if let Some(s) = &r.environment_shift {
                    outln!("  environment shift ×{:.3}", s.ratio);
                }
                for s in &r.regressed {
                    outln!("  {}", series_line(s));
                }
                for k in &r.steps {
                    outln!("  a step begins here: {}", terminal(&k.to_string()));
                }
            }
            Ok(())
        }
        Some(Command::Export {
            format,
            run,
            line,
            history,
        }) => {
            let o = history_export(&HistoryExportRequest {
                history: history.history,
                line,
                format: if format == "bmf" {
                    ExportFormat::Bmf
                } else {
                    ExportFormat::Jsonl
                },
                run,
            })?;
            // JSON Lines (or BMF JSON): escaped as JSON, never as text.
            crate::output::write_json(&o.text);
            Ok(())
        }
    }
}

fn show(a: ShowArgs) -> Result<(), AppError> {
    let o = history_show(&HistoryShowRequest {
        history: a.store.at.history,
        cell: a.cell.unwrap_or_default(),
        gpu: a.gpu,
        phase: a.phase,
        since: since(a.since.as_deref())?,
        line: a.line,
    })?;
    if a.store.json {
        return print_json(&o);
    }
    for s in &o.series {
        let medians: Vec<Option<f64>> = s.points.iter().map(|p| p.seconds).collect();
        let latest = s.latest.as_ref().map(verdict_words).unwrap_or_default();
        outln!(
            "{} (line {}) {} {}",
            terminal(&s.key.to_string()),
            s.line,
            sparkline(&medians),
            latest
        );
        for p in &s.points {
            let env = if p.environment_changed.is_empty() {
                String::new()
            } else {
                format!(
                    "  environment: {}",
                    terminal(&p.environment_changed.join(", "))
                )
            };
            outln!(
                "  {}  {:<10} {:<8} {:>12}  repeats {}{env}",
                p.run.time,
                terminal(&p.run.lane),
                short_run(&p.run.run),
                seconds(p.seconds),
                p.repeats
                    .iter()
                    .map(|r| seconds(Some(*r)))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    Ok(())
}
