//! `lane diff`: the determinism diff of two cold mints. Each side is an
//! artifact tree (a directory, e.g. a mint bundle with `package/` and
//! `cache/`) or a `.pt2` package (a zip); `--configs-a`/`--configs-b` add
//! best_config files from a cache directory or from a report's
//! `best_configs` map.
//!
//! This is the IO edge of `lane_ledger::determinism`: it hashes every file
//! streaming, asks the library which contents it needs (files whose hashes
//! differ, plus wrappers and best_configs), and loads only those.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use anyhow::anyhow;
use lane_ledger::determinism::{DeterminismVerdict, DEFAULT_MAX_CONTENT_BYTES};
use lane_ledger::{
    content_plan, diff_trees, render::render_determinism, ArtifactFile, ArtifactTree,
};
use sha2::{Digest, Sha256};

use crate::exit::{CliError, CliResult, Exit};
use crate::output::print_json;

/// Arguments of `lane diff`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The first mint: an artifact directory or a `.pt2` package.
    #[arg(value_name = "A")]
    pub a: PathBuf,
    /// The second mint: an artifact directory or a `.pt2` package.
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
    /// `autotune-configs-only` or `unexplained`.
    #[arg(long, value_name = "VERDICT", value_parser = parse_verdict)]
    pub fail_on: Option<DeterminismVerdict>,
    /// Largest file whose content is compared, in bytes.
    #[arg(long, default_value_t = DEFAULT_MAX_CONTENT_BYTES, value_name = "BYTES")]
    pub max_content_bytes: u64,
    /// Print JSON for scripts instead of text.
    #[arg(long)]
    pub json: bool,
}

fn parse_verdict(s: &str) -> Result<DeterminismVerdict, String> {
    match s {
        "path-noise-only" => Ok(DeterminismVerdict::PathNoiseOnly),
        "autotune-configs-only" => Ok(DeterminismVerdict::AutotuneConfigsOnly),
        "unexplained" => Ok(DeterminismVerdict::Unexplained),
        other => Err(format!(
            "unknown verdict `{other}` (expected path-noise-only, autotune-configs-only or unexplained)"
        )),
    }
}

/// Runs `lane diff`.
pub fn run(args: Args) -> CliResult {
    let mut a = Side::open(&args.a, "A")?;
    let mut b = Side::open(&args.b, "B")?;
    if let Some(p) = &args.configs_a {
        a.add_configs(p)?;
    }
    if let Some(p) = &args.configs_b {
        b.add_configs(p)?;
    }
    let plan = content_plan(&a.tree, &b.tree, args.max_content_bytes);
    a.load(&plan.a)?;
    b.load(&plan.b)?;
    let report = diff_trees(&a.tree, &b.tree).map_err(|e| CliError::new(Exit::InvalidInput, e))?;
    if args.json {
        print_json(&report)?;
    } else {
        println!("A: {}\nB: {}\n", args.a.display(), args.b.display());
        print!("{}", render_determinism(&report));
    }
    if args.fail_on.is_some_and(|v| report.verdict >= v) {
        return Ok(Exit::Findings);
    }
    Ok(Exit::Ok)
}

/// The determinism diff of two artifact trees (directories or `.pt2`
/// packages), loaded exactly as `lane diff` loads them; shared with
/// `lane report`.
pub(crate) fn diff_paths(
    a: &Path,
    b: &Path,
    max_content_bytes: u64,
) -> Result<lane_ledger::DeterminismReport, CliError> {
    let mut a = Side::open(a, "A")?;
    let mut b = Side::open(b, "B")?;
    let plan = content_plan(&a.tree, &b.tree, max_content_bytes);
    a.load(&plan.a)?;
    b.load(&plan.b)?;
    diff_trees(&a.tree, &b.tree).map_err(|e| CliError::new(Exit::InvalidInput, e))
}

fn io(path: &Path, e: impl std::fmt::Display) -> CliError {
    CliError::new(Exit::Failure, anyhow!("{}: {e}", path.display()))
}

fn invalid(path: &Path, e: impl std::fmt::Display) -> CliError {
    CliError::new(Exit::InvalidInput, anyhow!("{}: {e}", path.display()))
}

/// Where a file's bytes live.
enum Origin {
    /// A file on disk.
    Disk(PathBuf),
    /// Member `index` of the side's zip archive.
    Zip(usize),
    /// Bytes already in memory (a best_config from a report).
    Memory,
}

/// One side of the diff: its fingerprinted tree and where each file lives.
struct Side {
    tree: ArtifactTree,
    origins: Vec<Origin>,
    zip: Option<zip::ZipArchive<BufReader<File>>>,
    zip_path: PathBuf,
}

fn hash_reader(mut r: impl Read) -> std::io::Result<(u64, String)> {
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 256 * 1024];
    let mut size = 0u64;
    loop {
        let n = r.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        size += n as u64;
    }
    Ok((size, format!("{:x}", hasher.finalize())))
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries: Vec<std::fs::DirEntry> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let ty = e.file_type()?;
        if ty.is_dir() {
            walk(&e.path(), out)?;
        } else if ty.is_file() {
            out.push(e.path());
        } else {
            // Symlinks and devices are not artifacts; following a link could
            // leave the tree.
            tracing::warn!(path = %e.path().display(), "skipping a non-regular file");
        }
    }
    Ok(())
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root)
        .unwrap_or(p)
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

impl Side {
    fn open(path: &Path, name: &str) -> Result<Side, CliError> {
        let meta =
            std::fs::metadata(path).map_err(|e| invalid(path, format!("tree {name}: {e}")))?;
        let mut side = Side {
            tree: ArtifactTree::default(),
            origins: Vec::new(),
            zip: None,
            zip_path: path.to_owned(),
        };
        if meta.is_dir() {
            side.add_dir(path, "")?;
        } else {
            side.add_zip(path)?;
        }
        Ok(side)
    }

    fn add_dir(&mut self, root: &Path, prefix: &str) -> Result<(), CliError> {
        let mut paths = Vec::new();
        walk(root, &mut paths).map_err(|e| io(root, e))?;
        for p in paths {
            let f = File::open(&p).map_err(|e| io(&p, e))?;
            let (size, sha256) = hash_reader(BufReader::new(f)).map_err(|e| io(&p, e))?;
            self.tree.files.push(ArtifactFile {
                path: format!("{prefix}{}", rel(root, &p)),
                size,
                sha256,
                content: None,
            });
            self.origins.push(Origin::Disk(p));
        }
        Ok(())
    }

    /// A `.pt2` is a zip whose members sit under one top folder (the
    /// archive's name), stripped so two packages with different names pair.
    fn add_zip(&mut self, path: &Path) -> Result<(), CliError> {
        let file = File::open(path).map_err(|e| io(path, e))?;
        let mut zip = zip::ZipArchive::new(BufReader::new(file)).map_err(|e| {
            invalid(
                path,
                format!("not a directory or a .pt2 (zip) package: {e}"),
            )
        })?;
        for i in 0..zip.len() {
            let entry = zip.by_index(i).map_err(|e| invalid(path, e))?;
            if entry.is_dir() {
                continue;
            }
            let name = entry.name().to_owned();
            let stripped = name
                .split_once('/')
                .map_or(name.as_str(), |(_, rest)| rest)
                .to_owned();
            let (size, sha256) =
                hash_reader(entry).map_err(|e| invalid(path, format!("{name}: {e}")))?;
            self.tree.files.push(ArtifactFile {
                path: stripped,
                size,
                sha256,
                content: None,
            });
            self.origins.push(Origin::Zip(i));
        }
        self.zip = Some(zip);
        Ok(())
    }

    /// Adds best_configs from a cache directory (under `configs/`) or a
    /// report's `best_configs` map (as `configs/<name>`).
    fn add_configs(&mut self, path: &Path) -> Result<(), CliError> {
        if path.is_dir() {
            let mut paths = Vec::new();
            walk(path, &mut paths).map_err(|e| io(path, e))?;
            let keep: Vec<PathBuf> = paths
                .into_iter()
                .filter(|p| {
                    p.extension()
                        .is_some_and(|e| e == "best_config" || e == "py")
                })
                .collect();
            for p in keep {
                let f = File::open(&p).map_err(|e| io(&p, e))?;
                let (size, sha256) = hash_reader(BufReader::new(f)).map_err(|e| io(&p, e))?;
                self.tree.files.push(ArtifactFile {
                    path: format!("configs/{}", rel(path, &p)),
                    size,
                    sha256,
                    content: None,
                });
                self.origins.push(Origin::Disk(p));
            }
            return Ok(());
        }
        let meta = std::fs::metadata(path).map_err(|e| invalid(path, e))?;
        if meta.len() > lane_ledger::report::DEFAULT_MAX_REPORT_BYTES {
            return Err(invalid(path, "report above the 256 MiB cap"));
        }
        let bytes = std::fs::read(path).map_err(|e| io(path, e))?;
        let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(|e| {
            invalid(
                path,
                format!(
                    "invalid JSON at line {}, column {}: {e}",
                    e.line(),
                    e.column()
                ),
            )
        })?;
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
            let sha256 = format!("{:x}", Sha256::digest(&text));
            self.tree.files.push(ArtifactFile {
                path: format!("configs/{}", name.replace('/', "_")),
                size: text.len() as u64,
                sha256,
                content: Some(text),
            });
            self.origins.push(Origin::Memory);
        }
        Ok(())
    }

    /// Loads the content of the planned files.
    fn load(&mut self, wanted: &[String]) -> Result<(), CliError> {
        let wanted: std::collections::HashSet<&str> = wanted.iter().map(String::as_str).collect();
        for (f, origin) in self.tree.files.iter_mut().zip(&self.origins) {
            if f.content.is_some() || !wanted.contains(f.path.as_str()) {
                continue;
            }
            let mut bytes = Vec::with_capacity(f.size as usize);
            match origin {
                Origin::Disk(p) => {
                    File::open(p)
                        .and_then(|h| h.take(f.size + 1).read_to_end(&mut bytes))
                        .map_err(|e| io(p, e))?;
                }
                Origin::Zip(i) => {
                    let zip = self.zip.as_mut().expect("zip side");
                    let entry = zip.by_index(*i).map_err(|e| invalid(&self.zip_path, e))?;
                    entry
                        .take(f.size + 1)
                        .read_to_end(&mut bytes)
                        .map_err(|e| invalid(&self.zip_path, e))?;
                }
                Origin::Memory => continue,
            }
            if bytes.len() as u64 != f.size {
                let p = match origin {
                    Origin::Disk(p) => p.clone(),
                    _ => self.zip_path.clone(),
                };
                return Err(io(&p, format!("{} changed while being read", f.path)));
            }
            f.content = Some(bytes);
        }
        Ok(())
    }
}
