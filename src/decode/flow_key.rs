//! Flow identity: a canonical 4-tuple (lower endpoint first) so both directions of a TCP connection map
//! to one key.

use std::net::SocketAddr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FlowKey {
    pub a: SocketAddr,
    pub b: SocketAddr,
}

impl FlowKey {
    pub fn new(src: SocketAddr, dst: SocketAddr) -> Self {
        if src <= dst {
            FlowKey { a: src, b: dst }
        } else {
            FlowKey { a: dst, b: src }
        }
    }
}

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
    fn key_is_symmetric() {
        let x: SocketAddr = "10.0.0.1:5000".parse().unwrap();
        let y: SocketAddr = "10.0.0.2:80".parse().unwrap();
        assert_eq!(FlowKey::new(x, y), FlowKey::new(y, x));
    }
}
