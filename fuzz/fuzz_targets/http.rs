//! HTTP/1.1 head and body decoding (chunked, content-length, SSE, close-delimited) on fuzzed chunks in
//! both directions, with gaps and ends at fuzzed points. Small caps make every cap path reachable.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcptap::http::HttpConnection;
use mcptap::limits::Limits;

#[path = "steps.rs"]
mod steps;

fuzz_target!(|data: &[u8]| {
    let limits = Limits { max_header_bytes: 512, max_body_bytes: 1024, max_sse_event_bytes: 256, ..Limits::default() };
    let mut conn = HttpConnection::new(&limits);
    std::hint::black_box(steps::drive(&mut conn, data));
});
