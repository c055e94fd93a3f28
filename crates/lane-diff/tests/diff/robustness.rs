//! Bad input never panics the diff: random trees of the files it reads
//! by role (the CI stand-in for the cargo-fuzz `diff` target).

use lane_diff::{diff_trees, ArtifactFile, ArtifactTree};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_trees_never_panic_the_diff(
        files in prop::collection::vec(
            (prop::sample::select(vec![
                "a.best_config", "x/k.wrapper.cpp", "c/ab/cdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzab.py",
                "p/clx2mwwfzxil4yogrrf4q64aipeqxd4dueyo5u2xoertkwcrzeex.cubin", "w.so", ".data/serialization_id", "z.bin",
            ]), prop::collection::vec(any::<u8>(), 0..200), any::<bool>()),
            1..6,
        ),
        text in prop::sample::select(vec![
            "{\"XBLOCK\": 8, \"num_warps\": 2, \"_kernel\": \"triton_k\"}",
            "static inline void call_triton_k(\n    uint32_t grid_0 = ((xnumel + (8 - 1)) / (8));\n    launchKernel(kernels_.triton_k, grid_0, grid_1, grid_2, 2, 0);\n}\n",
            "loadKernel(\"/tmp/c/clx2mwwfzxil4yogrrf4q64aipeqxd4dueyo5u2xoertkwcrzeex.cubin\", \"triton_k\", 0);",
            "@triton.jit\ndef triton_k(x):\n",
        ]),
    ) {
        let mut a = ArtifactTree::default();
        let mut b = ArtifactTree::default();
        for (path, bytes, textual) in files {
            if a.files.iter().any(|f| f.path == path) {
                continue;
            }
            let content = if textual { text.as_bytes().to_vec() } else { bytes.clone() };
            let sha = |c: &[u8]| { use sha2::Digest; format!("{:x}", sha2::Sha256::digest(c)) };
            a.files.push(ArtifactFile { path: path.to_owned(), size: content.len() as u64, sha256: sha(&content), content: Some(content.clone()) });
            let mut other = content.clone();
            other.extend_from_slice(&bytes);
            b.files.push(ArtifactFile { path: path.to_owned(), size: other.len() as u64, sha256: sha(&other), content: Some(other) });
        }
        if let Ok(r) = diff_trees(&a, &b) {
            let _ = serde_json::to_string(&r).unwrap();
        }
    }
}
