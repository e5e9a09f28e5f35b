//! The request half of an HTTP transaction as the classifier keeps it (`Req`): the MCP headers, the
//! JSON-RPC body decoded once, and what the request says about its session and transport era: the
//! `Mcp-Session-Id` (2025-03-26 "Session Management"), the HTTP+SSE session parameter of the POST URL
//! (2024-11-05), and the 2026-07-28 markers (`Mcp-Method`, `_meta` protocol version, `server/discover`)
//! with the header expectations that revision sets (mcp-transports.md §1.2).

use std::borrow::Cow;
use std::sync::Arc;

use crate::facts::Era;
use crate::http::{Interned, RequestHead};
use crate::jsonrpc::{Id, Ids, Message};
use crate::stack::Body;
use crate::time::Timestamp;

use super::McpStats;

/// A request's first JSON-RPC method (empty without one), cheap to clone (an MCP method is static text).
#[derive(Debug, Clone, Default)]
pub(super) struct Method(Cow<'static, str>);

impl Method {
    pub(super) fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&Method> for Cow<'static, str> {
    fn from(m: &Method) -> Cow<'static, str> {
        m.0.clone()
    }
}

/// The text a connection's requests repeat, kept once per connection.
#[derive(Debug, Default)]
pub(super) struct Names {
    host: Interned,
    sid: Interned,
}


/// The request half of an HTTP transaction, as much as the classifier keeps: its head as the HTTP layer
/// handed it over (moved, not copied: the MCP headers are read from it when needed).
#[derive(Debug)]
pub(super) struct Req {
    head: RequestHead,
    /// The HTTP/2 stream that carried the exchange (for the timeline), `None` on HTTP/1.1.
    pub(super) h2_stream: Option<u32>,
    pub(super) frame: u64,
    pub(super) ts: Timestamp,
    pub(super) messages: Option<crate::jsonrpc::Messages>,
    /// `Host` and `Mcp-Session-Id`, shared with the connection's previous request when they are the same.
    host: Arc<str>,
    sid: Option<Arc<str>>,
    /// The first JSON-RPC method (`first_method`), empty without one.
    first: Method,
    /// What keys its session (`key_info`), once built.
    pub(super) key: Option<KeyInfo>,
    /// `declares_2026`, judged once the body is: asked five times a request, each a walk of the headers
    /// and the messages.
    declares: Option<bool>,
    /// Request-side facts were emitted (at RequestEnd, or at the response if that came first).
    pub(super) checked: bool,
    /// The body had bytes and no JSON-RPC message (not JSON, or JSON of something else).
    not_jsonrpc: bool,
    /// Where in the target the HTTP+SSE session parameter's value is, under a name the server's
    /// `endpoint` event taught (`learn_legacy`).
    learned: Option<(u32, u32)>,
    /// An HTTP+SSE stream of the client announced this request's path without a session parameter: the
    /// GET's frame, which keys the session (`SessionIdent::LegacyStream`).
    pub(super) bare_stream: Option<u64>,
}

impl Req {
    /// `names`: the connection's last `Host` and session id, reused (not copied) when this request
    /// carries the same (a client sends them again with every request).
    pub(super) fn from_head(head: RequestHead, frame: u64, ts: Timestamp, names: &mut Names) -> Req {
        let host = names.host.intern(head.headers.get("host").unwrap_or(""));
        let sid = head.headers.get("mcp-session-id").map(|s| names.sid.intern(s));
        Req {
            head,
            h2_stream: None,
            frame,
            ts,
            messages: None,
            host,
            sid,
            first: Method::default(),
            key: None,
            declares: None,
            checked: false,
            not_jsonrpc: false,
            learned: None,
            bare_stream: None,
        }
    }

    /// The HTTP method.
    pub(super) fn method(&self) -> &str {
        &self.head.method
    }

    /// The HTTP method for a fact: a registered one is static text, not copied.
    pub(super) fn method_token(&self) -> Cow<'static, str> {
        self.head.method.clone()
    }

    /// `Host` (empty without one).
    pub(super) fn host(&self) -> &str {
        &self.host
    }

    /// `Host`, shared with the connection's other requests.
    pub(super) fn host_shared(&self) -> Arc<str> {
        Arc::clone(&self.host)
    }

    /// `Mcp-Session-Id`.
    pub(super) fn session_id(&self) -> Option<&str> {
        self.sid.as_deref()
    }

    /// `Mcp-Session-Id`, shared.
    pub(super) fn session_id_shared(&self) -> Option<Arc<str>> {
        self.sid.clone()
    }

    /// `MCP-Protocol-Version`.
    pub(super) fn proto_version(&self) -> Option<&str> {
        self.head.headers.get("mcp-protocol-version")
    }

    /// `Mcp-Method` (2026-07-28).
    pub(super) fn mcp_method(&self) -> Option<&str> {
        self.head.headers.get("mcp-method")
    }

    /// `Mcp-Name` (2026-07-28).
    pub(super) fn mcp_name(&self) -> Option<&str> {
        self.head.headers.get("mcp-name")
    }

    /// The request asks for an event stream, as an MCP client's GET must (MCP 2025-03-26 transports,
    /// Listening for Messages from the Server: `Accept` lists `text/event-stream`), or carries an MCP header.
    /// A browser's GET of the same URL (`Accept: text/html, ..., */*`) asks for a page.
    pub(super) fn asks_stream(&self) -> bool {
        self.mcp_headers()
            || self.head.headers.values("accept").flat_map(|v| v.split(',')).any(|range| {
                range.split(';').next().is_some_and(|media| media.trim().eq_ignore_ascii_case("text/event-stream"))
            })
    }

    /// `Last-Event-ID`.
    pub(super) fn last_event_id(&self) -> Option<&str> {
        self.head.headers.get("last-event-id")
    }

    pub(super) fn path(&self) -> &str {
        origin_form(&self.head.target).split('?').next().unwrap_or("")
    }

    /// The path, shared with the head when the target has no query (nearly always): the facts and the
    /// session keep it without a copy.
    pub(super) fn endpoint(&self) -> Arc<str> {
        if self.head.target.contains('?') || !self.head.target.starts_with('/') {
            // ALLOC: the path of a target with a query or in absolute form, bounded by limits::max_header_bytes
            Arc::from(self.path())
        } else {
            Arc::clone(&self.head.target)
        }
    }

    /// The HTTP+SSE session parameter of the POST URL (`?sessionId=` TypeScript, `?session_id=` Python,
    /// `?sessionid=` Go; the name in any case), or one under a name the server taught (`learn_legacy`).
    pub(super) fn legacy_param(&self) -> Option<&str> {
        legacy_param(&self.head.target).or_else(|| {
            let (a, b) = self.learned?;
            self.head.target.get(a as usize..b as usize)
        })
    }

    /// The server's `endpoint` events named its session parameter `names` (zeromcp: `?session=`): a
    /// target carrying one of them keys an HTTP+SSE session as the usual names do.
    pub(super) fn learn_legacy(&mut self, names: &[Box<str>]) {
        if legacy_param(&self.head.target).is_some() {
            return;
        }
        let target: &str = &self.head.target;
        let Some(value) = query_param(target, |k| names.iter().any(|n| n.eq_ignore_ascii_case(k))) else { return };
        // The value is a slice of the target: its offset is where it starts.
        let start = (value.as_ptr() as usize).saturating_sub(target.as_ptr() as usize);
        if let (Ok(a), Ok(b)) = (u32::try_from(start), u32::try_from(start + value.len())) {
            self.learned = Some((a, b));
        }
    }

    /// The body's JSON-RPC, as the connection's JSON-RPC stage decoded it; the first word stands.
    pub(super) fn set_body(&mut self, body: Body, stats: &mut McpStats) {
        if self.messages.is_some() {
            return;
        }
        let msgs = match body {
            Body::Messages(m) => m,
            Body::Undecodable => {
                stats.not_jsonrpc += 1;
                self.not_jsonrpc = true;
                crate::jsonrpc::Messages::new()
            }
            Body::OverCap => {
                stats.bodies_over_cap += 1;
                crate::jsonrpc::Messages::new()
            }
            Body::Empty => crate::jsonrpc::Messages::new(),
        };
        stats.jsonrpc_messages += msgs.len() as u64;
        self.first = Method(msgs.iter().find_map(Message::method_name).cloned().unwrap_or_default());
        self.messages = Some(msgs);
        self.declares = Some(self.judge_2026());
    }

    /// The request is judged: a body the JSON-RPC stage did not report had no bytes.
    pub(super) fn decode(&mut self, stats: &mut McpStats) {
        self.set_body(Body::Empty, stats);
    }

    pub(super) fn messages(&self) -> &[Message] {
        self.messages.as_deref().unwrap_or(&[])
    }

    /// The body holds a request (a message with an id that expects an answer).
    pub(super) fn has_request_ids(&self) -> bool {
        self.messages().iter().any(|m| matches!(m, Message::Request { .. }))
    }

    /// Whether one of its JSON-RPC requests has this id.
    pub(super) fn asks(&self, id: &Id) -> bool {
        self.messages().iter().any(|m| matches!(m, Message::Request { id: asked, .. } if asked == id))
    }

    pub(super) fn request_ids(&self) -> Ids {
        self.messages()
            .iter()
            .filter_map(|m| match m {
                Message::Request { id, .. } => Some(id.clone()),
                _ => None,
            })
            .collect()
    }

    /// The first JSON-RPC method of the body, empty without one: named once, shared by the facts of the
    /// request and of its response.
    pub(super) fn first_method(&self) -> Method {
        self.first.clone()
    }

    pub(super) fn is_initialize(&self) -> bool {
        self.messages().iter().any(|m| matches!(m, Message::Request { method, .. } if method == "initialize"))
    }

    pub(super) fn requested_version(&self) -> Option<String> {
        self.messages().iter().find_map(|m| match m {
            Message::Request { method, params, .. } if method == "initialize" => params.protocol_version.clone(),
            _ => None,
        })
    }

    /// Declares the stateless 2026-07-28 revision (INCIDENTS.md "era"): `MCP-Protocol-Version` of
    /// 2026-07-28 or later, a `_meta` protocol version, or a method only that revision has. An
    /// `Mcp-Method` header alone does not: clients send it on classic `initialize` requests too.
    pub(super) fn declares_2026(&self) -> bool {
        self.declares.unwrap_or_else(|| self.judge_2026())
    }

    /// The revision a request that declares 2026-07-28 or later names: its `_meta` protocol version, else its
    /// `MCP-Protocol-Version` header, else (a `server/discover` with neither) the first such revision.
    pub(super) fn declared_version(&self) -> Option<Arc<str>> {
        if !self.declares_2026() {
            return None;
        }
        let meta = self.messages().iter().find_map(|m| match m {
            Message::Request { params, .. } | Message::Notification { params, .. } => {
                params.meta.as_ref().and_then(|meta| meta.protocol_version.as_ref()).and_then(|p| p.0.as_deref())
            }
            _ => None,
        });
        let header = || self.proto_version().map(str::trim).filter(|v| *v >= MODERN);
        // Nearly every declaration names the one revision there is: shared, not allocated per request.
        static MODERN_SHARED: std::sync::LazyLock<Arc<str>> = std::sync::LazyLock::new(|| Arc::from(MODERN));
        Some(match meta.or_else(header) {
            Some(v) if v != MODERN => Arc::from(v),
            _ => Arc::clone(&MODERN_SHARED),
        })
    }

    /// `declares_2026` from the head and the messages as they are now.
    fn judge_2026(&self) -> bool {
        self.proto_version().is_some_and(|v| v.trim() >= MODERN)
            || self.messages().iter().any(|m| {
                matches!(m.method(), Some("server/discover" | "subscriptions/listen"))
                    || match m {
                        Message::Request { params, .. } | Message::Notification { params, .. } => {
                            params.meta.as_ref().is_some_and(|meta| meta.protocol_version.is_some())
                        }
                        _ => false,
                    }
            })
    }

    /// MCP evidence of its own (INCIDENTS.md "MCP evidence") is an MCP header (this), or an MCP message
    /// ([`Req::mcp_messages`]); plain JSON-RPC (Ethereum nodes, LSP bridges) has neither. The two are asked
    /// apart because a header on a metadata fetch is no evidence (`is_mcp_request`). Nor is the version
    /// header alone on a body that is not JSON-RPC: an MCP request carries JSON-RPC, and an application that
    /// copies a client's headers onto its own API calls sends it there too (Gradio forwards an MCP request's
    /// headers to its queue API, `POST /gradio_api/queue/join`, samples/ecosystem/gradio-*.pcap).
    pub(super) fn mcp_headers(&self) -> bool {
        self.session_id().is_some() || self.mcp_method().is_some() || (self.proto_version().is_some() && !self.not_jsonrpc)
    }

    /// The version the client speaks, as a fallback judges it: the one its `initialize` asks for, else its
    /// `MCP-Protocol-Version` header; empty without either.
    pub(super) fn client_version(&self) -> String {
        self.requested_version().or_else(|| self.proto_version().map(str::to_string)).unwrap_or_default()
    }

    /// The ids this request's `notifications/cancelled` messages name.
    pub(super) fn cancelled_ids(&self) -> Vec<crate::jsonrpc::Id> {
        self.messages()
            .iter()
            .filter_map(|m| match m {
                Message::Notification { method, params } if method == "notifications/cancelled" => params.request_id.as_ref().and_then(|r| r.0.clone()),
                _ => None,
            })
            .collect()
    }

    /// The request offers the WebSocket subprotocol `mcp` (RFC 6455 §4.1: `Sec-WebSocket-Protocol`, a
    /// comma-separated list of case-insensitive tokens): the client says it will speak MCP on the socket.
    pub(super) fn offers_mcp_subprotocol(&self) -> bool {
        self.head.headers.get("sec-websocket-protocol").is_some_and(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case("mcp")))
    }

    /// An `initialize` with `protocolVersion` and `clientInfo`, or a method of the MCP method set.
    pub(super) fn mcp_messages(&self) -> bool {
        self.messages().iter().any(|m| match m {
            Message::Request { method, params, .. } if method == "initialize" => params.protocol_version.is_some() && params.client_info.is_some(),
            Message::Request { method, .. } | Message::Notification { method, .. } => is_mcp_method(method),
            _ => false,
        })
    }

    pub(super) fn has_messages(&self) -> bool {
        !self.messages().is_empty()
    }

    /// The era this request alone shows. An `initialize` shows none: the negotiated version decides
    /// (INCIDENTS.md "era"), so its answer does (`Session::observe_handshake`), and a refused attempt
    /// negotiated nothing.
    pub(super) fn era(&self) -> Option<Era> {
        if self.legacy_param().is_some() || self.bare_stream.is_some() {
            Some(Era::HttpSse2024)
        } else if self.is_initialize() {
            None
        } else if self.declares_2026() {
            Some(Era::Stateless2026)
        } else if self.session_id().is_some() {
            Some(Era::Streamable2025)
        } else {
            None
        }
    }

    /// What keys the request to a session.
    pub(super) fn key_info(&self) -> KeyInfo {
        KeyInfo {
            session_id: self.session_id_shared(),
            legacy: self.legacy_param().map(str::to_string),
            bare_stream: self.bare_stream,
            path: self.endpoint(),
            host: Arc::clone(&self.host),
            is_post: self.method() == "POST",
            era: self.era(),
            stateless: self.declares_2026() && !self.is_initialize(),
            requested: self.requested_version(),
            client_name: self.messages().iter().find_map(|m| match m {
                Message::Request { params, .. } | Message::Notification { params, .. } => params
                    .meta
                    .as_ref()
                    .and_then(|meta| meta.client_info.as_ref())
                    .and_then(|ci| ci.name.as_ref())
                    .and_then(|n| n.0.clone()),
                _ => None,
            }),
        }
    }

}

/// The first protocol revision without sessions.
pub(super) const MODERN: &str = "2026-07-28";

/// The MCP method set (INCIDENTS.md "MCP evidence"): `initialize` is left to the caller, since LSP has one
/// too (without `protocolVersion`); `ping` is no evidence on its own, being the health check of plain
/// JSON-RPC services (jayson's README, samples/ecosystem/nonmcp3-*.pcap): an MCP ping travels where MCP
/// already is (a session's headers, a path that carried MCP).
pub(super) fn is_mcp_method(method: &str) -> bool {
    const EXACT: &[&str] = &["server/discover", "subscriptions/listen"];
    const PREFIXES: &[&str] = &[
        "tools/", "resources/", "prompts/", "completion/", "logging/", "sampling/", "elicitation/", "roots/", "notifications/",
    ];
    EXACT.contains(&method) || PREFIXES.iter().any(|p| method.starts_with(p))
}

/// The parts of a request that pick and describe its session.
#[derive(Debug, Clone)]
pub(super) struct KeyInfo {
    pub(super) session_id: Option<Arc<str>>,
    pub(super) legacy: Option<String>,
    /// No session parameter, but the client's HTTP+SSE stream announced this path (`Req::bare_stream`).
    pub(super) bare_stream: Option<u64>,
    pub(super) path: Arc<str>,
    pub(super) host: Arc<str>,
    pub(super) is_post: bool,
    pub(super) era: Option<Era>,
    /// A stateless 2026-07-28 exchange: keyed without a handshake.
    pub(super) stateless: bool,
    pub(super) requested: Option<String>,
    /// 2026-07-28 `_meta` `clientInfo.name`, part of a stateless exchange's key.
    pub(super) client_name: Option<String>,
}

impl KeyInfo {
    /// A POST to the message URL an HTTP+SSE `endpoint` event announced: answered on the GET stream.
    pub(super) fn is_legacy(&self) -> bool {
        self.legacy.is_some() || self.bare_stream.is_some()
    }
}

/// The path and query of a request target. A client talking to a forward proxy sends the absolute form
/// (`POST http://host:port/mcp HTTP/1.1`, RFC 9112 §3.2.2), which names the same endpoint as the origin
/// form the proxy sends on (`POST /mcp`); the authority is the Host header's, which the client sends too.
/// The HTTP layer keeps the target as sent (`--http-log` shows the wire).
pub(super) fn origin_form(target: &str) -> &str {
    if target.starts_with('/') {
        return target;
    }
    let Some((scheme, rest)) = target.split_once("://") else { return target };
    if !(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")) {
        return target;
    }
    match rest.find(['/', '?']) {
        Some(i) => rest.get(i..).unwrap_or(rest),
        // RFC 9112 §3.2.1: an empty path is sent as "/".
        None => "/",
    }
}

pub(super) fn legacy_param(target: &str) -> Option<&str> {
    query_param(target, |k| k.eq_ignore_ascii_case("sessionid") || k.eq_ignore_ascii_case("session_id"))
}

/// The `name=value` pairs of a target's query, in order (none without a query).
fn query_pairs(target: &str) -> impl Iterator<Item = (&str, &str)> {
    // Found byte by byte: most targets have no query, and a `str` search for a `char` costs more on them.
    let query = target.bytes().position(|b| b == b'?').and_then(|q| target.get(q + 1..)).unwrap_or("");
    query.split('&').filter_map(|kv| kv.split_once('='))
}

/// The value of the first query parameter of `target` whose name `is_name` accepts.
fn query_param(target: &str, is_name: impl Fn(&str) -> bool) -> Option<&str> {
    query_pairs(target).find_map(|(k, v)| is_name(k).then_some(v))
}

/// The session parameter of an `endpoint` event's URL that no usual name carries: its one query
/// parameter with a value (zeromcp announces `/sse?session=…`), as (name, value). A URL with several is
/// not guessed at.
pub(super) fn announced_param(url: &str) -> Option<(&str, &str)> {
    let mut pairs = query_pairs(url).filter(|(k, v)| !k.is_empty() && !v.is_empty());
    let one = pairs.next()?;
    pairs.next().is_none().then_some(one)
}

/// The path of an `endpoint` event's URL that carries no session parameter at all (fast-mcp announces
/// `/mcp/messages?`): its POSTs can only be told apart by who sends them. `None` for a URL with a query
/// (one that names the session, or several parameters, not guessed at) or a relative one.
pub(super) fn bare_message_path(url: &str) -> Option<&str> {
    let target = origin_form(url);
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    (path.starts_with('/') && query.is_empty()).then_some(path)
}

/// 2026-07-28 header expectations of one request: (what, header value, expected value).
pub(super) fn header_expectations(req: &Req) -> Vec<(&'static str, String, String)> {
    let mut v = Vec::new();
    let Some(m) = req.messages().first() else { return v };
    let (method, params) = match m {
        Message::Request { method, params, .. } | Message::Notification { method, params } => (method, params),
        _ => return v,
    };
    let meta_version = params.meta.as_ref().and_then(|meta| meta.protocol_version.as_ref()).and_then(|p| p.0.clone());
    if !req.declares_2026() {
        return v;
    }
    if let Some(mv) = &meta_version {
        let header = req.proto_version().unwrap_or_default().to_string();
        if &header != mv {
            v.push(("meta-version", header, mv.clone()));
        }
    }
    let header_method = req.mcp_method().unwrap_or_default().to_string();
    if header_method != *method {
        v.push(("method", header_method, method.to_string()));
    }
    if matches!(&**method, "tools/call" | "resources/read" | "prompts/get") {
        let expected = params.name.as_ref().and_then(|n| n.0.clone()).or_else(|| params.uri.as_ref().and_then(|u| u.0.clone())).unwrap_or_default();
        let header = req.mcp_name().unwrap_or_default().to_string();
        if header != expected {
            v.push(("name", header, expected));
        }
    }
    v
}

#[cfg(test)]
mod tests {
    //! Request-side classification through the harness: MCP evidence, era by negotiation, session keys,
    //! rotation, header checks, dead-session reuse and the timers that follow rule params.
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use crate::decode::flow_key::Direction;
    use crate::facts::{Era, FactKind, FieldValue};
    use crate::mcp::harness::*;
    use crate::reassembly::EndReason;

    #[test]
    fn the_version_header_alone_on_a_body_that_is_no_json_rpc_is_no_mcp_evidence() {
        // Gradio forwards an MCP request's headers to its own queue API (samples/ecosystem/gradio-*.pcap).
        let run = |body: &str, extra: &[&str]| {
            let mut h = Harness::recording();
            let c = h.connect("10.0.0.1:40000");
            let mut headers = vec![V25];
            headers.extend_from_slice(extra);
            let tx = h.request(c, "POST", "/gradio_api/queue/join", &headers, body);
            h.json(c, tx, &[], r#"{"event_id":"e1"}"#);
            h.finish();
            h.records().len()
        };
        let queue = r#"{"data":[1,2],"fn_index":0,"session_hash":"abc"}"#;
        assert_eq!(run(queue, &[]), 0);
        // The header on JSON-RPC is evidence, whatever the method; a session id or `Mcp-Method` is on any body.
        assert_eq!(run(r#"{"jsonrpc":"2.0","id":1,"method":"eth_call"}"#, &[]), 1);
        assert_eq!(run(queue, &[SID]), 1);
        assert_eq!(run(queue, &["Mcp-Method: tools/call"]), 1);
    }

    #[test]
    fn only_an_announced_url_without_parameters_is_a_bare_message_path() {
        use super::bare_message_path;
        for (url, want) in [
            ("/mcp/messages?", Some("/mcp/messages")),
            ("/messages", Some("/messages")),
            ("http://127.0.0.1:9/m?", Some("/m")),
            ("/m?a=1&b=2", None),
            ("/m?session=", None),
            ("messages?", None),
        ] {
            assert_eq!(bare_message_path(url), want, "{url}");
        }
    }

    #[test]
    fn a_target_in_absolute_form_names_the_endpoint_of_its_path() {
        use super::origin_form;
        assert_eq!(origin_form("http://127.0.0.1:8080/mcp"), "/mcp");
        assert_eq!(origin_form("HTTPS://mcp.example/messages/?session_id=ab"), "/messages/?session_id=ab");
        assert_eq!(origin_form("http://mcp.example"), "/");
        assert_eq!(origin_form("http://mcp.example?x=1"), "?x=1");
        for kept in ["/mcp", "/a://b", "mcp.example:443", "*", "ftp://x/y", ""] {
            assert_eq!(origin_form(kept), kept);
        }
    }

    #[test]
    fn the_legacy_session_parameter_is_read_from_the_query_only() {
        for (target, want) in [
            ("/messages?sessionId=9", Some("9")),
            ("/messages/?session_id=ab-c&x=1", Some("ab-c")),
            ("/m?x=1&sessionId=", Some("")),
            ("/m?x=sessionId=3", None),
            ("/sse?sessionid=OLYJ", Some("OLYJ")),
            ("/m", None),
            ("/m?", None),
            ("?sessionId=1", Some("1")),
            ("/sessionId=1", None),
            ("/caf\u{e9}?sessionId=\u{e9}t\u{e9}", Some("\u{e9}t\u{e9}")),
        ] {
            assert_eq!(super::legacy_param(target), want, "{target}");
        }
    }

    #[test]
    fn a_connections_repeated_names_are_shared_and_a_change_is_seen() {
        use super::{Names, Req};
        use crate::http::{Headers, RequestHead};
        use std::sync::Arc;
        let head = |host: &str, sid: Option<&str>| {
            let mut pairs = vec![("Host", host)];
            pairs.extend(sid.map(|s| ("Mcp-Session-Id", s)));
            RequestHead { method: "POST".into(), target: "/mcp".into(), version: 1, headers: Headers::from_pairs(pairs) }
        };
        let ts = crate::time::Timestamp::from_secs_micros(1, 0);
        let mut names = Names::default();
        let a = Req::from_head(head("a:1", Some("s1")), 1, ts, &mut names);
        let b = Req::from_head(head("a:1", Some("s1")), 2, ts, &mut names);
        assert!(Arc::ptr_eq(&a.host, &b.host) && Arc::ptr_eq(a.sid.as_ref().unwrap(), b.sid.as_ref().unwrap()));
        let c = Req::from_head(head("b:2", Some("s2")), 3, ts, &mut names);
        assert_eq!((c.host(), c.session_id()), ("b:2", Some("s2")));
        let d = Req::from_head(head("b:2", None), 4, ts, &mut names);
        assert_eq!((d.host(), d.session_id()), ("b:2", None));
        let e = Req::from_head(head("b:2", Some("s1")), 5, ts, &mut names);
        assert_eq!(e.session_id(), Some("s1"));
        // The target is shared as the endpoint unless it carries a query.
        assert!(Arc::ptr_eq(&e.endpoint(), &e.head.target));
        let q = Req::from_head(RequestHead { target: "/messages?sessionId=9".into(), ..head("b:2", None) }, 6, ts, &mut names);
        assert_eq!(&*q.endpoint(), "/messages");
        // Through a forward proxy: the absolute form names the same endpoint and session parameter.
        let p = Req::from_head(RequestHead { target: "http://b:2/messages?sessionId=9".into(), ..head("b:2", None) }, 7, ts, &mut names);
        assert_eq!((&*p.endpoint(), p.path(), p.legacy_param()), ("/messages", "/messages", Some("9")));
    }

    #[test]
    fn a_body_alone_declares_2026_once_it_is_judged() {
        // No 2026 header: only the body says it, by a `_meta` protocol version or by a method of that
        // revision alone. Before the body is judged the request declares nothing; after, it declares
        // 2026 and is keyed as a stateless exchange (the answer is kept, so it must be taken after).
        use super::{Names, Req};
        use crate::http::{Headers, RequestHead};
        let bodies: [&[u8]; 2] = [
            br#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
            br#"{"jsonrpc":"2.0","id":1,"method":"server/discover"}"#,
        ];
        for body in bodies {
            let head = RequestHead { method: "POST".into(), target: "/mcp".into(), version: 1, headers: Headers::from_pairs(vec![("Host", "a:1")]) };
            let mut req = Req::from_head(head, 1, crate::time::Timestamp::from_secs_micros(1, 0), &mut Names::default());
            assert!(!req.declares_2026());
            let msgs = crate::jsonrpc::parse(body).unwrap().messages;
            req.set_body(crate::stack::Body::Messages(msgs), &mut super::McpStats::default());
            assert!(req.declares_2026(), "{}", String::from_utf8_lossy(body));
            assert!(req.key_info().stateless);
            assert_eq!(req.era(), Some(Era::Stateless2026));
        }
    }

    #[test]
    fn era_is_the_negotiated_one_whatever_the_client_declares() {
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        // The client sends Mcp-Method and asks for 2026-07-28 in a classic initialize; the server answers
        // 2025-11-25 and mints a session id.
        let tx = h.post(c, &["Mcp-Method: initialize", "MCP-Protocol-Version: 2026-07-28"], &initialize(0, "2026-07-28"));
        h.json(c, tx, &[SID], &initialized(0, "2025-11-25"));
        let tx = h.post(c, &[SID, V25, "Mcp-Method: tools/call", "Mcp-Name: t"], &tool_call(1));
        h.json(c, tx, &[], &tool_result(1));
        h.finish();
        assert!(h.facts.iter().all(|f| f.ctx.era == Era::Streamable2025), "{:?}", h.facts);
        assert_eq!(h.alarms(), Vec::<String>::new());
        let init = h.facts_of("initialize");
        assert_eq!(init.len(), 1);
    }

    #[test]
    fn stateless_exchange_with_a_minted_session_id_is_reported() {
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        let meta = r#"{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#;
        let tx = h.post(c, &["MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/list"], &call(1, "tools/list", meta));
        h.json(c, tx, &["Mcp-Session-Id: minted-1"], &result(1, r#"{"tools":[]}"#));
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-STATELESS-SESSION"]);
        assert!(h.facts_of("stateless_session").iter().all(|f| f.ctx.era == Era::Stateless2026));
    }

    #[test]
    fn plain_json_rpc_is_not_mcp() {
        // An Ethereum node: id 1 three times over one keep-alive connection.
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        for _ in 0..3 {
            let tx = h.request(c, "POST", "/", &[], &call(1, "eth_blockNumber", "[]"));
            h.json(c, tx, &[], r#"{"jsonrpc":"2.0","id":1,"result":"0x10"}"#);
        }
        // An LSP-style initialize has no protocolVersion: not MCP either.
        let tx = h.request(c, "POST", "/", &[], &call(2, "initialize", r#"{"processId":1,"clientInfo":{"name":"x"}}"#));
        h.json(c, tx, &[], &result(2, "{}"));
        h.finish();
        assert!(h.facts.is_empty(), "{:?}", h.facts);
        assert_eq!(h.t.open_sessions(), 0);
    }

    #[test]
    fn a_ping_alone_is_not_mcp_evidence_but_an_mcp_paths_ping_is_mcp() {
        // jayson's README (nonmcp3-jayson): `ping` as a notification and as a request, beside other methods of
        // a plain JSON-RPC service. Taken for MCP it made a session of era unknown per client address.
        let mut h = Harness::recording();
        let c = h.connect("10.0.0.1:40000");
        let tx = h.request(c, "POST", "/", &[], r#"{"jsonrpc":"2.0","method":"ping"}"#);
        h.reply(c, tx, 204, &[], "");
        let tx = h.request(c, "POST", "/", &[], &call(1, "ping", "[]"));
        h.json(c, tx, &[], &result(1, r#""pong""#));
        h.finish();
        assert!(h.facts.is_empty(), "{:?}", h.facts);
        assert!(h.records().is_empty(), "{:?}", h.records());
        // A server that mints no session id: a ping to the path the handshake used is the session's.
        let mut h = Harness::recording();
        let c = h.connect("10.0.0.1:40000");
        let tx = h.post(c, &[], &initialize(0, "2025-11-25"));
        h.json(c, tx, &[], &initialized(0, "2025-11-25"));
        let tx = h.post(c, &[], &call(1, "ping", "{}"));
        h.json(c, tx, &[], &result(1, "{}"));
        h.finish();
        let rows: Vec<(u64, u64)> = h.records().iter().map(|r| (r.requests, r.resp_json)).collect();
        assert_eq!(rows, vec![(2, 2)]);
    }

    #[test]
    fn a_request_whose_response_a_gap_took_is_counted_on_its_session() {
        // sensor3-ts-b64.pcap, sensors-dnat.pcap: the session inventory counted a request only once it was
        // answered or left waiting at the close, so one whose response a capture gap took was not counted.
        let mut h = Harness::recording();
        let c = session(&mut h);
        let tx = h.post(c, &[SID, V25], &tool_call(1));
        h.gap(c, 300);
        h.lost_response(c, tx);
        let tx = h.post(c, &[SID, V25], &tool_call(2));
        h.json(c, tx, &[SID], &tool_result(2));
        h.finish();
        let records = h.records();
        let rows: Vec<(u64, u64, u64)> = records.iter().map(|r| (r.requests, r.resp_json, r.resp_other)).collect();
        // initialize, notifications/initialized (202), the lost call, the answered call.
        assert_eq!(rows, vec![(4, 2, 1)]);
        let lost = records[0].timeline.iter().flatten().filter(|e| matches!(e.what, crate::mcp::record::EntryKind::NoResponse { reason } if reason == "its response lost in a capture gap")).count();
        assert_eq!(lost, 1);
    }

    #[test]
    fn a2a_tasks_methods_are_not_mcp_evidence() {
        // Agent2Agent 0.3 (nonmcp2-a2a-py-v03, nonmcp2-a2a-js-server): JSON-RPC with `tasks/get`, `tasks/cancel`
        // and `message/stream`, whose every SSE event is a response with the request's id by design. `tasks/*`
        // is not in the catalogue's MCP method set; taken for MCP, each stream was a duplicated response.
        let mut h = Harness::recording();
        let c = h.connect("10.0.0.1:40000");
        for (id, method) in [(1, "message/stream"), (2, "tasks/resubscribe")] {
            let tx = h.request(c, "POST", "/", &[], &call(id, method, r#"{"id":"t1"}"#));
            h.sse(c, tx, &[]);
            for _ in 0..3 {
                h.event(c, tx, None, &result(id, r#"{"kind":"status-update"}"#));
            }
            h.end(c, tx, crate::stack::http::MessageEnd::Complete);
        }
        for (id, method) in [(3, "tasks/get"), (4, "tasks/cancel")] {
            let tx = h.request(c, "POST", "/", &[], &call(id, method, r#"{"id":"t1"}"#));
            h.json(c, tx, &[], &result(id, r#"{"kind":"task"}"#));
        }
        h.finish();
        assert!(h.facts.is_empty(), "{:?}", h.facts);
        assert!(h.records().is_empty(), "{:?}", h.records());
        // MCP's own tasks (2025-11-25) travel in a session, whose id is the evidence: the request is the
        // session's, after the handshake's.
        let mut h = Harness::recording();
        let c = session(&mut h);
        let tx = h.post(c, &[SID, V25], &call(5, "tasks/get", r#"{"taskId":"t1"}"#));
        h.json(c, tx, &[], &result(5, r#"{"taskId":"t1","status":"working"}"#));
        h.finish();
        let rows: Vec<(String, u64, u64)> = h.records().iter().map(|r| (r.session_id.clone(), r.requests, r.resp_json)).collect();
        assert_eq!(rows, vec![("aaaa".to_string(), 3, 2)]);
    }

    #[test]
    fn pooled_connection_carrying_sessions_begun_before_the_capture_is_no_rotation() {
        let mut h = Harness::new();
        let c = h.connect("10.0.0.2:50000");
        for (i, sid) in ["Mcp-Session-Id: s-one", "Mcp-Session-Id: s-two", "Mcp-Session-Id: s-one", "Mcp-Session-Id: s-two"].iter().enumerate() {
            let tx = h.post(c, &[sid, V25], &tool_call(i as i64));
            h.json(c, tx, &[], &tool_result(i as i64));
        }
        h.finish();
        assert!(h.facts_of("session_change").iter().all(|f| matches!(&f.kind, FactKind::SessionChange(s) if !s.old_id_minted)));
        assert_eq!(h.alarms(), Vec::<String>::new());
    }

    #[test]
    fn client_moving_to_an_unminted_session_id_after_its_initialize_is_rotation() {
        let mut h = Harness::new();
        let c = session(&mut h);
        let tx = h.post(c, &["Mcp-Session-Id: bbbb", V25], &tool_call(1));
        h.json(c, tx, &[], &tool_result(1));
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-SESSION-ROTATION"]);
    }

    #[test]
    fn server_answering_with_another_session_id_is_rotation() {
        let mut h = Harness::new();
        let c = session(&mut h);
        let tx = h.post(c, &[SID, V25], &tool_call(1));
        h.json(c, tx, &["Mcp-Session-Id: cccc"], &tool_result(1));
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-SESSION-ROTATION"]);
        let f = h.facts_of("session_change");
        assert!(matches!(&f[0].kind, FactKind::SessionChange(s) if s.how == "response"));
    }

    #[test]
    fn responses_shifted_by_a_gap_that_took_two_are_neither_rotation_nor_duplicate() {
        // A pooled connection carries sessions aaaa and bbbb (undici shares it: sensor3-ts-b64.pcap). A gap
        // takes the responses to tx2 and tx3; HTTP accounts for one, so tx4's response (session bbbb, id 1)
        // is paired with tx3 (session aaaa, id 2), whose session already had its id 1 answered.
        let (mut h, c) = two_sessions_on_one_connection();
        let tx2 = h.post(c, &["Mcp-Session-Id: bbbb", V25], &tool_call(9));
        let tx3 = h.post(c, &["Mcp-Session-Id: aaaa", V25], &tool_call(2));
        let _tx4 = h.post(c, &["Mcp-Session-Id: bbbb", V25], &tool_call(1));
        h.gap(c, 900);
        h.lost_response(c, tx2);
        h.json(c, tx3, &["Mcp-Session-Id: bbbb"], &tool_result(1));
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
        let changes = h.facts_of("session_change");
        assert!(matches!(&changes[..], [f] if matches!(&f.kind, FactKind::SessionChange(s) if s.how == "response" && s.capture_loss)));
        let dups = h.facts_of("duplicate_response");
        assert!(matches!(&dups[..], [f] if matches!(&f.kind, FactKind::DuplicateResponse(d) if !d.outstanding && d.capture_loss)));
    }

    #[test]
    fn a_shifted_response_whose_id_matches_by_chance_judges_nothing_of_its_paired_session() {
        // Sessions number their calls alike, so a response HTTP shifted onto another session's request often
        // carries the id that request asked for. Session aaaa's replies are JSON; bbbb's SSE reply without
        // event ids, paired with aaaa's request sent after the gap, is no downgrade of aaaa.
        let (mut h, c) = two_sessions_on_one_connection();
        let tx2 = h.post(c, &["Mcp-Session-Id: bbbb", V25], &tool_call(9));
        let tx3 = h.post(c, &["Mcp-Session-Id: aaaa", V25], &tool_call(2));
        h.gap(c, 900);
        h.lost_response(c, tx2);
        let tx4 = h.post(c, &["Mcp-Session-Id: bbbb", V25], &tool_call(4));
        h.json(c, tx3, &["Mcp-Session-Id: bbbb"], &tool_result(4));
        let _tx5 = h.post(c, &["Mcp-Session-Id: aaaa", V25], &tool_call(4));
        h.sse(c, tx4, &["Mcp-Session-Id: aaaa"]);
        h.event(c, tx4, None, &tool_result(4));
        h.end(c, tx4, crate::http::MessageEnd::Complete);
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
    }

    #[test]
    fn a_json_reply_its_request_did_not_ask_for_after_a_gap_is_no_duplicate() {
        // One session, a gap that took a response; a request sent after it (so it lost nothing itself) gets a
        // JSON body answering an id it did not ask for, one answered before the gap: HTTP paired another
        // exchange's response with it.
        let mut h = Harness::new();
        let c = session(&mut h);
        let tx1 = h.post(c, &[SID, V25], &tool_call(1));
        h.json(c, tx1, &[SID], &tool_result(1));
        let tx2 = h.post(c, &[SID, V25], &tool_call(2));
        h.gap(c, 900);
        h.lost_response(c, tx2);
        let tx3 = h.post(c, &[SID, V25], &tool_call(3));
        h.json(c, tx3, &[SID], &tool_result(1));
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
        let dups = h.facts_of("duplicate_response");
        assert!(matches!(&dups[..], [f] if matches!(&f.kind, FactKind::DuplicateResponse(d) if !d.outstanding && d.capture_loss)));
    }

    #[test]
    fn without_a_gap_the_same_answers_are_rotation_and_duplicate() {
        let (mut h, c) = two_sessions_on_one_connection();
        let tx3 = h.post(c, &["Mcp-Session-Id: aaaa", V25], &tool_call(2));
        h.json(c, tx3, &["Mcp-Session-Id: bbbb"], &tool_result(1));
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-DUPLICATE-RESPONSE", "MCP-SESSION-ROTATION"]);
    }

    /// Sessions aaaa and bbbb initialized on one connection, aaaa's call id 1 answered.
    fn two_sessions_on_one_connection() -> (Harness, crate::reassembly::ConnId) {
        let mut h = Harness::new();
        let c = session(&mut h);
        handshake(&mut h, c, "2025-11-25", "2025-11-25", "bbbb");
        let tx1 = h.post(c, &[SID, V25], &tool_call(1));
        h.json(c, tx1, &[SID], &tool_result(1));
        (h, c)
    }

    #[test]
    fn re_initialize_after_a_404_is_a_new_session_not_a_rotation() {
        let mut h = Harness::new();
        let c = session(&mut h);
        let tx = h.post(c, &[SID, V25], &tool_call(1));
        h.reply(c, tx, 404, &["Content-Type: application/json"], &error("null", -32001, "Session not found"));
        handshake(&mut h, c, "2025-11-25", "2025-11-25", "dddd");
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
    }

    #[test]
    fn a_404_is_dead_from_its_head_on() {
        // camel-ai's client closes the connection at the 404's status line and sends its next request before
        // the body arrives (samples/ecosystem/clients5-camel-restart.pcap); greenlight-mcp relays the body with
        // no framing, so it ends only with its connection (gateways8-gl-restart). Both requests after the
        // head reuse the dead id.
        let run = |body_first: bool| {
            let mut h = Harness::new();
            let c = session(&mut h);
            let tx = h.post(c, &[SID, V25], &tool_call(1));
            h.head(c, tx, 404, &["Content-Type: application/json"]);
            if body_first {
                h.end(c, tx, crate::http::MessageEnd::ClosedByFin);
            }
            for id in [2, 3] {
                let c2 = h.connect(&format!("10.0.0.1:4100{id}"));
                let again = h.post(c2, &[SID, V25], &tool_call(id));
                h.reply(c2, again, 404, &["Content-Type: application/json"], &error("null", -32001, "Session not found"));
            }
            if !body_first {
                h.end(c, tx, crate::http::MessageEnd::ClosedByFin);
            }
            h.finish();
            h.facts_of("stale_session").iter().filter_map(|f| match &f.kind { FactKind::StaleSession(s) if s.trigger == "reuse" => Some(s.reuses), _ => None }).max()
        };
        assert_eq!(run(true), Some(2));
        assert_eq!(run(false), Some(2));
    }

    #[test]
    fn notifications_with_a_dead_id_are_no_further_requests() {
        // beeai-framework cancels every call once it is answered, so after a 404 its POSTs with the dead id
        // alternate `notifications/cancelled` and `tools/call` (samples/ecosystem/clients7-beeai-restart.pcap).
        // The catalogue counts requests: one call between two cancellations is one reuse, no row.
        let run = |calls: i64| {
            let mut h = Harness::new();
            let c = session(&mut h);
            let tx = h.post(c, &[SID, V25], &tool_call(1));
            h.reply(c, tx, 404, &["Content-Type: application/json"], &error("null", -32001, "Session not found"));
            for id in 2..2 + calls {
                for body in [notify("notifications/cancelled", &format!(r#"{{"requestId":{}}}"#, id - 1)), tool_call(id)] {
                    let next = h.post(c, &[SID, V25], &body);
                    h.reply(c, next, 404, &["Content-Type: application/json"], &error("null", -32001, "Session not found"));
                }
            }
            h.finish();
            let reuses = h.facts_of("stale_session").iter().filter_map(|f| match &f.kind { FactKind::StaleSession(s) if s.trigger == "reuse" => Some(s.reuses), _ => None }).max();
            (reuses, h.alarms().contains(&"MCP-NO-REINITIALIZE".to_string()))
        };
        assert_eq!(run(1), (Some(1), false));
        assert_eq!(run(2), (Some(2), true));
    }

    #[test]
    fn a_404_that_says_method_not_found_is_no_dead_session() {
        // The head marks the session dead; the body's -32601 takes it back, and the next requests with the
        // same id are no reuse of a dead one.
        let run = |code: i64| {
            let mut h = Harness::new();
            let c = session(&mut h);
            let tx = h.post(c, &[SID, V25], &call(1, "tasks/list", "{}"));
            h.reply(c, tx, 404, &["Content-Type: application/json"], &error("1", code, "Method not found"));
            for id in [2, 3, 4] {
                let next = h.post(c, &[SID, V25], &tool_call(id));
                h.json(c, next, &[], &tool_result(id));
            }
            h.finish();
            h.alarms().contains(&"MCP-NO-REINITIALIZE".to_string())
        };
        assert!(!run(-32601));
        assert!(run(-32001));
    }

    #[test]
    fn a_rotation_to_an_id_a_400_handed_out_names_that_answer() {
        // The Python SDK 1.x answers a POST without a session id 400 with a fresh Mcp-Session-Id, and the
        // Vercel AI SDK, which dropped its id at a 404, adopts it (samples/ecosystem/situations5-fastmcp2-ai-sdk.pcap).
        let mut h = Harness::new();
        let c = session(&mut h);
        let lost = h.post(c, &[V25], &tool_call(1));
        h.reply(c, lost, 400, &["Content-Type: application/json", "Mcp-Session-Id: eeee"], &error("\"server-error\"", -32600, "Bad Request: Missing session ID"));
        let given = h.last_frame() - 2;
        let tx = h.post(c, &["Mcp-Session-Id: eeee", V25], &tool_call(2));
        let sent = h.last_frame();
        h.json(c, tx, &["Mcp-Session-Id: eeee"], &tool_result(2));
        h.finish();
        let rotation: Vec<Vec<u64>> = h.facts_of("session_change").iter().map(|f| f.ctx.frames.clone()).collect();
        assert_eq!(rotation, [vec![given, sent]]);
        assert!(h.alarms().contains(&"MCP-SESSION-ROTATION".to_string()), "{:?}", h.alarms());
    }

    #[test]
    fn stateless_header_disagreeing_with_the_body_is_a_mismatch() {
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        let meta = r#"{"name":"t","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}"#;
        let tx = h.post(c, &["MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/list", "Mcp-Name: t"], &call(1, "tools/call", meta));
        h.json(c, tx, &[], &tool_result(1));
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-VERSION-HEADER-MISMATCH"]);
    }

    #[test]
    fn session_version_header_other_than_negotiated_is_a_mismatch() {
        let mut h = Harness::new();
        let c = session(&mut h);
        let tx = h.post(c, &[SID, "MCP-Protocol-Version: 2025-06-18"], &tool_call(1));
        h.json(c, tx, &[], &tool_result(1));
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-VERSION-HEADER-MISMATCH"]);
    }

    /// A session, then a POST answered 404 (the server forgot the session).
    fn dead_session(h: &mut Harness) -> crate::reassembly::ConnId {
        let c = session(h);
        let tx = h.post(c, &[SID, V25], &tool_call(1));
        h.reply(c, tx, 404, &["Content-Type: application/json"], &error("null", -32001, "Session not found"));
        c
    }

    #[test]
    fn no_reinitialize_after_two_posts_on_the_dead_session() {
        let mut h = Harness::new();
        let c = dead_session(&mut h);
        for id in 2..4 {
            h.wait(1_000);
            let tx = h.post(c, &[SID, V25], &tool_call(id));
            h.reply(c, tx, 404, &["Content-Type: application/json"], &error("null", -32001, "Session not found"));
        }
        h.finish();
        assert_eq!(h.alarms(), vec!["MCP-NO-REINITIALIZE"]);
    }

    #[test]
    fn requests_in_flight_at_the_404_and_the_get_reconnect_are_not_reuses() {
        let mut h = Harness::new();
        let c = session(&mut h);
        // Two POSTs on their way before the server restarts; both answered 404.
        let c2 = h.connect("10.0.0.1:40002");
        let a = h.post(c, &[SID, V25], &tool_call(1));
        let b = h.post(c2, &[SID, V25], &tool_call(2));
        // The GET reconnect is answered 404 too (rmcp's plain text body).
        let c3 = h.connect("10.0.0.1:40003");
        let g = h.request(c3, "GET", "/mcp", &[SID, "Accept: text/event-stream", "Last-Event-ID: 0/3"], "");
        h.reply(c3, g, 404, &["Content-Type: text/plain"], "Not Found: Session not found");
        h.reply(c, a, 404, &["Content-Type: text/plain"], "Not Found: Session not found");
        h.reply(c2, b, 404, &["Content-Type: text/plain"], "Not Found: Session not found");
        // A second GET reconnect with the dead id, then the client re-initializes at once.
        let g = h.request(c3, "GET", "/mcp", &[SID, "Accept: text/event-stream"], "");
        h.reply(c3, g, 404, &["Content-Type: text/plain"], "Not Found: Session not found");
        handshake(&mut h, c, "2025-11-25", "2025-11-25", "bbbb");
        h.wait(120_000);
        h.finish();
        // Only the GET came after the 404 with the dead id: seen, but no POST reuse counted.
        let stale = h.facts_of("stale_session");
        assert_eq!(stale.len(), 1, "{stale:?}");
        assert!(stale.iter().all(|f| matches!(&f.kind, FactKind::StaleSession(s) if s.reuses == 0 && s.http_method == "GET")));
        assert_eq!(h.alarms(), Vec::<String>::new(), "{:?}", h.facts);
    }

    #[test]
    fn no_reinitialize_window_fires_at_the_param_value_even_above_300_s() {
        let patch = ("w.toml", "id = \"MCP-NO-REINITIALIZE\"\n[params]\nwindow_secs = 700\n");
        let mut h = Harness::patched(&[patch]);
        let c = dead_session(&mut h);
        // The client goes on talking to the server (a GET now and then) without re-initializing.
        for _ in 0..6 {
            h.wait(100_000);
            let g = h.request(c, "GET", "/other", &[], "");
            h.reply(c, g, 200, &["Content-Type: text/plain"], "x");
        }
        h.wait(90_000);
        assert!(h.alarms().is_empty(), "fired before the window: {:?}", h.alarms());
        h.wait(20_000);
        h.finish();
        let waits: Vec<i64> = h
            .facts_of("stale_session")
            .iter()
            .filter_map(|f| match &f.kind {
                FactKind::StaleSession(s) if s.trigger == "wait" => Some(s.since_404_ms),
                _ => None,
            })
            .collect();
        assert_eq!(waits, vec![700_000]);
        assert_eq!(h.alarms(), vec!["MCP-NO-REINITIALIZE"]);
        // The report names the client whose request was answered 404, port and all (not port 0: the timer
        // has no connection of its own).
        let clients: Vec<String> = h.facts_of("stale_session").iter().map(|f| f.ctx.client.to_string()).collect();
        assert!(clients.iter().all(|c| c == "10.0.0.1:40000"), "{clients:?}");
    }

    #[test]
    fn request_stalled_fires_at_stall_secs_above_600() {
        let patch = ("s.toml", "id = \"MCP-REQUEST-STALLED\"\n[params]\nstall_secs = 900\n");
        let mut h = Harness::patched(&[patch]);
        let c = session(&mut h);
        let tx = h.post(c, &[SID, V25], &tool_call(1));
        h.sse(c, tx, &[]);
        h.wait(899_000);
        assert!(h.alarms().is_empty());
        h.wait(2_000);
        assert_eq!(h.alarms(), vec!["MCP-REQUEST-STALLED"]);
        h.close_stream(c, tx, Direction::ToServer, EndReason::Fin);
        h.finish();
    }

    #[test]
    fn request_whose_answer_the_capture_may_have_lost_is_not_stalled() {
        // Server bytes lost while the request waited (a gap, or the connection went dark with bytes never
        // acknowledged): its answer may be in what the capture lost.
        for how in ["gap before the head", "gap in the stream", "lost sight"] {
            let mut h = Harness::new();
            let c = session(&mut h);
            let tx = h.post(c, &[SID, V25], &tool_call(1));
            match how {
                "gap before the head" => h.gap(c, 500),
                "gap in the stream" => {
                    h.sse(c, tx, &[]);
                    h.gap(c, 500);
                }
                _ => {
                    h.sse(c, tx, &[]);
                    h.unacked(c);
                }
            }
            h.wait(61_000);
            assert!(h.alarms().is_empty(), "{how}: {:?}", h.alarms());
            // The wait is a fact (before a response head too: the session the request was keyed to), marked
            // as the capture's loss, which the rule does not judge.
            let waits = h.facts_of("request_waiting");
            assert!(!waits.is_empty(), "{how}");
            assert!(waits.iter().all(|f| f.kind.field("capture_loss") == Some(FieldValue::Bool(true))), "{how}");
        }
    }

    #[test]
    fn two_runs_of_a_client_against_a_server_without_session_ids_are_two_sessions() {
        let mut h = Harness::new();
        for port in [40000, 40010] {
            let c = h.connect(&format!("10.0.0.1:{port}"));
            let tx = h.post(c, &[], &initialize(0, "2025-11-25"));
            h.json(c, tx, &[], &initialized(0, "2025-11-25"));
            for id in 1..3 {
                let tx = h.post(c, &[V25], &tool_call(id));
                h.json(c, tx, &[], &tool_result(id));
            }
        }
        assert_eq!(h.t.open_sessions(), 2);
        h.finish();
        assert_eq!(h.alarms(), Vec::<String>::new());
    }
}
