//! Which shard a TCP segment goes to: the one its connection's server is assigned to, so every
//! connection of a server, and with them every MCP session, legacy GET stream and stateless exchange that
//! hangs off that server, is analysed whole by one worker.
//!
//! The servers of a file run's first segments are placed before any of them is routed, heaviest first by
//! their traffic among those segments ([`Router::plan`], the dispatcher's warm-up window); a server first
//! seen later is given, the first time it is seen, to the worker with the least traffic handed out so far
//! (payload bytes plus a per-segment cost). Each keeps its worker for the run: a handful of busy servers
//! then spread as evenly as whole servers can, where a hash of a few addresses would leave some workers idle.
//! The assignment depends on the capture alone, never on timing, so a run splits the same way every
//! time. Past [`MAX_SERVERS`] distinct servers, new ones are hashed instead ([`shard_of`]), which needs no
//! memory and still never moves a server.
//!
//! The server is known from the handshake (RFC 9293 §3.5: the SYN goes to it, the SYN-ACK comes from it).
//! A connection picked up midstream is decided as reassembly decides it: by its first payload, a request
//! line from the client or a status line from the server, else by the port guess (`reassembly::
//! guess_server`, `speaker_is_client`). Each connection's worker is remembered, so every later packet
//! follows it whatever it carries; the table is bounded like reassembly's, oldest forgotten first.
//!
//! Where this cannot follow one thread exactly: a midstream pickup whose first packets carry no payload
//! (bare ACKs) is routed by the port guess before anything decides it; if a request or status line later
//! decides it the other way (a server on a higher port than its client's), those first packets went to
//! another worker, which counts a connection of its own. And a 4-tuple keeps its worker for as long as it
//! is remembered: a SYN from the other side that takes it over (roles reversed, a new server) is analysed
//! where the old connection was, apart from that server's other connections. Reassembly counts both
//! (`ReassemblyStats::roles_unroutable`).

use std::collections::VecDeque;
use std::net::SocketAddr;

use crate::decode::flow_key::{FlowIndex, FlowKey};
use crate::decode::TcpSegment;
use crate::keyed::WireMap;
use crate::reassembly::{guess_server, speaker_is_client};

/// Servers assigned by load and remembered; later ones are hashed.
pub const MAX_SERVERS: usize = 1 << 16;

/// What a segment costs a worker besides its payload bytes (headers, reassembly, bookkeeping), in bytes.
const SEGMENT_COST: u64 = 64;

pub struct Router {
    shards: usize,
    // ALLOC: one entry per server address, at most MAX_SERVERS
    assigned: WireMap<SocketAddr, usize>,
    /// Traffic handed to each worker so far.
    load: Vec<u64>,
    /// The worker of each connection decided so far.
    // ALLOC: one entry per connection, bounded by `cap` (oldest forgotten first)
    flows: FlowIndex,
    order: VecDeque<FlowKey>,
    cap: usize,
}

impl Router {
    /// `cap`: connections remembered at most (the run's `max_connections`).
    pub fn new(shards: usize, cap: usize) -> Router {
        let shards = shards.max(1);
        Router {
            shards,
            assigned: WireMap::default(),
            load: vec![0; shards],
            flows: FlowIndex::default(),
            order: VecDeque::new(),
            cap: cap.max(1),
        }
    }

    /// The shard of `seg`'s connection.
    pub fn shard(&mut self, seg: &TcpSegment<'_>) -> usize {
        let key = FlowKey::new(seg.src, seg.dst);
        let shard = if let Some(shard) = self.flows.get(&key) {
            // Every packet of a known 4-tuple stays with it, a SYN too: reassembly must see a SYN that
            // takes over a live 4-tuple on the worker holding the connection it ends.
            shard
        } else {
            let shard = self.server_shard(server_of(seg));
            // A handshake settles the roles, and so does a pickup's first payload (as reassembly decides
            // them); a pickup's bare ACK settles nothing yet.
            if seg.handshake_server().is_some() || !seg.payload.is_empty() {
                self.remember(key, shard);
            }
            shard
        };
        if let Some(l) = self.load.get_mut(shard) {
            *l = l.saturating_add(cost(seg));
        }
        shard
    }

    /// Places the servers of a run's first segments before any of them is routed, heaviest first, each
    /// on the worker with the least planned traffic (the longest-processing-time rule: within 4/3 of the
    /// best split of whole servers). `traffic`: each server's [`cost`] summed over the window. Servers
    /// placed already keep their worker.
    pub fn plan(&mut self, traffic: &WireMap<SocketAddr, u64>) {
        let mut heaviest: Vec<(u64, SocketAddr)> = traffic.iter().map(|(&server, &t)| (t, server)).collect();
        // Ties by address: the plan depends on the capture alone.
        heaviest.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut planned = self.load.clone();
        for (t, server) in heaviest {
            if self.assigned.len() >= MAX_SERVERS || self.assigned.contains_key(&server) {
                continue;
            }
            let Some((least, _)) = planned.iter().enumerate().min_by_key(|&(i, &l)| (l, i)) else { return };
            self.assigned.insert(server, least);
            if let Some(l) = planned.get_mut(least) {
                *l = l.saturating_add(t);
            }
        }
    }

    /// The worker of a server: the one it was given, or the least loaded for a new one.
    fn server_shard(&mut self, server: SocketAddr) -> usize {
        match self.assigned.get(&server) {
            Some(&i) => i,
            None if self.assigned.len() < MAX_SERVERS => {
                let least = (0..self.shards).min_by_key(|&i| (self.load.get(i).copied().unwrap_or(0), i)).unwrap_or(0);
                self.assigned.insert(server, least);
                least
            }
            None => shard_of(server, self.shards),
        }
    }

    fn remember(&mut self, key: FlowKey, shard: usize) {
        if self.flows.insert(key, shard).is_some() {
            return;
        }
        self.order.push_back(key);
        while self.order.len() > self.cap {
            if let Some(old) = self.order.pop_front() {
                self.flows.remove(&old);
            }
        }
    }
}

/// What a segment costs its worker, in bytes: its payload plus [`SEGMENT_COST`].
pub fn cost(seg: &TcpSegment<'_>) -> u64 {
    seg.payload.len() as u64 + SEGMENT_COST
}

/// The server a segment's connection goes to, judged from the segment alone (the handshake, a request or
/// status line, else the port guess): how a connection not seen before is routed, and how servers are
/// weighed before any is placed.
pub fn server_of(seg: &TcpSegment<'_>) -> SocketAddr {
    seg.handshake_server().unwrap_or_else(|| match speaker_is_client(seg.payload) {
        Some(true) => seg.dst,
        Some(false) => seg.src,
        None => guess_server(&FlowKey::new(seg.src, seg.dst)),
    })
}

/// FNV-1a over the address: fixed, so a capture is split the same way on every run and machine.
pub fn shard_of(server: SocketAddr, shards: usize) -> usize {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    };
    match server.ip() {
        std::net::IpAddr::V4(ip) => ip.octets().into_iter().for_each(&mut eat),
        std::net::IpAddr::V6(ip) => ip.octets().into_iter().for_each(&mut eat),
    }
    server.port().to_be_bytes().into_iter().for_each(&mut eat);
    // `shards` is at most u16::MAX (the CLI's bound), so the cast back cannot truncate.
    (h % shards.max(1) as u64) as usize
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::decode::TcpFlags;
    use crate::time::Timestamp;

    fn seg(src: &str, dst: &str, flags: &str) -> TcpSegment<'static> {
        TcpSegment {
            frame: 1,
            ts: Timestamp::ZERO,
            src: src.parse().unwrap(),
            dst: dst.parse().unwrap(),
            seq: 1,
            ack: 1,
            flags: TcpFlags { syn: flags.contains('S'), ack: flags.contains('A'), fin: false, rst: false, psh: false },
            window: 0,
            payload: b"",
            missing: 0,
            tunnel: None,
            check: Default::default(),
        }
    }

    /// The shard every segment of a connection goes to, checked to be the same for all of them.
    fn one_shard(r: &mut Router, segs: &[TcpSegment<'_>]) -> usize {
        let shards: Vec<usize> = segs.iter().map(|s| r.shard(s)).collect();
        assert!(shards.windows(2).all(|w| w[0] == w[1]), "{shards:?}");
        shards[0]
    }

    #[test]
    fn a_forgotten_connection_is_not_found_again_through_the_last_lookup() {
        // One connection remembered at most: A is found (and kept in the index's memory), then B's
        // handshake makes the router forget A. A must then be unknown, as if never looked up: routed
        // afresh and remembered again, not answered from the lookup of a connection no longer held.
        let mut r = Router::new(2, 1);
        let (a, b) = (seg("10.0.0.1:5000", "10.0.0.9:80", "S"), seg("10.0.0.2:5000", "10.0.0.8:80", "S"));
        let key_a = FlowKey::new(a.src, a.dst);
        let first = r.shard(&a);
        assert_eq!(r.shard(&a), first);
        assert_eq!(r.flows.remembered_for(&key_a), Some(first));
        r.shard(&b);
        assert!(!r.flows.contains_key(&key_a) && r.flows.remembered_for(&key_a).is_none());
        assert!(r.flows.all_remembered().all(|(k, _)| k != key_a), "{:?}", r.flows.all_remembered().collect::<Vec<_>>());
        assert_eq!(r.shard(&a), first);
        assert!(r.flows.contains_key(&key_a));
    }

    #[test]
    fn every_connection_of_a_server_lands_on_its_shard_whatever_the_ports() {
        let server = "10.0.0.2:8080";
        let mut r = Router::new(7, 100);
        // Another server first, so that this one's shard is not simply the first.
        one_shard(&mut r, &[seg("10.0.0.1:40000", "10.0.0.3:80", "S")]);
        // A client on an ephemeral port: the port guess agrees with the handshake.
        let c1 = "10.0.0.1:40000";
        let want = one_shard(&mut r, &[seg(c1, server, "S"), seg(server, c1, "SA"), seg(c1, server, "A"), seg(server, c1, "A")]);
        assert_ne!(want, 0);
        // A client on a low port: only the handshake tells the server, and the data after it follows.
        let c2 = "10.0.0.9:80";
        let got = one_shard(&mut r, &[seg(c2, server, "S"), seg(server, c2, "SA"), seg(c2, server, "A"), seg(server, c2, "A")]);
        assert_eq!(got, want);
        // Midstream, the port guess stands in for the handshake.
        let c3 = "10.0.0.5:51000";
        assert_eq!(one_shard(&mut r, &[seg(server, c3, "A"), seg(c3, server, "A")]), want);
    }

    #[test]
    fn a_syn_taking_over_a_known_tuple_stays_with_it() {
        let mut r = Router::new(4, 100);
        let (c, s) = ("10.0.0.1:40000", "10.0.0.2:8080");
        let first = one_shard(&mut r, &[seg(c, s, "S"), seg(s, c, "SA")]);
        // Another server first, so that a re-decision would land elsewhere.
        assert_ne!(one_shard(&mut r, &[seg("10.0.0.7:40000", "10.0.0.8:80", "S")]), first);
        // The old server's SYN to the client's port: reassembly ends the old connection with it.
        assert_eq!(one_shard(&mut r, &[seg(s, c, "S"), seg(c, s, "SA")]), first);
    }

    #[test]
    fn a_plan_puts_the_heaviest_servers_apart_where_first_sight_pairs_them() {
        // Two heavy servers (a, b) and two light ones, first seen in the order a, c, b, d, each by its SYN.
        let (a, b, c, d) = ("10.0.1.1:80", "10.0.1.2:80", "10.0.1.3:80", "10.0.1.4:80");
        let syns = |r: &mut Router| -> Vec<usize> {
            [a, c, b, d].iter().enumerate().map(|(i, srv)| r.shard(&seg(&format!("10.0.0.1:{}", 40000 + i), srv, "S"))).collect()
        };
        // Placed at first sight, by the traffic handed out so far (a SYN each): a and b share worker 0.
        let blind = syns(&mut Router::new(2, 100));
        assert_eq!(blind[0], blind[2], "{blind:?}");
        // Weighed first: heaviest first on the least planned worker, so a and b are apart, and each light
        // one goes with the lighter of them.
        let mut r = Router::new(2, 100);
        let traffic: WireMap<SocketAddr, u64> =
            [(a, 1_000_000), (b, 900_000), (c, 20_000), (d, 10_000)].iter().map(|(s, t)| (s.parse().unwrap(), *t)).collect();
        r.plan(&traffic);
        let placed = syns(&mut r);
        assert_ne!(placed[0], placed[2], "{placed:?}");
        assert_eq!((placed[1], placed[3]), (placed[2], placed[2]), "{placed:?}");
        // A server placed already keeps its worker; one the plan did not see is placed at first sight.
        r.plan(&[(a.parse().unwrap(), 5_000_000)].into_iter().collect());
        assert_eq!(r.shard(&seg("10.0.0.9:40000", a, "S")), placed[0]);
        let e = r.shard(&seg("10.0.0.9:40001", "10.0.1.5:80", "S"));
        assert!(e < 2);
    }

    #[test]
    fn the_server_of_a_lone_segment_is_judged_like_reassembly_would() {
        let (c, s) = ("10.0.0.1:40000", "10.0.0.2:8080");
        assert_eq!(server_of(&seg(c, s, "S")), s.parse().unwrap());
        assert_eq!(server_of(&seg(s, c, "SA")), s.parse().unwrap());
        let mut resp = seg(s, c, "A");
        resp.payload = b"HTTP/1.1 200 OK\r\n";
        assert_eq!(server_of(&resp), s.parse().unwrap());
        // A client on the lower port, told by its request line; without payload, the port guess.
        let (low, high) = ("10.0.0.1:80", "10.0.0.2:50000");
        let mut req = seg(low, high, "A");
        req.payload = b"POST /mcp HTTP/1.1\r\n";
        assert_eq!(server_of(&req), high.parse().unwrap());
        assert_eq!(server_of(&seg(low, high, "A")), low.parse().unwrap());
    }

    #[test]
    fn remembered_connections_are_bounded_oldest_first() {
        let mut r = Router::new(3, 2);
        for port in [1, 2, 3] {
            r.shard(&seg(&format!("10.0.0.1:{port}"), "10.0.0.2:9000", "S"));
        }
        assert_eq!(r.flows.len(), 2);
        let first = FlowKey::new("10.0.0.1:1".parse().unwrap(), "10.0.0.2:9000".parse().unwrap());
        assert!(!r.flows.contains_key(&first));
    }

    #[test]
    fn a_midstream_pickup_follows_its_first_payload_like_reassembly() {
        let mut r = Router::new(4, 100);
        let server = "10.0.0.2:50000";
        let want = one_shard(&mut r, &[seg("10.0.0.1:40000", server, "S")]);
        let with = |src: &str, dst: &str, payload: &'static [u8]| {
            let mut s = seg(src, dst, "A");
            s.payload = payload;
            s
        };
        // A client on a lower port than its server: the port guess would name the client the server.
        // The request line decides, and the rest of the connection follows whatever it carries.
        let c = "10.0.0.9:1234";
        let got = one_shard(&mut r, &[with(c, server, b"POST /mcp HTTP/1.1\r\n"), with(server, c, b""), with(server, c, b"HTTP/1.1 200 OK\r\n"), with(c, server, b"{}")]);
        assert_eq!(got, want);
        // Picked up at a status line: the sender is the server.
        let c2 = "10.0.0.9:1235";
        assert_eq!(one_shard(&mut r, &[with(server, c2, b"HTTP/1.1 200 OK\r\n"), with(c2, server, b"GET / HTTP/1.1\r\n")]), want);
        // Data that does not speak settles the port guess, as reassembly adopts it with the data.
        let c3 = "10.0.0.9:1236";
        let guessed = r.server_shard("10.0.0.9:1236".parse().unwrap());
        assert_eq!(one_shard(&mut r, &[with(c3, server, b"xyz"), with(c3, server, b"POST / HTTP/1.1\r\n")]), guessed);
    }

    #[test]
    fn a_new_server_goes_to_the_least_loaded_worker_and_stays() {
        let mut r = Router::new(3, 100);
        let data = |src: &str, dst: &str, len: usize| {
            let mut s = seg(src, dst, "A");
            s.payload = &[0u8; 1000][..len];
            s
        };
        assert_eq!(r.shard(&data("10.0.0.1:40000", "10.0.0.10:80", 1000)), 0);
        assert_eq!(r.shard(&data("10.0.0.1:40001", "10.0.0.11:80", 10)), 1);
        assert_eq!(r.shard(&data("10.0.0.1:40002", "10.0.0.12:80", 500)), 2);
        // Worker 1 carries least: the next new server goes there, and servers never move.
        assert_eq!(r.shard(&data("10.0.0.1:40003", "10.0.0.13:80", 0)), 1);
        for _ in 0..10 {
            assert_eq!(r.shard(&data("10.0.0.1:40001", "10.0.0.11:80", 1000)), 1);
        }
        assert_eq!(r.shard(&data("10.0.0.12:80", "10.0.0.1:40002", 0)), 2);
        assert_eq!(r.shard(&data("10.0.0.1:40004", "10.0.0.14:80", 0)), 2);
    }

    #[test]
    fn servers_spread_over_the_shards() {
        let mut seen = [0usize; 4];
        for i in 0..64u8 {
            seen[shard_of(SocketAddr::from(([203, 0, 113, i], 443)), 4)] += 1;
        }
        assert!(seen.iter().all(|&n| n >= 8), "{seen:?}");
        assert_eq!(shard_of(SocketAddr::from(([203, 0, 113, 1], 443)), 1), 0);
    }
}
