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
    /// The first line that is not blank, trimmed, at most [`FIRST_LINE_CHARS`] characters.
    pub first_line: String,
}

/// Characters of a body's first line kept as evidence.
pub const FIRST_LINE_CHARS: usize = 120;

impl BodyText {
    pub fn of(body: &[u8]) -> BodyText {
        let text = String::from_utf8_lossy(body);
        BodyText {
            blank: body.iter().all(u8::is_ascii_whitespace),
            markup: text.trim_start().starts_with('<'),
            first_line: text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("").chars().take(FIRST_LINE_CHARS).collect(),
        }
    }
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
