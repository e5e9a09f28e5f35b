//! Capture: where packets come from. Yields `RawPacket`s with Wireshark-compatible 1-based frame numbers and
//! the record's own timestamp. Knows nothing of IP or TCP.

pub mod file;
pub mod handoff;
#[cfg(feature = "live")]
pub mod live;

use crate::time::Timestamp;

/// libpcap LINKTYPE_* values mcptap decodes (https://www.tcpdump.org/linktypes.html).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LinkType(pub u32);

impl LinkType {
    pub const NULL: LinkType = LinkType(0);
    pub const ETHERNET: LinkType = LinkType(1);
    pub const RAW: LinkType = LinkType(101);
    pub const LOOP: LinkType = LinkType(108);
    pub const LINUX_SLL: LinkType = LinkType(113);
    pub const IPV4: LinkType = LinkType(228);
    pub const IPV6: LinkType = LinkType(229);
    pub const LINUX_SLL2: LinkType = LinkType(276);
}

/// One captured packet, borrowing the reader's buffer (zero copy).
#[derive(Debug, Clone, Copy)]
pub struct RawPacket<'a> {
    /// 1-based frame number in capture order, as Wireshark numbers it (for several files: merged order).
    pub frame: u64,
    pub ts: Timestamp,
    pub linktype: LinkType,
    /// Captured bytes (caplen).
    pub data: &'a [u8],
    /// Length on the wire (origlen); larger than `data.len()` when the snap length cut the packet.
    pub wire_len: u32,
}

/// Counted, non-fatal problems met while reading capture files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaptureStats {
    /// Records whose caplen is below their wire length (snap length).
    pub truncated_records: u64,
    /// A last record cut short by the end of the file (counted, not fatal).
    pub truncated_tail: u64,
    /// pcapng blocks of types mcptap does not use, skipped.
    pub skipped_blocks: u64,
    /// Bytes read from all inputs.
    pub bytes_read: u64,
}

pub use file::{CaptureError, CaptureErrorKind, CaptureReader, Corruption};
