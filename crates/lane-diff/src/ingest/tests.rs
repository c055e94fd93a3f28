//! The reader on archives built in memory: nesting orders, caps, links,
//! bad streams, and the second pass.

use std::io::Write;

use super::*;

/// A side made of in-memory files.
pub(crate) struct MemSource {
    pub(crate) label: String,
    pub(crate) files: Vec<(String, Vec<u8>)>,
    pub(crate) links: Vec<(String, String)>,
    /// The side is this one file (its members at the root).
    pub(crate) single: bool,
}

impl MemSource {
    pub(crate) fn folder(files: Vec<(&str, Vec<u8>)>) -> Self {
        MemSource {
            label: "side".into(),
            files: files.into_iter().map(|(p, b)| (p.to_owned(), b)).collect(),
            links: Vec::new(),
            single: false,
        }
    }
    pub(crate) fn file(name: &str, bytes: Vec<u8>) -> Self {
        MemSource {
            label: name.into(),
            files: vec![(name.to_owned(), bytes)],
            links: Vec::new(),
            single: true,
        }
    }
}

impl Source for MemSource {
    fn label(&self) -> String {
        self.label.clone()
    }
    fn entries(&mut self) -> io::Result<Vec<TopEntry>> {
        let mut v: Vec<TopEntry> = self
            .files
            .iter()
            .map(|(p, _)| TopEntry {
                path: if self.single {
                    String::new()
                } else {
                    p.clone()
                },
                name: p.rsplit('/').next().unwrap_or(p).to_owned(),
                kind: TopKind::File,
            })
            .collect();
        v.extend(self.links.iter().map(|(p, t)| TopEntry {
            path: p.clone(),
            name: p.clone(),
            kind: TopKind::Skipped(SkippedKind::Symlink, Some(t.clone())),
        }));
        Ok(v)
    }
    fn open(&mut self, path: &str) -> io::Result<Opened> {
        let bytes = self
            .files
            .iter()
            .find(|(p, _)| self.single || p == path)
            .map(|(_, b)| b.clone())
            .ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "no such file"))?;
        Ok(Opened::Seekable(Box::new(io::Cursor::new(bytes))))
    }
}

pub(crate) fn tar_gz(members: &[(&str, &[u8])]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut b = tar::Builder::new(gz);
    for (name, bytes) in members {
        let mut h = tar::Header::new_gnu();
        h.set_size(bytes.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        b.append_data(&mut h, name, *bytes).unwrap();
    }
    b.into_inner().unwrap().finish().unwrap()
}

pub(crate) fn zip_of(members: &[(&str, &[u8])]) -> Vec<u8> {
    let mut z = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
    let o =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for (name, bytes) in members {
        z.start_file(*name, o).unwrap();
        z.write_all(bytes).unwrap();
    }
    z.finish().unwrap().into_inner()
}

fn read(src: &mut MemSource) -> Result<CellSide, IngestError> {
    read_side(src, Keep::First, &ReadLimits::default(), &mut MemorySpool)
}

fn paths(side: &CellSide) -> Vec<&str> {
    side.tree.files.iter().map(|f| f.path.as_str()).collect()
}

#[test]
fn a_pt2_inside_a_tarball_is_read_member_by_member() {
    let pt2 = zip_of(&[
        ("model/data/k.cubin", b"cubin"),
        ("model/byteorder", b"little"),
    ]);
    let cell = tar_gz(&[("metadata.json", b"{}"), ("model.pt2", &pt2)]);
    let side = read(&mut MemSource::file("cell.tar.gz", cell)).unwrap();
    assert_eq!(
        paths(&side),
        [
            "metadata.json",
            "model.pt2/data/k.cubin",
            "model.pt2/byteorder"
        ]
    );
    let formats: Vec<(&str, &str)> = side
        .containers
        .iter()
        .map(|c| (c.path.as_str(), c.format))
        .collect();
    assert_eq!(formats, [("", "tar.gz"), ("model.pt2", "zip")]);
    assert_eq!(side.containers[1].stripped_top.as_deref(), Some("model"));
    // Small files are kept on the first pass.
    assert_eq!(side.tree.files[1].content.as_deref(), Some(&b"cubin"[..]));
}

#[test]
fn a_folder_holding_a_tarball_holding_a_tarball() {
    let inner = tar_gz(&[("x.txt", b"x")]);
    let outer = tar_gz(&[("inner.tar.gz", &inner)]);
    let mut src = MemSource::folder(vec![
        ("r1/cell.tar.gz", outer),
        ("r1/notes.txt", b"n".to_vec()),
    ]);
    let side = read(&mut src).unwrap();
    assert_eq!(
        paths(&side),
        ["r1/cell.tar.gz/inner.tar.gz/x.txt", "r1/notes.txt"]
    );
}

#[test]
fn a_tarball_inside_a_pt2_inside_a_tarball() {
    let t = tar_gz(&[("deep.txt", b"d")]);
    let z = zip_of(&[("m/a.tar.gz", &t)]);
    let cell = tar_gz(&[("model.pt2", &z)]);
    let side = read(&mut MemSource::file("c.tgz", cell)).unwrap();
    assert_eq!(paths(&side), ["model.pt2/a.tar.gz/deep.txt"]);
}

#[test]
fn nesting_past_the_limit_is_refused_naming_the_member() {
    let mut bytes = tar_gz(&[("x", b"x")]);
    for _ in 0..5 {
        bytes = tar_gz(&[("n.tar.gz", &bytes)]);
    }
    let e = read(&mut MemSource::file("deep.tar.gz", bytes)).unwrap_err();
    assert!(matches!(e, IngestError::TooDeep { .. }), "{e}");
    assert!(e.to_string().contains(": member n.tar.gz"), "{e}");
}

/// What reading `cell` (as `cell.tar.gz`) under `limits` is refused with.
fn refusal(cell: Vec<u8>, limits: &ReadLimits) -> String {
    let mut src = MemSource::file("cell.tar.gz", cell);
    read_side(&mut src, Keep::First, limits, &mut MemorySpool)
        .unwrap_err()
        .to_string()
}

#[test]
fn a_member_above_the_cap_is_refused_naming_archive_and_member() {
    let cell = tar_gz(&[("metadata.json", b"{}"), ("big.bin", &[7u8; 5000])]);
    let limits = ReadLimits {
        max_member_bytes: 4096,
        ..ReadLimits::default()
    };
    assert_eq!(
        refusal(cell, &limits),
        "cell.tar.gz: member big.bin: more than the 4096-byte cap per member"
    );
}

#[test]
fn a_truncated_gzip_is_a_clear_error_not_a_panic() {
    let cell = tar_gz(&[("metadata.json", &[b'x'; 20_000]), ("b", b"b")]);
    for cut in [10, cell.len() / 2, cell.len() - 4] {
        let e = read(&mut MemSource::file("cell.tar.gz", cell[..cut].to_vec())).unwrap_err();
        let text = e.to_string();
        assert!(text.starts_with("cell.tar.gz: member "), "{cut}: {text}");
    }
}

#[test]
fn a_corrupt_zip_is_a_clear_error() {
    let mut z = zip_of(&[("m/a", b"payload"), ("m/b", b"bbbb")]);
    let e = read(&mut MemSource::file("model.pt2", z[..z.len() / 2].to_vec())).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("model.pt2: not a readable zip archive"),
        "{e}"
    );
    // A flipped data byte fails the member's checksum.
    let at = z.windows(7).position(|w| w == b"payload").unwrap();
    z[at] = b'z';
    let e = read(&mut MemSource::file("model.pt2", z)).unwrap_err();
    assert!(e.to_string().starts_with("model.pt2: member a:"), "{e}");
}

#[test]
fn members_that_climb_out_are_refused() {
    let z = zip_of(&[("top/../../etc/passwd", b"x")]);
    let e = read(&mut MemSource::file("evil.pt2", z)).unwrap_err();
    assert!(matches!(e, IngestError::UnsafePath { .. }), "{e}");
    // tar::Builder refuses such names; write the header by hand.
    let mut h = tar::Header::new_old();
    h.as_old_mut().name[..9].copy_from_slice(b"../escape");
    h.set_size(1);
    h.set_cksum();
    let mut raw = h.as_bytes().to_vec();
    raw.extend_from_slice(&[b'x'; 512]);
    raw.extend_from_slice(&[0u8; 1024]);
    let e = read(&mut MemSource::file("evil.tar", raw)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "evil.tar: member \"../escape\" is not a relative path inside the archive"
    );
}

#[test]
fn links_are_skipped_and_named() {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut b = tar::Builder::new(gz);
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(tar::EntryType::Symlink);
    h.set_size(0);
    b.append_link(&mut h, "lib/link.so", "/etc/shadow").unwrap();
    let mut h = tar::Header::new_gnu();
    h.set_size(1);
    h.set_cksum();
    b.append_data(&mut h, "a", &b"a"[..]).unwrap();
    let cell = b.into_inner().unwrap().finish().unwrap();
    let mut src = MemSource::file("cell.tar.gz", cell);
    src.label = "cell.tar.gz".into();
    let side = read(&mut src).unwrap();
    assert_eq!(paths(&side), ["a"]);
    assert_eq!(
        side.skipped,
        [SkippedEntry {
            path: "lib/link.so".into(),
            kind: SkippedKind::Symlink,
            target: Some("/etc/shadow".into()),
        }]
    );
    let mut folder = MemSource::folder(vec![("x", b"x".to_vec())]);
    folder.links.push(("pipe".into(), "elsewhere".into()));
    assert_eq!(read(&mut folder).unwrap().skipped.len(), 1);
}

#[test]
fn the_second_pass_loads_only_what_the_plan_names() {
    let big = vec![3u8; 400_000];
    let pt2 = zip_of(&[("m/w.so", &big), ("m/k.cubin", b"k")]);
    let cell = tar_gz(&[("metadata.json", b"{}"), ("model.pt2", &pt2)]);
    let mut src = MemSource::file("cell.tar.gz", cell);
    let limits = ReadLimits::default();
    let mut first = read_side(&mut src, Keep::First, &limits, &mut MemorySpool).unwrap();
    let so = first
        .tree
        .files
        .iter()
        .find(|f| f.path == "model.pt2/w.so")
        .unwrap();
    assert!(so.content.is_none(), "above keep_small_bytes");
    let plan = vec!["model.pt2/w.so".to_owned()];
    complete_side(&mut first, &plan, &mut src, &limits, &mut MemorySpool).unwrap();
    for f in &first.tree.files {
        assert_eq!(
            f.content.is_some(),
            f.path == "model.pt2/w.so",
            "{}",
            f.path
        );
    }
    // The second pass checks it read the same bytes.
    first.tree.files[1].sha256 = "0".repeat(64);
    first.tree.files[1].content = None;
    let plan = vec![first.tree.files[1].path.clone()];
    let e = complete_side(&mut first, &plan, &mut src, &limits, &mut MemorySpool).unwrap_err();
    assert!(matches!(e, IngestError::Changed { .. }), "{e}");
}

#[test]
fn a_large_nested_zip_goes_to_the_spool() {
    struct Counting(usize);
    impl Spool for Counting {
        fn create(&mut self) -> io::Result<Box<dyn SpoolFile>> {
            self.0 += 1;
            Ok(Box::new(io::Cursor::new(Vec::new())))
        }
    }
    let pt2 = zip_of(&[("m/a", &[1u8; 3000])]);
    let cell = tar_gz(&[("model.pt2", &pt2)]);
    let limits = ReadLimits {
        max_spool_memory_bytes: 1000,
        ..ReadLimits::default()
    };
    let mut spool = Counting(0);
    let mut src = MemSource::file("cell.tar.gz", cell);
    let side = read_side(&mut src, Keep::First, &limits, &mut spool).unwrap();
    assert_eq!(paths(&side), ["model.pt2/a"]);
    assert_eq!(spool.0, 1);
}

#[test]
fn content_beyond_the_side_budget_is_left_unloaded() {
    let pt2 = zip_of(&[
        ("m/a.so", &[1u8; 300_000]),
        ("m/b.so", &[2u8; 300_000]),
        ("m/c.txt", b"c"),
    ]);
    let mut src = MemSource::file("model.pt2", pt2);
    let limits = ReadLimits {
        max_total_content_bytes: 400_000,
        ..ReadLimits::default()
    };
    let mut first = read_side(&mut src, Keep::First, &limits, &mut MemorySpool).unwrap();
    let plan: Vec<String> = first.tree.files.iter().map(|f| f.path.clone()).collect();
    complete_side(&mut first, &plan, &mut src, &limits, &mut MemorySpool).unwrap();
    let loaded: Vec<&str> = first
        .tree
        .files
        .iter()
        .filter(|f| f.content.is_some())
        .map(|f| f.path.as_str())
        .collect();
    assert_eq!(loaded, ["a.so", "c.txt"]);
}

/// Regression (issue 19, item 5): a nested archive of zeros inflated
/// whole, however little it weighed (a 40 KB cell cost `lane diff` 33 s of
/// CPU), since only members and member counts were capped. A stream
/// inflating past the ratio cap is refused naming it, at once.
#[test]
fn regression_a_nested_deflate_bomb_is_refused_by_the_ratio_cap() {
    let zeros = vec![0u8; 32 << 20];
    let inner = tar_gz(&[("zeros.bin", &zeros)]);
    let bomb = tar_gz(&[("a.tar.gz", &inner), ("b.tar.gz", &inner)]);
    assert!(bomb.len() < 200_000, "{}", bomb.len());
    let e = read(&mut MemSource::file("bomb.tar.gz", bomb)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "bomb.tar.gz: member a.tar.gz: refused: inflates to more than 100 times its compressed size (a decompression bomb?)"
    );
    // The same in a `.pt2`: the zip member is metered too.
    let mut z = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
    let deflated = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    z.start_file("m/zeros.bin", deflated).unwrap();
    z.write_all(&zeros).unwrap();
    let pt2 = z.finish().unwrap().into_inner();
    let e = read(&mut MemSource::file("model.pt2", pt2)).unwrap_err();
    assert!(
        matches!(&e, IngestError::InflateRatio { origin, .. } if origin == "model.pt2: member zeros.bin"),
        "{e}"
    );
}

/// Issue 19, item 5: what one side inflates in all is bounded, whatever
/// each stream's ratio.
#[test]
fn a_side_inflating_past_its_budget_is_refused() {
    let cell = tar_gz(&[("a.bin", &[7u8; 5000]), ("b.bin", &[8u8; 5000])]);
    let budget = 8192;
    let refused = refusal(
        cell,
        &ReadLimits {
            max_inflated_bytes: budget,
            ..ReadLimits::default()
        },
    );
    assert_eq!(
        refused,
        "cell.tar.gz: refused: reading this side inflated more than the 8192-byte budget (a decompression bomb?)"
    );
}

/// A source that counts how often its files are opened.
struct CountingOpens(MemSource, usize);

impl Source for CountingOpens {
    fn label(&self) -> String {
        self.0.label()
    }
    fn entries(&mut self) -> io::Result<Vec<TopEntry>> {
        self.0.entries()
    }
    fn open(&mut self, path: &str) -> io::Result<Opened> {
        self.1 += 1;
        // A stream, as a packed cell on disk is read.
        match self.0.open(path)? {
            Opened::Seekable(s) => Ok(Opened::Stream(Box::new(s))),
            s => Ok(s),
        }
    }
}

#[test]
fn the_second_pass_reads_a_spooled_pt2_without_inflating_the_cell_again() {
    let so = vec![3u8; 400_000];
    let big = vec![4u8; 400_000];
    let pt2 = zip_of(&[("m/w.so", &so), ("m/k.cubin", b"k")]);
    let cell = tar_gz(&[
        ("metadata.json", b"{}"),
        ("model.pt2", &pt2),
        ("big.bin", &big),
    ]);
    let limits = ReadLimits::default();
    for (plan, opens) in [
        (vec!["model.pt2/w.so"], 1),
        (vec!["model.pt2/w.so", "big.bin"], 2),
    ] {
        let mut src = CountingOpens(MemSource::file("cell.tar.gz", cell.clone()), 0);
        let (mut first, retained) =
            read_side_retaining(&mut src, &limits, &mut MemorySpool).unwrap();
        let kept = format!(
            "Retained {{ zips: [\"model.pt2\"], memory_bytes: {} }}",
            pt2.len()
        );
        assert_eq!(format!("{retained:?}"), kept);
        let plan: Vec<String> = plan.into_iter().map(str::to_owned).collect();
        second_pass(&mut first, &plan, &mut src, retained).unwrap();
        assert_eq!(src.1, opens, "{plan:?}");
        for f in &first.tree.files {
            let want = plan.contains(&f.path);
            assert_eq!(f.content.is_some(), want, "{}", f.path);
        }
        let w = first
            .tree
            .files
            .iter()
            .find(|f| f.path == "model.pt2/w.so")
            .unwrap();
        assert_eq!(w.content.as_deref(), Some(&so[..]));
    }
}

#[test]
fn a_retained_zip_read_again_is_checked_against_the_first_pass() {
    let pt2 = zip_of(&[("m/w.so", &[5u8; 400_000])]);
    let cell = tar_gz(&[("model.pt2", &pt2)]);
    let limits = ReadLimits::default();
    let mut src = MemSource::file("cell.tar.gz", cell);
    let (mut first, retained) = read_side_retaining(&mut src, &limits, &mut MemorySpool).unwrap();
    first.tree.files[0].sha256 = "0".repeat(64);
    let plan = vec!["model.pt2/w.so".to_owned()];
    let e = second_pass(&mut first, &plan, &mut src, retained).unwrap_err();
    assert!(matches!(e, IngestError::Changed { .. }), "{e}");
}

/// The second pass over the zips the first kept, in memory, with the
/// default limits.
fn second_pass(
    side: &mut CellSide,
    plan: &[String],
    src: &mut dyn Source,
    retained: Retained,
) -> Result<(), IngestError> {
    complete_side_retained(
        side,
        plan,
        src,
        &ReadLimits::default(),
        &mut MemorySpool,
        retained,
    )
}
