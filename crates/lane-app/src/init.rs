//! `lane init`: start a lane, or explain a real release as one.
//!
//! `lane init <version>` starts `lanes/<version>.yaml` on the line's last
//! tag with the era's version files, changelog mode and wire guards.
//! `lane init <version> --from-tag <tag>` reads how the tag was really made
//! (`lane_git::init::explain`) and writes the lane file that reproduces it,
//! proven by cutting it in memory; where it cannot, it says which paths
//! differ and why.

use std::fmt::Write as _;
use std::path::PathBuf;

use lane_git::init::{Explained, InitFromTag, Started};

use crate::error::AppError;

/// What `lane init` is asked.
#[derive(Debug, Clone)]
pub struct InitRequest {
    /// The version of the lane.
    pub version: String,
    /// Explain this release tag instead of starting a new lane.
    pub from_tag: Option<String>,
    /// The upstream's local clone.
    pub repo: Option<PathBuf>,
    /// The upstream's clone URL (cloned into lane's cache), and what the
    /// lane file's `upstream.repo` says.
    pub upstream: Option<String>,
    /// The upstream's default branch.
    pub default_branch: String,
    /// Where to write (default `lanes/<version>.yaml`).
    pub out: Option<PathBuf>,
    /// Print the lane file; write nothing.
    pub dry_run: bool,
}

/// What `lane init` did.
#[derive(Debug)]
pub struct InitOutcome {
    /// The release explained (with `--from-tag`).
    pub explained: Option<Explained>,
    /// The lane started (without).
    pub started: Option<Started>,
    /// The lane file's text.
    pub yaml: String,
    /// Where it was (or would be) written.
    pub path: PathBuf,
    /// Whether it was written.
    pub written: bool,
}

impl InitOutcome {
    /// A release lane cannot reproduce is a finding (exit 7), once shown.
    pub fn verdict(&self) -> Result<(), AppError> {
        match &self.explained {
            Some(e) if !e.reproduced.tree_equal => Err(AppError::NotReproduced {
                tag: e.tag.clone(),
                differs: e.reproduced.differs.len(),
            }),
            _ => Ok(()),
        }
    }
}

/// A new lane for a version the upstream already tagged would start on the
/// tag before it and cut what is released: refused, naming the two ways
/// on (explain the release, or start the next free patch).
fn refuse_released(
    repo: &git2::Repository,
    version: &lane_file::LaneVersion,
) -> Result<(), AppError> {
    let tagged = |v: &str| {
        repo.find_reference(&format!("refs/tags/v{v}"))
            .ok()
            .and_then(|r| r.peel_to_commit().ok())
            .map(|c| c.id())
    };
    let Some(at) = tagged(&version.to_string()) else {
        return Ok(());
    };
    let v = version.semver();
    let next = (v.patch + 1..v.patch + 200)
        .map(|p| format!("{}.{}.{p}", v.major, v.minor))
        .find(|n| tagged(n).is_none())
        .unwrap_or_else(|| format!("{}.{}.{}", v.major, v.minor, v.patch + 1));
    let short = at.to_string();
    Err(AppError::Precondition(format!(
        "{version} is already released (tag v{version} at {}): a new lane for it would start on \
         the tag before and cut what is released. To explain that release as a lane file: \
         `lane init {version} --from-tag v{version}`; to start the line's next patch: \
         `lane init {next}`",
        &short[..12.min(short.len())]
    )))
}

const DEFAULT_UPSTREAM: &str = "https://github.com/cozy-creator/python-gen-worker";

/// `lane init`.
pub fn init(request: &InitRequest) -> Result<InitOutcome, AppError> {
    let version = lane_file::LaneVersion::parse(&request.version).map_err(|m| {
        AppError::Usage(format!("lane init needs a version MAJOR.MINOR.PATCH: {m}"))
    })?;
    let upstream = request
        .upstream
        .clone()
        .unwrap_or_else(|| DEFAULT_UPSTREAM.to_owned());
    // The URL becomes the lane file's `upstream.repo` (a file meant for
    // git) and the cache clone's `origin` (git's config): a password in it
    // would be written to both.
    if lane_core::secret::has_password(&upstream) {
        return Err(AppError::Usage(format!(
            "--upstream {} holds a password: lane never writes a credential to a file (the lane \
             file's `upstream.repo`, its cache clone's git config); pass the URL without \
             `user:password@` and give git the credentials through its credential helper \
             (`git config credential.helper`, or GIT_ASKPASS)",
            lane_core::secret::shown_url(&upstream)
        )));
    }
    let repo_dir = match &request.repo {
        Some(r) => r.clone(),
        None => lane_git::remote::clone_or_fetch(&crate::lane::cache_root(), &upstream)?,
    };
    let repo = lane_git::repo::open(&repo_dir)?;
    let path = request.out.clone().unwrap_or_else(|| {
        lane_core::layout::lane_file(std::path::Path::new(""), &version.to_string())
    });
    let (explained, started, yaml) = match &request.from_tag {
        Some(tag) => {
            let e = lane_git::init::explain(
                &repo,
                &InitFromTag {
                    version: version.clone(),
                    tag: tag.clone(),
                    default_branch: request.default_branch.clone(),
                    upstream: upstream.clone(),
                },
            )?;
            let yaml = explained_yaml(&e)?;
            (Some(e), None, yaml)
        }
        None => {
            refuse_released(&repo, &version)?;
            let s = lane_git::init::start(&repo, &version, &request.default_branch, &upstream)?;
            let yaml = started_yaml(&s)?;
            (None, Some(s), yaml)
        }
    };
    // The writer and the reader share the type: what lane writes must read back.
    lane_file::parse(&path.display().to_string(), &yaml)?;
    let mut written = false;
    if !request.dry_run {
        if path.exists() {
            return Err(AppError::Precondition(format!(
                "{} exists: lane init never overwrites a lane file (remove it, or --out elsewhere)",
                path.display()
            )));
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| AppError::io(parent, e))?;
        }
        let tmp = path.with_extension("yaml.tmp");
        std::fs::write(&tmp, &yaml).map_err(|e| AppError::io(&tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| AppError::io(&path, e))?;
        written = true;
    }
    Ok(InitOutcome {
        explained,
        started,
        yaml: yaml.to_string(),
        path,
        written,
    })
}

/// Foreign text (a commit subject) made safe for a YAML comment line.
fn comment_text(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .take(100)
        .collect()
}

/// `text` (foreign text made safe) as comment lines of at most 78
/// characters, the first starting with `lead`, the rest indented to match.
fn wrapped(s: &mut String, lead: &str, text: &str) {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let indent = " ".repeat(lead.chars().count());
    let mut line = format!("# {lead}");
    let mut empty = true;
    for word in clean.split_whitespace() {
        if !empty && line.chars().count() + 1 + word.chars().count() > 78 {
            let _ = writeln!(s, "{line}");
            line = format!("# {indent}");
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    let _ = writeln!(s, "{line}");
}

fn body(lane: &lane_file::LaneFile) -> Result<String, AppError> {
    serde_yaml::to_string(lane).map_err(|e| AppError::LaneYaml(e.to_string()))
}

fn explained_yaml(e: &Explained) -> Result<String, AppError> {
    let mut s = String::from("# yaml-language-server: $schema=../docs/lane.schema.json\n#\n");
    let _ = writeln!(
        s,
        "# lane init {} --from-tag {}: the real release, read from the history.",
        e.lane.version, e.tag
    );
    let kind = match e.lane.kind {
        lane_file::LaneKind::Hotfix => "a hotfix on the previous tag",
        lane_file::LaneKind::OffMaster => "a master commit plus an off-master release commit",
        lane_file::LaneKind::Trunk => "a trunk cut on master",
    };
    let _ = writeln!(
        s,
        "# How it was made: {kind}; base {} ({}).",
        e.lane.base,
        &e.base_commit[..12]
    );
    let tag_kind = match (e.annotated, e.tag_signature.as_deref()) {
        (true, Some(sig)) => format!("annotated, {sig}-signed"),
        (true, None) => "annotated, unsigned".to_owned(),
        (false, _) => "lightweight".to_owned(),
    };
    let _ = writeln!(s, "# The tag {} is {tag_kind}.", e.tag);
    if !e.commits.is_empty() {
        let _ = writeln!(s, "# Its commits:");
    }
    for c in &e.commits {
        let class = serde_json::to_value(c.class)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        let origin = match (&c.origin, c.pr) {
            (Some(o), Some(pr)) => format!(" of {} (PR #{pr})", &o[..12]),
            (Some(o), None) => format!(" of {}", &o[..12]),
            (None, Some(pr)) => format!(" (PR #{pr})"),
            (None, None) => String::new(),
        };
        let cut = if c.carries_cut && c.class != lane_git::init::LineClass::Cut {
            " + part of the cut"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "#   {} {class}{origin}{cut}: {}",
            &c.commit[..12],
            comment_text(&c.subject)
        );
    }
    let r = &e.reproduced;
    if r.tree_equal {
        let _ = writeln!(
            s,
            "# Proven: `lane cut` of this file gives {} ({}).",
            r.expected,
            &r.expected_tree[..12]
        );
    } else {
        let _ = writeln!(
            s,
            "# NOT reproduced: {} path(s) differ from {}: {}",
            r.differs.len(),
            r.expected,
            comment_text(&r.differs.join(", "))
        );
        for w in &r.why {
            wrapped(&mut s, "  ", w);
        }
    }
    for n in &e.notes {
        wrapped(&mut s, "Note: ", n);
    }
    s.push_str(&body(&e.lane)?);
    Ok(s)
}

fn started_yaml(st: &Started) -> Result<String, AppError> {
    let mut s = String::from("# yaml-language-server: $schema=../docs/lane.schema.json\n#\n");
    let _ = writeln!(
        s,
        "# lane init {}: a new lane on {} ({}). Add its picks (`pr`, `commit`,\n# `pr_head`, `adapted` with `from`) and, to prove it, its `mint` cells.",
        st.lane.version,
        st.base,
        &st.base_commit[..12]
    );
    for n in &st.notes {
        wrapped(&mut s, "Note: ", n);
    }
    s.push_str(&body(&st.lane)?);
    Ok(s)
}
