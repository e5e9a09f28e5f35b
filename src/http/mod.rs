//! HTTP/1.1: turns the two byte streams of a connection into request/response events, pairs them
//! (keep-alive and pipelining), decodes bodies (Content-Length, chunked, close-delimited) and parses
//! `text/event-stream` bodies into SSE events as they arrive.

use crate::time::Timestamp;

/// Header fields in wire order, names lower-cased (RFC 9110 §5.1: names are case-insensitive).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Headers(pub Vec<(String, String)>);

impl Headers {
    /// First value of a header, by lower-case name.
    pub fn get(&self, lower_name: &str) -> Option<&str> {
        self.0.iter().find(|(n, _)| n == lower_name).map(|(_, v)| v.as_str())
    }

    /// Media type without parameters, lower-cased (`text/event-stream; charset=utf-8` -> `text/event-stream`).
    pub fn content_type(&self) -> Option<String> {
        self.get("content-type").map(|v| {
            v.split(';').next().unwrap_or("").trim().to_ascii_lowercase()
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestHead {
    pub method: String,
    /// Request target as sent (path and query).
    pub target: String,
    /// HTTP minor version (1 for HTTP/1.1).
    pub version: u8,
    pub headers: Headers,
}

impl RequestHead {
    /// Path without the query string.
    pub fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResponseHead {
    pub status: u16,
    pub reason: String,
    pub version: u8,
    pub headers: Headers,
}

/// One dispatched SSE event (WHATWG HTML §9.2.6). Fields are those of this event only.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// `event:` field; `None` means the default type `message`.
    pub event: Option<String>,
    /// `data:` lines joined with `\n`.
    pub data: String,
    /// Whether any `data:` line was present (a priming event has `data:` with an empty value).
    pub has_data: bool,
    /// `id:` field of this event, if the event had one.
    pub id: Option<String>,
    /// `retry:` field, milliseconds.
    pub retry: Option<u64>,
    /// The event was cut at `Limits::max_sse_event_bytes`.
    pub truncated: bool,
}

/// How a message ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageEnd {
    /// Framing said so (Content-Length reached, last chunk, or no body).
    Complete,
    /// Close-delimited body ended by FIN (complete by RFC 9112 §6.3 rule 8).
    ClosedByFin,
    /// The connection ended (RST, FIN before the announced end, idle, end of capture) mid-message.
    Interrupted,
    /// A gap in the stream made the rest of the message unreadable.
    Gap,
}

/// Transaction index on a connection: the n-th request, and the response paired with it.
pub type TxId = u64;

/// Protocol oddities, counted and passed on (never fatal).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HttpAnomaly {
    /// Bytes that do not parse as an HTTP head; the parser skipped to the next plausible message start.
    BadHead,
    HeaderTooLarge,
    BadChunk,
    /// A response with no request to pair it with (capture started mid-connection, or lost request).
    UnpairedResponse,
    SseEventTooLarge,
    /// Data skipped while resynchronising after a gap or a midstream pickup.
    Resync,
}

/// What the HTTP layer emits, in stream order per direction.
#[derive(Debug, Clone)]
pub enum HttpEvent<'a> {
    Request { tx: TxId, head: RequestHead, frame: u64, ts: Timestamp },
    /// A slice of decoded request body (de-chunked).
    RequestBody { tx: TxId, bytes: &'a [u8], frame: u64, ts: Timestamp },
    RequestEnd { tx: TxId, end: MessageEnd, frame: u64, ts: Timestamp },
    /// `tx` is the paired request's, or `None` when no request is known.
    Response { tx: Option<TxId>, head: ResponseHead, frame: u64, ts: Timestamp },
    /// A slice of decoded body of a response that is not `text/event-stream`.
    ResponseBody { tx: Option<TxId>, bytes: &'a [u8], frame: u64, ts: Timestamp },
    /// A complete SSE event of a `text/event-stream` response; `frame` carried its terminating blank line.
    Sse { tx: Option<TxId>, event: SseEvent, frame: u64, ts: Timestamp },
    /// An SSE `:` comment line (keep-alive).
    SseComment { tx: Option<TxId>, frame: u64, ts: Timestamp },
    ResponseEnd { tx: Option<TxId>, end: MessageEnd, frame: u64, ts: Timestamp },
    Anomaly { kind: HttpAnomaly, frame: u64, ts: Timestamp },
}
