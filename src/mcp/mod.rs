//! The MCP layer and classifier: the exchanges of every connection's layer stack (`stack::Exchange`:
//! HTTP heads, decoded JSON-RPC messages, stream ends and losses) -> MCP sessions (keyed across
//! connections), transport era, and typed `Fact`s. It records and reports; it never decides
//! what is an incident (that is `detect`'s job, from rules).
//!
//! Session keying follows INCIDENTS.md: `Mcp-Session-Id` (MCP 2025-03-26 transports, "Session
//! Management": the server mints it on the response carrying `InitializeResult`, the client echoes it on
//! every later request), the HTTP+SSE session parameter of the URL announced by the `endpoint` event
//! (MCP 2024-11-05 transports), or, where the wire carries none, client address + server + endpoint.
//!
//! Facts are emitted when something notable happens (a content-type change, an error status, a stream's
//! end, an id anomaly, a fallback sequence), never per packet: rules cost microseconds each.
//!
//! This file holds the tracker's state: connections and their transactions, session keying, requests'
//! facts, what timers do when they fire, and expiry. The rest, one concern a file: `request` (the request
//! half and what it says of session and era), `response` (status lines, JSON replies, the end of a
//! response), `events` (SSE events and resumption), `session` (sessions and their table), `stream` and
//! `cursor` (one stream's event ids), `timers` (the queue of due checks), `record` (per-session history
//! for the reports), and the coverage notices: `coverage` (the layers' and their common parts),
//! `undecoded` (bodies not decoded), `switched` (protocol switches not analysed).

mod answers;
pub mod cursor;
mod coverage;
mod event_ids;
mod events;
#[cfg(test)]
mod harness;
pub mod record;
mod request;
mod response;
pub mod session;
mod sites;
mod slots;
pub mod stream;
mod switched;
mod timers;
mod undecoded;

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;
use std::net::{IpAddr, SocketAddr};

use crate::decode::flow_key::Direction;
use crate::facts::{self, Era, Fact, FactContext, FactKind};
use crate::http::{HttpEvent, MessageEnd, ResponseHead, SseEvent, TxId};
use crate::jsonrpc::{Ids, Message, ParseProblem, Payload};
use crate::stack::exchange::{BodyText, FIRST_LINE_CHARS};
use crate::stack::{Body, Exchange};
use crate::keyed::{WireMap, WireSet};
use crate::limits::Limits;
use crate::reassembly::{ConnId, ConnMap, EndReason};
use crate::time::{Duration, Timestamp};

use cursor::Step;
use record::{Recorder, RecorderConfig, SessionRecord};
use session::{IdentRef, KeyRef, Session, SessionIdent, SessionKey, SessionTable};
use sites::SitePaths;
use stream::StreamTrack;
use request::{header_expectations, KeyInfo, Req};
use response::version_check;

pub use crate::facts::Checkpoints;
/// Dead session ids remembered per client.
const MAX_DEAD: usize = 64;
/// 5xx answers remembered per server endpoint for `recent_5xx_ms` and `recent_5xx_frames`.
const RECENT_5XX: usize = 32;

/// `resource_metadata` paths kept per server: a server names one, or one per protected resource.
const MAX_METADATA_PATHS: usize = 16;

/// Counters for the summary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct McpStats {
    pub jsonrpc_messages: u64,
    /// Bodies and SSE event data that are not JSON-RPC: not JSON, or JSON without a JSON-RPC message.
    pub not_jsonrpc: u64,
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

/// A JSON -> SSE (or back) shift waiting to be judged when its stream answers or ends.
#[derive(Debug)]
struct PendingShift {
    fact: facts::ResponseShift,
    ctx: FactContext,
    /// The session's previous POST reply, restored if this stream turns out to be per-request streaming
    /// (which says nothing of the session's transport).
    prev: session::LastPost,
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
    media: Option<std::borrow::Cow<'static, str>>,
    kind: RespKind,
    frame: u64,
    session: Option<SessionKey>,
    /// What the JSON-RPC stage found in the body (JSON bodies, and error bodies of any type).
    body: Body,
    /// The body as text, for errors and answers to GETs.
    text: Option<BodyText>,
    stream: Option<StreamTrack>,
    /// Boxed: most responses have none, and without it a `Resp` fits the allocator's per-thread cache
    /// (glibc serves up to 1,032 bytes from it; 1,200 went through the general free lists).
    shift: Option<Box<PendingShift>>,
    init_requested: Option<String>,
    auth_challenge: bool,
    /// A GET on a path that carries the server's JSON-RPC POSTs (judged at the end of the response).
    get_on_mcp: bool,
    /// The body's Content-Encoding could not be undone (`undecoded.rs`): its content is unknown.
    undecoded: bool,
    /// Server bytes after this head were lost to a capture gap: what the stream did not show (events, ids,
    /// the reply) may be the capture's loss, not the server's.
    gap: bool,
}

#[derive(Debug)]
struct Tx {
    id: Option<TxId>,
    /// Boxed, as the response is: a transaction moves as it is queued, answered and retired, and a `Req`
    /// is 656 bytes.
    req: Option<Box<Req>>,
    resp: Option<Box<Resp>>,
    /// Next `Checkpoints::request_waiting` index for this transaction's unanswered requests.
    wait_step: usize,
    /// Its pending `Timer::Request` (key in `McpTracker::timers`), removed with the transaction when it
    /// is dropped at the cap.
    timer: Option<timers::TimerKey>,
    /// Server bytes were lost to a capture gap while this request waited for its response head: its
    /// response may lie in the gap (and HTTP/1.1 pairs the next response seen with it), so what it was
    /// answered, or that it was not, is the capture's loss.
    gap_lost: bool,
}

impl Tx {
    fn new(id: Option<TxId>, req: Option<Box<Req>>) -> Tx {
        Tx { id, req, resp: None, wait_step: 0, timer: None, gap_lost: false }
    }

    /// What this exchange's server side showed may be incomplete because of a capture gap.
    fn capture_loss(&self) -> bool {
        self.gap_lost || self.resp.as_ref().is_some_and(|r| r.gap)
    }
}

#[derive(Debug)]
struct ConnView {
    client: SocketAddr,
    server: SocketAddr,
    txs: VecDeque<Tx>,
    /// The host and session id its requests repeat.
    names: request::Names,
    /// The first direction to end, and how: who closed a stream.
    first_end: Option<(Direction, EndReason)>,
    /// The connection carried MCP traffic (for coverage of gaps).
    mcp: bool,
    /// Gaps seen before the connection was known to carry MCP: counts, bytes, first frame. Reported to
    /// the server's coverage when it turns out to (at close).
    early_gaps: u64,
    early_missed: u64,
    early_frame: u64,
    /// The snap length cut bytes of the connection from their records.
    cut: bool,
    /// HTTP messages (requests and responses) the connection lost to capture gaps.
    lost_messages: u64,
    /// A capture gap hit this connection: every session later bound to one of its responses has
    /// evidence that may cross the gap (`FactContext::crosses_gap`), not only those bound before it.
    gapped: bool,
    /// The capture did not see the connection begin: HTTP may have paired its first responses with the
    /// wrong requests (a request whose head went before the capture started).
    midstream: bool,
}

impl ConnView {
    /// HTTP may have paired a response of this connection with the wrong request: a gap took bytes of it, or
    /// the capture did not see it begin (RFC 9112 §9.3.2 pairs by order only).
    fn pairing_unsure(&self) -> bool {
        self.gapped || self.midstream
    }

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
    /// The body's kind (`classify_error_body`), `none` without a response.
    body: &'static str,
    version: String,
    /// The `Host` the POST named: a fallback GET goes to the same URL's server, and a client of a forward
    /// proxy sends every origin's requests to the proxy's address.
    host: Arc<str>,
    path: String,
    ts: Timestamp,
    frame: u64,
}

impl FailedPost {
    /// A POST `req` that got no answer to its requests (`kind`: how it ended), as of `ts`.
    fn unanswered(kind: &'static str, req: &Req, ts: Timestamp) -> FailedPost {
        FailedPost { kind, status: 0, code: 0, body: "none", version: req.client_version(), host: req.host_shared(), path: req.path().to_string(), ts, frame: req.frame }
    }
}

/// A dead session (answered 404) of a client.
#[derive(Debug, Clone)]
struct Dead {
    ts: Timestamp,
    frame: u64,
    /// The address (with its port) of the request answered 404: the client a later report names.
    client: SocketAddr,
    reinitialized: bool,
    /// POSTs with the dead id sent after the 404 arrived, and the frames of the first few.
    reuses: u32,
    reuse_frames: Vec<u64>,
    key: SessionKey,
    endpoint: String,
}

/// What the classifier keeps per client address and server.
#[derive(Debug, Default)]
struct ClientState {
    last_request: Timestamp,
    failed_post: Option<FailedPost>,
    /// Last POST answer per path: status, media type, frame.
    post_answers: answers::PathAnswers,
    dead: BTreeMap<String, Dead>,
    /// The session id of the client's latest request.
    last_sid: Option<Arc<str>>,
    /// An `initialize` of this client was seen.
    initialized: bool,
    /// The latest `initialize` handshake without a session id, per host and endpoint (see `SessionIdent`).
    handshakes: BTreeMap<(Arc<str>, Arc<str>), u64>,
    /// Serial of this client's newest such handshake with this server: counted per client and server, not
    /// per capture, so a session's key does not depend on other servers' traffic (a `--threads` shard
    /// sees only its own servers).
    handshake_seq: u64,
    /// The capture missed server bytes toward this client (a gap, a connection it lost sight of, or one
    /// that began before it was seen): an `initialize` result minting a session id may be among them.
    server_loss: bool,
}

impl ClientState {
    /// What the client sends next to `host` on `path` without a session id belongs to a new handshake.
    fn next_handshake(&mut self, host: &Arc<str>, path: &Arc<str>) {
        self.handshake_seq += 1;
        // ALLOC: one handshake serial per endpoint of a client, few in practice
        self.handshakes.insert((Arc::clone(host), Arc::clone(path)), self.handshake_seq);
    }
}

/// What the classifier keeps per server address.
#[derive(Debug, Default)]
struct ServerState {
    /// Paths that carried JSON-RPC POSTs, per site.
    mcp_paths: SitePaths<()>,
    /// Paths whose GET served an HTTP+SSE `endpoint` event, per site.
    sse_paths: SitePaths<()>,
    /// Paths a 401's `resource_metadata` named (OAuth protected resource metadata), at most
    /// [`MAX_METADATA_PATHS`]. Per address, not per site like the others: the URL's authority need not be
    /// the `Host` the 401 answered (RFC 9728 lets the metadata live elsewhere, and a gateway rewrites it),
    /// and all it decides is that a request to that exact path with an MCP header and no MCP message is a
    /// metadata fetch.
    metadata_paths: WireSet<String>,
    /// The latest 5xx answers (time, head frame) per site and path (MCP-5XX-CASCADE is per endpoint).
    recent_5xx: SitePaths<VecDeque<(Timestamp, u64)>>,
    gaps: u64,
    missed_bytes: u64,
    /// Frames where gaps were noticed (at most `detect::MAX_FRAMES`), and the first gap's client.
    gap_frames: Vec<u64>,
    gap_client: Option<SocketAddr>,
    /// Connections without MCP evidence whose records the snap length cut, losing HTTP messages (their
    /// gaps are in `gaps`), and the messages lost.
    cut_connections: u64,
    cut_messages: u64,
    /// Names of the HTTP+SSE session parameter its `endpoint` events taught, beside the usual ones (at
    /// most [`MAX_LEGACY_NAMES`]).
    legacy_names: Vec<Box<str>>,
    /// HTTP+SSE streams whose `endpoint` event named no session parameter, latest first: a client's POSTs
    /// to the announced path belong to its latest such stream (at most [`MAX_BARE_STREAMS`]).
    bare_streams: VecDeque<BareStream>,
}

/// Session parameter names learned per server, at most.
const MAX_LEGACY_NAMES: usize = 4;

/// Streams announcing a message URL without a session parameter, kept per server, at most.
const MAX_BARE_STREAMS: usize = 64;

/// An HTTP+SSE stream whose `endpoint` event named no session parameter: nothing on the wire ties a POST to
/// it but the client's address, the `Host` and the path the event announced.
#[derive(Debug)]
struct BareStream {
    client: IpAddr,
    host: Arc<str>,
    path: Box<str>,
    /// The frame of the GET that opened the stream: the session's key.
    stream: u64,
}

impl BareStream {
    /// The stream announced `path` to this client under this `Host`.
    fn serves(&self, client: IpAddr, host: &str, path: &str) -> bool {
        self.client == client && *self.host == *host && *self.path == *path
    }
}

impl ServerState {
    /// The stream a client's request to `host` and `path` without a session parameter belongs to.
    fn bare_stream(&self, client: IpAddr, host: &str, path: &str) -> Option<u64> {
        self.bare_streams.iter().find(|b| b.serves(client, host, path)).map(|b| b.stream)
    }

    fn announce_bare(&mut self, client: IpAddr, host: Arc<str>, path: &str, stream: u64) {
        self.bare_streams.retain(|b| !b.serves(client, &host, path));
        if self.bare_streams.len() >= MAX_BARE_STREAMS {
            self.bare_streams.pop_back();
        }
        // ALLOC: one announced path per bare stream, at most MAX_BARE_STREAMS per server
        self.bare_streams.push_front(BareStream { client, host, path: path.into(), stream });
    }
}

/// The `initialize` negotiations of the capture, to judge one against the server's other answers and the
/// client's earlier ones (MCP-VERSION-DOWNGRADE). Versions are dates: string order is version order.
///
/// A server is its endpoint URL (one endpoint per MCP server, Streamable HTTP §"Transports"): the address,
/// the `Host` its clients name and the path. One address may front several servers, and their versions are
/// not each other's: a forward proxy's origins (every tunnel and absolute-form request goes to the proxy's
/// address), a gateway's virtual hosts or per-server paths.
#[derive(Debug, Default)]
pub(crate) struct Versions {
    /// Per server: each version asked for, with the newest version answered to it.
    by_server: WireMap<Endpoint, BTreeMap<String, String>>,
    /// Per client address and server: the last version asked for and the one negotiated.
    by_client: WireMap<(IpAddr, Endpoint), (String, String)>,
}

/// A server's address, host and path (see [`Versions`]).
type Endpoint = (SocketAddr, Arc<str>, Arc<str>);

impl Versions {
    /// Records a negotiation; returns the newest version the server answered before to a request for
    /// `requested` or newer, and the client's previous negotiated version when it asked for no more
    /// then than now (`""` for none). At most `cap` servers and `cap` clients are remembered.
    #[allow(clippy::too_many_arguments)]
    fn negotiated(&mut self, server: SocketAddr, host: &Arc<str>, endpoint: &Arc<str>, client: IpAddr, requested: &str, negotiated: &str, cap: usize) -> (String, String) {
        let at: Endpoint = (server, Arc::clone(host), Arc::clone(endpoint));
        let mut none = BTreeMap::new();
        let answers = if self.by_server.len() < cap || self.by_server.contains_key(&at) {
            // ALLOC: one entry per server endpoint, bounded by 4 x limits::max_pending_per_session
            self.by_server.entry(at.clone()).or_default()
        } else {
            &mut none
        };
        let best = answers.range(requested.to_string()..).map(|(_, v)| v.as_str()).max().unwrap_or("").to_string();
        if answers.len() < 64 || answers.contains_key(requested) {
            // ALLOC: one entry per distinct version asked of a server, at most 64
            let e = answers.entry(requested.to_string()).or_default();
            if negotiated > e.as_str() {
                *e = negotiated.to_string();
            }
        }
        let key = (client, at);
        let previous = match self.by_client.get(&key) {
            Some((asked, got)) if asked.as_str() <= requested => got.clone(),
            _ => String::new(),
        };
        if self.by_client.len() < cap || self.by_client.contains_key(&key) {
            // ALLOC: one entry per client of a server endpoint, bounded by 4 x limits::max_pending_per_session
            self.by_client.insert(key, (requested.to_string(), negotiated.to_string()));
        }
        (best, previous)
    }
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
    clients: slots::Slots<(IpAddr, SocketAddr), ClientState>,
    servers: slots::Slots<SocketAddr, ServerState>,
    /// Session ids minted by an `initialize` response in this capture.
    minted: WireSet<String>,
    /// Session ids a response carried outside a handshake to a request that did not carry them, and the
    /// frame of the first such response: where a client that moves to one of them got it.
    handed_out: WireMap<String, u64>,
    timers: timers::Timers<Timer>,
    checkpoints: Checkpoints,
    versions: Versions,
    stream_uid: u64,
    stats: McpStats,
    last_expiry: Timestamp,
    /// Per-session counters and timelines for the reports; `None` unless a report asks (record.rs).
    recorder: Option<Recorder>,
    /// Bodies not decoded, for the coverage notices (`undecoded.rs`).
    undecoded: undecoded::UndecodedNotes,
    /// Connections switched to a protocol not analysed, for the coverage notices (`switched.rs`).
    switched: switched::SwitchedNotes,
}

impl McpTracker {
    pub fn new(limits: &Limits, checkpoints: Checkpoints) -> McpTracker {
        let mut checkpoints = checkpoints;
        for v in [&mut checkpoints.request_waiting, &mut checkpoints.stale_session] {
            v.retain(|s| *s > 0);
            v.sort_unstable();
            v.dedup();
        }
        McpTracker {
            limits: limits.clone(),
            conns: ConnMap::default(),
            sessions: SessionTable::default(),
            clients: slots::Slots::default(),
            servers: slots::Slots::default(),
            minted: WireSet::default(),
            handed_out: WireMap::default(),
            timers: timers::Timers::default(),
            checkpoints,
            versions: Versions::default(),
            stream_uid: 0,
            stats: McpStats::default(),
            last_expiry: Timestamp::ZERO,
            recorder: None,
            undecoded: undecoded::UndecodedNotes::default(),
            switched: switched::SwitchedNotes::default(),
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

    fn open(&mut self, conn: ConnId, client: SocketAddr, server: SocketAddr, midstream: bool) {
        if midstream {
            // What passed on it before the capture saw it (an `initialize` result, say) is unknown.
            self.client_mut(client.ip(), server).server_loss = true;
        }
        // ALLOC: one view per open connection, bounded by limits::max_connections
        self.conns.insert(
            conn,
            ConnView {
                client,
                server,
                txs: VecDeque::new(),
                names: request::Names::default(),
                first_end: None,
                mcp: false,
                early_gaps: 0,
                early_missed: 0,
                early_frame: 0,
                cut: false,
                lost_messages: 0,
                gapped: false,
                midstream,
            },
        );
    }

    /// A direction of a connection ended; called before the HTTP layer ends its messages, so streams
    /// know who closed first.
    fn end(&mut self, conn: ConnId, dir: Direction, reason: EndReason) {
        if let Some(v) = self.conns.get_mut(&conn) {
            if v.first_end.is_none() {
                v.first_end = Some((dir, reason));
            }
        }
    }

    /// The capture lost sight of a connection (its peers' acknowledgements went missing): every exchange
    /// open on it may have lost server bytes, as at a gap of unknown length.
    fn unacked(&mut self, conn: ConnId) {
        self.mark_server_loss(conn);
    }

    /// Every exchange open on the connection may have lost server bytes (a gap, or packets the capture
    /// lost sight of); sessions bound to it are marked as crossing a gap.
    fn mark_server_loss(&mut self, conn: ConnId) {
        let Some(view) = self.conns.get_mut(&conn) else { return };
        view.gapped = true;
        let (client, server) = (view.client.ip(), view.server);
        // ALLOC: session ids of the requests waiting on this connection, bounded by max_pending_per_session
        let mut waiting_sids = Vec::new();
        for tx in view.txs.iter_mut() {
            match tx.resp.as_mut() {
                Some(r) => r.gap = true,
                None => {
                    tx.gap_lost = tx.req.is_some();
                    waiting_sids.extend(tx.req.as_deref().and_then(|r| r.session_id().map(str::to_string)));
                }
            }
        }
        // A waiting request's answer (an event id, a minted session id) may be what the capture lost.
        for sid in waiting_sids {
            if let Some(s) = self.sessions.get_mut(&KeyRef { server, ident: IdentRef::McpSessionId(&sid) }) {
                s.gap = true;
            }
        }
        self.client_mut(client, server).server_loss = true;
        self.mark_sessions_gapped(conn);
    }

    fn mark_sessions_gapped(&mut self, conn: ConnId) {
        let Some(view) = self.conns.get(&conn) else { return };
        for tx in view.txs.iter() {
            if let Some(key) = tx.resp.as_ref().and_then(|r| r.session.as_ref()) {
                if let Some(s) = self.sessions.get_mut(key) {
                    s.gap = true;
                }
            }
        }
    }

    /// A capture gap in one direction of a connection, noticed at `frame` (`cut`: by the snap length).
    fn gap(&mut self, conn: ConnId, dir: Direction, len: u64, cut: bool, frame: u64) {
        if dir == Direction::ToClient {
            self.mark_server_loss(conn);
        } else {
            if let Some(view) = self.conns.get_mut(&conn) {
                view.gapped = true;
            }
            self.mark_sessions_gapped(conn);
        }
        let Some(view) = self.conns.get_mut(&conn) else { return };
        view.cut |= cut;
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
        let st = self.servers.get_or_default(server);
        st.gaps += gaps;
        st.missed_bytes = st.missed_bytes.saturating_add(len);
        // The earliest frames, in order: a connection's first gap is told at its close, after later ones.
        if let Err(at) = st.gap_frames.binary_search(&frame) {
            st.gap_frames.insert(at, frame);
            st.gap_frames.truncate(crate::detect::MAX_FRAMES);
        }
        if st.gap_client.is_none() {
            st.gap_client = Some(client);
        }
    }

    /// `capture_end`: the capture ended with the connection still open (not a close seen on the wire).
    fn close<F: FnMut(Fact)>(&mut self, conn: ConnId, ts: Timestamp, capture_end: bool, out: &mut F) {
        let Some(mut view) = self.conns.remove(&conn) else { return };
        if view.mcp && view.early_gaps > 0 {
            self.server_gap(view.server, view.client, view.early_gaps, view.early_missed, view.early_frame);
        } else if view.cut && view.lost_messages > 0 && view.early_gaps > 0 {
            // No MCP evidence, but the snap length cut its messages away: what it carried cannot be told,
            // and a report that stays silent would say "seen and clean" (CAPTURE-GAPS, docs/incidents.md).
            self.server_gap(view.server, view.client, view.early_gaps, view.early_missed, view.early_frame);
            let st = self.servers.get_or_default(view.server);
            st.cut_connections += 1;
            st.cut_messages = st.cut_messages.saturating_add(view.lost_messages);
        }
        let first_end = view.first_end;
        while let Some(mut tx) = view.txs.pop_front() {
            if tx.resp.is_some() {
                // The HTTP layer ends open responses on FIN/RST; this is the safety net.
                self.finish_response(&view, &mut tx, ts, MessageEnd::Interrupted, out);
            } else if let Some(req) = tx.req.as_deref() {
                let reason = if capture_end { "no response by the end of the capture" } else { "no response before the connection closed" };
                self.record_unanswered(view.client, view.server, req, ts, reason);
                // A POST the connection lost before any answer: a fallback trigger, unless its answer may
                // lie in a capture gap (then the failure is the capture's, not the server's).
                if req.method() == "POST" && req.has_request_ids() && !tx.gap_lost {
                    let kind = match first_end {
                        Some((_, EndReason::Rst)) => "reset",
                        _ => "no-response",
                    };
                    self.client_mut(view.client.ip(), view.server).failed_post = Some(FailedPost::unanswered(kind, req, ts));
                }
            }
        }
    }

    /// A request keyed to a session at its end (`request_end`) that no response head answered: on the
    /// session's inventory row and timeline, so that a request left waiting (a GET whose stream a
    /// buffering middleware never started) is seen there too, or one whose response a capture gap took.
    /// Only looked up: it makes no session.
    fn record_unanswered(&mut self, client: SocketAddr, server: SocketAddr, req: &Req, ts: Timestamp, reason: &'static str) {
        let Some(info) = req.key.as_ref().filter(|_| self.recorder.is_some()) else { return };
        let wanted = self.key_ref(client, server, info, None);
        let Some(s) = self.sessions.get_mut(&wanted) else { return };
        if let Some(rec) = self.recorder.as_mut() {
            let (http_method, path, rpc_method) = (req.method_token(), req.endpoint(), req.first_method());
            let asked = record::Asked { ts: req.ts, frame: req.frame, http_method: &http_method, path: &path, rpc_method: rpc_method.as_str(), h2_stream: req.h2_stream };
            rec.unanswered(s, client, asked, (ts, reason));
        }
    }

    /// One exchange of a connection's layer stack.
    pub fn exchange<F: FnMut(Fact)>(&mut self, conn: ConnId, ev: Exchange<'_>, out: &mut F) {
        match ev {
            Exchange::Open { client, server, midstream } => self.open(conn, client, server, midstream),
            Exchange::Http(h) => self.http(conn, h, out),
            Exchange::RequestBody { tx, body } => {
                let stats = &mut self.stats;
                if let Some(req) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(Some(tx))).and_then(|t| t.req.as_deref_mut()) {
                    req.set_body(body, stats);
                }
            }
            Exchange::ResponseBody { tx, body, text } => {
                if let Some(resp) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)).and_then(|t| t.resp.as_mut()) {
                    if body == Body::OverCap {
                        self.stats.bodies_over_cap += 1;
                    }
                    resp.body = body;
                    resp.text = text;
                }
            }
            Exchange::Sse { tx, event, payload, frame, ts } => self.sse(conn, tx, &event, payload, frame, ts, out),
            Exchange::Lost { dir, len, cut, frame } => self.gap(conn, dir, len, cut, frame),
            Exchange::Unacked => self.unacked(conn),
            Exchange::Ended { dir, reason } => self.end(conn, dir, reason),
            Exchange::Close { ts } => self.close(conn, ts, false, out),
        }
    }

    fn http<F: FnMut(Fact)>(&mut self, conn: ConnId, ev: HttpEvent<'_>, out: &mut F) {
        // A comment and a blank line that ends no event both keep a stream alive; only a comment is a
        // keep-alive the rules count.
        let comment = matches!(ev, HttpEvent::SseComment { .. });
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
                            self.timers.cancel(k);
                        }
                        self.stats.pending_cap_hits += 1;
                    }
                }
                let mut req = Req::from_head(head, frame, ts, &mut view.names);
                if let Some(st) = self.servers.get(&view.server) {
                    if !st.legacy_names.is_empty() {
                        req.learn_legacy(&st.legacy_names);
                    }
                    // Only a POST is a message; a GET of the same path is the client's next stream.
                    if !st.bare_streams.is_empty() && req.method() == "POST" && req.legacy_param().is_none() && req.session_id().is_none() {
                        req.bare_stream = st.bare_stream(client.0, req.host(), req.path());
                    }
                }
                // ALLOC: one transaction per outstanding request, bounded by limits::max_pending_per_session
                view.txs.push_back(Tx::new(Some(tx), Some(Box::new(req))));
                self.client_mut(client.0, client.1).last_request = ts;
            }
            HttpEvent::RequestEnd { tx, ts, .. } => self.request_end(conn, Some(tx), ts, out),
            HttpEvent::H2Stream { tx, stream, .. } => {
                if let Some(req) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(Some(tx))).and_then(|t| t.req.as_deref_mut()) {
                    req.h2_stream = Some(stream);
                }
            }
            HttpEvent::Response { tx, head, frame, ts } => {
                if head.status == 101 {
                    self.switched(conn, tx, &head, frame, ts);
                }
                self.response(conn, tx, &head, frame, ts, out)
            }
            HttpEvent::SseComment { tx, ts, .. } | HttpEvent::SseBlank { tx, ts, .. } => {
                if let Some(st) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)).and_then(|t| t.resp.as_mut()).and_then(|r| r.stream.as_mut()) {
                    if comment {
                        st.comment(ts);
                    } else {
                        st.blank_line(ts);
                    }
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
            HttpEvent::ResponseLost { tx, ts, .. } => {
                // Its answer lies in a capture gap: nothing is known about it, and nothing is owed. The request
                // was still made: the session's inventory counts it, as one no response answered.
                let Some(view) = self.conns.get_mut(&conn) else { return };
                view.lost_messages += 1;
                let (client, server) = (view.client, view.server);
                let Some(t) = view.txs.iter().position(|t| t.id == Some(tx) && t.resp.is_none()).and_then(|pos| view.txs.remove(pos)) else { return };
                if let Some(k) = t.timer {
                    self.timers.cancel(k);
                }
                if let Some(req) = t.req.as_deref() {
                    self.record_unanswered(client, server, req, ts, "its response lost in a capture gap");
                }
            }
            HttpEvent::RequestLost { .. } => {
                if let Some(view) = self.conns.get_mut(&conn) {
                    view.lost_messages += 1;
                }
            }
            HttpEvent::RequestUndecoded { tx, coding, reason, frame, ts } => self.body_undecoded(conn, Some(tx), true, &coding, reason, frame, ts),
            HttpEvent::ResponseUndecoded { tx, coding, reason, frame, ts } => self.body_undecoded(conn, tx, false, &coding, reason, frame, ts),
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
        self.clients.get_or_default(key)
    }

    /// Schedules the next wait checkpoint of a transaction and notes it on the transaction.
    fn schedule_wait(&mut self, at: Timestamp, conn: ConnId, tx: Option<TxId>) {
        let k = self.timers.schedule(at, Timer::Request { conn, tx });
        if let Some(t) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)) {
            t.timer = Some(k);
        }
    }

    /// The session a request belongs to, created if needed. `resp_sid` is the id a response mints.
    /// The key of the session a request with `info` (answered with `resp_sid`, if any) belongs to.
    fn key_ref<'a>(&self, client: SocketAddr, server: SocketAddr, info: &'a KeyInfo, resp_sid: Option<&'a str>) -> KeyRef<'a> {
        let ident = match (info.session_id.as_deref().or(resp_sid), &info.legacy, info.bare_stream) {
            (Some(sid), _, _) => IdentRef::McpSessionId(sid),
            (None, Some(p), _) => IdentRef::LegacyParam(p),
            (None, None, Some(stream)) => IdentRef::LegacyStream { client: client.ip(), stream },
            (None, None, None) => {
                // Requests without a session id follow the client's latest handshake on the endpoint;
                // stateless exchanges have none.
                let handshake = if info.stateless {
                    0
                } else {
                    let at = (Arc::clone(&info.host), Arc::clone(&info.path));
                    self.clients.get(&(client.ip(), server)).and_then(|c| c.handshakes.get(&at)).copied().unwrap_or(0)
                };
                IdentRef::Anonymous { client: client.ip(), host: &info.host, endpoint: &info.path, client_name: info.client_name.as_deref(), handshake }
            }
        };
        KeyRef { server, ident }
    }

    fn session_for(&mut self, client: SocketAddr, server: SocketAddr, info: &KeyInfo, resp_sid: Option<&str>, ts: Timestamp) -> SessionKey {
        let wanted = self.key_ref(client, server, info, resp_sid);
        // The session usually exists: found with one lookup, its stored key shared. Only a new session's
        // key is built, and hashed again to insert it.
        let (s, evicted) = match self.sessions.get_mut(&wanted) {
            Some(s) => (s, None),
            None => {
                let key = wanted.to_owned_key();
                self.sessions.entry(&key, ts, self.limits.max_sessions)
            }
        };
        let key = s.key.clone();
        s.last_seen = s.last_seen.max(ts);
        if s.host.is_empty() {
            s.host = Arc::clone(&info.host);
        }
        // The endpoint is where the session POSTs; a session without a session id is keyed on its endpoint,
        // which a GET names as well as a POST (a session-less GET refused before any POST).
        if s.endpoint.is_empty() && (info.is_post || matches!(s.key.ident, SessionIdent::Anonymous { .. })) {
            s.endpoint = info.path.to_string();
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

    /// Request-side facts, once the body is decoded: outstanding ids, stale-session reuse, header
    /// mismatches, session id changes, stateless echoes, and the wait timer. Requests without MCP
    /// evidence (INCIDENTS.md) are not MCP: no session, no fact.
    fn request_end<F: FnMut(Fact)>(&mut self, conn: ConnId, tx: Option<TxId>, ts: Timestamp, out: &mut F) {
        let Some(view) = self.conns.get_mut(&conn) else { return };
        let (client, server) = (view.client, view.server);
        let Some(t) = view.tx_mut(tx) else { return };
        let Some(req) = t.req.as_deref_mut() else { return };
        req.decode(&mut self.stats);
        if req.checked || !is_mcp_request(&self.servers, server, req) {
            return;
        }
        req.checked = true;
        let req_sid = req.session_id_shared();
        let initialize = req.is_initialize();
        let ids = req.request_ids();
        let cancels = req.cancelled_ids();
        let http_method = req.method_token();
        let is_post = http_method == "POST";
        let rpc_method = req.first_method();
        let path = req.endpoint();
        let frame = req.frame;
        let req_ts = req.ts;
        let declares_2026 = req.declares_2026();
        let header_checks = header_expectations(req);
        let info = req.key_info();
        if let Some(v) = self.conns.get_mut(&conn) {
            v.mcp = true;
        }
        if !ids.is_empty() {
            if let Some(first) = self.checkpoints.request_waiting.first().copied() {
                self.schedule_wait(req_ts.plus(Duration::from_secs(first)), conn, tx);
            }
        }
        if is_post && !ids.is_empty() {
            self.servers.get_or_default(server).mcp_paths.insert(&info.host, &path, ());
        }
        let client_key = (client.ip(), server);
        // A session id the capture has not seen before (checked before the session is made for it).
        // The client's previous session id, when this request carries another one.
        let moved_from = {
            let c = self.client_mut(client_key.0, client_key.1);
            let moved = match (&req_sid, &c.last_sid) {
                (Some(sid), Some(old)) if old != sid => Some(old.clone()),
                _ => None,
            };
            if let Some(sid) = req_sid.as_ref().filter(|sid| c.last_sid.as_ref() != Some(*sid)) {
                c.last_sid = Some(sid.clone());
            }
            if initialize {
                c.initialized = true;
            }
            moved
        };
        let new_sid = moved_from
            .as_ref()
            .and(req_sid.as_ref())
            .filter(|sid| !self.sessions.contains_key(&KeyRef { server, ident: IdentRef::McpSessionId(sid) }))
            .cloned();
        if initialize && req_sid.is_none() {
            for d in self.client_mut(client_key.0, client_key.1).dead.values_mut() {
                d.reinitialized = true;
            }
        }
        // An initialize without a session id is keyed when its response mints one (or does not).
        if req_sid.is_none() && initialize {
            // HTTP+SSE: the `endpoint` event keyed the session, and its result comes on that stream, not in
            // the answer to this POST.
            if info.is_legacy() {
                let wanted = self.key_ref(client, server, &info, None);
                if let Some(s) = self.sessions.get_mut(&wanted) {
                    s.legacy_init = info.requested.clone().map(|v| (v, frame));
                }
            }
            return;
        }
        let key = self.session_for(client, server, &info, None, ts);
        // Its response keys the same session from the same request: kept for it, not built again.
        if let Some(req) = self.conns.get_mut(&conn).and_then(|v| v.tx_mut(tx)).and_then(|t| t.req.as_deref_mut()) {
            req.key = Some(info);
        }
        let cap_ids = self.limits.max_pending_per_session.saturating_mul(4);
        let Some(s) = self.sessions.get_mut(&key) else { return };
        s.request_sent(&ids, cap_ids);
        for id in cancels {
            s.cancel(id, req_ts);
        }
        // Built only for a fact: most requests raise none.
        let base = context(s, client, Arc::clone(&path), ts, Vec::new());
        let ctx = || FactContext { frames: vec![frame], ..base.clone() };
        let (era, handshake) = (s.era, s.handshake);
        let negotiated = s.version.clone();
        if let Some(sid) = &req_sid {
            // A request reusing a session id the server declared dead. A POST of notifications or responses
            // only is no further request (INCIDENTS.md counts requests): beeai's `notifications/cancelled` after
            // each call (clients7-beeai-restart) neither counts nor makes a row.
            let counts = !is_post || !ids.is_empty();
            let dead = self.clients.get_mut(&client_key).filter(|_| counts).and_then(|c| c.dead.get_mut(&**sid)).map(|d| {
                let before = req_ts < d.ts;
                if is_post && !before {
                    d.reuses += 1;
                    if d.reuse_frames.len() < 4 {
                        // ALLOC: at most 4 frames per dead session id
                        d.reuse_frames.push(frame);
                    }
                }
                (d.clone(), before)
            });
            if let Some((d, before)) = dead {
                let mut c = ctx();
                c.frames = std::iter::once(d.frame).chain(d.reuse_frames.iter().copied()).collect();
                if !c.frames.contains(&frame) {
                    c.frames.push(frame);
                }
                out(Fact {
                    ctx: c,
                    kind: FactKind::StaleSession(facts::StaleSession {
                        trigger: "reuse".into(),
                        http_method: http_method.clone(),
                        rpc_method: (&rpc_method).into(),
                        since_404_ms: req_ts.since(d.ts).0 / 1_000_000,
                        sent_before_404: before,
                        reuses: i64::from(d.reuses),
                        reinitialized: d.reinitialized,
                    }),
                });
            }
            // The client moved to a session id the capture had not seen.
            if let (Some(new), Some(old)) = (&new_sid, moved_from) {
                let client_initialized = self.clients.get(&client_key).is_some_and(|c| c.initialized);
                let mut c = ctx();
                if let Some(&given) = self.handed_out.get(&**new) {
                    c.frames.insert(0, given);
                }
                out(Fact {
                    ctx: c,
                    kind: FactKind::SessionChange(facts::SessionChange {
                        how: "request".into(),
                        new_id_minted: self.minted.contains(&**new),
                        old_id_minted: self.minted.contains(&*old),
                        old_id: old.to_string().into(),
                        new_id: new.to_string().into(),
                        client_initialized,
                        capture_loss: self.clients.get(&client_key).is_some_and(|c| c.server_loss),
                    }),
                });
            }
            if declares_2026 && !initialize {
                out(Fact { ctx: ctx(), kind: FactKind::StatelessSession(facts::StatelessSession { how: "echoed".into(), handshake }) });
            }
        }
        // Header expectations: 2026-07-28 Mcp-Method/Mcp-Name/_meta on stateless exchanges, 2025-06-18
        // MCP-Protocol-Version against the negotiated version on sessions.
        let stateless = era == Era::Stateless2026;
        let checks = if stateless { header_checks } else { Vec::new() };
        let version = if stateless { Vec::new() } else { version_check(&self.conns, conn, tx, negotiated.as_deref(), initialize) };
        for (what, header, expected) in checks.into_iter().chain(version) {
            out(Fact {
                ctx: ctx(),
                kind: FactKind::HeaderMismatch(facts::HeaderMismatch { what: what.into(), header: header.into(), expected: expected.into(), rpc_method: (&rpc_method).into() }),
            });
        }
    }

    /// A coverage notice of the layers below (TLS that stayed dark, HTTP/2 not analysed, a capture with
    /// nothing to decode), as its fact.
    pub fn coverage<F: FnMut(Fact)>(&mut self, notice: crate::stack::coverage::Coverage, out: &mut F) {
        out(coverage::fact(notice));
    }

    /// Moves capture time: fires due timers (waiting requests, missing re-initialize) and releases
    /// sessions idle for longer than `Limits::session_idle_secs`.
    pub fn advance<F: FnMut(Fact)>(&mut self, now: Timestamp, out: &mut F) {
        self.fire_due(now, out);
        if now.since(self.last_expiry) < Duration::from_secs(1) {
            return;
        }
        self.last_expiry = now;
        let idle = Duration::from_secs(self.limits.session_idle_secs);
        // Oldest first from the activity index: only the sessions that expire are visited.
        while let Some(mut s) = self.sessions.pop_oldest_if(|seen| now.since(seen) > idle) {
            response::release_held_gets(&mut s, false, out);
            if let Some(rec) = self.recorder.as_mut() {
                rec.release(&s);
            }
            self.stats.sessions_expired += 1;
            *self.stats.sessions_by_era.entry(s.era).or_default() += 1;
        }
    }

    /// When the earliest timer, pending or cancelled, is due.
    pub fn next_timer(&self) -> Option<Timestamp> {
        self.timers.next_at()
    }

    /// Fires the timers due by `now` (capture time).
    pub fn fire_due<F: FnMut(Fact)>(&mut self, now: Timestamp, out: &mut F) {
        while let Some((at, timer)) = self.timers.pop_due(now) {
            self.fire(at, timer, out);
        }
    }

    fn fire<F: FnMut(Fact)>(&mut self, at: Timestamp, timer: Timer, out: &mut F) {
        match timer {
            Timer::Request { conn, tx } => {
                let Some(view) = self.conns.get_mut(&conn) else { return };
                let client = view.client;
                let Some(t) = view.tx_mut(tx) else { return };
                let Some(req) = t.req.as_deref() else { return };
                // What is still owed: the stream's pending ids, or every request id before any answer.
                let owed: Ids = match &t.resp {
                    None => req.request_ids(),
                    // An undecodable stream may carry the answer: nothing is known to be owed.
                    Some(r) if r.undecoded => Ids::new(),
                    Some(r) => match &r.stream {
                        Some(st) => st.pending.clone(),
                        None => Ids::new(),
                    },
                };
                let Some(&age) = self.checkpoints.request_waiting.get(t.wait_step) else { return };
                t.wait_step += 1;
                let next = self.checkpoints.request_waiting.get(t.wait_step).copied();
                if owed.is_empty() {
                    return;
                }
                let method = req.first_method();
                let path = req.endpoint();
                let frame = req.frame;
                let req_ts = req.ts;
                let capture_loss = t.capture_loss();
                let key = t.resp.as_ref().and_then(|r| r.session.clone());
                // No head yet: the session the request was keyed to. A proxy that buffers the whole reply
                // (lighttpd's default) sends no byte of it while the call runs, and the client waits on an
                // open connection all the same (samples/ecosystem/longlived2-lighttpd-ts-py.pcap).
                let info = if key.is_none() { req.key.clone() } else { None };
                let server = view.server;
                let s = match (key, info) {
                    (Some(k), _) => self.sessions.get(&k),
                    (None, Some(info)) => self.sessions.get(&self.key_ref(client, server, &info, None)),
                    (None, None) => None,
                };
                if let Some(s) = s {
                    for id in s.owed(&owed, req_ts) {
                        out(Fact {
                            ctx: context(s, client, path.clone(), at, vec![frame]),
                            kind: FactKind::RequestWaiting(facts::RequestWaiting { method: (&method).into(), id: id.display().into(), waiting_secs: age, capture_loss }),
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
                let age = self.checkpoints.stale_session.get(step).copied().unwrap_or(0);
                if active {
                    if let Some(s) = self.sessions.get(&d.key) {
                        out(Fact {
                            ctx: context(s, d.client, d.endpoint.as_str().into(), at, vec![d.frame]),
                            kind: FactKind::StaleSession(facts::StaleSession {
                                trigger: "wait".into(),
                                http_method: "".into(),
                                rpc_method: "".into(),
                                since_404_ms: age * 1000,
                                sent_before_404: false,
                                reuses: i64::from(d.reuses),
                                reinitialized: false,
                            }),
                        });
                    }
                }
                if let Some(n) = self.checkpoints.stale_session.get(step + 1).copied() {
                    self.timers.schedule(d.ts.plus(Duration::from_secs(n)), Timer::Reinit { client, sid, step: step + 1 });
                }
            }
        }
    }

    /// An HTTP+SSE GET stream whose head carried an MCP header (the Vercel AI SDK sends
    /// `MCP-Protocol-Version` on it) was keyed as a session-less exchange before its `endpoint` event named
    /// its session. The stream is that session's (INCIDENTS.md: tied to the GET stream that announced it):
    /// the placeholder, when the GET is all it holds, joins it.
    fn join_announcing_get(&mut self, before: &SessionKey, now: &SessionKey) {
        let placeholder = matches!(before.ident, SessionIdent::Anonymous { .. })
            && self.sessions.get(before).is_some_and(|s| s.exchanges <= 1 && s.era == Era::Unknown);
        if placeholder && before != now {
            self.absorb(before, now);
        }
    }

    /// The session keyed `before` turned out to be part of `now`'s (a key an exchange had before what
    /// followed named its session): it leaves the table uncounted, and what it still owed and its record
    /// go to `now`.
    fn absorb(&mut self, before: &SessionKey, now: &SessionKey) {
        let Some(mut gone) = self.sessions.take(before) else { return };
        let cap = self.limits.max_pending_per_session.saturating_mul(4);
        let Some(s) = self.sessions.get_mut(now) else { return };
        s.held_gets.append(&mut gone.held_gets);
        if !gone.outstanding.is_empty() {
            // ALLOC: the ids of the one request a probe's key held, rare
            let owed: Vec<crate::jsonrpc::Id> = gone.outstanding.keys().cloned().collect();
            s.request_sent(&owed, cap);
        }
        if let Some(rec) = self.recorder.as_mut() {
            rec.merge(&gone, s);
        }
    }

    /// A session evicted at the session cap (the least recently active one): counted and released. GET
    /// answers it held are dropped with it, as the rest of its state is (the summary counts the cap hit).
    fn evicted(&mut self, s: Box<Session>) {
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
            self.close(c, ts, true, out);
        }
        // Coverage: one notice per server whose MCP streams lost bytes.
        let mut gap_sessions: BTreeMap<SocketAddr, (u64, String, String)> = BTreeMap::new();
        // Key order: the first gap session of a server names its host and endpoint, deterministically.
        for s in self.sessions.sorted().into_iter().filter(|s| s.gap) {
            let e = gap_sessions.entry(s.key.server).or_insert((0, s.host.to_string(), s.endpoint.clone()));
            e.0 += 1;
        }
        let mut servers: Vec<(&SocketAddr, &ServerState)> = self.servers.iter().filter(|(_, st)| st.missed_bytes > 0).collect();
        servers.sort_by_key(|(a, _)| **a);
        for (addr, st) in servers {
            let (n, host, endpoint) = gap_sessions.get(addr).cloned().unwrap_or_default();
            // The evidence's object: which streams lost the bytes (the rule's `{streams}`).
            let cut = |of: &str| {
                format!(
                    "{} connection(s){of} whose records the snap length cut: {} HTTP message(s) lost, and with them any MCP evidence",
                    st.cut_connections, st.cut_messages
                )
            };
            let streams = match (n, st.cut_connections) {
                // Bytes between exchanges: no session's message was open to lose them.
                (0, 0) => "connections of this server that carried MCP".to_string(),
                (_, 0) => format!("streams of {n} MCP session(s) of this server"),
                (0, _) => cut(" of this server"),
                _ => format!("streams of {n} MCP session(s) of this server and {}", cut("")),
            };
            out(Fact {
                ctx: FactContext {
                    host: host.into(),
                    endpoint: endpoint.into(),
                    crosses_gap: true,
                    ..coverage::notice_context(format!("{addr} coverage"), st.gap_client.unwrap_or(coverage::NO_ADDR), *addr, ts, st.gap_frames.clone())
                },
                kind: FactKind::CaptureGap(facts::CaptureGap {
                    gaps: st.gaps as i64,
                    missed_bytes: st.missed_bytes as i64,
                    sessions: n as i64,
                    cut_connections: st.cut_connections as i64,
                    cut_messages: st.cut_messages as i64,
                    streams: streams.into(),
                }),
            });
        }
        self.finish_undecoded(out);
        self.finish_switched(out);
        for key in self.sessions.sorted().into_iter().filter(|s| !s.held_gets.is_empty()).map(|s| s.key.clone()).collect::<Vec<_>>() {
            if let Some(s) = self.sessions.get_mut(&key) {
                response::release_held_gets(s, false, out);
            }
        }
        for s in self.sessions.sorted() {
            if let Some(rec) = self.recorder.as_mut() {
                rec.release(s);
            }
            *self.stats.sessions_by_era.entry(s.era).or_default() += 1;
        }
        self.sessions.clear();
    }
}

/// A request is MCP when it carries MCP evidence, or JSON-RPC to a path of the server that carried MCP
/// (a client's reply to a server request, a 2025-03-26 client that sends no headers). An MCP header on a
/// request for metadata is no evidence: clients send `MCP-Protocol-Version` on OAuth discovery as the
/// specification asks (2025-06-18 basic/authorization, Server Metadata Discovery), to RFC 8615
/// `/.well-known/` URIs and to the `resource_metadata` URL a 401 names; counted as MCP, each fetch was a
/// session of its own (the conformance clients made a dozen).
fn is_mcp_request(servers: &slots::Slots<SocketAddr, ServerState>, server: SocketAddr, req: &Req) -> bool {
    let st = servers.get(&server);
    let path = req.path();
    let metadata = || path.contains("/.well-known/") || st.is_some_and(|st| !st.metadata_paths.is_empty() && st.metadata_paths.contains(path));
    (req.mcp_headers() && !metadata()) || req.mcp_messages() || (req.has_messages() && st.is_some_and(|st| st.mcp_paths.contains(req.host(), path)))
}

/// The path of the `resource_metadata` URL in a `WWW-Authenticate` challenge (RFC 9728 §5.1), if any.
fn resource_metadata_path(challenge: &str) -> Option<&str> {
    let at = challenge.to_ascii_lowercase().find("resource_metadata=")?;
    let value = challenge.get(at + "resource_metadata=".len()..)?;
    let value = match value.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next()?,
        None => value.split([',', ' ']).next()?,
    };
    // An absolute URL's path: what follows the authority; a path as it is.
    let path = match value.split_once("://") {
        Some((_, rest)) => rest.find('/').and_then(|i| rest.get(i..))?,
        None => value,
    };
    path.split(['?', '#']).next().filter(|p| p.starts_with('/'))
}

fn context(s: &Session, client: SocketAddr, endpoint: Arc<str>, ts: Timestamp, frames: Vec<u64>) -> FactContext {
    FactContext {
        ts,
        session_key: s.unique.clone(),
        session_id: s.id.clone(),
        client,
        server: s.key.server,
        host: s.host.clone(),
        endpoint,
        era: s.era,
        version: s.version.clone().unwrap_or_else(|| "".into()),
        frames,
        crosses_gap: s.gap,
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::http::HttpConnection;

    #[test]
    fn resource_metadata_paths_are_read_from_a_challenge() {
        for (challenge, want) in [
            (r#"Bearer resource_metadata="http://127.0.0.1:4000/custom/metadata/location.json""#, Some("/custom/metadata/location.json")),
            (r#"Bearer error="invalid_token", Resource_Metadata="https://x.example/.well-known/oauth-protected-resource/mcp?a=1""#, Some("/.well-known/oauth-protected-resource/mcp")),
            ("Bearer resource_metadata=/meta, scope=x", Some("/meta")),
            (r#"Bearer realm="mcp""#, None),
            (r#"Bearer resource_metadata="https://x.example""#, None),
        ] {
            assert_eq!(resource_metadata_path(challenge), want, "{challenge}");
        }
    }

    #[test]
    fn oauth_metadata_fetched_with_the_mcp_header_is_no_session() {
        // The conformance clients fetch each discovery document with MCP-Protocol-Version, as the
        // specification asks (samples/ecosystem/conformance-*-client-*): none of them is an MCP exchange.
        use crate::mcp::harness::*;
        let mut h = Harness::new();
        let c = h.connect("10.0.0.1:40000");
        let tx = h.post(c, &[V25], &tool_call(1));
        h.reply(c, tx, 401, &["WWW-Authenticate: Bearer resource_metadata=\"http://127.0.0.1:8000/custom/meta.json\""], "");
        for path in ["/custom/meta.json", "/.well-known/oauth-authorization-server", "/tenant1/.well-known/openid-configuration"] {
            let g = h.request(c, "GET", path, &[V25], "");
            h.json(c, g, &[], r#"{"issuer":"http://127.0.0.1:8000"}"#);
        }
        // The same header on the MCP endpoint is evidence, whatever the method.
        let g = h.request(c, "GET", "/mcp", &[V25, "Accept: text/event-stream"], "");
        h.reply(c, g, 405, &[], "");
        h.finish();
        assert_eq!(h.t.stats().sessions_by_era.values().sum::<u64>(), 1, "{:?}", h.t.stats().sessions_by_era);
    }

    #[test]
    fn a_connection_the_snap_length_cut_bare_of_evidence_is_a_capture_gap() {
        // `tcpdump -s 200` on the downgrade session (samples/sensors-snap200.pcap): every head is cut, so
        // no message shows MCP evidence and no session exists; silence would say "seen and clean".
        use crate::mcp::harness::*;
        let run = |cut: bool, lost: bool, with_session: bool| {
            let mut h = Harness::new();
            if with_session {
                let c = session(&mut h);
                h.post(c, &[SID, V25], &tool_call(2));
                h.gap(c, 100);
            }
            let early = h.connect("10.0.0.1:41000");
            let late = h.connect("10.0.0.1:41001");
            for c in [early, late] {
                if cut {
                    h.cut(c, Direction::ToServer, 120);
                } else {
                    h.exchange(c, Exchange::Lost { dir: Direction::ToServer, len: 120, cut: false, frame: 90 });
                }
                // One connection loses a request, the other the response to a plain one.
                if lost && c == early {
                    h.lost_request(c);
                } else if lost {
                    let tx = h.request(c, "GET", "/", &[], "");
                    h.lost_response(c, tx);
                }
            }
            // Closed latest first: the row's frames still come in capture order.
            h.close(late);
            h.close(early);
            h.finish();
            let rows: Vec<String> = h.evidence().into_iter().filter(|(id, _)| id == "CAPTURE-GAPS").map(|(_, e)| e).collect();
            let facts: Vec<Vec<u64>> = h.facts_of("capture_gap").iter().map(|f| f.ctx.frames.clone()).collect();
            (rows, facts)
        };
        let (rows, frames) = run(true, true, false);
        assert_eq!(
            rows,
            ["240 bytes in 2 gaps missing from 2 connection(s) of this server whose records the snap length cut: 2 HTTP message(s) lost, and with them any MCP evidence"]
        );
        assert!(frames.len() == 1 && frames[0].is_sorted() && frames[0].len() == 2, "{frames:?}");
        let (rows, _) = run(true, true, true);
        assert_eq!(
            rows,
            ["340 bytes in 3 gaps missing from streams of 1 MCP session(s) of this server and 2 connection(s) whose records the snap length cut: 2 HTTP message(s) lost, and with them any MCP evidence"]
        );
        // Lost packets on traffic without MCP evidence are not MCP's loss (readable heads showed none),
        // nor are cut bytes that took no HTTP message.
        assert_eq!(run(false, true, false).0, Vec::<String>::new());
        assert_eq!(run(true, false, false).0, Vec::<String>::new());
        assert_eq!(run(false, true, true).0, ["100 bytes in 1 gaps missing from streams of 1 MCP session(s) of this server"]);
        // A gap between a session's exchanges took no session's message.
        let mut h = Harness::new();
        let c = session(&mut h);
        h.gap(c, 100);
        h.finish();
        assert_eq!(h.evidence(), [("CAPTURE-GAPS".to_string(), "100 bytes in 1 gaps missing from connections of this server that carried MCP".to_string())]);
    }

    /// Feeds client bytes of one connection through the real HTTP layer into a tracker.
    fn feed(t: &mut McpTracker, h: &mut HttpConnection, conn: ConnId, bytes: &[u8], ts: Timestamp, facts: &mut Vec<Fact>) {
        let mut rpc = crate::stack::rpc::RpcStage::new(Limits::default().max_body_bytes);
        h.data(Direction::ToServer, bytes, 1, ts, &mut |ev| rpc.http(ev, &mut |x| t.exchange(conn, x, &mut |f| facts.push(f))));
    }

    fn post(id: usize, sid: &str) -> Vec<u8> {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"t"}}}}"#);
        format!("POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nMcp-Session-Id: {sid}\r\nContent-Length: {}\r\n\r\n{body}", body.len())
            .into_bytes()
    }

    #[test]
    fn pipelined_requests_without_answers_keep_the_newest_within_the_cap() {
        let limits = Limits { max_pending_per_session: 4, ..Limits::default() };
        let mut t = McpTracker::new(&limits, Checkpoints { request_waiting: vec![5, 60], stale_session: vec![30] });
        let mut h = HttpConnection::new(&limits);
        let conn = ConnId(1);
        t.open(conn, "10.0.0.1:40000".parse().unwrap(), "10.0.0.9:80".parse().unwrap(), false);
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
        let mut t = McpTracker::new(&limits, Checkpoints { request_waiting: vec![5, 60], stale_session: vec![30] });
        let mut h = HttpConnection::new(&limits);
        let conn = ConnId(1);
        t.open(conn, "10.0.0.1:40000".parse().unwrap(), "10.0.0.9:80".parse().unwrap(), false);
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
