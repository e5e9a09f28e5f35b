//! The serde decoding the scanner replaced, kept as the test oracle: `parse` here and `super::parse`
//! must agree on every input, as `comparable` sees them (`super::tests`, `fuzz/fuzz_targets/jsonrpc.rs`).

use std::fmt;

use serde::de::{self, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

#[derive(Deserialize)]
struct WireError {
    #[serde(default)]
    code: Option<i64>,
    #[serde(default)]
    message: Option<StringOrOther>,
}

use super::{Id, IdOrOther, Message, ParseProblem, Params, Payload, ResultInfo, StringOrOther};

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

impl<'de> Deserialize<'de> for IdOrOther {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = IdOrOther;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<IdOrOther, E> {
                Ok(IdOrOther(Some(Id::Str(s.to_owned()))))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<IdOrOther, E> {
                Ok(IdOrOther(Some(Id::Str(s))))
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<IdOrOther, E> {
                Ok(IdOrOther(Some(Id::Num(n))))
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<IdOrOther, E> {
                Ok(IdOrOther(Some(i64::try_from(n).map(Id::Num).unwrap_or_else(|_| Id::Other(n.to_string())))))
            }
            fn visit_f64<E: de::Error>(self, f: f64) -> Result<IdOrOther, E> {
                Ok(IdOrOther(Some(Id::Other(f.to_string()))))
            }
            fn visit_bool<E: de::Error>(self, _: bool) -> Result<IdOrOther, E> {
                Ok(IdOrOther(None))
            }
            fn visit_unit<E: de::Error>(self) -> Result<IdOrOther, E> {
                Ok(IdOrOther(None))
            }
            fn visit_none<E: de::Error>(self) -> Result<IdOrOther, E> {
                Ok(IdOrOther(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<IdOrOther, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(IdOrOther(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<IdOrOther, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(IdOrOther(None))
            }
        }
        d.deserialize_any(V)
    }
}

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
    #[serde(default, deserialize_with = "named_params")]
    params: Option<Params>,
    // Any result answers, null included (JSON-RPC 2.0 §5).
    #[serde(default, deserialize_with = "any_result")]
    result: Option<AnyResult>,
    #[serde(default)]
    error: Option<WireError>,
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Id>, D::Error> {
    Id::deserialize(d).map(Some)
}

fn any_result<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<AnyResult>, D::Error> {
    AnyResult::deserialize(d).map(Some)
}

/// `params`: null is absent, an object is read by name, and an array (parameters by position, JSON-RPC 2.0
/// §4.2) names nothing.
fn named_params<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Params>, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Option<Params>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("params: an object, an array or null")
        }
        fn visit_unit<E: de::Error>(self) -> Result<Option<Params>, E> {
            Ok(None)
        }
        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Option<Params>, A::Error> {
            Params::deserialize(de::value::MapAccessDeserializer::new(map)).map(Some)
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Option<Params>, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Some(Params::default()))
        }
    }
    d.deserialize_any(V)
}


/// Decodes a payload with serde, as mcptap did before the scanner.
pub fn parse(bytes: &[u8]) -> Result<Payload, ParseProblem> {
    let first = bytes.iter().position(|b| !b.is_ascii_whitespace());
    match first.and_then(|i| bytes.get(i)) {
        None => Err(ParseProblem::Empty),
        Some(b'[') => {
            let raw: Vec<WireMessage> =
                serde_json::from_slice(bytes).map_err(|e| ParseProblem::NotJson(e.to_string()))?;
            let messages: super::Messages = raw.into_iter().filter_map(convert).collect();
            if messages.is_empty() {
                return Err(ParseProblem::NotJsonRpc);
            }
            Ok(Payload { messages, batch: true })
        }
        Some(_) => {
            let raw: WireMessage =
                serde_json::from_slice(bytes).map_err(|e| ParseProblem::NotJson(e.to_string()))?;
            let m = convert(raw).ok_or(ParseProblem::NotJsonRpc)?;
            Ok(Payload { messages: smallvec::smallvec![m], batch: false })
        }
    }
}

fn convert(w: WireMessage) -> Option<Message> {
    w.jsonrpc.as_ref()?;
    if let Some(method) = w.method {
        let params = w.params.unwrap_or_default();
        return Some(match w.id {
            Some(id) => Message::Request { id, method: method.into(), params },
            None => Message::Notification { method: method.into(), params },
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


/// A decision as the oracle and the scanner are compared: errors by kind (the scanner's messages are its
/// own), float ids by kind too (their text is Rust's formatting of the f64, which past 15 significant
/// digits can differ from serde's: `scan` does not mirror it; simple floats are checked in
/// `parse_result_keys_around_large_subtrees`).
pub fn comparable(r: Result<Payload, ParseProblem>) -> Result<Payload, ParseProblem> {
    match r {
        Err(ParseProblem::NotJson(_)) => Err(ParseProblem::NotJson(String::new())),
        Ok(mut p) => {
            for m in &mut p.messages {
                if let Message::Request { id: Id::Other(s), .. } | Message::Response { id: Id::Other(s), .. } | Message::Error { id: Id::Other(s), .. } = m {
                    *s = String::from("float");
                }
                if let Message::Request { params, .. } | Message::Notification { params, .. } = m {
                    if let Some(IdOrOther(Some(Id::Other(s)))) = &mut params.request_id {
                        *s = String::from("float");
                    }
                }
            }
            Ok(p)
        }
        other => other,
    }
}
