//! Real SDK traffic across an impaired path (`samples/impaired-*.pcap`, made by
//! `samples/gen/capture_impaired.sh` through the `impair.py` relay between network namespaces) must give
//! the same report as its clean twin, the same scenario captured on loopback: the same incidents (rule,
//! severity, session, evidence apart from frame numbers) and the same HTTP/MCP counts. And the impairment
//! must really be in the capture: segments out of order and repeated, as the relay's log says it made them,
//! and retransmitted bytes in the summary.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::common::*;
use crate::pcapedit::Pcap;

/// (impaired capture, clean twin, the twin must report at least one incident)
const PAIRS: [(&str, &str, bool); 3] = [
    ("impaired-downgrade.pcap", "downgrade.pcap", true),
    ("impaired-ts-downgrade.pcap", "ts-client-downgrade.pcap", true),
    ("impaired-clean.pcap", "sse-ids-clean.pcap", false),
];

fn analyse(sample: &str) -> (String, String) {
    let o = run(&["-r", &format!("samples/{sample}")]);
    assert!(o.status.success(), "{sample}: {}", stderr(&o));
    (stdout(&o), stderr(&o))
}

/// `frame 46` -> `frame #`: frame numbers differ between two captures of the same exchange.
pub(crate) fn without_frame_numbers(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("frame") {
        let (head, tail) = rest.split_at(i);
        out.push_str(head);
        let word_end = tail.find(' ').map_or(tail.len(), |e| e + 1);
        out.push_str(&tail[..word_end]);
        let after = &tail[word_end..];
        let digits = after.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 {
            out.push('#');
        }
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// The incidents as comparable rows: rule, severity, session (its order of appearance: the two runs got
/// different random session ids), endpoint, era, count, evidence without frame numbers. Times, addresses,
/// ports and frame lists necessarily differ between two runs.
pub(crate) fn incidents(csv: &str) -> Vec<Vec<String>> {
    let rows = csv_rows(csv);
    let head = &rows[0];
    let col = |name: &str| head.iter().position(|h| h == name).unwrap_or_else(|| panic!("no column {name} in {head:?}"));
    let (rule, sev, sid, ep, era, count, ev) =
        (col("rule_id"), col("severity"), col("session_id"), col("endpoint"), col("era"), col("count"), col("evidence"));
    let mut sessions: HashMap<String, usize> = HashMap::new();
    let mut v: Vec<Vec<String>> = rows[1..]
        .iter()
        .map(|r| {
            let n = sessions.len();
            let s = if r[sid].is_empty() { "-".to_string() } else { format!("session#{}", *sessions.entry(r[sid].clone()).or_insert(n)) };
            vec![r[rule].clone(), r[sev].clone(), s, r[ep].clone(), r[era].clone(), r[count].clone(), without_frame_numbers(&r[ev])]
        })
        .collect();
    v.sort();
    v
}

/// The summary lines that must not change with the path: HTTP messages, content types, MCP sessions and
/// messages, incidents.
fn path_independent(summary: &str) -> Vec<String> {
    summary
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("http:") || l.starts_with("mcp:") || l.starts_with("incidents:"))
        .map(str::to_string)
        .collect()
}

/// `tcp:` summary counter, e.g. `bytes retransmitted`.
fn tcp_counter(summary: &str, what: &str) -> u64 {
    let line = summary.lines().find(|l| l.trim_start().starts_with("tcp:")).expect("tcp: line");
    let i = line.find(what).unwrap_or_else(|| panic!("no '{what}' in {line}"));
    line[..i].trim_end().rsplit([' ', ',']).next().unwrap().parse().unwrap()
}

#[derive(Debug, Default)]
struct Seen {
    /// data segments that arrived with a hole before them (a later segment overtook an earlier one)
    ahead: usize,
    /// data segments that filled a hole (the overtaken or late segment, or a loss recovered)
    filled: usize,
    /// data segments whose exact bytes (sequence number and length) had arrived already, before the
    /// connection's first FIN or RST (after it mcptap no longer follows the stream)
    repeated: usize,
}

/// (src, sport, dst, dport)
type FlowKey = (Vec<u8>, u16, Vec<u8>, u16);
/// (ISN + 1, next expected byte relative to it, (seq, len) of every data segment seen)
type FlowState = (u32, u64, HashSet<(u32, usize)>);

/// Out-of-order and repeated data segments per direction (`c>s` is the direction of the SYN), from the
/// capture itself.
fn seen_in_capture(sample: &str) -> BTreeMap<&'static str, Seen> {
    let p = Pcap::read(&root().join("samples").join(sample)).unwrap();
    let mut flows: HashMap<FlowKey, FlowState> = HashMap::new();
    let mut client_side: HashSet<(Vec<u8>, u16)> = HashSet::new();
    let mut out: BTreeMap<&'static str, Seen> = BTreeMap::new();
    // Connections (either direction's key) that have sent a FIN or RST.
    let mut closing: HashSet<FlowKey> = HashSet::new();
    for r in &p.records {
        let Some(s) = p.tcp(r) else { continue };
        let key = (s.src.clone(), s.sport, s.dst.clone(), s.dport);
        let was_closing = closing.contains(&key);
        if s.flags & 0x05 != 0 {
            closing.insert(key.clone());
            closing.insert((s.dst.clone(), s.dport, s.src.clone(), s.sport));
        }
        if s.flags & 0x02 != 0 {
            // SYN: data starts at ISN + 1 (RFC 9293 §3.4)
            flows.entry(key).or_insert((s.seq.wrapping_add(1), 0, HashSet::new()));
            if s.flags & 0x10 == 0 {
                client_side.insert((s.src.clone(), s.sport));
            }
            continue;
        }
        if s.payload == 0 {
            continue;
        }
        let dir = if client_side.contains(&(s.src.clone(), s.sport)) { "c>s" } else { "s>c" };
        let Some((isn, next, seen)) = flows.get_mut(&key) else { continue };
        let rel = u64::from(s.seq.wrapping_sub(*isn));
        let st = out.entry(dir).or_default();
        if !seen.insert((s.seq, s.payload)) {
            st.repeated += usize::from(!was_closing);
        } else if rel > *next {
            st.ahead += 1;
        } else if rel < *next {
            st.filled += 1;
        }
        *next = (*next).max(rel + s.payload as u64);
    }
    out
}

/// The relay's totals for one direction, from `samples/gen/wire/<capture>.relay.log`.
fn relay_totals(sample: &str, dir: &str) -> HashMap<String, u64> {
    let log = std::fs::read_to_string(root().join("samples/gen/wire").join(format!("{sample}.relay.log"))).unwrap();
    let line = log.lines().rev().find(|l| l.trim_start().starts_with(&format!("{dir}:"))).unwrap();
    line.split_whitespace().skip(1).filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.to_string(), v.parse().unwrap())).collect()
}

#[test]
fn frame_numbers_are_masked_in_evidence() {
    assert_eq!(without_frame_numbers("at frame 46 after (last at frame 40); frames 3"), "at frame # after (last at frame #); frames #");
    assert_eq!(without_frame_numbers("no frame here"), "no frame here");
}

#[test]
fn impaired_captures_report_what_their_clean_twins_report() {
    for (impaired, twin, must_fire) in PAIRS {
        let (bad_csv, bad_summary) = analyse(impaired);
        let (good_csv, good_summary) = analyse(twin);
        let (bad, good) = (incidents(&bad_csv), incidents(&good_csv));
        assert!(!must_fire || !good.is_empty(), "{twin}: expected incidents, got none");
        assert_eq!(bad, good, "{impaired} does not report what {twin} reports");
        assert_eq!(path_independent(&bad_summary), path_independent(&good_summary), "{impaired} vs {twin}: summary");
        // Every loss was recovered by a retransmission before the capture point or in it: nothing missed.
        assert_eq!(tcp_counter(&bad_summary, "gaps"), 0, "{impaired}: {bad_summary}");
        assert_eq!(tcp_counter(&bad_summary, "bytes missed"), 0, "{impaired}: {bad_summary}");
    }
}

#[test]
fn impaired_captures_hold_the_impairment_the_relay_logged() {
    for (impaired, _, _) in PAIRS {
        let (_, summary) = analyse(impaired);
        let seen = seen_in_capture(impaired);
        let cs = relay_totals(impaired, "c>s");
        let sc = relay_totals(impaired, "s>c");
        let c = seen.get("c>s").map_or((0, 0, 0), |s| (s.ahead, s.filled, s.repeated));
        let s = seen.get("s>c").map_or((0, 0, 0), |s| (s.ahead, s.filled, s.repeated));
        let msg = format!("{impaired}: capture c>s {c:?} s>c {s:?} (ahead, filled, repeated); relay c>s {cs:?} s>c {sc:?}");
        // The capture is taken on the server's interface. Client segments the relay reordered arrive after a
        // later one; duplicated ones arrive twice; dropped ones arrive only as the client's retransmission.
        if cs["reorder"] > 0 {
            assert!(c.0 > 0 && c.1 > 0, "{msg}");
        }
        if cs["dup"] > 0 || cs["drop"] > 0 {
            assert!(c.2 + c.1 > 0, "{msg}");
        }
        if cs["dup"] > 0 {
            assert!(c.2 > 0, "{msg}");
        }
        // Server segments the relay dropped after the capture point show as the server sending them again.
        if sc["drop"] > 0 {
            assert!(s.2 > 0, "{msg}");
        }
        assert!(cs["drop"] + cs["dup"] + cs["reorder"] + sc["drop"] > 0, "{msg}: the relay impaired nothing");
        assert!(tcp_counter(&summary, "bytes retransmitted") > 0, "{msg}\n{summary}");
        // mcptap's own segment counters agree with this independent count of the capture: the same
        // definition of out of order, and every exact repeat is a segment that brought nothing new.
        assert_eq!(tcp_counter(&summary, "out-of-order segments"), (c.0 + s.0) as u64, "{msg}\n{summary}");
        assert!(tcp_counter(&summary, "retransmitted segments") >= (c.2 + s.2) as u64, "{msg}\n{summary}");
        eprintln!("{msg}; summary: {} bytes retransmitted", tcp_counter(&summary, "bytes retransmitted"));
    }
}
