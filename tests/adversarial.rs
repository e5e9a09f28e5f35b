//! Adversarial traffic within the caps. Each test writes a hostile capture into a temp dir (nothing big is
//! committed), runs the release binary on it merged with `samples/downgrade.pcap` (one normal downgrade
//! session, interleaved by timestamp), and asserts: exit 0, the MCP-SSE-DOWNGRADE row still present, the
//! cap hit counted in the summary, and peak RSS under a bound (GNU time's `%M`; GNU time is found on
//! PATH, and without it these tests are ignored with the reason in the test summary; CI installs it and
//! under CI=true they run and fail without it). Sizes are smaller in debug builds so plain `cargo test` stays fast.
//! Peaks measured with `cargo test --release adversarial -- --nocapture` are in docs/robustness.md.

use std::path::Path;

use crate::common::*;

/// Scale: full size in release builds, a tenth in debug builds.
fn n(release: usize) -> usize {
    if cfg!(debug_assertions) {
        release / 10
    } else {
        release
    }
}

/// First packet time of `samples/downgrade.pcap`, microseconds since the epoch.
fn sample_start_us() -> u64 {
    let b = std::fs::read(root().join("samples/downgrade.pcap")).unwrap();
    let s = u32::from_le_bytes(b[24..28].try_into().unwrap()) as u64;
    let us = u32::from_le_bytes(b[28..32].try_into().unwrap()) as u64;
    s * 1_000_000 + us
}

/// A classic pcap (Ethernet, microseconds) written as packets are added.
struct PcapOut {
    out: std::io::BufWriter<std::fs::File>,
}

const SYN: u8 = 0x02;
const ACK: u8 = 0x10;
const PSH: u8 = 0x08;
const FIN: u8 = 0x01;

impl PcapOut {
    fn create(path: &Path) -> PcapOut {
        use std::io::Write;
        let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        let mut h = vec![0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0];
        h.extend_from_slice(&[0; 8]);
        h.extend_from_slice(&262_144u32.to_le_bytes());
        h.extend_from_slice(&1u32.to_le_bytes());
        out.write_all(&h).unwrap();
        PcapOut { out }
    }

    #[allow(clippy::too_many_arguments)]
    fn tcp(&mut self, ts_us: u64, src: ([u8; 4], u16), dst: ([u8; 4], u16), seq: u32, ack: u32, flags: u8, payload: &[u8]) {
        use std::io::Write;
        let mut p = Vec::with_capacity(54 + payload.len());
        p.extend_from_slice(&[2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1, 0x08, 0x00]);
        let total = (40 + payload.len()) as u16;
        p.extend_from_slice(&[0x45, 0, (total >> 8) as u8, total as u8, 0, 0, 0x40, 0, 64, 6, 0, 0]);
        p.extend_from_slice(&src.0);
        p.extend_from_slice(&dst.0);
        p.extend_from_slice(&src.1.to_be_bytes());
        p.extend_from_slice(&dst.1.to_be_bytes());
        p.extend_from_slice(&seq.to_be_bytes());
        p.extend_from_slice(&ack.to_be_bytes());
        p.extend_from_slice(&[0x50, flags, 0xff, 0xff, 0, 0, 0, 0]);
        p.extend_from_slice(payload);
        let mut rec = Vec::with_capacity(16);
        rec.extend_from_slice(&((ts_us / 1_000_000) as u32).to_le_bytes());
        rec.extend_from_slice(&((ts_us % 1_000_000) as u32).to_le_bytes());
        rec.extend_from_slice(&(p.len() as u32).to_le_bytes());
        rec.extend_from_slice(&(p.len() as u32).to_le_bytes());
        self.out.write_all(&rec).unwrap();
        self.out.write_all(&p).unwrap();
    }
}

/// One TCP connection between a hostile client and server (10.66.0.0/16, so never the sample's
/// 127.0.0.1), with its sequence numbers.
struct Conn {
    c: ([u8; 4], u16),
    s: ([u8; 4], u16),
    cseq: u32,
    sseq: u32,
}

impl Conn {
    fn new(i: u32, isn: u32) -> Conn {
        let c = ([10, 66, (i >> 16) as u8 | 0x80, (i >> 8) as u8], 10_000 + (i & 0xff) as u16);
        Conn { c, s: ([10, 66, 0, 1], 8080), cseq: isn, sseq: isn ^ 0x5555_5555 }
    }
    fn handshake(&mut self, w: &mut PcapOut, ts: u64) {
        w.tcp(ts, self.c, self.s, self.cseq, 0, SYN, &[]);
        w.tcp(ts, self.s, self.c, self.sseq, self.cseq.wrapping_add(1), SYN | ACK, &[]);
        self.cseq = self.cseq.wrapping_add(1);
        self.sseq = self.sseq.wrapping_add(1);
        w.tcp(ts, self.c, self.s, self.cseq, self.sseq, ACK, &[]);
    }
    fn client(&mut self, w: &mut PcapOut, ts: u64, data: &[u8]) {
        for chunk in data.chunks(1400) {
            w.tcp(ts, self.c, self.s, self.cseq, self.sseq, ACK | PSH, chunk);
            self.cseq = self.cseq.wrapping_add(chunk.len() as u32);
        }
    }
    fn server(&mut self, w: &mut PcapOut, ts: u64, data: &[u8]) {
        for chunk in data.chunks(1400) {
            w.tcp(ts, self.s, self.c, self.sseq, self.cseq, ACK | PSH, chunk);
            self.sseq = self.sseq.wrapping_add(chunk.len() as u32);
        }
    }
}

/// Spreads `count` steps over the two seconds around the sample (one second before its start to one
/// after), so the hostile traffic interleaves with the downgrade session.
struct Clock {
    start: u64,
    step: u64,
}

impl Clock {
    fn new(count: usize) -> Clock {
        Clock { start: sample_start_us() - 1_000_000, step: (2_000_000 / count.max(1) as u64).max(1) }
    }
    fn at(&self, i: usize) -> u64 {
        self.start + self.step * i as u64
    }
}

/// A scratch dir for one test, removed when the test ends, failed or not.
fn tmp(name: &str) -> Scratch {
    Scratch::new(&format!("adv-{name}"))
}

/// Runs the binary on the hostile capture plus the downgrade sample; returns (summary, peak RSS in KiB
/// when measurable). Asserts exit 0 and the downgrade row.
fn analyze(name: &str, file: &Path, limits: &[&str]) -> (String, Option<u64>) {
    let mut args: Vec<String> = vec!["-r".into(), file.to_str().unwrap().into(), "-r".into(), "samples/downgrade.pcap".into()];
    for l in limits {
        args.push("--limit".into());
        args.push(l.to_string());
    }
    let rss_file = file.with_extension("rss");
    let mut c = std::process::Command::new(gnu_time());
    c.current_dir(root()).stdin(std::process::Stdio::null());
    c.args(["-f", "%M", "-o", rss_file.to_str().unwrap(), env!("CARGO_BIN_EXE_mcptap")]);
    let o = c.args(&args).output().unwrap();
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{name}: {e}");
    assert!(!e.contains("panicked"), "{name}: {e}");
    let rows = csv_rows(&stdout(&o));
    // Its own row, with its session (not merged into an overflow row at the incident cap).
    assert!(rows.iter().any(|r| r[2] == "MCP-SSE-DOWNGRADE" && r[4] != "*"), "{name}: downgrade lost\n{e}\n{rows:?}");
    let rss = std::fs::read_to_string(&rss_file).ok().and_then(|s| s.trim().lines().last()?.parse().ok());
    assert!(rss.is_some(), "{name}: GNU time wrote no peak RSS to {}", rss_file.display());
    eprintln!("adversarial {name}: peak RSS {} KiB, capture {} bytes\n{e}", rss.map_or("?".into(), |r: u64| r.to_string()), std::fs::metadata(file).unwrap().len());
    (e, rss)
}

/// The default caps allow 64 MiB of out-of-order data, 100k connections and 100k sessions; 512 MiB is
/// far above what any case should need, and far below what an unbounded one reaches.
const RSS_BOUND_KIB: u64 = 512 * 1024;

fn assert_rss(name: &str, rss: Option<u64>) {
    if let Some(kib) = rss {
        assert!(kib < RSS_BOUND_KIB, "{name}: peak RSS {kib} KiB");
    }
}

/// Counter `label` in the summary: the number just before it, e.g. `3 HeaderTooLarge`.
fn count_before(summary: &str, label: &str) -> u64 {
    let i = summary.find(label).unwrap_or_else(|| panic!("no '{label}' in:\n{summary}"));
    let head = summary[..i].trim_end();
    let digits: String = head.chars().rev().take_while(|c| c.is_ascii_digit()).collect();
    digits.chars().rev().collect::<String>().parse().unwrap_or_else(|_| panic!("no count before '{label}' in:\n{summary}"))
}

#[test]
#[cfg_attr(not(any(has_gnu_time, ci)), ignore = "needs GNU time on PATH for the peak-memory check (apt-get install time)")]
fn syn_flood_hits_the_connection_cap() {
    let d = tmp("syn");
    let f = d.join("syn.pcap");
    let count = n(200_000);
    let mut w = PcapOut::create(&f);
    let clock = Clock::new(count);
    for i in 0..count {
        let c = Conn::new(i as u32, i as u32 * 7919);
        w.tcp(clock.at(i), c.c, c.s, c.cseq, 0, SYN, &[]);
    }
    drop(w);
    let (s, rss) = analyze("syn_flood", &f, &["max_connections=10000"]);
    assert!(count_before(&s, "connection table") > 0, "{s}");
    assert_rss("syn_flood", rss);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
#[cfg_attr(not(any(has_gnu_time, ci)), ignore = "needs GNU time on PATH for the peak-memory check (apt-get install time)")]
fn endless_chunked_json_body_hits_the_body_cap() {
    let d = tmp("chunked");
    let f = d.join("chunked.pcap");
    let mb = n(60);
    let mut w = PcapOut::create(&f);
    let clock = Clock::new(mb * 1024 + 1);
    let mut c = Conn::new(1, 1000);
    c.handshake(&mut w, clock.at(0));
    c.client(&mut w, clock.at(0), b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
    let chunk = format!("400\r\n{}\r\n", "[".repeat(1024));
    for i in 0..mb * 1024 {
        c.client(&mut w, clock.at(i + 1), chunk.as_bytes());
    }
    drop(w);
    let (s, rss) = analyze("endless_chunked", &f, &[]);
    let label = if s.contains(" 1 body over the cap") { "body over the cap" } else { "bodies over the cap" };
    assert!(count_before(&s, label) > 0, "{s}");
    assert_rss("endless_chunked", rss);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
#[cfg_attr(not(any(has_gnu_time, ci)), ignore = "needs GNU time on PATH for the peak-memory check (apt-get install time)")]
fn endless_header_hits_the_header_cap() {
    let d = tmp("header");
    let f = d.join("header.pcap");
    let mb = n(30);
    let mut w = PcapOut::create(&f);
    let clock = Clock::new(mb * 1024 + 1);
    let mut c = Conn::new(2, 2000);
    c.handshake(&mut w, clock.at(0));
    c.client(&mut w, clock.at(0), b"POST /mcp HTTP/1.1\r\nHost: x\r\nX-Endless: ");
    let piece = "a".repeat(1024);
    for i in 0..mb * 1024 {
        c.client(&mut w, clock.at(i + 1), piece.as_bytes());
    }
    // Many short headers on a second connection: the cap counts bytes, not lines.
    let mut c2 = Conn::new(3, 3000);
    c2.handshake(&mut w, clock.at(mb * 1024));
    c2.client(&mut w, clock.at(mb * 1024), b"GET /mcp HTTP/1.1\r\n");
    for _ in 0..n(100_000) {
        c2.client(&mut w, clock.at(mb * 1024), b"X-A: b\r\n");
    }
    drop(w);
    let (s, rss) = analyze("endless_header", &f, &[]);
    assert!(count_before(&s, "HeaderTooLarge") >= 2, "{s}");
    assert_rss("endless_header", rss);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
#[cfg_attr(not(any(has_gnu_time, ci)), ignore = "needs GNU time on PATH for the peak-memory check (apt-get install time)")]
fn sse_event_without_blank_line_hits_the_event_cap() {
    let d = tmp("sse");
    let f = d.join("sse.pcap");
    let mb = n(30);
    let mut w = PcapOut::create(&f);
    let clock = Clock::new(mb * 1024 + 1);
    let mut c = Conn::new(4, 4000);
    c.handshake(&mut w, clock.at(0));
    c.client(&mut w, clock.at(0), b"GET /mcp HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n");
    c.server(&mut w, clock.at(0), b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n");
    let line = format!("data: {}\n", "x".repeat(1017));
    for i in 0..mb * 1024 {
        c.server(&mut w, clock.at(i + 1), line.as_bytes());
    }
    drop(w);
    let (s, rss) = analyze("sse_no_blank_line", &f, &[]);
    assert!(count_before(&s, "SseEventTooLarge") > 0, "{s}");
    assert_rss("sse_no_blank_line", rss);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
#[cfg_attr(not(any(has_gnu_time, ci)), ignore = "needs GNU time on PATH for the peak-memory check (apt-get install time)")]
fn deeply_nested_json_is_undecodable_not_a_crash() {
    let d = tmp("json");
    let f = d.join("json.pcap");
    let mut w = PcapOut::create(&f);
    let clock = Clock::new(10);
    let mut c = Conn::new(5, 5000);
    c.handshake(&mut w, clock.at(0));
    for (i, depth) in [1_000usize, 100_000, 1_000_000].into_iter().enumerate() {
        let body = format!("{}{}", "{\"a\":[".repeat(depth), "]}".repeat(depth));
        let head = format!("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n", body.len());
        c.client(&mut w, clock.at(i + 1), head.as_bytes());
        c.client(&mut w, clock.at(i + 1), body.as_bytes());
    }
    drop(w);
    let (s, rss) = analyze("json_nested", &f, &["max_body_bytes=16000000"]);
    assert!(count_before(&s, "payloads not JSON-RPC") >= 3, "{s}");
    assert_rss("json_nested", rss);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
#[cfg_attr(not(any(has_gnu_time, ci)), ignore = "needs GNU time on PATH for the peak-memory check (apt-get install time)")]
fn many_session_ids_hit_the_session_cap() {
    let d = tmp("sessions");
    let f = d.join("sessions.pcap");
    let count = n(200_000);
    let mut w = PcapOut::create(&f);
    let clock = Clock::new(count);
    let mut conns: Vec<Conn> = (0..16).map(|i| Conn::new(100 + i, 6000 + i)).collect();
    for c in &mut conns {
        c.handshake(&mut w, clock.at(0));
    }
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
    let reply = r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#;
    for i in 0..count {
        let c = &mut conns[i % 16];
        let req = format!(
            "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: s{i:08}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        c.client(&mut w, clock.at(i), req.as_bytes());
        let resp = format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nMcp-Session-Id: r{i:08}\r\nContent-Length: {}\r\n\r\n{reply}", reply.len());
        c.server(&mut w, clock.at(i), resp.as_bytes());
    }
    drop(w);
    // Every hostile reply answers the request's session id with another one (a server-side
    // MCP-SESSION-ROTATION per session; many ids on one connection alone is pooling, not an incident): the
    // incident cap merges the rows past 10000 into one.
    let (s, rss) = analyze("many_sessions", &f, &["max_sessions=10000", "max_incidents=10000"]);
    assert!(count_before(&s, "sessions evicted at the session cap") > 0, "{s}");
    assert!(count_before(&s, "incidents merged") > 0, "{s}");
    assert_rss("many_sessions", rss);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
#[cfg_attr(not(any(has_gnu_time, ci)), ignore = "needs GNU time on PATH for the peak-memory check (apt-get install time)")]
fn pipelined_requests_without_responses_stay_bounded() {
    let d = tmp("pipeline");
    let f = d.join("pipeline.pcap");
    let count = n(300_000);
    let mut w = PcapOut::create(&f);
    let clock = Clock::new(count);
    let mut c = Conn::new(7, 7000);
    c.handshake(&mut w, clock.at(0));
    for i in 0..count {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"t"}}}}"#);
        let req = format!(
            "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nMcp-Session-Id: one\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        c.client(&mut w, clock.at(i), req.as_bytes());
    }
    drop(w);
    let (s, rss) = analyze("pipelined", &f, &[]);
    assert!(count_before(&s, "requests") >= count as u64, "{s}");
    // All but the newest max_pending_per_session (1024) of them forgotten, and counted.
    assert!(count_before(&s, "pending requests forgotten") >= (count - 1024) as u64, "{s}");
    assert_rss("pipelined", rss);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
#[cfg_attr(not(any(has_gnu_time, ci)), ignore = "needs GNU time on PATH for the peak-memory check (apt-get install time)")]
fn sequence_number_games_are_counted() {
    let d = tmp("seq");
    let f = d.join("seq.pcap");
    let mut w = PcapOut::create(&f);
    let rounds = n(2_000);
    let clock = Clock::new(rounds * 4 + 10);
    // 1) Wraparound: the ISN sits just below 2^32, so the stream crosses zero. Each request comes in
    //    two pieces, the second first (held out of order), then other bytes for that same held range (an
    //    overlap conflict: first data wins), then the first piece, which fills the hole; then the whole
    //    request again with other bytes (a retransmission of delivered bytes, which cannot be compared).
    let mut c = Conn::new(8, 0xffff_ff00);
    c.handshake(&mut w, clock.at(0));
    let req: &[u8] = b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}";
    let (head, tail) = req.split_at(20);
    for i in 0..rounds {
        let seq = c.cseq;
        let t = clock.at(4 * i + 1);
        w.tcp(t, c.c, c.s, seq.wrapping_add(20), c.sseq, ACK | PSH, tail);
        w.tcp(t, c.c, c.s, seq.wrapping_add(20), c.sseq, ACK | PSH, &vec![b'Z'; tail.len()]);
        w.tcp(t, c.c, c.s, seq, c.sseq, ACK, head);
        w.tcp(clock.at(4 * i + 2), c.c, c.s, seq, c.sseq, ACK, b"XXXX /mcp HTTP/1.1\r\nHost: y\r\nContent-Length: 2\r\n\r\n[]");
        c.cseq = seq.wrapping_add(req.len() as u32);
    }
    // 2) A hole that is never filled with megabytes behind it: the out-of-order cap.
    let mut h = Conn::new(9, 0x7fff_fff0);
    h.handshake(&mut w, clock.at(1));
    let block = vec![b'q'; 1400];
    let start = h.cseq.wrapping_add(1400);
    for i in 0..n(4_000) as u32 {
        w.tcp(clock.at(4 * rounds + 2), h.c, h.s, start.wrapping_add(i * 1400), h.sseq, ACK, &block);
    }
    // 3) Segments far outside any window, and FIN in the middle of data.
    for i in 0..n(10_000) as u32 {
        w.tcp(clock.at(4 * rounds + 3), h.c, h.s, i.wrapping_mul(0x9e37_79b9), h.sseq, ACK | if i % 3 == 0 { FIN } else { 0 }, &block[..100]);
    }
    drop(w);
    // The cap scales with the hole (n), so that a debug build's smaller hole still passes it.
    let cap = format!("max_ooo_bytes_per_stream={}", n(1_000_000));
    let (s, rss) = analyze("seq_games", &f, &[cap.as_str()]);
    // Every conflicting copy counted, and every request still parsed from the first copies.
    assert!(count_before(&s, "overlap conflicts") >= rounds as u64, "{s}");
    assert!(count_before(&s, "bytes retransmitted") > 0, "{s}");
    assert!(count_before(&s, "requests") >= rounds as u64, "{s}");
    assert!(count_before(&s, "out-of-order buffer") > 0, "{s}");
    assert_rss("seq_games", rss);
    std::fs::remove_dir_all(&d).ok();
}

/// Gzip of `mib` MiB of zeros (about 1 KiB per MiB), built by streaming so the test never holds the zeros.
fn gzip_zeros(mib: usize) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..mib {
        e.write_all(&zeros).unwrap();
    }
    e.finish().unwrap()
}

/// A POST on a hostile connection answered by `head` + `body` (sent in 1400-byte segments).
fn coded_exchange(name: &str, head: &str, body: &[u8]) -> (Scratch, std::path::PathBuf) {
    let d = tmp(name);
    let f = d.join(format!("{name}.pcap"));
    let mut w = PcapOut::create(&f);
    let clock = Clock::new(body.len() / 1400 + 2);
    let mut c = Conn::new(3, 3000);
    c.handshake(&mut w, clock.at(0));
    c.client(&mut w, clock.at(0), b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 58\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}");
    c.server(&mut w, clock.at(1), head.as_bytes());
    for (i, chunk) in body.chunks(1400).enumerate() {
        c.server(&mut w, clock.at(i + 1), chunk);
    }
    drop(w);
    (d, f)
}

#[test]
#[cfg_attr(not(any(has_gnu_time, ci)), ignore = "needs GNU time on PATH for the peak-memory check (apt-get install time)")]
fn gzip_bomb_stops_at_the_body_cap_with_flat_memory() {
    // 1 GiB of zeros (about 1 MiB of gzip) against a 64 MiB cap per body (the default).
    let bomb = gzip_zeros(n(1024));
    let head = format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n", bomb.len());
    let (d, f) = coded_exchange("gzip_bomb", &head, &bomb);
    let limit = format!("max_decoded_bytes_per_body={}", n(64) << 20);
    let (s, rss) = analyze("gzip_bomb", &f, &[&limit]);
    assert_eq!(count_before(&s, "decoded bytes per body cap"), 1, "{s}");
    // Memory stays at the decoder's chunks whatever the cap: far below the cap itself.
    if let Some(kib) = rss {
        assert!(kib < 64 * 1024, "gzip_bomb: peak RSS {kib} KiB");
    }
    std::fs::remove_dir_all(&d).ok();
}

#[test]
#[cfg_attr(not(any(has_gnu_time, ci)), ignore = "needs GNU time on PATH for the peak-memory check (apt-get install time)")]
fn endless_deflate_stream_is_flat_and_not_corrupt() {
    // A chunked SSE reply whose raw deflate stream never ends: empty stored blocks (RFC 1951 §3.2.4:
    // BFINAL=0, BTYPE=00, LEN=0, NLEN=0xffff), a few MiB of them, and no last chunk.
    let mut body = Vec::new();
    let block = [0x00u8, 0x00, 0x00, 0xff, 0xff];
    let piece: Vec<u8> = block.iter().copied().cycle().take(5 * 800).collect();
    for _ in 0..n(1000) {
        body.extend_from_slice(format!("{:x}\r\n", piece.len()).as_bytes());
        body.extend_from_slice(&piece);
        body.extend_from_slice(b"\r\n");
    }
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: deflate\r\nTransfer-Encoding: chunked\r\n\r\n";
    let (d, f) = coded_exchange("endless_deflate", head, &body);
    let (s, rss) = analyze("endless_deflate", &f, &[]);
    assert!(s.contains("bodies not decoded: none"), "{s}");
    assert_rss("endless_deflate", rss);
    std::fs::remove_dir_all(&d).ok();
}

#[test]
#[cfg_attr(not(any(has_gnu_time, ci)), ignore = "needs GNU time on PATH for the peak-memory check (apt-get install time)")]
fn coding_stack_ten_deep_decodes_and_eleven_is_refused() {
    use std::io::Write;
    let json = br#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#;
    for depth in [10usize, 11] {
        let mut body = json.to_vec();
        for _ in 0..depth {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(&body).unwrap();
            body = e.finish().unwrap();
        }
        let list = vec!["gzip"; depth].join(", ");
        let head = format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: {list}\r\nContent-Length: {}\r\n\r\n", body.len());
        let name = format!("stack_{depth}");
        let (d, f) = coded_exchange(&name, &head, &body);
        let (s, rss) = analyze(&name, &f, &[]);
        if depth == 10 {
            assert!(s.contains("bodies not decoded: none"), "{s}");
        } else {
            assert_eq!(count_before(&s, "too many codings"), 1, "{s}");
        }
        assert_rss(&name, rss);
        std::fs::remove_dir_all(&d).ok();
    }
}
