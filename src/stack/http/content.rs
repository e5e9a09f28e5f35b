//! The body stage both HTTP versions share: what a message body goes through once its framing is undone
//! (HTTP/1.1 Content-Length or chunked, HTTP/2 DATA frames). RFC 9110 §8.4: content codings (`gzip`, `br`,
//! ...) are undone first, then a `text/event-stream` response goes through the SSE parser (WHATWG HTML
//! §9.2.6) and any other body goes on as slices, so a coded HTTP/2 reply reads exactly as a coded HTTP/1.1
//! one.
//!
//! Owns: [`Content`] (a body's decoder stack and SSE parser) and [`Sink`] (where events go, with the
//! carrying packet, the body counters and the connection's decoded-bytes budget). Must not: know about
//! framing (it gets bytes already unframed) or copy body bytes on the identity path.

use crate::http::coding::{BodyCodings, BodyDecoding, Budget, Undecoded};
use crate::http::sse::{SseItem, SseParser};
use crate::http::{bump, HttpAnomaly, HttpEvent, HttpStats, MessageEnd, TxId};
use crate::limits::Limits;
use crate::time::Timestamp;

/// Which message a body or end belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MsgTx {
    Req(TxId),
    Resp(Option<TxId>),
}

/// The caps of the body stage, copied out of [`Limits`].
#[derive(Debug, Clone, Copy)]
pub struct ContentCfg {
    pub max_sse_event_bytes: usize,
    pub max_decoded_bytes_per_body: u64,
    pub max_decoded_bytes_per_conn: u64,
}

impl ContentCfg {
    pub fn new(limits: &Limits) -> ContentCfg {
        ContentCfg {
            max_sse_event_bytes: limits.max_sse_event_bytes,
            max_decoded_bytes_per_body: limits.max_decoded_bytes_per_body,
            max_decoded_bytes_per_conn: limits.max_decoded_bytes_per_conn,
        }
    }
}

/// Where one call's events go, attributed to the packet that carried the bytes.
#[derive(Debug)]
pub struct Sink<'s, F> {
    pub out: &'s mut F,
    pub stats: &'s mut HttpStats,
    pub frame: u64,
    pub ts: Timestamp,
    /// Bytes the Content-Encoding decoders produced on this connection so far.
    pub decoded: &'s mut u64,
    /// HTTP/1.1 only: set when the connection stops speaking HTTP/1.1 after the head just parsed.
    pub switched: Option<Switched>,
}

/// What an HTTP/1.1 connection turned into, right after a response head.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Switched {
    /// `101 Switching Protocols` to `h2c`, with the upgrade request's tx (RFC 7540 §3.2).
    H2c(Option<TxId>),
    /// A 2xx to CONNECT (RFC 9110 §9.3.6): from here on both directions carry the tunnelled bytes.
    Tunnel,
}

impl<F: FnMut(HttpEvent<'_>)> Sink<'_, F> {
    pub fn emit(&mut self, ev: HttpEvent<'_>) {
        (self.out)(ev);
    }

    pub fn anomaly(&mut self, kind: HttpAnomaly) {
        self.stats.anomalies.add(kind);
        let (frame, ts) = (self.frame, self.ts);
        self.emit(HttpEvent::Anomaly { kind, frame, ts });
    }

    pub fn end(&mut self, tx: MsgTx, end: MessageEnd) {
        let (frame, ts) = (self.frame, self.ts);
        self.emit(match tx {
            MsgTx::Req(tx) => HttpEvent::RequestEnd { tx, end, frame, ts },
            MsgTx::Resp(tx) => HttpEvent::ResponseEnd { tx, end, frame, ts },
        });
    }

    fn body(&mut self, tx: MsgTx, bytes: &[u8]) {
        let (frame, ts) = (self.frame, self.ts);
        match tx {
            MsgTx::Req(tx) => {
                bump(&mut self.stats.request_body_bytes, bytes.len());
                self.emit(HttpEvent::RequestBody { tx, bytes, frame, ts });
            }
            MsgTx::Resp(tx) => {
                bump(&mut self.stats.response_body_bytes, bytes.len());
                self.emit(HttpEvent::ResponseBody { tx, bytes, frame, ts });
            }
        }
    }

    pub fn undecoded(&mut self, tx: MsgTx, coding: &str, reason: Undecoded) {
        let (frame, ts) = (self.frame, self.ts);
        let coding = coding.to_string();
        self.emit(match tx {
            MsgTx::Req(tx) => HttpEvent::RequestUndecoded { tx, coding, reason, frame, ts },
            MsgTx::Resp(tx) => HttpEvent::ResponseUndecoded { tx, coding, reason, frame, ts },
        });
    }

    pub fn body_gap(&mut self, tx: MsgTx, len: u64) {
        self.stats.body_gap_bytes = self.stats.body_gap_bytes.saturating_add(len);
        let (frame, ts) = (self.frame, self.ts);
        self.emit(match tx {
            MsgTx::Req(tx) => HttpEvent::RequestBodyGap { tx, len, frame, ts },
            MsgTx::Resp(tx) => HttpEvent::ResponseBodyGap { tx, len, frame, ts },
        });
    }
}

/// A coded body: its coding names (for the report) and its decoders.
#[derive(Debug)]
struct Coded {
    names: String,
    dec: BodyDecoding,
}

/// What one message body goes through after its framing: decoders, then the SSE parser or slices.
#[derive(Debug)]
pub struct Content {
    tx: MsgTx,
    /// Present for `text/event-stream` responses: decoded bytes go through it, not out as body slices.
    sse: Option<Box<SseParser>>,
    /// Present for a coded body: unframed bytes go through it before the SSE parser or the body slices.
    coding: Option<Box<Coded>>,
}

impl Content {
    /// The body stage of a message with a body, `codings` from its head (`BodyCodings::from_headers`). A
    /// coding refused from the head alone (unknown, too many) is reported at once.
    pub fn new<F: FnMut(HttpEvent<'_>)>(tx: MsgTx, codings: Option<BodyCodings>, sink: &mut Sink<'_, F>) -> Content {
        let coding = codings.map(|c| {
            let dec = c.decoder();
            if let Some(why) = dec.failed() {
                sink.undecoded(tx, &c.names, why);
            }
            // ALLOC: one decoder stack per coded body in progress (coding.rs bounds each).
            Box::new(Coded { names: c.names, dec })
        });
        Content { tx, sse: None, coding }
    }

    /// A `text/event-stream` response body: its (decoded) bytes go through the SSE parser.
    pub fn event_stream(mut self, cfg: ContentCfg) -> Content {
        if matches!(self.tx, MsgTx::Resp(_)) {
            // ALLOC: one SSE parser per event-stream response; its event buffers are bounded by
            // limits::max_sse_event_bytes. (Keeping the last one per connection for the next saved one
            // allocation per stream and cost 3 MiB of peak memory on the bench capture: not kept.)
            self.sse = Some(Box::new(SseParser::new(cfg.max_sse_event_bytes)));
        }
        self
    }

    pub fn tx(&self) -> MsgTx {
        self.tx
    }

    /// An event stream: a gap cannot be skipped inside it (events would be spliced).
    pub fn is_sse(&self) -> bool {
        self.sse.is_some()
    }

    /// Unframed body bytes: decoded if coded, then parsed as SSE or handed on as borrowed slices.
    pub fn feed<F: FnMut(HttpEvent<'_>)>(&mut self, cfg: ContentCfg, data: &[u8], sink: &mut Sink<'_, F>) {
        let tx = self.tx;
        let Some(c) = self.coding.as_mut() else {
            return deliver(&mut self.sse, tx, data, sink);
        };
        let mut used = *sink.decoded;
        let mut budget = Budget { per_body: cfg.max_decoded_bytes_per_body, per_conn: cfg.max_decoded_bytes_per_conn, conn_used: &mut used };
        let sse = &mut self.sse;
        let failed = c.dec.feed(data, &mut budget, &mut |chunk| deliver(sse, tx, chunk, sink));
        *sink.decoded = used;
        if let Some(why) = failed {
            sink.undecoded(tx, &c.names, why);
        }
    }

    /// Bytes of the body were lost: a coded stream cannot resynchronise past them.
    pub fn gap<F: FnMut(HttpEvent<'_>)>(&mut self, sink: &mut Sink<'_, F>) {
        if let Some(c) = self.coding.as_mut() {
            if let Some(why) = c.dec.gap() {
                sink.undecoded(self.tx, &c.names, why);
            }
        }
    }

    /// The body ended (`complete` when its framing says so): a half-received SSE event is dropped and
    /// counted (WHATWG HTML §9.2.6); a coded stream that did not reach its end is reported undecoded.
    pub fn finish<F: FnMut(HttpEvent<'_>)>(&mut self, complete: bool, sink: &mut Sink<'_, F>) {
        self.drop_partial(sink);
        if let Some(c) = self.coding.as_mut() {
            if let Some(why) = c.dec.finish(complete) {
                sink.undecoded(self.tx, &c.names, why);
            }
        }
    }

    /// Counts a half-received SSE event that is being dropped with its stream.
    pub fn drop_partial<F>(&self, sink: &mut Sink<'_, F>) {
        if self.sse.as_ref().is_some_and(|p| p.has_pending_event()) {
            sink.stats.sse_partial_dropped = sink.stats.sse_partial_dropped.saturating_add(1);
        }
    }
}

/// Hands decoded body bytes on: through the SSE parser for event streams, as borrowed slices otherwise.
fn deliver<F: FnMut(HttpEvent<'_>)>(sse: &mut Option<Box<SseParser>>, tx: MsgTx, data: &[u8], sink: &mut Sink<'_, F>) {
    let (Some(parser), MsgTx::Resp(rtx)) = (sse.as_mut(), tx) else {
        sink.body(tx, data);
        return;
    };
    bump(&mut sink.stats.response_body_bytes, data.len());
    let (frame, ts) = (sink.frame, sink.ts);
    sink.emit(HttpEvent::SseBody { tx: rtx, len: data.len(), frame, ts });
    let mut rest = data;
    loop {
        let (n, item) = parser.feed(rest);
        rest = rest.get(n..).unwrap_or_default();
        let (frame, ts) = (sink.frame, sink.ts);
        match item {
            None => break,
            Some(SseItem::Event(event)) => {
                sink.stats.sse_events = sink.stats.sse_events.saturating_add(1);
                sink.emit(HttpEvent::Sse { tx: rtx, event, frame, ts });
            }
            Some(SseItem::Comment) => {
                sink.stats.sse_comments = sink.stats.sse_comments.saturating_add(1);
                sink.emit(HttpEvent::SseComment { tx: rtx, frame, ts });
            }
            Some(SseItem::Blank) => sink.emit(HttpEvent::SseBlank { tx: rtx, frame, ts }),
            Some(SseItem::TooLarge) => sink.anomaly(HttpAnomaly::SseEventTooLarge),
        }
    }
}
