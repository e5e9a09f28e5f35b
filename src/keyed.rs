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

use std::cell::Cell;
use std::collections::hash_map::RandomState;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, DefaultHasher, Hash, Hasher};

/// A map keyed from the wire.
pub type WireMap<K, V> = HashMap<K, V, WireState>;
/// A set of values from the wire.
pub type WireSet<K> = HashSet<K, WireState>;

/// How many entries a [`LastFound`] remembers: more than the connections (or clients) the bench capture
/// interleaves at once, few enough that they stay in the core's cache.
pub const RECENT: usize = 64;

/// The place `key` may be remembered at in a memory of [`RECENT`] entries: `FxHash`, fast and not keyed.
/// Whoever sends the traffic can make keys share a place, and all that buys is misses: a memory is only
/// a shortcut to what its keyed map holds, and answers for a key only when equal to the one it kept.
#[inline]
pub fn recent_place<K: Hash + ?Sized>(key: &K, places: usize) -> usize {
    let mut h = rustc_hash::FxHasher::default();
    key.hash(&mut h);
    // `finish` brings the best-mixed bits (the product's top ones) down to the bottom.
    h.finish() as usize % places
}

/// Bucket numbers a [`RecentPlaces`] remembers: eight bytes each, so more than [`RECENT`] entries.
const RECENT_PLACES: usize = 256;

/// Where keys looked up lately were found in a table (bucket numbers), each at its key's
/// [`recent_place`]: the table's own test of the key decides whether a number remembered still holds it.
#[derive(Debug)]
pub struct RecentPlaces([Cell<usize>; RECENT_PLACES]);

impl Default for RecentPlaces {
    fn default() -> Self {
        RecentPlaces(std::array::from_fn(|_| Cell::new(usize::MAX)))
    }
}

impl RecentPlaces {
    /// The number remembered at `key`'s place, to read and to replace.
    #[inline]
    pub fn of<K: Hash + ?Sized>(&self, key: &K) -> Option<&Cell<usize>> {
        self.0.get(recent_place(key, RECENT_PLACES))
    }
}

/// A wire-keyed index (key to slot) that remembers the entries it found last beside the map: lookups
/// come in runs of a few keys interleaved (a response's segments back to back, a client's exchanges on
/// two connections), and each lookup the memory answers is one fast unkeyed hash and one comparison
/// instead of the keyed hash and a probe.
///
/// The memory is direct-mapped: an entry can only sit at the key's [`recent_place`]. It holds a copy of
/// an entry the map has (an insert writes it, a removal clears it), and a key is answered from it only
/// when equal to the one kept; any other lookup goes to the keyed map as before.
#[derive(Debug)]
pub struct LastFound<K: Copy> {
    map: WireMap<K, usize>,
    recent: [Option<(K, usize)>; RECENT],
}

impl<K: Copy> Default for LastFound<K> {
    fn default() -> Self {
        LastFound { map: WireMap::default(), recent: [None; RECENT] }
    }
}

impl<K: Copy + Eq + Hash> LastFound<K> {
    #[inline]
    fn remembered(&self, key: &K, at: usize) -> Option<usize> {
        match self.recent.get(at) {
            Some(Some((k, v))) if k == key => Some(*v),
            _ => None,
        }
    }

    fn remember(&mut self, at: usize, entry: Option<(K, usize)>) {
        if let Some(e) = self.recent.get_mut(at) {
            *e = entry;
        }
    }

    pub fn get(&mut self, key: &K) -> Option<usize> {
        let at = recent_place(key, RECENT);
        if let Some(v) = self.remembered(key, at) {
            return Some(v);
        }
        let v = *self.map.get(key)?;
        self.remember(at, Some((*key, v)));
        Some(v)
    }

    /// The value of `key`, through the entries remembered without remembering it (for lookups that
    /// cannot change the index).
    pub fn find(&self, key: &K) -> Option<usize> {
        self.remembered(key, recent_place(key, RECENT)).or_else(|| self.map.get(key).copied())
    }

    /// The value `key` had, if any.
    pub fn insert(&mut self, key: K, value: usize) -> Option<usize> {
        self.remember(recent_place(&key, RECENT), Some((key, value)));
        self.map.insert(key, value)
    }

    pub fn remove(&mut self, key: &K) -> Option<usize> {
        let at = recent_place(key, RECENT);
        if self.remembered(key, at).is_some() {
            self.remember(at, None);
        }
        self.map.remove(key)
    }

    /// Whether `key` is there, without remembering it.
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

    /// The value of `key`, without remembering it (for tests).
    #[cfg(test)]
    pub(crate) fn peek(&self, key: &K) -> Option<usize> {
        self.map.get(key).copied()
    }

    /// What the memory holds for `key` (for tests).
    #[cfg(test)]
    pub(crate) fn remembered_for(&self, key: &K) -> Option<usize> {
        self.remembered(key, recent_place(key, RECENT))
    }

    /// Every entry the memory holds (for tests).
    #[cfg(test)]
    pub(crate) fn all_remembered(&self) -> impl Iterator<Item = (K, usize)> + '_ {
        self.recent.iter().flatten().copied()
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

/// xorshift64, for tests: a fixed sequence of inputs, so that a failure is reproduced.
#[cfg(test)]
pub(crate) fn xorshift(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
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
    fn an_index_answers_as_its_map_does_whatever_it_remembers() {
        // Ten times more keys than the memory has places, so that keys share them: inserts of new keys
        // and of present ones with another value, removals (of keys remembered and not), lookups in runs.
        let mut index: LastFound<u32> = LastFound::default();
        let mut map: WireMap<u32, usize> = WireMap::default();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for step in 0..50_000 {
            let k = (xorshift(&mut seed) % (10 * RECENT as u64)) as u32;
            for _ in 0..=xorshift(&mut seed) % 3 {
                match xorshift(&mut seed) % 5 {
                    0 => assert_eq!(index.insert(k, step), map.insert(k, step), "step {step}: insert {k}"),
                    1 => assert_eq!(index.remove(&k), map.remove(&k), "step {step}: remove {k}"),
                    2 => assert_eq!(index.find(&k), map.get(&k).copied(), "step {step}: find {k}"),
                    _ => assert_eq!(index.get(&k), map.get(&k).copied(), "step {step}: get {k}"),
                }
                assert_eq!(index.contains_key(&k), map.contains_key(&k));
            }
        }
        // Whatever it holds at the end is an entry of the map.
        assert!(index.all_remembered().all(|(k, v)| map.get(&k) == Some(&v)));
        assert!(index.all_remembered().count() > RECENT / 2, "the memory was used");
    }

    #[test]
    fn keys_sharing_a_place_are_told_apart() {
        let (a, b) = {
            let a = 1u32;
            let b = (2..).find(|b| recent_place(b, RECENT) == recent_place(&a, RECENT)).unwrap();
            (a, b)
        };
        let mut index: LastFound<u32> = LastFound::default();
        index.insert(a, 10);
        assert_eq!(index.get(&a), Some(10));
        // b shares a's place: not given a's slot, then remembered in its stead without losing a.
        assert_eq!(index.get(&b), None);
        index.insert(b, 20);
        assert_eq!((index.get(&b), index.remembered_for(&a)), (Some(20), None));
        assert_eq!((index.get(&a), index.find(&b)), (Some(10), Some(20)));
        // Removing b while a is the one remembered leaves a remembered.
        assert_eq!(index.remove(&b), Some(20));
        assert_eq!((index.remembered_for(&a), index.get(&b)), (Some(10), None));
    }

    #[test]
    fn gathered_writes_hash_as_the_same_writes_streamed() {
        // Every split of keys around the buffer's size: short writes, a write that overflows what is
        // left, writes longer than the whole buffer, and empty ones. SipHash is a hash of the byte
        // stream, so gathering must give exactly the streamed hash (same key, same resistance).
        let state = WireState::default();
        let mut seed = 7u64;
        let mut rnd = move || crate::keyed::xorshift(&mut seed);
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
