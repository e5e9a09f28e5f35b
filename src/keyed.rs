//! Hashing for maps whose keys come from the wire (addresses, session ids, event ids, JSON-RPC ids).
//!
//! Such keys can be chosen by whoever sends the traffic, so these maps keep std's keyed SipHash-1-3 with a
//! random key per map (hash flooding: Crosby and Wallach, USENIX Security 2003; Zeek and Suricata seed
//! their flow and table hashes for the same reason). What costs is not SipHash's rounds but its per-write
//! overhead: the derived `Hash` of an address or a session key makes half a dozen small writes (variant
//! tags, octets, ports, the string and its terminator), each handled separately by the hasher.
//! [`WireHasher`] gathers the writes of one key in a small buffer and gives SipHash the whole key in one
//! write: SipHash hashes the concatenation of what it is written, so the hash is the one the same
//! writes would give streamed, with the same key and the same resistance; only a key longer than the
//! buffer is streamed in parts.
//!
//! The bytes are fewer too: derived `Hash` writes every enum variant (a socket address's, an IP address's,
//! a session key's, an `Option`'s) and every slice length as an `isize` or `usize`, eight bytes, and
//! SipHash costs by the eight bytes. [`WireHasher`] writes such a value as four bytes when it
//! is below `u32::MAX`, as all of them are, and otherwise as four bytes of ones and the eight: one value,
//! one encoding, and no encoding a prefix of another, so distinct keys still give SipHash distinct byte
//! strings and the resistance is unchanged.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, DefaultHasher, Hash, Hasher};

/// A map keyed from the wire.
pub type WireMap<K, V> = HashMap<K, V, WireState>;
/// A set of values from the wire.
pub type WireSet<K> = HashSet<K, WireState>;

/// A wire-keyed index (key to slot) that keeps the entry found last beside the map: where lookups come
/// in runs of one key, the next of the run is one comparison instead of the keyed hash. The kept entry
/// is dropped whenever the map changes, so it can never answer for a key the map no longer holds.
#[derive(Debug)]
pub struct LastFound<K: Copy> {
    map: WireMap<K, usize>,
    last: Option<(K, usize)>,
}

impl<K: Copy> Default for LastFound<K> {
    fn default() -> Self {
        LastFound { map: WireMap::default(), last: None }
    }
}

impl<K: Copy + Eq + Hash> LastFound<K> {
    pub fn get(&mut self, key: &K) -> Option<usize> {
        if let Some((k, v)) = self.last {
            if k == *key {
                return Some(v);
            }
        }
        let v = *self.map.get(key)?;
        self.last = Some((*key, v));
        Some(v)
    }

    /// The value of `key`, through the entry found last without replacing it (for lookups that cannot
    /// change the index).
    pub fn find(&self, key: &K) -> Option<usize> {
        match self.last {
            Some((k, v)) if k == *key => Some(v),
            _ => self.map.get(key).copied(),
        }
    }

    /// The value `key` had, if any.
    pub fn insert(&mut self, key: K, value: usize) -> Option<usize> {
        self.last = None;
        self.map.insert(key, value)
    }

    pub fn remove(&mut self, key: &K) -> Option<usize> {
        self.last = None;
        self.map.remove(key)
    }

    /// Whether `key` is there, without keeping it as the last found.
    pub fn contains_key(&self, key: &K) -> bool {
        self.map.contains_key(key)
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// Every key with its value, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, usize)> {
        self.map.iter().map(|(k, &v)| (k, v))
    }

    /// The value of `key`, without keeping it as the last found (for tests).
    #[cfg(test)]
    pub(crate) fn peek(&self, key: &K) -> Option<usize> {
        self.map.get(key).copied()
    }

    /// The entry kept from the last lookup (for tests).
    #[cfg(test)]
    pub(crate) fn last(&self) -> Option<(K, usize)> {
        self.last
    }
}

/// Bytes gathered before they are handed to SipHash: an IPv6 socket address and a UUID session id fit.
const GATHER: usize = 96;

/// std's random SipHash key, one per map, building [`WireHasher`]s.
#[derive(Debug, Clone, Default)]
pub struct WireState(RandomState);

impl BuildHasher for WireState {
    type Hasher = WireHasher;

    fn build_hasher(&self) -> WireHasher {
        WireHasher { sip: self.0.build_hasher(), buf: [0; GATHER], len: 0 }
    }
}

/// SipHash over the gathered writes of one key.
#[derive(Debug, Clone)]
pub struct WireHasher {
    sip: DefaultHasher,
    buf: [u8; GATHER],
    len: usize,
}

impl WireHasher {
    fn gathered(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or_default()
    }
}

impl Hasher for WireHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let end = self.len + bytes.len();
        if let Some(room) = self.buf.get_mut(self.len..end) {
            room.copy_from_slice(bytes);
            self.len = end;
            return;
        }
        // Longer than what is left: what was gathered goes first, in order, then these bytes.
        self.sip.write(self.buf.get(..self.len).unwrap_or_default());
        self.len = 0;
        match self.buf.get_mut(..bytes.len()) {
            Some(room) => {
                room.copy_from_slice(bytes);
                self.len = bytes.len();
            }
            None => self.sip.write(bytes),
        }
    }

    /// Four bytes for a length or a variant, not eight (see the module's comment).
    #[inline]
    fn write_usize(&mut self, n: usize) {
        match u32::try_from(n) {
            Ok(small) if small != u32::MAX => self.write(&small.to_ne_bytes()),
            _ => {
                self.write(&u32::MAX.to_ne_bytes());
                self.write(&(n as u64).to_ne_bytes());
            }
        }
    }

    #[inline]
    fn write_isize(&mut self, n: isize) {
        self.write_usize(n as usize);
    }

    #[inline]
    fn finish(&self) -> u64 {
        let mut sip = self.sip.clone();
        sip.write(self.gathered());
        sip.finish()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use std::hash::Hash;

    /// The hash of `parts` written one by one through a `WireHasher`, and through SipHash directly.
    fn both(state: &WireState, parts: &[Vec<u8>]) -> (u64, u64) {
        let mut wire = state.build_hasher();
        let mut sip = state.0.build_hasher();
        for p in parts {
            wire.write(p);
            sip.write(p);
        }
        (wire.finish(), sip.finish())
    }

    #[test]
    fn gathered_writes_hash_as_the_same_writes_streamed() {
        // Every split of keys around the buffer's size: short writes, a write that overflows what is
        // left, writes longer than the whole buffer, and empty ones. SipHash is a hash of the byte
        // stream, so gathering must give exactly the streamed hash (same key, same resistance).
        let state = WireState::default();
        let mut seed = 7u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..2_000 {
            let parts: Vec<Vec<u8>> = (0..rnd() % 8)
                .map(|_| {
                    let n = match rnd() % 4 {
                        0 => 0,
                        1 => rnd() % 9,
                        2 => rnd() % (GATHER as u64 + 8),
                        _ => rnd() % (3 * GATHER as u64),
                    };
                    (0..n).map(|_| rnd() as u8).collect()
                })
                .collect();
            let (wire, sip) = both(&state, &parts);
            assert_eq!(wire, sip, "writes of {:?} bytes", parts.iter().map(Vec::len).collect::<Vec<_>>());
        }
    }

    /// What a `WireHasher` hands SipHash for `write_usize(n)` alone.
    fn usize_bytes(n: usize) -> Vec<u8> {
        let mut h = WireState::default().build_hasher();
        h.write_usize(n);
        h.gathered().to_vec()
    }

    #[test]
    fn lengths_and_variants_are_four_bytes_and_one_to_one() {
        let big = u32::MAX as usize;
        assert_eq!(usize_bytes(0), [0, 0, 0, 0]);
        assert_eq!(usize_bytes(0x0102_0304), 0x0102_0304u32.to_ne_bytes());
        assert_eq!(usize_bytes(big - 1).len(), 4);
        // From u32::MAX on: the marker and the whole value, so that no two values share an encoding and
        // none is the start of another (a short one never begins with the marker).
        let values = [0, 1, 255, 256, big - 1, big, big + 1, usize::MAX, 1 << 40, (1 << 40) + 1];
        let encodings: Vec<Vec<u8>> = values.iter().map(|&n| usize_bytes(n)).collect();
        for (i, a) in encodings.iter().enumerate() {
            for (j, b) in encodings.iter().enumerate() {
                if i != j {
                    assert!(!b.starts_with(a), "{} encodes as a prefix of {}", values[i], values[j]);
                }
            }
        }
        assert_eq!(usize_bytes(big), [u32::MAX.to_ne_bytes().as_slice(), &(big as u64).to_ne_bytes()].concat());
        let mut h = WireState::default().build_hasher();
        h.write_isize(-1);
        assert_eq!(h.gathered(), usize_bytes(usize::MAX));
    }

    #[test]
    fn derived_hashes_of_wire_keys_are_siphash_of_their_gathered_writes() {
        let state = WireState::default();
        let addr: std::net::SocketAddr = "[2001:db8::15]:8080".parse().unwrap();
        let key = (addr, "d3878a98-3785-4665-b7df-5b624e487d00".to_string(), 7u32);
        // What the derived hash writes: the address's variant (four bytes), its sixteen octets, the port,
        // flow info and scope id (IPv6); the string and its terminator; the u32.
        let mut wire = state.build_hasher();
        key.hash(&mut wire);
        let mut want = Vec::new();
        want.extend_from_slice(&1u32.to_ne_bytes());
        want.extend_from_slice(&[0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x15]);
        want.extend_from_slice(&8080u16.to_ne_bytes());
        want.extend_from_slice(&0u32.to_ne_bytes());
        want.extend_from_slice(&0u32.to_ne_bytes());
        want.extend_from_slice(b"d3878a98-3785-4665-b7df-5b624e487d00\xff");
        want.extend_from_slice(&7u32.to_ne_bytes());
        assert_eq!(wire.gathered(), want.as_slice());
        // Through the map's hasher, and through SipHash with the same key over those bytes.
        assert_eq!(state.hash_one(&key), both(&state, &[want]).1);
        // A map works as a map: keys that differ only past the buffer are told apart.
        let mut m: WireMap<String, usize> = WireMap::default();
        let long = "x".repeat(3 * GATHER);
        for i in 0..100 {
            m.insert(format!("{long}{i}"), i);
        }
        assert!((0..100).all(|i| m.get(&format!("{long}{i}")) == Some(&i)));
    }
}
