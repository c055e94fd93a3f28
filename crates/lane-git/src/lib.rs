//! lane's git edge: cutting a patch lane and proving it pre-wire-v1.
//!
//! Start at [`cut::cut`] (branch from the base tag, cherry-pick, guard, bump
//! the version files, assemble the changelog) and [`guard`] (what a lane
//! must never carry, proven on git objects: forbidden commits by ancestry and
//! patch-id, frozen paths byte for byte, tree probes). [`resume`] finishes or
//! undoes a cut stopped on a conflict; [`proof`] proves a branch is exactly
//! a lane's cut before anything trusts its head; [`remote`] clones, fetches and pushes
//! through the `git` CLI.
//!
//! This crate owns every write to a repository lane makes, and writes only
//! after every check passed (objects go to an in-memory store first). It must
//! not decide what is printed or which exit code a failure maps to (that is
//! the CLI's), and it never force-pushes or moves an existing ref.

pub mod assembler;
pub mod changelog;
pub mod cut;
mod error;
pub mod foldback;
pub mod guard;
pub mod init;
pub mod landed;
pub mod picks;
pub mod proof;
pub mod remote;
pub mod repo;
pub mod resume;
pub mod sign;
pub mod state;
pub mod version_files;

pub use error::GitError;

/// Serde for `git2::Oid` as a hex string.
pub(crate) mod oid_hex {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(oid: &git2::Oid, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&oid.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<git2::Oid, D::Error> {
        let s = String::deserialize(d)?;
        git2::Oid::from_str(&s).map_err(serde::de::Error::custom)
    }
}
