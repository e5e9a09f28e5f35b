//! Flags, exit codes and the one-line error messages users see.

use crate::common::*;

#[test]
fn help_shows_examples_and_exit_codes() {
    let o = run(&["--help"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("-r, --read <FILE>"), "{out}");
    assert!(out.contains("Examples:"), "{out}");
    assert!(out.contains("Exit status"), "{out}");
}

#[test]
fn version_prints_the_crate_version() {
    let o = run(&["--version"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).trim(), format!("mcptap {}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn no_input_is_exit_2_with_one_line() {
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("-r FILE"), "{e}");
}

#[test]
fn missing_file_is_exit_2_naming_the_file() {
    let o = run(&["-r", "samples/does-not-exist.pcap"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with("mcptap: samples/does-not-exist.pcap:"), "{e}");
}

#[test]
fn not_a_capture_is_exit_2_naming_the_file() {
    let o = run(&["-r", "Cargo.toml"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.starts_with("mcptap: Cargo.toml:"), "{e}");
}

#[test]
fn unknown_flag_is_exit_2() {
    let o = run(&["--no-such-flag"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bad_rule_stops_the_run_with_file_id_and_text() {
    let dir = std::env::temp_dir().join(format!("mcptap-rules-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("bad.toml"),
        "id = \"X-1\"\nseverity = \"low\"\nfact = \"response_shift\"\nsummary = \"s\"\ncondition = 'nonsense_field > 1'\nevidence = \"e\"\naction = \"a\"\n",
    )
    .unwrap();
    let o = run(&["-r", "samples/json-clean.pcap", "--rules", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("bad.toml: rule X-1: condition names 'nonsense_field'"), "{e}");
    assert!(e.contains("nonsense_field > 1"), "{e}");
    let c = run(&["rules", "--check", dir.to_str().unwrap()]);
    assert_eq!(c.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rules_dir_overrides_a_builtin_by_id() {
    let dir = std::env::temp_dir().join(format!("mcptap-override-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = std::fs::read_to_string(root().join("rules/MCP-SSE-DOWNGRADE.toml")).unwrap().replace("severity = \"high\"", "severity = \"critical\"");
    std::fs::write(dir.join("mine.toml"), text).unwrap();
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--rules", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&stdout(&o));
    assert!(rows.iter().any(|r| r[2] == "MCP-SSE-DOWNGRADE" && r[3] == "critical"), "{rows:?}");
    let l = run(&["rules", "--rules", dir.to_str().unwrap()]);
    assert!(stdout(&l).contains("mine.toml"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn rules_lists_builtins() {
    let o = run(&["rules"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("MCP-SSE-DOWNGRADE") && out.contains("rules/MCP-SSE-DOWNGRADE.toml"), "{out}");
}
