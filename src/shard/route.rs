//! Which shard a TCP segment goes to: the one its connection's server address hashes to, so every
//! connection of a server, and with them every MCP session, legacy GET stream and stateless exchange that
//! hangs off that server, is analysed whole by one worker.
//!
//! A server is given, the first time it is seen, to the worker with the least traffic handed out so far
//! (payload bytes plus a per-segment cost), and keeps it for the run: a handful of busy servers then
//! spread as evenly as whole servers can, where a hash of a few addresses would leave some workers idle.
//! The assignment depends on the capture alone, never on timing, so a run splits the same way every
//! time. Past [`MAX_SERVERS`] distinct servers, new ones are hashed instead ([`shard_of`]), which needs no
//! memory and still never moves a server.
//!
//! The server is known from the handshake (RFC 9293 §3.5: the SYN goes to it, the SYN-ACK comes from it)
//! or, for a connection picked up midstream, guessed from the ports exactly as reassembly guesses it
//! (`reassembly::guess_server`). Only connections whose handshake contradicts the port guess need
//! remembering; their table is bounded like reassembly's, oldest forgotten first.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;

use crate::decode::flow_key::FlowKey;
use crate::decode::TcpSegment;
use crate::reassembly::guess_server;

/// Servers assigned by load and remembered; later ones are hashed.
pub const MAX_SERVERS: usize = 1 << 16;

/// What a segment costs a worker besides its payload bytes (headers, reassembly, bookkeeping), in bytes.
const SEGMENT_COST: u64 = 64;

pub struct Router {
    shards: usize,
    // ALLOC: one entry per server address, at most MAX_SERVERS
    assigned: HashMap<SocketAddr, usize>,
    /// Traffic handed to each worker so far.
    load: Vec<u64>,
    /// Connections whose handshake named the other end the server than the port guess would.
    // ALLOC: one entry per such connection, bounded by `cap`
    against_guess: HashMap<FlowKey, SocketAddr>,
    order: VecDeque<FlowKey>,
    cap: usize,
}

impl Router {
    /// `cap`: connections remembered at most (the run's `max_connections`).
    pub fn new(shards: usize, cap: usize) -> Router {
        let shards = shards.max(1);
        Router {
            shards,
            assigned: HashMap::new(),
            load: vec![0; shards],
            against_guess: HashMap::new(),
            order: VecDeque::new(),
            cap: cap.max(1),
        }
    }

    /// The shard of `seg`'s connection.
    pub fn shard(&mut self, seg: &TcpSegment<'_>) -> usize {
        let server = self.server(seg);
        let shard = match self.assigned.get(&server) {
            Some(&i) => i,
            None if self.assigned.len() < MAX_SERVERS => {
                let least = (0..self.shards).min_by_key(|&i| (self.load.get(i).copied().unwrap_or(0), i)).unwrap_or(0);
                self.assigned.insert(server, least);
                least
            }
            None => shard_of(server, self.shards),
        };
        if let Some(l) = self.load.get_mut(shard) {
            *l = l.saturating_add(seg.payload.len() as u64 + SEGMENT_COST);
        }
        shard
    }

    fn server(&mut self, seg: &TcpSegment<'_>) -> SocketAddr {
        let key = FlowKey::new(seg.src, seg.dst);
        if seg.flags.syn && !seg.flags.rst {
            let server = if seg.flags.ack { seg.src } else { seg.dst };
            if server != guess_server(&key) {
                self.remember(key, server);
            } else {
                // A new connection on a 4-tuple that once had the other roles.
                self.against_guess.remove(&key);
            }
            return server;
        }
        self.against_guess.get(&key).copied().unwrap_or_else(|| guess_server(&key))
    }

    fn remember(&mut self, key: FlowKey, server: SocketAddr) {
        if self.against_guess.insert(key, server).is_some() {
            return;
        }
        self.order.push_back(key);
        while self.order.len() > self.cap {
            if let Some(old) = self.order.pop_front() {
                self.against_guess.remove(&old);
            }
        }
        // Entries removed by a later SYN leave their key in `order`; compact when they dominate.
        if self.order.len() > 2 * self.against_guess.len() + 64 {
            let live = &self.against_guess;
            self.order.retain(|k| live.contains_key(k));
        }
    }
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
        }
    }

    /// The shard every segment of a connection goes to, checked to be the same for all of them.
    fn one_shard(r: &mut Router, segs: &[TcpSegment<'_>]) -> usize {
        let shards: Vec<usize> = segs.iter().map(|s| r.shard(s)).collect();
        assert!(shards.windows(2).all(|w| w[0] == w[1]), "{shards:?}");
        shards[0]
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
    fn remembered_roles_are_bounded_oldest_first() {
        let mut r = Router::new(3, 2);
        for port in [1, 2, 3] {
            r.shard(&seg(&format!("10.0.0.1:{port}"), "10.0.0.2:9000", "S"));
        }
        assert_eq!(r.against_guess.len(), 2);
        let first = FlowKey::new("10.0.0.1:1".parse().unwrap(), "10.0.0.2:9000".parse().unwrap());
        assert!(!r.against_guess.contains_key(&first));
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
