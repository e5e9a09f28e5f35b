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

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
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

/// Compares `got` with the golden file; with `UPDATE_GOLDEN=1` rewrites it instead (Zeek's `btest -U`).
/// On mismatch, fails with both texts and the first differing line.
pub fn assert_golden(golden: &Path, got: &str) {
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
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
