//! The lane file: `lanes/<version>.yaml`, the one document that says what a
//! patch release lane is (upstream, base tag, picks, version files,
//! changelog, guards).
//!
//! Start at [`parse`], which turns YAML text into a [`LaneFile`] or a
//! [`LaneFileError`] pointing at line:column; [`schema`] gives the JSON
//! Schema editors validate against (`lane schema`).
//!
//! This crate is part of lane's pure core: it takes text and returns values.
//! It must not touch the filesystem, git, the network or an async runtime;
//! callers read the file and hand over its text and name.

pub mod bounds;
mod changelog;
mod error;
pub mod limits;
mod locate;
mod model;
mod pick;
mod scalar;

pub use changelog::{Assemble, Changelog, Consumed, Date, Fold, FragmentText, Rename, Take};
pub use error::LaneFileError;
pub use model::{
    Cell, GithubTarget, Guard, LaneFile, LaneKind, MintMatrix, Recipe, RetryPolicy, TagOn,
    TreeProbe, TreeProbeSpec, Trunk, Upstream, VersionFile, VersionFileKind, VersionFileSpec,
    WireGuard, WireRule,
};
pub use pick::{Origin, OriginSpec, Pick, PickRef, PickSpec};
pub use scalar::{CommitId, LaneVersion, Name, Pattern, Prose, RefName, RepoPath, Title};

use std::collections::HashSet;

/// Parses and validates a lane file. `file` names it in errors (usually the
/// path as the user gave it); when its stem is a version (`0.93.3.yaml`),
/// the `version` key must agree with it.
pub fn parse(file: &str, text: &str) -> Result<LaneFile, LaneFileError> {
    let blank = text
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with('#') || l.trim() == "---");
    if blank {
        return Err(LaneFileError {
            file: file.to_owned(),
            line: 1,
            column: 1,
            path: None,
            message: "the file is empty: expected a mapping with `version`, `upstream` and `base`"
                .into(),
        });
    }
    bounds::check(text).map_err(|c| LaneFileError {
        file: file.to_owned(),
        line: c.line,
        column: c.column,
        path: None,
        message: format!("refused before parsing: {}", c.message),
    })?;
    let lane: LaneFile = serde_yaml::from_str(text).map_err(|e| {
        let mut err = LaneFileError::from_yaml(file, &e);
        clamp_to_text(&mut err, text);
        // serde_yaml puts a duplicate key at the start of its mapping: point
        // at the duplicate itself.
        if let Some(key) = err
            .message
            .strip_prefix("duplicate field `")
            .and_then(|m| m.split('`').next())
        {
            if let Some((line, column)) = locate::second_key(text, key, err.line, err.column) {
                (err.line, err.column) = (line, column);
            }
        }
        err
    })?;
    validate(file, text, &lane)?;
    Ok(lane)
}

/// The parser marks the end of the stream on the line after the last (line
/// 4 of a 3-line file): lane points at the end of the last line instead, a
/// place an editor can go to.
fn clamp_to_text(err: &mut LaneFileError, text: &str) {
    let last = text.lines().count().max(1);
    if err.line > last {
        let width = text.lines().last().map_or(0, |l| l.chars().count());
        (err.line, err.column) = (last, width + 1);
    }
}

fn at(
    file: &str,
    text: &str,
    key: &str,
    index: Option<usize>,
    path: String,
    message: String,
) -> LaneFileError {
    let (line, column) = locate::locate(text, key, index);
    LaneFileError {
        file: file.to_owned(),
        line,
        column,
        path: Some(path),
        message,
    }
}

fn validate(file: &str, text: &str, lane: &LaneFile) -> Result<(), LaneFileError> {
    // A lane file is named for the version it releases: `<version>.yaml`.
    let name = file.rsplit(['/', '\\']).next().unwrap_or(file);
    let expected = format!("{}.yaml", lane.version);
    if name != expected && name != format!("{}.yml", lane.version) {
        return Err(at(
            file,
            text,
            "version",
            None,
            "version".into(),
            format!(
                "a lane file is named for the version it releases: expected `{expected}` for version {}, found `{name}`",
                lane.version
            ),
        ));
    }
    if lane.base.as_str() == lane.tag_name() {
        return Err(at(
            file,
            text,
            "base",
            None,
            "base".into(),
            format!("the base tag `{}` is the lane's own release tag", lane.base),
        ));
    }
    if lane.upstream.repo.trim().is_empty() {
        return Err(at(
            file,
            text,
            "upstream",
            None,
            "upstream.repo".into(),
            "expected a clone URL or a local path, found an empty string".into(),
        ));
    }
    let mut seen = HashSet::new();
    for (i, pick) in lane.picks.iter().enumerate() {
        if !seen.insert(pick.target.clone()) {
            return Err(at(
                file,
                text,
                "picks",
                Some(i),
                format!("picks[{i}]"),
                format!("{} is picked twice", pick.target),
            ));
        }
    }
    let mut paths = HashSet::new();
    for (i, vf) in lane.version_files.iter().enumerate() {
        if !paths.insert(vf.path.as_str()) {
            return Err(at(
                file,
                text,
                "version_files",
                Some(i),
                format!("version_files[{i}]"),
                format!("version file `{}` is listed twice", vf.path),
            ));
        }
    }
    let mut names = HashSet::new();
    for (i, g) in lane.guards.iter().enumerate() {
        if !names.insert(g.name.as_str()) {
            return Err(at(
                file,
                text,
                "guards",
                Some(i),
                format!("guards[{i}]"),
                format!("guard `{}` is defined twice", g.name),
            ));
        }
        if g.forbidden_commits.is_empty()
            && g.frozen_paths.is_empty()
            && g.probes.is_empty()
            && g.wire.is_none()
        {
            return Err(at(
                file,
                text,
                "guards",
                Some(i),
                format!("guards[{i}]"),
                format!(
                    "guard `{}` checks nothing: expected `forbidden_commits`, `frozen_paths`, `probes` or `wire`",
                    g.name
                ),
            ));
        }
    }
    if let Some(m) = &lane.mint {
        if m.gpus.is_empty() || m.cells.is_empty() {
            return Err(at(
                file,
                text,
                "mint",
                None,
                "mint".into(),
                "expected at least one GPU class in `gpus` and one cell in `cells`".into(),
            ));
        }
        // Values that parse but mean nothing are refused, not run (the
        // numbers' bounds are checked where they are read: `limits`).
        let refuse =
            |path: String, message: String| Err(at(file, text, "mint", None, path, message));
        let mut gpus = HashSet::new();
        for (i, g) in m.gpus.iter().enumerate() {
            if !gpus.insert(g.as_str()) {
                return refuse(
                    format!("mint.gpus[{i}]"),
                    format!(
                        "GPU class `{g}` is listed twice (each class is minted once per repeat)"
                    ),
                );
            }
        }
        for class in m.stand_in.keys() {
            if !gpus.contains(class.as_str()) {
                return refuse(
                    format!("mint.stand_in.{class}"),
                    format!(
                        "`{class}` is not one of this lane's GPU classes (`gpus`): a card can stand in only for a class the lane mints on"
                    ),
                );
            }
        }
        let mut names = HashSet::new();
        for (i, c) in m.cells.iter().enumerate() {
            if c.command.first().is_some_and(|p| p.trim().is_empty()) {
                return refuse(
                    format!("mint.cells[{i}].command[0]"),
                    format!(
                        "cell `{}` names an empty program: expected the mint program first",
                        c.name
                    ),
                );
            }
            for key in c.env.keys() {
                let valid = key
                    .chars()
                    .next()
                    .is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
                    && key
                        .chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
                if !valid {
                    return refuse(
                        format!("mint.cells[{i}].env"),
                        format!(
                            "cell `{}`: `{}` is not a variable name (letters, digits and `_`, not starting with a digit)",
                            c.name,
                            key.escape_debug()
                        ),
                    );
                }
                if key.starts_with("LANE_") && key != "LANE_REPLAY" {
                    return refuse(
                        format!("mint.cells[{i}].env.{key}"),
                        format!(
                            "cell `{}`: `{key}` is lane's own (the agent sets the LANE_ variables)",
                            c.name
                        ),
                    );
                }
            }
            if !names.insert(c.name.as_str()) {
                return Err(at(
                    file,
                    text,
                    "mint",
                    None,
                    format!("mint.cells[{i}]"),
                    format!("cell `{}` is listed twice", c.name),
                ));
            }
            if c.command.is_empty() {
                return Err(at(file, text, "mint", None, format!("mint.cells[{i}].command"),
                    format!("cell `{}` has an empty command: expected the mint program and its arguments", c.name)));
            }
            if let Some(r) = c.report.as_ref().filter(|r| r.as_str().ends_with('/')) {
                return Err(at(file, text, "mint", None, format!("mint.cells[{i}].report"),
                    format!("expected the report's file path inside the mint folder, found the folder `{}`", r.as_str())));
            }
        }
    }
    if lane.trunk.is_some() && lane.kind != LaneKind::Trunk {
        return Err(at(
            file,
            text,
            "trunk",
            None,
            "trunk".into(),
            "`trunk` belongs to a lane of `kind: trunk`".into(),
        ));
    }
    if let Some(cl) = &lane.changelog {
        let outside = cl
            .write
            .iter()
            .enumerate()
            .map(|(i, w)| (format!("changelog.write[{i}].path"), &w.path))
            .chain(cl.rename.iter().enumerate().flat_map(|(i, r)| {
                [
                    (format!("changelog.rename[{i}].from"), &r.from),
                    (format!("changelog.rename[{i}].to"), &r.to),
                ]
            }))
            .chain(
                cl.drop
                    .iter()
                    .enumerate()
                    .map(|(i, d)| (format!("changelog.drop[{i}]"), d)),
            )
            .find(|(_, p)| !cl.fragments.covers(p.as_str()) || p.as_str().ends_with('/'));
        if let Some((path, p)) = outside {
            return Err(at(
                file,
                text,
                "changelog",
                None,
                path,
                format!(
                    "expected a fragment inside `{}`, found `{}`",
                    cl.fragments,
                    p.as_str()
                ),
            ));
        }
        if !cl.fragment_name.contains("{issue}") {
            return Err(at(
                file,
                text,
                "changelog",
                None,
                "changelog.fragment_name".into(),
                format!(
                    "expected a fragment name with `{{issue}}` in it, found `{}`",
                    cl.fragment_name
                ),
            ));
        }
    }
    Ok(())
}

/// The JSON Schema of lane files (draft 2020-12), as `lane schema` prints it
/// and as `docs/lane.schema.json` keeps it.
pub fn schema() -> serde_json::Value {
    let schema = schemars::schema_for!(LaneFile);
    serde_json::to_value(&schema).expect("a schema always serializes")
}

/// [`schema`] as pretty JSON text with a trailing newline.
pub fn schema_text() -> String {
    let mut s = serde_json::to_string_pretty(&schema()).expect("a schema always serializes");
    s.push('\n');
    s
}
