//! HTTP/2 (RFC 9113) of one connection: frames of both directions, HPACK per direction, streams, and the
//! same [`HttpEvent`]s the HTTP/1.1 parser emits — each stream is one exchange — so every layer above reads
//! HTTP/2 exactly as it reads HTTP/1.1.
//!
//! Owns: [`H2Connection`]: the client preface check, a [`frame::FrameReader`] and an [`hpack::HpackDecoder`]
//! per direction, the header block being assembled (HEADERS/PUSH_PROMISE + CONTINUATION), the peers'
//! settings that matter to a reader (header table size, max frame size), the stream map (`stream.rs`:
//! RFC 9113 §5.1), GOAWAY, the caps and counters. Parts: `frame.rs` (RFC 9113 §4, §6), `hpack.rs`
//! (RFC 7541), `stream.rs` (RFC 9113 §5.1). Must not: know MCP, or guess what it cannot decode.
//!
//! **Events.** Client HEADERS opening a stream -> `Request` (`:method`, `:path` as the target, `:authority`
//! as a `host` field first, then the regular fields; version 2); client DATA -> `RequestBody`; END_STREAM ->
//! `RequestEnd{Complete}`. Server HEADERS -> `Response` (1xx: `Response` + `ResponseEnd`, as HTTP/1.1 does);
//! DATA -> `ResponseBody`, or, for `text/event-stream`, `SseBody` + the SSE parser's events as each DATA
//! frame arrives; END_STREAM -> `ResponseEnd{Complete}`; a later HEADERS block is trailers. RST_STREAM on an
//! exchange not yet ended, or GOAWAY whose last stream id is below it, ends what is open `Interrupted`
//! (what a FIN does to an HTTP/1.1 message). Every event carries the frame number of the packet that
//! completed its HTTP/2 frame. Transaction ids continue the connection's HTTP/1.1 numbering (h2c upgrade). A client's RST_STREAM
//! after a response head that is not an event stream ends the request at once and the response only after
//! the server's frames already on their way (`stream.rs`, [`StreamState::ResetByClient`]): undici resets a
//! stream at a 404's head while the server's JSON-RPC error body follows it on the wire.
//!
//! **Going dark.** HPACK is shared state (RFC 7541 §2.2): once a header block is lost or fails to decode,
//! nothing later can be read without guessing. So a connection picked up without its preface, a gap, a
//! protocol error (bad frame, bad HPACK, a frame interleaved in a header block) or a cap (a frame or a
//! header block over its limit) stops the analysis: every open message ends (`Gap` after a gap,
//! `Interrupted` otherwise) and [`H2Connection::unanalysed`] gives the reason for
//! CAPTURE-HTTP2-UNANALYSED. Caps that lose nothing of the connection's state (header fields past the
//! header list cap, streams past the concurrent stream cap) are counted and analysis goes on.

pub mod frame;
pub mod hpack;
pub mod stream;

use std::collections::BTreeMap;

use crate::decode::flow_key::Direction;
use crate::http::coding::BodyCodings;
use crate::http::content::{Content, ContentCfg, MsgTx, Sink};
use crate::http::{body, HttpAnomaly, HttpEvent, HttpStats, MessageEnd, RequestHead, ResponseHead, TxId};
use crate::limits::Limits;
use crate::reassembly::EndReason;
use crate::time::Timestamp;
use frame::{Frame, FrameError, FrameHeader, FrameReader, ReadError};
use hpack::{Block, HpackDecoder};
use stream::{Response, Stream, StreamInput, StreamState};

/// Why a connection's HTTP/2 is not (or no longer) analysed; `as_str` is the `reason` of the
/// `http2_seen` fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Unanalysed {
    /// Picked up after its start (no preface), or bytes lost in a gap: the HPACK tables are unknown.
    Midstream,
    /// A frame or header block that breaks RFC 9113 / RFC 7541.
    ProtocolError,
    /// A frame or header block over its cap (`max_h2_frame_bytes`, `max_h2_header_list_bytes`).
    Cap,
}

impl Unanalysed {
    pub fn as_str(self) -> &'static str {
        match self {
            Unanalysed::Midstream => "midstream",
            Unanalysed::ProtocolError => "protocol error",
            Unanalysed::Cap => "cap",
        }
    }
}

/// Counters of HTTP/2 connections for the summary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct H2Stats {
    pub connections: u64,
    pub streams: u64,
    /// RST_STREAM frames.
    pub resets: u64,
    /// GOAWAY frames.
    pub goaways: u64,
    /// Header blocks that failed to decode.
    pub hpack_errors: u64,
    /// Frames that broke RFC 9113 (connection errors).
    pub protocol_errors: u64,
    /// Connections whose analysis stopped (or never started), by reason.
    pub unanalysed: BTreeMap<Unanalysed, u64>,
    /// Header blocks cut at `max_h2_header_list_bytes` (fields dropped, or the block itself too large).
    pub header_list_cap_hits: u64,
    /// Streams not analysed at `max_h2_streams_per_conn`.
    pub stream_cap_hits: u64,
    /// Frames over `max_h2_frame_bytes`.
    pub frame_cap_hits: u64,
    /// Streams the server pushed (PUSH_PROMISE, RFC 9113 §8.4): decoded to keep HPACK in step, counted,
    /// not handed on (they answer no request of the client's).
    pub pushed: u64,
}

impl H2Stats {
    pub fn merge(&mut self, o: &H2Stats) {
        for (m, t) in [
            (&mut self.connections, o.connections),
            (&mut self.streams, o.streams),
            (&mut self.resets, o.resets),
            (&mut self.goaways, o.goaways),
            (&mut self.hpack_errors, o.hpack_errors),
            (&mut self.protocol_errors, o.protocol_errors),
            (&mut self.header_list_cap_hits, o.header_list_cap_hits),
            (&mut self.stream_cap_hits, o.stream_cap_hits),
            (&mut self.frame_cap_hits, o.frame_cap_hits),
            (&mut self.pushed, o.pushed),
        ] {
            *m = m.saturating_add(t);
        }
        for (k, v) in &o.unanalysed {
            *self.unanalysed.entry(*k).or_default() += v;
        }
    }
}

/// The caps this module uses, copied out of [`Limits`].
#[derive(Debug, Clone, Copy)]
pub struct H2Cfg {
    max_header_list: usize,
    max_streams: usize,
    max_frame: usize,
    content: ContentCfg,
}

impl H2Cfg {
    pub fn new(limits: &Limits) -> H2Cfg {
        H2Cfg {
            max_header_list: limits.max_h2_header_list_bytes,
            max_streams: limits.max_h2_streams_per_conn,
            max_frame: limits.max_h2_frame_bytes,
            content: ContentCfg::new(limits),
        }
    }
}

type Cfg = H2Cfg;

/// A header block being assembled from HEADERS/PUSH_PROMISE and CONTINUATION frames (RFC 9113 §6.10).
#[derive(Debug)]
struct Pending {
    stream: u32,
    end_stream: bool,
    /// PUSH_PROMISE: the promised stream.
    promised: Option<u32>,
    // ALLOC: one header block, bounded by limits::max_h2_header_list_bytes
    block: Vec<u8>,
}

/// One direction.
#[derive(Debug)]
struct Half {
    /// Client only: bytes of the connection preface still to match.
    preface_left: usize,
    reader: FrameReader,
    hpack: HpackDecoder,
    pending: Option<Pending>,
    /// SETTINGS_MAX_FRAME_SIZE the receiver of this direction announced (largest seen; RFC 9113 §6.5.2).
    max_frame: u32,
}

impl Half {
    fn new(cfg: Cfg, preface: bool) -> Half {
        Half {
            preface_left: if preface { frame::PREFACE.len() } else { 0 },
            reader: FrameReader::default(),
            hpack: HpackDecoder::new(cfg.max_header_list),
            pending: None,
            max_frame: frame::DEFAULT_MAX_FRAME,
        }
    }
}

/// Where events go, with the packet they are attributed to (the body stage's sink, shared with HTTP/1.1).
type Out<'o, F> = Sink<'o, F>;

/// HTTP/2 analyzer of one TCP connection. `ToServer` is the client.
#[derive(Debug)]
pub struct H2Connection {
    cfg: Cfg,
    client: Half,
    server: Half,
    // ALLOC: open streams, bounded by limits::max_h2_streams_per_conn (plus pushed streams, same cap)
    streams: BTreeMap<u32, Stream>,
    /// Highest stream id seen from each side (RFC 9113 §5.1.1: ids only grow; lower unknown ids are closed).
    last_client_stream: u32,
    last_server_stream: u32,
    next_tx: TxId,
    /// Why analysis stopped, and the frame where it did.
    dark: Option<(Unanalysed, u64)>,
    /// A stream the client reset whose response body is still read (its server frames in flight); at most
    /// one, since the next frame that is not part of that tail ends it.
    draining: Option<u32>,
    stats: H2Stats,
    /// Body and SSE counters of the body stage.
    body: HttpStats,
    /// Bytes the Content-Encoding decoders produced on this connection (`max_decoded_bytes_per_conn`).
    decoded: u64,
}

impl H2Connection {
    /// A connection whose client preface is expected (prior knowledge, TLS with ALPN `h2`, or after an
    /// h2c upgrade). `next_tx`: the first transaction id to use.
    pub fn new(cfg: H2Cfg, next_tx: TxId) -> H2Connection {
        H2Connection {
            cfg,
            client: Half::new(cfg, true),
            server: Half::new(cfg, false),
            streams: BTreeMap::new(),
            last_client_stream: 0,
            last_server_stream: 0,
            next_tx,
            dark: None,
            draining: None,
            stats: H2Stats { connections: 1, ..H2Stats::default() },
            body: HttpStats::default(),
            decoded: 0,
        }
    }

    /// After `101 Switching Protocols` to h2c (RFC 7540 §3.2): the HTTP/1.1 request `tx` is stream 1, its
    /// response comes over HTTP/2; later streams number from `next_tx`.
    pub fn upgraded(cfg: H2Cfg, tx: Option<TxId>, next_tx: TxId) -> H2Connection {
        let mut c = H2Connection::new(cfg, next_tx);
        if let Some(tx) = tx {
            c.streams.insert(1, Stream::upgraded(tx));
            c.stats.streams = 1;
        }
        c.last_client_stream = 1;
        c
    }

    /// HTTP/2 known to be spoken (ALPN `h2`) but its start was not seen: nothing can be decoded.
    pub fn midstream(cfg: H2Cfg, next_tx: TxId, frame: u64) -> H2Connection {
        let mut c = H2Connection::new(cfg, next_tx);
        c.go_dark_quiet(Unanalysed::Midstream, frame);
        c
    }

    pub fn stats(&self) -> &H2Stats {
        &self.stats
    }

    /// Body and SSE counters (the HTTP/1.1 parser's, for the bodies this connection carried).
    pub fn body_stats(&self) -> &HttpStats {
        &self.body
    }

    /// Runs `f` with a sink for one call's events; the body counters are taken out of `self` meanwhile
    /// so `f` may borrow the connection.
    fn with_sink<F: FnMut(HttpEvent<'_>)>(&mut self, out: &mut F, frame: u64, ts: Timestamp, f: impl FnOnce(&mut Self, &mut Out<'_, F>)) {
        let mut stats = std::mem::take(&mut self.body);
        let mut decoded = self.decoded;
        let mut sink = Sink { out, stats: &mut stats, frame, ts, decoded: &mut decoded, switched: None };
        f(self, &mut sink);
        self.body = stats;
        self.decoded = decoded;
    }

    /// Why the connection was not analysed (to the end), if it was not.
    pub fn unanalysed(&self) -> Option<(Unanalysed, u64)> {
        self.dark
    }

    fn go_dark_quiet(&mut self, why: Unanalysed, frame: u64) {
        if self.dark.is_none() {
            self.dark = Some((why, frame));
            *self.stats.unanalysed.entry(why).or_default() += 1;
        }
    }

    /// Stops the analysis: every open message ends with `end`.
    fn go_dark<F: FnMut(HttpEvent<'_>)>(&mut self, why: Unanalysed, end: MessageEnd, out: &mut Out<'_, F>) {
        self.go_dark_quiet(why, out.frame);
        self.client.pending = None;
        self.server.pending = None;
        let ids: Vec<u32> = self.streams.keys().copied().collect();
        for id in ids {
            self.close_stream(id, end, out);
        }
    }

    /// In-order bytes of one direction; `frame`/`ts` are the carrying packet's.
    pub fn data<F: FnMut(HttpEvent<'_>)>(&mut self, dir: Direction, bytes: &[u8], frame: u64, ts: Timestamp, out: &mut F) {
        if self.dark.is_some() {
            return;
        }
        self.with_sink(out, frame, ts, |c, o| c.data_in(dir, bytes, o));
    }

    fn data_in<F: FnMut(HttpEvent<'_>)>(&mut self, dir: Direction, mut bytes: &[u8], o: &mut Out<'_, F>) {
        let cap = self.cfg.max_frame;
        let half = self.half(dir);
        if half.preface_left > 0 {
            // RFC 9113 §3.4: the client preface, possibly split across packets.
            let done = frame::PREFACE.len().saturating_sub(half.preface_left);
            let want = frame::PREFACE.get(done..).unwrap_or_default();
            let n = want.len().min(bytes.len());
            if bytes.get(..n) != want.get(..n) {
                self.stats.protocol_errors += 1;
                let why = if done == 0 { Unanalysed::Midstream } else { Unanalysed::ProtocolError };
                self.go_dark(why, MessageEnd::Interrupted, o);
                return;
            }
            half.preface_left -= n;
            bytes = bytes.get(n..).unwrap_or_default();
        }
        let max = usize::try_from(half.max_frame).unwrap_or(usize::MAX).max(frame::DEFAULT_MAX_FRAME as usize).min(cap);
        // The reader is taken out while it runs so each frame can be handled as it is cut (in place when
        // it lies within `bytes`).
        let mut reader = std::mem::take(&mut half.reader);
        let read = reader.feed(bytes, max, &mut |h, payload| {
            if self.dark.is_none() {
                self.on_frame(dir, h, payload, o);
            }
        });
        self.half(dir).reader = reader;
        if let (Err(ReadError::TooLarge(len)), None) = (read, self.dark) {
            // Over what the receiver announced (RFC 9113 §4.2 FRAME_SIZE_ERROR), or only over our cap.
            if len > self.half(dir).max_frame.max(frame::DEFAULT_MAX_FRAME) {
                self.protocol_error(o);
            } else {
                self.stats.frame_cap_hits += 1;
                self.go_dark(Unanalysed::Cap, MessageEnd::Interrupted, o);
            }
        }
    }

    /// `len` bytes of one direction were lost: HPACK state is unknown from here on.
    pub fn gap<F: FnMut(HttpEvent<'_>)>(&mut self, _dir: Direction, len: u64, frame: u64, ts: Timestamp, out: &mut F) {
        if len == 0 || self.dark.is_some() {
            return;
        }
        self.with_sink(out, frame, ts, |c, o| c.go_dark(Unanalysed::Midstream, MessageEnd::Gap, o));
    }

    /// No more bytes in `dir`: its open messages were cut short (RFC 9113 §8.1: a message ends with
    /// END_STREAM; a connection closing first interrupts it).
    pub fn end<F: FnMut(HttpEvent<'_>)>(&mut self, dir: Direction, _reason: EndReason, frame: u64, ts: Timestamp, out: &mut F) {
        if self.dark.is_some() {
            return;
        }
        self.with_sink(out, frame, ts, |c, o| {
            for s in c.streams.values_mut() {
                match dir {
                    Direction::ToServer => end_body(s.request.take(), false, MessageEnd::Interrupted, o),
                    Direction::ToClient => end_body(s.response.take_body(), false, MessageEnd::Interrupted, o),
                }
            }
        });
    }

    fn half(&mut self, dir: Direction) -> &mut Half {
        match dir {
            Direction::ToServer => &mut self.client,
            Direction::ToClient => &mut self.server,
        }
    }

    fn protocol_error<F: FnMut(HttpEvent<'_>)>(&mut self, out: &mut Out<'_, F>) {
        self.stats.protocol_errors += 1;
        self.go_dark(Unanalysed::ProtocolError, MessageEnd::Interrupted, out);
    }

    fn on_frame<F: FnMut(HttpEvent<'_>)>(&mut self, dir: Direction, h: FrameHeader, payload: &[u8], out: &mut Out<'_, F>) {
        let f = match frame::decode(h, payload) {
            Ok(f) => f,
            Err(FrameError::Padding(_) | FrameError::Size(_) | FrameError::Stream(_)) => return self.protocol_error(out),
        };
        if let Some(id) = self.draining {
            // The tail of a client-reset stream is the server's frames on it that follow the reset at once.
            if dir == Direction::ToServer || h.stream != id {
                self.draining = None;
                self.close_stream(id, MessageEnd::Interrupted, out);
            }
        }
        // RFC 9113 §6.10: a header block is contiguous; any other frame in between is a PROTOCOL_ERROR.
        if self.half(dir).pending.is_some() && !matches!(f, Frame::Continuation { .. }) {
            return self.protocol_error(out);
        }
        match f {
            Frame::Headers { stream, end_stream, end_headers, fragment } => {
                self.start_block(dir, Pending { stream, end_stream, promised: None, block: Vec::new() }, fragment, end_headers, out)
            }
            Frame::PushPromise { stream, promised, end_headers, fragment } => {
                self.start_block(dir, Pending { stream, end_stream: false, promised: Some(promised), block: Vec::new() }, fragment, end_headers, out)
            }
            Frame::Continuation { stream, end_headers, fragment } => {
                let Some(p) = self.half(dir).pending.take() else { return self.protocol_error(out) };
                if p.stream != stream {
                    return self.protocol_error(out);
                }
                self.start_block(dir, p, fragment, end_headers, out);
            }
            Frame::Data { stream, end_stream, data } => self.on_data(dir, stream, end_stream, data, out),
            Frame::RstStream { stream, .. } => {
                self.stats.resets += 1;
                match self.streams.get_mut(&stream) {
                    // The server's frames in flight are read only for a body whose end is not the stream's life.
                    Some(s) if dir == Direction::ToServer && matches!(&s.response, Response::Body(b) if !b.is_sse()) => {
                        end_body(s.request.take(), false, MessageEnd::Interrupted, out);
                        s.state = s.state.step(StreamInput::ClientReset);
                        self.draining = Some(stream);
                    }
                    _ => self.close_stream(stream, MessageEnd::Interrupted, out),
                }
            }
            Frame::Settings { ack: false, params } => {
                // Settings constrain what the *other* side sends (RFC 9113 §6.5: "the sender's" parameters
                // apply to frames the sender receives).
                let other = match dir {
                    Direction::ToServer => &mut self.server,
                    Direction::ToClient => &mut self.client,
                };
                for (id, v) in frame::settings(params) {
                    match id {
                        frame::SETTINGS_HEADER_TABLE_SIZE => other.hpack.allow_table_size(v),
                        frame::SETTINGS_MAX_FRAME_SIZE => other.max_frame = other.max_frame.max(v),
                        _ => {}
                    }
                }
            }
            Frame::GoAway { last_stream, .. } => {
                self.stats.goaways += 1;
                // RFC 9113 §6.8: streams above the last stream id the sender processed were not processed;
                // they are the receiver's own streams (client streams when the server sends it).
                let client_initiated = dir == Direction::ToClient;
                let above: Vec<u32> =
                    self.streams.range(last_stream.saturating_add(1)..).map(|(&id, _)| id).filter(|id| (id % 2 == 1) == client_initiated).collect();
                for id in above {
                    self.close_stream(id, MessageEnd::Interrupted, out);
                }
            }
            Frame::Settings { ack: true, .. } | Frame::Priority { .. } | Frame::Ping { .. } | Frame::WindowUpdate { .. } | Frame::Unknown { .. } => {}
        }
    }

    /// Adds a fragment to a header block; decodes it when END_HEADERS came.
    fn start_block<F: FnMut(HttpEvent<'_>)>(&mut self, dir: Direction, mut p: Pending, fragment: &[u8], end_headers: bool, out: &mut Out<'_, F>) {
        if p.block.len().saturating_add(fragment.len()) > self.cfg.max_header_list {
            // A CONTINUATION flood or an oversized block: it cannot be kept, so HPACK state is lost.
            self.stats.header_list_cap_hits += 1;
            return self.go_dark(Unanalysed::Cap, MessageEnd::Interrupted, out);
        }
        if !end_headers {
            p.block.extend_from_slice(fragment);
            self.half(dir).pending = Some(p);
            return;
        }
        let decoded = if p.block.is_empty() {
            self.half(dir).hpack.decode(fragment)
        } else {
            p.block.extend_from_slice(fragment);
            self.half(dir).hpack.decode(&p.block)
        };
        let block = match decoded {
            Ok(b) => b,
            Err(_) => {
                self.stats.hpack_errors += 1;
                return self.protocol_error(out);
            }
        };
        if block.dropped > 0 {
            self.stats.header_list_cap_hits += 1;
            out.anomaly(HttpAnomaly::HeaderTooLarge);
        }
        match p.promised {
            Some(promised) => self.on_push_promise(promised),
            None => self.on_headers(dir, p.stream, p.end_stream, block, out),
        }
    }

    fn open_streams(&self) -> usize {
        self.streams.len()
    }

    fn on_push_promise(&mut self, promised: u32) {
        // RFC 9113 §8.4: pushed responses answer no client request; kept only so their frames are known.
        self.stats.pushed += 1;
        if promised > self.last_server_stream {
            self.last_server_stream = promised;
        }
        if self.open_streams() < self.cfg.max_streams {
            self.streams.insert(promised, Stream::pushed());
        } else {
            self.stats.stream_cap_hits += 1;
        }
    }

    fn on_headers<F: FnMut(HttpEvent<'_>)>(&mut self, dir: Direction, id: u32, end_stream: bool, block: Block, out: &mut Out<'_, F>) {
        match dir {
            Direction::ToServer => {
                if self.streams.contains_key(&id) {
                    // Trailers (RFC 9113 §8.1): they carry END_STREAM.
                    if end_stream {
                        self.end_request(id, out);
                    }
                    return;
                }
                // §5.1.1: a client stream id is odd and larger than every earlier one.
                if id.is_multiple_of(2) || id <= self.last_client_stream {
                    return self.protocol_error(out);
                }
                self.last_client_stream = id;
                if self.open_streams() >= self.cfg.max_streams {
                    self.stats.stream_cap_hits += 1;
                    return;
                }
                let tx = self.next_tx;
                self.next_tx = self.next_tx.saturating_add(1);
                self.stats.streams += 1;
                let head = request_head(block);
                let codings = if end_stream { None } else { BodyCodings::from_headers(&head.headers) };
                out.emit(HttpEvent::Request { tx, head, frame: out.frame, ts: out.ts });
                out.emit(HttpEvent::H2Stream { tx, stream: id, frame: out.frame, ts: out.ts });
                let body = Content::new(MsgTx::Req(tx), codings, out);
                // ALLOC: one stream, bounded by limits::max_h2_streams_per_conn
                self.streams.insert(id, Stream::request(tx, body));
                if end_stream {
                    self.end_request(id, out);
                }
            }
            Direction::ToClient => {
                let cfg = self.cfg;
                let Some(s) = self.streams.get_mut(&id) else { return };
                let Some(tx) = s.tx else {
                    // A pushed stream: decoded for HPACK, not reported.
                    s.state = s.state.step(StreamInput::PushAnswered);
                    if end_stream {
                        self.streams.remove(&id);
                    }
                    return;
                };
                if let Response::Waiting = s.response {
                    let status = block.pseudo(":status").and_then(|v| v.trim().parse::<u16>().ok()).unwrap_or(0);
                    let head = ResponseHead { status, reason: "".into(), version: 2, headers: block.headers };
                    let sse = body::is_event_stream(&head.headers);
                    let interim = (100..200).contains(&status);
                    let codings = if end_stream || interim { None } else { BodyCodings::from_headers(&head.headers) };
                    out.emit(HttpEvent::Response { tx: Some(tx), head, frame: out.frame, ts: out.ts });
                    if interim {
                        // RFC 9110 §15.2: interim; the final response follows on the same stream.
                        out.end(MsgTx::Resp(Some(tx)), MessageEnd::Complete);
                        return;
                    }
                    let body = Content::new(MsgTx::Resp(Some(tx)), codings, out);
                    s.response = Response::Body(if sse { body.event_stream(cfg.content) } else { body });
                }
                if end_stream {
                    self.end_response(id, out);
                }
            }
        }
    }

    fn on_data<F: FnMut(HttpEvent<'_>)>(&mut self, dir: Direction, id: u32, end_stream: bool, data: &[u8], out: &mut Out<'_, F>) {
        let Some(s) = self.streams.get_mut(&id) else { return };
        if s.tx.is_none() {
            // A pushed stream's body: not handed on.
            if end_stream {
                self.streams.remove(&id);
            }
            return;
        }
        let cfg = self.cfg.content;
        match dir {
            Direction::ToServer => {
                if let (Some(body), false) = (s.request.as_mut(), data.is_empty()) {
                    body.feed(cfg, data, out);
                }
                if end_stream {
                    self.end_request(id, out);
                }
            }
            Direction::ToClient => {
                if let (Response::Body(body), false) = (&mut s.response, data.is_empty()) {
                    body.feed(cfg, data, out);
                }
                if end_stream {
                    self.end_response(id, out);
                }
            }
        }
    }

    fn end_request<F: FnMut(HttpEvent<'_>)>(&mut self, id: u32, out: &mut Out<'_, F>) {
        let Some(s) = self.streams.get_mut(&id) else { return };
        end_body(s.request.take(), true, MessageEnd::Complete, out);
        s.state = s.state.step(StreamInput::EndStream(Direction::ToServer));
        self.forget_if_closed(id);
    }

    fn end_response<F: FnMut(HttpEvent<'_>)>(&mut self, id: u32, out: &mut Out<'_, F>) {
        let Some(s) = self.streams.get_mut(&id) else { return };
        end_body(s.response.take_body(), true, MessageEnd::Complete, out);
        s.state = s.state.step(StreamInput::EndStream(Direction::ToClient));
        self.forget_if_closed(id);
    }

    fn forget_if_closed(&mut self, id: u32) {
        if self.streams.get(&id).is_some_and(|s| s.state == StreamState::Closed) {
            self.streams.remove(&id);
        }
    }

    /// RST_STREAM, GOAWAY above the stream, or the end of the analysis: what is open ends with `end`.
    fn close_stream<F: FnMut(HttpEvent<'_>)>(&mut self, id: u32, end: MessageEnd, out: &mut Out<'_, F>) {
        let Some(mut s) = self.streams.remove(&id) else { return };
        s.state = s.state.step(StreamInput::Reset);
        end_body(s.request.take(), false, end, out);
        end_body(s.response.take_body(), false, end, out);
    }
}

/// RFC 9113 §8.3.1 request pseudo-headers to an HTTP/1.1-shaped head: `:authority` becomes `host` (first,
/// unless a `host` field is present: §8.3.1 says they must agree), `:path` the target.
fn request_head(block: Block) -> RequestHead {
    let method = crate::http::token(block.pseudo(":method").unwrap_or_default(), crate::http::METHODS);
    let target = block.pseudo(":path").unwrap_or_default().into();
    let authority = block.pseudo(":authority").map(str::to_string);
    let headers = match authority {
        Some(a) if block.headers.get("host").is_none() => {
            let mut h = crate::http::Headers::with_capacity(block.headers.len() + 1, a.len() + 4);
            h.push_name("host");
            h.push_value(&a);
            for (n, v) in block.headers.iter() {
                h.push_name(n);
                h.push_value(v);
            }
            h
        }
        _ => block.headers,
    };
    RequestHead { method, target, version: 2, headers }
}

/// A message's body ended with `end` (`complete`: END_STREAM said so): the body stage finishes, then the
/// message's end event.
fn end_body<F: FnMut(HttpEvent<'_>)>(body: Option<Content>, complete: bool, end: MessageEnd, out: &mut Out<'_, F>) {
    if let Some(mut body) = body {
        body.finish(complete, out);
        out.end(body.tx(), end);
    }
}

#[cfg(test)]
mod tests;
