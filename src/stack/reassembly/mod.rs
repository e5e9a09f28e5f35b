//! TCP reassembly: turns segments of both directions into ordered byte streams per connection, with gaps
//! and ends made explicit (`FlowEvent`). Knows nothing of HTTP.
//!
//! This file owns the `FlowTable`: the map from 4-tuple to connection, `ConnId` allocation, idle expiry,
//! eviction at `Limits::max_connections`, the TIME-WAIT memory of closed 4-tuples and the deterministic
//! flush at the end of the capture. `connection.rs` owns one connection's lifecycle (roles, handshake,
//! RST, reuse), `stream.rs` one direction's bytes (RFC 9293 §3.4 sequence space, out-of-order store,
//! overlap policy, gaps, FIN), `assembler.rs` the received-range bookkeeping, `lru.rs` the recency list.
//!
//! # Event order (what the HTTP layer may rely on)
//! For every connection, in this order:
//! 1. exactly one `Open`, before any other event of that connection (`ConnId`s are numbered in order of
//!    first appearance, but a midstream pickup's `Open` is held until its roles are known, so `Open`s of
//!    different connections are not necessarily in `ConnId` order);
//! 2. per direction, `Data` and `Gap` in stream order: consecutive events of one direction cover
//!    consecutive byte ranges with nothing skipped silently (a missing range is a `Gap` of exactly its
//!    length), each byte delivered at most once;
//! 3. per direction, exactly one `End`, after all of that direction's `Data`/`Gap`;
//! 4. exactly one `Close`, last, once both directions have ended; the connection is then forgotten.
//!
//! Events of the two directions interleave in packet order. Within one packet the ACK is looked at first
//! (gaps it reveals in the other direction), then the packet's own data. When the table ends a connection
//! itself (RST, idle, eviction, reuse, end of capture) the client-to-server direction is flushed and ended
//! first. `Data` carries the frame number and timestamp of the packet that brought those bytes (held
//! out-of-order bytes keep their own packet's); `Gap`/`End` carry the packet or moment that declared them.
//!
//! # Policies
//! - Overlaps: first data wins (see `stream.rs` for the text and the reason).
//! - Gaps: declared on out-of-order budget exhaustion, on an ACK for bytes the capture never showed, on
//!   RST/idle/eviction/reuse/end of capture with a hole open, and for snap-length-cut payload.
//! - Roles: SYN sender is the client; SYN-ACK sender the server; midstream pickups decide from the first
//!   payload (request line vs status line), else guess the higher port is the client (`roles_guessed`).
//! - Closed 4-tuples (both directions ended by FIN or RST) are remembered for a TIME-WAIT period
//!   (RFC 9293 §3.6: 2 MSL; we use Linux's 60 s, or `conn_idle_secs` if shorter) so that the final ACK
//!   or a stray retransmission does not open a phantom midstream connection; a SYN with a new ISN starts
//!   a new one at once. A lone RST for an unknown 4-tuple opens nothing either.
//! - Expiry and eviction use a recency list: `expire` costs O(1) plus O(1) per connection it closes, and
//!   idle connections leave in least-recently-active order. Time is capture time only.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;

use crate::decode::flow_key::{Direction, FlowIndex, FlowKey};
use crate::decode::TcpSegment;
use crate::keyed::WireMap;
use crate::limits::Limits;
use crate::time::{Duration, Timestamp};

mod assembler;
mod connection;
mod lru;
mod stream;
mod trust;

pub use connection::{guess_server, speaker_is_client};
use connection::{Connection, Isns, Side, Verdict};
use lru::Lru;
use stream::{Budget, Ctx};

/// A connection's identity for its whole life; a new connection on a reused 4-tuple gets a new id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

/// A map keyed by [`ConnId`], hashed by [`ConnIdHasher`]: the per-packet and per-HTTP-event lookups of the
/// later stages (HTTP state, MCP connection views) cost a SipHash each with the std hasher.
pub type ConnMap<V> = HashMap<ConnId, V, std::hash::BuildHasherDefault<ConnIdHasher>>;

/// Hasher for [`ConnId`]s. Ids are a counter the flow table assigns, never a value from the wire, so a
/// keyless hash cannot be steered into collisions by traffic (the 4-tuple index keeps the keyed SipHash).
/// Multiplying by an odd constant (Knuth's multiplicative hashing, 2^64 / golden ratio) is a bijection
/// on the low bits hashbrown uses for the bucket and spreads the top bits it uses for its control bytes.
#[derive(Debug, Default, Clone, Copy)]
pub struct ConnIdHasher(u64);

impl std::hash::Hasher for ConnIdHasher {
    fn write(&mut self, bytes: &[u8]) {
        // Only reached if ConnId's Hash ever stops being a single u64; kept correct, not fast.
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

/// Why a stream direction ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndReason {
    Fin,
    Rst,
    /// No packet for `Limits::conn_idle_secs` of capture time.
    Idle,
    /// Evicted to stay within `Limits::max_connections`.
    Evicted,
    /// The capture ended with the stream still open.
    EndOfCapture,
    /// A SYN opened a new connection on the same 4-tuple while this one was still open (TIME-WAIT reuse,
    /// or a close the capture missed).
    Reused,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Fin => "fin",
            EndReason::Rst => "rst",
            EndReason::Idle => "idle",
            EndReason::Evicted => "evicted",
            EndReason::EndOfCapture => "end-of-capture",
            EndReason::Reused => "reused",
        }
    }
}

/// What reassembly hands to the HTTP layer, in stream order per direction.
#[derive(Debug, Clone, Copy)]
pub enum FlowEvent<'a> {
    /// A new connection; `client` is the SYN sender, or a heuristic guess for a midstream pickup
    /// (`midstream`: the capture did not see it begin, so what passed on it before is unknown).
    Open { conn: ConnId, client: SocketAddr, server: SocketAddr, midstream: bool, frame: u64, ts: Timestamp },
    /// In-order bytes; `frame`/`ts` are those of the packet that carried them.
    Data { conn: ConnId, dir: Direction, bytes: &'a [u8], frame: u64, ts: Timestamp },
    /// `len` bytes at this point of the stream were never seen (loss, snap length, cap hit); `cut`: the
    /// snap length cut them from records the capture holds (loss is unknown packets, a cut is known ones).
    Gap { conn: ConnId, dir: Direction, len: u64, cut: bool, frame: u64, ts: Timestamp },
    /// No more bytes will come in this direction.
    End { conn: ConnId, dir: Direction, reason: EndReason, frame: u64, ts: Timestamp },
    /// Bytes of `dir` the capture saw were still unacknowledged [`UNACKED_SECS`] after the connection's
    /// last packet: the capture lost the peer's packets (and likely more of the connection), so what it
    /// does not show from then on may be the capture's loss. Once per silence of the connection.
    Unacked { conn: ConnId, dir: Direction, frame: u64, ts: Timestamp },
    /// Both directions ended; the connection's state is released.
    Close { conn: ConnId, ts: Timestamp },
}

/// Seconds of capture time after a connection's last packet at which bytes the peer never acknowledged
/// are declared lost sight of (`FlowEvent::Unacked`): far beyond any delayed ACK (at most 0.5 s, RFC 9293
/// §3.8.6.3) and round trip, and well below the 60 s a request must wait to be called stalled.
pub const UNACKED_SECS: i64 = 10;

/// Counters for the summary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReassemblyStats {
    pub connections: u64,
    pub midstream_pickups: u64,
    pub gaps: u64,
    pub missed_bytes: u64,
    pub retransmitted_bytes: u64,
    /// Data segments carrying no byte that had not been seen already (Wireshark's "TCP Retransmission").
    pub retransmitted_segments: u64,
    /// Data segments that started beyond every byte seen so far in their direction, i.e. with a hole
    /// before them (Wireshark's "TCP Out-Of-Order" or "Previous segment not captured").
    pub out_of_order_segments: u64,
    pub overlap_conflicts: u64,
    pub ooo_cap_hits: u64,
    pub connection_cap_hits: u64,
    /// `FlowEvent::Unacked` declared: connections that fell silent with seen bytes never acknowledged.
    pub unacked_silences: u64,
    /// Connections whose handshake the capture saw but whose server it never saw send a packet while the
    /// client acknowledged its bytes (also declared `FlowEvent::Unacked`, toward the client).
    pub one_way_connections: u64,
    /// Segments carrying payload that came for a 4-tuple in TIME-WAIT (its connection closed) and were
    /// not analysed: late copies (a capture of several interfaces written per interface, a mirror that
    /// also sees what it copies) or data a peer sent after a reset. Counted, so nothing goes unsaid.
    pub after_close_segments: u64,
    pub after_close_bytes: u64,
    /// Midstream pickups announced with the port guess (no SYN, no payload that revealed the roles).
    pub roles_guessed: u64,
    /// Connections whose roles `--threads N` cannot route as one thread decides them (`shard::route`):
    /// midstream pickups whose roles a request or status line decided against the port guess after the
    /// first packet, and live 4-tuples taken over by a SYN from the other side. Not in the summary; the
    /// differential fuzz target skips such inputs.
    pub roles_unroutable: u64,
    /// Segments with a wrong TCP checksum in a direction whose checksums had held (`trust.rs`): set
    /// aside, never read unless their receiver acknowledged them or their stream ended first.
    pub damaged_segments: u64,
    /// Of those, the ones taken after all: their receiver acknowledged them, or the out-of-order budget
    /// could not hold them.
    pub damaged_taken: u64,
    /// Of those, the ones still aside when their stream ended (no valid copy came): their bytes a gap.
    pub damaged_lost: u64,
}

/// RFC 9293 §3.6 keeps a closed connection in TIME-WAIT for 2 MSL; Linux uses 60 s (`TCP_TIMEWAIT_LEN`).
const TIME_WAIT_SECS: i64 = 60;

fn secs(s: i64) -> Duration {
    Duration(s.max(0).saturating_mul(1_000_000_000))
}

/// Every TCP connection of the capture, both directions reassembled. See the module header for the event
/// order it guarantees.
///
/// `A` is what the layers above keep per connection (`stack::Layers`): it lives in the same slot as the
/// TCP state, from the connection's first packet to its `Close`, and every event of the connection is
/// handed over with it, so no later stage keeps a map of its own keyed by connection (Zeek's
/// `Connection` owning its analyzer tree, Suricata's `Flow` its app-layer state).
#[derive(Debug)]
pub struct FlowTable<A = ()> {
    max_connections: usize,
    idle: Duration,
    time_wait: Duration,
    /// 4-tuple -> slot in `conns`.
    index: FlowIndex,
    /// Live connections with their upper layers' state, least recently active first.
    conns: Lru<Slot<A>>,
    /// Recently closed 4-tuples (TIME-WAIT) -> (generation, their ISNs), and the expiry queue in closing
    /// order.
    closed: WireMap<FlowKey, (u64, Isns)>,
    closed_queue: VecDeque<(Timestamp, FlowKey, u64)>,
    closed_gen: u64,
    /// Unacknowledged-data checks: (due, slot, connection), at most one per live connection
    /// (`Connection::unacked_check`). Due times are pushed in nearly increasing order; one re-queued after
    /// activity may be checked up to `UNACKED_SECS` late, which only delays the notice.
    unacked_queue: VecDeque<(Timestamp, usize, ConnId)>,
    next_id: u64,
    /// Capture time: the latest packet timestamp seen (never goes back, even if the capture does).
    clock: Timestamp,
    budget: Budget,
    stats: ReassemblyStats,
    /// `Limits::checksums`, for each new connection's streams.
    checksums: crate::decode::ChecksumPolicy,
}

/// One live connection: its TCP state and its upper layers' (`A`).
#[derive(Debug)]
struct Slot<A> {
    tcp: Connection,
    app: A,
}

impl FlowTable<()> {
    /// TCP alone (tests and tools): events without upper-layer state.
    pub fn feed<F: FnMut(FlowEvent<'_>)>(&mut self, seg: &TcpSegment<'_>, out: &mut F) {
        self.feed_with(seg, &mut |ev, _| out(ev));
    }

    pub fn expire<F: FnMut(FlowEvent<'_>)>(&mut self, now: Timestamp, out: &mut F) {
        self.expire_with(now, &mut |ev, _| out(ev));
    }

    pub fn finish<F: FnMut(FlowEvent<'_>)>(&mut self, now: Timestamp, out: &mut F) {
        self.finish_with(now, &mut |ev, _| out(ev));
    }
}

impl<A: Default> FlowTable<A> {
    pub fn new(limits: &Limits) -> Self {
        let idle = secs(limits.conn_idle_secs);
        FlowTable {
            max_connections: limits.max_connections.max(1),
            idle,
            time_wait: secs(TIME_WAIT_SECS).min(idle),
            index: FlowIndex::default(),
            conns: Lru::new(),
            closed: WireMap::default(),
            closed_queue: VecDeque::new(),
            closed_gen: 0,
            unacked_queue: VecDeque::new(),
            next_id: 0,
            clock: Timestamp::ZERO,
            budget: Budget::new(limits.max_ooo_bytes_total, limits.max_ooo_bytes_per_stream),
            stats: ReassemblyStats::default(),
            checksums: limits.checksums,
        }
    }

    pub fn stats(&self) -> &ReassemblyStats {
        &self.stats
    }

    pub fn open_connections(&self) -> usize {
        self.conns.len()
    }

    /// Out-of-order bytes held across all connections (payload plus per-piece overhead).
    pub fn held_bytes(&self) -> usize {
        self.budget.used
    }

    /// Capture time reached `now` (a packet of any kind, of any connection: the caller's clock). A
    /// connection's activity is stamped with this clock, not only with its own segments' times, so that
    /// a table fed a subset of the packets (a `--threads` worker) stamps as one fed all of them.
    pub fn observe(&mut self, now: Timestamp) {
        self.clock = self.clock.max(now);
    }

    /// The upper layers' state of every live connection, with its id, in slab order (callers sort when
    /// order matters).
    pub fn apps_mut(&mut self) -> impl Iterator<Item = (ConnId, &mut A)> {
        self.conns.iter_mut().map(|(_, s)| (s.tcp.id, &mut s.app))
    }

    /// One TCP segment; its events go to `out` with the connection's upper-layer state (created with
    /// `A::default()` at the connection's first packet). Per packet: one hash lookup and O(1) list
    /// update; in-order data is handed on as a slice of `seg.payload` without copying or allocating.
    pub fn feed_with<F: FnMut(FlowEvent<'_>, &mut A)>(&mut self, seg: &TcpSegment<'_>, out: &mut F) {
        self.clock = self.clock.max(seg.ts);
        let key = FlowKey::new(seg.src, seg.dst);
        let side = Side::of(&key, seg.src);

        if let Some(idx) = self.index.get(&key) {
            let verdict = match self.conns.get_mut(idx) {
                Some(Slot { tcp: conn, app }) => {
                    conn.last_seen = self.clock;
                    let mut out = |ev: FlowEvent<'_>| out(ev, app);
                    let mut ctx = Ctx::new(&mut self.stats, &mut self.budget, &mut out, seg.frame, seg.ts);
                    conn.feed(seg, side, &mut ctx)
                }
                None => {
                    // Unreachable while index and slab agree; recover by forgetting the stale entry.
                    self.index.remove(&key);
                    Verdict::Reused
                }
            };
            match verdict {
                Verdict::Alive => {
                    self.conns.touch(idx);
                    self.queue_unacked_check(idx);
                    return;
                }
                Verdict::Closed => {
                    if let Some(isns) = self.drop_conn(idx) {
                        self.remember_closed(key, isns);
                    }
                    return;
                }
                Verdict::Reused => {
                    let (frame, ts) = (seg.frame, seg.ts);
                    // A SYN with RST ends the old connection and opens none: nothing to route.
                    let moved = seg.handshake_server().is_some_and(|s| self.conns.get(idx).is_some_and(|c| c.tcp.server_addr() != s));
                    if moved {
                        self.stats.roles_unroutable = self.stats.roles_unroutable.saturating_add(1);
                    }
                    self.end_conn(idx, EndReason::Reused, Some(frame), ts, out);
                }
            }
        } else if let Some(&(_, isns)) = self.closed.get(&key) {
            // TIME-WAIT: the last ACK, a retransmitted FIN or SYN, data in flight after a RST. Only a SYN
            // with a new ISN opens a new connection.
            if !seg.flags.syn || isns.get(side) == Some(seg.seq) {
                let len = seg.payload.len() as u64 + u64::from(seg.missing);
                if len > 0 {
                    self.stats.after_close_segments = self.stats.after_close_segments.saturating_add(1);
                    self.stats.after_close_bytes = self.stats.after_close_bytes.saturating_add(len);
                }
                return;
            }
            self.closed.remove(&key);
        }
        self.open_conn(key, side, seg, out);
    }

    fn open_conn<F: FnMut(FlowEvent<'_>, &mut A)>(
        &mut self,
        key: FlowKey,
        side: Side,
        seg: &TcpSegment<'_>,
        out: &mut F,
    ) {
        if seg.flags.rst {
            // A reset for a connection we do not know carries nothing to reassemble.
            return;
        }
        while self.conns.len() >= self.max_connections {
            let Some(oldest) = self.conns.oldest() else {
                break;
            };
            self.stats.connection_cap_hits = self.stats.connection_cap_hits.saturating_add(1);
            self.end_conn(oldest, EndReason::Evicted, None, seg.ts, out);
        }
        let id = ConnId(self.next_id);
        self.next_id = self.next_id.saturating_add(1);
        self.stats.connections = self.stats.connections.saturating_add(1);
        if !seg.flags.syn {
            self.stats.midstream_pickups = self.stats.midstream_pickups.saturating_add(1);
        }
        let mut conn = Connection::new(id, key, seg.frame, seg.ts, self.clock, !seg.flags.syn, self.checksums);
        let mut app = A::default();
        let mut emit = |ev: FlowEvent<'_>| out(ev, &mut app);
        let mut ctx = Ctx::new(&mut self.stats, &mut self.budget, &mut emit, seg.frame, seg.ts);
        let verdict = conn.feed(seg, side, &mut ctx);
        match verdict {
            // A fresh connection has no base to contradict, so it is never `Reused`.
            Verdict::Alive | Verdict::Reused => {
                // ALLOC: slot and index entry per live connection, bounded by limits::max_connections.
                let idx = self.conns.insert(Slot { tcp: conn, app });
                self.index.insert(key, idx);
                self.queue_unacked_check(idx);
            }
            Verdict::Closed => self.remember_closed(key, conn.isns()),
        }
    }

    /// Removes a connection that has already emitted `Close`; returns its ISNs for TIME-WAIT.
    fn drop_conn(&mut self, idx: usize) -> Option<Isns> {
        let Slot { tcp: mut conn, .. } = self.conns.remove(idx)?;
        conn.release(&mut self.budget);
        self.index.remove(&conn.key());
        Some(conn.isns())
    }

    /// Ends a live connection from outside: flush, `End` both ways, `Close`, forget. `frame` defaults to
    /// the connection's last packet.
    fn end_conn<F: FnMut(FlowEvent<'_>, &mut A)>(
        &mut self,
        idx: usize,
        reason: EndReason,
        frame: Option<u64>,
        ts: Timestamp,
        out: &mut F,
    ) {
        let Some(Slot { tcp: mut conn, mut app }) = self.conns.remove(idx) else {
            return;
        };
        self.index.remove(&conn.key());
        let frame = frame.unwrap_or(conn.last_frame);
        let mut out = |ev: FlowEvent<'_>| out(ev, &mut app);
        let mut ctx = Ctx::new(&mut self.stats, &mut self.budget, &mut out, frame, ts);
        conn.terminate(reason, &mut ctx);
        conn.release(&mut self.budget);
    }

    fn remember_closed(&mut self, key: FlowKey, isns: Isns) {
        // Bounded like the live table; the oldest memories go first.
        while self.closed.len() >= self.max_connections
            || self.closed_queue.len() >= self.max_connections.saturating_mul(2)
        {
            let Some((_, k, generation)) = self.closed_queue.pop_front() else {
                break;
            };
            if self.closed.get(&k).map(|e| e.0) == Some(generation) {
                self.closed.remove(&k);
            }
        }
        let generation = self.closed_gen;
        self.closed_gen = self.closed_gen.saturating_add(1);
        // ALLOC: TIME-WAIT entry and queue slot, bounded by limits::max_connections (twice for the queue).
        self.closed.insert(key, (generation, isns));
        self.closed_queue.push_back((self.clock.plus(self.time_wait), key, generation));
    }

    fn queue_unacked_check(&mut self, idx: usize) {
        let Some(Slot { tcp: conn, .. }) = self.conns.get_mut(idx) else { return };
        if !conn.unacked_check {
            conn.unacked_check = true;
            // ALLOC: one queued check per connection packets came for in the last UNACKED_SECS of capture
            // time (a closed connection's entry goes when due).
            self.unacked_queue.push_back((conn.last_seen.plus(secs(UNACKED_SECS)), idx, conn.id));
        }
    }

    /// Due unacknowledged-data checks: a connection silent for `UNACKED_SECS` with seen bytes its peer
    /// never acknowledged gets `Unacked`; one active since is checked again `UNACKED_SECS` after its
    /// latest packet.
    fn check_unacked<F: FnMut(FlowEvent<'_>, &mut A)>(&mut self, now: Timestamp, out: &mut F) {
        let wait = secs(UNACKED_SECS);
        while let Some(&(due, idx, id)) = self.unacked_queue.front() {
            if due > now {
                break;
            }
            self.unacked_queue.pop_front();
            // The slot may hold another connection by now (slots are reused): then the check is stale.
            let Some(Slot { tcp: conn, app }) = self.conns.get_mut(idx).filter(|c| c.tcp.id == id) else { continue };
            conn.unacked_check = false;
            let silent_since = conn.last_seen;
            if now.since(silent_since) < wait {
                self.queue_unacked_check(idx);
                continue;
            }
            if let Some(dir) = conn.unacked() {
                self.stats.unacked_silences = self.stats.unacked_silences.saturating_add(1);
                out(FlowEvent::Unacked { conn: id, dir, frame: conn.last_frame, ts: silent_since.plus(wait) }, app);
            }
        }
    }

    /// Closes connections with no packet for `Limits::conn_idle_secs` of capture time (`End{Idle}` for
    /// each open direction, then `Close`), least recently active first, and forgets TIME-WAIT 4-tuples
    /// whose time is up. Cheap enough to call on every packet: O(1) when nothing expires.
    pub fn expire_with<F: FnMut(FlowEvent<'_>, &mut A)>(&mut self, now: Timestamp, out: &mut F) {
        self.check_unacked(now, out);
        while let Some(&(until, key, generation)) = self.closed_queue.front() {
            if until > now {
                break;
            }
            self.closed_queue.pop_front();
            if self.closed.get(&key).map(|e| e.0) == Some(generation) {
                self.closed.remove(&key);
            }
        }
        while let Some(idx) = self.conns.oldest() {
            let Some(last_seen) = self.conns.get(idx).map(|c| c.tcp.last_seen) else {
                break;
            };
            if now.since(last_seen) < self.idle {
                break;
            }
            // Stamped with the moment the connection became idle, so the output does not depend on how
            // often the driver calls `expire`.
            self.end_conn(idx, EndReason::Idle, None, last_seen.plus(self.idle), out);
        }
    }

    /// End of capture: every open connection, in `ConnId` order, delivers what it holds (holes as gaps),
    /// ends its open directions with `EndOfCapture` (or `Fin` where a FIN was seen) and closes.
    pub fn finish_with<F: FnMut(FlowEvent<'_>, &mut A)>(&mut self, now: Timestamp, out: &mut F) {
        // ALLOC: the flush order, bounded by limits::max_connections.
        let mut order: Vec<(ConnId, usize)> = self.conns.iter().map(|(idx, c)| (c.tcp.id, idx)).collect();
        // Never the slab's or a HashMap's order: output must be the same on every run.
        order.sort_unstable();
        for (_, idx) in order {
            self.end_conn(idx, EndReason::EndOfCapture, None, now, out);
        }
        self.closed.clear();
        self.closed_queue.clear();
        self.unacked_queue.clear();
    }
}

/// Helpers shared by the connection and table tests: build segments, run them through a `FlowTable`, keep
/// owned copies of the events, and check the event-order contract of the module header.
#[cfg(test)]
pub(crate) mod testkit {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;
    use crate::decode::TcpFlags;

    pub(crate) const C: &str = "10.0.0.1:40000";
    pub(crate) const S: &str = "10.0.0.2:80";

    pub(crate) fn addr(s: &str) -> SocketAddr {
        s.parse().unwrap()
    }

    /// Owned copy of a `FlowEvent`.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub(crate) enum Ev {
        Open { conn: u64, client: SocketAddr, server: SocketAddr },
        Data { conn: u64, dir: Direction, bytes: Vec<u8>, frame: u64 },
        Gap { conn: u64, dir: Direction, len: u64 },
        End { conn: u64, dir: Direction, reason: EndReason, ts: Timestamp },
        Unacked { conn: u64, dir: Direction, ts: Timestamp },
        Close { conn: u64 },
    }

    impl Ev {
        pub(crate) fn of(ev: &FlowEvent<'_>) -> Ev {
            match *ev {
                FlowEvent::Open { conn, client, server, .. } => Ev::Open { conn: conn.0, client, server },
                FlowEvent::Data { conn, dir, bytes, frame, .. } => {
                    Ev::Data { conn: conn.0, dir, bytes: bytes.to_vec(), frame }
                }
                FlowEvent::Gap { conn, dir, len, .. } => Ev::Gap { conn: conn.0, dir, len },
                FlowEvent::End { conn, dir, reason, ts, .. } => Ev::End { conn: conn.0, dir, reason, ts },
                FlowEvent::Unacked { conn, dir, ts, .. } => Ev::Unacked { conn: conn.0, dir, ts },
                FlowEvent::Close { conn, .. } => Ev::Close { conn: conn.0 },
            }
        }

        pub(crate) fn conn(&self) -> u64 {
            match *self {
                Ev::Open { conn, .. }
                | Ev::Data { conn, .. }
                | Ev::Gap { conn, .. }
                | Ev::End { conn, .. }
                | Ev::Unacked { conn, .. }
                | Ev::Close { conn } => conn,
            }
        }
    }

    /// Flags from letters: S(YN) A(CK) F(IN) R(ST) P(SH).
    pub(crate) fn flags(s: &str) -> TcpFlags {
        TcpFlags {
            syn: s.contains('S'),
            ack: s.contains('A'),
            fin: s.contains('F'),
            rst: s.contains('R'),
            psh: s.contains('P'),
        }
    }

    pub(crate) struct Rig {
        pub(crate) table: FlowTable,
        pub(crate) events: Vec<Ev>,
        pub(crate) frame: u64,
        /// Capture time of the next packet, in seconds.
        pub(crate) secs: i64,
    }

    impl Rig {
        pub(crate) fn new() -> Self {
            Rig::with(&Limits::default())
        }

        pub(crate) fn with(limits: &Limits) -> Self {
            Rig { table: FlowTable::new(limits), events: Vec::new(), frame: 0, secs: 1_000 }
        }

        pub(crate) fn ts(&self) -> Timestamp {
            Timestamp::from_secs_nanos(self.secs, 0)
        }

        /// One segment; `ack` is used only with the `A` flag.
        pub(crate) fn send(&mut self, src: &str, dst: &str, fl: &str, seq: u32, ack: u32, payload: &[u8]) {
            self.send_cut(src, dst, fl, seq, ack, payload, 0);
        }

        #[allow(clippy::too_many_arguments)]
        pub(crate) fn send_cut(
            &mut self,
            src: &str,
            dst: &str,
            fl: &str,
            seq: u32,
            ack: u32,
            payload: &[u8],
            missing: u32,
        ) {
            self.frame += 1;
            let seg = TcpSegment {
                frame: self.frame,
                ts: self.ts(),
                src: addr(src),
                dst: addr(dst),
                seq,
                ack,
                flags: flags(fl),
                window: 65535,
                payload,
                missing,
                tunnel: None,
                check: Default::default(),
            };
            let events = &mut self.events;
            self.table.feed(&seg, &mut |ev| events.push(Ev::of(&ev)));
        }

        pub(crate) fn expire(&mut self) {
            let now = self.ts();
            let events = &mut self.events;
            self.table.expire(now, &mut |ev| events.push(Ev::of(&ev)));
        }

        pub(crate) fn finish(&mut self) {
            let now = self.ts();
            let events = &mut self.events;
            self.table.finish(now, &mut |ev| events.push(Ev::of(&ev)));
        }

        pub(crate) fn take(&mut self) -> Vec<Ev> {
            std::mem::take(&mut self.events)
        }

        /// A direction's stream as text: data as is, each gap byte as `#`, the end as `|`.
        pub(crate) fn text(&self, conn: u64, dir: Direction) -> String {
            let mut s = String::new();
            for e in &self.events {
                match e {
                    Ev::Data { conn: c, dir: d, bytes, .. } if *c == conn && *d == dir => {
                        s.push_str(&String::from_utf8_lossy(bytes))
                    }
                    Ev::Gap { conn: c, dir: d, len } if *c == conn && *d == dir => {
                        s.push_str(&"#".repeat(*len as usize))
                    }
                    Ev::End { conn: c, dir: d, .. } if *c == conn && *d == dir => s.push('|'),
                    _ => {}
                }
            }
            s
        }

        /// Standard three-way handshake C -> S with ISNs 100 (client) and 500 (server).
        pub(crate) fn handshake(&mut self) {
            self.send(C, S, "S", 100, 0, b"");
            self.send(S, C, "SA", 500, 101, b"");
            self.send(C, S, "A", 101, 501, b"");
        }
    }

    /// The module header's event-order contract, for every connection in `events`: one `Open` first, at
    /// most one `End` per direction with no data after it, `Close` last and only after both `End`s.
    /// `complete` additionally requires every connection to have closed.
    pub(crate) fn check_contract(events: &[Ev], complete: bool) -> Result<(), String> {
        use std::collections::BTreeMap;
        #[derive(Default)]
        struct St {
            opened: bool,
            ended: [bool; 2],
            closed: bool,
        }
        let mut st: BTreeMap<u64, St> = BTreeMap::new();
        for (i, e) in events.iter().enumerate() {
            let s = st.entry(e.conn()).or_default();
            if s.closed {
                return Err(format!("event {i} after Close: {e:?}"));
            }
            match e {
                Ev::Open { .. } => {
                    if s.opened {
                        return Err(format!("second Open at {i}"));
                    }
                    s.opened = true;
                }
                Ev::Data { dir, bytes, .. } => {
                    if !s.opened || s.ended[dir.index()] || bytes.is_empty() {
                        return Err(format!("bad Data at {i}: {e:?}"));
                    }
                }
                Ev::Gap { dir, len, .. } => {
                    if !s.opened || s.ended[dir.index()] || *len == 0 {
                        return Err(format!("bad Gap at {i}: {e:?}"));
                    }
                }
                Ev::Unacked { dir, .. } => {
                    if !s.opened || s.ended[dir.index()] {
                        return Err(format!("bad Unacked at {i}: {e:?}"));
                    }
                }
                Ev::End { dir, .. } => {
                    if !s.opened || s.ended[dir.index()] {
                        return Err(format!("bad End at {i}: {e:?}"));
                    }
                    s.ended[dir.index()] = true;
                }
                Ev::Close { .. } => {
                    if !s.opened || !s.ended[0] || !s.ended[1] {
                        return Err(format!("Close before both Ends at {i}"));
                    }
                    s.closed = true;
                }
            }
        }
        if complete {
            if let Some((c, _)) = st.iter().find(|(_, s)| !s.closed) {
                return Err(format!("connection {c} never closed"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::testkit::*;
    use super::*;
    use crate::decode::TcpFlags;
    use proptest::prelude::*;

    use Direction::{ToClient, ToServer};

    fn limits(f: impl FnOnce(&mut Limits)) -> Limits {
        let mut l = Limits::default();
        f(&mut l);
        l
    }

    #[test]
    fn each_connection_keeps_its_upper_layer_state_from_first_packet_to_close() {
        // The state handed with an event is that event's connection's, whichever way the table reaches
        // it: a packet, a reused 4-tuple, eviction at the cap, idle expiry, the end of the capture.
        let mut table: FlowTable<Vec<u64>> = FlowTable::new(&limits(|l| {
            l.max_connections = 2;
            l.conn_idle_secs = 30;
        }));
        let mut closed: Vec<(u64, Vec<u64>)> = Vec::new();
        use std::collections::BTreeMap;
        let mut seen: BTreeMap<u64, usize> = BTreeMap::new();
        let mut frame = 0;
        let mut send = |table: &mut FlowTable<Vec<u64>>, closed: &mut Vec<(u64, Vec<u64>)>, seen: &mut BTreeMap<u64, usize>, src: &str, dst: &str, fl: &str, seq: u32, ack: u32, secs: i64| {
            frame += 1;
            let seg = TcpSegment { frame, ts: Timestamp::from_secs_nanos(secs, 0), src: addr(src), dst: addr(dst), seq, ack, flags: flags(fl), window: 65535, payload: b"x", missing: 0, tunnel: None, check: Default::default() };
            table.observe(seg.ts);
            table.expire_with(seg.ts, &mut |ev, app| record(ev, app, closed, seen));
            table.feed_with(&seg, &mut |ev, app| record(ev, app, closed, seen));
        };
        fn record(ev: FlowEvent<'_>, app: &mut Vec<u64>, closed: &mut Vec<(u64, Vec<u64>)>, seen: &mut std::collections::BTreeMap<u64, usize>) {
            let conn = Ev::of(&ev).conn();
            app.push(conn);
            *seen.entry(conn).or_default() += 1;
            if let FlowEvent::Close { .. } = ev {
                closed.push((conn, std::mem::take(app)));
            }
        }
        let (c1, c2, c3) = ("10.0.0.1:1001", "10.0.0.1:1002", "10.0.0.1:1003");
        send(&mut table, &mut closed, &mut seen, c1, S, "S", 100, 0, 1);
        send(&mut table, &mut closed, &mut seen, c2, S, "S", 200, 0, 2);
        send(&mut table, &mut closed, &mut seen, S, c1, "SA", 500, 101, 3);
        // A third connection evicts the least recently active (c2) at the cap of two.
        send(&mut table, &mut closed, &mut seen, c3, S, "S", 300, 0, 4);
        // A new SYN on c1's 4-tuple ends it (reused) and opens another.
        send(&mut table, &mut closed, &mut seen, c1, S, "S", 9_000, 0, 5);
        let mut live: Vec<(ConnId, usize)> = table.apps_mut().map(|(id, app)| (id, app.len())).collect();
        live.sort();
        assert_eq!(live.iter().map(|(id, _)| id.0).collect::<Vec<_>>(), [2, 3]);
        // Both go idle (30 s) before a packet at t = 40, which picks c1's 4-tuple up midstream; the end
        // of the capture closes that one.
        send(&mut table, &mut closed, &mut seen, c1, S, "A", 9_001, 0, 40);
        table.finish_with(Timestamp::from_secs_nanos(41, 0), &mut |ev, app| record(ev, app, &mut closed, &mut seen));
        assert_eq!(closed.iter().map(|(c, _)| *c).collect::<Vec<_>>(), [1, 0, 2, 3, 4]);
        for (conn, events) in &closed {
            assert!(events.iter().all(|c| c == conn), "connection {conn} was handed another's state: {events:?}");
            assert_eq!(events.len(), seen[conn], "connection {conn}: its state missed some of its events");
        }
        assert_eq!(table.apps_mut().count(), 0);
    }

    #[test]
    fn table_in_order_data_borrows_the_packet() {
        let mut table = FlowTable::new(&Limits::default());
        let payload = b"POST /mcp HTTP/1.1\r\n".to_vec();
        let seg = TcpSegment {
            frame: 1,
            ts: Timestamp(1),
            src: addr(C),
            dst: addr(S),
            seq: 7,
            ack: 0,
            flags: TcpFlags { psh: true, ..TcpFlags::default() },
            window: 0,
            payload: &payload,
            missing: 0,
            tunnel: None,
            check: Default::default(),
        };
        let mut same_memory = false;
        table.feed(&seg, &mut |ev| {
            if let FlowEvent::Data { bytes, .. } = ev {
                same_memory = std::ptr::eq(bytes.as_ptr(), payload.as_ptr()) && bytes.len() == payload.len();
            }
        });
        assert!(same_memory, "in-order data must be a slice of the packet");
        assert_eq!(table.held_bytes(), 0);
    }

    /// A request and the first segment of its response (server bytes up to 518), not acknowledged yet.
    fn request_answered() -> Rig {
        let mut rig = Rig::new();
        rig.handshake();
        rig.send(C, S, "AP", 101, 501, b"GET / HTTP/1.1\r\n\r\n");
        rig.send(S, C, "A", 501, 119, b"HTTP/1.1 200 OK\r\n");
        rig
    }

    #[test]
    fn a_server_the_capture_never_sees_is_lost_sight_of_each_time_the_client_acknowledges_more() {
        // A filter on one direction (sensor5 onedir: `dst port P`): the client's SYN, ACK and requests, never a
        // packet of the server, while the client's acknowledgements move over the server's answers.
        let mut rig = Rig::new();
        rig.send(C, S, "S", 100, 0, b"");
        rig.send(C, S, "A", 101, 501, b"");
        rig.send(C, S, "AP", 101, 501, b"POST / HTTP/1.1\r\n\r\n");
        rig.take();
        rig.send(C, S, "AP", 120, 700, b"POST / HTTP/1.1\r\n\r\n");
        rig.send(C, S, "A", 139, 700, b"");
        rig.send(C, S, "A", 139, 900, b"");
        let lost: Vec<Ev> = rig.take().into_iter().filter(|e| matches!(e, Ev::Unacked { .. })).collect();
        assert_eq!(lost.len(), 2, "one at each move of the acknowledgement: {lost:?}");
        assert!(lost.iter().all(|e| matches!(e, Ev::Unacked { dir: ToClient, .. })));
        assert_eq!(rig.table.stats().one_way_connections, 1);
        // The server's SYN-ACK seen: its direction is there, and acknowledgements are just acknowledgements.
        let mut rig = request_answered();
        rig.send(C, S, "A", 119, 518, b"");
        assert!(!rig.take().iter().any(|e| matches!(e, Ev::Unacked { .. })));
        assert_eq!(rig.table.stats().one_way_connections, 0);
    }

    #[test]
    fn table_silence_with_unacknowledged_bytes_is_lost_sight_of_once() {
        // The client acknowledges the first response segment only, then the capture sees nothing more of
        // the connection (a burst of kernel drops took the rest).
        let mut rig = request_answered();
        rig.send(C, S, "A", 119, 518, b"");
        rig.send(S, C, "A", 518, 119, b"Content-Length: 99\r\n\r\n");
        rig.take();
        rig.secs += UNACKED_SECS - 1;
        rig.expire();
        assert!(rig.take().is_empty(), "not silent long enough yet");
        rig.secs += 2;
        rig.expire();
        let due = Timestamp::from_secs_nanos(1_000 + UNACKED_SECS, 0);
        assert_eq!(rig.take(), vec![Ev::Unacked { conn: 0, dir: ToClient, ts: due }]);
        rig.secs += 100;
        rig.expire();
        assert!(rig.take().is_empty(), "once per silence");
        assert_eq!(rig.table.stats().unacked_silences, 1);
    }

    #[test]
    fn table_silence_after_the_sender_resent_its_unacknowledged_bytes_is_a_gone_peer_not_loss() {
        // The client's link went away mid-response: the server's retransmission timer resends the same
        // segment with backoff (situations8-vanish-netns.pcap). Its sender saw no ACK either: the capture
        // lost nothing. One resend is not enough to say so (a tail-loss probe can race a delayed ACK).
        let mut rig = request_answered();
        rig.send(C, S, "A", 119, 518, b"");
        rig.send(S, C, "AP", 518, 119, b"data: x\n\n");
        rig.secs += 1;
        rig.send(S, C, "AP", 518, 119, b"data: x\n\n");
        rig.take();
        rig.secs += 2 * UNACKED_SECS;
        rig.expire();
        assert_eq!(rig.table.stats().unacked_silences, 1, "one resend still reads as the capture's loss");
        rig.take();
        rig.send(S, C, "AP", 518, 119, b"data: x\n\n");
        rig.secs += 2 * UNACKED_SECS;
        rig.expire();
        assert!(!rig.take().iter().any(|e| matches!(e, Ev::Unacked { .. })), "resent twice: the peer is gone");
        assert_eq!(rig.table.stats().unacked_silences, 1);
        // An acknowledgement that moves starts the count again: new bytes unacknowledged after it, resent
        // once, fall silent as the capture's loss.
        rig.send(C, S, "A", 119, 527, b"");
        rig.send(S, C, "AP", 527, 119, b"data: y\n\n");
        rig.send(S, C, "AP", 527, 119, b"data: y\n\n");
        rig.secs += 2 * UNACKED_SECS;
        rig.expire();
        assert_eq!(rig.table.stats().unacked_silences, 2);
    }

    #[test]
    fn table_silence_with_everything_acknowledged_or_talk_going_on_is_no_loss() {
        let mut rig = request_answered();
        // Packets keep coming (each acknowledging the last): the check moves with them.
        for _ in 0..5 {
            rig.secs += UNACKED_SECS / 2 + 1;
            rig.send(C, S, "A", 119, 518, b"");
            rig.expire();
        }
        // A hung server: everything it sent was acknowledged, then silence. Not the capture's loss.
        rig.secs += 10 * UNACKED_SECS;
        rig.expire();
        assert!(!rig.take().iter().any(|e| matches!(e, Ev::Unacked { .. })));
        assert_eq!(rig.table.stats().unacked_silences, 0);
    }

    #[test]
    fn table_silence_of_a_pickup_that_never_announced_its_roles_says_nothing() {
        // Found by table_chaos_keeps_the_contract: a bare ACK picks the connection up, a FIN one past it
        // leaves a hole (an unacknowledged byte), and nothing ever decides the roles, so `Open` was never
        // emitted and an `Unacked` would name a connection downstream never heard of.
        let mut rig = Rig::with(&limits(|_| {}));
        rig.send("[::2]:6", "[::1]:5", "A", 1000, 1000, b"");
        rig.send("[::2]:6", "[::1]:5", "FP", 1001, 1000, b"");
        rig.secs += 4 * UNACKED_SECS;
        rig.expire();
        rig.finish();
        check_contract(&rig.events, true).unwrap();
        assert_eq!(rig.table.stats().unacked_silences, 0);
    }

    #[test]
    fn table_idle_expiry_closes_least_recent_first_stamped_at_idle_time() {
        let mut rig = Rig::with(&limits(|l| l.conn_idle_secs = 30));
        rig.send(C, S, "S", 100, 0, b""); // conn 0 at t=1000
        rig.secs = 1010;
        rig.send("10.0.0.3:40001", S, "S", 900, 0, b""); // conn 1 at t=1010
        rig.take();
        rig.secs = 1029;
        rig.expire();
        assert!(rig.take().is_empty(), "nothing idle yet");
        rig.secs = 1035;
        rig.expire();
        let ev = rig.take();
        let idle_at = Timestamp::from_secs_nanos(1030, 0);
        assert_eq!(
            ev,
            vec![
                Ev::End { conn: 0, dir: ToServer, reason: EndReason::Idle, ts: idle_at },
                Ev::End { conn: 0, dir: ToClient, reason: EndReason::Idle, ts: idle_at },
                Ev::Close { conn: 0 },
            ]
        );
        assert_eq!(rig.table.open_connections(), 1);
        rig.secs = 1100;
        rig.expire();
        assert_eq!(rig.take().last(), Some(&Ev::Close { conn: 1 }));
        assert_eq!(rig.table.open_connections(), 0);
    }

    #[test]
    fn table_activity_postpones_idle_expiry() {
        let mut rig = Rig::with(&limits(|l| l.conn_idle_secs = 30));
        rig.handshake();
        rig.secs = 1020;
        rig.send(C, S, "PA", 101, 501, b"GET / HTTP/1.1\r\n\r\n");
        rig.secs = 1040;
        rig.expire();
        assert_eq!(rig.table.open_connections(), 1);
        rig.secs = 1050;
        rig.expire();
        assert_eq!(rig.table.open_connections(), 0);
    }

    #[test]
    fn table_finish_is_in_conn_id_order_and_flushes_holes() {
        let mut rig = Rig::new();
        // Five connections; activity in an order unrelated to their ids.
        let clients: Vec<String> = (0..5).map(|i| format!("10.0.0.{}:{}", 10 + i, 41000 + i * 7)).collect();
        for c in &clients {
            rig.send(c, S, "S", 1, 0, b"");
        }
        for c in clients.iter().rev() {
            rig.send(c, S, "A", 2, 0, b"");
        }
        // Connection 2 holds out-of-order bytes behind a 3-byte hole.
        rig.send(&clients[2], S, "PA", 5, 0, b"late");
        let before = rig.take();
        rig.finish();
        let ev = rig.take();
        check_contract(&[before, ev.clone()].concat(), true).unwrap();
        let closes: Vec<u64> =
            ev.iter().filter_map(|e| if let Ev::Close { conn } = e { Some(*conn) } else { None }).collect();
        assert_eq!(closes, vec![0, 1, 2, 3, 4]);
        assert!(ev
            .iter()
            .all(|e| !matches!(e, Ev::End { reason, .. } if *reason != EndReason::EndOfCapture)));
        let c2: Vec<&Ev> = ev.iter().filter(|e| e.conn() == 2).collect();
        assert_eq!(c2[0], &Ev::Gap { conn: 2, dir: ToServer, len: 3 });
        assert!(matches!(c2[1], Ev::Data { bytes, .. } if bytes == b"late"));
        assert_eq!(rig.table.open_connections(), 0);
        assert_eq!(rig.table.held_bytes(), 0);
    }

    #[test]
    fn table_max_connections_evicts_least_recently_active() {
        let mut rig = Rig::with(&limits(|l| l.max_connections = 2));
        rig.send("10.0.0.1:1000", S, "S", 1, 0, b""); // conn 0
        rig.send("10.0.0.1:1001", S, "S", 1, 0, b""); // conn 1
        rig.send("10.0.0.1:1000", S, "A", 2, 0, b""); // conn 0 is now the most recent
        rig.take();
        rig.send("10.0.0.1:1002", S, "S", 1, 0, b""); // conn 2 evicts conn 1
        let ev = rig.take();
        assert_eq!(ev.len(), 4, "{ev:?}");
        assert!(matches!(ev[0], Ev::End { conn: 1, dir: ToServer, reason: EndReason::Evicted, .. }));
        assert!(matches!(ev[1], Ev::End { conn: 1, dir: ToClient, reason: EndReason::Evicted, .. }));
        assert_eq!(ev[2], Ev::Close { conn: 1 });
        assert!(matches!(ev[3], Ev::Open { conn: 2, .. }));
        assert_eq!(rig.table.stats().connection_cap_hits, 1);
        assert_eq!(rig.table.open_connections(), 2);
    }

    #[test]
    fn table_time_wait_swallows_stragglers_then_expires() {
        let mut rig = Rig::with(&limits(|l| l.conn_idle_secs = 300));
        rig.handshake();
        rig.send(C, S, "FA", 101, 501, b"");
        rig.send(S, C, "FA", 501, 102, b"");
        assert_eq!(rig.table.open_connections(), 0);
        rig.send(C, S, "A", 102, 502, b""); // the last ACK
        rig.send(S, C, "FA", 501, 102, b""); // a retransmitted FIN
        rig.send(S, C, "SA", 500, 101, b""); // a retransmitted SYN-ACK (same ISN)
        rig.send(C, S, "S", 100, 0, b""); // an old duplicate SYN (same ISN)
        // A late copy of data (another interface's batch of a multi-interface capture): not analysed,
        // but counted; the bare segments above are not.
        rig.send(S, C, "PA", 400, 101, b"hello");
        assert!(rig.take().iter().all(|e| !matches!(e, Ev::Open { conn: 1, .. })));
        assert_eq!((rig.table.stats().after_close_segments, rig.table.stats().after_close_bytes), (1, 5));
        assert_eq!(rig.table.stats().connections, 1);
        assert_eq!(rig.table.open_connections(), 0);
        rig.secs += TIME_WAIT_SECS;
        rig.expire();
        rig.send(C, S, "PA", 102, 502, b"x"); // long after: a new (midstream) connection
        assert_eq!(rig.table.stats().connections, 2);
        assert_eq!(rig.table.stats().midstream_pickups, 1);
    }

    #[test]
    fn table_lone_rst_opens_nothing() {
        let mut rig = Rig::new();
        rig.send(C, S, "RA", 5, 6, b"");
        assert!(rig.take().is_empty());
        assert_eq!(rig.table.stats().connections, 0);
    }

    #[test]
    fn table_connection_ids_follow_first_appearance() {
        let mut rig = Rig::new();
        rig.send("10.0.0.9:5000", S, "S", 1, 0, b"");
        rig.send("10.0.0.1:5000", S, "S", 1, 0, b"");
        rig.send("10.0.0.5:5000", S, "S", 1, 0, b"");
        let opens: Vec<(u64, SocketAddr)> = rig
            .take()
            .into_iter()
            .filter_map(|e| if let Ev::Open { conn, client, .. } = e { Some((conn, client)) } else { None })
            .collect();
        assert_eq!(
            opens,
            vec![(0, addr("10.0.0.9:5000")), (1, addr("10.0.0.1:5000")), (2, addr("10.0.0.5:5000"))]
        );
    }

    // ==== Model tests: random segmentation, reordering, duplication, overlap and loss.

    /// A generated capture of one client-to-server stream.
    #[derive(Debug, Clone)]
    struct Plan {
        isn: u32,
        data: Vec<u8>,
        /// Segments as (offset, len), in send order (after shuffling); duplicates and overlaps included;
        /// dropped cuts (never captured, nor any copy of them) are absent.
        segs: Vec<(usize, usize)>,
    }

    /// Cuts `data` into pieces, adds overlapping re-sends of random sub-ranges and duplicates, shuffles.
    fn plan(max_drop_pct: u32) -> impl Strategy<Value = Plan> {
        (any::<u32>(), proptest::collection::vec(any::<u8>(), 1..600), any::<u64>()).prop_map(
            move |(isn, data, seed)| {
                let mut rng = seed | 1;
                let mut next = move |n: usize| {
                    // xorshift64: deterministic per case, so proptest can shrink and replay.
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    (rng % (n.max(1) as u64)) as usize
                };
                let mut cuts = Vec::new();
                let mut off = 0;
                while off < data.len() {
                    let len = 1 + next(40).min(data.len() - off - 1);
                    cuts.push((off, len));
                    off += len;
                }
                let dropped: Vec<bool> = cuts.iter().map(|_| (next(100) as u32) < max_drop_pct).collect();
                let mut segs: Vec<(usize, usize)> =
                    cuts.iter().zip(&dropped).filter(|(_, d)| !**d).map(|(c, _)| *c).collect();
                // Duplicates and overlapping re-sends of kept ranges (same bytes), so coverage is unchanged.
                let kept = segs.clone();
                for &(o, l) in &kept {
                    match next(4) {
                        0 => segs.push((o, l)),
                        1 if l > 1 => {
                            let a = next(l);
                            let b = a + 1 + next(l - a);
                            segs.push((o + a, b - a));
                        }
                        _ => {}
                    }
                }
                // Merge two neighbouring kept cuts into one larger overlapping segment sometimes.
                for w in kept.windows(2) {
                    if w[0].0 + w[0].1 == w[1].0 && next(5) == 0 {
                        segs.push((w[0].0, w[0].1 + w[1].1));
                    }
                }
                for i in (1..segs.len()).rev() {
                    let j = next(i + 1);
                    segs.swap(i, j);
                }
                Plan { isn, data, segs }
            },
        )
    }

    /// Runs a plan through a `FlowTable`: handshake, shuffled segments, FIN, end of capture.
    fn run_plan(p: &Plan, l: &Limits) -> (Vec<Ev>, ReassemblyStats) {
        let mut rig = Rig::with(l);
        rig.send(C, S, "S", p.isn, 0, b"");
        let base = p.isn.wrapping_add(1);
        for &(o, len) in &p.segs {
            rig.send(C, S, "P", base.wrapping_add(o as u32), 0, &p.data[o..o + len]);
        }
        rig.send(C, S, "F", base.wrapping_add(p.data.len() as u32), 0, b"");
        rig.finish();
        (rig.events.clone(), rig.table.stats().clone())
    }

    /// Walks the to-server events: data must match the original at its position and gaps must be holes
    /// in `covered`; returns (delivered bytes, gap bytes).
    fn replay(events: &[Ev], data: &[u8], covered: Option<&[bool]>) -> Result<(usize, u64), TestCaseError> {
        let mut pos = 0usize;
        let mut delivered = 0usize;
        let mut gaps = 0u64;
        for e in events {
            match e {
                Ev::Data { dir: ToServer, bytes, .. } => {
                    prop_assert_eq!(&data[pos..pos + bytes.len()], &bytes[..], "data at offset {}", pos);
                    if let Some(c) = covered {
                        prop_assert!(
                            c[pos..pos + bytes.len()].iter().all(|b| *b),
                            "delivered a dropped byte"
                        );
                    }
                    pos += bytes.len();
                    delivered += bytes.len();
                }
                Ev::Gap { dir: ToServer, len, .. } => {
                    let n = *len as usize;
                    if let Some(c) = covered {
                        prop_assert!(
                            c[pos..pos + n].iter().all(|b| !*b),
                            "gap over captured bytes at {}",
                            pos
                        );
                    }
                    pos += n;
                    gaps += *len;
                }
                _ => {}
            }
        }
        prop_assert_eq!(pos, data.len(), "stream length");
        Ok((delivered, gaps))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Reordered, duplicated, overlapping segments reassemble to exactly the original.
        #[test]
        fn table_reassembles_shuffled_duplicated_overlapping_segments(p in plan(0)) {
            let (events, stats) = run_plan(&p, &Limits::default());
            check_contract(&events, true).map_err(TestCaseError::fail)?;
            let got: Vec<u8> = events
                .iter()
                .filter_map(|e| if let Ev::Data { dir: ToServer, bytes, .. } = e { Some(bytes.clone()) } else { None })
                .flatten()
                .collect();
            prop_assert_eq!(&got, &p.data);
            prop_assert_eq!(stats.gaps, 0);
            prop_assert_eq!(stats.overlap_conflicts, 0);
            let sent: usize = p.segs.iter().map(|s| s.1).sum();
            // A one-byte re-send at next-1 looks exactly like a keep-alive and is not counted.
            let ones = p.segs.iter().filter(|s| s.1 == 1).count();
            let resent = (sent - p.data.len()) as u64;
            prop_assert!(stats.retransmitted_bytes <= resent);
            prop_assert!(stats.retransmitted_bytes + ones as u64 >= resent);
            let fin_end = events.iter().any(|e| matches!(e, Ev::End { dir: ToServer, reason: EndReason::Fin, .. }));
            prop_assert!(fin_end, "the stream ends with its FIN");
        }

        /// With segments lost: the delivered bytes are exactly the captured ones, in place, and the gaps
        /// add up to exactly the bytes never delivered.
        #[test]
        fn table_gaps_account_for_exactly_the_dropped_bytes(p in plan(30)) {
            let (events, stats) = run_plan(&p, &Limits::default());
            check_contract(&events, true).map_err(TestCaseError::fail)?;
            let mut covered = vec![false; p.data.len()];
            for &(o, l) in &p.segs {
                for b in &mut covered[o..o + l] { *b = true; }
            }
            let (delivered, gaps) = replay(&events, &p.data, Some(&covered))?;
            let never = covered.iter().filter(|b| !**b).count();
            prop_assert_eq!(delivered, p.data.len() - never);
            prop_assert_eq!(gaps, never as u64);
            prop_assert_eq!(stats.missed_bytes, never as u64);
            prop_assert_eq!(rig_held(&p), 0);
        }

        /// Tiny out-of-order budgets: gaps come early, but every delivered byte is still the original
        /// byte at its place and data + gaps cover the stream exactly once.
        #[test]
        fn table_small_budgets_stay_consistent(p in plan(10), per in 0usize..400, total in 0usize..600) {
            let l = limits(|l| { l.max_ooo_bytes_per_stream = per; l.max_ooo_bytes_total = total; });
            let (events, stats) = run_plan(&p, &l);
            check_contract(&events, true).map_err(TestCaseError::fail)?;
            let (delivered, gaps) = replay(&events, &p.data, None)?;
            prop_assert_eq!(delivered as u64 + gaps, p.data.len() as u64);
            prop_assert_eq!(stats.missed_bytes, gaps);
        }
    }

    /// One random packet (or clock tick) of the chaos test.
    #[derive(Debug, Clone)]
    struct Chaos {
        tuple: usize,
        from_b: bool,
        flags: u8,
        seq_step: i32,
        ack_step: i32,
        len: usize,
        missing: u32,
        advance_secs: i64,
    }

    fn chaos() -> impl Strategy<Value = Chaos> {
        (0..3usize, any::<bool>(), any::<u8>(), -40..200i32, -40..200i32, 0..30usize, 0..4u32, 0..20i64)
            .prop_map(|(tuple, from_b, flags, seq_step, ack_step, len, missing, advance_secs)| Chaos {
                tuple,
                from_b,
                flags,
                seq_step,
                ack_step,
                len,
                missing: if missing == 3 { 7 } else { 0 },
                advance_secs: if advance_secs > 17 { 40 } else { 0 },
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Arbitrary flag combinations, sequence jumps, ACKs, truncation, expiry and eviction never panic,
        /// always honour the event-order contract, and release every held byte by the end.
        #[test]
        fn table_chaos_keeps_the_contract(ops in proptest::collection::vec(chaos(), 1..120),
                                          per in 0usize..300, cap in 1usize..3) {
            let l = limits(|l| {
                l.max_connections = cap;
                l.max_ooo_bytes_per_stream = per;
                l.max_ooo_bytes_total = 400;
                l.conn_idle_secs = 30;
            });
            let mut rig = Rig::with(&l);
            let ends = [("10.0.0.1:40000", "10.0.0.2:80"), ("10.0.0.3:40001", "10.0.0.2:80"), ("[::1]:5", "[::2]:6")];
            let mut seq = [[1000u32; 2]; 3];
            let payload = [b'x'; 40];
            for op in ops {
                rig.secs += op.advance_secs;
                rig.expire();
                let (a, b) = ends[op.tuple];
                let (src, dst, d) = if op.from_b { (b, a, 1) } else { (a, b, 0) };
                seq[op.tuple][d] = seq[op.tuple][d].wrapping_add_signed(op.seq_step);
                let ack = seq[op.tuple][1 - d].wrapping_add_signed(op.ack_step);
                let fl: String = ['S', 'A', 'F', 'R', 'P']
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| op.flags & (1 << i) != 0 && (*i != 3 || op.flags & 0xE0 == 0xE0))
                    .map(|(_, c)| *c)
                    .collect();
                rig.send_cut(src, dst, &fl, seq[op.tuple][d], ack, &payload[..op.len], op.missing);
            }
            rig.finish();
            check_contract(&rig.events, true).map_err(TestCaseError::fail)?;
            prop_assert_eq!(rig.table.held_bytes(), 0);
            prop_assert_eq!(rig.table.open_connections(), 0);
            let opens = rig.events.iter().filter(|e| matches!(e, Ev::Open { .. })).count() as u64;
            prop_assert_eq!(opens, rig.table.stats().connections);
        }
    }

    /// Held bytes after a plan ran to completion (must be none: everything is released at `Close`).
    fn rig_held(p: &Plan) -> usize {
        let mut rig = Rig::new();
        rig.send(C, S, "S", p.isn, 0, b"");
        let base = p.isn.wrapping_add(1);
        for &(o, len) in &p.segs {
            rig.send(C, S, "P", base.wrapping_add(o as u32), 0, &p.data[o..o + len]);
        }
        rig.finish();
        rig.table.held_bytes()
    }
}
