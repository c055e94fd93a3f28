//! Does a gathered cell hold GPU code? A mint on a GPU class whose cells
//! hold none compiled for the CPU, whatever its metadata says: the
//! gen-worker 0.114.3 and 0.126.3 rig entries recorded on an H200 are CPU
//! AOTInductor packages (`kernel.cpp`, one host `wrapper.so`, no `.cubin`)
//! stamped `"sm": "sm_90"` (`tests/data/gw-eras/README.md`).
//!
//! GPU code objects counted: `*.cubin` members (a dynamo cell's
//! `triton/**`, an AOTInductor package's kernels), and shared objects that
//! embed a CUDA fat binary (an ELF with a `.nv_fatbin` section). A `.pt2`
//! (a zip) is read inside a `.tar.gz` too.

use std::io::{Read, Seek, Write};
use std::path::Path;

/// The section name an ELF embedding a CUDA fat binary carries.
const FATBIN_SECTION: &[u8] = b".nv_fatbin";

/// GPU code objects in the cell at `path`: `None` when lane cannot look
/// inside it (not a `.tar.gz`, `.tgz`, `.pt2` or `.zip`, or unreadable).
/// `scratch` is a folder for a `.pt2` read out of a tarball.
pub fn gpu_code(path: &Path, scratch: &Path) -> Option<u64> {
    let name = path.file_name()?.to_str()?.to_ascii_lowercase();
    if name.ends_with(".tar.gz") || name.ends_with(".tgz") {
        tarball(path, scratch)
    } else if name.ends_with(".pt2") || name.ends_with(".zip") {
        zip_members(std::fs::File::open(path).ok()?)
    } else {
        None
    }
}

fn tarball(path: &Path, scratch: &Path) -> Option<u64> {
    let file = std::fs::File::open(path).ok()?;
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut n = 0;
    for entry in archive.entries().ok()? {
        let mut entry = entry.ok()?;
        let member = entry.path().ok()?.to_string_lossy().to_ascii_lowercase();
        if member.ends_with(".cubin") {
            n += 1;
        } else if member.ends_with(".so") {
            n += u64::from(holds_fatbin(&mut entry)?);
        } else if member.ends_with(".pt2") || member.ends_with(".zip") {
            // A zip wants its central directory: spool the member.
            let mut spool = tempfile::tempfile_in(scratch).ok()?;
            std::io::copy(&mut entry, &mut spool).ok()?;
            spool.flush().ok()?;
            spool.rewind().ok()?;
            n += zip_members(spool)?;
        }
    }
    Some(n)
}

fn zip_members<R: Read + Seek>(reader: R) -> Option<u64> {
    let mut zip = zip::ZipArchive::new(reader).ok()?;
    let mut n = 0;
    for i in 0..zip.len() {
        let mut member = zip.by_index(i).ok()?;
        let name = member.name().to_ascii_lowercase();
        if name.ends_with(".cubin") {
            n += 1;
        } else if name.ends_with(".so") {
            n += u64::from(holds_fatbin(&mut member)?);
        }
    }
    Some(n)
}

/// Whether a stream holds [`FATBIN_SECTION`] (read in blocks, the name
/// found across a block boundary too).
fn holds_fatbin(r: &mut dyn Read) -> Option<bool> {
    let mut buf = vec![0u8; 1 << 16];
    let mut carry: Vec<u8> = Vec::new();
    loop {
        let got = r.read(&mut buf).ok()?;
        if got == 0 {
            return Some(false);
        }
        carry.extend_from_slice(&buf[..got]);
        if carry
            .windows(FATBIN_SECTION.len())
            .any(|w| w == FATBIN_SECTION)
        {
            return Some(true);
        }
        let keep = carry.len().min(FATBIN_SECTION.len() - 1);
        carry.drain(..carry.len() - keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tar_gz(dir: &Path, name: &str, members: &[(&str, &[u8])]) -> std::path::PathBuf {
        let path = dir.join(name);
        let f = std::fs::File::create(&path).unwrap();
        let mut b = tar::Builder::new(flate2::write::GzEncoder::new(
            f,
            flate2::Compression::fast(),
        ));
        for (m, bytes) in members {
            let mut h = tar::Header::new_gnu();
            h.set_size(bytes.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            b.append_data(&mut h, m, *bytes).unwrap();
        }
        b.into_inner().unwrap().finish().unwrap();
        path
    }

    fn pt2(members: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        let mut z = zip::ZipWriter::new(&mut out);
        for (m, bytes) in members {
            z.start_file(*m, zip::write::SimpleFileOptions::default())
                .unwrap();
            z.write_all(bytes).unwrap();
        }
        z.finish().unwrap();
        out.into_inner()
    }

    #[test]
    fn cubins_and_fatbins_are_counted_inside_a_pt2_inside_a_tarball() {
        let d = tempfile::tempdir().unwrap();
        let mut so = vec![0u8; 70_000];
        // Across the first 64 KiB block boundary.
        so[65_530..65_540].copy_from_slice(FATBIN_SECTION);
        let gpu = pt2(&[("m/data/a.cubin", b"x"), ("m/data/w.so", &so)]);
        let cpu = pt2(&[
            ("m/data/kernel.cpp", b"void f(){}"),
            ("m/data/w.so", b"\x7fELF host"),
        ]);
        let p = tar_gz(
            d.path(),
            "g.tar.gz",
            &[("metadata.json", b"{}"), ("model.pt2", &gpu)],
        );
        assert_eq!(gpu_code(&p, d.path()), Some(2));
        let p = tar_gz(
            d.path(),
            "c.tar.gz",
            &[("metadata.json", b"{}"), ("model.pt2", &cpu)],
        );
        assert_eq!(gpu_code(&p, d.path()), Some(0));
        // A dynamo cell: triton cubins straight in the tarball.
        let p = tar_gz(d.path(), "dyn.tar.gz", &[("triton/H/k.cubin", b"x")]);
        assert_eq!(gpu_code(&p, d.path()), Some(1));
        // A bare .pt2, and something lane cannot look into.
        std::fs::write(d.path().join("model.pt2"), &gpu).unwrap();
        assert_eq!(gpu_code(&d.path().join("model.pt2"), d.path()), Some(2));
        std::fs::write(d.path().join("cell.bin"), b"?").unwrap();
        assert_eq!(gpu_code(&d.path().join("cell.bin"), d.path()), None);
        std::fs::write(d.path().join("bad.tar.gz"), b"not gzip").unwrap();
        assert_eq!(gpu_code(&d.path().join("bad.tar.gz"), d.path()), None);
    }
}
