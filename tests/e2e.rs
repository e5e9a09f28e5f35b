//! Each sample capture is analysed by the real binary and the whole CSV report and summary are compared
//! with `tests/golden/<sample>.csv` and `.summary` (update with `UPDATE_GOLDEN=1 cargo test`). Golden files
//! pin everything; the assertions after them say what each sample must show, so a wrong golden cannot
//! slip in unnoticed.

use crate::common::*;

/// Runs a sample; a TLS sample `X.pcap` with its key log `X.keys` beside it is run with `--keylog X.keys`.
fn analyse(sample: &str) -> (String, String) {
    let keys = std::path::Path::new(sample).with_extension("keys");
    let keys = keys.to_string_lossy().into_owned();
    let o = if root().join(&keys).exists() { run(&["-r", sample, "--keylog", &keys]) } else { run(&["-r", sample]) };
    assert!(o.status.success(), "{sample}: exit {:?}: {}", o.status.code(), stderr(&o));
    (stdout(&o), stderr(&o))
}

fn rules_fired(csv: &str) -> Vec<(String, String)> {
    csv_rows(csv).into_iter().skip(1).map(|r| (r[2].clone(), r[3].clone())).collect()
}

#[test]
fn samples_match_golden_reports() {
    let samples = samples();
    assert!(samples.len() >= 8, "expected the bundled samples, found {}", samples.len());
    for p in samples {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let rel = format!("samples/{name}");
        let (csv, summary) = analyse(&rel);
        assert_golden(&root().join("tests/golden").join(format!("{name}.csv")), &csv);
        assert_golden(&root().join("tests/golden").join(format!("{name}.summary")), &summary);
    }
}

#[test]
fn three_workers_give_the_single_threaded_report_byte_for_byte() {
    // --threads 3 splits the analysis by server address over three workers; the report and the summary
    // must not change by a byte (the single-threaded ones are pinned by the goldens above).
    for p in samples() {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let rel = format!("samples/{name}");
        let keys = p.with_extension("keys");
        let mut args = vec!["-r".to_string(), rel.clone()];
        if keys.exists() {
            args.extend(["--keylog".to_string(), keys.to_string_lossy().into_owned()]);
        }
        let one: Vec<&str> = args.iter().map(String::as_str).collect();
        let three: Vec<&str> = one.iter().copied().chain(["--threads", "3"]).collect();
        let (a, b) = (run(&one), run(&three));
        assert!(a.status.success() && b.status.success(), "{rel}: {} / {}", stderr(&a), stderr(&b));
        assert_eq!(stdout(&a), stdout(&b), "{rel}: CSV differs on three workers");
        assert_eq!(stderr(&a), stderr(&b), "{rel}: summary differs on three workers");
    }
}

/// Every capture under `samples/`, with the key logs of the TLS ones.
fn every_capture_and_key_log() -> Vec<String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root().join("samples"), &mut files);
    files.sort();
    let rel = |p: &std::path::Path| p.strip_prefix(root()).unwrap().to_string_lossy().into_owned();
    let mut args = Vec::new();
    for p in &files {
        match p.extension().and_then(|e| e.to_str()) {
            Some("pcap" | "pcapng") => args.extend(["-r".to_string(), rel(p)]),
            Some("keys") => args.extend(["--keylog".to_string(), rel(p)]),
            _ => {}
        }
    }
    args
}

#[test]
fn every_sample_at_once_gives_the_same_reports_on_any_number_of_workers() {
    // All captures merged into one run: over a hundred servers (addresses and ports) whose sessions the
    // workers must each keep whole, and whose rows, records and counters must merge into exactly what one
    // thread writes: the CSV, the session inventory and the summary.
    let args = every_capture_and_key_log();
    assert!(args.iter().filter(|a| *a == "-r").count() >= 100, "{args:?}");
    let dir = std::env::temp_dir().join(format!("mcptap-shards-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let analyse = |n: &str| {
        let sessions = dir.join(format!("sessions-{n}.csv"));
        let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
        let s = sessions.to_string_lossy().into_owned();
        a.extend(["--threads", n, "--sessions", &s]);
        let o = run(&a);
        assert!(o.status.success(), "--threads {n}: {}", stderr(&o));
        (stdout(&o), std::fs::read_to_string(&sessions).unwrap(), stderr(&o))
    };
    let one = analyse("1");
    let rows = csv_rows(&one.0).len();
    assert!(rows > 100 && one.1.lines().count() > 300, "{rows} rows, {} sessions", one.1.lines().count());
    // The summary counts the sessions the inventory lists, no more (a stateless probe's key, left empty when
    // its answer minted a session id, was counted as a session of its own).
    let counted: usize = one
        .2
        .lines()
        .find_map(|l| l.trim().strip_prefix("mcp:"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no session count in the summary:\n{}", one.2));
    assert_eq!(counted, csv_rows(&one.1).len() - 1, "summary against inventory:\n{}", one.2);
    for n in ["2", "3", "8"] {
        let (csv, sessions, summary) = analyse(n);
        assert_eq!(one.0, csv, "CSV differs on {n} workers");
        assert_eq!(one.1, sessions, "session inventory differs on {n} workers");
        assert_eq!(one.2, summary, "summary differs on {n} workers");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn downgrade_samples_report_exactly_one_downgrade() {
    for s in [
        "samples/downgrade.pcap",
        "samples/downgrade.pcapng",
        "samples/downgrade-sll.pcap",
        "samples/downgrade-sll2.pcap",
        "samples/downgrade-nsec.pcap",
        "samples/ts-client-downgrade.pcap",
    ] {
        let (csv, _) = analyse(s);
        let fired = rules_fired(&csv);
        let n = fired.iter().filter(|(id, sev)| id == "MCP-SSE-DOWNGRADE" && sev == "high").count();
        assert_eq!(n, 1, "{s}: {fired:?}");
        assert!(!fired.iter().any(|(id, _)| id == "MCP-SSE-SHIFT"), "{s}: {fired:?}");
    }
}

#[test]
fn clean_samples_report_nothing_high() {
    for s in ["samples/json-clean.pcap", "samples/sse-ids-clean.pcap", "samples/sse-noids-clean.pcap"] {
        let (csv, _) = analyse(s);
        let fired = rules_fired(&csv);
        assert!(fired.iter().all(|(_, sev)| sev != "high" && sev != "critical"), "{s}: {fired:?}");
        assert!(!fired.iter().any(|(id, _)| id == "MCP-SSE-DOWNGRADE" || id == "MCP-SSE-SHIFT"), "{s}: {fired:?}");
    }
}

#[test]
fn mixed_shift_is_info_not_downgrade() {
    let (csv, _) = analyse("samples/mixed-shift.pcap");
    let fired = rules_fired(&csv);
    assert!(fired.contains(&("MCP-SSE-SHIFT".to_string(), "info".to_string())), "{fired:?}");
    assert!(!fired.iter().any(|(id, _)| id == "MCP-SSE-DOWNGRADE"), "{fired:?}");
}

#[test]
fn link_types_and_formats_give_the_same_incident() {
    // The same scenario captured as Ethernet-less loopback pcap, pcapng, SLL, SLL2 and nanosecond pcap is
    // a different capture each time, but each must give one downgrade row with a session id and frames.
    for s in ["samples/downgrade.pcapng", "samples/downgrade-sll.pcap", "samples/downgrade-sll2.pcap", "samples/downgrade-nsec.pcap"] {
        let (csv, _) = analyse(s);
        let rows = csv_rows(&csv);
        let row = rows.iter().find(|r| r[2] == "MCP-SSE-DOWNGRADE").unwrap_or_else(|| panic!("{s}: no downgrade"));
        assert_ne!(row[4], "-", "{s}: session id");
        assert!(!row[11].is_empty(), "{s}: frames");
        assert!(row[0].ends_with('Z') && row[0].len() == "2026-01-01T00:00:00.000000Z".len(), "{s}: {}", row[0]);
    }
}

#[test]
fn stdin_and_several_files() {
    let data = std::fs::read(root().join("samples/downgrade.pcap")).unwrap();
    let mut child = bin().args(["-r", "-", "-q"]).stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped()).spawn().unwrap();
    {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&data).unwrap();
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success());
    let from_file = run(&["-r", "samples/downgrade.pcap", "-q"]);
    assert_eq!(stdout(&o), stdout(&from_file));

    // Two captures read together: incidents of both, as one capture.
    let both = run(&["-r", "samples/downgrade.pcap", "-r", "samples/json-clean.pcap", "-q"]);
    assert!(both.status.success(), "{}", stderr(&both));
    let ids: Vec<String> = csv_rows(&stdout(&both)).into_iter().skip(1).map(|r| r[2].clone()).collect();
    assert!(ids.contains(&"MCP-SSE-DOWNGRADE".to_string()), "{ids:?}");
}

#[test]
fn output_file_is_identical_to_stdout() {
    let dir = std::env::temp_dir().join(format!("mcptap-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("report.csv");
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "-o", out.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty());
    let to_stdout = run(&["-r", "samples/downgrade.pcap", "-q"]);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), stdout(&to_stdout));
    std::fs::remove_dir_all(&dir).ok();
}

/// HTTP/2 (issue 16): the silent downgrade is caught inside h2c and inside h2 over TLS, the clean HTTP/2
/// samples raise nothing medium or higher, a stream reset mid-call is a lost stream, and only a connection
/// picked up without its preface is left unanalysed.
#[test]
fn http2_samples_are_analysed_like_http11() {
    for s in ["samples/h2c-downgrade.pcap", "samples/tls-13-h2-downgrade.pcap"] {
        let (csv, summary) = analyse(s);
        let fired = rules_fired(&csv);
        assert_eq!(fired, vec![("MCP-SSE-DOWNGRADE".to_string(), "high".to_string())], "{s}");
        assert!(summary.contains("http2:     1 connections (0 not analysed), 9 streams"), "{s}: {summary}");
    }
    // Real peers: nginx `http2` terminating TLS in front of the SDK server (its gzip one codes every reply,
    // so the downgrade is only seen through the Content-Encoding stage), and Node's undici with allowH2.
    for s in ["samples/tls-13-h2-nginx-downgrade.pcap", "samples/tls-13-h2-nginx-gzip-downgrade.pcap", "samples/tls-13-h2-undici-downgrade.pcap"] {
        let (csv, summary) = analyse(s);
        assert_eq!(rules_fired(&csv), vec![("MCP-SSE-DOWNGRADE".to_string(), "high".to_string())], "{s}");
        assert!(summary.contains("(0 not analysed)"), "{s}: {summary}");
    }
    for s in [
        "samples/h2c-json-clean.pcap",
        "samples/h2c-sse-ids-clean.pcap",
        "samples/h2c-sse-noids-clean.pcap",
        "samples/h2c-upgrade.pcap",
        "samples/tls-13-h2-sse-ids.pcap",
        "samples/tls-13-h2.pcap",
        "samples/tls-13-h2-nginx-json-clean.pcap",
        "samples/tls-13-h2-nginx-sse-ids-clean.pcap",
        "samples/tls-13-h2-undici-sse-ids-clean.pcap",
    ] {
        let (csv, summary) = analyse(s);
        let fired = rules_fired(&csv);
        assert!(fired.iter().all(|(_, sev)| sev == "info" || sev == "low"), "{s}: {fired:?}");
        assert!(summary.contains("(0 not analysed)"), "{s}: {summary}");
        assert!(!summary.contains("mcp:       0 sessions"), "{s}: {summary}");
    }
    let (csv, summary) = analyse("samples/h2c-reset.pcap");
    assert_eq!(rules_fired(&csv), vec![("MCP-STREAM-LOST".to_string(), "high".to_string())]);
    assert!(summary.contains("1 resets"), "{summary}");
    let (csv, _) = analyse("samples/h2c-midstream.pcap");
    let rows = csv_rows(&csv);
    assert_eq!(rows.len(), 2, "{csv}");
    assert_eq!(rows[1][2], "CAPTURE-HTTP2-UNANALYSED");
    assert!(rows[1][12].ends_with("not analysed (midstream)"), "{csv}");
}

#[test]
fn a_tunnel_changes_no_verdict() {
    // samples/tunnel-*.pcap: the headline downgrade session, captured on the underlay of a real VXLAN
    // overlay (4789, and 8472 as Linux and flannel use it), and the same overlay frames written inside
    // GENEVE, GRE, ERSPAN II and III and IP-in-IP (samples/gen/capture_tunnels.sh). mcptap analyses the TCP
    // inside, so every file gives the downgrade row, with the inner addresses and the capture's frame
    // numbers; the five written from one overlay capture give the same report byte for byte.
    let mut reports = Vec::new();
    for t in ["vxlan", "vxlan-8472", "geneve", "gre", "erspan2", "erspan3", "ipip"] {
        let (csv, summary) = analyse(&format!("samples/tunnel-{t}.pcap"));
        assert_eq!(rules_fired(&csv), vec![("MCP-SSE-DOWNGRADE".to_string(), "high".to_string())], "{t}: {csv}");
        let row = &csv_rows(&csv)[1];
        assert!(row[5].starts_with("10.251.0.1:") && row[6].starts_with("10.251.0.2:"), "{t}: not the inner addresses: {row:?}");
        assert!(summary.contains(" inside tunnels: "), "{t}: {summary}");
        reports.push((t, csv));
    }
    let written: Vec<&String> = reports.iter().filter(|(t, _)| !t.starts_with("vxlan")).map(|(_, c)| c).collect();
    assert!(written.windows(2).all(|w| w[0] == w[1]), "the written tunnels differ: {written:?}");
    // The underlay capture of the same session: the same row but for the capture times.
    let strip = |csv: &str| csv_rows(csv).into_iter().map(|r| r[2..].to_vec()).collect::<Vec<_>>();
    assert_eq!(strip(&reports[0].1), strip(written[0]));
}
