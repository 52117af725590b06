//! The site under test: the sub-path the page is built for, how long it may take to be ready, where the built page
//! is (and a snapshot of it that a rebuild cannot change under a test), and where a test leaves its artifacts.

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The sub-path the page is built for (`trunk build --public-url /bagsim/`) and served under.
pub const BASE_PATH: &str = "/bagsim/";

/// How long a page may take to load and announce that its worker is ready.
pub const READY_TIMEOUT: Duration = Duration::from_secs(60);

/// The workspace root (the parent of this crate).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("e2e sits inside the workspace").to_path_buf()
}

/// The built page: `$BAGSIM_DIST`, else `<workspace root>/dist`.
pub fn dist_dir() -> PathBuf {
    match std::env::var_os("BAGSIM_DIST") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => workspace_root().join("dist"),
    }
}

/// The built page, or a panic that says how to build it. Never lets a test pass without the page.
pub fn require_dist() -> PathBuf {
    let dist = dist_dir();
    let index = dist.join("index.html");
    let html = std::fs::read_to_string(&index).unwrap_or_else(|e| {
        panic!(
            "the built page is missing: cannot read {} ({e}).\n\
             Build it and run the browser tests with scripts/test-browser.sh \
             (it runs `trunk build --release --public-url {BASE_PATH}` first), \
             or point BAGSIM_DIST at a directory built that way.",
            index.display()
        )
    });
    assert!(
        html.contains(&format!("href=\"{BASE_PATH}\"")) || html.contains(&format!("\"{BASE_PATH}")),
        "{} was not built for the sub-path {BASE_PATH}: run scripts/test-browser.sh \
         (trunk build --release --public-url {BASE_PATH})",
        index.display()
    );
    dist
}

/// A private copy of a directory under /tmp, deleted on drop.
pub struct Snapshot {
    pub path: PathBuf,
}

impl Drop for Snapshot {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Copies the built page to a private directory, so that a `trunk build` that replaces dist/ while a test runs (the
/// page's author may be rebuilding) cannot change the files under the test.
pub fn snapshot(dist: &Path) -> Snapshot {
    fn copy(from: &Path, to: &Path) -> std::io::Result<()> {
        std::fs::create_dir_all(to)?;
        for entry in std::fs::read_dir(from)? {
            let entry = entry?;
            let target = to.join(entry.file_name());
            if entry.file_type()?.is_dir() {
                copy(&entry.path(), &target)?;
            } else {
                std::fs::copy(entry.path(), target)?;
            }
        }
        Ok(())
    }
    let path = unique_temp_dir("bagsim-e2e-dist");
    copy(dist, &path).unwrap_or_else(|e| panic!("cannot copy {} to {}: {e}", dist.display(), path.display()));
    let snap = Snapshot { path };
    assert!(
        snap.path.join("index.html").is_file(),
        "{} changed while it was copied (a trunk build running?): try again",
        dist.display()
    );
    snap
}

/// Where tests put screenshots: `<target dir>/e2e/`.
pub fn artifact_dir() -> PathBuf {
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(t) if !t.is_empty() => PathBuf::from(t),
        _ => workspace_root().join("target"),
    };
    let dir = target.join("e2e");
    std::fs::create_dir_all(&dir).expect("create target/e2e");
    dir
}

/// A new, empty directory under the temp dir whose name starts with `prefix`.
pub(crate) fn unique_temp_dir(prefix: &str) -> PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("{prefix}-{}-{n}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}
