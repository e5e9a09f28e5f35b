//! Connections a `101 Switching Protocols` took to a protocol mcptap does not analyse (RFC 9110 §15.2.2,
//! §7.8): after the head, the HTTP layer leaves the bytes alone (`http::HalfState::Opaque`). `h2c` is not
//! among them (the HTTP layer goes on in HTTP/2). MCP over WebSocket is the case that matters: the Python
//! SDK 1.x `mcp.server.websocket` and the TypeScript SDK's `WebSocketClientTransport` speak it with the
//! subprotocol `mcp`, no transport of the specification, and a capture of it would otherwise give an empty
//! report, which says "seen and clean". One coverage notice per server and protocol at the end of the
//! capture (`upgrade_unanalysed`, rule CAPTURE-UPGRADE-UNANALYSED), as for bodies not decoded.

use super::coverage::{add_distinct, Seen};
use crate::http::ResponseHead;

use super::*;

/// Notices kept at most: one per server and protocol, so a capture of many servers cannot grow it
/// without bound; past it, later servers' switches are counted in the summary only.
const MAX_NOTES: usize = 1024;

/// Distinct subprotocols kept per notice, and the characters of a protocol or subprotocol name kept.
const MAX_SUBPROTOCOLS: usize = 4;
const MAX_NAME: usize = 64;

#[derive(Debug)]
struct Note {
    subprotocols: Vec<String>,
    connections: u64,
    mcp: bool,
    seen: Seen,
}

/// The notices, by server and protocol (sorted: the report order is deterministic).
#[derive(Debug, Default)]
pub(super) struct SwitchedNotes {
    // ALLOC: one entry per server and protocol, at most MAX_NOTES
    by: BTreeMap<(SocketAddr, String), Note>,
}

/// A name from the wire as the notice keeps it: trimmed, lower-cased (both are case-insensitive tokens:
/// RFC 9110 §7.8, RFC 6455 §4.1), at most [`MAX_NAME`] characters, as the layers clip what they quote.
fn name(v: &str) -> String {
    v.trim().chars().take(MAX_NAME).map(|c| c.to_ascii_lowercase()).collect()
}

impl McpTracker {
    /// A `101` answered on `conn`: unless it switched to `h2c`, what follows is not analysed.
    pub(super) fn switched(&mut self, conn: ConnId, tx: Option<TxId>, head: &ResponseHead, frame: u64, ts: Timestamp) {
        let protocol = head.headers.get("upgrade").map(name).unwrap_or_default();
        if protocol == "h2c" {
            return;
        }
        let Some(view) = self.conns.get_mut(&conn) else { return };
        let (client, server) = (view.client, view.server);
        let req = view.tx_mut(tx).and_then(|t| t.req.as_deref());
        let (host, endpoint) = req.map(|r| (r.host().to_string(), r.path().to_string())).unwrap_or_default();
        let sub = head.headers.get("sec-websocket-protocol").map(name).unwrap_or_default();
        // The server agreed to speak MCP, or the request was an MCP request by its headers, or the client
        // offered MCP and the server chose no other subprotocol: async-mcp 0.1 (Rust) grants none and speaks
        // MCP on the socket (samples/ecosystem/rust4-asyncmcp-ws.pcap).
        let mcp = sub.split(',').any(|s| s.trim() == "mcp")
            || req.is_some_and(|r| r.mcp_headers() || (sub.is_empty() && r.offers_mcp_subprotocol()));
        let key = (server, if protocol.is_empty() { "(none)".to_string() } else { protocol });
        if self.switched.by.len() >= MAX_NOTES && !self.switched.by.contains_key(&key) {
            return;
        }
        let note = self.switched.by.entry(key).or_insert_with(|| Note {
            subprotocols: Vec::new(),
            connections: 0,
            mcp: false,
            seen: Seen::new(ts, client, host, endpoint),
        });
        note.connections += 1;
        note.mcp |= mcp;
        if !sub.is_empty() {
            add_distinct(&mut note.subprotocols, &sub, MAX_SUBPROTOCOLS);
        }
        note.seen.frame(frame);
    }

    /// End of capture: one `upgrade_unanalysed` fact per server and protocol.
    pub(super) fn finish_switched<F: FnMut(Fact)>(&mut self, out: &mut F) {
        for ((server, protocol), n) in std::mem::take(&mut self.switched.by) {
            out(Fact {
                ctx: n.seen.context(format!("{server} upgrade {protocol}"), server),
                kind: FactKind::UpgradeUnanalysed(facts::UpgradeUnanalysed {
                    protocol: protocol.into(),
                    subprotocol: n.subprotocols.join("; ").into(),
                    connections: i64::try_from(n.connections).unwrap_or(i64::MAX),
                    mcp: n.mcp,
                }),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::mcp::harness::*;

    /// A `GET` answered `101` with `headers`, on a new connection of `client`.
    fn upgrade(h: &mut Harness, client: &str, req: &[&str], resp: &[&str]) {
        let c = h.connect(client);
        let tx = h.request(c, "GET", "/ws", req, "");
        h.head(c, tx, 101, resp);
    }

    #[test]
    fn mcp_over_websocket_is_said_and_other_switches_are_not_alarms() {
        let mut h = Harness::new();
        let ws = ["Upgrade: websocket", "Connection: Upgrade", "Sec-WebSocket-Protocol: mcp"];
        upgrade(&mut h, "10.0.0.1:40000", &ws, &["Upgrade: websocket", "Sec-WebSocket-Protocol: MCP"]);
        upgrade(&mut h, "10.0.0.1:40001", &ws, &["Upgrade: WebSocket", "Sec-WebSocket-Protocol: mcp"]);
        // A chat socket on the same server, and an h2c upgrade (analysed as HTTP/2): no MCP, no row.
        upgrade(&mut h, "10.0.0.2:40000", &["Upgrade: websocket"], &["Upgrade: websocket", "Sec-WebSocket-Protocol: chat"]);
        upgrade(&mut h, "10.0.0.3:40000", &["Upgrade: h2c"], &["Upgrade: h2c"]);
        h.finish();
        assert_eq!(
            h.evidence(),
            [(
                "CAPTURE-UPGRADE-UNANALYSED".to_string(),
                "3 connection(s) switched by 101 Switching Protocols to websocket (subprotocol mcp; chat), at least one carrying MCP: not analysed after the switch".to_string()
            )]
        );
        let facts = h.facts_of("upgrade_unanalysed");
        assert_eq!(facts.len(), 1, "h2c is analysed, not noticed: {facts:?}");
        // The same switch with MCP headers on the request and no subprotocol is MCP too.
        let mut h = Harness::new();
        upgrade(&mut h, "10.0.0.1:40000", &["Upgrade: websocket", V25], &["Upgrade: websocket"]);
        h.finish();
        assert_eq!(h.fired(), ["CAPTURE-UPGRADE-UNANALYSED"]);
        // A client that offers `mcp` to a server that grants no subprotocol speaks MCP on the socket
        // (async-mcp 0.1); one whose server chose another subprotocol does not.
        let offered = |granted: &[&str]| {
            let mut h = Harness::new();
            upgrade(&mut h, "10.0.0.1:40000", &["Upgrade: websocket", "Sec-WebSocket-Protocol: chat, MCP"], granted);
            h.finish();
            h.fired()
        };
        assert_eq!(offered(&["Upgrade: websocket"]), ["CAPTURE-UPGRADE-UNANALYSED"]);
        assert!(offered(&["Upgrade: websocket", "Sec-WebSocket-Protocol: chat"]).is_empty());
        // Without MCP evidence the fact is there for a user's rule, and the built-in one stays silent.
        let mut h = Harness::new();
        upgrade(&mut h, "10.0.0.2:40000", &["Upgrade: websocket"], &["Upgrade: websocket", "Sec-WebSocket-Protocol: chat"]);
        h.finish();
        assert_eq!((h.facts_of("upgrade_unanalysed").len(), h.fired()), (1, Vec::<String>::new()));
    }
}
