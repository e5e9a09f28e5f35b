//! Embeds every `rules/*.toml` in the binary, so `mcptap` runs from any directory and a new rule file
//! needs no code change.
//!
//! Also finds the external tools some tests drive (tshark, Chromium, GNU time) on `PATH` and tells the
//! tests with a cfg (`has_tshark`, `has_chromium`, `has_gnu_time`): a test whose tool is missing is marked
//! `#[ignore = "needs ..."]`, so the test summary names it instead of it passing with nothing checked.
//! Under `CI=true` the cfg `ci` is set too and those tests are never ignored: a missing tool fails them.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    probe_tools();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".toml"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut out = String::from("&[\n");
    for n in &names {
        let path = dir.join(n);
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(out, "    ({:?}, include_str!({:?})),", format!("rules/{n}"), path.display().to_string());
    }
    out.push_str("]\n");
    let dest = Path::new(&std::env::var("OUT_DIR").unwrap_or_else(|_| ".".into())).join("builtin_rules.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        println!("cargo:warning=cannot write {}: {e}", dest.display());
    }
}

/// The tools tests need, by cfg name: the executable names to look for on `PATH` (first found wins).
const TOOLS: &[(&str, &[&str])] = &[
    ("has_tshark", &["tshark"]),
    ("has_chromium", &["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]),
    ("has_gnu_time", &["time"]),
];

fn probe_tools() {
    println!("cargo:rerun-if-env-changed=PATH");
    println!("cargo:rerun-if-env-changed=CI");
    println!("cargo::rustc-check-cfg=cfg(ci)");
    // cargo fuzz builds with `--cfg fuzzing`: the JSON-RPC oracle is compiled for its differential target.
    println!("cargo::rustc-check-cfg=cfg(fuzzing)");
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        println!("cargo::rustc-cfg=ci");
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut missing = false;
    for (cfg, names) in TOOLS {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        let found = names.iter().find_map(|n| std::env::split_paths(&path).map(|d| d.join(n)).find(|p| is_executable(p)));
        // `time` on PATH may be BSD time (no `-f %M`); only GNU time reports peak memory the way the tests read it.
        let found = found.filter(|p| *cfg != "has_gnu_time" || is_gnu_time(p));
        match found {
            Some(p) => {
                println!("cargo::rustc-cfg={cfg}");
                // Removed or replaced: probe again.
                println!("cargo::rerun-if-changed={}", p.display());
            }
            None => missing = true,
        }
    }
    // A tool installed after the first build (as the README says to, when the summary lists tests ignored for
    // want of it) lands in a directory of PATH, which changes that directory's mtime; without watching them,
    // the cfg would say "missing" until something else rebuilt the crate, and the tests would stay ignored.
    // Only absolute directories apart from the package: cargo scans a watched directory whole, and a relative
    // entry, one inside the package (its target dir) or one holding it would change with every build and
    // rebuild the crate every time. A missing file is never watched: cargo reruns the script, and rebuilds
    // the crate, whenever a watched path does not exist.
    if missing {
        let package = Path::new(env!("CARGO_MANIFEST_DIR"));
        for dir in std::env::split_paths(&path) {
            if dir.is_absolute() && dir.is_dir() && !dir.starts_with(package) && !package.starts_with(&dir) {
                println!("cargo::rerun-if-changed={}", dir.display());
            }
        }
    }
}

fn is_executable(p: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    }
    #[cfg(not(unix))]
    {
        p.is_file()
    }
}

fn is_gnu_time(p: &Path) -> bool {
    std::process::Command::new(p)
        .arg("--version")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("GNU") || String::from_utf8_lossy(&o.stderr).contains("GNU"))
}
