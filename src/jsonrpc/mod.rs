//! JSON-RPC 2.0 extraction: a body or an SSE `data` payload -> the few fields of each message that the
//! MCP layer needs. Decodes with serde into small typed structs, skipping every subtree it does not need
//! (`IgnoredAny`), so a large `tools/call` result costs a scan, not a tree (JSON-RPC 2.0 §4-§6; MCP
//! `basic/index.mdx` for `_meta`).

use std::fmt;

use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

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

impl<'de> Deserialize<'de> for Id {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A visitor rather than `#[serde(untagged)]`: untagged enums buffer the value into a generic tree
        // first, which showed up as the top allocation cost in profiles.
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON-RPC id (string, number or null)")
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<Id, E> {
                Ok(Id::Num(n))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<Id, E> {
                Ok(i64::try_from(n).map(Id::Num).unwrap_or_else(|_| Id::Other(n.to_string())))
            }
            fn visit_f64<E: de::Error>(self, f: f64) -> Result<Id, E> {
                Ok(Id::Other(f.to_string()))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Id, E> {
                Ok(Id::Str(s.to_owned()))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Id, E> {
                Ok(Id::Str(s))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Id, E> {
                Ok(Id::Null)
            }
            fn visit_none<E: de::Error>(self) -> Result<Id, E> {
                Ok(Id::Null)
            }
        }
        d.deserialize_any(V)
    }
}

/// What the MCP layer needs of one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Message {
    Request { id: Id, method: String, params: Params },
    Notification { method: String, params: Params },
    Response { id: Id, result: ResultInfo },
    Error { id: Id, code: i64, message: String },
}

impl Message {
    pub fn method(&self) -> Option<&str> {
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
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Params {
    /// `initialize`: the version the client asks for.
    #[serde(rename = "protocolVersion")]
    pub protocol_version: Option<String>,
    /// `tools/call`, `prompts/get`: the name (what `Mcp-Name` must equal under 2026-07-28).
    pub name: Option<StringOrOther>,
    /// `resources/read`: the uri.
    pub uri: Option<StringOrOther>,
    #[serde(rename = "clientInfo")]
    pub client_info: Option<ClientInfo>,
    #[serde(rename = "_meta")]
    pub meta: Option<Meta>,
}

/// A value that should be a string; anything else is kept as `None` rather than failing the message.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StringOrOther(pub Option<String>);

impl<'de> Deserialize<'de> for StringOrOther {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StringOrOther;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<StringOrOther, E> {
                Ok(StringOrOther(Some(s.to_owned())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<StringOrOther, E> {
                Ok(StringOrOther(Some(s)))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<StringOrOther, E> {
                Ok(StringOrOther(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<StringOrOther, E> {
                Ok(StringOrOther(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<StringOrOther, E> {
                Ok(StringOrOther(None))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<StringOrOther, E> {
                Ok(StringOrOther(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<StringOrOther, E> {
                Ok(StringOrOther(None))
            }
            fn visit_none<E: de::Error>(self) -> Result<StringOrOther, E> {
                Ok(StringOrOther(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<StringOrOther, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(StringOrOther(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<StringOrOther, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(StringOrOther(None))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct ClientInfo {
    pub name: Option<StringOrOther>,
}

/// `_meta` of a 2026-07-28 request.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct Meta {
    #[serde(rename = "io.modelcontextprotocol/protocolVersion")]
    pub protocol_version: Option<StringOrOther>,
    #[serde(rename = "io.modelcontextprotocol/clientInfo")]
    pub client_info: Option<ClientInfo>,
}

/// The fields of `result` mcptap reads.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct ResultInfo {
    /// `initialize` result: the negotiated version.
    #[serde(rename = "protocolVersion")]
    pub protocol_version: Option<StringOrOther>,
}

#[derive(Deserialize)]
struct WireError {
    #[serde(default)]
    code: Option<i64>,
    #[serde(default)]
    message: Option<StringOrOther>,
}

/// Result that may not be an object (a bare value is legal JSON-RPC); then nothing is read from it.
#[derive(Default)]
struct AnyResult(ResultInfo);

impl<'de> Deserialize<'de> for AnyResult {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // Walks the object's keys itself: an untagged enum would first copy the whole result (a tools/list
        // can be megabytes) into a generic tree just to try the object variant.
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = AnyResult;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AnyResult, A::Error> {
                let mut info = ResultInfo::default();
                while let Some(key) = map.next_key::<Key>()? {
                    match key {
                        Key::ProtocolVersion => info.protocol_version = Some(map.next_value()?),
                        Key::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(AnyResult(info))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<AnyResult, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(AnyResult::default())
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<AnyResult, E> {
                Ok(AnyResult::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<AnyResult, E> {
                Ok(AnyResult::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<AnyResult, E> {
                Ok(AnyResult::default())
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<AnyResult, E> {
                Ok(AnyResult::default())
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<AnyResult, E> {
                Ok(AnyResult::default())
            }
            fn visit_unit<E: de::Error>(self) -> Result<AnyResult, E> {
                Ok(AnyResult::default())
            }
        }

        /// The keys of a result object mcptap reads; the rest are skipped without copying.
        enum Key {
            ProtocolVersion,
            Other,
        }
        impl<'de> Deserialize<'de> for Key {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                struct KV;
                impl Visitor<'_> for KV {
                    type Value = Key;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("an object key")
                    }
                    fn visit_str<E: de::Error>(self, s: &str) -> Result<Key, E> {
                        Ok(if s == "protocolVersion" { Key::ProtocolVersion } else { Key::Other })
                    }
                }
                d.deserialize_identifier(KV)
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Deserialize)]
struct WireMessage {
    jsonrpc: Option<IgnoredAny>,
    // `Some(Id::Null)` for `"id": null`, `None` when absent (a notification).
    #[serde(default, deserialize_with = "present")]
    id: Option<Id>,
    method: Option<String>,
    #[serde(default)]
    params: Option<Params>,
    #[serde(default)]
    result: Option<AnyResult>,
    #[serde(default)]
    error: Option<WireError>,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Id>, D::Error> {
    Id::deserialize(d).map(Some)
}

/// Why a payload gave no messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseProblem {
    /// Not JSON (or JSON nested deeper than serde_json's recursion limit).
    NotJson(String),
    /// JSON, but not a JSON-RPC 2.0 message (no `jsonrpc` member, or neither method nor result/error).
    NotJsonRpc,
    Empty,
}

/// Parsed payload: one message, or a batch (2025-03-26 only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payload {
    pub messages: Vec<Message>,
    pub batch: bool,
}

/// Decodes a body or an SSE data payload.
pub fn parse(bytes: &[u8]) -> Result<Payload, ParseProblem> {
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace());
    match first.and_then(|i| bytes.get(i)) {
        None => Err(ParseProblem::Empty),
        Some(b'[') => {
            let raw: Vec<WireMessage> =
                serde_json::from_slice(bytes).map_err(|e| ParseProblem::NotJson(e.to_string()))?;
            let messages: Vec<Message> = raw.into_iter().filter_map(convert).collect();
            if messages.is_empty() {
                return Err(ParseProblem::NotJsonRpc);
            }
            Ok(Payload { messages, batch: true })
        }
        Some(_) => {
            let raw: WireMessage =
                serde_json::from_slice(bytes).map_err(|e| ParseProblem::NotJson(e.to_string()))?;
            let m = convert(raw).ok_or(ParseProblem::NotJsonRpc)?;
            Ok(Payload { messages: vec![m], batch: false })
        }
    }
}

fn convert(w: WireMessage) -> Option<Message> {
    w.jsonrpc.as_ref()?;
    if let Some(method) = w.method {
        let params = w.params.unwrap_or_default();
        return Some(match w.id {
            Some(id) => Message::Request { id, method, params },
            None => Message::Notification { method, params },
        });
    }
    if let Some(err) = w.error {
        return Some(Message::Error {
            id: w.id.unwrap_or(Id::Null),
            code: err.code.unwrap_or(0),
            message: err.message.and_then(|m| m.0).unwrap_or_default(),
        });
    }
    let result = w.result?;
    Some(Message::Response { id: w.id.unwrap_or(Id::Null), result: result.0 })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

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

    proptest::proptest! {
        #[test]
        fn parse_never_panics(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..256)) {
            let _ = parse(&bytes);
        }
    }
}
