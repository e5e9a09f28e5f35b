//! JSON-RPC extraction on arbitrary bytes (single messages, batches, deep nesting), differential: the
//! scanner must decide as the serde decoding it replaced (`jsonrpc::oracle`), errors by kind, float ids
//! by kind (their text is documented to differ past 15 significant digits).
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcptap::jsonrpc::{self, Id, Message, ParseProblem, Payload};

fn kind(r: Result<Payload, ParseProblem>) -> Result<Payload, ParseProblem> {
    match r {
        Err(ParseProblem::NotJson(_)) => Err(ParseProblem::NotJson(String::new())),
        Ok(mut p) => {
            for m in &mut p.messages {
                if let Message::Request { id, .. } | Message::Response { id, .. } | Message::Error { id, .. } = m {
                    if let Id::Other(s) = id {
                        *s = String::from("float");
                    }
                }
            }
            Ok(p)
        }
        other => other,
    }
}

fuzz_target!(|data: &[u8]| {
    let got = kind(jsonrpc::parse(data));
    let want = kind(jsonrpc::oracle::parse(data));
    assert_eq!(got, want, "{}", String::from_utf8_lossy(data));
});
