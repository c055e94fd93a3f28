//! Walking tar (optionally gzipped) and zip archives, member by member,
//! recursing into archives found inside them.

use std::cell::{Cell, RefCell};
use std::io::{self, Read, Seek, SeekFrom};
use std::rc::Rc;

use super::{
    join, ArchiveFormat, IngestError, ReadSeek, Reader, RetainedZip, SpoolFile, RATIO_GRACE_BYTES,
    RETAINED_MEMORY_BYTES, RETAINED_SPOOLS,
};
use crate::model::{ContainerInfo, SkippedEntry, SkippedKind};

/// What one side's read has inflated, and the refusal once a cap is passed.
#[derive(Debug, Default)]
pub(super) struct Inflation {
    total: Cell<u64>,
    pub(super) tripped: RefCell<Option<IngestError>>,
}

/// How much a compressed stream has read: counted as it goes (gzip), or
/// what its header says (a zip member's compressed size, which its reader
/// never reads past).
enum Compressed {
    Counted(Rc<Cell<u64>>),
    Fixed(u64),
}

/// A reader that counts what it passes on.
struct Counting<R> {
    inner: R,
    n: Rc<Cell<u64>>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.n.set(self.n.get() + n as u64);
        Ok(n)
    }
}

/// A decompressing reader on the side's meter: past the side's budget, or
/// past the ratio cap, it records the refusal and fails the read.
struct Inflating<R> {
    inner: R,
    compressed: Compressed,
    out: u64,
    origin: String,
    meter: Rc<Inflation>,
    max_total: u64,
    max_ratio: u64,
}

impl<R: Read> Read for Inflating<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.out += n as u64;
        let total = self.meter.total.get() + n as u64;
        self.meter.total.set(total);
        let compressed = match &self.compressed {
            Compressed::Counted(c) => c.get(),
            Compressed::Fixed(c) => *c,
        };
        let refused = if total > self.max_total {
            Some(IngestError::InflatedBudget {
                origin: self.origin.clone(),
                cap: self.max_total,
            })
        } else if self.out > RATIO_GRACE_BYTES
            && self.out > compressed.saturating_mul(self.max_ratio)
        {
            Some(IngestError::InflateRatio {
                origin: self.origin.clone(),
                ratio: self.max_ratio,
            })
        } else {
            None
        };
        match refused {
            None => Ok(n),
            Some(e) => {
                let words = e.to_string();
                self.meter.tripped.borrow_mut().get_or_insert(e);
                Err(io::Error::other(words))
            }
        }
    }
}

/// `io::copy` with a buffer large enough that a spooled zip costs few
/// reads of its decompressor and few writes (`io::copy`'s is 8 KiB).
fn copy_large(r: &mut dyn Read, w: &mut dyn io::Write) -> io::Result<u64> {
    let mut buf = vec![0u8; 256 * 1024];
    let mut n = 0u64;
    loop {
        let k = match r.read(&mut buf) {
            Ok(0) => return Ok(n),
            Ok(k) => k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        w.write_all(&buf[..k])?;
        n += k as u64;
    }
}

/// An archive's bytes, borrowed for the walk.
pub(super) enum Input<'r> {
    Stream(&'r mut dyn Read),
    Seekable(&'r mut dyn ReadSeek),
}

/// A member name made safe: `None` when it is absolute or climbs out,
/// `Some(None)` for the archive's root (`./`), else the cleaned path.
fn clean_member(raw: &str) -> Option<Option<String>> {
    if raw.starts_with('/') || raw.contains('\\') {
        return None;
    }
    let mut parts = Vec::new();
    for c in raw.split('/') {
        match c {
            "" | "." => {}
            ".." => return None,
            c => parts.push(c),
        }
    }
    Some((!parts.is_empty()).then(|| parts.join("/")))
}

/// The folder every member of a zip sits under, when there is one (a
/// `.pt2` keeps all under a folder named after the package).
fn common_top(names: &[String]) -> Option<String> {
    let mut top: Option<&str> = None;
    for n in names {
        let (first, _) = n.split_once('/')?;
        if first.is_empty() || first == "." || first == ".." {
            return None;
        }
        match top {
            None => top = Some(first),
            Some(t) if t == first => {}
            Some(_) => return None,
        }
    }
    top.map(str::to_owned)
}

impl Reader<'_> {
    /// `inner` (a decompressor) on this side's inflation meter.
    fn inflating<R: Read>(&self, inner: R, compressed: Compressed, origin: &str) -> Inflating<R> {
        Inflating {
            inner,
            compressed,
            out: 0,
            origin: origin.to_owned(),
            meter: Rc::clone(&self.inflation),
            max_total: self.limits.max_inflated_bytes,
            max_ratio: self.limits.max_inflate_ratio,
        }
    }

    pub(super) fn container(
        &mut self,
        format: ArchiveFormat,
        prefix: &str,
        origin: &str,
        input: Input<'_>,
        depth: usize,
        size: Option<u64>,
    ) -> Result<(), IngestError> {
        if depth >= self.limits.max_depth {
            return Err(IngestError::TooDeep {
                origin: origin.to_owned(),
                member: prefix.rsplit('/').next().unwrap_or(prefix).to_owned(),
                max: self.limits.max_depth,
            });
        }
        match (format, input) {
            (ArchiveFormat::TarGz, Input::Stream(r)) => self.tar(r, true, prefix, origin, depth),
            (ArchiveFormat::TarGz, Input::Seekable(r)) => self.tar(r, true, prefix, origin, depth),
            (ArchiveFormat::Tar, Input::Stream(r)) => self.tar(r, false, prefix, origin, depth),
            (ArchiveFormat::Tar, Input::Seekable(r)) => self.tar(r, false, prefix, origin, depth),
            (ArchiveFormat::Zip, Input::Seekable(r)) => self.zip(r, prefix, origin, depth),
            (ArchiveFormat::Zip, Input::Stream(r)) => {
                let (mut spooled, in_memory) = self.spool_stream(r, size, origin)?;
                self.zip(&mut spooled, prefix, origin, depth)?;
                self.retain_spool(spooled, in_memory, prefix, origin, depth);
                Ok(())
            }
        }
    }

    /// Keeps a zip the first pass spooled, for the second, within the
    /// retention limits.
    fn retain_spool(
        &mut self,
        file: Box<dyn SpoolFile>,
        in_memory: Option<u64>,
        prefix: &str,
        origin: &str,
        depth: usize,
    ) {
        let Some(kept) = self.retain.as_deref_mut() else {
            return;
        };
        match in_memory {
            Some(n) if kept.memory_bytes + n > RETAINED_MEMORY_BYTES => return,
            Some(n) => kept.memory_bytes += n,
            None if kept.zips.len() >= RETAINED_SPOOLS => return,
            None => {}
        }
        kept.zips.push(RetainedZip {
            prefix: prefix.to_owned(),
            origin: origin.to_owned(),
            depth,
            file,
        });
    }

    /// Copies a nested zip where its central directory can be reached;
    /// with its size when the copy is in memory.
    fn spool_stream(
        &mut self,
        r: &mut dyn Read,
        size: Option<u64>,
        origin: &str,
    ) -> Result<(Box<dyn SpoolFile>, Option<u64>), IngestError> {
        let io_err = |source: io::Error| IngestError::Io {
            origin: origin.to_owned(),
            source,
        };
        let (mut f, in_memory): (Box<dyn SpoolFile>, _) = match size {
            Some(s) if s <= self.limits.max_spool_memory_bytes => (
                Box::new(io::Cursor::new(Vec::with_capacity(
                    usize::try_from(s).unwrap_or(0),
                ))),
                Some(s),
            ),
            _ => (self.spool.create().map_err(io_err)?, None),
        };
        let cap = self.limits.max_member_bytes;
        let n = copy_large(&mut r.take(cap + 1), &mut f).map_err(io_err)?;
        if n > cap {
            // `origin` is "<outer>: member <name>": the error names both.
            let (outer, member) = origin
                .rsplit_once(": member ")
                .map_or((origin, ""), |(o, m)| (o, m));
            return Err(IngestError::TooLarge {
                origin: outer.to_owned(),
                member: member.to_owned(),
                cap,
            });
        }
        f.seek(SeekFrom::Start(0)).map_err(io_err)?;
        Ok((f, in_memory.map(|_| n)))
    }

    /// The archive's row, listed before what it holds (outermost first).
    fn reserve_container(&mut self, prefix: &str, format: ArchiveFormat) -> usize {
        self.side.containers.push(ContainerInfo {
            path: prefix.to_owned(),
            format: format.name(),
            members: 0,
            stripped_top: None,
        });
        self.side.containers.len() - 1
    }

    fn skip(&mut self, path: String, kind: SkippedKind, target: Option<String>) {
        self.side.skipped.push(SkippedEntry { path, kind, target });
    }

    fn tar(
        &mut self,
        r: &mut dyn Read,
        gz: bool,
        prefix: &str,
        origin: &str,
        depth: usize,
    ) -> Result<(), IngestError> {
        let format = if gz {
            ArchiveFormat::TarGz
        } else {
            ArchiveFormat::Tar
        };
        let mut gzr;
        let inner: &mut dyn Read = if gz {
            let read = Rc::new(Cell::new(0));
            let counted = Counting {
                inner: r,
                n: Rc::clone(&read),
            };
            gzr = self.inflating(
                flate2::read::GzDecoder::new(counted),
                Compressed::Counted(read),
                origin,
            );
            &mut gzr
        } else {
            r
        };
        let mut archive = tar::Archive::new(inner);
        let at_end = |source: io::Error| IngestError::MemberIo {
            origin: origin.to_owned(),
            member: "(after the last member read)".into(),
            source,
        };
        let slot = self.reserve_container(prefix, format);
        let mut members = 0usize;
        let mut last = String::new();
        let entries = archive.entries().map_err(at_end)?;
        for entry in entries {
            let mut e = entry.map_err(|source| IngestError::MemberIo {
                origin: origin.to_owned(),
                member: if last.is_empty() {
                    "(the first member)".into()
                } else {
                    format!("(after {last})")
                },
                source,
            })?;
            let etype = e.header().entry_type();
            if etype.is_pax_global_extensions()
                || etype.is_pax_local_extensions()
                || etype.is_gnu_longname()
                || etype.is_gnu_longlink()
            {
                continue;
            }
            let raw = String::from_utf8_lossy(&e.path_bytes()).into_owned();
            let Some(name) = clean_member(&raw) else {
                return Err(IngestError::UnsafePath {
                    origin: origin.to_owned(),
                    member: raw,
                });
            };
            let Some(name) = name else { continue };
            last.clone_from(&name);
            if etype.is_dir() {
                continue;
            }
            let path = join(prefix, &name);
            if etype.is_file() || etype.is_contiguous() || etype.is_gnu_sparse() {
                members += 1;
                let size = e.size();
                self.member(&path, &name, origin, &mut e, Some(size), depth)?;
                continue;
            }
            let target = e
                .link_name_bytes()
                .map(|b| String::from_utf8_lossy(&b).into_owned());
            let kind = if etype.is_symlink() {
                SkippedKind::Symlink
            } else if etype.is_hard_link() {
                SkippedKind::HardLink
            } else if etype.is_fifo() {
                SkippedKind::Fifo
            } else if etype.is_character_special() || etype.is_block_special() {
                SkippedKind::Device
            } else {
                SkippedKind::Other
            };
            tracing::debug!(%path, ?kind, "skipping a non-regular archive member");
            self.skip(path, kind, target);
        }
        // Read to the end, so a gzip stream's checksum and length are checked.
        let mut rest = archive.into_inner();
        io::copy(&mut rest, &mut io::sink()).map_err(at_end)?;
        self.side.containers[slot].members = members;
        Ok(())
    }

    /// One regular member: a nested archive, or a file.
    fn member(
        &mut self,
        path: &str,
        name: &str,
        origin: &str,
        r: &mut dyn Read,
        size: Option<u64>,
        depth: usize,
    ) -> Result<(), IngestError> {
        match ArchiveFormat::of_name(name) {
            Some(format) => {
                if !self.wants_any_under(path, true) {
                    return Ok(());
                }
                let nested = format!("{origin}: member {name}");
                self.container(format, path, &nested, Input::Stream(r), depth + 1, size)
            }
            None => {
                if !self.wants_any_under(path, false) {
                    return Ok(());
                }
                self.file_sized(path, origin, size, r)
            }
        }
    }

    pub(super) fn zip(
        &mut self,
        r: &mut dyn ReadSeek,
        prefix: &str,
        origin: &str,
        depth: usize,
    ) -> Result<(), IngestError> {
        let bad = |e: zip::result::ZipError| IngestError::BadArchive {
            origin: origin.to_owned(),
            format: "zip",
            detail: e.to_string(),
        };
        let mut z = zip::ZipArchive::new(r).map_err(bad)?;
        let names: Vec<String> = z.file_names().map(str::to_owned).collect();
        let top = common_top(&names);
        let slot = self.reserve_container(prefix, ArchiveFormat::Zip);
        self.side.containers[slot].stripped_top.clone_from(&top);
        let mut members = 0usize;
        for i in 0..z.len() {
            let mut e = z.by_index(i).map_err(bad)?;
            let raw = e.name().to_owned();
            let unsafe_path = || IngestError::UnsafePath {
                origin: origin.to_owned(),
                member: raw.clone(),
            };
            if e.enclosed_name().is_none() {
                return Err(unsafe_path());
            }
            if e.is_dir() {
                continue;
            }
            let stripped = match &top {
                Some(t) => raw
                    .strip_prefix(t.as_str())
                    .and_then(|r| r.strip_prefix('/'))
                    .unwrap_or(&raw),
                None => raw.as_str(),
            };
            let Some(Some(name)) = clean_member(stripped) else {
                return Err(unsafe_path());
            };
            let path = join(prefix, &name);
            if e.is_symlink() {
                let mut target = String::new();
                let _ = (&mut e).take(4096).read_to_string(&mut target);
                self.skip(path, SkippedKind::Symlink, Some(target));
                continue;
            }
            members += 1;
            let size = e.size();
            let packed = Compressed::Fixed(e.compressed_size());
            let mut inflating = self.inflating(&mut e, packed, &format!("{origin}: member {name}"));
            self.member(&path, &name, origin, &mut inflating, Some(size), depth)?;
        }
        self.side.containers[slot].members = members;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_names_are_cleaned_or_refused() {
        assert_eq!(clean_member("./a/b"), Some(Some("a/b".into())));
        assert_eq!(clean_member("./"), Some(None));
        assert_eq!(clean_member("a//b/"), Some(Some("a/b".into())));
        assert_eq!(clean_member("../etc"), None);
        assert_eq!(clean_member("a/../../b"), None);
        assert_eq!(clean_member("/etc/passwd"), None);
    }

    #[test]
    fn a_pt2s_top_folder_is_found() {
        let n = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert_eq!(
            common_top(&n(&["model/a", "model/.data/v"])).as_deref(),
            Some("model")
        );
        assert_eq!(common_top(&n(&["model/a", "other/b"])), None);
        assert_eq!(common_top(&n(&["a", "model/b"])), None);
    }
}
