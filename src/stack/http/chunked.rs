//! Chunked transfer coding decoder (RFC 9112 §7.1), fed incrementally, zero copy.
//!
//! Owns: the framing state of one chunked message body — size lines, extensions, chunk data, the last
//! chunk and the trailer section. Decoded data is handed back as slices *borrowing the input*; the
//! decoder itself never buffers a byte (a size line split across packets is carried in the state as
//! the partial number, not as bytes).
//!
//! Must not: interpret content (SSE, JSON), keep trailer fields, or stop at the first oddity an endpoint
//! would reject when tolerating it is unambiguous (bare LF line ends, RFC 9112 §2.2).
//!
//! ```text
//! chunked-body   = *chunk last-chunk trailer-section CRLF        ; RFC 9112 §7.1
//! chunk          = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
//! chunk-size     = 1*HEXDIG
//! last-chunk     = 1*("0") [ chunk-ext ] CRLF
//! chunk-ext      = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )   ; §7.1.1
//! trailer-section = *( field-line CRLF )                         ; §7.1.2
//! ```
//!
//! Shape follows hyper's `proto/h1/decode.rs` (`ChunkedState`, one tiny transition per state, overflow
//! checked like its `or_overflow!`), but as an observer we report an anomaly instead of an I/O error.
//!
//! Limits: the size line (digits, whitespace and extensions) and the trailer section are each capped at
//! `Limits::max_header_bytes` — they are metadata of the same kind as a header section, and the caps
//! stop a peer from keeping the decoder in a framing state forever (hyper's `CHUNKED_EXTENSIONS_LIMIT`,
//! `TRAILER_LIMIT`). Neither is stored, so the caps bound time spent, not memory.
//!
//! Gap policy (Zeek `HTTP_Analyzer::Undelivered`): a gap wholly inside the data of a chunk whose size
//! is known can be skipped ([`ChunkedDecoder::skip_gap`]); a gap anywhere in the framing cannot.

/// Where the decoder is inside the chunked framing. Variants carry the numbers they need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChunkedState {
    /// Expecting the first hex digit of a chunk size.
    Start,
    /// Reading hex digits; `line` counts bytes of the size line so far (for the cap).
    Size { size: u64, line: usize },
    /// Whitespace after the size (RFC 9112 §7.1.1 BWS before `;`).
    SizeLws { size: u64, line: usize },
    /// Inside chunk extensions, skipped.
    Extension { size: u64, line: usize },
    /// Saw the CR of the size line; expecting LF.
    SizeLf { size: u64 },
    /// Inside chunk data; `remaining` bytes of this chunk still to come.
    Body { remaining: u64 },
    /// Chunk data done; expecting the CR of its CRLF.
    BodyCr,
    /// Expecting the LF after chunk data.
    BodyLf,
    /// Inside a trailer field line; `seen` counts trailer-section bytes (for the cap).
    Trailer { seen: usize },
    /// Saw the CR ending a trailer line; expecting LF.
    TrailerLf { seen: usize },
    /// At the start of a trailer line or of the final empty line.
    EndCr { seen: usize },
    /// Saw the CR of the final empty line; expecting LF.
    EndLf,
    /// The chunked body is complete; nothing more belongs to it.
    End,
}

/// Why the framing could not be decoded. All map to `HttpAnomaly::BadChunk`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChunkError {
    /// A byte that has no place at this point of the framing.
    UnexpectedByte(u8),
    /// The chunk size does not fit in 64 bits.
    SizeOverflow,
    /// Size line (with extensions) longer than the cap.
    LineTooLong,
    /// Trailer section longer than the cap.
    TrailerTooLarge,
}

/// Result of one [`ChunkedDecoder::decode`] call; `consumed` input bytes accompany it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChunkedStatus<'a> {
    /// Decoded body bytes, borrowed from the input. Call again with the rest.
    Data(&'a [u8]),
    /// All given input was framing; more input is needed.
    Partial,
    /// The last chunk and the trailer section are complete; bytes after `consumed` are not ours.
    Complete,
    /// The framing is broken at input offset `consumed` (the offending byte is not consumed).
    Invalid(ChunkError),
}

/// Incremental chunked decoder. Feed it slices in stream order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkedDecoder {
    state: ChunkedState,
    max_line: usize,
    max_trailer: usize,
}

impl ChunkedDecoder {
    /// `max_line` caps one size line (digits + extensions), `max_trailer` the trailer section.
    pub fn new(max_line: usize, max_trailer: usize) -> Self {
        ChunkedDecoder { state: ChunkedState::Start, max_line, max_trailer }
    }

    pub fn state(&self) -> ChunkedState {
        self.state
    }

    /// Decodes from `input`. Returns how many input bytes were consumed and what came out. Framing bytes
    /// are consumed silently until a data slice, the end, an error, or the end of the input.
    pub fn decode<'a>(&mut self, input: &'a [u8]) -> (usize, ChunkedStatus<'a>) {
        let mut pos = 0usize;
        loop {
            match self.state {
                ChunkedState::End => return (pos, ChunkedStatus::Complete),
                ChunkedState::Body { remaining } => {
                    // Bulk path: chunk data is handed out as one borrowed slice, never byte by byte.
                    let rest = input.get(pos..).unwrap_or_default();
                    if rest.is_empty() {
                        return (pos, ChunkedStatus::Partial);
                    }
                    let take = usize::try_from(remaining).map_or(rest.len(), |r| r.min(rest.len()));
                    let (data, _) = rest.split_at_checked(take).unwrap_or((rest, &[]));
                    let left = remaining.saturating_sub(data.len() as u64);
                    self.state = if left == 0 { ChunkedState::BodyCr } else { ChunkedState::Body { remaining: left } };
                    return (pos.saturating_add(data.len()), ChunkedStatus::Data(data));
                }
                state => {
                    let Some(&b) = input.get(pos) else {
                        return (pos, ChunkedStatus::Partial);
                    };
                    match step(state, b, self.max_line, self.max_trailer) {
                        Ok(next) => {
                            self.state = next;
                            pos = pos.saturating_add(1);
                        }
                        Err(e) => return (pos, ChunkedStatus::Invalid(e)),
                    }
                }
            }
        }
    }

    /// A gap of `len` bytes in the stream. If it lies wholly inside the current chunk's data, the chunk
    /// is shortened and `true` returned (the body goes on after the gap); otherwise `false` and the
    /// decoder is unchanged — the caller must give up on this body.
    pub fn skip_gap(&mut self, len: u64) -> bool {
        match self.state {
            ChunkedState::Body { remaining } if len <= remaining => {
                let left = remaining.saturating_sub(len);
                self.state = if left == 0 { ChunkedState::BodyCr } else { ChunkedState::Body { remaining: left } };
                true
            }
            _ => false,
        }
    }
}

fn hex_value(b: u8) -> Option<u64> {
    match b {
        b'0'..=b'9' => Some(u64::from(b - b'0')),
        b'a'..=b'f' => Some(u64::from(b - b'a') + 10),
        b'A'..=b'F' => Some(u64::from(b - b'A') + 10),
        _ => None,
    }
}

/// One more byte on a capped line counter.
fn bump(n: usize, cap: usize, err: ChunkError) -> Result<usize, ChunkError> {
    let n = n.saturating_add(1);
    if n > cap {
        Err(err)
    } else {
        Ok(n)
    }
}

/// The size line is complete: a zero size is the last chunk (RFC 9112 §7.1: `last-chunk = 1*("0")`),
/// which is followed by the trailer section.
fn after_size_line(size: u64) -> ChunkedState {
    if size == 0 {
        ChunkedState::EndCr { seen: 0 }
    } else {
        ChunkedState::Body { remaining: size }
    }
}

/// The transition function: one framing byte in `state`. Every state is listed. `Body` is normally
/// handled in bulk by [`ChunkedDecoder::decode`]; here it consumes a single data byte so the function
/// stays total.
fn step(state: ChunkedState, b: u8, max_line: usize, max_trailer: usize) -> Result<ChunkedState, ChunkError> {
    use ChunkedState::*;
    let unexpected = ChunkError::UnexpectedByte(b);
    match state {
        Start => match hex_value(b) {
            Some(d) => Ok(Size { size: d, line: 1 }),
            None => Err(unexpected),
        },
        Size { size, line } => {
            let line = bump(line, max_line, ChunkError::LineTooLong)?;
            if let Some(d) = hex_value(b) {
                // hyper `or_overflow!`: a size that does not fit is an error, never a wrap.
                let size = size.checked_mul(16).and_then(|s| s.checked_add(d)).ok_or(ChunkError::SizeOverflow)?;
                return Ok(Size { size, line });
            }
            match b {
                b' ' | b'\t' => Ok(SizeLws { size, line }),
                b';' => Ok(Extension { size, line }),
                b'\r' => Ok(SizeLf { size }),
                // RFC 9112 §2.2: a recipient MAY recognize a single LF as a line terminator.
                b'\n' => Ok(after_size_line(size)),
                _ => Err(unexpected),
            }
        }
        SizeLws { size, line } => {
            let line = bump(line, max_line, ChunkError::LineTooLong)?;
            match b {
                b' ' | b'\t' => Ok(SizeLws { size, line }),
                b';' => Ok(Extension { size, line }),
                b'\r' => Ok(SizeLf { size }),
                b'\n' => Ok(after_size_line(size)),
                _ => Err(unexpected),
            }
        }
        Extension { size, line } => {
            // RFC 9112 §7.1.1: a recipient MUST ignore unrecognized chunk extensions. We ignore all of
            // them, but only up to the cap.
            let line = bump(line, max_line, ChunkError::LineTooLong)?;
            match b {
                b'\r' => Ok(SizeLf { size }),
                b'\n' => Ok(after_size_line(size)),
                _ => Ok(Extension { size, line }),
            }
        }
        SizeLf { size } => match b {
            b'\n' => Ok(after_size_line(size)),
            _ => Err(unexpected),
        },
        Body { remaining } => {
            let left = remaining.saturating_sub(1);
            Ok(if left == 0 { BodyCr } else { Body { remaining: left } })
        }
        BodyCr => match b {
            b'\r' => Ok(BodyLf),
            b'\n' => Ok(Start),
            _ => Err(unexpected),
        },
        BodyLf => match b {
            b'\n' => Ok(Start),
            _ => Err(unexpected),
        },
        Trailer { seen } => {
            let seen = bump(seen, max_trailer, ChunkError::TrailerTooLarge)?;
            match b {
                b'\r' => Ok(TrailerLf { seen }),
                b'\n' => Ok(EndCr { seen }),
                _ => Ok(Trailer { seen }),
            }
        }
        TrailerLf { seen } => match b {
            b'\n' => Ok(EndCr { seen }),
            _ => Err(unexpected),
        },
        // RFC 9112 §7.1.2: the trailer section ends with an empty line; anything else starts a field.
        EndCr { seen } => match b {
            b'\r' => Ok(EndLf),
            b'\n' => Ok(End),
            _ => Ok(Trailer { seen: bump(seen, max_trailer, ChunkError::TrailerTooLarge)? }),
        },
        EndLf => match b {
            b'\n' => Ok(End),
            _ => Err(unexpected),
        },
        End => Ok(End),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    const CAP: usize = 1024;

    /// Outcome of decoding a whole input fed in pieces.
    #[derive(Debug, PartialEq, Eq)]
    enum Outcome {
        /// Decoded bytes, then complete; `tail` = bytes after the body.
        Complete {
            body: Vec<u8>,
            tail: usize,
        },
        Partial {
            body: Vec<u8>,
        },
        Invalid {
            body: Vec<u8>,
            at: usize,
            err: ChunkError,
        },
    }

    fn run(pieces: &[&[u8]]) -> Outcome {
        run_caps(pieces, CAP, CAP)
    }

    fn run_caps(pieces: &[&[u8]], max_line: usize, max_trailer: usize) -> Outcome {
        let mut dec = ChunkedDecoder::new(max_line, max_trailer);
        let mut body = Vec::new();
        let mut offset = 0usize;
        for piece in pieces {
            let mut rest: &[u8] = piece;
            loop {
                let (n, st) = dec.decode(rest);
                assert!(n <= rest.len());
                offset += n;
                rest = &rest[n..];
                match st {
                    ChunkedStatus::Data(d) => {
                        assert!(!d.is_empty());
                        body.extend_from_slice(d);
                    }
                    ChunkedStatus::Partial => {
                        assert!(rest.is_empty());
                        break;
                    }
                    ChunkedStatus::Complete => {
                        let total: usize = pieces.iter().map(|p| p.len()).sum();
                        return Outcome::Complete { body, tail: total - offset };
                    }
                    ChunkedStatus::Invalid(err) => return Outcome::Invalid { body, at: offset, err },
                }
            }
        }
        Outcome::Partial { body }
    }

    fn complete(body: &[u8], tail: usize) -> Outcome {
        Outcome::Complete { body: body.to_vec(), tail }
    }

    const SIMPLE: &[u8] = b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n";
    const EXT: &[u8] = b"5;name=value;x=\"q\"\r\nhello\r\n0;last\r\n\r\n";
    const TRAILERS: &[u8] = b"3\r\nabc\r\n0\r\nExpires: never\r\nX-Sum: 1\r\n\r\nNEXT";
    const BARE_LF: &[u8] = b"3\nabc\n0\n\n";
    const BIG_HEX: &[u8] = b"1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0000\r\n\r\n";
    const LWS: &[u8] = b"3 \t ;ext\r\nabc\r\n0 \r\n\r\n";

    #[test]
    fn chunked_simple_decodes() {
        assert_eq!(run(&[SIMPLE]), complete(b"hello world", 0));
    }

    #[test]
    fn chunked_extensions_are_ignored() {
        assert_eq!(run(&[EXT]), complete(b"hello", 0));
        assert_eq!(run(&[LWS]), complete(b"abc", 0));
    }

    #[test]
    fn chunked_trailers_are_skipped_and_tail_left() {
        assert_eq!(run(&[TRAILERS]), complete(b"abc", 4));
    }

    #[test]
    fn chunked_bare_lf_is_tolerated() {
        assert_eq!(run(&[BARE_LF]), complete(b"abc", 0));
    }

    #[test]
    fn chunked_uppercase_and_multi_digit_hex() {
        assert_eq!(run(&[BIG_HEX]), complete(b"abcdefghijklmnopqrstuvwxyz", 0));
    }

    #[test]
    fn chunked_size_overflow_is_invalid() {
        let input = b"10000000000000000\r\n";
        match run(&[input]) {
            Outcome::Invalid { err, at, .. } => {
                assert_eq!(err, ChunkError::SizeOverflow);
                assert_eq!(at, 16);
            }
            other => panic!("{other:?}"),
        }
        // Sixteen digits still fit.
        let ok = b"ffffffffffffffff\r\nab";
        assert_eq!(run(&[ok]), Outcome::Partial { body: b"ab".to_vec() });
    }

    #[test]
    fn chunked_leading_zeros_do_not_overflow() {
        assert_eq!(run(&[b"000000000000000000000003\r\nabc\r\n0\r\n\r\n"]), complete(b"abc", 0));
    }

    #[test]
    fn chunked_bad_bytes_are_invalid_and_not_consumed() {
        match run(&[b"zz\r\n"]) {
            Outcome::Invalid { at: 0, err: ChunkError::UnexpectedByte(b'z'), .. } => {}
            other => panic!("{other:?}"),
        }
        // Missing CRLF after chunk data: the byte where it should be is reported.
        match run(&[b"3\r\nabcX"]) {
            Outcome::Invalid { body, at: 6, err: ChunkError::UnexpectedByte(b'X') } => assert_eq!(body, b"abc"),
            other => panic!("{other:?}"),
        }
        // A CR not followed by LF.
        match run(&[b"3\rX"]) {
            Outcome::Invalid { at: 2, .. } => {}
            other => panic!("{other:?}"),
        }
        // Empty size line.
        match run(&[b"\r\n"]) {
            Outcome::Invalid { at: 0, .. } => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn chunked_extension_cap() {
        let mut input = b"3;".to_vec();
        input.extend(std::iter::repeat_n(b'x', 100));
        input.extend_from_slice(b"\r\nabc\r\n0\r\n\r\n");
        assert_eq!(run_caps(&[&input], 200, 200), complete(b"abc", 0));
        match run_caps(&[&input], 50, 200) {
            Outcome::Invalid { err: ChunkError::LineTooLong, at: 50, .. } => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn chunked_trailer_cap() {
        let mut input = b"0\r\n".to_vec();
        for _ in 0..20 {
            input.extend_from_slice(b"X-Long: 0123456789\r\n");
        }
        input.extend_from_slice(b"\r\n");
        assert_eq!(run_caps(&[&input], 100, 1000), complete(b"", 0));
        match run_caps(&[&input], 100, 100) {
            Outcome::Invalid { err: ChunkError::TrailerTooLarge, .. } => {}
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn chunked_partial_input_is_partial() {
        assert_eq!(run(&[b"5\r\nhel"]), Outcome::Partial { body: b"hel".to_vec() });
        assert_eq!(run(&[b"5"]), Outcome::Partial { body: vec![] });
        assert_eq!(run(&[b"0\r\n\r"]), Outcome::Partial { body: vec![] });
    }

    #[test]
    fn chunked_data_slices_borrow_input() {
        let mut dec = ChunkedDecoder::new(CAP, CAP);
        let input = b"5\r\nhello\r\n";
        let (n, st) = dec.decode(input);
        assert_eq!(n, 8);
        match st {
            ChunkedStatus::Data(d) => assert!(std::ptr::eq(d.as_ptr(), input[3..].as_ptr())),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn chunked_gap_inside_chunk_data_is_skipped() {
        let mut dec = ChunkedDecoder::new(CAP, CAP);
        let (_, st) = dec.decode(b"a\r\n01");
        assert_eq!(st, ChunkedStatus::Data(b"01"));
        assert!(dec.skip_gap(3));
        assert_eq!(dec.state(), ChunkedState::Body { remaining: 5 });
        assert!(!dec.skip_gap(6));
        assert!(dec.skip_gap(5));
        assert_eq!(dec.state(), ChunkedState::BodyCr);
        assert!(!dec.skip_gap(1), "a gap in framing cannot be skipped");
        let (_, st) = dec.decode(b"\r\n0\r\n\r\n");
        assert_eq!(st, ChunkedStatus::Complete);
    }

    const FIXTURES: &[&[u8]] = &[SIMPLE, EXT, TRAILERS, BARE_LF, BIG_HEX, LWS, b"3\r\nabc\r\nzz", b"ffff\r\nab"];

    /// hyper's shotgun / httparse `partial_permutations`: every split gives the same result.
    #[test]
    fn chunked_split_at_every_offset_is_identical() {
        for fx in FIXTURES {
            let whole = run(&[fx]);
            for i in 0..=fx.len() {
                let (a, b) = fx.split_at(i);
                assert_eq!(run(&[a, b]), whole, "split at {i} of {:?}", String::from_utf8_lossy(fx));
            }
        }
    }

    #[test]
    fn chunked_split_at_every_pair_of_offsets_is_identical() {
        for fx in FIXTURES {
            let whole = run(&[fx]);
            for i in 0..=fx.len() {
                for j in i..=fx.len() {
                    let got = run(&[&fx[..i], &fx[i..j], &fx[j..]]);
                    assert_eq!(got, whole, "split at {i},{j} of {:?}", String::from_utf8_lossy(fx));
                }
            }
        }
    }

    #[test]
    fn chunked_byte_at_a_time_is_identical() {
        for fx in FIXTURES {
            let pieces: Vec<&[u8]> = fx.chunks(1).collect();
            assert_eq!(run(&pieces), run(&[fx]));
        }
    }

    proptest::proptest! {
        #[test]
        fn chunked_arbitrary_bytes_never_panic(data in proptest::collection::vec(proptest::num::u8::ANY, 0..512), cut in 0usize..512) {
            let cut = cut.min(data.len());
            let whole = run_caps(&[&data], 32, 32);
            let split = run_caps(&[&data[..cut], &data[cut..]], 32, 32);
            proptest::prop_assert_eq!(whole, split);
        }
    }
}
