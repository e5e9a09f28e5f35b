//! Differential test of the reassembly against Wireshark: for every classic-pcap sample and for impaired
//! copies of them (reordered and duplicated segments), the HTTP transactions mcptap reassembles
//! (`--http-log`) must be those tshark dissects with TCP and HTTP reassembly on. A difference is either
//! fixed or listed in `tests/tshark-allow.tsv` with the reason. Skipped, with a printed reason, when
//! tshark is not installed (CI installs it).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::common::*;
use crate::pcapedit::{impair, scratch, Pcap};

/// One transaction as both tools can see it: client, server, method, uri, status, content type,
/// request body length, response body length (`-` where unknown).
type Tx = [String; 8];

fn have_tshark() -> bool {
    Command::new("tshark").arg("--version").output().is_ok_and(|o| o.status.success())
}

fn media(ct: &str) -> String {
    let m = ct.split(',').next().unwrap_or("").split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if m.is_empty() { "-".into() } else { m }
}

/// mcptap's transactions from `--http-log`.
fn mcptap_txs(cap: &Path, dir: &Path) -> Vec<Tx> {
    let log = dir.join("http.tsv");
    let o = run(&["-q", "-r", cap.to_str().unwrap(), "--http-log", log.to_str().unwrap(), "-o", dir.join("r.csv").to_str().unwrap()]);
    assert!(o.status.success(), "{}: {}", cap.display(), stderr(&o));
    let text = std::fs::read_to_string(&log).unwrap();
    let mut v: Vec<Tx> = text
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            [c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]].map(str::to_string)
        })
        .collect();
    v.sort();
    v
}

/// Sum of a tshark comma-separated number list, or the Content-Length, or `-`.
fn body_len(chunks: &str, content_length: &str) -> String {
    if !chunks.is_empty() {
        return chunks.split(',').filter_map(|n| n.trim().parse::<u64>().ok()).sum::<u64>().to_string();
    }
    match content_length.split(',').next().and_then(|n| n.trim().parse::<u64>().ok()) {
        Some(n) => n.to_string(),
        None => "0".into(),
    }
}

fn endpoint(ip4: &str, ip6: &str, port: &str) -> String {
    if ip6.is_empty() { format!("{ip4}:{port}") } else { format!("[{ip6}]:{port}") }
}

/// tshark's transactions: requests joined with their responses by `http.request_in`.
fn tshark_txs(cap: &Path) -> Vec<Tx> {
    let o = Command::new("tshark")
        .args(["-n", "-r"])
        .arg(cap)
        .args([
            "-o", "tcp.desegment_tcp_streams:TRUE",
            "-o", "tcp.reassemble_out_of_order:TRUE",
            "-o", "http.desegment_headers:TRUE",
            "-o", "http.desegment_body:TRUE",
            "-o", "http.dechunk_body:TRUE",
            "-Y", "http",
            "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a",
            "-e", "frame.number", "-e", "ip.src", "-e", "ipv6.src", "-e", "tcp.srcport",
            "-e", "ip.dst", "-e", "ipv6.dst", "-e", "tcp.dstport",
            "-e", "http.request.method", "-e", "http.request.uri", "-e", "http.response.code",
            "-e", "http.content_type", "-e", "http.request_in", "-e", "http.chunk_size", "-e", "http.content_length",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "tshark {}: {}", cap.display(), String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut reqs: BTreeMap<String, Tx> = BTreeMap::new();
    let mut resps: Vec<(String, Tx)> = Vec::new();
    for l in text.lines() {
        let c: Vec<&str> = l.split('\t').collect();
        if c.len() < 14 {
            continue;
        }
        let client_side = endpoint(c[1], c[2], c[3]);
        let server_side = endpoint(c[4], c[5], c[6]);
        let len = body_len(c[12], c[13]);
        if !c[7].is_empty() {
            let tx = [client_side, server_side, c[7].into(), c[8].into(), "-".into(), "-".into(), len, "-".into()];
            reqs.insert(c[0].to_string(), tx);
        } else if !c[9].is_empty() {
            // A response: its source is the server.
            let tx = [server_side, client_side, "-".into(), "-".into(), c[9].into(), media(c[10]), "-".into(), len];
            resps.push((c[11].to_string(), tx));
        }
    }
    let mut v = Vec::new();
    for (req_in, r) in resps {
        match reqs.get_mut(&req_in) {
            Some(q) if q[4] == "-" => {
                q[4] = r[4].clone();
                q[5] = r[5].clone();
                q[7] = r[7].clone();
            }
            _ => v.push(r),
        }
    }
    v.extend(reqs.into_values());
    v.sort();
    v
}

/// The allow-list: `capture`, `side` (`mcptap-only` or `tshark-only`), `match` (a `|`-joined transaction
/// prefix: client|server|method|uri|status|content_type|req_len|resp_len, `*` for any column), `reason`.
fn allow_list() -> Vec<(String, String, Vec<String>)> {
    let text = std::fs::read_to_string(root().join("tests/tshark-allow.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert!(c.len() == 4 && !c[3].trim().is_empty(), "tshark-allow.tsv: every line needs capture, side, match, reason: {l}");
            (c[0].to_string(), c[1].to_string(), c[2].split('|').map(str::to_string).collect())
        })
        .collect()
}

fn allowed(list: &[(String, String, Vec<String>)], cap: &str, side: &str, tx: &Tx) -> bool {
    list.iter().any(|(c, s, m)| {
        (c == "*" || c == cap) && s == side && m.iter().zip(tx.iter()).all(|(want, got)| want == "*" || want == got)
    })
}

/// Multiset difference a - b.
fn minus(a: &[Tx], b: &[Tx]) -> Vec<Tx> {
    let mut rest = b.to_vec();
    a.iter()
        .filter(|t| match rest.iter().position(|r| r == *t) {
            Some(i) => {
                rest.swap_remove(i);
                false
            }
            None => true,
        })
        .cloned()
        .collect()
}

#[test]
fn http_transactions_match_tshark() {
    if !have_tshark() {
        eprintln!("SKIPPED http_transactions_match_tshark: tshark is not installed (apt-get install tshark)");
        return;
    }
    let allow = allow_list();
    let dir = scratch("tshark");
    let mut report = Vec::new();
    let mut compared = 0;
    for p in samples() {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let mut caps = vec![(name.clone(), p.clone())];
        // Impaired copies: the same traffic across a path that reorders and duplicates (no loss).
        if let Some(pcap) = Pcap::read(&p) {
            let (bad, _) = impair(&pcap, 7, 30, 10, 0);
            let f = dir.join(format!("impaired-{name}"));
            bad.write(&f);
            caps.push((format!("impaired-{name}"), f));
        }
        for (label, f) in caps {
            let ours = mcptap_txs(&f, &dir);
            let theirs = tshark_txs(&f);
            compared += ours.len();
            for t in minus(&ours, &theirs) {
                if !allowed(&allow, &label, "mcptap-only", &t) {
                    report.push(format!("{label}\tmcptap-only\t{}", t.join("|")));
                }
            }
            for t in minus(&theirs, &ours) {
                if !allowed(&allow, &label, "tshark-only", &t) {
                    report.push(format!("{label}\ttshark-only\t{}", t.join("|")));
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(compared > 50, "too few transactions compared: {compared}");
    assert!(report.is_empty(), "differences with tshark not in tests/tshark-allow.tsv:\n{}", report.join("\n"));
}
