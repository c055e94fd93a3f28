//! The local backend: agents on this machine, crash-safe through the run
//! store (`lane_mint::local::LocalRun`).

use lane_core::Progress;
use lane_mint::local::LocalRun;

use crate::error::BackendError;
use crate::seam::{Backend, DryRun, MintPlan, Minted};

/// Mints on this machine.
#[derive(Debug, Default)]
pub struct LocalBackend;

impl Backend for LocalBackend {
    fn name(&self) -> &'static str {
        "local"
    }

    fn runs_here(&self) -> bool {
        true
    }

    fn check(&self, plan: &MintPlan<'_>) -> Result<(), BackendError> {
        match plan.wheel_key {
            Some(_) => Err(BackendError::WheelKeyHere),
            None => Ok(()),
        }
    }

    fn dry_run(&mut self, plan: &MintPlan<'_>) -> Result<DryRun, BackendError> {
        self.check(plan)?;
        Ok(DryRun::Plan {
            lane: plan.lane.version.to_string(),
            mints: plan
                .lane
                .plan()
                .into_iter()
                .map(|p| p.id.to_string())
                .collect(),
        })
    }

    fn mint(
        &mut self,
        plan: &MintPlan<'_>,
        on: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<Minted, BackendError> {
        self.check(plan)?;
        let run = LocalRun {
            provenance: plan.provenance.clone(),
            lane: plan.lane,
            whole_matrix: plan.whole_matrix.clone(),
            source: plan.source.clone(),
            out: plan.out.clone(),
            agent: plan.agent.clone(),
            concurrency: plan.concurrency,
            wheel: plan.wheel.clone(),
            store: Some(
                plan.store
                    .clone()
                    .unwrap_or_else(|| plan.local_store.clone()),
            ),
            stop: plan.stop,
        };
        Ok(Minted {
            summary: run.run(on)?,
            jobs: None,
            ended: Vec::new(),
        })
    }
}
