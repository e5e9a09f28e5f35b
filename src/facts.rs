//! Facts: the typed vocabulary between the classifier and the rules. The classifier emits a `Fact` when
//! something notable happens in a session; rules see only facts, never bytes. Each fact kind has a stable
//! snake_case name and a fixed list of typed fields (its schema), checked when rules load.

use std::borrow::Cow;
use std::sync::Arc;
use std::net::SocketAddr;

use crate::time::Timestamp;

/// A field's type in the schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    Str,
    Int,
    Bool,
    IntList,
}

impl FieldType {
    pub fn as_str(self) -> &'static str {
        match self {
            FieldType::Str => "string",
            FieldType::Int => "int",
            FieldType::Bool => "bool",
            FieldType::IntList => "list(int)",
        }
    }
}

/// A field's value, as rules see it: text and lists borrowed from the fact, so the guard that turns most
/// facts away reads them without a copy.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldValue<'a> {
    Str(Cow<'a, str>),
    Int(i64),
    Bool(bool),
    IntList(Cow<'a, [i64]>),
}

impl std::fmt::Display for FieldValue<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FieldValue::Str(s) => f.write_str(s),
            FieldValue::Int(n) => write!(f, "{n}"),
            FieldValue::Bool(b) => write!(f, "{b}"),
            FieldValue::IntList(v) => {
                let items: Vec<String> = v.iter().map(i64::to_string).collect();
                write!(f, "[{}]", items.join(", "))
            }
        }
    }
}

/// The transport era of a session (INCIDENTS.md, Vocabulary).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Era {
    #[default]
    Unknown,
    HttpSse2024,
    Streamable2025,
    Stateless2026,
}

impl Era {
    pub fn as_str(self) -> &'static str {
        match self {
            Era::Unknown => "unknown",
            Era::HttpSse2024 => "http+sse-2024-11-05",
            Era::Streamable2025 => "streamable-2025",
            Era::Stateless2026 => "stateless-2026-07-28",
        }
    }
}

/// Where and when a fact was seen; common to every kind. The fields marked "rule-visible" are also
/// variables of every rule condition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactContext {
    pub ts: Timestamp,
    /// Identity of the session for aggregation (unique per session, not shown). Shared with the session
    /// (as are `session_id`, `host` and `version`): a fact costs no copy of them.
    pub session_key: Arc<str>,
    /// rule-visible `session_id`: `Mcp-Session-Id`, the HTTP+SSE session parameter, or `-`.
    pub session_id: Arc<str>,
    pub client: SocketAddr,
    pub server: SocketAddr,
    /// rule-visible `host`.
    pub host: Arc<str>,
    /// rule-visible `endpoint`: request path without query.
    pub endpoint: Arc<str>,
    /// rule-visible `era`.
    pub era: Era,
    /// rule-visible `version`: negotiated protocol version, or `""`.
    pub version: Arc<str>,
    /// Frames proving the fact, most telling first.
    pub frames: Vec<u64>,
    /// rule-visible `crosses_gap`: part of the evidence's streams were lost to capture gaps.
    pub crosses_gap: bool,
}

/// The context fields every rule may use, with their types.
pub const CONTEXT_FIELDS: &[(&str, FieldType)] = &[
    ("session_id", FieldType::Str),
    ("has_session_id", FieldType::Bool),
    ("host", FieldType::Str),
    ("endpoint", FieldType::Str),
    ("era", FieldType::Str),
    ("version", FieldType::Str),
    ("crosses_gap", FieldType::Bool),
];

impl FactContext {
    pub fn field(&self, name: &str) -> Option<FieldValue<'_>> {
        Some(match name {
            "session_id" => FieldValue::Str(Cow::Borrowed(&self.session_id)),
            "has_session_id" => FieldValue::Bool(&*self.session_id != "-"),
            "host" => FieldValue::Str(Cow::Borrowed(&self.host)),
            "endpoint" => FieldValue::Str(Cow::Borrowed(&self.endpoint)),
            "era" => FieldValue::Str(Cow::Borrowed(self.era.as_str())),
            "version" => FieldValue::Str(Cow::Borrowed(&self.version)),
            "crosses_gap" => FieldValue::Bool(self.crosses_gap),
            _ => return None,
        })
    }
}

/// Declares the fact kinds: one struct per kind, its schema and a field getter, from one list, so the
/// schema can never drift from the data.
macro_rules! facts {
    ($( $(#[$doc:meta])* $ty:ident $name:literal { $( $(#[$fdoc:meta])* $field:ident : $fty:ident ),* $(,)? } )*) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, PartialEq, Eq, Default)]
            pub struct $ty { $( $(#[$fdoc])* pub $field: facts!(@rust $fty) ),* }

            impl $ty {
                pub const NAME: &'static str = $name;
                pub const FIELDS: &'static [(&'static str, FieldType)] = &[ $( (stringify!($field), FieldType::$fty) ),* ];
                pub fn field(&self, name: &str) -> Option<FieldValue<'_>> {
                    match name {
                        $( stringify!($field) => Some(facts!(@value $fty, &self.$field)), )*
                        _ => None,
                    }
                }
            }
        )*

        /// One notable thing the classifier saw.
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub enum FactKind { $( $ty($ty) ),* }

        impl FactKind {
            pub fn name(&self) -> &'static str {
                match self { $( FactKind::$ty(_) => $ty::NAME ),* }
            }
            pub fn field(&self, name: &str) -> Option<FieldValue<'_>> {
                match self { $( FactKind::$ty(f) => f.field(name) ),* }
            }
        }

        /// Every fact kind: name and schema (kind-specific fields; `CONTEXT_FIELDS` come on top).
        pub const KINDS: &[(&str, &[(&str, FieldType)])] = &[ $( ($ty::NAME, $ty::FIELDS) ),* ];
    };
    (@rust Str) => { Cow<'static, str> };
    (@rust Int) => { i64 };
    (@rust Bool) => { bool };
    (@rust IntList) => { Vec<i64> };
    (@value Str, $e:expr) => { FieldValue::Str(Cow::Borrowed(&**$e)) };
    (@value Int, $e:expr) => { FieldValue::Int(*$e) };
    (@value Bool, $e:expr) => { FieldValue::Bool(*$e) };
    (@value IntList, $e:expr) => { FieldValue::IntList(Cow::Borrowed($e.as_slice())) };
}

facts! {
    /// A POST response's content type differs from the previous POST response's in the same session.
    /// For an SSE response the fact is judged once: when the JSON-RPC reply to the POST arrives on the
    /// stream, or when the stream ends, whichever is first; `cursor` is the stream's id cursor state then.
    ResponseShift "response_shift" {
        /// Previous POST response content type (`application/json`, `text/event-stream`).
        from: Str,
        /// This response's content type.
        to: Str,
        /// JSON-RPC method of the POST (first request in the body), or `""`.
        method: Str,
        /// HTTP status of this response.
        status: Int,
        /// `application/json` POST responses in the session before this one.
        json_before: Int,
        /// `text/event-stream` POST responses in the session before this one.
        sse_before: Int,
        /// A 4xx/5xx was answered in the session since the previous POST response (not counting 405 to a
        /// GET or DELETE, the specification's answer where no standalone stream or session end is offered).
        error_between: Bool,
        /// The `Mcp-Session-Id` of the request differs from the previous response's (rotation).
        session_id_changed: Bool,
        /// Id cursor state of this SSE stream: none, ordered, unordered-unique, regressing (or `""` for JSON).
        cursor: Str,
        /// SSE events seen on this stream when judged.
        events: Int,
        /// Events that carried an `id:` line.
        ids: Int,
        /// The stream was judged at its end rather than at the reply.
        judged_at_end: Bool,
        /// JSON-RPC requests and notifications the server sent on this stream before the reply
        /// (progress, logging, sampling): more than 0 is per-request streaming (docs/incidents.md, Vocabulary).
        server_messages: Int,
        /// The stream carried nothing but its reply (priming events and comments aside): the server
        /// streamed with nothing to stream.
        single_message: Bool,
        /// `Server` header (and `Via`, after `|`) of the previous response and this one.
        server_before: Str,
        server_now: Str,
        server_changed: Bool,
        /// Frame of the previous POST response head.
        prev_frame: Int,
        /// Frame of this response head.
        frame: Int,
        /// Server bytes of this exchange were lost to a capture gap before it was judged, or the capture
        /// stopped watching the stream while it was open: the events, ids and reply the stream did not show
        /// may be the capture's loss (reported by CAPTURE-GAPS).
        capture_loss: Bool,
    }

    /// An SSE response stream (POST reply or GET stream) ended. Emitted for every SSE stream.
    StreamEnd "stream_end" {
        /// `post` (reply to a POST) or `get` (standalone or resumed GET stream).
        kind: Str,
        status: Int,
        /// How it ended: complete (last chunk), fin, rst, interrupted, gap, idle, end-of-capture.
        reason: Str,
        /// Who closed first: server, client, or unknown (the capture ended, or framing ended it).
        closed_by: Str,
        events: Int,
        ids: Int,
        cursor: Str,
        /// JSON-RPC requests still without a response when the stream ended: the POST's, or for the GET
        /// stream of an HTTP+SSE session, the requests POSTed to it and accepted (202) that it still owed.
        pending: Int,
        /// `:` comment lines (keep-alives) seen, but a first one within a second of the head: it opens the
        /// stream and keeps nothing alive.
        keepalives: Int,
        /// From response head to end, milliseconds of capture time.
        duration_ms: Int,
        /// Longest silence between the head, events, comments, blank lines that end no event (bare-newline
        /// keep-alives) and the end, milliseconds.
        max_silence_ms: Int,
        /// The stream carried a `retry:` field (2025-11-25 polling).
        retry_seen: Bool,
        /// The response had `X-Accel-Buffering: no`.
        x_accel_no: Bool,
        /// Server bytes of this exchange were lost to a capture gap before the stream ended (or its
        /// response head may lie in one), or the capture stopped watching it while it was open (end of
        /// capture, eviction at the connection cap): what is missing may be the capture's loss, not the
        /// peer's (reported by CAPTURE-GAPS).
        capture_loss: Bool,
        /// Events that arrived within 100 ms after the longest silence before an event (a flushed buffer).
        burst_events: Int,
        /// That silence, milliseconds.
        burst_silence_ms: Int,
    }

    /// A JSON-RPC request still without a response, reported at the ages the rules on this fact name as
    /// their `timer` parameter (seconds of capture time) while its stream or connection is open.
    RequestWaiting "request_waiting" {
        method: Str,
        /// The JSON-RPC id as written (`7`, `"a"`).
        id: Str,
        waiting_secs: Int,
        /// Server bytes were lost to a capture gap while the request waited: its answer may lie in the gap
        /// (reported by CAPTURE-GAPS).
        capture_loss: Bool,
    }

    /// An SSE event id broke the cursor rules: it repeated in the session or went backwards on its stream.
    EventIdAnomaly "event_id" {
        /// `repeat` or `backwards`.
        anomaly: Str,
        id: Str,
        /// The previous id on this stream, or `""`; on a resumption's first id, the cursor it resumed from
        /// (a resumed stream continues the one its `Last-Event-ID` came from).
        previous: Str,
        /// A repeat of an id first issued on the same stream.
        same_stream: Bool,
        /// The stream is a resumption (GET with `Last-Event-ID`) and the id was issued at or before the
        /// cursor for the same event (its data unchanged): a replay. An old id on a new event is a reuse.
        replay: Bool,
        /// The `Last-Event-ID` the stream resumed from, or `""`.
        last_event_id: Str,
    }

    /// A GET stream request in a session: a resumption with `Last-Event-ID`, or a reconnect without one.
    Resume "resume" {
        last_event_id: Str,
        has_cursor: Bool,
        /// The cursor is an id some stream of the session issued.
        known: Bool,
        /// Some stream of the session carried ids before this GET.
        session_had_ids: Bool,
        /// A GET stream of the session, or a POST stream before its response, ended before this GET: the
        /// GET reconnects.
        reconnect: Bool,
    }

    /// A JSON-RPC response id was delivered again after an earlier delivery of the same id in the session
    /// (or stateless exchange key).
    DuplicateResponse "duplicate_response" {
        id: Str,
        /// Both deliveries on one stream.
        same_stream: Bool,
        first_frame: Int,
        /// A request with this id was outstanding (sent and not yet answered) when this reply arrived: the
        /// id was reused by a new request, which JSON-RPC allows once the earlier one is answered.
        outstanding: Bool,
        /// HTTP may have paired the reply's response with the wrong request: on a connection where a capture
        /// gap took a response or whose start the capture missed (RFC 9112 §9.3.2 pairs by order only), the
        /// reply answers no request of its exchange, or its response names another session than its request,
        /// or the exchange lost server bytes. The earlier delivery may be another exchange's.
        capture_loss: Bool,
    }

    /// An HTTP response with status >= 400 to a request of an MCP session or on an MCP endpoint.
    ErrorResponse "error_response" {
        status: Int,
        http_method: Str,
        /// JSON-RPC method of the request, or `""`.
        rpc_method: Str,
        content_type: Str,
        /// The body: `jsonrpc` (a JSON-RPC error object), `json` (other JSON), `html`, `text`, `empty`,
        /// `cut-short` (none: the connection ended before the body its head announced), or `undecoded` (its
        /// Content-Encoding could not be undone).
        body: Str,
        /// JSON-RPC error code, or 0.
        rpc_code: Int,
        /// JSON-RPC id of the error as written, or `""`.
        rpc_id: Str,
        /// Error message (first 120 characters), or the text body's first line.
        message: Str,
        /// The message says the session is unknown, expired or terminated.
        mentions_session: Bool,
        /// The message names a cause other than the session (the protocol version, the Accept,
        /// Content-Type, Origin or Host header, a body that would not parse; JSON-RPC -32700 and -32020 to
        /// -32022), and does not say the session is unknown.
        other_cause: Bool,
        /// The session id had a successful (2xx) response before.
        session_seen_ok: Bool,
        /// The SDK that answers this way, where the body shows it (see rules/README.md), or `""`.
        fingerprint: Str,
        /// The request path is one that carries JSON-RPC POSTs.
        on_mcp_endpoint: Bool,
        /// The response carried `WWW-Authenticate` (an OAuth or HTTP auth challenge, not an MCP answer).
        auth_challenge: Bool,
        /// Ages (ms, capture time) of this session's or endpoint's 5xx responses, newest first, at most 32,
        /// including this one.
        recent_5xx_ms: IntList,
        /// The frames of those responses' heads, in the same order: where each one is in the capture.
        recent_5xx_frames: IntList,
    }

    /// A client fell back to the deprecated HTTP+SSE transport: a POST to the server failed, then the same
    /// client received `event: endpoint` on a GET.
    Fallback "fallback" {
        /// `status`, `reset` (RST before a response) or `no-response`.
        trigger_kind: Str,
        /// Status of the failed POST, 0 without one.
        trigger_status: Int,
        /// JSON-RPC error code in the failed POST's body, 0 if none.
        trigger_code: Int,
        /// What the failed POST's body was, as MCP-BARE-ERROR names it (`jsonrpc`, `json`, `html`, `text`,
        /// `empty`, `cut-short`), or `none` without a response.
        trigger_body: Str,
        /// Protocol version the client asked for (initialize params or `MCP-Protocol-Version`), or `""`.
        client_version: Str,
        post_path: Str,
        get_path: Str,
        /// From the failed POST to the endpoint event, milliseconds.
        since_ms: Int,
    }

    /// A POST to a URL that serves the HTTP+SSE `endpoint` event was answered, or an `endpoint` event
    /// appeared inside a Streamable HTTP session.
    LegacyUrl "legacy_url" {
        /// `post-answered` or `endpoint-in-streamable`.
        what: Str,
        status: Int,
        content_type: Str,
        path: Str,
    }

    /// A GET that asks for the event stream (`Accept: text/event-stream`, or an MCP header) on a path that
    /// carries JSON-RPC POSTs was answered (judged when its body is complete).
    GetResponse "get_response" {
        status: Int,
        content_type: Str,
        has_session_id: Bool,
        /// The server no longer knows the GET's session: the body says so, or a POST of the session was
        /// answered 404 (the specification's answer to an unknown session is 404), before the GET's answer
        /// or as the next answer to a POST after it (a 404 that does not say why waits for that answer).
        session_unknown: Bool,
        /// The server needs no session id: it answered this client's `initialize` on the endpoint
        /// without minting one, and the GET follows that handshake.
        session_optional: Bool,
        /// Another GET of the session asking for the stream is in flight (its stream open, or its head not
        /// come yet): a 409 refuses a second standalone stream, as the SDKs do.
        other_stream_open: Bool,
        /// The body: `jsonrpc`, `json`, `html`, `text`, `empty`, `cut-short` (none: the connection ended before
        /// the body its head announced), or `stream` for an SSE response.
        body: Str,
        /// Error message or first body line (120 characters), or `""`.
        message: Str,
    }

    /// The `initialize` exchange completed. Protocol versions are dates, so string order is version order.
    Initialize "initialize" {
        requested: Str,
        negotiated: Str,
        /// The newest version this server address answered, earlier in the capture, to a client that
        /// asked for `requested` or newer; `""` if none.
        server_best: Str,
        /// The version this client address last negotiated with this server endpoint before; `""` if none.
        client_previous: Str,
    }

    /// Request headers disagree with the session or the body (2025-06-18 `MCP-Protocol-Version`;
    /// 2026-07-28 `Mcp-Method`, `Mcp-Name`, `_meta` protocol version). Emitted only on disagreement.
    HeaderMismatch "header_mismatch" {
        /// `version`, `meta-version`, `method` or `name`.
        what: Str,
        header: Str,
        expected: Str,
        rpc_method: Str,
    }

    /// A request that declares 2026-07-28 (`MCP-Protocol-Version`, `_meta` version, `server/discover`)
    /// carried an `Mcp-Session-Id`, or its response minted one. The session's era (context) says whether
    /// an `initialize` handshake made it a 2025 session after all.
    StatelessSession "stateless_session" {
        /// `minted` (on a response) or `echoed` (the client sent one back).
        how: Str,
        /// The session had an `initialize` handshake in the capture.
        handshake: Bool,
    }

    /// After a POST was answered 404 for its session id: a request that reuses the dead id (`trigger` =
    /// `reuse`), or a check at the ages the rules on this fact name as their `timer` parameter while the
    /// client still talks to the server (`trigger` = `wait`).
    StaleSession "stale_session" {
        trigger: Str,
        /// HTTP and JSON-RPC method of the reusing request (`""` for `wait`).
        http_method: Str,
        rpc_method: Str,
        /// From the 404 to this request (or check), ms; negative for a request sent before the 404 arrived.
        since_404_ms: Int,
        /// The reusing request was sent before the 404 arrived (already on its way: not a retry).
        sent_before_404: Bool,
        /// POSTs carrying a JSON-RPC request with the dead id sent after the 404 arrived, this one included
        /// (a POST of notifications only is none).
        reuses: Int,
        /// An `initialize` from the same client to the same server followed the 404.
        reinitialized: Bool,
    }

    /// A session id changed: the server answered a request of session `old_id` with `new_id` outside
    /// `initialize` (`how` = `response`), or a client moved from `old_id` to a session id the capture had
    /// not seen before (`how` = `request`).
    SessionChange "session_change" {
        how: Str,
        old_id: Str,
        new_id: Str,
        /// An `initialize` result in the capture minted `new_id` / `old_id`.
        new_id_minted: Bool,
        old_id_minted: Bool,
        /// The capture saw an `initialize` of this client address toward this server.
        client_initialized: Bool,
        /// (`request`) The capture lost server bytes toward this client: the `initialize` result that
        /// minted `new_id` may be among them. (`response`) The connection's pairing is unsure (a capture
        /// gap took a response, or the capture missed its start): the response naming another session
        /// answers another request than the one HTTP paired it with.
        capture_loss: Bool,
    }

    /// Bytes of a session's streams were lost to capture gaps (coverage notice; one per server). Also the
    /// bytes of the server's connections that carried no MCP evidence because the snap length cut it
    /// away: the records were cut and HTTP messages lost in the cuts (no evidence could survive them).
    CaptureGap "capture_gap" {
        /// Gaps and bytes missed, over both kinds of streams.
        gaps: Int,
        missed_bytes: Int,
        /// MCP sessions of the server whose streams lost bytes.
        sessions: Int,
        /// Connections of the server without MCP evidence whose records the snap length cut, losing
        /// HTTP messages; the messages lost.
        cut_connections: Int,
        cut_messages: Int,
        /// Which streams lost the bytes, as the evidence names them: `streams of N MCP session(s) of this
        /// server`, the cut connections, or both.
        streams: Str,
    }

    /// TLS connections to a server that could not be decrypted, for one reason (coverage notice; one per
    /// server and reason, at the end of the capture).
    TlsUndecrypted "tls_undecrypted" {
        /// no key log, no matching client random, secrets missing, broken sequence, decryption failed,
        /// unsupported cipher suite 0x...., unsupported version 0x...., no handshake seen, malformed record.
        reason: Str,
        connections: Int,
        /// Bytes not decrypted on those connections.
        bytes: Int,
        /// Server name (SNI) of the first such connection, or `""`.
        sni: Str,
    }

    /// HTTP/2 connections to a server that could not be analysed, for one reason (coverage notice; one per
    /// server and reason, at the end of the capture).
    Http2Seen "http2_seen" {
        connections: Int,
        sni: Str,
        /// midstream (picked up without its preface, or bytes lost: HPACK state unknown), protocol error,
        /// cap.
        reason: Str,
    }

    /// Nothing in the capture could be analysed: packets were read but none decoded to TCP over IP
    /// (coverage notice, end of capture, once per run).
    CaptureUnreadable "capture_unreadable" {
        /// `unsupported link type` (no packet of a link type mcptap decodes) or `no TCP` (decodable link
        /// type, but no TCP over IPv4/IPv6 in it).
        reason: Str,
        /// Link type of most packets (tcpdump.org LINKTYPE_ number) and its name.
        link_type: Int,
        link_type_name: Str,
        packets: Int,
    }

    /// Connections to a server that a `101 Switching Protocols` took to a protocol mcptap does not analyse
    /// (not `h2c`, which is analysed as HTTP/2); coverage notice, one per server and protocol, at the end
    /// of the capture. MCP over WebSocket is the case the built-in rule reports.
    UpgradeUnanalysed "upgrade_unanalysed" {
        /// The `Upgrade` token the server answered, lower-cased (`websocket`), or `(none)`.
        protocol: Str,
        /// The WebSocket subprotocols the server accepted (`Sec-WebSocket-Protocol`), distinct, `; `-joined,
        /// or `""`.
        subprotocol: Str,
        connections: Int,
        /// MCP evidence on a switch: the server accepted the subprotocol `mcp`, or the request carried an
        /// MCP header.
        mcp: Bool,
    }

    /// Message bodies to a server whose Content-Encoding (or transfer coding) could not be undone, for one
    /// reason (coverage notice; one per server and reason, at the end of the capture). Their content was
    /// not analysed: an SSE stream among them is neither "no events" nor "lost".
    BodyUndecoded "body_undecoded" {
        /// The codings as written (`gzip`, `br, gzip`, `compress`), the distinct ones seen, `; `-separated.
        encoding: Str,
        /// unknown coding, too many codings, corrupt stream, truncated stream, capture gap, decoded bytes
        /// per body cap, decoded bytes per connection cap.
        reason: Str,
        bodies: Int,
        /// Of those, request bodies (the rest are responses).
        requests: Int,
    }
}

/// When the timed facts are due: the ages (seconds of capture time) that the loaded rules name as their
/// `timer` parameter, so a rule fires at its parameter's value, whatever it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Checkpoints {
    /// `request_waiting`: ages of an unanswered request.
    pub request_waiting: Vec<i64>,
    /// `stale_session` (trigger `wait`): ages after a 404 without a re-initialize.
    pub stale_session: Vec<i64>,
}

/// A fact with its context.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    pub ctx: FactContext,
    pub kind: FactKind,
}

impl Fact {
    /// A field of the fact: kind-specific first, then context.
    pub fn field(&self, name: &str) -> Option<FieldValue<'_>> {
        self.kind.field(name).or_else(|| self.ctx.field(name))
    }
}

/// The schema of a fact kind including context fields, or `None` for an unknown kind.
pub fn schema(kind: &str) -> Option<Vec<(&'static str, FieldType)>> {
    KINDS.iter().find(|(n, _)| *n == kind).map(|(_, fields)| {
        let mut all: Vec<(&'static str, FieldType)> = fields.to_vec();
        all.extend_from_slice(CONTEXT_FIELDS);
        all
    })
}

#[cfg(test)]
impl FactContext {
    /// A context for unit tests: a streamable-2025 session `session` between 127.0.0.1:5000 and :8000.
    #[allow(clippy::unwrap_used)]
    pub(crate) fn for_test(session_key: &str, session_id: &str, crosses_gap: bool) -> FactContext {
        FactContext {
            ts: crate::time::Timestamp(0),
            session_key: session_key.into(),
            session_id: session_id.into(),
            client: "127.0.0.1:5000".parse().unwrap(),
            server: "127.0.0.1:8000".parse().unwrap(),
            host: "h".into(),
            endpoint: "/mcp".into(),
            era: Era::Streamable2025,
            version: "".into(),
            frames: vec![1],
            crosses_gap,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn schema_lists_kind_and_context_fields() {
        let s = schema("response_shift").unwrap();
        assert!(s.contains(&("cursor", FieldType::Str)));
        assert!(s.contains(&("json_before", FieldType::Int)));
        assert!(s.contains(&("era", FieldType::Str)));
        assert!(schema("no_such_fact").is_none());
    }

    #[test]
    fn every_schema_field_has_a_value_of_its_type() {
        let f = FactKind::ResponseShift(ResponseShift::default());
        for (name, ty) in ResponseShift::FIELDS {
            let v = f.field(name).unwrap();
            let ok = matches!((ty, &v), (FieldType::Str, FieldValue::Str(_)) | (FieldType::Int, FieldValue::Int(_)) | (FieldType::Bool, FieldValue::Bool(_)) | (FieldType::IntList, FieldValue::IntList(_)));
            assert!(ok, "{name}: {v:?} is not {ty:?}");
        }
    }
}
