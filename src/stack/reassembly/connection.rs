//! One TCP connection's lifecycle as a passive observer sees it: who is client and who is server, when
//! the handshake fixes each direction's base sequence number, when the connection is over, and when a SYN
//! on the same 4-tuple means a new connection. The byte streams themselves belong to `stream.rs`; the
//! table of connections, expiry and eviction to `mod.rs`.
//!
//! RFC 9293 §3.5 (establishing a connection): the SYN sender is the active opener — our client — and the
//! SYN-ACK sender the passive one. Each SYN carries its sender's initial sequence number (ISN), which the
//! SYN itself occupies (§3.4), so data starts at ISN+1. A retransmitted SYN carries the same ISN (§3.8.1)
//! and changes nothing, even after a FIN (an old duplicate). A SYN with a different ISN opens a new
//! connection on the same 4-tuple (the TIME-WAIT reuse of §3.6 / RFC 6191), which gets a new `ConnId`;
//! the old one, if still open, ends with `EndReason::Reused`.
//!
//! RFC 9293 §3.6 (closing): each direction closes on its own with a FIN; the connection is over when both
//! have ended. §3.5.3: a RST ends both directions at once. A passive observer cannot check window
//! acceptability reliably, so every RST is taken at face value.
//!
//! Midstream pickup (the capture starts after the handshake, Zeek's `FlipRoles` problem): the roles are
//! decided from the first payload: a request line (`GET `, `POST `, ...) marks the client, a status line
//! (`HTTP/`) the server. Until a payload decides, the guess is that the higher port is the client's
//! ephemeral port, and `Open` is held back so that a later payload (or a SYN) can still decide; `Open` goes
//! out, with whatever the roles are then, just before the first data, gap or end of the connection.

use std::net::SocketAddr;

use crate::decode::flow_key::{Direction, FlowKey};
use crate::decode::{ChecksumPolicy, TcpSegment};
use crate::reassembly::stream::{Budget, Ctx, Stream};
use crate::reassembly::{ConnId, EndReason, FlowEvent};
use crate::time::Timestamp;

/// An endpoint of a `FlowKey`: `A` sends from `key.a`, `B` from `key.b`. Roles are decided later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Side {
    A,
    B,
}

impl Side {
    pub(crate) fn of(key: &FlowKey, src: SocketAddr) -> Side {
        if src == key.a {
            Side::A
        } else {
            Side::B
        }
    }

    pub(crate) fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

/// The connection's lifecycle. Every state but `Midstream` and `Closed` has announced its roles (`Open`
/// was emitted with `client`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ConnState {
    /// Picked up without a handshake; `Open` is held back and `guess_client` may still change.
    Midstream { guess_client: Side },
    /// RFC 9293 §3.5: SYN seen from the client, no SYN-ACK yet.
    SynSent { client: Side },
    /// RFC 9293 §3.5: SYN-ACK seen, handshake not yet completed by a non-SYN segment.
    SynReceived { client: Side },
    /// Data may flow both ways (also a midstream pickup once its roles are announced).
    Established { client: Side },
    /// One direction has ended (RFC 9293 §3.6: FIN-WAIT / CLOSE-WAIT from the observer's seat).
    Closing { client: Side },
    /// Both directions ended and `Close` emitted; the table drops the connection.
    Closed,
}

/// What the table must do after a segment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// Still open.
    Alive,
    /// `Close` was emitted: drop the connection.
    Closed,
    /// The segment is a SYN opening a new connection on this 4-tuple: end this one (with
    /// `EndReason::Reused`) and feed the segment to a new connection. Nothing was emitted for it.
    Reused,
}

/// Who speaks first in an HTTP exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Speaker {
    Client,
    Server,
}

/// RFC 9110 §9 method tokens followed by the request line's space (RFC 9112 §3).
const METHODS: [&[u8]; 9] =
    [b"GET ", b"POST ", b"PUT ", b"DELETE ", b"HEAD ", b"OPTIONS ", b"PATCH ", b"CONNECT ", b"TRACE "];

/// Which role a payload at the start of a message reveals: a request line (RFC 9112 §3) is the client's,
/// a status line starting `HTTP/` (RFC 9112 §4) the server's.
fn speaker(payload: &[u8]) -> Option<Speaker> {
    if METHODS.iter().any(|m| payload.starts_with(m)) {
        Some(Speaker::Client)
    } else if payload.starts_with(b"HTTP/") {
        Some(Speaker::Server)
    } else {
        None
    }
}

/// Whether a payload opens with a request line (`Some(true)`) or a status line (`Some(false)`): the test
/// reassembly decides a midstream pickup's roles by, for a stage that must decide alike (`shard`).
pub fn speaker_is_client(payload: &[u8]) -> Option<bool> {
    speaker(payload).map(|s| s == Speaker::Client)
}

/// The server's address by [`port_guess`], for a stage that must agree with reassembly's guess before
/// reassembly has seen the connection (the `shard` dispatcher).
pub fn guess_server(key: &FlowKey) -> SocketAddr {
    match port_guess(key) {
        Side::A => key.b,
        Side::B => key.a,
    }
}

/// Ephemeral ports are the high ones: the higher port is probably the client's. Equal ports: `B`.
fn port_guess(key: &FlowKey) -> Side {
    if key.a.port() > key.b.port() {
        Side::A
    } else {
        Side::B
    }
}

/// Initial sequence numbers seen in SYN / SYN-ACK segments, per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Isns {
    a: Option<u32>,
    b: Option<u32>,
}

impl Isns {
    pub(crate) fn get(&self, side: Side) -> Option<u32> {
        match side {
            Side::A => self.a,
            Side::B => self.b,
        }
    }

    fn set(&mut self, side: Side, isn: u32) {
        match side {
            Side::A => self.a = Some(isn),
            Side::B => self.b = Some(isn),
        }
    }
}

#[derive(Debug)]
pub(crate) struct Connection {
    pub(crate) id: ConnId,
    key: FlowKey,
    state: ConnState,
    isns: Isns,
    /// Bytes sent by `key.a`.
    a: Stream,
    /// Bytes sent by `key.b`.
    b: Stream,
    first_frame: u64,
    first_ts: Timestamp,
    pub(crate) last_frame: u64,
    /// Capture time of the last packet (the table's monotonic clock), for idle expiry.
    pub(crate) last_seen: Timestamp,
    /// An unacknowledged-data check of this connection is queued (`FlowTable::expire`).
    pub(crate) unacked_check: bool,
    /// Its first packet was not a SYN: the capture did not see it begin.
    midstream: bool,
    /// The last acknowledgement the client sent while the capture had not one packet of the server, and
    /// whether one moved past another (counted once; `FlowEvent::Unacked` toward the client at each move).
    blind_ack: Option<u32>,
    blind: bool,
}

impl Connection {
    pub(crate) fn new(id: ConnId, key: FlowKey, frame: u64, ts: Timestamp, now: Timestamp, midstream: bool, checksums: ChecksumPolicy) -> Self {
        Connection {
            id,
            key,
            state: ConnState::Midstream { guess_client: port_guess(&key) },
            isns: Isns::default(),
            a: Stream::new(checksums),
            b: Stream::new(checksums),
            first_frame: frame,
            first_ts: ts,
            last_frame: frame,
            last_seen: now,
            unacked_check: false,
            midstream,
            blind_ack: None,
            blind: false,
        }
    }

    /// A handshake the capture saw begin whose server it never saw send one packet, not even the SYN-ACK,
    /// while the client acknowledges more and more of its bytes: the capture does not see the server's
    /// direction (a filter on one direction, an asymmetric route, a half-translated NAT copy). Its
    /// exchanges wait on bytes the capture lost sight of, as at a silence with unacknowledged bytes.
    fn note_blind_ack<F: FnMut(FlowEvent<'_>) + ?Sized>(&mut self, seg: &TcpSegment<'_>, side: Side, ctx: &mut Ctx<'_, F>) {
        let seen_begin = !self.midstream && !matches!(self.state, ConnState::Midstream { .. } | ConnState::Closed);
        if !seen_begin || side != self.client() || !self.stream(side.other()).is_unsynced() {
            return;
        }
        // Each time the acknowledgement moves, the server sent what the requests waiting then may have been
        // waiting for: the event goes out again, and marks those.
        if self.blind_ack.is_some_and(|last| last != seg.ack) {
            if !self.blind {
                self.blind = true;
                ctx.stats.one_way_connections = ctx.stats.one_way_connections.saturating_add(1);
            }
            ctx.emit(FlowEvent::Unacked { conn: self.id, dir: self.dir_of(side.other()), frame: seg.frame, ts: seg.ts });
        }
        self.blind_ack = Some(seg.ack);
    }

    /// A direction whose seen bytes the peer never acknowledged (`Stream::unacked`), the server's first.
    /// Only once `Open` went out: a midstream pickup that never announced its roles delivered nothing, so
    /// there is nothing downstream a loss could have cut short (and no connection to name).
    pub(crate) fn unacked(&self) -> Option<Direction> {
        if let ConnState::Midstream { .. } | ConnState::Closed = self.state {
            return None;
        }
        let client = self.client();
        [client.other(), client].into_iter().find(|&side| self.stream(side).unacked()).map(|side| self.dir_of(side))
    }

    /// The server's address, as announced or as currently guessed.
    pub(crate) fn server_addr(&self) -> SocketAddr {
        self.addr(self.client().other())
    }

    pub(crate) fn key(&self) -> FlowKey {
        self.key
    }

    #[cfg(test)]
    pub(crate) fn state(&self) -> ConnState {
        self.state
    }

    fn stream(&self, side: Side) -> &Stream {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }

    fn stream_mut(&mut self, side: Side) -> &mut Stream {
        match side {
            Side::A => &mut self.a,
            Side::B => &mut self.b,
        }
    }

    fn addr(&self, side: Side) -> SocketAddr {
        match side {
            Side::A => self.key.a,
            Side::B => self.key.b,
        }
    }

    /// The client as announced, or as currently guessed.
    fn client(&self) -> Side {
        match self.state {
            ConnState::Midstream { guess_client: client }
            | ConnState::SynSent { client }
            | ConnState::SynReceived { client }
            | ConnState::Established { client }
            | ConnState::Closing { client } => client,
            ConnState::Closed => port_guess(&self.key),
        }
    }

    fn dir_of(&self, side: Side) -> Direction {
        if side == self.client() {
            Direction::ToServer
        } else {
            Direction::ToClient
        }
    }

    fn open_event(&self, client: Side) -> FlowEvent<'static> {
        FlowEvent::Open {
            conn: self.id,
            client: self.addr(client),
            server: self.addr(client.other()),
            midstream: self.midstream,
            frame: self.first_frame,
            ts: self.first_ts,
        }
    }

    /// Roles are certain: emit `Open` now and move to `next`.
    fn announce<F: FnMut(FlowEvent<'_>) + ?Sized>(
        &mut self,
        client: Side,
        next: ConnState,
        ctx: &mut Ctx<'_, F>,
    ) {
        ctx.held_open = None;
        let open = self.open_event(client);
        ctx.emit(open);
        self.state = next;
    }

    /// Before stream events may flow: hold `Open` back if the roles are still a guess.
    fn prepare<F: FnMut(FlowEvent<'_>) + ?Sized>(&self, ctx: &mut Ctx<'_, F>) {
        ctx.conn = self.id;
        ctx.held_open = match self.state {
            ConnState::Midstream { guess_client } => Some(self.open_event(guess_client)),
            _ => None,
        };
    }

    /// After stream events: if the held `Open` went out, the guess became the announced roles.
    fn adopt_held_open<F: FnMut(FlowEvent<'_>) + ?Sized>(&mut self, ctx: &mut Ctx<'_, F>) {
        if let ConnState::Midstream { guess_client } = self.state {
            if ctx.held_open.is_none() {
                ctx.stats.roles_guessed = ctx.stats.roles_guessed.saturating_add(1);
                self.state = ConnState::Established { client: guess_client };
            }
        }
        ctx.held_open = None;
    }

    /// One segment sent by `side`. The one transition function of this state machine: SYNs may announce
    /// roles or signal reuse, a payload may decide midstream roles, the ACK may reveal gaps in the other
    /// direction, then RST ends everything or the segment's data and FIN go to its stream.
    pub(crate) fn feed<F: FnMut(FlowEvent<'_>) + ?Sized>(
        &mut self,
        seg: &TcpSegment<'_>,
        side: Side,
        ctx: &mut Ctx<'_, F>,
    ) -> Verdict {
        ctx.conn = self.id;
        ctx.held_open = None;
        self.last_frame = seg.frame;
        // RFC 9293 §3.1: the receiver discards a damaged segment before reading anything in it.
        ctx.dir = self.dir_of(side);
        if self.stream_mut(side).screen(seg, ctx) {
            return Verdict::Alive;
        }

        if seg.flags.syn && self.on_syn(seg, side, ctx) {
            return Verdict::Reused;
        }
        if let ConnState::Midstream { .. } = self.state {
            // Any payload seen before the roles are announced may decide them.
            let client = match speaker(seg.payload) {
                Some(Speaker::Client) => Some(side),
                Some(Speaker::Server) => Some(side.other()),
                None => None,
            };
            if let Some(client) = client {
                if seg.frame != self.first_frame && client != port_guess(&self.key) {
                    ctx.stats.roles_unroutable = ctx.stats.roles_unroutable.saturating_add(1);
                }
                self.announce(client, ConnState::Established { client }, ctx);
            }
        }
        if !seg.flags.syn {
            // Midstream pickup: the first sequence number seen is this direction's base.
            self.stream_mut(side).sync(seg.seq);
        }

        self.prepare(ctx);
        if seg.flags.ack {
            // RFC 9293 §3.4: the ACK field is the next sequence number the sender expects from its peer.
            ctx.dir = self.dir_of(side.other());
            self.note_blind_ack(seg, side, ctx);
            self.stream_mut(side.other()).peer_ack(seg.ack, ctx);
        }
        if seg.flags.rst {
            // RFC 9293 §3.5.3: a reset aborts both directions; what is held is flushed first. The sender's
            // direction ends first: the reset is its doing (who closed a stream is read from the first end).
            self.terminate_streams(EndReason::Rst, side, ctx);
            self.adopt_held_open(ctx);
            return self.close(ctx);
        }
        ctx.dir = self.dir_of(side);
        let (frame, ts) = (seg.frame, seg.ts);
        self.stream_mut(side).segment(
            seg.seq,
            seg.flags.syn,
            seg.flags.fin,
            seg.payload,
            seg.missing,
            frame,
            ts,
            ctx,
        );
        self.adopt_held_open(ctx);

        if self.a.is_ended() && self.b.is_ended() {
            return self.close(ctx);
        }
        let any_ended = self.a.is_ended() || self.b.is_ended();
        self.state = match self.state {
            ConnState::SynSent { client }
            | ConnState::SynReceived { client }
            | ConnState::Established { client }
            | ConnState::Closing { client }
                if any_ended =>
            {
                ConnState::Closing { client }
            }
            // The handshake is over once a segment without SYN flows.
            ConnState::SynSent { client } | ConnState::SynReceived { client } if !seg.flags.syn => {
                ConnState::Established { client }
            }
            other => other,
        };
        Verdict::Alive
    }

    /// A SYN or SYN-ACK from `side`. Returns `true` if it opens a new connection on this 4-tuple.
    fn on_syn<F: FnMut(FlowEvent<'_>) + ?Sized>(
        &mut self,
        seg: &TcpSegment<'_>,
        side: Side,
        ctx: &mut Ctx<'_, F>,
    ) -> bool {
        if self.isns.get(side) == Some(seg.seq) {
            // RFC 9293 §3.8.1 / §3.5: a SYN with the ISN we already know is a retransmission or an old
            // duplicate, even after a FIN: nothing new, and certainly not a new connection.
            return false;
        }
        if let ConnState::Closing { .. } | ConnState::Closed = self.state {
            // RFC 9293 §3.6 / RFC 6191: a new SYN after the close is a new incarnation of the connection.
            return true;
        }
        let synack = seg.flags.ack;
        // RFC 9293 §3.4: the SYN occupies the ISN; data starts at ISN+1.
        let data_base = seg.seq.wrapping_add(1);
        if let Some(base) = self.stream(side).base() {
            // A base from a midstream pickup that happens to match is the same stream; another ISN is a
            // new connection.
            return base != data_base;
        }
        self.stream_mut(side).sync(data_base);
        self.isns.set(side, seg.seq);
        if synack {
            // The SYN-ACK acknowledges the client's ISN: the client's data starts at its ACK number.
            self.stream_mut(side.other()).sync(seg.ack);
            if self.isns.get(side.other()).is_none() {
                self.isns.set(side.other(), seg.ack.wrapping_sub(1));
            }
        }
        let client = if synack { side.other() } else { side };
        match self.state {
            ConnState::Midstream { .. } => {
                let next =
                    if synack { ConnState::SynReceived { client } } else { ConnState::SynSent { client } };
                self.announce(client, next, ctx);
            }
            ConnState::SynSent { client: c } if synack && side != c => {
                self.state = ConnState::SynReceived { client: c };
            }
            // Simultaneous open (§3.5) or a late SYN-ACK: the announced roles stand.
            _ => {}
        }
        false
    }

    /// The ISNs seen in SYNs, kept after the connection closes (TIME-WAIT) to recognise retransmissions.
    pub(crate) fn isns(&self) -> Isns {
        self.isns
    }

    /// Ends both directions, client-to-server first.
    fn terminate_streams<F: FnMut(FlowEvent<'_>) + ?Sized>(
        &mut self,
        reason: EndReason,
        first: Side,
        ctx: &mut Ctx<'_, F>,
    ) {
        for side in [first, first.other()] {
            ctx.dir = self.dir_of(side);
            self.stream_mut(side).terminate(reason, ctx);
        }
    }

    fn close<F: FnMut(FlowEvent<'_>) + ?Sized>(&mut self, ctx: &mut Ctx<'_, F>) -> Verdict {
        self.state = ConnState::Closed;
        let (conn, ts) = (self.id, ctx.ts);
        ctx.emit(FlowEvent::Close { conn, ts });
        self.release(ctx.budget);
        Verdict::Closed
    }

    /// Ends the connection from outside (idle, eviction, reuse, end of capture): flush, `End` for each
    /// direction still open, `Close`.
    pub(crate) fn terminate<F: FnMut(FlowEvent<'_>) + ?Sized>(
        &mut self,
        reason: EndReason,
        ctx: &mut Ctx<'_, F>,
    ) {
        if let ConnState::Closed = self.state {
            return;
        }
        self.prepare(ctx);
        let client = self.client();
        self.terminate_streams(reason, client, ctx);
        self.adopt_held_open(ctx);
        self.close(ctx);
    }

    /// Returns any held out-of-order bytes to the global budget.
    pub(crate) fn release(&mut self, budget: &mut Budget) {
        self.a.release(budget);
        self.b.release(budget);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;
    use crate::limits::Limits;
    use crate::reassembly::testkit::*;
    use Direction::{ToClient, ToServer};

    /// The connection's current state, through the table.
    fn state_of(rig: &Rig, c: &str, s: &str) -> Option<ConnState> {
        let key = FlowKey::new(addr(c), addr(s));
        let idx = rig.table.index.peek(&key)?;
        rig.table.conns.get(idx).map(|s| s.tcp.state())
    }

    #[test]
    fn conn_three_way_handshake_sets_roles_from_syn_not_ports() {
        // The client uses the lower port here, so a port guess would be wrong.
        let (c, s) = ("10.0.0.1:1025", "10.0.0.2:50000");
        let mut rig = Rig::new();
        rig.send(c, s, "S", 100, 0, b"");
        assert_eq!(state_of(&rig, c, s), Some(ConnState::SynSent { client: Side::A }));
        rig.send(s, c, "SA", 500, 101, b"");
        assert_eq!(state_of(&rig, c, s), Some(ConnState::SynReceived { client: Side::A }));
        rig.send(c, s, "A", 101, 501, b"");
        assert_eq!(state_of(&rig, c, s), Some(ConnState::Established { client: Side::A }));
        rig.send(c, s, "PA", 101, 501, b"GET / HTTP/1.1\r\n\r\n");
        rig.send(s, c, "PA", 501, 119, b"HTTP/1.1 204 No Content\r\n\r\n");
        let ev = rig.take();
        assert_eq!(ev[0], Ev::Open { conn: 0, client: addr(c), server: addr(s) });
        assert!(
            matches!(&ev[1], Ev::Data { dir: ToServer, bytes, frame: 4, .. } if bytes.starts_with(b"GET"))
        );
        assert!(
            matches!(&ev[2], Ev::Data { dir: ToClient, bytes, frame: 5, .. } if bytes.starts_with(b"HTTP"))
        );
        assert_eq!(ev.len(), 3);
        let st = rig.table.stats();
        assert_eq!((st.connections, st.midstream_pickups, st.roles_guessed), (1, 0, 0));
    }

    #[test]
    fn conn_open_is_emitted_at_the_syn() {
        let mut rig = Rig::new();
        rig.send(C, S, "S", 100, 0, b"");
        assert_eq!(rig.take(), vec![Ev::Open { conn: 0, client: addr(C), server: addr(S) }]);
    }

    #[test]
    fn conn_synack_first_makes_its_sender_the_server_and_bases_the_client_on_its_ack() {
        let mut rig = Rig::new();
        rig.send(S, C, "SA", 500, 101, b"");
        rig.send(C, S, "PA", 101, 501, b"POST /mcp HTTP/1.1\r\n");
        assert_eq!(rig.text(0, ToServer), "POST /mcp HTTP/1.1\r\n");
        let ev = rig.take();
        assert_eq!(ev[0], Ev::Open { conn: 0, client: addr(C), server: addr(S) });
        assert_eq!(rig.table.stats().midstream_pickups, 0);
    }

    #[test]
    fn conn_midstream_status_line_makes_its_sender_the_server() {
        // First packet: a pure ACK from the low-port side; the port guess would make the high port
        // (50000) the client. Then the high-port side sends a status line: it is the server.
        let (low, high) = ("10.0.0.1:1025", "10.0.0.2:50000");
        let mut rig = Rig::new();
        rig.send(low, high, "A", 7000, 9000, b"");
        assert!(rig.take().is_empty(), "Open is held until the roles are known");
        assert!(matches!(state_of(&rig, low, high), Some(ConnState::Midstream { guess_client: Side::B })));
        rig.send(high, low, "PA", 9000, 7000, b"HTTP/1.1 200 OK\r\n\r\n");
        let ev = rig.take();
        assert_eq!(ev[0], Ev::Open { conn: 0, client: addr(low), server: addr(high) });
        assert!(matches!(&ev[1], Ev::Data { dir: ToClient, .. }));
        let st = rig.table.stats();
        assert_eq!((st.midstream_pickups, st.roles_guessed), (1, 0));
    }

    #[test]
    fn conn_midstream_request_line_makes_its_sender_the_client() {
        let mut rig = Rig::new();
        // The server port is the higher one: the guess is wrong, the request line fixes it.
        let (cl, sv) = ("10.0.0.1:8080", "10.0.0.2:9090");
        rig.send(cl, sv, "PA", 1, 1, b"DELETE /mcp HTTP/1.1\r\n\r\n");
        assert_eq!(rig.take()[0], Ev::Open { conn: 0, client: addr(cl), server: addr(sv) });
        // Decided by the connection's first packet: `--threads` routes it alike.
        assert_eq!(rig.table.stats().roles_unroutable, 0);
    }

    #[test]
    fn conn_midstream_later_payload_decides_while_open_is_held() {
        let mut rig = Rig::new();
        let (cl, sv) = ("10.0.0.1:8080", "10.0.0.2:9090");
        // A pure ACK fixes the server side's base; then out-of-order, inconclusive payload from it: held,
        // nothing delivered, no Open. The port guess (higher port = client) would pick the server.
        rig.send(sv, cl, "A", 1000, 1, b"");
        rig.send(sv, cl, "PA", 1010, 1, b"body bytes");
        assert!(rig.take().is_empty());
        // The client's request decides before anything was delivered.
        rig.send(cl, sv, "PA", 1, 1000, b"GET /sse HTTP/1.1\r\n\r\n");
        let ev = rig.take();
        assert_eq!(ev[0], Ev::Open { conn: 0, client: addr(cl), server: addr(sv) });
        assert_eq!(rig.table.stats().roles_guessed, 0);
        // Against the port guess, after the first packet: counted for `--threads` (shard::route).
        assert_eq!(rig.table.stats().roles_unroutable, 1);
    }

    #[test]
    fn conn_midstream_inconclusive_payload_uses_the_port_guess() {
        let mut rig = Rig::new();
        rig.send(S, C, "PA", 1, 1, b"data: {}\n\n");
        let ev = rig.take();
        assert_eq!(ev[0], Ev::Open { conn: 0, client: addr(C), server: addr(S) });
        assert!(matches!(&ev[1], Ev::Data { dir: ToClient, .. }));
        assert_eq!(rig.table.stats().roles_guessed, 1);
    }

    fn fin_close(client_first: bool) -> Vec<Ev> {
        let mut rig = Rig::new();
        rig.handshake();
        rig.send(C, S, "PA", 101, 501, b"GET / HTTP/1.1\r\n\r\n");
        rig.send(S, C, "PA", 501, 120, b"HTTP/1.1 200 OK\r\n\r\nhi");
        if client_first {
            rig.send(C, S, "FA", 120, 523, b"");
            assert_eq!(rig.table.open_connections(), 1);
            rig.send(S, C, "FA", 523, 121, b"");
        } else {
            rig.send(S, C, "FA", 523, 120, b"");
            assert_eq!(rig.table.open_connections(), 1);
            rig.send(C, S, "FA", 120, 524, b"");
        }
        assert_eq!(rig.table.open_connections(), 0, "both ended: released at once");
        rig.send(C, S, "A", 121, 524, b""); // final ACK: TIME-WAIT, no new connection
        assert_eq!(rig.table.stats().connections, 1);
        let ev = rig.take();
        check_contract(&ev, true).unwrap();
        ev.into_iter().filter(|e| matches!(e, Ev::End { .. } | Ev::Close { .. })).collect()
    }

    #[test]
    fn conn_fin_client_first_then_server() {
        let ends = fin_close(true);
        assert!(matches!(ends[0], Ev::End { dir: ToServer, reason: EndReason::Fin, .. }));
        assert!(matches!(ends[1], Ev::End { dir: ToClient, reason: EndReason::Fin, .. }));
        assert_eq!(ends[2], Ev::Close { conn: 0 });
    }

    #[test]
    fn conn_fin_server_first_then_client() {
        let ends = fin_close(false);
        assert!(matches!(ends[0], Ev::End { dir: ToClient, reason: EndReason::Fin, .. }));
        assert!(matches!(ends[1], Ev::End { dir: ToServer, reason: EndReason::Fin, .. }));
        assert_eq!(ends[2], Ev::Close { conn: 0 });
    }

    #[test]
    fn conn_rst_midstream_flushes_both_directions_then_closes() {
        let mut rig = Rig::new();
        rig.handshake();
        rig.send(C, S, "PA", 101, 501, b"abc");
        rig.send(C, S, "PA", 106, 501, b"fg"); // held behind a 2-byte hole
        rig.send(S, C, "PA", 501, 104, b"xyz");
        rig.send(S, C, "RA", 504, 104, b"");
        assert_eq!(rig.text(0, ToServer), "abc##fg|");
        assert_eq!(rig.text(0, ToClient), "xyz|");
        let ev = rig.take();
        check_contract(&ev, true).unwrap();
        let ends: Vec<&Ev> = ev.iter().filter(|e| matches!(e, Ev::End { .. })).collect();
        assert!(ends.iter().all(|e| matches!(e, Ev::End { reason: EndReason::Rst, .. })));
        // The server sent the reset: its direction ends first.
        assert!(matches!(ends[..], [Ev::End { dir: ToClient, .. }, Ev::End { dir: ToServer, .. }]), "{ends:?}");
        assert_eq!(ev.last(), Some(&Ev::Close { conn: 0 }));
        assert_eq!(rig.table.open_connections(), 0);
        assert_eq!(rig.table.held_bytes(), 0);
        // Data still in flight after the reset: swallowed (TIME-WAIT), no phantom connection.
        rig.send(C, S, "PA", 108, 504, b"late");
        assert!(rig.take().is_empty());
        assert_eq!(rig.table.stats().connections, 1);
    }

    #[test]
    fn conn_rst_in_syn_sent_is_a_refused_connection() {
        let mut rig = Rig::new();
        rig.send(C, S, "S", 100, 0, b"");
        rig.send(S, C, "RA", 0, 101, b"");
        let ev = rig.take();
        check_contract(&ev, true).unwrap();
        assert_eq!(ev.len(), 4);
    }

    #[test]
    fn conn_syn_retransmit_does_not_create_a_connection() {
        let mut rig = Rig::new();
        rig.send(C, S, "S", 100, 0, b"");
        rig.send(C, S, "S", 100, 0, b"");
        rig.send(S, C, "SA", 500, 101, b"");
        rig.send(C, S, "S", 100, 0, b"");
        rig.send(S, C, "SA", 500, 101, b"");
        rig.send(C, S, "PA", 101, 501, b"GET");
        assert_eq!(rig.text(0, ToServer), "GET");
        let ev = rig.take();
        assert_eq!(ev.iter().filter(|e| matches!(e, Ev::Open { .. })).count(), 1);
        assert_eq!(rig.table.stats().connections, 1);
    }

    #[test]
    fn conn_reused_tuple_after_close_gets_a_new_conn_id() {
        let mut rig = Rig::new();
        rig.handshake();
        rig.send(C, S, "FA", 101, 501, b"");
        rig.send(S, C, "FA", 501, 102, b"");
        rig.send(C, S, "A", 102, 502, b"");
        rig.send(C, S, "S", 90_000, 0, b""); // TIME-WAIT reuse with a new ISN
        rig.send(S, C, "SA", 7_000, 90_001, b"");
        rig.send(C, S, "PA", 90_001, 7_001, b"again");
        assert_eq!(rig.text(1, ToServer), "again");
        let ev = rig.take();
        check_contract(&ev, false).unwrap();
        assert_eq!(ev.iter().filter(|e| matches!(e, Ev::Open { .. })).count(), 2);
        assert_eq!(rig.table.stats().connections, 2);
    }

    #[test]
    fn conn_new_isn_on_an_open_tuple_ends_the_old_connection_as_reused() {
        let mut rig = Rig::new();
        rig.handshake();
        rig.send(C, S, "PA", 101, 501, b"abc");
        rig.send(C, S, "S", 3_000_000, 0, b"");
        let ev = rig.take();
        check_contract(&ev, false).unwrap();
        let tail: Vec<&Ev> = ev.iter().skip_while(|e| !matches!(e, Ev::End { .. })).collect();
        assert!(matches!(tail[0], Ev::End { conn: 0, dir: ToServer, reason: EndReason::Reused, .. }));
        assert!(matches!(tail[1], Ev::End { conn: 0, dir: ToClient, reason: EndReason::Reused, .. }));
        assert_eq!(tail[2], &Ev::Close { conn: 0 });
        assert_eq!(tail[3], &Ev::Open { conn: 1, client: addr(C), server: addr(S) });
        assert_eq!(rig.table.open_connections(), 1);
        // The same roles: `--threads` routes the new connection where the old one was.
        assert_eq!(rig.table.stats().roles_unroutable, 0);
    }

    #[test]
    fn conn_syn_from_the_server_side_taking_over_a_live_tuple_is_counted_unroutable() {
        let mut rig = Rig::new();
        rig.handshake();
        rig.send(C, S, "PA", 101, 501, b"abc");
        // The old server opens a connection to the old client's port: a new connection, roles reversed.
        rig.send(S, C, "S", 4_000_000, 0, b"");
        let ev = rig.take();
        assert!(ev.iter().any(|e| matches!(e, Ev::End { conn: 0, reason: EndReason::Reused, .. })));
        assert!(ev.contains(&Ev::Open { conn: 1, client: addr(S), server: addr(C) }));
        assert_eq!(rig.table.stats().roles_unroutable, 1);
    }

    #[test]
    fn conn_syn_after_one_direction_ended_is_a_new_connection() {
        let mut rig = Rig::new();
        rig.handshake();
        rig.send(C, S, "FA", 101, 501, b"");
        assert!(matches!(state_of(&rig, C, S), Some(ConnState::Closing { .. })));
        rig.send(C, S, "S", 100, 0, b""); // the old ISN: a duplicate of the first SYN, ignored
        rig.send(S, C, "SA", 500, 101, b""); // the old ISN too
        assert!(!rig.take().iter().any(|e| matches!(e, Ev::End { reason: EndReason::Reused, .. })));
        rig.send(C, S, "S", 77_777, 0, b""); // a new ISN: a new connection
        let ev = rig.take();
        assert!(ev
            .iter()
            .any(|e| matches!(e, Ev::End { conn: 0, dir: ToClient, reason: EndReason::Reused, .. })));
        assert!(ev.iter().any(|e| matches!(e, Ev::Open { conn: 1, .. })));
    }

    #[test]
    fn conn_peer_ack_reveals_a_gap_in_the_other_direction() {
        let mut rig = Rig::new();
        rig.handshake();
        rig.send(C, S, "PA", 101, 501, b"abc");
        rig.send(S, C, "A", 501, 110, b""); // server has 9 bytes; the capture saw 3
        assert_eq!(rig.text(0, ToServer), "abc######");
        rig.send(C, S, "PA", 104, 501, b"defghi"); // the lost bytes show up late: already a gap
        assert_eq!(rig.text(0, ToServer), "abc######");
        assert_eq!(rig.table.stats().missed_bytes, 6);
    }

    #[test]
    fn conn_keepalives_produce_no_events() {
        let mut rig = Rig::new();
        rig.handshake();
        rig.send(C, S, "PA", 101, 501, b"abc");
        rig.take();
        rig.send(C, S, "A", 103, 501, b"\0"); // 1-byte keep-alive at next-1
        rig.send(C, S, "A", 103, 501, b""); // 0-byte keep-alive
        rig.send(S, C, "A", 501, 104, b""); // its ACK
        assert!(rig.take().is_empty());
        let st = rig.table.stats();
        assert_eq!((st.gaps, st.retransmitted_bytes), (0, 0));
    }

    #[test]
    fn conn_snap_truncated_segment_gives_data_then_gap() {
        let mut rig = Rig::new();
        rig.handshake();
        rig.send_cut(C, S, "PA", 101, 501, b"POST", 96);
        rig.send(C, S, "PA", 201, 501, b"next");
        assert_eq!(rig.text(0, ToServer), format!("POST{}next", "#".repeat(96)));
        assert_eq!(rig.table.stats().missed_bytes, 96);
    }

    #[test]
    fn conn_idle_and_finish_end_pending_fin_as_fin() {
        let mut rig = Rig::with(&Limits::default());
        rig.handshake();
        rig.send(C, S, "FPA", 105, 501, b"tail"); // FIN after a 4-byte hole
        rig.finish();
        assert_eq!(rig.text(0, ToServer), "####tail|");
        let ev = rig.take();
        assert!(ev.iter().any(|e| matches!(e, Ev::End { dir: ToServer, reason: EndReason::Fin, .. })));
        assert!(ev
            .iter()
            .any(|e| matches!(e, Ev::End { dir: ToClient, reason: EndReason::EndOfCapture, .. })));
    }
}
