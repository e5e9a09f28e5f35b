//! Decode: `RawPacket` -> `TcpSegment` with etherparse. Drops what is not TCP over IPv4/IPv6; counts what
//! it cannot decode. The TCP payload length comes from the IP header, never the frame length, so Ethernet
//! padding never becomes stream bytes.

pub mod flow_key;

use std::net::SocketAddr;

use crate::capture::RawPacket;
use crate::time::Timestamp;

/// TCP flags mcptap uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TcpFlags {
    pub syn: bool,
    pub ack: bool,
    pub fin: bool,
    pub rst: bool,
    pub psh: bool,
}

/// One TCP segment, borrowing the packet.
#[derive(Debug, Clone, Copy)]
pub struct TcpSegment<'a> {
    pub frame: u64,
    pub ts: Timestamp,
    pub src: SocketAddr,
    pub dst: SocketAddr,
    pub seq: u32,
    pub ack: u32,
    pub flags: TcpFlags,
    pub window: u16,
    /// Payload bytes present in the capture.
    pub payload: &'a [u8],
    /// Payload bytes the IP header announces but the snap length cut off (a gap after `payload`).
    pub missing: u32,
}

/// Why a packet was not turned into a segment. Counted in the summary.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Skip {
    /// Valid, but not TCP over IP (ARP, UDP, ICMP, ...).
    NotTcp,
    /// A link type mcptap does not decode.
    UnsupportedLinkType,
    /// Headers that do not parse (truncated or malformed).
    Malformed,
    /// An IP fragment (mcptap does not reassemble IP fragments).
    Fragment,
}
