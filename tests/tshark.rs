//! Differential test of the reassembly against Wireshark: for every capture in `samples/` (TLS ones with
//! their key log), and for impaired copies of the classic-pcap ones (segments reordered and duplicated
//! here, on top of the real impaired captures `samples/impaired-*.pcap`), the LIST of HTTP transactions
//! mcptap reassembles (`--http-log`) must be the list tshark dissects with TCP and HTTP reassembly on.
//! HTTP/2 samples (`*h2*`) are also read with tshark's http2 dissector, per stream (`-d tcp.port==P,http2`
//! for h2c, the key log and ALPN for h2 over TLS), so each HTTP/2 exchange is compared the same way.
//!
//! A transaction is identified by its connection (client and server address and port: the 4-tuple, which
//! is what tshark's `tcp.stream` numbers) and its order on that connection, and compared on method, URI,
//! status, response content type, request and response body lengths. A difference is either fixed or
//! listed in `tests/tshark-allow.tsv` with its reason; an allow-list line that no longer matches any
//! difference fails the test too, so the list cannot rot. tshark is found on PATH; without it the test
//! is ignored and the test summary says so (under CI=true, which installs it, it fails instead).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use crate::common::*;
use crate::pcapedit::{impair, scratch, Pcap};

/// Where a transaction is: (client, server, its order among the connection's requests, from 0; `-` for a
/// response no request is known for).
type Key = (String, String, String);

/// What both tools say about it: method, uri, status, content type, request body length, response body
/// length (`-` where unknown).
type Fields = [String; 6];

/// mcptap's view also says how the response ended (`complete`, `closed_by_fin`, `interrupted`, ...).
#[derive(Debug, Clone)]
struct Ours {
    fields: Fields,
    end: String,
}

fn media(ct: &str) -> String {
    let m = ct.split(',').next().unwrap_or("").split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    if m.is_empty() { "-".into() } else { m }
}

/// The key log beside a TLS sample (`X.pcap` -> `X.keys`), if any.
fn keys_of(cap: &Path) -> Option<PathBuf> {
    let k = cap.with_extension("keys");
    k.exists().then_some(k)
}

/// Gives each transaction its order on its connection: `rows` are (client, server, request frame or
/// None for a response without request, value), in any order.
fn keyed<T>(mut rows: Vec<(String, String, Option<u64>, T)>) -> BTreeMap<Key, T> {
    rows.sort_by(|a, b| (&a.0, &a.1, a.2.is_none(), a.2).cmp(&(&b.0, &b.1, b.2.is_none(), b.2)));
    let mut out = BTreeMap::new();
    let mut n: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut orphans = 0;
    for (c, s, frame, v) in rows {
        let ord = if frame.is_some() {
            let i = n.entry((c.clone(), s.clone())).or_default();
            *i += 1;
            (*i - 1).to_string()
        } else {
            orphans += 1;
            format!("-{orphans}")
        };
        out.insert((c, s, ord), v);
    }
    out
}

/// mcptap's transactions from `--http-log`.
fn mcptap_txs(cap: &Path, dir: &Path) -> BTreeMap<Key, Ours> {
    let log = dir.join("http.tsv");
    let mut args = vec!["-q", "-r", cap.to_str().unwrap(), "--http-log", log.to_str().unwrap(), "-o", "/dev/null"];
    let keys = keys_of(cap);
    if let Some(k) = &keys {
        args.extend(["--keylog", k.to_str().unwrap()]);
    }
    let o = run(&args);
    assert!(o.status.success(), "{}: {}", cap.display(), stderr(&o));
    let text = std::fs::read_to_string(&log).unwrap();
    let rows = text
        .lines()
        .skip(1)
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            let req_frame = c[9].split(';').next().and_then(|f| f.parse::<u64>().ok());
            let fields = [c[3], c[4], c[5], c[6], c[7], c[8]].map(str::to_string);
            (c[1].to_string(), c[2].to_string(), req_frame, Ours { fields, end: c[10].to_string() })
        })
        .collect();
    keyed(rows)
}

/// Sum of a tshark comma-separated number list, or the Content-Length, or 0.
fn body_len(chunks: &str, content_length: &str) -> String {
    if !chunks.is_empty() {
        return chunks.split(',').filter_map(|n| n.trim().parse::<u64>().ok()).sum::<u64>().to_string();
    }
    match content_length.split(',').next().and_then(|n| n.trim().parse::<u64>().ok()) {
        Some(n) => n.to_string(),
        None => "0".into(),
    }
}

/// A TCP endpoint from tshark's fields. In a tunnel (samples/tunnel-*.pcap) a frame has an IP layer inside
/// another, and tshark lists every occurrence, outer first: the endpoint is the innermost, the last `ip` or
/// `ipv6` of the frame's protocol stack, as mcptap analyses it.
fn endpoint(ip4: &str, ip6: &str, port: &str, protocols: &str, sep: char) -> String {
    let last = |s: &str| s.rsplit(sep).next().unwrap_or("").to_string();
    let v6 = match (ip4.is_empty(), ip6.is_empty()) {
        (_, true) => false,
        (true, false) => true,
        (false, false) => protocols.split(':').rfind(|p| *p == "ip" || *p == "ipv6") == Some("ipv6"),
    };
    if v6 { format!("[{}]:{port}", last(ip6)) } else { format!("{}:{port}", last(ip4)) }
}

/// tshark's transactions: requests joined with their responses by `http.request_in` (HTTP/1.1), and the
/// HTTP/2 exchanges of its http2 dissector (`h2_ports`: the servers' ports, dissected as h2c).
fn tshark_txs(cap: &Path, h2_ports: &[u16]) -> BTreeMap<Key, Fields> {
    let mut rows = tshark_h1_rows(cap);
    if cap.file_name().is_some_and(|n| n.to_string_lossy().contains("h2")) {
        rows.extend(tshark_h2_rows(cap, h2_ports));
    }
    keyed(rows)
}

type Row = (String, String, Option<u64>, Fields);

fn tshark_h1_rows(cap: &Path) -> Vec<Row> {
    let mut cmd = Command::new(tshark());
    cmd.args(["-n", "-r"]).arg(cap).args([
        "-o", "tcp.desegment_tcp_streams:TRUE",
        "-o", "tcp.reassemble_out_of_order:TRUE",
        "-o", "http.desegment_headers:TRUE",
        "-o", "http.desegment_body:TRUE",
        "-o", "http.dechunk_body:TRUE",
        "-o", "http.decompress_body:TRUE",
        // VXLAN on Linux's and flannel's port, which mcptap follows and Wireshark leaves as UDP unless told.
        "-d", "udp.port==8472,vxlan",
    ]);
    if let Some(k) = keys_of(cap) {
        cmd.arg("-o").arg(format!("tls.keylog_file:{}", k.display()));
    }
    let o = cmd
        .args([
            "-Y", "http",
            "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a",
            "-e", "frame.number", "-e", "ip.src", "-e", "ipv6.src", "-e", "tcp.srcport",
            "-e", "ip.dst", "-e", "ipv6.dst", "-e", "tcp.dstport",
            "-e", "http.request.method", "-e", "http.request.uri", "-e", "http.response.code",
            "-e", "http.content_type", "-e", "http.request_in", "-e", "http.chunk_size", "-e", "http.content_length",
            "-e", "http.content_encoding", "-e", "frame.protocols",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "tshark {}: {}", cap.display(), String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    // Coded bodies: the length after decoding, from tshark's own decompression (a second pass, only for
    // captures with a Content-Encoding).
    let decoded = if text.lines().any(|l| l.split('\t').nth(14).is_some_and(|e| !e.is_empty())) { decoded_lengths(cap, &[], "http") } else { BTreeMap::new() };
    // request frame -> (client, server, fields)
    let mut reqs: BTreeMap<u64, (String, String, Fields)> = BTreeMap::new();
    let mut resps: Vec<(Option<u64>, String, String, Fields)> = Vec::new();
    for l in text.lines() {
        let c: Vec<&str> = l.split('\t').collect();
        if c.len() < 14 {
            continue;
        }
        let protocols = c.get(15).copied().unwrap_or("");
        let src = endpoint(c[1], c[2], c[3], protocols, ',');
        let dst = endpoint(c[4], c[5], c[6], protocols, ',');
        let frame: u64 = c[0].parse().unwrap();
        let coded = c.get(14).is_some_and(|e| !e.is_empty());
        let len = match decoded.get(&frame) {
            Some(n) if coded => n.to_string(),
            _ => body_len(c[12], c[13]),
        };
        let dash = || "-".to_string();
        if !c[7].is_empty() {
            let f = [c[7].into(), c[8].into(), dash(), dash(), len, dash()];
            reqs.insert(c[0].parse().unwrap(), (src, dst, f));
        } else if !c[9].is_empty() {
            // A response: its source is the server.
            let f = [dash(), dash(), c[9].into(), media(c[10]), dash(), len];
            resps.push((c[11].parse().ok(), dst, src, f));
        }
    }
    let mut orphans = Vec::new();
    for (req_in, client, server, r) in resps {
        match req_in.and_then(|f| reqs.get_mut(&f)) {
            Some((_, _, q)) if q[2] == "-" => {
                q[2] = r[2].clone();
                q[3] = r[3].clone();
                q[5] = r[5].clone();
            }
            _ => orphans.push((client, server, None, r)),
        }
    }
    let mut rows: Vec<Row> = reqs.into_iter().map(|(f, (c, s, v))| (c, s, Some(f), v)).collect();
    rows.extend(orphans);
    rows
}

/// tshark's HTTP/2 exchanges: one per stream that carried a request HEADERS (`:method`), with the final
/// `:status` and content type of its response and the DATA bytes (padding removed) each way. tshark lists
/// a packet's frames as parallel value lists: type, stream id and length once per frame, the padding
/// fields once per DATA/HEADERS frame, the header count once per HEADERS frame and the fields flattened.
fn tshark_h2_rows(cap: &Path, ports: &[u16]) -> Vec<Row> {
    const AGG: char = '\u{1e}';
    let dissect: Vec<String> = match keys_of(cap) {
        // h2 over TLS: ALPN tells tshark.
        Some(k) => vec!["-o".into(), format!("tls.keylog_file:{}", k.display())],
        // h2c has no port of its own (RFC 9113 §3.3): tshark is told which ports speak it.
        None => ports.iter().flat_map(|p| ["-d".to_string(), format!("tcp.port=={p},http2")]).collect(),
    };
    let mut cmd = Command::new(tshark());
    cmd.args(["-n", "-r"]).arg(cap).args(&dissect);
    let o = cmd
        .args(["-Y", "http2", "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a"])
        .arg(format!("-Eaggregator={AGG}"))
        .args([
            "-e", "frame.number", "-e", "tcp.stream", "-e", "ip.src", "-e", "ipv6.src", "-e", "tcp.srcport",
            "-e", "ip.dst", "-e", "ipv6.dst", "-e", "tcp.dstport",
            "-e", "http2.type", "-e", "http2.streamid", "-e", "http2.length", "-e", "http2.flags.padded",
            "-e", "http2.pad_length", "-e", "http2.header.count", "-e", "http2.header.name", "-e", "http2.header.value",
            "-e", "frame.protocols",
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "tshark {}: {}", cap.display(), String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    // (tcp.stream, stream id) -> (client, server, request frame, fields)
    let mut ex: BTreeMap<(u64, u64), (String, String, u64, Fields)> = BTreeMap::new();
    // (tcp.stream, stream id) -> the last frame with response DATA: where tshark decodes a coded body.
    let mut last_data: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    let mut coded = false;
    let list = |s: &str| -> Vec<String> { if s.is_empty() { Vec::new() } else { s.split(AGG).map(str::to_string).collect() } };
    let num = |s: &String| s.parse::<u64>().unwrap_or(0);
    for l in text.lines() {
        let c: Vec<&str> = l.split('\t').collect();
        if c.len() < 16 {
            continue;
        }
        let (frame, tcp) = (c[0].parse::<u64>().unwrap_or(0), c[1].parse::<u64>().unwrap_or(0));
        let protocols = c.get(16).copied().unwrap_or("");
        let src = endpoint(c[2], c[3], c[4], protocols, AGG);
        let dst = endpoint(c[5], c[6], c[7], protocols, AGG);
        let (types, sids, lens) = (list(c[8]), list(c[9]), list(c[10]));
        let (padded, pads, counts, names, values) = (list(c[11]), list(c[12]), list(c[13]), list(c[14]), list(c[15]));
        let (mut j, mut k, mut h) = (0usize, 0usize, 0usize);
        for (i, t) in types.iter().enumerate() {
            let sid = sids.get(i).map_or(0, num);
            let len = lens.get(i).map_or(0, num);
            let mut pad = 0;
            if t == "0" || t == "1" {
                if padded.get(j).is_some_and(|p| p == "1" || p == "True") {
                    pad = 1 + pads.get(j).map_or(0, num);
                }
                j += 1;
            }
            if t == "1" {
                let n = counts.get(k).map_or(0, num) as usize;
                k += 1;
                let field = |name: &str| (h..h + n).find(|&x| names.get(x).is_some_and(|v| v == name)).and_then(|x| values.get(x).cloned());
                if let Some(method) = field(":method") {
                    let dash = || "-".to_string();
                    let path = field(":path").unwrap_or_else(dash);
                    ex.insert((tcp, sid), (src.clone(), dst.clone(), frame, [method, path, dash(), dash(), "0".into(), dash()]));
                } else if let (Some(status), Some(e)) = (field(":status"), ex.get_mut(&(tcp, sid))) {
                    if !status.starts_with('1') && e.3[2] == "-" {
                        coded |= field("content-encoding").is_some_and(|c| !c.eq_ignore_ascii_case("identity"));
                        e.3[2] = status;
                        e.3[3] = media(&field("content-type").unwrap_or_default());
                        e.3[5] = "0".into();
                    }
                }
                h += n;
            }
            if t == "0" {
                if let Some(e) = ex.get_mut(&(tcp, sid)) {
                    let body = len.saturating_sub(pad);
                    let slot = if src == e.0 { 4 } else { 5 };
                    if slot == 5 {
                        last_data.insert((tcp, sid), frame);
                    }
                    if e.3[slot] == "-" {
                        e.3[slot] = "0".into();
                    }
                    e.3[slot] = (num(&e.3[slot]) + body).to_string();
                }
            }
        }
    }
    if coded {
        // A coded response's length is what it decodes to, as for HTTP/1.1: tshark says so at the frame
        // that ends the stream's body.
        let decoded = decoded_lengths(cap, &dissect, "http2");
        for (k, e) in ex.iter_mut() {
            if let Some(n) = last_data.get(k).and_then(|f| decoded.get(f)) {
                e.3[5] = n.to_string();
            }
        }
    }
    ex.into_values().map(|(c, s, f, v)| (c, s, Some(f), v)).collect()
}

/// Decoded body length per frame where tshark (`http.decompress_body`) undid a Content-Encoding: its
/// verbose tree says `Content-encoded entity body (gzip): 187 bytes -> 256 bytes`. A body tshark could not
/// decode has no `->` and keeps its coded length (a difference the allow-list must explain).
/// `dissect`: the key log or decode-as options, `filter` the protocol whose packets to read.
fn decoded_lengths(cap: &Path, dissect: &[String], filter: &str) -> BTreeMap<u64, u64> {
    let mut cmd = Command::new(tshark());
    cmd.args(["-n", "-r"]).arg(cap).args(dissect).args([
        "-o", "tcp.desegment_tcp_streams:TRUE",
        "-o", "tcp.reassemble_out_of_order:TRUE",
        "-o", "http.desegment_headers:TRUE",
        "-o", "http.desegment_body:TRUE",
        "-o", "http.dechunk_body:TRUE",
        "-o", "http.decompress_body:TRUE",
        "-Y", filter, "-V",
    ]);
    let o = cmd.output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    let mut out = BTreeMap::new();
    let mut frame = 0u64;
    for l in text.lines() {
        if let Some(rest) = l.strip_prefix("Frame ") {
            frame = rest.split(':').next().and_then(|n| n.trim().parse().ok()).unwrap_or(0);
        } else if let Some(i) = l.find("Content-encoded entity body") {
            if let Some(after) = l[i..].split("-> ").nth(1) {
                if let Some(n) = after.split(' ').next().and_then(|n| n.parse::<u64>().ok()) {
                    out.insert(frame, n);
                }
            }
        }
    }
    out
}

/// One difference between the two lists, with its kind:
/// - `sse-unterminated`: same request; tshark shows no response, mcptap shows a `text/event-stream`
///   response whose chunked body ended without its last chunk (`interrupted`, `closed_by_fin`);
/// - `mcptap-only` / `tshark-only`: the transaction is in one list only;
/// - `fields`: both have it, with different fields.
#[derive(Debug)]
struct Diff {
    capture: String,
    kind: &'static str,
    line: String,
}

fn compare(label: &str, ours: &BTreeMap<Key, Ours>, theirs: &BTreeMap<Key, Fields>, out: &mut Vec<Diff>) {
    let show = |k: &Key| format!("{} -> {} #{}", k.0, k.1, k.2);
    for (k, o) in ours {
        let line = |t: &str| format!("{}: mcptap {} (end {}) / tshark {t}", show(k), o.fields.join("|"), o.end);
        match theirs.get(k) {
            Some(t) if *t == o.fields => {}
            Some(t) => {
                let same_request = t[..2] == o.fields[..2] && t[4] == o.fields[4];
                let no_response = t[2] == "-" && t[3] == "-" && t[5] == "-";
                let kind = if same_request && no_response && o.fields[3] == "text/event-stream" && o.end != "complete" {
                    "sse-unterminated"
                } else {
                    "fields"
                };
                out.push(Diff { capture: label.into(), kind, line: line(&t.join("|")) });
            }
            None => out.push(Diff { capture: label.into(), kind: "mcptap-only", line: line("none") }),
        }
    }
    for (k, t) in theirs {
        if !ours.contains_key(k) {
            out.push(Diff { capture: label.into(), kind: "tshark-only", line: format!("{}: mcptap none / tshark {}", show(k), t.join("|")) });
        }
    }
}

/// The allow-list: `capture` (a file name, or a `*` prefix/suffix pattern), `kind` (see [`Diff`]),
/// `reason`.
fn allow_list() -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(root().join("tests/tshark-allow.tsv")).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert!(c.len() == 3 && !c[2].trim().is_empty(), "tshark-allow.tsv: every line needs capture, kind, reason: {l}");
            (c[0].to_string(), c[1].to_string(), c[2].to_string())
        })
        .collect()
}

fn glob(pattern: &str, name: &str) -> bool {
    match (pattern.strip_prefix('*'), pattern.strip_suffix('*')) {
        _ if pattern == "*" => true,
        (Some(suffix), _) => name.ends_with(suffix),
        (_, Some(prefix)) => name.starts_with(prefix),
        _ => pattern == name,
    }
}

/// Every capture to compare: each sample, and a reordered + duplicated copy of each classic-pcap SDK
/// scenario capture. The incident samples (`inc-*`, `ok-*`) get no copy: they are the same SDK traffic
/// shapes, and one tshark run costs about 0.4 s of CPU, which keeps the whole test near 30 s on two cores.
/// Undecryptable TLS variants get none either (nothing to compare).
fn jobs(dir: &Path) -> Vec<(String, PathBuf)> {
    let mut v = Vec::new();
    for p in samples() {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        v.push((name.clone(), p.clone()));
        let copy = !(name.starts_with("inc-") || name.starts_with("ok-") || name.contains("-nokeys") || name.contains("-otherkeys"));
        if let Some(pcap) = Pcap::read(&p).filter(|_| copy) {
            let (bad, _) = impair(&pcap, 7, 30, 10, 0);
            let f = dir.join(format!("impaired-copy-{name}"));
            bad.write(&f);
            if let Some(k) = keys_of(&p) {
                std::fs::copy(k, f.with_extension("keys")).unwrap();
            }
            v.push((format!("impaired-copy-{name}"), f));
        }
    }
    v
}

#[test]
fn glob_patterns() {
    assert!(glob("*", "a.pcap") && glob("tls-*", "tls-12.pcap") && glob("*.pcapng", "x.pcapng") && glob("a.pcap", "a.pcap"));
    assert!(!glob("tls-*", "x-tls.pcap") && !glob("a.pcap", "b.pcap"));
}

#[test]
#[cfg_attr(not(any(has_tshark, ci)), ignore = "needs tshark on PATH (apt-get install tshark)")]
fn http_transactions_match_tshark() {
    let allow = allow_list();
    let dir = scratch("tshark");
    let jobs = Mutex::new(jobs(&dir));
    let results: Mutex<Vec<(usize, Vec<Diff>)>> = Mutex::new(Vec::new());
    // tshark's start-up dominates: run the captures on a few threads.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(2, 4);
    std::thread::scope(|s| {
        for w in 0..workers {
            let (jobs, results, dir) = (&jobs, &results, &dir);
            s.spawn(move || {
                let scratch = dir.join(format!("w{w}"));
                std::fs::create_dir_all(&scratch).unwrap();
                loop {
                    let Some((label, f)) = jobs.lock().unwrap().pop() else { break };
                    let ours = mcptap_txs(&f, &scratch);
                    let mut ports: Vec<u16> = ours.keys().filter_map(|k| k.1.rsplit(':').next()?.parse().ok()).collect();
                    ports.dedup();
                    let theirs = tshark_txs(&f, &ports);
                    let mut diffs = Vec::new();
                    compare(&label, &ours, &theirs, &mut diffs);
                    results.lock().unwrap().push((ours.len(), diffs));
                }
            });
        }
    });
    std::fs::remove_dir_all(&dir).ok();
    let results = results.into_inner().unwrap();
    let compared: usize = results.iter().map(|r| r.0).sum();
    let mut diffs: Vec<Diff> = results.into_iter().flat_map(|r| r.1).collect();
    diffs.sort_by(|a, b| (&a.capture, &a.line).cmp(&(&b.capture, &b.line)));
    let mut used = vec![0usize; allow.len()];
    let mut report = Vec::new();
    for d in &diffs {
        match allow.iter().position(|(cap, kind, _)| glob(cap, &d.capture) && kind == d.kind) {
            Some(i) => used[i] += 1,
            None => report.push(format!("{}\t{}\t{}", d.capture, d.kind, d.line)),
        }
    }
    for (i, (cap, kind, _)) in allow.iter().enumerate() {
        eprintln!("tshark-allow.tsv: {cap} {kind}: {} differences", used[i]);
        if used[i] == 0 {
            report.push(format!("tests/tshark-allow.tsv line '{cap}\t{kind}' matches no difference any more: remove it"));
        }
    }
    eprintln!("{compared} transactions compared, {} differences, {} allowed", diffs.len(), used.iter().sum::<usize>());
    assert!(compared > 300, "too few transactions compared: {compared}");
    assert!(report.is_empty(), "differences with tshark not in tests/tshark-allow.tsv:\n{}", report.join("\n"));
}
