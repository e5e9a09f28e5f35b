//! The minimum Rust the project states (`rust-version` in Cargo.toml, and the README) is the real one:
//! no locked dependency, optional ones included, declares a higher `rust-version`. `.ci/run` also builds
//! with that toolchain; this test keeps the number honest wherever the suite runs.

use crate::common::*;

/// `1.89` and `1.89.0` compare equal.
fn version(s: &str) -> [u64; 3] {
    let mut v = [0; 3];
    for (slot, p) in v.iter_mut().zip(s.split('.')) {
        *slot = p.parse().unwrap_or(0);
    }
    v
}

#[test]
fn stated_msrv_covers_every_locked_dependency() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let metadata = |offline: bool| {
        let mut c = std::process::Command::new(&cargo);
        c.current_dir(root()).args(["metadata", "--format-version", "1", "--locked", "--all-features"]);
        if offline {
            c.arg("--offline");
        }
        c.output().expect("cargo metadata runs")
    };
    // Offline first; the lockfile also lists other platforms' packages (Windows console crates), which a
    // build here never downloads, so a fresh machine fetches them from the registry (as the build did
    // its own).
    let mut o = metadata(true);
    if !o.status.success() {
        o = metadata(false);
    }
    assert!(o.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&o.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let packages = meta["packages"].as_array().unwrap();
    let ours = packages.iter().find(|p| p["name"] == "mcptap").unwrap();
    let msrv = ours["rust_version"].as_str().expect("Cargo.toml states rust-version");
    let too_new: Vec<String> = packages
        .iter()
        .filter_map(|p| Some((p["name"].as_str()?, p["version"].as_str()?, p["rust_version"].as_str()?)))
        .filter(|(_, _, rv)| version(rv) > version(msrv))
        .map(|(n, v, rv)| format!("{n} {v} needs Rust {rv}"))
        .collect();
    assert!(packages.len() > 50, "metadata lists only {} packages", packages.len());
    assert!(too_new.is_empty(), "Cargo.toml says rust-version {msrv}, but the lockfile has:\n{}", too_new.join("\n"));
    // The README states the same minimum.
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    assert!(readme.contains(&format!("Rust {msrv} or later")), "README.md must say \"Rust {msrv} or later\"");
}
