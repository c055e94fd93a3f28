//! Headless Chromium (Debian's `chromium`, which `./just tools` installs),
//! for tests that look at a page as a person would: a screenshot of a
//! self-contained HTML file, saved under `<target>/screenshots/` as a test
//! artifact (never committed). Unlike the tools of [`crate::tools`], a
//! missing `chromium` skips such a test with one line ([`available`]).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether `chromium` runs here; when not, says so once on stderr (the
/// one line a skipped test prints).
pub fn available() -> bool {
    let ok = Command::new("chromium").arg("--version").output().is_ok();
    if !ok {
        eprintln!("skipped: chromium is not installed (./just tools installs it)");
    }
    ok
}

/// `<target>/screenshots/`, made: `target_tmpdir` is the test's
/// `env!("CARGO_TARGET_TMPDIR")`.
pub fn screenshots(target_tmpdir: &str) -> PathBuf {
    let dir = Path::new(target_tmpdir)
        .parent()
        .expect("the target tmp dir has a parent")
        .join("screenshots");
    std::fs::create_dir_all(&dir).expect("the screenshots folder");
    dir
}

/// A screenshot of the page at `page` (an absolute path) in a window
/// 1280 wide and `height` tall, written to `png`; panics with Chromium's
/// stderr when it fails, and when the file is not a PNG of some size (a
/// blank page is a few kilobytes).
pub fn screenshot(page: &Path, png: &Path, height: u32) {
    let profile = std::env::temp_dir().join(format!(
        "lane-chromium-{}-{}",
        std::process::id(),
        png.file_stem().and_then(|s| s.to_str()).unwrap_or("page")
    ));
    let o = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--disable-component-update",
            "--disable-sync",
            &format!("--user-data-dir={}", profile.display()),
            &format!("--screenshot={}", png.display()),
            &format!("--window-size=1280,{height}"),
            &format!("file://{}", page.display()),
        ])
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(&profile);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let bytes = std::fs::read(png).expect("the screenshot");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", png.display());
    assert!(
        bytes.len() > 50_000,
        "{} is {} bytes: a blank page?",
        png.display(),
        bytes.len()
    );
}
