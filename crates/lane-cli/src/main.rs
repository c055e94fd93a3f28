//! The `lane` binary: parses the command line, installs the only tracing
//! subscriber in the program (`LANE_LOG`, `NO_COLOR`), runs one subcommand
//! and exits with its documented code (`lane_app::AppError::exit`).
//!
//! Start at [`Command`]; each subcommand lives in its own module under
//! `cmd/`: its clap `Args`, a request for lane-app's function, and the
//! printing of its outcome. Libraries never print: they return values and
//! emit `tracing` events, and only this crate decides what a person or a
//! script sees.

// Every write to stdout and stderr goes through `output`, which never
// panics on a closed or full stream (exit 101 is not a documented code).
#![deny(clippy::print_stdout, clippy::print_stderr)]

#[macro_use]
mod output;
mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

use lane_app::Exit;

/// lane: cut patch-release lanes, prove them on GPU mints, post the numbers.
#[derive(Debug, Parser)]
#[command(name = "lane", version, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Start a lane on its line's last tag, or explain a real release tag as a lane file.
    Init(cmd::init::Args),
    /// Cut a patch release branch from its base tag: picks, guards, version bump, changelog.
    Cut(cmd::cut::Args),
    /// Run the lane's guards alone on an existing ref (for a release branch's CI).
    Guard(cmd::guard::Args),
    /// Print the JSON Schema of lane files.
    Schema(cmd::schema::Args),
    /// Read mint reports or TORCH_TRACE folders and show the honest breakdown.
    Ledger(cmd::ledger::Args),
    /// Diff two cold mints' artifacts: are they the same bytes, and if not, why?
    Diff(cmd::diff::Args),
    /// Build and verify the lane's patch wheel from the cut, and stage it in the artifact store.
    Wheel(cmd::wheel::Args),
    /// Upload the verified wheel to a package index, once the lane's mints are green.
    Publish(cmd::publish::Args),
    /// Render the lane's per-cell phase breakdown and post it to its PRs.
    Report(cmd::report::Args),
    /// The memory across lanes: add a run, judge one, acknowledge a change,
    /// show a cell's series, list regressions, export (docs/history.md).
    History(cmd::history::Args),
    /// Mint every cell x GPU class x cold repeat of a lane (local backend).
    Mint(cmd::mint::Args),
    /// Where every mint of a lane stands (from its run store).
    Status(cmd::status::Args),
    /// Re-open ended slots of a lane on purpose: the next `lane mint` runs each once more.
    Reopen(cmd::reopen::Args),
    /// Delete a lane's Kubernetes Jobs and their pods.
    #[cfg(feature = "kube")]
    Cancel(cmd::cancel::Args),
    /// Wrap one mint where it runs (used by the backends).
    Agent(cmd::agent::Args),
    /// A mint command that replays a recorded real mint (for the demo; labelled replay).
    #[cfg(feature = "demo")]
    #[command(name = "replay-mint")]
    ReplayMint(cmd::replay::Args),
    /// Run a whole lane on embedded defaults: no cluster, no GitHub, no GPU.
    #[cfg(feature = "demo")]
    Demo(cmd::demo::Args),
    /// Serve GitHub webhooks: run `/lane` commands typed on pull requests (docs/serve.md).
    #[cfg(feature = "serve")]
    Serve(cmd::serve::Args),
}

impl Command {
    /// Whether the command was asked for `--json`.
    fn json(&self) -> bool {
        match self {
            Command::Init(a) => a.json,
            Command::Cut(a) => a.json,
            Command::Guard(a) => a.json,
            Command::Ledger(a) => a.json,
            Command::Diff(a) => a.json,
            Command::Wheel(a) => a.json,
            Command::Publish(a) => a.json,
            Command::Report(a) => a.store.json,
            Command::History(a) => a.json(),
            Command::Mint(a) => a.json,
            Command::Status(a) => a.json,
            Command::Reopen(a) => a.json,
            #[cfg(feature = "kube")]
            Command::Cancel(a) => a.json,
            Command::Agent(a) => a.json,
            _ => false,
        }
    }
}

fn install_tracing() {
    use tracing_subscriber::field::MakeExt as _;
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("LANE_LOG").unwrap_or_else(|_| EnvFilter::new("warn"));
    let ansi = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::io::IsTerminal::is_terminal(&std::io::stderr());
    // Log fields carry foreign words (paths, phase names, remote answers):
    // every value is written inert, so no foreign byte acts on a terminal.
    let fields = tracing_subscriber::fmt::format::debug_fn(|w, field, value| {
        let text = lane_render::escape::terminal(&format!("{value:?}"));
        if field.name() == "message" {
            write!(w, "{text}")
        } else {
            write!(w, "{field}={text}")
        }
    })
    .delimited(" ");
    tracing_subscriber::fmt()
        .fmt_fields(fields)
        .with_env_filter(filter)
        .with_ansi(ansi)
        .with_writer(|| output::StderrOrNothing)
        .with_target(false)
        .init();
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap's own errors are usage errors; `--help` and `--version` are not errors.
            let code = if e.use_stderr() {
                lane_app::AppError::Usage(e.to_string()).exit().code()
            } else {
                Exit::Ok.code()
            };
            if e.use_stderr() {
                let _ = e.print();
            } else {
                // Help and version, plain and without the spaces clap pads
                // blank lines with.
                let text = e.render().to_string();
                output::write_line(text.trim_end_matches('\n'));
                let _ = output::finish();
            }
            return ExitCode::from(code);
        }
    };
    install_tracing();
    let json = cli.command.json();
    // The process's one async runtime, built here and handed down: every
    // async edge (GitHub, Kubernetes, S3, lane serve) runs on it.
    let started = lane_runtime::build()
        .map(|rt| {
            let _ = lane_runtime::install(rt);
        })
        .map_err(lane_app::AppError::Runtime);
    let result = started.and_then(|()| match cli.command {
        Command::Init(args) => cmd::init::run(args),
        Command::Cut(args) => cmd::cut::run(args),
        Command::Guard(args) => cmd::guard::run(args),
        Command::Schema(args) => cmd::schema::run(args),
        Command::Ledger(args) => cmd::ledger::run(args),
        Command::Diff(args) => cmd::diff::run(args),
        #[cfg(feature = "demo")]
        Command::Demo(args) => cmd::demo::run(args),
        Command::Mint(args) => cmd::mint::run(args),
        Command::Status(args) => cmd::status::run(args),
        Command::Reopen(args) => cmd::reopen::run(args),
        #[cfg(feature = "kube")]
        Command::Cancel(args) => cmd::cancel::run(args),
        Command::Agent(args) => cmd::agent::run(args),
        #[cfg(feature = "demo")]
        Command::ReplayMint(args) => cmd::replay::run(args),
        Command::Wheel(args) => cmd::wheel::run(args),
        Command::Publish(args) => cmd::publish::run(args),
        Command::Report(args) => cmd::report::run(args),
        Command::History(args) => cmd::history::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => cmd::serve::run(args),
    });
    // A write to standard output that failed (other than its reader
    // going away) fails the command, even one that otherwise succeeded.
    let result = result.and_then(|()| match output::finish() {
        None => Ok(()),
        Some(e) => Err(lane_app::AppError::io("standard output", e)),
    });
    match result {
        Ok(()) => ExitCode::from(Exit::Ok.code()),
        Err(err) => {
            let text = lane_app::describe(&err);
            let code = err.exit().code();
            // Error texts carry foreign words (paths, remote answers): inert here.
            errln!("error: {}", lane_render::escape::terminal(&text));
            if json && !output::printed_json() {
                // `--json` always prints one document: here, the error's.
                let _ = output::print_json(&output::ErrorDocument {
                    error: output::ErrorBody {
                        message: &text,
                        exit: code,
                    },
                });
            }
            ExitCode::from(code)
        }
    }
}
