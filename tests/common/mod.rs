#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mcptap"));
    c.current_dir(root());
    c.stdin(Stdio::null());
    c
}

pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("mcptap runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error with the summary's wall-time line (`  elapsed: ...`, the one line of a run that is not
/// reproducible) replaced by `  elapsed:   <wall time>`, so summaries compare byte for byte and goldens
/// still show where the line goes.
pub fn stderr(o: &Output) -> String {
    normalise_elapsed(&String::from_utf8_lossy(&o.stderr))
}

pub fn normalise_elapsed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        // `--threads N`: the workers' CPU times, measured like the wall time and present only with N > 1.
        if line.starts_with("  workers:") {
            continue;
        }
        if line.starts_with("  elapsed:") {
            out.push_str("  elapsed:   <wall time>");
            out.push_str(if line.ends_with('\n') { "\n" } else { "" });
        } else {
            out.push_str(line);
        }
    }
    out
}

/// An external tool found on `PATH` (the names build.rs probes). Tests that call this are marked
/// `#[cfg_attr(not(any(has_TOOL, ci)), ignore = "...")]`: they run only where build.rs found the tool, or
/// under CI=true, where a missing tool must fail the test rather than skip it.
pub fn tool(names: &[&str]) -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    names
        .iter()
        .find_map(|n| std::env::split_paths(&path).map(|d| d.join(n)).find(|p| p.is_file()))
        .unwrap_or_else(|| panic!("{} not found on PATH (.ci/run installs it; see README \"The full test suite\")", names.join(" or ")))
}

pub fn tshark() -> PathBuf {
    tool(&["tshark"])
}

pub fn chromium() -> PathBuf {
    tool(&["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"])
}

pub fn gnu_time() -> PathBuf {
    tool(&["time"])
}

/// A scratch directory under the temp dir, removed with everything in it when dropped (also when the
/// test fails), so test runs leave nothing behind.
pub struct Scratch(PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("mcptap-test-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
    pub fn path(&self) -> &Path {
        &self.0
    }
    pub fn join(&self, p: impl AsRef<Path>) -> PathBuf {
        self.0.join(p)
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Every capture in `samples/`, sorted by name.
pub fn samples() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("samples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("pcap" | "pcapng")))
        .collect();
    v.sort();
    v
}

/// Whether goldens are to be rewritten: `UPDATE_GOLDEN` set, refused under `CI=true` (CI must compare,
/// never bless what it produced).
pub fn update_golden(update: Option<&str>, ci: Option<&str>) -> bool {
    match (update, ci) {
        (None, _) => false,
        (Some(_), Some("true")) => panic!("UPDATE_GOLDEN is refused under CI=true: CI compares with the goldens, it never rewrites them"),
        (Some(_), _) => true,
    }
}

#[test]
fn update_golden_is_refused_under_ci() {
    assert!(!update_golden(None, Some("true")));
    assert!(!update_golden(None, None));
    assert!(update_golden(Some("1"), None));
    assert!(update_golden(Some("1"), Some("false")));
    let refused = std::panic::catch_unwind(|| update_golden(Some("1"), Some("true")));
    assert!(refused.is_err(), "UPDATE_GOLDEN must be refused under CI=true");
}

#[test]
fn scratch_dirs_are_removed_when_dropped() {
    let s = Scratch::new("scratch-self-test");
    std::fs::create_dir_all(s.join("a/b")).unwrap();
    std::fs::write(s.join("a/b/c"), "x").unwrap();
    let p = s.path().to_path_buf();
    drop(s);
    assert!(!p.exists(), "{} left behind", p.display());
}

/// Compares `got` with the golden file; with `UPDATE_GOLDEN=1` rewrites it instead (Zeek's `btest -U`),
/// except under `CI=true`. On mismatch, fails with both texts and the first differing line.
pub fn assert_golden(golden: &Path, got: &str) {
    let update = std::env::var("UPDATE_GOLDEN").ok();
    let ci = std::env::var("CI").ok();
    if update_golden(update.as_deref(), ci.as_deref()) {
        std::fs::create_dir_all(golden.parent().unwrap()).unwrap();
        std::fs::write(golden, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(golden)
        .unwrap_or_else(|e| panic!("{}: {e}; run `UPDATE_GOLDEN=1 cargo test` to create it", golden.display()));
    if want != got {
        let line = want.lines().zip(got.lines()).position(|(a, b)| a != b).unwrap_or_else(|| want.lines().count().min(got.lines().count()));
        panic!(
            "\n{} differs from the output (first difference at line {}).\n\n===== expected =====\n{want}\n===== got =====\n{got}\n=====\nIf the change is intended: UPDATE_GOLDEN=1 cargo test\n",
            golden.display(),
            line + 1
        );
    }
}

/// Parses the CSV report into rows of columns (header included).
pub fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
    r.records().map(|rec| rec.unwrap().iter().map(str::to_string).collect()).collect()
}
