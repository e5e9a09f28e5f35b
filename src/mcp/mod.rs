//! The MCP layer and classifier: HTTP events of every connection -> JSON-RPC messages, MCP sessions
//! (keyed across connections), transport era, and typed `Fact`s. It records and reports; it never decides
//! what is an incident (that is `detect`'s job, from rules).
//!
//! Session keying follows INCIDENTS.md: `Mcp-Session-Id` (MCP 2025-03-26 transports, "Session
//! Management": the server mints it on the response carrying `InitializeResult`, the client echoes it on
//! every later request), the HTTP+SSE session parameter of the URL announced by the `endpoint` event
//! (MCP 2024-11-05 transports), or, where the wire carries none, client address + server + endpoint.
//!
//! Facts are emitted when something notable happens (a content-type change, an error status, a stream's
//! end, an id anomaly, a fallback sequence), never per packet: rules cost microseconds each.

pub mod cursor;
pub mod record;
pub mod session;
pub mod stream;

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::net::{IpAddr, SocketAddr};

use crate::decode::flow_key::Direction;
use crate::facts::{self, Era, Fact, FactContext, FactKind};
use crate::http::{HttpEvent, MessageEnd, RequestHead, ResponseHead, SseEvent, TxId};
use crate::jsonrpc::{self, Id, Message};
use crate::limits::Limits;
use crate::reassembly::{ConnId, ConnMap, EndReason};
use crate::time::{Duration, Timestamp};

use cursor::Step;
use record::{Recorder, RecorderConfig, SessionRecord};
use session::{BodyType, LastPost, Session, SessionIdent, SessionKey, SessionTable};
use stream::StreamTrack;

/// Ages (s) at which an unanswered request is reported (`request_waiting`).
const WAIT_CHECKPOINTS: &[i64] = &[5, 10, 15, 30, 45, 60, 90, 120, 180, 300, 600];
/// Ages (s) after a 404 at which a missing re-initialize is reported (`stale_session`, trigger `wait`).
const REINIT_CHECKPOINTS: &[i64] = &[10, 30, 60, 120, 300];
/// Bytes of a non-JSON error body kept to classify it and quote its first line.
const ERROR_BODY_BYTES: usize = 4096;
/// 5xx times remembered per server endpoint for `recent_5xx_ms`.
const RECENT_5XX: usize = 32;

/// Counters for the summary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpStats {
    pub jsonrpc_messages: u64,
    pub json_parse_errors: u64,
    pub bodies_over_cap: u64,
    pub sse_events: u64,
    pub session_cap_hits: u64,
    /// Outstanding requests forgotten at `Limits::max_pending_per_session`: the oldest unanswered
    /// transaction of a connection with that many waiting, or request ids a POST stream owes beyond it.
    pub pending_cap_hits: u64,
    pub sessions_expired: u64,
    /// Sessions finished (expired, evicted or at end of capture), by era.
    pub sessions_by_era: BTreeMap<Era, u64>,
}

/// The request half of an HTTP transaction, as much as the classifier keeps.
#[derive(Debug)]
struct Req {
    method: String,
    target: String,
    host: String,
    session_id: Option<String>,
    proto_version: Option<String>,
    mcp_method: Option<String>,
    mcp_name: Option<String>,
    last_event_id: Option<String>,
    frame: u64,
    ts: Timestamp,
    // ALLOC: request body for JSON-RPC decoding, bounded by limits::max_body_bytes
    body: Vec<u8>,
    body_over: bool,
    messages: Option<Vec<Message>>,
    /// Request-side facts were emitted (at RequestEnd, or at the response if that came first).
    checked: bool,
}

impl Req {
    fn from_head(head: &RequestHead, frame: u64, ts: Timestamp) -> Req {
        let h = &head.headers;
        let owned = |name: &str| h.get(name).map(str::to_string);
        Req {
            method: head.method.clone(),
            target: head.target.clone(),
            host: h.get("host").unwrap_or("").to_string(),
            session_id: owned("mcp-session-id"),
            proto_version: owned("mcp-protocol-version"),
            mcp_method: owned("mcp-method"),
            mcp_name: owned("mcp-name"),
            last_event_id: owned("last-event-id"),
            frame,
            ts,
            body: Vec::new(),
            body_over: false,
            messages: None,
            checked: false,
        }
    }

    fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }

    /// The HTTP+SSE session parameter of the POST URL (`?sessionId=` TypeScript, `?session_id=` Python).
    fn legacy_param(&self) -> Option<&str> {
        legacy_param(&self.target)
    }

    /// JSON-RPC messages of the body, decoded once.
    fn decode(&mut self, stats: &mut McpStats) {
        if self.messages.is_some() {
            return;
        }
        let msgs = if self.body.is_empty() || self.body_over {
            Vec::new()
        } else {
            match jsonrpc::parse(&self.body) {
                Ok(p) => p.messages,
                Err(_) => {
                    stats.json_parse_errors += 1;
                    Vec::new()
                }
            }
        };
        stats.jsonrpc_messages += msgs.len() as u64;
        self.body = Vec::new();
        self.messages = Some(msgs);
    }

    fn messages(&self) -> &[Message] {
        self.messages.as_deref().unwrap_or(&[])
    }

    fn request_ids(&self) -> Vec<Id> {
        self.messages()
            .iter()
            .filter_map(|m| match m {
                Message::Request { id, .. } => Some(id.clone()),
                _ => None,
            })
            .collect()
    }

    fn first_method(&self) -> String {
        self.messages().iter().find_map(|m| m.method().map(str::to_string)).unwrap_or_default()
    }

    fn is_initialize(&self) -> bool {
        self.messages().iter().any(|m| matches!(m, Message::Request { method, .. } if method == "initialize"))
    }

    fn requested_version(&self) -> Option<String> {
        self.messages().iter().find_map(|m| match m {
            Message::Request { method, params, .. } if method == "initialize" => params.protocol_version.clone(),
            _ => None,
        })
    }

    /// Carries markers of the stateless 2026-07-28 era (mcp-transports.md §1.2).
    fn is_modern(&self) -> bool {
        self.mcp_method.is_some()
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

    fn era(&self) -> Option<Era> {
        if self.is_modern() {
            Some(Era::Stateless2026)
        } else if self.legacy_param().is_some() {
            Some(Era::HttpSse2024)
        } else if self.session_id.is_some() || self.is_initialize() {
            Some(Era::Streamable2025)
        } else {
            None
        }
    }

    /// What keys the request to a session.
    fn key_info(&self) -> KeyInfo {
        KeyInfo {
            session_id: self.session_id.clone(),
            legacy: self.legacy_param().map(str::to_string),
            path: self.path().to_string(),
            host: self.host.clone(),
            is_post: self.method == "POST",
            era: self.era(),
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

    fn is_mcp(&self) -> bool {
        !self.messages().is_empty() || self.session_id.is_some() || (self.method == "POST" && self.legacy_param().is_some())
    }
}

/// The parts of a request that pick and describe its session.
#[derive(Debug, Clone)]
struct KeyInfo {
    session_id: Option<String>,
    legacy: Option<String>,
    path: String,
    host: String,
    is_post: bool,
    era: Option<Era>,
    requested: Option<String>,
    /// 2026-07-28 `_meta` `clientInfo.name`, part of a stateless exchange's key.
    client_name: Option<String>,
}

fn legacy_param(target: &str) -> Option<&str> {
    let query = target.split_once('?')?.1;
    query.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == "sessionId" || k == "session_id").then_some(v)
    })
}

/// A JSON -> SSE (or back) shift waiting to be judged when its stream answers or ends.
#[derive(Debug)]
struct PendingShift {
    fact: facts::ResponseShift,
    ctx: FactContext,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RespKind {
    Post,
    Get,
    Other,
}

/// The response half of a transaction.
#[derive(Debug)]
struct Resp {
    status: u16,
    media: Option<String>,
    kind: RespKind,
    frame: u64,
    session: Option<SessionKey>,
    // ALLOC: JSON or error body, bounded by limits::max_body_bytes (error bodies by ERROR_BODY_BYTES)
    body: Vec<u8>,
    body_over: bool,
    stream: Option<StreamTrack>,
    shift: Option<PendingShift>,
    init_requested: Option<String>,
    auth_challenge: bool,
}

#[derive(Debug)]
struct Tx {
    id: Option<TxId>,
    req: Option<Req>,
    resp: Option<Resp>,
    /// Next `WAIT_CHECKPOINTS` index for this transaction's unanswered requests.
    wait_step: usize,
    /// Its pending `Timer::Request` (key in `McpTracker::timers`), removed with the transaction when it
    /// is dropped at the cap.
    timer: Option<(Timestamp, u64)>,
}

#[derive(Debug)]
struct ConnView {
    client: SocketAddr,
    server: SocketAddr,
    txs: VecDeque<Tx>,
    /// The first direction to end, and how: who closed a stream.
    first_end: Option<(Direction, EndReason)>,
    /// Session id of the previous request on this connection.
    last_session_id: Option<String>,
    /// The connection carried MCP traffic (for coverage of gaps).
    mcp: bool,
    /// Gaps seen before the connection was known to carry MCP: counts, bytes, first frame. Reported to
    /// the server's coverage when it turns out to (at close).
    early_gaps: u64,
    early_missed: u64,
    early_frame: u64,
    /// A capture gap hit this connection: every session later bound to one of its responses has
    /// evidence that may cross the gap (`FactContext::crosses_gap`), not only those bound before it.
    gapped: bool,
}

impl ConnView {
    fn tx_mut(&mut self, id: Option<TxId>) -> Option<&mut Tx> {
        // Request-side events name the newest transaction and responses the oldest (RFC 9112 §9.3.2:
        // responses come in request order), so both ends are tried before a scan.
        let last = self.txs.len().saturating_sub(1);
        let i = if self.txs.back().is_some_and(|t| t.id == id) { last } else { self.txs.iter().position(|t| t.id == id)? };
        self.txs.get_mut(i)
    }
}

/// A POST that failed, kept per client and server to explain a later fallback.
#[derive(Debug, Clone)]
struct FailedPost {
    kind: &'static str,
    status: u16,
    code: i64,
    version: String,
    path: String,
    ts: Timestamp,
    frame: u64,
}

/// A dead session (answered 404) of a client.
#[derive(Debug, Clone)]
struct Dead {
    ts: Timestamp,
    frame: u64,
    reinitialized: bool,
    key: SessionKey,
    endpoint: String,
}

/// What the classifier keeps per client address and server.
#[derive(Debug, Default)]
struct ClientState {
    last_request: Timestamp,
    failed_post: Option<FailedPost>,
    /// Last POST answer per path: status, media type, frame.
    post_answers: BTreeMap<String, (u16, String, u64)>,
    dead: BTreeMap<String, Dead>,
}

/// What the classifier keeps per server address.
#[derive(Debug, Default)]
struct ServerState {
    /// Paths that carried JSON-RPC POSTs.
    mcp_paths: HashSet<String>,
    /// Paths whose GET served an HTTP+SSE `endpoint` event.
    sse_paths: HashSet<String>,
    recent_5xx: BTreeMap<String, VecDeque<Timestamp>>,
    gaps: u64,
    missed_bytes: u64,
    /// Frames where gaps were noticed (at most `detect::MAX_FRAMES`), and the first gap's client.
    gap_frames: Vec<u64>,
    gap_client: Option<SocketAddr>,
}

#[derive(Debug, Clone)]
enum Timer {
    Request { conn: ConnId, tx: Option<TxId> },
    Reinit { client: (IpAddr, SocketAddr), sid: String, step: usize },
}

pub struct McpTracker {
    limits: Limits,
    conns: ConnMap<ConnView>,
    sessions: SessionTable,
    clients: HashMap<(IpAddr, SocketAddr), ClientState>,
    servers: HashMap<SocketAddr, ServerState>,
    /// Session ids minted by an `initialize` response in this capture.
    minted: HashSet<String>,
    timers: BTreeMap<(Timestamp, u64), Timer>,
    timer_seq: u64,
    stream_uid: u64,
    stats: McpStats,
    last_expiry: Timestamp,
    /// Per-session counters and timelines for the reports; `None` unless a report asks (record.rs).
    recorder: Option<Recorder>,
}

impl McpTracker {
    pub fn new(limits: &Limits) -> McpTracker {
        McpTracker {
            limits: limits.clone(),
            conns: ConnMap::default(),
            sessions: SessionTable::default(),
            clients: HashMap::new(),
            servers: HashMap::new(),
            minted: HashSet::new(),
            timers: BTreeMap::new(),
            timer_seq: 0,
            stream_uid: 0,
            stats: McpStats::default(),
            last_expiry: Timestamp::ZERO,
            recorder: None,
        }
    }

    /// Keeps per-session counters (and timelines) for the reports from now on.
    pub fn enable_recorder(&mut self, config: RecorderConfig) {
        self.recorder = Some(Recorder::new(config));
    }

    /// The recorded sessions (after `finish`) and how many sessions were not recorded at the cap.
    pub fn take_records(&mut self) -> Option<(Vec<SessionRecord>, u64)> {
        let r = self.recorder.take()?;
        let dropped = r.dropped_sessions;
        Some((r.into_records(), dropped))
    }

    pub fn stats(&self) -> &McpStats {
        &self.stats
    }

    pub fn open_sessions(&self) -> usize {
        self.sessions.len()
    }

    pub fn open(&mut self, conn: ConnId, client: SocketAddr, server: SocketAddr) {
        // ALLOC: one view per open connection, bounded by limits::max_connections
        self.conns.insert(
            conn,
            ConnView {
                client,
                server,
                txs: VecDeque::new(),
                first_end: None,
                last_session_id: None,
                mcp: false,
                early_gaps: 0,
                early_missed: 0,
                early_frame: 0,
                gapped: false,
            },
        );
    }

    /// A direction of a connection ended; called before the HTTP layer ends its messages, so streams
    /// know who closed first.
    pub fn end(&mut self, conn: ConnId, dir: Direction, reason: EndReason) {
        if let Some(v) = self.conns.get_mut(&conn) {
            if v.first_end.is_none() {
                v.first_end = Some((dir, reason));
            }
        }
    }

    /// A capture gap on a connection, noticed at `frame`.
    pub fn gap(&mut self, conn: ConnId, len: u64, frame: u64) {
        let Some(view) = self.conns.get_mut(&conn) else { return };
        view.gapped = true;
        for tx in view.txs.iter() {
            if let Some(key) = tx.resp.as_ref().and_then(|r| r.session.as_ref()) {
                if let Some(s) = self.sessions.get_mut(key) {
                    s.gap = true;
                }
            }
        }
        if view.mcp {
            let (server, client) = (view.server, view.client);
            self.server_gap(server, client, 1, len, frame);
        } else {
            if view.early_gaps == 0 {
                view.early_frame = frame;
            }
            view.early_gaps += 1;
            view.early_missed = view.early_missed.saturating_add(len);
        }
    }

    fn server_gap(&mut self, server: SocketAddr, client: SocketAddr, gaps: u64, len: u64, frame: u64) {
        let st = self.servers.entry(server).or_default();
        st.gaps += gaps;
        st.missed_bytes = st.missed_bytes.saturating_add(len);
        if st.gap_frames.len() < crate::detect::MAX_FRAMES {
            st.gap_frames.push(frame);
        }
        if st.gap_client.is_none() {
            st.gap_client = Some(client);
        }
    }

    pub fn close<F: FnMut(Fact)>(&mut self, conn: ConnId, ts: Timestamp, out: &mut F) {
        let Some(mut view) = self.conns.remove(&conn) else { return };
        if view.mcp && view.early_gaps > 0 {
            self.server_gap(view.server, view.client, view.early_gaps, view.early_missed, view.early_frame);
        }
        let first_end = view.first_end;
        while let Some(mut tx) = view.txs.pop_front() {
            if tx.resp.is_some() {
                // The HTTP layer ends open responses on FIN/RST; this is the safety net.
                self.finish_response(&view, &mut tx, ts, MessageEnd::Interrupted, out);
            } else if let Some(req) = tx.req.as_ref() {
                // A POST the connection lost before any answer: a fallback trigger.
                if req.method == "POST" && !req.request_ids().is_empty() {
                    let kind = match first_end {
                        Some((_, EndReason::Rst)) => "reset",
                        _ => "no-response",
                    };
                    let failed = FailedPost {
                        kind,
                        status: 0,
                        code: 0,
                        version: req.requested_version().or(req.proto_version.clone()).unwrap_or_default(),
                        path: req.path().to_string(),
                        ts,
                        frame: req.frame,
                    };
                    self.client_mut(view.client.ip(), view.server).failed_post = Some(failed);
                }
            }
        }
    }

    pub fn http<F: FnMut(Fact)>(&mut self, conn: ConnId, ev: HttpEvent<'_>, out: &mut F) {
        match ev {
            HttpEvent::Request { tx, head, frame, ts } => {
                let cap = self.limits.max_pending_per_session.max(1);
                let Some(view) = self.conns.get_mut(&conn) else { return };
                let client = (view.client.ip(), view.server);
                if view.txs.len() >= cap {
                    // Pipelined requests nobody answers (RFC 9112 §9.3.2 sets no limit): forget the oldest
                    // unanswered one rather than the new one, so a flood of requests cannot hide the
                    // requests that follow it from the request-side checks.
                    if let Some(old) = view.txs.iter().position(|t| t.resp.is_none()).and_then(|i| view.txs.remove(i)) {
                        if let Some(k) = old.timer {
                            self.timers.remove(&k);
                        }
                        self.stats.pending_cap_hits += 1;
                    }
                }
                // ALLOC: one transaction per outstanding request, bounded by limits::max_pending_per_session
                view.txs.push_back(Tx { id: Some(tx), req: Some(Req::from_head(&head, frame, ts)), resp: None, wait_step: 0, timer: None });
                self.client_mut(client.0, client.1).last_request = ts;
            }
            HttpEvent::RequestBody { tx, bytes, .. } => {
                let cap = self.limits.max_body_bytes;
                let Some(req) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(Some(tx))).and_then(|t| t.req.as_mut()) else { return };
                if req.body_over {
                    return;
                }
                if req.body.len().saturating_add(bytes.len()) > cap {
                    req.body_over = true;
                    req.body = Vec::new();
                    self.stats.bodies_over_cap += 1;
                } else {
                    req.body.extend_from_slice(bytes);
                }
            }
            HttpEvent::RequestEnd { tx, ts, .. } => self.request_end(conn, Some(tx), ts, out),
            HttpEvent::Response { tx, head, frame, ts } => self.response(conn, tx, &head, frame, ts, out),
            HttpEvent::ResponseBody { tx, bytes, .. } => {
                let cap = self.limits.max_body_bytes;
                let Some(resp) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)).and_then(|t| t.resp.as_mut()) else { return };
                let json = resp.media.as_deref() == Some("application/json");
                let keep = if json { cap } else if resp.status >= 400 { ERROR_BODY_BYTES } else { 0 };
                if resp.body_over || keep == 0 {
                    return;
                }
                if resp.body.len().saturating_add(bytes.len()) > keep {
                    if json {
                        resp.body_over = true;
                        resp.body = Vec::new();
                        self.stats.bodies_over_cap += 1;
                    } else {
                        let room = keep.saturating_sub(resp.body.len());
                        resp.body.extend_from_slice(bytes.get(..room).unwrap_or(bytes));
                    }
                } else {
                    resp.body.extend_from_slice(bytes);
                }
            }
            HttpEvent::Sse { tx, event, frame, ts } => self.sse(conn, tx, &event, frame, ts, out),
            HttpEvent::SseComment { tx, ts, .. } => {
                if let Some(st) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)).and_then(|t| t.resp.as_mut()).and_then(|r| r.stream.as_mut()) {
                    st.comment(ts);
                }
            }
            HttpEvent::ResponseEnd { tx, end, ts, .. } => {
                let Some(mut view) = self.conns.remove(&conn) else { return };
                if let Some(pos) = view.txs.iter().position(|t| t.id == tx && t.resp.is_some()) {
                    if let Some(mut t) = view.txs.remove(pos) {
                        self.finish_response(&view, &mut t, ts, end, out);
                    }
                }
                self.conns.insert(conn, view);
            }
            _ => {}
        }
    }

    fn client_mut(&mut self, ip: IpAddr, server: SocketAddr) -> &mut ClientState {
        // ALLOC: per client address and server; bounded by limits::max_sessions (extra clients share a
        // scratch entry rather than grow the map)
        let key = if self.clients.len() >= self.limits.max_sessions && !self.clients.contains_key(&(ip, server)) {
            (IpAddr::from([0u8, 0, 0, 0]), SocketAddr::from(([0, 0, 0, 0], 0)))
        } else {
            (ip, server)
        };
        self.clients.entry(key).or_default()
    }

    fn schedule(&mut self, at: Timestamp, timer: Timer) -> (Timestamp, u64) {
        self.timer_seq += 1;
        self.timers.insert((at, self.timer_seq), timer);
        (at, self.timer_seq)
    }

    /// Schedules the next wait checkpoint of a transaction and notes it on the transaction.
    fn schedule_wait(&mut self, at: Timestamp, conn: ConnId, tx: Option<TxId>) {
        let k = self.schedule(at, Timer::Request { conn, tx });
        if let Some(t) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)) {
            t.timer = Some(k);
        }
    }

    /// The session a request belongs to, created if needed. `resp_sid` is the id a response mints.
    fn session_for(&mut self, client: SocketAddr, server: SocketAddr, info: &KeyInfo, resp_sid: Option<&str>, ts: Timestamp) -> SessionKey {
        let ident = match (info.session_id.as_deref().or(resp_sid), &info.legacy) {
            (Some(sid), _) => SessionIdent::McpSessionId(sid.to_string()),
            (None, Some(p)) => SessionIdent::LegacyParam(p.clone()),
            (None, None) => SessionIdent::Anonymous { client: client.ip(), endpoint: info.path.clone(), client_name: info.client_name.clone() },
        };
        let key = SessionKey { server, ident };
        let (s, evicted) = self.sessions.entry(&key, ts, self.limits.max_sessions);
        s.last_seen = s.last_seen.max(ts);
        if s.host.is_empty() {
            s.host = info.host.clone();
        }
        if s.endpoint.is_empty() && info.is_post {
            s.endpoint = info.path.clone();
        }
        if let Some(e) = info.era {
            s.observe_era(e);
        }
        if let Some(v) = &info.requested {
            s.requested_version = Some(v.clone());
        }
        if let Some(old) = evicted {
            self.evicted(old);
        }
        key
    }

    /// Request-side facts, once the body is decoded: stale-session reuse, header mismatches, session id
    /// changes, stateless echoes, and the wait timer.
    fn request_end<F: FnMut(Fact)>(&mut self, conn: ConnId, tx: Option<TxId>, ts: Timestamp, out: &mut F) {
        let Some(view) = self.conns.get_mut(&conn) else { return };
        let (client, server) = (view.client, view.server);
        let last_sid = view.last_session_id.clone();
        let Some(t) = view.tx_mut(tx) else { return };
        let Some(req) = t.req.as_mut() else { return };
        req.decode(&mut self.stats);
        if req.checked || !req.is_mcp() {
            return;
        }
        req.checked = true;
        let req_sid = req.session_id.clone();
        let initialize = req.is_initialize();
        let has_requests = !req.request_ids().is_empty();
        let http_method = req.method.clone();
        let rpc_method = req.first_method();
        let path = req.path().to_string();
        let frame = req.frame;
        let modern = req.is_modern();
        let header_checks = header_expectations(req);
        let info = req.key_info();
        if let Some(v) = self.conns.get_mut(&conn) {
            v.mcp = true;
            if req_sid.is_some() {
                v.last_session_id = req_sid.clone();
            }
        }
        if has_requests {
            self.schedule_wait(ts.plus(Duration::from_secs(WAIT_CHECKPOINTS.first().copied().unwrap_or(5))), conn, tx);
        }
        if http_method == "POST" && has_requests {
            self.servers.entry(server).or_default().mcp_paths.insert(path.clone());
        }
        // An initialize without a session id is keyed when its response mints one.
        let key = if req_sid.is_none() && initialize { None } else { Some(self.session_for(client, server, &info, None, ts)) };
        let client_key = (client.ip(), server);
        if initialize && req_sid.is_none() {
            for d in self.client_mut(client_key.0, client_key.1).dead.values_mut() {
                d.reinitialized = true;
            }
        }
        let Some(key) = key else { return };
        let Some(s) = self.sessions.get(&key) else { return };
        let ctx = context(s, client, path.clone(), ts, vec![frame]);
        // A request reusing a session id the server declared dead.
        if let Some(sid) = &req_sid {
            let dead = self.clients.get(&client_key).and_then(|c| c.dead.get(sid)).cloned();
            if let Some(d) = dead {
                let mut c = ctx.clone();
                c.frames = vec![d.frame, frame];
                out(Fact {
                    ctx: c,
                    kind: FactKind::StaleSession(facts::StaleSession {
                        trigger: "reuse".into(),
                        http_method: http_method.clone(),
                        rpc_method: rpc_method.clone(),
                        since_404_ms: ts.since(d.ts).0 / 1_000_000,
                        reinitialized: d.reinitialized,
                    }),
                });
            }
            // A new id on a connection that used another, not minted by an initialize we saw.
            if let Some(old) = last_sid.filter(|old| old != sid) {
                if !self.minted.contains(sid) {
                    out(Fact {
                        ctx: ctx.clone(),
                        kind: FactKind::SessionChange(facts::SessionChange { old_id: old, new_id: sid.clone(), initialize_between: false }),
                    });
                }
            }
            if modern {
                out(Fact { ctx: ctx.clone(), kind: FactKind::StatelessSession(facts::StatelessSession { how: "echoed".into() }) });
            }
        }
        // Header expectations (2025-06-18 MCP-Protocol-Version, 2026-07-28 Mcp-Method/Mcp-Name/_meta).
        let negotiated = s.version.clone();
        for (what, header, expected) in header_checks.into_iter().chain(version_check(&self.conns, conn, tx, negotiated.as_deref(), initialize)) {
            out(Fact {
                ctx: ctx.clone(),
                kind: FactKind::HeaderMismatch(facts::HeaderMismatch { what: what.into(), header, expected, rpc_method: rpc_method.clone() }),
            });
        }
    }

    fn response<F: FnMut(Fact)>(&mut self, conn: ConnId, tx: Option<TxId>, head: &ResponseHead, frame: u64, ts: Timestamp, out: &mut F) {
        // 1xx responses are interim (RFC 9110 §15.2); the final response follows on the same transaction.
        if head.status < 200 {
            return;
        }
        let Some(view) = self.conns.get_mut(&conn) else { return };
        let (client, server) = (view.client, view.server);
        if view.tx_mut(tx).is_none() {
            view.txs.push_back(Tx { id: tx, req: None, resp: None, wait_step: 0, timer: None });
        }
        let media = head.headers.content_type();
        let resp_sid = head.headers.get("mcp-session-id").map(str::to_string);
        let server_hdr = server_signature(head);
        let x_accel_no = head.headers.get("x-accel-buffering").is_some_and(|v| v.trim().eq_ignore_ascii_case("no"));
        let mut resp = Resp {
            status: head.status,
            media: media.clone(),
            kind: RespKind::Other,
            frame,
            session: None,
            body: Vec::new(),
            body_over: false,
            stream: None,
            shift: None,
            init_requested: None,
            auth_challenge: head.headers.get("www-authenticate").is_some(),
        };
        let sse = media.as_deref() == Some("text/event-stream");
        if sse {
            self.stream_uid += 1;
            resp.stream = Some(StreamTrack::new(self.stream_uid, ts, x_accel_no, Vec::new()));
        }
        let Some(t) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)) else { return };
        let Some(req) = t.req.as_mut() else {
            // A response whose request the capture missed: nothing to key it on.
            t.resp = Some(resp);
            return;
        };
        req.decode(&mut self.stats);
        resp.kind = match req.method.as_str() {
            "POST" => RespKind::Post,
            "GET" => RespKind::Get,
            _ => RespKind::Other,
        };
        let path = req.path().to_string();
        let is_mcp = req.is_mcp() || resp_sid.is_some();
        let get_on_mcp = resp.kind == RespKind::Get && self.servers.get(&server).is_some_and(|s| s.mcp_paths.contains(&path));
        if !is_mcp && !get_on_mcp {
            // Plain HTTP (or a GET that may still turn out to serve an `endpoint` event).
            if let Some(t) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)) {
                t.resp = Some(resp);
            }
            return;
        }
        let snapshot_ids = req.request_ids();
        let initialize = req.is_initialize();
        let modern = req.is_modern();
        let req_sid = req.session_id.clone();
        let last_event_id = req.last_event_id.clone();
        let method_name = req.first_method();
        let requested = req.requested_version();
        let req_frame = req.frame;
        let (req_ts, req_method) = (req.ts, req.method.clone());
        let info = req.key_info();
        if !req.checked {
            self.request_end(conn, tx, ts, out);
        }
        let gapped = match self.conns.get_mut(&conn) {
            Some(v) => {
                v.mcp = true;
                v.gapped
            }
            None => false,
        };
        let key = self.session_for(client, server, &info, resp_sid.as_deref(), ts);
        if gapped {
            if let Some(s) = self.sessions.get_mut(&key) {
                s.gap = true;
            }
        }
        if initialize {
            if let Some(sid) = &resp_sid {
                if self.minted.len() < self.limits.max_sessions {
                    // ALLOC: one minted id per session, bounded by limits::max_sessions
                    self.minted.insert(sid.clone());
                }
            }
            resp.init_requested = requested;
        }
        if let Some(st) = resp.stream.as_mut() {
            // A batch of many thousand requests answered on one stream would make each answer a long
            // search of what the stream owes: keep at most the cap.
            let cap = self.limits.max_pending_per_session;
            let mut owed = snapshot_ids.clone();
            if owed.len() > cap {
                self.stats.pending_cap_hits += owed.len().saturating_sub(cap) as u64;
                owed.truncate(cap);
            }
            st.pending = owed;
        }
        resp.session = Some(key.clone());
        let client_key = (client.ip(), server);

        // Era and session-id facts visible on the head.
        let Some(s) = self.sessions.get_mut(&key) else { return };
        s.last_seen = s.last_seen.max(ts);
        s.exchanges += 1;
        if resp_sid.is_some() && s.era == Era::Unknown {
            s.observe_era(Era::Streamable2025);
        }
        if let Some(rec) = self.recorder.as_mut() {
            rec.exchange(s, client, (req_ts, req_frame, &req_method, &path, &method_name), (ts, frame, head.status, media.as_deref()));
        }
        let ctx_for = |s: &Session, frames: Vec<u64>| context(s, client, path.clone(), ts, frames);
        if modern && resp_sid.is_some() {
            out(Fact { ctx: ctx_for(s, vec![frame]), kind: FactKind::StatelessSession(facts::StatelessSession { how: "minted".into() }) });
        }
        if let (Some(old), Some(new)) = (&req_sid, &resp_sid) {
            if old != new && !initialize {
                out(Fact {
                    ctx: ctx_for(s, vec![req_frame, frame]),
                    kind: FactKind::SessionChange(facts::SessionChange { old_id: old.clone(), new_id: new.clone(), initialize_between: false }),
                });
            }
        }
        if head.status < 300 {
            s.seen_ok = true;
        }

        if resp.kind == RespKind::Get && get_on_mcp {
            out(Fact {
                ctx: ctx_for(s, vec![req_frame, frame]),
                kind: FactKind::GetResponse(facts::GetResponse {
                    status: i64::from(head.status),
                    content_type: media.clone().unwrap_or_default(),
                    has_session_id: req_sid.is_some(),
                }),
            });
        }
        if resp.kind == RespKind::Get && sse && head.status < 300 && (last_event_id.is_some() || s.ids_issued > 0) {
            let known = last_event_id.as_ref().and_then(|x| s.event_ids.get(x).copied());
            out(Fact {
                ctx: ctx_for(s, vec![req_frame, frame]),
                kind: FactKind::Resume(facts::Resume {
                    last_event_id: last_event_id.clone().unwrap_or_default(),
                    has_cursor: last_event_id.is_some(),
                    known: known.is_some(),
                    session_had_ids: s.ids_issued > 0,
                    reconnect: s.streams_broken > 0,
                }),
            });
            if let (Some(x), Some(st)) = (last_event_id.clone(), resp.stream.as_mut()) {
                st.resumed_from = Some((x, known.map(|(_, seq)| seq)));
            }
        }

        if head.status >= 400 {
            s.error_since_last_post = true;
            if head.status >= 500 {
                let st = self.servers.entry(server).or_default();
                // ALLOC: per server endpoint, RECENT_5XX times
                let q = st.recent_5xx.entry(path.clone()).or_default();
                q.push_front(ts);
                q.truncate(RECENT_5XX);
            }
        } else if resp.kind == RespKind::Post && !snapshot_ids.is_empty() {
            if let Some(body) = BodyType::from_media(media.as_deref()) {
                let shift = match &s.last_post {
                    Some(last) if last.body != body => {
                        let server_before = last.server_hdr.clone();
                        Some(PendingShift {
                            fact: facts::ResponseShift {
                                from: last.body.as_str().to_string(),
                                to: body.as_str().to_string(),
                                method: method_name.clone(),
                                status: i64::from(head.status),
                                json_before: s.post_json as i64,
                                sse_before: s.post_sse as i64,
                                error_between: s.error_since_last_post,
                                session_id_changed: last.session_id != req_sid,
                                cursor: String::new(),
                                events: 0,
                                ids: 0,
                                judged_at_end: false,
                                server_changed: server_before != server_hdr,
                                server_before,
                                server_now: server_hdr.clone(),
                                prev_frame: last.frame as i64,
                                frame: frame as i64,
                            },
                            ctx: ctx_for(s, vec![last.frame, frame]),
                        })
                    }
                    _ => None,
                };
                match body {
                    BodyType::Json => s.post_json += 1,
                    BodyType::Sse => s.post_sse += 1,
                }
                s.last_post = Some(LastPost { body, frame, server_hdr, session_id: req_sid.clone() });
                s.error_since_last_post = false;
                if let Some(p) = shift {
                    if body == BodyType::Sse {
                        // Judged when the reply arrives on the stream or the stream ends.
                        resp.shift = Some(p);
                    } else {
                        out(Fact { ctx: p.ctx, kind: FactKind::ResponseShift(p.fact) });
                    }
                }
            }
        }
        // A POST answered on a URL known to serve the legacy `endpoint` event.
        if resp.kind == RespKind::Post && self.servers.get(&server).is_some_and(|st| st.sse_paths.contains(&path)) {
            if let Some(s) = self.sessions.get(&key) {
                out(Fact {
                    ctx: ctx_for(s, vec![req_frame, frame]),
                    kind: FactKind::LegacyUrl(facts::LegacyUrl {
                        what: "post-answered".into(),
                        status: i64::from(head.status),
                        content_type: media.clone().unwrap_or_default(),
                        path: path.clone(),
                    }),
                });
            }
        }
        if resp.kind == RespKind::Post {
            let c = self.client_mut(client_key.0, client_key.1);
            // ALLOC: one entry per POST path of a client, few in practice
            c.post_answers.insert(path.clone(), (head.status, media.clone().unwrap_or_default(), frame));
            if head.status < 400 {
                c.failed_post = None;
            }
        }
        if let Some(t) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)) {
            t.resp = Some(resp);
        }
    }

    fn sse<F: FnMut(Fact)>(&mut self, conn: ConnId, tx: Option<TxId>, event: &SseEvent, frame: u64, ts: Timestamp, out: &mut F) {
        self.stats.sse_events += 1;
        let cap = self.limits.max_event_ids_per_session;
        let Some(view) = self.conns.get_mut(&conn) else { return };
        let (client, server) = (view.client, view.server);
        let Some(t) = view.tx_mut(tx) else { return };
        let get_path = t.req.as_ref().map(|r| r.path().to_string()).unwrap_or_default();
        let req_frame = t.req.as_ref().map_or(frame, |r| r.frame);
        let Some(resp) = t.resp.as_mut() else { return };
        let Some(st) = resp.stream.as_mut() else { return };
        st.event(ts, event.retry.is_some());

        // HTTP+SSE bootstrap (MCP 2024-11-05 transports): the first event names the POST URL.
        if event.event.as_deref() == Some("endpoint") {
            let in_streamable = resp.kind == RespKind::Post
                || resp.session.as_ref().is_some_and(|k| matches!(k.ident, SessionIdent::McpSessionId(_)));
            let param = legacy_param(event.data.trim()).map(str::to_string);
            if !in_streamable {
                if let Some(p) = param {
                    let key = SessionKey { server, ident: SessionIdent::LegacyParam(p) };
                    resp.session = Some(key.clone());
                    // Through the table like every other session: a server announcing endless endpoints
                    // must not grow it past the cap.
                    let (s, evicted) = self.sessions.entry(&key, ts, self.limits.max_sessions);
                    s.observe_era(Era::HttpSse2024);
                    if s.endpoint.is_empty() {
                        s.endpoint = event.data.trim().split('?').next().unwrap_or("").to_string();
                    }
                    if let Some(old) = evicted {
                        if let Some(rec) = self.recorder.as_mut() {
                            rec.release(&old);
                        }
                        self.stats.session_cap_hits += 1;
                        *self.stats.sessions_by_era.entry(old.era).or_default() += 1;
                    }
                }
            }
            let key = resp.session.clone();
            // ALLOC: one path per legacy SSE URL of a server, few in practice
            self.servers.entry(server).or_default().sse_paths.insert(get_path.clone());
            let Some(key) = key else { return };
            let Some(s) = self.sessions.get(&key) else { return };
            let ctx = context(s, client, get_path.clone(), ts, vec![req_frame, frame]);
            if in_streamable {
                out(Fact {
                    ctx: ctx.clone(),
                    kind: FactKind::LegacyUrl(facts::LegacyUrl {
                        what: "endpoint-in-streamable".into(),
                        status: 200,
                        content_type: "text/event-stream".into(),
                        path: get_path.clone(),
                    }),
                });
            }
            let c = self.client_mut(client.ip(), server);
            let failed = c.failed_post.take();
            let answered = c.post_answers.get(&get_path).cloned();
            if let Some(f) = failed {
                let mut ctx = ctx.clone();
                ctx.frames.insert(0, f.frame);
                out(Fact {
                    ctx,
                    kind: FactKind::Fallback(facts::Fallback {
                        trigger_kind: f.kind.into(),
                        trigger_status: i64::from(f.status),
                        trigger_code: f.code,
                        client_version: f.version,
                        post_path: f.path,
                        get_path: get_path.clone(),
                        since_ms: ts.since(f.ts).0 / 1_000_000,
                    }),
                });
                if let (Some(rec), Some(s)) = (self.recorder.as_mut(), self.sessions.get(&key)) {
                    rec.fallback(s);
                }
            }
            if let Some((status, media, pframe)) = answered {
                let mut ctx = ctx;
                ctx.frames.insert(0, pframe);
                out(Fact {
                    ctx,
                    kind: FactKind::LegacyUrl(facts::LegacyUrl { what: "post-answered".into(), status: i64::from(status), content_type: media, path: get_path }),
                });
            }
            return;
        }

        let Some(key) = resp.session.clone() else { return };
        let Some(s) = self.sessions.get_mut(&key) else { return };
        s.last_seen = s.last_seen.max(ts);
        if let Some(rec) = self.recorder.as_mut() {
            rec.sse_event(s, ts, frame, event.event.as_deref().unwrap_or(""), event.id.as_deref().unwrap_or(""), || record::describe_payload(&event.data));
        }
        let ctx = |s: &Session, frames: Vec<u64>| context(s, client, get_path.clone(), ts, frames);
        if let Some(id) = event.id.as_deref().filter(|id| !id.is_empty()) {
            st.ids += 1;
            let earlier = s.issue_event_id(id, st.uid, cap);
            let previous = st.last_id.clone().unwrap_or_default();
            match st.cursor.step(id, earlier.is_some()) {
                Step::Advanced => {}
                Step::Repeated => {
                    let (stream, seq) = earlier.unwrap_or((0, 0));
                    let replay = match &st.resumed_from {
                        Some((_, Some(cursor_seq))) => seq <= *cursor_seq,
                        _ => false,
                    };
                    out(Fact {
                        ctx: ctx(s, vec![frame]),
                        kind: FactKind::EventIdAnomaly(facts::EventIdAnomaly {
                            anomaly: "repeat".into(),
                            id: id.to_string(),
                            previous,
                            same_stream: stream == st.uid,
                            replay,
                            last_event_id: st.resumed_from.as_ref().map(|(x, _)| x.clone()).unwrap_or_default(),
                        }),
                    });
                }
                Step::WentBack => out(Fact {
                    ctx: ctx(s, vec![frame]),
                    kind: FactKind::EventIdAnomaly(facts::EventIdAnomaly {
                        anomaly: "backwards".into(),
                        id: id.to_string(),
                        previous,
                        same_stream: true,
                        replay: false,
                        last_event_id: String::new(),
                    }),
                }),
            }
            st.last_id = Some(id.to_string());
        }
        if !event.has_data || event.data.trim().is_empty() {
            return;
        }
        let Ok(payload) = jsonrpc::parse(event.data.as_bytes()) else {
            self.stats.json_parse_errors += 1;
            return;
        };
        self.stats.jsonrpc_messages += payload.messages.len() as u64;
        let cap_answered = self.limits.max_pending_per_session.saturating_mul(4);
        let mut answered_here = false;
        for m in &payload.messages {
            let Some(id) = m.reply_id() else { continue };
            let owed = st.answer(id);
            answered_here |= owed;
            if let Some(i) = s.legacy_pending.iter().position(|p| p == id) {
                s.legacy_pending.swap_remove(i);
            }
            reply_delivered(s, m, Delivered { frame, stream: st.uid, head_frame: resp.frame }, &mut resp.init_requested, cap_answered, (client, &get_path, ts), out);
        }
        if answered_here {
            if let Some(p) = resp.shift.take() {
                out(judge(p, st, frame, false));
            }
        }
    }

    fn finish_response<F: FnMut(Fact)>(&mut self, view: &ConnView, tx: &mut Tx, ts: Timestamp, end: MessageEnd, out: &mut F) {
        let (client, server) = (view.client, view.server);
        let path = tx.req.as_ref().map(|r| r.path().to_string()).unwrap_or_default();
        let http_method = tx.req.as_ref().map(|r| r.method.clone()).unwrap_or_default();
        let rpc_method = tx.req.as_ref().map(Req::first_method).unwrap_or_default();
        let req_sid = tx.req.as_ref().and_then(|r| r.session_id.clone());
        let req_version = tx.req.as_ref().and_then(|r| r.requested_version().or(r.proto_version.clone())).unwrap_or_default();
        let req_frame = tx.req.as_ref().map(|r| r.frame);
        let Some(resp) = tx.resp.as_mut() else { return };
        let Some(key) = resp.session.clone() else { return };
        let Some(s) = self.sessions.get_mut(&key) else { return };
        s.last_seen = s.last_seen.max(ts);
        let ctx = |s: &Session, frames: Vec<u64>| context(s, client, path.clone(), ts, frames);

        if let Some(st) = resp.stream.as_mut() {
            st.end(ts);
            if let Some(p) = resp.shift.take() {
                let f = p.fact.frame as u64;
                out(judge(p, st, f, true));
            }
            if resp.kind == RespKind::Get || !st.pending.is_empty() {
                s.streams_broken += 1;
            }
            let (reason, closed_by) = end_reason(end, view.first_end);
            if let Some(rec) = self.recorder.as_mut() {
                rec.stream_end(s, ts, resp.frame, reason, (st.events, st.ids), st.cursor.as_str());
            }
            out(Fact {
                ctx: ctx(s, vec![resp.frame]),
                kind: FactKind::StreamEnd(facts::StreamEnd {
                    kind: if resp.kind == RespKind::Post { "post".into() } else { "get".into() },
                    status: i64::from(resp.status),
                    reason: reason.into(),
                    closed_by: closed_by.into(),
                    events: st.events as i64,
                    ids: st.ids as i64,
                    cursor: st.cursor.as_str().into(),
                    pending: st.pending.len() as i64,
                    keepalives: st.keepalives as i64,
                    duration_ms: st.duration_ms(ts),
                    max_silence_ms: st.max_silence_ms,
                    retry_seen: st.retry_seen,
                    x_accel_no: st.x_accel_no,
                    burst_events: st.burst_events,
                    burst_silence_ms: st.burst_silence_ms,
                }),
            });
        }

        let body = std::mem::take(&mut resp.body);
        let media = resp.media.clone().unwrap_or_default();
        let parsed = if !body.is_empty() && !resp.body_over && (media == "application/json" || resp.status >= 400) {
            match jsonrpc::parse(&body) {
                Ok(p) => Some(p.messages),
                Err(_) => {
                    if media == "application/json" {
                        self.stats.json_parse_errors += 1;
                    }
                    None
                }
            }
        } else {
            None
        };
        if let Some(msgs) = &parsed {
            self.stats.jsonrpc_messages += msgs.len() as u64;
            let cap_answered = self.limits.max_pending_per_session.saturating_mul(4);
            if resp.status < 400 {
                for m in msgs {
                    if m.reply_id().is_some() {
                        let at = Delivered { frame: resp.frame, stream: 0, head_frame: resp.frame };
                        reply_delivered(s, m, at, &mut resp.init_requested, cap_answered, (client, &path, ts), out);
                    }
                }
            }
        }
        // HTTP+SSE: a 202 to a POST means the responses will come on the GET stream.
        if resp.status == 202 && matches!(key.ident, SessionIdent::LegacyParam(_)) {
            if let Some(ids) = tx.req.as_ref().map(Req::request_ids) {
                for id in ids {
                    if s.legacy_pending.len() < self.limits.max_pending_per_session {
                        // ALLOC: bounded by limits::max_pending_per_session
                        s.legacy_pending.push(id);
                    }
                }
            }
        }

        if resp.status >= 400 {
            let (kind, code, rpc_id, message) = classify_error_body(&media, &body, parsed.as_deref());
            let mentions_session = {
                let m = message.to_ascii_lowercase();
                m.contains("session") && (m.contains("not found") || m.contains("unknown") || m.contains("expired") || m.contains("invalid") || m.contains("terminated") || m.contains("no valid"))
            };
            let fingerprint = fingerprint(resp.status, kind, code, &rpc_id, &message);
            let on_mcp = self.servers.get(&server).is_some_and(|st| st.mcp_paths.contains(&path));
            let recent: Vec<i64> = self
                .servers
                .get(&server)
                .and_then(|st| st.recent_5xx.get(&path))
                .map(|q| q.iter().map(|t| ts.since(*t).0 / 1_000_000).collect())
                .unwrap_or_default();
            let mut frames = vec![resp.frame];
            if let Some(f) = req_frame {
                frames.insert(0, f);
            }
            out(Fact {
                ctx: ctx(s, frames),
                kind: FactKind::ErrorResponse(facts::ErrorResponse {
                    status: i64::from(resp.status),
                    http_method: http_method.clone(),
                    rpc_method: rpc_method.clone(),
                    content_type: media.clone(),
                    body: kind.into(),
                    rpc_code: code,
                    rpc_id,
                    message: message.clone(),
                    mentions_session,
                    session_seen_ok: s.seen_ok,
                    fingerprint: fingerprint.map(|f| format!("; fingerprint: {f}")).unwrap_or_default(),
                    on_mcp_endpoint: on_mcp,
                    auth_challenge: resp.auth_challenge,
                    recent_5xx_ms: recent,
                }),
            });
            let modern = s.era == Era::Stateless2026;
            let endpoint = path.clone();
            // 404 for a session id: the client must re-initialize (not under 2026-07-28, where 404 is
            // "method not found").
            if resp.status == 404 && code != -32601 && !modern {
                if let Some(sid) = req_sid {
                    let frame = resp.frame;
                    let c = self.client_mut(client.ip(), server);
                    if !c.dead.contains_key(&sid) && c.dead.len() < 64 {
                        // ALLOC: dead session ids per client, at most 64
                        c.dead.insert(sid.clone(), Dead { ts, frame, reinitialized: false, key: key.clone(), endpoint });
                        if let Some(first) = REINIT_CHECKPOINTS.first() {
                            self.schedule(ts.plus(Duration::from_secs(*first)), Timer::Reinit { client: (client.ip(), server), sid, step: 0 });
                        }
                    }
                }
            }
            if http_method == "POST" {
                let failed = FailedPost { kind: "status", status: resp.status, code, version: req_version, path, ts, frame: resp.frame };
                self.client_mut(client.ip(), server).failed_post = Some(failed);
            }
        }
    }

    /// Moves capture time: fires due timers (waiting requests, missing re-initialize) and releases
    /// sessions idle for longer than `Limits::session_idle_secs`.
    pub fn advance<F: FnMut(Fact)>(&mut self, now: Timestamp, out: &mut F) {
        while let Some((&(at, seq), _)) = self.timers.iter().next() {
            if at > now {
                break;
            }
            let Some(timer) = self.timers.remove(&(at, seq)) else { break };
            self.fire(at, timer, out);
        }
        if now.since(self.last_expiry) < Duration::from_secs(1) {
            return;
        }
        self.last_expiry = now;
        let idle = Duration::from_secs(self.limits.session_idle_secs);
        // Oldest first from the activity index: only the sessions that expire are visited.
        while let Some(s) = self.sessions.pop_oldest_if(|seen| now.since(seen) > idle) {
            if let Some(rec) = self.recorder.as_mut() {
                rec.release(&s);
            }
            self.stats.sessions_expired += 1;
            *self.stats.sessions_by_era.entry(s.era).or_default() += 1;
        }
    }

    fn fire<F: FnMut(Fact)>(&mut self, at: Timestamp, timer: Timer, out: &mut F) {
        match timer {
            Timer::Request { conn, tx } => {
                let Some(view) = self.conns.get_mut(&conn) else { return };
                let client = view.client;
                let Some(t) = view.tx_mut(tx) else { return };
                let Some(req) = t.req.as_ref() else { return };
                // What is still owed: the stream's pending ids, or every request id before any answer.
                let owed: Vec<Id> = match &t.resp {
                    None => req.request_ids(),
                    Some(r) => match &r.stream {
                        Some(st) => st.pending.clone(),
                        None => Vec::new(),
                    },
                };
                let Some(&age) = WAIT_CHECKPOINTS.get(t.wait_step) else { return };
                t.wait_step += 1;
                let next = WAIT_CHECKPOINTS.get(t.wait_step).copied();
                if owed.is_empty() {
                    return;
                }
                let method = req.first_method();
                let path = req.path().to_string();
                let frame = req.frame;
                let req_ts = req.ts;
                let key = t.resp.as_ref().and_then(|r| r.session.clone());
                let s = key.and_then(|k| self.sessions.get(&k));
                if let Some(s) = s {
                    for id in owed {
                        out(Fact {
                            ctx: context(s, client, path.clone(), at, vec![frame]),
                            kind: FactKind::RequestWaiting(facts::RequestWaiting { method: method.clone(), id: id.display(), waiting_secs: age }),
                        });
                    }
                }
                if let Some(n) = next {
                    self.schedule_wait(req_ts.plus(Duration::from_secs(n)), conn, tx);
                }
            }
            Timer::Reinit { client, sid, step } => {
                let Some(c) = self.clients.get(&client) else { return };
                let Some(d) = c.dead.get(&sid).cloned() else { return };
                if d.reinitialized {
                    return;
                }
                let active = c.last_request > d.ts;
                let age = REINIT_CHECKPOINTS.get(step).copied().unwrap_or(0);
                if active {
                    if let Some(s) = self.sessions.get(&d.key) {
                        let client_addr = SocketAddr::new(client.0, 0);
                        out(Fact {
                            ctx: context(s, client_addr, d.endpoint.clone(), at, vec![d.frame]),
                            kind: FactKind::StaleSession(facts::StaleSession {
                                trigger: "wait".into(),
                                http_method: String::new(),
                                rpc_method: String::new(),
                                since_404_ms: age * 1000,
                                reinitialized: false,
                            }),
                        });
                    }
                }
                if let Some(n) = REINIT_CHECKPOINTS.get(step + 1) {
                    self.schedule(d.ts.plus(Duration::from_secs(*n)), Timer::Reinit { client, sid, step: step + 1 });
                }
            }
        }
    }

    /// A session evicted at the session cap (the least recently active one): counted and released.
    fn evicted(&mut self, s: Session) {
        if let Some(rec) = self.recorder.as_mut() {
            rec.release(&s);
        }
        self.stats.session_cap_hits += 1;
        *self.stats.sessions_by_era.entry(s.era).or_default() += 1;
    }

    /// End of capture: every connection and session is finished; coverage notices are emitted.
    pub fn finish<F: FnMut(Fact)>(&mut self, ts: Timestamp, out: &mut F) {
        let mut conns: Vec<ConnId> = self.conns.keys().copied().collect();
        conns.sort();
        for c in conns {
            self.close(c, ts, out);
        }
        // Coverage: one notice per server whose MCP streams lost bytes.
        let mut gap_sessions: BTreeMap<SocketAddr, (u64, String, String)> = BTreeMap::new();
        // Key order: the first gap session of a server names its host and endpoint, deterministically.
        for s in self.sessions.sorted().into_iter().filter(|s| s.gap) {
            let e = gap_sessions.entry(s.key.server).or_insert((0, s.host.clone(), s.endpoint.clone()));
            e.0 += 1;
        }
        let mut servers: Vec<(&SocketAddr, &ServerState)> = self.servers.iter().filter(|(_, st)| st.missed_bytes > 0).collect();
        servers.sort_by_key(|(a, _)| **a);
        for (addr, st) in servers {
            let (n, host, endpoint) = gap_sessions.get(addr).cloned().unwrap_or_default();
            out(Fact {
                ctx: FactContext {
                    ts,
                    session_key: format!("{addr} coverage"),
                    session_id: "-".into(),
                    client: st.gap_client.unwrap_or(SocketAddr::from(([0, 0, 0, 0], 0))),
                    server: *addr,
                    host,
                    endpoint,
                    era: Era::Unknown,
                    version: String::new(),
                    frames: st.gap_frames.clone(),
                    crosses_gap: true,
                },
                kind: FactKind::CaptureGap(facts::CaptureGap { gaps: st.gaps as i64, missed_bytes: st.missed_bytes as i64, sessions: n as i64 }),
            });
        }
        for s in self.sessions.drain_sorted() {
            if let Some(rec) = self.recorder.as_mut() {
                rec.release(&s);
            }
            *self.stats.sessions_by_era.entry(s.era).or_default() += 1;
        }
    }
}

/// Where a JSON-RPC reply was delivered: its frame, the stream (0 for a JSON body), and the frame of the
/// response head that carried it.
#[derive(Debug, Clone, Copy)]
struct Delivered {
    frame: u64,
    stream: u64,
    head_frame: u64,
}

/// One JSON-RPC reply delivered to a session, on an SSE stream or in a JSON body alike: the duplicate
/// check, the answered-id bookkeeping (at most `cap` ids), and the negotiated version of an `initialize`
/// result. `evidence` is the client, endpoint and time the facts are reported with.
fn reply_delivered<F: FnMut(Fact)>(
    s: &mut Session,
    m: &Message,
    at: Delivered,
    init_requested: &mut Option<String>,
    cap: usize,
    evidence: (SocketAddr, &str, Timestamp),
    out: &mut F,
) {
    let Some(id) = m.reply_id() else { return };
    let (client, endpoint, ts) = evidence;
    let ctx = |s: &Session, frames: Vec<u64>| context(s, client, endpoint.to_string(), ts, frames);
    if let Some(&(first_frame, first_stream)) = s.answered.get(id) {
        out(Fact {
            ctx: ctx(s, vec![first_frame, at.frame]),
            kind: FactKind::DuplicateResponse(facts::DuplicateResponse {
                id: id.display(),
                same_stream: first_stream == at.stream,
                first_frame: first_frame as i64,
            }),
        });
    } else if s.answered.len() < cap {
        // ALLOC: one answered id, bounded by 4 x limits::max_pending_per_session
        s.answered.insert(id.clone(), (at.frame, at.stream));
    }
    if let Message::Response { result, .. } = m {
        if let Some(v) = result.protocol_version.as_ref().and_then(|v| v.0.clone()) {
            s.version = Some(v.clone());
            if let Some(req) = init_requested.take() {
                let frames = if at.head_frame == at.frame { vec![at.frame] } else { vec![at.head_frame, at.frame] };
                out(Fact { ctx: ctx(s, frames), kind: FactKind::Initialize(facts::Initialize { requested: req, negotiated: v }) });
            }
        }
    }
}

/// How a stream ended and who closed it, from the HTTP end and the first TCP direction to end.
fn end_reason(end: MessageEnd, first: Option<(Direction, EndReason)>) -> (&'static str, &'static str) {
    match end {
        MessageEnd::Complete => ("complete", "server"),
        MessageEnd::Gap => ("gap", "unknown"),
        MessageEnd::Malformed => ("malformed", "unknown"),
        MessageEnd::ClosedByFin | MessageEnd::Interrupted => match first {
            Some((dir, reason)) => {
                let who = match (dir, reason) {
                    (_, EndReason::EndOfCapture | EndReason::Idle | EndReason::Evicted) => "unknown",
                    (Direction::ToServer, _) => "client",
                    (Direction::ToClient, _) => "server",
                };
                (reason.as_str(), who)
            }
            None => ("interrupted", "unknown"),
        },
    }
}

/// What a 4xx/5xx body is: kind, JSON-RPC code, id as written, message (first line, 120 chars).
fn classify_error_body(media: &str, body: &[u8], parsed: Option<&[Message]>) -> (&'static str, i64, String, String) {
    if let Some(Message::Error { id, code, message }) = parsed.and_then(|m| m.first()) {
        return ("jsonrpc", *code, id.display(), message.chars().take(120).collect());
    }
    let text = String::from_utf8_lossy(body);
    let first_line: String = text.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("").chars().take(120).collect();
    let kind = if body.iter().all(u8::is_ascii_whitespace) {
        "empty"
    } else if media == "text/html" || text.trim_start().starts_with('<') {
        "html"
    } else if media.ends_with("json") || parsed.is_some() {
        "json"
    } else {
        "text"
    };
    (kind, 0, String::new(), first_line)
}

/// The SDK whose stale-session answer this is, where the body shows it (mcp-transports.md §2).
fn fingerprint(status: u16, kind: &str, code: i64, id: &str, message: &str) -> Option<&'static str> {
    let m = message.to_ascii_lowercase();
    match (status, kind, code, id) {
        (404, "jsonrpc", -32001, "null") => Some("TypeScript SDK transport (404, -32001, id null)"),
        (404, "jsonrpc", -32600, "\"server-error\"") => Some("Python SDK >= 1.26 session manager (404, -32600, id \"server-error\")"),
        (404, "jsonrpc", -32600, _) => Some("Python SDK (404, -32600)"),
        (400, "text", _, _) if m.contains("no valid session id") => Some("Python SDK < 1.26 (400 text/plain \"No valid session ID provided\")"),
        (400, "jsonrpc", -32000, _) if m.contains("no valid session id") => Some("TypeScript SDK example server (400, -32000, typescript-sdk#389)"),
        (401, _, _, _) if m.contains("session not found") => Some("rmcp (401 \"Session not found\", rust-sdk#559)"),
        _ => None,
    }
}

/// 2026-07-28 header expectations of one request: (what, header value, expected value).
fn header_expectations(req: &Req) -> Vec<(&'static str, String, String)> {
    let mut v = Vec::new();
    let Some(m) = req.messages().first() else { return v };
    let (method, params) = match m {
        Message::Request { method, params, .. } | Message::Notification { method, params } => (method, params),
        _ => return v,
    };
    let meta_version = params.meta.as_ref().and_then(|meta| meta.protocol_version.as_ref()).and_then(|p| p.0.clone());
    if !req.is_modern() {
        return v;
    }
    if let Some(mv) = &meta_version {
        let header = req.proto_version.clone().unwrap_or_default();
        if &header != mv {
            v.push(("meta-version", header, mv.clone()));
        }
    }
    let header_method = req.mcp_method.clone().unwrap_or_default();
    if &header_method != method {
        v.push(("method", header_method, method.clone()));
    }
    if matches!(method.as_str(), "tools/call" | "resources/read" | "prompts/get") {
        let expected = params.name.as_ref().and_then(|n| n.0.clone()).or_else(|| params.uri.as_ref().and_then(|u| u.0.clone())).unwrap_or_default();
        let header = req.mcp_name.clone().unwrap_or_default();
        if header != expected {
            v.push(("name", header, expected));
        }
    }
    v
}

/// 2025-06-18 and later: `MCP-Protocol-Version` must equal the negotiated version on later requests.
fn version_check(conns: &ConnMap<ConnView>, conn: ConnId, tx: Option<TxId>, negotiated: Option<&str>, initialize: bool) -> Vec<(&'static str, String, String)> {
    let Some(neg) = negotiated else { return Vec::new() };
    if initialize {
        return Vec::new();
    }
    let Some(req) = conns.get(&conn).and_then(|v| v.txs.iter().find(|t| t.id == tx)).and_then(|t| t.req.as_ref()) else { return Vec::new() };
    match &req.proto_version {
        Some(h) if h != neg && !req.is_modern() => vec![("version", h.clone(), neg.to_string())],
        _ => Vec::new(),
    }
}

/// `Server` and `Via` of a response, as one comparable string.
fn server_signature(head: &ResponseHead) -> String {
    let server = head.headers.get("server").unwrap_or("");
    match head.headers.get("via") {
        Some(via) => format!("{server}|{via}"),
        None => server.to_string(),
    }
}

fn context(s: &Session, client: SocketAddr, endpoint: String, ts: Timestamp, frames: Vec<u64>) -> FactContext {
    FactContext {
        ts,
        session_key: s.unique.clone(),
        session_id: s.key.display_id().to_string(),
        client,
        server: s.key.server,
        host: s.host.clone(),
        endpoint,
        era: s.era,
        version: s.version.clone().unwrap_or_default(),
        frames,
        crosses_gap: s.gap,
    }
}

/// Completes a pending shift with the stream's cursor state at the judging moment.
fn judge(mut p: PendingShift, st: &StreamTrack, frame: u64, at_end: bool) -> Fact {
    p.fact.cursor = st.cursor.as_str().to_string();
    p.fact.events = st.events as i64;
    p.fact.ids = st.ids as i64;
    p.fact.judged_at_end = at_end;
    if !p.ctx.frames.contains(&frame) {
        p.ctx.frames.push(frame);
    }
    Fact { ctx: p.ctx, kind: FactKind::ResponseShift(p.fact) }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::http::HttpConnection;

    /// Feeds client bytes of one connection through the real HTTP layer into a tracker.
    fn feed(t: &mut McpTracker, h: &mut HttpConnection, conn: ConnId, bytes: &[u8], ts: Timestamp, facts: &mut Vec<Fact>) {
        h.data(Direction::ToServer, bytes, 1, ts, &mut |ev| t.http(conn, ev, &mut |f| facts.push(f)));
    }

    fn post(id: usize, sid: &str) -> Vec<u8> {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"t"}}}}"#);
        format!("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nMcp-Session-Id: {sid}\r\nContent-Length: {}\r\n\r\n{body}", body.len())
            .into_bytes()
    }

    #[test]
    fn pipelined_requests_without_answers_keep_the_newest_within_the_cap() {
        let limits = Limits { max_pending_per_session: 4, ..Limits::default() };
        let mut t = McpTracker::new(&limits);
        let mut h = HttpConnection::new(&limits);
        let conn = ConnId(1);
        t.open(conn, "10.0.0.1:40000".parse().unwrap(), "10.0.0.9:80".parse().unwrap());
        let mut facts = Vec::new();
        for i in 0..10 {
            feed(&mut t, &mut h, conn, &post(i, "one"), Timestamp::from_secs_micros(1, 0), &mut facts);
        }
        let view = t.conns.get(&conn).unwrap();
        assert_eq!(view.txs.len(), 4);
        // The newest four are kept (tx ids 6..=9), each with its one wait timer.
        assert_eq!(view.txs.iter().map(|x| x.id).collect::<Vec<_>>(), vec![Some(6), Some(7), Some(8), Some(9)]);
        assert_eq!(t.stats.pending_cap_hits, 6);
        assert_eq!(t.timers.len(), 4);
    }

    #[test]
    fn many_session_ids_stay_within_the_session_cap() {
        let limits = Limits { max_sessions: 50, ..Limits::default() };
        let mut t = McpTracker::new(&limits);
        let mut h = HttpConnection::new(&limits);
        let conn = ConnId(1);
        t.open(conn, "10.0.0.1:40000".parse().unwrap(), "10.0.0.9:80".parse().unwrap());
        let mut facts = Vec::new();
        for i in 0..1000 {
            feed(&mut t, &mut h, conn, &post(i, &format!("s{i}")), Timestamp::from_secs_micros(1 + i as i64, 0), &mut facts);
        }
        assert_eq!(t.open_sessions(), 50);
        assert_eq!(t.stats.session_cap_hits, 950);
        // The survivors are the 50 most recent ids.
        assert!(t.sessions.contains_key(&SessionKey { server: "10.0.0.9:80".parse().unwrap(), ident: SessionIdent::McpSessionId("s999".into()) }));
        assert!(!t.sessions.contains_key(&SessionKey { server: "10.0.0.9:80".parse().unwrap(), ident: SessionIdent::McpSessionId("s949".into()) }));
    }
}
