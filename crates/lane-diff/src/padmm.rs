//! Output-code lines that a flipped pad_mm decision predicts, line by line.
//!
//! When inductor's pad_mm pass pads a matmul (`fx_passes/pad_mm.py`), the
//! padding side's graph computes the matmul on a padded operand
//! (`aten.constant_pad_nd`), so the nodes after it carry the padded size
//! (`f32[4, 64]` where the other side has `f32[2, 64]`), and the pad is
//! sliced off again (`aten.slice.Tensor`, named `slice_tensor`) before the
//! result is used. A differing line is put down to the decision only when
//! it is one of these, checked against the decision's operand shapes:
//!
//! 1. **shape**: the two lines are equal but for integer lists (`[4, 64]`,
//!    `(4, 64)`; buffer names masked) and every list that differs is a
//!    padding: same rank, one dimension differs, the padding side's is
//!    larger and is the other's rounded up to a power-of-two alignment (at
//!    most [`MAX_ALIGNMENT`]), and the other's is one of the decision's
//!    operand dimensions;
//! 2. **consumer**: the padding side's line uses a pad node (`%slice_tensor`)
//!    where the other side's uses the tensor it slices or pads
//!    (`%add_tensor_1`), the rest equal or differing by shapes as in 1;
//! 3. **provenance**: an FX comment `linear_1 => add_tensor_1,
//!    slice_tensor` that is the other side's once the pad nodes are dropped;
//! 4. **the pad's own nodes**, on the padding side only: their definitions
//!    (`%slice_tensor : ... = call_function[target=torch.ops.aten.slice.Tensor]`,
//!    `constant_pad_nd`, or a `PlaceHolder` of one), a provenance comment or
//!    `return` that lists only pad nodes;
//! 5. **`del bufN`** on the padding side only (a buffer freed early because
//!    of the pad), only in a file where rules 1-4 attributed a line.
//!
//! A line of the non-padding side must be matched by rules 1-3 to a line of
//! the padding side; a row is attributed only when both its lines are.
//! Anything else stays unexplained.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use regex::Regex;

use super::model::{DecisionDiff, WrapperLine};
use super::text::LineRole;

/// The largest alignment a padded dimension is rounded up to.
pub(crate) const MAX_ALIGNMENT: u64 = 64;

/// What one flipped pad_mm decision predicts.
pub(crate) struct PadRule {
    /// Whether A is the side that pads.
    pad_a: bool,
    /// Every dimension of the decision's operand shapes.
    dims: BTreeSet<u64>,
    /// The operand shapes themselves.
    shapes: Vec<Vec<u64>>,
    /// "the pad_mm decision on aten.addmm (A pads)".
    pub(crate) label: String,
}

fn re(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("static regex"))
}

/// Inductor's names for the pad_mm pass's own nodes.
fn pad_name_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(
        &RE,
        r"^(?:slice_tensor|constant_pad_nd_default|constant_pad_nd|pad_tensor)(?:_\d+)?$",
    )
}

pub(crate) fn is_pad_name(name: &str) -> bool {
    pad_name_re().is_match(name)
}

/// `%X : ... = call_function[target=torch.ops.aten.slice.Tensor](args = (%Y, ...`
fn pad_def_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(
        &RE,
        r"^#?\s*%(\w+) : .*= call_function\[target=torch\.ops\.aten\.(?:slice\.Tensor|constant_pad_nd\.default)\]\(args = \(%(\w+)\b",
    )
}

fn placeholder_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"^#?\s*%(\w+) : .*= PlaceHolder\[target=(\w+)\]$")
}

fn provenance_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"^#\s+(\w+) => (.+)$")
}

fn return_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"^#?\s*return (%\w+(?:\s*,\s*%\w+)*)$")
}

fn del_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"^del buf\d+$")
}

/// An integer list: `[4, 64]` or a tuple of two or more `(4, 64)`.
fn list_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(
        &RE,
        r"\[\s*(\d+(?:\s*,\s*\d+)*)\s*\]|\(\s*(\d+(?:\s*,\s*\d+)+)\s*,?\s*\)",
    )
}

fn buffer_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    re(&RE, r"\bbuf\d+\b")
}

fn ints(s: &str) -> Option<Vec<u64>> {
    s.split(',').map(|x| x.trim().parse().ok()).collect()
}

/// The line with its integer lists cut out and buffers masked, and the lists.
fn skeleton(text: &str) -> (String, Vec<Vec<u64>>) {
    let mut lists = Vec::new();
    let cut = list_re().replace_all(text, |c: &regex::Captures<'_>| {
        let body = c.get(1).or_else(|| c.get(2)).map_or("", |m| m.as_str());
        lists.push(ints(body).unwrap_or_default());
        "\u{0}"
    });
    (buffer_re().replace_all(&cut, "buf#").into_owned(), lists)
}

fn pad_names(list: &str) -> Vec<&str> {
    list.split(',').map(str::trim).collect()
}

impl PadRule {
    /// The rule of a flipped pad_mm decision; `None` for any other.
    pub(crate) fn of(d: &DecisionDiff) -> Option<Self> {
        let side = d.padded_side?;
        let op = d.graph_op.as_deref()?;
        let shapes = d.decided_on.get("operand_shapes")?.as_array()?;
        let mut dims = BTreeSet::new();
        let mut operands = Vec::new();
        for s in shapes {
            let s = s.as_str()?.trim().strip_prefix('[')?.strip_suffix(']')?;
            if !s.trim().is_empty() {
                let shape = ints(s)?;
                dims.extend(shape.iter().copied());
                operands.push(shape);
            }
        }
        if dims.is_empty() {
            return None;
        }
        Some(PadRule {
            pad_a: side == "A",
            dims,
            shapes: operands,
            label: format!("the pad_mm decision on {op} ({side} pads)"),
        })
    }

    /// Whether A is the side that pads.
    pub(crate) fn pads_a(&self) -> bool {
        self.pad_a
    }

    /// Whether `p` is the operand dimension `u` padded as the decision
    /// would: larger, and `u` rounded up to a power-of-two alignment.
    fn padded_dim(&self, p: u64, u: u64) -> bool {
        if p <= u || !self.dims.contains(&u) {
            return false;
        }
        let mut align = 2;
        while align <= MAX_ALIGNMENT {
            if u.div_ceil(align) * align == p {
                return true;
            }
            align *= 2;
        }
        false
    }

    /// Whether `shape` is one of the decision's operands with one or more
    /// dimensions padded (inductor pads m, k and n as each needs): the
    /// shape of the pad node the padding side's graph gains.
    pub(crate) fn pads_an_operand(&self, shape: &[u64]) -> bool {
        self.shapes.iter().any(|o| {
            o.len() == shape.len()
                && shape.iter().zip(o).any(|(p, u)| p != u)
                && shape
                    .iter()
                    .zip(o)
                    .all(|(&p, &u)| p == u || self.padded_dim(p, u))
        })
    }

    /// Whether `padded` is `unpadded` with one dimension padded as the
    /// decision would.
    fn is_padding(&self, padded: &[u64], unpadded: &[u64]) -> bool {
        if padded.len() != unpadded.len() {
            return false;
        }
        let mut differing = padded.iter().zip(unpadded).filter(|(p, u)| p != u);
        let Some((&p, &u)) = differing.next() else {
            return false;
        };
        differing.next().is_none() && self.padded_dim(p, u)
    }

    /// Rule 1: equal but for integer lists, each that differs a padding.
    fn shapes_padded(&self, pad: &str, other: &str) -> bool {
        let (sp, lp) = skeleton(pad);
        let (so, lo) = skeleton(other);
        if sp != so || lp.len() != lo.len() {
            return false;
        }
        let mut any = false;
        for (p, o) in lp.iter().zip(&lo) {
            if p != o {
                if !self.is_padding(p, o) {
                    return false;
                }
                any = true;
            }
        }
        any
    }

    /// Rules 1-3: the padding side's line `pad` is the other side's `other`
    /// as the decision predicts.
    fn related(&self, pad: &str, other: &str, sources: &BTreeMap<String, String>) -> bool {
        if self.shapes_padded(pad, other) {
            return true;
        }
        // Rule 2: the pad node used where the other side uses its source.
        let mut used = pad.to_owned();
        for (name, source) in sources {
            let at = Regex::new(&format!(r"%{}\b", regex::escape(name))).expect("escaped regex");
            used = at
                .replace_all(&used, format!("%{source}").as_str())
                .into_owned();
        }
        if used != pad
            && (buffer_re().replace_all(&used, "buf#") == buffer_re().replace_all(other, "buf#")
                || self.shapes_padded(&used, other))
        {
            return true;
        }
        // Rule 3: a provenance comment less its pad nodes.
        match (
            provenance_re().captures(pad),
            provenance_re().captures(other),
        ) {
            (Some(p), Some(o)) if p[1] == o[1] => {
                let listed = pad_names(&p[2]);
                let kept: Vec<&str> = listed.iter().copied().filter(|n| !is_pad_name(n)).collect();
                kept.len() < listed.len() && kept == pad_names(&o[2])
            }
            _ => false,
        }
    }

    /// Rule 4: a line of the pad's own nodes (padding side only).
    fn pad_own(&self, text: &str) -> bool {
        if let Some(c) = pad_def_re().captures(text) {
            return is_pad_name(&c[1]);
        }
        if let Some(c) = placeholder_re().captures(text) {
            return c[1] == c[2] && is_pad_name(&c[1]);
        }
        if let Some(c) = provenance_re().captures(text) {
            return pad_names(&c[2]).iter().all(|n| is_pad_name(n));
        }
        if let Some(c) = return_re().captures(text) {
            return c[1]
                .split(',')
                .all(|n| is_pad_name(n.trim().trim_start_matches('%')));
        }
        false
    }

    /// Splits the differing lines of one file into those the decision
    /// explains (role [`LineRole::PadMm`]) and the rest, in order.
    pub(crate) fn attribute(
        &self,
        lines: Vec<WrapperLine>,
    ) -> (Vec<WrapperLine>, Vec<WrapperLine>) {
        let half = |l: &WrapperLine, pad: bool| -> Option<String> {
            if pad == self.pad_a {
                l.text_a.clone()
            } else {
                l.text_b.clone()
            }
        };
        let pads: Vec<Option<String>> = lines.iter().map(|l| half(l, true)).collect();
        let others: Vec<Option<String>> = lines.iter().map(|l| half(l, false)).collect();
        // The pad nodes these lines define, with the tensor each pads or slices.
        let sources: BTreeMap<String, String> = pads
            .iter()
            .flatten()
            .filter_map(|t| pad_def_re().captures(t))
            .filter(|c| is_pad_name(&c[1]))
            .map(|c| (c[1].to_owned(), c[2].to_owned()))
            .collect();
        let mut pad_ok = vec![false; lines.len()];
        let mut other_ok = vec![false; lines.len()];
        let mut found = false;
        for (i, o) in others.iter().enumerate() {
            let Some(o) = o else { continue };
            let hit = pads.iter().enumerate().position(|(j, p)| {
                !pad_ok[j] && p.as_deref().is_some_and(|p| self.related(p, o, &sources))
            });
            if let Some(j) = hit {
                pad_ok[j] = true;
                other_ok[i] = true;
                found = true;
            }
        }
        for (j, p) in pads.iter().enumerate() {
            if !pad_ok[j] && p.as_deref().is_some_and(|p| self.pad_own(p)) {
                pad_ok[j] = true;
                found = true;
            }
        }
        if found {
            for (j, p) in pads.iter().enumerate() {
                if !pad_ok[j] && p.as_deref().is_some_and(|p| del_re().is_match(p)) {
                    pad_ok[j] = true;
                }
            }
        }
        let mut hit = Vec::new();
        let mut left = Vec::new();
        for (i, mut l) in lines.into_iter().enumerate() {
            let ok = (pads[i].is_none() || pad_ok[i]) && (others[i].is_none() || other_ok[i]);
            if ok && found {
                l.role = LineRole::PadMm;
                hit.push(l);
            } else {
                left.push(l);
            }
        }
        (hit, left)
    }
}

/// The rule of a pad_mm decision on `op` with these operand shapes,
/// padded by `side`, for tests.
#[cfg(test)]
pub(crate) fn rule_for_test(op: &str, side: &'static str, shapes: &[&str]) -> PadRule {
    let mut decided_on = BTreeMap::new();
    decided_on.insert("operand_shapes".to_owned(), serde_json::json!(shapes));
    PadRule::of(&DecisionDiff {
        file: "inductor/cache/h".into(),
        path: "$.cache".into(),
        headline: String::new(),
        what: None,
        changed: Vec::new(),
        winner_a: None,
        winner_b: None,
        decided_on,
        meaning: Vec::new(),
        graph_op: Some(op.into()),
        padded_side: Some(side),
        source_nodes: Vec::new(),
        kernels: Vec::new(),
        lines: Vec::new(),
    })
    .expect("a pad_mm decision")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(side: &'static str) -> PadRule {
        rule_for_test("aten.addmm", side, &["[2, 128]", "[128, 64]", "[64]"])
    }

    fn row(a: Option<&str>, b: Option<&str>) -> WrapperLine {
        WrapperLine {
            file: "inductor/rf/c.py".into(),
            role: LineRole::Other,
            kernel: None,
            line_a: a.map(|_| 1),
            line_b: b.map(|_| 1),
            text_a: a.map(str::to_owned),
            text_b: b.map(str::to_owned),
            agrees_with_config: None,
        }
    }

    const PROV_A: &str = "#   linear_1 => add_tensor_1, slice_tensor";
    const PROV_B: &str = "#   linear_1 => add_tensor_1";
    const MM_A: &str = r#"#   %mm_default_1 : Tensor "f32[4, 64][64, 1]cuda:0" = PlaceHolder[target=mm_default_1]"#;
    const MM_B: &str = r#"#   %mm_default_1 : Tensor "f32[2, 64][64, 1]cuda:0" = PlaceHolder[target=mm_default_1]"#;
    const ADD_A: &str = r#"#   %add_tensor_1 : Tensor "f32[4, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg7_1, %mm_default_1), kwargs = {})"#;
    const ADD_B: &str = r#"#   %add_tensor_1 : Tensor "f32[2, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%arg7_1, %mm_default_1), kwargs = {})"#;
    const SLICE: &str = r#"#   %slice_tensor : Tensor "f32[2, 64][64, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%add_tensor_1, 0, 0, -2), kwargs = {})"#;
    const USE_A: &str = r#"#   %unsqueeze_2 : Tensor "f32[2, 64, 1][64, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%slice_tensor, 2), kwargs = {})"#;
    const USE_B: &str = r#"#   %unsqueeze_2 : Tensor "f32[2, 64, 1][64, 1, 1]cuda:0"[num_users=1] = call_function[target=torch.ops.aten.unsqueeze.default](args = (%add_tensor_1, 2), kwargs = {})"#;

    /// The six lines of the real h200-run-session4 pair, as Myers pairs them.
    fn real_rows() -> Vec<WrapperLine> {
        vec![
            row(Some(PROV_A), Some(PROV_B)),
            row(Some(MM_A), Some(MM_B)),
            row(Some(ADD_A), Some(ADD_B)),
            row(Some(SLICE), Some(USE_B)),
            row(Some(USE_A), None),
            row(Some("del buf3"), None),
        ]
    }

    #[test]
    fn the_lines_a_pad_predicts_are_attributed() {
        let (hit, left) = rule("A").attribute(real_rows());
        assert!(left.is_empty(), "{left:?}");
        assert_eq!(hit.len(), 6);
        assert!(hit.iter().all(|l| l.role == LineRole::PadMm));
        assert_eq!(
            rule("A").label,
            "the pad_mm decision on aten.addmm (A pads)"
        );
    }

    #[test]
    fn the_same_lines_with_the_other_side_padding_stay_unexplained() {
        // B "pads": then B's [2, 64] would be the padded one, and the
        // slice sits on the non-padding side.
        let (hit, left) = rule("B").attribute(real_rows());
        assert!(hit.is_empty(), "{hit:?}");
        assert_eq!(left.len(), 6);
    }

    #[test]
    fn a_shape_change_that_is_no_padding_of_an_operand_dim_stays_unexplained() {
        let r = rule("A");
        // 3 is not a power-of-two round-up of 2.
        let odd = MM_A.replace("f32[4, 64]", "f32[3, 64]");
        // 8 -> 16 pads 8, which is no operand dimension (2, 128, 64).
        let (a8, b8) = (
            MM_A.replace("f32[4, 64]", "f32[16, 64]"),
            MM_B.replace("f32[2, 64]", "f32[8, 64]"),
        );
        // Two dimensions differ.
        let two = MM_A.replace("f32[4, 64]", "f32[4, 128]");
        // B larger than A: A pads, so A's must be the larger.
        let shrink = MM_A.replace("f32[4, 64]", "f32[2, 64]");
        let grow = MM_B.replace("f32[2, 64]", "f32[4, 64]");
        // Anything else on the line differs.
        let other = MM_A.replace("mm_default_1]", "mm_default_2]");
        for (a, b) in [
            (odd.as_str(), MM_B),
            (&a8, &b8),
            (&two, MM_B),
            (&shrink, &grow),
            (&other, MM_B),
        ] {
            let (hit, left) = r.attribute(vec![row(Some(a), Some(b))]);
            assert!(hit.is_empty(), "{a} | {b}");
            assert_eq!(left.len(), 1);
        }
    }

    #[test]
    fn a_slice_on_the_non_padding_side_stays_unexplained() {
        // B has the slice (definition, use, provenance) while A pads.
        let rows = vec![
            row(Some(PROV_B), Some(PROV_A)),
            row(None, Some(SLICE)),
            row(Some(USE_B), Some(USE_A)),
        ];
        let (hit, left) = rule("A").attribute(rows);
        assert!(hit.is_empty(), "{hit:?}");
        assert_eq!(left.len(), 3);
    }

    #[test]
    fn a_del_alone_stays_unexplained() {
        let (hit, left) = rule("A").attribute(vec![row(Some("del buf3"), None)]);
        assert!(hit.is_empty());
        assert_eq!(left.len(), 1);
        // Nor does it ride on a line some other rule left unexplained.
        let rows = vec![
            row(Some("x = 1"), Some("x = 2")),
            row(Some("del buf3"), None),
        ];
        assert!(rule("A").attribute(rows).0.is_empty());
        // A `del` on the non-padding side is never the pad's.
        let rows = vec![row(Some(MM_A), Some(MM_B)), row(None, Some("del buf3"))];
        let (hit, left) = rule("A").attribute(rows);
        assert_eq!((hit.len(), left.len()), (1, 1));
        assert_eq!(left[0].text_b.as_deref(), Some("del buf3"));
    }

    #[test]
    fn a_row_with_one_line_unexplained_stays_unexplained() {
        // A's slice definition is the pad's own, B's line nothing predicts.
        let (hit, left) = rule("A").attribute(vec![row(Some(SLICE), Some("y = 3"))]);
        assert!(hit.is_empty());
        assert_eq!(left.len(), 1);
    }

    #[test]
    fn only_a_pad_mm_decision_has_a_rule() {
        let mut d = DecisionDiff {
            file: "metadata.json".into(),
            path: "$.kernel_lane".into(),
            headline: String::new(),
            what: None,
            changed: Vec::new(),
            winner_a: None,
            winner_b: None,
            decided_on: BTreeMap::new(),
            meaning: Vec::new(),
            graph_op: None,
            padded_side: None,
            source_nodes: Vec::new(),
            kernels: Vec::new(),
            lines: Vec::new(),
        };
        assert!(PadRule::of(&d).is_none());
        // A pad_mm decision without operand shapes predicts nothing.
        d.graph_op = Some("aten.addmm".into());
        d.padded_side = Some("A");
        assert!(PadRule::of(&d).is_none());
    }
}
