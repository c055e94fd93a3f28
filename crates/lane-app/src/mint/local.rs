//! The local backend: agents on this machine, crash-safe through the run
//! store (`lane_mint::local::LocalRun`).

use lane_core::Progress;
use lane_mint::local::LocalRun;

use super::{lane_out, provenance, source, visible_gpus, MintRequest};
use crate::backend::{Backend, DryRun, Minted};
use crate::error::AppError;
use crate::lane::LoadedLane;

/// Mints on this machine.
#[derive(Debug, Default)]
pub struct LocalBackend;

fn check(request: &MintRequest) -> Result<(), AppError> {
    if request.wheel_key.is_some() {
        return Err(AppError::Usage(
            "--wheel-key is for --backend kube; the local backend installs --wheel FILE".to_owned(),
        ));
    }
    Ok(())
}

impl Backend for LocalBackend {
    fn name(&self) -> &'static str {
        "local"
    }

    fn dry_run(&mut self, loaded: &LoadedLane, request: &MintRequest) -> Result<DryRun, AppError> {
        check(request)?;
        let lane = &loaded.lane;
        Ok(DryRun::Plan {
            lane: lane.version.to_string(),
            mints: lane.plan().into_iter().map(|p| p.id.to_string()).collect(),
        })
    }

    fn mint(
        &mut self,
        loaded: &LoadedLane,
        request: &MintRequest,
        on: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<Minted, AppError> {
        check(request)?;
        let lane = &loaded.lane;
        let concurrency = request
            .concurrency
            .or(lane
                .mint
                .as_ref()
                .and_then(|m| m.concurrency.map(|c| c as usize)))
            .unwrap_or_else(|| visible_gpus().max(1));
        let out = lane_out(request, loaded)?;
        let source = source::tree(request, loaded, &out)?;
        let provenance =
            provenance::local(loaded, request.wheel.as_deref(), request.repo.as_deref())?;
        let store = match &request.store {
            Some(s) => s.clone(),
            None => {
                let dir = request.out.join("store");
                std::path::absolute(&dir)
                    .map_err(|e| AppError::io(dir, e))?
                    .to_string_lossy()
                    .into_owned()
            }
        };
        let run = LocalRun {
            provenance,
            lane,
            source,
            out,
            agent: request.agent.clone(),
            concurrency,
            wheel: request.wheel.clone(),
            store: Some(store),
            stop: &request.stop,
        };
        Ok(Minted {
            summary: run.run(on)?,
            jobs: None,
            ended: Vec::new(),
        })
    }
}
