//! The guards `lane init` proposes for a line: the wire-compatibility guard
//! on its `.proto` files (buf's `WIRE` rules), and, where master renamed
//! the protocol package after the base (a breaking protocol cut such as
//! wire-v1), a guard that forbids that commit and probes for the base's
//! package.

use git2::{Oid, Repository, Tree};
use lane_file::{Guard, Pattern, RepoPath, TreeProbe, WireGuard, WireRule};

use super::classify::Mainline;
use crate::error::{Ctx, GitError};
use crate::repo::read_text;

/// The `package x.y;` line of a `.proto` text.
pub fn proto_package(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let rest = l.trim().strip_prefix("package ")?;
        Some(rest.trim_end_matches(';').trim().to_owned())
    })
}

/// The `.proto` files directly under `folder/` in `tree`, by name.
fn protos(
    repo: &Repository,
    tree: &Tree<'_>,
    folder: &str,
) -> Result<Vec<(String, String)>, GitError> {
    let mut out = Vec::new();
    let Ok(entry) = tree.get_path(std::path::Path::new(folder)) else {
        return Ok(out);
    };
    let Ok(sub) = repo.find_tree(entry.id()) else {
        return Ok(out);
    };
    for e in sub.iter() {
        let name = String::from_utf8_lossy(e.name_bytes()).into_owned();
        if name.ends_with(".proto") {
            if let Some(text) = read_text(repo, tree, &format!("{folder}/{name}"))? {
                out.push((format!("{folder}/{name}"), text));
            }
        }
    }
    Ok(out)
}

/// Proposes the line's guards.
pub fn propose(
    repo: &Repository,
    mainline: &Mainline,
    base: Oid,
    base_tree: &Tree<'_>,
) -> Result<Vec<Guard>, GitError> {
    let files = protos(repo, base_tree, "proto")?;
    if files.is_empty() {
        return Ok(Vec::new());
    }
    let generated = ["src/gen_worker/pb"]
        .into_iter()
        .filter(|g| base_tree.get_path(std::path::Path::new(g)).is_ok())
        .map(|g| RepoPath::parse(&format!("{g}/")).expect("a repo path"))
        .collect();
    let mut guards = vec![Guard {
        name: "wire".into(),
        reason: Some(
            "a patch release stays wire-compatible with the workers and hubs already deployed: buf's WIRE rules on proto/".into(),
        ),
        forbidden_commits: Vec::new(),
        frozen_paths: Vec::new(),
        probes: Vec::new(),
        wire: Some(WireGuard {
            proto: vec![RepoPath::parse("proto/").expect("a repo path")],
            generated,
            rules: vec![WireRule::Wire],
        }),
    }];
    // The first default-branch commit after the base that renames the package.
    let (path, package) = match files
        .iter()
        .find_map(|(p, t)| proto_package(t).map(|k| (p.clone(), k)))
    {
        Some(x) => x,
        None => return Ok(guards),
    };
    // Only commits after the base's fork from the default branch can be the cut.
    let tip = *mainline
        .commits
        .last()
        .expect("a default branch has commits");
    let fork = repo
        .merge_base(base, tip)
        .ctx(|| "the base's fork".into())?;
    // The first first-parent commit that contains the fork (the fork itself
    // may sit on a merged side branch): reachability only grows along the
    // chain, so a binary search finds it.
    let chain = &mainline.commits;
    let (mut lo, mut hi) = (0, chain.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        if crate::repo::reaches(repo, chain[mid], fork)? {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let from = if chain.get(lo) == Some(&fork) {
        lo + 1
    } else {
        lo
    };
    // Past the fork on the first-parent history: none is in the base.
    for id in &mainline.commits[from..] {
        let c = repo.find_commit(*id).ctx(|| format!("reading {id}"))?;
        let tree = c.tree().ctx(|| format!("tree of {id}"))?;
        let Some(text) = read_text(repo, &tree, &path)? else {
            continue;
        };
        match proto_package(&text) {
            Some(k) if k != package => {
                let escaped = regex_escape(&package);
                let renamed = regex_escape(&k);
                guards.push(Guard {
                    name: "package-cut".into(),
                    reason: Some(format!(
                        "master renamed the protocol package {package} to {k} in {} (\"{}\"): a {} worker must keep talking to what is deployed",
                        &id.to_string()[..12],
                        crate::repo::subject(&c),
                        package
                    )),
                    forbidden_commits: vec![lane_file::CommitId::parse(&id.to_string()).expect("a commit id")],
                    frozen_paths: Vec::new(),
                    probes: vec![TreeProbe {
                        path: RepoPath::parse(&path).expect("a repo path"),
                        must_match: Pattern::parse(&format!("^package {escaped};$")).ok(),
                        must_not_match: Pattern::parse(&format!("^package {renamed};$")).ok(),
                    }],
                    wire: None,
                });
                break;
            }
            _ => {}
        }
    }
    Ok(guards)
}

fn regex_escape(s: &str) -> String {
    s.chars()
        .flat_map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                vec![c]
            } else {
                vec!['\\', c]
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proto_package_is_read_off_its_line() {
        assert_eq!(
            proto_package("syntax = \"proto3\";\n\npackage cozy.scheduler.v1;\n").as_deref(),
            Some("cozy.scheduler.v1")
        );
        assert_eq!(proto_package("message A {}\n"), None);
        assert_eq!(regex_escape("cozy.scheduler"), "cozy\\.scheduler");
    }
}
