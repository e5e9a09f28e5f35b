//! JSON-RPC extraction on arbitrary bytes (single messages, batches, deep nesting), differential: the
//! scanner must decide as the serde decoding it replaced (`jsonrpc::oracle`, compared by
//! `oracle::comparable`).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcptap::jsonrpc::{self, oracle};

fuzz_target!(|data: &[u8]| {
    let got = oracle::comparable(jsonrpc::parse(data));
    let want = oracle::comparable(oracle::parse(data));
    assert_eq!(got, want, "{}", String::from_utf8_lossy(data));
});
