//! Connection-level tests: whole conversations on the wire, the events they give, and the caps.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use super::frame::{self, PREFACE};
use super::*;
use crate::http::switch::HttpConn;
use Direction::{ToClient, ToServer};

/// RFC 7541 §6.2.2 literal header field without indexing, new name, no Huffman (lengths < 127).
fn lit(out: &mut Vec<u8>, name: &str, value: &str) {
    out.push(0x00);
    out.push(name.len() as u8);
    out.extend_from_slice(name.as_bytes());
    out.push(value.len() as u8);
    out.extend_from_slice(value.as_bytes());
}

fn block(fields: &[(&str, &str)]) -> Vec<u8> {
    let mut b = Vec::new();
    for (n, v) in fields {
        lit(&mut b, n, v);
    }
    b
}

fn fr(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
    let mut v = (payload.len() as u32).to_be_bytes()[1..].to_vec();
    v.push(kind);
    v.push(flags);
    v.extend_from_slice(&stream.to_be_bytes());
    v.extend_from_slice(payload);
    v
}

const END_STREAM: u8 = 1;
const END_HEADERS: u8 = 4;

fn req_headers(stream: u32, end_stream: bool) -> Vec<u8> {
    let b = block(&[(":method", "POST"), (":scheme", "http"), (":path", "/mcp"), (":authority", "localhost:8000"), ("content-type", "application/json")]);
    fr(frame::HEADERS, END_HEADERS | if end_stream { END_STREAM } else { 0 }, stream, &b)
}

fn resp_headers(stream: u32, ct: &str, end_stream: bool) -> Vec<u8> {
    let b = block(&[(":status", "200"), ("content-type", ct)]);
    fr(frame::HEADERS, END_HEADERS | if end_stream { END_STREAM } else { 0 }, stream, &b)
}

fn client_start() -> Vec<u8> {
    let mut v = PREFACE.to_vec();
    v.extend(fr(frame::SETTINGS, 0, 0, &[0, 4, 0, 0, 0xff, 0xff]));
    v
}

fn server_start() -> Vec<u8> {
    fr(frame::SETTINGS, 0, 0, &[0, 5, 0, 0, 0x40, 0])
}

/// Events in a comparable form (frame numbers kept; `SseBody` lengths dropped as they depend on splits).
fn show(ev: &HttpEvent<'_>) -> Option<String> {
    Some(match ev {
        HttpEvent::Request { tx, head, frame, .. } => {
            format!("req {tx} {} {} host={} v{} @{frame}", head.method, head.target, head.headers.get("host").unwrap_or("-"), head.version)
        }
        HttpEvent::RequestBody { tx, bytes, .. } => format!("reqbody {tx} {}", String::from_utf8_lossy(bytes)),
        HttpEvent::RequestEnd { tx, end, frame, .. } => format!("reqend {tx} {} @{frame}", end.as_str()),
        HttpEvent::Response { tx, head, frame, .. } => format!("resp {tx:?} {} {} @{frame}", head.status, head.headers.content_type().unwrap_or_default()),
        HttpEvent::ResponseBody { tx, bytes, .. } => format!("respbody {tx:?} {}", String::from_utf8_lossy(bytes)),
        HttpEvent::Sse { tx, event, frame, .. } => format!("sse {tx:?} id={:?} {} @{frame}", event.id, event.data_text()),
        HttpEvent::SseComment { tx, .. } => format!("comment {tx:?}"),
        HttpEvent::SseBlank { tx, .. } => format!("blank {tx:?}"),
        HttpEvent::ResponseEnd { tx, end, frame, .. } => format!("respend {tx:?} {} @{frame}", end.as_str()),
        HttpEvent::Anomaly { kind, .. } => format!("anomaly {}", kind.as_str()),
        HttpEvent::H2Stream { tx, stream, .. } => format!("stream {tx} {stream}"),
        HttpEvent::RequestUndecoded { tx, coding, reason, .. } => format!("requndecoded {tx} {coding} {reason}"),
        HttpEvent::ResponseUndecoded { tx, coding, reason, .. } => format!("respundecoded {tx:?} {coding} {reason}"),
        HttpEvent::ResponseLost { tx, .. } => format!("resplost {tx}"),
        HttpEvent::RequestLost { tx, .. } => format!("reqlost {tx}"),
        HttpEvent::SseBody { .. } | HttpEvent::RequestBodyGap { .. } | HttpEvent::ResponseBodyGap { .. } => return None,
    })
}

/// Feeds (direction, bytes) chunks, chunk i carried by frame i+1.
fn run_conn(c: &mut HttpConn, chunks: &[(Direction, Vec<u8>)]) -> Vec<String> {
    let mut got = Vec::new();
    for (i, (d, b)) in chunks.iter().enumerate() {
        c.data(*d, b, i as u64 + 1, Timestamp::ZERO, &mut |e| got.extend(show(&e)));
    }
    got
}

fn run(chunks: &[(Direction, Vec<u8>)]) -> (Vec<String>, HttpConn) {
    let mut c = HttpConn::new(&Limits::default());
    let got = run_conn(&mut c, chunks);
    (got, c)
}

fn cat(parts: &[Vec<u8>]) -> Vec<u8> {
    parts.concat()
}

#[test]
fn json_exchange_is_one_request_and_one_response() {
    let (got, c) = run(&[
        (ToServer, cat(&[client_start(), req_headers(1, false), fr(frame::DATA, END_STREAM, 1, b"{\"id\":1}")])),
        (ToClient, server_start()),
        (ToClient, cat(&[resp_headers(1, "application/json", false), fr(frame::DATA, 0, 1, b"{\"result\""), fr(frame::DATA, END_STREAM, 1, b":{}}")])),
    ]);
    assert_eq!(
        got,
        vec![
            "req 0 POST /mcp host=localhost:8000 v2 @1",
            "stream 0 1",
            "reqbody 0 {\"id\":1}",
            "reqend 0 complete @1",
            "resp Some(0) 200 application/json @3",
            "respbody Some(0) {\"result\"",
            "respbody Some(0) :{}}",
            "respend Some(0) complete @3",
        ]
    );
    let s = c.h2_stats().unwrap();
    assert_eq!((s.connections, s.streams), (1, 1));
    assert_eq!(c.h2_unanalysed(), None);
}

fn sse_conversation() -> Vec<(Direction, Vec<u8>)> {
    vec![
        (ToServer, cat(&[client_start(), req_headers(1, false), fr(frame::DATA, END_STREAM, 1, b"{}")])),
        (ToClient, cat(&[server_start(), resp_headers(1, "text/event-stream", false)])),
        (ToClient, fr(frame::DATA, 0, 1, b"id: 7\ndata: {\"a\":1}\n\n: ping\n\ndata: pa")),
        (ToClient, fr(frame::DATA, 0, 1, b"rt\n\n")),
        (ToServer, cat(&[req_headers(3, true)])),
        (ToClient, cat(&[resp_headers(3, "application/json", false), fr(frame::DATA, END_STREAM, 3, b"{}")])),
        (ToClient, fr(frame::DATA, END_STREAM, 1, b"")),
    ]
}

#[test]
fn sse_events_come_as_their_data_frames_arrive_and_streams_interleave() {
    let (got, _) = run(&sse_conversation());
    assert_eq!(
        got,
        vec![
            "req 0 POST /mcp host=localhost:8000 v2 @1",
            "stream 0 1",
            "reqbody 0 {}",
            "reqend 0 complete @1",
            "resp Some(0) 200 text/event-stream @2",
            "sse Some(0) id=Some(\"7\") {\"a\":1} @3",
            "comment Some(0)",
            "sse Some(0) id=None part @4",
            "req 1 POST /mcp host=localhost:8000 v2 @5",
            "stream 1 3",
            "reqend 1 complete @5",
            "resp Some(1) 200 application/json @6",
            "respbody Some(1) {}",
            "respend Some(1) complete @6",
            "respend Some(0) complete @7",
        ]
    );
}

#[test]
fn events_do_not_depend_on_how_the_bytes_were_split() {
    // Every split of every chunk into two packets gives the same events (frame numbers aside).
    let conv = sse_conversation();
    let strip = |v: Vec<String>| -> Vec<String> { v.into_iter().map(|s| s.split(" @").next().unwrap().to_string()).collect() };
    let whole = strip(run(&conv).0);
    for (i, (dir, bytes)) in conv.iter().enumerate() {
        for cut in 0..=bytes.len() {
            let mut split = conv.clone();
            split.splice(i..=i, [(*dir, bytes[..cut].to_vec()), (*dir, bytes[cut..].to_vec())]);
            assert_eq!(strip(run(&split).0), whole, "chunk {i} cut at {cut}");
        }
    }
}

#[test]
fn rst_stream_mid_response_interrupts_the_exchange() {
    let (got, c) = run(&[
        (ToServer, cat(&[client_start(), req_headers(1, true)])),
        (ToClient, cat(&[server_start(), resp_headers(1, "text/event-stream", false), fr(frame::DATA, 0, 1, b"data: x\n\n")])),
        (ToServer, fr(frame::RST_STREAM, 0, 1, &8u32.to_be_bytes())),
        (ToClient, fr(frame::DATA, 0, 1, b"data: late\n\n")),
    ]);
    assert_eq!(got[got.len() - 1], "respend Some(0) interrupted @3");
    assert!(!got.iter().any(|e| e.contains("late")));
    assert_eq!(c.h2_stats().unwrap().resets, 1);
}

#[test]
fn a_client_reset_after_a_json_head_still_reads_the_body_already_sent() {
    // undici resets a stream at a 404's head (NO_ERROR) while the server's JSON-RPC error body is on its way
    // (samples/ecosystem/h2situations-restart-undici.pcap): that body is what the server answered.
    let body = b"{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"Session not found\"}}";
    let head = fr(frame::HEADERS, END_HEADERS, 1, &block(&[(":status", "404"), ("content-type", "application/json")]));
    let start = (ToServer, cat(&[client_start(), req_headers(1, true)]));
    let rst = (ToServer, fr(frame::RST_STREAM, 0, 1, &0u32.to_be_bytes()));
    let (got, _) = run(&[
        start.clone(),
        (ToClient, cat(&[server_start(), head.clone()])),
        rst.clone(),
        (ToClient, fr(frame::DATA, 0, 1, body)),
        (ToClient, fr(frame::DATA, END_STREAM, 1, b"")),
    ]);
    assert_eq!(got[got.len() - 2], format!("respbody Some(0) {}", String::from_utf8_lossy(body)));
    assert_eq!(got[got.len() - 1], "respend Some(0) complete @5");
    // The tail ends at the next frame that is not the server's on that stream: the client's next request,
    // the server's frame on another stream, or the server's own reset.
    for (next, end) in [
        ((ToServer, req_headers(3, true)), "respend Some(0) interrupted @4"),
        ((ToClient, fr(frame::PING, 0, 0, &[0; 8])), "respend Some(0) interrupted @4"),
        ((ToClient, fr(frame::RST_STREAM, 0, 1, &8u32.to_be_bytes())), "respend Some(0) interrupted @4"),
    ] {
        let (got, _) = run(&[start.clone(), (ToClient, cat(&[server_start(), head.clone()])), rst.clone(), next]);
        assert!(got.contains(&end.to_string()), "{got:?}");
        assert_eq!(got.iter().filter(|e| e.starts_with("respend")).count(), 1, "{got:?}");
    }
}

#[test]
fn goaway_interrupts_only_the_streams_above_its_last_stream_id() {
    let (got, _) = run(&[
        (ToServer, cat(&[client_start(), req_headers(1, true), req_headers(3, false)])),
        (ToClient, cat(&[server_start(), resp_headers(1, "application/json", false)])),
        (ToClient, fr(frame::GOAWAY, 0, 0, &[0, 0, 0, 1, 0, 0, 0, 0])),
        (ToClient, fr(frame::DATA, END_STREAM, 1, b"{}")),
    ]);
    assert!(got.contains(&"reqend 1 interrupted @3".to_string()), "{got:?}");
    assert!(got.contains(&"respend Some(0) complete @4".to_string()), "{got:?}");
}

#[test]
fn connection_end_interrupts_open_messages() {
    let mut c = HttpConn::new(&Limits::default());
    let mut got = run_conn(
        &mut c,
        &[(ToServer, cat(&[client_start(), req_headers(1, true)])), (ToClient, cat(&[server_start(), resp_headers(1, "text/event-stream", false)]))],
    );
    c.end(ToClient, EndReason::Fin, 9, Timestamp::ZERO, &mut |e| got.extend(show(&e)));
    assert_eq!(got.last().unwrap(), "respend Some(0) interrupted @9");
}

#[test]
fn server_settings_before_the_client_preface_wait_for_it() {
    let (got, c) = run(&[
        (ToClient, server_start()),
        (ToServer, cat(&[client_start(), req_headers(1, true)])),
        (ToClient, resp_headers(1, "application/json", true)),
    ]);
    assert_eq!(got, vec!["req 0 POST /mcp host=localhost:8000 v2 @2", "stream 0 1", "reqend 0 complete @2", "resp Some(0) 200 application/json @3", "respend Some(0) complete @3"]);
    assert!(c.h2_stats().is_some());
}

#[test]
fn preface_split_across_packets_is_still_http2() {
    let start = cat(&[client_start(), req_headers(1, true)]);
    let (got, c) = run(&[(ToServer, start[..5].to_vec()), (ToServer, start[5..].to_vec())]);
    assert_eq!(got, vec!["req 0 POST /mcp host=localhost:8000 v2 @2", "stream 0 1", "reqend 0 complete @2"]);
    assert!(c.h2_stats().is_some());
}

#[test]
fn http11_is_untouched() {
    let (got, c) = run(&[(ToServer, b"POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}".to_vec()), (ToClient, b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n".to_vec())]);
    assert_eq!(got, vec!["req 0 POST /mcp host=a v1 @1", "reqbody 0 {}", "reqend 0 complete @1", "resp Some(0) 202  @2", "respend Some(0) complete @2"]);
    assert!(c.h2_stats().is_none());
}

#[test]
fn h2c_upgrade_continues_the_exchange_over_http2() {
    let req = b"POST /mcp HTTP/1.1\r\nHost: a\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\nContent-Length: 2\r\n\r\n{}";
    let mut resp = b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n".to_vec();
    resp.extend(server_start());
    resp.extend(resp_headers(1, "application/json", false));
    let (got, c) = run(&[
        (ToServer, req.to_vec()),
        (ToClient, resp),
        (ToServer, cat(&[client_start(), req_headers(3, true)])),
        (ToClient, cat(&[fr(frame::DATA, END_STREAM, 1, b"{\"r\":1}"), resp_headers(3, "application/json", true)])),
    ]);
    assert_eq!(
        got,
        vec![
            "req 0 POST /mcp host=a v1 @1",
            "reqbody 0 {}",
            "reqend 0 complete @1",
            "resp Some(0) 101  @2",
            "respend Some(0) complete @2",
            "stream 0 1",
            "resp Some(0) 200 application/json @2",
            "req 1 POST /mcp host=localhost:8000 v2 @3",
            "stream 1 3",
            "reqend 1 complete @3",
            "respbody Some(0) {\"r\":1}",
            "respend Some(0) complete @4",
            "resp Some(1) 200 application/json @4",
            "respend Some(1) complete @4",
        ]
    );
    assert_eq!(c.h2_stats().unwrap().streams, 2);
}

#[test]
fn alpn_h2_without_the_preface_is_midstream_and_nothing_is_guessed() {
    let mut c = HttpConn::new(&Limits::default());
    c.set_alpn_h2();
    let got = run_conn(&mut c, &[(ToClient, resp_headers(1, "application/json", true)), (ToServer, req_headers(3, true))]);
    assert!(got.is_empty(), "{got:?}");
    assert_eq!(c.h2_unanalysed().map(|u| u.0), Some(Unanalysed::Midstream));
}

#[test]
fn gap_ends_open_messages_and_stops_the_analysis() {
    let mut c = HttpConn::new(&Limits::default());
    let mut got = run_conn(&mut c, &[(ToServer, cat(&[client_start(), req_headers(1, false)]))]);
    c.gap(ToServer, 100, 2, Timestamp::ZERO, &mut |e| got.extend(show(&e)));
    run_conn(&mut c, &[(ToServer, req_headers(3, true))]);
    assert_eq!(got.last().unwrap(), "reqend 0 gap @2");
    assert_eq!(c.h2_unanalysed(), Some((Unanalysed::Midstream, 2)));
}

#[test]
fn frame_inside_a_header_block_is_a_protocol_error() {
    let b = block(&[(":method", "GET"), (":path", "/")]);
    let (got, c) = run(&[(ToServer, cat(&[client_start(), fr(frame::HEADERS, 0, 1, &b), fr(frame::PING, 0, 0, &[0; 8])]))]);
    assert!(got.is_empty());
    assert_eq!(c.h2_unanalysed().map(|u| u.0), Some(Unanalysed::ProtocolError));
}

#[test]
fn continuation_assembles_a_header_block() {
    let b = block(&[(":method", "GET"), (":path", "/x"), (":authority", "h")]);
    let (got, _) = run(&[(ToServer, cat(&[client_start(), fr(frame::HEADERS, END_STREAM, 1, &b[..4]), fr(frame::CONTINUATION, 0, 1, &b[4..9]), fr(frame::CONTINUATION, END_HEADERS, 1, &b[9..])]))]);
    assert_eq!(got, vec!["req 0 GET /x host=h v2 @1", "stream 0 1", "reqend 0 complete @1"]);
}

#[test]
fn continuation_flood_hits_the_header_list_cap() {
    let mut wire = cat(&[client_start(), fr(frame::HEADERS, 0, 1, &block(&[(":method", "GET")]))]);
    let junk = vec![0u8; 16 << 10];
    for _ in 0..1000 {
        wire.extend(fr(frame::CONTINUATION, 0, 1, &junk));
    }
    let (got, c) = run(&[(ToServer, wire)]);
    assert!(got.is_empty());
    let s = c.h2_stats().unwrap();
    assert_eq!(s.header_list_cap_hits, 1);
    assert_eq!(c.h2_unanalysed().map(|u| u.0), Some(Unanalysed::Cap));
}

#[test]
fn hpack_bomb_is_cut_at_the_header_list_cap_and_the_connection_goes_on() {
    // One 4000-byte entry in the dynamic table, then 4000 one-byte references to it: 16 MB of header list
    // from 4 KB on the wire.
    let mut b = block(&[(":method", "GET"), (":path", "/")]);
    b.push(0x40);
    b.push(1);
    b.push(b'x');
    b.extend([0x7f, 0xa1, 0x1e]); // value length 4000 (127 + 3873), no Huffman
    b.extend(std::iter::repeat_n(b'v', 4000));
    b.extend(std::iter::repeat_n(0xbe, 4000)); // indexed: dynamic entry 62
    let (got, c) = run(&[(ToServer, cat(&[client_start(), fr(frame::HEADERS, END_HEADERS | END_STREAM, 1, &b), req_headers(3, true)]))]);
    assert_eq!(got[0], "anomaly header_too_large");
    assert!(got[1].starts_with("req 0 GET /"));
    assert!(got.iter().any(|e| e.starts_with("req 1 POST")), "{got:?}");
    assert_eq!(c.h2_stats().unwrap().header_list_cap_hits, 1);
    assert_eq!(c.h2_unanalysed(), None);
}

#[test]
fn frame_over_the_cap_stops_the_analysis() {
    let l = Limits { max_h2_frame_bytes: 100, ..Limits::default() };
    let mut c = HttpConn::new(&l);
    run_conn(&mut c, &[(ToServer, cat(&[client_start(), req_headers(1, false), fr(frame::DATA, 0, 1, &[b'x'; 200])]))]);
    assert_eq!(c.h2_stats().unwrap().frame_cap_hits, 1);
    assert_eq!(c.h2_unanalysed().map(|u| u.0), Some(Unanalysed::Cap));
}

#[test]
fn hundred_thousand_streams_stay_within_the_stream_cap() {
    let mut wire = client_start();
    for i in 0..100_000u32 {
        wire.extend(req_headers(2 * i + 1, true));
    }
    let mut c = HttpConn::new(&Limits::default());
    let mut n = 0usize;
    c.data(ToServer, &wire, 1, Timestamp::ZERO, &mut |e| n += usize::from(matches!(e, HttpEvent::Request { .. })));
    let s = c.h2_stats().unwrap();
    let cap = Limits::default().max_h2_streams_per_conn;
    assert_eq!(n, cap);
    assert_eq!(s.streams, cap as u64);
    assert_eq!(s.stream_cap_hits, 100_000 - cap as u64);
    assert_eq!(c.h2_unanalysed(), None);
}

#[test]
fn rapid_reset_keeps_no_stream_open() {
    let mut wire = client_start();
    for i in 0..100_000u32 {
        wire.extend(req_headers(2 * i + 1, false));
        wire.extend(fr(frame::RST_STREAM, 0, 2 * i + 1, &8u32.to_be_bytes()));
    }
    let mut c = HttpConn::new(&Limits::default());
    let mut ends = 0usize;
    c.data(ToServer, &wire, 1, Timestamp::ZERO, &mut |e| ends += usize::from(matches!(e, HttpEvent::RequestEnd { end: MessageEnd::Interrupted, .. })));
    assert_eq!(ends, 100_000);
    let s = c.h2_stats().unwrap();
    assert_eq!((s.streams, s.resets, s.stream_cap_hits), (100_000, 100_000, 0));
}

proptest::proptest! {
    #[test]
    fn arbitrary_bytes_after_the_preface_never_panic(a in proptest::collection::vec(0u8..=255, 0..512), b in proptest::collection::vec(0u8..=255, 0..512)) {
        let mut c = HttpConn::new(&Limits::default());
        let mut start = client_start();
        start.extend(&a);
        c.data(ToServer, &start, 1, Timestamp::ZERO, &mut |_| {});
        c.data(ToClient, &b, 2, Timestamp::ZERO, &mut |_| {});
        c.end(ToClient, EndReason::Fin, 3, Timestamp::ZERO, &mut |_| {});
    }
}

#[test]
fn plaintext_h2_picked_up_midstream_is_reported_not_parsed_as_http1() {
    let (got, c) = run(&[(ToServer, req_headers(5, false)), (ToClient, resp_headers(5, "application/json", true))]);
    assert!(got.is_empty(), "{got:?}");
    assert_eq!(c.h2_unanalysed().map(|u| u.0), Some(Unanalysed::Midstream));
    let (got, c) = run(&[(ToClient, fr(frame::DATA, 0, 7, b"data: x\n\n"))]);
    assert!(got.is_empty(), "{got:?}");
    assert_eq!(c.h2_unanalysed().map(|u| u.0), Some(Unanalysed::Midstream));
}

#[test]
fn another_binary_protocol_is_not_taken_for_h2_picked_up_midstream() {
    // nginx `uwsgi_pass`: a uwsgi packet header (modifier1 0, a little-endian size of 540, modifier2 0) and
    // the first variable's name length (12, QUERY_STRING), read as an HTTP/2 frame header: a DATA frame of
    // 7,170 bytes with END_HEADERS set, which no sender writes (samples/ecosystem/wsgi-nginx-uwsgi.pcap).
    let mut uwsgi = vec![0x00, 0x1c, 0x02, 0x00, 0x0c, 0x00];
    uwsgi.extend_from_slice(b"QUERY_STRING\x00\x00\x0e\x00REQUEST_METHOD\x04\x00POST");
    let reply = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}".to_vec();
    let (_, c) = run(&[(ToServer, uwsgi.clone()), (ToClient, reply)]);
    assert_eq!(c.h2_unanalysed(), None);
    // The same header with only the flags DATA defines (END_STREAM, PADDED) still reads as HTTP/2 frames.
    uwsgi[4] = 0x08;
    let (_, c) = run(&[(ToServer, uwsgi)]);
    assert_eq!(c.h2_unanalysed().map(|u| u.0), Some(Unanalysed::Midstream));
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

#[test]
fn coded_event_stream_is_decoded_as_its_data_frames_arrive() {
    // A gzip SSE reply over HTTP/2 (nginx `gzip on` in front of an MCP server): the same body stage as
    // HTTP/1.1 undoes the coding, so events come out of the DATA frames that complete them.
    let b = block(&[(":status", "200"), ("content-type", "text/event-stream"), ("content-encoding", "gzip")]);
    let z = gzip(b"data: one\n\ndata: two\n\n");
    let (head, tail) = z.split_at(z.len() / 2);
    let (got, _) = run(&[
        (ToServer, cat(&[client_start(), req_headers(1, true)])),
        (ToClient, cat(&[server_start(), fr(frame::HEADERS, END_HEADERS, 1, &b), fr(frame::DATA, 0, 1, head)])),
        (ToClient, fr(frame::DATA, END_STREAM, 1, tail)),
    ]);
    let events: Vec<&String> = got.iter().filter(|e| e.starts_with("sse ")).collect();
    assert_eq!(events, ["sse Some(0) id=None one @3", "sse Some(0) id=None two @3"], "{got:?}");
    assert!(!got.iter().any(|e| e.contains("undecoded")), "{got:?}");
    assert_eq!(got.last().map(String::as_str), Some("respend Some(0) complete @3"), "{got:?}");
}

#[test]
fn coded_request_and_json_reply_are_decoded_and_a_corrupt_one_is_reported() {
    let req = block(&[(":method", "POST"), (":scheme", "https"), (":path", "/mcp"), (":authority", "a"), ("content-encoding", "gzip")]);
    let resp = block(&[(":status", "200"), ("content-type", "application/json"), ("content-encoding", "br")]);
    let (got, _) = run(&[
        (ToServer, cat(&[client_start(), fr(frame::HEADERS, END_HEADERS, 1, &req), fr(frame::DATA, END_STREAM, 1, &gzip(b"{\"id\":1}"))])),
        (ToClient, cat(&[server_start(), fr(frame::HEADERS, END_HEADERS, 1, &resp), fr(frame::DATA, END_STREAM, 1, b"\xff\xff not brotli")])),
    ]);
    assert!(got.contains(&"reqbody 0 {\"id\":1}".to_string()), "{got:?}");
    assert!(got.contains(&"respundecoded Some(0) br corrupt stream".to_string()), "{got:?}");
    assert!(!got.iter().any(|e| e.starts_with("respbody")), "{got:?}");
    assert_eq!(got.last().map(String::as_str), Some("respend Some(0) complete @2"), "{got:?}");
}

#[test]
fn pushed_streams_are_decoded_counted_and_not_handed_on() {
    // RFC 9113 §8.4: a PUSH_PROMISE's header block and the pushed response's HEADERS keep the server's HPACK
    // table in step (the 0x40 literal with indexing adds an entry the next reply reuses), but a pushed
    // response answers no request of the client's: no exchange is reported for it.
    let mut promise = vec![0, 0, 0, 2];
    promise.extend(block(&[(":method", "GET"), (":scheme", "http"), (":path", "/pushed"), (":authority", "a")]));
    let mut pushed = vec![0x40, 6];
    pushed.extend_from_slice(b"x-push");
    pushed.push(1);
    pushed.push(b'1');
    pushed.extend(block(&[(":status", "200"), ("content-type", "text/plain")]));
    let mut reply = vec![0xbe]; // indexed: the x-push entry just added (dynamic index 62)
    reply.extend(block(&[(":status", "200"), ("content-type", "application/json")]));
    let (got, c) = run(&[
        (ToServer, cat(&[client_start(), req_headers(1, true)])),
        (ToClient, cat(&[server_start(), fr(frame::PUSH_PROMISE, END_HEADERS, 1, &promise), fr(frame::HEADERS, END_HEADERS, 2, &pushed)])),
        (ToClient, cat(&[fr(frame::DATA, END_STREAM, 2, b"pushed body"), fr(frame::HEADERS, END_HEADERS, 1, &reply), fr(frame::DATA, END_STREAM, 1, b"{}")])),
    ]);
    assert_eq!(
        got,
        [
            "req 0 POST /mcp host=localhost:8000 v2 @1",
            "stream 0 1",
            "reqend 0 complete @1",
            "resp Some(0) 200 application/json @3",
            "respbody Some(0) {}",
            "respend Some(0) complete @3",
        ],
        "{got:?}"
    );
    assert_eq!(c.h2_stats().map(|s| (s.pushed, s.streams)), Some((1, 1)));
    assert_eq!(c.h2_unanalysed(), None);
}
