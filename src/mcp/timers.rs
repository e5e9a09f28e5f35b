//! The session stage's timers: checks due at a capture time (a request still waiting, a re-initialize
//! still missing), fired in order of (time, scheduling order).
//!
//! Nearly every timer is scheduled once and never cancelled: a request's wait check stays behind when its
//! answer comes and finds nothing to say when it fires, as it always did. Only a transaction dropped at the
//! pending cap or lost to a capture gap cancels its own, so a cancelled timer is forgotten lazily: the keys
//! still pending are kept in a set, and a timer taken out whose key is no longer there is dropped unfired.
//! The set's hash is `FxHash`, not keyed: its keys are this table's own counter, never bytes of the wire.
//!
//! A timer is due a fixed delay (a rule's `timer` param) after the packet that scheduled it, and packets
//! come in time order, so the timers of one delay are scheduled in the order they fall due. They are kept
//! in a few queues ([`MAX_LANES`]), each in key order, as patience sorting keeps its piles: a timer joins
//! the queue whose last key is the latest one not after its own, and the next due is the least of the
//! queues' fronts. A queue is taken from its front and filled at its back, so scheduling and firing touch
//! two places in memory; a binary heap over all the pending timers (it held one a request, a minute of
//! capture time of them: MBs) walked a path of its tree per removal, one cache miss a level, about 2 % of
//! a one-thread run on the bench capture. Timers that fit no queue (time going backwards in a capture, more
//! delays in use than queues) go to a heap beside them, so the order stays exact whatever the input.

use std::cmp::{Ordering, Reverse};
use std::collections::{BinaryHeap, VecDeque};

use rustc_hash::FxHashSet;

use crate::time::Timestamp;

/// A timer's key: when it is due, and its place in the order timers were scheduled (unique).
pub(super) type TimerKey = (Timestamp, u64);

/// Queues in key order at most: one per delay in use (the rules ship two) with room for more.
const MAX_LANES: usize = 4;

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

/// Where the next timer due is.
#[derive(Clone, Copy)]
enum Next {
    Lane(usize),
    Heap,
}

pub(super) struct Timers<T> {
    // ALLOC: one entry per timer scheduled and not yet due, over the queues and the heap, bounded as the
    // callers bound the transactions and sessions that schedule them (cancelled entries too, until their
    // time: as the timers of answered requests always stayed)
    lanes: Vec<VecDeque<Due<T>>>,
    heap: BinaryHeap<Reverse<Due<T>>>,
    // ALLOC: the sequence numbers of the timers still pending, at most one per entry
    pending: FxHashSet<u64>,
    seq: u64,
    /// When the earliest entry is due (pending or cancelled), kept as entries come and go: asked after
    /// every packet (`Front::expect_timer`), where walking the queues cost half a percent of a run.
    earliest: Option<Timestamp>,
}

impl<T> Default for Timers<T> {
    fn default() -> Self {
        Timers { lanes: Vec::new(), heap: BinaryHeap::new(), pending: FxHashSet::default(), seq: 0, earliest: None }
    }
}

impl<T> Timers<T> {
    pub fn schedule(&mut self, at: Timestamp, timer: T) -> TimerKey {
        self.seq += 1;
        let key = (at, self.seq);
        self.pending.insert(self.seq);
        let due = Due { key, timer };
        self.earliest = Some(self.earliest.map_or(at, |e| e.min(at)));
        // The queue whose last key is the latest one not after this one (the first such, on a tie; a later
        // sequence number breaks a tie in time, so equal times keep their order); else an empty queue, else
        // a new one.
        let fits = self.lanes.iter().enumerate().filter_map(|(i, lane)| lane.back().filter(|last| last.key.0 <= at).map(|last| (last.key.0, Reverse(i))));
        match fits.max().map(|(_, Reverse(i))| i).or_else(|| self.lanes.iter().position(VecDeque::is_empty)) {
            Some(i) => {
                if let Some(lane) = self.lanes.get_mut(i) {
                    lane.push_back(due);
                }
            }
            None if self.lanes.len() < MAX_LANES => self.lanes.push(VecDeque::from([due])),
            None => self.heap.push(Reverse(due)),
        }
        key
    }

    /// The timer of `key` will not fire; nothing happens if it already fired or was cancelled.
    pub fn cancel(&mut self, key: TimerKey) {
        self.pending.remove(&key.1);
    }

    /// When the earliest timer, pending or cancelled, is due.
    pub fn next_at(&self) -> Option<Timestamp> {
        self.earliest
    }

    /// The earliest timer, pending or cancelled, and where it is.
    fn next(&self) -> Option<(TimerKey, Next)> {
        let mut next = self.heap.peek().map(|Reverse(d)| (d.key, Next::Heap));
        for (i, lane) in self.lanes.iter().enumerate() {
            if let Some(front) = lane.front() {
                if next.is_none_or(|(k, _)| front.key < k) {
                    next = Some((front.key, Next::Lane(i)));
                }
            }
        }
        next
    }

    /// The earliest pending timer due at or before `now`, taken out.
    pub fn pop_due(&mut self, now: Timestamp) -> Option<(Timestamp, T)> {
        loop {
            let (key, at) = self.next()?;
            if key.0 > now {
                return None;
            }
            let due = match at {
                Next::Heap => self.heap.pop().map(|Reverse(d)| d),
                Next::Lane(i) => self.lanes.get_mut(i).and_then(VecDeque::pop_front),
            }?;
            self.earliest = self.next().map(|(k, _)| k.0);
            if self.pending.remove(&key.1) {
                return Some((key.0, due.timer));
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
        assert_eq!(t.next_at(), Some(at(1)));
        let mut fired = Vec::new();
        while let Some((when, name)) = t.pop_due(at(5)) {
            fired.push((when, name));
        }
        assert_eq!(fired, vec![(at(1), "a"), (at(2), "b"), (at(3), "c1"), (at(3), "c2"), (at(5), "e")]);
        assert_eq!(t.len(), 1);
        assert_eq!(t.next_at(), Some(at(9)));
        assert_eq!(t.pop_due(at(100)), Some((at(9), "late")));
        assert_eq!(t.next_at(), None);
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

    #[derive(Debug, Clone)]
    enum Op {
        /// Capture time moves by this many seconds (backwards when negative), then a timer is scheduled
        /// this many seconds after it.
        Schedule { step: i64, delay: i64 },
        /// The timer scheduled this many schedules ago is cancelled.
        Cancel(usize),
        /// Every timer due at the current time plus this fires.
        Pop(i64),
    }

    fn op() -> impl proptest::strategy::Strategy<Value = Op> {
        use proptest::prelude::*;
        prop_oneof![
            // Mostly forwards with a few fixed delays, as the rules schedule; sometimes backwards, and
            // more delays than there are queues, so that the heap beside them takes some.
            6 => (prop_oneof![8 => 0i64..3, 1 => -20i64..0], prop_oneof![4 => Just(60i64), 2 => Just(30), 1 => 0i64..90]).prop_map(|(step, delay)| Op::Schedule { step, delay }),
            1 => (0usize..40).prop_map(Op::Cancel),
            2 => (-10i64..100).prop_map(Op::Pop),
        ]
    }

    proptest::proptest! {
        /// The queues and the heap together fire exactly what one ordered map of the pending timers would,
        /// in its order, whatever the order times come in.
        #[test]
        fn timers_fire_as_an_ordered_map_would(ops in proptest::collection::vec(op(), 0..400)) {
            let mut t = Timers::default();
            let mut model = std::collections::BTreeMap::new();
            let mut keys = Vec::new();
            let mut now = 1_000i64;
            for (n, op) in ops.into_iter().enumerate() {
                match op {
                    Op::Schedule { step, delay } => {
                        now += step;
                        let key = t.schedule(at(now + delay), n);
                        model.insert(key, n);
                        keys.push(key);
                    }
                    Op::Cancel(back) => {
                        if let Some(&key) = keys.iter().rev().nth(back) {
                            t.cancel(key);
                            model.remove(&key);
                        }
                    }
                    Op::Pop(ahead) => {
                        let mut fired = Vec::new();
                        while let Some(f) = t.pop_due(at(now + ahead)) {
                            fired.push(f);
                        }
                        let mut expected = Vec::new();
                        while let Some(entry) = model.first_entry() {
                            if entry.key().0 > at(now + ahead) {
                                break;
                            }
                            let ((when, _), name) = entry.remove_entry();
                            expected.push((when, name));
                        }
                        proptest::prop_assert_eq!(fired, expected);
                    }
                }
                proptest::prop_assert_eq!(t.len(), model.len());
            }
        }
    }

    #[test]
    fn timers_of_one_delay_share_a_queue() {
        // Two delays in time order make two queues and leave the heap empty; times going backwards take
        // the queues left, one each, and then go to the heap.
        let mut t = Timers::default();
        for s in 0..100 {
            t.schedule(at(s + 60), "stall");
            if s % 10 == 0 {
                t.schedule(at(s + 30), "reinit");
            }
        }
        assert_eq!((t.lanes.len(), t.heap.len()), (2, 0));
        for s in [5, 4, 3, 2] {
            t.schedule(at(s), "backwards");
        }
        assert_eq!((t.lanes.len(), t.heap.len()), (4, 2));
        assert_eq!(t.pop_due(at(2)), Some((at(2), "backwards")));
    }
}
