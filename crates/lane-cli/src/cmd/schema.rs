//! `lane schema`: print the JSON Schema of lane files, for editors
//! (`# yaml-language-server: $schema=…`) and for `docs/lane.schema.json`;
//! or of a file lane writes in a results folder (`docs/schemas/`).

use std::io::Write;

use crate::exit::{CliResult, Exit, WithExit};

/// Arguments of `lane schema`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Which file: `lane` (a lane file), `summary` (summary.json), `mint`
    /// (a slot's mint.json) or `result` (an agent's result.json).
    #[arg(default_value = "lane", value_parser = ["lane", "summary", "mint", "result"])]
    pub file: String,
}

/// Prints the schema on stdout.
pub fn run(args: Args) -> CliResult {
    let text = if args.file == "lane" {
        lane_file::schema_text()
    } else {
        let name = format!("{}.schema.json", args.file);
        lane_core::results::schema_texts()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t)
            .expect("the value parser lists only kept schemas")
    };
    std::io::stdout()
        .write_all(text.as_bytes())
        .exit(Exit::Failure)?;
    Ok(Exit::Ok)
}
