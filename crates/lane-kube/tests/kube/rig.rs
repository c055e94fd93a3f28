//! A rig cell's Job: its report path and the staged source archive.

use super::*;

#[test]
fn a_rig_cell_gets_its_report_path_and_the_staged_source_archive() {
    let mut m = mint(id("0.93.3", "rig-aot", "L4", 1, 1));
    m.report = Some("rig/mint/report.json".into());
    m.source = Some(staged(
        "https://s3.example/gw.src.tar.gz?X-Amz-Signature=aa",
    ));
    let job = job_for(&m, &cfg()).unwrap();
    let pod = job.spec.as_ref().unwrap().template.spec.as_ref().unwrap();
    let args = pod.containers[0].command.clone().unwrap();
    let at = |flag: &str| {
        let i = args
            .iter()
            .position(|a| a == flag)
            .unwrap_or_else(|| panic!("{flag} in {args:?}"));
        args[i + 1].clone()
    };
    assert_eq!(at("--report"), "rig/mint/report.json");
    assert_eq!(
        at("--source-url"),
        "https://s3.example/gw.src.tar.gz?X-Amz-Signature=aa"
    );
    assert_eq!(at("--source-sha256"), SHA);
    // A source archive presigned again by a restarted run is the same spec.
    let digest = |m: &MintJob| spec_of(&job_for(m, &cfg()).unwrap()).unwrap().to_owned();
    let mut again = m.clone();
    again.source = Some(staged(
        "https://s3.example/gw.src.tar.gz?X-Amz-Signature=bb",
    ));
    assert_eq!(digest(&m), digest(&again));
    // Only cells that say `source: true` get it from the plan.
    let lane = lane_file::parse(
        "lanes/0.93.3.yaml",
        "version: \"0.93.3\"\nupstream: {repo: ../up}\nbase: v0.93.2\nmint:\n  gpus: [L4]\n  cold_repeats: 1\n  cells:\n    - {name: rig, recipe: aot, source: true, report: rig/mint/report.json, command: [sh, rig.sh]}\n    - {name: plain, recipe: dynamo, command: [sh, plain.sh]}\n",
    )
    .unwrap();
    let src = staged("https://s3.example/gw.src.tar.gz");
    let mints = MintJob::plan_with_source(&lane, "r1", None, Some(&src), None).unwrap();
    let by = |cell: &str| mints.iter().find(|m| m.id.cell == cell).unwrap();
    assert_eq!(by("rig").source.as_ref(), Some(&src));
    assert_eq!(by("rig").report.as_deref(), Some("rig/mint/report.json"));
    assert_eq!(by("plain").source, None);
    assert_eq!(by("plain").report, None);
}
