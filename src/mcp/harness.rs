//! Classifier harness for unit tests: scripted HTTP events (request heads and bodies, response heads,
//! JSON bodies, SSE events, stream ends, TCP closes, capture gaps) fed through each connection's JSON-RPC
//! stage into the MCP layer, with the built-in rules (or patched ones) judging the facts. It stands where
//! the HTTP layer stands, so a test states the exchange it means, byte for byte where it matters, and
//! asserts facts and incidents.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::collections::HashMap;
use std::net::SocketAddr;

use super::McpTracker;
use crate::decode::flow_key::Direction;
use crate::detect::RuleSet;
use crate::facts::Fact;
use crate::http::head::{parse_request, parse_response, HeadParse};
use crate::http::{HttpEvent, MessageEnd, SseEvent, TxId};
use crate::limits::Limits;
use crate::reassembly::{ConnId, EndReason};
use crate::stack::rpc::RpcStage;
use crate::stack::Exchange;
use crate::time::{Duration, Timestamp};

/// The server every scripted connection goes to.
pub const SERVER: &str = "127.0.0.1:8000";
/// The session id [`session`] mints, as a request header.
pub const SID: &str = "Mcp-Session-Id: aaaa";
/// The version header of a 2025-11-25 session.
pub const V25: &str = "MCP-Protocol-Version: 2025-11-25";

pub struct Harness {
    pub t: McpTracker,
    /// Each connection's JSON-RPC stage, as its layer stack holds it.
    rpc: HashMap<ConnId, RpcStage>,
    rules: RuleSet,
    pub facts: Vec<Fact>,
    frame: u64,
    now: Timestamp,
    next_tx: TxId,
    next_conn: u64,
}

impl Harness {
    /// The built-in rules.
    pub fn new() -> Harness {
        Harness::with_rules(RuleSet::builtin().unwrap())
    }

    /// Built-in rules with `patches` (`--rules` patch files: name, TOML text) applied.
    pub fn patched(patches: &[(&str, &str)]) -> Harness {
        let dir = std::env::temp_dir().join(format!("mcptap-harness-{}-{}", std::process::id(), unique()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in patches {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let mut rules = RuleSet::builtin().unwrap();
        let loaded = rules.load_dir(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
        loaded.unwrap();
        Harness::with_rules(rules)
    }

    fn with_rules(rules: RuleSet) -> Harness {
        let t = McpTracker::new(&Limits::default(), rules.checkpoints());
        Harness { t, rpc: HashMap::new(), rules, facts: Vec::new(), frame: 0, now: Timestamp::from_secs_micros(1_000, 0), next_tx: 0, next_conn: 0 }
    }

    /// The built-in rules, with every session recorded for the inventory (timelines included).
    pub fn recording() -> Harness {
        let mut h = Harness::new();
        h.t.enable_recorder(crate::mcp::record::RecorderConfig { max_records: 10, max_entries: 100, timeline: crate::mcp::record::TimelineScope::All });
        h
    }

    /// The inventory's records of a [`Harness::recording`], in report order (after [`Harness::finish`]).
    pub fn records(&mut self) -> Vec<crate::mcp::record::SessionRecord> {
        self.t.take_records().map(|(r, _)| r).expect("a recording harness")
    }

    /// A new TCP connection from `client` (`ip:port`) to [`SERVER`].
    pub fn connect(&mut self, client: &str) -> ConnId {
        self.open(client, false)
    }

    /// A connection the capture did not see begin (no SYN).
    pub fn connect_midstream(&mut self, client: &str) -> ConnId {
        self.open(client, true)
    }

    fn open(&mut self, client: &str, midstream: bool) -> ConnId {
        self.next_conn += 1;
        let c = ConnId(self.next_conn);
        let (client, server) = (client.parse().unwrap(), SERVER.parse::<SocketAddr>().unwrap());
        self.rpc.insert(c, RpcStage::new(Limits::default().max_body_bytes));
        self.exchange(c, Exchange::Open { client, server, midstream });
        c
    }

    /// Capture time moves on by `ms`; due timers fire.
    pub fn wait(&mut self, ms: i64) {
        self.now = self.now.plus(Duration(ms * 1_000_000));
        let facts = &mut self.facts;
        self.t.advance(self.now, &mut |f| facts.push(f));
    }

    /// The frame of the last event fed.
    pub fn last_frame(&self) -> u64 {
        self.frame
    }

    fn tick(&mut self) -> (u64, Timestamp) {
        self.frame += 1;
        self.now = self.now.plus(Duration(1_000_000));
        (self.frame, self.now)
    }

    pub fn exchange(&mut self, c: ConnId, ev: Exchange<'_>) {
        let facts = &mut self.facts;
        self.t.exchange(c, ev, &mut |f| facts.push(f));
    }

    fn feed(&mut self, c: ConnId, ev: HttpEvent<'_>) {
        let (t, facts) = (&mut self.t, &mut self.facts);
        let rpc = self.rpc.get_mut(&c).expect("a scripted connection");
        rpc.http(ev, &mut |x| t.exchange(c, x, &mut |f| facts.push(f)));
        let now = self.now;
        self.t.advance(now, &mut |f| facts.push(f));
    }

    /// A complete request: head (`headers` as `Name: value` lines), body, end. Returns its transaction.
    /// A `Host` among `headers` replaces the harness's.
    pub fn request(&mut self, c: ConnId, method: &str, target: &str, headers: &[&str], body: &str) -> TxId {
        let mut head = format!("{method} {target} HTTP/1.1\r\n");
        if !headers.iter().any(|h| h.to_ascii_lowercase().starts_with("host:")) {
            head.push_str(&format!("Host: {SERVER}\r\n"));
        }
        for h in headers {
            head.push_str(h);
            head.push_str("\r\n");
        }
        if !body.is_empty() {
            head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
        }
        head.push_str("\r\n");
        let HeadParse::Complete { head, .. } = parse_request(head.as_bytes()) else { panic!("bad scripted request head") };
        self.next_tx += 1;
        let tx = self.next_tx;
        let (frame, ts) = self.tick();
        self.feed(c, HttpEvent::Request { tx, head, frame, ts });
        if !body.is_empty() {
            self.feed(c, HttpEvent::RequestBody { tx, bytes: body.as_bytes(), frame, ts });
        }
        self.feed(c, HttpEvent::RequestEnd { tx, end: MessageEnd::Complete, frame, ts });
        tx
    }

    /// A POST of `body` to `/mcp`.
    pub fn post(&mut self, c: ConnId, headers: &[&str], body: &str) -> TxId {
        self.request(c, "POST", "/mcp", headers, body)
    }

    /// A response head only (`headers` as `Name: value` lines).
    pub fn head(&mut self, c: ConnId, tx: TxId, status: u16, headers: &[&str]) {
        let mut text = format!("HTTP/1.1 {status} X\r\n");
        for h in headers {
            text.push_str(h);
            text.push_str("\r\n");
        }
        text.push_str("\r\n");
        let HeadParse::Complete { head, .. } = parse_response(text.as_bytes()) else { panic!("bad scripted response head") };
        let (frame, ts) = self.tick();
        self.feed(c, HttpEvent::Response { tx: Some(tx), head, frame, ts });
    }

    /// A complete response with `body` (content type among `headers`, if any).
    pub fn reply(&mut self, c: ConnId, tx: TxId, status: u16, headers: &[&str], body: &str) {
        self.head(c, tx, status, headers);
        if !body.is_empty() {
            let (frame, ts) = self.tick();
            self.feed(c, HttpEvent::ResponseBody { tx: Some(tx), bytes: body.as_bytes(), frame, ts });
        }
        self.end(c, tx, MessageEnd::Complete);
    }

    /// A complete `200 application/json` response.
    pub fn json(&mut self, c: ConnId, tx: TxId, headers: &[&str], body: &str) {
        let mut h = vec!["Content-Type: application/json"];
        h.extend_from_slice(headers);
        self.reply(c, tx, 200, &h, body);
    }

    /// A `200 text/event-stream` response head; events follow with [`Harness::event`].
    pub fn sse(&mut self, c: ConnId, tx: TxId, headers: &[&str]) {
        let mut h = vec!["Content-Type: text/event-stream"];
        h.extend_from_slice(headers);
        self.head(c, tx, 200, &h);
    }

    /// An HTTP+SSE client's stream: `GET /sse` asking for events, answered `200 text/event-stream`, whose
    /// `endpoint` event announces `post_url`.
    pub fn legacy_stream(&mut self, c: ConnId, post_url: &str) -> TxId {
        let g = self.request(c, "GET", "/sse", &["Accept: text/event-stream"], "");
        self.sse(c, g, &[]);
        self.event_named(c, g, Some("endpoint"), None, post_url);
        g
    }

    /// One SSE event (`event: message` unless `name` says otherwise; `data` empty for a priming event).
    pub fn event_named(&mut self, c: ConnId, tx: TxId, name: Option<&str>, id: Option<&str>, data: &str) {
        let event = SseEvent {
            event: name.map(Into::into),
            data: data.as_bytes().into(),
            has_data: true,
            id: id.map(Into::into),
            retry: None,
            truncated: false,
        };
        let (frame, ts) = self.tick();
        self.feed(c, HttpEvent::Sse { tx: Some(tx), event, frame, ts });
    }

    pub fn event(&mut self, c: ConnId, tx: TxId, id: Option<&str>, data: &str) {
        self.event_named(c, tx, None, id, data);
    }

    /// A blank line on an SSE stream that ends no event (a bare-newline keep-alive).
    pub fn blank(&mut self, c: ConnId, tx: TxId) {
        let (frame, ts) = self.tick();
        self.feed(c, HttpEvent::SseBlank { tx: Some(tx), frame, ts });
    }

    /// The response ends as `end` says.
    pub fn end(&mut self, c: ConnId, tx: TxId, end: MessageEnd) {
        let (frame, ts) = self.tick();
        self.feed(c, HttpEvent::ResponseEnd { tx: Some(tx), end, frame, ts });
    }

    /// One direction of the TCP connection ends first (who closed), then the response is interrupted.
    pub fn close_stream(&mut self, c: ConnId, tx: TxId, first: Direction, reason: EndReason) {
        self.exchange(c, Exchange::Ended { dir: first, reason });
        self.end(c, tx, MessageEnd::Interrupted);
    }

    /// A capture gap of `len` server bytes on the connection.
    pub fn gap(&mut self, c: ConnId, len: u64) {
        let (frame, _) = self.tick();
        self.exchange(c, Exchange::Lost { dir: Direction::ToClient, len, cut: false, frame });
    }

    /// `len` bytes of `dir` the snap length cut from the connection's records.
    pub fn cut(&mut self, c: ConnId, dir: Direction, len: u64) {
        let (frame, _) = self.tick();
        self.exchange(c, Exchange::Lost { dir, len, cut: true, frame });
    }

    /// A request HTTP lost to a gap (its head): a transaction stands in for it.
    pub fn lost_request(&mut self, c: ConnId) -> TxId {
        let (frame, ts) = self.tick();
        self.next_tx += 1;
        let tx = self.next_tx;
        self.feed(c, HttpEvent::RequestLost { tx, frame, ts });
        tx
    }

    /// The response to `tx` was lost to a gap (its head).
    pub fn lost_response(&mut self, c: ConnId, tx: TxId) {
        let (frame, ts) = self.tick();
        self.feed(c, HttpEvent::ResponseLost { tx, frame, ts });
    }

    /// The connection closes.
    pub fn close(&mut self, c: ConnId) {
        let (_, ts) = self.tick();
        self.exchange(c, Exchange::Close { ts });
    }

    /// The capture lost sight of the connection (reassembly's `Unacked`).
    pub fn unacked(&mut self, c: ConnId) {
        self.exchange(c, Exchange::Unacked);
    }

    /// End of capture.
    pub fn finish(&mut self) {
        let facts = &mut self.facts;
        self.t.finish(self.now, &mut |f| facts.push(f));
    }

    /// Rule ids that fired on the facts so far, sorted, each once.
    pub fn fired(&self) -> Vec<String> {
        self.raised(crate::detect::Severity::Info)
    }

    /// Rule ids of severity medium or higher that fired.
    pub fn alarms(&self) -> Vec<String> {
        self.raised(crate::detect::Severity::Medium)
    }

    fn raised(&self, at_least: crate::detect::Severity) -> Vec<String> {
        let mut v: Vec<String> = self
            .facts
            .iter()
            .flat_map(|f| self.rules.evaluate(f, |r, e| panic!("{}: {e}", r.id)))
            .filter(|r| r.severity >= at_least)
            .map(|r| r.id.clone())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// Each rule that fired, with the evidence it renders for its fact, in fact order.
    pub fn evidence(&self) -> Vec<(String, String)> {
        self.facts
            .iter()
            .flat_map(|f| self.rules.evaluate(f, |r, e| panic!("{}: {e}", r.id)).into_iter().map(move |r| (r.id.clone(), r.render_evidence(f))))
            .collect()
    }

    /// Facts of one kind.
    pub fn facts_of(&self, kind: &str) -> Vec<&Fact> {
        self.facts.iter().filter(|f| f.kind.name() == kind).collect()
    }
}

fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
}

/// A JSON-RPC request.
pub fn call(id: i64, method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"method":"{method}","params":{params}}}"#)
}

/// A JSON-RPC notification.
pub fn notify(method: &str, params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","method":"{method}","params":{params}}}"#)
}

/// A JSON-RPC result.
pub fn result(id: i64, result: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{result}}}"#)
}

/// A JSON-RPC error.
pub fn error(id: &str, code: i64, message: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":"{message}"}}}}"#)
}

/// An MCP `initialize` request asking for `version`.
pub fn initialize(id: i64, version: &str) -> String {
    call(id, "initialize", &format!(r#"{{"protocolVersion":"{version}","capabilities":{{}},"clientInfo":{{"name":"c","version":"1"}}}}"#))
}

/// An `initialize` result at `version`.
pub fn initialized(id: i64, version: &str) -> String {
    result(id, &format!(r#"{{"protocolVersion":"{version}","capabilities":{{}},"serverInfo":{{"name":"s","version":"1"}}}}"#))
}

/// A `tools/call` of tool `t`.
pub fn tool_call(id: i64) -> String {
    call(id, "tools/call", r#"{"name":"t","arguments":{}}"#)
}

/// A `tools/call` result.
pub fn tool_result(id: i64) -> String {
    result(id, r#"{"content":[{"type":"text","text":"ok"}]}"#)
}

/// A progress notification.
pub fn progress() -> String {
    notify("notifications/progress", r#"{"progressToken":1,"progress":1}"#)
}

/// Runs `initialize` on connection `c` and returns the session id the server mints (`sid`) after the
/// handshake's `notifications/initialized` was accepted.
pub fn handshake(h: &mut Harness, c: ConnId, asked: &str, answered: &str, sid: &str) {
    let tx = h.post(c, &[], &initialize(0, asked));
    h.json(c, tx, &[&format!("Mcp-Session-Id: {sid}")], &initialized(0, answered));
    let sid_header = format!("Mcp-Session-Id: {sid}");
    let version = format!("MCP-Protocol-Version: {answered}");
    let tx = h.post(c, &[&sid_header, &version], &notify("notifications/initialized", "{}"));
    h.reply(c, tx, 202, &[], "");
}

/// A connection from 10.0.0.1:40000 with a 2025-11-25 session `aaaa` initialized on it.
pub fn session(h: &mut Harness) -> ConnId {
    let c = h.connect("10.0.0.1:40000");
    handshake(h, c, "2025-11-25", "2025-11-25", "aaaa");
    c
}
