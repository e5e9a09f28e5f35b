//! Damaged and hostile inputs at the command line: each gets its one-line message naming the file and
//! where it broke, exit 2 (or a counted warning and exit 0 where analysis can go on), and everything found
//! before the damage is still reported. Inputs are made at test time in a temp dir from the committed
//! samples; no damaged capture is committed.

use std::path::Path;
use std::process::Stdio;

use crate::common::*;

/// A fresh temp dir for one test, removed when the test ends, failed or not.
fn tmp(name: &str) -> Scratch {
    Scratch::new(&format!("robust-{name}"))
}

/// The classic little-endian pcap `samples/downgrade.pcap`: its 24-byte file header and its records
/// (16-byte header + data), each with its byte offset in the file.
struct Pcap {
    bytes: Vec<u8>,
    /// (offset of the record header, caplen)
    records: Vec<(usize, usize)>,
}

fn downgrade() -> Pcap {
    let bytes = std::fs::read(root().join("samples/downgrade.pcap")).unwrap();
    assert_eq!(&bytes[..4], &[0xd4, 0xc3, 0xb2, 0xa1], "downgrade.pcap is little-endian microsecond pcap");
    let mut records = Vec::new();
    let mut off = 24;
    while off + 16 <= bytes.len() {
        let caplen = u32::from_le_bytes(bytes[off + 8..off + 12].try_into().unwrap()) as usize;
        records.push((off, caplen));
        off += 16 + caplen;
    }
    Pcap { bytes, records }
}

/// The frame of the SSE response that makes the downgrade (see tests/golden/downgrade.pcap.csv: 40;46;47).
const EVIDENCE_LAST_FRAME: usize = 47;

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.to_str().unwrap().to_string()
}

fn downgrade_rows(out: &str) -> usize {
    csv_rows(out).iter().filter(|r| r[2] == "MCP-SSE-DOWNGRADE").count()
}

/// Exit 2 with exactly one line on stderr after the summary, starting `mcptap: <file>:` and containing
/// `what`.
fn assert_fatal(o: &std::process::Output, file: &str, what: &str) {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    let last = e.lines().last().unwrap_or("");
    assert!(last.starts_with(&format!("mcptap: {file}: ")), "{e}");
    assert!(last.contains(what), "want '{what}' in: {e}");
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn truncated_in_file_header() {
    let d = tmp("hdr");
    let p = downgrade();
    let f = write(&d, "cut.pcap", &p.bytes[..10]);
    let o = run(&["-r", &f]);
    assert_fatal(&o, &f, "truncated file header (10 of 24 bytes)");
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn truncated_in_a_record_header_after_the_evidence_keeps_the_incident() {
    let d = tmp("rechdr");
    let p = downgrade();
    let (off, _) = p.records[EVIDENCE_LAST_FRAME + 2];
    let f = write(&d, "cut.pcap", &p.bytes[..off + 8]);
    let o = run(&["-r", &f]);
    let e = stderr(&o);
    assert!(!e.contains("panicked"), "{e}");
    // A cut record at the very end of the file is what an interrupted tcpdump leaves: a counted warning.
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(e.contains("1 truncated record at end of file"), "{e}");
    assert_eq!(downgrade_rows(&stdout(&o)), 1, "{}", stdout(&o));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn truncated_in_a_packet_after_the_evidence_keeps_the_incident() {
    let d = tmp("recdata");
    let p = downgrade();
    let (off, caplen) = p.records[EVIDENCE_LAST_FRAME + 2];
    let f = write(&d, "cut.pcap", &p.bytes[..off + 16 + caplen / 2]);
    let o = run(&["-r", &f]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(e.contains("1 truncated record at end of file"), "{e}");
    assert_eq!(downgrade_rows(&stdout(&o)), 1, "{}", stdout(&o));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn corrupt_record_after_the_evidence_is_exit_2_and_keeps_the_incident() {
    let d = tmp("oversized");
    let mut p = downgrade();
    let (off, _) = p.records[EVIDENCE_LAST_FRAME + 2];
    // An impossible caplen: the rest of the file cannot be trusted, so this is fatal.
    p.bytes[off + 8..off + 12].copy_from_slice(&0x7fff_0000u32.to_le_bytes());
    let f = write(&d, "oversized.pcap", &p.bytes);
    let o = run(&["-r", &f]);
    let index = EVIDENCE_LAST_FRAME + 3;
    assert_fatal(&o, &f, &format!("record {index} at offset {off}: caplen 2147418112 exceeds the maximum"));
    assert_eq!(downgrade_rows(&stdout(&o)), 1, "the incident found before the damage is lost: {}", stdout(&o));
    // The summary is printed before the error line.
    assert!(stderr(&o).contains("incidents: 1 (MCP-SSE-DOWNGRADE: 1)"), "{}", stderr(&o));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn zero_length_records_are_skipped_and_counted() {
    let d = tmp("zero");
    let p = downgrade();
    // Insert a zero-length record (caplen 0, wire length 60) after every record.
    let mut out = p.bytes[..24].to_vec();
    for &(off, caplen) in &p.records {
        out.extend_from_slice(&p.bytes[off..off + 16 + caplen]);
        let mut h = p.bytes[off..off + 16].to_vec();
        h[8..12].copy_from_slice(&0u32.to_le_bytes());
        h[12..16].copy_from_slice(&60u32.to_le_bytes());
        out.extend_from_slice(&h);
    }
    let f = write(&d, "zero.pcap", &out);
    let o = run(&["-r", &f]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    let n = p.records.len();
    assert!(e.contains(&format!("packets:   {} ", 2 * n)), "{e}");
    assert!(e.contains(&format!("{n} records cut by the snap length")), "{e}");
    assert!(e.contains(&format!("skipped: {n} malformed")), "{e}");
    assert_eq!(downgrade_rows(&stdout(&o)), 1);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn wrong_magic_is_exit_2_with_the_magic() {
    let d = tmp("magic");
    let mut p = downgrade();
    p.bytes[..4].copy_from_slice(b"GIF8");
    let f = write(&d, "magic.pcap", &p.bytes);
    let o = run(&["-r", &f]);
    assert_fatal(&o, &f, "not a pcap or pcapng file (magic 0x47494638)");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn directory_is_exit_2_naming_it() {
    let d = tmp("dir");
    let f = d.to_str().unwrap().to_string();
    let o = run(&["-r", &f]);
    assert_fatal(&o, &f, "is a directory");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn unreadable_file_is_exit_2_naming_it() {
    // /proc/self/mem opens but fails its first read at offset 0 (address 0 is never mapped): a file that
    // cannot be read, even as root (for whom mode 000 would not stop the read).
    if !Path::new("/proc/self/mem").exists() {
        return;
    }
    let o = run(&["-r", "/proc/self/mem"]);
    assert_fatal(&o, "/proc/self/mem", "read error at offset 0");
}

/// pcapng block: type, body, padded, with both length fields.
fn block(kind: u32, body: &[u8]) -> Vec<u8> {
    let pad = (4 - body.len() % 4) % 4;
    let len = (12 + body.len() + pad) as u32;
    let mut b = kind.to_le_bytes().to_vec();
    b.extend_from_slice(&len.to_le_bytes());
    b.extend_from_slice(body);
    b.extend(std::iter::repeat_n(0u8, pad));
    b.extend_from_slice(&len.to_le_bytes());
    b
}

#[test]
fn pcapng_with_unknown_blocks_and_interfaces_of_different_link_types() {
    let d = tmp("ng");
    let p = downgrade();
    let mut out = Vec::new();
    // SHB: byte-order magic, version 1.0, section length unknown (-1).
    let mut shb = 0x1a2b_3c4du32.to_le_bytes().to_vec();
    shb.extend_from_slice(&1u16.to_le_bytes());
    shb.extend_from_slice(&0u16.to_le_bytes());
    shb.extend_from_slice(&(-1i64).to_le_bytes());
    out.extend(block(0x0a0d_0d0a, &shb));
    // Interface 0: Ethernet (the sample's), interface 1: LINKTYPE_RAW (101), interface 2: a link type
    // mcptap does not decode (147, user 0).
    for link in [1u16, 101, 147] {
        let mut idb = link.to_le_bytes().to_vec();
        idb.extend_from_slice(&0u16.to_le_bytes());
        idb.extend_from_slice(&0u32.to_le_bytes());
        out.extend(block(1, &idb));
    }
    // An unknown block type (custom range is 0x00000BAD; use an unassigned one).
    out.extend(block(0x0000_7777, b"who knows"));
    let mut raw_frames = 0;
    let mut other_frames = 0;
    for (i, &(off, caplen)) in p.records.iter().enumerate() {
        let secs = u32::from_le_bytes(p.bytes[off..off + 4].try_into().unwrap()) as u64;
        let usecs = u32::from_le_bytes(p.bytes[off + 4..off + 8].try_into().unwrap()) as u64;
        let ts = secs * 1_000_000 + usecs;
        let frame = &p.bytes[off + 16..off + 16 + caplen];
        // Odd packets go out on interface 1 as raw IP (the Ethernet header stripped): decoding must follow
        // each packet's own interface.
        let (iface, data) = if i % 2 == 1 { (1u32, &frame[14..]) } else { (0u32, frame) };
        raw_frames += usize::from(iface == 1);
        let mut epb = iface.to_le_bytes().to_vec();
        epb.extend_from_slice(&((ts >> 32) as u32).to_le_bytes());
        epb.extend_from_slice(&(ts as u32).to_le_bytes());
        epb.extend_from_slice(&(data.len() as u32).to_le_bytes());
        epb.extend_from_slice(&(data.len() as u32).to_le_bytes());
        epb.extend_from_slice(data);
        out.extend(block(6, &epb));
        if i % 10 == 0 {
            out.extend(block(0x0000_7777, &[1, 2, 3]));
            // A packet on the undecodable interface.
            let mut epb = 2u32.to_le_bytes().to_vec();
            epb.extend_from_slice(&((ts >> 32) as u32).to_le_bytes());
            epb.extend_from_slice(&(ts as u32).to_le_bytes());
            epb.extend_from_slice(&4u32.to_le_bytes());
            epb.extend_from_slice(&4u32.to_le_bytes());
            epb.extend_from_slice(b"abcd");
            out.extend(block(6, &epb));
            other_frames += 1;
        }
    }
    assert!(raw_frames > 10);
    let f = write(&d, "mixed.pcapng", &out);
    let o = run(&["-r", &f]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(e.contains(&format!("{} pcapng blocks skipped", 1 + other_frames)), "{e}");
    assert!(e.contains(&format!("skipped: {other_frames} unsupported link type")), "{e}");
    assert_eq!(downgrade_rows(&stdout(&o)), 1, "{}", stdout(&o));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn broken_pipe_is_quiet_and_successful() {
    // `mcptap -r sample | head -c 10`: the reader goes away; no panic message, exit 0. The AsRaised-free
    // default writes at the end, so close the pipe before reading anything.
    let mut child = bin()
        .args(["-r", "samples/downgrade.pcap", "-q"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let e = stderr(&o);
    assert!(!e.contains("panicked") && !e.contains("Broken pipe"), "{e}");
    assert_eq!(o.status.code(), Some(0), "{e}");
}

#[test]
fn csv_rows_are_whole_when_the_reader_stops_early() {
    // Through a real `head -c`: whatever reaches the reader is a prefix of the full report.
    let full = stdout(&run(&["-r", "samples/downgrade.pcap", "-q"]));
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{} -r samples/downgrade.pcap -q | head -c 10", env!("CARGO_BIN_EXE_mcptap")))
        .current_dir(root())
        .output()
        .unwrap();
    let out = stdout(&o);
    assert_eq!(out.len(), 10, "{out}");
    assert!(full.starts_with(&out), "{out}");
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn output_file_holds_whole_rows_after_a_fatal_input_error() {
    let d = tmp("outfile");
    let mut p = downgrade();
    let (off, _) = p.records[EVIDENCE_LAST_FRAME + 2];
    p.bytes[off + 8..off + 12].copy_from_slice(&0x7fff_0000u32.to_le_bytes());
    let f = write(&d, "bad.pcap", &p.bytes);
    let csv = d.join("out.csv");
    let o = run(&["-r", &f, "-q", "-o", csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.ends_with('\n'), "{text}");
    assert_eq!(downgrade_rows(&text), 1, "{text}");
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn src_reads_no_wall_clock_outside_live_capture() {
    // Time comes from packets (DESIGN.md); only live capture (its clock tick, statistics, and the capture
    // thread's bound on draining the ring at stop: capture/mover.rs) and the summary's wall-time line
    // (output/elapsed.rs, standard error only) may read the clock.
    fn walk(dir: &Path, bad: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, bad);
            } else if p.extension().is_some_and(|x| x == "rs") && !p.ends_with("capture/live.rs") && !p.ends_with("capture/mover.rs") && !p.ends_with("output/elapsed.rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                // Test and bench modules (`#[cfg(test)]`, at the end of a file by convention) may time things.
                for (n, line) in text.lines().enumerate().take_while(|(_, l)| !l.contains("#[cfg(test)]")) {
                    if line.contains("SystemTime::now") || line.contains("Instant::now") {
                        bad.push(format!("{}:{}: {}", p.display(), n + 1, line.trim()));
                    }
                }
            }
        }
    }
    let mut bad = Vec::new();
    walk(&root().join("src"), &mut bad);
    assert!(bad.is_empty(), "wall clock read outside src/capture/live.rs, src/capture/mover.rs and src/output/elapsed.rs:\n{}", bad.join("\n"));
}

#[test]
fn layers_below_the_session_stage_use_nothing_above_them() {
    // The connection's layers (src/stack) hand the session stage typed exchanges and coverage notices;
    // facts are built from the session stage up (README, How it works). A layer naming a later stage
    // reaches past the one above it.
    const ABOVE: [&str; 5] = ["crate::facts", "crate::mcp", "crate::detect", "crate::analyzer", "crate::shard"];
    fn walk(dir: &Path, bad: &mut Vec<String>, files: &mut usize) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, bad, files);
            } else if p.extension().is_some_and(|x| x == "rs") {
                *files += 1;
                let text = std::fs::read_to_string(&p).unwrap();
                for (n, line) in text.lines().enumerate().take_while(|(_, l)| !l.contains("#[cfg(test)]")) {
                    if ABOVE.iter().any(|a| line.contains(a)) {
                        bad.push(format!("{}:{}: {}", p.display(), n + 1, line.trim()));
                    }
                }
            }
        }
    }
    let (mut bad, mut files) = (Vec::new(), 0);
    walk(&root().join("src/stack"), &mut bad, &mut files);
    assert!(files > 20, "src/stack has {files} files: the walk did not find the layers");
    assert!(bad.is_empty(), "a connection layer uses a later stage:\n{}", bad.join("\n"));
}
