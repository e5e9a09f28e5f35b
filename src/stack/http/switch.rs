//! Which HTTP a connection speaks, and the hand-over between them (DESIGN Part 0: "HTTP is exchanges,
//! whatever the version"): HTTP/1.1 ([`HttpConnection`]) unless the client's first bytes are the HTTP/2
//! preface (h2c with prior knowledge, or TLS with ALPN `h2`: RFC 9113 §3.3, §3.4), or a `101 Switching
//! Protocols` to `h2c` hands the connection to HTTP/2 from the byte after its head (RFC 7540 §3.2). Both
//! emit the same [`HttpEvent`]s.
//!
//! Owns: the decision and the bytes held while it is pending. A server may send its SETTINGS before the
//! client's preface is captured, so server bytes that look like an HTTP/2 frame (or any, once ALPN said
//! `h2`) wait, bounded, for the client's first bytes; everything else goes to HTTP/1.1 at once, as before.
//! A connection that negotiated `h2` but whose client does not start with the preface was picked up
//! midstream: it is not analysed (reason `midstream`); so is a plaintext connection whose first bytes read as a
//! run of HTTP/2 frames without the preface. A 2xx to CONNECT (RFC 9110 §9.3.6) ends HTTP on the connection:
//! [`HttpConn::take_tunnel`] hands the layer stack what it needs to analyse the tunnelled bytes from their start.
//! Must not: parse either protocol itself.

use crate::decode::flow_key::Direction;
use crate::http::h2::frame::{self, FrameHeader};
use crate::http::h2::{H2Cfg, H2Connection, H2Stats, Unanalysed};
use crate::http::{HttpConnection, HttpEvent, Switched, TxId};
use crate::limits::Limits;
use crate::reassembly::EndReason;
use crate::time::Timestamp;

/// Server bytes held while the client's first bytes are awaited.
const MAX_HELD: usize = 64 << 10;

#[derive(Debug, Default)]
struct Undecided {
    // ALLOC: client bytes that are a proper prefix of the preface, fewer than frame::PREFACE.len()
    probe: Vec<u8>,
    /// Packet of the probe's first bytes.
    probe_at: (u64, Timestamp),
    // ALLOC: server bytes held for the decision, bounded by MAX_HELD
    held: Vec<(Vec<u8>, u64, Timestamp)>,
    held_bytes: usize,
}

/// The HTTP layer of one connection.
#[derive(Debug)]
pub struct HttpConn {
    h1: HttpConnection,
    h2: Option<Box<H2Connection>>,
    undecided: Option<Box<Undecided>>,
    cfg: H2Cfg,
    alpn_h2: bool,
    /// See [`HttpConn::take_tunnel`].
    tunnel: Option<Tunnel>,
}

/// A 2xx to CONNECT made the connection a tunnel: the bytes from here on are a new stream of their own
/// (TLS to the origin server, nearly always), to be analysed from their start like a new connection's.
#[derive(Debug, PartialEq, Eq)]
pub struct Tunnel {
    /// Where the 2xx head was, and the bytes after it in the same delivery.
    pub dir: Direction,
    pub first: Vec<u8>,
    pub frame: u64,
    pub ts: Timestamp,
    /// The transaction id the tunnel's first request takes.
    pub next_tx: TxId,
}

/// Bytes that read as a run of plausible HTTP/2 frames (RFC 9113 §4.1: a header a sender could write, length
/// within the default SETTINGS_MAX_FRAME_SIZE, connection-level types on stream 0 and the others off it), the
/// last one possibly unfinished: a connection picked up midstream. An HTTP/1.x message never passes (its first
/// three bytes, read as a length, are far over 16384).
fn looks_like_h2_frames(mut bytes: &[u8]) -> bool {
    let mut frames = 0;
    while let Some(h) = FrameHeader::parse(bytes) {
        let on_zero = matches!(h.kind, frame::SETTINGS | frame::PING | frame::GOAWAY);
        if !h.sendable() || h.len > frame::DEFAULT_MAX_FRAME || on_zero != (h.stream == 0) && h.kind != frame::WINDOW_UPDATE {
            return false;
        }
        frames += 1;
        let total = (h.len as usize).saturating_add(frame::HEADER_LEN);
        match bytes.get(total..) {
            Some(rest) => bytes = rest,
            None => break,
        }
    }
    frames > 0
}

/// RFC 9113 §3.4: the server's preface is a SETTINGS frame on stream 0.
fn looks_like_settings(bytes: &[u8]) -> bool {
    FrameHeader::parse(bytes).is_some_and(|h| h.kind == frame::SETTINGS && h.stream == 0 && h.len % 6 == 0 && h.flags & !1 == 0)
}

impl HttpConn {
    pub fn new(limits: &Limits) -> HttpConn {
        HttpConn::starting_at(limits, 0)
    }

    /// The HTTP layer of a CONNECT tunnel's bytes, whose first request gets `first_tx`.
    pub fn starting_at(limits: &Limits, first_tx: TxId) -> HttpConn {
        HttpConn { h1: HttpConnection::starting_at(limits, first_tx), h2: None, undecided: Some(Box::default()), cfg: H2Cfg::new(limits), alpn_h2: false, tunnel: None }
    }

    /// TLS negotiated `h2` (ALPN, RFC 9113 §3.3): the client must start with the preface.
    pub fn set_alpn_h2(&mut self) {
        self.alpn_h2 = true;
    }

    /// HTTP/2 counters, when the connection spoke HTTP/2.
    pub fn h2_stats(&self) -> Option<&H2Stats> {
        self.h2.as_deref().map(H2Connection::stats)
    }

    /// Why the connection's HTTP/2 was not analysed (to the end), if it spoke HTTP/2.
    pub fn h2_unanalysed(&self) -> Option<(Unanalysed, u64)> {
        self.h2.as_deref().and_then(H2Connection::unanalysed)
    }

    /// In-order bytes of one direction (see [`HttpConnection::data`]).
    pub fn data<F: FnMut(HttpEvent<'_>)>(&mut self, dir: Direction, bytes: &[u8], frame: u64, ts: Timestamp, out: &mut F) {
        if let Some(h2) = self.h2.as_mut() {
            return h2.data(dir, bytes, frame, ts, out);
        }
        if let Some(mut u) = self.undecided.take() {
            match dir {
                Direction::ToServer => {
                    let whole: &[u8] = if u.probe.is_empty() {
                        bytes
                    } else {
                        u.probe.extend_from_slice(bytes);
                        &u.probe
                    };
                    let n = whole.len().min(frame::PREFACE.len());
                    let is_prefix = whole.get(..n) == frame::PREFACE.get(..n);
                    if is_prefix && n < frame::PREFACE.len() {
                        if u.probe.is_empty() {
                            u.probe.extend_from_slice(bytes);
                            u.probe_at = (frame, ts);
                        }
                        self.undecided = Some(u);
                        return;
                    }
                    // The decision is made: the probe (if any) and these bytes go on, without a copy when
                    // the first packet decided.
                    let probe = std::mem::take(&mut u.probe);
                    let whole: &[u8] = if probe.is_empty() { bytes } else { &probe };
                    if is_prefix {
                        self.h2 = Some(Box::new(H2Connection::new(self.cfg, self.h1.next_tx())));
                    } else if self.alpn_h2 || looks_like_h2_frames(whole) {
                        self.h2 = Some(Box::new(H2Connection::midstream(self.cfg, self.h1.next_tx(), frame)));
                    }
                    self.data(dir, whole, frame, ts, out);
                    for (b, f, t) in u.held {
                        self.data(Direction::ToClient, &b, f, t, out);
                    }
                    return;
                }
                Direction::ToClient => {
                    if u.held.is_empty() && !self.alpn_h2 && !looks_like_settings(bytes) && looks_like_h2_frames(bytes) {
                        // Server frames that are not its preface: picked up midstream.
                        self.h2 = Some(Box::new(H2Connection::midstream(self.cfg, self.h1.next_tx(), frame)));
                        return;
                    }
                    let hold = (self.alpn_h2 || !u.held.is_empty() || looks_like_settings(bytes))
                        && u.held_bytes.saturating_add(bytes.len()) <= MAX_HELD;
                    if hold {
                        u.held_bytes += bytes.len();
                        u.held.push((bytes.to_vec(), frame, ts));
                        self.undecided = Some(u);
                        return;
                    }
                    self.flush(*u, frame, out);
                }
            }
        }
        if let Some(h2) = self.h2.as_mut() {
            return h2.data(dir, bytes, frame, ts, out);
        }
        self.h1.data(dir, bytes, frame, ts, out);
        let Some((to, tail)) = self.h1.take_switch() else { return };
        let rest = bytes.get(bytes.len().saturating_sub(tail)..).unwrap_or_default();
        match to {
            Switched::H2c(tx) => {
                let mut h2 = Box::new(H2Connection::upgraded(self.cfg, tx, self.h1.next_tx()));
                if let Some(tx) = tx {
                    // RFC 7540 §3.2: the upgrade request is stream 1.
                    out(HttpEvent::H2Stream { tx, stream: 1, frame, ts });
                }
                if !rest.is_empty() {
                    h2.data(dir, rest, frame, ts, out);
                }
                self.h2 = Some(h2);
            }
            // ALLOC: the tunnel's first bytes when they came with the 2xx head (nearly always none: the client
            // speaks first), once per tunnel
            Switched::Tunnel => self.tunnel = Some(Tunnel { dir, first: rest.to_vec(), frame, ts, next_tx: self.h1.next_tx() }),
        }
    }

    /// The connection became a CONNECT tunnel (RFC 9110 §9.3.6) in the last `data` call: what the layers below
    /// must restart from. Taken once; this HTTP layer parses nothing more.
    pub fn take_tunnel(&mut self) -> Option<Tunnel> {
        self.tunnel.take()
    }

    /// Gives up waiting: what was held goes where the connection now goes (HTTP/1.1, or dark HTTP/2).
    fn flush<F: FnMut(HttpEvent<'_>)>(&mut self, u: Undecided, frame: u64, out: &mut F) {
        if self.alpn_h2 && self.h2.is_none() {
            self.h2 = Some(Box::new(H2Connection::midstream(self.cfg, self.h1.next_tx(), frame)));
        }
        let Undecided { probe, probe_at, held, .. } = u;
        if !probe.is_empty() {
            // A preface prefix cut short: it was not HTTP/2 after all.
            self.data(Direction::ToServer, &probe, probe_at.0, probe_at.1, out);
        }
        for (b, f, t) in held {
            self.data(Direction::ToClient, &b, f, t, out);
        }
    }

    /// See [`HttpConnection::gap`].
    pub fn gap<F: FnMut(HttpEvent<'_>)>(&mut self, dir: Direction, len: u64, frame: u64, ts: Timestamp, out: &mut F) {
        if let Some(u) = self.undecided.take() {
            self.flush(*u, frame, out);
        }
        match self.h2.as_mut() {
            Some(h2) => h2.gap(dir, len, frame, ts, out),
            None => self.h1.gap(dir, len, frame, ts, out),
        }
    }

    /// See [`HttpConnection::end`].
    pub fn end<F: FnMut(HttpEvent<'_>)>(&mut self, dir: Direction, reason: EndReason, frame: u64, ts: Timestamp, out: &mut F) {
        if let Some(u) = self.undecided.take() {
            self.flush(*u, frame, out);
        }
        match self.h2.as_mut() {
            Some(h2) => h2.end(dir, reason, frame, ts, out),
            None => self.h1.end(dir, reason, frame, ts, out),
        }
    }
}
