//! The SSE parser on arbitrary bytes fed in fuzzed pieces: always makes progress, events stay within the
//! cap.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcptap::http::sse::SseParser;

fuzz_target!(|data: &[u8]| {
    let Some((&split, body)) = data.split_first() else { return };
    let piece = usize::from(split).max(1);
    let mut p = SseParser::new(64);
    for chunk in body.chunks(piece) {
        let mut pos = 0usize;
        let mut rounds = 0usize;
        while pos < chunk.len() {
            let (used, item) = p.feed(&chunk[pos..]);
            // No progress and no item would be an endless loop for the caller.
            assert!(used > 0 || item.is_some(), "no progress at {pos}");
            pos += used;
            rounds += 1;
            assert!(rounds <= 2 * chunk.len() + 2, "too many rounds");
            std::hint::black_box(item);
        }
    }
    std::hint::black_box(p.has_pending_event());
});
