//! The upstream's history, step by step: which files each commit writes, on
//! which branch, with which message and date. Every id depends only on this
//! file and `content`, never on the clock or the machine.

use crate::content::{self, Activity, MintChild, Release, PRE_V1_PACKAGE, V1_PACKAGE};
use crate::tree::Dir;
use crate::UpstreamSpec;
use git2::{ObjectType, Oid, Repository, Signature, Time};
use std::collections::BTreeMap;

/// 2026-07-01T00:00:00Z.
const JULY_1: i64 = 1_782_864_000;

/// Seconds since the epoch of a day of July or August 2026 at `hour` UTC.
fn on(month: u32, day: i64, hour: i64) -> i64 {
    let first = match month {
        7 => JULY_1,
        _ => JULY_1 + 31 * 86_400,
    };
    first + (day - 1) * 86_400 + hour * 3_600
}

struct Person {
    name: &'static str,
    email: &'static str,
}

const PAUL: Person = Person {
    name: "Paul Fidika",
    email: "paul@example.com",
};

const SOMEONE: Person = Person {
    name: "Sam Someone",
    email: "someone@example.com",
};

const R0930: Release = Release {
    version: "0.93.0",
    date: "2026-06-30",
    title: "the 0.93 line",
    bullets: &["the mint child keeps its pipelines warm between requests"],
};

const R0931: Release = Release {
    version: "0.93.1",
    date: "2026-07-06",
    title: "heartbeats carry the phase",
    bullets: &["pgw#970: heartbeats carry the mint phase (#480)"],
};

const R0932: Release = Release {
    version: "0.93.2",
    date: "2026-07-20",
    title: "failed warm plans exit non-zero",
    bullets: &["pgw#981: the mint child exits non-zero when its warm plan fails (#497)"],
};

const PYPROJECT: &str = "pyproject.toml";
const UV_LOCK: &str = "uv.lock";
const CHANGELOG: &str = "CHANGELOG.md";
const PROTO: &str = "proto/worker_scheduler.proto";
const PROTO_DIGEST: &str = "proto/PROTO_DIGEST";
const BINDINGS: &str = "src/gen_worker/pb/worker_scheduler_pb2.py";
const ACTIVITY: &str = "src/gen_worker/activity.py";
const MINT_CHILD: &str = "src/gen_worker/mint_child.py";
const SETTINGS: &str = "src/gen_worker/settings.py";

/// How many generated modules share a folder.
const MODULES_PER_FOLDER: usize = 32;

/// A branch being built: its tree and its tip.
#[derive(Clone, Default)]
struct Line {
    tree: Dir,
    head: Option<Oid>,
}

/// Writes objects and keeps the clock and the named commits.
struct Writer<'r> {
    repo: &'r Repository,
    now: i64,
    commits: BTreeMap<&'static str, Oid>,
    /// How many generated modules exist (`src/gen_worker/gen/`).
    modules: usize,
    width: usize,
    /// The next extra commit's number.
    next_extra: usize,
    tags: Vec<Tag>,
}

/// An annotated tag to write once the commits are stored.
pub(crate) struct Tag {
    name: &'static str,
    target: Oid,
    time: Time,
    message: &'static str,
}

impl Writer<'_> {
    fn put(&self, line: &mut Line, path: &str, text: &str) -> Result<(), git2::Error> {
        line.tree.put(path, self.repo.blob(text.as_bytes())?);
        Ok(())
    }

    fn versions(&self, line: &mut Line, version: &str) -> Result<(), git2::Error> {
        self.put(line, PYPROJECT, &content::pyproject(version))?;
        self.put(line, UV_LOCK, &content::uv_lock(version))
    }

    fn protocol(&self, line: &mut Line, package: &str, protobuf: u32) -> Result<(), git2::Error> {
        let proto = content::proto(package);
        self.put(line, PROTO, &proto)?;
        self.put(line, PROTO_DIGEST, &content::proto_digest(&proto))?;
        self.put(line, BINDINGS, &content::bindings(package, protobuf))
    }

    fn fragment(&self, line: &mut Line, issue: u32, text: &str) -> Result<(), git2::Error> {
        let path = format!("changelog.d/pgw{issue}.md");
        self.put(line, &path, &content::fragment(text))
    }

    /// The next commit time: a minute after the last, and not before
    /// `not_before` (so named commits sit on their story's dates).
    fn tick(&mut self, not_before: i64) -> Time {
        self.now = (self.now + 60).max(not_before);
        Time::new(self.now, 0)
    }

    fn commit(
        &mut self,
        line: &mut Line,
        key: Option<&'static str>,
        author: &Person,
        message: &str,
        not_before: i64,
        other_parent: Option<Oid>,
    ) -> Result<Oid, git2::Error> {
        let time = self.tick(not_before);
        let author = Signature::new(author.name, author.email, &time)?;
        let committer = Signature::new(PAUL.name, PAUL.email, &time)?;
        let tree = self.repo.find_tree(line.tree.write(self.repo)?)?;
        let parents = line
            .head
            .iter()
            .chain(other_parent.iter())
            .map(|oid| self.repo.find_commit(*oid))
            .collect::<Result<Vec<_>, _>>()?;
        let parents: Vec<_> = parents.iter().collect();
        let oid = self
            .repo
            .commit(None, &author, &committer, message, &tree, &parents)?;
        line.head = Some(oid);
        if let Some(key) = key {
            self.commits.insert(key, oid);
        }
        Ok(oid)
    }

    /// Notes an annotated tag for [`write_tags`], dated a minute later.
    fn tag(&mut self, name: &'static str, target: Oid, message: &'static str) {
        let time = self.tick(0);
        self.tags.push(Tag {
            name,
            target,
            time,
            message,
        });
    }

    fn module_path(&self, n: usize) -> String {
        // Folders of MODULES_PER_FOLDER keep each commit's rewritten trees
        // small: one 1,000-entry folder made the benchmark repository
        // five times bigger and slower to write.
        format!(
            "src/gen_worker/gen/t{:02}/mod_{n:0width$}.py",
            n / MODULES_PER_FOLDER,
            width = self.width
        )
    }

    /// `count` small commits, each regenerating one module.
    fn extras(&mut self, line: &mut Line, count: usize) -> Result<(), git2::Error> {
        for _ in 0..count {
            let i = self.next_extra;
            self.next_extra += 1;
            let (n, rev) = (i % self.modules, i / self.modules + 1);
            let path = self.module_path(n);
            self.put(line, &path, &content::module(n, rev))?;
            let message = format!(
                "gen: regenerate kernel table mod_{n:0width$} (rev {rev})\n",
                width = self.width
            );
            self.commit(line, None, &PAUL, &message, 0, None)?;
        }
        Ok(())
    }
}

/// What [`write`] made: the named commits, the branch tips, the tags to
/// write.
pub(crate) struct Refs {
    pub(crate) commits: BTreeMap<&'static str, Oid>,
    pub(crate) branches: Vec<(&'static str, Oid)>,
    pub(crate) tags: Vec<Tag>,
}

/// Writes the tag objects and their refs.
pub(crate) fn write_tags(repo: &Repository, tags: &[Tag]) -> Result<(), git2::Error> {
    for tag in tags {
        let tagger = Signature::new(PAUL.name, PAUL.email, &tag.time)?;
        let object = repo.find_object(tag.target, Some(ObjectType::Commit))?;
        repo.tag(tag.name, &object, &tagger, tag.message, false)?;
    }
    Ok(())
}

/// Writes every commit, with its trees and blobs, into `repo`; the caller
/// writes the tags and branches from the returned [`Refs`].
pub(crate) fn write(repo: &Repository, spec: &UpstreamSpec) -> Result<Refs, git2::Error> {
    let modules = if spec.extra_commits > 0 {
        spec.extra_files.max(1)
    } else {
        spec.extra_files
    };
    let mut w = Writer {
        repo,
        now: JULY_1,
        commits: BTreeMap::new(),
        modules,
        width: content::module_width(modules),
        next_extra: 0,
        tags: Vec::new(),
    };
    // Extra commits: half before v0.93.1, the rest spread over master after
    // v0.93.2 (before the refactor, before the cut, after the cut).
    let extra_a = spec.extra_commits / 2;
    let extra_b = spec.extra_commits / 6;
    let extra_c = spec.extra_commits / 6;
    let extra_d = spec.extra_commits - extra_a - extra_b - extra_c;

    // 0.93.0 .. v0.93.1
    let mut master = Line::default();
    w.versions(&mut master, "0.93.0")?;
    w.put(&mut master, CHANGELOG, &content::changelog(&[&R0930]))?;
    w.put(
        &mut master,
        "changelog.d/README.md",
        content::CHANGELOG_D_README,
    )?;
    w.put(&mut master, "README.md", content::README)?;
    w.put(&mut master, ".gitignore", content::GITIGNORE)?;
    w.protocol(&mut master, PRE_V1_PACKAGE, 3)?;
    w.put(
        &mut master,
        "src/gen_worker/pb/__init__.py",
        content::PB_INIT,
    )?;
    w.put(
        &mut master,
        "src/gen_worker/__init__.py",
        content::PACKAGE_INIT,
    )?;
    w.put(
        &mut master,
        ACTIVITY,
        &content::activity(Activity::default()),
    )?;
    w.put(
        &mut master,
        MINT_CHILD,
        &content::mint_child(MintChild::default()),
    )?;
    w.put(&mut master, SETTINGS, &content::settings(false))?;
    w.put(&mut master, "tests/test_basic.py", content::TEST_BASIC)?;
    if modules > 0 {
        w.put(
            &mut master,
            "src/gen_worker/gen/__init__.py",
            content::GEN_INIT,
        )?;
        for n in 0..modules {
            let path = w.module_path(n);
            w.put(&mut master, &path, &content::module(n, 0))?;
        }
    }
    let message = "gen-worker 0.93.0: initial import\n\nThe worker, its scheduler protocol and the mint child.\n";
    w.commit(&mut master, Some("init"), &PAUL, message, on(7, 1, 9), None)?;
    w.extras(&mut master, extra_a)?;

    let phases = Activity {
        phases: true,
        ..Activity::default()
    };
    w.put(&mut master, ACTIVITY, &content::activity(phases))?;
    w.fragment(&mut master, 970, R0931.bullets[0])?;
    let message = "pgw#970: heartbeats carry the mint phase (#480)\n";
    w.commit(
        &mut master,
        Some("fix-970"),
        &PAUL,
        message,
        on(7, 3, 10),
        None,
    )?;

    w.versions(&mut master, "0.93.1")?;
    w.put(
        &mut master,
        CHANGELOG,
        &content::changelog(&[&R0931, &R0930]),
    )?;
    master.tree.remove("changelog.d/pgw970.md");
    let message = "release: 0.93.1 (#482)\n\nAssembles changelog.d/ into CHANGELOG.md.\n";
    let v0931 = w.commit(
        &mut master,
        Some("release-0.93.1"),
        &PAUL,
        message,
        on(7, 6, 12),
        None,
    )?;
    w.tag("v0.93.1", v0931, "gen-worker 0.93.1\n");

    // v0.93.2
    let exit_code = MintChild {
        exit_code: true,
        ..MintChild::default()
    };
    w.put(&mut master, MINT_CHILD, &content::mint_child(exit_code))?;
    w.fragment(&mut master, 981, R0932.bullets[0])?;
    let message = "pgw#981: the mint child exits non-zero when its warm plan fails (#497)\n";
    w.commit(
        &mut master,
        Some("fix-0.93.2"),
        &PAUL,
        message,
        on(7, 15, 14),
        None,
    )?;

    w.versions(&mut master, "0.93.2")?;
    let released = [&R0932, &R0931, &R0930];
    w.put(&mut master, CHANGELOG, &content::changelog(&released))?;
    master.tree.remove("changelog.d/pgw981.md");
    let message = "release: 0.93.2 (#498)\n\nAssembles changelog.d/ into CHANGELOG.md.\n";
    let v0932 = w.commit(
        &mut master,
        Some("release-0.93.2"),
        &PAUL,
        message,
        on(7, 20, 12),
        None,
    )?;
    w.tag("v0.93.2", v0932, "gen-worker 0.93.2\n");
    let mut hotfix = master.clone();

    // master moves on: the refactor, then the wire-v1 cut (first on its own
    // branch, then on master with another message and time).
    w.extras(&mut master, extra_b)?;
    let refactored = MintChild {
        refactored: true,
        ..exit_code
    };
    w.put(&mut master, MINT_CHILD, &content::mint_child(refactored))?;
    let message = "pgw#984: factor the warm loop into _drive_warm_plan (#505)\n\n\
                   The router drain becomes a frame the warm plan drives; no behaviour change.\n";
    w.commit(
        &mut master,
        Some("refactor-984"),
        &PAUL,
        message,
        on(7, 22, 11),
        None,
    )?;

    let mut early = master.clone();
    w.protocol(&mut early, V1_PACKAGE, 3)?;
    let message = "wire-v1: move the scheduler contract to cozy.scheduler.v1\n";
    w.commit(
        &mut early,
        Some("wire-v1-early"),
        &PAUL,
        message,
        on(7, 23, 16),
        None,
    )?;

    w.extras(&mut master, extra_c)?;
    w.protocol(&mut master, V1_PACKAGE, 3)?;
    let message =
        "th#1597 (BREAKING, wire protocol): the contract becomes `cozy.scheduler.v1` (#502)\n\n\
                   Renames the protobuf package and regenerates the bindings. A worker built from\n\
                   this commit on cannot talk to a pre-v1 hub, and a pre-v1 worker cannot talk to\n\
                   a v1 hub.\n";
    w.commit(
        &mut master,
        Some("wire-v1"),
        &PAUL,
        message,
        on(7, 27, 10),
        None,
    )?;

    w.versions(&mut master, "0.94.0.dev0")?;
    let message = "chore: open 0.94 (0.94.0.dev0) (#506)\n";
    w.commit(
        &mut master,
        Some("open-0.94"),
        &PAUL,
        message,
        on(7, 27, 12),
        None,
    )?;
    w.extras(&mut master, extra_d)?;

    // Fixes that landed on master after the cut.
    let stop = Activity {
        stop_when_done: true,
        ..phases
    };
    w.put(&mut master, ACTIVITY, &content::activity(stop))?;
    let line = "pgw#992: heartbeats stop once the mint child is done (#515)";
    w.fragment(&mut master, 992, line)?;
    w.commit(
        &mut master,
        Some("fix-992"),
        &PAUL,
        &format!("{line}\n"),
        on(8, 3, 10),
        None,
    )?;
    let mut pr520 = master.clone();

    let breakdown = MintChild {
        breakdown: true,
        ..refactored
    };
    w.put(&mut master, MINT_CHILD, &content::mint_child(breakdown))?;
    w.put(
        &mut master,
        "src/gen_worker/warm_spans.py",
        content::WARM_SPANS,
    )?;
    let line = "pgw#989: the dynamo mint's warmup_forward gets a breakdown (#511)";
    w.fragment(&mut master, 989, line)?;
    let message = format!(
        "{line}\n\n* the drain phase is reported as router_drain\n* warmup_forward spans per shape\n"
    );
    w.commit(
        &mut master,
        Some("fix-989"),
        &PAUL,
        &message,
        on(8, 4, 15),
        None,
    )?;

    w.protocol(&mut master, V1_PACKAGE, 4)?;
    let line = "pgw#993: regenerate the scheduler bindings with protobuf 5.29.4 (#516)";
    w.fragment(&mut master, 993, line)?;
    w.commit(
        &mut master,
        Some("fix-proto-993"),
        &PAUL,
        &format!("{line}\n"),
        on(8, 5, 11),
        None,
    )?;

    // pgw#994: first as a hotfix on top of v0.93.2, then on master (#517).
    let line = "pgw#994: retry honours its deadline";
    let deadline = Activity {
        deadline: true,
        ..phases
    };
    w.put(&mut hotfix, ACTIVITY, &content::activity(deadline))?;
    w.fragment(&mut hotfix, 994, &format!("{line} (#517)"))?;
    let message = format!("{line}\n\nHotfix for deployed 0.93.2 workers.\n");
    w.commit(
        &mut hotfix,
        Some("hotfix-994"),
        &PAUL,
        &message,
        on(8, 5, 18),
        None,
    )?;

    let both = Activity {
        deadline: true,
        ..stop
    };
    w.put(&mut master, ACTIVITY, &content::activity(both))?;
    w.fragment(&mut master, 994, &format!("{line} (#517)"))?;
    let message = format!("{line} (#517)\n");
    w.commit(
        &mut master,
        Some("fix-already-994"),
        &PAUL,
        &message,
        on(8, 6, 10),
        None,
    )?;

    // PR #520: a one-commit branch forked at pgw#992, merged with a merge commit.
    let line = "pgw#996: settings read GEN_WORKER_CACHE_DIR";
    for branch in [&mut pr520, &mut master] {
        w.put(branch, SETTINGS, &content::settings(true))?;
        w.fragment(branch, 996, &format!("{line} (#520)"))?;
    }
    let fix = w.commit(
        &mut pr520,
        Some("fix-996"),
        &SOMEONE,
        &format!("{line}\n"),
        on(8, 6, 14),
        None,
    )?;
    let message = format!("Merge pull request #520 from someone/fix-996\n\n{line}\n");
    w.commit(
        &mut master,
        Some("merge-520"),
        &PAUL,
        &message,
        on(8, 7, 9),
        Some(fix),
    )?;

    let tip = |line: &Line| line.head.expect("every line has commits");
    Ok(Refs {
        branches: vec![
            ("master", tip(&master)),
            ("release/0.93.2", v0932),
            ("wire-v1-proto", tip(&early)),
            ("hotfix-994", tip(&hotfix)),
        ],
        commits: w.commits,
        tags: w.tags,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_days_of_summer_2026() {
        assert_eq!(on(7, 1, 0), JULY_1);
        assert_eq!(on(7, 20, 12) - on(7, 19, 12), 86_400);
        assert_eq!(on(8, 1, 0) - on(7, 31, 0), 86_400);
    }
}
