//! The reader's errors: fatal ones as `CaptureError` (`<input>: <what>`), and what is corrupt in a record
//! or block header.

use std::io;

use crate::io_reason;

/// A capture input that cannot be read. Displays as one line: `<input>: <what>`.
#[derive(Debug, thiserror::Error)]
#[error("{input}: {kind}")]
pub struct CaptureError {
    /// The path as given, or `<stdin>`.
    pub input: String,
    pub kind: CaptureErrorKind,
}

/// What went wrong. The OS error text is part of the message, so `source()` is empty (an error-chain
/// printer would otherwise repeat it).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CaptureErrorKind {
    /// The file could not be opened (missing, permissions, ...).
    #[error("cannot open: {}", io_reason(.0))]
    Open(io::Error),
    /// The path names a directory.
    #[error("is a directory, not a capture file")]
    IsDirectory,
    /// The input holds no bytes at all.
    #[error("empty file")]
    Empty,
    /// The first bytes are no pcap or pcapng magic number (shown as read, big-endian).
    #[error("not a pcap or pcapng file (magic 0x{})", hex(.magic))]
    NotCapture { magic: Vec<u8> },
    /// A pcap magic number of a variant mcptap does not read.
    #[error("unsupported capture format ({what})")]
    Unsupported { what: &'static str },
    /// pcap-parser rejected a pcap file header whose magic and length were fine.
    #[error("unreadable file header")]
    BadHeader,
    /// The input ends inside the pcap file header or the first pcapng section header block.
    #[error("truncated file header ({got} of {need} bytes)")]
    TruncatedHeader { got: usize, need: usize },
    /// The operating system failed a read.
    #[error("read error at offset {offset}: {}", io_reason(.error))]
    Read { offset: u64, error: io::Error },
    /// A classic pcap record header that cannot be right. `index` counts records from 1.
    #[error("record {index} at offset {offset}: {problem}")]
    Record {
        index: u64,
        offset: u64,
        problem: Corruption,
    },
    /// A pcapng block that cannot be right.
    #[error("block at offset {offset}: {problem}")]
    Block { offset: u64, problem: Corruption },
}

/// A header field that makes the rest of the file unreadable.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Corruption {
    #[error("caplen {caplen} exceeds the maximum of {max} bytes")]
    CaplenTooLarge { caplen: u32, max: usize },
    #[error("block length {len} exceeds the maximum of {max} bytes")]
    BlockTooLarge { len: u32, max: usize },
    #[error("{block} block length {len} is below the minimum of {min} bytes")]
    BlockTooShort {
        block: &'static str,
        len: u32,
        min: u32,
    },
    #[error("block length {len} is not a multiple of 4")]
    BlockLenUnaligned { len: u32 },
    #[error("trailing block length {trailing} does not match leading block length {leading}")]
    TrailerMismatch { leading: u32, trailing: u32 },
    #[error("caplen {caplen} exceeds the {room} bytes of packet data in the {block} block")]
    CaplenExceedsBlock {
        block: &'static str,
        caplen: u32,
        room: usize,
    },
    #[error("invalid byte-order magic 0x{bom:08x} in section header block")]
    BadByteOrderMagic { bom: u32 },
    #[error("unsupported pcapng version {major}.{minor}")]
    UnsupportedVersion { major: u16, minor: u16 },
    #[error("if_tsresol 0x{value:02x} is out of range")]
    BadTsresol { value: u8 },
    #[error("cannot parse {block} block")]
    Unparsable { block: &'static str },
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
