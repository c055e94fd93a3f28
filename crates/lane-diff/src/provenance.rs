//! Where each Triton kernel of a dynamo cell comes from, and which kernels
//! a flipped pad_mm decision brings.
//!
//! Inductor's output code says, above each kernel it defines, which nodes
//! of the traced program the kernel computes and what they became:
//!
//! ```text
//! # kernel path: .../qp/cqpuscvrbjucdw52k2kg7zh2wfkquz2447rqkxt4si4puvfuw6uw.py
//! # Topologically Sorted Source Nodes: [linear, silu, linear_1], Original ATen: [aten.addmm, aten.silu]
//! # Source node to ATen node mapping:
//! #   linear => add_tensor_2
//! #   linear_1 => constant_pad_nd_default
//! #   silu => add_1, div, exp_1, neg_1
//! # Graph fragment:
//! #   %div : Tensor "f32[2, 128][128, 1]cuda:0" = PlaceHolder[target=div]
//! #   %constant_pad_nd_default : Tensor "f32[4, 128][128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%div, [0, 0, 0, 2]), kwargs = {})
//! #   return %constant_pad_nd_default
//! triton_poi_fused_addmm_silu_4 = async_compile.triton('triton_poi_fused_addmm_silu_4', '''
//! ```
//!
//! The source nodes (`linear_1`) are the traced program's, the same in two
//! mints of one cell; the ATen nodes are what each became after inductor's
//! passes. pad_mm (torch's `_inductor/fx_passes/pad_mm.py`) swaps a matmul
//! for a padded one by pattern replacement, and the nodes it adds keep the
//! replaced node's source node: the pad of an operand
//! (`constant_pad_nd_default`), the matmul on the padded operands, the
//! slice back to the unpadded result (`slice_tensor`). So a flipped
//! decision's **decided source nodes** are those that, on the padding side
//! only, became a pad node, where one of those pad nodes has the shape of
//! one of the decision's operands padded (each padded dimension the
//! operand's rounded up to a power-of-two alignment).
//!
//! A kernel that exists on one side only, or whose code changed, is
//! brought by the decision when the graph links it to a decided source
//! node (never by its name):
//!
//! 1. **computes**: its mapping names a decided source node: it computes
//!    part of the decided matmul (the pad, the bias add, the slice, fused
//!    with what surrounds them);
//! 2. **reads**: its fragment reads a node that a decided source node
//!    became on its side (the matmul's result) without computing it;
//! 3. **fused counterpart**: it exists on one side only, and its source
//!    nodes less the decided ones are, and are not empty, those of a kernel
//!    only the other side has that 1 or 2 link: the same kernel, with the
//!    decided matmul's slice fused in on one side
//!    (`triton_per_fused__softmax_amax_bmm_mul_sub_10` against
//!    `triton_per_fused__softmax_amax_mul_sub_9`).
//!
//! A kernel with no such link (no header, or source nodes upstream of or
//! beside the decided matmul) is not the decision's, whatever its name.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use regex::Regex;

use super::model::{DecisionKernel, GraphLink, KernelPresence};
use super::padmm::{is_pad_name, PadRule};
use super::pairing::text_of;
use super::renumber::Renames;
use super::text::py_kernel_re;
use super::ArtifactTree;

/// What the output code says about one kernel.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct KernelOrigin {
    /// Source node -> the ATen nodes it became in this kernel.
    pub(crate) sources: BTreeMap<String, Vec<String>>,
    /// Nodes the fragment computes, with their shape where it states one.
    shapes: BTreeMap<String, Vec<u64>>,
    /// Nodes the fragment computes.
    defines: BTreeSet<String>,
    /// Nodes the fragment reads and does not compute.
    reads: BTreeSet<String>,
}

impl KernelOrigin {
    fn merge(&mut self, other: KernelOrigin) {
        for (s, nodes) in other.sources {
            let e = self.sources.entry(s).or_default();
            for n in nodes {
                if !e.contains(&n) {
                    e.push(n);
                }
            }
        }
        self.shapes.extend(other.shapes);
        self.defines.extend(other.defines);
        self.reads.extend(other.reads);
        self.reads.retain(|n| !self.defines.contains(n));
    }
}

/// Every kernel's origin in one tree's output code, by the kernel's name.
#[derive(Debug, Default)]
pub(crate) struct Origins {
    kernels: BTreeMap<String, KernelOrigin>,
}

fn node_ref_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"%(\w+)").expect("static regex"))
}

/// The shape a fragment line states: `Tensor "f32[4, 128][128, 1]cuda:0"`.
fn shape_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r#"^Tensor "\w+\[([\d, ]*)\]"#).expect("static regex"))
}

#[derive(Clone, Copy, PartialEq)]
enum Part {
    Head,
    Mapping,
    Fragment,
}

impl Origins {
    /// Reads every output code of `tree` (a loaded `.py` that defines
    /// kernels with `async_compile.triton`). A kernel named in two output
    /// codes (two graphs) has the union of both.
    pub(crate) fn of(tree: &ArtifactTree) -> Self {
        let mut kernels = BTreeMap::new();
        for f in tree.files.iter().filter(|f| f.path.ends_with(".py")) {
            if let Some(text) = text_of(f).filter(|t| t.contains("async_compile.triton(")) {
                parse(text, &mut kernels);
            }
        }
        Origins { kernels }
    }

    fn get(&self, kernel: &str) -> Option<&KernelOrigin> {
        self.kernels.get(kernel)
    }

    /// The pad nodes a source node became in any kernel.
    fn pad_nodes(&self, source: &str) -> BTreeSet<&str> {
        self.kernels
            .values()
            .filter_map(|o| o.sources.get(source))
            .flatten()
            .map(String::as_str)
            .filter(|n| is_pad_name(n))
            .collect()
    }

    fn shape(&self, node: &str) -> Option<&[u64]> {
        self.kernels
            .values()
            .find_map(|o| o.shapes.get(node).map(Vec::as_slice))
    }

    /// What the source nodes `decided` became on this side, with the
    /// source node each came from.
    fn became(&self, decided: &BTreeSet<String>) -> BTreeMap<&str, &str> {
        let mut out = BTreeMap::new();
        for o in self.kernels.values() {
            for (s, nodes) in o.sources.iter().filter(|(s, _)| decided.contains(*s)) {
                for n in nodes {
                    out.insert(n.as_str(), s.as_str());
                }
            }
        }
        out
    }
}

fn parse(text: &str, into: &mut BTreeMap<String, KernelOrigin>) {
    let mut cur: Option<KernelOrigin> = None;
    let mut refs: BTreeSet<String> = BTreeSet::new();
    let mut part = Part::Head;
    for line in text.lines() {
        let t = line.trim_end();
        if t.starts_with("# Topologically Sorted Source Nodes:") {
            cur = Some(KernelOrigin::default());
            refs.clear();
            part = Part::Head;
            continue;
        }
        let Some(o) = cur.as_mut() else { continue };
        if let Some(c) = py_kernel_re().captures(t) {
            let mut done = cur.take().unwrap_or_default();
            done.reads.extend(std::mem::take(&mut refs));
            done.reads.retain(|n| !done.defines.contains(n));
            into.entry(c[1].to_owned()).or_default().merge(done);
            continue;
        }
        let Some(body) = t.strip_prefix('#') else {
            // Anything but a comment ends a header that names no kernel.
            cur = None;
            continue;
        };
        let body = body.trim_start();
        match body {
            "Source node to ATen node mapping:" => part = Part::Mapping,
            "Graph fragment:" => part = Part::Fragment,
            _ => match part {
                Part::Mapping => {
                    if let Some((s, nodes)) = body.split_once(" => ") {
                        let nodes = nodes.split(',').map(|n| n.trim().to_owned());
                        o.sources
                            .entry(s.trim().to_owned())
                            .or_default()
                            .extend(nodes.filter(|n| !n.is_empty()));
                    }
                }
                Part::Fragment => fragment_line(body, o, &mut refs),
                Part::Head => {}
            },
        }
    }
}

/// One node of a graph fragment: `%x : <type> = PlaceHolder[target=y]`
/// (read), or `%x : <type> = call_function[...](args = (%a, ...))`
/// (computed, reading its arguments).
fn fragment_line(body: &str, o: &mut KernelOrigin, refs: &mut BTreeSet<String>) {
    let Some((name, rest)) = body.strip_prefix('%').and_then(|r| r.split_once(" : ")) else {
        return;
    };
    if let Some(at) = rest.find("= PlaceHolder[target=") {
        let target: String = rest[at + "= PlaceHolder[target=".len()..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if !target.is_empty() {
            o.reads.insert(target);
        }
    } else if let Some(at) = rest.find("= call_function[") {
        o.defines.insert(name.to_owned());
        let shape = shape_re().captures(rest).and_then(|c| {
            c[1].split(',')
                .map(|d| d.trim().parse::<u64>().ok())
                .collect::<Option<Vec<u64>>>()
        });
        if let Some(s) = shape {
            o.shapes.insert(name.to_owned(), s);
        }
        for c in node_ref_re().captures_iter(&rest[at..]) {
            refs.insert(c[1].to_owned());
        }
    }
}

/// One side's kernels the decision may have brought: one-sided or changed.
struct Side<'o> {
    name: &'static str,
    origins: &'o Origins,
    /// (own name, A's name, presence).
    candidates: Vec<(String, String, KernelPresence)>,
}

/// The kernels a flipped pad_mm decision brings (see the module
/// documentation), A's names first; B's kernels that only B has keep
/// their own names.
pub(crate) fn decision_kernels(
    rule: &PadRule,
    oa: &Origins,
    ob: &Origins,
    r: &Renames,
) -> (Vec<String>, Vec<DecisionKernel>) {
    let a_to_b: BTreeMap<&str, &str> = r
        .b_to_a
        .iter()
        .map(|(b, a)| (a.as_str(), b.as_str()))
        .collect();
    let side_a = Side {
        name: "A",
        origins: oa,
        candidates: r
            .only_a
            .iter()
            .map(|k| (k.clone(), k.clone(), KernelPresence::OnlyA))
            .chain(
                r.changed
                    .iter()
                    .map(|k| (k.clone(), k.clone(), KernelPresence::CodeChanged)),
            )
            .collect(),
    };
    let side_b = Side {
        name: "B",
        origins: ob,
        candidates: r
            .only_b
            .iter()
            .map(|k| (k.clone(), k.clone(), KernelPresence::OnlyB))
            .chain(r.changed.iter().map(|k| {
                let own = a_to_b.get(k.as_str()).map_or(k.as_str(), |b| *b);
                (own.to_owned(), k.clone(), KernelPresence::CodeChanged)
            }))
            .collect(),
    };
    let (pad, other) = if rule.pads_a() {
        (&side_a, &side_b)
    } else {
        (&side_b, &side_a)
    };
    let decided = decided_sources(rule, pad.origins, other.origins);
    if decided.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let mut found: BTreeMap<String, DecisionKernel> = BTreeMap::new();
    // Rules 1 and 2, on each side.
    let mut linked: Vec<(&Side<'_>, &str)> = Vec::new();
    for side in [&side_a, &side_b] {
        let became = side.origins.became(&decided);
        for (own, canon, presence) in &side.candidates {
            if found.contains_key(canon) {
                continue;
            }
            let Some(o) = side.origins.get(own) else {
                continue;
            };
            let computes: Vec<String> = o
                .sources
                .iter()
                .filter(|(s, _)| decided.contains(*s))
                .map(|(s, nodes)| format!("{s} => {}", nodes.join(", ")))
                .collect();
            let (link, evidence) = if !computes.is_empty() {
                (
                    GraphLink::ComputesDecidedOp,
                    format!(
                        "{}'s {own} computes the decided matmul: {}",
                        side.name,
                        computes.join("; ")
                    ),
                )
            } else if let Some((n, s)) = o
                .reads
                .iter()
                .find_map(|n| became.get(n.as_str()).map(|s| (n, *s)))
            {
                (
                    GraphLink::ReadsDecidedOp,
                    format!("{}'s {own} reads {n}, which {s} became", side.name),
                )
            } else {
                continue;
            };
            linked.push((side, own.as_str()));
            found.insert(
                canon.clone(),
                DecisionKernel {
                    kernel: canon.clone(),
                    presence: *presence,
                    link,
                    evidence,
                },
            );
        }
    }
    // Rule 3: a one-sided kernel that is a linked one-sided kernel of the
    // other side with the decided nodes left out.
    let rest = |o: &KernelOrigin| -> BTreeSet<String> {
        o.sources
            .keys()
            .filter(|s| !decided.contains(*s))
            .cloned()
            .collect()
    };
    for (side, twin_side) in [(&side_a, &side_b), (&side_b, &side_a)] {
        for (own, canon, presence) in &side.candidates {
            if *presence == KernelPresence::CodeChanged || found.contains_key(canon) {
                continue;
            }
            let Some(mine) = side.origins.get(own).map(rest).filter(|s| !s.is_empty()) else {
                continue;
            };
            let twin = linked.iter().find(|(s, k)| {
                std::ptr::eq(*s, twin_side)
                    && twin_side
                        .candidates
                        .iter()
                        .any(|(o, _, p)| o == k && *p != KernelPresence::CodeChanged)
                    && twin_side.origins.get(k).map(rest).as_ref() == Some(&mine)
            });
            if let Some((_, k)) = twin {
                found.insert(
                    canon.clone(),
                    DecisionKernel {
                        kernel: canon.clone(),
                        presence: *presence,
                        link: GraphLink::FusedCounterpart,
                        evidence: format!(
                            "{}'s {own} computes what {}'s {k} does ({}) without the decided matmul",
                            side.name,
                            twin_side.name,
                            mine.iter().cloned().collect::<Vec<_>>().join(", ")
                        ),
                    },
                );
            }
        }
    }
    (decided.into_iter().collect(), found.into_values().collect())
}

/// The source nodes a flipped decision pads: on the padding side only,
/// they became a pad node, one of which has the shape of an operand of the
/// decision padded.
fn decided_sources(rule: &PadRule, pad: &Origins, other: &Origins) -> BTreeSet<String> {
    let sources: BTreeSet<&String> = pad
        .kernels
        .values()
        .flat_map(|o| o.sources.keys())
        .collect();
    sources
        .into_iter()
        .filter(|s| {
            let nodes = pad.pad_nodes(s);
            !nodes.is_empty()
                && other.pad_nodes(s).is_empty()
                && nodes.iter().any(|n| {
                    pad.shape(n)
                        .is_some_and(|shape| rule.pads_an_operand(shape))
                })
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = r#"# kernel path: rig/capture/inductor/qp/cqpuscvrbjucdw52k2kg7zh2wfkquz2447rqkxt4si4puvfuw6uw.py
# Topologically Sorted Source Nodes: [linear, silu, linear_1], Original ATen: [aten.addmm, aten.silu]
# Source node to ATen node mapping:
#   linear => add_tensor_2
#   linear_1 => constant_pad_nd_default
#   silu => add_1, div, exp_1, neg_1
# Graph fragment:
#   %div : Tensor "f32[2, 128][128, 1]cuda:0" = PlaceHolder[target=div]
#   %add_tensor_2 : Tensor "f32[2, 128][128, 1]cuda:0"[num_users=2] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg5_1, %mm_default_2), kwargs = {})
#   %var_mean : [num_users=2] = call_function[target=torch.ops.aten.var_mean.correction](args = (%view, [2, 3]), kwargs = {correction: 0, keepdim: True})
#   %constant_pad_nd_default : Tensor "f32[4, 128][128, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%div, [0, 0, 0, 2]), kwargs = {})
#   return %constant_pad_nd_default
triton_poi_fused_addmm_silu_4 = async_compile.triton('triton_poi_fused_addmm_silu_4', '''
"#;

    #[test]
    fn a_kernels_header_is_read_as_its_origin() {
        let mut k = BTreeMap::new();
        parse(HEADER, &mut k);
        let o = &k["triton_poi_fused_addmm_silu_4"];
        assert_eq!(o.sources["linear_1"], ["constant_pad_nd_default"]);
        assert_eq!(o.sources["silu"], ["add_1", "div", "exp_1", "neg_1"]);
        assert_eq!(o.shapes["constant_pad_nd_default"], [4, 128]);
        assert!(!o.shapes.contains_key("var_mean"));
        // Read: the placeholder and arguments it does not compute.
        let reads: Vec<&str> = o.reads.iter().map(String::as_str).collect();
        assert_eq!(reads, ["arg5_1", "div", "mm_default_2", "view"]);
    }

    #[test]
    fn a_header_cut_by_code_names_no_kernel() {
        let cut = HEADER.replace("# Graph fragment:", "x = 1\n# Graph fragment:");
        let mut k = BTreeMap::new();
        parse(&cut, &mut k);
        assert!(k.is_empty(), "{k:?}");
    }

    /// A padded bmm, as inductor writes it on the padding side: the pad
    /// of the operand, the slice fused into the softmax that follows, a
    /// kernel reading the slice, and one beside the matmul whose name
    /// fuses `bmm` (the graph does not link it).
    const PADS: &str = r#"# Topologically Sorted Source Nodes: [matmul], Original ATen: [aten.bmm]
# Source node to ATen node mapping:
#   matmul => constant_pad_nd_default
# Graph fragment:
#   %arg0_1 : Tensor "f32[2, 256, 77][19712, 77, 1]cuda:0" = PlaceHolder[target=arg0_1]
#   %constant_pad_nd_default : Tensor "f32[2, 256, 80][20480, 80, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.constant_pad_nd.default](args = (%arg0_1, [0, 3]), kwargs = {})
#   return %constant_pad_nd_default
triton_poi_fused_bmm_9 = async_compile.triton('triton_poi_fused_bmm_9', '''
''', device_str='cuda')
# Topologically Sorted Source Nodes: [matmul, mul, softmax], Original ATen: [aten.bmm, aten.mul, aten._softmax]
# Source node to ATen node mapping:
#   matmul => slice_tensor
#   mul => mul
#   softmax => amax, sub
# Graph fragment:
#   %bmm_default : Tensor "f32[2, 256, 64][16384, 64, 1]cuda:0" = PlaceHolder[target=bmm_default]
#   %slice_tensor : Tensor "f32[2, 256, 61][16384, 64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%bmm_default, 2, 0, -3), kwargs = {})
#   %mul : Tensor "f32[2, 256, 61][15616, 61, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%slice_tensor, 0.125), kwargs = {})
#   return %mul
triton_per_fused__softmax_amax_bmm_mul_sub_10 = async_compile.triton('triton_per_fused__softmax_amax_bmm_mul_sub_10', '''
''', device_str='cuda')
# Topologically Sorted Source Nodes: [out], Original ATen: [aten.clone]
# Source node to ATen node mapping:
#   out => clone
# Graph fragment:
#   %slice_tensor : Tensor "f32[2, 256, 61][16384, 64, 1]cuda:0" = PlaceHolder[target=slice_tensor]
#   %clone : Tensor "f32[2, 256, 61][15616, 61, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%slice_tensor,), kwargs = {})
#   return %clone
triton_poi_fused_clone_11 = async_compile.triton('triton_poi_fused_clone_11', '''
''', device_str='cuda')
# Topologically Sorted Source Nodes: [h], Original ATen: [aten.convolution]
# Source node to ATen node mapping:
#   h => convolution
# Graph fragment:
#   %convolution : Tensor "f32[2, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.convolution.default](args = (%arg2_1, %arg0_1), kwargs = {})
#   return %convolution
triton_poi_fused_addmm_bmm_convolution_12 = async_compile.triton('triton_poi_fused_addmm_bmm_convolution_12', '''
"#;

    /// The same program where the bmm is not padded.
    const PLAIN: &str = r#"# Topologically Sorted Source Nodes: [mul, softmax], Original ATen: [aten.mul, aten._softmax]
# Source node to ATen node mapping:
#   mul => mul
#   softmax => amax, sub
# Graph fragment:
#   %bmm : Tensor "f32[2, 256, 61][15616, 61, 1]cuda:0" = PlaceHolder[target=bmm]
#   %mul : Tensor "f32[2, 256, 61][15616, 61, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%bmm, 0.125), kwargs = {})
#   return %mul
triton_per_fused__softmax_amax_mul_sub_9 = async_compile.triton('triton_per_fused__softmax_amax_mul_sub_9', '''
"#;

    fn origins(text: &str) -> Origins {
        let mut kernels = BTreeMap::new();
        parse(text, &mut kernels);
        Origins { kernels }
    }

    fn bmm_rule(side: &'static str, shapes: &[&str]) -> PadRule {
        crate::padmm::rule_for_test("aten.bmm", side, shapes)
    }

    fn renames(only_a: &[&str], only_b: &[&str]) -> Renames {
        let mut r = Renames::default();
        r.only_a = only_a.iter().map(|k| (*k).to_owned()).collect();
        r.only_b = only_b.iter().map(|k| (*k).to_owned()).collect();
        r
    }

    const ONLY_A: [&str; 4] = [
        "triton_poi_fused_bmm_9",
        "triton_per_fused__softmax_amax_bmm_mul_sub_10",
        "triton_poi_fused_clone_11",
        "triton_poi_fused_addmm_bmm_convolution_12",
    ];
    const ONLY_B: [&str; 1] = ["triton_per_fused__softmax_amax_mul_sub_9"];

    #[test]
    fn each_graph_link_brings_its_kernel_and_a_name_alone_brings_none() {
        let rule = bmm_rule("A", &["[2, 256, 77]", "[2, 77, 64]"]);
        let (oa, ob) = (origins(PADS), origins(PLAIN));
        let (decided, found) = decision_kernels(&rule, &oa, &ob, &renames(&ONLY_A, &ONLY_B));
        assert_eq!(decided, ["matmul"]);
        let got: Vec<(&str, KernelPresence, GraphLink)> = found
            .iter()
            .map(|k| (k.kernel.as_str(), k.presence, k.link))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "triton_per_fused__softmax_amax_bmm_mul_sub_10",
                    KernelPresence::OnlyA,
                    GraphLink::ComputesDecidedOp
                ),
                (
                    "triton_per_fused__softmax_amax_mul_sub_9",
                    KernelPresence::OnlyB,
                    GraphLink::FusedCounterpart
                ),
                (
                    "triton_poi_fused_bmm_9",
                    KernelPresence::OnlyA,
                    GraphLink::ComputesDecidedOp
                ),
                (
                    "triton_poi_fused_clone_11",
                    KernelPresence::OnlyA,
                    GraphLink::ReadsDecidedOp
                ),
            ]
        );
        assert_eq!(
            found[1].evidence,
            "B's triton_per_fused__softmax_amax_mul_sub_9 computes what A's triton_per_fused__softmax_amax_bmm_mul_sub_10 does (mul, softmax) without the decided matmul"
        );
        assert_eq!(
            found[3].evidence,
            "A's triton_poi_fused_clone_11 reads slice_tensor, which matmul became"
        );
    }

    #[test]
    fn a_pad_that_no_operand_explains_or_both_sides_make_decides_nothing() {
        let r = renames(&ONLY_A, &ONLY_B);
        // [2, 256, 80] pads no operand of a [2, 256, 50] x [2, 50, 64] bmm.
        let other = bmm_rule("A", &["[2, 256, 50]", "[2, 50, 64]"]);
        let (decided, found) = decision_kernels(&other, &origins(PADS), &origins(PLAIN), &r);
        assert!(decided.is_empty() && found.is_empty(), "{found:?}");
        // Both sides pad `matmul`: that pad did not flip.
        let rule = bmm_rule("A", &["[2, 256, 77]", "[2, 77, 64]"]);
        let (decided, found) = decision_kernels(&rule, &origins(PADS), &origins(PADS), &r);
        assert!(decided.is_empty() && found.is_empty(), "{found:?}");
        // The decision says B pads: B's graph has no pad node.
        let b_pads = bmm_rule("B", &["[2, 256, 77]", "[2, 77, 64]"]);
        let (decided, _) = decision_kernels(&b_pads, &origins(PADS), &origins(PLAIN), &r);
        assert!(decided.is_empty());
    }
}
