//! A wire-keyed map for state that is never removed (per client and server, per server), which
//! remembers the slots of the keys it found lately.
//!
//! One exchange asks for its client's and its server's state half a dozen times, from the request's head
//! to the response's end, and each time the key (an address pair, an address) went through the keyed
//! SipHash of [`crate::keyed`]: about 1 % of a run's instructions for lookups whose answer was the one
//! just given. Here the values live in slots that never move, since nothing is removed, and the slots are
//! found through a [`LastFound`] index: a lookup of a key found lately is a fast hash and one comparison. Any
//! other key is looked up as before, so what the map holds and answers is exactly a `WireMap`'s.

use std::hash::Hash;

use crate::keyed::LastFound;

#[derive(Debug)]
pub(super) struct Slots<K: Copy, V> {
    index: LastFound<K>,
    // ALLOC: one slot per key, bounded as the caller bounds the keys it inserts
    values: Vec<V>,
    /// What a slot out of range would be given, which no slot is: there is no panic path.
    spare: V,
}

impl<K: Copy, V: Default> Default for Slots<K, V> {
    fn default() -> Self {
        Slots { index: LastFound::default(), values: Vec::new(), spare: V::default() }
    }
}

impl<K: Copy + Eq + Hash, V: Default> Slots<K, V> {
    pub fn get(&self, key: &K) -> Option<&V> {
        self.index.find(key).and_then(|at| self.values.get(at))
    }

    pub fn get_mut(&mut self, key: &K) -> Option<&mut V> {
        self.index.get(key).and_then(|at| self.values.get_mut(at))
    }

    pub fn contains_key(&self, key: &K) -> bool {
        self.index.contains_key(key)
    }

    /// The value of `key`, a default one inserted if there was none.
    pub fn get_or_default(&mut self, key: K) -> &mut V {
        let at = match self.index.get(&key) {
            Some(at) => at,
            None => {
                let at = self.values.len();
                self.values.push(V::default());
                self.index.insert(key, at);
                at
            }
        };
        match self.values.get_mut(at) {
            Some(v) => v,
            None => &mut self.spare,
        }
    }

    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Every key with its value, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.index.iter().filter_map(|(k, at)| self.values.get(at).map(|v| (k, v)))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn answers_as_a_map_does_whatever_key_was_last() {
        let mut slots: Slots<u32, Vec<u32>> = Slots::default();
        let mut map: crate::keyed::WireMap<u32, Vec<u32>> = crate::keyed::WireMap::default();
        // Keys in runs and alternations, absent ones asked between, values changed through every path.
        let ops = [1u32, 1, 2, 1, 3, 3, 2, 9, 1, 4, 4, 9, 2];
        for (i, &k) in ops.iter().enumerate() {
            let absent = k + 100;
            assert!(slots.get(&absent).is_none() && !slots.contains_key(&absent));
            assert_eq!(slots.get(&k), map.get(&k), "{i}: get {k}");
            assert_eq!(slots.contains_key(&k), map.contains_key(&k));
            match i % 3 {
                0 => {
                    slots.get_or_default(k).push(i as u32);
                    map.entry(k).or_default().push(i as u32);
                }
                1 => {
                    if let Some(v) = slots.get_mut(&k) {
                        v.push(i as u32 * 10);
                    }
                    if let Some(v) = map.get_mut(&k) {
                        v.push(i as u32 * 10);
                    }
                }
                _ => {
                    slots.get_or_default(k);
                    map.entry(k).or_default();
                }
            }
            assert_eq!(slots.get(&k), map.get(&k), "{i}: after {k}");
            assert_eq!(slots.len(), map.len());
        }
        let mut all: Vec<(u32, Vec<u32>)> = slots.iter().map(|(k, v)| (*k, v.clone())).collect();
        let mut want: Vec<(u32, Vec<u32>)> = map.into_iter().collect();
        all.sort();
        want.sort();
        assert_eq!(all, want);
    }

    #[test]
    fn a_key_missed_after_a_hit_is_not_given_the_last_slot() {
        let mut slots: Slots<(u8, u16), u32> = Slots::default();
        *slots.get_or_default((1, 80)) = 7;
        assert_eq!(slots.get(&(1, 80)), Some(&7));
        // Same address, other port; other address, same port: neither is the remembered key.
        assert_eq!(slots.get(&(1, 81)), None);
        assert_eq!(slots.get(&(2, 80)), None);
        *slots.get_or_default((2, 80)) = 9;
        assert_eq!((slots.get(&(1, 80)), slots.get(&(2, 80))), (Some(&7), Some(&9)));
    }
}
