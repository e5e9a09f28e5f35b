//! One input: its bytes buffered under a pcap-parser streaming reader, its file or section header, and
//! the framing of its packet records and blocks into the next packet (its head), in file order.

use std::io::{self, Chain, Cursor, Read};
use std::sync::{Arc, Mutex};

use pcap_parser::traits::PcapReaderIterator;
use pcap_parser::{Block, LegacyPcapReader, OptionCode, PcapBlockOwned, PcapNGReader};

use super::error::{CaptureError, CaptureErrorKind, Corruption};
use super::format::*;
use super::packed::Packing;
use super::{MAX_BUFFER_SIZE, MAX_RECORD_LEN};
use crate::capture::{CaptureStats, LinkType, RawPacket};
use crate::time::Timestamp;

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
pub(super) struct Buffered {
    pub(super) name: String,
    framer: Framer,
    pub(super) capacity: usize,
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

pub(super) struct Input {
    pub(super) buf: Buffered,
    layout: Layout,
    head: Head,
    /// TLS key-log text from pcapng Decryption Secrets Blocks, not yet taken by `take_secrets`.
    pub(super) secrets: Vec<u8>,
    /// The file was compressed whole, and is read decompressed (`packed`).
    pub(super) packing: Option<Packing>,
}

/// Reads from `r` until `p` holds `n` bytes or the input ends.
fn read_prefix(r: &mut Box<dyn Read + Send>, p: &mut Vec<u8>, n: usize) -> Result<(), CaptureErrorKind> {
    let want = n.saturating_sub(p.len()) as u64;
    r.take(want)
        .read_to_end(p)
        .map(|_| ())
        .map_err(|error| CaptureErrorKind::Read {
            offset: p.len() as u64,
            error,
        })
}

impl Input {
    /// Reads the file header (enough to identify the format and to fail early on a bad file) and sets up
    /// the streaming reader.
    pub(super) fn open(
        name: String,
        reader: Box<dyn Read + Send>,
        capacity: usize,
        stats: &mut CaptureStats,
    ) -> Result<Input, CaptureError> {
        Self::open_layer(name, reader, None, capacity, stats)
    }

    /// `open` on the bytes of one layer: the file, or what the file decompresses to (`packing`), which is
    /// opened as a layer of its own once a compression magic is found.
    fn open_layer(
        name: String,
        mut reader: Box<dyn Read + Send>,
        packing: Option<Packing>,
        capacity: usize,
        stats: &mut CaptureStats,
    ) -> Result<Input, CaptureError> {
        let err = |kind| CaptureError {
            input: name.clone(),
            kind,
        };
        let mut prefix = Vec::with_capacity(64);
        read_prefix(&mut reader, &mut prefix, 4).map_err(err)?;
        let format = match sniff(&prefix) {
            Sniff::Packed(_) if packing.is_some() => {
                return Err(err(CaptureErrorKind::Unsupported { what: "compressed twice: decompress the outer layer first" }))
            }
            Sniff::Packed(p) => {
                // Messages then say which offsets they count.
                let name = format!("{name} ({}; offsets count decompressed bytes)", p.name());
                let raw: Box<dyn Read + Send> = Box::new(Cursor::new(prefix).chain(reader));
                let decoded = match p.decoder(raw) {
                    Ok(d) => d,
                    Err(error) => return Err(CaptureError { input: name, kind: CaptureErrorKind::Read { offset: 0, error } }),
                };
                return Self::open_layer(name, decoded, Some(p), capacity, stats);
            }
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
                read_prefix(&mut reader, &mut prefix, PCAP_HEADER_LEN).map_err(err)?;
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
                read_prefix(&mut reader, &mut prefix, 12).map_err(err)?;
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
                read_prefix(&mut reader, &mut prefix, us(len)).map_err(err)?;
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
            packing,
        })
    }

    /// The packet at the head of this input.
    #[inline]
    pub(super) fn packet(&self, frame: u64) -> RawPacket<'_> {
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
    pub(super) fn release(&mut self) {
        self.buf.consume(self.head.record_len);
        self.head = NO_HEAD;
    }

    /// Parses the next packet into `head`; `None` at the end of the input.
    #[inline]
    pub(super) fn advance(&mut self, stats: &mut CaptureStats) -> Result<Option<Timestamp>, CaptureError> {
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
