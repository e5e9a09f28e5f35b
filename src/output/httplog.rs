//! The HTTP transaction log (`--http-log FILE`): one tab-separated line per HTTP transaction mcptap
//! reassembled, like Zeek's `http.log`. It exists to prove the reassembly: the differential test
//! (`tests/tshark.rs`) compares it with what Wireshark dissects from the same capture. It owns only the
//! per-connection rows under construction; it never changes what the analyzer does.
//!
//! Columns (header line `#fields ...`; `-` for an unknown value):
//! `conn` (mcptap's connection number), `client`, `server`, `method`, `uri` (request target as sent),
//! `status`, `content_type` (media type of the response, lower-cased, no parameters), `req_body_len` and
//! `resp_body_len` (decoded body bytes: de-chunked, SSE bodies included), `frames` (request head frame
//! `;` response head frame), `end` (how the response ended: `complete`, `closed_by_fin`, `interrupted`,
//! `gap`, `malformed`, or `-` when no response end was seen), `coding` (the response's Content-Encoding and
//! transfer codings other than chunked, as written, or `-`; the body lengths are after decoding) and
//! `decoded` (`-` for a body without coding, `yes`, or why its codings could not be undone: `corrupt
//! stream`, `unknown coding`, ...; a request body's failure is written `request: REASON`) and `h2_stream` (the HTTP/2 stream id, `-` for
//! HTTP/1.x).
//!
//! A line is written when the response ends, or when the connection closes for a request that never got
//! one. Output order follows the analysis, so it is deterministic.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::net::SocketAddr;

use crate::http::{HttpEvent, MessageEnd, TxId};
use crate::reassembly::ConnId;

/// The header line.
pub const HEADER: &str = "#fields\tconn\tclient\tserver\tmethod\turi\tstatus\tcontent_type\treq_body_len\tresp_body_len\tframes\tend\tcoding\tdecoded\th2_stream";

#[derive(Debug, Default, Clone)]
struct Row {
    method: Option<String>,
    uri: Option<String>,
    status: Option<u16>,
    content_type: Option<String>,
    req_len: u64,
    resp_len: u64,
    req_frame: Option<u64>,
    resp_frame: Option<u64>,
    end: Option<MessageEnd>,
    coding: Option<String>,
    /// Why a body of the transaction was not decoded.
    undecoded: Option<String>,
    stream: Option<u32>,
}

#[derive(Debug)]
struct LogConn {
    client: SocketAddr,
    server: SocketAddr,
    /// Rows by request transaction, oldest first.
    rows: BTreeMap<TxId, Row>,
    /// A response no request is known for (capture started midstream): its own row.
    unpaired: Option<Row>,
}

/// Writes the HTTP transaction log. The first write error is kept and returned by [`HttpLog::finish`].
pub struct HttpLog {
    out: Box<dyn Write + Send>,
    // ALLOC: one entry per open connection (bounded by limits::max_connections) holding its pending
    // transactions (bounded by the HTTP layer's pipelining cap)
    conns: HashMap<ConnId, LogConn>,
    error: Option<std::io::Error>,
}

impl HttpLog {
    pub fn new(mut out: Box<dyn Write + Send>) -> HttpLog {
        let error = writeln!(out, "{HEADER}").err();
        HttpLog { out, conns: HashMap::new(), error }
    }

    pub fn open(&mut self, conn: ConnId, client: SocketAddr, server: SocketAddr) {
        self.conns.insert(conn, LogConn { client, server, rows: BTreeMap::new(), unpaired: None });
    }

    /// One HTTP event of a connection.
    pub fn http(&mut self, conn: ConnId, ev: &HttpEvent<'_>) {
        let Some(c) = self.conns.get_mut(&conn) else { return };
        let mut done: Option<Row> = None;
        match ev {
            HttpEvent::Request { tx, head, frame, .. } => {
                let row = c.rows.entry(*tx).or_default();
                row.method = Some(head.method.to_string());
                row.uri = Some(head.target.to_string());
                row.req_frame = Some(*frame);
            }
            HttpEvent::H2Stream { tx, stream, .. } => {
                if let Some(r) = c.rows.get_mut(tx) {
                    r.stream = Some(*stream);
                }
            }
            HttpEvent::RequestBody { tx, bytes, .. } => {
                if let Some(r) = c.rows.get_mut(tx) {
                    r.req_len = r.req_len.saturating_add(bytes.len() as u64);
                }
            }
            HttpEvent::Response { tx, head, frame, .. } => {
                // A 1xx response is interim (RFC 9110 §15.2): the final one follows for the same request.
                if head.status < 200 {
                    return;
                }
                let row = match tx {
                    Some(t) => c.rows.entry(*t).or_default(),
                    None => c.unpaired.insert(Row::default()),
                };
                row.status = Some(head.status);
                row.content_type = head.headers.content_type();
                row.resp_frame = Some(*frame);
                row.coding = crate::http::coding::BodyCodings::from_headers(&head.headers).map(|c| c.names);
            }
            HttpEvent::ResponseBody { tx, bytes, .. } => {
                if let Some(r) = row_of(c, *tx) {
                    r.resp_len = r.resp_len.saturating_add(bytes.len() as u64);
                }
            }
            HttpEvent::SseBody { tx, len, .. } => {
                if let Some(r) = row_of(c, *tx) {
                    r.resp_len = r.resp_len.saturating_add(*len as u64);
                }
            }
            HttpEvent::RequestUndecoded { tx, reason, .. } => {
                if let Some(r) = c.rows.get_mut(tx) {
                    r.undecoded = Some(format!("request: {reason}"));
                }
            }
            HttpEvent::ResponseUndecoded { tx, reason, .. } => {
                if let Some(r) = row_of(c, *tx) {
                    r.undecoded = Some(reason.as_str().to_string());
                }
            }
            HttpEvent::ResponseEnd { tx, end, .. } => {
                // The end of an interim (1xx) response is not the transaction's: its row has no status yet
                // (after `101` to h2c, the final response comes over HTTP/2 on the same tx).
                let interim = match tx {
                    Some(t) => c.rows.get(t).is_some_and(|r| r.status.is_none()),
                    None => c.unpaired.as_ref().is_none_or(|r| r.status.is_none()),
                };
                if interim {
                    return;
                }
                let row = match tx {
                    Some(t) => c.rows.remove(t),
                    None => c.unpaired.take(),
                };
                if let Some(mut r) = row {
                    r.end = Some(*end);
                    done = Some(r);
                }
            }
            HttpEvent::ResponseLost { tx, .. } => {
                if let Some(mut r) = c.rows.remove(tx) {
                    r.end = Some(MessageEnd::Gap);
                    done = Some(r);
                }
            }
            _ => {}
        }
        if let Some(r) = done {
            let (client, server) = (c.client, c.server);
            self.write(conn, client, server, &r);
        }
    }

    /// The connection is gone: requests that never got a response end are written now.
    pub fn close(&mut self, conn: ConnId) {
        let Some(c) = self.conns.remove(&conn) else { return };
        for r in c.rows.values().chain(c.unpaired.iter()) {
            self.write(conn, c.client, c.server, r);
        }
    }

    /// Flushes what is left (connections still open at the end) and the writer.
    pub fn finish(mut self) -> std::io::Result<()> {
        let mut open: Vec<ConnId> = self.conns.keys().copied().collect();
        open.sort();
        for c in open {
            self.close(c);
        }
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.flush()
    }

    fn write(&mut self, conn: ConnId, client: SocketAddr, server: SocketAddr, r: &Row) {
        if self.error.is_some() {
            return;
        }
        let dash = |v: Option<String>| v.filter(|s| !s.is_empty()).map_or_else(|| "-".to_string(), |s| escape(&s));
        let frames = format!("{};{}", r.req_frame.map_or("-".into(), |f| f.to_string()), r.resp_frame.map_or("-".into(), |f| f.to_string()));
        let res = writeln!(
            self.out,
            "{}\t{client}\t{server}\t{}\t{}\t{}\t{}\t{}\t{}\t{frames}\t{}\t{}\t{}\t{}",
            conn.0,
            dash(r.method.clone()),
            dash(r.uri.clone()),
            dash(r.status.map(|s| s.to_string())),
            dash(r.content_type.clone()),
            if r.method.is_some() { r.req_len.to_string() } else { "-".into() },
            if r.status.is_some() { r.resp_len.to_string() } else { "-".into() },
            r.end.map_or("-", MessageEnd::as_str),
            dash(r.coding.clone()),
            match (&r.undecoded, &r.coding) {
                (Some(why), _) => escape(why),
                (None, Some(_)) => "yes".to_string(),
                (None, None) => "-".to_string(),
            },
            r.stream.map_or_else(|| "-".to_string(), |s| s.to_string()),
        );
        if let Err(e) = res {
            self.error = Some(e);
        }
    }
}

fn row_of(c: &mut LogConn, tx: Option<TxId>) -> Option<&mut Row> {
    match tx {
        Some(t) => c.rows.get_mut(&t),
        None => c.unpaired.as_mut(),
    }
}

/// Control characters (a tab would break the columns) as `\xNN`, as Zeek's logs do.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for ch in s.chars() {
        if ch.is_control() || ch == '\\' {
            for b in ch.to_string().bytes() {
                out.push_str(&format!("\\x{b:02x}"));
            }
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::http::{Headers, RequestHead, ResponseHead};
    use crate::time::Timestamp;
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn httplog_writes_one_line_per_transaction_with_body_lengths() {
        let buf = Shared::default();
        let mut log = HttpLog::new(Box::new(buf.clone()));
        let (c, ts) = (ConnId(7), Timestamp(0));
        log.open(c, "127.0.0.1:5000".parse().unwrap(), "127.0.0.1:8000".parse().unwrap());
        let req = RequestHead { method: "POST".into(), target: "/mcp?a=\tb".into(), version: 1, headers: Headers::default() };
        log.http(c, &HttpEvent::Request { tx: 0, head: req.clone(), frame: 4, ts });
        log.http(c, &HttpEvent::RequestBody { tx: 0, bytes: b"{\"x\":1}", frame: 4, ts });
        log.http(c, &HttpEvent::Request { tx: 1, head: req, frame: 9, ts });
        let ct = Headers::from_pairs([("content-type", "text/event-stream; charset=utf-8")]);
        log.http(c, &HttpEvent::Response { tx: Some(0), head: ResponseHead { status: 200, reason: "OK".into(), version: 1, headers: ct }, frame: 6, ts });
        log.http(c, &HttpEvent::SseBody { tx: Some(0), len: 30, frame: 6, ts });
        log.http(c, &HttpEvent::SseBody { tx: Some(0), len: 12, frame: 7, ts });
        log.http(c, &HttpEvent::ResponseEnd { tx: Some(0), end: MessageEnd::Complete, frame: 7, ts });
        log.close(c);
        log.finish().unwrap();
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], HEADER);
        assert_eq!(lines[1], "7\t127.0.0.1:5000\t127.0.0.1:8000\tPOST\t/mcp?a=\\x09b\t200\ttext/event-stream\t7\t42\t4;6\tcomplete\t-\t-\t-");
        // The second request never got a response: written at close, response columns unknown.
        assert_eq!(lines[2], "7\t127.0.0.1:5000\t127.0.0.1:8000\tPOST\t/mcp?a=\\x09b\t-\t-\t0\t-\t9;-\t-\t-\t-\t-");
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn httplog_shows_the_coding_and_why_a_body_was_not_decoded() {
        let buf = Shared::default();
        let mut log = HttpLog::new(Box::new(buf.clone()));
        let c = ConnId(1);
        let ts = Timestamp(0);
        log.open(c, "127.0.0.1:5000".parse().unwrap(), "127.0.0.1:8000".parse().unwrap());
        let req = RequestHead { method: "GET".into(), target: "/".into(), version: 1, headers: Headers::default() };
        let gz = Headers::from_pairs([("content-type", "application/json"), ("content-encoding", "gzip")]);
        for tx in 0..2 {
            log.http(c, &HttpEvent::Request { tx, head: req.clone(), frame: 1, ts });
            log.http(c, &HttpEvent::Response { tx: Some(tx), head: ResponseHead { status: 200, reason: "OK".into(), version: 1, headers: gz.clone() }, frame: 2, ts });
            if tx == 1 {
                log.http(c, &HttpEvent::ResponseUndecoded { tx: Some(1), coding: "gzip".into(), reason: crate::http::coding::Undecoded::Corrupt, frame: 2, ts });
            }
            log.http(c, &HttpEvent::ResponseEnd { tx: Some(tx), end: MessageEnd::Complete, frame: 2, ts });
        }
        log.finish().unwrap();
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[1].ends_with("\tcomplete\tgzip\tyes\t-"), "{}", lines[1]);
        assert!(lines[2].ends_with("\tcomplete\tgzip\tcorrupt stream\t-"), "{}", lines[2]);
    }

    #[test]
    fn httplog_shows_the_h2_stream_and_waits_past_an_interim_response() {
        let buf = Shared::default();
        let mut log = HttpLog::new(Box::new(buf.clone()));
        let (c, ts) = (ConnId(1), Timestamp(0));
        log.open(c, "127.0.0.1:5000".parse().unwrap(), "127.0.0.1:8000".parse().unwrap());
        let req = RequestHead { method: "GET".into(), target: "/mcp".into(), version: 1, headers: Headers::default() };
        log.http(c, &HttpEvent::Request { tx: 0, head: req, frame: 4, ts });
        let head = |status| ResponseHead { status, reason: "".into(), version: 1, headers: Headers::default() };
        // 101 to h2c: the interim response ends, the final one comes over HTTP/2 on stream 1.
        log.http(c, &HttpEvent::Response { tx: Some(0), head: head(101), frame: 5, ts });
        log.http(c, &HttpEvent::ResponseEnd { tx: Some(0), end: MessageEnd::Complete, frame: 5, ts });
        log.http(c, &HttpEvent::H2Stream { tx: 0, stream: 1, frame: 5, ts });
        log.http(c, &HttpEvent::Response { tx: Some(0), head: head(200), frame: 6, ts });
        log.http(c, &HttpEvent::ResponseEnd { tx: Some(0), end: MessageEnd::Interrupted, frame: 8, ts });
        log.finish().unwrap();
        let text = String::from_utf8(buf.0.lock().unwrap().clone()).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines, vec![HEADER, "1\t127.0.0.1:5000\t127.0.0.1:8000\tGET\t/mcp\t200\t-\t0\t0\t4;6\tinterrupted\t-\t-\t1"]);
    }
}
