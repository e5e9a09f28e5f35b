//! Offline capture input: classic pcap and pcapng files (or standard input), also compressed whole with
//! gzip or zstd, streamed through one fixed buffer per input and yielded as `RawPacket`s that borrow that
//! buffer (zero copy). Several inputs are merged by timestamp into one capture, so rotated files are
//! analysed as one.
//!
//! Owns: format and compression detection by magic number (never by file name), record and block framing, per-interface
//! link type and timestamp resolution, the k-way merge, frame numbering, and the reader's error messages.
//! Must not: look inside packets (that is `decode`), read the wall clock, or allocate per packet.
//! Its parts: `format.rs` (magic numbers, block types, fixed headers), `packed.rs` (compressed files),
//! `input.rs` (one input's buffer and framing, in file order), `error.rs` (the messages); this file merges
//! the inputs.
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
//! unknown magic, truncated file header, read error (a cut or corrupt compressed stream is one, with the
//! decoder's reason), and a corrupt record or block header in the middle of
//! a file. Counted in `CaptureStats` and not fatal: a last record cut short by the end of the file
//! (`truncated_tail`; that input then ends), records shorter than on the wire (`truncated_records`),
//! pcapng blocks mcptap does not use and packets for an undeclared interface (`skipped_blocks`). After an
//! error `next_packet` returns `Ok(None)`.

use std::cmp::Reverse;
use std::collections::binary_heap::PeekMut;
use std::collections::BinaryHeap;
use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::{CaptureStats, RawPacket};
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

mod error;
mod format;
mod input;
mod packed;

pub use error::{CaptureError, CaptureErrorKind, Corruption};
pub use input::NamedReader;
use input::Input;

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
        // A compressed file's size says nothing of how many bytes it decompresses to.
        r.total_size = total_size.filter(|_| r.inputs.iter().all(|i| i.packing.is_none()));
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

    use super::format::*;
    use super::*;
    use std::io::Cursor;
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
    fn compressed_files_read_as_the_file_they_hold() {
        use std::io::Write;
        let ng = Ng::new(false)
            .idb(1, 0, None, None)
            .epb(0, 5_000_000, b"ng", 2);
        let pcap = Pcap::new(false, false, 1).pkt(4, 0, b"pc").pkt(6, 0, b"pd");
        let gzip = |bytes: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(bytes).unwrap();
            e.finish().unwrap()
        };
        // Two gzip members one after the other, cut inside the second record: one stream to the reader.
        let mut members = gzip(&pcap.bytes[..30]);
        members.extend(gzip(&pcap.bytes[30..]));
        let zst = zstd::encode_all(&ng.bytes[..], 3).unwrap();
        let a = TempFile::new("p.pcap.gz", &members);
        let b = TempFile::new("n.pcapng.zst", &zst);
        let mut r = CaptureReader::open(&[a.0.clone(), b.0.clone()]).unwrap();
        // Decompressed sizes are unknown before the end: no progress bar total.
        assert_eq!(r.total_size(), None);
        let pkts = drain(&mut r).unwrap();
        assert_eq!(
            pkts.iter().map(|p| (p.frame, p.data.clone())).collect::<Vec<_>>(),
            vec![(1, b"pc".to_vec()), (2, b"ng".to_vec()), (3, b"pd".to_vec())]
        );
        assert_eq!(r.stats().bytes_read, (pcap.bytes.len() + ng.bytes.len()) as u64);

        // A cut stream is fatal where the cut is found, after the packets before it, and says the offsets
        // are the decompressed ones.
        // (Bytes that do not compress, so that the deflate stream is as long as the file.)
        let mut big = Pcap::new(false, false, 1);
        let mut x = 0x2545_f491_u32;
        for i in 0..400 {
            let data: Vec<u8> = (0..200).map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            }).collect();
            big = big.pkt(i, 0, &data);
        }
        let whole = gzip(&big.bytes);
        let mut r = CaptureReader::from_reader("cut.gz", Cursor::new(whole[..whole.len() / 2].to_vec())).unwrap();
        let mut read = 0;
        let e = loop {
            match r.next_packet() {
                Ok(Some(_)) => read += 1,
                Ok(None) => panic!("the cut went unnoticed after {read} packets"),
                Err(e) => break e,
            }
        };
        assert!((150..250).contains(&read), "{read} packets before the cut");
        assert!(matches!(e.kind, CaptureErrorKind::Read { .. }), "{e}");
        assert!(e.to_string().starts_with("cut.gz (gzip; offsets count decompressed bytes): read error at offset "), "{e}");

        // Compressed twice, and compressors without a decoder here: named, with the way round.
        let whole = gzip(&pcap.bytes);
        let e = CaptureReader::from_reader("twice.gz.gz", Cursor::new(gzip(&whole))).unwrap_err();
        assert_eq!(e.to_string(), "twice.gz.gz (gzip; offsets count decompressed bytes): unsupported capture format (compressed twice: decompress the outer layer first)");
        let e = CaptureReader::from_reader("c.pcap.xz", Cursor::new(vec![0xfd, 0x37, 0x7a, 0x58, 0x5a, 0])).unwrap_err();
        assert_eq!(e.to_string(), "c.pcap.xz: unsupported capture format (xz-compressed: decompress it first, e.g. xz -dc FILE | mcptap -r -)");
        // Not a capture inside: the magic shown is the decompressed one.
        let e = CaptureReader::from_reader("x.gz", Cursor::new(gzip(b"<html>"))).unwrap_err();
        assert_eq!(e.to_string(), "x.gz (gzip; offsets count decompressed bytes): not a pcap or pcapng file (magic 0x3c68746d)");
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
}
