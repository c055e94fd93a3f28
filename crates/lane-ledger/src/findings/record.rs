//! What lane's own record of an attempt (`mint.json`) calls for beside
//! its report: a command that failed under a minted report, cells with no
//! GPU code, a card that is not the slot's class, a repeat whose coldness
//! is not guaranteed.

use super::*;

/// What lane's own record of an attempt says that its report does not
/// (`mint.json`): a command that failed after its report said `minted`, a
/// GPU mint whose cells hold no GPU code, an attempt whose coldness is not
/// guaranteed. The caller adds them to the attempt's breakdown.
pub fn record_findings(record: &lane_core::MintRecord) -> Vec<Finding> {
    use lane_core::TmpIsolation;
    let mut out = Vec::new();
    let minted = record.status == MintStatus::Minted;
    if let (true, Some(code)) = (minted, record.exit_code.filter(|c| *c != 0)) {
        out.push(
            Finding::new(
                FindingKind::CommandFailedAfterMinted,
                Severity::Warning,
                format!(
                    "the cell's command exited {code} after its report said `minted`: the report stands and its cells were gathered, but the command failed{}",
                    if record.gathering.entries.is_empty() {
                        ""
                    } else {
                        " (the 0.114.0-0.123.0 rig raises AttributeError on `outcome.artifact` after its child wrote the report, pgw#1352, repaired in 0.124.0)"
                    }
                ),
            )
            .subject("exit_code"),
        );
    }
    let no_gpu_code = minted
        .then(|| lane_core::results::cells_without_gpu_code(record.gathering.cells()))
        .flatten();
    if let Some(inspected) = no_gpu_code {
        out.push(
            Finding::new(
                FindingKind::NoGpuCode,
                Severity::Warning,
                format!(
                    "minted on {} but {}, whatever its metadata's `sm` says",
                    quote(&record.gpu, SHORT_MAX_CHARS),
                    lane_core::results::no_gpu_code_sentence(inspected)
                ),
            )
            .subject("cells"),
        );
    }
    let card = lane_core::environment::card_of_slot(
        &record.gpu,
        record.stand_in.as_deref(),
        record.environment.gpu_model.as_deref(),
    );
    match card {
        lane_core::environment::CardCheck::IsNot { card } => out.push(
            Finding::new(
                FindingKind::CardNotClass,
                Severity::Error,
                format!(
                    "the slot's GPU class is {} but the mint ran on {}: its seconds and cells are that card's, never the class's",
                    quote(&record.gpu, SHORT_MAX_CHARS),
                    quote(&card, SHORT_MAX_CHARS)
                ),
            )
            .subject("environment.gpu_model"),
        ),
        lane_core::environment::CardCheck::StandsIn { card } => out.push(
            Finding::new(
                FindingKind::StandIn,
                Severity::Warning,
                format!(
                    "{} stands in for the slot's GPU class {} (the lane file's mint.stand_in): its seconds and cells are that card's, a series of their own, never the class's",
                    quote(&card, SHORT_MAX_CHARS),
                    quote(&record.gpu, SHORT_MAX_CHARS)
                ),
            )
            .subject("environment.gpu_model"),
        ),
        _ => {}
    }
    if let Some(iso) = &record.gathering.isolation {
        if let TmpIsolation::Shared { why } = &iso.tmp {
            out.push(
                Finding::new(
                    FindingKind::ColdnessNotGuaranteed,
                    Severity::Warning,
                    format!(
                        "this repeat ran on the machine's /tmp ({}): its coldness is not guaranteed; shared with every other attempt there: {}",
                        quote(why, DETAIL_MAX_CHARS),
                        iso.shared
                            .iter()
                            .map(|p| quote(p, DETAIL_MAX_CHARS))
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                )
                .subject("isolation"),
            );
        }
        if !iso.outside.is_empty() {
            out.push(
                Finding::new(
                    FindingKind::ColdnessNotGuaranteed,
                    Severity::Warning,
                    format!(
                        "the cell shares a cache with other attempts, so this repeat's coldness is not guaranteed: {}",
                        iso.outside
                            .iter()
                            .map(|p| quote(p, DETAIL_MAX_CHARS))
                            .collect::<Vec<_>>()
                            .join("; ")
                    ),
                )
                .subject("isolation.outside"),
            );
        }
    }
    out
}
