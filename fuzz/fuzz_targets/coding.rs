//! The Content-Encoding stage on arbitrary bytes: the first byte picks a coding list (single codings and
//! stacks), the second the piece size; the rest is fed in pieces under a 1 MiB cap per body. It must never
//! panic, never hand out a chunk over `coding::CHUNK`, and never deliver more than the cap.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcptap::http::coding::{BodyCodings, Budget, CHUNK};
use mcptap::http::Headers;

const LISTS: &[&str] = &["gzip", "x-gzip", "deflate", "br", "zstd", "gzip, gzip", "br, deflate", "zstd, gzip", "identity, gzip"];
const CAP: u64 = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let [pick, split, body @ ..] = data else { return };
    let list = LISTS[usize::from(*pick) % LISTS.len()];
    let Some(codings) = BodyCodings::from_headers(&Headers::from_pairs([("content-encoding", list)])) else { return };
    let mut dec = codings.decoder();
    let mut used = 0u64;
    let mut delivered = 0u64;
    for piece in body.chunks(usize::from(*split).max(1)) {
        let mut budget = Budget { per_body: CAP, per_conn: u64::MAX, conn_used: &mut used };
        let failed = dec.feed(piece, &mut budget, &mut |chunk| {
            assert!(chunk.len() <= CHUNK);
            delivered += chunk.len() as u64;
        });
        if failed.is_some() {
            break;
        }
    }
    assert!(delivered <= CAP);
    std::hint::black_box(dec.finish(true));
});
