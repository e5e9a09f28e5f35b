//! The Content-Encoding stage: undoes the content codings (RFC 9110 §8.4) and the transfer codings other
//! than `chunked` (RFC 9112 §6.1, §7) of one message body, as its bytes arrive, between HTTP framing
//! (`body.rs`, `chunked.rs`) and the consumers (the SSE parser, JSON-RPC body collection).
//!
//! Owns: reading the coding list from a head ([`BodyCodings::from_headers`]), one streaming decoder per
//! coding (gzip / x-gzip RFC 1952, deflate RFC 9110 §8.4.1.2 — zlib RFC 1950 or, as browsers accept it,
//! raw RFC 1951, told apart by the first two bytes — br RFC 7932, zstd RFC 8878 with the window RFC 9659
//! allows), the stack of them in the order the sender applied them, and the bounds.
//! Must not: buffer a body (output goes on in chunks of at most [`CHUNK`] bytes the moment it is
//! decoded, so SSE events still come out one by one), know SSE or JSON, or panic on any input.
//!
//! **Order** (RFC 9110 §8.4: "the sender that applied the encodings MUST generate a Content-Encoding
//! header field that lists the content codings in the order in which they were applied"; RFC 9112 §6.1:
//! transfer codings are applied after the content codings, chunked last): bytes are de-chunked by the
//! framing, then the other transfer codings are undone last-first, then the content codings last-first.
//!
//! **Bounds.** Every stage writes into its own fixed [`CHUNK`]-byte buffer which the next stage (or the
//! consumer) reads before the stage writes again, so a decompression bomb costs CPU, not memory. The
//! CPU is bounded by the caps: the bytes every stage produces count against
//! `limits::max_decoded_bytes_per_body` and, over all bodies of the connection,
//! `limits::max_decoded_bytes_per_conn`; past either the body is [`Undecoded::BodyCap`] /
//! [`Undecoded::ConnCap`]. Stacks deeper than [`MAX_CODINGS`] are refused. A zstd frame may ask for a
//! window of at most 8 MiB (RFC 9659 §3, "Window_Size MUST be less than or equal to 8 MB"); a larger one
//! is refused rather than allocated. A brotli stream's window is at most 16 MiB by its format
//! (RFC 7932 §9.1, the large-window extension is not accepted).
//!
//! **Failure** (Suricata drops its decoder on the first error; so do we): an unknown coding, a corrupt
//! stream, a cap hit, a capture gap (a compressed stream cannot resynchronise past lost bytes) or a body
//! that the framing says is complete while the decoder still expects bytes, makes the body
//! [`Undecoded`]: its decoders are freed, nothing more of it is delivered, and the caller reports it.
//! What was decoded before the failure was delivered and stays valid.
//!
//! Every decoder delivers what a packet completes at that packet (zstd included: libzstd flushes each
//! decoded block), so SSE events coded one flush at a time come out one by one, where the peer saw them.

use std::fmt;

use brotli_decompressor::{BrotliDecompressStream, BrotliResult, BrotliState, StandardAlloc};
use flate2::{Crc, Decompress, FlushDecompress, Status};

use super::Headers;

/// Bytes one stage writes before the next stage (or the consumer) reads them.
pub const CHUNK: usize = 8 * 1024;
/// Codings one body may stack (more is refused as [`Undecoded::TooManyCodings`]).
pub const MAX_CODINGS: usize = 10;

/// Why a body could not be decoded (stable names: the coverage notice's `reason`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Undecoded {
    /// A coding mcptap does not implement (`compress`, `exi`, a typo, ...).
    UnknownCoding,
    /// More than [`MAX_CODINGS`] codings stacked.
    TooManyCodings,
    /// The stream is not valid for its coding (bad header, bad data, checksum mismatch, zstd window over
    /// 8 MiB or a dictionary we do not have).
    Corrupt,
    /// The framing ended the body before the coded stream ended.
    Truncated,
    /// `limits::max_decoded_bytes_per_body` reached.
    BodyCap,
    /// `limits::max_decoded_bytes_per_conn` reached.
    ConnCap,
    /// A capture gap inside a coded body: the decoder cannot resynchronise.
    Gap,
}

impl Undecoded {
    pub fn as_str(self) -> &'static str {
        match self {
            Undecoded::UnknownCoding => "unknown coding",
            Undecoded::TooManyCodings => "too many codings",
            Undecoded::Corrupt => "corrupt stream",
            Undecoded::Truncated => "truncated stream",
            Undecoded::BodyCap => "decoded bytes per body cap",
            Undecoded::ConnCap => "decoded bytes per connection cap",
            Undecoded::Gap => "capture gap",
        }
    }
}

impl fmt::Display for Undecoded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One coding of the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Coding {
    Gzip,
    Deflate,
    Br,
    Zstd,
}

impl Coding {
    /// RFC 9110 §8.4.1: coding names are case-insensitive; `x-gzip` is gzip (§8.4.1.3). `identity` is no
    /// coding at all, and so is `none`, which no registry lists but graphql-sse sends on every reply
    /// (samples/ecosystem/nonmcp3-gql-sse-*.pcap) and fetch clients read as plain bytes; `None` for the rest.
    fn parse(name: &str) -> Option<Option<Coding>> {
        let c = match name.to_ascii_lowercase().as_str() {
            "gzip" | "x-gzip" => Coding::Gzip,
            "deflate" => Coding::Deflate,
            "br" => Coding::Br,
            "zstd" => Coding::Zstd,
            "identity" | "none" => return Some(None),
            _ => return None,
        };
        Some(Some(c))
    }
}

/// The codings of one message, in decoding order, or why they cannot be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyCodings {
    /// As the head wrote them, `Transfer-Encoding` codings first: `gzip`, `br, gzip`, `x-compress`.
    /// Bounded: at most [`NAME_BYTES`] bytes are kept.
    pub names: String,
    plan: Result<Vec<Coding>, Undecoded>,
}

/// Bytes of coding names kept for reports.
pub const NAME_BYTES: usize = 64;

impl BodyCodings {
    /// The codings of a head: `None` when the body is not coded (no `Content-Encoding`, only `identity`,
    /// and no transfer coding but `chunked`).
    pub fn from_headers(headers: &Headers) -> Option<BodyCodings> {
        // Nearly every message: no content coding, and no transfer coding or chunked alone. Asked three
        // times a message, and the split of each value into codings and parameters costs more than this.
        if headers.get("content-encoding").is_none() && headers.values("transfer-encoding").all(|v| v.trim().eq_ignore_ascii_case("chunked")) {
            return None;
        }
        Self::planned(headers)
    }

    /// What [`BodyCodings::from_headers`] answers, from every coding named.
    fn planned(headers: &Headers) -> Option<BodyCodings> {
        // Applied in this order: content codings, then transfer codings (chunked is framing, done already).
        let mut applied: Vec<&str> = Vec::new();
        for v in headers.values("content-encoding") {
            applied.extend(v.split(',').map(str::trim).filter(|c| !c.is_empty()));
        }
        for v in headers.values("transfer-encoding") {
            for c in v.split(',') {
                // A transfer coding may carry parameters (`gzip;q=1`); the name is the token before them.
                let name = c.split(';').next().unwrap_or_default().trim();
                if !name.is_empty() && !name.eq_ignore_ascii_case("chunked") {
                    applied.push(name);
                }
            }
        }
        let mut plan: Result<Vec<Coding>, Undecoded> = Ok(Vec::new());
        let mut names = String::new();
        for name in &applied {
            if names.len() < NAME_BYTES {
                if !names.is_empty() {
                    names.push_str(", ");
                }
                names.extend(name.chars().take(NAME_BYTES).map(|c| c.to_ascii_lowercase()));
            }
            if let Ok(p) = plan.as_mut() {
                match Coding::parse(name) {
                    Some(Some(c)) => p.push(c),
                    Some(None) => {}
                    None => plan = Err(Undecoded::UnknownCoding),
                }
            }
        }
        match &mut plan {
            Ok(p) if p.is_empty() => return None,
            Ok(p) if p.len() > MAX_CODINGS => plan = Err(Undecoded::TooManyCodings),
            Ok(p) => p.reverse(),
            Err(_) => {}
        }
        Some(BodyCodings { names, plan })
    }

    /// The decoder for a body with these codings.
    pub fn decoder(&self) -> BodyDecoding {
        match &self.plan {
            Ok(p) => BodyDecoding {
                stages: p.iter().map(|&c| Stage::new(c)).collect(),
                failed: None,
                produced: 0,
                seen_input: false,
            },
            Err(why) => BodyDecoding { stages: Vec::new(), failed: Some(*why), produced: 0, seen_input: false },
        }
    }
}

/// The caps a body is decoded under, and the connection's running count.
#[derive(Debug)]
pub struct Budget<'a> {
    pub per_body: u64,
    pub per_conn: u64,
    /// Bytes decoded so far on the connection (all bodies, all stages).
    pub conn_used: &'a mut u64,
}

/// The decoding state of one body.
#[derive(Debug)]
pub struct BodyDecoding {
    // ALLOC: one stage per coding, at most MAX_CODINGS, each with a CHUNK-byte output buffer and its
    // decoder's window (32 KiB deflate, <= 16 MiB brotli, <= 8 MiB zstd by RFC 9659).
    stages: Vec<Stage>,
    failed: Option<Undecoded>,
    /// Bytes produced by every stage so far (counted against the body cap).
    produced: u64,
    seen_input: bool,
}

impl BodyDecoding {
    /// Why the body cannot be decoded, once it cannot. A failure known from the head (unknown coding) is
    /// there before any byte.
    pub fn failed(&self) -> Option<Undecoded> {
        self.failed
    }

    /// Decodes `input`, handing decoded bytes to `out` in chunks of at most [`CHUNK`] bytes. Returns the
    /// failure if this call made the body undecodable (only once: later calls return `None` and do
    /// nothing).
    pub fn feed(&mut self, input: &[u8], budget: &mut Budget<'_>, out: &mut dyn FnMut(&[u8])) -> Option<Undecoded> {
        if self.failed.is_some() || input.is_empty() {
            return None;
        }
        self.seen_input = true;
        let mut ctx = Run { per_body: budget.per_body, per_conn: budget.per_conn, conn_used: budget.conn_used, produced: &mut self.produced };
        match run_stages(&mut self.stages, input, &mut ctx, out) {
            Ok(()) => None,
            Err(why) => self.fail(why),
        }
    }

    /// The framing lost bytes of this body.
    pub fn gap(&mut self) -> Option<Undecoded> {
        if self.failed.is_some() {
            return None;
        }
        self.fail(Undecoded::Gap)
    }

    /// The body ended; `complete` when its framing said so (not cut by the connection's end). A coded
    /// stream that had bytes and did not reach its end is [`Undecoded::Truncated`].
    pub fn finish(&mut self, complete: bool) -> Option<Undecoded> {
        if self.failed.is_some() || !complete || !self.seen_input {
            return None;
        }
        if self.stages.iter().all(Stage::at_end) {
            None
        } else {
            self.fail(Undecoded::Truncated)
        }
    }

    fn fail(&mut self, why: Undecoded) -> Option<Undecoded> {
        self.failed = Some(why);
        // Free the windows now: the body will not be read further.
        self.stages = Vec::new();
        Some(why)
    }
}

struct Run<'a> {
    per_body: u64,
    per_conn: u64,
    conn_used: &'a mut u64,
    produced: &'a mut u64,
}

impl Run<'_> {
    /// Counts `n` more decoded bytes against both caps.
    fn count(&mut self, n: usize) -> Result<(), Undecoded> {
        let n = n as u64;
        *self.produced = self.produced.saturating_add(n);
        *self.conn_used = self.conn_used.saturating_add(n);
        if *self.produced > self.per_body {
            return Err(Undecoded::BodyCap);
        }
        if *self.conn_used > self.per_conn {
            return Err(Undecoded::ConnCap);
        }
        Ok(())
    }
}

/// Feeds `input` to the first stage; its output, chunk by chunk, to the rest; the last stage's to `out`.
fn run_stages(stages: &mut [Stage], input: &[u8], ctx: &mut Run<'_>, out: &mut dyn FnMut(&[u8])) -> Result<(), Undecoded> {
    let Some((first, rest)) = stages.split_first_mut() else {
        out(input);
        return Ok(());
    };
    let mut input = input;
    loop {
        let (consumed, produced) = first.step(input)?;
        input = input.get(consumed..).unwrap_or_default();
        if produced > 0 {
            ctx.count(produced)?;
            // The next stage reads the chunk before this stage writes again (the bound on memory).
            let chunk = first.out.get(..produced).unwrap_or_default();
            run_stages(rest, chunk, ctx, out)?;
        }
        if consumed == 0 && produced == 0 {
            return Ok(());
        }
    }
}

/// One decoder with its output buffer.
struct Stage {
    codec: Codec,
    out: Box<[u8]>,
}

impl fmt::Debug for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match &self.codec {
            Codec::Gzip(_) => "gzip",
            Codec::Deflate(_) => "deflate",
            Codec::Br(_) => "br",
            Codec::Zstd(_) => "zstd",
        })
    }
}

enum Codec {
    Gzip(Box<gzip::Gzip>),
    Deflate(Box<DeflateSniff>),
    Br(Box<Brotli>),
    Zstd(Box<zstd::Zstd>),
}

impl Stage {
    fn new(c: Coding) -> Stage {
        let codec = match c {
            Coding::Gzip => Codec::Gzip(Box::default()),
            Coding::Deflate => Codec::Deflate(Box::default()),
            Coding::Br => Codec::Br(Box::default()),
            Coding::Zstd => Codec::Zstd(Box::default()),
        };
        Stage { codec, out: vec![0u8; CHUNK].into_boxed_slice() }
    }

    /// Consumes some of `input` and/or writes some output into `self.out`: (consumed, produced). (0, 0)
    /// means it needs more input.
    fn step(&mut self, input: &[u8]) -> Result<(usize, usize), Undecoded> {
        match &mut self.codec {
            Codec::Gzip(g) => g.step(input, &mut self.out),
            Codec::Deflate(d) => d.step(input, &mut self.out),
            Codec::Br(b) => b.step(input, &mut self.out),
            Codec::Zstd(z) => z.step(input, &mut self.out),
        }
    }

    /// The coded stream ended where a stream may end.
    fn at_end(&self) -> bool {
        match &self.codec {
            Codec::Gzip(g) => g.at_end(),
            Codec::Deflate(d) => d.done,
            Codec::Br(b) => b.done,
            Codec::Zstd(z) => z.at_end(),
        }
    }
}

/// The little-endian u32 at `at` (0 if the bytes are not there: callers check lengths first).
fn le32(b: &[u8], at: usize) -> u32 {
    b.get(at..at.saturating_add(4)).and_then(|s| <[u8; 4]>::try_from(s).ok()).map_or(0, u32::from_le_bytes)
}

/// Runs a flate2 decompressor once: (consumed, produced, stream ended).
fn inflate(d: &mut Decompress, input: &[u8], out: &mut [u8]) -> Result<(usize, usize, bool), Undecoded> {
    let (in0, out0) = (d.total_in(), d.total_out());
    let status = d.decompress(input, out, FlushDecompress::None).map_err(|_| Undecoded::Corrupt)?;
    let consumed = usize::try_from(d.total_in().saturating_sub(in0)).unwrap_or(usize::MAX);
    let produced = usize::try_from(d.total_out().saturating_sub(out0)).unwrap_or(usize::MAX);
    Ok((consumed, produced, status == Status::StreamEnd))
}

/// `deflate`: RFC 9110 §8.4.1.2 says the zlib format (RFC 1950); servers have long sent raw deflate
/// (RFC 1951) under that name and browsers accept both, so the first two bytes decide: a zlib header
/// has compression method 8, a window of at most 32 KiB and `(CMF * 256 + FLG) % 31 == 0` (RFC 1950
/// §2.2).
#[derive(Default)]
struct DeflateSniff {
    first: Option<u8>,
    inner: Option<Decompress>,
    done: bool,
}

impl DeflateSniff {
    fn step(&mut self, input: &[u8], out: &mut [u8]) -> Result<(usize, usize), Undecoded> {
        if self.done {
            // Bytes after the end of the stream are ignored (as browsers do).
            return Ok((input.len(), 0));
        }
        let Some(d) = self.inner.as_mut() else {
            let Some(&b) = input.first() else { return Ok((0, 0)) };
            let Some(cmf) = self.first else {
                self.first = Some(b);
                return Ok((1, 0));
            };
            let zlib = cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(cmf) * 256 + u16::from(b)) % 31 == 0;
            let mut d = Decompress::new(zlib);
            // The byte held back is the stream's first.
            let (c, p, end) = inflate(&mut d, &[cmf], out)?;
            if c != 1 || p != 0 || end {
                return Err(Undecoded::Corrupt);
            }
            self.inner = Some(d);
            return self.step(input, out);
        };
        let (c, p, end) = inflate(d, input, out)?;
        if end {
            self.done = true;
            self.inner = None;
        }
        Ok((c, p))
    }
}

/// br (RFC 7932) with brotli-decompressor's push interface.
struct Brotli {
    state: Option<BrotliState<StandardAlloc, StandardAlloc, StandardAlloc>>,
    done: bool,
}

impl Default for Brotli {
    fn default() -> Self {
        Brotli {
            state: Some(BrotliState::new(StandardAlloc::default(), StandardAlloc::default(), StandardAlloc::default())),
            done: false,
        }
    }
}

impl Brotli {
    fn step(&mut self, input: &[u8], out: &mut [u8]) -> Result<(usize, usize), Undecoded> {
        let Some(state) = self.state.as_mut() else { return Ok((input.len(), 0)) };
        let (mut avail_in, mut in_off) = (input.len(), 0usize);
        let (mut avail_out, mut out_off, mut total) = (out.len(), 0usize, 0usize);
        let r = BrotliDecompressStream(&mut avail_in, &mut in_off, input, &mut avail_out, &mut out_off, out, &mut total, state);
        match r {
            BrotliResult::ResultFailure => Err(Undecoded::Corrupt),
            BrotliResult::ResultSuccess => {
                self.done = true;
                self.state = None;
                Ok((in_off, out_off))
            }
            BrotliResult::NeedsMoreInput | BrotliResult::NeedsMoreOutput => Ok((in_off, out_off)),
        }
    }
}

mod gzip {
    //! gzip member framing (RFC 1952 §2.3) around raw deflate, with the CRC-32 and ISIZE trailer
    //! checked; members may follow one another (§2.2: "a gzip file consists of a series of members").

    use super::*;

    /// Where in a member the decoder is.
    #[derive(Default)]
    enum GzState {
        /// The fixed 10-byte header: `have` bytes of it so far.
        #[default]
        Fixed,
        /// FEXTRA: the 2-byte length, then that many bytes.
        ExtraLen { got: u8, len: u16 },
        Extra { left: u16 },
        /// FNAME / FCOMMENT: zero-terminated.
        Name,
        Comment,
        /// FHCRC: 2 bytes.
        HeaderCrc { left: u8 },
        Body,
        /// CRC32 and ISIZE, little-endian.
        Trailer,
        /// A member ended; more bytes start a new member, or are trailing garbage (ignored, as
        /// browsers do).
        End,
        Garbage,
    }

    pub(super) struct Gzip {
        state: GzState,
        head: [u8; 10],
        have: usize,
        trailer: [u8; 8],
        inflate: Option<Decompress>,
        crc: Crc,
    }

    impl Default for Gzip {
        fn default() -> Self {
            Gzip { state: GzState::Fixed, head: [0; 10], have: 0, trailer: [0; 8], inflate: None, crc: Crc::new() }
        }
    }

    const FHCRC: u8 = 0x02;
    const FEXTRA: u8 = 0x04;
    const FNAME: u8 = 0x08;
    const FCOMMENT: u8 = 0x10;

    impl Gzip {
        pub(super) fn at_end(&self) -> bool {
            matches!(self.state, GzState::End | GzState::Garbage)
        }

        fn flags(&self) -> u8 {
            self.head.get(3).copied().unwrap_or_default()
        }

        /// The header part after the one whose flag is `done` (0: the fixed part), in RFC 1952 §2.3
        /// order: FEXTRA, FNAME, FCOMMENT, FHCRC, then the compressed blocks.
        fn next_after(&self, done: u8) -> GzState {
            const ORDER: [u8; 4] = [FEXTRA, FNAME, FCOMMENT, FHCRC];
            let start = ORDER.iter().position(|&f| f == done).map_or(0, |i| i + 1);
            let f = self.flags();
            match ORDER.get(start..).unwrap_or_default().iter().find(|&&x| f & x != 0) {
                Some(&FEXTRA) => GzState::ExtraLen { got: 0, len: 0 },
                Some(&FNAME) => GzState::Name,
                Some(&FCOMMENT) => GzState::Comment,
                Some(_) => GzState::HeaderCrc { left: 2 },
                None => GzState::Body,
            }
        }

        pub(super) fn step(&mut self, input: &[u8], out: &mut [u8]) -> Result<(usize, usize), Undecoded> {
            let Some(&b) = input.first() else {
                return match self.state {
                    // A full output buffer may hold more: call the inflater again.
                    GzState::Body => self.body(input, out),
                    _ => Ok((0, 0)),
                };
            };
            match &mut self.state {
                GzState::Fixed => {
                    let n = (10 - self.have).min(input.len());
                    if let (Some(dst), Some(src)) = (self.head.get_mut(self.have..self.have + n), input.get(..n)) {
                        dst.copy_from_slice(src);
                    }
                    self.have += n;
                    if self.have == 10 {
                        // ID1 ID2 = 1f 8b, CM = 8 (deflate), reserved flag bits zero.
                        if self.head.get(..3) != Some(&[0x1f, 0x8b, 8][..]) || self.flags() & 0xe0 != 0 {
                            return Err(Undecoded::Corrupt);
                        }
                        self.state = self.next_after(0);
                    }
                    Ok((n, 0))
                }
                GzState::ExtraLen { got, len } => {
                    *len |= u16::from(b) << (8 * u16::from(*got));
                    *got += 1;
                    if *got == 2 {
                        let left = *len;
                        self.state = if left == 0 { self.next_after(FEXTRA) } else { GzState::Extra { left } };
                    }
                    Ok((1, 0))
                }
                GzState::Extra { left } => {
                    let n = usize::from(*left).min(input.len());
                    *left -= n as u16;
                    if *left == 0 {
                        self.state = self.next_after(FEXTRA);
                    }
                    Ok((n, 0))
                }
                GzState::Name | GzState::Comment => {
                    let done = if matches!(self.state, GzState::Name) { FNAME } else { FCOMMENT };
                    match input.iter().position(|&x| x == 0) {
                        Some(i) => {
                            self.state = self.next_after(done);
                            Ok((i + 1, 0))
                        }
                        None => Ok((input.len(), 0)),
                    }
                }
                GzState::HeaderCrc { left } => {
                    *left -= 1;
                    if *left == 0 {
                        self.state = GzState::Body;
                    }
                    Ok((1, 0))
                }
                GzState::Body => self.body(input, out),
                GzState::Trailer => {
                    let n = (8 - self.have).min(input.len());
                    if let (Some(dst), Some(src)) = (self.trailer.get_mut(self.have..self.have + n), input.get(..n)) {
                        dst.copy_from_slice(src);
                    }
                    self.have += n;
                    if self.have == 8 {
                        let crc = le32(&self.trailer, 0);
                        let isize = le32(&self.trailer, 4);
                        if crc != self.crc.sum() || isize != self.crc.amount() {
                            return Err(Undecoded::Corrupt);
                        }
                        self.state = GzState::End;
                    }
                    Ok((n, 0))
                }
                GzState::End => {
                    if b == 0x1f {
                        // Another member.
                        self.head = [0; 10];
                        self.have = 0;
                        self.crc = Crc::new();
                        self.state = GzState::Fixed;
                        self.step(input, out)
                    } else {
                        self.state = GzState::Garbage;
                        Ok((input.len(), 0))
                    }
                }
                GzState::Garbage => Ok((input.len(), 0)),
            }
        }

        fn body(&mut self, input: &[u8], out: &mut [u8]) -> Result<(usize, usize), Undecoded> {
            let d = self.inflate.get_or_insert_with(|| Decompress::new(false));
            let (c, p, end) = inflate(d, input, out)?;
            self.crc.update(out.get(..p).unwrap_or_default());
            if end {
                self.inflate = None;
                self.have = 0;
                self.state = GzState::Trailer;
            }
            Ok((c, p))
        }
    }
}

mod zstd {
    //! zstd frames (RFC 8878 §3.1) on libzstd's streaming decoder (the `zstd` crate). It hands out each
    //! block's content as soon as the block is decoded (keeping its own copy of the window for later
    //! back-references), so an SSE event flushed in its own block comes out at the packet that completed
    //! it. Windows over 8 MiB (RFC 9659 §3) are refused by `WindowLogMax(23)` before they are allocated,
    //! and a frame that names a dictionary fails (we have none). Skippable frames are skipped and
    //! concatenated frames decoded in turn (RFC 8878 §3: "one or more frames"), as libzstd does. One call
    //! writes at most the caller's [`CHUNK`] and decodes at most one block (128 KiB) however small the
    //! block is on the wire.

    use ::zstd::stream::raw::{DParameter, Decoder, Operation};

    use super::*;

    /// RFC 9659 §3: "Window_Size MUST be less than or equal to 8 MB" (2^23 bytes).
    const WINDOW_LOG_MAX: u32 = 23;

    #[derive(Default)]
    pub(super) struct Zstd {
        // ALLOC: libzstd's context, made at the body's first byte; its window (<= 8 MiB) and one block
        // buffer are allocated by libzstd when a frame header asks for them.
        dec: Option<Decoder<'static>>,
        /// The last call that read or wrote anything ended a frame with all its content written out.
        between_frames: bool,
    }

    impl Zstd {
        pub(super) fn at_end(&self) -> bool {
            // No byte yet (the context is made at the first) is an empty body, which may end anywhere.
            self.dec.is_none() || self.between_frames
        }

        pub(super) fn step(&mut self, input: &[u8], out: &mut [u8]) -> Result<(usize, usize), Undecoded> {
            let dec = match self.dec.as_mut() {
                Some(d) => d,
                None if input.is_empty() => return Ok((0, 0)),
                None => {
                    let mut d = Decoder::new().map_err(|_| Undecoded::Corrupt)?;
                    d.set_parameter(DParameter::WindowLogMax(WINDOW_LOG_MAX)).map_err(|_| Undecoded::Corrupt)?;
                    self.dec.insert(d)
                }
            };
            let st = dec.run_on_buffers(input, out).map_err(|_| Undecoded::Corrupt)?;
            if st.bytes_read > 0 || st.bytes_written > 0 {
                // libzstd answers 0 only when a frame is done and flushed (zstd.h, ZSTD_decompressStream).
                self.between_frames = st.remaining == 0;
            }
            Ok((st.bytes_read, st.bytes_written))
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use std::io::Write;

    fn headers(ce: &str) -> Headers {
        Headers::from_pairs([("content-encoding", ce)])
    }

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn zlib(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    fn raw_deflate(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    /// A zstd frame of raw and RLE blocks, written by hand (RFC 8878 §3.1.1), so that each block kind and
    /// the window field are what the test says.
    fn zstd_raw(blocks: &[(&[u8], Option<usize>)]) -> Vec<u8> {
        let mut v = 0xFD2F_B528u32.to_le_bytes().to_vec();
        v.push(0x00); // no FCS, not single segment, no checksum, no dictionary
        v.push(0x50); // window 2^(10+10) = 1 MiB
        for (i, (data, rle)) in blocks.iter().enumerate() {
            let last = u32::from(i + 1 == blocks.len());
            let (ty, size, body): (u32, usize, Vec<u8>) = match rle {
                Some(n) => (1, *n, vec![data[0]]),
                None => (0, data.len(), data.to_vec()),
            };
            let h = last | ty << 1 | (size as u32) << 3;
            v.extend_from_slice(&h.to_le_bytes()[..3]);
            v.extend_from_slice(&body);
        }
        v
    }

    /// Decodes `input` fed in pieces of `step` bytes under the default caps.
    fn decode_with(ce: &str, input: &[u8], step: usize, cap: u64) -> (Vec<u8>, Option<Undecoded>) {
        let c = BodyCodings::from_headers(&headers(ce)).unwrap();
        let mut d = c.decoder();
        let mut used = 0u64;
        let mut out = Vec::new();
        let mut failed = d.failed();
        for piece in input.chunks(step.max(1)) {
            let mut b = Budget { per_body: cap, per_conn: u64::MAX, conn_used: &mut used };
            if let Some(f) = d.feed(piece, &mut b, &mut |x| {
                assert!(x.len() <= CHUNK);
                out.extend_from_slice(x)
            }) {
                failed = Some(f);
            }
        }
        if let Some(f) = d.finish(true) {
            failed = Some(f);
        }
        (out, failed)
    }

    fn decode(ce: &str, input: &[u8]) -> (Vec<u8>, Option<Undecoded>) {
        decode_with(ce, input, input.len(), u64::MAX)
    }

    const TEXT: &[u8] = b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n";

    #[test]
    fn the_shortcut_for_plain_and_chunked_heads_answers_as_the_codings_do() {
        let te = ["chunked", " Chunked ", "CHUNKED", "chunked, gzip", "gzip, chunked", "chunked;q=1", "", ",chunked", "identity"];
        let ce = [None, Some(""), Some("identity"), Some("gzip"), Some(" ")];
        for c in ce {
            for n in 0..=2 {
                for pick in 0..te.len() * te.len() {
                    let (a, b) = (te[pick % te.len()], te[pick / te.len()]);
                    let mut pairs: Vec<(&str, &str)> = Vec::new();
                    if let Some(c) = c {
                        pairs.push(("content-encoding", c));
                    }
                    pairs.extend([("transfer-encoding", a), ("transfer-encoding", b)].into_iter().take(n));
                    let h = Headers::from_pairs(pairs.iter().copied());
                    assert_eq!(BodyCodings::from_headers(&h), BodyCodings::planned(&h), "{pairs:?}");
                }
            }
        }
    }

    #[test]
    fn coding_list_identity_and_chunked_are_not_codings() {
        assert!(BodyCodings::from_headers(&Headers::default()).is_none());
        assert!(BodyCodings::from_headers(&headers("identity")).is_none());
        assert!(BodyCodings::from_headers(&headers("None")).is_none());
        assert!(BodyCodings::from_headers(&Headers::from_pairs([("transfer-encoding", "chunked")])).is_none());
        let c = BodyCodings::from_headers(&Headers::from_pairs([("content-encoding", "GZIP"), ("transfer-encoding", "gzip, chunked")])).unwrap();
        assert_eq!(c.names, "gzip, gzip");
        assert_eq!(c.plan, Ok(vec![Coding::Gzip, Coding::Gzip]));
    }

    #[test]
    fn coding_unknown_and_too_deep_are_refused_before_any_byte() {
        let c = BodyCodings::from_headers(&headers("compress")).unwrap();
        assert_eq!(c.decoder().failed(), Some(Undecoded::UnknownCoding));
        let deep = ["gzip"; MAX_CODINGS + 1].join(", ");
        assert_eq!(BodyCodings::from_headers(&headers(&deep)).unwrap().decoder().failed(), Some(Undecoded::TooManyCodings));
    }

    #[test]
    fn gzip_deflate_zlib_decode_split_at_every_offset() {
        for (ce, enc) in [("gzip", gzip(TEXT)), ("x-gzip", gzip(TEXT)), ("deflate", zlib(TEXT)), ("deflate", raw_deflate(TEXT))] {
            for step in 1..=enc.len() {
                assert_eq!(decode_with(ce, &enc, step, u64::MAX), (TEXT.to_vec(), None), "{ce} step {step}");
            }
        }
    }

    #[test]
    fn gzip_header_fields_and_members() {
        // FEXTRA + FNAME + FCOMMENT + FHCRC, by hand around a raw deflate stream.
        let mut g = vec![0x1f, 0x8b, 8, 0x02 | 0x04 | 0x08 | 0x10, 0, 0, 0, 0, 0, 3];
        g.extend_from_slice(&[3, 0, b'a', b'b', b'c']);
        g.extend_from_slice(b"name\0comment\0");
        g.extend_from_slice(&[0xaa, 0xbb]);
        g.extend_from_slice(&raw_deflate(TEXT));
        let mut crc = Crc::new();
        crc.update(TEXT);
        g.extend_from_slice(&crc.sum().to_le_bytes());
        g.extend_from_slice(&(TEXT.len() as u32).to_le_bytes());
        // Two members: the concatenation of the contents.
        let mut two = g.clone();
        two.extend_from_slice(&gzip(b"tail"));
        for step in 1..=two.len() {
            let (out, f) = decode_with("gzip", &two, step, u64::MAX);
            assert_eq!(f, None);
            assert_eq!(out, [TEXT, b"tail"].concat());
        }
    }

    #[test]
    fn gzip_corrupt_truncated_and_checksum() {
        let mut g = gzip(TEXT);
        let n = g.len();
        assert_eq!(decode("gzip", &g[..n - 3]).1, Some(Undecoded::Truncated));
        g[n - 8] ^= 1; // CRC
        assert_eq!(decode("gzip", &g).1, Some(Undecoded::Corrupt));
        assert_eq!(decode("gzip", b"not gzip at all").1, Some(Undecoded::Corrupt));
        assert_eq!(decode("deflate", &[0xff; 40]).1, Some(Undecoded::Corrupt));
        // A body cut by the connection (not complete) is not a decoding failure.
        let c = BodyCodings::from_headers(&headers("gzip")).unwrap();
        let mut d = c.decoder();
        let mut used = 0;
        d.feed(&gzip(TEXT)[..10], &mut Budget { per_body: u64::MAX, per_conn: u64::MAX, conn_used: &mut used }, &mut |_| {});
        assert_eq!(d.finish(false), None);
    }

    #[test]
    fn stacked_codings_decode_in_reverse_order_of_application() {
        // Applied: gzip, then deflate; listed "gzip, deflate"; undone deflate first.
        let enc = zlib(&gzip(TEXT));
        assert_eq!(decode("gzip, deflate", &enc), (TEXT.to_vec(), None));
        assert_eq!(decode("deflate, gzip", &enc).1, Some(Undecoded::Corrupt));
        let mut ten = TEXT.to_vec();
        for _ in 0..MAX_CODINGS {
            ten = gzip(&ten);
        }
        let list = ["gzip"; MAX_CODINGS].join(",");
        for step in [1, 7, ten.len()] {
            assert_eq!(decode_with(&list, &ten, step, u64::MAX), (TEXT.to_vec(), None));
        }
    }

    #[test]
    fn brotli_decodes_a_known_stream_and_refuses_garbage() {
        // `brotli -c` of "hello hello hello\n" (quality 11), from the reference encoder.
        let hello = [0x8b, 0x08, 0x80, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x0a, 0x03];
        for step in 1..=hello.len() {
            assert_eq!(decode_with("br", &hello, step, u64::MAX), (b"hello hello hello\n".to_vec(), None));
        }
        assert_eq!(decode("br", &hello[..10]).1, Some(Undecoded::Truncated));
        assert_eq!(decode("br", &[0xff; 32]).1, Some(Undecoded::Corrupt));
    }

    #[test]
    fn zstd_raw_and_rle_blocks_and_window_limit() {
        let frame = zstd_raw(&[(b"abc", None), (b"z", Some(5000)), (b"end", None)]);
        let want = [b"abc".to_vec(), vec![b'z'; 5000], b"end".to_vec()].concat();
        for step in [1, 2, 3, 5, frame.len()] {
            assert_eq!(decode_with("zstd", &frame, step, u64::MAX), (want.clone(), None), "step {step}");
        }
        // Two frames back to back.
        let two = [frame.clone(), frame.clone()].concat();
        assert_eq!(decode("zstd", &two).0.len(), 2 * want.len());
        // A window of 16 MiB (over RFC 9659's 8 MiB) is refused before anything is allocated.
        let mut big = frame.clone();
        big[5] = (14 << 3) as u8;
        assert_eq!(decode("zstd", &big).1, Some(Undecoded::Corrupt));
        assert_eq!(decode("zstd", &frame[..frame.len() - 2]).1, Some(Undecoded::Truncated));
    }

    /// `events` coded as one zstd frame by libzstd's encoder, flushed after each event as a streaming
    /// server does (starlette-compress): the coded bytes and where each flush ends in them.
    fn zstd_flushed(events: &[&[u8]], level: i32) -> (Vec<u8>, Vec<usize>) {
        let mut e = ::zstd::stream::write::Encoder::new(Vec::new(), level).unwrap();
        let mut cuts = Vec::new();
        for ev in events {
            e.write_all(ev).unwrap();
            e.flush().unwrap();
            cuts.push(e.get_ref().len());
        }
        (e.finish().unwrap(), cuts)
    }

    #[test]
    fn zstd_delivers_each_flushed_block_at_the_bytes_that_complete_it() {
        let progress = b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}\n\n";
        let events: [&[u8]; 4] = [TEXT, progress, progress, TEXT];
        let (coded, cuts) = zstd_flushed(&events, 3);
        let c = BodyCodings::from_headers(&headers("zstd")).unwrap();
        let mut d = c.decoder();
        let (mut used, mut out, mut fed) = (0u64, Vec::new(), 0);
        for (i, &cut) in cuts.iter().enumerate() {
            let mut b = Budget { per_body: u64::MAX, per_conn: u64::MAX, conn_used: &mut used };
            assert_eq!(d.feed(&coded[fed..cut], &mut b, &mut |x| out.extend_from_slice(x)), None);
            fed = cut;
            // Event i is out before the frame's end (the peer's decoder has it too).
            assert_eq!(out, events[..=i].concat(), "after flush {i}");
        }
        let mut b = Budget { per_body: u64::MAX, per_conn: u64::MAX, conn_used: &mut used };
        assert_eq!(d.feed(&coded[fed..], &mut b, &mut |x| out.extend_from_slice(x)), None);
        assert_eq!(d.finish(true), None);
        assert_eq!(out, events.concat());
        // Without the frame's end the body is truncated, though every event came out.
        let mut d = c.decoder();
        let mut b = Budget { per_body: u64::MAX, per_conn: u64::MAX, conn_used: &mut used };
        assert_eq!(d.feed(&coded[..fed], &mut b, &mut |_| {}), None);
        assert_eq!(d.finish(true), Some(Undecoded::Truncated));
    }

    #[test]
    fn zstd_compressed_blocks_with_references_across_blocks() {
        // A tools/list result repeated: later blocks refer back into earlier ones.
        let item = b"{\"name\":\"search\",\"description\":\"Search the index\",\"inputSchema\":{\"type\":\"object\"}},";
        let body: Vec<u8> = item.iter().copied().cycle().take(300_000).collect();
        let pieces: Vec<&[u8]> = body.chunks(20_000).collect();
        let (coded, _) = zstd_flushed(&pieces, 19);
        assert!(coded.len() < body.len() / 20, "{}", coded.len());
        for step in [1, 7, 1460, coded.len()] {
            assert_eq!(decode_with("zstd", &coded, step, u64::MAX), (body.clone(), None), "step {step}");
        }
    }

    #[test]
    fn bomb_stops_at_the_body_cap_with_bounded_chunks() {
        // 64 MiB of zeros in about 64 KiB of gzip; the cap is 1 MiB.
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let zeros = vec![0u8; 1 << 20];
        for _ in 0..64 {
            e.write_all(&zeros).unwrap();
        }
        let bomb = e.finish().unwrap();
        let (out, failed) = decode_with("gzip", &bomb, 1460, 1 << 20);
        assert_eq!(failed, Some(Undecoded::BodyCap));
        assert!(out.len() as u64 <= 1 << 20, "{}", out.len());
        // The connection cap counts across bodies.
        let c = BodyCodings::from_headers(&headers("gzip")).unwrap();
        let mut used = 0u64;
        let mut hit = None;
        for _ in 0..3 {
            let mut d = c.decoder();
            let mut b = Budget { per_body: u64::MAX, per_conn: 100_000_000, conn_used: &mut used };
            hit = hit.or(d.feed(&bomb, &mut b, &mut |_| {}));
        }
        assert_eq!(hit, Some(Undecoded::ConnCap));
    }

    #[test]
    fn gap_makes_the_body_undecoded_once() {
        let c = BodyCodings::from_headers(&headers("gzip")).unwrap();
        let mut d = c.decoder();
        assert_eq!(d.gap(), Some(Undecoded::Gap));
        assert_eq!(d.gap(), None);
        let mut used = 0;
        assert_eq!(d.feed(b"x", &mut Budget { per_body: 1, per_conn: 1, conn_used: &mut used }, &mut |_| panic!()), None);
        assert_eq!(d.finish(true), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config::with_cases(256))]
        #[test]
        fn arbitrary_bytes_never_panic(
            ce in proptest::sample::select(vec!["gzip", "deflate", "br", "zstd", "gzip, br", "zstd, deflate"]),
            data in proptest::collection::vec(proptest::num::u8::ANY, 0..600),
            step in 1usize..64,
        ) {
            let (out, _) = decode_with(ce, &data, step, 1 << 20);
            proptest::prop_assert!(out.len() <= 1 << 20);
        }
    }
}
