//! Flow identity: a canonical 4-tuple (lower endpoint first) so both directions of a TCP connection map
//! to one key.

use std::hash::{Hash, Hasher};
use std::net::{IpAddr, SocketAddr};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct FlowKey {
    pub a: SocketAddr,
    pub b: SocketAddr,
}

/// The whole tuple in 12 bytes (IPv4) or 36 (otherwise): the maps keyed by it are keyed from the wire, so
/// they keep SipHash (hash flooding; `crate::keyed`), which costs by the byte hashed and is paid on every
/// packet, and the derived hash would write a dozen parts (variant tags, octets with their lengths, ports,
/// IPv6 flow info and scope ids). Mixed families hash as IPv4-mapped IPv6; equality tells them apart.
impl Hash for FlowKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        let ports = (u32::from(self.a.port()) << 16) | u32::from(self.b.port());
        match (self.a.ip(), self.b.ip()) {
            (IpAddr::V4(a), IpAddr::V4(b)) => {
                state.write_u64((u64::from(a.to_bits()) << 32) | u64::from(b.to_bits()));
            }
            (a, b) => {
                let wide = |ip: IpAddr| match ip {
                    IpAddr::V4(v4) => v4.to_ipv6_mapped().to_bits(),
                    IpAddr::V6(v6) => v6.to_bits(),
                };
                state.write_u128(wide(a));
                state.write_u128(wide(b));
            }
        }
        state.write_u32(ports);
    }
}

impl FlowKey {
    #[inline]
    pub fn new(src: SocketAddr, dst: SocketAddr) -> Self {
        if src <= dst {
            FlowKey { a: src, b: dst }
        } else {
            FlowKey { a: dst, b: src }
        }
    }
}

/// Connections by 4-tuple, to a slot or a worker, with the entries found lately kept beside the map: most
/// packets belong to a connection of the last few packets (a response's segments come back to back, the
/// other direction's acknowledgements between them), and the keyed hash of the 4-tuple was the costliest
/// step of a packet's lookup. Used by reassembly's index and by the router of `--threads N`.
pub type FlowIndex = crate::keyed::LastFound<FlowKey>;

/// Direction of bytes relative to the connection's roles.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    ToServer,
    ToClient,
}

impl Direction {
    pub fn index(self) -> usize {
        match self {
            Direction::ToServer => 0,
            Direction::ToClient => 1,
        }
    }
    pub fn reverse(self) -> Direction {
        match self {
            Direction::ToServer => Direction::ToClient,
            Direction::ToClient => Direction::ToServer,
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;

    #[test]
    fn equal_keys_hash_alike_and_addresses_ports_and_families_are_told_apart() {
        use std::collections::hash_map::RandomState;
        use std::hash::BuildHasher;
        let s = RandomState::new();
        let k = |x: &str, y: &str| FlowKey::new(x.parse().unwrap(), y.parse().unwrap());
        let base = k("10.0.0.1:5000", "10.0.0.2:80");
        assert_eq!(s.hash_one(base), s.hash_one(k("10.0.0.2:80", "10.0.0.1:5000")));
        // Each part of the tuple moves the hash (with a fixed key, these differ but for a 2^-64 chance).
        for other in [k("10.0.0.1:5001", "10.0.0.2:80"), k("10.0.0.1:5000", "10.0.0.2:81"), k("10.0.0.3:5000", "10.0.0.2:80"), k("10.0.0.1:5000", "10.0.0.4:80")] {
            assert_ne!(s.hash_one(base), s.hash_one(other), "{other:?}");
        }
        // IPv6, and one side of each family: every address and port still moves the hash.
        let six = k("[2001:db8::1]:5000", "[2001:db8::2]:80");
        for other in [k("[2001:db8::1]:5001", "[2001:db8::2]:80"), k("[2001:db8::3]:5000", "[2001:db8::2]:80"), k("[2001:db8::1]:5000", "[2001:db8::4]:80"), k("10.0.0.1:5000", "[2001:db8::2]:80")] {
            assert_ne!(s.hash_one(six), s.hash_one(other), "{other:?}");
        }
        let mixed = k("10.0.0.1:5000", "[2001:db8::2]:80");
        assert_ne!(s.hash_one(mixed), s.hash_one(k("10.0.0.9:5000", "[2001:db8::2]:80")));
        assert_ne!(s.hash_one(mixed), s.hash_one(k("10.0.0.1:5000", "[2001:db8::2]:81")));
        // An IPv4 key and its IPv4-mapped IPv6 twin are different keys, each found as itself.
        let mapped = k("[::ffff:10.0.0.1]:5000", "[::ffff:10.0.0.2]:80");
        assert_ne!(base, mapped);
        let mut m = std::collections::HashMap::new();
        m.insert(base, 1);
        m.insert(mapped, 2);
        m.insert(six, 3);
        assert_eq!((m.get(&base), m.get(&mapped), m.get(&six)), (Some(&1), Some(&2), Some(&3)));
    }

    #[test]
    fn key_is_symmetric() {
        let x: SocketAddr = "10.0.0.1:5000".parse().unwrap();
        let y: SocketAddr = "10.0.0.2:80".parse().unwrap();
        assert_eq!(FlowKey::new(x, y), FlowKey::new(y, x));
    }
}
