//! Damaged captures made from the real samples (`tests/pcapedit.rs`): an impaired path (reordering,
//! duplication, loss), a capture that starts inside a connection, and records cut by a snap length. The
//! reassembly must hold: the same incidents without loss, gaps reported with loss, no false downgrade.

use crate::common::*;
use crate::pcapedit::{cut_start, drop_runs, impair, scratch, snap, stray_ahead, Pcap};

/// (rule_id, severity, session_id, count) of each incident.
fn incidents(csv: &str) -> Vec<(String, String, String, String)> {
    let mut v: Vec<_> = csv_rows(csv).into_iter().skip(1).map(|r| (r[2].clone(), r[3].clone(), r[4].clone(), r[10].clone())).collect();
    v.sort();
    v
}

fn analyse(path: &std::path::Path) -> (String, String) {
    let o = run(&["-r", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}: exit {:?}: {}", path.display(), o.status.code(), stderr(&o));
    (stdout(&o), stderr(&o))
}

/// The number before `word` on the summary's tcp line.
fn tcp_count(summary: &str, word: &str) -> u64 {
    let l = summary.lines().find(|l| l.trim_start().starts_with("tcp:")).unwrap();
    let i = l.find(word).unwrap_or_else(|| panic!("no '{word}' in {l}"));
    l[..i].trim_end().rsplit(' ').next().unwrap().parse().unwrap()
}

/// `(gaps, missed bytes)` from the summary's tcp line.
fn gaps(summary: &str) -> (u64, u64) {
    (tcp_count(summary, " gaps"), tcp_count(summary, " bytes missed"))
}

#[test]
fn reordered_and_duplicated_segments_give_the_same_incidents() {
    let dir = scratch("reorder");
    let (mut checked, mut exact) = (0, 0);
    for p in samples() {
        let Some(pcap) = Pcap::read(&p) else { continue };
        let (clean, clean_summary) = analyse(&p);
        for seed in [1, 2, 3] {
            let (bad, d) = impair(&pcap, seed, 40, 15, 0);
            let f = dir.join(format!("{seed}-{}", p.file_name().unwrap().to_string_lossy()));
            bad.write(&f);
            let (csv, summary) = analyse(&f);
            assert_eq!(incidents(&csv), incidents(&clean), "{} seed {seed} ({d:?})", p.display());
            assert_eq!(gaps(&summary), gaps(&clean_summary), "{} seed {seed}: no loss, no new gap\n{summary}", p.display());
            // Each swap puts one segment ahead of a hole; each copy brings nothing new. Exactly so where the
            // sample has no retransmission of its own (swapping a segment with its own resend makes no hole).
            let added = |what: &str| tcp_count(&summary, what) - tcp_count(&clean_summary, what);
            let msg = format!("{} seed {seed} ({d:?})\n{summary}", p.display());
            if tcp_count(&clean_summary, " retransmitted segments") == 0 {
                assert_eq!(added(" out-of-order segments"), d.swapped as u64, "{msg}");
                assert_eq!(added(" retransmitted segments"), d.duplicated as u64, "{msg}");
                exact += 1;
            }
            checked += d.swapped + d.duplicated;
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(checked > 100, "too little damage done: {checked}");
    assert!(exact > 30, "segment counters checked exactly on {exact} captures only");
}

#[test]
fn lost_segments_are_reported_as_gaps_of_exactly_their_bytes() {
    let dir = scratch("loss");
    for name in ["downgrade.pcap", "ts-client-downgrade.pcap", "sse-ids-clean.pcap"] {
        let pcap = Pcap::read(&root().join("samples").join(name)).unwrap();
        for seed in [11, 12, 13, 14] {
            let (bad, d) = impair(&pcap, seed, 20, 5, 8);
            if d.dropped == 0 {
                continue;
            }
            let f = dir.join(format!("{seed}-{name}"));
            bad.write(&f);
            let (csv, summary) = analyse(&f);
            let (n, missed) = gaps(&summary);
            assert!(n >= 1 && n <= d.dropped as u64, "{name} seed {seed} {d:?}\n{summary}");
            assert_eq!(missed, d.dropped_bytes as u64, "{name} seed {seed} {d:?}\n{summary}");
            // The loss is said: a CAPTURE-GAPS notice, and any other incident of a gapped session says its
            // evidence crosses a gap.
            let rows = csv_rows(&csv);
            assert!(rows.iter().any(|r| r[2] == "CAPTURE-GAPS"), "{name} seed {seed}: {rows:?}");
            // A clean sample never turns into a downgrade because of loss.
            if name == "sse-ids-clean.pcap" {
                assert!(!rows.iter().any(|r| r[2] == "MCP-SSE-DOWNGRADE"), "{name} seed {seed}: {rows:?}");
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// `(rule, session)` of each MCP verdict of medium severity or more: what the loss of packets must never add.
fn mcp_verdicts(csv: &str) -> std::collections::BTreeSet<(String, String)> {
    csv_rows(csv)
        .into_iter()
        .skip(1)
        .filter(|r| r[2].starts_with("MCP-") && matches!(r[3].as_str(), "medium" | "high" | "critical"))
        .map(|r| (r[2].clone(), r[4].clone()))
        .collect()
}

#[test]
fn dropped_packet_runs_never_become_mcp_verdicts() {
    // A full capture ring (kernel drops) loses runs of packets of both directions: data, the ACKs that
    // would reveal the hole, the FIN. What the capture lost is reported by CAPTURE-GAPS; a stream whose
    // reply, ids or end went in the loss, a request whose answer did, a response HTTP would pair with the
    // wrong request after a lost one, must never become a verdict about the peers.
    let dir = scratch("runs");
    let (mut dropped, mut gapped) = (0, 0);
    let mut wrong = Vec::new();
    for p in samples() {
        let Some(pcap) = Pcap::read(&p) else { continue };
        let keys = p.with_extension("keys");
        let args = |f: &std::path::Path| {
            let mut a = vec!["-r".to_string(), f.display().to_string()];
            if keys.exists() {
                a.extend(["--keylog".to_string(), keys.display().to_string()]);
            }
            a
        };
        let report = |f: &std::path::Path| {
            let a = args(f);
            let o = run(&a.iter().map(String::as_str).collect::<Vec<_>>());
            assert!(o.status.success(), "{}: exit {:?}: {}", f.display(), o.status.code(), stderr(&o));
            stdout(&o)
        };
        let clean = mcp_verdicts(&report(&p));
        for (seed, per_mille, max_run) in [(21, 10, 4), (22, 20, 12), (23, 40, 40)] {
            let (bad, n) = drop_runs(&pcap, seed, per_mille, max_run);
            if n == 0 {
                continue;
            }
            dropped += n;
            let f = dir.join(format!("{seed}-{}", p.file_name().unwrap().to_string_lossy()));
            bad.write(&f);
            let csv = report(&f);
            gapped += usize::from(csv_rows(&csv).iter().any(|r| r[2] == "CAPTURE-GAPS"));
            let added: Vec<_> = mcp_verdicts(&csv).difference(&clean).cloned().collect();
            if !added.is_empty() {
                wrong.push(format!("{} seed {seed} ({n} packets dropped): {added:?}", p.file_name().unwrap().to_string_lossy()));
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(wrong.is_empty(), "dropped packets made verdicts the clean capture does not have:\n{}", wrong.join("\n"));
    assert!(dropped > 2000 && gapped > 50, "too little damage done: {dropped} packets dropped, {gapped} reports with gaps");
}

#[test]
fn downgrade_session_with_a_gap_says_its_evidence_crosses_it() {
    // Drop one segment of the GET stream's connection (conn 1, server to client, after the SSE head) of
    // downgrade.pcap: the session has a gap; the downgrade is still found and says so.
    let p = Pcap::read(&root().join("samples/downgrade.pcap")).unwrap();
    let mut q = p.clone();
    // Frame 46 is the first SSE response segment of the downgraded POST (samples/gen/wire/downgrade.pcap.txt);
    // lose the segment before the JSON reply at frame 40's connection neighbour instead: the request of
    // tools/list (frame 29) keeps its head, the gap hits conn 2 inside a known-length body or between
    // messages. Find the first data segment of conn 2 server->client after frame 33 and drop it.
    let s33 = p.tcp(&p.records[32]).unwrap();
    let idx = (33..p.records.len()).find(|&i| p.tcp(&p.records[i]).is_some_and(|s| s.same_direction(&s33) && s.payload > 0)).unwrap();
    q.records.remove(idx);
    let dir = scratch("gapdg");
    let f = dir.join("gap-downgrade.pcap");
    q.write(&f);
    let (csv, summary) = analyse(&f);
    std::fs::remove_dir_all(&dir).ok();
    assert!(gaps(&summary).0 >= 1, "{summary}");
    let rows = csv_rows(&csv);
    let crossing: Vec<_> = rows.iter().skip(1).filter(|r| r[2] != "CAPTURE-GAPS").collect();
    assert!(!crossing.is_empty(), "{rows:?}");
    for r in crossing {
        assert!(r[12].ends_with(" (evidence crosses a capture gap)"), "{r:?}");
    }
}

#[test]
fn capture_starting_midstream_recovers_at_the_next_message() {
    // downgrade.pcap (samples/gen/wire/downgrade.pcap.txt): JSON replies at frames 8, 33, 40 in session
    // 799f...; the downgraded SSE reply at 46. A capture that starts later than frame 1, inside a
    // handshake, a body, or the GET's SSE stream, must still find the downgrade while a JSON reply before
    // frame 46 is whole in the capture, attributed to the same session.
    let p = Pcap::read(&root().join("samples/downgrade.pcap")).unwrap();
    let (clean, _) = analyse(&root().join("samples/downgrade.pcap"));
    let session = csv_rows(&clean)[1][4].clone();
    let dir = scratch("midstream");
    for skip in [2, 5, 9, 15, 18, 23, 26, 30, 34, 36] {
        let f = dir.join(format!("cut-{skip}.pcap"));
        cut_start(&p, skip).write(&f);
        let (csv, summary) = analyse(&f);
        let rows = csv_rows(&csv);
        let dg: Vec<_> = rows.iter().filter(|r| r[2] == "MCP-SSE-DOWNGRADE").collect();
        assert_eq!(dg.len(), 1, "cut at {skip}: {rows:?}\n{summary}");
        assert_eq!(dg[0][4], session, "cut at {skip}");
    }
    // Cut after the last JSON reply: nothing before the SSE reply to shift from, no false downgrade.
    for skip in [41, 47, 60, 75] {
        let f = dir.join(format!("cut-{skip}.pcap"));
        cut_start(&p, skip).write(&f);
        let (csv, _) = analyse(&f);
        let rows = csv_rows(&csv);
        assert!(!rows.iter().any(|r| r[2] == "MCP-SSE-DOWNGRADE"), "cut at {skip}: {rows:?}");
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn snap_length_cuts_are_gaps_never_bytes_and_never_a_false_downgrade() {
    let dir = scratch("snaplen");
    for name in ["downgrade.pcap", "downgrade-sll.pcap", "sse-ids-clean.pcap", "json-clean.pcap"] {
        let p = Pcap::read(&root().join("samples").join(name)).unwrap();
        for snaplen in [68, 120, 200] {
            let f = dir.join(format!("s{snaplen}-{name}"));
            snap(&p, snaplen).write(&f);
            let (csv, summary) = analyse(&f);
            let (n, missed) = gaps(&summary);
            assert!(n >= 1 && missed > 0, "{name} -s {snaplen}: cut payload must be gaps\n{summary}");
            let rows = csv_rows(&csv);
            assert!(!rows.iter().any(|r| r[2] == "MCP-SSE-DOWNGRADE"), "{name} -s {snaplen}: {rows:?}");
            // What the cut hid is said, whether or not any MCP evidence survived it.
            assert!(rows.iter().any(|r| r[2] == "CAPTURE-GAPS"), "{name} -s {snaplen}: a cut capture reported as clean: {rows:?}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_packet_from_the_future_moves_every_worker_clock_as_it_moves_one_thread() {
    // Found by fuzzing (fuzz/fuzz_targets/shards.rs): one packet of another server stamped weeks ahead
    // expires every idle connection and session on one thread. A worker that did not see that packet
    // would keep them, and report what one thread does not (a stream ended by idle instead of a gap).
    let dir = scratch("stray");
    let mut compared = 0;
    for p in samples() {
        let Some(pcap) = Pcap::read(&p) else { continue };
        let Some(bad) = stray_ahead(&pcap, 40 * 86_400) else { continue };
        let f = dir.path().join(p.file_name().unwrap());
        bad.write(&f);
        let keys = p.with_extension("keys");
        let mut args = vec!["-r".to_string(), f.display().to_string()];
        if keys.exists() {
            args.extend(["--keylog".to_string(), keys.display().to_string()]);
        }
        let one: Vec<&str> = args.iter().map(String::as_str).collect();
        let three: Vec<&str> = one.iter().copied().chain(["--threads", "3"]).collect();
        let (a, b) = (run(&one), run(&three));
        assert_eq!(a.status.code(), b.status.code(), "{}", p.display());
        assert_eq!(stdout(&a), stdout(&b), "{}: CSV differs on three workers", p.display());
        assert_eq!(stderr(&a), stderr(&b), "{}: summary differs on three workers", p.display());
        compared += 1;
    }
    assert!(compared >= 40, "{compared} samples compared");
}

/// A segment damaged on the path, from a real impaired network (`samples/ecosystem/netem-corrupt-client.pcap`,
/// captured on the client's side: frame 43, the head of the tools/list reply, has a wrong TCP checksum, the
/// client's kernel discarded it and took the server's resent copy, frame 46). Patched so that the damaged
/// copy says 503 where the resent one says 200: mcptap must follow the copy the receiver took, and with
/// `--checksums off` take the first copy it saw, as before checksums were looked at.
#[test]
fn a_segment_with_a_wrong_checksum_gives_way_to_the_copy_its_receiver_took() {
    let mut pcap = Pcap::read(&root().join("samples/ecosystem/netem-corrupt-client.pcap")).unwrap();
    let rec = &mut pcap.records[42];
    let at = rec.data.windows(12).position(|w| w == b"HTTP/1.1 200").expect("frame 43 carries a status line");
    rec.data[at + 9..at + 12].copy_from_slice(b"503");
    let dir = scratch("checksum");
    let f = dir.join("corrupt-503.pcap");
    pcap.write(&f);
    // (frame, status) of the tools/list reply in the session's timeline.
    let reply = |extra: &[&str]| -> (String, String) {
        let mut args = vec!["-q", "-r", f.to_str().unwrap(), "--timeline", "558f8500fa144d0194156c3ddf6e5300"];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let line = out.lines().find(|l| l.contains("<-") && l.contains("(tools/list)")).unwrap_or_else(|| panic!("no tools/list reply in\n{out}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        let arrow = words.iter().position(|w| *w == "<-").unwrap();
        (words[0].to_string(), words[arrow + 1].to_string())
    };
    assert_eq!(reply(&[]), ("46".to_string(), "200".to_string()));
    assert_eq!(reply(&["--checksums", "off"]), ("43".to_string(), "503".to_string()));
    let (_, summary) = analyse(&f);
    assert!(summary.contains("2 segments with a wrong TCP checksum set aside as damaged on the way (0 taken after all, acknowledged by their receiver or beyond the out-of-order budget; 0 never resent"), "{summary}");
    assert_eq!(tcp_count(&summary, " retransmitted segments"), 0, "the resent copies are the ones taken\n{summary}");
}

/// A sensor that sees one direction of the traffic (a filter on one direction, asymmetric routing, a one-way
/// span port) lost every byte of the other, and must say so: silence would mean "seen and clean"
/// (INCIDENTS.md, coverage notices). For every plain HTTP sample that has MCP sessions, a copy holding the
/// server's packets only gets a CAPTURE-GAPS row wherever the server's bytes carry MCP evidence of their own
/// (a session header, an `endpoint` event, an MCP notification): `samples/ecosystem/sensor5.md`, where a
/// sensor behind `tcp src port` wrote nothing. A copy holding the client's packets only says so on its own
/// summary line (a NAT's half-translated copy looks the same and lost nothing: `samples/sensors-dnat.pcap`,
/// labelled CAPTURE-GAPS silent).
#[test]
fn a_sensor_that_sees_one_direction_reports_the_other_as_lost() {
    let dir = scratch("onedir");
    let mut checked = (0, 0);
    for p in samples() {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("tls-") || name.starts_with("h2") || name.contains("websocket") {
            continue;
        }
        let Some(pcap) = Pcap::read(&p) else { continue };
        let (full, _) = analyse(&p);
        let sessions = run(&["-q", "-r", p.to_str().unwrap(), "--sessions", "/dev/stdout", "-o", "/dev/null"]);
        if stdout(&sessions).lines().count() < 2 {
            continue;
        }
        let Some(port) = pcap.records.iter().filter_map(|r| pcap.tcp(r)).find(|s| s.flags & 0x12 == 0x02).map(|s| s.dport) else { continue };
        for server_side in [false, true] {
            let mut copy = pcap.clone();
            copy.records.retain(|r| pcap.tcp(r).is_some_and(|s| if server_side { s.sport == port } else { s.dport == port }));
            if server_side {
                let text: Vec<u8> = copy.records.iter().flat_map(|r| r.data.to_ascii_lowercase()).collect();
                let has = |needle: &[u8]| text.windows(needle.len()).any(|w| w == needle);
                if !(has(b"mcp-session-id:") || has(b"event: endpoint") || has(b"\"method\":\"notifications/") || has(b"\"method\": \"notifications/")) {
                    continue;
                }
            }
            let f = dir.join(format!("{}-{name}", if server_side { "srv" } else { "cli" }));
            copy.write(&f);
            let (csv, summary) = analyse(&f);
            if server_side {
                let gaps: Vec<_> = csv_rows(&csv).into_iter().skip(1).filter(|r| r[2] == "CAPTURE-GAPS").collect();
                assert_eq!(gaps.len(), 1, "{name}, server only: no CAPTURE-GAPS row\n{csv}\n{summary}\n(full capture:\n{full})");
            } else {
                assert!(summary.contains("connections showed the client's packets only"), "{name}, client only\n{summary}");
            }
            if server_side { checked.1 += 1 } else { checked.0 += 1 }
        }
    }
    assert!(checked.0 > 40 && checked.1 > 40, "too few samples checked: {checked:?}");
}
