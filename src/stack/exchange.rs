//! What a connection's layer stack hands the session stage (`mcp`): HTTP heads and ends, the JSON-RPC
//! messages of bodies and SSE events already decoded by the connection's JSON-RPC stage (`rpc`), and what
//! the connection lost or how it ended. Never a body byte: the session stage judges exchanges, not bytes.

use std::net::SocketAddr;

use crate::decode::flow_key::Direction;
use crate::http::{HttpEvent, SseEvent, TxId};
use crate::jsonrpc::{Messages, ParseProblem, Payload};
use crate::reassembly::EndReason;
use crate::time::Timestamp;

/// One event of one connection, in the order its layers produced it.
#[derive(Debug)]
pub enum Exchange<'a> {
    /// The connection opened: `client` is the SYN sender, or the guess for a pickup the capture did not
    /// see begin (`midstream`: what passed on it before is unknown).
    Open { client: SocketAddr, server: SocketAddr, midstream: bool },
    /// An HTTP event that carries no body: heads, message ends, SSE comments, losses, anomalies, codings
    /// that could not be undone. Bodies and SSE events come as the variants below.
    Http(HttpEvent<'a>),
    /// A request body's JSON-RPC, decoded once: at the request's end, or when its response began first
    /// (what had arrived by then). Not sent for a request without body bytes.
    RequestBody { tx: TxId, body: Body },
    /// A response body's JSON-RPC, decoded at its end: for `application/json` bodies, and for the first
    /// [`ERROR_BODY_BYTES`] of error bodies of other types (servers answer errors as JSON-RPC under any
    /// type). Sent just before the response's `ResponseEnd`, or before `Close` if it never ended.
    ResponseBody { tx: Option<TxId>, body: Body, text: Option<BodyText> },
    /// An SSE event of a `text/event-stream` response; `payload` is its data decoded as JSON-RPC, `None`
    /// when it has no data or only whitespace. The event keeps its text: an HTTP+SSE `endpoint` event's
    /// data is a URL, not JSON.
    Sse { tx: Option<TxId>, event: SseEvent<'a>, payload: Option<Result<Payload, ParseProblem>>, frame: u64, ts: Timestamp },
    /// `len` bytes of `dir` the capture never showed, noticed at `frame`: exchanges open on the
    /// connection may have lost their parts (TCP gap). `cut`: the snap length cut them from records the
    /// capture holds.
    Lost { dir: Direction, len: u64, cut: bool, frame: u64 },
    /// The capture lost sight of the connection: its peers' acknowledgements went missing, so what it
    /// does not show from then on may be the capture's loss.
    Unacked,
    /// A direction ended (before HTTP ends the messages it carried, so streams know who closed first).
    Ended { dir: Direction, reason: EndReason },
    /// The connection is gone; every message on it has ended.
    Close { ts: Timestamp },
}

impl Exchange<'_> {
    /// The exchange kept past its packet (an answer held for its request's end): `None` for an HTTP body
    /// slice, which never leaves the JSON-RPC stage.
    pub fn into_owned(self) -> Option<Exchange<'static>> {
        Some(match self {
            Exchange::Http(ev) => Exchange::Http(ev.into_owned()?),
            Exchange::Sse { tx, event, payload, frame, ts } => Exchange::Sse { tx, event: event.into_owned(), payload, frame, ts },
            Exchange::Open { client, server, midstream } => Exchange::Open { client, server, midstream },
            Exchange::RequestBody { tx, body } => Exchange::RequestBody { tx, body },
            Exchange::ResponseBody { tx, body, text } => Exchange::ResponseBody { tx, body, text },
            Exchange::Lost { dir, len, cut, frame } => Exchange::Lost { dir, len, cut, frame },
            Exchange::Unacked => Exchange::Unacked,
            Exchange::Ended { dir, reason } => Exchange::Ended { dir, reason },
            Exchange::Close { ts } => Exchange::Close { ts },
        })
    }
}

/// Error bodies of a type other than `application/json` decoded for JSON-RPC: the first this many bytes.
pub const ERROR_BODY_BYTES: usize = 4096;

/// What an answer's body says as text, for the evidence of an error or of a GET's answer: kept for
/// responses with status 400 or more and answers to GETs, whose body the session stage quotes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BodyText {
    /// Only whitespace (or nothing).
    pub blank: bool,
    /// Starts with `<` (HTML or XML).
    pub markup: bool,
    /// The first line that is not blank, trimmed, at most [`FIRST_LINE_CHARS`] characters; of a JSON
    /// object that carries a framework's error message, that message's first line.
    pub first_line: String,
}

/// Characters of a body's first line kept as evidence.
pub const FIRST_LINE_CHARS: usize = 120;

impl BodyText {
    pub fn of(body: &[u8]) -> BodyText {
        let text = String::from_utf8_lossy(body);
        let message = framework_message(&text);
        let shown = message.as_deref().unwrap_or(&text);
        BodyText {
            blank: body.iter().all(u8::is_ascii_whitespace),
            markup: text.trim_start().starts_with('<'),
            first_line: shown.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("").chars().take(FIRST_LINE_CHARS).collect(),
        }
    }
}

/// The message of a web framework's JSON error object, which is not JSON-RPC: Fastify's and Spring's
/// `message`, FastAPI's `detail`, OAuth's `error_description`, a bare `error` string or an `error` object's
/// `message`. The object's first line would show its keys and cut the message off (Fastify's
/// `{"statusCode":400,"code":"FST_ERR_CTP_EMPTY_JSON_BODY","error":"Bad Request","message":"Body cannot be
/// empty when content-type is set to 'application/json'"}`, samples/ecosystem/jsservers4-fastify-stateful.pcap),
/// and what the message says decides whether a rejection names its cause.
fn framework_message(text: &str) -> Option<String> {
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let serde_json::Value::Object(o) = serde_json::from_str::<serde_json::Value>(text).ok()? else { return None };
    let string = |k: &str| o.get(k).and_then(serde_json::Value::as_str).filter(|m| !m.trim().is_empty());
    string("message")
        .or_else(|| string("detail"))
        .or_else(|| string("error_description"))
        .or_else(|| string("error"))
        .or_else(|| o.get("error").and_then(|e| e.get("message")).and_then(serde_json::Value::as_str))
        .map(str::to_string)
}

/// A body as the JSON-RPC stage found it.
// The one message of a body is held inline (no allocation per body); the value is moved, not copied
// around, a few times on its way to the session stage.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Body {
    /// No bytes.
    #[default]
    Empty,
    /// Larger than `Limits::max_body_bytes`: not decoded.
    OverCap,
    /// Not JSON-RPC (not JSON, or JSON without a JSON-RPC message).
    Undecodable,
    Messages(Messages),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_framework_error_object_is_quoted_by_its_message() {
        let fastify = br#"{"statusCode":400,"code":"FST_ERR_CTP_EMPTY_JSON_BODY","error":"Bad Request","message":"Body cannot be empty when content-type is set to 'application/json'"}"#;
        assert_eq!(BodyText::of(fastify).first_line, "Body cannot be empty when content-type is set to 'application/json'");
        assert_eq!(BodyText::of(br#"{"detail":"Not Found"}"#).first_line, "Not Found");
        assert_eq!(BodyText::of(br#"{"error":"invalid_token","error_description":"expired"}"#).first_line, "expired");
        assert_eq!(BodyText::of(br#"{"error":{"message":"Session gone\nretry"}}"#).first_line, "Session gone");
        assert_eq!(BodyText::of(br#"{"error":"Session not found"}"#).first_line, "Session not found");
    }

    #[test]
    fn other_bodies_are_quoted_by_their_first_line() {
        // No message key, an array, broken JSON, plain text: the first line as written.
        assert_eq!(BodyText::of(br#"{"ok":false}"#).first_line, r#"{"ok":false}"#);
        assert_eq!(BodyText::of(br#"[{"message":"x"}]"#).first_line, r#"[{"message":"x"}]"#);
        assert_eq!(BodyText::of(b"{\"message\":\"cut").first_line, "{\"message\":\"cut");
        assert_eq!(BodyText::of(b"\n  Bad Request\nmore").first_line, "Bad Request");
        assert_eq!(BodyText::of(br#"{"message":"  "}"#).first_line, r#"{"message":"  "}"#);
    }
}
