//! Range tracking for out-of-order stream data: which 64-bit stream offsets above the delivery point have
//! been received. This file owns ranges only; the bytes live beside it in `stream.rs` (smoltcp's split:
//! `storage/assembler.rs` tracks contigs, `RingBuffer` holds bytes).
//!
//! It must not know about sequence numbers (RFC 9293 §3.4 wraparound is resolved before offsets get here),
//! about bytes, or about delivery; `stream.rs` asks it two questions: "which parts of `[a, b)` are new?"
//! and "forget what was delivered".
//!
//! Unlike smoltcp's fixed array of contigs, ranges are kept in a `BTreeMap` so a pathological pattern of
//! many small holes costs `O(log n)` per operation instead of failing with `TooManyHolesError`; the number
//! of ranges is bounded by the caller's byte budget (every stored piece is charged at least
//! `stream::PIECE_OVERHEAD` bytes against `Limits::max_ooo_bytes_per_stream`).

use std::collections::BTreeMap;

/// A set of half-open offset ranges `[start, end)`.
///
/// Invariant (checked by the model test): every range is non-empty, and ranges are disjoint and
/// non-adjacent — two ranges that touch are merged into one. Together this makes the representation of a
/// set of offsets unique, so "the first uncovered offset after a range" is always that range's end.
#[derive(Debug, Clone, Default)]
pub(crate) struct Assembler {
    /// start -> end.
    ranges: BTreeMap<u64, u64>,
}

impl Assembler {
    pub(crate) fn new() -> Self {
        Assembler { ranges: BTreeMap::new() }
    }

    #[cfg(test)]
    pub(crate) fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Number of disjoint ranges (one more than the number of holes between them).
    #[cfg(test)]
    pub(crate) fn range_count(&self) -> usize {
        self.ranges.len()
    }

    /// The lowest range, if any.
    #[cfg(test)]
    pub(crate) fn first(&self) -> Option<(u64, u64)> {
        self.ranges.first_key_value().map(|(&s, &e)| (s, e))
    }

    /// Marks `[start, end)` as received, merging with overlapping or touching ranges.
    pub(crate) fn insert(&mut self, start: u64, end: u64) {
        if start >= end {
            return;
        }
        let mut s = start;
        let mut e = end;
        // A range starting at or before `start` that reaches it (touching counts) absorbs the new one.
        if let Some((&ps, &pe)) = self.ranges.range(..=start).next_back() {
            if pe >= start {
                s = ps;
                e = e.max(pe);
            }
        }
        // Every range starting inside `[s, e]` (touching counts) is absorbed; `e` may grow as we go.
        // `s <= e` holds here, so the range bounds are valid.
        while let Some((&k, &v)) = self.ranges.range(s..=e).next() {
            self.ranges.remove(&k);
            e = e.max(v);
        }
        // ALLOC: one BTreeMap entry per disjoint range, bounded by limits::max_ooo_bytes_per_stream (the
        // caller charges every stored piece at least stream::PIECE_OVERHEAD bytes).
        self.ranges.insert(s, e);
    }

    /// The first maximal sub-range of `[from, end)` that is not covered, if any.
    pub(crate) fn next_uncovered(&self, from: u64, end: u64) -> Option<(u64, u64)> {
        if from >= end {
            return None;
        }
        let mut pos = from;
        if let Some((_, &pe)) = self.ranges.range(..=pos).next_back() {
            if pe > pos {
                // Non-adjacency: the offset right after a range is never covered.
                pos = pe;
            }
        }
        if pos >= end {
            return None;
        }
        // `pos < end` here, so the range bounds are valid.
        let stop = self.ranges.range(pos..end).next().map_or(end, |(&k, _)| k);
        Some((pos, stop))
    }

    /// Forgets every offset below `pos` (they were delivered).
    pub(crate) fn remove_before(&mut self, pos: u64) {
        while let Some((&s, &e)) = self.ranges.first_key_value() {
            if e <= pos {
                self.ranges.remove(&s);
            } else {
                if s < pos {
                    self.ranges.remove(&s);
                    self.ranges.insert(pos, e);
                }
                break;
            }
        }
    }

    /// Forgets every offset at or after `pos` (bytes beyond a FIN are not part of the stream).
    pub(crate) fn remove_from(&mut self, pos: u64) {
        while let Some((&s, &e)) = self.ranges.last_key_value() {
            if s >= pos {
                self.ranges.remove(&s);
            } else {
                if e > pos {
                    self.ranges.insert(s, pos);
                }
                break;
            }
        }
    }

    #[cfg(test)]
    fn ranges(&self) -> Vec<(u64, u64)> {
        self.ranges.iter().map(|(&s, &e)| (s, e)).collect()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;
    use proptest::prelude::*;

    #[test]
    fn assembler_insert_disjoint_then_bridge_merges() {
        let mut a = Assembler::new();
        a.insert(10, 20);
        a.insert(30, 40);
        assert_eq!(a.ranges(), vec![(10, 20), (30, 40)]);
        assert_eq!(a.range_count(), 2);
        a.insert(20, 30);
        assert_eq!(a.ranges(), vec![(10, 40)]);
    }

    #[test]
    fn assembler_touching_ranges_merge() {
        let mut a = Assembler::new();
        a.insert(5, 10);
        a.insert(0, 5);
        a.insert(10, 12);
        assert_eq!(a.ranges(), vec![(0, 12)]);
    }

    #[test]
    fn assembler_empty_insert_is_ignored() {
        let mut a = Assembler::new();
        a.insert(7, 7);
        a.insert(9, 3);
        assert!(a.is_empty());
    }

    #[test]
    fn assembler_next_uncovered_skips_covered() {
        let mut a = Assembler::new();
        a.insert(10, 20);
        a.insert(30, 40);
        assert_eq!(a.next_uncovered(0, 50), Some((0, 10)));
        assert_eq!(a.next_uncovered(10, 50), Some((20, 30)));
        assert_eq!(a.next_uncovered(15, 35), Some((20, 30)));
        assert_eq!(a.next_uncovered(30, 40), None);
        assert_eq!(a.next_uncovered(35, 45), Some((40, 45)));
        assert_eq!(a.next_uncovered(45, 45), None);
        assert_eq!(a.next_uncovered(46, 45), None);
    }

    #[test]
    fn assembler_remove_before_and_from_cut_ranges() {
        let mut a = Assembler::new();
        a.insert(10, 20);
        a.insert(30, 40);
        a.remove_before(15);
        assert_eq!(a.ranges(), vec![(15, 20), (30, 40)]);
        a.remove_from(35);
        assert_eq!(a.ranges(), vec![(15, 20), (30, 35)]);
        a.remove_from(20);
        assert_eq!(a.ranges(), vec![(15, 20)]);
        a.remove_before(20);
        assert!(a.is_empty());
        assert_eq!(a.first(), None);
    }

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u64, u64),
        RemoveBefore(u64),
        RemoveFrom(u64),
    }

    const SPACE: u64 = 160;

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            6 => (0..SPACE, 0..24u64).prop_map(|(s, l)| Op::Insert(s, s + l)),
            1 => (0..SPACE).prop_map(Op::RemoveBefore),
            1 => (0..SPACE).prop_map(Op::RemoveFrom),
        ]
    }

    /// The ranges an obviously-correct byte bitmap describes (smoltcp `test_random`'s model).
    fn bitmap_ranges(map: &[bool]) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < map.len() {
            if map[i] {
                let s = i;
                while i < map.len() && map[i] {
                    i += 1;
                }
                out.push((s as u64, i as u64));
            } else {
                i += 1;
            }
        }
        out
    }

    fn bitmap_next_uncovered(map: &[bool], from: u64, end: u64) -> Option<(u64, u64)> {
        let mut p = from;
        while p < end && map[p as usize] {
            p += 1;
        }
        if p >= end {
            return None;
        }
        let s = p;
        while p < end && !map[p as usize] {
            p += 1;
        }
        Some((s, p))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// The assembler against a bitmap, after every random operation: same ranges (which also checks
        /// the disjoint/non-adjacent invariant, the bitmap's ranges being maximal) and same answers to
        /// `next_uncovered` for every query window.
        #[test]
        fn assembler_matches_bitmap_model(ops in proptest::collection::vec(op(), 1..60)) {
            let mut a = Assembler::new();
            let mut map = vec![false; (SPACE + 64) as usize];
            for op in ops {
                match op {
                    Op::Insert(s, e) => {
                        a.insert(s, e);
                        for b in &mut map[s as usize..e as usize] { *b = true; }
                    }
                    Op::RemoveBefore(p) => {
                        a.remove_before(p);
                        for b in &mut map[..p as usize] { *b = false; }
                    }
                    Op::RemoveFrom(p) => {
                        a.remove_from(p);
                        for b in &mut map[p as usize..] { *b = false; }
                    }
                }
                prop_assert_eq!(a.ranges(), bitmap_ranges(&map));
                prop_assert_eq!(a.first(), bitmap_ranges(&map).first().copied());
                for from in (0..SPACE).step_by(7) {
                    for len in [0u64, 1, 5, 13, 40] {
                        prop_assert_eq!(
                            a.next_uncovered(from, from + len),
                            bitmap_next_uncovered(&map, from, from + len)
                        );
                    }
                }
            }
        }
    }
}
