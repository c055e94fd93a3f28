//! Where a lane's mints run: the seam between `lane mint` and what runs
//! it, and both sides of it that run mints.
//!
//! **What it owns.** The one trait, [`Backend`] (`check`, `dry_run`,
//! `mint` with [`lane_core::Progress`] events, `keeps`, `cancel`), the
//! resolved plan it is handed ([`MintPlan`]: plain values, no lane-app
//! type), what it gives back ([`DryRun`], [`Minted`] with each Job's
//! [`JobEnd`], [`Cancelled`]), its one error type ([`BackendError`]), and
//! its two implementations: [`local::LocalBackend`] (agents on this
//! machine, `lane_mint::local::LocalRun`) and, with feature `kube`,
//! `kube::KubeBackend` (one Job per mint through `lane_kube`, the slots
//! gathered from the store by `lane_mint::collect`). [`open`] picks one by
//! name.
//!
//! **What it must not touch.** lane-app and everything above it: a plan
//! comes down resolved (the lane found and narrowed, the source tree
//! exported, the guards recorded) and a summary goes back; nothing here
//! calls up. No exit codes (lane-app decides them from [`BackendError`]),
//! no printing (progress goes to a callback), no git,
//! no report.

mod error;
#[cfg(feature = "kube")]
pub mod kube;
pub mod local;
mod seam;

pub use error::BackendError;
pub use seam::{Backend, Cancelled, DryRun, JobEnd, MintPlan, Minted};

/// The backend `name` names (`local`, `kube`).
pub fn open(name: &str) -> Result<Box<dyn Backend>, BackendError> {
    match name {
        "local" => Ok(Box::new(local::LocalBackend)),
        #[cfg(feature = "kube")]
        "kube" => Ok(Box::new(kube::KubeBackend::default())),
        #[cfg(not(feature = "kube"))]
        "kube" => Err(BackendError::NotBuilt),
        other => Err(BackendError::Unknown {
            name: other.to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;

    const PROBE: &str = include_str!("../../../lanes/0.0.0.yaml");

    fn plan<'a>(lane: &'a lane_file::LaneFile, stop: &'a AtomicBool) -> MintPlan<'a> {
        MintPlan {
            lane,
            whole_matrix: Vec::new(),
            out: "/out/lanes/0.0.0".into(),
            run_id: "manual".into(),
            concurrency: 1,
            wheel: None,
            wheel_key: None,
            store: None,
            local_store: "/out/store".into(),
            kube_config: None,
            agent: Vec::new(),
            dry_run: true,
            source: None,
            provenance: Default::default(),
            stop,
        }
    }

    #[test]
    fn a_name_picks_its_backend_and_an_unknown_one_is_refused() {
        assert_eq!(open("local").unwrap().name(), "local");
        assert!(matches!(
            open("ssh").err(),
            Some(BackendError::Unknown { name }) if name == "ssh"
        ));
    }

    #[test]
    fn the_local_backend_refuses_a_wheel_key_and_plans_every_mint() {
        let lane = lane_file::parse("lanes/0.0.0.yaml", PROBE).unwrap();
        let stop = AtomicBool::new(false);
        let mut local = local::LocalBackend;
        let mut p = plan(&lane, &stop);
        let DryRun::Plan { mints, .. } = local.dry_run(&p).unwrap() else {
            panic!("the local backend shows its plan");
        };
        assert_eq!(mints.len(), lane.plan().len());
        p.wheel_key = Some("lanes/0.0.0/c/w.whl".into());
        assert!(matches!(local.check(&p), Err(BackendError::WheelKeyHere)));
        assert!(matches!(
            local.cancel("0.0.0"),
            Err(BackendError::NothingToCancel {
                backend: "local",
                ..
            })
        ));
    }

    #[cfg(feature = "kube")]
    #[test]
    fn the_kube_backend_refuses_flags_pods_cannot_take_before_reading_its_config() {
        let lane = lane_file::parse("lanes/0.0.0.yaml", PROBE).unwrap();
        let stop = AtomicBool::new(false);
        let kube = kube::KubeBackend::default();
        let mut p = plan(&lane, &stop);
        assert!(matches!(kube.check(&p), Err(BackendError::NoKubeConfig)));
        p.kube_config = Some("/nowhere/kube.yaml".into());
        p.wheel = Some("w.whl".into());
        assert!(matches!(kube.check(&p), Err(BackendError::WheelFileInPods)));
        p.run_id = "-bad".into();
        assert!(matches!(kube.check(&p), Err(BackendError::BadRunId { .. })));
    }
}
