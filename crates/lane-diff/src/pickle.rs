//! A Python pickle read as its stream of opcodes, never run: what an
//! FX-graph cache entry (`inductor/fxgraph/...`, a pickled compiled graph)
//! holds, for [`crate::fxentry`] to compare.
//!
//! Why not `serde-pickle`: it builds values, and on the real H200 entries
//! it misreads dicts that are memoised before they are filled (a shared
//! `inductor_meta` came back as `{None: 1024}`). Comparing at the opcode
//! level needs no object model: what differs is named by its opcode.
//!
//! Bounded: one pass over the bytes, every length checked against what is
//! left, and at most [`MAX_OPS`] opcodes.

/// The most opcodes read from one pickle (a 4.5 MB entry has ~300k).
pub(crate) const MAX_OPS: usize = 4_000_000;

/// One opcode and its argument, borrowed from the pickle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Op<'a> {
    /// Offset of the opcode in the pickle.
    pub(crate) at: usize,
    /// The opcode byte.
    pub(crate) code: u8,
    pub(crate) arg: Arg<'a>,
}

/// An opcode's argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arg<'a> {
    /// None (stack and structure opcodes).
    None,
    /// A little-endian integer: BININT*, LONG1/LONG4 (two's complement),
    /// memo indices, PROTO, FRAME, EXT*.
    Int(&'a [u8]),
    /// A text argument ending at a newline (INT, LONG, FLOAT, STRING,
    /// UNICODE, GET, PUT, PERSID) or two (GLOBAL, INST), without them.
    Line(&'a [u8]),
    /// A length-prefixed string (UTF-8 for the unicode opcodes).
    Str(&'a [u8]),
    /// Length-prefixed bytes.
    Bytes(&'a [u8]),
    /// An 8-byte IEEE float, big-endian (BINFLOAT).
    Float(&'a [u8]),
}

/// Why a pickle could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PickleError {
    pub(crate) at: usize,
    pub(crate) what: &'static str,
}

impl std::fmt::Display for PickleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "not a pickle lane reads at byte {}: {}",
            self.at, self.what
        )
    }
}

/// How an opcode's argument is laid out.
enum Layout {
    Nothing,
    Fixed(usize),
    /// A length of `n` little-endian bytes, then that many bytes.
    Counted(usize, bool),
    Lines(usize),
    Float,
}

fn layout(code: u8) -> Option<Layout> {
    use Layout::*;
    Some(match code {
        b'(' | b'.' | b'0' | b'1' | b'2' | b'N' | b'R' | b'a' | b'b' | b'd' | b'}' | b'e'
        | b'l' | b']' | b'o' | b's' | b't' | b')' | b'u' | b'Q' => Nothing,
        0x81 | 0x85..=0x89 | 0x8f..=0x94 | 0x97 | 0x98 => Nothing,
        b'K' | b'h' | b'q' | 0x80 | 0x82 => Fixed(1),
        b'M' | 0x83 => Fixed(2),
        b'J' | b'j' | b'r' | 0x84 => Fixed(4),
        0x95 => Fixed(8),
        b'G' => Float,
        b'F' | b'I' | b'L' | b'S' | b'V' | b'g' | b'p' | b'P' => Lines(1),
        b'c' | b'i' => Lines(2),
        // SHORT_BINSTRING, SHORT_BINUNICODE; BINSTRING, BINUNICODE;
        // BINUNICODE8.
        b'U' | 0x8c => Counted(1, false),
        b'T' | b'X' => Counted(4, false),
        0x8d => Counted(8, false),
        // SHORT_BINBYTES; BINBYTES; BINBYTES8, BYTEARRAY8.
        b'C' => Counted(1, true),
        b'B' => Counted(4, true),
        0x8e | 0x96 => Counted(8, true),
        // LONG1, LONG4: a counted two's-complement integer.
        0x8a => Counted(1, false),
        0x8b => Counted(4, false),
        _ => return None,
    })
}

fn le(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .rev()
        .fold(0u64, |v, b| (v << 8) | u64::from(*b))
}

/// Every opcode up to and including STOP, one at a time (the entry is
/// never held twice).
pub(crate) fn ops(bytes: &[u8]) -> Ops<'_> {
    Ops {
        bytes,
        i: 0,
        read: 0,
        done: false,
    }
}

/// The opcodes of a pickle, read as they are asked for.
pub(crate) struct Ops<'a> {
    bytes: &'a [u8],
    i: usize,
    read: usize,
    done: bool,
}

impl<'a> Iterator for Ops<'a> {
    type Item = Result<Op<'a>, PickleError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let r = self.step();
        // STOP ends the stream, and so does the first error.
        self.done = r.as_ref().map_or(true, |op| op.code == b'.');
        Some(r)
    }
}

impl<'a> Ops<'a> {
    fn step(&mut self) -> Result<Op<'a>, PickleError> {
        let bytes = self.bytes;
        let at = self.i;
        if self.read >= MAX_OPS {
            return Err(PickleError {
                at,
                what: "more opcodes than lane reads",
            });
        }
        self.read += 1;
        let cut = |what| PickleError { at, what };
        let code = *bytes.get(at).ok_or(cut("ends before STOP"))?;
        let layout = layout(code).ok_or(cut("an opcode pickle does not have"))?;
        let rest = &bytes[at + 1..];
        let (arg, used) = match layout {
            Layout::Nothing => (Arg::None, 0),
            Layout::Fixed(n) => {
                let a = rest.get(..n).ok_or(cut("an argument cut short"))?;
                (Arg::Int(a), n)
            }
            Layout::Float => {
                let a = rest.get(..8).ok_or(cut("a float cut short"))?;
                (Arg::Float(a), 8)
            }
            Layout::Lines(n) => {
                let mut end = 0;
                for _ in 0..n {
                    let nl =
                        memchr::memchr(b'\n', &rest[end..]).ok_or(cut("a line without its end"))?;
                    end += nl + 1;
                }
                (Arg::Line(&rest[..end - 1]), end)
            }
            Layout::Counted(n, is_bytes) => {
                let len = rest.get(..n).ok_or(cut("a length cut short"))?;
                let len = usize::try_from(le(len)).map_err(|_| cut("a length too large"))?;
                let body = rest
                    .get(n..)
                    .and_then(|r| r.get(..len))
                    .ok_or(cut("a string or bytes cut short"))?;
                let arg = match (code, is_bytes) {
                    (0x8a | 0x8b, _) => Arg::Int(body),
                    (_, true) => Arg::Bytes(body),
                    (_, false) => Arg::Str(body),
                };
                (arg, n + len)
            }
        };
        self.i = at + 1 + used;
        Ok(Op { at, code, arg })
    }
}

/// Opcodes that memoise the value on top of the stack.
pub(crate) fn is_put(code: u8) -> bool {
    matches!(code, 0x94 | b'p' | b'q' | b'r')
}

/// Opcodes that push a memoised value.
pub(crate) fn is_get(code: u8) -> bool {
    matches!(code, b'g' | b'h' | b'j')
}

/// The memo index a PUT or GET names (MEMOIZE: `None`, the next free one).
pub(crate) fn memo_index(op: &Op<'_>) -> Option<u64> {
    match op.arg {
        Arg::Int(b) if op.code != 0x94 => Some(le(b)),
        Arg::Line(l) => std::str::from_utf8(l).ok()?.trim().parse().ok(),
        _ => None,
    }
}

/// Whether the opcode pushes a plain value (a number, string, bytes,
/// None or a bool), as opposed to a container or an object.
pub(crate) fn is_scalar(code: u8) -> bool {
    matches!(
        code,
        b'N' | b'K'
            | b'M'
            | b'J'
            | b'I'
            | b'L'
            | b'F'
            | b'G'
            | b'S'
            | b'V'
            | b'U'
            | b'T'
            | b'X'
            | b'C'
            | b'B'
            | 0x88
            | 0x89
            | 0x8a
            | 0x8b
            | 0x8c
            | 0x8d
            | 0x8e
    )
}

/// An integer opcode's value, when it fits an i64 (BININT*, LONG1/4 up to
/// 8 bytes, INT, LONG).
pub(crate) fn int_value(op: &Op<'_>) -> Option<i64> {
    match (op.code, op.arg) {
        (b'K' | b'M', Arg::Int(b)) => i64::try_from(le(b)).ok(),
        (b'J', Arg::Int(b)) => Some(i64::from(i32::from_le_bytes(b.try_into().ok()?))),
        (0x8a | 0x8b, Arg::Int(b)) if b.len() <= 8 => {
            if b.is_empty() {
                return Some(0);
            }
            let mut v = le(b);
            // Sign-extend two's complement.
            let bits = 8 * b.len() as u32;
            if bits < 64 && b[b.len() - 1] & 0x80 != 0 {
                v |= u64::MAX << bits;
            }
            Some(v as i64)
        }
        (b'I' | b'L', Arg::Line(l)) => std::str::from_utf8(l)
            .ok()?
            .trim_end_matches('L')
            .parse()
            .ok(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `pickle.dumps({"_time_taken_ns": 7451233890, "k": [b"xy", "fn", "fn"]}, 4)`
    /// as Python 3.12 writes it ("fn" twice: the second a memo get).
    const DUMPED: &[u8] = b"\x80\x04\x951\x00\x00\x00\x00\x00\x00\x00}\x94(\x8c\x0e_time_taken_ns\x94\x8a\x05b\xce \xbc\x01\x8c\x01k\x94]\x94(C\x02xy\x94\x8c\x02fn\x94h\x05eu.";

    #[test]
    fn a_python_pickle_reads_as_its_opcodes() {
        let ops: Vec<Op<'_>> = ops(DUMPED).collect::<Result<_, _>>().unwrap();
        let codes: Vec<u8> = ops.iter().map(|o| o.code).collect();
        assert_eq!(
            codes,
            [
                0x80, 0x95, b'}', 0x94, b'(', 0x8c, 0x94, 0x8a, 0x8c, 0x94, b']', 0x94, b'(', b'C',
                0x94, 0x8c, 0x94, b'h', b'e', b'u', b'.'
            ]
        );
        assert_eq!(ops[5].arg, Arg::Str(b"_time_taken_ns"));
        assert_eq!(int_value(&ops[7]), Some(7_451_233_890));
        assert_eq!(ops[13].arg, Arg::Bytes(b"xy"));
        assert_eq!(memo_index(&ops[17]), Some(5));
    }

    #[test]
    fn a_cut_or_foreign_pickle_is_an_error_naming_its_byte_never_a_panic() {
        fn all(b: &[u8]) -> Result<Vec<Op<'_>>, PickleError> {
            ops(b).collect()
        }
        for n in 0..DUMPED.len() - 1 {
            let e = all(&DUMPED[..n]).unwrap_err();
            assert!(e.at <= n, "{n}: {e}");
        }
        let e = all(b"\x80\x04\xff.").unwrap_err();
        assert_eq!((e.at, e.what), (2, "an opcode pickle does not have"));
        // A length that claims more than is there.
        let e = all(b"\x8e\xff\xff\xff\xff\xff\xff\xff\x7f").unwrap_err();
        assert_eq!(e.at, 0);
        // Nothing is read past the first error.
        assert_eq!(ops(b"\xff.").count(), 1);
    }

    #[test]
    fn negative_and_wide_integers_read_as_python_writes_them() {
        let one = |b: &[u8]| int_value(&ops(b).next().unwrap().unwrap());
        assert_eq!(one(b"\x8a\x01\xff."), Some(-1));
        assert_eq!(one(b"J\xfe\xff\xff\xff."), Some(-2));
        assert_eq!(one(b"M\x00\x01."), Some(256));
        assert_eq!(one(b"I42\n."), Some(42));
        // Wider than an i64: no value, compared by its bytes.
        assert_eq!(one(b"\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01."), None);
    }
}
