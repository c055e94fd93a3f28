//! A flipped pad_mm decision's consequences, attributed by following the
//! output code's graph from the decided op (`provenance`), on the real
//! dynamo pairs whose pad_mm flipped (`h200-run-session4`, r1 pads
//! `linear_1`; `dynamo-pair`, r1 pads `linear`), and on copies of the
//! real trees with a kernel added: a kernel is the decision's by its
//! graph, never by its name.

use lane_diff::ingest::ReadLimits;
use lane_diff::{
    diff_sides, ArtifactFile, CellSide, DecisionKernel, DeterminismVerdict, DiffClass, GraphLink,
    KernelPresence, UnexplainedCause,
};
use lane_testkit::data::gw;
use sha2::{Digest, Sha256};

use crate::disk::{assert_explained, diff, read_both};

fn slot(r: &str) -> std::path::PathBuf {
    gw(&format!("h200-run-session4/results/rig-dynamo/H200/{r}"))
}

/// The session-4 pair as read, A and B.
fn session4() -> (CellSide, CellSide) {
    read_both(&slot("r1"), &slot("r2"), &ReadLimits::default()).unwrap()
}

const OUTPUT_CODE: &str = "inductor/rf/crfqhj5tctuwlzm342on4puasxxs2dk7k73av3zgefrh5cknxsb6.py";
const PAD_KERNEL: &str = "triton_poi_fused_addmm_silu_4";
/// The kernel added to a copy of r1: its name fuses `addmm` (the decided
/// op), which once sufficed to put it down to the decision.
const EXTRA: &str = "triton_poi_fused_addmm_convolution_99";

fn kernels(r: &lane_diff::DeterminismReport) -> Vec<(String, KernelPresence, GraphLink)> {
    r.decisions
        .iter()
        .flat_map(|d| &d.kernels)
        .map(|k: &DecisionKernel| (k.kernel.clone(), k.presence, k.link))
        .collect()
}

#[test]
fn real_session4_pair_lists_the_padding_kernel_under_the_flip_by_its_graph() {
    let r = diff(&slot("r1"), &slot("r2"));
    assert_explained(&r, DeterminismVerdict::DecisionsFlipped);
    let d = &r.decisions[0];
    assert_eq!(d.graph_op.as_deref(), Some("aten.addmm"));
    // The decided matmul is the traced program's `linear_1`: in r1 only
    // it became a pad node (`constant_pad_nd_default`, f32[4, 128]: the
    // operand [2, 128] padded).
    assert_eq!(d.source_nodes, ["linear_1"]);
    assert_eq!(
        kernels(&r),
        [(
            PAD_KERNEL.to_owned(),
            KernelPresence::OnlyA,
            GraphLink::ComputesDecidedOp
        )]
    );
    assert_eq!(
        d.kernels[0].evidence,
        "A's triton_poi_fused_addmm_silu_4 computes the decided matmul: linear_1 => constant_pad_nd_default"
    );
    // Every file of that kernel (its source, best_config, both Triton
    // cache directories) appears, put down to the decision.
    let files: Vec<_> = r
        .file_diffs
        .iter()
        .filter(|f| f.kernel.as_deref() == Some(PAD_KERNEL))
        .collect();
    assert_eq!(files.len(), 18, "{files:?}");
    assert!(files.iter().all(|f| f.class == DiffClass::Decision
        && f.b.is_none()
        && f.reason.as_deref().is_some_and(
            |w| w.ends_with("which only A's graph has: the pad_mm decision on aten.addmm (A pads)")
        )));
}

#[test]
fn real_first_dynamo_pair_lists_the_padding_kernel_and_the_slice_under_the_flip() {
    let r = diff(
        &gw("dynamo-pair/r1/artifacts"),
        &gw("dynamo-pair/r2/artifacts"),
    );
    assert_explained(&r, DeterminismVerdict::DecisionsFlipped);
    assert_eq!(r.decisions[0].source_nodes, ["linear"]);
    // The pad fused into the kernel that builds its operand (only r1 has
    // it), and the kernel the slice fused into (both have it, its code
    // changed: r1's reads the padded result).
    assert_eq!(
        kernels(&r),
        [
            (
                "triton_poi_fused_addmm_arange_cat_cos_exp_mul_neg_sin_unsqueeze_3".to_owned(),
                KernelPresence::OnlyA,
                GraphLink::ComputesDecidedOp
            ),
            (
                "triton_poi_fused_addmm_silu_4".to_owned(),
                KernelPresence::CodeChanged,
                GraphLink::ComputesDecidedOp
            ),
        ]
    );
    assert!(r.decisions[0].kernels[1]
        .evidence
        .ends_with("linear => add_tensor_2, slice_tensor"));
}

fn file(path: String, text: &str) -> ArtifactFile {
    ArtifactFile {
        path,
        size: text.len() as u64,
        sha256: format!("{:x}", Sha256::digest(text.as_bytes())),
        content: Some(text.as_bytes().to_vec()),
    }
}

/// A copy of r1 with the kernel [`EXTRA`] added: its source (r1's own
/// `triton_poi_fused_convolution_0` as the output code quotes it, renamed) and, when `header` is
/// given, its header in the output code with those source node mappings.
fn with_extra_kernel(a: &CellSide, header: Option<&str>) -> CellSide {
    let mut a = a.clone();
    // The kernel's source as the output code quotes it.
    let code = a
        .tree
        .files
        .iter()
        .find(|f| f.path.ends_with(OUTPUT_CODE))
        .and_then(|f| String::from_utf8(f.content.clone()?).ok())
        .unwrap();
    let open = "triton_poi_fused_convolution_0 = async_compile.triton('triton_poi_fused_convolution_0', '''\n";
    let from = code.find(open).unwrap() + open.len();
    let to = from + code[from..].find("''', device_str=").unwrap();
    let source = code[from..to].replace("triton_poi_fused_convolution_0", EXTRA);
    let path = format!("artifacts/cell.tar.gz/inductor/zz/czz{}.py", "q".repeat(48));
    a.tree.files.push(file(path, &source));
    if let Some(mapping) = header {
        let code = a
            .tree
            .files
            .iter_mut()
            .find(|f| f.path.ends_with(OUTPUT_CODE))
            .unwrap();
        let mut text = String::from_utf8(code.content.clone().unwrap()).unwrap();
        text.push_str(&format!(
            "\n\n# kernel path: rig/capture/inductor/zz/czz.py\n# Topologically Sorted Source Nodes: [x], Original ATen: [x]\n# Source node to ATen node mapping:\n#   {mapping}\n# Graph fragment:\n#   return %x\n{EXTRA} = async_compile.triton('{EXTRA}', '''\n'''\n"
        ));
        *code = file(code.path.clone(), &text);
    }
    a
}

/// Whether a path is the added kernel's source.
fn is_extra(path: &Option<String>) -> bool {
    path.as_deref()
        .is_some_and(|p| p.contains("/inductor/zz/czz"))
}

/// Regression: the kernels a pad_mm decision explained were those whose
/// *name* fused the padded op, so any kernel named `..._addmm_...` on one
/// side only was put down to the decision. A kernel added to a copy of
/// the real r1, whose name fuses `addmm` but that the output code never
/// links to `linear_1`, stays unexplained, and nothing else changes.
#[test]
fn an_extra_kernel_named_after_the_decided_op_with_no_graph_link_stays_unexplained() {
    let (a, b) = session4();
    let r = diff_sides(&with_extra_kernel(&a, None), &b).unwrap();
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
    assert_eq!(r.unexplained.len(), 1, "{:?}", r.unexplained);
    let u = &r.unexplained[0];
    assert_eq!(u.cause, UnexplainedCause::OnlyInOneTree);
    assert!(is_extra(&u.a));
    // The decision still brings its own kernel, and only that.
    assert_eq!(kernels(&r).len(), 1);
    assert_eq!(kernels(&r)[0].0, PAD_KERNEL);
}

/// The same extra kernel, with a header in the output code whose source
/// node (`h`, the first convolution, which reads the model's input and
/// not the decided matmul) does not descend from the decided op: still
/// unexplained, and so are the output-code lines that define it.
#[test]
fn an_extra_kernel_whose_source_nodes_do_not_descend_from_the_decided_op_stays_unexplained() {
    let (a, b) = session4();
    let r = diff_sides(&with_extra_kernel(&a, Some("h => convolution")), &b).unwrap();
    assert_eq!(r.verdict, DeterminismVerdict::Unexplained);
    assert_eq!(kernels(&r).len(), 1, "{:?}", kernels(&r));
    let extra = r.unexplained.iter().find(|u| is_extra(&u.a)).unwrap();
    assert_eq!(extra.cause, UnexplainedCause::OnlyInOneTree);
    let code = r
        .unexplained
        .iter()
        .find(|u| u.a.as_deref().is_some_and(|p| p.ends_with(OUTPUT_CODE)))
        .unwrap();
    assert_eq!(code.cause, UnexplainedCause::TextLines);
    assert!(code
        .lines
        .iter()
        .any(|l| l.text_a.as_deref() == Some("#   h => convolution")));
}

/// The control: the same kernel, its header saying it computes part of
/// the decided matmul (`linear_1 => add_tensor_1`), is the decision's,
/// and so are the lines that define it.
#[test]
fn an_extra_kernel_the_graph_links_to_the_decided_op_is_the_decisions() {
    let (a, b) = session4();
    let r = diff_sides(&with_extra_kernel(&a, Some("linear_1 => add_tensor_1")), &b).unwrap();
    assert_eq!(
        r.verdict,
        DeterminismVerdict::DecisionsFlipped,
        "{:?}",
        r.unexplained
    );
    assert_eq!(
        kernels(&r)[0],
        (
            EXTRA.to_owned(),
            KernelPresence::OnlyA,
            GraphLink::ComputesDecidedOp
        )
    );
    let extra = r.file_diffs.iter().find(|f| is_extra(&f.a)).unwrap();
    assert_eq!(extra.class, DiffClass::Decision);
}
