//! What the HTTP layers emit, in stream order per direction (HTTP/1.1 and HTTP/2 alike), and the counters
//! they keep for the summary: events, SSE events, how a message ended, protocol anomalies.

use std::borrow::Cow;

use super::coding::Undecoded;
use super::headers::{RequestHead, ResponseHead};
use crate::time::Timestamp;

/// One dispatched SSE event (WHATWG HTML §9.2.6). Fields are those of this event only, borrowed from the SSE
/// parser's buffers, valid until the parser is fed again; `into_owned` keeps them longer. The event type and
/// id are text (copied only where they are not valid UTF-8, to replace what is not). The data stays bytes:
/// nearly all of it is JSON-RPC, which the JSON-RPC stage reads from the bytes (checking the text it keeps);
/// decoding it as text first read every byte once more (`data_text` does, for the few that need the text).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent<'a> {
    /// `event:` field; `None` means the default type `message`.
    pub event: Option<Cow<'a, str>>,
    /// `data:` lines joined with `\n`, as they came (see `data_text`).
    pub data: Cow<'a, [u8]>,
    /// Whether any `data:` line was present (a priming event has `data:` with an empty value).
    pub has_data: bool,
    /// `id:` field of this event, if the event had one.
    pub id: Option<Cow<'a, str>>,
    /// `retry:` field, milliseconds.
    pub retry: Option<u64>,
    /// The event was cut at `Limits::max_sse_event_bytes`.
    pub truncated: bool,
}

/// UTF-8 text of wire bytes, U+FFFD for what is not valid (as the SSE and HTTP field rules decode it). The
/// validating fast path first: valid text is the norm, and `str::from_utf8` checks it a word at a time where
/// `String::from_utf8_lossy` walks it byte by byte (5 % of a profile when SSE data went through it).
pub fn lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

impl SseEvent<'_> {
    /// The data as text, decoded as §9.2.6 decodes the stream: UTF-8, U+FFFD for what is not valid.
    pub fn data_text(&self) -> Cow<'_, str> {
        lossy(&self.data)
    }

    /// The event with its text copied out of the parser.
    pub fn into_owned(self) -> SseEvent<'static> {
        SseEvent {
            event: self.event.map(|e| Cow::Owned(e.into_owned())),
            data: Cow::Owned(self.data.into_owned()),
            has_data: self.has_data,
            id: self.id.map(|i| Cow::Owned(i.into_owned())),
            retry: self.retry,
            truncated: self.truncated,
        }
    }
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
    /// The framing broke (bad chunk, or a request whose length cannot be determined: RFC 9112 §6.3
    /// rules 4 and 5); the direction resynchronises. Added by the http module.
    Malformed,
}

impl MessageEnd {
    /// Stable snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            MessageEnd::Complete => "complete",
            MessageEnd::ClosedByFin => "closed_by_fin",
            MessageEnd::Interrupted => "interrupted",
            MessageEnd::Gap => "gap",
            MessageEnd::Malformed => "malformed",
        }
    }
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
    /// Content-Length invalid or lists differing values (RFC 9112 §6.3 rule 5). Added by the http module.
    BadContentLength,
    /// Both Transfer-Encoding and Content-Length (RFC 9112 §6.3 rule 3: a request smuggling / response
    /// splitting sign). Added by the http module.
    ContentLengthWithTransferEncoding,
    /// A request's Transfer-Encoding does not end in `chunked` (RFC 9112 §6.3 rule 4). Added by the http
    /// module.
    BadTransferEncoding,
    /// More outstanding HEAD/CONNECT requests than `Limits::max_pending_per_session`; the newest one's
    /// method is forgotten. Added by the http module.
    TooManyPending,
    /// A response head whose header lines all arrived but not the empty line that ends them, when the
    /// server's direction ended: read as it stands, its message interrupted (see `HttpConnection::end`).
    UnfinishedHead,
}

impl HttpAnomaly {
    /// Number of variants (size of [`AnomalyCounts`]).
    pub const COUNT: usize = 11;

    /// Every variant, in declaration order.
    pub const ALL: [HttpAnomaly; HttpAnomaly::COUNT] = [
        HttpAnomaly::BadHead,
        HttpAnomaly::HeaderTooLarge,
        HttpAnomaly::BadChunk,
        HttpAnomaly::UnpairedResponse,
        HttpAnomaly::SseEventTooLarge,
        HttpAnomaly::Resync,
        HttpAnomaly::BadContentLength,
        HttpAnomaly::ContentLengthWithTransferEncoding,
        HttpAnomaly::BadTransferEncoding,
        HttpAnomaly::TooManyPending,
        HttpAnomaly::UnfinishedHead,
    ];

    /// Stable snake_case name (the rule vocabulary).
    pub fn as_str(self) -> &'static str {
        match self {
            HttpAnomaly::BadHead => "bad_head",
            HttpAnomaly::HeaderTooLarge => "header_too_large",
            HttpAnomaly::BadChunk => "bad_chunk",
            HttpAnomaly::UnpairedResponse => "unpaired_response",
            HttpAnomaly::SseEventTooLarge => "sse_event_too_large",
            HttpAnomaly::Resync => "resync",
            HttpAnomaly::BadContentLength => "bad_content_length",
            HttpAnomaly::ContentLengthWithTransferEncoding => "content_length_with_transfer_encoding",
            HttpAnomaly::BadTransferEncoding => "bad_transfer_encoding",
            HttpAnomaly::TooManyPending => "too_many_pending",
            HttpAnomaly::UnfinishedHead => "unfinished_head",
        }
    }

    fn index(self) -> usize {
        match self {
            HttpAnomaly::BadHead => 0,
            HttpAnomaly::HeaderTooLarge => 1,
            HttpAnomaly::BadChunk => 2,
            HttpAnomaly::UnpairedResponse => 3,
            HttpAnomaly::SseEventTooLarge => 4,
            HttpAnomaly::Resync => 5,
            HttpAnomaly::BadContentLength => 6,
            HttpAnomaly::ContentLengthWithTransferEncoding => 7,
            HttpAnomaly::BadTransferEncoding => 8,
            HttpAnomaly::TooManyPending => 9,
            HttpAnomaly::UnfinishedHead => 10,
        }
    }
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
    Sse { tx: Option<TxId>, event: SseEvent<'a>, frame: u64, ts: Timestamp },
    /// `len` decoded body bytes of a `text/event-stream` response went to the SSE parser (its events follow
    /// as `Sse`). Only the length: it lets a transaction log count SSE body bytes as for any body.
    SseBody { tx: Option<TxId>, len: usize, frame: u64, ts: Timestamp },
    /// An SSE `:` comment line (keep-alive).
    SseComment { tx: Option<TxId>, frame: u64, ts: Timestamp },
    /// A blank line of an SSE stream that dispatched no event: the stream is not silent.
    SseBlank { tx: Option<TxId>, frame: u64, ts: Timestamp },
    ResponseEnd { tx: Option<TxId>, end: MessageEnd, frame: u64, ts: Timestamp },
    /// The response to request `tx` was lost to a capture gap (its head, or all of it): nothing else
    /// will be paired with `tx` (see the module's gap policy).
    ResponseLost { tx: TxId, frame: u64, ts: Timestamp },
    /// A request (its head, or all of it) was lost to a capture gap: `tx` stands in for it, so its
    /// response, when seen, is paired with `tx` and no `Request` event.
    RequestLost { tx: TxId, frame: u64, ts: Timestamp },
    Anomaly { kind: HttpAnomaly, frame: u64, ts: Timestamp },
    /// `len` bytes of a request body were lost in a capture gap; the body goes on after them (its
    /// framing was known). Added by the http module.
    RequestBodyGap { tx: TxId, len: u64, frame: u64, ts: Timestamp },
    /// `len` bytes of a (non-SSE) response body were lost in a capture gap; the body goes on after them.
    /// Added by the http module.
    ResponseBodyGap { tx: Option<TxId>, len: u64, frame: u64, ts: Timestamp },
    /// The request body's codings (`coding`: the Content-Encoding and transfer codings as written) could
    /// not be undone, for `reason`: nothing more of the body is delivered (what came before was
    /// decoded and stays valid). At most one per message, before its end.
    RequestUndecoded { tx: TxId, coding: String, reason: Undecoded, frame: u64, ts: Timestamp },
    /// The same for a response body (an SSE stream's events stop there).
    ResponseUndecoded { tx: Option<TxId>, coding: String, reason: Undecoded, frame: u64, ts: Timestamp },
    /// HTTP/2: transaction `tx` is carried by stream `stream` (right after its `Request`, or at the h2c
    /// upgrade for stream 1). For logs; the exchange itself is the same as over HTTP/1.1.
    H2Stream { tx: TxId, stream: u32, frame: u64, ts: Timestamp },
}

impl HttpEvent<'_> {
    /// The event kept past its packet: `None` for a body slice, which is read where it lies.
    pub fn into_owned(self) -> Option<HttpEvent<'static>> {
        use HttpEvent as H;
        Some(match self {
            H::Request { tx, head, frame, ts } => H::Request { tx, head, frame, ts },
            H::RequestEnd { tx, end, frame, ts } => H::RequestEnd { tx, end, frame, ts },
            H::Response { tx, head, frame, ts } => H::Response { tx, head, frame, ts },
            H::Sse { tx, event, frame, ts } => H::Sse { tx, event: event.into_owned(), frame, ts },
            H::SseBody { tx, len, frame, ts } => H::SseBody { tx, len, frame, ts },
            H::SseComment { tx, frame, ts } => H::SseComment { tx, frame, ts },
            H::SseBlank { tx, frame, ts } => H::SseBlank { tx, frame, ts },
            H::ResponseEnd { tx, end, frame, ts } => H::ResponseEnd { tx, end, frame, ts },
            H::ResponseLost { tx, frame, ts } => H::ResponseLost { tx, frame, ts },
            H::RequestLost { tx, frame, ts } => H::RequestLost { tx, frame, ts },
            H::Anomaly { kind, frame, ts } => H::Anomaly { kind, frame, ts },
            H::RequestBodyGap { tx, len, frame, ts } => H::RequestBodyGap { tx, len, frame, ts },
            H::ResponseBodyGap { tx, len, frame, ts } => H::ResponseBodyGap { tx, len, frame, ts },
            H::RequestUndecoded { tx, coding, reason, frame, ts } => H::RequestUndecoded { tx, coding, reason, frame, ts },
            H::ResponseUndecoded { tx, coding, reason, frame, ts } => H::ResponseUndecoded { tx, coding, reason, frame, ts },
            H::H2Stream { tx, stream, frame, ts } => H::H2Stream { tx, stream, frame, ts },
            H::RequestBody { .. } | H::ResponseBody { .. } => return None,
        })
    }
}

/// Anomaly counters by kind (no allocation).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AnomalyCounts([u64; HttpAnomaly::COUNT]);

impl AnomalyCounts {
    pub fn get(&self, kind: HttpAnomaly) -> u64 {
        self.0.get(kind.index()).copied().unwrap_or_default()
    }

    pub fn total(&self) -> u64 {
        self.0.iter().fold(0u64, |a, &b| a.saturating_add(b))
    }

    /// Non-zero counters, in [`HttpAnomaly::ALL`] order (deterministic).
    pub fn iter(&self) -> impl Iterator<Item = (HttpAnomaly, u64)> + '_ {
        HttpAnomaly::ALL.iter().map(|&k| (k, self.get(k))).filter(|&(_, n)| n > 0)
    }

    pub(super) fn add(&mut self, kind: HttpAnomaly) {
        if let Some(c) = self.0.get_mut(kind.index()) {
            *c = c.saturating_add(1);
        }
    }
}

/// Counters of one connection (or, merged, of a capture) for the summary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpStats {
    /// Request heads parsed.
    pub requests: u64,
    /// Final (non-1xx) response heads parsed, paired or not.
    pub responses: u64,
    /// 1xx response heads.
    pub informational: u64,
    /// Connections that switched protocols (101) or became a CONNECT tunnel; parsing stopped there.
    pub upgrades: u64,
    /// Decoded body bytes delivered (for SSE responses: fed to the SSE parser).
    pub request_body_bytes: u64,
    pub response_body_bytes: u64,
    pub sse_events: u64,
    pub sse_comments: u64,
    /// SSE events half-received when their stream ended, dropped (WHATWG HTML §9.2.6).
    pub sse_partial_dropped: u64,
    /// Gaps reported by reassembly, and their bytes.
    pub gaps: u64,
    pub gap_bytes: u64,
    /// Gap bytes inside bodies of known length: skipped, the body went on.
    pub body_gap_bytes: u64,
    /// Bytes discarded while resynchronising (non-message bytes, malformed or oversized heads).
    pub resync_skipped_bytes: u64,
    /// Unfinished heads dropped at a gap or at the end of a direction.
    pub partial_heads_dropped: u64,
    /// Header fields past `head::MAX_HEADERS`, counted and dropped.
    pub headers_dropped: u64,
    /// Bytes not parsed as HTTP: after a protocol switch or tunnel, or after the direction ended.
    pub opaque_bytes: u64,
    pub anomalies: AnomalyCounts,
}

impl HttpStats {
    /// Adds another connection's counters.
    pub fn merge(&mut self, o: &HttpStats) {
        let pairs: [(&mut u64, u64); 16] = [
            (&mut self.requests, o.requests),
            (&mut self.responses, o.responses),
            (&mut self.informational, o.informational),
            (&mut self.upgrades, o.upgrades),
            (&mut self.request_body_bytes, o.request_body_bytes),
            (&mut self.response_body_bytes, o.response_body_bytes),
            (&mut self.sse_events, o.sse_events),
            (&mut self.sse_comments, o.sse_comments),
            (&mut self.sse_partial_dropped, o.sse_partial_dropped),
            (&mut self.gaps, o.gaps),
            (&mut self.gap_bytes, o.gap_bytes),
            (&mut self.body_gap_bytes, o.body_gap_bytes),
            (&mut self.resync_skipped_bytes, o.resync_skipped_bytes),
            (&mut self.partial_heads_dropped, o.partial_heads_dropped),
            (&mut self.headers_dropped, o.headers_dropped),
            (&mut self.opaque_bytes, o.opaque_bytes),
        ];
        for (mine, theirs) in pairs {
            *mine = mine.saturating_add(theirs);
        }
        for (mine, theirs) in self.anomalies.0.iter_mut().zip(o.anomalies.0.iter()) {
            *mine = mine.saturating_add(*theirs);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conn_anomaly_names_are_unique() {
        let mut names: Vec<&str> = HttpAnomaly::ALL.iter().map(|a| a.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), HttpAnomaly::COUNT);
        for (i, a) in HttpAnomaly::ALL.iter().enumerate() {
            assert_eq!(a.index(), i);
        }
    }

}
