//! The session recorder: what the reports (`--sessions`, `--timeline`, `--html`) need from the classifier,
//! kept only when one of them asks. It owns per-session counters (the inventory) and, optionally, a
//! per-session list of requests, responses, SSE events and stream ends (the timeline). It records; it
//! never decides anything, and it never feeds back into facts or incidents, so enabling it cannot change
//! the incident report.
//!
//! Bounds: at most `max_records` sessions are recorded (later ones are counted in `dropped_sessions`), and
//! at most `max_entries` timeline entries per session (later ones are counted in the record's
//! `timeline_dropped`). A session that expires and reappears under the same key is one record.

use std::collections::BTreeMap;
use std::net::SocketAddr;

use crate::facts::Era;
use crate::jsonrpc::Message;
use crate::time::Timestamp;

use super::session::Session;

/// Timeline entries kept per session by default (a long SSE stream can carry thousands of events).
pub const DEFAULT_TIMELINE_ENTRIES: usize = 5000;

/// Which sessions get a timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimelineScope {
    /// None: counters only.
    Off,
    /// Sessions whose `session_id` column equals this id.
    Session(String),
    /// Every session (the HTML report).
    All,
}

/// What the recorder is asked to keep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecorderConfig {
    pub max_records: usize,
    pub max_entries: usize,
    pub timeline: TimelineScope,
}

/// A request as the recorder takes it.
#[derive(Debug, Clone, Copy)]
pub struct Asked<'a> {
    pub ts: Timestamp,
    pub frame: u64,
    pub http_method: &'a str,
    pub path: &'a str,
    /// The first JSON-RPC method of its body, `""` for none.
    pub rpc_method: &'a str,
    /// The HTTP/2 stream that carried it (`None` on HTTP/1.1).
    pub h2_stream: Option<u32>,
}

/// A 202 or 204: it acknowledges (notifications, responses, a legacy message POST) and carries no reply,
/// whatever its content type says.
pub fn acknowledgement(status: u16) -> bool {
    matches!(status, 202 | 204)
}

/// A response head as the recorder takes it.
#[derive(Debug, Clone, Copy)]
pub struct Answer<'a> {
    pub ts: Timestamp,
    pub frame: u64,
    pub status: u16,
    /// The media type, as on the wire (the timeline shows it).
    pub media: Option<&'a str>,
    /// `Content-Encoding` as written.
    pub coding: Option<&'a str>,
    /// No body can follow (202, 204, `Content-Length: 0`): counted with the other responses whatever its
    /// media type, since it carries no JSON-RPC reply.
    pub bodiless: bool,
}

/// One thing that happened in a session, at a frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimelineEntry {
    pub ts: Timestamp,
    pub frame: u64,
    pub what: EntryKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryKind {
    /// An HTTP request keyed to the session: method, path, first JSON-RPC method of the body, the
    /// HTTP/2 stream that carried it (`None` on HTTP/1.1), and the client port of its connection (a
    /// session may span several, each with its own stream numbers).
    Request { http_method: String, path: String, rpc_method: String, h2_stream: Option<u32>, client_port: u16 },
    /// The response head: status and media type, and the request's methods.
    /// `coding`: the response's `Content-Encoding` as written, `""` for none.
    Response { http_method: String, rpc_method: String, status: u16, content_type: String, coding: String },
    /// One SSE event: its `event:` and `id:` fields and a short JSON-RPC description of its data.
    SseEvent { event: String, id: String, rpc: String },
    /// An SSE stream ended: how, with its cursor state.
    StreamEnd { reason: String, events: u64, ids: u64, cursor: String },
    /// A request keyed to the session got no response head: why the wait ended (its connection closed,
    /// or the capture ended).
    NoResponse { reason: &'static str },
}

/// The inventory row of one session, and its timeline when recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    /// The `session_id` column value (id or `-`).
    pub session_id: String,
    /// The incidents' aggregation key (`Incident::session_key`) of this session.
    pub unique: String,
    pub client: Option<SocketAddr>,
    pub server: SocketAddr,
    pub host: String,
    pub endpoint: String,
    pub era: Era,
    pub version: Option<String>,
    pub first_seen: Timestamp,
    pub last_seen: Timestamp,
    pub requests: u64,
    pub resp_json: u64,
    pub resp_sse: u64,
    pub resp_other: u64,
    /// SSE streams that ended, by id cursor state (`none`, `ordered`, ...).
    pub streams: BTreeMap<String, u64>,
    pub fallbacks: u64,
    /// Responses by `Content-Encoding` as written (`gzip`, `br, gzip`); identity responses are not counted.
    pub codings: BTreeMap<String, u64>,
    /// `Some` when this session's timeline is recorded.
    pub timeline: Option<Vec<TimelineEntry>>,
    pub timeline_dropped: u64,
}

/// The recorder the `McpTracker` feeds when a report asks for it.
#[derive(Debug)]
pub struct Recorder {
    config: RecorderConfig,
    // ALLOC: one record per session seen, bounded by RecorderConfig::max_records
    records: BTreeMap<String, SessionRecord>,
    pub dropped_sessions: u64,
}

impl Recorder {
    pub fn new(config: RecorderConfig) -> Recorder {
        Recorder { config, records: BTreeMap::new(), dropped_sessions: 0 }
    }

    /// The record of a session, created (and its static fields refreshed) on the way.
    fn record(&mut self, s: &Session) -> Option<&mut SessionRecord> {
        if !self.records.contains_key(&*s.unique) {
            if self.records.len() >= self.config.max_records {
                self.dropped_sessions += 1;
                return None;
            }
            let timeline = match &self.config.timeline {
                TimelineScope::Off => None,
                TimelineScope::All => Some(Vec::new()),
                TimelineScope::Session(id) => (id == s.key.display_id()).then(Vec::new),
            };
            let r = SessionRecord {
                session_id: s.key.display_id().to_string(),
                unique: s.unique.to_string(),
                client: None,
                server: s.key.server,
                host: String::new(),
                endpoint: String::new(),
                era: Era::Unknown,
                version: None,
                first_seen: s.first_seen,
                last_seen: s.last_seen,
                requests: 0,
                resp_json: 0,
                resp_sse: 0,
                resp_other: 0,
                streams: BTreeMap::new(),
                fallbacks: 0,
                codings: BTreeMap::new(),
                timeline,
                timeline_dropped: 0,
            };
            self.records.insert(s.unique.to_string(), r);
        }
        let r = self.records.get_mut(&*s.unique)?;
        r.first_seen = r.first_seen.min(s.first_seen);
        r.last_seen = r.last_seen.max(s.last_seen);
        if r.host.is_empty() {
            r.host = s.host.to_string();
        }
        if r.endpoint.is_empty() {
            r.endpoint.clone_from(&s.endpoint);
        }
        // The session's era is its latest word: a handshake after a 2026-07-28 probe makes it a 2025 session
        // (INCIDENTS.md "era"), and the record must not keep the probe's.
        if s.era != Era::Unknown {
            r.era = s.era;
        }
        // The negotiated version, or where no handshake negotiated one, what the session's 2026-07-28 requests
        // declared (the Python 2.x client's stateless exchanges run over an HTTP+SSE session too).
        let version = s.version.as_deref().or(s.declared_version.as_deref());
        if version.is_some() && r.version.as_deref() != version {
            r.version = version.map(str::to_string);
        }
        Some(r)
    }

    fn push(&mut self, s: &Session, ts: Timestamp, frame: u64, what: EntryKind) {
        self.push_seen(s, ts, frame, what, true);
    }

    /// One of the session's requests, answered or not: counted, and on the timeline. The session was seen
    /// from the moment its request was (a session keyed at its first response, as one whose id the
    /// `initialize` answer mints, began with that request).
    fn request(&mut self, s: &Session, client: SocketAddr, req: Asked<'_>) {
        if let Some(r) = self.record(s) {
            r.first_seen = r.first_seen.min(req.ts);
            r.client.get_or_insert(client);
            r.requests += 1;
        }
        let what = EntryKind::Request {
            http_method: req.http_method.into(),
            path: req.path.into(),
            rpc_method: req.rpc_method.into(),
            h2_stream: req.h2_stream,
            client_port: client.port(),
        };
        self.push(s, req.ts, req.frame, what);
    }

    /// `seen`: the entry is evidence of the session at `ts` (moves its `last_seen`).
    fn push_seen(&mut self, s: &Session, ts: Timestamp, frame: u64, what: EntryKind, seen: bool) {
        let cap = self.config.max_entries;
        let Some(r) = self.record(s) else { return };
        if seen {
            r.last_seen = r.last_seen.max(ts);
        }
        if let Some(t) = r.timeline.as_mut() {
            if t.len() < cap {
                // ALLOC: one timeline entry, bounded by RecorderConfig::max_entries per session
                t.push(TimelineEntry { ts, frame, what });
            } else {
                r.timeline_dropped += 1;
            }
        }
    }

    /// A request/response pair keyed to the session, seen at the response head.
    pub fn exchange(&mut self, s: &Session, client: SocketAddr, req: Asked<'_>, resp: Answer<'_>) {
        if let Some(r) = self.record(s) {
            if let Some(c) = resp.coding.filter(|c| !c.trim().is_empty() && r.codings.len() < 16) {
                // ALLOC: one entry per distinct coding of a session, at most 16
                *r.codings.entry(c.trim().to_ascii_lowercase()).or_default() += 1;
            }
            match resp.media.filter(|_| !resp.bodiless) {
                Some("application/json") => r.resp_json += 1,
                Some("text/event-stream") => r.resp_sse += 1,
                _ => r.resp_other += 1,
            }
        }
        self.request(s, client, req);
        self.push(
            s,
            resp.ts,
            resp.frame,
            EntryKind::Response {
                http_method: req.http_method.into(),
                rpc_method: req.rpc_method.into(),
                status: resp.status,
                content_type: resp.media.unwrap_or("").into(),
                coding: resp.coding.unwrap_or("").trim().to_ascii_lowercase(),
            },
        );
    }

    /// A request keyed to the session that got no response head before `end` (its connection closed or
    /// the capture ended): counted with the session's requests, and on its timeline with why no answer
    /// came. A request no session was keyed for (an `initialize` whose answer would have named one) is
    /// not here.
    pub fn unanswered(&mut self, s: &Session, client: SocketAddr, req: Asked<'_>, end: (Timestamp, &'static str)) {
        self.request(s, client, req);
        // After the request in the timeline's order: at the end of the wait, on the request's frame. The
        // wait's end is no traffic of the session, so its last_seen stays where the traffic left it.
        self.push_seen(s, end.0.max(req.ts), req.frame, EntryKind::NoResponse { reason: end.1 }, false);
    }

    /// One SSE event; `rpc` describes its payload and is only computed when a timeline is kept.
    pub fn sse_event(&mut self, s: &Session, ts: Timestamp, frame: u64, event: &str, id: &str, rpc: impl FnOnce() -> String) {
        let wanted = self.record(s).is_some_and(|r| r.timeline.is_some());
        if !wanted {
            return;
        }
        self.push(s, ts, frame, EntryKind::SseEvent { event: event.into(), id: id.into(), rpc: rpc() });
    }

    /// An SSE stream ended; `counts` is (events, ids).
    pub fn stream_end(&mut self, s: &Session, ts: Timestamp, frame: u64, reason: &str, counts: (u64, u64), cursor: &str) {
        let (events, ids) = counts;
        if let Some(r) = self.record(s) {
            *r.streams.entry(cursor.to_string()).or_default() += 1;
        }
        self.push(s, ts, frame, EntryKind::StreamEnd { reason: reason.into(), events, ids, cursor: cursor.into() });
    }

    pub fn fallback(&mut self, s: &Session) {
        if let Some(r) = self.record(s) {
            r.fallbacks += 1;
        }
    }

    /// `from` turned out to be part of `into` (an HTTP+SSE GET stream keyed before its `endpoint` event
    /// named its session): its record joins `into`'s.
    pub fn merge(&mut self, from: &Session, into: &Session) {
        let Some(old) = self.records.remove(&*from.unique) else { return };
        let cap = self.config.max_entries;
        let Some(r) = self.record(into) else { return };
        r.first_seen = r.first_seen.min(old.first_seen);
        r.last_seen = r.last_seen.max(old.last_seen);
        // The GET came first: its client is the session's.
        r.client = old.client.or(r.client);
        r.requests += old.requests;
        r.resp_json += old.resp_json;
        r.resp_sse += old.resp_sse;
        r.resp_other += old.resp_other;
        for (k, n) in old.streams {
            *r.streams.entry(k).or_default() += n;
        }
        r.fallbacks += old.fallbacks;
        for (k, n) in old.codings {
            *r.codings.entry(k).or_default() += n;
        }
        if let (Some(t), Some(o)) = (r.timeline.as_mut(), old.timeline) {
            let room = cap.saturating_sub(t.len());
            r.timeline_dropped += o.len().saturating_sub(room) as u64;
            t.extend(o.into_iter().take(room));
        }
        r.timeline_dropped += old.timeline_dropped;
    }

    /// Refreshes a session's static fields (era, version) before it is released.
    pub fn release(&mut self, s: &Session) {
        if self.records.contains_key(&*s.unique) {
            self.record(s);
        }
    }

    /// Every record, ordered by first seen, then session id, then key (deterministic).
    pub fn into_records(self) -> Vec<SessionRecord> {
        let mut v: Vec<SessionRecord> = self.records.into_values().collect();
        v.sort_by(report_order);
        v
    }
}

/// The reports' session order: first seen, then session id, then key (unique per session, so total).
pub fn report_order(a: &SessionRecord, b: &SessionRecord) -> std::cmp::Ordering {
    (a.first_seen, &a.session_id, &a.unique).cmp(&(b.first_seen, &b.session_id, &b.unique))
}

/// A short description of an SSE `data` payload for the timeline: each JSON-RPC message as its method, or
/// `result N` / `error N` for a reply to id N; empty for a payload that is not JSON-RPC.
pub fn describe_payload(payload: Option<&Result<crate::jsonrpc::Payload, crate::jsonrpc::ParseProblem>>) -> String {
    let Some(Ok(p)) = payload else { return String::new() };
    let parts: Vec<String> = p
        .messages
        .iter()
        .map(|m| match m {
            Message::Request { id, method, .. } => format!("{method} #{}", id.display()),
            Message::Notification { method, .. } => method.to_string(),
            Message::Response { id, .. } => format!("result #{}", id.display()),
            Message::Error { id, code, .. } => format!("error {code} #{}", id.display()),
        })
        .collect();
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::mcp::session::{SessionIdent, SessionKey};

    fn session(id: &str, t: i64) -> Session {
        let server: SocketAddr = "127.0.0.1:8000".parse().unwrap();
        Session::new(SessionKey { server, ident: SessionIdent::McpSessionId(id.into()) }, Timestamp::from_secs_micros(t, 0))
    }

    fn ask<'a>(ts: Timestamp, frame: u64, http_method: &'a str, path: &'a str, rpc_method: &'a str, h2_stream: Option<u32>) -> Asked<'a> {
        Asked { ts, frame, http_method, path, rpc_method, h2_stream }
    }

    fn ans<'a>(ts: Timestamp, frame: u64, status: u16, media: Option<&'a str>, coding: Option<&'a str>) -> Answer<'a> {
        Answer { ts, frame, status, media, coding, bodiless: false }
    }

    #[test]
    fn an_answer_without_a_body_is_no_json_reply_but_shows_its_type() {
        // The Python SDK's 202 to notifications/initialized, as application/json with no body.
        let mut r = Recorder::new(cfg(TimelineScope::All));
        let a = session("a", 1);
        let c: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let t = Timestamp::from_secs_micros(1, 0);
        let accepted = Answer { bodiless: true, ..ans(t, 2, 202, Some("application/json"), None) };
        r.exchange(&a, c, ask(t, 1, "POST", "/mcp", "notifications/initialized", None), accepted);
        let v = r.into_records();
        assert_eq!((v[0].requests, v[0].resp_json, v[0].resp_sse, v[0].resp_other), (1, 0, 0, 1));
        let tl = v[0].timeline.as_ref().unwrap();
        assert!(matches!(&tl[1].what, EntryKind::Response { status: 202, content_type, .. } if content_type == "application/json"), "{tl:?}");
    }

    fn cfg(timeline: TimelineScope) -> RecorderConfig {
        RecorderConfig { max_records: 2, max_entries: 3, timeline }
    }

    #[test]
    fn recorder_counts_by_content_type_and_orders_by_first_seen() {
        let mut r = Recorder::new(cfg(TimelineScope::Off));
        let (a, b) = (session("b", 20), session("a", 10));
        let c: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let t = Timestamp::from_secs_micros(20, 0);
        r.exchange(&a, c, ask(t, 1, "POST", "/mcp", "tools/list", None), ans(t, 2, 200, Some("application/json"), Some("gzip")));
        r.exchange(&a, c, ask(t, 3, "POST", "/mcp", "tools/call", Some(3)), ans(t, 4, 200, Some("text/event-stream"), Some(" GZip ")));
        r.exchange(&b, c, ask(t, 5, "GET", "/mcp", "", None), ans(t, 6, 405, None, None));
        r.stream_end(&a, t, 4, "complete", (1, 0), "none");
        let v = r.into_records();
        assert_eq!(v.iter().map(|x| x.session_id.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!((v[1].requests, v[1].resp_json, v[1].resp_sse, v[1].resp_other), (2, 1, 1, 0));
        assert_eq!(v[1].streams.get("none"), Some(&1));
        assert_eq!(v[0].resp_other, 1);
        assert!(v[0].timeline.is_none());
        // Codings as written, case and spaces aside; identity responses are not counted.
        assert_eq!(v[1].codings.get("gzip"), Some(&2));
        assert!(v[0].codings.is_empty());
    }

    #[test]
    fn an_unanswered_request_is_counted_and_its_wait_does_not_move_last_seen() {
        let mut r = Recorder::new(RecorderConfig { max_records: 2, max_entries: 10, timeline: TimelineScope::All });
        let a = session("a", 1);
        let c: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let (t1, t2, t9) = (Timestamp::from_secs_micros(1, 0), Timestamp::from_secs_micros(2, 0), Timestamp::from_secs_micros(9, 0));
        r.exchange(&a, c, ask(t1, 1, "POST", "/mcp", "ping", None), ans(t1, 2, 200, Some("application/json"), None));
        r.unanswered(&a, c, ask(t2, 3, "GET", "/mcp", "", None), (t9, "no response by the end of the capture"));
        let v = r.into_records();
        assert_eq!((v[0].requests, v[0].resp_json, v[0].resp_sse, v[0].resp_other), (2, 1, 0, 0));
        assert_eq!(v[0].last_seen, t2);
        let tl = v[0].timeline.as_ref().unwrap();
        assert_eq!(tl[2], TimelineEntry { ts: t2, frame: 3, what: EntryKind::Request { http_method: "GET".into(), path: "/mcp".into(), rpc_method: String::new(), h2_stream: None, client_port: 5000 } });
        assert_eq!(tl[3], TimelineEntry { ts: t9, frame: 3, what: EntryKind::NoResponse { reason: "no response by the end of the capture" } });
    }

    #[test]
    fn a_session_keyed_at_its_first_answer_was_seen_from_its_request() {
        // An initialize whose answer mints the id: the session is made at the answer (5 s), its request
        // went at 1 s.
        let mut r = Recorder::new(cfg(TimelineScope::Off));
        let s = session("minted", 5);
        let c: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let (t1, t5) = (Timestamp::from_secs_micros(1, 0), Timestamp::from_secs_micros(5, 0));
        r.exchange(&s, c, ask(t1, 1, "POST", "/mcp", "initialize", None), ans(t5, 2, 200, Some("application/json"), None));
        let v = r.into_records();
        assert_eq!((v[0].first_seen, v[0].last_seen), (t1, t5));
    }

    #[test]
    fn recorder_bounds_sessions_and_entries() {
        let mut r = Recorder::new(cfg(TimelineScope::Session("a".into())));
        let t = Timestamp::from_secs_micros(1, 0);
        let c: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let a = session("a", 1);
        for f in 0..4 {
            r.exchange(&a, c, ask(t, f * 2, "POST", "/mcp", "ping", None), ans(t, f * 2 + 1, 200, Some("application/json"), None));
        }
        r.fallback(&session("x", 1));
        r.fallback(&session("y", 1));
        assert_eq!(r.dropped_sessions, 1);
        let v = r.into_records();
        let a = v.iter().find(|x| x.session_id == "a").unwrap();
        assert_eq!(a.timeline.as_ref().unwrap().len(), 3);
        assert_eq!(a.timeline_dropped, 5);
        assert!(v.iter().find(|x| x.session_id == "x").unwrap().timeline.is_none());
    }

    #[test]
    fn describe_payload_names_methods_and_reply_ids() {
        let describe = |data: &str| describe_payload(Some(&crate::jsonrpc::parse(data.as_bytes())));
        assert_eq!(describe(r#"{"jsonrpc":"2.0","id":3,"result":{}}"#), "result #3");
        assert_eq!(describe(r#"{"jsonrpc":"2.0","method":"notifications/progress"}"#), "notifications/progress");
        assert_eq!(describe("not json"), "");
        assert_eq!(describe_payload(None), "");
    }
}
