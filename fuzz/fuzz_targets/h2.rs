//! HTTP/2 on fuzzed chunks in both directions (frames, HPACK, streams, the h1/h2 decision and the h2c
//! upgrade), with gaps and ends at fuzzed points. The client side starts with the connection preface when
//! the first byte is even, so most inputs reach the frame and HPACK parsers; small caps make every cap path
//! reachable.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcptap::decode::flow_key::Direction;
use mcptap::http::switch::HttpConn;
use mcptap::limits::Limits;
use mcptap::reassembly::EndReason;
use mcptap::time::Timestamp;

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
    let mut events = 0u64;
    let mut out = |_ev: mcptap::http::HttpEvent<'_>| events += 1;
    let Some((&first, mut rest)) = data.split_first() else { return };
    if first & 1 == 0 {
        conn.data(Direction::ToServer, PREFACE, 0, Timestamp::ZERO, &mut out);
    }
    if first & 2 != 0 {
        conn.set_alpn_h2();
    }
    let mut frame = 0u64;
    // Each step: one control byte (direction, action, length), then that many bytes.
    while let Some((&c, tail)) = rest.split_first() {
        frame += 1;
        let dir = if c & 0x80 != 0 { Direction::ToClient } else { Direction::ToServer };
        let ts = Timestamp::from_secs_nanos(frame as i64, 0);
        match (c >> 5) & 3 {
            0 | 1 => {
                let len = usize::from(c & 0x3f).max(1).min(tail.len());
                let (chunk, tail) = tail.split_at(len);
                conn.data(dir, chunk, frame, ts, &mut out);
                rest = tail;
            }
            2 => {
                conn.gap(dir, u64::from(c & 0x1f) + 1, frame, ts, &mut out);
                rest = tail;
            }
            _ => {
                let reason = if c & 1 != 0 { EndReason::Fin } else { EndReason::Rst };
                conn.end(dir, reason, frame, ts, &mut out);
                rest = tail;
            }
        }
    }
    for dir in [Direction::ToServer, Direction::ToClient] {
        conn.end(dir, EndReason::EndOfCapture, frame + 1, Timestamp::from_secs_nanos(frame as i64 + 1, 0), &mut out);
    }
    std::hint::black_box((events, conn.h2_stats().cloned(), conn.h2_unanalysed()));
});
