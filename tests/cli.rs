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

#[test]
fn rule_patch_disables_or_changes_a_builtin_without_restating_it() {
    let dir = std::env::temp_dir().join(format!("mcptap-patch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("quiet.toml"), "id = \"MCP-SSE-DOWNGRADE\"\nenabled = false\n").unwrap();
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--rules", dir.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("MCP-SSE-DOWNGRADE"), "{}", stdout(&o));
    std::fs::write(dir.join("quiet.toml"), "id = \"MCP-SSE-DOWNGRADE\"\nseverity = \"low\"\n").unwrap();
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--rules", dir.to_str().unwrap()]);
    let rows = csv_rows(&stdout(&o));
    assert!(rows.iter().any(|r| r[2] == "MCP-SSE-DOWNGRADE" && r[3] == "low"), "{rows:?}");
    let check = run(&["rules", "--check", dir.to_str().unwrap()]);
    assert!(check.status.success(), "{}", stderr(&check));
    std::fs::write(dir.join("quiet.toml"), "id = \"NO-SUCH-RULE\"\nseverity = \"low\"\n").unwrap();
    let bad = run(&["rules", "--check", dir.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("quiet.toml: rule NO-SUCH-RULE: patch for a rule that is not loaded"), "{}", stderr(&bad));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn suppress_none_gives_one_row_per_firing() {
    let dir = std::env::temp_dir().join(format!("mcptap-suppress-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("s.toml"), "id = \"MCP-SESSION-STATUS\"\nsuppress = \"none\"\n").unwrap();
    let base = run(&["-r", "samples/inc-session-status.pcap", "-q"]);
    let per_session: Vec<Vec<String>> = csv_rows(&stdout(&base)).into_iter().filter(|r| r[2] == "MCP-SESSION-STATUS").collect();
    assert_eq!(per_session.len(), 1);
    let count: usize = per_session[0][10].parse().unwrap();
    assert!(count >= 2, "the sample has repeated firings: {per_session:?}");
    let o = run(&["-r", "samples/inc-session-status.pcap", "-q", "--rules", dir.to_str().unwrap()]);
    let rows: Vec<Vec<String>> = csv_rows(&stdout(&o)).into_iter().filter(|r| r[2] == "MCP-SESSION-STATUS").collect();
    assert_eq!(rows.len(), count, "{rows:?}");
    assert!(rows.iter().all(|r| r[10] == "1"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn threads_zero_too_many_or_not_a_number_is_exit_2() {
    for bad in ["0", "two", "1025", "65535"] {
        let o = run(&["-r", "samples/downgrade.pcap", "--threads", bad]);
        assert_eq!(o.status.code(), Some(2), "--threads {bad}");
        assert!(stderr(&o).contains("--threads") && stdout(&o).is_empty(), "{bad}: {}", stderr(&o));
    }
    assert!(stderr(&run(&["-r", "samples/downgrade.pcap", "--threads", "1025"])).contains("1..=1024"));
    // Past 16 workers the summary's workers line gives the spread of their CPU times, not each.
    let o = run(&["-r", "samples/downgrade.pcap", "--threads", "17"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The raw standard error: `stderr` drops the measured workers line.
    let raw = String::from_utf8_lossy(&o.stderr).into_owned();
    let line = raw.lines().find(|l| l.trim_start().starts_with("workers:")).unwrap_or_default().to_string();
    assert!(line.contains("workers:   17, CPU s min ") && line.contains(", median ") && line.contains(", max "), "{line}");
    // The HTTP transaction log is written in capture order by one thread.
    let o = run(&["-r", "samples/downgrade.pcap", "--threads", "2", "--http-log", "/nonexistent/h.tsv"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--http-log") && stderr(&o).contains("--threads 1"), "{}", stderr(&o));
}

#[test]
fn a_capture_error_on_two_threads_keeps_what_was_found_before_it() {
    // The downgrade evidence comes first; a second input that is not a capture is fatal (exit 2), and the
    // row must still be written, as on one thread.
    let dir = std::env::temp_dir().join(format!("mcptap-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bytes = std::fs::read(root().join("samples/downgrade.pcap")).unwrap();
    let cut = bytes.len() - 10;
    bytes.truncate(cut);
    bytes.extend_from_slice(&[0xff; 16]);
    let bad = dir.join("damaged.pcap");
    std::fs::write(&bad, &bytes).unwrap();
    let bad = bad.to_string_lossy().into_owned();
    let one = run(&["-r", &bad]);
    let two = run(&["-r", &bad, "--threads", "2"]);
    assert_eq!(one.status.code(), two.status.code());
    assert_eq!(stdout(&one), stdout(&two));
    assert_eq!(stderr(&one), stderr(&two));
    assert!(stdout(&two).contains("MCP-SSE-DOWNGRADE"), "{}", stdout(&two));
    std::fs::remove_dir_all(&dir).ok();
}

// See: issue 18 ("The first hour with mcptap").
#[test]
fn regression_an_output_that_is_an_input_is_refused_and_the_input_kept() {
    let dir = Scratch::new("cli-overwrite");
    let cap = dir.join("copy.pcap");
    let original = std::fs::read(root().join("samples/downgrade.pcap")).unwrap();
    std::fs::write(&cap, &original).unwrap();
    let link = dir.join("hard-link.pcap");
    std::fs::hard_link(&cap, &link).unwrap();
    let keys = dir.join("k.keys");
    std::fs::copy(root().join("samples/tls-12-aes128-downgrade.keys"), &keys).unwrap();
    let key_text = std::fs::read(&keys).unwrap();
    let c = cap.to_str().unwrap();
    let k = keys.to_str().unwrap();
    let cases: Vec<Vec<&str>> = vec![
        vec!["-r", c, "-o", c],
        vec!["-r", c, "--html", link.to_str().unwrap()],
        vec!["-r", c, "--sessions", c],
        vec!["-r", c, "--http-log", c],
        vec!["-r", c, "--keylog", k, "-o", k],
    ];
    for args in cases {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(e.contains("refusing to write the") && e.contains("over an input"), "{args:?}: {e}");
        assert_eq!(std::fs::read(&cap).unwrap(), original, "{args:?}: the capture was changed");
    }
    assert_eq!(std::fs::read(&keys).unwrap(), key_text, "the key log was changed");
}

#[test]
fn every_output_path_is_checked_before_the_first_packet() {
    let dir = Scratch::new("cli-outputs-first");
    let out = dir.join("out.csv");
    for flag in ["--html", "--sessions", "--http-log"] {
        let bad = dir.join("no-such-dir/report");
        let o = run(&["-r", "samples/downgrade.pcap", "-o", out.to_str().unwrap(), flag, bad.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        let e = stderr(&o);
        // One line naming the path, and no summary: nothing was analysed, and -o was not even created.
        assert_eq!(e.lines().count(), 1, "{flag}: {e}");
        assert!(e.starts_with(&format!("mcptap: {}:", bad.display())), "{flag}: {e}");
        assert!(!out.exists(), "{flag}: -o was written before the failing output was checked");
    }
}

#[test]
fn io_errors_read_as_one_line_without_the_os_error_number() {
    let dir = Scratch::new("cli-io-errors");
    for (capture, flag, missing, what) in [
        ("samples/downgrade.pcap", "-o", "no-such-dir/out.csv", "cannot write report"),
        ("samples/tls-12-aes128-downgrade.pcap", "--keylog", "no-such.keys", "cannot read key log"),
        ("samples/downgrade.pcap", "--rules", "no-such-rules", "cannot read rules directory"),
    ] {
        let path = dir.join(missing);
        let o = run(&["-r", capture, flag, path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        assert_eq!(stderr(&o), format!("mcptap: {}: {what}: No such file or directory\n", path.display()));
    }
}

#[test]
fn key_log_with_no_secret_is_an_error_and_bad_lines_are_counted() {
    let o = run(&["-r", "samples/tls-12-aes128-downgrade.pcap", "--keylog", "README.md"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with("mcptap: README.md: not a key log") && e.contains("CLIENT_RANDOM <64 hex digits"), "{e}");
    let dir = Scratch::new("cli-keylog");
    let mixed = dir.join("mixed.keys");
    let good = std::fs::read_to_string(root().join("samples/tls-12-aes128-downgrade.keys")).unwrap();
    std::fs::write(&mixed, format!("this is not a key line\n{good}CLIENT_RANDOM zz zz\n")).unwrap();
    let o = run(&["-r", "samples/tls-12-aes128-downgrade.pcap", "--keylog", mixed.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(", 2 malformed lines"), "{}", stderr(&o));
}

#[test]
fn usage_errors_are_one_line_with_a_hint() {
    for args in [vec!["-r", "x", "--no-such-flag"], vec!["-r", "x", "--fail-on", "severe"], vec!["rules", "--bogus"], vec!["-r"]] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(e.starts_with("mcptap: ") && e.trim_end().ends_with("see mcptap --help"), "{args:?}: {e}");
        assert!(!e.contains("error:"), "{args:?}: {e}");
    }
}

#[test]
fn fail_on_accepts_any_case() {
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--fail-on", "HIGH"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stderr(&o).trim_end(), "mcptap: 1 incident at or above severity high (--fail-on high)");
}

#[test]
fn rules_table_columns_line_up_with_long_sources() {
    let dir = Scratch::new("cli-rules-table-with-a-rather-long-directory-name");
    let text = std::fs::read_to_string(root().join("rules/MCP-SSE-DOWNGRADE.toml")).unwrap();
    std::fs::write(dir.join("a-long-rule-file-name.toml"), text).unwrap();
    let o = run(&["rules", "--rules", dir.path().to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("a-long-rule-file-name.toml"), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let header = lines[0];
    let at = header.find("summary").unwrap();
    for l in &lines[1..] {
        // The summary column starts where its header does, on every row.
        assert!(l.len() > at && l.as_bytes()[at - 1] == b' ' && l.as_bytes()[at] != b' ', "misaligned:\n{header}\n{l}");
    }
}

#[test]
fn no_live_support_message_does_not_repeat_the_program_name() {
    if cfg!(feature = "live") {
        return;
    }
    let o = run(&["-i", "lo"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o).trim_end(), "mcptap: live capture (-i, -D) is not in this build; rebuild with --features live");
}

#[test]
fn summary_says_one_session_and_the_wall_time() {
    let o = run(&["-r", "samples/downgrade.pcap"]);
    let raw = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(raw.contains("  mcp:       1 session (1 streamable-2025)"), "{raw}");
    let elapsed = raw.lines().find(|l| l.starts_with("  elapsed:   ")).unwrap_or_else(|| panic!("no elapsed line:\n{raw}"));
    assert!(elapsed.contains(" wall time"), "{elapsed}");
    // The reports never carry it: two runs give byte-identical CSV.
    assert_eq!(stdout(&o), stdout(&run(&["-r", "samples/downgrade.pcap"])));
}

#[test]
fn timeline_dash_selects_the_sessions_without_an_id() {
    let o = run(&["-r", "samples/ok-stateless.pcap", "-q", "--timeline", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("session -  server "), "{out}");
    assert!(out.contains("-> POST /mcp"), "{out}");
}

/// The systemd unit in `dist/` runs flags this binary has, and reloads with the signal that reopens the
/// outputs; the logrotate snippet sends that signal after rotating.
#[test]
fn dist_unit_and_logrotate_use_real_flags_and_sighup() {
    let unit = std::fs::read_to_string(root().join("dist/mcptap.service")).unwrap();
    let exec = unit.lines().find_map(|l| l.strip_prefix("ExecStart=")).expect("an ExecStart line");
    let words: Vec<&str> = exec.split_whitespace().collect();
    assert!(words[0].ends_with("/mcptap"), "{exec}");
    let parsed = <mcptap::cli::Args as clap::Parser>::try_parse_from(&words);
    assert!(parsed.is_ok(), "{exec}: {}", parsed.as_ref().err().map(|e| e.to_string()).unwrap_or_default());
    // The sensor's caps name real limits with valid values.
    let mut limits = mcptap::limits::Limits::default();
    for l in &parsed.unwrap().limit {
        let (name, value) = l.split_once('=').unwrap_or_else(|| panic!("--limit {l}"));
        limits.set(name, value).unwrap_or_else(|e| panic!("--limit {l}: {e}"));
    }
    assert!(limits.max_sessions < mcptap::limits::Limits::default().max_sessions, "the unit sizes the session cap for a sensor");
    for needed in ["-i", "--format", "-o", "-w", "-C", "-W", "--stats-file"] {
        assert!(words.contains(&needed), "{needed} missing from {exec}");
    }
    assert!(unit.contains("ExecReload=/bin/kill -HUP $MAINPID"), "{unit}");
    assert!(unit.contains("AmbientCapabilities=CAP_NET_RAW CAP_NET_ADMIN") && !unit.contains("User=root"), "{unit}");
    let rotate = std::fs::read_to_string(root().join("dist/mcptap.logrotate")).unwrap();
    assert!(rotate.contains("--signal=HUP mcptap.service"), "{rotate}");
    for target in ["/var/log/mcptap/incidents.jsonl", "/var/log/mcptap/stats.jsonl"] {
        assert!(rotate.contains(target) && exec.contains(target), "{target}");
    }
}

#[test]
fn a_compressed_capture_reports_what_the_capture_itself_reports() {
    // As Wireshark opens them: gzip (here two members, as pigz or `cat a.gz b.gz` leave them) and zstd,
    // recognised by magic whatever the file's name, also on standard input. A pcapng whose Decryption
    // Secrets Block decrypts its TLS is among them, so the TLS keys come through decompression too.
    use std::io::Write;
    let dir = Scratch::new("packed");
    for sample in ["samples/downgrade.pcap", "samples/downgrade.pcapng", "samples/tls-13-aes128-downgrade-dsb.pcapng"] {
        let bytes = std::fs::read(root().join(sample)).unwrap();
        let gzip = |part: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(part).unwrap();
            e.finish().unwrap()
        };
        let mut gz = gzip(&bytes[..bytes.len() / 3]);
        gz.extend(gzip(&bytes[bytes.len() / 3..]));
        let gz_path = dir.join("capture.bin");
        std::fs::write(&gz_path, &gz).unwrap();
        let zst_path = dir.join("capture.zst");
        std::fs::write(&zst_path, zstd::encode_all(&bytes[..], 19).unwrap()).unwrap();

        let plain = run(&["-r", sample]);
        assert_eq!(plain.status.code(), Some(0), "{sample}: {}", stderr(&plain));
        assert!(stdout(&plain).lines().count() > 1, "{sample} reports nothing to compare");
        for packed in [&gz_path, &zst_path] {
            let o = run(&["-r", packed.to_str().unwrap()]);
            assert_eq!(o.status.code(), Some(0), "{sample} as {}: {}", packed.display(), stderr(&o));
            assert_eq!(stdout(&o), stdout(&plain), "{sample} as {}", packed.display());
            assert_eq!(stderr(&o), stderr(&plain), "{sample} as {}", packed.display());
        }
        let mut child = bin().args(["-r", "-"]).stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::piped()).spawn().unwrap();
        let mut input = child.stdin.take().unwrap();
        let feed = std::thread::spawn(move || input.write_all(&gz));
        let o = child.wait_with_output().unwrap();
        feed.join().unwrap().unwrap();
        assert_eq!((o.status.code(), stdout(&o)), (Some(0), stdout(&plain)), "{sample} gzip on standard input");
    }

    // A compressor mcptap has no decoder for: exit 2, and the command that lets the capture in.
    let xz = dir.join("capture.pcap.xz");
    std::fs::write(&xz, [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0, 0, 4]).unwrap();
    let o = run(&["-r", xz.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("xz-compressed: decompress it first, e.g. xz -dc FILE | mcptap -r -"), "{}", stderr(&o));
}
