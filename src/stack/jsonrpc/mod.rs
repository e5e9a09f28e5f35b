//! JSON-RPC 2.0 extraction: a body or an SSE `data` payload -> the few fields of each message that the
//! MCP layer needs (JSON-RPC 2.0 §4-§6; MCP `basic/index.mdx` for `_meta`). The bytes are read by a
//! scanner (`scan`) that keeps those fields and skips every other subtree without building it, so a large
//! `tools/call` result costs one pass, not a tree; it accepts exactly what the serde decoding before it did
//! (`oracle`, the test oracle, which alone uses the serde impls of these types).

#[cfg(any(test, fuzzing))]
use serde::Deserialize;

#[cfg(any(test, fuzzing))]
pub mod oracle;
mod push;
mod scan;

use std::borrow::Cow;

pub use push::Push;

/// A JSON-RPC id (§4: a String, Number, or Null).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Id {
    Num(i64),
    Str(String),
    /// A number that is not an i64 (fraction or out of range), kept as written.
    Other(String),
    Null,
}

impl Id {
    /// The id as it would be written in JSON: `7`, `"abc"`, `null`.
    pub fn display(&self) -> String {
        match self {
            Id::Num(n) => n.to_string(),
            Id::Str(s) => format!("\"{s}\""),
            Id::Other(s) => s.clone(),
            Id::Null => "null".to_string(),
        }
    }
}

/// The MCP methods named most (2024-11-05 to 2026-07-28): a message naming one keeps it as static text,
/// not a copy.
pub const MCP_METHODS: &[&str] = &[
    "initialize",
    "notifications/initialized",
    "tools/list",
    "tools/call",
    "ping",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "sampling/createMessage",
    "elicitation/create",
    "roots/list",
    "server/discover",
    "subscriptions/listen",
    "tasks/get",
    "tasks/list",
    "tasks/result",
    "tasks/cancel",
    "notifications/cancelled",
    "notifications/progress",
    "notifications/message",
    "notifications/tools/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
    "notifications/prompts/list_changed",
    "notifications/roots/list_changed",
];

/// A method name as a message keeps it: static text for a known one, else the text read.
pub fn method_name(text: Cow<'_, str>) -> Cow<'static, str> {
    crate::http::token(text, MCP_METHODS)
}

/// What the MCP layer needs of one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    Request { id: Id, method: Cow<'static, str>, params: Params },
    Notification { method: Cow<'static, str>, params: Params },
    Response { id: Id, result: ResultInfo },
    Error { id: Id, code: i64, message: String },
}

impl Message {
    pub fn method(&self) -> Option<&str> {
        self.method_name().map(|m| &**m)
    }

    /// The method of a request or notification, shared (static for a known one).
    pub fn method_name(&self) -> Option<&Cow<'static, str>> {
        match self {
            Message::Request { method, .. } | Message::Notification { method, .. } => Some(method),
            _ => None,
        }
    }

    /// The id of a response or error.
    pub fn reply_id(&self) -> Option<&Id> {
        match self {
            Message::Response { id, .. } | Message::Error { id, .. } => Some(id),
            _ => None,
        }
    }
}

/// The fields of `params` mcptap reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(any(test, fuzzing), derive(Deserialize), serde(default))]
pub struct Params {
    /// `initialize`: the version the client asks for.
    #[cfg_attr(any(test, fuzzing), serde(rename = "protocolVersion"))]
    pub protocol_version: Option<String>,
    /// `tools/call`, `prompts/get`: the name (what `Mcp-Name` must equal under 2026-07-28).
    pub name: Option<StringOrOther>,
    /// `resources/read`: the uri.
    pub uri: Option<StringOrOther>,
    #[cfg_attr(any(test, fuzzing), serde(rename = "clientInfo"))]
    pub client_info: Option<ClientInfo>,
    #[cfg_attr(any(test, fuzzing), serde(rename = "_meta"))]
    pub meta: Option<Meta>,
    /// `notifications/cancelled`: the id of the request the sender gives up on.
    #[cfg_attr(any(test, fuzzing), serde(rename = "requestId"))]
    pub request_id: Option<IdOrOther>,
}

/// A value that should be a JSON-RPC id (a string or a number); anything else is kept as `None` rather than
/// failing the message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdOrOther(pub Option<Id>);

/// A value that should be a string; anything else is kept as `None` rather than failing the message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StringOrOther(pub Option<String>);

#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(any(test, fuzzing), derive(Deserialize), serde(default))]
pub struct ClientInfo {
    pub name: Option<StringOrOther>,
}

/// `_meta` of a 2026-07-28 request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(any(test, fuzzing), derive(Deserialize), serde(default))]
pub struct Meta {
    #[cfg_attr(any(test, fuzzing), serde(rename = "io.modelcontextprotocol/protocolVersion"))]
    pub protocol_version: Option<StringOrOther>,
    #[cfg_attr(any(test, fuzzing), serde(rename = "io.modelcontextprotocol/clientInfo"))]
    pub client_info: Option<ClientInfo>,
}

/// The fields of `result` mcptap reads.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(any(test, fuzzing), derive(Deserialize), serde(default))]
pub struct ResultInfo {
    /// `initialize` result: the negotiated version.
    #[cfg_attr(any(test, fuzzing), serde(rename = "protocolVersion"))]
    pub protocol_version: Option<StringOrOther>,
}


/// Why a payload gave no messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseProblem {
    /// Not JSON (or JSON-RPC members of the wrong type, as serde's typed decoding rejected them).
    NotJson(String),
    /// JSON, but not a JSON-RPC 2.0 message (no `jsonrpc` member, or neither method nor result/error).
    NotJsonRpc,
    Empty,
}

/// The messages of a payload: one, without an allocation of its own, or a batch's.
pub type Messages = smallvec::SmallVec<[Message; 1]>;

/// Request ids of a payload: one, without an allocation of its own, or a batch's.
pub type Ids = smallvec::SmallVec<[Id; 1]>;

/// Parsed payload: one message, or a batch (2025-03-26 only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payload {
    pub messages: Messages,
    pub batch: bool,
}

/// Decodes a body or an SSE data payload.
pub fn parse(bytes: &[u8]) -> Result<Payload, ParseProblem> {
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace());
    let mut scan = scan::Scan::new(bytes);
    match first.and_then(|i| bytes.get(i)) {
        None => Err(ParseProblem::Empty),
        Some(b'[') => {
            let raw = scan.batch().and_then(|r| scan.end().map(|()| r)).map_err(ParseProblem::NotJson)?;
            let messages: Messages = raw.into_iter().filter_map(convert).collect();
            if messages.is_empty() {
                return Err(ParseProblem::NotJsonRpc);
            }
            Ok(Payload { messages, batch: true })
        }
        Some(_) => {
            let raw = scan.message().and_then(|r| scan.end().map(|()| r)).map_err(ParseProblem::NotJson)?;
            let m = convert(raw).ok_or(ParseProblem::NotJsonRpc)?;
            Ok(Payload { messages: smallvec::smallvec![m], batch: false })
        }
    }
}

fn convert(w: scan::Wire) -> Option<Message> {
    if !w.jsonrpc {
        return None;
    }
    if let Some(method) = w.method {
        let params = w.params.unwrap_or_default();
        return Some(match w.id {
            Some(id) => Message::Request { id, method, params },
            None => Message::Notification { method, params },
        });
    }
    if let Some((code, message)) = w.error {
        return Some(Message::Error { id: w.id.unwrap_or(Id::Null), code: code.unwrap_or(0), message: message.and_then(|m| m.0).unwrap_or_default() });
    }
    let result = w.result?;
    Some(Message::Response { id: w.id.unwrap_or(Id::Null), result })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn a_known_method_is_static_text_however_it_is_read() {
        let body = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let mut cut = Push::new();
        body.chunks(3).for_each(|c| cut.feed(c));
        for p in [parse(body).unwrap(), cut.finish().unwrap()] {
            assert!(matches!(p.messages[0].method_name(), Some(Cow::Borrowed("tools/list"))));
        }
        let other = parse(br#"{"jsonrpc":"2.0","method":"x/\u0079"}"#).unwrap();
        assert!(matches!(other.messages[0].method_name(), Some(Cow::Owned(m)) if m == "x/y"));
    }

    #[test]
    fn parse_request_with_initialize_params() {
        let p = parse(br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp","version":"1"}}}"#).unwrap();
        assert!(!p.batch);
        match &p.messages[0] {
            Message::Request { id, method, params } => {
                assert_eq!(id, &Id::Num(0));
                assert_eq!(method, "initialize");
                assert_eq!(params.protocol_version.as_deref(), Some("2025-06-18"));
                assert_eq!(params.client_info.as_ref().unwrap().name.as_ref().unwrap().0.as_deref(), Some("mcp"));
            }
            m => panic!("{m:?}"),
        }
    }

    #[test]
    fn parse_notification_response_error() {
        let n = parse(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#).unwrap();
        assert!(matches!(&n.messages[0], Message::Notification { method, .. } if method == "notifications/initialized"));
        let r = parse(br#"{"jsonrpc":"2.0","id":"a","result":{"protocolVersion":"2025-03-26","x":[1,2,{"y":null}]}}"#).unwrap();
        match &r.messages[0] {
            Message::Response { id, result } => {
                assert_eq!(id, &Id::Str("a".into()));
                assert_eq!(result.protocol_version.as_ref().unwrap().0.as_deref(), Some("2025-03-26"));
            }
            m => panic!("{m:?}"),
        }
        let e = parse(br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}"#).unwrap();
        assert_eq!(e.messages[0], Message::Error { id: Id::Null, code: -32001, message: "Session not found".into() });
    }

    #[test]
    fn parse_result_that_is_not_an_object() {
        let r = parse(br#"{"jsonrpc":"2.0","id":3,"result":42}"#).unwrap();
        assert!(matches!(&r.messages[0], Message::Response { id: Id::Num(3), .. }));
    }

    #[test]
    fn parse_result_keys_around_large_subtrees() {
        let r = parse(br#"{"jsonrpc":"2.0","id":18446744073709551615,"result":{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string"}}}}],"protocolVersion":"2025-06-18","more":[1,[2,{"3":4}]]}}"#).unwrap();
        match &r.messages[0] {
            Message::Response { id, result } => {
                assert_eq!(id, &Id::Other("18446744073709551615".into()));
                assert_eq!(result.protocol_version.as_ref().unwrap().0.as_deref(), Some("2025-06-18"));
            }
            m => panic!("{m:?}"),
        }
        let r = parse(br#"{"jsonrpc":"2.0","id":-4,"result":{"protocolVersion":{"not":"a string"}}}"#).unwrap();
        assert!(matches!(&r.messages[0], Message::Response { id: Id::Num(-4), result } if result.protocol_version == Some(StringOrOther(None))));
        let r = parse(br#"{"jsonrpc":"2.0","id":1.5,"result":[1,2]}"#).unwrap();
        assert!(matches!(&r.messages[0], Message::Response { id: Id::Other(s), .. } if s == "1.5"));
        assert!(matches!(parse(br#"{"jsonrpc":"2.0","id":true,"result":{}}"#), Err(ParseProblem::NotJson(_))));
    }

    #[test]
    fn parse_batch() {
        let b = parse(br#" [{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]"#).unwrap();
        assert!(b.batch);
        assert_eq!(b.messages.len(), 2);
    }

    #[test]
    fn parse_meta_protocol_version() {
        let p = parse(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#).unwrap();
        match &p.messages[0] {
            Message::Request { params, .. } => {
                assert_eq!(params.meta.as_ref().unwrap().protocol_version.as_ref().unwrap().0.as_deref(), Some("2026-07-28"));
                assert_eq!(params.name.as_ref().unwrap().0.as_deref(), Some("add"));
            }
            m => panic!("{m:?}"),
        }
    }

    #[test]
    fn parse_rejects_non_jsonrpc_and_garbage() {
        assert_eq!(parse(b""), Err(ParseProblem::Empty));
        assert_eq!(parse(br#"{"hello":1}"#), Err(ParseProblem::NotJsonRpc));
        assert!(matches!(parse(b"<html>"), Err(ParseProblem::NotJson(_))));
    }

    #[test]
    fn parse_deep_nesting_is_an_error_not_a_crash() {
        let mut s = String::from(r#"{"jsonrpc":"2.0","id":1,"result":"#);
        for _ in 0..100_000 {
            s.push('[');
        }
        assert!(matches!(parse(s.as_bytes()), Err(ParseProblem::NotJson(_))));
    }

    #[test]
    fn parse_wrong_types_do_not_fail_the_message() {
        let p = parse(br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7,"_meta":{"io.modelcontextprotocol/protocolVersion":{}}}}"#).unwrap();
        assert!(matches!(&p.messages[0], Message::Request { .. }));
    }

    #[test]
    fn parse_the_request_a_cancellation_names() {
        let cancelled = |v: &str| {
            let text = format!(r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{{"requestId":{v},"reason":"timeout"}}}}"#);
            let p = parse(text.as_bytes()).unwrap();
            assert_eq!(super::oracle::comparable(Ok(p.clone())), super::oracle::comparable(super::oracle::parse(text.as_bytes())), "{v}");
            match &p.messages[0] {
                Message::Notification { params, .. } => params.request_id.clone(),
                m => panic!("{m:?}"),
            }
        };
        assert_eq!(cancelled("4"), Some(IdOrOther(Some(Id::Num(4)))));
        assert_eq!(cancelled(r#""req-7""#), Some(IdOrOther(Some(Id::Str("req-7".into())))));
        assert_eq!(cancelled("null"), None);
        // Not an id: kept as such, the message stands.
        assert_eq!(cancelled("true"), Some(IdOrOther(None)));
        assert_eq!(cancelled(r#"{"a":[1]}"#), Some(IdOrOther(None)));
    }

    /// JSON-ish text from a small grammar with the corners serde and the scanner must agree on: odd
    /// numbers, escapes, surrogates, control characters, invalid UTF-8, duplicate and escaped keys,
    /// structs written as arrays, and now and then a byte dropped, added or changed.
    pub(super) struct Gen(pub(super) u64);

    impl Gen {
        pub(super) fn next(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }

        fn pick<'a>(&mut self, xs: &[&'a [u8]]) -> &'a [u8] {
            xs[self.next(xs.len())]
        }

        fn value(&mut self, out: &mut Vec<u8>, depth: u32) {
            const SCALARS: &[&[u8]] = &[
                b"null", b"true", b"false", b"0", b"-0", b"7", b"-5", b"1.5", b"1e2", b"1E-2", b"-0.0", b"18446744073709551615",
                b"18446744073709551616", b"9223372036854775807", b"9223372036854775808", b"-9223372036854775808",
                b"-9223372036854775809", b"123456789012345678901234567890", b"\"\"", b"\"2025-06-18\"", b"\"a\\u00e9\"",
                b"\"\\ud83d\\ude00\"", b"\"\xc3\xa9\"", b"\"\\\"\\\\/\\b\\f\\n\\r\\t\"",
                b"01", b"1.", b"1e", b"-", b"1e400", b"-1e400", b"\"\\ud83d\"", b"\"\\udc00\"", b"\"\\ud83dx\"",
                b"\"\\ud83d\\n\"", b"\"\\x\"", b"\"\\u12\"", b"\"\x01\"", b"\"\xff\"", b"\"unterminated", b"nul", b"tru",
                b"nullx", b"\x7f",
            ];
            const KEYS: &[&[u8]] = &[
                b"jsonrpc", b"id", b"method", b"params", b"result", b"error", b"code", b"message", b"protocolVersion",
                b"name", b"uri", b"clientInfo", b"_meta", b"io.modelcontextprotocol/protocolVersion",
                b"io.modelcontextprotocol/clientInfo", b"requestId", b"x", b"met\\u0068od", b"\xff", b"i\\d",
            ];
            match self.next(if depth > 4 { 2 } else { 5 }) {
                0 | 1 if self.next(10) == 0 => self.long_string(out),
                // The first 24 scalars are valid JSON: mostly those, so whole messages often decode.
                0 | 1 if self.next(25) > 0 => out.extend_from_slice(SCALARS[self.next(24)]),
                0 | 1 => out.extend_from_slice(self.pick(SCALARS)),
                2 => {
                    out.push(b'[');
                    for k in 0..self.next(4) {
                        if k > 0 {
                            out.push(b',');
                        }
                        self.value(out, depth + 1);
                    }
                    out.extend_from_slice(if self.next(30) == 0 { b",]" } else { b"]" });
                }
                _ => {
                    out.push(b'{');
                    for k in 0..self.next(5) {
                        if k > 0 {
                            out.extend_from_slice(if self.next(20) == 0 { b" , " } else { b"," });
                        }
                        out.push(b'"');
                        out.extend_from_slice(self.pick(KEYS));
                        out.extend_from_slice(b"\":");
                        self.value(out, depth + 1);
                    }
                    out.extend_from_slice(if self.next(30) == 0 { b",}" } else { b"}" });
                }
            }
        }

        /// A string long enough for the 64-byte steps of `scan::skip_plain`: runs of text between escapes,
        /// valid ones mostly (runs of backslashes, escaped quotes, `\u` with hex digits, surrogate pairs)
        /// and now and then a byte or escape that must stop it, at any offset from a step's start.
        fn long_string(&mut self, out: &mut Vec<u8>) {
            const VALID: &[&[u8]] = &[
                b"\\n", b"\\\"", b"\\\\", b"\\/", b"\\t", b"\\b\\f\\r", b"\\u00e9", b"\\uD83D\\uDE00", b"\\\\\\\"",
                b"\\\\\\\\", b"\xc3\xa9", b"{\\\"k\\\": [1, \\\"v\\\"]}",
            ];
            const STOPS: &[&[u8]] = &[b"\\x", b"\\u12\"", b"\\u00g0", b"\x01", b"\x1f", b"\xff", b"\\ud83d", b"\\", b"\\u"];
            out.push(b'"');
            let start = out.len();
            let len = 40 + self.next(300);
            while out.len() - start < len {
                match self.next(10) {
                    0..=2 => out.extend_from_slice(self.pick(VALID)),
                    3 if self.next(10) == 0 => out.extend_from_slice(self.pick(STOPS)),
                    _ => {
                        let c = b'a' + self.next(26) as u8;
                        let n = self.next(70);
                        out.extend(std::iter::repeat_n(c, n));
                    }
                }
            }
            if self.next(30) > 0 {
                out.push(b'"');
            }
        }

        pub(super) fn payload(&mut self) -> Vec<u8> {
            let mut out = Vec::new();
            if self.next(2) == 0 {
                // A message-shaped object: the members mcptap reads, with random values.
                out.extend_from_slice(b"{\"jsonrpc\":\"2.0\"");
                for key in [&b"id"[..], b"method", b"params", b"result", b"error"] {
                    if self.next(2) == 0 {
                        out.extend_from_slice(b",\"");
                        out.extend_from_slice(key);
                        out.extend_from_slice(b"\":");
                        match (key, self.next(4)) {
                            (b"id", 0 | 1) => out.extend_from_slice(self.pick(&[b"1", b"\"a\"", b"null", b"-3"])),
                            (b"method", 0 | 1) => out.extend_from_slice(self.pick(&[b"\"initialize\"", b"\"tools/call\"", b"null"])),
                            _ => self.value(&mut out, 1),
                        }
                    }
                }
                out.push(b'}');
            } else {
                self.value(&mut out, 0);
            }
            if self.next(8) == 0 {
                let at = self.next(out.len() + 1);
                match self.next(3) {
                    0 if at < out.len() => {
                        out.remove(at);
                    }
                    1 => out.insert(at, [b' ', b',', b'"', b'\\', b'}', b']', 0, b'\t'][self.next(8)]),
                    _ if at < out.len() => out[at] = self.next(256) as u8,
                    _ => {}
                }
            }
            if self.next(10) == 0 {
                out.extend_from_slice(b" \n");
            }
            out
        }
    }

    #[test]
    fn the_scanner_decides_as_serde_did() {
        let mut g = Gen(0x2545_f491_4f6c_dd1d);
        let (mut ok, mut not_json) = (0, 0);
        for case in 0..200_000 {
            let p = g.payload();
            let (got, want) = (oracle::comparable(parse(&p)), oracle::comparable(oracle::parse(&p)));
            assert_eq!(got, want, "case {case}: {}", String::from_utf8_lossy(&p));
            match want {
                Ok(_) => ok += 1,
                Err(ParseProblem::NotJson(_)) => not_json += 1,
                _ => {}
            }
        }
        // Both sides of the grammar were exercised.
        assert!(ok > 10_000 && not_json > 50_000, "{ok} decoded, {not_json} not JSON");
    }

    proptest::proptest! {
        #[test]
        fn parse_never_panics(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..256)) {
            let _ = parse(&bytes);
        }
    }
}
