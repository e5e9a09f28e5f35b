//! HTTP/1.1 message heads: start line + header section (RFC 9112 §2.1, §3, §4, §5; RFC 9110 §5).
//!
//! Owns: the `httparse` wrapper (a lenient `ParserConfig`: an observer must not reject what endpoints
//! accept), conversion to the owned [`RequestHead`] / [`ResponseHead`], finding where a head ends, and
//! deciding whether some bytes plausibly start a message (for midstream pickup and resynchronisation).
//! Must not: buffer — the caller keeps the carry buffer and calls [`parse_request`] / [`parse_response`]
//! only once [`find_head_end`] has found the empty line, so a head is parsed once, never re-parsed on a
//! growing buffer (httparse's warning about retry loops).
//!
//! ```text
//! HTTP-message   = start-line CRLF *( field-line CRLF ) CRLF [ message-body ]   ; RFC 9112 §2.1
//! request-line   = method SP request-target SP HTTP-version                      ; §3
//! status-line    = HTTP-version SP status-code SP [ reason-phrase ]              ; §4
//! field-line     = field-name ":" OWS field-value OWS                            ; §5
//! ```

use std::mem::MaybeUninit;

use memchr::{memchr, memchr2, memchr3, memchr_iter};

use super::{Headers, Interned, RequestHead, ResponseHead};
use crate::decode::flow_key::Direction;

/// Header fields kept per head; the rest are counted and dropped (MCP needs a handful).
pub const MAX_HEADERS: usize = 100;

/// Bytes looked at to decide whether a message plausibly starts here (longest check: a 20-byte method,
/// SP and the first target byte).
pub const PROBE_LEN: usize = 24;

/// Longest method token accepted as a plausible request start.
const MAX_METHOD_LEN: usize = 20;

/// Outcome of parsing a head that [`find_head_end`] delimited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeadParse<T> {
    /// Parsed; `len` bytes used; `dropped_headers` fields past [`MAX_HEADERS`] were counted and dropped.
    Complete { head: T, len: usize, dropped_headers: usize },
    /// The bytes end before the head does.
    Partial,
    /// Not a valid head (httparse error).
    Invalid,
}

/// Lenient parsing: RFC 9112 §3/§4 let recipients accept runs of whitespace as delimiters; obs-fold
/// (§5.2) and whitespace before the colon are what browsers and proxies tolerate in responses; invalid
/// field lines are skipped (as browsers and nginx's default `ignore_invalid_headers` do) instead of
/// losing the whole message.
fn config() -> httparse::ParserConfig {
    let mut c = httparse::ParserConfig::default();
    c.allow_spaces_after_header_name_in_responses(true)
        .allow_obsolete_multiline_headers_in_responses(true)
        .allow_multiple_spaces_in_request_line_delimiters(true)
        .allow_multiple_spaces_in_response_status_delimiters(true)
        .allow_space_before_first_header_name(true)
        .ignore_invalid_headers_in_responses(true)
        .ignore_invalid_headers_in_requests(true);
    c
}

/// Header slots for a retry after `TooManyHeaders`: a field line takes at least three bytes (`a:\n`), so
/// `len / 3 + 1` slots always suffice.
fn slots_for(len: usize) -> usize {
    len / 3 + 1
}

enum Attempt<T> {
    Done(HeadParse<T>),
    TooManyHeaders,
}

/// Parses a request head (RFC 9112 §3). `buf` must start at the request line.
pub fn parse_request(buf: &[u8]) -> HeadParse<RequestHead> {
    parse_request_after(buf, &mut Interned::default())
}

/// [`parse_request`], sharing the target with the connection's previous request (`last`) when it is the
/// same: a client sends every request to its one endpoint.
pub fn parse_request_after(buf: &[u8], last: &mut Interned) -> HeadParse<RequestHead> {
    // Uninitialised slots: httparse writes only those it fills (no 3 KiB memset per head).
    let mut slots = [const { MaybeUninit::uninit() }; MAX_HEADERS];
    match request_into(buf, &mut slots, last) {
        Attempt::Done(r) => r,
        Attempt::TooManyHeaders => {
            // ALLOC: header slots for a head with more than MAX_HEADERS fields, bounded by
            // limits::max_header_bytes (the caller never passes a longer head).
            let mut many = vec![MaybeUninit::uninit(); slots_for(buf.len())];
            match request_into(buf, &mut many, last) {
                Attempt::Done(r) => r,
                Attempt::TooManyHeaders => HeadParse::Invalid,
            }
        }
    }
}

/// Parses a response head (RFC 9112 §4). `buf` must start at the status line.
pub fn parse_response(buf: &[u8]) -> HeadParse<ResponseHead> {
    let mut slots = [const { MaybeUninit::uninit() }; MAX_HEADERS];
    match response_into(buf, &mut slots) {
        Attempt::Done(r) => r,
        Attempt::TooManyHeaders => {
            // ALLOC: header slots for a head with more than MAX_HEADERS fields, bounded by
            // limits::max_header_bytes (the caller never passes a longer head).
            let mut many = vec![MaybeUninit::uninit(); slots_for(buf.len())];
            match response_into(buf, &mut many) {
                Attempt::Done(r) => r,
                Attempt::TooManyHeaders => HeadParse::Invalid,
            }
        }
    }
}

fn request_into<'b>(buf: &'b [u8], slots: &mut [MaybeUninit<httparse::Header<'b>>], last: &mut Interned) -> Attempt<RequestHead> {
    let mut req = httparse::Request::new(&mut []);
    match config().parse_request_with_uninit_headers(&mut req, buf, slots) {
        Ok(httparse::Status::Complete(len)) => {
            let (headers, dropped_headers) = own_headers(req.headers, buf.get(..len).unwrap_or(buf));
            let target = req.path.unwrap_or_default();
            // ALLOC: a new target (and a method other than RFC 9110's), bounded by limits::max_header_bytes.
            let head = RequestHead {
                method: super::token(req.method.unwrap_or_default(), super::METHODS),
                target: last.intern(target),
                version: req.version.unwrap_or(1),
                headers,
            };
            Attempt::Done(HeadParse::Complete { head, len, dropped_headers })
        }
        Ok(httparse::Status::Partial) => Attempt::Done(HeadParse::Partial),
        Err(httparse::Error::TooManyHeaders) => Attempt::TooManyHeaders,
        Err(_) => Attempt::Done(HeadParse::Invalid),
    }
}

fn response_into<'b>(buf: &'b [u8], slots: &mut [MaybeUninit<httparse::Header<'b>>]) -> Attempt<ResponseHead> {
    let mut res = httparse::Response::new(&mut []);
    match config().parse_response_with_uninit_headers(&mut res, buf, slots) {
        Ok(httparse::Status::Complete(len)) => {
            let (headers, dropped_headers) = own_headers(res.headers, buf.get(..len).unwrap_or(buf));
            // ALLOC: an uncommon reason phrase, bounded by limits::max_header_bytes.
            let head = ResponseHead {
                status: res.code.unwrap_or_default(),
                reason: super::token(res.reason.unwrap_or_default(), super::REASONS),
                version: res.version.unwrap_or(1),
                headers,
            };
            Attempt::Done(HeadParse::Complete { head, len, dropped_headers })
        }
        Ok(httparse::Status::Partial) => Attempt::Done(HeadParse::Partial),
        Err(httparse::Error::TooManyHeaders) => Attempt::TooManyHeaders,
        Err(_) => Attempt::Done(HeadParse::Invalid),
    }
}

/// Owned copies of the first [`MAX_HEADERS`] fields: names lower-cased (RFC 9110 §5.1: field names
/// are case-insensitive), values as lossy UTF-8 with each obs-fold replaced by one SP (RFC 9112 §5.2:
/// a recipient "MAY replace each received obs-fold with one or more SP octets"). `head`: the head's bytes,
/// start line to empty line, that httparse read the fields from.
fn own_headers(fields: &[httparse::Header<'_>], head: &[u8]) -> (Headers, usize) {
    let kept = fields.len().min(MAX_HEADERS);
    // ALLOC: one buffer for the names and values and one for their offsets (at most MAX_HEADERS fields),
    // bounded by limits::max_header_bytes.
    let bytes = fields.iter().take(kept).fold(0usize, |n, f| n.saturating_add(f.name.len()).saturating_add(f.value.len()));
    let fields_kept = fields.get(..kept).unwrap_or(fields);
    let plain = if unfolded(head, fields.len()) { plain_headers(fields_kept, bytes) } else { None };
    let out = plain.unwrap_or_else(|| field_by_field(fields_kept, bytes));
    (out, fields.len().saturating_sub(kept))
}

/// Whether a parsed head of `fields` fields has no line end beyond its start line's, one per field line and
/// the empty line's: then no value holds an obs-fold, which adds one (httparse takes no bare CR in a value).
/// One count over the head (SIMD) instead of a search in every value. A head with more line ends (a fold,
/// an invalid field line httparse skipped, blank lines before the start line) takes the field-by-field
/// copy, which gives the same headers for any head.
fn unfolded(head: &[u8], fields: usize) -> bool {
    memchr_iter(b'\n', head).count() == fields.saturating_add(2)
}

/// `own_headers`, one field at a time: each value decoded as lossy UTF-8, each obs-fold made one SP.
fn field_by_field(fields: &[httparse::Header<'_>], bytes: usize) -> Headers {
    let mut out = Headers::with_capacity(fields.len(), bytes);
    for f in fields {
        out.push_name(f.name);
        let value = super::lossy(f.value);
        if memchr2(b'\r', b'\n', f.value).is_some() {
            // obs-fold = OWS CRLF RWS: the whole fold becomes one SP.
            let mut first = true;
            for part in value.split(['\r', '\n']).map(|part| part.trim_matches([' ', '\t'])).filter(|part| !part.is_empty()) {
                if !first {
                    out.push_value(" ");
                }
                out.push_value(part);
                first = false;
            }
        } else {
            out.push_value(&value);
        }
    }
    out
}

/// `own_headers` for the usual head, with no obs-fold ([`unfolded`]) and every value valid UTF-8: the
/// fields copied as they are and the text checked once, instead of a UTF-8 check per value
/// ([`field_by_field`] gives the same headers, and takes every other head: `None`).
fn plain_headers(fields: &[httparse::Header<'_>], bytes: usize) -> Option<Headers> {
    // httparse reads names as tokens: ASCII, so the whole text is valid exactly when every value is.
    Headers::from_utf8_fields(fields.iter().map(|f| (f.name.as_bytes(), f.value)), fields.len(), bytes)
}

/// Finds the end of a head: the offset in `buf` just past the empty line that ends the header section
/// (RFC 9112 §2.1), where the head began earlier with the bytes `prev` (the caller's carry buffer,
/// which must start at the start line). Only `buf[..limit]` is searched, so a found head is never
/// longer than `prev.len() + limit`. Bare LF line ends are recognised like CRLF (RFC 9112 §2.2).
pub fn find_head_end(prev: &[u8], buf: &[u8], limit: usize) -> Option<usize> {
    let window = buf.get(..limit.min(buf.len()))?;
    let mut from = 0usize;
    while let Some(i) = window.get(from..).and_then(|w| memchr(b'\n', w)) {
        let at = from.saturating_add(i);
        // An empty line: LF right after LF, or LF after CR after LF.
        let b1 = byte_before(prev, buf, at, 1);
        if b1 == Some(b'\n') || (b1 == Some(b'\r') && byte_before(prev, buf, at, 2) == Some(b'\n')) {
            return Some(at.saturating_add(1));
        }
        from = at.saturating_add(1);
    }
    None
}

/// The byte `back` positions before `buf[at]` in the virtual concatenation `prev ++ buf`.
fn byte_before(prev: &[u8], buf: &[u8], at: usize, back: usize) -> Option<u8> {
    match at.checked_sub(back) {
        Some(i) => buf.get(i).copied(),
        None => {
            let into_prev = back.saturating_sub(at);
            prev.len().checked_sub(into_prev).and_then(|i| prev.get(i)).copied()
        }
    }
}

/// How sure a message start must look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartCheck {
    /// At a connection start, after a complete message, at a line start while resynchronising: a request
    /// is `METHOD SP x` (upper-case token of 3..=20 chars — RFC 9110 §9.1 "by convention, standardized
    /// methods are defined in all-uppercase US-ASCII letters"), a response starts with `HTTP/1.`.
    Lenient,
    /// Anywhere inside skipped data (a JSON body does not end with a line break, so the next message can
    /// start mid-line): a known method + SP + `/`, `*` or `h`, or `HTTP/1.x NNN`.
    Strict,
}

/// Whether bytes look like the start of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plausible {
    Yes,
    No,
    /// Consistent so far; more bytes are needed to decide.
    NeedMore,
}

/// Decides whether `bytes` (up to [`PROBE_LEN`] of them) start a message going in `dir`.
pub fn plausible_start(dir: Direction, check: StartCheck, bytes: &[u8]) -> Plausible {
    match (dir, check) {
        (Direction::ToServer, StartCheck::Lenient) => lenient_request(bytes),
        (Direction::ToServer, StartCheck::Strict) => strict_request(bytes),
        (Direction::ToClient, StartCheck::Lenient) => prefix(bytes, b"HTTP/1."),
        (Direction::ToClient, StartCheck::Strict) => strict_response(bytes),
    }
}

/// Where to look for [`StartCheck::Strict`] candidates: the first byte of each pattern.
pub fn next_strict_trigger(dir: Direction, buf: &[u8]) -> Option<usize> {
    match dir {
        // GET, POST/PUT/PATCH, DELETE.
        Direction::ToServer => memchr3(b'G', b'P', b'D', buf),
        Direction::ToClient => memchr(b'H', buf),
    }
}

fn prefix(bytes: &[u8], pat: &[u8]) -> Plausible {
    let n = bytes.len().min(pat.len());
    if bytes.get(..n) != pat.get(..n) {
        Plausible::No
    } else if n == pat.len() {
        Plausible::Yes
    } else {
        Plausible::NeedMore
    }
}

fn lenient_request(bytes: &[u8]) -> Plausible {
    for (i, &b) in bytes.iter().enumerate() {
        if i == 0 {
            if !b.is_ascii_uppercase() {
                return Plausible::No;
            }
        } else if b == b' ' {
            if i < 3 {
                return Plausible::No;
            }
            // The request target starts with a visible character.
            return match bytes.get(i.saturating_add(1)) {
                None => Plausible::NeedMore,
                Some(c) if c.is_ascii_graphic() => Plausible::Yes,
                Some(_) => Plausible::No,
            };
        } else if !(b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'-' || b == b'_') || i >= MAX_METHOD_LEN {
            return Plausible::No;
        }
    }
    Plausible::NeedMore
}

fn strict_request(bytes: &[u8]) -> Plausible {
    const METHODS: [&[u8]; 5] = [b"GET ", b"POST ", b"PUT ", b"PATCH ", b"DELETE "];
    let mut need_more = false;
    for m in METHODS {
        match prefix(bytes, m) {
            Plausible::Yes => {
                // origin-form `/`, asterisk-form `*`, absolute-form `http...` (RFC 9112 §3.2).
                return match bytes.get(m.len()) {
                    None => Plausible::NeedMore,
                    Some(b'/' | b'*' | b'h') => Plausible::Yes,
                    Some(_) => Plausible::No,
                };
            }
            Plausible::NeedMore => need_more = true,
            Plausible::No => {}
        }
    }
    if need_more {
        Plausible::NeedMore
    } else {
        Plausible::No
    }
}

/// `HTTP/1.` DIGIT SP 3DIGIT (RFC 9112 §4: status-line).
fn strict_response(bytes: &[u8]) -> Plausible {
    match prefix(bytes, b"HTTP/1.") {
        Plausible::Yes => {}
        other => return other,
    }
    let tail = bytes.get(7..).unwrap_or_default();
    let classes: [fn(u8) -> bool; 5] = [
        |b| b == b'0' || b == b'1',
        |b| b == b' ',
        |b| b.is_ascii_digit(),
        |b| b.is_ascii_digit(),
        |b| b.is_ascii_digit(),
    ];
    for (i, class) in classes.iter().enumerate() {
        match tail.get(i) {
            None => return Plausible::NeedMore,
            Some(&b) if class(b) => {}
            Some(_) => return Plausible::No,
        }
    }
    Plausible::Yes
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use Direction::{ToClient, ToServer};

    proptest::proptest! {
        #[test]
        fn plain_headers_are_the_field_by_field_copy(
            fields in proptest::collection::vec((
                proptest::sample::select(vec!["Content-Type", "mcp-session-id", "HOST", "X-a"]),
                proptest::collection::vec(proptest::prop_oneof![
                    proptest::prelude::Just(b'a'), proptest::prelude::Just(b' '), proptest::prelude::Just(b'\t'),
                    proptest::prelude::Just(0xc3u8), proptest::prelude::Just(0xa9u8), proptest::prelude::Just(0xffu8),
                    proptest::prelude::Just(b'Z'),
                ], 0..12),
            ), 0..6)
        ) {
            // Values with no obs-fold (`unfolded` sends the others to the field-by-field copy) mixing
            // ASCII, a two-byte character, its halves alone and invalid bytes: the single-check copy
            // either declines or gives exactly the field-by-field headers, and it declines only a head
            // with a value that is not UTF-8.
            let headers: Vec<httparse::Header<'_>> = fields.iter().map(|(n, v)| httparse::Header { name: n, value: v }).collect();
            let bytes = fields.iter().map(|(n, v)| n.len() + v.len()).sum();
            let plain = plain_headers(&headers, bytes);
            let usual = fields.iter().all(|(_, v)| std::str::from_utf8(v).is_ok());
            proptest::prop_assert_eq!(plain.is_some(), usual);
            if let Some(p) = plain {
                proptest::prop_assert_eq!(p, field_by_field(&headers, bytes));
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn a_head_is_owned_as_field_by_field_whatever_its_lines(
            blank_lines in 0usize..2,
            lf_only in proptest::bool::ANY,
            lines in proptest::collection::vec((
                0u8..4,
                proptest::sample::select(vec!["Content-Type", "mcp-session-id", "X-a"]),
                proptest::collection::vec(proptest::sample::select(vec![b'a', b' ', b'\t', 0xc3u8, 0xa9, b'Z']), 1..6),
            ), 0..6)
        ) {
            // Response heads (where httparse takes obs-folds) with folded values, invalid field lines it
            // skips and blank lines before the status line: the owned headers are the field-by-field copy
            // of what httparse read, and the count takes the single-check copy exactly for the head with
            // none of the three.
            let eol: &[u8] = if lf_only { b"\n" } else { b"\r\n" };
            let mut buf = eol.repeat(blank_lines);
            buf.extend_from_slice(b"HTTP/1.1 200 OK");
            buf.extend_from_slice(eol);
            let mut plain = blank_lines == 0;
            for (kind, name, value) in &lines {
                match kind {
                    // A line with no colon: skipped (`ignore_invalid_headers_in_responses`).
                    0 => buf.extend_from_slice(b"no colon"),
                    1 => {
                        buf.extend_from_slice(format!("{name}: x").as_bytes());
                        buf.extend_from_slice(eol);
                        buf.push(b' ');
                        buf.extend_from_slice(value);
                    }
                    _ => {
                        buf.extend_from_slice(format!("{name}: ").as_bytes());
                        buf.extend_from_slice(value);
                    }
                }
                plain &= *kind > 1;
                buf.extend_from_slice(eol);
            }
            buf.extend_from_slice(eol);
            let mut slots = [httparse::EMPTY_HEADER; 16];
            let mut res = httparse::Response::new(&mut slots);
            let Ok(httparse::Status::Complete(len)) = config().parse_response(&mut res, &buf) else {
                return Err(proptest::test_runner::TestCaseError::fail(format!("not a head: {:?}", String::from_utf8_lossy(&buf))));
            };
            let head = &buf[..len];
            proptest::prop_assert_eq!(unfolded(head, res.headers.len()), plain);
            let bytes = res.headers.iter().map(|f| f.name.len() + f.value.len()).sum();
            proptest::prop_assert_eq!(own_headers(res.headers, head).0, field_by_field(res.headers, bytes));
        }
    }

    #[test]
    fn a_repeated_target_is_shared() {
        use std::sync::Arc;
        let mut last = Interned::default();
        let HeadParse::Complete { head: first, .. } = parse_request_after(b"POST /mcp HTTP/1.1\r\nHost: a\r\n\r\n", &mut last) else { panic!() };
        let HeadParse::Complete { head: same, .. } = parse_request_after(b"POST /mcp HTTP/1.1\r\nHost: a\r\n\r\n", &mut last) else { panic!() };
        assert!(Arc::ptr_eq(&first.target, &same.target));
        let HeadParse::Complete { head: other, .. } = parse_request_after(b"POST /mcp2 HTTP/1.1\r\n\r\n", &mut last) else { panic!() };
        assert_eq!(&*other.target, "/mcp2");
    }

    fn req(buf: &[u8]) -> RequestHead {
        match parse_request(buf) {
            HeadParse::Complete { head, len, .. } => {
                assert_eq!(len, buf.len());
                head
            }
            other => panic!("{other:?}"),
        }
    }

    fn res(buf: &[u8]) -> ResponseHead {
        match parse_response(buf) {
            HeadParse::Complete { head, len, .. } => {
                assert_eq!(len, buf.len());
                head
            }
            other => panic!("{other:?}"),
        }
    }

    const POST: &[u8] = b"POST /mcp?x=1 HTTP/1.1\r\nHost: localhost:8000\r\nContent-Type: application/json\r\n\
Accept: application/json, text/event-stream\r\nMCP-Session-Id: abc\r\nContent-Length: 2\r\n\r\n";

    #[test]
    fn head_request_fixture() {
        let h = req(POST);
        assert_eq!(h.method, "POST");
        assert_eq!(&*h.target, "/mcp?x=1");
        assert_eq!(h.path(), "/mcp");
        assert_eq!(h.version, 1);
        assert_eq!(h.headers.get("mcp-session-id"), Some("abc"));
        assert_eq!(h.headers.get("content-length"), Some("2"));
        assert_eq!(h.headers.iter().next(), Some(("host", "localhost:8000")));
    }

    #[test]
    fn head_response_fixture() {
        let h = res(
            b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\nCache-Control: no-cache\r\n\r\n",
        );
        assert_eq!(h.status, 200);
        assert_eq!(h.reason, "OK");
        assert_eq!(h.headers.content_type().as_deref(), Some("text/event-stream"));
        let h = res(b"HTTP/1.0 404\r\n\r\n");
        assert_eq!((h.status, h.version, &*h.reason), (404, 0, ""));
    }

    #[test]
    fn head_bare_lf_is_accepted() {
        let h = req(b"GET / HTTP/1.1\nHost: a\n\n");
        assert_eq!(h.headers.get("host"), Some("a"));
    }

    #[test]
    fn head_lenient_response_obs_fold_and_space_before_colon() {
        let h = res(b"HTTP/1.1 200 OK\r\nX-Folded: hello\r\n  there\r\nContent-Type : text/plain\r\n\r\n");
        assert_eq!(h.headers.get("x-folded"), Some("hello there"));
        assert_eq!(h.headers.get("content-type"), Some("text/plain"));
    }

    #[test]
    fn head_lenient_multiple_spaces_and_invalid_lines() {
        let h = req(b"GET  /x   HTTP/1.1\r\nGood: 1\r\nBad Line\r\nAlso-Good: 2\r\n\r\n");
        assert_eq!(&*h.target, "/x");
        assert_eq!(h.headers.len(), 2);
        let h = res(b"HTTP/1.1  204  No Content\r\n\r\n");
        assert_eq!(h.status, 204);
    }

    #[test]
    fn head_non_utf8_value_is_lossy() {
        let h = res(b"HTTP/1.1 200 OK\r\nX-Bin: a\xFFb\r\n\r\n");
        assert_eq!(h.headers.get("x-bin"), Some("a\u{FFFD}b"));
    }

    #[test]
    fn head_invalid_and_partial() {
        assert_eq!(parse_request(b"GET / HTTP/3.0\r\n\r\n"), HeadParse::Invalid);
        assert_eq!(parse_request(b"GET\r\n\r\n"), HeadParse::Invalid);
        assert_eq!(parse_response(b"HTTP/1.1 2x0 OK\r\n\r\n"), HeadParse::Invalid);
        assert_eq!(parse_request(b"GET / HTTP/1.1\r\nHost: a\r\n"), HeadParse::Partial);
        // Every proper prefix of a valid head is Partial (httparse `partial_permutations`).
        for i in 0..POST.len() {
            assert_eq!(parse_request(&POST[..i]), HeadParse::Partial, "prefix {i}");
        }
    }

    #[test]
    fn head_header_count_cap_keeps_first_and_counts_rest() {
        let mut buf = b"HTTP/1.1 200 OK\r\n".to_vec();
        for i in 0..150 {
            buf.extend_from_slice(format!("X-H{i}: {i}\r\n").as_bytes());
        }
        buf.extend_from_slice(b"\r\n");
        match parse_response(&buf) {
            HeadParse::Complete { head, len, dropped_headers } => {
                assert_eq!(len, buf.len());
                assert_eq!(head.headers.len(), MAX_HEADERS);
                assert_eq!(dropped_headers, 50);
                assert_eq!(head.headers.get("x-h99"), Some("99"));
                assert_eq!(head.headers.get("x-h100"), None);
            }
            other => panic!("{other:?}"),
        }
        // Densest possible field lines still fit the fallback slots.
        let mut buf = b"GET / HTTP/1.1\n".to_vec();
        for _ in 0..500 {
            buf.extend_from_slice(b"a:\n");
        }
        buf.push(b'\n');
        match parse_request(&buf) {
            HeadParse::Complete { dropped_headers, .. } => assert_eq!(dropped_headers, 400),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn head_end_is_found_across_carry() {
        let head = b"GET / HTTP/1.1\r\nA: b\r\n\r\nBODY";
        assert_eq!(find_head_end(&[], head, usize::MAX), Some(24));
        for i in 1..24 {
            let (a, b) = head.split_at(i);
            // The caller never carries a complete head, so only splits before its end matter.
            let want = if i < 24 { Some(24 - i) } else { None };
            assert_eq!(find_head_end(a, b, usize::MAX), want, "split {i}");
        }
        assert_eq!(find_head_end(&[], b"GET / HTTP/1.1\n\nX", usize::MAX), Some(16));
        assert_eq!(find_head_end(&[], b"GET / HTTP/1.1\r\nA: b\r\n", usize::MAX), None);
        // The limit bounds the head length.
        assert_eq!(find_head_end(&[], head, 24), Some(24));
        assert_eq!(find_head_end(&[], head, 23), None);
    }

    #[test]
    fn head_plausible_request_starts() {
        use Plausible::*;
        use StartCheck::*;
        let l = |b: &[u8]| plausible_start(ToServer, Lenient, b);
        assert_eq!(l(b"POST /mcp"), Yes);
        assert_eq!(l(b"M-SEARCH * HTTP/1.1"), Yes);
        assert_eq!(l(b"POS"), NeedMore);
        assert_eq!(l(b"POST "), NeedMore);
        assert_eq!(l(b"post /"), No);
        assert_eq!(l(b"GE /"), No);
        assert_eq!(l(b"{\"jsonrpc\""), No);
        assert_eq!(l(b"POST  /"), No, "the target must follow");
        assert_eq!(l(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ /"), No);
        let s = |b: &[u8]| plausible_start(ToServer, Strict, b);
        assert_eq!(s(b"POST /mcp"), Yes);
        assert_eq!(s(b"GET http://x/"), Yes);
        assert_eq!(s(b"PO"), NeedMore);
        assert_eq!(s(b"P"), NeedMore);
        assert_eq!(s(b"PUSH /"), No);
        assert_eq!(s(b"POST now"), No);
    }

    #[test]
    fn head_plausible_response_starts() {
        use Plausible::*;
        use StartCheck::*;
        assert_eq!(plausible_start(ToClient, Lenient, b"HTTP/1.1 200"), Yes);
        assert_eq!(plausible_start(ToClient, Lenient, b"HTTP/"), NeedMore);
        assert_eq!(plausible_start(ToClient, Lenient, b"HTTP/2 200"), No);
        assert_eq!(plausible_start(ToClient, Lenient, b"data: x"), No);
        assert_eq!(plausible_start(ToClient, Strict, b"HTTP/1.1 200 OK"), Yes);
        assert_eq!(plausible_start(ToClient, Strict, b"HTTP/1.1 20"), NeedMore);
        assert_eq!(plausible_start(ToClient, Strict, b"HTTP/1.1 spec"), No);
        assert_eq!(plausible_start(ToClient, Strict, b"HTTP/1.2 200"), No);
    }

    #[test]
    fn head_strict_triggers() {
        assert_eq!(next_strict_trigger(ToServer, b"}{aDELETE"), Some(3));
        assert_eq!(next_strict_trigger(ToClient, b"xxHTTP"), Some(2));
        assert_eq!(next_strict_trigger(ToClient, b"xx"), None);
    }

    proptest::proptest! {
        #[test]
        fn head_arbitrary_bytes_never_panic(data in proptest::collection::vec(proptest::num::u8::ANY, 0..400)) {
            let _ = parse_request(&data);
            let _ = parse_response(&data);
            let _ = find_head_end(&data[..data.len() / 2], &data[data.len() / 2..], data.len());
            for dir in [ToServer, ToClient] {
                for c in [StartCheck::Lenient, StartCheck::Strict] {
                    let _ = plausible_start(dir, c, &data);
                }
            }
        }
    }
}
