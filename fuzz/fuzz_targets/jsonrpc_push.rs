//! The push scanner on arbitrary bytes cut into arbitrary chunks, differential: fed piece by piece it must
//! decide as `jsonrpc::parse` on the whole (compared by `oracle::comparable`), and once it says it failed,
//! `parse` must say NotJson. Input: a count byte (low 3 bits: how many size bytes follow), the chunk sizes
//! (used in turn; 0 is an empty feed), then the payload; no size bytes: the payload fed whole.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcptap::jsonrpc::{self, oracle, ParseProblem, Push};

fuzz_target!(|data: &[u8]| {
    let Some((&n, rest)) = data.split_first() else { return };
    let (sizes, payload) = rest.split_at(usize::from(n & 7).min(rest.len()));
    let mut p = Push::new();
    let mut sizes = sizes.iter().cycle();
    let mut at = 0;
    while at < payload.len() {
        let size = sizes.next().map_or(payload.len(), |&s| usize::from(s));
        if size == 0 {
            p.feed(&[]);
        }
        let end = (at + size.max(1)).min(payload.len());
        p.feed(&payload[at..end]);
        at = end;
    }
    let failed = p.failed();
    let got = oracle::comparable(p.finish());
    let want = oracle::comparable(jsonrpc::parse(payload));
    assert_eq!(got, want, "{}", String::from_utf8_lossy(payload));
    assert!(!failed || matches!(want, Err(ParseProblem::NotJson(_))), "failed early: {want:?}");
});
