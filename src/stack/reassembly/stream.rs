//! One direction of a TCP connection: turns that direction's segments into an ordered byte stream with
//! explicit gaps and an explicit end. Owns the sequence-number bookkeeping (RFC 9293 §3.4), the
//! out-of-order store, the overlap policy and the FIN position; knows nothing of roles, handshakes or HTTP
//! (that is `connection.rs` and the `http` module).
//!
//! Offsets. Every byte gets a 64-bit offset relative to the stream's base: the sequence number after the
//! SYN (RFC 9293 §3.4: "the SYN is considered to occur before the first actual data octet"), or the first
//! sequence number seen for a midstream pickup. RFC 9293 §3.4 sequence space is modulo 2^32; a segment's
//! 32-bit distance from the base is widened by choosing the 64-bit value nearest the delivery point
//! (`Cursor::offset_of`), which is exact as long as a segment is within 2^31 of it — always true, since a
//! window is at most 2^30 (RFC 7323 §2.3). Segments more than `MAX_SEQ_AHEAD` beyond are ignored as bogus.
//!
//! Delivery. In-order bytes go out at once as `FlowEvent::Data` borrowing the packet (no copy, no
//! allocation). Out-of-order bytes are copied into `pieces` (one entry per packet, so every delivered
//! `Data` carries the frame and timestamp of the packet that brought those bytes) and released in order
//! when the hole before them fills. `assembler.rs` tracks which offsets are already held.
//!
//! Overlap policy: FIRST DATA WINS. Bytes already delivered or already buffered are kept; a later segment
//! covering the same range contributes only the offsets nobody has sent yet. Its overlapping bytes are
//! counted in `retransmitted_bytes`, and if they differ from buffered ones, `overlap_conflicts` counts the
//! segment once. Why: it is what most receiving stacks keep (BSD/Linux trim new data against what they
//! hold, and Suricata's default "bsd"-like policies approximate it); a passive observer cannot know which
//! copy the receiver actually took, so any policy is a guess, and first-wins is stable (bytes never change
//! once handed on, and nothing needs to be held back waiting for a "better" copy). Limitation: bytes
//! already delivered are not retained (zero copy), so a conflicting retransmission of delivered bytes is
//! counted as retransmitted but cannot be compared.
//!
//! Gaps (`FlowEvent::Gap`), never silent: a hole is declared (and the data after it delivered) when the
//! out-of-order budget is exhausted, when the peer acknowledges bytes this stream never showed us (Zeek's
//! content-gap rule: the receiver has them, so the capture lost them), and when the stream is terminated
//! (RST, idle, eviction, reuse, end of capture) with a hole still open. Snap-length-truncated payload
//! (`TcpSegment::missing`) is a gap of exactly the missing bytes at their place in the stream. A FIN with
//! a hole before it waits for the hole to fill (the missing segment is usually a retransmission that
//! follows the FIN on the wire) until one of the rules above declares it.
//!
//! Damaged segments (a wrong TCP checksum in a direction whose checksums held, `trust.rs`) are set aside
//! whole, before anything reads them (RFC 9293 §3.1: the receiver discards them): not delivered, their
//! ACK and flags ignored, their bytes a hole. A valid copy that covers them replaces them (it is the copy
//! the receiver took); if their receiver acknowledges past their start with no such copy seen, it took
//! them after all (a merged segment whose sum only the capture sees wrong), and they are delivered then,
//! with their own frame and timestamp. A stream that ends with one still aside never had its valid copy:
//! its receiver did not take those bytes and neither does the stream, which shows them as a gap. Nothing
//! is dropped unsaid.
//!
//! Keep-alives (RFC 9293 §3.8.4, RFC 1122 §4.2.3.6: "SEG.SEQ = SND.NXT-1", with zero or one garbage
//! octet) and zero-window probes sent the same way (§3.8.6.1; Linux probes at `snd_una - 1`) carry nothing
//! new and produce no data, no gap and no retransmission count. A one-byte retransmission of the last
//! delivered byte looks the same and is not counted either. A probe that carries the next real byte
//! (BSD style) is genuine stream data and is delivered (first data wins; the byte is the same).

use std::collections::BTreeMap;

use crate::decode::flow_key::Direction;
use crate::decode::{ChecksumPolicy, TcpSegment};
use crate::reassembly::assembler::Assembler;
use crate::reassembly::trust::Trust;
use crate::reassembly::{ConnId, EndReason, FlowEvent, ReassemblyStats};
use crate::time::Timestamp;

/// Bytes charged against the out-of-order budgets for every stored piece on top of its payload, so that
/// many tiny pieces (or payload-less snap-length markers) cannot exceed the memory bound through
/// per-entry overhead (map node, `Vec` header, frame/ts).
pub(crate) const PIECE_OVERHEAD: usize = 64;

/// A segment or an acknowledgment further than this beyond what the stream has shown is taken as bogus
/// and ignored: RFC 7323 §2.3 caps the window at 2^30 bytes, so no honest sender is further ahead.
pub(crate) const MAX_SEQ_AHEAD: u64 = 1 << 30;

/// Out-of-order byte budgets: one shared by every stream (`Limits::max_ooo_bytes_total`) and the
/// per-stream cap (`Limits::max_ooo_bytes_per_stream`).
#[derive(Debug, Clone)]
pub(crate) struct Budget {
    pub(crate) used: usize,
    pub(crate) total_limit: usize,
    pub(crate) per_stream_limit: usize,
}

impl Budget {
    pub(crate) fn new(total_limit: usize, per_stream_limit: usize) -> Self {
        Budget { used: 0, total_limit, per_stream_limit }
    }
}

/// Where a stream's events go, with the context they need. Built by the flow table for each packet; the
/// connection fills in `conn`, `dir` and the held-back `Open`.
pub(crate) struct Ctx<'e, F: ?Sized> {
    pub(crate) conn: ConnId,
    pub(crate) dir: Direction,
    /// The packet being processed (or, for expiry/end of capture, the connection's last packet and the
    /// time of the decision): stamped on gaps and ends.
    pub(crate) frame: u64,
    pub(crate) ts: Timestamp,
    /// A midstream pickup's `Open`, held until the roles are decided; emitted just before the first other
    /// event of the connection so that `Open` always comes first.
    pub(crate) held_open: Option<FlowEvent<'static>>,
    pub(crate) stats: &'e mut ReassemblyStats,
    pub(crate) budget: &'e mut Budget,
    pub(crate) out: &'e mut F,
}

impl<'e, F: FnMut(FlowEvent<'_>) + ?Sized> Ctx<'e, F> {
    pub(crate) fn new(
        stats: &'e mut ReassemblyStats,
        budget: &'e mut Budget,
        out: &'e mut F,
        frame: u64,
        ts: Timestamp,
    ) -> Self {
        Ctx { conn: ConnId(0), dir: Direction::ToServer, frame, ts, held_open: None, stats, budget, out }
    }

    pub(crate) fn emit(&mut self, ev: FlowEvent<'_>) {
        if let Some(open) = self.held_open.take() {
            (self.out)(open);
        }
        (self.out)(ev);
    }

    fn data(&mut self, bytes: &[u8], frame: u64, ts: Timestamp) {
        if bytes.is_empty() {
            return;
        }
        let (conn, dir) = (self.conn, self.dir);
        self.emit(FlowEvent::Data { conn, dir, bytes, frame, ts });
    }

    /// `cut`: the bytes were on the wire but the snap length cut them from their record.
    fn gap(&mut self, len: u64, cut: bool, frame: u64, ts: Timestamp) {
        if len == 0 {
            return;
        }
        self.stats.gaps = self.stats.gaps.saturating_add(1);
        self.stats.missed_bytes = self.stats.missed_bytes.saturating_add(len);
        let (conn, dir) = (self.conn, self.dir);
        self.emit(FlowEvent::Gap { conn, dir, len, cut, frame, ts });
    }

    /// A hole declared now: stamped with the packet (or moment) that made us declare it.
    fn hole(&mut self, len: u64) {
        let (frame, ts) = (self.frame, self.ts);
        self.gap(len, false, frame, ts);
    }

    fn end(&mut self, reason: EndReason) {
        let (conn, dir, frame, ts) = (self.conn, self.dir, self.frame, self.ts);
        self.emit(FlowEvent::End { conn, dir, reason, frame, ts });
    }
}

/// Sequence bookkeeping of a synchronized stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Cursor {
    /// Sequence number of stream offset 0.
    base: u32,
    /// Next offset to deliver: everything below was delivered as data or gap.
    next: u64,
    /// One past the highest offset any segment of this stream has covered.
    highest: u64,
    /// Highest offset the peer acknowledged (its next expected byte).
    acked: u64,
    /// Segments that resent only bytes already seen, some beyond `acked`, since `acked` last moved: the
    /// sender's retransmission timer firing (RFC 6298 §5) because no acknowledgement reached it either.
    resent: u8,
}

/// Resends of unacknowledged bytes after which a silence is the peer's, not the capture's (`Stream::unacked`).
const GONE_AFTER_RESENDS: u8 = 2;

impl Cursor {
    fn new(base: u32) -> Self {
        Cursor { base, next: 0, highest: 0, acked: 0, resent: 0 }
    }

    /// RFC 9293 §3.4: "the sequence number space is finite, though very large ... all arithmetic dealing
    /// with sequence numbers must be performed modulo 2**32". The 32-bit distance from the base is widened
    /// to the 64-bit offset nearest `next` (the last delivered position); negative means before the base.
    fn offset_of(&self, seq: u32) -> i64 {
        let rel = seq.wrapping_sub(self.base);
        let next_low = (self.next & 0xFFFF_FFFF) as u32;
        // Reinterpreting the modular difference as signed picks the nearest of the 2^32-apart candidates.
        let delta = i64::from(rel.wrapping_sub(next_low) as i32);
        i64::try_from(self.next).unwrap_or(i64::MAX).saturating_add(delta)
    }

    fn ahead_limit(&self) -> u64 {
        self.highest.max(self.next).saturating_add(MAX_SEQ_AHEAD)
    }
}

/// The stream's lifecycle: one transition function (`segment`, plus `peer_ack`/`terminate` for the events
/// that come from outside this direction's packets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StreamState {
    /// No packet of this direction yet: the base sequence number is unknown.
    Unsynced,
    /// Base known; bytes flow.
    Open(Cursor),
    /// FIN seen; it sits at offset `fin` (RFC 9293 §3.4: a FIN occupies one sequence number after the last
    /// data byte). `End{Fin}` goes out once everything before it is delivered.
    FinReceived { cur: Cursor, fin: u64 },
    /// `End` emitted; nothing more is delivered and no buffer is held.
    Ended(EndReason),
}

#[derive(Debug)]
enum PieceBody {
    Bytes(Vec<u8>),
    /// Bytes a snap length cut off: delivered as a gap of this many bytes.
    Missing(u64),
}

/// Out-of-order bytes of one packet, kept with the packet's identity.
#[derive(Debug)]
struct Piece {
    frame: u64,
    ts: Timestamp,
    body: PieceBody,
}

impl Piece {
    fn len(&self) -> u64 {
        match &self.body {
            PieceBody::Bytes(b) => len64(b),
            PieceBody::Missing(n) => *n,
        }
    }

    fn cost(&self) -> usize {
        match &self.body {
            PieceBody::Bytes(b) => b.len().saturating_add(PIECE_OVERHEAD),
            PieceBody::Missing(_) => PIECE_OVERHEAD,
        }
    }
}

fn len64(b: &[u8]) -> u64 {
    u64::try_from(b.len()).unwrap_or(u64::MAX)
}

fn to_usize(n: u64) -> usize {
    usize::try_from(n).unwrap_or(usize::MAX)
}

/// A segment's data at absolute offsets: `payload` at `[start, start + payload.len())`, then `missing`
/// bytes the snap length cut off.
#[derive(Debug, Clone, Copy)]
struct Span<'p> {
    start: u64,
    payload: &'p [u8],
    missing: u64,
}

impl<'p> Span<'p> {
    fn payload_end(&self) -> u64 {
        self.start.saturating_add(len64(self.payload))
    }

    fn end(&self) -> u64 {
        self.payload_end().saturating_add(self.missing)
    }

    fn is_empty(&self) -> bool {
        self.start >= self.end()
    }

    /// Drops everything below `to`.
    fn trim_front(&mut self, to: u64) {
        if to <= self.start {
            return;
        }
        let end = self.end();
        if to >= end {
            self.payload = &[];
            self.missing = 0;
        } else {
            let cut = to.saturating_sub(self.start);
            let plen = len64(self.payload);
            if cut <= plen {
                self.payload = self.payload.get(to_usize(cut)..).unwrap_or(&[]);
            } else {
                self.payload = &[];
                self.missing = self.missing.saturating_sub(cut.saturating_sub(plen));
            }
        }
        self.start = to;
    }

    /// Drops everything at or after `to`.
    fn trim_back(&mut self, to: u64) {
        if to >= self.end() {
            return;
        }
        let keep = to.saturating_sub(self.start);
        let plen = len64(self.payload);
        if keep <= plen {
            self.payload = self.payload.get(..to_usize(keep)).unwrap_or(&[]);
            self.missing = 0;
        } else {
            self.missing = keep.saturating_sub(plen);
        }
    }

    /// The payload bytes and the count of missing bytes inside `[a, b)`.
    fn part(&self, a: u64, b: u64) -> (&'p [u8], u64) {
        let a = a.max(self.start);
        let b = b.min(self.end());
        if a >= b {
            return (&[], 0);
        }
        let pe = self.payload_end();
        let bytes = if a < pe {
            let lo = to_usize(a.saturating_sub(self.start));
            let hi = to_usize(b.min(pe).saturating_sub(self.start));
            self.payload.get(lo..hi).unwrap_or(&[])
        } else {
            &[]
        };
        (bytes, b.saturating_sub(a.max(pe)))
    }
}

/// Damaged segments one direction holds aside at once. Damage is rare (a few in a session on a bad path:
/// `samples/ecosystem/checksums.md`); the bound keeps the scans of `take_aside` and `prune_aside`, which
/// run on every acknowledgement and segment while one is held, short whatever a sender forges. One past it
/// is taken as it came, as with the budgets.
const MAX_ASIDE: usize = 64;

/// A segment set aside for a wrong checksum, whole, until its receiver's acknowledgement or a valid copy
/// decides (module header).
#[derive(Debug)]
struct Aside {
    seq: u32,
    fin: bool,
    frame: u64,
    ts: Timestamp,
    bytes: Vec<u8>,
}

impl Aside {
    fn cost(&self) -> usize {
        self.bytes.len().saturating_add(PIECE_OVERHEAD)
    }

    /// Where its bytes start and end, as offsets of the stream `cur` follows.
    fn span(&self, cur: &Cursor) -> (i64, i64) {
        let start = cur.offset_of(self.seq);
        (start, start.saturating_add(i64::try_from(self.bytes.len()).unwrap_or(i64::MAX)))
    }
}

/// What one direction carries.
#[derive(Debug)]
pub(crate) struct Stream {
    state: StreamState,
    /// Whether this direction's checksums are believed.
    trust: Trust,
    /// Damaged segments set aside, in arrival order; charged to the budgets like `pieces`.
    aside: Vec<Aside>,
    /// Which offsets above `next` are held in `pieces`.
    ranges: Assembler,
    /// Held out-of-order data, keyed by start offset; pieces never overlap and all start above `next`.
    pieces: BTreeMap<u64, Piece>,
    /// Bytes of `pieces` charged against the budgets (payload + `PIECE_OVERHEAD` each).
    stored: usize,
}

impl Default for Stream {
    fn default() -> Self {
        Self::new(ChecksumPolicy::default())
    }
}

impl Stream {
    pub(crate) fn new(checksums: ChecksumPolicy) -> Self {
        Stream {
            state: StreamState::Unsynced,
            trust: Trust::new(checksums),
            aside: Vec::new(),
            ranges: Assembler::new(),
            pieces: BTreeMap::new(),
            stored: 0,
        }
    }

    #[cfg(test)]
    pub(crate) fn state(&self) -> StreamState {
        self.state
    }

    /// No packet of this direction yet, and not ended either.
    pub(crate) fn is_unsynced(&self) -> bool {
        matches!(self.state, StreamState::Unsynced)
    }

    pub(crate) fn is_ended(&self) -> bool {
        matches!(self.state, StreamState::Ended(_))
    }

    /// The sequence number of offset 0, once known.
    pub(crate) fn base(&self) -> Option<u32> {
        match self.state {
            StreamState::Open(c) | StreamState::FinReceived { cur: c, .. } => Some(c.base),
            StreamState::Unsynced | StreamState::Ended(_) => None,
        }
    }

    /// Fixes the base sequence number (offset 0) if it is not known yet.
    pub(crate) fn sync(&mut self, base: u32) {
        if let StreamState::Unsynced = self.state {
            self.state = StreamState::Open(Cursor::new(base));
        }
    }

    /// Screens a segment of this direction before anything else reads it: `true` if it was damaged on the
    /// way and is set aside (module header), so that neither its data nor its ACK nor its flags count. A
    /// damaged segment without data or FIN carries nothing to wait for and is just ignored; one the
    /// budgets cannot hold is taken as it is (and counted so). A SYN's sum counts toward the direction's
    /// trust, but a SYN is never set aside (the handshake's bookkeeping is not worth the risk).
    pub(crate) fn screen<F: FnMut(FlowEvent<'_>) + ?Sized>(&mut self, seg: &TcpSegment<'_>, ctx: &mut Ctx<'_, F>) -> bool {
        if !self.trust.damaged(seg.check, seg.payload) || seg.flags.syn {
            return false;
        }
        ctx.stats.damaged_segments = ctx.stats.damaged_segments.saturating_add(1);
        if seg.payload.is_empty() && !seg.flags.fin {
            return true;
        }
        if matches!(self.state, StreamState::Ended(_)) {
            return true;
        }
        let cost = seg.payload.len().saturating_add(PIECE_OVERHEAD);
        if self.aside.len() >= MAX_ASIDE || !self.fits(cost, ctx.budget) {
            ctx.stats.damaged_taken = ctx.stats.damaged_taken.saturating_add(1);
            return false;
        }
        self.charge(cost, ctx.budget);
        // ALLOC: a damaged segment's copy, rare, bounded like the out-of-order pieces.
        let bytes = seg.payload.to_vec();
        self.aside.push(Aside { seq: seg.seq, fin: seg.flags.fin, frame: seg.frame, ts: seg.ts, bytes });
        true
    }

    /// Takes the segments set aside that start below the acknowledged sequence number `ack`, as if they
    /// had just arrived, in sequence order.
    fn take_aside<F: FnMut(FlowEvent<'_>) + ?Sized>(&mut self, ack: u32, ctx: &mut Ctx<'_, F>) {
        let cur = match self.state {
            StreamState::Open(c) | StreamState::FinReceived { cur: c, .. } => c,
            StreamState::Unsynced | StreamState::Ended(_) => return,
        };
        let limit = cur.offset_of(ack);
        // ALLOC: rare (damaged segments their receiver took), moved out to be delivered.
        let mut taken: Vec<Aside> = self.aside.extract_if(.., |a| a.span(&cur).0 < limit).collect();
        taken.sort_by_key(|a| a.span(&cur).0);
        for a in taken {
            self.refund(a.cost(), ctx.budget);
            ctx.stats.damaged_taken = ctx.stats.damaged_taken.saturating_add(1);
            self.segment(a.seq, false, a.fin, &a.bytes, 0, a.frame, a.ts, ctx);
        }
    }

    /// The stream ends with damaged segments still aside: no valid copy came and their receiver took none
    /// of them, so their bytes are a hole (a gap up to the end of the last, after what is held below it).
    fn lose_aside<F: FnMut(FlowEvent<'_>) + ?Sized>(&mut self, ctx: &mut Ctx<'_, F>) {
        let lost = self.take_all_aside(ctx.budget);
        ctx.stats.damaged_lost = ctx.stats.damaged_lost.saturating_add(u64::try_from(lost.len()).unwrap_or(u64::MAX));
        let (mut cur, fin_at) = match self.state {
            StreamState::Open(c) => (c, None),
            StreamState::FinReceived { cur, fin } => (cur, Some(fin)),
            StreamState::Unsynced | StreamState::Ended(_) => return,
        };
        // A damaged FIN's own place says nothing about bytes: only data marks the hole.
        let end = lost
            .iter()
            .filter(|a| !a.bytes.is_empty())
            .map(|a| a.span(&cur).1)
            .max()
            .and_then(|e| u64::try_from(e).ok());
        if let Some(end) = end.filter(|&e| e > cur.next && e <= cur.ahead_limit()) {
            let target = fin_at.map_or(end, |f| end.min(f));
            self.flush_to(&mut cur, Some(target), ctx);
            self.settle(cur, fin_at, ctx);
        }
    }

    /// Every segment set aside, out of the stream and off the budgets.
    fn take_all_aside(&mut self, budget: &mut Budget) -> Vec<Aside> {
        let all = std::mem::take(&mut self.aside);
        self.refund(all.iter().map(Aside::cost).fold(0usize, usize::saturating_add), budget);
        all
    }

    /// Forgets the segments set aside that valid copies have replaced: every byte of theirs delivered, or
    /// their FIN taken from another segment.
    fn prune_aside(&mut self, budget: &mut Budget) {
        let (cur, fin_taken) = match self.state {
            StreamState::Open(c) => (c, false),
            StreamState::FinReceived { cur, .. } => (cur, true),
            // Nothing is delivered any more: nothing aside can matter.
            StreamState::Unsynced | StreamState::Ended(_) => {
                self.take_all_aside(budget);
                return;
            }
        };
        let freed = self
            .aside
            .extract_if(.., |a| u64::try_from(a.span(&cur).1).unwrap_or(0) <= cur.next && (!a.fin || fin_taken))
            .map(|a| a.cost())
            .fold(0usize, usize::saturating_add);
        self.refund(freed, budget);
    }

    /// One segment of this direction. `seq` is the segment's sequence number (the SYN's own, if `syn`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn segment<F: FnMut(FlowEvent<'_>) + ?Sized>(
        &mut self,
        seq: u32,
        syn: bool,
        fin: bool,
        payload: &[u8],
        missing: u32,
        frame: u64,
        ts: Timestamp,
        ctx: &mut Ctx<'_, F>,
    ) {
        // RFC 9293 §3.4: the SYN occupies the sequence number before the first data octet.
        let data_seq = seq.wrapping_add(u32::from(syn));
        if let StreamState::Unsynced = self.state {
            self.sync(data_seq);
        }
        let (mut cur, mut fin_at) = match self.state {
            StreamState::Open(c) => (c, None),
            StreamState::FinReceived { cur, fin } => (cur, Some(fin)),
            StreamState::Unsynced | StreamState::Ended(_) => return,
        };
        let start = cur.offset_of(data_seq);
        let len = len64(payload).saturating_add(u64::from(missing));
        let next_i = i64::try_from(cur.next).unwrap_or(i64::MAX);
        if start > 0 && u64::try_from(start).unwrap_or(u64::MAX) > cur.ahead_limit() {
            // Far outside any window: a stale or forged segment, not stream data.
            return;
        }
        // RFC 9293 §3.8.4 / RFC 1122 §4.2.3.6 keep-alive, or a zero-window probe sent the same way:
        // sequence number next-1 with at most one (garbage) byte. Not data, not a retransmission.
        if !fin && missing == 0 && len <= 1 && start == next_i.saturating_sub(1) {
            return;
        }
        let end = start.saturating_add(i64::try_from(len).unwrap_or(i64::MAX));
        // Wireshark's two expert notes, counted per segment: "out-of-order" is data starting beyond every
        // byte seen so far (a hole before it), "retransmission" is data that brings no byte not seen yet.
        if len > 0 && start > i64::try_from(cur.highest).unwrap_or(i64::MAX) {
            ctx.stats.out_of_order_segments = ctx.stats.out_of_order_segments.saturating_add(1);
        }
        let old_before = ctx.stats.retransmitted_bytes;

        if end > 0 && len > 0 {
            // Offsets below 0 are bytes before the base (sent before a midstream pickup, or before the
            // SYN): old data, like bytes below `next`.
            let before_base = if start < 0 { start.unsigned_abs() } else { 0 };
            ctx.stats.retransmitted_bytes = ctx.stats.retransmitted_bytes.saturating_add(before_base);
            let mut span = Span { start: 0, payload, missing: u64::from(missing) };
            span.trim_front(before_base);
            span.start = u64::try_from(start.max(0)).unwrap_or(0);
            self.accept(&mut cur, fin_at, span, frame, ts, ctx);
        } else if len > 0 {
            ctx.stats.retransmitted_bytes = ctx.stats.retransmitted_bytes.saturating_add(len);
        }
        if len > 0 && ctx.stats.retransmitted_bytes.saturating_sub(old_before) >= len {
            ctx.stats.retransmitted_segments = ctx.stats.retransmitted_segments.saturating_add(1);
            if end > i64::try_from(cur.acked).unwrap_or(i64::MAX) {
                cur.resent = cur.resent.saturating_add(1);
            }
        }
        if end > 0 {
            cur.highest = cur.highest.max(u64::try_from(end).unwrap_or(0));
        }

        if fin && fin_at.is_none() && end >= 0 {
            // First FIN wins; whatever a later segment claims beyond it is not part of the stream.
            let f = u64::try_from(end).unwrap_or(0);
            self.truncate_from(f, ctx.budget);
            fin_at = Some(f);
        }
        self.settle(cur, fin_at, ctx);
        if !self.aside.is_empty() {
            self.prune_aside(ctx.budget);
        }
    }

    /// The peer acknowledged up to `ack` (RFC 9293 §3.4: the next sequence number it expects). Bytes below
    /// that which we never saw reached the receiver but not the capture: declare them as gaps now.
    pub(crate) fn peer_ack<F: FnMut(FlowEvent<'_>) + ?Sized>(&mut self, ack: u32, ctx: &mut Ctx<'_, F>) {
        if !self.aside.is_empty() {
            // The receiver took bytes where a damaged segment starts, and no valid copy of them came by.
            self.take_aside(ack, ctx);
        }
        let (mut cur, fin_at) = match self.state {
            StreamState::Open(c) => (c, None),
            StreamState::FinReceived { cur, fin } => (cur, Some(fin)),
            StreamState::Unsynced | StreamState::Ended(_) => return,
        };
        let acked = cur.offset_of(ack);
        let Ok(acked) = u64::try_from(acked) else {
            return;
        };
        if acked > cur.ahead_limit() {
            return;
        }
        if acked > cur.acked {
            cur.resent = 0;
        }
        if acked <= cur.next {
            if acked > cur.acked {
                cur.acked = acked;
                self.settle(cur, fin_at, ctx);
            }
            return;
        }
        cur.acked = acked;
        // The FIN's own sequence number is not a data byte.
        let target = fin_at.map_or(acked, |f| acked.min(f));
        self.flush_to(&mut cur, Some(target), ctx);
        self.settle(cur, fin_at, ctx);
    }

    /// Bytes of this stream the capture saw that the peer never acknowledged. A receiver's TCP
    /// acknowledges what it gets within half a second (RFC 9293 §3.8.6.3, delayed ACKs), so seen bytes
    /// still unacknowledged long after the connection fell silent mean the capture lost the peer's
    /// packets, and probably this stream's later ones with them. Unless the sender resent them again and
    /// again: then its acknowledgements were missing on the wire too, not just from the capture, and the
    /// peer is gone (a client whose link or host went away mid-call, `samples/ecosystem/
    /// situations8-vanish-netns.pcap`). One resend can be a tail-loss probe racing a delayed ACK.
    pub(crate) fn unacked(&self) -> bool {
        match self.state {
            StreamState::Open(c) | StreamState::FinReceived { cur: c, .. } => c.highest.max(c.next) > c.acked && c.resent < GONE_AFTER_RESENDS,
            StreamState::Unsynced | StreamState::Ended(_) => false,
        }
    }

    /// The stream is over (RST, idle, eviction, reuse, end of capture): deliver what can be delivered,
    /// holes as gaps, then `End`. A stream whose FIN was seen ends as `Fin` (its sender did close it; a
    /// hole before the FIN is reported as a gap), any other with `reason`.
    pub(crate) fn terminate<F: FnMut(FlowEvent<'_>) + ?Sized>(
        &mut self,
        reason: EndReason,
        ctx: &mut Ctx<'_, F>,
    ) {
        if !self.aside.is_empty() {
            self.lose_aside(ctx);
        }
        match self.state {
            StreamState::Ended(_) => {}
            StreamState::Unsynced => self.end(reason, ctx),
            StreamState::Open(mut cur) => {
                self.flush_to(&mut cur, None, ctx);
                self.end(reason, ctx);
            }
            StreamState::FinReceived { mut cur, fin } => {
                self.flush_to(&mut cur, Some(fin), ctx);
                self.end(EndReason::Fin, ctx);
            }
        }
    }

    /// Returns this stream's buffered bytes to the global budget and drops them.
    pub(crate) fn release(&mut self, budget: &mut Budget) {
        budget.used = budget.used.saturating_sub(self.stored);
        self.stored = 0;
        self.pieces.clear();
        self.aside.clear();
        self.ranges = Assembler::new();
    }

    fn end<F: FnMut(FlowEvent<'_>) + ?Sized>(&mut self, reason: EndReason, ctx: &mut Ctx<'_, F>) {
        self.release(ctx.budget);
        self.state = StreamState::Ended(reason);
        ctx.end(reason);
    }

    /// Writes the cursor back and ends the stream if everything before the FIN is delivered.
    fn settle<F: FnMut(FlowEvent<'_>) + ?Sized>(
        &mut self,
        cur: Cursor,
        fin_at: Option<u64>,
        ctx: &mut Ctx<'_, F>,
    ) {
        match fin_at {
            Some(f) if cur.next >= f => self.end(EndReason::Fin, ctx),
            Some(fin) => self.state = StreamState::FinReceived { cur, fin },
            None => self.state = StreamState::Open(cur),
        }
    }

    /// Data of one segment at offsets `span` (non-negative; may start below `next`).
    fn accept<F: FnMut(FlowEvent<'_>) + ?Sized>(
        &mut self,
        cur: &mut Cursor,
        fin_at: Option<u64>,
        mut span: Span<'_>,
        frame: u64,
        ts: Timestamp,
        ctx: &mut Ctx<'_, F>,
    ) {
        let stats = &mut *ctx.stats;
        if span.start < cur.next {
            let old = cur.next.min(span.end()).saturating_sub(span.start);
            stats.retransmitted_bytes = stats.retransmitted_bytes.saturating_add(old);
            span.trim_front(cur.next);
        }
        if let Some(f) = fin_at {
            span.trim_back(f);
        }
        if span.is_empty() {
            return;
        }
        // First data wins: compare with what is already held, before anything moves.
        let (overlap, conflict) = self.compare_with_held(&span);
        stats.retransmitted_bytes = stats.retransmitted_bytes.saturating_add(overlap);
        if conflict {
            stats.overlap_conflicts = stats.overlap_conflicts.saturating_add(1);
        }

        let mut cap_counted = false;
        loop {
            span.trim_front(cur.next);
            if span.is_empty() {
                return;
            }
            if span.start == cur.next {
                self.walk_in_order(cur, &span, frame, ts, ctx);
                return;
            }
            if self.store(&span, frame, ts, ctx.budget) {
                return;
            }
            // Out-of-order budget exhausted: give up on the first hole (declare it a gap), deliver what
            // follows it, and try again; at worst this reaches the segment itself, which then goes out
            // directly from the packet.
            if !cap_counted {
                ctx.stats.ooo_cap_hits = ctx.stats.ooo_cap_hits.saturating_add(1);
                cap_counted = true;
            }
            let first = self.pieces.first_key_value().map_or(span.start, |(&k, _)| k);
            let target = first.min(span.start);
            ctx.hole(target.saturating_sub(cur.next));
            cur.next = cur.next.max(target);
            self.drain(cur, ctx);
        }
    }

    /// Bytes of `span` already held in `pieces`, and whether any of them differ.
    fn compare_with_held(&self, span: &Span<'_>) -> (u64, bool) {
        let (a, b) = (span.start, span.end());
        if self.pieces.is_empty() || a >= b {
            return (0, false);
        }
        let from = self.pieces.range(..=a).next_back().map_or(a, |(&k, _)| k);
        let mut overlap = 0u64;
        let mut conflict = false;
        // `from <= a < b`, so the bounds are valid.
        for (&k, piece) in self.pieces.range(from..b) {
            let lo = k.max(a);
            let hi = k.saturating_add(piece.len()).min(b);
            if lo >= hi {
                continue;
            }
            overlap = overlap.saturating_add(hi.saturating_sub(lo));
            if let PieceBody::Bytes(held) = &piece.body {
                let (new, _) = span.part(lo, hi);
                let off = to_usize(lo.saturating_sub(k));
                let old = held.get(off..off.saturating_add(new.len())).unwrap_or(&[]);
                if !new.is_empty() && old != new {
                    conflict = true;
                }
            }
        }
        (overlap, conflict)
    }

    /// `span` starts at `next`: deliver it, interleaved with held pieces (which win where they overlap),
    /// then everything held that has become contiguous.
    fn walk_in_order<F: FnMut(FlowEvent<'_>) + ?Sized>(
        &mut self,
        cur: &mut Cursor,
        span: &Span<'_>,
        frame: u64,
        ts: Timestamp,
        ctx: &mut Ctx<'_, F>,
    ) {
        let end = span.end();
        while cur.next < end {
            let held = self.pieces.first_key_value().map(|(&k, _)| k);
            match held {
                Some(k) if k <= cur.next => self.drain(cur, ctx),
                _ => {
                    let limit = held.map_or(end, |k| k.min(end));
                    let (bytes, missing) = span.part(cur.next, limit);
                    // The fast path: a slice of the packet, no copy.
                    ctx.data(bytes, frame, ts);
                    ctx.gap(missing, true, frame, ts);
                    cur.next = limit;
                }
            }
        }
        self.drain(cur, ctx);
    }

    /// Delivers held pieces while they are contiguous with `next`.
    fn drain<F: FnMut(FlowEvent<'_>) + ?Sized>(&mut self, cur: &mut Cursor, ctx: &mut Ctx<'_, F>) {
        while let Some(entry) = self.pieces.first_entry() {
            let k = *entry.key();
            if k > cur.next {
                break;
            }
            let piece = entry.remove();
            let cost = piece.cost();
            self.refund(cost, ctx.budget);
            let piece_end = k.saturating_add(piece.len());
            if piece_end <= cur.next {
                continue;
            }
            // Normally `k == next`; the skip only guards the invariant.
            let skip = cur.next.saturating_sub(k);
            match &piece.body {
                PieceBody::Bytes(b) => {
                    ctx.data(b.get(to_usize(skip)..).unwrap_or(&[]), piece.frame, piece.ts)
                }
                PieceBody::Missing(n) => ctx.gap(n.saturating_sub(skip), true, piece.frame, piece.ts),
            }
            cur.next = piece_end;
        }
        self.ranges.remove_before(cur.next);
    }

    /// Delivers everything held below `target` (all of it for `None`), declaring each hole a gap; with a
    /// target, the delivery point then moves up to it (the rest of the way is a gap too).
    fn flush_to<F: FnMut(FlowEvent<'_>) + ?Sized>(
        &mut self,
        cur: &mut Cursor,
        target: Option<u64>,
        ctx: &mut Ctx<'_, F>,
    ) {
        while let Some(k) = self.pieces.first_key_value().map(|(&k, _)| k) {
            if target.is_some_and(|t| k >= t) {
                break;
            }
            if k > cur.next {
                ctx.hole(k.saturating_sub(cur.next));
                cur.next = k;
            }
            self.drain(cur, ctx);
        }
        if let Some(t) = target {
            if t > cur.next {
                ctx.hole(t.saturating_sub(cur.next));
                cur.next = t;
                self.ranges.remove_before(t);
            }
        }
    }

    /// Copies the parts of `span` nobody has sent yet into `pieces`. `false` if a budget would be exceeded
    /// (parts stored before that stay stored).
    fn store(&mut self, span: &Span<'_>, frame: u64, ts: Timestamp, budget: &mut Budget) -> bool {
        let mut pos = span.start;
        let end = span.end();
        while let Some((a, b)) = self.ranges.next_uncovered(pos, end) {
            let (bytes, missing) = span.part(a, b);
            if !bytes.is_empty() {
                let piece_cost = bytes.len().saturating_add(PIECE_OVERHEAD);
                if !self.fits(piece_cost, budget) {
                    return false;
                }
                // ALLOC: out-of-order payload copy, bounded by limits::max_ooo_bytes_per_stream and
                // limits::max_ooo_bytes_total (charged with PIECE_OVERHEAD).
                let piece = Piece { frame, ts, body: PieceBody::Bytes(bytes.to_vec()) };
                self.put(a, piece, piece_cost, budget);
            }
            if missing > 0 {
                if !self.fits(PIECE_OVERHEAD, budget) {
                    return false;
                }
                let at = a.saturating_add(len64(bytes));
                // ALLOC: a snap-length marker, bounded like the payload pieces (PIECE_OVERHEAD each).
                self.put(at, Piece { frame, ts, body: PieceBody::Missing(missing) }, PIECE_OVERHEAD, budget);
            }
            pos = b;
        }
        true
    }

    /// Counts `cost` bytes held, in this stream and against the run's budget.
    fn charge(&mut self, cost: usize, budget: &mut Budget) {
        self.stored = self.stored.saturating_add(cost);
        budget.used = budget.used.saturating_add(cost);
    }

    /// Returns `cost` held bytes, in this stream and to the run's budget.
    fn refund(&mut self, cost: usize, budget: &mut Budget) {
        self.stored = self.stored.saturating_sub(cost);
        budget.used = budget.used.saturating_sub(cost);
    }

    fn fits(&self, cost: usize, budget: &Budget) -> bool {
        self.stored.saturating_add(cost) <= budget.per_stream_limit
            && budget.used.saturating_add(cost) <= budget.total_limit
    }

    fn put(&mut self, at: u64, piece: Piece, cost: usize, budget: &mut Budget) {
        let end = at.saturating_add(piece.len());
        self.charge(cost, budget);
        // ALLOC: map entry for the piece, bounded as above.
        self.pieces.insert(at, piece);
        self.ranges.insert(at, end);
    }

    /// Drops held data at or beyond `at` (a FIN's position).
    fn truncate_from(&mut self, at: u64, budget: &mut Budget) {
        // ALLOC: the dropped tail as its own map, freed at once (rare: a FIN below held data).
        let tail = self.pieces.split_off(&at);
        let mut freed = tail.values().map(Piece::cost).fold(0usize, usize::saturating_add);
        if let Some(mut last) = self.pieces.last_entry() {
            // `key < at`, so at least one byte of this piece stays.
            let keep = at.saturating_sub(*last.key());
            let piece = last.get_mut();
            if piece.len() > keep {
                let before = piece.cost();
                match &mut piece.body {
                    PieceBody::Bytes(b) => b.truncate(to_usize(keep)),
                    PieceBody::Missing(n) => *n = keep,
                }
                freed = freed.saturating_add(before.saturating_sub(piece.cost()));
            }
        }
        self.refund(freed, budget);
        self.ranges.remove_from(at);
    }

    #[cfg(test)]
    fn held_bytes(&self) -> usize {
        self.stored
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;

    /// Owned copy of an event, for assertions.
    #[derive(Debug, Clone, PartialEq, Eq)]
    enum Ev {
        Data(Vec<u8>, u64),
        /// Bytes the capture never saw (a hole).
        Gap(u64),
        /// Bytes the snap length cut from records it holds.
        Cut(u64),
        End(EndReason),
    }

    struct Harness {
        stream: Stream,
        stats: ReassemblyStats,
        budget: Budget,
        events: Vec<Ev>,
        frame: u64,
    }

    const ISN: u32 = 1000;

    impl Harness {
        fn new(per_stream: usize, total: usize) -> Self {
            let mut stream = Stream::default();
            stream.sync(ISN);
            Harness {
                stream,
                stats: ReassemblyStats::default(),
                budget: Budget::new(total, per_stream),
                events: Vec::new(),
                frame: 0,
            }
        }

        fn with_base(base: u32) -> Self {
            let mut h = Harness::new(1 << 20, 1 << 20);
            h.stream = Stream::default();
            h.stream.sync(base);
            h
        }

        fn run(&mut self, f: impl FnOnce(&mut Stream, &mut Ctx<'_, dyn FnMut(FlowEvent<'_>) + '_>, u64)) {
            self.frame += 1;
            let frame = self.frame;
            let Harness { stream, stats, budget, events, .. } = self;
            let mut sink = |ev: FlowEvent<'_>| match ev {
                FlowEvent::Data { bytes, frame, .. } => events.push(Ev::Data(bytes.to_vec(), frame)),
                FlowEvent::Gap { len, cut: false, .. } => events.push(Ev::Gap(len)),
                FlowEvent::Gap { len, cut: true, .. } => events.push(Ev::Cut(len)),
                FlowEvent::End { reason, .. } => events.push(Ev::End(reason)),
                FlowEvent::Open { .. } | FlowEvent::Close { .. } | FlowEvent::Unacked { .. } => panic!("stream never emits {ev:?}"),
            };
            let mut ctx = Ctx {
                conn: ConnId(1),
                dir: Direction::ToServer,
                frame,
                ts: Timestamp(frame as i64),
                held_open: None,
                stats,
                budget,
                out: &mut sink as &mut dyn FnMut(FlowEvent<'_>),
            };
            f(stream, &mut ctx, frame);
        }

        /// Data segment at stream offset `off` (relative to ISN).
        fn seg(&mut self, off: u32, data: &[u8]) {
            self.seg_full(ISN.wrapping_add(off), data, 0, false);
        }

        fn seg_full(&mut self, seq: u32, data: &[u8], missing: u32, fin: bool) {
            self.run(|s, ctx, frame| {
                s.segment(seq, false, fin, data, missing, frame, Timestamp(frame as i64), ctx)
            });
        }

        fn fin(&mut self, off: u32) {
            self.seg_full(ISN.wrapping_add(off), b"", 0, true);
        }

        fn ack(&mut self, off: u32) {
            self.run(|s, ctx, _| s.peer_ack(ISN.wrapping_add(off), ctx));
        }

        /// A segment as the connection hands it over: screened for damage first (`right`: its checksum
        /// is right), then, unless set aside, taken.
        fn wire(&mut self, off: u32, data: &[u8], fin: bool, right: bool) {
            use crate::decode::{Check, TcpFlags};
            let check = Check::for_payload(data, right);
            self.run(|s, ctx, frame| {
                let seg = TcpSegment {
                    frame,
                    ts: Timestamp(frame as i64),
                    src: "192.0.2.1:40000".parse().unwrap(),
                    dst: "192.0.2.2:80".parse().unwrap(),
                    seq: ISN.wrapping_add(off),
                    ack: 0,
                    flags: TcpFlags { fin, ack: true, ..TcpFlags::default() },
                    window: 1000,
                    payload: data,
                    missing: 0,
                    tunnel: None,
                    check,
                };
                if !s.screen(&seg, ctx) {
                    s.segment(seg.seq, false, fin, data, 0, frame, seg.ts, ctx);
                }
            });
        }

        /// Two segments with right checksums: the direction's checksums are trusted from here on.
        fn trusted(&mut self) {
            self.wire(0, b"GET ", false, true);
            self.wire(4, b"/a ", false, true);
            assert_eq!(self.stream.trust, Trust::Trusted);
        }

        fn terminate(&mut self, reason: EndReason) {
            self.run(|s, ctx, _| s.terminate(reason, ctx));
        }

        fn take(&mut self) -> Vec<Ev> {
            std::mem::take(&mut self.events)
        }

        /// Concatenated data, with gaps as `#` per missing byte.
        fn text(&self) -> String {
            let mut s = String::new();
            for e in &self.events {
                match e {
                    Ev::Data(b, _) => s.push_str(&String::from_utf8_lossy(b)),
                    Ev::Gap(n) | Ev::Cut(n) => s.push_str(&"#".repeat(*n as usize)),
                    Ev::End(_) => s.push('|'),
                }
            }
            s
        }
    }

    #[test]
    fn stream_in_order_goes_out_at_once_with_its_frame() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(0, b"hello ");
        h.seg(6, b"world");
        assert_eq!(h.take(), vec![Ev::Data(b"hello ".to_vec(), 1), Ev::Data(b"world".to_vec(), 2)]);
        assert_eq!(h.stats.retransmitted_bytes, 0);
        assert_eq!(h.stream.held_bytes(), 0);
    }

    #[test]
    fn stream_out_of_order_is_held_then_delivered_with_original_frames() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(10, b"KLMNO"); // frame 1
        h.seg(5, b"FGHIJ"); // frame 2
        assert!(h.take().is_empty());
        assert!(h.stream.held_bytes() > 0);
        h.seg(0, b"ABCDE"); // frame 3
        assert_eq!(
            h.take(),
            vec![
                Ev::Data(b"ABCDE".to_vec(), 3),
                Ev::Data(b"FGHIJ".to_vec(), 2),
                Ev::Data(b"KLMNO".to_vec(), 1)
            ]
        );
        assert_eq!(h.stream.held_bytes(), 0);
        assert_eq!(h.budget.used, 0);
    }

    #[test]
    fn stream_duplicates_are_ignored_and_counted() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(0, b"abcd");
        h.seg(0, b"abcd");
        h.seg(8, b"ijkl");
        h.seg(8, b"ijkl");
        h.seg(4, b"efgh");
        assert_eq!(h.text(), "abcdefghijkl");
        assert_eq!(h.stats.retransmitted_bytes, 8);
        assert_eq!(h.stats.overlap_conflicts, 0);
        // The repeat of delivered "abcd" and of held "ijkl"; "ijkl" overtook "efgh" once.
        assert_eq!(h.stats.retransmitted_segments, 2);
        assert_eq!(h.stats.out_of_order_segments, 1);
    }

    #[test]
    fn stream_segment_counters_follow_wiresharks_notes() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(0, b"ab");
        h.seg(4, b"ef"); // hole before it: out of order
        h.seg(8, b"ij"); // beyond every byte seen: out of order again
        h.seg(6, b"gh"); // fills a hole, behind the highest byte: neither
        h.seg(1, b"bcd"); // "b" old, "cd" new: not a retransmission
        h.seg(0, b"abcdefgh"); // nothing new
        assert_eq!(h.text(), "abcdefghij");
        assert_eq!((h.stats.out_of_order_segments, h.stats.retransmitted_segments), (2, 1));
        h.seg_full(ISN.wrapping_add(9), b"", 0, false); // an empty segment counts as neither
        assert_eq!((h.stats.out_of_order_segments, h.stats.retransmitted_segments), (2, 1));
    }

    #[test]
    fn stream_overlap_with_same_bytes_contributes_only_new_bytes() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(0, b"abc");
        h.seg(6, b"ghi");
        h.seg(1, b"bcdefghij"); // overlaps delivered "bc", fills "def", overlaps held "ghi", adds "j"
        assert_eq!(h.text(), "abcdefghij");
        assert_eq!(h.stats.retransmitted_bytes, 2 + 3);
        assert_eq!(h.stats.overlap_conflicts, 0);
    }

    #[test]
    fn stream_overlap_with_different_bytes_first_wins_and_conflict_counted() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(0, b"abc");
        h.seg(6, b"ghi"); // held
        h.seg(6, b"GXI"); // different copy of a held range
        assert_eq!(h.stats.overlap_conflicts, 1);
        h.seg(3, b"defGHIjk"); // fills the hole; its "GHI" differs from the held "ghi"
        assert_eq!(h.text(), "abcdefghijk");
        assert_eq!(h.stats.overlap_conflicts, 2);
        assert_eq!(h.stats.retransmitted_bytes, 3 + 3);
    }

    #[test]
    fn stream_held_piece_beats_in_order_segment_over_it() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(4, b"EF"); // frame 1
        h.seg(0, b"abcdefgh"); // frame 2: "ef" loses to the held "EF"
        assert_eq!(
            h.take(),
            vec![Ev::Data(b"abcd".to_vec(), 2), Ev::Data(b"EF".to_vec(), 1), Ev::Data(b"gh".to_vec(), 2)]
        );
        assert_eq!(h.stats.overlap_conflicts, 1);
    }

    #[test]
    fn stream_wraparound_across_2_pow_32() {
        let base = u32::MAX - 4; // offset 5 is sequence number 0
        let mut h = Harness::with_base(base);
        h.seg_full(base.wrapping_add(8), b"IJKL", 0, false); // after the wrap, out of order
        h.seg_full(base, b"ABCDEFGH", 0, false); // crosses 2^32
        h.seg_full(base.wrapping_add(12), b"MN", 0, false);
        assert_eq!(h.text(), "ABCDEFGHIJKLMN");
        h.seg_full(base.wrapping_add(3), b"DEF", 0, false); // old data across the wrap
        assert_eq!(h.stats.retransmitted_bytes, 3);
        assert_eq!(h.text(), "ABCDEFGHIJKLMN");
    }

    #[test]
    fn stream_offset_extends_past_4_gib() {
        let mut c = Cursor::new(7);
        c.next = (1u64 << 32) + 100;
        assert_eq!(c.offset_of(7u32.wrapping_add(100)), (1i64 << 32) + 100);
        assert_eq!(c.offset_of(7u32.wrapping_add(90)), (1i64 << 32) + 90);
        assert_eq!(c.offset_of(7u32.wrapping_add(200)), (1i64 << 32) + 200);
        c.next = (3u64 << 32) - 10;
        assert_eq!(c.offset_of(7u32.wrapping_add(5)), (3i64 << 32) + 5, "next byte after a wrap");
        let fresh = Cursor::new(7);
        assert_eq!(fresh.offset_of(6), -1);
    }

    #[test]
    fn stream_cap_hit_declares_gap_and_delivers_held_data() {
        // Room for one 4-byte piece (4 + overhead) but not two.
        let mut h = Harness::new(4 + PIECE_OVERHEAD, 1 << 20);
        h.seg(0, b"ab");
        h.seg(4, b"efgh"); // held
        assert_eq!(h.text(), "ab");
        h.seg(10, b"klmn"); // does not fit: hole [2,4) becomes a gap, "efgh" goes out, "klmn" is held
        assert_eq!(h.text(), "ab##efgh");
        assert_eq!(h.stats.ooo_cap_hits, 1);
        assert_eq!(h.stats.gaps, 1);
        assert_eq!(h.stats.missed_bytes, 2);
        h.seg(8, b"ij");
        assert_eq!(h.text(), "ab##efghijklmn");
        assert_eq!(h.budget.used, 0);
    }

    #[test]
    fn stream_segment_larger_than_cap_goes_out_directly_after_a_gap() {
        let mut h = Harness::new(0, 0);
        h.seg(0, b"ab");
        h.seg(5, b"fgh");
        assert_eq!(h.text(), "ab###fgh");
        assert_eq!(h.stats.ooo_cap_hits, 1);
        h.seg(2, b"cde"); // too late: already declared a gap
        assert_eq!(h.text(), "ab###fgh");
        assert_eq!(h.stats.retransmitted_bytes, 3);
    }

    #[test]
    fn stream_global_budget_is_shared_and_returned() {
        let mut h = Harness::new(1 << 20, 10 + PIECE_OVERHEAD);
        h.seg(5, b"0123456789");
        assert_eq!(h.budget.used, 10 + PIECE_OVERHEAD);
        h.budget.used += 1; // another stream took one byte: the next piece no longer fits globally
        h.seg(20, b"x");
        assert_eq!(h.stats.ooo_cap_hits, 1);
        assert_eq!(h.text(), "#####0123456789");
        assert_eq!(h.budget.used, 1 + 1 + PIECE_OVERHEAD, "only the held 'x' remains charged");
        h.terminate(EndReason::EndOfCapture);
        assert_eq!(h.text(), "#####0123456789#####x|");
        assert_eq!(h.budget.used, 1);
    }

    #[test]
    fn stream_snap_truncated_in_order_segment_gives_gap_of_missing_bytes() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg_full(ISN, b"abcd", 6, false);
        h.seg(10, b"klm");
        assert_eq!(h.take(), vec![Ev::Data(b"abcd".to_vec(), 1), Ev::Cut(6), Ev::Data(b"klm".to_vec(), 2)]);
        assert_eq!(h.stats.missed_bytes, 6);
        assert_eq!(h.stats.gaps, 1);
    }

    #[test]
    fn stream_snap_truncated_out_of_order_segment_keeps_its_place() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg_full(ISN + 4, b"ef", 3, false); // frame 1: offsets 4..6 present, 6..9 cut
        h.seg(9, b"jk"); // frame 2
        h.seg(6, b"GHI"); // frame 3: first wins, the cut range stays a gap
        h.seg(0, b"abcd"); // frame 4
        assert_eq!(
            h.take(),
            vec![
                Ev::Data(b"abcd".to_vec(), 4),
                Ev::Data(b"ef".to_vec(), 1),
                Ev::Cut(3),
                Ev::Data(b"jk".to_vec(), 2),
            ]
        );
        assert_eq!(h.stats.missed_bytes, 3);
    }

    #[test]
    fn stream_fin_waits_for_hole_then_ends() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(0, b"ab");
        h.seg_full(ISN + 4, b"ef", 0, true); // FIN at offset 6, hole [2,4)
        assert_eq!(h.text(), "ab");
        assert!(matches!(h.stream.state(), StreamState::FinReceived { fin: 6, .. }));
        h.seg(2, b"cd");
        assert_eq!(h.text(), "abcdef|");
        assert!(h.stream.is_ended());
        h.seg(0, b"abcdef"); // after the end: ignored
        assert_eq!(h.text(), "abcdef|");
    }

    #[test]
    fn stream_data_beyond_fin_is_dropped() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(5, b"fghij"); // held beyond the coming FIN
        h.fin(3);
        assert_eq!(h.stream.held_bytes(), 0);
        h.seg(0, b"abcXYZ");
        assert_eq!(h.text(), "abc|");
        assert_eq!(h.budget.used, 0);
    }

    #[test]
    fn stream_peer_ack_beyond_seen_declares_gap() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(0, b"ab");
        h.seg(5, b"fg");
        h.ack(2); // nothing new
        assert_eq!(h.text(), "ab");
        h.ack(10); // the receiver has 0..10: [2,5) and [7,10) never reached the capture
        assert_eq!(h.text(), "ab###fg###");
        h.seg(10, b"kl");
        assert_eq!(h.text(), "ab###fg###kl");
        h.ack(1 << 31); // bogus: far beyond anything sent
        assert_eq!(h.text(), "ab###fg###kl");
    }

    #[test]
    fn stream_peer_ack_of_fin_completes_the_stream() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(0, b"ab");
        h.seg_full(ISN + 4, b"ef", 0, true);
        h.ack(7); // acks the FIN (offset 6 + 1)
        assert_eq!(h.text(), "ab##ef|");
    }

    #[test]
    fn stream_keepalive_and_zero_window_probe_produce_nothing() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(0, b"abc");
        h.seg(2, b"\0"); // keep-alive: one garbage byte at next-1
        h.seg(2, b""); // keep-alive without data
        h.seg(3, b""); // pure ACK
        assert_eq!(h.text(), "abc");
        assert_eq!(h.stats.retransmitted_bytes, 0);
        assert_eq!(h.stats.gaps, 0);
        // Keep-alive before any data (at the base - 1).
        let mut k = Harness::new(1 << 20, 1 << 20);
        k.seg_full(ISN - 1, b"\0", 0, false);
        k.seg(0, b"x");
        assert_eq!(k.text(), "x");
    }

    #[test]
    fn stream_far_future_segment_is_ignored() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(0, b"a");
        h.seg(0x7000_0000, b"bogus");
        assert_eq!(h.stream.held_bytes(), 0);
        h.terminate(EndReason::Rst);
        assert_eq!(h.text(), "a|");
        assert_eq!(h.take().last(), Some(&Ev::End(EndReason::Rst)));
    }

    #[test]
    fn stream_terminate_flushes_held_data_with_gaps() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg(3, b"de");
        h.seg(8, b"i");
        h.terminate(EndReason::Idle);
        assert_eq!(h.text(), "###de###i|");
        assert_eq!(h.take().last(), Some(&Ev::End(EndReason::Idle)));
        assert_eq!(h.budget.used, 0);
    }

    #[test]
    fn stream_terminate_with_fin_pending_ends_as_fin() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.seg_full(ISN + 2, b"cd", 0, true);
        h.terminate(EndReason::EndOfCapture);
        assert_eq!(h.text(), "##cd|");
        assert_eq!(h.take().last(), Some(&Ev::End(EndReason::Fin)));
    }

    #[test]
    fn stream_syn_occupies_one_sequence_number() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.stream = Stream::default();
        // SYN with data (TCP Fast Open): the data starts after the SYN's sequence number.
        h.run(|s, ctx, frame| s.segment(500, true, false, b"tfo", 0, frame, Timestamp(0), ctx));
        assert_eq!(h.stream.base(), Some(501));
        h.seg_full(504, b"!", 0, false);
        assert_eq!(h.text(), "tfo!");
    }

    #[test]
    fn stream_span_trims_and_parts() {
        let mut s = Span { start: 10, payload: b"abcd", missing: 3 };
        assert_eq!(s.end(), 17);
        assert_eq!(s.part(12, 16), (&b"cd"[..], 2));
        assert_eq!(s.part(15, 30), (&b""[..], 2));
        assert_eq!(s.part(0, 11), (&b"a"[..], 0));
        s.trim_front(12);
        assert_eq!((s.start, s.payload, s.missing), (12, &b"cd"[..], 3));
        s.trim_back(15);
        assert_eq!((s.start, s.payload, s.missing), (12, &b"cd"[..], 1));
        s.trim_front(15);
        assert!(s.is_empty());
        let mut t = Span { start: 0, payload: b"ab", missing: 4 };
        t.trim_front(4);
        assert_eq!((t.start, t.payload.len(), t.missing), (4, 0, 2));
        t.trim_back(3);
        assert!(t.is_empty() || t.end() <= 4);
    }

    #[test]
    fn stream_damaged_segment_gives_way_to_its_valid_copy() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.trusted(); // frames 1, 2
        h.wire(7, b"XTTP", false, false); // frame 3: damaged on the way
        h.wire(11, b"/1.1", false, true); // frame 4: after the hole
        assert_eq!(h.text(), "GET /a ");
        h.wire(7, b"HTTP", false, true); // frame 5: the resent copy
        let evs = h.take();
        assert_eq!(evs[2..], [Ev::Data(b"HTTP".to_vec(), 5), Ev::Data(b"/1.1".to_vec(), 4)]);
        assert_eq!((h.stats.damaged_segments, h.stats.damaged_taken), (1, 0));
        // The damaged copy is forgotten: an acknowledgement past it takes nothing more.
        h.ack(15);
        assert!(h.take().is_empty());
        assert_eq!((h.stream.held_bytes(), h.budget.used), (0, 0));
        assert_eq!(h.stats.overlap_conflicts, 0);
    }

    #[test]
    fn stream_damaged_segment_its_receiver_acknowledged_is_taken_with_its_own_frame() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.trusted();
        h.take();
        h.wire(7, b"DATA", false, false); // frame 3
        h.ack(7); // a duplicate acknowledgement: the receiver is still waiting for offset 7
        assert!(h.take().is_empty());
        h.ack(9); // it took bytes at offset 7 and on: the sum was wrong in the capture only
        assert_eq!(h.take(), vec![Ev::Data(b"DATA".to_vec(), 3)]);
        assert_eq!((h.stats.damaged_segments, h.stats.damaged_taken, h.stats.gaps), (1, 1, 0));
        assert_eq!((h.stream.held_bytes(), h.budget.used), (0, 0));
    }

    #[test]
    fn stream_ending_with_a_damaged_segment_aside_shows_its_bytes_as_a_gap() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.trusted();
        h.wire(7, b"tail", false, false); // frame 3
        h.wire(11, b"!", false, true); // frame 4, held behind the hole
        h.wire(12, b"", true, false); // a damaged FIN: not where the hole ends
        h.terminate(EndReason::Rst);
        assert_eq!(h.text(), "GET /a ####!|");
        assert_eq!((h.stats.damaged_segments, h.stats.damaged_taken, h.stats.damaged_lost, h.stats.gaps), (2, 0, 2, 1));
        assert_eq!(h.budget.used, 0);
    }

    #[test]
    fn stream_syn_sums_count_toward_trust() {
        use crate::decode::{Check, TcpFlags};
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.stream = Stream::default();
        let syn = TcpSegment {
            frame: 1,
            ts: Timestamp(1),
            src: "192.0.2.2:80".parse().unwrap(),
            dst: "192.0.2.1:40000".parse().unwrap(),
            seq: ISN.wrapping_sub(1),
            ack: 1,
            flags: TcpFlags { syn: true, ack: true, ..TcpFlags::default() },
            window: 1000,
            payload: b"",
            missing: 0,
            tunnel: None,
            check: Check::for_payload(b"", true),
        };
        h.run(|s, ctx, _| assert!(!s.screen(&syn, ctx)));
        h.stream.sync(ISN);
        // The SYN-ACK and one acknowledgement: a response head damaged next is already judged.
        h.wire(0, b"", false, true);
        h.wire(0, b"HTTP/1.1 5", false, false);
        h.wire(0, b"HTTP/1.1 2", false, true);
        assert_eq!(h.text(), "HTTP/1.1 2");
        assert_eq!(h.stats.damaged_segments, 1);
    }

    #[test]
    fn stream_damaged_fin_waits_for_the_valid_one() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.trusted();
        h.wire(7, b"", true, false);
        assert!(!h.stream.is_ended());
        assert_eq!(h.text(), "GET /a ");
        h.wire(7, b"", true, true);
        assert_eq!(h.text(), "GET /a |");
        assert_eq!((h.stats.damaged_segments, h.stats.damaged_taken, h.budget.used), (1, 0, 0));
    }

    #[test]
    fn stream_wrong_sums_before_trust_are_taken_as_they_are() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.wire(0, b"GET ", false, false); // the first sum is wrong: offload, a rewritten capture, unknown
        h.wire(4, b"/a ", false, true);
        h.wire(7, b"HTTP", false, false);
        assert_eq!(h.text(), "GET /a HTTP");
        assert_eq!(h.stream.trust, Trust::Off);
        assert_eq!(h.stats.damaged_segments, 0);
    }

    #[test]
    fn stream_damaged_segment_beyond_the_budget_is_taken_and_counted() {
        let mut h = Harness::new(PIECE_OVERHEAD + 2, 1 << 20);
        h.trusted();
        h.wire(7, b"HTTP", false, false);
        assert_eq!(h.text(), "GET /a HTTP");
        assert_eq!((h.stats.damaged_segments, h.stats.damaged_taken), (1, 1));
    }

    #[test]
    fn stream_holds_a_bounded_number_of_damaged_segments_aside() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.trusted();
        for i in 0..=MAX_ASIDE as u32 {
            h.wire(100 + i, b"x", false, false);
        }
        assert_eq!(h.stream.aside.len(), MAX_ASIDE);
        assert_eq!((h.stats.damaged_segments, h.stats.damaged_taken), (MAX_ASIDE as u64 + 1, 1));
    }

    #[test]
    fn stream_damaged_empty_segment_is_ignored() {
        let mut h = Harness::new(1 << 20, 1 << 20);
        h.trusted();
        h.wire(7, b"", false, false);
        h.wire(7, b"HTTP", false, true);
        assert_eq!(h.text(), "GET /a HTTP");
        assert_eq!((h.stats.damaged_segments, h.stats.damaged_taken, h.budget.used), (1, 0, 0));
    }
}
