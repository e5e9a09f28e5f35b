//! Compressed bodies (`samples/gen/capture_compressed.sh`): real SDK sessions behind nginx with `gzip on`
//! and behind a br compressing gateway must report what their uncompressed twins, captured the
//! same way, report: the same incidents (rule, severity, session, evidence apart from frame numbers) and
//! the same HTTP and MCP counts. Then damage: a corrupt gzip body and an unknown coding in a real capture
//! add a CAPTURE-BODY-UNDECODED row each, and nothing else changes.

use crate::common::*;
use crate::impaired::incidents;
use crate::pcapedit::{scratch, Pcap};

/// (compressed capture, uncompressed twin, the coding the compressed one must show)
/// (`zstd-downgrade.pcap` is not a twin: the pinned SDK client's httpx2 does not decode zstd and fails
/// after `initialize`; that capture only shows mcptap decoding zstd on the wire, pinned by its golden.)
const TWINS: [(&str, &str, &str); 4] = [
    ("nginx-gzip-json-clean.pcap", "nginx-plain-json-clean.pcap", "gzip"),
    ("nginx-gzip-sse-ids.pcap", "nginx-plain-sse-ids.pcap", "gzip"),
    ("nginx-gzip-downgrade.pcap", "nginx-plain-downgrade.pcap", "gzip"),
    ("br-downgrade.pcap", "identity-downgrade.pcap", "br"),
];

fn analyse(path: &str) -> (String, String) {
    let o = run(&["-r", path]);
    assert!(o.status.success(), "{path}: {}", stderr(&o));
    (stdout(&o), stderr(&o))
}

/// Summary lines that must not change with the coding: requests, responses, SSE events, content types,
/// MCP sessions and messages, incidents.
fn coding_independent(summary: &str) -> Vec<String> {
    summary
        .lines()
        .map(str::trim)
        .filter(|l| (l.starts_with("http:") && !l.contains("coded messages")) || l.starts_with("mcp:") || l.starts_with("incidents:"))
        .map(str::to_string)
        .collect()
}

/// The `coding` and `decoded` columns of every transaction of `--http-log`.
fn codings(path: &str) -> Vec<(String, String)> {
    let dir = scratch("codings");
    let log = dir.join("http.tsv");
    let o = run(&["-q", "-r", path, "--http-log", log.to_str().unwrap(), "-o", "/dev/null"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&log).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    text.lines().skip(1).map(|l| l.split('\t').collect::<Vec<_>>()).map(|c| (c[11].to_string(), c[12].to_string())).collect()
}

#[test]
fn compressed_samples_report_what_their_uncompressed_twins_report() {
    for (coded, plain, coding) in TWINS {
        let (a, b) = (format!("samples/{coded}"), format!("samples/{plain}"));
        let ((csv_a, sum_a), (csv_b, sum_b)) = (analyse(&a), analyse(&b));
        assert_eq!(incidents(&csv_a), incidents(&csv_b), "{coded} vs {plain}:\n{csv_a}\n{csv_b}");
        assert_eq!(coding_independent(&sum_a), coding_independent(&sum_b), "{coded} vs {plain}:\n{sum_a}\n{sum_b}");
        // The compressed one really is compressed, and every coded body was decoded.
        let c = codings(&a);
        assert!(c.iter().filter(|(name, _)| name == coding).count() >= 3, "{coded}: {c:?}");
        assert!(c.iter().all(|(name, ok)| (name == "-" && ok == "-") || ok == "yes"), "{coded}: {c:?}");
        assert!(sum_a.contains(&format!("coded messages: {coding} ")) && sum_a.contains("bodies not decoded: none"), "{sum_a}");
        assert!(codings(&b).iter().all(|(name, _)| name == "-"), "{plain} is not plain");
        assert!(!csv_a.contains("CAPTURE-BODY-UNDECODED"), "{csv_a}");
    }
    // The downgrade twins do report the downgrade (so the equality above is about something).
    let (csv, _) = analyse("samples/nginx-gzip-downgrade.pcap");
    assert!(csv.contains("MCP-SSE-DOWNGRADE"), "{csv}");
}

/// Replaces the first occurrence of `from` in any packet after `after` with `to` (same length).
fn patch(p: &mut Pcap, from: &[u8], to: &[u8], after: usize) -> usize {
    assert_eq!(from.len(), to.len());
    for (i, r) in p.records.iter_mut().enumerate().skip(after) {
        if let Some(at) = r.data.windows(from.len()).position(|w| w == from) {
            r.data[at..at + from.len()].copy_from_slice(to);
            return i;
        }
    }
    panic!("{from:?} not found");
}

#[test]
fn corrupt_and_unknown_codings_add_one_notice_each_and_nothing_else() {
    let src = root().join("samples/nginx-gzip-downgrade.pcap");
    let mut p = Pcap::read(&src).unwrap();
    // The first gzip member after the initialize reply: flip a byte of its compressed data (the gzip
    // header is 10 bytes; the flip lands in the deflate blocks or the CRC, both caught).
    let gz = patch(&mut p, b"Content-Encoding: gzip", b"Content-Encoding: gzip", 10);
    let body = p.records.iter().enumerate().skip(gz).find_map(|(i, r)| r.data.windows(3).position(|w| w == [0x1f, 0x8b, 8]).map(|at| (i, at))).unwrap();
    let rec = &mut p.records[body.0].data;
    let at = (body.1 + 14).min(rec.len() - 1);
    rec[at] ^= 0x5a;
    // A later response: an unknown coding of the same length.
    patch(&mut p, b"Content-Encoding: gzip", b"Content-Encoding: gzap", body.0 + 1);
    let dir = scratch("undecoded");
    let f = dir.join("damaged.pcap");
    p.write(&f);
    let (damaged, sum) = analyse(f.to_str().unwrap());
    let (clean, _) = analyse(src.to_str().unwrap());
    std::fs::remove_dir_all(&dir).ok();
    let rows = csv_rows(&damaged);
    let notices: Vec<&Vec<String>> = rows.iter().filter(|r| r[2] == "CAPTURE-BODY-UNDECODED").collect();
    assert_eq!(notices.len(), 2, "{damaged}");
    assert!(notices.iter().any(|r| r[12].contains("(corrupt stream)") && r[12].contains("gzip")), "{damaged}");
    assert!(notices.iter().any(|r| r[12].contains("(unknown coding)") && r[12].contains("gzap")), "{damaged}");
    assert!(notices.iter().all(|r| r[3] == "info"), "{damaged}");
    assert!(sum.contains("1 corrupt stream") && sum.contains("1 unknown coding"), "{sum}");
    // Everything else as before.
    let others = |csv: &str| incidents(&csv.lines().filter(|l| !l.contains(",CAPTURE-BODY-UNDECODED,")).collect::<Vec<_>>().join("\n"));
    assert_eq!(others(&damaged), others(&clean), "{damaged}\n{clean}");
}

#[test]
fn timeline_and_session_inventory_show_the_coding() {
    let dir = Scratch::new("coding-sessions");
    let inv = dir.path().join("sessions.csv");
    let o = run(&["-q", "-r", "samples/nginx-gzip-downgrade.pcap", "--sessions", inv.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&std::fs::read_to_string(&inv).unwrap());
    let col = rows[0].iter().position(|c| c == "content_codings").expect("content_codings column");
    let sid_col = rows[0].iter().position(|c| c == "session_id").unwrap();
    let row = rows.iter().find(|r| r[sid_col] == "90848721de124658b1efdb2f2263813e").expect("the downgrade session");
    assert!(row[col].starts_with("gzip:"), "{row:?}");
    // The uncompressed twin has no coding to show.
    let twin = dir.path().join("twin.csv");
    let o = run(&["-q", "-r", "samples/nginx-plain-downgrade.pcap", "--sessions", twin.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&std::fs::read_to_string(&twin).unwrap());
    assert!(rows[1..].iter().all(|r| r[col].is_empty()), "{rows:?}");
    let o = run(&["-r", "samples/nginx-gzip-downgrade.pcap", "--timeline", "90848721de124658b1efdb2f2263813e"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("text/event-stream (gzip)"), "{}", stdout(&o));
}

/// starlette-compress codes each SSE event of the Python SDK's replies as its own zstd block, flushed at
/// once, and ends the frame only when the stream ends (`samples/ecosystem/compress.md`). Each event must
/// show at the frame that carried its block, as the peer decoded it, not at the frame's end: the whole
/// session timeline against its golden (before, every event sat on the 3-byte end block after it, and the
/// three progress notifications and the result of frames 111-117 all on frame 119).
#[test]
fn zstd_events_show_at_the_frames_that_carried_them() {
    let o = run(&["-q", "-r", "samples/ecosystem/compress-pysdk-zstd-sse.pcap", "--timeline", "4f031049a96d4d3090a53b4ccd3766c6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_golden(&root().join("tests/golden/compress-pysdk-zstd-sse.timeline"), &stdout(&o));
}
