//! One layer stack per connection: everything the capture knows of a TCP connection lives in one value,
//! its reassembly state and, above it, [`Layers`]: TLS (`tls`), HTTP/1.1 or HTTP/2 (`http::switch`) and
//! JSON-RPC ([`rpc`]). Each layer hands the one above typed values (ordered bytes, plaintext, HTTP
//! events, decoded messages), and the stack hands the session stage (`mcp`) [`Exchange`]s: heads, decoded
//! messages, stream ends and losses, never bytes. As Zeek's `Connection` owns its analyzer tree and
//! Suricata's `Flow` its app-layer state, the layers' state sits in the flow table's slot beside the TCP
//! state (`FlowTable<Layers>`), so an event reaches every layer without a lookup of its own. What the
//! layers could not analyse goes up as typed [`coverage`] notices, for the session stage to judge.
//!
//! ```text
//! decode ─▶ reassembly (TCP) ─▶ tls ─▶ http (/1.1, /2) ─▶ rpc (JSON-RPC) ─▶ Exchange ─▶ mcp ─▶ detect
//!           └──────────── one slot per connection: FlowTable<Layers> ─────────────┘
//! ```
//!
//! What stays run-wide: the TLS key log and coverage tallies (`TlsLayer`), the HTTP counters of the
//! summary, and the `--http-log` writer.

// The layers, bottom to top; `rpc` is the JSON-RPC stage that runs the `jsonrpc` codec per connection.
pub mod reassembly;
pub mod tls;
pub mod http;
pub mod jsonrpc;
pub mod rpc;
pub mod exchange;
pub mod coverage;
pub mod counters;

use crate::decode::TcpSegment;
use crate::http::switch::HttpConn;
use crate::http::TxId;
use crate::http::HttpEvent;
use crate::limits::Limits;
use crate::output::httplog::HttpLog;
use crate::reassembly::{ConnId, FlowEvent, FlowTable, ReassemblyStats};
use crate::time::Timestamp;
use crate::tls::{Delivery, TlsConn, TlsLayer, TlsStats};

use counters::HttpCounters;
pub use exchange::{Body, Exchange};
use rpc::RpcStage;

/// The layers above TCP of one connection.
#[derive(Debug)]
pub struct Layers {
    tls: TlsConn,
    http: HttpConn,
    rpc: RpcStage,
}

/// Every connection's layer stack, and the run-wide state of its layers.
pub struct Stack {
    /// `None` until the connection's `Open` (a midstream pickup's roles are decided first).
    flows: FlowTable<Option<Layers>>,
    run: RunWide,
}

/// What the layers share across connections.
struct RunWide {
    limits: Limits,
    tls: TlsLayer,
    up: Up,
}

/// Where HTTP events go on their way up: counted, logged, then to the connection's JSON-RPC stage.
struct Up {
    counters: HttpCounters,
    /// `--http-log`: the HTTP transaction log, when asked for.
    http_log: Option<HttpLog>,
}

impl Stack {
    pub fn new(limits: Limits) -> Stack {
        let up = Up { counters: HttpCounters::default(), http_log: None };
        Stack { flows: FlowTable::new(&limits), run: RunWide { limits, tls: TlsLayer::default(), up } }
    }

    pub fn tls_mut(&mut self) -> &mut TlsLayer {
        &mut self.run.tls
    }

    pub fn tls(&self) -> &TlsLayer {
        &self.run.tls
    }

    /// Also writes one line per HTTP transaction to `log` (`--http-log`).
    pub fn set_http_log(&mut self, log: HttpLog) {
        self.run.up.http_log = Some(log);
    }

    pub fn take_http_log(&mut self) -> Option<HttpLog> {
        self.run.up.http_log.take()
    }

    pub fn tcp_stats(&self) -> &ReassemblyStats {
        self.flows.stats()
    }

    pub fn tls_stats(&self) -> TlsStats {
        self.run.tls.stats()
    }

    pub fn http_counters(&self) -> &HttpCounters {
        &self.run.up.counters
    }

    /// Capture time reached `now` (any packet).
    pub fn observe(&mut self, now: Timestamp) {
        self.flows.observe(now);
    }

    /// One TCP segment through every layer of its connection.
    pub fn segment<F: FnMut(ConnId, Exchange<'_>)>(&mut self, seg: &TcpSegment<'_>, out: &mut F) {
        let run = &mut self.run;
        self.flows.feed_with(seg, &mut |ev, layers| run.route(ev, layers, out));
    }

    /// Expires idle connections (see `FlowTable::expire_with`).
    pub fn expire<F: FnMut(ConnId, Exchange<'_>)>(&mut self, now: Timestamp, out: &mut F) {
        let run = &mut self.run;
        self.flows.expire_with(now, &mut |ev, layers| run.route(ev, layers, out));
    }

    /// End of capture: every connection flushed and closed.
    pub fn finish<F: FnMut(ConnId, Exchange<'_>)>(&mut self, now: Timestamp, out: &mut F) {
        let run = &mut self.run;
        self.flows.finish_with(now, &mut |ev, layers| run.route(ev, layers, out));
    }

    /// Key-log lines appended while live: connections they complete decrypt what they held, in
    /// connection order.
    pub fn add_live_secrets<F: FnMut(ConnId, Exchange<'_>)>(&mut self, text: &[u8], out: &mut F) {
        let RunWide { tls, up, .. } = &mut self.run;
        tls.add_live_secrets(text);
        // ALLOC: the waiting connections, few and only when a key log grew
        let waiting: Vec<ConnId> = tls.waiting_conns().collect();
        if waiting.is_empty() {
            return;
        }
        let mut found: Vec<(ConnId, &mut Layers)> =
            self.flows.apps_mut().filter(|(id, _)| waiting.binary_search(id).is_ok()).filter_map(|(id, l)| l.as_mut().map(|l| (id, l))).collect();
        found.sort_by_key(|(id, _)| *id);
        for (conn, l) in found {
            let Layers { tls: t, http, rpc } = l;
            tls.resume(conn, t, &mut |d| up.deliver(conn, http, rpc, d, out));
        }
    }
}

impl Layers {
    /// A 2xx answered CONNECT (RFC 9110 §9.3.6): from the byte after that head, both directions carry a
    /// connection of their own to the origin server, TLS nearly always. On a plaintext connection (a
    /// forward proxy's usual port) the layers above TCP start again there, as on a new connection: TLS
    /// (decrypted with the key log, or tallied as not decrypted with its SNI), then HTTP/1.1 or HTTP/2;
    /// the JSON-RPC stage stays, and transaction ids go on from the CONNECT's. Zeek and Suricata hand a
    /// tunnel's bytes to protocol detection the same way. A tunnel inside TLS to the proxy (TLS in TLS)
    /// is not followed: its bytes stay opaque to the HTTP layer. Returns whether the layers restarted.
    fn tunnel(&mut self, limits: &Limits, counters: &mut HttpCounters, next_tx: TxId) -> bool {
        if !self.tls.is_plain() {
            counters.tunnels_opaque += 1;
            return false;
        }
        counters.tunnels += 1;
        self.tls = self.tls.restarted();
        self.http = HttpConn::starting_at(limits, next_tx);
        true
    }
}

impl RunWide {
    /// Hands a reassembly event to its connection's layers, and what the session stage needs on to `out`.
    fn route<F: FnMut(ConnId, Exchange<'_>)>(&mut self, ev: FlowEvent<'_>, layers: &mut Option<Layers>, out: &mut F) {
        let RunWide { limits, tls, up } = self;
        match ev {
            FlowEvent::Open { conn, client, server, midstream, ts, .. } => {
                // ALLOC: HTTP state per open connection, bounded by limits::max_connections
                *layers = Some(Layers { tls: TlsConn::new(client, server, ts), http: HttpConn::new(limits), rpc: RpcStage::new(limits.max_body_bytes) });
                out(conn, Exchange::Open { client, server, midstream });
                if let Some(l) = &mut up.http_log {
                    l.open(conn, client, server);
                }
            }
            FlowEvent::Data { conn, dir, bytes, frame, ts } => {
                let Some(l) = layers else { return };
                let Layers { tls: t, http, rpc } = l;
                // ALPN is read before any application data, so it is known by the time plaintext flows.
                let alpn_h2 = t.alpn_h2();
                tls.data(conn, t, dir, bytes, frame, ts, &mut |d| {
                    if alpn_h2 {
                        http.set_alpn_h2();
                    }
                    up.deliver(conn, http, rpc, d, out)
                });
                let Some(tunnel) = l.http.take_tunnel() else { return };
                if l.tunnel(limits, &mut up.counters, tunnel.next_tx) && !tunnel.first.is_empty() {
                    // Bytes that came with the 2xx head are the tunnel's first: through the new layers as any.
                    let ev = FlowEvent::Data { conn, dir: tunnel.dir, bytes: &tunnel.first, frame: tunnel.frame, ts: tunnel.ts };
                    self.route(ev, layers, out);
                }
            }
            FlowEvent::Gap { conn, dir, len, cut, frame, ts } => {
                out(conn, Exchange::Lost { dir, len, cut, frame });
                let Some(Layers { tls: t, http, rpc }) = layers else { return };
                tls.gap(conn, t, dir, len, frame, ts, &mut |d| up.deliver(conn, http, rpc, d, out));
            }
            FlowEvent::Unacked { conn, .. } => out(conn, Exchange::Unacked),
            FlowEvent::End { conn, dir, reason, frame, ts } => {
                if let Some(l) = layers.as_mut() {
                    tls.end(conn, &mut l.tls);
                }
                out(conn, Exchange::Ended { dir, reason });
                if let Some(Layers { http, rpc, .. }) = layers {
                    http.end(dir, reason, frame, ts, &mut |hev| up.event(conn, rpc, hev, out));
                }
            }
            FlowEvent::Close { conn, ts } => {
                if let Some(Layers { tls: mut t, http, mut rpc }) = layers.take() {
                    if let Some(s) = http.h2_stats() {
                        up.counters.h2.merge(s);
                    }
                    if let Some((why, frame)) = http.h2_unanalysed() {
                        t.http2_unanalysed(why.as_str(), frame);
                    }
                    tls.close(conn, t);
                    rpc.close(&mut |x| out(conn, x));
                }
                if let Some(l) = &mut up.http_log {
                    l.close(conn);
                }
                out(conn, Exchange::Close { ts });
            }
        }
    }
}

impl Up {
    /// Hands what the TLS layer passes on (plaintext or decrypted) to the connection's HTTP layer.
    fn deliver<F: FnMut(ConnId, Exchange<'_>)>(&mut self, conn: ConnId, http: &mut HttpConn, rpc: &mut RpcStage, d: Delivery<'_>, out: &mut F) {
        let mut up = |hev: HttpEvent<'_>| self.event(conn, rpc, hev, out);
        match d {
            Delivery::Data { dir, bytes, frame, ts } => http.data(dir, bytes, frame, ts, &mut up),
            Delivery::Gap { dir, len, frame, ts } => http.gap(dir, len, frame, ts, &mut up),
        }
    }

    /// Counts an HTTP event, logs it (`--http-log`) and hands it to the connection's JSON-RPC stage.
    fn event<F: FnMut(ConnId, Exchange<'_>)>(&mut self, conn: ConnId, rpc: &mut RpcStage, hev: HttpEvent<'_>, out: &mut F) {
        if let Some(l) = &mut self.http_log {
            l.http(conn, &hev);
        }
        self.counters.count(&hev);
        if !rpc.body(&hev) {
            rpc.http(hev, &mut |x| out(conn, x));
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::decode::TcpFlags;
    use std::net::SocketAddr;

    const CLIENT: &str = "10.0.0.1:40000";
    const PROXY: &str = "10.0.0.2:3128";

    /// One connection to a forward proxy, segment by segment in capture order: a handshake, then
    /// `(from_client, payload)` each acknowledged by the next.
    /// Returns what went up, and the tunnels counted.
    fn run(payloads: &[(bool, &[u8])]) -> (Vec<String>, u64) {
        let c: SocketAddr = CLIENT.parse().unwrap();
        let p: SocketAddr = PROXY.parse().unwrap();
        let mut stack = Stack::new(Limits::default());
        let mut seen = Vec::new();
        let mut note = |_: ConnId, x: Exchange<'_>| match x {
            Exchange::Http(HttpEvent::Request { tx, head, .. }) => seen.push(format!("req {tx} {} {}", head.method, head.target)),
            Exchange::Http(HttpEvent::Response { tx, head, .. }) => seen.push(format!("resp {tx:?} {}", head.status)),
            Exchange::RequestBody { tx, body: Body::Messages(m) } => seen.push(format!("body {tx} {} messages", m.len())),
            Exchange::ResponseBody { tx, body: Body::Messages(m), .. } => seen.push(format!("answer {tx:?} {} messages", m.len())),
            _ => {}
        };
        let (mut cseq, mut sseq) = (1000u32, 5000u32);
        let flags = |syn, ack| TcpFlags { syn, ack, fin: false, rst: false, psh: false };
        let seg = |frame, src, dst, seq, ack, flags, payload| TcpSegment { frame, ts: Timestamp::ZERO, src, dst, seq, ack, flags, window: 1000, payload, missing: 0, tunnel: None, check: Default::default() };
        stack.segment(&seg(1, c, p, cseq, 0, flags(true, false), &[]), &mut note);
        stack.segment(&seg(2, p, c, sseq, cseq + 1, flags(true, true), &[]), &mut note);
        cseq += 1;
        sseq += 1;
        stack.segment(&seg(3, c, p, cseq, sseq, flags(false, true), &[]), &mut note);
        for (i, (from_client, payload)) in payloads.iter().enumerate() {
            let frame = 4 + i as u64;
            let len = payload.len() as u32;
            if *from_client {
                stack.segment(&seg(frame, c, p, cseq, sseq, flags(false, true), payload), &mut note);
                cseq += len;
            } else {
                stack.segment(&seg(frame, p, c, sseq, cseq, flags(false, true), payload), &mut note);
                sseq += len;
            }
        }
        stack.finish(Timestamp::ZERO, &mut note);
        (seen, stack.http_counters().tunnels)
    }

    const CONNECT: &[u8] = b"CONNECT mcp.example:443 HTTP/1.1\r\nHost: mcp.example:443\r\n\r\n";
    const POST: &[u8] = b"POST /mcp HTTP/1.1\r\nHost: mcp.example\r\nContent-Type: application/json\r\nContent-Length: 58\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{}}";
    const ANSWER: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 36\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}";

    #[test]
    fn the_http_inside_a_connect_tunnel_is_analysed_as_a_connection_of_its_own() {
        let (seen, tunnels) = run(&[(true, CONNECT), (false, b"HTTP/1.1 200 Connection established\r\n\r\n"), (true, POST), (false, ANSWER)]);
        assert_eq!(
            seen,
            ["req 0 CONNECT mcp.example:443", "resp Some(0) 200", "req 1 POST /mcp", "body 1 1 messages", "resp Some(1) 200", "answer Some(1) 1 messages"]
        );
        assert_eq!(tunnels, 1);
    }

    #[test]
    fn bytes_that_came_with_the_connect_answer_start_the_tunnel() {
        let mut answer = b"HTTP/1.1 200 Connection established\r\n\r\n".to_vec();
        answer.extend_from_slice(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        // The tunnel's server speaks first here (as a server-first protocol would): its bytes ride with the
        // 2xx and pair with nothing, as on a new connection.
        let (seen, _) = run(&[(true, CONNECT), (false, &answer), (true, POST)]);
        assert_eq!(seen, ["req 0 CONNECT mcp.example:443", "resp Some(0) 200", "resp None 200", "req 1 POST /mcp", "body 1 1 messages"]);
    }

    #[test]
    fn a_refused_connect_leaves_the_connection_http() {
        let (seen, tunnels) = run(&[(true, CONNECT), (false, b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\n\r\n"), (true, POST), (false, ANSWER)]);
        assert_eq!(
            seen,
            ["req 0 CONNECT mcp.example:443", "resp Some(0) 403", "req 1 POST /mcp", "body 1 1 messages", "resp Some(1) 200", "answer Some(1) 1 messages"]
        );
        assert_eq!(tunnels, 0);
    }
}
