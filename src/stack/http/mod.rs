//! HTTP/1.1: turns the two byte streams of a connection into request/response events, pairs them
//! (keep-alive and pipelining), decodes bodies (Content-Length, chunked, close-delimited) and parses
//! `text/event-stream` bodies into SSE events as they arrive.
//!
//! Owns: [`HttpConnection`] (one per TCP connection): a per-direction state machine (head, body, skip,
//! opaque), the carry buffer for an unfinished head, request/response pairing, the gap and end policy.
//! Its parts: `headers.rs` (header fields and heads as values), `event.rs` (the events, ends, anomalies
//! and counters handed up), `head.rs` (httparse wrapper, RFC 9112 §2-§5), `body.rs` (RFC 9112 §6.3 body length),
//! `chunked.rs` (RFC 9112 §7.1), `coding.rs` (Content-Encoding and transfer codings other than chunked,
//! RFC 9110 §8.4: decoded between framing and the SSE parser / body slices), `sse.rs` (WHATWG HTML §9.2.6).
//! Must not: decode JSON or know MCP; reject traffic an endpoint would accept; copy body bytes.
//! HTTP/2 lives in `h2/` and emits the same [`HttpEvent`]s; `switch.rs` decides which one a connection
//! speaks (preface, ALPN, `Upgrade: h2c`), so the analyzer holds a `switch::HttpConn` per connection.
//!
//! **Pairing** (RFC 9112 §9.3.2 pipelining: responses come in request order). Requests get increasing
//! [`TxId`]s; each final (non-1xx) response takes the oldest unanswered one; a 1xx response is reported
//! with that tx but does not consume it (RFC 9110 §15.2). After `101 Switching Protocols` or a 2xx to
//! CONNECT nothing more is parsed on the connection (the bytes are counted as opaque); a request body
//! still open at that moment ends `Interrupted`, so the one-end-per-message rule holds.
//!
//! **Events** per direction come in stream order. Every `Request`/`Response` is followed by exactly one
//! `RequestEnd`/`ResponseEnd` with the same tx (possibly in a later call), except that no event is
//! produced for a request still pending when the connection ends. Body slices, SSE events and comments
//! are emitted as soon as they are complete — an SSE event right after the packet with its blank line,
//! never held back until the response ends. Anomalies about a head (unpaired response, framing) come
//! right after its `Request`/`Response` event; `HeaderTooLarge`/`BadHead`/`Resync` where they happen.
//!
//! **Gap policy** (Zeek `HTTP_Analyzer::Undelivered`): a gap wholly inside body bytes of known count
//! (Content-Length, or the data of the current chunk) is skipped: a `RequestBodyGap` /
//! `ResponseBodyGap` says how many bytes are missing and the body goes on. Any other gap — in chunk
//! framing, in a close-delimited body, anywhere in an SSE stream — ends the current message with
//! [`MessageEnd::Gap`]; a gap in an unfinished head drops it (nothing was emitted for it yet). Either
//! way the direction then resynchronises.
//! A gap in the response direction between responses (or in an unfinished response head) took the head
//! of the oldest unanswered request's response with it: that request is paired with nothing
//! ([`HttpEvent::ResponseLost`]) and the next response head seen answers the request after it, as it
//! did on the wire (RFC 9112 §9.3.2: responses come in request order). Without this one lost response
//! would shift every later pairing on the connection by one. In the request direction such a gap took a
//! request's head: a stand-in transaction ([`HttpEvent::RequestLost`]) takes its place in the pairing,
//! so its response answers the stand-in rather than the request seen next. At most one per
//! resynchronisation episode: a gap may hold more than one whole message, but the capture cannot say how
//! many.
//! A gap inside a coded body (gzip, br, ...) is skipped by the framing all the same, but the decoder
//! cannot resynchronise past it: the body is reported [`HttpEvent::RequestUndecoded`] /
//! [`HttpEvent::ResponseUndecoded`] (reason `capture gap`) and nothing more of it is delivered.
//!
//! **Resynchronisation** (after a gap, a malformed head or body, or when a capture starts mid-connection):
//! bytes are discarded until a plausible message start — at a line start, an upper-case method token +
//! SP (requests) or `HTTP/1.` (responses); anywhere, a known method + SP + target or `HTTP/1.x NNN`
//! (a JSON body does not end with a line break, so the next message can begin mid-line). One
//! `Resync` anomaly per episode; skipped bytes are counted in [`HttpStats`].
//!
//! **Ends** (FIN, RST, idle, end of capture): a close-delimited body ended by FIN is complete
//! ([`MessageEnd::ClosedByFin`], RFC 9112 §6.3 rule 8); any other body (Content-Length, chunked —
//! including an SSE reply the Python client cuts before the last chunk) is [`MessageEnd::Interrupted`].
//! A half-received SSE event is dropped (WHATWG §9.2.6); a partial head is dropped and counted.

pub mod body;
pub mod chunked;
pub mod coding;
pub mod content;
mod event;
pub mod h2;
pub mod head;
mod headers;
pub mod switch;
pub mod sse;

use std::collections::VecDeque;

use memchr::memchr;

use crate::decode::flow_key::Direction;
use crate::limits::Limits;
use crate::reassembly::EndReason;
use crate::time::Timestamp;
use body::{BodyDecoder, BodyKind, BodyStatus, ReqMethod};
use coding::BodyCodings;
use content::{Content, ContentCfg, MsgTx, Sink};
pub use content::Switched;
use chunked::ChunkedDecoder;
use head::{HeadParse, Plausible, StartCheck};

pub use event::{AnomalyCounts, HttpAnomaly, HttpEvent, HttpStats, MessageEnd, SseEvent, TxId, lossy};
pub use headers::{Headers, Interned, RequestHead, ResponseHead, METHODS, REASONS, token};


fn bump(counter: &mut u64, n: usize) {
    *counter = counter.saturating_add(n as u64);
}

/// The caps this module uses, copied out of [`Limits`].
#[derive(Debug, Clone, Copy)]
struct Cfg {
    max_header_bytes: usize,
    content: ContentCfg,
}

/// Carry capacity kept between heads; a larger buffer (a big head) is released once used.
const CARRY_KEEP: usize = 4096;

#[derive(Debug)]
struct BodyRun {
    decoder: BodyDecoder,
    /// Decoders, SSE parser: what the unframed bytes go through (shared with HTTP/2).
    content: Content,
}

/// What one direction is doing.
#[derive(Debug)]
enum HalfState {
    /// Expecting a message head (collected in `Half::carry` if it spans packets). `check` is the
    /// plausibility test still due on its first bytes, `None` once passed.
    Head {
        check: Option<StartCheck>,
    },
    /// Discarding bytes until a plausible message start. `line_start`: the last byte seen was LF.
    Skip {
        line_start: bool,
    },
    Body(BodyRun),
    /// After a protocol switch or tunnel: nothing is parsed.
    Opaque,
    /// The direction ended.
    Ended,
}

#[derive(Debug)]
struct Half {
    state: HalfState,
    // ALLOC: an unfinished head carried to the next packet, bounded by limits::max_header_bytes (plus at
    // most head::PROBE_LEN bytes while deciding whether a message starts there).
    carry: Vec<u8>,
    /// The packet that last added to `carry`: where an unfinished head's bytes were.
    carry_at: (u64, Timestamp),
    /// A `Resync` anomaly was emitted and no head has parsed since (one anomaly per episode).
    resyncing: bool,
    /// Since this direction's last head, a gap already ended a message or took one (`ResponseLost`,
    /// `RequestLost`): the bytes until the next head belong to that message, so a further gap there
    /// takes no other.
    gap_accounted: bool,
    /// The target of this direction's last request, shared by the next one when it is the same.
    last_target: Interned,
}

impl Half {
    fn new() -> Self {
        Half {
            state: HalfState::Head { check: Some(StartCheck::Lenient) },
            carry: Vec::new(),
            carry_at: (0, Timestamp::ZERO),
            resyncing: false,
            gap_accounted: false,
            last_target: Interned::default(),
        }
    }

    fn release_carry(&mut self) {
        if self.carry.capacity() > CARRY_KEEP {
            self.carry = Vec::new();
        } else {
            self.carry.clear();
        }
    }
}

/// Request/response pairing. Pending requests are always the contiguous range `oldest..next_tx` (each
/// final response answers the oldest), so only the methods that change the response's framing (HEAD,
/// CONNECT) are stored.
#[derive(Debug)]
struct Pairing {
    next_tx: TxId,
    oldest: TxId,
    // ALLOC: pending HEAD/CONNECT requests, bounded by limits::max_pending_per_session.
    special: VecDeque<(TxId, ReqMethod)>,
    max_special: usize,
    /// A response went in a gap while no request was pending; claimed by the next lost request.
    lost_unclaimed: bool,
}

impl Pairing {
    /// Registers a request; `true` in the second place if its method could not be remembered.
    fn push(&mut self, method: ReqMethod) -> (TxId, bool) {
        let tx = self.next_tx;
        self.next_tx = self.next_tx.saturating_add(1);
        let mut overflow = false;
        if method != ReqMethod::Other {
            if self.special.len() < self.max_special {
                // ALLOC: one pending HEAD/CONNECT entry, bounded by limits::max_pending_per_session.
                self.special.push_back((tx, method));
            } else {
                overflow = true;
            }
        }
        (tx, overflow)
    }

    fn peek(&self) -> Option<TxId> {
        (self.oldest < self.next_tx).then_some(self.oldest)
    }

    fn pop(&mut self) -> Option<(TxId, ReqMethod)> {
        let tx = self.peek()?;
        self.oldest = self.oldest.saturating_add(1);
        while self.special.front().is_some_and(|&(t, _)| t < tx) {
            self.special.pop_front();
        }
        let method = match self.special.front() {
            Some(&(t, m)) if t == tx => {
                self.special.pop_front();
                m
            }
            _ => ReqMethod::Other,
        };
        Some((tx, method))
    }
}

/// HTTP/1.x analyzer of one TCP connection. `ToServer` bytes are requests, `ToClient` bytes responses.
#[derive(Debug)]
pub struct HttpConnection {
    cfg: Cfg,
    req: Half,
    resp: Half,
    pairing: Pairing,
    stats: HttpStats,
    /// Bytes the Content-Encoding decoders produced on this connection (`max_decoded_bytes_per_conn`).
    decoded: u64,
    /// See [`HttpConnection::take_switch`].
    switched: Option<(Switched, usize)>,
}

impl HttpConnection {
    pub fn new(limits: &Limits) -> Self {
        HttpConnection::starting_at(limits, 0)
    }

    /// A connection whose first request gets `first_tx`: the HTTP inside a CONNECT tunnel goes on with the
    /// transaction ids of the HTTP around it, so no id names two requests of one connection.
    pub fn starting_at(limits: &Limits, first_tx: TxId) -> Self {
        HttpConnection {
            cfg: Cfg {
                // No head is shorter than the bytes needed to recognise its start; a smaller cap would
                // make the cut point depend on how the head was split into packets.
                max_header_bytes: limits.max_header_bytes.max(head::PROBE_LEN),
                content: ContentCfg::new(limits),
            },
            req: Half::new(),
            resp: Half::new(),
            pairing: Pairing {
                next_tx: first_tx,
                oldest: first_tx,
                special: VecDeque::new(),
                max_special: limits.max_pending_per_session,
                lost_unclaimed: false,
            },
            stats: HttpStats::default(),
            decoded: 0,
            switched: None,
        }
    }

    pub fn stats(&self) -> &HttpStats {
        &self.stats
    }

    /// In-order bytes of one direction; `frame`/`ts` are the carrying packet's. Events borrow `bytes`.
    pub fn data<F: FnMut(HttpEvent<'_>)>(
        &mut self,
        dir: Direction,
        bytes: &[u8],
        frame: u64,
        ts: Timestamp,
        out: &mut F,
    ) {
        let (half, other) = match dir {
            Direction::ToServer => (&mut self.req, &mut self.resp),
            Direction::ToClient => (&mut self.resp, &mut self.req),
        };
        let mut sink = Sink { out, stats: &mut self.stats, frame, ts, decoded: &mut self.decoded, switched: None };
        let opaque_before = sink.stats.opaque_bytes;
        if feed_half(half, dir, &mut self.pairing, self.cfg, &mut sink, bytes) {
            stop_for_upgrade(other, &mut sink);
        }
        if let Some(to) = sink.switched {
            // The bytes after the head were counted opaque: they are the new protocol's first bytes.
            let tail = self.stats.opaque_bytes.saturating_sub(opaque_before);
            self.switched = Some((to, usize::try_from(tail).unwrap_or(0)));
        }
    }

    /// After `101 Switching Protocols` to `h2c` (RFC 7540 §3.2) or a 2xx to CONNECT (RFC 9110 §9.3.6):
    /// what the connection became and how many bytes at the end of the last `data` call were already
    /// the new protocol's. Taken once.
    pub fn take_switch(&mut self) -> Option<(Switched, usize)> {
        self.switched.take()
    }

    /// The transaction id the next request would get.
    pub fn next_tx(&self) -> TxId {
        self.pairing.next_tx
    }

    /// `len` bytes of one direction were never seen (see the module's gap policy).
    pub fn gap<F: FnMut(HttpEvent<'_>)>(&mut self, dir: Direction, len: u64, frame: u64, ts: Timestamp, out: &mut F) {
        let half = match dir {
            Direction::ToServer => &mut self.req,
            Direction::ToClient => &mut self.resp,
        };
        let mut sink = Sink { out, stats: &mut self.stats, frame, ts, decoded: &mut self.decoded, switched: None };
        sink.stats.gaps = sink.stats.gaps.saturating_add(1);
        sink.stats.gap_bytes = sink.stats.gap_bytes.saturating_add(len);
        if len == 0 {
            return;
        }
        let state = std::mem::replace(&mut half.state, HalfState::Ended);
        let lost_head = matches!(state, HalfState::Head { .. } | HalfState::Skip { .. });
        if lost_head && !half.gap_accounted {
            match dir {
                Direction::ToClient => match self.pairing.pop() {
                    Some((tx, _)) => sink.emit(HttpEvent::ResponseLost { tx, frame, ts }),
                    // A loss of both directions at once (a burst of dropped packets) may reach the
                    // response direction first: the lost response is that of a request the other
                    // direction's gap is about to report.
                    None => self.pairing.lost_unclaimed = true,
                },
                // A request whose head the gap took still gets its response: it answers this stand-in,
                // not the request seen next; unless that response went in a gap already.
                Direction::ToServer => {
                    if !std::mem::take(&mut self.pairing.lost_unclaimed) {
                        let (tx, _) = self.pairing.push(ReqMethod::Other);
                        sink.emit(HttpEvent::RequestLost { tx, frame, ts });
                    }
                }
            }
        }
        half.state = match state {
            HalfState::Head { .. } => {
                if !half.carry.is_empty() {
                    sink.stats.partial_heads_dropped = sink.stats.partial_heads_dropped.saturating_add(1);
                }
                half.release_carry();
                half.gap_accounted = true;
                // The bytes after a gap start anywhere; check them like a connection start.
                HalfState::Head { check: Some(StartCheck::Lenient) }
            }
            HalfState::Skip { .. } => {
                half.gap_accounted = true;
                HalfState::Skip { line_start: false }
            }
            HalfState::Body(mut run) => {
                if !run.content.is_sse() && run.decoder.skip_gap(len) {
                    sink.body_gap(run.content.tx(), len);
                    // A coded stream cannot resynchronise past lost bytes.
                    run.content.gap(&mut sink);
                    if run.decoder.is_done() {
                        sink.end(run.content.tx(), MessageEnd::Complete);
                        HalfState::Head { check: Some(StartCheck::Lenient) }
                    } else {
                        HalfState::Body(run)
                    }
                } else {
                    run.content.drop_partial(&mut sink);
                    run.content.gap(&mut sink);
                    sink.end(run.content.tx(), MessageEnd::Gap);
                    half.gap_accounted = true;
                    HalfState::Head { check: Some(StartCheck::Lenient) }
                }
            }
            s @ (HalfState::Opaque | HalfState::Ended) => s,
        };
    }

    /// No more bytes will come in `dir` (see the module's end policy).
    pub fn end<F: FnMut(HttpEvent<'_>)>(
        &mut self,
        dir: Direction,
        reason: EndReason,
        frame: u64,
        ts: Timestamp,
        out: &mut F,
    ) {
        let half = match dir {
            Direction::ToServer => &mut self.req,
            Direction::ToClient => &mut self.resp,
        };
        let mut sink = Sink { out, stats: &mut self.stats, frame, ts, decoded: &mut self.decoded, switched: None };
        // A response head whose every header line came, but not the empty line after them: Bun writes a
        // streamed Response's head in two parts, the second with the first body byte, and its idle timeout
        // closes a silent stream between them. The server did answer (status, content type and session
        // id are on the wire; a client holds no response), so the head is read as it stands (RFC 9112
        // §2.1: the empty line is the one thing missing) and its message ends interrupted.
        let unfinished = dir == Direction::ToClient
            && matches!(half.state, HalfState::Head { check: None })
            && half.carry.starts_with(b"HTTP/")
            && half.carry.ends_with(b"\r\n");
        if unfinished {
            // The head is where its bytes were, the end where the direction ended.
            (sink.frame, sink.ts) = half.carry_at;
            sink.anomaly(HttpAnomaly::UnfinishedHead);
            feed_half(half, dir, &mut self.pairing, self.cfg, &mut sink, b"\r\n");
            (sink.frame, sink.ts) = (frame, ts);
        }
        match std::mem::replace(&mut half.state, HalfState::Ended) {
            HalfState::Head { .. } => {
                if !half.carry.is_empty() {
                    sink.stats.partial_heads_dropped = sink.stats.partial_heads_dropped.saturating_add(1);
                }
            }
            HalfState::Body(mut run) => {
                // RFC 9112 §6.3 rule 8: a close-delimited body is complete when the server closes (FIN).
                // Anything else ending mid-body was cut short, and so is the body of an unfinished head.
                let end = if run.decoder.is_close_delimited() && reason == EndReason::Fin && !unfinished {
                    MessageEnd::ClosedByFin
                } else {
                    MessageEnd::Interrupted
                };
                run.content.finish(end == MessageEnd::ClosedByFin, &mut sink);
                sink.end(run.content.tx(), end);
            }
            HalfState::Skip { .. } | HalfState::Opaque | HalfState::Ended => {}
        }
        half.carry = Vec::new();
    }
}

/// The other direction after a protocol switch: close its open message, stop parsing it.
fn stop_for_upgrade<F: FnMut(HttpEvent<'_>)>(half: &mut Half, sink: &mut Sink<'_, F>) {
    match std::mem::replace(&mut half.state, HalfState::Opaque) {
        HalfState::Body(run) => {
            run.content.drop_partial(sink);
            sink.end(run.content.tx(), MessageEnd::Interrupted);
        }
        HalfState::Head { .. } => {
            if !half.carry.is_empty() {
                sink.stats.partial_heads_dropped = sink.stats.partial_heads_dropped.saturating_add(1);
            }
        }
        HalfState::Ended => half.state = HalfState::Ended,
        HalfState::Skip { .. } | HalfState::Opaque => {}
    }
    half.carry = Vec::new();
}

/// Runs one direction's state machine over `input`. Returns `true` if the connection switched protocols.
fn feed_half<F: FnMut(HttpEvent<'_>)>(
    half: &mut Half,
    dir: Direction,
    pairing: &mut Pairing,
    cfg: Cfg,
    sink: &mut Sink<'_, F>,
    input: &[u8],
) -> bool {
    let mut input = input;
    let mut upgraded = false;
    while !input.is_empty() {
        match &mut half.state {
            HalfState::Opaque | HalfState::Ended => {
                bump(&mut sink.stats.opaque_bytes, input.len());
                break;
            }
            HalfState::Skip { line_start } => {
                let line_start = *line_start;
                input = skip_bytes(half, dir, line_start, sink, input);
            }
            HalfState::Head { check } => {
                let check = *check;
                let (rest, up) = head_bytes(half, dir, check, pairing, cfg, sink, input);
                input = rest;
                upgraded |= up;
            }
            HalfState::Body(run) => {
                let (n, end) = body_bytes(run, cfg, sink, input);
                input = input.get(n..).unwrap_or_default();
                if let Some(end) = end {
                    let tx = run.content.tx();
                    sink.end(tx, end);
                    half.state = HalfState::Head { check: Some(StartCheck::Lenient) };
                }
            }
        }
    }
    upgraded
}

/// Starts (or continues) a resynchronisation episode.
fn start_resync<F: FnMut(HttpEvent<'_>)>(half: &mut Half, sink: &mut Sink<'_, F>) {
    half.state = HalfState::Skip { line_start: false };
    if !half.resyncing {
        half.resyncing = true;
        sink.anomaly(HttpAnomaly::Resync);
    }
}

/// Head state: check the first bytes are plausible, then collect up to the empty line, then parse once.
fn head_bytes<'i, F: FnMut(HttpEvent<'_>)>(
    half: &mut Half,
    dir: Direction,
    check: Option<StartCheck>,
    pairing: &mut Pairing,
    cfg: Cfg,
    sink: &mut Sink<'_, F>,
    input: &'i [u8],
) -> (&'i [u8], bool) {
    let mut input = input;
    if let Some(kind) = check {
        if half.carry.is_empty() && kind == StartCheck::Lenient {
            // RFC 9112 §2.2: "a server that is expecting to receive and parse a request-line SHOULD
            // ignore at least one empty line (CRLF) received prior to the request-line" — and clients
            // see stray CRLFs after bodies too.
            let n = input.iter().position(|&b| b != b'\r' && b != b'\n').unwrap_or(input.len());
            input = input.get(n..).unwrap_or_default();
            if input.is_empty() {
                return (input, false);
            }
        }
        let mut probe = [0u8; head::PROBE_LEN];
        let n = fill_probe(&mut probe, &half.carry, input);
        match head::plausible_start(dir, kind, probe.get(..n).unwrap_or_default()) {
            Plausible::Yes => half.state = HalfState::Head { check: None },
            Plausible::NeedMore => {
                // Fewer than PROBE_LEN bytes in all: keep them and decide with the next packet.
                // ALLOC: probe bytes of a possible head start, bounded by head::PROBE_LEN.
                half.carry.extend_from_slice(input);
                return (&[], false);
            }
            Plausible::No => {
                start_resync(half, sink);
                bump(&mut sink.stats.resync_skipped_bytes, 1);
                if half.carry.is_empty() {
                    return (input.get(1..).unwrap_or_default(), false);
                }
                // The carried bytes after the first may hold the real start: scan them before `input`.
                let old = std::mem::take(&mut half.carry);
                let up = feed_half(half, dir, pairing, cfg, sink, old.get(1..).unwrap_or_default());
                return (input, up);
            }
        }
    }
    let cap = cfg.max_header_bytes;
    let have = half.carry.len();
    let limit = cap.saturating_sub(have);
    match head::find_head_end(&half.carry, input, limit) {
        Some(e) => {
            let (part, rest) = input.split_at_checked(e).unwrap_or((input, &[]));
            let total = have.saturating_add(part.len());
            let parsed = if have == 0 {
                // Fast path: the whole head is in this packet; parse it in place.
                parse_head(dir, part, &mut half.last_target)
            } else {
                // ALLOC: the rest of a carried head, bounded by limits::max_header_bytes (`limit`).
                half.carry.extend_from_slice(part);
                let parsed = parse_head(dir, &half.carry, &mut half.last_target);
                half.release_carry();
                parsed
            };
            let up = on_head(half, parsed, total, pairing, cfg, sink);
            (rest, up)
        }
        None if have.saturating_add(input.len()) > cap => {
            // The head would pass the cap: drop exactly its first `cap` bytes and resync after them.
            sink.anomaly(HttpAnomaly::HeaderTooLarge);
            let take = limit.min(input.len());
            bump(&mut sink.stats.resync_skipped_bytes, have.saturating_add(take));
            half.release_carry();
            start_resync(half, sink);
            (input.get(take..).unwrap_or_default(), false)
        }
        None => {
            // ALLOC: an unfinished head, bounded by limits::max_header_bytes (checked just above).
            half.carry.extend_from_slice(input);
            half.carry_at = (sink.frame, sink.ts);
            (&[], false)
        }
    }
}

/// Copies up to `probe.len()` bytes of `carry ++ input` into `probe`; returns how many.
fn fill_probe(probe: &mut [u8], carry: &[u8], input: &[u8]) -> usize {
    let mut n = 0usize;
    for (slot, &b) in probe.iter_mut().zip(carry.iter().chain(input.iter())) {
        *slot = b;
        n = n.saturating_add(1);
    }
    n
}

enum Parsed {
    Request { head: RequestHead, len: usize, dropped: usize },
    Response { head: ResponseHead, len: usize, dropped: usize },
    Bad,
}

fn parse_head(dir: Direction, buf: &[u8], last_target: &mut Interned) -> Parsed {
    match dir {
        Direction::ToServer => match head::parse_request_after(buf, last_target) {
            HeadParse::Complete { head, len, dropped_headers } => {
                Parsed::Request { head, len, dropped: dropped_headers }
            }
            HeadParse::Partial | HeadParse::Invalid => Parsed::Bad,
        },
        Direction::ToClient => match head::parse_response(buf) {
            HeadParse::Complete { head, len, dropped_headers } => {
                Parsed::Response { head, len, dropped: dropped_headers }
            }
            HeadParse::Partial | HeadParse::Invalid => Parsed::Bad,
        },
    }
}

/// A head of `total` bytes was parsed (or failed to): emit it and set up its body.
fn on_head<F: FnMut(HttpEvent<'_>)>(
    half: &mut Half,
    parsed: Parsed,
    total: usize,
    pairing: &mut Pairing,
    cfg: Cfg,
    sink: &mut Sink<'_, F>,
) -> bool {
    match parsed {
        // httparse and `find_head_end` agree on where a valid head ends; anything else is malformed.
        Parsed::Request { head, len, dropped } if len == total => {
            on_request(half, head, dropped, pairing, cfg, sink);
            false
        }
        Parsed::Response { head, len, dropped } if len == total => on_response(half, head, dropped, pairing, cfg, sink),
        _ => {
            // Malformed head: drop it through its empty line and look for a message start after it.
            sink.anomaly(HttpAnomaly::BadHead);
            bump(&mut sink.stats.resync_skipped_bytes, total);
            half.state = HalfState::Head { check: Some(StartCheck::Lenient) };
            false
        }
    }
}

fn chunked_decoder(cfg: Cfg) -> BodyDecoder {
    BodyDecoder::Chunked(ChunkedDecoder::new(cfg.max_header_bytes, cfg.max_header_bytes))
}

fn on_request<F: FnMut(HttpEvent<'_>)>(
    half: &mut Half,
    head: RequestHead,
    dropped: usize,
    pairing: &mut Pairing,
    cfg: Cfg,
    sink: &mut Sink<'_, F>,
) {
    half.resyncing = false;
    half.gap_accounted = false;
    bump(&mut sink.stats.headers_dropped, dropped);
    sink.stats.requests = sink.stats.requests.saturating_add(1);
    let decision = body::request_body(&head.headers);
    let codings = match decision.kind {
        BodyKind::Length(n) if n > 0 => BodyCodings::from_headers(&head.headers),
        BodyKind::Chunked => BodyCodings::from_headers(&head.headers),
        _ => None,
    };
    pairing.lost_unclaimed = false;
    let (tx, overflow) = pairing.push(ReqMethod::of(&head.method));
    let (frame, ts) = (sink.frame, sink.ts);
    sink.emit(HttpEvent::Request { tx, head, frame, ts });
    if overflow {
        sink.anomaly(HttpAnomaly::TooManyPending);
    }
    for a in decision.anomalies.into_iter().flatten() {
        sink.anomaly(a);
    }
    let mtx = MsgTx::Req(tx);
    let content = Content::new(mtx, codings, sink);
    half.state = match decision.kind {
        BodyKind::Length(n) => HalfState::Body(BodyRun { decoder: BodyDecoder::Length { remaining: n }, content }),
        BodyKind::Chunked => HalfState::Body(BodyRun { decoder: chunked_decoder(cfg), content }),
        // (`Tunnel` is a response-only decision.)
        BodyKind::None | BodyKind::Tunnel => {
            sink.end(mtx, MessageEnd::Complete);
            HalfState::Head { check: Some(StartCheck::Lenient) }
        }
        // RFC 9112 §6.3 rules 4-5: the server answers 400 and closes; whatever follows is not a message
        // we can delimit. (`CloseDelimited` is a response-only decision.)
        BodyKind::Unreadable | BodyKind::CloseDelimited => {
            sink.end(mtx, MessageEnd::Malformed);
            HalfState::Head { check: Some(StartCheck::Lenient) }
        }
    };
}

/// Returns `true` if the connection switched protocols.
fn on_response<F: FnMut(HttpEvent<'_>)>(
    half: &mut Half,
    head: ResponseHead,
    dropped: usize,
    pairing: &mut Pairing,
    cfg: Cfg,
    sink: &mut Sink<'_, F>,
) -> bool {
    half.resyncing = false;
    half.gap_accounted = false;
    bump(&mut sink.stats.headers_dropped, dropped);
    let (frame, ts) = (sink.frame, sink.ts);
    let status = head.status;
    if (100..200).contains(&status) {
        // RFC 9110 §15.2: interim responses precede the final one for the same request.
        sink.stats.informational = sink.stats.informational.saturating_add(1);
        let tx = pairing.peek();
        let upgrade_h2c = head.headers.get("upgrade").is_some_and(|u| u.trim().eq_ignore_ascii_case("h2c"));
        sink.emit(HttpEvent::Response { tx, head, frame, ts });
        if tx.is_none() {
            sink.anomaly(HttpAnomaly::UnpairedResponse);
        }
        sink.end(MsgTx::Resp(tx), MessageEnd::Complete);
        if status == 101 {
            // RFC 9110 §15.2.2: the server switches to the protocol in Upgrade right after the empty line.
            sink.stats.upgrades = sink.stats.upgrades.saturating_add(1);
            if upgrade_h2c {
                sink.switched = Some(Switched::H2c(tx));
            }
            half.state = HalfState::Opaque;
            return true;
        }
        half.state = HalfState::Head { check: Some(StartCheck::Lenient) };
        return false;
    }
    sink.stats.responses = sink.stats.responses.saturating_add(1);
    let (tx, method) = match pairing.pop() {
        Some((tx, m)) => (Some(tx), Some(m)),
        None => (None, None),
    };
    let decision = body::response_body(status, method, &head.headers);
    let is_sse = body::is_event_stream(&head.headers);
    let codings = match decision.kind {
        BodyKind::Length(n) if n > 0 => BodyCodings::from_headers(&head.headers),
        BodyKind::Chunked | BodyKind::CloseDelimited | BodyKind::Unreadable => BodyCodings::from_headers(&head.headers),
        _ => None,
    };
    sink.emit(HttpEvent::Response { tx, head, frame, ts });
    if tx.is_none() {
        sink.anomaly(HttpAnomaly::UnpairedResponse);
    }
    for a in decision.anomalies.into_iter().flatten() {
        sink.anomaly(a);
    }
    let mtx = MsgTx::Resp(tx);
    let content = Content::new(mtx, codings, sink);
    let run = |decoder| {
        let content = if is_sse { content.event_stream(cfg.content) } else { content };
        HalfState::Body(BodyRun { decoder, content })
    };
    match decision.kind {
        BodyKind::None => {
            sink.end(mtx, MessageEnd::Complete);
            half.state = HalfState::Head { check: Some(StartCheck::Lenient) };
            false
        }
        BodyKind::Tunnel => {
            sink.end(mtx, MessageEnd::Complete);
            sink.stats.upgrades = sink.stats.upgrades.saturating_add(1);
            sink.switched = Some(Switched::Tunnel);
            half.state = HalfState::Opaque;
            true
        }
        BodyKind::Length(n) => {
            half.state = run(BodyDecoder::Length { remaining: n });
            false
        }
        BodyKind::Chunked => {
            half.state = run(chunked_decoder(cfg));
            false
        }
        BodyKind::CloseDelimited | BodyKind::Unreadable => {
            half.state = run(BodyDecoder::Eof);
            false
        }
    }
}

/// Body state: decode and deliver. Returns consumed bytes and how the message ended, if it did.
fn body_bytes<F: FnMut(HttpEvent<'_>)>(
    run: &mut BodyRun,
    cfg: Cfg,
    sink: &mut Sink<'_, F>,
    input: &[u8],
) -> (usize, Option<MessageEnd>) {
    let mut rest = input;
    loop {
        let (n, status) = run.decoder.decode(rest);
        rest = rest.get(n..).unwrap_or_default();
        let consumed = input.len().saturating_sub(rest.len());
        match status {
            BodyStatus::Data(d) => run.content.feed(cfg.content, d, sink),
            BodyStatus::Partial => return (consumed, None),
            BodyStatus::Complete => {
                run.content.finish(true, sink);
                return (consumed, Some(MessageEnd::Complete));
            }
            BodyStatus::Invalid => {
                sink.anomaly(HttpAnomaly::BadChunk);
                run.content.drop_partial(sink);
                return (consumed, Some(MessageEnd::Malformed));
            }
        }
    }
}

/// Skip state: discard bytes up to the next plausible message start. Returns the input from that start.
fn skip_bytes<'i, F: FnMut(HttpEvent<'_>)>(
    half: &mut Half,
    dir: Direction,
    line_start: bool,
    sink: &mut Sink<'_, F>,
    input: &'i [u8],
) -> &'i [u8] {
    let mut scan = Scanner { dir, buf: input, nl: None, trig: None };
    let mut from = 0usize;
    let mut first = line_start;
    loop {
        let cand = if std::mem::take(&mut first) { Some((0, StartCheck::Lenient)) } else { scan.next(from) };
        let Some((p, kind)) = cand else {
            bump(&mut sink.stats.resync_skipped_bytes, input.len());
            half.state = HalfState::Skip { line_start: false };
            return &[];
        };
        if p >= input.len() {
            // The input ends with a line end: the next packet starts at a line start.
            bump(&mut sink.stats.resync_skipped_bytes, input.len());
            half.state = HalfState::Skip { line_start: true };
            return &[];
        }
        let probe_end = p.saturating_add(head::PROBE_LEN).min(input.len());
        let probe = input.get(p..probe_end).unwrap_or_default();
        match head::plausible_start(dir, kind, probe) {
            Plausible::Yes => {
                bump(&mut sink.stats.resync_skipped_bytes, p);
                half.state = HalfState::Head { check: None };
                return input.get(p..).unwrap_or_default();
            }
            Plausible::NeedMore => {
                bump(&mut sink.stats.resync_skipped_bytes, p);
                half.state = HalfState::Head { check: Some(kind) };
                return input.get(p..).unwrap_or_default();
            }
            Plausible::No => from = p.saturating_add(1),
        }
    }
}

/// Finds resynchronisation candidates in one input slice, in order, scanning each byte at most once per
/// pattern (the next line start and the next strict trigger are cached).
struct Scanner<'i> {
    dir: Direction,
    buf: &'i [u8],
    /// Cached result of the last newline search (`Some(None)`: none left).
    nl: Option<Option<usize>>,
    /// Cached result of the last trigger search.
    trig: Option<Option<usize>>,
}

impl Scanner<'_> {
    /// The first candidate at or after `from`: a line start (lenient check) or a trigger byte (strict).
    fn next(&mut self, from: usize) -> Option<(usize, StartCheck)> {
        let line = match self.nl {
            Some(Some(i)) if i.saturating_add(1) >= from => Some(i.saturating_add(1)),
            Some(None) => None,
            _ => {
                // A newline at `from - 1` makes `from` itself a line start.
                let start = from.saturating_sub(1);
                let found = self.buf.get(start..).and_then(|b| memchr(b'\n', b)).map(|i| start.saturating_add(i));
                self.nl = Some(found);
                found.map(|i| i.saturating_add(1))
            }
        };
        let trig = match self.trig {
            Some(Some(t)) if t >= from => Some(t),
            Some(None) => None,
            _ => {
                let found = self
                    .buf
                    .get(from..)
                    .and_then(|b| head::next_strict_trigger(self.dir, b))
                    .map(|i| from.saturating_add(i));
                self.trig = Some(found);
                found
            }
        };
        match (line, trig) {
            // At a line start the lenient check is a superset of the strict one.
            (Some(l), Some(t)) if l <= t => Some((l, StartCheck::Lenient)),
            (_, Some(t)) => Some((t, StartCheck::Strict)),
            (Some(l), None) => Some((l, StartCheck::Lenient)),
            (None, None) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use coding::Undecoded;

    use Direction::{ToClient, ToServer};

    /// An owned, comparable form of [`HttpEvent`] without frame/ts.
    #[derive(Debug, Clone, PartialEq, Eq)]
    enum Ev {
        Req { tx: TxId, method: String, target: String },
        ReqBody { tx: TxId, bytes: Vec<u8> },
        ReqGap { tx: TxId, len: u64 },
        ReqEnd { tx: TxId, end: MessageEnd },
        Resp { tx: Option<TxId>, status: u16 },
        RespBody { tx: Option<TxId>, bytes: Vec<u8> },
        RespGap { tx: Option<TxId>, len: u64 },
        Sse { tx: Option<TxId>, event: SseEvent<'static> },
        Comment { tx: Option<TxId> },
        Blank { tx: Option<TxId> },
        RespEnd { tx: Option<TxId>, end: MessageEnd },
        Anomaly(HttpAnomaly),
        ReqUndecoded { tx: TxId, coding: String, reason: Undecoded },
        RespUndecoded { tx: Option<TxId>, coding: String, reason: Undecoded },
        RespLost { tx: TxId },
        ReqLost { tx: TxId },
    }

    /// `SseBody` lengths depend on how the input was split; the split-invariance tests compare the rest.
    fn own(ev: &HttpEvent<'_>) -> Option<(Ev, u64)> {
        Some(match ev {
            HttpEvent::Request { tx, head, frame, .. } => {
                (Ev::Req { tx: *tx, method: head.method.to_string(), target: head.target.to_string() }, *frame)
            }
            HttpEvent::RequestBody { tx, bytes, frame, .. } => (Ev::ReqBody { tx: *tx, bytes: bytes.to_vec() }, *frame),
            HttpEvent::RequestBodyGap { tx, len, frame, .. } => (Ev::ReqGap { tx: *tx, len: *len }, *frame),
            HttpEvent::RequestEnd { tx, end, frame, .. } => (Ev::ReqEnd { tx: *tx, end: *end }, *frame),
            HttpEvent::Response { tx, head, frame, .. } => (Ev::Resp { tx: *tx, status: head.status }, *frame),
            HttpEvent::ResponseBody { tx, bytes, frame, .. } => {
                (Ev::RespBody { tx: *tx, bytes: bytes.to_vec() }, *frame)
            }
            HttpEvent::ResponseBodyGap { tx, len, frame, .. } => (Ev::RespGap { tx: *tx, len: *len }, *frame),
            HttpEvent::Sse { tx, event, frame, .. } => (Ev::Sse { tx: *tx, event: event.clone().into_owned() }, *frame),
            HttpEvent::SseComment { tx, frame, .. } => (Ev::Comment { tx: *tx }, *frame),
            HttpEvent::SseBlank { tx, frame, .. } => (Ev::Blank { tx: *tx }, *frame),
            HttpEvent::ResponseEnd { tx, end, frame, .. } => (Ev::RespEnd { tx: *tx, end: *end }, *frame),
            HttpEvent::Anomaly { kind, frame, .. } => (Ev::Anomaly(*kind), *frame),
            HttpEvent::SseBody { .. } | HttpEvent::H2Stream { .. } => return None,
            HttpEvent::ResponseLost { tx, frame, .. } => (Ev::RespLost { tx: *tx }, *frame),
            HttpEvent::RequestLost { tx, frame, .. } => (Ev::ReqLost { tx: *tx }, *frame),
            HttpEvent::RequestUndecoded { tx, coding, reason, frame, .. } => {
                (Ev::ReqUndecoded { tx: *tx, coding: coding.clone(), reason: *reason }, *frame)
            }
            HttpEvent::ResponseUndecoded { tx, coding, reason, frame, .. } => {
                (Ev::RespUndecoded { tx: *tx, coding: coding.clone(), reason: *reason }, *frame)
            }
        })
    }

    /// Test driver: one connection, events recorded with the frame that produced them.
    struct Drive {
        conn: HttpConnection,
        events: Vec<(Ev, u64)>,
        frame: u64,
    }

    impl Drive {
        fn new() -> Self {
            Self::with(&Limits::default())
        }

        fn with(limits: &Limits) -> Self {
            Drive { conn: HttpConnection::new(limits), events: Vec::new(), frame: 0 }
        }

        /// Feeds one packet; returns the events it produced.
        fn data(&mut self, dir: Direction, bytes: &[u8]) -> Vec<Ev> {
            self.frame += 1;
            let frame = self.frame;
            let mut got = Vec::new();
            self.conn.data(dir, bytes, frame, Timestamp(frame as i64), &mut |ev| got.extend(own(&ev)));
            self.events.extend(got.iter().cloned());
            got.into_iter().map(|(e, _)| e).collect()
        }

        fn req(&mut self, bytes: &[u8]) -> Vec<Ev> {
            self.data(ToServer, bytes)
        }

        fn res(&mut self, bytes: &[u8]) -> Vec<Ev> {
            self.data(ToClient, bytes)
        }

        fn gap(&mut self, dir: Direction, len: u64) -> Vec<Ev> {
            self.frame += 1;
            let frame = self.frame;
            let mut got = Vec::new();
            self.conn.gap(dir, len, frame, Timestamp(frame as i64), &mut |ev| got.extend(own(&ev)));
            self.events.extend(got.iter().cloned());
            got.into_iter().map(|(e, _)| e).collect()
        }

        fn end(&mut self, dir: Direction, reason: EndReason) -> Vec<Ev> {
            self.frame += 1;
            let frame = self.frame;
            let mut got = Vec::new();
            self.conn.end(dir, reason, frame, Timestamp(frame as i64), &mut |ev| got.extend(own(&ev)));
            self.events.extend(got.iter().cloned());
            got.into_iter().map(|(e, _)| e).collect()
        }

        fn all(&self) -> Vec<Ev> {
            normalise(self.events.iter().map(|(e, _)| e.clone()).collect())
        }
    }

    /// Concatenates adjacent body slices of the same message (the split-independent form).
    fn normalise(events: Vec<Ev>) -> Vec<Ev> {
        let mut out: Vec<Ev> = Vec::new();
        for e in events {
            match (out.last_mut(), e) {
                (Some(Ev::ReqBody { tx: a, bytes }), Ev::ReqBody { tx: b, bytes: more }) if *a == b => {
                    bytes.extend(more)
                }
                (Some(Ev::RespBody { tx: a, bytes }), Ev::RespBody { tx: b, bytes: more }) if *a == b => {
                    bytes.extend(more)
                }
                (_, e) => out.push(e),
            }
        }
        out
    }

    fn req(tx: TxId, method: &str, target: &str) -> Ev {
        Ev::Req { tx, method: method.into(), target: target.into() }
    }

    fn rbody(tx: TxId, b: &[u8]) -> Ev {
        Ev::ReqBody { tx, bytes: b.to_vec() }
    }

    fn rend(tx: TxId) -> Ev {
        Ev::ReqEnd { tx, end: MessageEnd::Complete }
    }

    fn resp(tx: TxId, status: u16) -> Ev {
        Ev::Resp { tx: Some(tx), status }
    }

    fn body(tx: TxId, b: &[u8]) -> Ev {
        Ev::RespBody { tx: Some(tx), bytes: b.to_vec() }
    }

    fn end(tx: TxId, end: MessageEnd) -> Ev {
        Ev::RespEnd { tx: Some(tx), end }
    }

    fn sse(tx: TxId, data: &str) -> Ev {
        Ev::Sse { tx: Some(tx), event: SseEvent { data: data.as_bytes().to_vec().into(), has_data: true, ..Default::default() } }
    }

    const POST1: &[u8] = b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 14\r\n\r\n{\"id\":1,\"a\":1}";
    const JSON1: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{\"id\":1}\n";
    const POST2: &[u8] = b"POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}";
    const SSE_CHUNKED: &[u8] =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n\
21\r\nevent: message\r\ndata: {\"a\":1}\r\n\r\n\r\n0\r\n\r\n";

    #[test]
    fn conn_keep_alive_sequence() {
        let mut d = Drive::new();
        assert_eq!(d.req(POST1), vec![req(0, "POST", "/mcp"), rbody(0, b"{\"id\":1,\"a\":1}"), rend(0)]);
        assert_eq!(d.res(JSON1), vec![resp(0, 200), body(0, b"{\"id\":1}\n"), end(0, MessageEnd::Complete)]);
        assert_eq!(d.req(POST2), vec![req(1, "POST", "/mcp"), rbody(1, b"{}"), rend(1)]);
        assert_eq!(
            d.res(b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"),
            vec![resp(1, 202), end(1, MessageEnd::Complete)]
        );
        assert_eq!(d.conn.stats().requests, 2);
        assert_eq!(d.conn.stats().responses, 2);
        assert_eq!(d.conn.stats().anomalies.total(), 0);
    }

    #[test]
    fn conn_pipelined_requests_pair_in_order() {
        let mut d = Drive::new();
        let mut reqs = b"GET /a HTTP/1.1\r\n\r\n".to_vec();
        reqs.extend_from_slice(POST2);
        reqs.extend_from_slice(b"GET /c HTTP/1.1\r\n\r\n");
        let got = d.req(&reqs);
        assert_eq!(
            got,
            vec![
                req(0, "GET", "/a"),
                rend(0),
                req(1, "POST", "/mcp"),
                rbody(1, b"{}"),
                rend(1),
                req(2, "GET", "/c"),
                rend(2)
            ]
        );
        let resps = b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\naHTTP/1.1 201 OK\r\nContent-Length: 1\r\n\r\nbHTTP/1.1 404 NF\r\nContent-Length: 1\r\n\r\nc";
        let got = d.res(resps);
        assert_eq!(
            got,
            vec![
                resp(0, 200),
                body(0, b"a"),
                end(0, MessageEnd::Complete),
                resp(1, 201),
                body(1, b"b"),
                end(1, MessageEnd::Complete),
                resp(2, 404),
                body(2, b"c"),
                end(2, MessageEnd::Complete)
            ]
        );
    }

    #[test]
    fn conn_head_204_304_have_no_body() {
        let mut d = Drive::new();
        d.req(b"HEAD /x HTTP/1.1\r\n\r\nGET /y HTTP/1.1\r\n\r\nGET /z HTTP/1.1\r\n\r\nGET /w HTTP/1.1\r\n\r\n");
        let got = d.res(
            b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n\
HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n\
HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: chunked\r\n\r\n\
HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok",
        );
        assert_eq!(
            got,
            vec![
                resp(0, 200),
                end(0, MessageEnd::Complete),
                resp(1, 204),
                end(1, MessageEnd::Complete),
                resp(2, 304),
                end(2, MessageEnd::Complete),
                resp(3, 200),
                body(3, b"ok"),
                end(3, MessageEnd::Complete)
            ]
        );
    }

    #[test]
    fn conn_100_continue_keeps_the_tx() {
        let mut d = Drive::new();
        let got = d.req(b"POST /mcp HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n");
        assert_eq!(got, vec![req(0, "POST", "/mcp")]);
        assert_eq!(d.res(b"HTTP/1.1 100 Continue\r\n\r\n"), vec![resp(0, 100), end(0, MessageEnd::Complete)]);
        assert_eq!(d.req(b"data"), vec![rbody(0, b"data"), rend(0)]);
        assert_eq!(
            d.res(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"),
            vec![resp(0, 200), end(0, MessageEnd::Complete)]
        );
        assert_eq!(d.conn.stats().informational, 1);
        // Two interim responses before the final one, all on tx 0 of a new exchange.
        let got = d.res(b"HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n");
        assert_eq!(
            got,
            vec![
                Ev::Resp { tx: None, status: 103 },
                Ev::Anomaly(HttpAnomaly::UnpairedResponse),
                Ev::RespEnd { tx: None, end: MessageEnd::Complete }
            ]
        );
    }

    #[test]
    fn conn_101_switching_protocols_stops_parsing() {
        let mut d = Drive::new();
        d.req(b"GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n");
        let got = d.res(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n\x81\x05hello");
        assert_eq!(got, vec![resp(0, 101), end(0, MessageEnd::Complete)]);
        assert!(d.req(b"\x81\x85garbage GET / HTTP/1.1\r\n\r\n").is_empty());
        assert!(d.res(b"HTTP/1.1 200 OK\r\n\r\n").is_empty());
        assert!(d.end(ToClient, EndReason::Fin).is_empty());
        let s = d.conn.stats();
        assert_eq!(s.upgrades, 1);
        assert_eq!(s.opaque_bytes, 7 + 28 + 19);
        assert_eq!(s.anomalies.total(), 0);
    }

    #[test]
    fn conn_connect_tunnel_stops_parsing() {
        let mut d = Drive::new();
        d.req(b"CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
        let got = d.res(b"HTTP/1.1 200 Connection established\r\n\r\n\x16\x03\x01");
        assert_eq!(got, vec![resp(0, 200), end(0, MessageEnd::Complete)]);
        assert!(d.req(b"\x16\x03\x01\x02\x00").is_empty());
        assert_eq!(d.conn.stats().upgrades, 1);
    }

    #[test]
    fn conn_chunked_request_and_response_bodies() {
        let mut d = Drive::new();
        let got =
            d.req(b"POST /mcp HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\n{\"a\r\n4;x=y\r\n\":1}\r\n0\r\n\r\n");
        assert_eq!(normalise(got), vec![req(0, "POST", "/mcp"), rbody(0, b"{\"a\":1}"), rend(0)]);
        let got = d.res(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\nX-T: 1\r\n\r\n");
        assert_eq!(normalise(got), vec![resp(0, 200), body(0, b"ok"), end(0, MessageEnd::Complete)]);
    }

    #[test]
    fn conn_close_delimited_response_ends_by_fin() {
        let mut d = Drive::new();
        d.req(b"GET / HTTP/1.0\r\n\r\n");
        assert_eq!(d.res(b"HTTP/1.0 200 OK\r\n\r\nabc"), vec![resp(0, 200), body(0, b"abc")]);
        assert_eq!(
            d.res(b"HTTP/1.1 200 looks like a head but is body"),
            vec![body(0, b"HTTP/1.1 200 looks like a head but is body")]
        );
        assert_eq!(d.end(ToClient, EndReason::Fin), vec![end(0, MessageEnd::ClosedByFin)]);
        // After the end nothing more comes out.
        assert!(d.res(b"more").is_empty());
    }

    #[test]
    fn conn_close_delimited_response_cut_by_rst_is_interrupted() {
        let mut d = Drive::new();
        d.req(b"GET / HTTP/1.0\r\n\r\n");
        d.res(b"HTTP/1.0 200 OK\r\n\r\nabc");
        assert_eq!(d.end(ToClient, EndReason::Rst), vec![end(0, MessageEnd::Interrupted)]);
    }

    #[test]
    fn conn_length_body_cut_by_fin_is_interrupted() {
        let mut d = Drive::new();
        d.req(b"POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\n12345");
        assert_eq!(d.end(ToServer, EndReason::Fin), vec![Ev::ReqEnd { tx: 0, end: MessageEnd::Interrupted }]);
    }

    #[test]
    fn conn_sse_events_are_emitted_as_they_complete() {
        let mut d = Drive::new();
        d.req(b"POST /mcp HTTP/1.1\r\nAccept: text/event-stream\r\nContent-Length: 2\r\n\r\n{}");
        let head = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n";
        assert_eq!(d.res(head), vec![resp(0, 200)]);
        // An event without its blank line: nothing yet.
        assert_eq!(d.res(b"1b\r\nid: 1\ndata: {\"progress\":1}\n\r\n"), vec![]);
        // The blank line arrives in the next packet: the event comes out now, stamped with that packet.
        let got = d.res(b"1\r\n\n\r\n");
        let want = Ev::Sse {
            tx: Some(0),
            event: SseEvent {
                id: Some("1".into()),
                data: b"{\"progress\":1}".to_vec().into(),
                has_data: true,
                ..Default::default()
            },
        };
        assert_eq!(got, vec![want.clone()]);
        assert_eq!(d.events.last().unwrap(), &(want, d.frame));
        // A keep-alive comment and a second event in one chunk.
        let got = d.res(b"15\r\n: ping\n\ndata: final\n\n\r\n");
        assert_eq!(got, vec![Ev::Comment { tx: Some(0) }, sse(0, "final")]);
        // No ResponseEnd has been emitted so far; it comes with the last chunk.
        assert!(!d.events.iter().any(|(e, _)| matches!(e, Ev::RespEnd { .. })));
        assert_eq!(d.res(b"0\r\n\r\n"), vec![end(0, MessageEnd::Complete)]);
        assert_eq!(d.conn.stats().sse_events, 2);
        assert_eq!(d.conn.stats().sse_comments, 1);
    }

    #[test]
    fn conn_sse_cut_by_fin_before_last_chunk_python_client() {
        let mut d = Drive::new();
        d.req(b"POST /mcp HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}");
        let head = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n";
        d.res(head);
        assert_eq!(
            d.res(b"22\r\nevent: message\r\ndata: {\"id\":1}\r\n\r\n\r\n"),
            vec![Ev::Sse {
                tx: Some(0),
                event: SseEvent {
                    event: Some("message".into()),
                    data: b"{\"id\":1}".to_vec().into(),
                    has_data: true,
                    ..Default::default()
                }
            }]
        );
        // A second event half-sent, then the stream is cut: the half event is dropped.
        d.res(b"9\r\ndata: par");
        // The client closes (its FIN), then the server's direction ends too.
        assert!(d.end(ToServer, EndReason::Fin).is_empty());
        assert_eq!(d.end(ToClient, EndReason::Fin), vec![end(0, MessageEnd::Interrupted)]);
        assert_eq!(d.conn.stats().sse_partial_dropped, 1);
    }

    #[test]
    fn conn_sse_close_delimited_and_length_framed() {
        let mut d = Drive::new();
        d.req(b"GET /mcp HTTP/1.1\r\nAccept: text/event-stream\r\n\r\n");
        d.res(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\nevent: endpoint\ndata: /messages?sessionId=1\n\n");
        assert_eq!(d.end(ToClient, EndReason::Fin), vec![end(0, MessageEnd::ClosedByFin)]);
        let mut d = Drive::new();
        d.req(b"GET / HTTP/1.1\r\n\r\n");
        let got =
            d.res(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 10\r\n\r\ndata: x\n\n\n");
        assert_eq!(got, vec![resp(0, 200), sse(0, "x"), Ev::Blank { tx: Some(0) }, end(0, MessageEnd::Complete)]);
    }

    #[test]
    fn conn_gap_inside_content_length_body_continues() {
        let mut d = Drive::new();
        d.req(b"GET / HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\n");
        assert_eq!(d.res(b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n012"), vec![resp(0, 200), body(0, b"012")]);
        assert_eq!(d.gap(ToClient, 4), vec![Ev::RespGap { tx: Some(0), len: 4 }]);
        assert_eq!(
            d.res(b"789HTTP/1.1 204 No\r\n\r\n"),
            vec![body(0, b"789"), end(0, MessageEnd::Complete), resp(1, 204), end(1, MessageEnd::Complete)]
        );
        assert_eq!(d.conn.stats().body_gap_bytes, 4);
    }

    #[test]
    fn conn_gap_at_end_of_length_body_completes_it() {
        let mut d = Drive::new();
        let got = d.req(b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab");
        assert_eq!(got.len(), 2);
        assert_eq!(d.gap(ToServer, 3), vec![Ev::ReqGap { tx: 0, len: 3 }, rend(0)]);
        assert_eq!(d.req(b"GET /n HTTP/1.1\r\n\r\n"), vec![req(1, "GET", "/n"), rend(1)]);
    }

    #[test]
    fn conn_gap_past_end_of_length_body_ends_with_gap() {
        let mut d = Drive::new();
        d.req(b"POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab");
        assert_eq!(d.gap(ToServer, 30), vec![Ev::ReqEnd { tx: 0, end: MessageEnd::Gap }]);
        // Resumes mid-message: skipped until the next request line.
        let got = d.req(b"st: x\r\n\r\nGET /n HTTP/1.1\r\n\r\n");
        assert_eq!(got, vec![Ev::Anomaly(HttpAnomaly::Resync), req(1, "GET", "/n"), rend(1)]);
        assert_eq!(d.conn.stats().resync_skipped_bytes, 9);
    }

    #[test]
    fn conn_gap_inside_chunk_data_is_skipped() {
        let mut d = Drive::new();
        d.req(b"GET / HTTP/1.1\r\n\r\n");
        d.res(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\n01");
        assert_eq!(d.gap(ToClient, 5), vec![Ev::RespGap { tx: Some(0), len: 5 }]);
        assert_eq!(d.res(b"789\r\n0\r\n\r\n"), vec![body(0, b"789"), end(0, MessageEnd::Complete)]);
    }

    #[test]
    fn conn_gap_in_chunk_framing_ends_and_resyncs_on_next_response() {
        let mut d = Drive::new();
        d.req(b"GET / HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\n");
        d.res(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
        assert_eq!(d.gap(ToClient, 10), vec![end(0, MessageEnd::Gap)]);
        let got = d.res(b"ef\r\n0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nz");
        assert_eq!(
            got,
            vec![Ev::Anomaly(HttpAnomaly::Resync), resp(1, 200), body(1, b"z"), end(1, MessageEnd::Complete)]
        );
    }

    #[test]
    fn conn_gap_in_sse_body_ends_with_gap() {
        let mut d = Drive::new();
        d.req(b"GET / HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\n");
        d.res(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n100\r\ndata: a\n\ndata: b");
        // Inside chunk data of known size, but SSE: still the end of the message.
        assert_eq!(d.gap(ToClient, 10), vec![end(0, MessageEnd::Gap)]);
        assert_eq!(d.conn.stats().sse_partial_dropped, 1);
        let got = d.res(b"data: x\n\n\r\n0\r\n\r\nHTTP/1.1 204 No Content\r\n\r\n");
        assert_eq!(got, vec![Ev::Anomaly(HttpAnomaly::Resync), resp(1, 204), end(1, MessageEnd::Complete)]);
    }

    #[test]
    fn conn_gap_in_head_drops_it_and_a_stand_in_takes_its_response() {
        let mut d = Drive::new();
        assert!(d.req(b"POST /mcp HTTP/1.1\r\nHost: a").is_empty());
        assert_eq!(d.gap(ToServer, 100), vec![Ev::ReqLost { tx: 0 }]);
        assert_eq!(d.conn.stats().partial_heads_dropped, 1);
        assert_eq!(d.req(b"GET / HTTP/1.1\r\n\r\n"), vec![req(1, "GET", "/"), rend(1)]);
        // The lost POST's response answers the stand-in, the next one the GET.
        let got = d.res(b"HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        assert_eq!(got, vec![resp(0, 202), end(0, MessageEnd::Complete), resp(1, 200), end(1, MessageEnd::Complete)]);
    }

    #[test]
    fn conn_gap_between_responses_takes_the_oldest_requests_answer() {
        let mut d = Drive::new();
        d.req(b"POST /a HTTP/1.1\r\nContent-Length: 0\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
        // The response to /a went in the gap whole: the next response seen answers /b, not /a.
        assert_eq!(d.gap(ToClient, 40), vec![Ev::RespLost { tx: 0 }]);
        // The gap ended inside /a's response: the resynchronisation skips its tail; a second gap in that
        // tail takes no other response.
        assert_eq!(d.res(b"tail of a"), vec![Ev::Anomaly(HttpAnomaly::Resync)]);
        assert!(d.gap(ToClient, 7).is_empty());
        let got = d.res(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        assert_eq!(got, vec![resp(1, 200), end(1, MessageEnd::Complete)]);
    }

    #[test]
    fn conn_burst_losing_both_directions_keeps_the_pairing() {
        // A request and its response both lost, the response direction's gap reported first (the ACK
        // that reveals it comes before the request direction's): nothing stands in for either.
        let mut d = Drive::new();
        d.req(b"POST /a HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
        d.res(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        assert!(d.gap(ToClient, 40).is_empty());
        assert!(d.gap(ToServer, 40).is_empty());
        assert_eq!(d.req(b"POST /c HTTP/1.1\r\nContent-Length: 0\r\n\r\n"), vec![req(1, "POST", "/c"), rend(1)]);
        let got = d.res(b"HTTP/1.1 204 No Content\r\n\r\n");
        assert_eq!(got, vec![resp(1, 204), end(1, MessageEnd::Complete)]);
    }

    #[test]
    fn conn_midstream_start_inside_a_body_skips_to_next_message() {
        let mut d = Drive::new();
        // Request direction: the tail of a JSON body, then the next request glued to it (no line break).
        let got = d.req(b"\"params\":{}}POST /mcp HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}");
        assert_eq!(got, vec![Ev::Anomaly(HttpAnomaly::Resync), req(0, "POST", "/mcp"), rbody(0, b"{}"), rend(0)]);
        // Response direction: the tail of an SSE stream inside chunks, then a response we cannot pair
        // with the one request we saw... which it does answer.
        let got = d.res(b"a: x\n\n\r\n0\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
        assert_eq!(
            got,
            vec![Ev::Anomaly(HttpAnomaly::Resync), resp(0, 200), body(0, b"{}"), end(0, MessageEnd::Complete)]
        );
        assert_eq!(d.conn.stats().anomalies.get(HttpAnomaly::Resync), 2);
        // The second response has no request: unpaired.
        let got = d.res(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        assert_eq!(
            got,
            vec![
                Ev::Resp { tx: None, status: 200 },
                Ev::Anomaly(HttpAnomaly::UnpairedResponse),
                Ev::RespEnd { tx: None, end: MessageEnd::Complete }
            ]
        );
    }

    #[test]
    fn conn_midstream_json_keep_alive_responses_resync_mid_line() {
        let mut d = Drive::new();
        let got = d.res(b"\"result\":{}}HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}");
        assert_eq!(
            got,
            vec![
                Ev::Anomaly(HttpAnomaly::Resync),
                Ev::Resp { tx: None, status: 200 },
                Ev::Anomaly(HttpAnomaly::UnpairedResponse),
                Ev::RespBody { tx: None, bytes: b"{}".to_vec() },
                Ev::RespEnd { tx: None, end: MessageEnd::Complete }
            ]
        );
    }

    #[test]
    fn conn_header_too_large_resyncs() {
        let limits = Limits { max_header_bytes: 64, ..Limits::default() };
        let mut d = Drive::with(&limits);
        let mut big = b"GET / HTTP/1.1\r\n".to_vec();
        for _ in 0..10 {
            big.extend_from_slice(b"X-Padding: 0123456789\r\n");
        }
        big.extend_from_slice(b"\r\nGET /ok HTTP/1.1\r\n\r\n");
        let got = d.req(&big);
        assert_eq!(
            got,
            vec![
                Ev::Anomaly(HttpAnomaly::HeaderTooLarge),
                Ev::Anomaly(HttpAnomaly::Resync),
                req(0, "GET", "/ok"),
                rend(0)
            ]
        );
        // Same outcome however it is split.
        for i in 0..big.len() {
            let mut d = Drive::with(&limits);
            d.req(&big[..i]);
            d.req(&big[i..]);
            assert_eq!(d.all(), got, "split {i}");
        }
    }

    #[test]
    fn conn_tiny_header_cap_is_split_invariant() {
        let limits = Limits { max_header_bytes: 3, ..Limits::default() };
        let r = b"GET /a-long-target HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n".to_vec();
        let whole = run_split_with(&limits, &r, b"", &[], &[]);
        // The cap is floored at head::PROBE_LEN (24): the 31-byte head is too large, the 18-byte one is not.
        assert_eq!(whole.1.anomalies.get(HttpAnomaly::HeaderTooLarge), 1);
        assert!(whole.0.contains(&req(0, "GET", "/")));
        let cuts: Vec<usize> = (1..r.len()).collect();
        assert_eq!(run_split_with(&limits, &r, b"", &cuts, &[]), whole);
        for i in 0..=r.len() {
            assert_eq!(run_split_with(&limits, &r, b"", &[i], &[]), whole, "split {i}");
        }
    }

    #[test]
    fn conn_bad_head_is_dropped_and_next_one_parsed() {
        let mut d = Drive::new();
        let got = d.res(b"HTTP/1.1 2x0 OK\r\nA: b\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        assert_eq!(got[0], Ev::Anomaly(HttpAnomaly::BadHead));
        assert_eq!(got[1], Ev::Resp { tx: None, status: 200 });
        assert_eq!(d.conn.stats().resync_skipped_bytes, 25);
    }

    #[test]
    fn conn_bad_chunk_ends_malformed_and_resyncs() {
        let mut d = Drive::new();
        d.req(b"GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n");
        // The server forgot the last chunk: the next status line is read where a size should be.
        let got =
            d.res(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\nHTTP/1.1 204 No Content\r\n\r\n");
        assert_eq!(
            got,
            vec![
                resp(0, 200),
                body(0, b"ok"),
                Ev::Anomaly(HttpAnomaly::BadChunk),
                end(0, MessageEnd::Malformed),
                resp(1, 204),
                end(1, MessageEnd::Complete)
            ]
        );
    }

    #[test]
    fn conn_request_framing_anomalies() {
        let mut d = Drive::new();
        let got = d.req(b"POST / HTTP/1.1\r\nContent-Length: 3, 4\r\n\r\nabcGET / HTTP/1.1\r\n\r\n");
        assert_eq!(
            got,
            vec![
                req(0, "POST", "/"),
                Ev::Anomaly(HttpAnomaly::BadContentLength),
                Ev::ReqEnd { tx: 0, end: MessageEnd::Malformed },
                Ev::Anomaly(HttpAnomaly::Resync),
                req(1, "GET", "/"),
                rend(1)
            ]
        );
        let got = d.req(b"POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n");
        assert_eq!(
            got,
            vec![req(2, "POST", "/"), Ev::Anomaly(HttpAnomaly::ContentLengthWithTransferEncoding), rend(2)]
        );
    }

    #[test]
    fn conn_end_mid_head_drops_partial_head() {
        let mut d = Drive::new();
        assert!(d.res(b"HTTP/1.1 200 OK\r\nContent-").is_empty());
        assert!(d.end(ToClient, EndReason::EndOfCapture).is_empty());
        assert_eq!(d.conn.stats().partial_heads_dropped, 1);
    }

    #[test]
    fn conn_end_after_every_header_line_reads_the_head_where_it_came() {
        // Bun: a streamed Response's status line and own headers go out first, the framing header and the
        // empty line with the first body byte; its idle timeout closes a silent stream in between
        // (samples/ecosystem/runtimes-bun-idle-cut.pcap, frame 45).
        for reason in [EndReason::Fin, EndReason::Rst] {
            let mut d = Drive::new();
            d.req(b"POST /mcp HTTP/1.1\r\nContent-Length: 0\r\n\r\n");
            assert!(d.res(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nmcp-session-id: a\r\n").is_empty());
            let head_frame = d.frame;
            let got = d.end(ToClient, reason);
            assert_eq!(got, vec![Ev::Anomaly(HttpAnomaly::UnfinishedHead), resp(0, 200), end(0, MessageEnd::Interrupted)], "{reason:?}");
            let frames: Vec<u64> = d.events.iter().rev().take(2).map(|(_, f)| *f).collect();
            assert_eq!(frames, [head_frame + 1, head_frame], "the end at the FIN, the head where its bytes were");
            assert_eq!(d.conn.stats().partial_heads_dropped, 0);
        }
        // A line cut in the middle, or bytes that are no status line, stay a dropped partial head.
        for partial in [&b"HTTP/1.1 200 OK\r\nContent-Type: text/ev"[..], b"HTTP/1.1 200 OK\r\n\r"] {
            let mut d = Drive::new();
            d.req(b"GET / HTTP/1.1\r\n\r\n");
            d.res(partial);
            assert!(d.end(ToClient, EndReason::Fin).is_empty(), "{partial:?}");
            assert_eq!(d.conn.stats().partial_heads_dropped, 1);
        }
        // The client's direction keeps its rule: an unfinished request head is dropped.
        let mut d = Drive::new();
        d.req(b"GET / HTTP/1.1\r\nHost: a\r\n");
        assert!(d.end(ToServer, EndReason::Fin).is_empty());
    }

    #[test]
    fn conn_leading_blank_lines_are_ignored() {
        let mut d = Drive::new();
        assert_eq!(d.req(b"\r\n\r\nGET / HTTP/1.1\r\n\r\n\r\n"), vec![req(0, "GET", "/"), rend(0)]);
        assert_eq!(d.req(b"GET /2 HTTP/1.1\r\n\r\n"), vec![req(1, "GET", "/2"), rend(1)]);
        assert_eq!(d.conn.stats().anomalies.total(), 0);
    }

    #[test]
    fn conn_head_pending_method_cap() {
        let limits = Limits { max_pending_per_session: 1, ..Limits::default() };
        let mut d = Drive::with(&limits);
        let got = d.req(b"HEAD / HTTP/1.1\r\n\r\nHEAD / HTTP/1.1\r\n\r\n");
        assert_eq!(
            got,
            vec![req(0, "HEAD", "/"), rend(0), req(1, "HEAD", "/"), Ev::Anomaly(HttpAnomaly::TooManyPending), rend(1)]
        );
    }

    #[test]
    fn conn_sse_event_cap() {
        let limits = Limits { max_sse_event_bytes: 4, ..Limits::default() };
        let mut d = Drive::with(&limits);
        d.req(b"GET / HTTP/1.1\r\n\r\n");
        let got = d.res(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: 123456\n\n");
        assert_eq!(got[1], Ev::Anomaly(HttpAnomaly::SseEventTooLarge));
        match &got[2] {
            Ev::Sse { event, .. } => assert!(event.truncated && *event.data == *b"1234"),
            other => panic!("{other:?}"),
        }
    }

    /// gzip with a sync flush after each event, as nginx sends a flushed `text/event-stream`: one
    /// compressed piece per event, each in its own chunk.
    fn gzip_sse_pieces(events: &[&str]) -> Vec<Vec<u8>> {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        let mut pieces = Vec::new();
        let mut sent = 0;
        for ev in events {
            e.write_all(ev.as_bytes()).unwrap();
            e.flush().unwrap();
            let all = e.get_ref();
            pieces.push(all[sent..].to_vec());
            sent = all.len();
        }
        let all = e.finish().unwrap();
        pieces.push(all[sent..].to_vec());
        pieces
    }

    fn chunk(b: &[u8]) -> Vec<u8> {
        [format!("{:x}\r\n", b.len()).into_bytes(), b.to_vec(), b"\r\n".to_vec()].concat()
    }

    const GZ_SSE_HEAD: &[u8] =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n";

    #[test]
    fn coded_sse_events_come_out_at_the_packet_that_completes_them() {
        let events = ["id: 1\ndata: {\"a\":1}\n\n", ": keep\n", "id: 2\ndata: {\"a\":2}\n\n"];
        let pieces = gzip_sse_pieces(&events);
        let mut d = Drive::new();
        d.req(b"POST /mcp HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}");
        assert_eq!(d.res(GZ_SSE_HEAD), vec![resp(0, 200)]);
        let got1 = d.res(&chunk(&pieces[0]));
        assert!(matches!(&got1[..], [Ev::Sse { event, .. }] if event.id.as_deref() == Some("1")), "{got1:?}");
        assert_eq!(d.res(&chunk(&pieces[1])), vec![Ev::Comment { tx: Some(0) }]);
        let got3 = d.res(&chunk(&pieces[2]));
        assert!(matches!(&got3[..], [Ev::Sse { event, .. }] if event.id.as_deref() == Some("2")), "{got3:?}");
        let tail = [chunk(&pieces[3]), b"0\r\n\r\n".to_vec()].concat();
        assert_eq!(d.res(&tail), vec![end(0, MessageEnd::Complete)]);
    }

    #[test]
    fn coded_bodies_give_the_plain_events_split_at_every_offset() {
        use std::io::Write;
        let body = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(body).unwrap();
        let gz = e.finish().unwrap();
        let r = [POST2, POST2].concat();
        let mut s = format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n", gz.len()).into_bytes();
        s.extend_from_slice(&gz);
        s.extend_from_slice(GZ_SSE_HEAD);
        for p in gzip_sse_pieces(&["event: message\ndata: {\"a\":1}\n\n"]) {
            s.extend_from_slice(&chunk(&p));
        }
        s.extend_from_slice(b"0\r\n\r\n");
        let whole = run_split(&r, &s, &[], &[]);
        assert!(whole.0.contains(&body_ev(0, body)), "{:?}", whole.0);
        assert!(whole.0.iter().any(|e| matches!(e, Ev::Sse { tx: Some(1), event } if *event.data == *b"{\"a\":1}")), "{:?}", whole.0);
        assert!(!whole.0.iter().any(|e| matches!(e, Ev::RespUndecoded { .. })));
        for i in 0..=s.len() {
            assert_eq!(run_split(&r, &s, &[], &[i]), whole, "response split at {i}");
        }
    }

    fn body_ev(tx: TxId, b: &[u8]) -> Ev {
        Ev::RespBody { tx: Some(tx), bytes: b.to_vec() }
    }

    #[test]
    fn coded_body_unknown_corrupt_and_gap_are_reported_once_and_deliver_nothing_more() {
        let mut d = Drive::new();
        d.req(b"GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n");
        let got = d.res(b"HTTP/1.1 200 OK\r\nContent-Encoding: compress\r\nContent-Length: 3\r\n\r\nabc");
        assert_eq!(
            got,
            vec![
                resp(0, 200),
                Ev::RespUndecoded { tx: Some(0), coding: "compress".into(), reason: Undecoded::UnknownCoding },
                end(0, MessageEnd::Complete)
            ]
        );
        let got = d.res(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 11\r\n\r\nhello world");
        assert_eq!(got[1], Ev::RespUndecoded { tx: Some(1), coding: "gzip".into(), reason: Undecoded::Corrupt });
        assert_eq!(got.len(), 3);
        // A gap inside a Content-Length body: the framing goes on, the decoder cannot.
        d.res(b"HTTP/1.1 200 OK\r\nContent-Encoding: br\r\nContent-Length: 10\r\n\r\n");
        let got = d.gap(ToClient, 4);
        assert_eq!(got, vec![Ev::RespGap { tx: Some(2), len: 4 }, Ev::RespUndecoded { tx: Some(2), coding: "br".into(), reason: Undecoded::Gap }]);
        assert_eq!(d.res(b"123456"), vec![end(2, MessageEnd::Complete)]);
    }

    #[test]
    fn coded_body_bomb_stops_at_the_body_cap() {
        use std::io::Write;
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        e.write_all(&vec![0u8; 8 << 20]).unwrap();
        let gz = e.finish().unwrap();
        let limits = Limits { max_decoded_bytes_per_body: 1 << 20, ..Limits::default() };
        let mut d = Drive::with(&limits);
        d.req(b"GET / HTTP/1.1\r\n\r\n");
        let mut s = format!("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {}\r\n\r\n", gz.len()).into_bytes();
        s.extend_from_slice(&gz);
        let mut got = Vec::new();
        for p in s.chunks(1448) {
            got.extend(d.res(p));
        }
        let delivered: usize = got.iter().map(|e| if let Ev::RespBody { bytes, .. } = e { bytes.len() } else { 0 }).sum();
        assert!(delivered <= 1 << 20, "{delivered}");
        assert!(got.contains(&Ev::RespUndecoded { tx: Some(0), coding: "gzip".into(), reason: Undecoded::BodyCap }));
        assert_eq!(got.last(), Some(&end(0, MessageEnd::Complete)));
    }

    /// A full exchange: keep-alive JSON, pipelining, 100-continue, chunked SSE with priming, comments,
    /// CR line ends, and a close-delimited tail.
    fn exchange() -> (Vec<u8>, Vec<u8>) {
        let mut r = Vec::new();
        r.extend_from_slice(POST1);
        r.extend_from_slice(
            b"POST /mcp HTTP/1.1\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
        );
        r.extend_from_slice(b"HEAD /h HTTP/1.1\r\n\r\n");
        r.extend_from_slice(b"GET /mcp HTTP/1.1\r\nAccept: text/event-stream\r\n\r\n");
        r.extend_from_slice(b"GET /last HTTP/1.0\r\n\r\n");
        let mut s = Vec::new();
        s.extend_from_slice(JSON1);
        s.extend_from_slice(b"HTTP/1.1 100 Continue\r\n\r\n");
        s.extend_from_slice(b"HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc");
        s.extend_from_slice(b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n");
        s.extend_from_slice(SSE_CHUNKED.strip_suffix(b"0\r\n\r\n").unwrap());
        s.extend_from_slice(b"1f\r\nid: 7\r\ndata: \r\r: keep-alive\r\n\r\n\r\n0\r\n\r\n");
        s.extend_from_slice(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil close");
        (r, s)
    }

    fn run_split(r: &[u8], s: &[u8], r_cuts: &[usize], s_cuts: &[usize]) -> (Vec<Ev>, HttpStats) {
        run_split_with(&Limits::default(), r, s, r_cuts, s_cuts)
    }

    /// Feeds all requests (cut at `r_cuts`), then all responses (cut at `s_cuts`), then ends both.
    fn run_split_with(limits: &Limits, r: &[u8], s: &[u8], r_cuts: &[usize], s_cuts: &[usize]) -> (Vec<Ev>, HttpStats) {
        let mut d = Drive::with(limits);
        let mut prev = 0;
        for &c in r_cuts.iter().chain(std::iter::once(&r.len())) {
            d.req(&r[prev..c]);
            prev = c;
        }
        let mut prev = 0;
        for &c in s_cuts.iter().chain(std::iter::once(&s.len())) {
            d.res(&s[prev..c]);
            prev = c;
        }
        d.end(ToServer, EndReason::Fin);
        d.end(ToClient, EndReason::Fin);
        (d.all(), d.conn.stats().clone())
    }

    #[test]
    fn conn_full_exchange_events() {
        let (r, s) = exchange();
        let (events, stats) = run_split(&r, &s, &[], &[]);
        let expect = vec![
            req(0, "POST", "/mcp"),
            rbody(0, b"{\"id\":1,\"a\":1}"),
            rend(0),
            req(1, "POST", "/mcp"),
            rbody(1, b"hello"),
            rend(1),
            req(2, "HEAD", "/h"),
            rend(2),
            req(3, "GET", "/mcp"),
            rend(3),
            req(4, "GET", "/last"),
            rend(4),
            resp(0, 200),
            body(0, b"{\"id\":1}\n"),
            end(0, MessageEnd::Complete),
            resp(1, 100),
            end(1, MessageEnd::Complete),
            resp(1, 200),
            body(1, b"abc"),
            end(1, MessageEnd::Complete),
            resp(2, 200),
            end(2, MessageEnd::Complete),
            resp(3, 200),
            Ev::Sse {
                tx: Some(3),
                event: SseEvent {
                    event: Some("message".into()),
                    data: b"{\"a\":1}".to_vec().into(),
                    has_data: true,
                    ..Default::default()
                },
            },
            Ev::Sse { tx: Some(3), event: SseEvent { id: Some("7".into()), has_data: true, ..Default::default() } },
            Ev::Comment { tx: Some(3) },
            end(3, MessageEnd::Complete),
            resp(4, 200),
            body(4, b"until close"),
            end(4, MessageEnd::ClosedByFin),
        ];
        assert_eq!(events, expect);
        assert_eq!(stats.anomalies.total(), 0);
    }

    #[test]
    fn conn_full_exchange_split_at_every_offset_is_identical() {
        let (r, s) = exchange();
        let whole = run_split(&r, &s, &[], &[]);
        for i in 0..=r.len() {
            assert_eq!(run_split(&r, &s, &[i], &[]), whole, "request split at {i}");
        }
        for i in 0..=s.len() {
            assert_eq!(run_split(&r, &s, &[], &[i]), whole, "response split at {i}");
        }
    }

    #[test]
    fn conn_split_at_every_pair_of_offsets_is_identical() {
        // Smaller fixture for the quadratic test: a chunked SSE reply and a keep-alive JSON one.
        let r = [POST2, POST2].concat();
        let mut s = SSE_CHUNKED.to_vec();
        s.extend_from_slice(JSON1);
        let whole = run_split(&r, &s, &[], &[]);
        for i in 0..=s.len() {
            for j in i..=s.len() {
                assert_eq!(run_split(&r, &s, &[], &[i, j]), whole, "response split at {i},{j}");
            }
        }
        for i in 0..=r.len() {
            for j in i..=r.len() {
                assert_eq!(run_split(&r, &s, &[i, j], &[]), whole, "request split at {i},{j}");
            }
        }
    }

    #[test]
    fn conn_byte_at_a_time_is_identical() {
        let (r, s) = exchange();
        let whole = run_split(&r, &s, &[], &[]);
        let rc: Vec<usize> = (1..r.len()).collect();
        let sc: Vec<usize> = (1..s.len()).collect();
        assert_eq!(run_split(&r, &s, &rc, &sc), whole);
    }

    #[test]
    fn conn_stats_merge_adds() {
        let mut d = Drive::new();
        d.req(POST1);
        d.res(b"garbage");
        let one = d.conn.stats().clone();
        let mut sum = one.clone();
        sum.merge(&one);
        assert_eq!(sum.requests, 2);
        assert_eq!(sum.anomalies.get(HttpAnomaly::Resync), 2);
        assert_eq!(sum.resync_skipped_bytes, 2 * one.resync_skipped_bytes);
    }

    /// Tokens that make random streams look enough like HTTP to reach every state.
    fn http_token() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        use proptest::prelude::*;
        prop_oneof![
            Just(b"GET / HTTP/1.1\r\n".to_vec()),
            Just(b"POST /mcp HTTP/1.1\r\n".to_vec()),
            Just(b"HTTP/1.1 200 OK\r\n".to_vec()),
            Just(b"HTTP/1.1 101 Switching\r\n".to_vec()),
            Just(b"HTTP/1.1 100 Continue\r\n".to_vec()),
            Just(b"HEAD /x HTTP/1.1\r\n".to_vec()),
            Just(b"Content-Length: 5\r\n".to_vec()),
            Just(b"Content-Length: x\r\n".to_vec()),
            Just(b"Transfer-Encoding: chunked\r\n".to_vec()),
            Just(b"Content-Type: text/event-stream\r\n".to_vec()),
            Just(b"\r\n".to_vec()),
            Just(b"\n".to_vec()),
            Just(b"5\r\nhello\r\n".to_vec()),
            Just(b"0\r\n\r\n".to_vec()),
            Just(b"data: x\n\n".to_vec()),
            Just(b"id: 1\r".to_vec()),
            Just(b": c\n".to_vec()),
            Just(b"}{".to_vec()),
            proptest::collection::vec(proptest::num::u8::ANY, 0..8),
        ]
    }

    fn stream() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
        proptest::collection::vec(http_token(), 0..24).prop_map(|v| v.concat())
    }

    use proptest::strategy::Strategy;

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(512))]

        #[test]
        fn conn_arbitrary_bytes_never_panic(
            ops in proptest::collection::vec(
                (0u8..4, proptest::collection::vec(proptest::num::u8::ANY, 0..64), 0u64..40),
                0..40,
            ),
            cap in 16usize..200,
        ) {
            let limits = Limits { max_header_bytes: cap, max_sse_event_bytes: cap, max_pending_per_session: 2, ..Limits::default() };
            let mut conn = HttpConnection::new(&limits);
            let mut sink = |_: HttpEvent<'_>| {};
            for (i, (op, bytes, len)) in ops.iter().enumerate() {
                let dir = if op % 2 == 0 { ToServer } else { ToClient };
                let ts = Timestamp(i as i64);
                match op {
                    0 | 1 => conn.data(dir, bytes, i as u64, ts, &mut sink),
                    _ => conn.gap(dir, *len, i as u64, ts, &mut sink),
                }
            }
            conn.end(ToServer, EndReason::Rst, 0, Timestamp(0), &mut sink);
            conn.end(ToClient, EndReason::Fin, 0, Timestamp(0), &mut sink);
        }

        #[test]
        fn conn_http_like_streams_are_split_invariant(
            r in stream(),
            s in stream(),
            rc in proptest::collection::vec(0usize..400, 0..6),
            sc in proptest::collection::vec(0usize..400, 0..6),
            cap in 1usize..128,
        ) {
            let limits = Limits { max_header_bytes: cap, max_sse_event_bytes: cap, ..Limits::default() };
            let cuts = |mut c: Vec<usize>, len: usize| {
                c.iter_mut().for_each(|x| *x = (*x).min(len));
                c.sort_unstable();
                c
            };
            let whole = run_split_with(&limits, &r, &s, &[], &[]);
            let split = run_split_with(&limits, &r, &s, &cuts(rc, r.len()), &cuts(sc, s.len()));
            proptest::prop_assert_eq!(split, whole);
        }

        #[test]
        fn conn_every_message_gets_one_end(r in stream(), s in stream(), gaps in proptest::collection::vec((0u8..2, 1u64..20, 0usize..400), 0..4)) {
            let mut d = Drive::new();
            let mut rp = 0;
            let mut sp = 0;
            for (dir, len, at) in &gaps {
                if *dir == 0 {
                    let at = (*at).clamp(rp, r.len());
                    d.req(&r[rp..at]);
                    rp = at;
                    d.gap(ToServer, *len);
                } else {
                    let at = (*at).clamp(sp, s.len());
                    d.res(&s[sp..at]);
                    sp = at;
                    d.gap(ToClient, *len);
                }
            }
            d.req(&r[rp..]);
            d.res(&s[sp..]);
            d.end(ToServer, EndReason::EndOfCapture);
            d.end(ToClient, EndReason::Rst);
            let mut open_req = 0i64;
            let mut open_resp = 0i64;
            for e in d.all() {
                match e {
                    Ev::Req { .. } => { proptest::prop_assert_eq!(open_req, 0); open_req += 1; }
                    Ev::ReqEnd { .. } => { proptest::prop_assert_eq!(open_req, 1); open_req -= 1; }
                    Ev::ReqBody { .. } | Ev::ReqGap { .. } | Ev::ReqUndecoded { .. } => proptest::prop_assert_eq!(open_req, 1),
                    Ev::Resp { .. } => { proptest::prop_assert_eq!(open_resp, 0); open_resp += 1; }
                    Ev::RespEnd { .. } => { proptest::prop_assert_eq!(open_resp, 1); open_resp -= 1; }
                    Ev::RespBody { .. } | Ev::RespGap { .. } | Ev::Sse { .. } | Ev::Comment { .. } | Ev::Blank { .. } | Ev::RespUndecoded { .. } => proptest::prop_assert_eq!(open_resp, 1),
                    // Stand-ins for what a gap took, between messages.
                    Ev::RespLost { .. } => proptest::prop_assert_eq!(open_resp, 0),
                    Ev::ReqLost { .. } => proptest::prop_assert_eq!(open_req, 0),
                    Ev::Anomaly(_) => {}
                }
            }
            proptest::prop_assert_eq!((open_req, open_resp), (0, 0));
        }
    }
}

/// Throughput check: `cargo test --release --lib http::bench -- --ignored --nocapture`.
#[cfg(test)]
mod bench {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use std::time::Instant;

    /// Feeds `stream` in `mss`-byte packets `rounds` times; prints GB/s; returns events seen.
    fn measure(name: &str, dir: Direction, prefix_req: &[u8], stream: &[u8], mss: usize) -> u64 {
        let rounds = (256usize << 20) / stream.len().max(1);
        let mut conn = HttpConnection::new(&Limits::default());
        let mut events = 0u64;
        let mut sink = |ev: HttpEvent<'_>| {
            events += 1;
            std::hint::black_box(&ev);
        };
        let start = Instant::now();
        let mut frame = 0u64;
        for _ in 0..rounds {
            if !prefix_req.is_empty() {
                conn.data(Direction::ToServer, prefix_req, frame, Timestamp(0), &mut sink);
            }
            for pkt in stream.chunks(mss) {
                frame += 1;
                conn.data(dir, pkt, frame, Timestamp(0), &mut sink);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let bytes = (rounds * stream.len()) as f64;
        println!("{name:<28} {:>6.2} GB/s  ({events} events)", bytes / secs / 1e9);
        assert_eq!(conn.stats().anomalies.total(), 0, "{name}: {:?}", conn.stats());
        events
    }

    fn sse_stream() -> Vec<u8> {
        let mut sse =
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
        let ev = format!(
            "event: message\ndata: {{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"p\":\"{}\"}}}}\n\n",
            "y".repeat(100)
        );
        for _ in 0..4096 {
            sse.extend_from_slice(format!("{:x}\r\n{ev}\r\n", ev.len()).as_bytes());
        }
        sse.extend_from_slice(b"0\r\n\r\n");
        sse
    }

    fn post_stream() -> Vec<u8> {
        let mut reqs = Vec::new();
        for _ in 0..1000 {
            reqs.extend_from_slice(
                b"POST /mcp HTTP/1.1\r\nHost: localhost:8000\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nMcp-Session-Id: 0123456789abcdef\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: 58\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}",
            );
        }
        reqs
    }

    /// Large JSON response bodies (Content-Length), 1448-byte segments.
    #[test]
    #[ignore = "benchmark, not a check: cargo test --release bench_ -- --ignored --nocapture"]
    fn bench_json_body() {
        let body = vec![b'x'; 1 << 20];
        let mut resp =
            format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n", body.len())
                .into_bytes();
        resp.extend_from_slice(&body);
        measure("json content-length 1MiB", Direction::ToClient, b"GET / HTTP/1.1\r\n\r\n", &resp, 1448);
    }

    /// Chunked SSE: ~200-byte events, one chunk each.
    #[test]
    #[ignore = "benchmark, not a check: cargo test --release bench_ -- --ignored --nocapture"]
    fn bench_sse() {
        measure("sse chunked 4096 events", Direction::ToClient, b"GET / HTTP/1.1\r\n\r\n", &sse_stream(), 1448);
    }

    /// Small keep-alive requests: head-dominated.
    #[test]
    #[ignore = "benchmark, not a check: cargo test --release bench_ -- --ignored --nocapture"]
    fn bench_small_posts() {
        measure("keep-alive small POSTs", Direction::ToServer, b"", &post_stream(), 1448);
    }
}
