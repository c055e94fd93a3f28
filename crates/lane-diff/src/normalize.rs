//! Known path noise, removed before two generated files are compared. Every
//! rule here is listed in `docs/diff.md` ("Normalisation rules", numbered
//! there otherwise); nothing else is ever treated as noise.
//!
//! 1. Absolute cache roots: a cache root is the absolute directory prefix in
//!    front of a hashed name (optionally behind a two-character shard
//!    directory), e.g. `/tmp/x/cache_a/inductor` in
//!    `/tmp/x/cache_a/inductor/cizxn.../clx2....cubin`. Roots are collected
//!    per tree from its own text files and replaced by `<cache>`.
//! 2. Hashed file names: inductor's `c` + 51 base32 characters, and
//!    Triton's 52 upper-case base32 characters, replaced by `<hash>`; a
//!    two-character shard directory right under `<cache>` becomes `<shard>`.
//! 3. Shape-constant numbering (C++ wrappers): `static constexpr int64_t
//!    int_array_N[] = {...};` declarations are dropped and every use of
//!    `int_array_N` is replaced by its values, so arrays renumbered with the
//!    same values compare equal and a changed value still shows at its use.
//!    A two-character shard directory right in front of a hashed name in a
//!    relative path (`rig/capture/inductor/vh/<hash>.py`) becomes `<shard>`
//!    too: inductor derives it from the hash.
//! 5. Python object addresses in reprs (`<built-in method conv2d ... at
//!    0x7f2bcad3e180>`, `<code object silu at 0x14a65430, ...>`): each
//!    process's memory layout, replaced by `0x<addr>`.
//! 6. Build noise in binaries a tool compiled at run time (Triton's
//!    `cuda_utils.so`): the temporary build directory (`/tmp/tmpXXXXXXXX/`)
//!    and the ELF GNU build-id note, a hash that follows it.
//! 4. DWARF source mtimes (binaries): the line table of a cubin records each
//!    kernel source's modification time right after its NUL-terminated
//!    `.py` file name and directory index; a ULEB128 value that reads as a
//!    Unix time between 2000 and 2100 is replaced by 0.
//!
//! 0. Before all of these, the paths lane gave the attempt (its folder,
//!    which holds its `TMPDIR`, `HOME` and caches) become `<attempt>`, and
//!    on side B every name derived from them (`derive`) is written as A's.
//!
//! An FX-graph entry's compile time and memo numbering are handled where
//! the entry is read as a pickle (`fxentry`).

use std::collections::BTreeSet;
use std::sync::OnceLock;

use regex::bytes::Regex as BytesRegex;
use regex::Regex;

use super::NoiseKind;

fn root_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"((?:/[A-Za-z0-9_.+-]+)+?)/(?:[a-z0-9]{2}/)?(?:c[a-z2-7]{51}|[A-Z2-7]{52})\b")
            .expect("static regex")
    })
}

pub(crate) fn hash_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\b(?:c[a-z2-7]{51}|[A-Z2-7]{52})\b").expect("static regex"))
}

fn hash_bytes_re() -> &'static BytesRegex {
    static RE: OnceLock<BytesRegex> = OnceLock::new();
    RE.get_or_init(|| {
        BytesRegex::new(r"(?-u)\b(?:c[a-z2-7]{51}|[A-Z2-7]{52})\b").expect("static regex")
    })
}

fn rel_shard_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r#"(^|[/\s"'(])[a-z0-9]{2}/<hash>"#).expect("static regex"))
}

fn dir_shard_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r#"/[a-z0-9]{2}""#).expect("static regex"))
}

fn address_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\bat 0x[0-9a-f]{4,16}\b").expect("static regex"))
}

fn shard_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"<cache>/[a-z0-9]{2}/").expect("static regex"))
}

fn decl_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"^\s*static\s+constexpr\s+int64_t\s+(int_array_\d+)\[\]\s*=\s*(\{[^}]*\})\s*;\s*$",
        )
        .expect("static regex")
    })
}

fn use_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"\bint_array_\d+\b").expect("static regex"))
}

/// The absolute cache roots mentioned in `text` (rule 1).
pub(crate) fn cache_roots(text: &str, into: &mut BTreeSet<String>) {
    // Cheap precheck: no hashed name, no root.
    if !hash_re().is_match(text) {
        return;
    }
    for cap in root_re().captures_iter(text) {
        if let Some(root) = cap.get(1) {
            into.insert(root.as_str().to_owned());
        }
    }
}

/// What one side's files are normalised with: the attempt's folder as the
/// side spells it (rule 0, first), the names derived from it (B's name ->
/// A's, same length; side B only), then the cache roots (rule 1).
#[derive(Debug, Clone, Default)]
pub(crate) struct Roots {
    /// The spellings of the attempt's folder, longest first.
    pub(crate) attempt: Vec<String>,
    /// Derived names: this side's name -> the other side's.
    pub(crate) names: Vec<(String, String)>,
    /// Absolute cache roots, longest first.
    pub(crate) cache: Vec<String>,
}

impl Roots {
    /// Cache roots alone.
    pub(crate) fn of_cache(cache: Vec<String>) -> Self {
        Roots {
            cache,
            ..Roots::default()
        }
    }
}

/// No roots at all.
#[cfg(test)]
pub(crate) static NO_ROOTS: Roots = Roots {
    attempt: Vec::new(),
    names: Vec::new(),
    cache: Vec::new(),
};

/// The placeholder of rule 0.
pub(crate) const ATTEMPT: &str = "<attempt>";

/// Roots ordered longest first, so a root never shadows a longer one.
pub(crate) fn ordered_roots(roots: &BTreeSet<String>) -> Vec<String> {
    let mut v: Vec<String> = roots.iter().cloned().collect();
    v.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    v
}

/// One line after rules 1, 2 and 5, with which of them changed it.
pub(crate) struct PathNormalized {
    pub(crate) text: String,
    pub(crate) attempt_changed: bool,
    pub(crate) name_changed: bool,
    pub(crate) path_changed: bool,
    pub(crate) hash_changed: bool,
    pub(crate) address_changed: bool,
}

impl PathNormalized {
    /// The noise kinds the rules removed from this line.
    pub(crate) fn noise(&self) -> impl Iterator<Item = NoiseKind> {
        [
            (self.attempt_changed, NoiseKind::AttemptPath),
            (self.name_changed, NoiseKind::DerivedName),
            (self.path_changed, NoiseKind::AbsoluteCachePath),
            (self.hash_changed, NoiseKind::HashedFileName),
            (self.address_changed, NoiseKind::ObjectAddress),
        ]
        .into_iter()
        .filter_map(|(changed, kind)| changed.then_some(kind))
    }
}

/// Applies rules 0, 1, 2 and 5 to one line.
pub(crate) fn normalize_paths(line: &str, roots: &Roots) -> PathNormalized {
    let mut text = line.to_owned();
    let mut attempt_changed = false;
    for folder in &roots.attempt {
        if text.contains(folder.as_str()) {
            text = text.replace(folder.as_str(), ATTEMPT);
            attempt_changed = true;
        }
    }
    let mut name_changed = false;
    for (from, to) in &roots.names {
        if text.contains(from.as_str()) {
            text = text.replace(from.as_str(), to);
            name_changed = true;
        }
    }
    let mut path_changed = false;
    for root in &roots.cache {
        if text.contains(root.as_str()) {
            text = text.replace(root.as_str(), "<cache>");
            path_changed = true;
        }
    }
    let mut hash_changed = false;
    if hash_re().is_match(&text) {
        text = hash_re().replace_all(&text, "<hash>").into_owned();
        hash_changed = true;
    }
    if path_changed && shard_re().is_match(&text) {
        text = shard_re()
            .replace_all(&text, "<cache>/<shard>/")
            .into_owned();
    }
    if hash_changed && rel_shard_re().is_match(&text) {
        text = rel_shard_re()
            .replace_all(&text, "${1}<shard>/<hash>")
            .into_owned();
    }
    // A debug record naming the file and its directory apart
    // (`filename: "<hash>.py", directory: ".../hm"`).
    if hash_changed && text.contains("directory: \"") {
        text = dir_shard_re().replace_all(&text, "/<shard>\"").into_owned();
    }
    let mut address_changed = false;
    if text.contains(" 0x") && address_re().is_match(&text) {
        text = address_re().replace_all(&text, "at 0x<addr>").into_owned();
        address_changed = true;
    }
    PathNormalized {
        text,
        attempt_changed,
        name_changed,
        path_changed,
        hash_changed,
        address_changed,
    }
}

/// Rule 3 over a whole file, line by line: `Some(values)` for a declaration
/// (the line is dropped from comparison), else the line with uses replaced.
pub(crate) struct ShapeConstants {
    values: std::collections::HashMap<String, String>,
}

impl ShapeConstants {
    pub(crate) fn new() -> Self {
        ShapeConstants {
            values: std::collections::HashMap::new(),
        }
    }

    /// Returns `None` when `line` declares a constant (recorded, dropped),
    /// else the line with known constants inlined and whether it changed.
    pub(crate) fn apply(&mut self, line: &str) -> Option<(String, bool)> {
        if !line.contains("int_array_") {
            return Some((line.to_owned(), false));
        }
        if let Some(cap) = decl_re().captures(line) {
            // A later declaration of the same name (another function) wins.
            self.values.insert(cap[1].to_owned(), cap[2].to_owned());
            return None;
        }
        let mut changed = false;
        let out = use_re().replace_all(line, |c: &regex::Captures<'_>| {
            match self.values.get(&c[0]) {
                Some(v) => {
                    changed = true;
                    v.clone()
                }
                None => c[0].to_owned(),
            }
        });
        Some((out.into_owned(), changed))
    }
}

pub(crate) fn replace_all_bytes(hay: &[u8], needle: &[u8], with: &[u8]) -> Option<Vec<u8>> {
    let finder = memchr::memmem::Finder::new(needle);
    let mut out = Vec::new();
    let mut last = 0;
    let mut any = false;
    for pos in finder.find_iter(hay) {
        out.extend_from_slice(&hay[last..pos]);
        out.extend_from_slice(with);
        last = pos + needle.len();
        any = true;
    }
    if !any {
        return None;
    }
    out.extend_from_slice(&hay[last..]);
    Some(out)
}

fn read_uleb(bytes: &[u8], mut i: usize) -> Option<(u64, usize)> {
    let mut value: u64 = 0;
    let mut shift = 0;
    loop {
        let b = *bytes.get(i)?;
        if shift >= 64 {
            return None;
        }
        value |= u64::from(b & 0x7f) << shift;
        i += 1;
        if b & 0x80 == 0 {
            return Some((value, i));
        }
        shift += 7;
    }
}

/// Unix times 2000-01-01 .. 2100-01-01: the range a source mtime can take.
const MTIME_RANGE: std::ops::Range<u64> = 946_684_800..4_102_444_800;

fn mask_dwarf_mtimes(bytes: &[u8]) -> Option<Vec<u8>> {
    let finder = memchr::memmem::Finder::new(b".py\0");
    let mut out = Vec::new();
    let mut last = 0;
    let mut any = false;
    for pos in finder.find_iter(bytes) {
        let after_name = pos + 4;
        if after_name < last {
            continue;
        }
        let Some((_, after_dir)) = read_uleb(bytes, after_name) else {
            continue;
        };
        let Some((mtime, after_mtime)) = read_uleb(bytes, after_dir) else {
            continue;
        };
        if MTIME_RANGE.contains(&mtime) {
            out.extend_from_slice(&bytes[last..after_dir]);
            out.push(0);
            last = after_mtime;
            any = true;
        }
    }
    if !any {
        return None;
    }
    out.extend_from_slice(&bytes[last..]);
    Some(out)
}

fn temp_dir_bytes_re() -> &'static BytesRegex {
    static RE: OnceLock<BytesRegex> = OnceLock::new();
    RE.get_or_init(|| BytesRegex::new(r"(?-u)/tmp/tmp[a-z0-9_]{8}/").expect("static regex"))
}

/// Rule 6: a temporary build directory (`/tmp/tmpXXXXXXXX/`, Python's
/// `tempfile`) compiled into a binary, and the ELF GNU build-id note,
/// a hash of the binary that follows it. Same-length masks.
fn mask_build_noise(bytes: &[u8]) -> Option<Vec<u8>> {
    let mut out = mask_temp_dirs(bytes);
    let cur = out.as_deref().unwrap_or(bytes);
    if let Some(at) = build_id_at(cur) {
        let mut v = cur.to_vec();
        v[at].fill(0);
        out = Some(v);
    }
    out
}

/// The temporary build directories of rule 6 masked (same length).
pub(crate) fn mask_temp_dirs(bytes: &[u8]) -> Option<Vec<u8>> {
    temp_dir_bytes_re().is_match(bytes).then(|| {
        temp_dir_bytes_re()
            .replace_all(bytes, &b"/tmp/tmp________/"[..])
            .into_owned()
    })
}

/// Where an ELF GNU build-id note's 20-byte id sits in `bytes`.
pub(crate) fn build_id_at(bytes: &[u8]) -> Option<std::ops::Range<usize>> {
    // namesz 4, descsz 20, type 3 (NT_GNU_BUILD_ID), "GNU\0", then the id.
    const NOTE: &[u8] = b"\x04\x00\x00\x00\x14\x00\x00\x00\x03\x00\x00\x00GNU\x00";
    let start = memchr::memmem::find(bytes, NOTE)? + NOTE.len();
    (bytes.len() >= start + 20).then_some(start..start + 20)
}

/// Rules 0, 1, 2, 4 and 6 over a binary, with the noise kinds that changed it.
/// The noise [`normalize_binary`] masks in a binary itself: a source that
/// differs only by these leaves nothing in its binary to explain.
pub(crate) const MASKED_IN_BINARIES: [NoiseKind; 6] = [
    NoiseKind::AttemptPath,
    NoiseKind::DerivedName,
    NoiseKind::AbsoluteCachePath,
    NoiseKind::HashedFileName,
    NoiseKind::DwarfSourceMtime,
    NoiseKind::TempBuildDir,
];

pub(crate) fn normalize_binary(bytes: &[u8], roots: &Roots) -> (Vec<u8>, BTreeSet<NoiseKind>) {
    let mut kinds = BTreeSet::new();
    let mut cur = bytes.to_vec();
    for folder in &roots.attempt {
        if let Some(next) = replace_all_bytes(&cur, folder.as_bytes(), ATTEMPT.as_bytes()) {
            cur = next;
            kinds.insert(NoiseKind::AttemptPath);
        }
    }
    for (from, to) in &roots.names {
        if let Some(next) = replace_all_bytes(&cur, from.as_bytes(), to.as_bytes()) {
            cur = next;
            kinds.insert(NoiseKind::DerivedName);
        }
    }
    for root in &roots.cache {
        if let Some(next) = replace_all_bytes(&cur, root.as_bytes(), b"<cache>") {
            cur = next;
            kinds.insert(NoiseKind::AbsoluteCachePath);
        }
    }
    if hash_bytes_re().is_match(&cur) {
        cur = hash_bytes_re()
            .replace_all(&cur, &b"<hash>"[..])
            .into_owned();
        kinds.insert(NoiseKind::HashedFileName);
    }
    if let Some(next) = mask_dwarf_mtimes(&cur) {
        cur = next;
        kinds.insert(NoiseKind::DwarfSourceMtime);
    }
    if let Some(next) = mask_build_noise(&cur) {
        if next != cur {
            kinds.insert(NoiseKind::TempBuildDir);
        }
        cur = next;
    }
    debug_assert!(kinds.iter().all(|k| MASKED_IN_BINARIES.contains(k)));
    (cur, kinds)
}

#[cfg(test)]
mod tests {
    use super::*;

    const H1: &str = "clx2mwwfzxil4yogrrf4q64aipeqxd4dueyo5u2xoertkwcrzeex";
    const H2: &str = "c54ejbiggnpp4gqjsrrsqefte7a4u4sc44xdycsd2jky3bbx44x3";
    const D: &str = "cizxn3dqqpoyzy7jqhr37eqssdz3ewhnbunqg2wwxj2yjoxtpjxp";

    #[test]
    fn roots_and_hashes_normalise_to_the_same_line() {
        let a = format!("loadKernel(\"/tmp/x/cache_a/inductor/{D}/{H1}.cubin\", \"k\", 0);");
        let b = format!("loadKernel(\"/var/y/cache_b/inductor/{D}/{H2}.cubin\", \"k\", 0);");
        let mut ra = BTreeSet::new();
        cache_roots(&a, &mut ra);
        let mut rb = BTreeSet::new();
        cache_roots(&b, &mut rb);
        assert_eq!(ra.iter().next().unwrap(), "/tmp/x/cache_a/inductor");
        let na = normalize_paths(&a, &Roots::of_cache(ordered_roots(&ra)));
        let nb = normalize_paths(&b, &Roots::of_cache(ordered_roots(&rb)));
        assert_eq!(na.text, nb.text);
        assert_eq!(
            na.text,
            "loadKernel(\"<cache>/<hash>/<hash>.cubin\", \"k\", 0);"
        );
        assert!(na.path_changed && na.hash_changed);
    }

    #[test]
    fn relative_shards_and_object_addresses_are_normalised() {
        let a = normalize_paths(
            &format!("# kernel path: rig/capture/inductor/vh/{H1}.py"),
            &Roots::default(),
        );
        let b = normalize_paths(
            &format!("# kernel path: rig/capture/inductor/3i/{H2}.py"),
            &Roots::default(),
        );
        assert_eq!(a.text, b.text);
        assert_eq!(
            a.text,
            "# kernel path: rig/capture/inductor/<shard>/<hash>.py"
        );
        let a = normalize_paths(
            "type=<built-in method cat of type object at 0x7f2bcad3e180>",
            &Roots::default(),
        );
        let b = normalize_paths(
            "type=<built-in method cat of type object at 0x7f7fe573e180>",
            &Roots::default(),
        );
        assert_eq!(a.text, b.text);
        assert!(a.address_changed);
        // A short hex number is not an address.
        assert!(!normalize_paths("flags at 0x1f", &Roots::default()).address_changed);
    }

    #[test]
    fn shard_directory_is_normalised() {
        let line = format!("/tmp/c/inductor/33/{H1}.py");
        let mut r = BTreeSet::new();
        cache_roots(&line, &mut r);
        assert_eq!(
            normalize_paths(&line, &Roots::of_cache(ordered_roots(&r))).text,
            "<cache>/<shard>/<hash>.py"
        );
    }

    #[test]
    fn shape_constants_compare_by_value() {
        let mut a = ShapeConstants::new();
        assert!(a
            .apply("    static constexpr int64_t int_array_6[] = {2L, 8L};")
            .is_none());
        let (line, changed) = a.apply("f(int_array_6, x);").unwrap();
        assert_eq!(line, "f({2L, 8L}, x);");
        assert!(changed);
        let mut b = ShapeConstants::new();
        assert!(b
            .apply("static constexpr int64_t int_array_4[] = {2L, 8L};")
            .is_none());
        assert_eq!(b.apply("f(int_array_4, x);").unwrap().0, line);
    }

    #[test]
    fn a_temp_build_dir_and_its_build_id_are_masked() {
        let note = b"\x04\x00\x00\x00\x14\x00\x00\x00\x03\x00\x00\x00GNU\x00";
        let mk = |id: u8, dir: &[u8]| {
            let mut v = b"ELF..".to_vec();
            v.extend_from_slice(note);
            v.extend_from_slice(&[id; 20]);
            v.extend_from_slice(b"..");
            v.extend_from_slice(dir);
            v.extend_from_slice(b"cuda_utils.c\0");
            v
        };
        let (a, ka) = normalize_binary(&mk(1, b"/tmp/tmppguqp33d/"), &Roots::default());
        let (b, _) = normalize_binary(&mk(2, b"/tmp/tmpx81kq_0z/"), &Roots::default());
        assert_eq!(a, b);
        assert!(ka.contains(&NoiseKind::TempBuildDir));
        let (c, _) = normalize_binary(&mk(1, b"/opt/build/dir/x"), &Roots::default());
        assert_ne!(a, c);
    }

    #[test]
    fn dwarf_mtime_after_py_name_is_masked() {
        // name\0, dir 1, mtime 1796012454 (ULEB), length 2568 (ULEB).
        let mut a = b"x/k.py\0\x01".to_vec();
        a.extend_from_slice(&[0xa9, 0xf3, 0xb3, 0xd8, 0x06, 0x88, 0x14]);
        let mut b = b"x/k.py\0\x01".to_vec();
        b.extend_from_slice(&[0xf4, 0xf3, 0xb3, 0xd8, 0x06, 0x88, 0x14]);
        let (na, ka) = normalize_binary(&a, &Roots::default());
        let (nb, _) = normalize_binary(&b, &Roots::default());
        assert_ne!(a, b);
        assert_eq!(na, nb);
        assert!(ka.contains(&NoiseKind::DwarfSourceMtime));
        // A small number after the name is not a time and stays.
        let c = b"k.py\0\x01\x05\x10".to_vec();
        assert_eq!(normalize_binary(&c, &Roots::default()).0, c);
    }
}
