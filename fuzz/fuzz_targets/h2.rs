//! HTTP/2 on fuzzed chunks in both directions (frames, HPACK, streams, the h1/h2 decision and the h2c
//! upgrade), with gaps and ends at fuzzed points. The client side starts with the connection preface when
//! the first byte is even, so most inputs reach the frame and HPACK parsers; small caps make every cap path
//! reachable.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcptap::decode::flow_key::Direction;
use mcptap::http::switch::HttpConn;
use mcptap::limits::Limits;
use mcptap::time::Timestamp;

#[path = "steps.rs"]
mod steps;

const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

fuzz_target!(|data: &[u8]| {
    let limits = Limits {
        max_h2_header_list_bytes: 512,
        max_h2_streams_per_conn: 8,
        max_h2_frame_bytes: 4096,
        max_sse_event_bytes: 256,
        ..Limits::default()
    };
    let mut conn = HttpConn::new(&limits);
    let Some((&first, rest)) = data.split_first() else { return };
    if first & 1 == 0 {
        conn.data(Direction::ToServer, PREFACE, 0, Timestamp::ZERO, &mut |_| {});
    }
    if first & 2 != 0 {
        conn.set_alpn_h2();
    }
    let events = steps::drive(&mut conn, rest);
    std::hint::black_box((events, conn.h2_stats().cloned(), conn.h2_unanalysed()));
});
