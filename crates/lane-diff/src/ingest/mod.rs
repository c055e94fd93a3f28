//! Reading one side of a diff from the streams the edge opens: folders (the
//! edge lists them as [`TopEntry`]s), `.tar.gz` / `.tgz` / `.tar` and
//! `.pt2` / `.zip` archives, nested in any order (a `.pt2` inside a tarball,
//! a tarball inside a folder). Nothing here touches the filesystem: the
//! edge implements [`Source`] (and [`Spool`] for nested zips), this module
//! walks, fingerprints and keeps content.
//!
//! Memory stays flat in the size of a cell: files are hashed in 64 KiB
//! chunks; content is kept only for the files the diff reads (the index
//! files, small files within a retention budget, and, on a second pass,
//! exactly the files [`super::content_plan`] asks for), each below
//! [`ReadLimits::max_content_bytes`]. A zip needs its central directory,
//! which sits at its end: a nested zip is copied to a [`Spool`] (memory up
//! to [`ReadLimits::max_spool_memory_bytes`], else what the edge provides,
//! a temporary file in `lane diff`). Every member is size-capped; a member
//! above the cap, a path that climbs out of its archive, an archive nested
//! too deep or a truncated stream is an [`IngestError`] naming the archive
//! and the member.

mod archive;
mod second;

use archive::Input;
use lane_core::layout::file;
pub use second::{complete_side, complete_side_planned, complete_side_retained};

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io::{self, Read, Seek, Write};

use sha2::{Digest, Sha256};

use super::chunks::{self, read_windows, Tap, CHUNK_BYTES};
use super::model::{ArtifactFile, CellSide, SkippedEntry, SkippedKind};
use super::{is_index_file, DEFAULT_MAX_CONTENT_BYTES};

/// Limits on reading one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadLimits {
    /// A file or archive member larger than this is refused (a
    /// decompression bomb cannot run forever).
    pub max_member_bytes: u64,
    /// Content larger than this is fingerprinted, never loaded.
    pub max_content_bytes: u64,
    /// Archives nested deeper than this are refused.
    pub max_depth: usize,
    /// More files than this in one side are refused.
    pub max_members: usize,
    /// A nested zip up to this size is spooled in memory, a larger one to
    /// the edge's [`Spool`].
    pub max_spool_memory_bytes: u64,
    /// On the first pass, files up to this size are kept while the
    /// retention budget lasts (most differing files then need no second
    /// pass).
    pub keep_small_bytes: u64,
    /// The first pass's retention budget, per side.
    pub keep_budget_bytes: u64,
    /// All content loaded for one side, at most: what differs beyond it
    /// (largest files first) is fingerprinted and named "content not
    /// compared", so memory stays bounded even when every file differs.
    pub max_total_content_bytes: u64,
    /// All bytes read out of compressed streams while reading one side
    /// once (every gzip stream and every zip member, a nested one counted
    /// again at each level), at most: a diff reads each side at most twice,
    /// so it inflates at most four times this. Beyond it the side is
    /// refused ([`IngestError::InflatedBudget`]): CPU stays bounded on
    /// foreign archives as memory does.
    pub max_inflated_bytes: u64,
    /// A compressed stream that has given more than [`RATIO_GRACE_BYTES`]
    /// may give at most this many bytes per byte it read; more is refused
    /// ([`IngestError::InflateRatio`]): deflate's own limit is about 1,032,
    /// a real cell's streams inflate about 7 times.
    pub max_inflate_ratio: u64,
}

/// What a compressed stream may give before [`ReadLimits::max_inflate_ratio`]
/// applies to it (small members of zeros are real).
pub const RATIO_GRACE_BYTES: u64 = 16 << 20;

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            max_member_bytes: 64 << 30,
            max_content_bytes: DEFAULT_MAX_CONTENT_BYTES,
            max_depth: 4,
            max_members: 1_000_000,
            max_spool_memory_bytes: 64 << 20,
            keep_small_bytes: 256 << 10,
            keep_budget_bytes: 16 << 20,
            max_total_content_bytes: 256 << 20,
            max_inflated_bytes: 16 << 30,
            max_inflate_ratio: 100,
        }
    }
}

/// A failure to read one side.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    /// The side (a folder, a file) could not be read.
    #[error("{origin}: {}", io_text(.source))]
    Io {
        /// What was being read.
        origin: String,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// A member of an archive could not be read (a truncated or corrupt stream).
    #[error("{origin}: member {member}: {}", io_text(.source))]
    MemberIo {
        /// The archive.
        origin: String,
        /// The member.
        member: String,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// An archive lane cannot read.
    #[error("{origin}: not a readable {format} archive: {detail}")]
    BadArchive {
        /// The archive.
        origin: String,
        /// `tar.gz`, `tar` or `zip`.
        format: &'static str,
        /// What the reader said.
        detail: String,
    },
    /// A member above the per-member size cap.
    #[error("{origin}: member {member}: more than the {cap}-byte cap per member")]
    TooLarge {
        /// The archive (or the side's folder).
        origin: String,
        /// The member.
        member: String,
        /// The cap.
        cap: u64,
    },
    /// A member whose path is absolute or climbs out of its archive.
    #[error("{origin}: member {member:?} is not a relative path inside the archive")]
    UnsafePath {
        /// The archive.
        origin: String,
        /// The member, as stored.
        member: String,
    },
    /// An archive nested deeper than the limit.
    #[error("{origin}: member {member}: archives nested more than {max} deep")]
    TooDeep {
        /// The archive.
        origin: String,
        /// The nested archive.
        member: String,
        /// The limit.
        max: usize,
    },
    /// More files than the limit.
    #[error("{origin}: more than {max} files")]
    TooManyMembers {
        /// The side.
        origin: String,
        /// The limit.
        max: usize,
    },
    /// The same path twice in one side.
    #[error("{origin}: {path} appears twice")]
    Duplicate {
        /// The archive (or the side).
        origin: String,
        /// The path in the tree.
        path: String,
    },
    /// More bytes inflated while reading one side than its budget
    /// ([`ReadLimits::max_inflated_bytes`]).
    #[error("{origin}: refused: reading this side inflated more than the {cap}-byte budget (a decompression bomb?)")]
    InflatedBudget {
        /// The archive being inflated when the budget ran out.
        origin: String,
        /// The budget.
        cap: u64,
    },
    /// A compressed stream inflating more than the ratio cap
    /// ([`ReadLimits::max_inflate_ratio`]).
    #[error("{origin}: refused: inflates to more than {ratio} times its compressed size (a decompression bomb?)")]
    InflateRatio {
        /// The archive, or the zip member, inflating.
        origin: String,
        /// The cap.
        ratio: u64,
    },
    /// A file whose fingerprint changed between the two passes.
    #[error("{origin}: {path} changed while being read")]
    Changed {
        /// The side.
        origin: String,
        /// The path in the tree.
        path: String,
    },
}

fn io_text(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::UnexpectedEof => format!("{e} (truncated?)"),
        io::ErrorKind::InvalidInput | io::ErrorKind::InvalidData => format!("{e} (corrupt?)"),
        _ => e.to_string(),
    }
}

/// The archive formats lane opens, recognised by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveFormat {
    /// `.tar.gz`, `.tgz`: a packed cell.
    TarGz,
    /// `.tar`.
    Tar,
    /// `.pt2`, `.zip`: an AOTInductor package.
    Zip,
}

impl ArchiveFormat {
    /// The format a file name says, if any.
    pub fn of_name(name: &str) -> Option<ArchiveFormat> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".tar.gz") || lower.ends_with(".tgz") {
            Some(ArchiveFormat::TarGz)
        } else if lower.ends_with(".tar") {
            Some(ArchiveFormat::Tar)
        } else if lower.ends_with(".pt2") || lower.ends_with(".zip") {
            Some(ArchiveFormat::Zip)
        } else {
            None
        }
    }

    /// Its name in messages and JSON.
    pub fn name(self) -> &'static str {
        match self {
            ArchiveFormat::TarGz => "tar.gz",
            ArchiveFormat::Tar => "tar",
            ArchiveFormat::Zip => "zip",
        }
    }
}

/// A reader that can also seek (what a zip needs).
pub trait ReadSeek: Read + Seek {}
impl<T: Read + Seek> ReadSeek for T {}

/// A writable, seekable scratch space for one nested zip.
pub trait SpoolFile: Read + Write + Seek {}
impl<T: Read + Write + Seek> SpoolFile for T {}

/// Where nested zips larger than the memory limit are copied.
pub trait Spool {
    /// A fresh, empty scratch space.
    fn create(&mut self) -> io::Result<Box<dyn SpoolFile>>;
}

/// A [`Spool`] in memory: for tests, and for edges with no scratch disk.
#[derive(Debug, Default)]
pub struct MemorySpool;

impl Spool for MemorySpool {
    fn create(&mut self) -> io::Result<Box<dyn SpoolFile>> {
        Ok(Box::new(io::Cursor::new(Vec::new())))
    }
}

/// One entry at the top of a side, as the edge lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TopEntry {
    /// Its path in the tree, `/`-separated; `""` when the side is this one
    /// file (an archive's members then sit at the root).
    pub path: String,
    /// Its file name (what its format is recognised by).
    pub name: String,
    /// A file, or what was skipped.
    pub kind: TopKind,
}

/// What a top entry is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopKind {
    /// A regular file.
    File,
    /// Not a file: recorded, never read.
    Skipped(SkippedKind, Option<String>),
}

/// An opened top-level file.
pub enum Opened {
    /// A stream.
    Stream(Box<dyn Read>),
    /// A stream that can seek (a zip is read in place).
    Seekable(Box<dyn ReadSeek>),
}

/// The edge: lists a side's entries and opens its files.
pub trait Source {
    /// The side, for messages (its path as the user gave it).
    fn label(&self) -> String;
    /// Every entry, in a stable order.
    fn entries(&mut self) -> io::Result<Vec<TopEntry>>;
    /// Opens the file at `path` (as listed).
    fn open(&mut self, path: &str) -> io::Result<Opened>;
}

/// What to keep while reading.
#[derive(Debug, Clone, Copy)]
pub enum Keep<'p> {
    /// First pass: index files, and small files within the budget.
    First,
    /// Second pass: exactly these paths (nothing else is even hashed).
    Only(&'p BTreeSet<String>),
}

/// The files lane (or its agent) writes at the top of a results slot or
/// an attempt's folder, beside the cell.
const MINT_RECORDS: [&str; 8] = [
    file::MINT_RECORD,
    file::REPORT,
    file::RESULT,
    file::AGENT_LOG,
    file::AGENT_LOCK,
    file::STDOUT,
    file::STDERR,
    file::BUNDLE,
];

/// The folder where lane keeps what it gathered of the mint's own ledger
/// (the compile pool's share reports, the `TORCH_TRACE` logs, each named
/// by a random suffix): telemetry of the mint, not its cell.
const LEDGER_DIR: &str = "ledger/";

fn is_mint_record(path: &str) -> bool {
    MINT_RECORDS.contains(&path) || path.starts_with(LEDGER_DIR)
}

/// Reads one side. See the module documentation.
pub fn read_side(
    source: &mut dyn Source,
    keep: Keep<'_>,
    limits: &ReadLimits,
    spool: &mut dyn Spool,
) -> Result<CellSide, IngestError> {
    read_side_keeping(source, keep, limits, spool, None, None)
}

/// The first pass of [`read_side`], keeping the nested zips it spooled
/// (within [`RETAINED_MEMORY_BYTES`] in memory, [`RETAINED_SPOOLS`] in
/// the edge's spool) for [`complete_side_retained`]: the second pass then
/// reads the members it needs from them, without inflating the archive
/// around them again (a packed cell's `.pt2` is most of its bytes).
pub fn read_side_retaining(
    source: &mut dyn Source,
    limits: &ReadLimits,
    spool: &mut dyn Spool,
) -> Result<(CellSide, Retained), IngestError> {
    let mut retained = Retained::default();
    let side = read_side_keeping(
        source,
        Keep::First,
        limits,
        spool,
        Some(&mut retained),
        None,
    )?;
    Ok((side, retained))
}

/// The nested zips a first pass spooled, kept for its second pass (see
/// [`read_side_retaining`]). Dropping it frees them (a spool on disk is
/// an unlinked temporary file: nothing is left behind).
#[derive(Default)]
pub struct Retained {
    zips: Vec<RetainedZip>,
    memory_bytes: u64,
}

impl std::fmt::Debug for Retained {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let paths: Vec<&str> = self.zips.iter().map(|z| z.prefix.as_str()).collect();
        f.debug_struct("Retained")
            .field("zips", &paths)
            .field("memory_bytes", &self.memory_bytes)
            .finish()
    }
}

/// One spooled zip: where it sits in the tree, and its bytes.
struct RetainedZip {
    prefix: String,
    origin: String,
    depth: usize,
    file: Box<dyn SpoolFile>,
}

/// Spooled zips in memory kept for the second pass, in bytes per side, at
/// most (beyond it, they are dropped and read again if needed).
pub const RETAINED_MEMORY_BYTES: u64 = 64 << 20;

/// Spooled zips in the edge's spool kept for the second pass, per side, at
/// most (each holds a temporary file open).
pub const RETAINED_SPOOLS: usize = 64;

fn read_side_keeping(
    source: &mut dyn Source,
    keep: Keep<'_>,
    limits: &ReadLimits,
    spool: &mut dyn Spool,
    retain: Option<&mut Retained>,
    windows: Option<&Windows>,
) -> Result<CellSide, IngestError> {
    let label = source.label();
    let io_err = |source: io::Error| IngestError::Io {
        origin: label.clone(),
        source,
    };
    let entries = source.entries().map_err(io_err)?;
    // A results slot (`<cell>/<gpu>/r<N>/`, or an attempt's folder) holds
    // lane's records beside the cell: they are not the cell.
    let lane_folder = entries
        .iter()
        .any(|e| matches!(e.path.as_str(), file::MINT_RECORD | file::RESULT));
    let mut r = Reader {
        keep,
        limits,
        spool,
        side: CellSide::default(),
        seen: HashSet::new(),
        kept_bytes: 0,
        label: label.clone(),
        inflation: std::rc::Rc::default(),
        retain,
        windows,
    };
    r.side.chunks.max_content_bytes = limits.max_content_bytes;
    r.side.chunks.max_total_content_bytes = limits.max_total_content_bytes;
    // A refusal of the inflation meter reaches here as whatever IO error
    // the reader in between made of it: the meter's own words win.
    let walked = walk(&mut r, source, entries, lane_folder);
    if let Some(refused) = r.inflation.tripped.take() {
        return Err(refused);
    }
    walked?;
    r.side.skipped.sort();
    Ok(r.side)
}

fn walk(
    r: &mut Reader<'_>,
    source: &mut dyn Source,
    entries: Vec<TopEntry>,
    lane_folder: bool,
) -> Result<(), IngestError> {
    let label = r.label.clone();
    let io_err = |source: io::Error| IngestError::Io {
        origin: label.clone(),
        source,
    };
    for e in entries {
        match e.kind {
            TopKind::Skipped(kind, target) => r.side.skipped.push(SkippedEntry {
                path: if e.path.is_empty() { e.name } else { e.path },
                kind,
                target,
            }),
            TopKind::File if lane_folder && is_mint_record(&e.path) => {
                r.side.skipped.push(SkippedEntry {
                    path: e.path,
                    kind: SkippedKind::MintRecord,
                    target: None,
                })
            }
            TopKind::File => {
                let format = ArchiveFormat::of_name(&e.name);
                let path = if e.path.is_empty() && format.is_none() {
                    e.name.clone()
                } else {
                    e.path.clone()
                };
                if !r.wants_any_under(&path, format.is_some()) {
                    continue;
                }
                let opened = source.open(&e.path).map_err(io_err)?;
                let origin = if e.path.is_empty() {
                    label.clone()
                } else {
                    format!("{label}/{}", e.path)
                };
                match (format, opened) {
                    (Some(f), Opened::Stream(mut s)) => {
                        r.container(f, &path, &origin, Input::Stream(&mut *s), 0, None)?;
                    }
                    (Some(f), Opened::Seekable(mut s)) => {
                        r.container(f, &path, &origin, Input::Seekable(&mut *s), 0, None)?;
                    }
                    (None, Opened::Stream(mut s)) => r.file(&path, &origin, &mut *s)?,
                    (None, Opened::Seekable(mut s)) => r.file(&path, &origin, &mut *s)?,
                }
            }
        }
    }
    Ok(())
}

struct Reader<'a> {
    keep: Keep<'a>,
    limits: &'a ReadLimits,
    spool: &'a mut dyn Spool,
    side: CellSide,
    seen: HashSet<String>,
    kept_bytes: u64,
    label: String,
    inflation: std::rc::Rc<archive::Inflation>,
    /// Where a first pass keeps the zips it spooled.
    retain: Option<&'a mut Retained>,
    /// The chunks a second pass reads again, per path.
    windows: Option<&'a Windows>,
}

/// The chunks (indices of [`CHUNK_BYTES`] chunks) a second pass reads
/// again, per path: [`chunks::window_plan`].
pub type Windows = BTreeMap<String, Vec<u64>>;

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_owned()
    } else {
        format!("{prefix}/{name}")
    }
}

impl Reader<'_> {
    /// Whether anything at or under `path` is wanted (second pass only).
    fn wants_any_under(&self, path: &str, container: bool) -> bool {
        match self.keep {
            Keep::First => true,
            Keep::Only(set) => {
                set.contains(path)
                    || (container
                        && (path.is_empty()
                            || set
                                .range(format!("{path}/")..)
                                .next()
                                .is_some_and(|p| p.starts_with(&format!("{path}/")))))
            }
        }
    }

    fn should_keep(&self, path: &str, size: Option<u64>) -> bool {
        match self.keep {
            Keep::First => {
                if is_index_file(path) {
                    return true;
                }
                let small = size.is_some_and(|s| s <= self.limits.keep_small_bytes);
                small && self.kept_bytes + size.unwrap_or(0) <= self.limits.keep_budget_bytes
            }
            Keep::Only(set) => set.contains(path),
        }
    }

    /// Fingerprints one file (keeping its content when wanted).
    fn file(&mut self, path: &str, origin: &str, r: &mut dyn Read) -> Result<(), IngestError> {
        self.file_sized(path, origin, None, r)
    }

    fn file_sized(
        &mut self,
        path: &str,
        origin: &str,
        size: Option<u64>,
        r: &mut dyn Read,
    ) -> Result<(), IngestError> {
        if self.side.tree.files.len() >= self.limits.max_members {
            return Err(IngestError::TooManyMembers {
                origin: self.label.clone(),
                max: self.limits.max_members,
            });
        }
        if !self.seen.insert(path.to_owned()) {
            return Err(IngestError::Duplicate {
                origin: origin.to_owned(),
                path: path.to_owned(),
            });
        }
        let member = || path.rsplit('/').next().unwrap_or(path).to_owned();
        if size.is_some_and(|s| s > self.limits.max_member_bytes) {
            return Err(IngestError::TooLarge {
                origin: origin.to_owned(),
                member: member(),
                cap: self.limits.max_member_bytes,
            });
        }
        if let Some(chunks) = self.windows.and_then(|w| w.get(path)) {
            let windows = read_windows(r, chunks).map_err(|source| IngestError::MemberIo {
                origin: origin.to_owned(),
                member: member(),
                source,
            })?;
            self.side
                .chunks
                .files
                .entry(path.to_owned())
                .or_default()
                .windows = windows;
            return Ok(());
        }
        let keep = self.should_keep(path, size);
        let (size, sha256, content, crcs) =
            fingerprint(r, keep, self.limits).map_err(|e| match e {
                Fingerprint::Io(source) => IngestError::MemberIo {
                    origin: origin.to_owned(),
                    member: member(),
                    source,
                },
                Fingerprint::TooLarge => IngestError::TooLarge {
                    origin: origin.to_owned(),
                    member: member(),
                    cap: self.limits.max_member_bytes,
                },
            })?;
        if let Some(c) = &content {
            if matches!(self.keep, Keep::First) && !is_index_file(path) {
                self.kept_bytes += c.len() as u64;
            }
        }
        if content.is_none() || size > self.limits.keep_small_bytes {
            let printed = chunks::Chunked {
                crcs,
                windows: Vec::new(),
            };
            self.side.chunks.files.insert(path.to_owned(), printed);
        }
        self.side.tree.files.push(ArtifactFile {
            path: path.to_owned(),
            size,
            sha256,
            content,
        });
        Ok(())
    }
}

enum Fingerprint {
    Io(io::Error),
    TooLarge,
}

/// Size, sha256, (when `keep` and small enough) the content, and the
/// chunk prints of a stream.
type Printed = (u64, String, Option<Vec<u8>>, Vec<u32>);

/// Size, sha256 and (when `keep` and small enough) the content of a
/// stream, and its chunk prints ([`chunks`]).
fn fingerprint(r: &mut dyn Read, keep: bool, limits: &ReadLimits) -> Result<Printed, Fingerprint> {
    let mut hasher = Sha256::new();
    let mut tap = Tap::default();
    let mut buf = vec![0u8; 64 * 1024];
    let mut size = 0u64;
    let mut content = keep.then(Vec::new);
    loop {
        let n = match r.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Fingerprint::Io(e)),
        };
        size += n as u64;
        if size > limits.max_member_bytes {
            return Err(Fingerprint::TooLarge);
        }
        hasher.update(&buf[..n]);
        tap.update(&buf[..n]);
        if let Some(c) = &mut content {
            if size > limits.max_content_bytes {
                content = None;
            } else {
                c.extend_from_slice(&buf[..n]);
            }
        }
    }
    Ok((
        size,
        format!("{:x}", hasher.finalize()),
        content,
        tap.finish(),
    ))
}

#[cfg(test)]
mod tests;
