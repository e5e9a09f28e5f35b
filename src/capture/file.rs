//! Offline capture input: classic pcap and pcapng files (or standard input), streamed through one fixed
//! buffer per input and yielded as `RawPacket`s that borrow that buffer (zero copy). Several inputs are
//! merged by timestamp into one capture, so rotated files are analysed as one.
//!
//! Owns: format detection by magic number (never by file name), record and block framing, per-interface
//! link type and timestamp resolution, the k-way merge, frame numbering, and the reader's error messages.
//! Must not: look inside packets (that is `decode`), read the wall clock, or allocate per packet.
//!
//! Specs: classic pcap is draft-ietf-opsawg-pcap, pcapng is draft-ietf-opsawg-pcapng, link types are
//! <https://www.tcpdump.org/linktypes.html>.
//!
//! # How pcap-parser is used
//! Each input is a `pcap_parser` streaming reader (`LegacyPcapReader` / `PcapNGReader`, driven through
//! `PcapReaderIterator`): it owns the fixed buffer, and `refill()` / `consume_noshift()` / `grow()` manage
//! it. `next()` parses the metadata blocks (the pcap file header, pcapng SHB and IDB with their options).
//! Packet records (pcap records, EPB, SPB, OPB) are framed here, on the reader's buffer, because
//! pcap-parser's EPB parser allocates a `Vec` of options per packet, reports an EPB whose caplen overruns
//! its block as "incomplete" (which would look like a truncated file), has no obsolete packet block and
//! needs the caller to bound record sizes anyway. `create_reader` is not used because it needs the whole
//! first header in a single `read()` (a pipe may deliver 3 bytes) and can only say "not recognised";
//! detecting the magic here gives exact messages.
//!
//! # Memory
//! One buffer per input, `DEFAULT_BUFFER_SIZE` (256 KiB) for a single input and less per input when many
//! are merged (64 MiB shared, at least 64 KiB each). A buffer grows only when one record is larger than it,
//! by doubling as that record's bytes arrive, up to `MAX_RECORD_LEN` (256 MiB); a record header announcing
//! more is a corrupt file. Data is consumed without shifting (`consume_noshift`); the only copy is the
//! partial record moved to the front at refill.
//!
//! # Merge order and frame numbers
//! Each input keeps one parsed packet (its head) in its buffer. The next packet is the head with the
//! smallest timestamp; within one input, file order is kept even when timestamps go backwards. On an exact
//! timestamp tie the input named *later* goes first: that is what `mergecap -w merged.pcapng a b`
//! (chronological merge) does, since Wireshark's `wiretap/merge.c` `merge_read_packet` scans the inputs in
//! order and `is_earlier()` is also true for equal times, so the last of equally early inputs wins
//! (checked against mergecap 4.0.17). Frame numbers, counted 1.. over the merged stream, therefore equal
//! Wireshark's `frame.number` in the merged file, and with a single input they equal Wireshark's numbering
//! of that file. (mergecap emits pcapng Simple Packet Blocks, which have no timestamp, at once; here they
//! take the previous packet's time, so merges of files containing SPBs can differ.)
//!
//! # Errors
//! Fatal, as `CaptureError` (`<input>: <what>`, one line, lowercase): cannot open, directory, empty file,
//! unknown magic, truncated file header, read error, and a corrupt record or block header in the middle of
//! a file. Counted in `CaptureStats` and not fatal: a last record cut short by the end of the file
//! (`truncated_tail`; that input then ends), records shorter than on the wire (`truncated_records`),
//! pcapng blocks mcptap does not use and packets for an undeclared interface (`skipped_blocks`). After an
//! error `next_packet` returns `Ok(None)`.

use std::cmp::Reverse;
use std::collections::binary_heap::PeekMut;
use std::collections::BinaryHeap;
use std::fmt;
use std::fs::File;
use std::io::{self, Chain, Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use pcap_parser::traits::PcapReaderIterator;
use pcap_parser::{Block, LegacyPcapReader, OptionCode, PcapBlockOwned, PcapNGReader};

use super::{CaptureStats, LinkType, RawPacket};
use crate::io_reason;
use crate::time::Timestamp;

/// Buffer size for a single input. Large enough that a refill's system call costs nothing per packet,
/// small enough that what the kernel just copied in is still in the core's cache when it is decoded and
/// analysed: 256 KiB took 4 % off one thread's time on the bench capture against 1 MiB (same-run A/B,
/// three runs each; 128 KiB no better).
pub const DEFAULT_BUFFER_SIZE: usize = 256 << 10;

/// Largest record (pcap caplen) or pcapng block accepted. Real captures stay far below (65535 is the usual
/// snap length, 256 KiB libpcap's maximum); a larger value means a corrupt header, not a big packet.
pub const MAX_RECORD_LEN: usize = 256 << 20;

/// Smallest per-input buffer when many inputs are merged.
const MIN_BUFFER_SIZE: usize = 64 << 10;

/// Buffer memory shared by all inputs of a merge (each still gets at least `MIN_BUFFER_SIZE`).
const MERGE_BUFFER_BUDGET: usize = 64 << 20;

/// Upper bound of a grown buffer: the largest record plus its largest header.
const MAX_BUFFER_SIZE: usize = MAX_RECORD_LEN + 64;

/// The display name of standard input in messages.
pub const STDIN_NAME: &str = "<stdin>";

// ---------------------------------------------------------------------------------------------------
// Errors

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

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

// ---------------------------------------------------------------------------------------------------
// Magic numbers (as the first four bytes of the file)

/// draft-ietf-opsawg-pcap §4: magic 0xA1B2C3D4 (microseconds) or 0xA1B23C4D (nanoseconds), written in the
/// writer's byte order. 0xA1B2CD34 is Alexey Kuznetsov's "modified" pcap (24-byte record headers).
const PCAP_MAGICS: [[u8; 4]; 5] = [
    [0xd4, 0xc3, 0xb2, 0xa1], // little-endian, microseconds
    [0xa1, 0xb2, 0xc3, 0xd4], // big-endian, microseconds
    [0x4d, 0x3c, 0xb2, 0xa1], // little-endian, nanoseconds
    [0xa1, 0xb2, 0x3c, 0x4d], // big-endian, nanoseconds
    [0x34, 0xcd, 0xb2, 0xa1], // little-endian, modified
];
/// Big-endian modified pcap: pcap-parser does not read it.
const PCAP_MODIFIED_BE: [u8; 4] = [0xa1, 0xb2, 0xcd, 0x34];
/// draft-ietf-opsawg-pcapng §4.1: the SHB block type 0x0A0D0D0A is a palindrome, so it reads the same in
/// both byte orders.
const SHB_TYPE_BYTES: [u8; 4] = [0x0a, 0x0d, 0x0d, 0x0a];
/// draft-ietf-opsawg-pcapng §4.1: Byte-Order Magic 0x1A2B3C4D, written in the section's byte order.
const BOM: u32 = 0x1a2b_3c4d;

const PCAP_HEADER_LEN: usize = 24;
const PCAP_RECORD_HEADER_LEN: usize = 16;
/// Modified pcap records carry ifindex (4), protocol (2), pkt_type (1) and padding (1) after the usual 16.
const PCAP_MODIFIED_RECORD_HEADER_LEN: usize = 24;

// pcapng block types (draft-ietf-opsawg-pcapng §10.1) and minimum lengths.
const SHB: u32 = 0x0a0d_0d0a;
const IDB: u32 = 0x0000_0001;
/// Obsolete Packet Block (draft-ietf-opsawg-pcapng Appendix A), still written by old tools.
const OPB: u32 = 0x0000_0002;
const SPB: u32 = 0x0000_0003;
const EPB: u32 = 0x0000_0006;
/// Decryption Secrets Block (draft-ietf-opsawg-pcapng §4.7) and its TLS key-log secrets type "TLSK".
const DSB: u32 = 0x0000_000a;
const DSB_TLS_KEYLOG: u32 = 0x544c_534b;
const SHB_MIN_LEN: u32 = 28;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Pcap,
    PcapNg,
}

// ---------------------------------------------------------------------------------------------------
// Byte access on fixed-size header arrays. `at + N <= M` at every call site (constants), so the `get`
// always succeeds and compiles to a plain load.

fn rd16<const M: usize>(h: &[u8; M], at: usize, be: bool) -> u16 {
    match h
        .get(at..at.saturating_add(2))
        .and_then(|s| <[u8; 2]>::try_from(s).ok())
    {
        Some(b) if be => u16::from_be_bytes(b),
        Some(b) => u16::from_le_bytes(b),
        None => 0,
    }
}

fn rd32<const M: usize>(h: &[u8; M], at: usize, be: bool) -> u32 {
    match h
        .get(at..at.saturating_add(4))
        .and_then(|s| <[u8; 4]>::try_from(s).ok())
    {
        Some(b) if be => u32::from_be_bytes(b),
        Some(b) => u32::from_le_bytes(b),
        None => 0,
    }
}

/// u32 to usize; saturates on (hypothetical) 16-bit targets.
fn us(x: u32) -> usize {
    usize::try_from(x).unwrap_or(usize::MAX)
}

fn block_name(block_type: u32) -> &'static str {
    match block_type {
        SHB => "section header",
        IDB => "interface description",
        OPB => "obsolete packet",
        SPB => "simple packet",
        EPB => "enhanced packet",
        _ => "unknown",
    }
}

// ---------------------------------------------------------------------------------------------------
// pcapng timestamps

/// draft-ietf-opsawg-pcapng §4.2 if_tsresol: "If the Most Significant Bit is equal to zero, the remaining
/// bits indicates the resolution of the timestamp as a negative power of 10 (e.g. 6 means microsecond
/// resolution [...]). If the Most Significant Bit is equal to one, the remaining bits indicates the
/// resolution as negative power of 2". Default 6.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TsScale {
    /// 10^-n s with n <= 9: nanoseconds = fraction * `mul`.
    Decimal { units: u64, mul: u32 },
    /// 10^-n s with 10 <= n <= 19: nanoseconds = fraction / `div`.
    FineDecimal { units: u64, div: u64 },
    /// 2^-n s with n <= 63.
    Binary { shift: u32 },
}

impl TsScale {
    fn from_tsresol(v: u8) -> Option<TsScale> {
        let n = u32::from(v & 0x7f);
        if v & 0x80 == 0 {
            let units = 10u64.checked_pow(n)?;
            if n <= 9 {
                Some(TsScale::Decimal {
                    units,
                    mul: 10u32.checked_pow(9 - n)?,
                })
            } else {
                Some(TsScale::FineDecimal {
                    units,
                    div: 10u64.checked_pow(n - 9)?,
                })
            }
        } else if n <= 63 {
            Some(TsScale::Binary { shift: n })
        } else {
            None
        }
    }

    /// Seconds and nanoseconds of a raw 64-bit timestamp.
    fn split(self, raw: u64) -> (u64, u32) {
        match self {
            TsScale::Decimal { units, mul } => {
                let frac = u32::try_from(raw % units).unwrap_or(0);
                (raw / units, frac.saturating_mul(mul))
            }
            TsScale::FineDecimal { units, div } => {
                (raw / units, u32::try_from((raw % units) / div).unwrap_or(0))
            }
            TsScale::Binary { shift } => {
                let mask = (1u64 << shift) - 1; // shift <= 63
                let nanos = (u128::from(raw & mask) * 1_000_000_000) >> shift;
                (raw >> shift, u32::try_from(nanos).unwrap_or(0))
            }
        }
    }
}

/// What a pcapng packet needs from its Interface Description Block.
#[derive(Debug, Clone, Copy)]
struct Interface {
    linktype: LinkType,
    snaplen: u32,
    scale: TsScale,
    /// if_tsoffset: seconds added to every timestamp of the interface.
    offset_secs: i64,
}

impl Interface {
    fn timestamp(&self, hi: u32, lo: u32) -> Timestamp {
        let raw = (u64::from(hi) << 32) | u64::from(lo);
        let (secs, nanos) = self.scale.split(raw);
        let secs = i64::try_from(secs)
            .unwrap_or(i64::MAX)
            .saturating_add(self.offset_secs);
        Timestamp::from_secs_nanos(secs, nanos)
    }
}

// ---------------------------------------------------------------------------------------------------
// One input

/// The byte source under a pcap-parser reader: the caller's `Read`, retrying `Interrupted` and keeping the
/// real `io::Error` (pcap-parser's `refill` reduces it to `ReadError`).
struct Source {
    inner: Box<dyn Read + Send>,
    error: Arc<Mutex<Option<io::Error>>>,
}

impl Read for Source {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.inner.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let kind = e.kind();
                    if let Ok(mut slot) = self.error.lock() {
                        *slot = Some(e);
                    }
                    return Err(io::Error::from(kind));
                }
                Ok(n) => return Ok(n),
            }
        }
    }
}

/// A named input: the name shown in messages and the bytes.
pub type NamedReader = (String, Box<dyn Read + Send>);

/// The bytes already read to identify the file, then the rest of it.
type Src = Chain<Cursor<Vec<u8>>, Source>;

/// pcap-parser's two streaming readers; both implement `PcapReaderIterator`.
enum Framer {
    Pcap(LegacyPcapReader<Src>),
    PcapNg(PcapNGReader<Src>),
}

impl Framer {
    #[inline]
    fn data(&self) -> &[u8] {
        match self {
            Framer::Pcap(r) => r.data(),
            Framer::PcapNg(r) => r.data(),
        }
    }

    #[inline]
    fn consume(&mut self, n: usize) {
        // Not `consume`: circular::Buffer::consume memmoves the rest of the buffer whenever the read
        // position passes half of it. `refill` shifts once, when only a partial record is left.
        match self {
            Framer::Pcap(r) => r.consume_noshift(n),
            Framer::PcapNg(r) => r.consume_noshift(n),
        }
    }

    fn refill(&mut self) -> bool {
        match self {
            Framer::Pcap(r) => r.refill().is_ok(),
            Framer::PcapNg(r) => r.refill().is_ok(),
        }
    }

    fn grow(&mut self, size: usize) {
        match self {
            Framer::Pcap(r) => r.grow(size),
            Framer::PcapNg(r) => r.grow(size),
        };
    }
}

/// One input's buffered bytes and where they sit in the file.
struct Buffered {
    name: String,
    framer: Framer,
    capacity: usize,
    /// File offset of `framer.data()[0]`.
    offset: u64,
    /// A read returned 0 bytes.
    at_eof: bool,
    read_error: Arc<Mutex<Option<io::Error>>>,
}

impl Buffered {
    fn error(&self, kind: CaptureErrorKind) -> CaptureError {
        CaptureError {
            input: self.name.clone(),
            kind,
        }
    }

    #[inline]
    fn data(&self) -> &[u8] {
        self.framer.data()
    }

    #[inline]
    fn consume(&mut self, n: usize) {
        self.framer.consume(n);
        self.offset = self.offset.saturating_add(n as u64);
    }

    /// Makes `need` bytes available at `data()[0..need]`: `Ok(true)` when they are, `Ok(false)` when the
    /// input ended first. Callers check record lengths against `MAX_RECORD_LEN` first.
    #[inline]
    fn fill(&mut self, need: usize, stats: &mut CaptureStats) -> Result<bool, CaptureError> {
        if self.data().len() >= need {
            return Ok(true);
        }
        self.fill_slow(need, stats)
    }

    #[cold]
    fn fill_slow(&mut self, need: usize, stats: &mut CaptureStats) -> Result<bool, CaptureError> {
        loop {
            let before = self.data().len();
            if before >= need {
                return Ok(true);
            }
            if self.at_eof {
                return Ok(false);
            }
            if before >= self.capacity {
                // One record larger than the buffer, and the buffer is full of its start: grow by
                // doubling, towards `need`, only as bytes actually arrive. A corrupt length near the end
                // of a file then costs about twice the bytes really there, not what the header claims.
                let size = self
                    .capacity
                    .saturating_mul(2)
                    .clamp(1, need.min(MAX_BUFFER_SIZE));
                self.framer.grow(size);
                self.capacity = size;
            }
            // Space is free here: capacity > before, and refill shifts the data to the front first.
            if !self.framer.refill() {
                let error = self
                    .read_error
                    .lock()
                    .ok()
                    .and_then(|mut slot| slot.take())
                    .unwrap_or_else(|| io::Error::other("read failed"));
                let offset = self.offset.saturating_add(before as u64);
                return Err(self.error(CaptureErrorKind::Read { offset, error }));
            }
            let got = self.data().len().saturating_sub(before);
            stats.bytes_read = stats.bytes_read.saturating_add(got as u64);
            if got == 0 {
                self.at_eof = true;
            }
        }
    }

    /// End of this input: a partial record left in the buffer is a truncated tail, counted, not fatal.
    fn finish(&mut self, stats: &mut CaptureStats) {
        let left = self.data().len();
        if left > 0 {
            stats.truncated_tail = stats.truncated_tail.saturating_add(1);
            self.consume(left);
        }
    }
}

/// Per-format state of one input.
enum Layout {
    Pcap {
        big_endian: bool,
        nanos: bool,
        header_len: usize,
        linktype: LinkType,
        /// Records read so far (the current record's 1-based index, for messages).
        records: u64,
    },
    PcapNg {
        big_endian: bool,
        /// The current section's interfaces, by interface id.
        interfaces: Vec<Interface>,
        /// Time of the last timestamped packet: a Simple Packet Block has no timestamp of its own.
        last_ts: Timestamp,
    },
}

/// The packet an input will yield next, lying at `data()[start..start + len]`.
#[derive(Debug, Clone, Copy)]
struct Head {
    ts: Timestamp,
    linktype: LinkType,
    start: usize,
    len: usize,
    wire_len: u32,
    /// Bytes to consume once the packet has been yielded (the whole record or block).
    record_len: usize,
}

const NO_HEAD: Head = Head {
    ts: Timestamp::ZERO,
    linktype: LinkType(0),
    start: 0,
    len: 0,
    wire_len: 0,
    record_len: 0,
};

struct Input {
    buf: Buffered,
    layout: Layout,
    head: Head,
    /// TLS key-log text from pcapng Decryption Secrets Blocks, not yet taken by `take_secrets`.
    secrets: Vec<u8>,
}

impl Input {
    /// Reads the file header (enough to identify the format and to fail early on a bad file) and sets up
    /// the streaming reader.
    fn open(
        name: String,
        mut reader: Box<dyn Read + Send>,
        capacity: usize,
        stats: &mut CaptureStats,
    ) -> Result<Input, CaptureError> {
        let err = |kind| CaptureError {
            input: name.clone(),
            kind,
        };
        let mut prefix = Vec::with_capacity(64);
        let read_to = |r: &mut Box<dyn Read + Send>, p: &mut Vec<u8>, n: usize| {
            let want = n.saturating_sub(p.len()) as u64;
            r.take(want)
                .read_to_end(p)
                .map(|_| ())
                .map_err(|error| CaptureErrorKind::Read {
                    offset: p.len() as u64,
                    error,
                })
        };

        read_to(&mut reader, &mut prefix, 4).map_err(err)?;
        let format = match sniff(&prefix) {
            Sniff::Empty => return Err(err(CaptureErrorKind::Empty)),
            Sniff::Unknown => return Err(err(CaptureErrorKind::NotCapture { magic: prefix })),
            Sniff::Unsupported(what) => return Err(err(CaptureErrorKind::Unsupported { what })),
            Sniff::Short(format) => {
                let need = if format == Format::Pcap {
                    PCAP_HEADER_LEN
                } else {
                    us(SHB_MIN_LEN)
                };
                return Err(err(CaptureErrorKind::TruncatedHeader {
                    got: prefix.len(),
                    need,
                }));
            }
            Sniff::Known(format) => format,
        };

        match format {
            Format::Pcap => {
                read_to(&mut reader, &mut prefix, PCAP_HEADER_LEN).map_err(err)?;
                if prefix.len() < PCAP_HEADER_LEN {
                    return Err(err(CaptureErrorKind::TruncatedHeader {
                        got: prefix.len(),
                        need: PCAP_HEADER_LEN,
                    }));
                }
            }
            Format::PcapNg => {
                // The whole first SHB is read here so that PcapNGReader's constructor, which parses it
                // from its first read, always sees all of it.
                read_to(&mut reader, &mut prefix, 12).map_err(err)?;
                let Some(h) = prefix.first_chunk::<12>() else {
                    return Err(err(CaptureErrorKind::TruncatedHeader {
                        got: prefix.len(),
                        need: us(SHB_MIN_LEN),
                    }));
                };
                let be = section_byte_order(h)
                    .map_err(|problem| err(CaptureErrorKind::Block { offset: 0, problem }))?;
                let len = rd32(h, 4, be);
                check_block_len(SHB, len)
                    .map_err(|problem| err(CaptureErrorKind::Block { offset: 0, problem }))?;
                read_to(&mut reader, &mut prefix, us(len)).map_err(err)?;
                if prefix.len() < us(len) {
                    return Err(err(CaptureErrorKind::TruncatedHeader {
                        got: prefix.len(),
                        need: us(len),
                    }));
                }
            }
        }

        let read_error = Arc::new(Mutex::new(None));
        let src = Cursor::new(prefix).chain(Source {
            inner: reader,
            error: Arc::clone(&read_error),
        });
        let capacity = capacity.max(src.get_ref().0.get_ref().len());
        let unparsable = |block| {
            err(CaptureErrorKind::Block {
                offset: 0,
                problem: Corruption::Unparsable { block },
            })
        };
        let (framer, layout) = match format {
            Format::Pcap => {
                // Neither fails after the checks above; kept as errors, not panics.
                let mut r = LegacyPcapReader::new(capacity, src)
                    .map_err(|_| err(CaptureErrorKind::BadHeader))?;
                let header = match r.next() {
                    Ok((_, PcapBlockOwned::LegacyHeader(h))) => h,
                    _ => return Err(err(CaptureErrorKind::BadHeader)),
                };
                r.consume_noshift(PCAP_HEADER_LEN);
                // draft-ietf-opsawg-pcap §4: the LinkType field's low 16 bits are the link type; the upper
                // bits carry FCS information, which decode does not need (it takes lengths from IP).
                let linktype = LinkType((header.network.0 as u32) & 0xffff);
                let layout = Layout::Pcap {
                    big_endian: header.is_bigendian(),
                    nanos: header.is_nanosecond_precision(),
                    header_len: if header.is_modified_format() {
                        PCAP_MODIFIED_RECORD_HEADER_LEN
                    } else {
                        PCAP_RECORD_HEADER_LEN
                    },
                    linktype,
                    records: 0,
                };
                (Framer::Pcap(r), layout)
            }
            Format::PcapNg => {
                let r =
                    PcapNGReader::new(capacity, src).map_err(|_| unparsable("section header"))?;
                // Byte order and interfaces are set when the SHB is read as the first block.
                let layout = Layout::PcapNg {
                    big_endian: false,
                    interfaces: Vec::new(),
                    last_ts: Timestamp::ZERO,
                };
                (Framer::PcapNg(r), layout)
            }
        };
        // The pcap file header is consumed already; pcapng's SHB is read again as the first block.
        let offset = if format == Format::Pcap {
            PCAP_HEADER_LEN as u64
        } else {
            0
        };
        let buf = Buffered {
            name,
            framer,
            capacity,
            offset,
            at_eof: false,
            read_error,
        };
        stats.bytes_read = stats
            .bytes_read
            .saturating_add(offset)
            .saturating_add(buf.data().len() as u64);
        Ok(Input {
            buf,
            layout,
            head: NO_HEAD,
            secrets: Vec::new(),
        })
    }

    /// The packet at the head of this input.
    #[inline]
    fn packet(&self, frame: u64) -> RawPacket<'_> {
        let h = &self.head;
        let data = self
            .buf
            .data()
            .get(h.start..h.start.saturating_add(h.len))
            .unwrap_or_default();
        RawPacket {
            frame,
            ts: h.ts,
            linktype: h.linktype,
            data,
            wire_len: h.wire_len,
        }
    }

    /// Drops the head packet (after it was yielded).
    #[inline]
    fn release(&mut self) {
        self.buf.consume(self.head.record_len);
        self.head = NO_HEAD;
    }

    /// Parses the next packet into `head`; `None` at the end of the input.
    #[inline]
    fn advance(&mut self, stats: &mut CaptureStats) -> Result<Option<Timestamp>, CaptureError> {
        let head = match self.layout {
            Layout::Pcap { .. } => self.advance_pcap(stats)?,
            Layout::PcapNg { .. } => self.advance_pcapng(stats)?,
        };
        Ok(head.map(|h| {
            self.head = h;
            h.ts
        }))
    }

    /// draft-ietf-opsawg-pcap §5, packet record: timestamp seconds (4), timestamp micro- or nanoseconds (4),
    /// captured packet length (4), original packet length (4), then the captured bytes.
    fn advance_pcap(&mut self, stats: &mut CaptureStats) -> Result<Option<Head>, CaptureError> {
        let Layout::Pcap {
            big_endian: be,
            nanos,
            header_len,
            linktype,
            ref mut records,
        } = self.layout
        else {
            return Ok(None);
        };
        if !self.buf.fill(header_len, stats)? {
            self.buf.finish(stats);
            return Ok(None);
        }
        *records = records.saturating_add(1);
        let Some(h) = self.buf.data().first_chunk::<PCAP_RECORD_HEADER_LEN>() else {
            return Ok(None); // unreachable: fill() made header_len >= 16 bytes available
        };
        let (ts_sec, ts_frac) = (rd32(h, 0, be), rd32(h, 4, be));
        let (caplen, origlen) = (rd32(h, 8, be), rd32(h, 12, be));
        if us(caplen) > MAX_RECORD_LEN {
            return Err(self.buf.error(CaptureErrorKind::Record {
                index: *records,
                offset: self.buf.offset,
                problem: Corruption::CaplenTooLarge {
                    caplen,
                    max: MAX_RECORD_LEN,
                },
            }));
        }
        let record_len = header_len.saturating_add(us(caplen));
        if !self.buf.fill(record_len, stats)? {
            self.buf.finish(stats);
            return Ok(None);
        }
        if caplen < origlen {
            stats.truncated_records = stats.truncated_records.saturating_add(1);
        }
        let ts = if nanos {
            Timestamp::from_secs_nanos(i64::from(ts_sec), ts_frac)
        } else {
            Timestamp::from_secs_micros(i64::from(ts_sec), ts_frac)
        };
        Ok(Some(Head {
            ts,
            linktype,
            start: header_len,
            len: us(caplen),
            wire_len: origlen.max(caplen),
            record_len,
        }))
    }

    /// draft-ietf-opsawg-pcapng §3.1, general block structure: block type (4), block total length (4),
    /// body, block total length again (4). The length counts the whole block and is a multiple of 4.
    fn advance_pcapng(&mut self, stats: &mut CaptureStats) -> Result<Option<Head>, CaptureError> {
        loop {
            // 12 bytes: the smallest block, and enough to see an SHB's byte-order magic.
            if !self.buf.fill(12, stats)? {
                self.buf.finish(stats);
                return Ok(None);
            }
            let offset = self.buf.offset;
            let block_err =
                |buf: &Buffered, problem| buf.error(CaptureErrorKind::Block { offset, problem });
            let Some(h) = self.buf.data().first_chunk::<12>() else {
                return Ok(None); // unreachable: fill(12) succeeded
            };
            let Layout::PcapNg { big_endian, .. } = self.layout else {
                return Ok(None);
            };
            let is_shb = h.first_chunk::<4>() == Some(&SHB_TYPE_BYTES);
            let be = if is_shb {
                section_byte_order(h).map_err(|p| block_err(&self.buf, p))?
            } else {
                big_endian
            };
            let block_type = rd32(h, 0, be);
            let len = rd32(h, 4, be);
            check_block_len(block_type, len).map_err(|p| block_err(&self.buf, p))?;
            let block_len = us(len);
            if !self.buf.fill(block_len, stats)? {
                self.buf.finish(stats);
                return Ok(None);
            }
            let data = self.buf.data();
            let trailing = data
                .get(block_len.saturating_sub(4)..block_len)
                .and_then(|s| <[u8; 4]>::try_from(s).ok())
                .map_or(0, |b| {
                    if be {
                        u32::from_be_bytes(b)
                    } else {
                        u32::from_le_bytes(b)
                    }
                });
            if trailing != len {
                return Err(block_err(
                    &self.buf,
                    Corruption::TrailerMismatch {
                        leading: len,
                        trailing,
                    },
                ));
            }
            match block_type {
                SHB => self.read_shb(be, offset)?,
                IDB => self.read_idb(be, offset)?,
                EPB | OPB => {
                    if let Some(head) = self.read_epb(block_type, be, offset, stats)? {
                        return Ok(Some(head));
                    }
                }
                SPB => {
                    if let Some(head) = self.read_spb(be, stats) {
                        return Ok(Some(head));
                    }
                }
                DSB => {
                    self.read_dsb(block_len, be);
                    self.buf.consume(block_len);
                }
                _ => {
                    // draft-ietf-opsawg-pcapng §3.1: "a reader that does not understand a block type
                    // SHOULD skip it". NRB, ISB, custom blocks, ... land here.
                    stats.skipped_blocks = stats.skipped_blocks.saturating_add(1);
                    self.buf.consume(block_len);
                }
            }
        }
    }

    /// draft-ietf-opsawg-pcapng §4.7, Decryption Secrets Block: secrets type (4), secrets length (4),
    /// secrets data padded to 32 bits, options. Only type 0x544c534b "TLSK" (an NSS key log, what
    /// `editcap --inject-secrets tls,FILE` writes) is kept; other secret types are skipped.
    fn read_dsb(&mut self, block_len: usize, be: bool) {
        let data = self.buf.data();
        let body = data.get(8..block_len.saturating_sub(4)).unwrap_or_default();
        let Some(h) = body.first_chunk::<8>() else {
            return;
        };
        let (kind, len) = (rd32(h, 0, be), us(rd32(h, 4, be)));
        if kind != DSB_TLS_KEYLOG {
            return;
        }
        if let Some(text) = body.get(8..8usize.saturating_add(len)) {
            // ALLOC: key-log text, bounded by the block (itself bounded by the reader's block cap)
            self.secrets.extend_from_slice(text);
            self.secrets.push(b'\n');
        }
    }

    /// draft-ietf-opsawg-pcapng §4.1: a new section; its byte order and interfaces replace the old ones.
    fn read_shb(&mut self, be: bool, offset: u64) -> Result<(), CaptureError> {
        let version = match self.buf.framer_next() {
            Some(PcapBlockOwned::NG(Block::SectionHeader(shb))) => {
                Some((shb.major_version, shb.minor_version))
            }
            _ => None,
        };
        let Some(version) = version else {
            return Err(self.unparsable(SHB, offset));
        };
        // §4.1: "Major Version [...] 1 [...] A change to the Major Version number indicates that the
        // format of the blocks following the Section Header Block has changed".
        if version.0 != 1 {
            return Err(self.buf.error(CaptureErrorKind::Block {
                offset,
                problem: Corruption::UnsupportedVersion {
                    major: version.0,
                    minor: version.1,
                },
            }));
        }
        let block_len = self.block_len_at_front(be);
        if let Layout::PcapNg {
            big_endian,
            interfaces,
            ..
        } = &mut self.layout
        {
            *big_endian = be;
            interfaces.clear();
        }
        self.buf.consume(block_len);
        Ok(())
    }

    /// draft-ietf-opsawg-pcapng §4.2: LinkType (2), reserved (2), SnapLen (4), options; if_tsresol (9)
    /// and if_tsoffset (14) set the interface's clock.
    fn read_idb(&mut self, be: bool, offset: u64) -> Result<(), CaptureError> {
        let parsed = match self.buf.framer_next() {
            Some(PcapBlockOwned::NG(Block::InterfaceDescription(idb))) => {
                let mut tsresol = 6u8;
                let mut offset_secs = 0i64;
                for opt in &idb.options {
                    let Ok(value) = opt.as_bytes() else { continue };
                    if opt.code == OptionCode::IfTsresol {
                        if let Some(&v) = value.first() {
                            tsresol = v;
                        }
                    } else if opt.code == OptionCode::IfTsoffset {
                        if let Ok(b) = <[u8; 8]>::try_from(value) {
                            // In the section's byte order (pcap-parser's own field assumes little-endian).
                            offset_secs = if be {
                                i64::from_be_bytes(b)
                            } else {
                                i64::from_le_bytes(b)
                            };
                        }
                    }
                }
                Some((idb.linktype.0, idb.snaplen, tsresol, offset_secs))
            }
            _ => None,
        };
        let Some((linktype, snaplen, tsresol, offset_secs)) = parsed else {
            return Err(self.unparsable(IDB, offset));
        };
        let Some(scale) = TsScale::from_tsresol(tsresol) else {
            return Err(self.buf.error(CaptureErrorKind::Block {
                offset,
                problem: Corruption::BadTsresol { value: tsresol },
            }));
        };
        let iface = Interface {
            linktype: LinkType(u32::try_from(linktype).unwrap_or(u32::MAX) & 0xffff),
            snaplen,
            scale,
            offset_secs,
        };
        let block_len = self.block_len_at_front(be);
        if let Layout::PcapNg { interfaces, .. } = &mut self.layout {
            // ALLOC: one entry per IDB, bounded by the section's size (each IDB is at least 20 bytes).
            interfaces.push(iface);
        }
        self.buf.consume(block_len);
        Ok(())
    }

    /// draft-ietf-opsawg-pcapng §4.3 Enhanced Packet Block: Interface ID (4), Timestamp high (4) and low
    /// (4), Captured Packet Length (4), Original Packet Length (4), packet data padded to 32 bits, options.
    /// Appendix A Obsolete Packet Block: the same, with Interface ID (2) and Drops Count (2).
    fn read_epb(
        &mut self,
        block_type: u32,
        be: bool,
        offset: u64,
        stats: &mut CaptureStats,
    ) -> Result<Option<Head>, CaptureError> {
        let Some(h) = self.buf.data().first_chunk::<28>() else {
            return Ok(None); // unreachable: the block (>= 32 bytes) is in the buffer
        };
        let block_len = us(rd32(h, 4, be));
        let if_id = if block_type == EPB {
            rd32(h, 8, be)
        } else {
            u32::from(rd16(h, 8, be))
        };
        let (ts_hi, ts_lo) = (rd32(h, 12, be), rd32(h, 16, be));
        let (caplen, origlen) = (rd32(h, 20, be), rd32(h, 24, be));
        let room = block_len.saturating_sub(32);
        if us(caplen) > room {
            return Err(self.buf.error(CaptureErrorKind::Block {
                offset,
                problem: Corruption::CaplenExceedsBlock {
                    block: block_name(block_type),
                    caplen,
                    room,
                },
            }));
        }
        let Layout::PcapNg {
            interfaces,
            last_ts,
            ..
        } = &mut self.layout
        else {
            return Ok(None);
        };
        let Some(iface) = interfaces.get(us(if_id)) else {
            // A packet for an interface no IDB declared: nothing says how to decode it.
            stats.skipped_blocks = stats.skipped_blocks.saturating_add(1);
            self.buf.consume(block_len);
            return Ok(None);
        };
        if caplen < origlen {
            stats.truncated_records = stats.truncated_records.saturating_add(1);
        }
        let ts = iface.timestamp(ts_hi, ts_lo);
        *last_ts = ts;
        Ok(Some(Head {
            ts,
            linktype: iface.linktype,
            start: 28,
            len: us(caplen),
            wire_len: origlen.max(caplen),
            record_len: block_len,
        }))
    }

    /// draft-ietf-opsawg-pcapng §4.4 Simple Packet Block: Original Packet Length (4), packet data. It
    /// belongs to the first interface, and "the Captured Packet Length [...] is the minimum value among
    /// the Original Packet Length and the value of the SnapLen field" of that interface (0 = no limit),
    /// bounded by the block. It has no timestamp: it gets the previous packet's time in this input, so
    /// that merge order and idle timers see time standing still rather than jumping back to 1970.
    fn read_spb(&mut self, be: bool, stats: &mut CaptureStats) -> Option<Head> {
        let h = self.buf.data().first_chunk::<12>()?;
        let block_len = us(rd32(h, 4, be));
        let origlen = rd32(h, 8, be);
        let Layout::PcapNg {
            interfaces,
            last_ts,
            ..
        } = &self.layout
        else {
            return None;
        };
        let Some(iface) = interfaces.first() else {
            stats.skipped_blocks = stats.skipped_blocks.saturating_add(1);
            self.buf.consume(block_len);
            return None;
        };
        let mut caplen = block_len.saturating_sub(16).min(us(origlen));
        if iface.snaplen > 0 {
            caplen = caplen.min(us(iface.snaplen));
        }
        let caplen32 = u32::try_from(caplen).unwrap_or(u32::MAX);
        if caplen32 < origlen {
            stats.truncated_records = stats.truncated_records.saturating_add(1);
        }
        Some(Head {
            ts: *last_ts,
            linktype: iface.linktype,
            start: 12,
            len: caplen,
            wire_len: origlen.max(caplen32),
            record_len: block_len,
        })
    }

    fn block_len_at_front(&self, be: bool) -> usize {
        self.buf
            .data()
            .first_chunk::<8>()
            .map_or(0, |h| us(rd32(h, 4, be)))
    }

    fn unparsable(&self, block_type: u32, offset: u64) -> CaptureError {
        self.buf.error(CaptureErrorKind::Block {
            offset,
            problem: Corruption::Unparsable {
                block: block_name(block_type),
            },
        })
    }
}

impl Buffered {
    /// pcap-parser's parse of the block at the front of the buffer (the whole block is there).
    fn framer_next(&mut self) -> Option<PcapBlockOwned<'_>> {
        match &mut self.framer {
            Framer::Pcap(r) => r.next().ok().map(|(_, b)| b),
            Framer::PcapNg(r) => r.next().ok().map(|(_, b)| b),
        }
    }
}

/// The byte order of a section from its SHB's byte-order magic (bytes 8..12).
fn section_byte_order(h: &[u8; 12]) -> Result<bool, Corruption> {
    match rd32(h, 8, true) {
        BOM => Ok(true),
        x if x.swap_bytes() == BOM => Ok(false),
        bom => Err(Corruption::BadByteOrderMagic { bom }),
    }
}

/// Sanity of a block's total length before anything is buffered for it.
fn check_block_len(block_type: u32, len: u32) -> Result<(), Corruption> {
    let min = match block_type {
        SHB => SHB_MIN_LEN,
        IDB => 20,
        EPB | OPB => 32,
        SPB => 16,
        _ => 12,
    };
    if len < min {
        return Err(Corruption::BlockTooShort {
            block: block_name(block_type),
            len,
            min,
        });
    }
    if !len.is_multiple_of(4) {
        return Err(Corruption::BlockLenUnaligned { len });
    }
    if us(len) > MAX_RECORD_LEN {
        return Err(Corruption::BlockTooLarge {
            len,
            max: MAX_RECORD_LEN,
        });
    }
    Ok(())
}

enum Sniff {
    Empty,
    /// Fewer than 4 bytes, all a prefix of this format's magic.
    Short(Format),
    Known(Format),
    Unsupported(&'static str),
    Unknown,
}

fn sniff(first: &[u8]) -> Sniff {
    if first.is_empty() {
        return Sniff::Empty;
    }
    if let Some(magic) = first.first_chunk::<4>() {
        if PCAP_MAGICS.contains(magic) {
            return Sniff::Known(Format::Pcap);
        }
        if *magic == SHB_TYPE_BYTES {
            return Sniff::Known(Format::PcapNg);
        }
        if *magic == PCAP_MODIFIED_BE {
            return Sniff::Unsupported("big-endian modified pcap");
        }
        return Sniff::Unknown;
    }
    if PCAP_MAGICS.iter().any(|m| m.starts_with(first)) {
        Sniff::Short(Format::Pcap)
    } else if SHB_TYPE_BYTES.starts_with(first) {
        Sniff::Short(Format::PcapNg)
    } else {
        Sniff::Unknown
    }
}

// ---------------------------------------------------------------------------------------------------
// The reader

/// Where the merge stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MergeState {
    /// No input has been read past its header yet.
    Start,
    /// Input `.0`'s head was yielded and must be released before the next packet.
    Lent(usize),
    /// All inputs ended, or an error was returned.
    Done,
}

/// Reads one or more pcap/pcapng inputs as one capture, in timestamp order. See the module docs.
pub struct CaptureReader {
    inputs: Vec<Input>,
    /// Every input with a head, keyed (timestamp, reversed input index): the earliest head is on top,
    /// and of equally early heads the one of the later input (mergecap's order, see the module docs).
    heap: BinaryHeap<Reverse<(Timestamp, Reverse<usize>)>>,
    state: MergeState,
    frame: u64,
    stats: CaptureStats,
    /// Sum of the input file sizes, when all are regular files.
    total_size: Option<u64>,
}

impl fmt::Debug for CaptureReader {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CaptureReader")
            .field("inputs", &self.inputs().collect::<Vec<_>>())
            .field("frame", &self.frame)
            .field("stats", &self.stats)
            .finish()
    }
}

impl CaptureReader {
    /// Opens every path (`-` is standard input) and reads its file header, so a bad input fails here,
    /// before any packet is read.
    pub fn open(paths: &[PathBuf]) -> Result<CaptureReader, CaptureError> {
        let mut inputs: Vec<NamedReader> = Vec::with_capacity(paths.len());
        let mut total_size = Some(0u64);
        for path in paths {
            let (input, size) = open_path(path)?;
            total_size = total_size.zip(size).map(|(a, b)| a.saturating_add(b));
            inputs.push(input);
        }
        let mut r = Self::from_readers(inputs)?;
        r.total_size = total_size;
        Ok(r)
    }

    /// One input from any `Read` (a pipe, a socket, a `Cursor`); `name` is used in messages.
    pub fn from_reader<R: Read + Send + 'static>(
        name: impl Into<String>,
        reader: R,
    ) -> Result<CaptureReader, CaptureError> {
        Self::from_readers(vec![(name.into(), Box::new(reader))])
    }

    /// Several named inputs, merged by timestamp; exact ties go to the later input in the list, as in
    /// mergecap.
    pub fn from_readers(inputs: Vec<NamedReader>) -> Result<CaptureReader, CaptureError> {
        let n = inputs.len().max(1);
        let size = (MERGE_BUFFER_BUDGET / n).clamp(MIN_BUFFER_SIZE, DEFAULT_BUFFER_SIZE);
        Self::with_buffer_size(inputs, size)
    }

    fn with_buffer_size(
        inputs: Vec<NamedReader>,
        buffer_size: usize,
    ) -> Result<CaptureReader, CaptureError> {
        let mut stats = CaptureStats::default();
        let mut opened = Vec::with_capacity(inputs.len());
        for (name, reader) in inputs {
            opened.push(Input::open(name, reader, buffer_size, &mut stats)?);
        }
        Ok(CaptureReader {
            heap: BinaryHeap::with_capacity(opened.len()),
            inputs: opened,
            state: MergeState::Start,
            frame: 0,
            stats,
            total_size: None,
        })
    }

    /// The next packet in merged timestamp order, borrowing the reader's buffer until the next call.
    /// `Ok(None)` at the end of all inputs, and after an error.
    pub fn next_packet(&mut self) -> Result<Option<RawPacket<'_>>, CaptureError> {
        match self.state {
            MergeState::Done => return Ok(None),
            MergeState::Start => {
                for (i, input) in self.inputs.iter_mut().enumerate() {
                    match input.advance(&mut self.stats) {
                        Ok(Some(ts)) => self.heap.push(Reverse((ts, Reverse(i)))),
                        Ok(None) => {}
                        Err(e) => {
                            self.state = MergeState::Done;
                            return Err(e);
                        }
                    }
                }
            }
            MergeState::Lent(i) => {
                let Some(input) = self.inputs.get_mut(i) else {
                    self.state = MergeState::Done;
                    return Ok(None);
                };
                input.release();
                let next = input.advance(&mut self.stats);
                // The lent input is the heap's top: replace its key in place (one sift-down).
                if let Some(mut top) = self.heap.peek_mut() {
                    match next {
                        Ok(Some(ts)) => *top = Reverse((ts, Reverse(i))),
                        Ok(None) => {
                            PeekMut::pop(top);
                        }
                        Err(e) => {
                            self.state = MergeState::Done;
                            return Err(e);
                        }
                    }
                }
            }
        }
        let Some(&Reverse((_, Reverse(i)))) = self.heap.peek() else {
            self.state = MergeState::Done;
            return Ok(None);
        };
        let Some(input) = self.inputs.get(i) else {
            self.state = MergeState::Done;
            return Ok(None);
        };
        self.state = MergeState::Lent(i);
        self.frame = self.frame.saturating_add(1);
        Ok(Some(input.packet(self.frame)))
    }

    /// Key-log text (NSS format) found in pcapng Decryption Secrets Blocks since the last call; empty when
    /// none. Blocks come before the packets they decrypt, so taking after each packet is early enough.
    pub fn take_secrets(&mut self) -> Vec<u8> {
        let mut all = Vec::new();
        for i in &mut self.inputs {
            all.append(&mut i.secrets);
        }
        all
    }

    /// Counters of non-fatal problems, and bytes read so far (kept current for progress display).
    pub fn stats(&self) -> &CaptureStats {
        &self.stats
    }

    /// The input names, in the order given (paths as given, `<stdin>` for `-`).
    pub fn inputs(&self) -> impl ExactSizeIterator<Item = &str> + '_ {
        self.inputs.iter().map(|i| i.buf.name.as_str())
    }

    /// Total size in bytes of the inputs when all are regular files opened by `open` (for a progress
    /// bar against `stats().bytes_read`); `None` otherwise.
    pub fn total_size(&self) -> Option<u64> {
        self.total_size
    }
}

/// Opens one path for reading; `-` is standard input.
fn open_path(path: &Path) -> Result<(NamedReader, Option<u64>), CaptureError> {
    if path.as_os_str() == "-" {
        return Ok(((STDIN_NAME.to_string(), Box::new(io::stdin())), None));
    }
    let name = path.display().to_string();
    let err = |kind| CaptureError {
        input: name.clone(),
        kind,
    };
    let file = File::open(path).map_err(|e| err(CaptureErrorKind::Open(e)))?;
    // Linux opens a directory for reading without complaint; reading it then fails with EISDIR.
    let meta = file
        .metadata()
        .map_err(|e| err(CaptureErrorKind::Open(e)))?;
    if meta.is_dir() {
        return Err(err(CaptureErrorKind::IsDirectory));
    }
    let size = meta.is_file().then_some(meta.len());
    // No BufReader: the pcap-parser buffer already reads in large chunks, a second buffer would copy.
    Ok(((name, Box::new(file)), size))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    // ---- fixture writers -------------------------------------------------------------------------

    fn put16(v: &mut Vec<u8>, x: u16, be: bool) {
        v.extend_from_slice(&if be { x.to_be_bytes() } else { x.to_le_bytes() });
    }
    fn put32(v: &mut Vec<u8>, x: u32, be: bool) {
        v.extend_from_slice(&if be { x.to_be_bytes() } else { x.to_le_bytes() });
    }

    /// A classic pcap file, built record by record.
    struct Pcap {
        be: bool,
        bytes: Vec<u8>,
    }

    impl Pcap {
        fn new(be: bool, nanos: bool, linktype: u32) -> Pcap {
            let mut bytes = Vec::new();
            put32(
                &mut bytes,
                if nanos { 0xa1b2_3c4d } else { 0xa1b2_c3d4 },
                be,
            ); // magic
            put16(&mut bytes, 2, be); // version major
            put16(&mut bytes, 4, be); // version minor
            put32(&mut bytes, 0, be); // thiszone
            put32(&mut bytes, 0, be); // sigfigs
            put32(&mut bytes, 65535, be); // snaplen
            put32(&mut bytes, linktype, be); // link type
            Pcap { be, bytes }
        }
        fn rec(mut self, sec: u32, frac: u32, data: &[u8], origlen: u32) -> Pcap {
            let be = self.be;
            put32(&mut self.bytes, sec, be);
            put32(&mut self.bytes, frac, be);
            put32(&mut self.bytes, data.len() as u32, be);
            put32(&mut self.bytes, origlen, be);
            self.bytes.extend_from_slice(data);
            self
        }
        fn pkt(self, sec: u32, frac: u32, data: &[u8]) -> Pcap {
            let n = data.len() as u32;
            self.rec(sec, frac, data, n)
        }
    }

    /// A pcapng file, built block by block.
    #[derive(Clone)]
    struct Ng {
        be: bool,
        bytes: Vec<u8>,
    }

    impl Ng {
        fn new(be: bool) -> Ng {
            Ng {
                be,
                bytes: Vec::new(),
            }
            .shb(be)
        }
        /// Any block: type, total length, body padded to 4, total length.
        fn block(mut self, block_type: u32, body: &[u8]) -> Ng {
            let be = self.be;
            let padded = body.len().div_ceil(4) * 4;
            let len = (12 + padded) as u32;
            put32(&mut self.bytes, block_type, be);
            put32(&mut self.bytes, len, be);
            self.bytes.extend_from_slice(body);
            self.bytes.resize(self.bytes.len() + padded - body.len(), 0);
            put32(&mut self.bytes, len, be);
            self
        }
        fn shb(mut self, be: bool) -> Ng {
            self.be = be;
            let mut b = Vec::new();
            put32(&mut b, BOM, be); // byte-order magic
            put16(&mut b, 1, be); // major
            put16(&mut b, 0, be); // minor
            b.extend_from_slice(&(-1i64).to_le_bytes()); // section length: unknown
            self.block(SHB, &b)
        }
        fn idb(
            self,
            linktype: u16,
            snaplen: u32,
            tsresol: Option<u8>,
            tsoffset: Option<i64>,
        ) -> Ng {
            let be = self.be;
            let mut b = Vec::new();
            put16(&mut b, linktype, be);
            put16(&mut b, 0, be); // reserved
            put32(&mut b, snaplen, be);
            if let Some(r) = tsresol {
                put16(&mut b, 9, be); // if_tsresol
                put16(&mut b, 1, be);
                b.extend_from_slice(&[r, 0, 0, 0]);
            }
            if let Some(o) = tsoffset {
                put16(&mut b, 14, be); // if_tsoffset
                put16(&mut b, 8, be);
                b.extend_from_slice(&if be { o.to_be_bytes() } else { o.to_le_bytes() });
            }
            if tsresol.is_some() || tsoffset.is_some() {
                put32(&mut b, 0, be); // opt_endofopt
            }
            self.block(IDB, &b)
        }
        fn epb(self, if_id: u32, ts: u64, data: &[u8], origlen: u32) -> Ng {
            let be = self.be;
            let mut b = Vec::new();
            put32(&mut b, if_id, be);
            put32(&mut b, (ts >> 32) as u32, be);
            put32(&mut b, ts as u32, be);
            put32(&mut b, data.len() as u32, be);
            put32(&mut b, origlen, be);
            b.extend_from_slice(data);
            self.block(EPB, &b)
        }
        fn opb(self, if_id: u16, ts: u64, data: &[u8]) -> Ng {
            let be = self.be;
            let mut b = Vec::new();
            put16(&mut b, if_id, be);
            put16(&mut b, 0, be); // drops count
            put32(&mut b, (ts >> 32) as u32, be);
            put32(&mut b, ts as u32, be);
            put32(&mut b, data.len() as u32, be);
            put32(&mut b, data.len() as u32, be);
            b.extend_from_slice(data);
            self.block(OPB, &b)
        }
        fn spb(self, origlen: u32, data: &[u8]) -> Ng {
            let be = self.be;
            let mut b = Vec::new();
            put32(&mut b, origlen, be);
            b.extend_from_slice(data);
            self.block(SPB, &b)
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------

    #[derive(Debug, Clone, PartialEq, Eq)]
    struct Pkt {
        frame: u64,
        ts: i64,
        linktype: u32,
        data: Vec<u8>,
        wire_len: u32,
    }

    fn drain(r: &mut CaptureReader) -> Result<Vec<Pkt>, CaptureError> {
        let mut out = Vec::new();
        while let Some(p) = r.next_packet()? {
            out.push(Pkt {
                frame: p.frame,
                ts: p.ts.nanos(),
                linktype: p.linktype.0,
                data: p.data.to_vec(),
                wire_len: p.wire_len,
            });
        }
        Ok(out)
    }

    /// Reads through a 64-byte buffer, so refills and growth happen in every test.
    fn read_all(bytes: &[u8]) -> Result<(Vec<Pkt>, CaptureStats), CaptureError> {
        let inputs: Vec<NamedReader> = vec![("mem".into(), Box::new(Cursor::new(bytes.to_vec())))];
        let mut r = CaptureReader::with_buffer_size(inputs, 64)?;
        let pkts = drain(&mut r)?;
        Ok((pkts, r.stats().clone()))
    }

    fn kind_of(bytes: &[u8]) -> CaptureErrorKind {
        match read_all(bytes) {
            Err(e) => e.kind,
            Ok(p) => panic!("expected an error, got {p:?}"),
        }
    }

    fn secs(s: i64) -> i64 {
        s * 1_000_000_000
    }

    /// A unique temp file holding `bytes`, removed on drop.
    struct TempFile(PathBuf);
    impl TempFile {
        fn new(tag: &str, bytes: &[u8]) -> TempFile {
            static N: AtomicU64 = AtomicU64::new(0);
            let n = N.fetch_add(1, Ordering::Relaxed);
            let p = std::env::temp_dir()
                .join(format!("mcptap-capture-{}-{n}-{tag}", std::process::id()));
            std::fs::write(&p, bytes).unwrap();
            TempFile(p)
        }
    }
    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    /// Delivers at most `step` bytes per read, and `Interrupted` before every other read.
    struct Trickle {
        data: Vec<u8>,
        pos: usize,
        step: usize,
        interrupt: bool,
    }
    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.interrupt = !self.interrupt;
            if self.interrupt {
                return Err(io::Error::from(io::ErrorKind::Interrupted));
            }
            let n = self.step.min(buf.len()).min(self.data.len() - self.pos);
            buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    /// Reads `ok` bytes, then fails.
    struct Failing {
        data: Vec<u8>,
        pos: usize,
    }
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.pos >= self.data.len() {
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.data.len() - self.pos);
            buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    // ---- classic pcap ----------------------------------------------------------------------------

    #[test]
    fn pcap_all_byte_orders_and_resolutions_read_the_same() {
        for be in [false, true] {
            for nanos in [false, true] {
                let frac = if nanos { 123_456_789 } else { 123_456 };
                let file = Pcap::new(be, nanos, 1)
                    .pkt(1_700_000_000, frac, b"abc")
                    .pkt(1_700_000_001, 0, b"");
                let (pkts, stats) = read_all(&file.bytes).unwrap();
                let ns = if nanos { 123_456_789 } else { 123_456_000 };
                assert_eq!(
                    pkts,
                    vec![
                        Pkt {
                            frame: 1,
                            ts: secs(1_700_000_000) + ns,
                            linktype: 1,
                            data: b"abc".to_vec(),
                            wire_len: 3
                        },
                        Pkt {
                            frame: 2,
                            ts: secs(1_700_000_001),
                            linktype: 1,
                            data: vec![],
                            wire_len: 0
                        },
                    ],
                    "be={be} nanos={nanos}"
                );
                assert_eq!(
                    stats,
                    CaptureStats {
                        bytes_read: file.bytes.len() as u64,
                        ..Default::default()
                    }
                );
            }
        }
    }

    #[test]
    fn pcap_linktype_upper_bits_are_fcs_info_not_link_type() {
        // draft-ietf-opsawg-pcap §4: bit 28 'F' and FCS length in bits 29..31 (here: 4 bytes of FCS).
        let file = Pcap::new(false, false, 0x9000_0000 | 113).pkt(1, 0, b"x");
        let (pkts, _) = read_all(&file.bytes).unwrap();
        assert_eq!(pkts[0].linktype, 113);
    }

    #[test]
    fn pcap_snap_truncated_record_is_counted_and_keeps_wire_len() {
        let file = Pcap::new(false, false, 1)
            .rec(5, 0, b"head", 1500)
            .pkt(6, 0, b"full");
        let (pkts, stats) = read_all(&file.bytes).unwrap();
        assert_eq!(pkts[0].data, b"head");
        assert_eq!(pkts[0].wire_len, 1500);
        assert_eq!(pkts[1].wire_len, 4);
        assert_eq!(stats.truncated_records, 1);
        assert_eq!(stats.truncated_tail, 0);
    }

    #[test]
    fn pcap_timestamps_going_backwards_keep_file_order() {
        let file = Pcap::new(false, false, 1)
            .pkt(10, 0, b"a")
            .pkt(5, 0, b"b")
            .pkt(7, 0, b"c");
        let (pkts, _) = read_all(&file.bytes).unwrap();
        let order: Vec<_> = pkts.iter().map(|p| (p.frame, p.data[0])).collect();
        assert_eq!(order, vec![(1, b'a'), (2, b'b'), (3, b'c')]);
    }

    #[test]
    fn pcap_modified_format_has_24_byte_record_headers() {
        let mut bytes = Pcap::new(false, false, 1).bytes;
        bytes[..4].copy_from_slice(&0xa1b2_cd34u32.to_le_bytes());
        for v in [9u32, 500_000, 2, 60] {
            put32(&mut bytes, v, false); // ts_sec, ts_usec, caplen, origlen
        }
        bytes.extend_from_slice(&[7, 0, 0, 0, 0x08, 0x00, 0, 0]); // ifindex, protocol, pkt_type, pad
        bytes.extend_from_slice(b"hi");
        let (pkts, stats) = read_all(&bytes).unwrap();
        assert_eq!(pkts.len(), 1);
        assert_eq!(pkts[0].data, b"hi");
        assert_eq!(pkts[0].ts, secs(9) + 500_000_000);
        assert_eq!(stats.truncated_records, 1);
    }

    #[test]
    fn pcap_truncated_at_every_offset_of_the_file_header() {
        let file = Pcap::new(false, false, 1).pkt(1, 0, b"abcd");
        for cut in 0..PCAP_HEADER_LEN {
            match (cut, kind_of(&file.bytes[..cut])) {
                (0, CaptureErrorKind::Empty) => {}
                (_, CaptureErrorKind::TruncatedHeader { got, need: 24 }) if got == cut => {}
                (_, k) => panic!("cut {cut}: {k:?}"),
            }
        }
        let e = CaptureReader::from_reader("x.pcap", Cursor::new(file.bytes[..12].to_vec()))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "x.pcap: truncated file header (12 of 24 bytes)"
        );
    }

    #[test]
    fn pcap_truncated_at_every_offset_of_a_record_is_a_counted_tail() {
        for be in [false, true] {
            let file = Pcap::new(be, true, 1)
                .pkt(1, 0, b"first")
                .pkt(2, 0, b"second");
            let second_start = PCAP_HEADER_LEN + 16 + 5;
            for cut in PCAP_HEADER_LEN..=file.bytes.len() {
                let (pkts, stats) = read_all(&file.bytes[..cut]).unwrap();
                let complete =
                    usize::from(cut >= second_start) + usize::from(cut == file.bytes.len());
                assert_eq!(pkts.len(), complete, "cut {cut}");
                let at_boundary =
                    cut == PCAP_HEADER_LEN || cut == second_start || cut == file.bytes.len();
                assert_eq!(stats.truncated_tail, u64::from(!at_boundary), "cut {cut}");
                assert_eq!(stats.bytes_read, cut as u64);
            }
        }
    }

    #[test]
    fn pcap_caplen_beyond_limit_is_a_fatal_record_error() {
        let mut bytes = Pcap::new(false, false, 1).pkt(1, 0, b"ok").bytes;
        let at = bytes.len();
        for v in [2u32, 0, 0xffff_fff0, 0xffff_fff0] {
            put32(&mut bytes, v, false);
        }
        let mut r = CaptureReader::from_reader("x.pcap", Cursor::new(bytes)).unwrap();
        assert!(r.next_packet().unwrap().is_some());
        let e = r.next_packet().unwrap_err();
        match &e.kind {
            CaptureErrorKind::Record {
                index: 2,
                offset,
                problem: Corruption::CaplenTooLarge { .. },
            } => {
                assert_eq!(*offset, at as u64)
            }
            k => panic!("{k:?}"),
        }
        assert_eq!(
            e.to_string(),
            format!("x.pcap: record 2 at offset {at}: caplen 4294967280 exceeds the maximum of 268435456 bytes")
        );
        assert!(
            r.next_packet().unwrap().is_none(),
            "reader is done after an error"
        );
    }

    #[test]
    fn pcap_record_larger_than_buffer_grows_it() {
        let big = vec![0x5a; 10_000];
        let file = Pcap::new(false, false, 1)
            .pkt(1, 0, b"a")
            .pkt(2, 0, &big)
            .pkt(3, 0, b"c");
        let inputs: Vec<NamedReader> =
            vec![("mem".into(), Box::new(Cursor::new(file.bytes.clone())))];
        let mut r = CaptureReader::with_buffer_size(inputs, 64).unwrap();
        let pkts = drain(&mut r).unwrap();
        assert_eq!(pkts.len(), 3);
        assert_eq!(pkts[1].data, big);
        assert_eq!(r.stats().bytes_read, file.bytes.len() as u64);
    }

    #[test]
    fn pcap_huge_caplen_at_end_of_file_does_not_allocate_it() {
        // A last record claiming 200 MB with 1000 bytes behind it: a counted tail, and the buffer grows
        // only with the bytes that exist.
        let mut bytes = Pcap::new(false, false, 1).pkt(1, 0, b"ok").bytes;
        for v in [2u32, 0, 200_000_000, 200_000_000] {
            put32(&mut bytes, v, false);
        }
        bytes.extend_from_slice(&[0; 1000]);
        let inputs: Vec<NamedReader> = vec![("mem".into(), Box::new(Cursor::new(bytes)))];
        let mut r = CaptureReader::with_buffer_size(inputs, 256).unwrap();
        assert_eq!(drain(&mut r).unwrap().len(), 1);
        assert_eq!(r.stats().truncated_tail, 1);
        assert!(
            r.inputs[0].buf.capacity <= 4096,
            "{}",
            r.inputs[0].buf.capacity
        );
    }

    #[test]
    fn pcap_reads_from_a_trickling_interrupted_reader() {
        let file = Pcap::new(true, false, 101)
            .pkt(1, 2, b"hello")
            .pkt(3, 4, b"world");
        let expected = read_all(&file.bytes).unwrap().0;
        for step in [1, 3, 7, 16] {
            let t = Trickle {
                data: file.bytes.clone(),
                pos: 0,
                step,
                interrupt: false,
            };
            let mut r = CaptureReader::from_reader("pipe", t).unwrap();
            assert_eq!(drain(&mut r).unwrap(), expected, "step {step}");
        }
    }

    #[test]
    fn read_error_mid_file_names_the_offset() {
        let file = Pcap::new(false, false, 1).pkt(1, 0, b"abc");
        let failing = Failing {
            data: file.bytes[..30].to_vec(),
            pos: 0,
        };
        let inputs: Vec<NamedReader> = vec![("f.pcap".into(), Box::new(failing))];
        let mut r = CaptureReader::with_buffer_size(inputs, 64).unwrap();
        let e = r.next_packet().unwrap_err();
        assert!(
            matches!(e.kind, CaptureErrorKind::Read { offset: 30, .. }),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "f.pcap: read error at offset 30: disk on fire"
        );
    }

    // ---- magic, open ----------------------------------------------------------------------------

    #[test]
    fn unknown_magic_is_named_in_the_message() {
        let e = CaptureReader::from_reader("samples/x.pcap", Cursor::new(b"<html><body>".to_vec()))
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "samples/x.pcap: not a pcap or pcapng file (magic 0x3c68746d)"
        );
        assert!(matches!(
            kind_of(b"ab"),
            CaptureErrorKind::NotCapture { .. }
        ));
        assert!(matches!(
            kind_of(&[0xa1, 0xb2, 0xcd, 0x34, 0, 0]),
            CaptureErrorKind::Unsupported { .. }
        ));
    }

    #[test]
    fn open_missing_directory_and_empty_files() {
        let missing = std::env::temp_dir().join("mcptap-definitely-missing.pcap");
        let e = CaptureReader::open(std::slice::from_ref(&missing)).unwrap_err();
        assert!(matches!(e.kind, CaptureErrorKind::Open(_)));
        assert_eq!(
            e.to_string(),
            format!(
                "{}: cannot open: No such file or directory",
                missing.display()
            )
        );

        let dir = std::env::temp_dir();
        let e = CaptureReader::open(std::slice::from_ref(&dir)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("{}: is a directory, not a capture file", dir.display())
        );

        let empty = TempFile::new("empty.pcap", b"");
        let e = CaptureReader::open(std::slice::from_ref(&empty.0)).unwrap_err();
        assert_eq!(e.to_string(), format!("{}: empty file", empty.0.display()));
    }

    #[test]
    fn open_reads_files_by_magic_not_extension() {
        let ng = Ng::new(false)
            .idb(1, 0, None, None)
            .epb(0, 5_000_000, b"ng", 2);
        let pcap = Pcap::new(false, false, 1).pkt(4, 0, b"pc");
        let a = TempFile::new("really-pcapng.pcap", &ng.bytes);
        let b = TempFile::new("really-pcap.pcapng", &pcap.bytes);
        let mut r = CaptureReader::open(&[a.0.clone(), b.0.clone()]).unwrap();
        assert_eq!(
            r.inputs().collect::<Vec<_>>(),
            vec![a.0.display().to_string(), b.0.display().to_string()]
        );
        assert_eq!(
            r.total_size(),
            Some((ng.bytes.len() + pcap.bytes.len()) as u64)
        );
        let pkts = drain(&mut r).unwrap();
        assert_eq!(
            pkts.iter().map(|p| p.data.clone()).collect::<Vec<_>>(),
            vec![b"pc".to_vec(), b"ng".to_vec()]
        );
        assert_eq!(r.stats().bytes_read, r.total_size().unwrap());
    }

    #[test]
    fn dash_means_stdin() {
        let ((name, _), size) = open_path(Path::new("-")).unwrap();
        assert_eq!(name, "<stdin>");
        assert_eq!(size, None);
    }

    #[test]
    fn reader_is_send() {
        fn is_send<T: Send>() {}
        is_send::<CaptureReader>();
    }

    // ---- pcapng ---------------------------------------------------------------------------------

    /// draft-ietf-opsawg-pcapng §4.7: a Decryption Secrets Block of type TLSK is kept for the TLS layer
    /// (what `editcap --inject-secrets tls,FILE` writes); another secrets type is skipped.
    #[test]
    fn pcapng_decryption_secrets_block_is_taken() {
        for be in [false, true] {
            let text = b"CLIENT_RANDOM 00 11\n";
            let mut body = Vec::new();
            let put = |v: &mut Vec<u8>, x: u32| v.extend_from_slice(&if be { x.to_be_bytes() } else { x.to_le_bytes() });
            put(&mut body, DSB_TLS_KEYLOG);
            put(&mut body, text.len() as u32);
            body.extend_from_slice(text);
            while body.len() % 4 != 0 {
                body.push(0);
            }
            let mut wg = Vec::new();
            put(&mut wg, 0x5747_4b4c); // "WGKL": WireGuard keys, not ours
            put(&mut wg, 4);
            wg.extend_from_slice(b"abcd");
            let file = Ng::new(be).block(DSB, &body).block(DSB, &wg).idb(1, 0, None, None).epb(0, 1, b"eth", 3);
            let inputs: Vec<NamedReader> = vec![("mem".into(), Box::new(Cursor::new(file.bytes.clone())))];
            let mut r = CaptureReader::with_buffer_size(inputs, 64).unwrap();
            assert!(r.next_packet().unwrap().is_some());
            assert_eq!(r.take_secrets(), b"CLIENT_RANDOM 00 11\n\n".to_vec(), "be={be}");
            assert!(r.take_secrets().is_empty());
        }
    }

    #[test]
    fn pcapng_two_interfaces_with_different_linktypes_and_resolutions() {
        for be in [false, true] {
            let file = Ng::new(be)
                .idb(1, 0, None, None) // ethernet, microseconds (default)
                .block(0x0000_0bad, b"custom block") // skipped
                .idb(101, 0, Some(9), Some(100)) // raw IP, nanoseconds, +100 s
                .epb(0, 1_700_000_000_123_456, b"eth", 3)
                .block(0x0000_0005, &[0; 8]) // interface statistics: skipped
                .epb(1, 1_700_000_000_123_456_789, b"raw-ip", 6)
                .idb(113, 0, Some(0x80 | 20), None) // SLL, 2^-20 s
                .epb(2, (7 << 20) | (1 << 19), b"sll", 3);
            let (pkts, stats) = read_all(&file.bytes).unwrap();
            assert_eq!(
                pkts,
                vec![
                    Pkt {
                        frame: 1,
                        ts: secs(1_700_000_000) + 123_456_000,
                        linktype: 1,
                        data: b"eth".to_vec(),
                        wire_len: 3
                    },
                    Pkt {
                        frame: 2,
                        ts: secs(1_700_000_100) + 123_456_789,
                        linktype: 101,
                        data: b"raw-ip".to_vec(),
                        wire_len: 6
                    },
                    Pkt {
                        frame: 3,
                        ts: secs(7) + 500_000_000,
                        linktype: 113,
                        data: b"sll".to_vec(),
                        wire_len: 3
                    },
                ],
                "be={be}"
            );
            assert_eq!(stats.skipped_blocks, 2);
            assert_eq!(stats.bytes_read, file.bytes.len() as u64);
        }
    }

    #[test]
    fn pcapng_fine_resolutions() {
        // 10^-12 s (picoseconds) and 2^0 s (whole seconds).
        let file = Ng::new(false)
            .idb(1, 0, Some(12), None)
            .idb(1, 0, Some(0x80), None)
            .epb(0, 3_000_000_000_007, b"", 0) // 3 s + 7 ps
            .epb(1, 9, b"", 0);
        let (pkts, _) = read_all(&file.bytes).unwrap();
        assert_eq!(pkts[0].ts, secs(3));
        assert_eq!(pkts[1].ts, secs(9));
    }

    #[test]
    fn pcapng_new_section_replaces_interfaces_and_byte_order() {
        let mut file = Ng::new(false)
            .idb(1, 0, None, None)
            .epb(0, 1_000_000, b"s1", 2);
        file = file
            .shb(true)
            .idb(101, 0, Some(9), None)
            .epb(0, 2_000_000_000, b"s2", 2)
            .epb(1, 0, b"nope", 4);
        let (pkts, stats) = read_all(&file.bytes).unwrap();
        assert_eq!(pkts.len(), 2);
        assert_eq!((pkts[0].linktype, pkts[0].ts), (1, secs(1)));
        assert_eq!((pkts[1].linktype, pkts[1].ts), (101, secs(2)));
        assert_eq!(
            stats.skipped_blocks, 1,
            "EPB for interface 1, which section 2 does not declare"
        );
    }

    #[test]
    fn pcapng_packet_for_unknown_interface_is_a_counted_skip() {
        let file = Ng::new(false)
            .epb(0, 0, b"early", 5)
            .idb(1, 0, None, None)
            .epb(3, 0, b"bad id", 6)
            .epb(0, 0, b"ok", 2);
        let (pkts, stats) = read_all(&file.bytes).unwrap();
        assert_eq!(pkts.len(), 1);
        assert_eq!((pkts[0].frame, pkts[0].data.as_slice()), (1, &b"ok"[..]));
        assert_eq!(stats.skipped_blocks, 2);
    }

    #[test]
    fn pcapng_simple_and_obsolete_packet_blocks() {
        let file = Ng::new(false)
            .idb(1, 4, Some(3), None) // snaplen 4, milliseconds
            .opb(0, 2_500, b"opb!")
            .spb(9, b"simple-pk") // 9 on the wire, snaplen 4 keeps "simp"
            .spb(2, b"ab"); // SPB data padded to 4: the 2 real bytes only
        let (pkts, stats) = read_all(&file.bytes).unwrap();
        assert_eq!(pkts.len(), 3);
        assert_eq!(
            (pkts[0].ts, pkts[0].data.as_slice()),
            (secs(2) + 500_000_000, &b"opb!"[..])
        );
        assert_eq!(
            (pkts[1].ts, pkts[1].data.as_slice(), pkts[1].wire_len),
            (pkts[0].ts, &b"simp"[..], 9)
        );
        assert_eq!((pkts[2].data.as_slice(), pkts[2].wire_len), (&b"ab"[..], 2));
        assert_eq!(stats.truncated_records, 1);
    }

    #[test]
    fn pcapng_epb_padding_is_not_packet_data_and_caplen_below_origlen_counts() {
        let file = Ng::new(true)
            .idb(1, 0, None, None)
            .epb(0, 0, b"12345", 1514)
            .epb(0, 0, b"", 0);
        let (pkts, stats) = read_all(&file.bytes).unwrap();
        assert_eq!(
            (pkts[0].data.as_slice(), pkts[0].wire_len),
            (&b"12345"[..], 1514)
        );
        assert!(pkts[1].data.is_empty());
        assert_eq!(stats.truncated_records, 1);
    }

    #[test]
    fn pcapng_truncated_at_every_offset_of_the_section_header() {
        let file = Ng::new(false).idb(1, 0, None, None).epb(0, 0, b"x", 1);
        let shb_len = 28;
        for cut in 0..shb_len {
            match (cut, kind_of(&file.bytes[..cut])) {
                (0, CaptureErrorKind::Empty) => {}
                (_, CaptureErrorKind::TruncatedHeader { got, need: 28 }) if got == cut => {}
                (_, k) => panic!("cut {cut}: {k:?}"),
            }
        }
        assert_eq!(read_all(&file.bytes[..shb_len]).unwrap().0, vec![]);
    }

    #[test]
    fn pcapng_truncated_at_every_offset_of_a_block_is_a_counted_tail() {
        for be in [false, true] {
            let file = Ng::new(be)
                .idb(1, 0, Some(6), None)
                .epb(0, 0, b"first", 5)
                .epb(0, 0, b"second!", 7);
            let idb_end = 28 + 32;
            let first_end = idb_end + 32 + 8;
            for cut in 28..=file.bytes.len() {
                let (pkts, stats) = read_all(&file.bytes[..cut]).unwrap();
                let complete = usize::from(cut >= first_end) + usize::from(cut == file.bytes.len());
                assert_eq!(pkts.len(), complete, "cut {cut}");
                let boundary = [28, idb_end, first_end, file.bytes.len()].contains(&cut);
                assert_eq!(
                    stats.truncated_tail,
                    u64::from(!boundary),
                    "be={be} cut {cut}"
                );
            }
        }
    }

    #[test]
    fn pcapng_corrupt_blocks_are_fatal_with_offsets() {
        let base = Ng::new(false).idb(1, 0, None, None);
        let at = base.bytes.len();
        let msg = |bytes: &[u8]| {
            let mut r =
                CaptureReader::from_reader("x.pcapng", Cursor::new(bytes.to_vec())).unwrap();
            drain(&mut r).unwrap_err().to_string()
        };

        let mut b = base.bytes.clone();
        put32(&mut b, EPB, false);
        put32(&mut b, 20, false);
        b.extend_from_slice(&[0; 12]);
        assert_eq!(msg(&b), format!("x.pcapng: block at offset {at}: enhanced packet block length 20 is below the minimum of 32 bytes"));

        let mut b = base.bytes.clone();
        put32(&mut b, 0x99, false);
        put32(&mut b, 14, false);
        b.extend_from_slice(&[0; 8]);
        assert_eq!(
            msg(&b),
            format!("x.pcapng: block at offset {at}: block length 14 is not a multiple of 4")
        );

        let mut b = base.bytes.clone();
        put32(&mut b, EPB, false);
        put32(&mut b, 0x7fff_fff0, false);
        b.extend_from_slice(&[0; 40]);
        assert_eq!(msg(&b), format!("x.pcapng: block at offset {at}: block length 2147483632 exceeds the maximum of 268435456 bytes"));

        let mut b = base.clone().epb(0, 0, b"abcd", 4).bytes;
        let end = b.len();
        b[end - 4..].copy_from_slice(&40u32.to_le_bytes());
        assert_eq!(msg(&b), format!("x.pcapng: block at offset {at}: trailing block length 40 does not match leading block length 36"));

        let mut b = base.clone().epb(0, 0, b"abcd", 4).bytes;
        b[at + 20..at + 24].copy_from_slice(&9u32.to_le_bytes()); // caplen 9 in a block with room for 4
        assert_eq!(msg(&b), format!("x.pcapng: block at offset {at}: caplen 9 exceeds the 4 bytes of packet data in the enhanced packet block"));

        let mut b = base.clone().shb(false).bytes;
        b[at + 8..at + 12].copy_from_slice(&[1, 2, 3, 4]);
        assert_eq!(msg(&b), format!("x.pcapng: block at offset {at}: invalid byte-order magic 0x01020304 in section header block"));

        let mut b = base.clone().shb(false).bytes;
        b[at + 12..at + 14].copy_from_slice(&2u16.to_le_bytes());
        assert_eq!(
            msg(&b),
            format!("x.pcapng: block at offset {at}: unsupported pcapng version 2.0")
        );

        let b = base.clone().idb(1, 0, Some(20), None).bytes;
        assert_eq!(
            msg(&b),
            format!("x.pcapng: block at offset {at}: if_tsresol 0x14 is out of range")
        );
    }

    #[test]
    fn pcapng_bad_first_section_header() {
        let mut b = Ng::new(false).bytes;
        b[8..12].copy_from_slice(&[9, 9, 9, 9]);
        let e = CaptureReader::from_reader("y.pcapng", Cursor::new(b)).unwrap_err();
        assert_eq!(e.to_string(), "y.pcapng: block at offset 0: invalid byte-order magic 0x09090909 in section header block");
    }

    #[test]
    fn pcapng_large_first_section_header_fits_small_buffer() {
        // An SHB with a 200-byte comment, read through a 64-byte buffer and a 1-byte-per-read pipe.
        let mut body = Vec::new();
        put32(&mut body, BOM, false);
        put16(&mut body, 1, false);
        put16(&mut body, 0, false);
        body.extend_from_slice(&(-1i64).to_le_bytes());
        put16(&mut body, 1, false); // opt_comment
        put16(&mut body, 200, false);
        body.extend_from_slice(&[b'c'; 200]);
        let mut file = Ng {
            be: false,
            bytes: Vec::new(),
        }
        .block(SHB, &body);
        file = file.idb(1, 0, None, None).epb(0, 1, b"z", 1);
        let t = Trickle {
            data: file.bytes.clone(),
            pos: 0,
            step: 1,
            interrupt: false,
        };
        let inputs: Vec<NamedReader> = vec![("pipe".into(), Box::new(t))];
        let mut r = CaptureReader::with_buffer_size(inputs, 64).unwrap();
        let pkts = drain(&mut r).unwrap();
        assert_eq!(pkts.len(), 1);
        assert_eq!(r.stats().bytes_read, file.bytes.len() as u64);
    }

    // ---- merge ----------------------------------------------------------------------------------

    #[test]
    fn merge_orders_by_time_like_mergecap_and_numbers_frames() {
        // a: t=1, 3, 5(tie), 4 (backwards within a)   b: t=2, 5(tie), 6   c: empty capture
        // On the tie at t=5 the later input (b) goes first, as mergecap does.
        let a = Pcap::new(false, false, 1)
            .pkt(1, 0, b"a1")
            .pkt(3, 0, b"a3")
            .pkt(5, 0, b"a5")
            .pkt(4, 0, b"a4");
        let b = Ng::new(true)
            .idb(1, 0, Some(9), None)
            .epb(0, 2_000_000_000, b"b2", 2)
            .epb(0, 5_000_000_000, b"b5", 2)
            .epb(0, 6_000_000_000, b"b6", 2);
        let c = Pcap::new(true, true, 1);
        let inputs: Vec<NamedReader> = vec![
            ("a".into(), Box::new(Cursor::new(a.bytes))),
            ("b".into(), Box::new(Cursor::new(b.bytes))),
            ("c".into(), Box::new(Cursor::new(c.bytes))),
        ];
        let mut r = CaptureReader::from_readers(inputs).unwrap();
        let pkts = drain(&mut r).unwrap();
        let got: Vec<_> = pkts
            .iter()
            .map(|p| (p.frame, String::from_utf8(p.data.clone()).unwrap()))
            .collect();
        let want: Vec<_> = ["a1", "b2", "a3", "b5", "a5", "a4", "b6"]
            .iter()
            .enumerate()
            .map(|(i, s)| (i as u64 + 1, s.to_string()))
            .collect();
        assert_eq!(got, want);
        assert!(r.next_packet().unwrap().is_none());
    }

    #[test]
    fn merge_three_way_tie_goes_last_input_first() {
        let one = |tag: &'static [u8]| -> Box<dyn Read + Send> {
            Box::new(Cursor::new(
                Pcap::new(false, false, 1)
                    .pkt(1, 0, tag)
                    .pkt(2, 0, tag)
                    .bytes,
            ))
        };
        let inputs: Vec<NamedReader> = vec![
            ("a".into(), one(b"a")),
            ("b".into(), one(b"b")),
            ("c".into(), one(b"c")),
        ];
        let mut r = CaptureReader::from_readers(inputs).unwrap();
        let order: Vec<u8> = drain(&mut r).unwrap().iter().map(|p| p.data[0]).collect();
        assert_eq!(order, b"cbacba");
    }

    #[test]
    fn merge_of_rotated_files_is_their_concatenation() {
        let a = Pcap::new(false, false, 1).pkt(1, 0, b"1").pkt(2, 0, b"2");
        let b = Pcap::new(false, false, 1).pkt(3, 0, b"3").pkt(4, 0, b"4");
        let inputs: Vec<NamedReader> = vec![
            ("b".into(), Box::new(Cursor::new(b.bytes))),
            ("a".into(), Box::new(Cursor::new(a.bytes))),
        ];
        let mut r = CaptureReader::from_readers(inputs).unwrap();
        let data: Vec<_> = drain(&mut r)
            .unwrap()
            .into_iter()
            .map(|p| p.data[0])
            .collect();
        assert_eq!(data, b"1234");
    }

    #[test]
    fn merge_error_in_one_input_names_that_input() {
        let good = Pcap::new(false, false, 1)
            .pkt(1, 0, b"ok")
            .pkt(9, 0, b"later");
        let mut bad = Pcap::new(false, false, 1).pkt(2, 0, b"x").bytes;
        for v in [3u32, 0, u32::MAX, 1] {
            put32(&mut bad, v, false);
        }
        let inputs: Vec<NamedReader> = vec![
            ("good".into(), Box::new(Cursor::new(good.bytes))),
            ("bad".into(), Box::new(Cursor::new(bad))),
        ];
        let mut r = CaptureReader::from_readers(inputs).unwrap();
        assert_eq!(r.next_packet().unwrap().unwrap().data, b"ok");
        assert_eq!(r.next_packet().unwrap().unwrap().data, b"x");
        let e = r.next_packet().unwrap_err();
        assert_eq!(e.input, "bad");
        assert!(matches!(e.kind, CaptureErrorKind::Record { index: 2, .. }));
    }

    #[test]
    fn no_inputs_yield_nothing() {
        let mut r = CaptureReader::from_readers(Vec::new()).unwrap();
        assert!(r.next_packet().unwrap().is_none());
    }

    fn fixture(which: u8) -> Vec<u8> {
        match which % 3 {
            0 => {
                Pcap::new(false, true, 1)
                    .rec(1, 2, b"abcdef", 9)
                    .pkt(3, 4, b"")
                    .bytes
            }
            1 => {
                Ng::new(false)
                    .idb(1, 0, Some(9), Some(5))
                    .epb(0, 77, b"packet", 6)
                    .spb(3, b"spb")
                    .block(0x0bad, b"x")
                    .bytes
            }
            _ => {
                Ng::new(true)
                    .idb(101, 96, None, None)
                    .opb(0, 1, b"old")
                    .shb(false)
                    .bytes
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

        #[test]
        fn mutated_files_never_panic(
            which in proptest::prelude::any::<u8>(),
            edits in proptest::collection::vec(
                (proptest::prelude::any::<usize>(), proptest::prelude::any::<u8>()), 0..8),
            cut in proptest::prelude::any::<usize>(),
            buffer in 12usize..200,
        ) {
            let mut bytes = fixture(which);
            for (at, b) in edits {
                let n = bytes.len();
                bytes[at % n] = b;
            }
            bytes.truncate(cut % (bytes.len() + 1));
            let len = bytes.len() as u64;
            let inputs: Vec<NamedReader> = vec![("m".into(), Box::new(Cursor::new(bytes)))];
            if let Ok(mut r) = CaptureReader::with_buffer_size(inputs, buffer) {
                let mut n = 0;
                while let Ok(Some(p)) = r.next_packet() {
                    n += 1;
                    proptest::prop_assert!(p.data.len() as u64 <= len);
                    proptest::prop_assert_eq!(p.frame, n);
                }
                proptest::prop_assert!(r.stats().bytes_read <= len);
            }
        }
    }

    #[test]
    fn tsresol_scales() {
        assert_eq!(
            TsScale::from_tsresol(6),
            Some(TsScale::Decimal {
                units: 1_000_000,
                mul: 1_000
            })
        );
        assert_eq!(
            TsScale::from_tsresol(9).unwrap().split(1_500_000_000),
            (1, 500_000_000)
        );
        assert_eq!(
            TsScale::from_tsresol(19).unwrap().split(u64::MAX),
            (1, 844_674_407)
        );
        assert_eq!(
            TsScale::from_tsresol(0x80 | 63).unwrap().split(u64::MAX),
            (1, 999_999_999)
        );
        assert_eq!(TsScale::from_tsresol(20), None);
        assert_eq!(TsScale::from_tsresol(0x80 | 64), None);
    }
}
