//! Paths to the repository fixtures and loaders that play the CLI's part
//! (walking a folder, hashing, loading content) for the diff's tests.

use std::path::Path;

pub use lane_testkit::data::{files, probe as h200, read};

use lane_diff::{ArtifactFile, ArtifactTree};
use sha2::{Digest, Sha256};

/// An artifact tree with fingerprints only (as the CLI builds it first).
pub fn fingerprints(root: &Path) -> ArtifactTree {
    let paths = files(root);
    let files = paths
        .into_iter()
        .map(|p| {
            let bytes = read(&p);
            ArtifactFile {
                path: p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/"),
                size: bytes.len() as u64,
                sha256: format!("{:x}", Sha256::digest(&bytes)),
                content: None,
            }
        })
        .collect();
    ArtifactTree { files }
}

/// Loads the content the diff asks for, as the CLI does.
pub fn load(root: &Path, tree: &mut ArtifactTree, wanted: &[String]) {
    for f in &mut tree.files {
        if f.content.is_none() && wanted.contains(&f.path) {
            f.content = Some(read(root.join(&f.path)));
        }
    }
}

/// Both H200 artifact trees, fingerprinted and with the planned content loaded.
pub fn h200_trees() -> (ArtifactTree, ArtifactTree) {
    let (ra, rb) = (h200("aot_a"), h200("aot_b"));
    let mut a = fingerprints(&ra);
    let mut b = fingerprints(&rb);
    let plan = lane_diff::content_plan(&a, &b, lane_diff::DEFAULT_MAX_CONTENT_BYTES);
    load(&ra, &mut a, &plan.a);
    load(&rb, &mut b, &plan.b);
    (a, b)
}
