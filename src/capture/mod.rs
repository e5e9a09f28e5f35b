//! Capture: where packets come from. Yields `RawPacket`s with Wireshark-compatible 1-based frame numbers and
//! the record's own timestamp. Knows nothing of IP or TCP.

pub mod file;
pub mod handoff;
pub mod savefile;
#[cfg(feature = "live")]
pub mod engine;
#[cfg(feature = "live")]
pub mod live;
#[cfg(feature = "live")]
pub mod mover;

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

    /// The `LINKTYPE_` name (without the prefix) of the link types people meet in captures, from
    /// <https://www.tcpdump.org/linktypes.html>; `unknown` for the rest (the number is always shown too).
    pub fn name(self) -> &'static str {
        match self.0 {
            0 => "NULL",
            1 => "ETHERNET",
            6 => "IEEE802_5",
            8 => "SLIP",
            9 => "PPP",
            10 => "FDDI",
            50 => "PPP_HDLC",
            51 => "PPP_ETHER",
            101 => "RAW",
            104 => "C_HDLC",
            105 => "IEEE802_11",
            107 => "FRELAY",
            108 => "LOOP",
            113 => "LINUX_SLL",
            119 => "IEEE802_11_PRISM",
            127 => "IEEE802_11_RADIOTAP",
            147..=162 => "USER",
            163 => "IEEE802_11_AVS",
            187 => "BLUETOOTH_HCI_H4",
            189 => "USB_LINUX",
            192 => "PPI",
            195 => "IEEE802_15_4_WITHFCS",
            201 => "BLUETOOTH_HCI_H4_WITH_PHDR",
            215 => "IEEE802_15_4_NONASK_PHY",
            220 => "USB_LINUX_MMAPPED",
            228 => "IPV4",
            229 => "IPV6",
            249 => "USBPCAP",
            251 => "BLUETOOTH_LE_LL",
            253 => "NETLINK",
            256 => "BLUETOOTH_LE_LL_WITH_PHDR",
            276 => "LINUX_SLL2",
            _ => "unknown",
        }
    }
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
