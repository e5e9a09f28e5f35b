//! The JSON-RPC stage of one connection: between HTTP and the session stage, it turns request bodies,
//! response bodies and SSE event data into decoded JSON-RPC messages, so the session stage receives
//! messages, never bytes. A body is fed to the scanner as its bytes arrive (`jsonrpc::Push`): the slices
//! HTTP hands up, borrowed from the packet on the in-order path, are read where they lie and never
//! gathered. An SSE event's data, which the SSE parser has already assembled, is read in one go
//! (`jsonrpc::parse`). HTTP events without a body pass through unchanged.
//!
//! Which bodies are read: every request body, up to `Limits::max_body_bytes` (MCP requests are JSON-RPC
//! POSTs; a body over the cap is not decoded); a final response's body when it is `application/json` (the
//! same cap), or when its status is 400 or more, its first [`ERROR_BODY_BYTES`] whatever its type.
//! Nothing else is kept. HTTP/2 carries several exchanges on a connection at once, so open bodies are
//! kept per transaction.
//!
//! A transaction is handed on request first: a server may answer before the request's body has all
//! arrived (a redirect or a refusal decided on the head; RFC 9110 §10.1.1 has a server respond "with a final
//! status code before reading the entire request content"), and the body that comes after is still that
//! request's. Such an early answer is held, in order, until its request ends, so the session stage judges
//! the request on all of its body before its answer. The hold is bounded
//! ([`MAX_HELD`], [`MAX_HELD_BYTES`], [`MAX_HELD_ANSWERS`]): past it, or when the connection closes, the
//! answer goes on and the request is judged on what it had sent by then.

use super::exchange::{Body, BodyText, Exchange, ERROR_BODY_BYTES};
use crate::http::{lossy, HttpEvent, TxId};
use crate::jsonrpc::{self, ParseProblem, Payload, Push};

/// Requests (and GETs) in flight kept per connection.
const MAX_OPEN: usize = 256;

/// Exchanges of one early answer held for its request's end: a redirect or a refusal is a head, a short
/// body and an end; an answer that goes on streaming while its request does is let through.
const MAX_HELD: usize = 32;

/// SSE event data held for one early answer, at most (each event may be up to `max_sse_event_bytes`).
const MAX_HELD_BYTES: usize = 64 << 10;

/// Early answers held at once on a connection: HTTP/1.1 has at most one (the next request cannot begin
/// before this one's body ends); HTTP/2 streams may each have one. Beyond, an answer is let through.
const MAX_HELD_ANSWERS: usize = 8;

/// An early answer held for its request's end.
#[derive(Debug)]
struct Held {
    tx: TxId,
    // ALLOC: owned copies of the answer's few exchanges, bounded by MAX_HELD and MAX_HELD_BYTES
    queue: Vec<Exchange<'static>>,
    /// SSE event data in `queue`.
    bytes: usize,
}

/// One body being read: fed to the JSON-RPC scanner as its bytes arrive (`jsonrpc::Push`), never gathered
/// for it; only the text of an error or of a GET's answer is kept, for its description.
#[derive(Debug)]
struct Gather {
    rpc: Push,
    /// Body bytes seen (at most `keep` counted once `truncate` cut it).
    seen: usize,
    /// Bytes read at most.
    keep: usize,
    /// Past `keep`: a JSON body is then not decoded; an error body is decoded from its first `keep` bytes.
    truncate: bool,
    over: bool,
    // ALLOC: the body as text, only for errors and answers to GETs (BodyText), bounded by `keep`
    text: Option<Vec<u8>>,
}

impl Gather {
    fn new(keep: usize, truncate: bool) -> Gather {
        Gather { rpc: Push::new(), seen: 0, keep, truncate, over: false, text: None }
    }

    fn add(&mut self, bytes: &[u8]) {
        if self.over {
            return;
        }
        let room = self.keep.saturating_sub(self.seen);
        let take = if bytes.len() <= room {
            bytes
        } else if self.truncate {
            bytes.get(..room).unwrap_or(bytes)
        } else {
            self.over = true;
            if let Some(t) = self.text.as_mut() {
                *t = Vec::new();
            }
            return;
        };
        self.seen += take.len();
        // A payload already known not to be JSON-RPC needs none of its remaining bytes.
        if !self.rpc.failed() {
            self.rpc.feed(take);
        }
        if let Some(t) = self.text.as_mut() {
            t.extend_from_slice(take);
        }
    }

    /// Bytes came (kept or not).
    fn had_bytes(&self) -> bool {
        self.over || self.seen > 0
    }

    fn decode(self) -> Body {
        if self.over {
            return Body::OverCap;
        }
        if self.seen == 0 {
            return Body::Empty;
        }
        match self.rpc.finish() {
            Ok(p) => Body::Messages(p.messages),
            Err(_) => Body::Undecodable,
        }
    }

    fn response(mut self, tx: Option<TxId>) -> Exchange<'static> {
        let text = self.text.take().map(|t| BodyText::of(&t));
        Exchange::ResponseBody { tx, body: self.decode(), text }
    }
}

/// An SSE event's data decoded as JSON-RPC, as if from its text (WHATWG HTML §9.2.6 decodes the stream as
/// UTF-8, U+FFFD for what is not valid), without reading every byte to make that text first: `None` for
/// data that is only whitespace. The bytes are read as they are; only when that fails and they are not
/// valid UTF-8 is the text made and read instead. The answer is the text's either way: the structure of
/// JSON is ASCII, which the replacement never touches, so the bytes and the text read alike up to the
/// strings; a string the scanner keeps is checked as UTF-8, so reading the bytes succeeds only where the
/// strings kept are valid, and then the same; a string it skips, invalid or replaced, decides nothing.
fn sse_payload(data: &[u8]) -> Option<Result<Payload, ParseProblem>> {
    let first = *data.trim_ascii().first()?;
    // An ASCII graphic byte is never whitespace; anything else may be what `str::trim` counts as whitespace
    // beyond `trim_ascii`'s (U+000B, U+0085, U+00A0, ...).
    if !first.is_ascii_graphic() && lossy(data).trim().is_empty() {
        return None;
    }
    match jsonrpc::parse(data) {
        Err(_) if std::str::from_utf8(data).is_err() => Some(jsonrpc::parse(lossy(data).as_bytes())),
        read => Some(read),
    }
}

/// The JSON-RPC stage of one connection.
#[derive(Debug)]
pub struct RpcStage {
    max_body: usize,
    /// Requests not ended yet, by transaction (more than one only on HTTP/2 or pipelined): their body
    /// so far, or `None` once decoded (an answer came first: what follows is not read).
    requests: Vec<(TxId, Option<Gather>)>,
    /// Response bodies kept, by transaction (`None`: a response the capture saw no request for).
    responses: Vec<(Option<TxId>, Gather)>,
    /// GET requests not answered yet: their answer's text is described whatever its status.
    gets: Vec<TxId>,
    /// Answers that began before their request ended, held for its end, in the order they began (at most
    /// MAX_HELD_ANSWERS; empty but for such answers).
    held: Vec<Held>,
}

/// The transaction of an event of the response side.
fn response_tx(ev: &HttpEvent<'_>) -> Option<TxId> {
    match *ev {
        HttpEvent::Response { tx, .. }
        | HttpEvent::ResponseBody { tx, .. }
        | HttpEvent::Sse { tx, .. }
        | HttpEvent::SseBody { tx, .. }
        | HttpEvent::SseComment { tx, .. }
        | HttpEvent::SseBlank { tx, .. }
        | HttpEvent::ResponseEnd { tx, .. }
        | HttpEvent::ResponseBodyGap { tx, .. }
        | HttpEvent::ResponseUndecoded { tx, .. } => tx,
        HttpEvent::ResponseLost { tx, .. } => Some(tx),
        _ => None,
    }
}

impl RpcStage {
    pub fn new(max_body: usize) -> RpcStage {
        RpcStage { max_body, requests: Vec::new(), responses: Vec::new(), gets: Vec::new(), held: Vec::new() }
    }

    /// A slice of body, taken by reference: nearly every event is one, and nothing of it goes on to the
    /// session stage until the body ends. Handing such an event to [`RpcStage::http`] by value copied all
    /// of it (an `HttpEvent` is 248 bytes, for a heads' sake) at each event. False for any other event.
    pub fn body(&mut self, ev: &HttpEvent<'_>) -> bool {
        match *ev {
            HttpEvent::RequestBody { tx, bytes, .. } => {
                if let Some((_, Some(g))) = self.requests.iter_mut().find(|(t, _)| *t == tx) {
                    g.add(bytes);
                }
            }
            HttpEvent::ResponseBody { tx, bytes, .. } => {
                if let Some((_, g)) = self.responses.iter_mut().find(|(t, _)| *t == tx) {
                    g.add(bytes);
                }
            }
            // The body's length only, for transaction logs; its events follow.
            HttpEvent::SseBody { .. } => {}
            _ => return false,
        }
        true
    }

    /// One HTTP event of the connection; what the session stage needs goes to `out`.
    #[inline]
    pub fn http<F: FnMut(Exchange<'_>)>(&mut self, ev: HttpEvent<'_>, out: &mut F) {
        // The stack asks `body` itself before it moves an event here; other callers (the session stage's
        // tests) hand every event here. Splitting this into `body` and the rest, with `http` calling both,
        // measured 0.3 % more instructions (LLVM inlined the pieces differently).
        if self.body(&ev) {
            return;
        }
        // Nearly always nothing is held and the event is no answer's head: one test each.
        let early = match &ev {
            HttpEvent::Response { tx: Some(t), head, .. } => {
                head.status >= 200
                    && self.held.len() < MAX_HELD_ANSWERS
                    && self.requests.iter().any(|(r, g)| r == t && g.is_some())
                    && !self.held.iter().any(|h| h.tx == *t)
            }
            _ => false,
        };
        if early || !self.held.is_empty() {
            self.hold(ev, early, out);
        } else {
            self.step(ev, out);
        }
    }

    /// An event while an answer is held, or the early answer's head that starts a hold.
    #[cold]
    #[inline(never)]
    fn hold<F: FnMut(Exchange<'_>)>(&mut self, ev: HttpEvent<'_>, early: bool, out: &mut F) {
        let Some(t) = response_tx(&ev).filter(|t| early || self.held.iter().any(|h| h.tx == *t)) else {
            return self.step(ev, out);
        };
        if early {
            // ALLOC: an answer before its request's end, rare (see the module's comment)
            self.held.push(Held { tx: t, queue: Vec::new(), bytes: 0 });
        }
        let mut got = Vec::new();
        self.step(ev, &mut |x| got.extend(x.into_owned()));
        let full = self.held.iter_mut().find(|h| h.tx == t).is_some_and(|h| {
            h.bytes += got.iter().map(|x| if let Exchange::Sse { event, .. } = x { event.data.len() } else { 0 }).sum::<usize>();
            h.queue.append(&mut got);
            h.queue.len() >= MAX_HELD || h.bytes > MAX_HELD_BYTES
        });
        if full {
            // An answer that streams on while its request does: the request is judged on what it sent.
            self.request_done(t, out);
            self.release(t, out);
        }
    }

    /// An event of the connection, past the hold.
    #[inline]
    fn step<F: FnMut(Exchange<'_>)>(&mut self, ev: HttpEvent<'_>, out: &mut F) {
        match ev {
            HttpEvent::Request { tx, ref head, .. } => {
                if self.requests.len() >= MAX_OPEN {
                    // Requests that never end (a client that stops mid-body, pipelined without end) are
                    // forgotten oldest first, as the session stage forgets unanswered ones.
                    let (old, _) = self.requests.remove(0);
                    self.release(old, out);
                }
                // ALLOC: one entry per request in flight, at most MAX_OPEN
                self.requests.push((tx, Some(Gather::new(self.max_body, false))));
                if head.method == "GET" {
                    if self.gets.len() >= MAX_OPEN {
                        self.gets.remove(0);
                    }
                    // ALLOC: one entry per GET in flight, at most MAX_OPEN
                    self.gets.push(tx);
                }
                out(Exchange::Http(ev));
            }
            HttpEvent::RequestEnd { tx, .. } => {
                self.request_done(tx, out);
                self.requests.retain(|(t, _)| *t != tx);
                out(Exchange::Http(ev));
                self.release(tx, out);
            }
            HttpEvent::Response { tx, ref head, .. } => {
                // 1xx responses are interim (RFC 9110 §15.2): the final one follows on the same transaction.
                if head.status >= 200 {
                    // An answer let through before its request ended (the hold was full): the request is
                    // judged on what it had sent. A held answer waits for all of it.
                    if let Some(t) = tx.filter(|t| !self.held.iter().any(|h| h.tx == *t)) {
                        self.request_done(t, out);
                    }
                    let get = tx.and_then(|t| self.gets.iter().position(|g| *g == t)).map(|i| self.gets.swap_remove(i)).is_some();
                    let json = head.headers.media_type_is("application/json");
                    let mut keep = if json {
                        Some(Gather::new(self.max_body, false))
                    } else if head.status >= 400 {
                        Some(Gather::new(ERROR_BODY_BYTES, true))
                    } else if get {
                        // Described from its first bytes, as an error is: a GET's answer that is no stream
                        // (an HTML page, a plain text) is the incident's evidence, and a body is no `empty`
                        // because it was not read. SSE comes as events, never through here.
                        Some(Gather::new(ERROR_BODY_BYTES, true))
                    } else {
                        None
                    };
                    if let Some(g) = keep.as_mut().filter(|_| get || head.status >= 400) {
                        g.text = Some(Vec::new());
                    }
                    self.responses.retain(|(t, _)| *t != tx);
                    if let Some(g) = keep {
                        // ALLOC: one entry per response whose body is read, in flight
                        self.responses.push((tx, g));
                    }
                }
                out(Exchange::Http(ev));
            }
            HttpEvent::ResponseEnd { tx, .. } => {
                self.response_done(tx, out);
                out(Exchange::Http(ev));
            }
            HttpEvent::Sse { tx, event, frame, ts } => {
                let payload = if event.has_data { sse_payload(&event.data) } else { None };
                out(Exchange::Sse { tx, event, payload, frame, ts });
            }
            _ => out(Exchange::Http(ev)),
        }
    }

    /// The connection closes: bodies that never ended are decoded as they stand, before the answers
    /// held for them.
    pub fn close<F: FnMut(Exchange<'_>)>(&mut self, out: &mut F) {
        for (tx, g) in std::mem::take(&mut self.requests) {
            if let Some(g) = g.filter(Gather::had_bytes) {
                out(Exchange::RequestBody { tx, body: g.decode() });
            }
        }
        for h in std::mem::take(&mut self.held) {
            h.queue.into_iter().for_each(&mut *out);
        }
        for (tx, g) in std::mem::take(&mut self.responses) {
            out(g.response(tx));
        }
    }

    /// The answer held for `tx`, if any, goes on.
    fn release<F: FnMut(Exchange<'_>)>(&mut self, tx: TxId, out: &mut F) {
        if let Some(i) = self.held.iter().position(|h| h.tx == tx) {
            self.held.remove(i).queue.into_iter().for_each(&mut *out);
        }
    }

    fn request_done<F: FnMut(Exchange<'_>)>(&mut self, tx: TxId, out: &mut F) {
        if let Some(g) = self.requests.iter_mut().find(|(t, _)| *t == tx).and_then(|(_, g)| g.take()).filter(Gather::had_bytes) {
            out(Exchange::RequestBody { tx, body: g.decode() });
        }
    }

    fn response_done<F: FnMut(Exchange<'_>)>(&mut self, tx: Option<TxId>, out: &mut F) {
        if let Some(i) = self.responses.iter().position(|(t, _)| *t == tx) {
            let (_, g) = self.responses.swap_remove(i);
            out(g.response(tx));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, clippy::panic)]
    use super::*;
    use crate::http::head::{parse_request, parse_response, HeadParse};
    use crate::http::{MessageEnd, SseEvent};
    use crate::jsonrpc::Message;
    use crate::time::Timestamp;

    const T: Timestamp = Timestamp::ZERO;

    /// What came out, owned: the kind of each exchange, with the decoded bodies.
    #[derive(Debug, PartialEq)]
    enum Out {
        Http(&'static str),
        Req(TxId, Body),
        Resp(Option<TxId>, Body, Option<BodyText>),
        Sse(Option<Result<usize, ()>>),
    }

    fn run(stage: &mut RpcStage, ev: HttpEvent<'_>, outs: &mut Vec<Out>) {
        stage.http(ev, &mut |x| outs.push(own(x)));
    }

    fn own(x: Exchange<'_>) -> Out {
        match x {
            Exchange::Http(h) => Out::Http(match h {
                HttpEvent::Request { .. } => "request",
                HttpEvent::RequestEnd { .. } => "request-end",
                HttpEvent::Response { .. } => "response",
                HttpEvent::ResponseEnd { .. } => "response-end",
                HttpEvent::RequestBody { .. } | HttpEvent::ResponseBody { .. } | HttpEvent::Sse { .. } | HttpEvent::SseBody { .. } => {
                    panic!("a body reached the session stage: {h:?}")
                }
                _ => "other",
            }),
            Exchange::RequestBody { tx, body } => Out::Req(tx, body),
            Exchange::ResponseBody { tx, body, text } => Out::Resp(tx, body, text),
            Exchange::Sse { payload, .. } => Out::Sse(payload.map(|p| p.map(|p| p.messages.len()).map_err(|_| ()))),
            x => panic!("the JSON-RPC stage made {x:?}"),
        }
    }

    fn request(tx: TxId, method: &str) -> HttpEvent<'static> {
        let text = format!("{method} /mcp HTTP/1.1\r\nHost: x\r\n\r\n");
        let HeadParse::Complete { head, .. } = parse_request(text.as_bytes()) else { panic!() };
        HttpEvent::Request { tx, head, frame: 1, ts: T }
    }

    fn response(tx: TxId, status: u16, media: &str) -> HttpEvent<'static> {
        let text = format!("HTTP/1.1 {status} X\r\nContent-Type: {media}\r\n\r\n");
        let HeadParse::Complete { head, .. } = parse_response(text.as_bytes()) else { panic!() };
        HttpEvent::Response { tx: Some(tx), head, frame: 2, ts: T }
    }

    fn method_of(body: &Body) -> Option<&str> {
        match body {
            Body::Messages(m) => m.first().and_then(Message::method),
            _ => None,
        }
    }

    const CALL: &[u8] = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}"#;

    #[test]
    fn a_request_body_is_decoded_once_from_all_its_pieces_just_before_its_end() {
        let (mut s, mut outs) = (RpcStage::new(1 << 20), Vec::new());
        run(&mut s, request(1, "POST"), &mut outs);
        for piece in CALL.chunks(7) {
            run(&mut s, HttpEvent::RequestBody { tx: 1, bytes: piece, frame: 1, ts: T }, &mut outs);
        }
        run(&mut s, HttpEvent::RequestEnd { tx: 1, end: MessageEnd::Complete, frame: 1, ts: T }, &mut outs);
        assert_eq!(outs.len(), 3, "{outs:?}");
        assert_eq!(outs[0], Out::Http("request"));
        let Out::Req(1, body) = &outs[1] else { panic!("{outs:?}") };
        assert_eq!(method_of(body), Some("tools/call"));
        assert_eq!(outs[2], Out::Http("request-end"));
    }

    fn end_request(tx: TxId) -> HttpEvent<'static> {
        HttpEvent::RequestEnd { tx, end: MessageEnd::Complete, frame: 1, ts: T }
    }

    fn end_response(tx: TxId) -> HttpEvent<'static> {
        HttpEvent::ResponseEnd { tx: Some(tx), end: MessageEnd::Complete, frame: 3, ts: T }
    }

    #[test]
    fn an_answer_before_the_request_ended_waits_for_all_of_the_request() {
        // FastMCP 1.x redirects `/mcp` before the POST body has arrived (samples/ecosystem/oldsdks.md).
        let (mut s, mut outs) = (RpcStage::new(1 << 20), Vec::new());
        run(&mut s, request(1, "POST"), &mut outs);
        run(&mut s, HttpEvent::RequestBody { tx: 1, bytes: &CALL[..20], frame: 1, ts: T }, &mut outs);
        run(&mut s, response(1, 307, "text/plain"), &mut outs);
        run(&mut s, end_response(1), &mut outs);
        assert_eq!(outs, [Out::Http("request")]);
        run(&mut s, HttpEvent::RequestBody { tx: 1, bytes: &CALL[20..], frame: 1, ts: T }, &mut outs);
        run(&mut s, end_request(1), &mut outs);
        assert_eq!(outs.len(), 5, "{outs:?}");
        assert!(matches!(&outs[1], Out::Req(1, b) if method_of(b) == Some("tools/call")), "{outs:?}");
        assert_eq!(&outs[2..], [Out::Http("request-end"), Out::Http("response"), Out::Http("response-end")]);
        // Other transactions are not held up (HTTP/2), and an interim answer is no answer.
        outs.clear();
        run(&mut s, request(2, "POST"), &mut outs);
        run(&mut s, request(3, "POST"), &mut outs);
        run(&mut s, response(2, 100, "text/plain"), &mut outs);
        run(&mut s, response(2, 200, "application/json"), &mut outs);
        run(&mut s, HttpEvent::ResponseBody { tx: Some(2), bytes: CALL, frame: 3, ts: T }, &mut outs);
        run(&mut s, end_response(2), &mut outs);
        run(&mut s, end_request(3), &mut outs);
        assert_eq!(outs, [Out::Http("request"), Out::Http("request"), Out::Http("response"), Out::Http("request-end")]);
        run(&mut s, end_request(2), &mut outs);
        assert_eq!(outs[4], Out::Http("request-end"));
        assert_eq!(outs[5], Out::Http("response"));
        assert!(matches!(&outs[6], Out::Resp(Some(2), b, None) if method_of(b) == Some("tools/call")), "{outs:?}");
        assert_eq!(outs[7], Out::Http("response-end"));
        // A request without body bytes has nothing decoded.
        outs.clear();
        run(&mut s, request(4, "GET"), &mut outs);
        run(&mut s, end_request(4), &mut outs);
        assert_eq!(outs, [Out::Http("request"), Out::Http("request-end")]);
    }

    #[test]
    fn an_early_answer_is_held_within_bounds_and_let_go_at_close() {
        // An answer that streams on while its request does: past the hold, the request is judged on what it
        // had sent, and what it sends after is not read.
        let (mut s, mut outs) = (RpcStage::new(1 << 20), Vec::new());
        run(&mut s, request(1, "POST"), &mut outs);
        run(&mut s, HttpEvent::RequestBody { tx: 1, bytes: &CALL[..20], frame: 1, ts: T }, &mut outs);
        run(&mut s, response(1, 200, "text/event-stream"), &mut outs);
        let event = || HttpEvent::Sse { tx: Some(1), event: SseEvent { data: b"{}".as_slice().into(), has_data: true, ..SseEvent::default() }, frame: 4, ts: T };
        for _ in 1..MAX_HELD - 1 {
            run(&mut s, event(), &mut outs);
        }
        assert_eq!(outs.len(), 1, "{outs:?}");
        run(&mut s, event(), &mut outs);
        assert_eq!(outs.len(), 1 + 1 + MAX_HELD, "{outs:?}");
        assert_eq!(outs[1], Out::Req(1, Body::Undecodable));
        assert_eq!(outs[2], Out::Http("response"));
        run(&mut s, event(), &mut outs);
        run(&mut s, HttpEvent::RequestBody { tx: 1, bytes: &CALL[20..], frame: 1, ts: T }, &mut outs);
        run(&mut s, end_request(1), &mut outs);
        assert_eq!(outs.len(), 1 + 1 + MAX_HELD + 2, "{outs:?}");
        assert_eq!(outs.last(), Some(&Out::Http("request-end")));
        // SSE data held is bounded too.
        outs.clear();
        run(&mut s, request(5, "POST"), &mut outs);
        run(&mut s, response(5, 200, "text/event-stream"), &mut outs);
        let big = vec![b'x'; MAX_HELD_BYTES / 2 + 1];
        let event = || HttpEvent::Sse { tx: Some(5), event: SseEvent { data: big.as_slice().into(), has_data: true, ..SseEvent::default() }, frame: 4, ts: T };
        run(&mut s, event(), &mut outs);
        assert_eq!(outs.len(), 1, "{outs:?}");
        run(&mut s, event(), &mut outs);
        assert_eq!(outs[1..], [Out::Http("response"), Out::Sse(Some(Err(()))), Out::Sse(Some(Err(())))]);
        // So are the answers held at once (HTTP/2 streams): one more is let through, its request judged on
        // what it had sent.
        outs.clear();
        for tx in 10..10 + MAX_HELD_ANSWERS as TxId {
            run(&mut s, request(tx, "POST"), &mut outs);
            run(&mut s, response(tx, 307, "text/plain"), &mut outs);
        }
        assert_eq!(outs.len(), MAX_HELD_ANSWERS, "{outs:?}");
        run(&mut s, request(99, "POST"), &mut outs);
        run(&mut s, HttpEvent::RequestBody { tx: 99, bytes: CALL, frame: 1, ts: T }, &mut outs);
        run(&mut s, response(99, 307, "text/plain"), &mut outs);
        assert!(matches!(&outs[MAX_HELD_ANSWERS + 1], Out::Req(99, b) if method_of(b) == Some("tools/call")), "{outs:?}");
        assert_eq!(outs[MAX_HELD_ANSWERS + 2..], [Out::Http("response")]);
        for tx in 10..10 + MAX_HELD_ANSWERS as TxId {
            run(&mut s, end_request(tx), &mut outs);
        }
        assert_eq!(outs.len(), MAX_HELD_ANSWERS + 3 + 2 * MAX_HELD_ANSWERS, "{outs:?}");
        // The connection closes with an early answer held: the request as it stands first, then the answer.
        outs.clear();
        run(&mut s, request(2, "POST"), &mut outs);
        run(&mut s, HttpEvent::RequestBody { tx: 2, bytes: CALL, frame: 1, ts: T }, &mut outs);
        run(&mut s, response(2, 413, "text/plain"), &mut outs);
        run(&mut s, HttpEvent::ResponseBody { tx: Some(2), bytes: b"Payload Too Large", frame: 3, ts: T }, &mut outs);
        run(&mut s, end_response(2), &mut outs);
        assert_eq!(outs.len(), 1, "{outs:?}");
        s.close(&mut |x| outs.push(own(x)));
        assert_eq!(outs.len(), 5, "{outs:?}");
        assert!(matches!(&outs[1], Out::Req(2, b) if method_of(b) == Some("tools/call")), "{outs:?}");
        assert_eq!(outs[2], Out::Http("response"));
        assert!(matches!(&outs[3], Out::Resp(Some(2), Body::Undecodable, Some(t)) if t.first_line == "Payload Too Large"), "{outs:?}");
        assert_eq!(outs[4], Out::Http("response-end"));
    }

    #[test]
    fn json_bodies_over_the_cap_are_not_decoded_and_error_bodies_are_cut_not_dropped() {
        let (mut s, mut outs) = (RpcStage::new(10), Vec::new());
        run(&mut s, request(1, "POST"), &mut outs);
        run(&mut s, HttpEvent::RequestBody { tx: 1, bytes: CALL, frame: 1, ts: T }, &mut outs);
        run(&mut s, HttpEvent::RequestEnd { tx: 1, end: MessageEnd::Complete, frame: 1, ts: T }, &mut outs);
        assert_eq!(outs[1], Out::Req(1, Body::OverCap));

        let error = br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32001,"message":"Session not found"}}"#;
        for (status, media, body, want) in [
            // Over the cap (10 bytes) as JSON; an error of another type is read from its first 4 KiB.
            (200, "application/json", &error[..], Body::OverCap),
            (404, "text/plain", &error[..], Body::Messages(smallvec::smallvec![Message::Error { id: crate::jsonrpc::Id::Null, code: -32001, message: "Session not found".into() }])),
        ] {
            outs.clear();
            run(&mut s, request(2, "POST"), &mut outs);
            run(&mut s, end_request(2), &mut outs);
            run(&mut s, response(2, status, media), &mut outs);
            run(&mut s, HttpEvent::ResponseBody { tx: Some(2), bytes: body, frame: 3, ts: T }, &mut outs);
            run(&mut s, HttpEvent::ResponseEnd { tx: Some(2), end: MessageEnd::Complete, frame: 3, ts: T }, &mut outs);
            let Out::Resp(Some(2), got, _) = &outs[3] else { panic!("{outs:?}") };
            assert_eq!(got, &want, "{status} {media}");
        }

        outs.clear();
        let page = format!("\n  <html>{}", "x".repeat(2 * ERROR_BODY_BYTES));
        run(&mut s, request(3, "POST"), &mut outs);
        run(&mut s, end_request(3), &mut outs);
        run(&mut s, response(3, 502, "text/html"), &mut outs);
        run(&mut s, HttpEvent::ResponseBody { tx: Some(3), bytes: page.as_bytes(), frame: 3, ts: T }, &mut outs);
        run(&mut s, HttpEvent::ResponseEnd { tx: Some(3), end: MessageEnd::Complete, frame: 3, ts: T }, &mut outs);
        let Out::Resp(Some(3), Body::Undecodable, Some(text)) = &outs[3] else { panic!("{outs:?}") };
        assert!(text.markup && !text.blank);
        assert_eq!(text.first_line.chars().count(), crate::stack::exchange::FIRST_LINE_CHARS);
        assert!(text.first_line.starts_with("<html>x"));
    }

    #[test]
    fn only_json_error_and_get_answers_are_read_and_only_errors_and_gets_are_described() {
        let (mut s, mut outs) = (RpcStage::new(1 << 20), Vec::new());
        // A POST answered 200 in HTML: nothing for the session stage beyond the head and end.
        run(&mut s, request(1, "POST"), &mut outs);
        run(&mut s, end_request(1), &mut outs);
        run(&mut s, response(1, 200, "text/html"), &mut outs);
        run(&mut s, HttpEvent::ResponseBody { tx: Some(1), bytes: b"<p>hi</p>", frame: 3, ts: T }, &mut outs);
        run(&mut s, HttpEvent::ResponseEnd { tx: Some(1), end: MessageEnd::Complete, frame: 3, ts: T }, &mut outs);
        assert_eq!(outs, [Out::Http("request"), Out::Http("request-end"), Out::Http("response"), Out::Http("response-end")]);
        // A POST answered 200 in JSON: decoded, not described.
        outs.clear();
        run(&mut s, request(2, "POST"), &mut outs);
        run(&mut s, end_request(2), &mut outs);
        run(&mut s, response(2, 200, "application/json"), &mut outs);
        run(&mut s, HttpEvent::ResponseBody { tx: Some(2), bytes: CALL, frame: 3, ts: T }, &mut outs);
        run(&mut s, HttpEvent::ResponseEnd { tx: Some(2), end: MessageEnd::Complete, frame: 3, ts: T }, &mut outs);
        let Out::Resp(Some(2), body, None) = &outs[3] else { panic!("{outs:?}") };
        assert_eq!(method_of(body), Some("tools/call"));
        // A GET answered 200 in HTML: described from its first bytes (Gradio's landing page on its MCP URL,
        // samples/ecosystem/gradio-browser.pcap, was described as an empty body), not JSON-RPC.
        outs.clear();
        run(&mut s, request(3, "GET"), &mut outs);
        run(&mut s, end_request(3), &mut outs);
        run(&mut s, response(3, 200, "text/html"), &mut outs);
        run(&mut s, HttpEvent::ResponseBody { tx: Some(3), bytes: b"<p>hi</p>", frame: 3, ts: T }, &mut outs);
        run(&mut s, HttpEvent::ResponseEnd { tx: Some(3), end: MessageEnd::Complete, frame: 3, ts: T }, &mut outs);
        let Out::Resp(Some(3), Body::Undecodable, Some(text)) = &outs[3] else { panic!("{outs:?}") };
        assert!(!text.blank && text.markup, "{text:?}");
        assert_eq!(text.first_line, "<p>hi</p>");
    }

    #[test]
    fn sse_data_is_decoded_and_bodies_that_never_ended_are_decoded_at_close() {
        let (mut s, mut outs) = (RpcStage::new(1 << 20), Vec::new());
        for (data, has_data, want) in [(std::str::from_utf8(CALL).unwrap(), true, Some(Ok(1))), ("", true, None), (" \n", true, None), ("x", false, None), ("nope", true, Some(Err(())))] {
            let event = SseEvent { data: data.as_bytes().into(), has_data, ..SseEvent::default() };
            run(&mut s, HttpEvent::Sse { tx: Some(1), event, frame: 4, ts: T }, &mut outs);
            assert_eq!(outs.pop(), Some(Out::Sse(want)), "{data:?}");
        }
        run(&mut s, request(2, "POST"), &mut outs);
        run(&mut s, HttpEvent::RequestBody { tx: 2, bytes: CALL, frame: 1, ts: T }, &mut outs);
        run(&mut s, request(3, "POST"), &mut outs);
        run(&mut s, end_request(3), &mut outs);
        run(&mut s, response(3, 200, "application/json"), &mut outs);
        run(&mut s, HttpEvent::ResponseBody { tx: Some(3), bytes: CALL, frame: 3, ts: T }, &mut outs);
        outs.clear();
        s.close(&mut |x| outs.push(own(x)));
        assert_eq!(outs.len(), 2, "{outs:?}");
        assert!(matches!(&outs[0], Out::Req(2, b) if method_of(b) == Some("tools/call")));
        assert!(matches!(&outs[1], Out::Resp(Some(3), b, None) if method_of(b) == Some("tools/call")));
    }

    /// What SSE data decoded to when it was made text first (§9.2.6 decoding: U+FFFD for what is not
    /// valid UTF-8) and read only when the text was not blank.
    fn payload_of_text(data: &[u8]) -> Option<Result<Payload, ParseProblem>> {
        let text = lossy(data);
        (!text.trim().is_empty()).then(|| jsonrpc::parse(text.as_bytes()))
    }

    /// Pieces a message is built from: plain text, invalid UTF-8 (a lone continuation byte, a cut lead
    /// byte, 0xFF), valid non-ASCII, whitespace `trim` knows and `trim_ascii` does not (U+000B, U+00A0,
    /// U+0085), escapes and quotes.
    const PIECES: &[&[u8]] = &[b"a", b"tools/call", b"\x80", b"\xc3", b"\xff", b"\xc3\xa9", b"\x0b", b"\xc2\xa0", b"\xc2\x85", b" ", b"\\n", b"\\", b"\"", b"\\u00e9", b"\n"];

    proptest::proptest! {
        #[test]
        fn sse_data_decodes_as_its_text_would(
            parts in proptest::collection::vec((0..PIECES.len(), 0..PIECES.len(), 0..PIECES.len(), 0..PIECES.len()), 1..4),
            lead in 0..PIECES.len(), trail in 0..PIECES.len(), shape in 0u8..4,
        ) {
            // A JSON-RPC message whose method, param name, a skipped member's key and value are made of
            // the pieces, in one of a few shapes; around it, a piece each side (whitespace or not).
            let mut data = PIECES[lead].to_vec();
            for (m, n, k, v) in &parts {
                let (m, n, k, v) = (PIECES[*m], PIECES[*n], PIECES[*k], PIECES[*v]);
                let msg = [&br#"{"jsonrpc":"2.0","id":1,"method":""#[..], m, b"\",\"params\":{\"name\":\"", n, b"\",\"", k, b"\":\"", v, b"\"}}"].concat();
                match shape {
                    0 => data.extend_from_slice(&msg),
                    1 => data.extend([&b"["[..], &msg, b",", &msg, b"]"].concat()),
                    2 => data.extend([m, n].concat()),
                    _ => data.extend([k, &msg[..msg.len() / 2]].concat()),
                }
            }
            data.extend_from_slice(PIECES[trail]);
            proptest::prop_assert_eq!(sse_payload(&data), payload_of_text(&data), "{:?}", String::from_utf8_lossy(&data));
        }
    }

    #[test]
    fn sse_data_blank_only_by_unicode_whitespace_gives_no_payload() {
        for blank in [&b"\x0b"[..], b"\xc2\xa0 \n", b"\r\n\xe2\x80\xa8"] {
            assert_eq!(sse_payload(blank), None, "{blank:?}");
        }
        // A replaced byte is not whitespace: the text is not blank, and not JSON.
        assert!(matches!(sse_payload(b" \xff "), Some(Err(_))));
        // Invalid UTF-8 in a kept string: the bytes do not read, the text does (the method gets U+FFFD).
        let data = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\xffb\"}";
        let Some(Ok(p)) = sse_payload(data) else { panic!("{:?}", sse_payload(data)) };
        assert_eq!(p.messages.first().and_then(Message::method), Some("a\u{fffd}b"));
    }
}
