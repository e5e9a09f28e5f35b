//! HTTP/2 framing (RFC 9113 §4, §6): the 9-byte frame header, the payload of each frame type (padding and
//! priority fields stripped), and the per-direction reader that cuts a byte stream into whole frames.
//!
//! Must not: keep stream or HPACK state (`stream.rs`, `hpack.rs`, `mod.rs` do). A malformed frame is a
//! [`FrameError`], which the connection treats as a connection error (RFC 9113 §5.4.1): analysis stops.

/// RFC 9113 §3.4: the client connection preface.
pub const PREFACE: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// RFC 9113 §4.1: every frame starts with a 9-octet header.
pub const HEADER_LEN: usize = 9;

/// RFC 9113 §6.5.2: SETTINGS_MAX_FRAME_SIZE starts at 2^14 and may not exceed 2^24-1.
pub const DEFAULT_MAX_FRAME: u32 = 1 << 14;

// RFC 9113 §6 frame types.
pub const DATA: u8 = 0x0;
pub const HEADERS: u8 = 0x1;
pub const PRIORITY: u8 = 0x2;
pub const RST_STREAM: u8 = 0x3;
pub const SETTINGS: u8 = 0x4;
pub const PUSH_PROMISE: u8 = 0x5;
pub const PING: u8 = 0x6;
pub const GOAWAY: u8 = 0x7;
pub const WINDOW_UPDATE: u8 = 0x8;
pub const CONTINUATION: u8 = 0x9;

// Flags.
const END_STREAM: u8 = 0x1;
const ACK: u8 = 0x1;
const END_HEADERS: u8 = 0x4;
const PADDED: u8 = 0x8;
const PRIORITY_FLAG: u8 = 0x20;

// RFC 9113 §6.5.2 settings the analyzer uses.
pub const SETTINGS_HEADER_TABLE_SIZE: u16 = 0x1;
pub const SETTINGS_MAX_FRAME_SIZE: u16 = 0x5;

/// RFC 9113 §4.1 frame header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameHeader {
    pub len: u32,
    pub kind: u8,
    pub flags: u8,
    /// Stream identifier, reserved bit cleared.
    pub stream: u32,
}

impl FrameHeader {
    pub fn parse(b: &[u8]) -> Option<FrameHeader> {
        let &[l0, l1, l2, kind, flags, s0, s1, s2, s3, ..] = b else { return None };
        Some(FrameHeader {
            len: u32::from_be_bytes([0, l0, l1, l2]),
            kind,
            flags,
            stream: u32::from_be_bytes([s0 & 0x7f, s1, s2, s3]),
        })
    }
}

impl FrameHeader {
    /// A header a sender could have written (RFC 9113 §6): a known type with no flag its section leaves
    /// undefined (§4.1: "Unused flags ... MUST be left unset (0x00) when sending"), and the fixed or minimum
    /// length of the types that have one. What a midstream pickup is judged by: another binary protocol's
    /// first bytes read as some frame header now and then (nginx's `uwsgi_pass` packet, `00 1c 02 00 0c`: a
    /// DATA frame with END_HEADERS set, samples/ecosystem/wsgi-nginx-uwsgi.pcap).
    pub fn sendable(&self) -> bool {
        let (defined, len_ok) = match self.kind {
            DATA => (END_STREAM | PADDED, true),
            HEADERS => (END_STREAM | END_HEADERS | PADDED | PRIORITY_FLAG, true),
            PRIORITY => (0, self.len == 5),
            RST_STREAM | WINDOW_UPDATE => (0, self.len == 4),
            SETTINGS => (ACK, self.len.is_multiple_of(6)),
            PUSH_PROMISE => (END_HEADERS | PADDED, self.len >= 4),
            PING => (ACK, self.len == 8),
            GOAWAY => (0, self.len >= 8),
            CONTINUATION => (END_HEADERS, true),
            _ => return false,
        };
        self.flags & !defined == 0 && len_ok
    }
}

/// A decoded frame; slices borrow the payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame<'a> {
    Data { stream: u32, end_stream: bool, data: &'a [u8] },
    Headers { stream: u32, end_stream: bool, end_headers: bool, fragment: &'a [u8] },
    Priority { stream: u32 },
    RstStream { stream: u32, code: u32 },
    /// `params`: the 6-octet (identifier, value) entries, walked by [`settings`].
    Settings { ack: bool, params: &'a [u8] },
    PushPromise { stream: u32, promised: u32, end_headers: bool, fragment: &'a [u8] },
    Ping { ack: bool },
    GoAway { last_stream: u32, code: u32 },
    WindowUpdate { stream: u32, increment: u32 },
    Continuation { stream: u32, end_headers: bool, fragment: &'a [u8] },
    /// RFC 9113 §4.1: "Implementations MUST ignore and discard frames of unknown types."
    Unknown { kind: u8 },
}

/// A frame that breaks RFC 9113 (a connection error, §5.4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameError {
    /// §6.1/§6.2: the pad length is not less than the payload.
    Padding(u8),
    /// §6: the payload length does not fit the frame type (FRAME_SIZE_ERROR).
    Size(u8),
    /// §6: a frame type that needs a stream (or must be on stream 0) came on the wrong one.
    Stream(u8),
}

fn be32(b: &[u8]) -> Option<u32> {
    let &[a, b, c, d, ..] = b else { return None };
    Some(u32::from_be_bytes([a, b, c, d]))
}

/// RFC 9113 §6.1/§6.2/§6.6: strips `Pad Length` and the padding when PADDED is set.
fn unpad(kind: u8, flags: u8, p: &[u8]) -> Result<&[u8], FrameError> {
    if flags & PADDED == 0 {
        return Ok(p);
    }
    let (&pad, rest) = p.split_first().ok_or(FrameError::Size(kind))?;
    // "If the length of the padding is the length of the frame payload or greater, the recipient MUST
    // treat this as a connection error of type PROTOCOL_ERROR."
    let keep = rest.len().checked_sub(usize::from(pad)).ok_or(FrameError::Padding(kind))?;
    rest.get(..keep).ok_or(FrameError::Padding(kind))
}

/// Decodes one frame's payload (exactly `h.len` bytes).
pub fn decode(h: FrameHeader, payload: &[u8]) -> Result<Frame<'_>, FrameError> {
    let (kind, flags, stream) = (h.kind, h.flags, h.stream);
    let need_stream = |ok: bool| if ok { Ok(()) } else { Err(FrameError::Stream(kind)) };
    match kind {
        DATA => {
            need_stream(stream != 0)?;
            Ok(Frame::Data { stream, end_stream: flags & END_STREAM != 0, data: unpad(kind, flags, payload)? })
        }
        HEADERS => {
            need_stream(stream != 0)?;
            let mut frag = unpad(kind, flags, payload)?;
            if flags & PRIORITY_FLAG != 0 {
                // §6.2: Exclusive + Stream Dependency (4 octets) + Weight (1 octet).
                frag = frag.get(5..).ok_or(FrameError::Size(kind))?;
            }
            Ok(Frame::Headers { stream, end_stream: flags & END_STREAM != 0, end_headers: flags & END_HEADERS != 0, fragment: frag })
        }
        PRIORITY => {
            need_stream(stream != 0)?;
            if payload.len() != 5 {
                return Err(FrameError::Size(kind));
            }
            Ok(Frame::Priority { stream })
        }
        RST_STREAM => {
            need_stream(stream != 0)?;
            match (payload.len(), be32(payload)) {
                (4, Some(code)) => Ok(Frame::RstStream { stream, code }),
                _ => Err(FrameError::Size(kind)),
            }
        }
        SETTINGS => {
            need_stream(stream == 0)?;
            let ack = flags & ACK != 0;
            // §6.5: a SETTINGS ACK has an empty payload; otherwise a multiple of 6 octets.
            if (ack && !payload.is_empty()) || !payload.len().is_multiple_of(6) {
                return Err(FrameError::Size(kind));
            }
            Ok(Frame::Settings { ack, params: payload })
        }
        PUSH_PROMISE => {
            need_stream(stream != 0)?;
            let p = unpad(kind, flags, payload)?;
            let promised = be32(p).ok_or(FrameError::Size(kind))? & 0x7fff_ffff;
            Ok(Frame::PushPromise { stream, promised, end_headers: flags & END_HEADERS != 0, fragment: p.get(4..).unwrap_or_default() })
        }
        PING => {
            need_stream(stream == 0)?;
            if payload.len() != 8 {
                return Err(FrameError::Size(kind));
            }
            Ok(Frame::Ping { ack: flags & ACK != 0 })
        }
        GOAWAY => {
            need_stream(stream == 0)?;
            match (be32(payload), payload.get(4..).and_then(be32)) {
                (Some(last), Some(code)) => Ok(Frame::GoAway { last_stream: last & 0x7fff_ffff, code }),
                _ => Err(FrameError::Size(kind)),
            }
        }
        WINDOW_UPDATE => match (payload.len(), be32(payload)) {
            (4, Some(inc)) => Ok(Frame::WindowUpdate { stream, increment: inc & 0x7fff_ffff }),
            _ => Err(FrameError::Size(kind)),
        },
        CONTINUATION => {
            need_stream(stream != 0)?;
            Ok(Frame::Continuation { stream, end_headers: flags & END_HEADERS != 0, fragment: payload })
        }
        _ => Ok(Frame::Unknown { kind }),
    }
}

/// The (identifier, value) pairs of a SETTINGS payload (§6.5.1).
pub fn settings(params: &[u8]) -> impl Iterator<Item = (u16, u32)> + '_ {
    params.chunks_exact(6).filter_map(|c| {
        let &[i0, i1, v0, v1, v2, v3] = c else { return None };
        Some((u16::from_be_bytes([i0, i1]), u32::from_be_bytes([v0, v1, v2, v3])))
    })
}

/// What the reader reports besides whole frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadError {
    /// A frame header announced more than the cap: the stream cannot be followed further.
    TooLarge(u32),
}

/// Cuts one direction's bytes into frames. Complete frames in the input are handed out in place; only an
/// unfinished frame is copied, into `carry`.
#[derive(Debug, Default)]
pub struct FrameReader {
    // ALLOC: one unfinished frame, bounded by limits::max_h2_frame_bytes (+ its header)
    carry: Vec<u8>,
}

impl FrameReader {
    /// Hands each complete frame (header, payload) in `carry` + `input` to `f`, in order. Frames longer than
    /// `max_len` stop the reader with [`ReadError::TooLarge`].
    pub fn feed(&mut self, mut input: &[u8], max_len: usize, f: &mut dyn FnMut(FrameHeader, &[u8])) -> Result<(), ReadError> {
        // Finish the frame begun in an earlier packet first.
        if !self.carry.is_empty() {
            let need_header = HEADER_LEN.saturating_sub(self.carry.len());
            let (a, b) = input.split_at(need_header.min(input.len()));
            self.carry.extend_from_slice(a);
            input = b;
            let Some(h) = FrameHeader::parse(&self.carry) else { return Ok(()) };
            let total = frame_total(h, max_len)?;
            let need = total.saturating_sub(self.carry.len());
            let (a, b) = input.split_at(need.min(input.len()));
            self.carry.extend_from_slice(a);
            input = b;
            if self.carry.len() < total {
                return Ok(());
            }
            f(h, self.carry.get(HEADER_LEN..total).unwrap_or_default());
            self.carry.clear();
            if self.carry.capacity() > 64 << 10 {
                self.carry = Vec::new();
            }
        }
        while let Some(h) = FrameHeader::parse(input) {
            let total = frame_total(h, max_len)?;
            let Some(frame) = input.get(..total) else { break };
            f(h, frame.get(HEADER_LEN..).unwrap_or_default());
            input = input.get(total..).unwrap_or_default();
        }
        self.carry.extend_from_slice(input);
        Ok(())
    }
}

fn frame_total(h: FrameHeader, max_len: usize) -> Result<usize, ReadError> {
    let len = usize::try_from(h.len).unwrap_or(usize::MAX);
    if len > max_len {
        return Err(ReadError::TooLarge(h.len));
    }
    Ok(len.saturating_add(HEADER_LEN))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    pub fn frame(kind: u8, flags: u8, stream: u32, payload: &[u8]) -> Vec<u8> {
        let len = payload.len() as u32;
        let mut v = len.to_be_bytes()[1..].to_vec();
        v.push(kind);
        v.push(flags);
        v.extend_from_slice(&stream.to_be_bytes());
        v.extend_from_slice(payload);
        v
    }

    fn one(bytes: &[u8]) -> Result<Frame<'_>, FrameError> {
        let h = FrameHeader::parse(bytes).unwrap();
        decode(h, &bytes[HEADER_LEN..])
    }

    #[test]
    fn data_padding_is_stripped_and_overlong_padding_rejected() {
        let f = frame(DATA, PADDED | END_STREAM, 1, b"\x03abcPPP");
        assert_eq!(one(&f), Ok(Frame::Data { stream: 1, end_stream: true, data: b"abc" }));
        let f = frame(DATA, PADDED, 1, b"\x04abc");
        assert_eq!(one(&f), Err(FrameError::Padding(DATA)));
        assert_eq!(one(&frame(DATA, PADDED, 1, b"")), Err(FrameError::Size(DATA)));
        assert_eq!(one(&frame(DATA, 0, 0, b"x")), Err(FrameError::Stream(DATA)));
    }

    #[test]
    fn headers_padding_and_priority_are_stripped() {
        let f = frame(HEADERS, PADDED | PRIORITY_FLAG | END_HEADERS, 3, b"\x02\x80\x00\x00\x01\x10\x82\x84PP");
        assert_eq!(one(&f), Ok(Frame::Headers { stream: 3, end_stream: false, end_headers: true, fragment: b"\x82\x84" }));
        assert_eq!(one(&frame(HEADERS, PRIORITY_FLAG, 3, b"\x00\x00")), Err(FrameError::Size(HEADERS)));
    }

    #[test]
    fn control_frames_decode_and_check_their_sizes() {
        assert_eq!(one(&frame(RST_STREAM, 0, 5, &8u32.to_be_bytes())), Ok(Frame::RstStream { stream: 5, code: 8 }));
        assert_eq!(one(&frame(RST_STREAM, 0, 5, b"abc")), Err(FrameError::Size(RST_STREAM)));
        let s = [0, 1, 0, 0, 0x10, 0, 0, 5, 0, 0, 0x40, 0];
        let f = frame(SETTINGS, 0, 0, &s);
        let Ok(Frame::Settings { ack: false, params }) = one(&f) else { panic!() };
        assert_eq!(settings(params).collect::<Vec<_>>(), vec![(1, 4096), (5, 16384)]);
        assert_eq!(one(&frame(SETTINGS, ACK, 0, b"x")), Err(FrameError::Size(SETTINGS)));
        assert_eq!(one(&frame(SETTINGS, 0, 1, b"")), Err(FrameError::Stream(SETTINGS)));
        assert_eq!(one(&frame(PING, ACK, 0, &[0; 8])), Ok(Frame::Ping { ack: true }));
        assert_eq!(one(&frame(GOAWAY, 0, 0, &[0x80, 0, 0, 7, 0, 0, 0, 2, b'x'])), Ok(Frame::GoAway { last_stream: 7, code: 2 }));
        assert_eq!(one(&frame(WINDOW_UPDATE, 0, 0, &[0, 0, 1, 0])), Ok(Frame::WindowUpdate { stream: 0, increment: 256 }));
        assert_eq!(one(&frame(PRIORITY, 0, 1, &[0; 5])), Ok(Frame::Priority { stream: 1 }));
        assert_eq!(
            one(&frame(PUSH_PROMISE, END_HEADERS, 1, &[0, 0, 0, 2, 0x82])),
            Ok(Frame::PushPromise { stream: 1, promised: 2, end_headers: true, fragment: b"\x82" })
        );
        assert_eq!(one(&frame(0xfa, 0, 0, b"??")), Ok(Frame::Unknown { kind: 0xfa }));
    }

    #[test]
    fn reader_gives_the_same_frames_at_every_split() {
        let mut wire = frame(SETTINGS, 0, 0, &[0, 1, 0, 0, 0x10, 0]);
        wire.extend(frame(HEADERS, END_HEADERS, 1, b"\x82\x84\x86"));
        wire.extend(frame(DATA, END_STREAM, 1, b"hello"));
        let collect = |parts: &[&[u8]]| {
            let mut r = FrameReader::default();
            let mut got = Vec::new();
            for p in parts {
                r.feed(p, 1 << 14, &mut |h, p| got.push((h, p.to_vec()))).unwrap();
            }
            got
        };
        let whole = collect(&[&wire]);
        assert_eq!(whole.len(), 3);
        for i in 0..=wire.len() {
            for j in i..=wire.len() {
                assert_eq!(collect(&[&wire[..i], &wire[i..j], &wire[j..]]), whole, "split at {i},{j}");
            }
        }
    }

    #[test]
    fn reader_stops_at_a_frame_over_the_cap() {
        let mut r = FrameReader::default();
        let f = frame(DATA, 0, 1, &[0; 100]);
        assert_eq!(r.feed(&f, 99, &mut |_, _| {}), Err(ReadError::TooLarge(100)));
    }

    proptest::proptest! {
        #[test]
        fn arbitrary_frames_never_panic(bytes in proptest::collection::vec(0u8..=255, 0..256)) {
            let mut r = FrameReader::default();
            let _ = r.feed(&bytes, 1 << 14, &mut |h, p| { let _ = decode(h, p); });
        }
    }
}
