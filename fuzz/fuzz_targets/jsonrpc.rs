//! JSON-RPC extraction on arbitrary bytes (single messages, batches, deep nesting).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = std::hint::black_box(mcptap::jsonrpc::parse(data));
});
