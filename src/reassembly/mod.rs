//! TCP reassembly: turns segments of both directions into ordered byte streams per connection, with gaps
//! and ends made explicit (`FlowEvent`). Knows nothing of HTTP.

use std::net::SocketAddr;

use crate::decode::flow_key::Direction;
use crate::time::Timestamp;

/// A connection's identity for its whole life; a new connection on a reused 4-tuple gets a new id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ConnId(pub u64);

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
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Fin => "fin",
            EndReason::Rst => "rst",
            EndReason::Idle => "idle",
            EndReason::Evicted => "evicted",
            EndReason::EndOfCapture => "end-of-capture",
        }
    }
}

/// What reassembly hands to the HTTP layer, in stream order per direction.
#[derive(Debug, Clone, Copy)]
pub enum FlowEvent<'a> {
    /// A new connection; `client` is the SYN sender, or a heuristic guess for a midstream pickup.
    Open { conn: ConnId, client: SocketAddr, server: SocketAddr, frame: u64, ts: Timestamp },
    /// In-order bytes; `frame`/`ts` are those of the packet that carried them.
    Data { conn: ConnId, dir: Direction, bytes: &'a [u8], frame: u64, ts: Timestamp },
    /// `len` bytes at this point of the stream were never seen (loss, snap length, cap hit).
    Gap { conn: ConnId, dir: Direction, len: u64, frame: u64, ts: Timestamp },
    /// No more bytes will come in this direction.
    End { conn: ConnId, dir: Direction, reason: EndReason, frame: u64, ts: Timestamp },
    /// Both directions ended; the connection's state is released.
    Close { conn: ConnId, ts: Timestamp },
}

/// Counters for the summary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReassemblyStats {
    pub connections: u64,
    pub midstream_pickups: u64,
    pub gaps: u64,
    pub missed_bytes: u64,
    pub retransmitted_bytes: u64,
    pub overlap_conflicts: u64,
    pub ooo_cap_hits: u64,
    pub connection_cap_hits: u64,
}
