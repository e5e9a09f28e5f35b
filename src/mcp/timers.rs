//! The session stage's timers: checks due at a capture time (a request still waiting, a re-initialize
//! still missing), fired in order of (time, scheduling order).
//!
//! Nearly every timer is scheduled once and never cancelled: a request's wait check stays behind when its
//! answer comes and finds nothing to say when it fires, as it always did. Only a transaction dropped at the
//! pending cap or lost to a capture gap cancels its own. So the timers are a binary heap, and a cancelled
//! timer is forgotten lazily: the keys still pending are kept in a set, and a timer popped whose key is no
//! longer there is dropped unfired. An ordered map did the same work with a tree insert and a tree removal
//! per timer, some 1,200 instructions (about 1 % of a run); the heap and the set take a fraction of that.
//! The set's hash is `FxHash`, not keyed: its keys are this table's own counter, never bytes of the wire.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

use rustc_hash::FxHashSet;

use crate::time::Timestamp;

/// A timer's key: when it is due, and its place in the order timers were scheduled (unique).
pub(super) type TimerKey = (Timestamp, u64);

struct Due<T> {
    key: TimerKey,
    timer: T,
}

// Ordered by key alone: keys are unique, so no two entries compare equal.
impl<T> PartialEq for Due<T> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}

impl<T> Eq for Due<T> {}

impl<T> PartialOrd for Due<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T> Ord for Due<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key.cmp(&other.key)
    }
}

pub(super) struct Timers<T> {
    // ALLOC: one entry per timer scheduled and not yet due, bounded as the callers bound the transactions
    // and sessions that schedule them (cancelled entries too, until their time: as the timers of answered
    // requests always stayed).
    heap: BinaryHeap<Reverse<Due<T>>>,
    // ALLOC: the sequence numbers of the timers still pending, at most one per heap entry
    pending: FxHashSet<u64>,
    seq: u64,
}

impl<T> Default for Timers<T> {
    fn default() -> Self {
        Timers { heap: BinaryHeap::new(), pending: FxHashSet::default(), seq: 0 }
    }
}

impl<T> Timers<T> {
    pub fn schedule(&mut self, at: Timestamp, timer: T) -> TimerKey {
        self.seq += 1;
        let key = (at, self.seq);
        self.heap.push(Reverse(Due { key, timer }));
        self.pending.insert(self.seq);
        key
    }

    /// The timer of `key` will not fire; nothing happens if it already fired or was cancelled.
    pub fn cancel(&mut self, key: TimerKey) {
        self.pending.remove(&key.1);
    }

    /// The earliest pending timer due at or before `now`, taken out.
    pub fn pop_due(&mut self, now: Timestamp) -> Option<(Timestamp, T)> {
        loop {
            let Reverse(next) = self.heap.peek()?;
            if next.key.0 > now {
                return None;
            }
            let Reverse(Due { key, timer }) = self.heap.pop()?;
            if self.pending.remove(&key.1) {
                return Some((key.0, timer));
            }
        }
    }

    /// Timers pending (scheduled, neither fired nor cancelled).
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.pending.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> Timestamp {
        Timestamp::from_secs_micros(s, 0)
    }

    #[test]
    fn timers_fire_in_time_then_scheduling_order() {
        let mut t = Timers::default();
        for (s, name) in [(5, "e"), (1, "a"), (3, "c1"), (3, "c2"), (2, "b"), (9, "late")] {
            t.schedule(at(s), name);
        }
        assert_eq!(t.pop_due(at(0)), None);
        let mut fired = Vec::new();
        while let Some((when, name)) = t.pop_due(at(5)) {
            fired.push((when, name));
        }
        assert_eq!(fired, vec![(at(1), "a"), (at(2), "b"), (at(3), "c1"), (at(3), "c2"), (at(5), "e")]);
        assert_eq!(t.len(), 1);
        assert_eq!(t.pop_due(at(100)), Some((at(9), "late")));
        assert_eq!(t.pop_due(at(100)), None);
        assert_eq!(t.len(), 0);
    }

    #[test]
    fn a_cancelled_timer_never_fires_and_a_fired_one_cancels_nothing() {
        let mut t = Timers::default();
        let a = t.schedule(at(1), "a");
        let b = t.schedule(at(2), "b");
        t.schedule(at(2), "c");
        t.cancel(b);
        assert_eq!(t.len(), 2);
        assert_eq!(t.pop_due(at(1)), Some((at(1), "a")));
        // Cancelling what already fired, or twice, changes nothing.
        t.cancel(a);
        t.cancel(b);
        assert_eq!(t.len(), 1);
        assert_eq!(t.pop_due(at(10)), Some((at(2), "c")));
        assert_eq!(t.pop_due(at(10)), None);
    }

    #[test]
    fn a_timer_scheduled_in_the_past_fires_first() {
        // Capture time can go backwards: a timer due before the last one fired is still fired, in order.
        let mut t = Timers::default();
        t.schedule(at(10), "ten");
        assert_eq!(t.pop_due(at(10)), Some((at(10), "ten")));
        t.schedule(at(20), "twenty");
        let back = t.schedule(at(4), "four");
        t.schedule(at(4), "four again");
        assert_eq!(t.pop_due(at(10)), Some((at(4), "four")));
        t.cancel(back);
        assert_eq!(t.pop_due(at(10)), Some((at(4), "four again")));
        assert_eq!(t.pop_due(at(10)), None);
        assert_eq!(t.len(), 1);
    }
}
