//! Streamed reads, the same rules on every store.

use lane_store::{ArtifactStore, StoreError, StoreKey};

/// Streamed reads of `key` (holding `body`): whole into a writer, refused
/// past a limit, and checked against a size and sha256 as they stream.
pub fn check_streamed_reads(store: &dyn ArtifactStore, key: &StoreKey, body: &[u8]) {
    let mut out = Vec::new();
    assert_eq!(
        store.get_to(key, &mut out, body.len() as u64).unwrap(),
        body.len() as u64
    );
    assert_eq!(out, body);
    let e = store.get_to(key, &mut Vec::new(), 1000).unwrap_err();
    assert!(matches!(e, StoreError::TooLarge { limit: 1000, .. }), "{e}");
    let absent = StoreKey::new("lanes/none/x/y.bin").unwrap();
    let e = store.get_to(&absent, &mut Vec::new(), 10).unwrap_err();
    assert!(matches!(e, StoreError::NotFound { .. }), "{e}");
    let sha = lane_store::sha256_hex(body);
    let size = body.len() as u64;
    let mut out = Vec::new();
    lane_store::get_verified(store, key, &mut out, size, &sha).unwrap();
    assert_eq!(out, body);
    let e =
        lane_store::get_verified(store, key, &mut Vec::new(), size, &"0".repeat(64)).unwrap_err();
    assert!(
        matches!(&e, StoreError::DigestMismatch { found, .. } if *found == sha),
        "{e}"
    );
    let e = lane_store::get_verified(store, key, &mut Vec::new(), size + 5, &sha).unwrap_err();
    assert!(
        matches!(e, StoreError::SizeMismatch { expected, found, .. } if expected == size + 5 && found == size),
        "{e}"
    );
    let e = lane_store::get_verified(store, key, &mut Vec::new(), size - 1, &sha).unwrap_err();
    assert!(matches!(e, StoreError::TooLarge { .. }), "{e}");
}
