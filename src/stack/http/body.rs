//! Message body length (RFC 9112 §6.3) and the decoder for each kind of body.
//!
//! Owns: the decision, from a parsed head (and for responses, the request method), of how the body is
//! delimited — none, Content-Length, chunked, until close, or a tunnel — and the [`BodyDecoder`] that
//! then cuts the stream accordingly, handing out slices that borrow the input (zero copy).
//! Must not: look at body content (SSE and JSON are the caller's), or reject a message outright: framing
//! oddities become anomalies and the most plausible reading is taken, as an observer must (hyper's
//! `role.rs` errors out; we cannot).

use super::chunked::{ChunkedDecoder, ChunkedStatus};
use super::{Headers, HttpAnomaly};

/// How a message body is delimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// No body: the message ends with its head.
    None,
    /// Exactly this many bytes (RFC 9112 §6.2).
    Length(u64),
    /// Chunked transfer coding (RFC 9112 §7.1).
    Chunked,
    /// Until the server closes the connection (responses only).
    CloseDelimited,
    /// The connection becomes a tunnel after this head (2xx to CONNECT); HTTP parsing stops.
    Tunnel,
    /// The length cannot be determined (a request with bad framing); the direction must resync.
    Unreadable,
}

/// The request facts the response rules need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReqMethod {
    Head,
    Connect,
    Other,
}

impl ReqMethod {
    /// RFC 9110 §9.1: the method token is case-sensitive.
    pub fn of(method: &str) -> Self {
        match method {
            "HEAD" => ReqMethod::Head,
            "CONNECT" => ReqMethod::Connect,
            _ => ReqMethod::Other,
        }
    }
}

/// A body decision and the framing anomalies found on the way (at most two apply to one message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyDecision {
    pub kind: BodyKind,
    pub anomalies: [Option<HttpAnomaly>; 2],
}

impl BodyDecision {
    fn new(kind: BodyKind) -> Self {
        BodyDecision { kind, anomalies: [None, None] }
    }

    fn with(mut self, a: HttpAnomaly) -> Self {
        if let Some(slot) = self.anomalies.iter_mut().find(|s| s.is_none()) {
            *slot = Some(a);
        }
        self
    }
}

/// Transfer-Encoding as far as framing cares.
enum Te {
    Absent,
    /// `chunked` is the final transfer coding.
    ChunkedLast,
    /// Present, but `chunked` is not last (or the list is empty).
    Other,
}

/// Content-Length as far as framing cares.
enum Cl {
    Absent,
    Valid(u64),
    Invalid,
}

/// RFC 9112 §6.1: the codings of every Transfer-Encoding field line, in order, form one list; only the
/// last one decides framing.
fn transfer_encoding(headers: &Headers) -> Te {
    let mut present = false;
    let mut last: Option<&str> = None;
    for v in headers.values("transfer-encoding") {
        present = true;
        for coding in v.split(',') {
            // A coding may carry parameters (`gzip;q=1`); the name is the token before them.
            let name = coding.split(';').next().unwrap_or_default().trim();
            if !name.is_empty() {
                last = Some(name);
            }
        }
    }
    match (present, last) {
        (false, _) => Te::Absent,
        (true, Some(c)) if c.eq_ignore_ascii_case("chunked") => Te::ChunkedLast,
        (true, _) => Te::Other,
    }
}

/// RFC 9112 §6.3 rule 5: every Content-Length field line, read as a comma-separated list (RFC 9110
/// §5.6.1, empty elements ignored), must hold one valid value, repeated or not.
fn content_length(headers: &Headers) -> Cl {
    let mut seen: Option<u64> = None;
    let mut present = false;
    for v in headers.values("content-length") {
        present = true;
        for item in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            // RFC 9110 §8.6: Content-Length = 1*DIGIT; no sign, no spaces inside, no overflow.
            if !item.bytes().all(|b| b.is_ascii_digit()) {
                return Cl::Invalid;
            }
            let Ok(n) = item.parse::<u64>() else { return Cl::Invalid };
            match seen {
                Some(prev) if prev != n => return Cl::Invalid,
                _ => seen = Some(n),
            }
        }
    }
    match (present, seen) {
        (false, _) => Cl::Absent,
        (true, Some(n)) => Cl::Valid(n),
        (true, None) => Cl::Invalid,
    }
}

/// Whether a response carries `text/event-stream` (WHATWG HTML §9.2.6), parameters and case ignored.
pub fn is_event_stream(headers: &Headers) -> bool {
    headers.media_type_is("text/event-stream")
}

/// Body length of a request.
pub fn request_body(headers: &Headers) -> BodyDecision {
    decide(None, headers)
}

/// Body length of a response with `status`, answering a request whose method is `request` (None when
/// the response could not be paired).
pub fn response_body(status: u16, request: Option<ReqMethod>, headers: &Headers) -> BodyDecision {
    decide(Some((status, request)), headers)
}

/// RFC 9112 §6.3 "Message Body Length", applied in the order the RFC lists its rules:
///
/// 1. Any response to a HEAD request and any response with a 1xx, 204 or 304 status code is always
///    terminated by the first empty line after the header fields: no body, whatever the headers say.
/// 2. Any 2xx response to a CONNECT request: the connection becomes a tunnel right after the head;
///    Content-Length and Transfer-Encoding are ignored.
/// 3. Both Transfer-Encoding and Content-Length: Transfer-Encoding overrides; "ought to be handled as
///    an error" (request smuggling / response splitting) — we report it and go on with rule 4.
/// 4. Transfer-Encoding with `chunked` last: chunked. With `chunked` not last: a response is read until
///    the server closes; a request's length "cannot be determined reliably" (the server must answer
///    400 and close) — we report it and resynchronise.
/// 5. No Transfer-Encoding and an invalid Content-Length (or a list of differing values): framing is
///    invalid. A request is unrecoverable (400 and close); a user agent must discard the response and
///    close — so whatever follows until that close belongs to it: we read a response until close.
/// 6. A valid Content-Length: that many bytes.
/// 7. A request with none of the above: no body.
/// 8. Otherwise (a response): the body runs until the server closes the connection.
fn decide(response: Option<(u16, Option<ReqMethod>)>, headers: &Headers) -> BodyDecision {
    if let Some((status, method)) = response {
        // Rule 1.
        if method == Some(ReqMethod::Head) || (100..200).contains(&status) || status == 204 || status == 304 {
            return BodyDecision::new(BodyKind::None);
        }
        // Rule 2.
        if method == Some(ReqMethod::Connect) && (200..300).contains(&status) {
            return BodyDecision::new(BodyKind::Tunnel);
        }
    }
    let is_request = response.is_none();
    let te = transfer_encoding(headers);
    let cl = content_length(headers);
    // Rule 3.
    let base = if !matches!(te, Te::Absent) && !matches!(cl, Cl::Absent) {
        BodyDecision::new(BodyKind::None).with(HttpAnomaly::ContentLengthWithTransferEncoding)
    } else {
        BodyDecision::new(BodyKind::None)
    };
    // Rule 4.
    match te {
        Te::ChunkedLast => return BodyDecision { kind: BodyKind::Chunked, ..base },
        Te::Other if is_request => {
            return BodyDecision { kind: BodyKind::Unreadable, ..base }.with(HttpAnomaly::BadTransferEncoding)
        }
        Te::Other => return BodyDecision { kind: BodyKind::CloseDelimited, ..base },
        Te::Absent => {}
    }
    match cl {
        // Rule 5.
        Cl::Invalid if is_request => {
            BodyDecision { kind: BodyKind::Unreadable, ..base }.with(HttpAnomaly::BadContentLength)
        }
        Cl::Invalid => BodyDecision { kind: BodyKind::CloseDelimited, ..base }.with(HttpAnomaly::BadContentLength),
        // Rule 6.
        Cl::Valid(0) => BodyDecision { kind: BodyKind::None, ..base },
        Cl::Valid(n) => BodyDecision { kind: BodyKind::Length(n), ..base },
        // Rule 7.
        Cl::Absent if is_request => BodyDecision { kind: BodyKind::None, ..base },
        // Rule 8.
        Cl::Absent => BodyDecision { kind: BodyKind::CloseDelimited, ..base },
    }
}

/// Cuts a body out of the stream according to its [`BodyKind`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BodyDecoder {
    Length {
        remaining: u64,
    },
    Chunked(ChunkedDecoder),
    /// Close-delimited: everything until the end of the direction.
    Eof,
}

/// Result of one [`BodyDecoder::decode`] call; `consumed` input bytes accompany it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyStatus<'a> {
    /// Body bytes, borrowed from the input. Call again with the rest (also with an empty rest: the
    /// body may be complete right at the end of the input).
    Data(&'a [u8]),
    /// The input is used up; the body goes on.
    Partial,
    /// The body is complete; the bytes after `consumed` belong to the next message.
    Complete,
    /// Broken chunked framing at offset `consumed`.
    Invalid,
}

impl BodyDecoder {
    pub fn decode<'a>(&mut self, input: &'a [u8]) -> (usize, BodyStatus<'a>) {
        match self {
            BodyDecoder::Length { remaining } => {
                if *remaining == 0 {
                    return (0, BodyStatus::Complete);
                }
                if input.is_empty() {
                    return (0, BodyStatus::Partial);
                }
                let take = usize::try_from(*remaining).map_or(input.len(), |r| r.min(input.len()));
                let (data, _) = input.split_at_checked(take).unwrap_or((input, &[]));
                *remaining = remaining.saturating_sub(data.len() as u64);
                (data.len(), BodyStatus::Data(data))
            }
            BodyDecoder::Eof => {
                if input.is_empty() {
                    (0, BodyStatus::Partial)
                } else {
                    (input.len(), BodyStatus::Data(input))
                }
            }
            BodyDecoder::Chunked(dec) => {
                let (n, st) = dec.decode(input);
                let st = match st {
                    ChunkedStatus::Data(d) => BodyStatus::Data(d),
                    ChunkedStatus::Partial => BodyStatus::Partial,
                    ChunkedStatus::Complete => BodyStatus::Complete,
                    ChunkedStatus::Invalid(_) => BodyStatus::Invalid,
                };
                (n, st)
            }
        }
    }

    /// Zeek's gap policy: a gap wholly inside body bytes whose count is known (Content-Length, or the
    /// data of the current chunk) is skipped and the body goes on (`true`). Anything else (`false`)
    /// makes the rest of the message unreadable.
    pub fn skip_gap(&mut self, len: u64) -> bool {
        match self {
            BodyDecoder::Length { remaining } if len <= *remaining => {
                *remaining = remaining.saturating_sub(len);
                true
            }
            BodyDecoder::Chunked(dec) => dec.skip_gap(len),
            _ => false,
        }
    }

    /// A Content-Length body with nothing left.
    pub fn is_done(&self) -> bool {
        matches!(self, BodyDecoder::Length { remaining: 0 })
    }

    pub fn is_close_delimited(&self) -> bool {
        matches!(self, BodyDecoder::Eof)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn h(pairs: &[(&str, &str)]) -> Headers {
        Headers::from_pairs(pairs.iter().copied())
    }

    fn kind_req(pairs: &[(&str, &str)]) -> BodyKind {
        request_body(&h(pairs)).kind
    }

    fn kind_res(status: u16, m: Option<ReqMethod>, pairs: &[(&str, &str)]) -> BodyKind {
        response_body(status, m, &h(pairs)).kind
    }

    #[test]
    fn body_rule1_no_body_statuses_and_head() {
        let cl = [("content-length", "10")];
        for s in [100, 101, 199, 204, 304] {
            assert_eq!(kind_res(s, Some(ReqMethod::Other), &cl), BodyKind::None, "{s}");
        }
        assert_eq!(kind_res(200, Some(ReqMethod::Head), &[("transfer-encoding", "chunked")]), BodyKind::None);
        assert_eq!(kind_res(200, None, &cl), BodyKind::Length(10));
    }

    #[test]
    fn body_rule2_connect_tunnel() {
        assert_eq!(kind_res(200, Some(ReqMethod::Connect), &[("content-length", "5")]), BodyKind::Tunnel);
        assert_eq!(kind_res(407, Some(ReqMethod::Connect), &[("content-length", "5")]), BodyKind::Length(5));
    }

    #[test]
    fn body_rule3_te_overrides_cl_with_anomaly() {
        let d = request_body(&h(&[("content-length", "5"), ("transfer-encoding", "chunked")]));
        assert_eq!(d.kind, BodyKind::Chunked);
        assert_eq!(d.anomalies, [Some(HttpAnomaly::ContentLengthWithTransferEncoding), None]);
    }

    #[test]
    fn body_rule4_chunked_must_be_last() {
        assert_eq!(kind_req(&[("transfer-encoding", "gzip, Chunked")]), BodyKind::Chunked);
        assert_eq!(kind_req(&[("transfer-encoding", "gzip"), ("transfer-encoding", "chunked")]), BodyKind::Chunked);
        let d = request_body(&h(&[("transfer-encoding", "chunked, gzip")]));
        assert_eq!(d.kind, BodyKind::Unreadable);
        assert_eq!(d.anomalies, [Some(HttpAnomaly::BadTransferEncoding), None]);
        assert_eq!(kind_res(200, None, &[("transfer-encoding", "chunked, gzip")]), BodyKind::CloseDelimited);
        assert_eq!(kind_res(200, None, &[("transfer-encoding", "")]), BodyKind::CloseDelimited);
    }

    #[test]
    fn body_rule5_invalid_content_length() {
        for bad in ["abc", "-1", "+5", "5 5", "1, 2", "", "99999999999999999999999"] {
            let d = request_body(&h(&[("content-length", bad)]));
            assert_eq!(d.kind, BodyKind::Unreadable, "{bad:?}");
            assert_eq!(d.anomalies[0], Some(HttpAnomaly::BadContentLength));
            let d = response_body(200, None, &h(&[("content-length", bad)]));
            assert_eq!(d.kind, BodyKind::CloseDelimited, "{bad:?}");
            assert_eq!(d.anomalies[0], Some(HttpAnomaly::BadContentLength));
        }
        // Two lines that disagree.
        assert_eq!(kind_req(&[("content-length", "5"), ("content-length", "6")]), BodyKind::Unreadable);
    }

    #[test]
    fn body_rule5_repeated_equal_values_are_accepted() {
        assert_eq!(kind_req(&[("content-length", "5, 5")]), BodyKind::Length(5));
        assert_eq!(kind_req(&[("content-length", "5"), ("content-length", "5,")]), BodyKind::Length(5));
    }

    #[test]
    fn body_rules6_to_8() {
        assert_eq!(kind_req(&[("content-length", "42")]), BodyKind::Length(42));
        assert_eq!(kind_req(&[("content-length", "0")]), BodyKind::None);
        assert_eq!(kind_req(&[]), BodyKind::None);
        assert_eq!(kind_res(200, Some(ReqMethod::Other), &[]), BodyKind::CloseDelimited);
    }

    #[test]
    fn body_event_stream_detection() {
        assert!(is_event_stream(&h(&[("content-type", "Text/Event-Stream; charset=utf-8")])));
        assert!(!is_event_stream(&h(&[("content-type", "application/json")])));
        assert!(!is_event_stream(&h(&[])));
    }

    #[test]
    fn body_length_decoder_and_gap() {
        let mut d = BodyDecoder::Length { remaining: 5 };
        assert_eq!(d.decode(b"abc"), (3, BodyStatus::Data(b"abc")));
        assert!(!d.skip_gap(3));
        assert!(d.skip_gap(1));
        assert_eq!(d.decode(b"zNEXT"), (1, BodyStatus::Data(b"z")));
        assert_eq!(d.decode(b"NEXT"), (0, BodyStatus::Complete));
        assert!(d.is_done());
    }

    #[test]
    fn body_eof_decoder_takes_everything() {
        let mut d = BodyDecoder::Eof;
        assert_eq!(d.decode(b"abc"), (3, BodyStatus::Data(b"abc")));
        assert_eq!(d.decode(b""), (0, BodyStatus::Partial));
        assert!(!d.skip_gap(1));
        assert!(d.is_close_delimited());
    }
}
