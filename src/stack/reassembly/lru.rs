//! A slab of values threaded on a recency list (least recently used at the head). `FlowTable` keeps its
//! connections here so that both "close what has been idle too long" and "evict the least recently active
//! connection at `Limits::max_connections`" cost O(1) per connection closed, and touching a connection on
//! every packet costs O(1) with no allocation.
//!
//! This file owns slot indices and links only; it knows nothing about TCP. Indices are plain `usize`s
//! checked through `get`/`get_mut` (no indexing that could panic): a stale index yields `None`.

/// One slab slot.
#[derive(Debug)]
enum Slot<T> {
    Used(Node<T>),
    Free,
}

#[derive(Debug)]
struct Node<T> {
    value: T,
    /// Towards the head (less recently used).
    prev: Option<usize>,
    /// Towards the tail (more recently used).
    next: Option<usize>,
}

/// Slab + intrusive doubly linked recency list.
#[derive(Debug)]
pub(crate) struct Lru<T> {
    slots: Vec<Slot<T>>,
    free: Vec<usize>,
    head: Option<usize>,
    tail: Option<usize>,
    len: usize,
}

impl<T> Default for Lru<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T> Lru<T> {
    pub(crate) fn new() -> Self {
        Lru { slots: Vec::new(), free: Vec::new(), head: None, tail: None, len: 0 }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// The least recently used entry.
    pub(crate) fn oldest(&self) -> Option<usize> {
        self.head
    }

    fn node(&self, idx: usize) -> Option<&Node<T>> {
        match self.slots.get(idx) {
            Some(Slot::Used(n)) => Some(n),
            _ => None,
        }
    }

    fn node_mut(&mut self, idx: usize) -> Option<&mut Node<T>> {
        match self.slots.get_mut(idx) {
            Some(Slot::Used(n)) => Some(n),
            _ => None,
        }
    }

    pub(crate) fn get(&self, idx: usize) -> Option<&T> {
        self.node(idx).map(|n| &n.value)
    }

    pub(crate) fn get_mut(&mut self, idx: usize) -> Option<&mut T> {
        self.node_mut(idx).map(|n| &mut n.value)
    }

    /// Inserts as the most recently used entry; returns its index.
    pub(crate) fn insert(&mut self, value: T) -> usize {
        let node = Node { value, prev: self.tail, next: None };
        let idx = match self.free.pop() {
            Some(i) => {
                if let Some(slot) = self.slots.get_mut(i) {
                    *slot = Slot::Used(node);
                }
                i
            }
            None => {
                // ALLOC: one slot per live connection, bounded by limits::max_connections (freed slots are
                // reused before the slab grows).
                self.slots.push(Slot::Used(node));
                self.slots.len().saturating_sub(1)
            }
        };
        self.link_tail_fixup(idx);
        self.len = self.len.saturating_add(1);
        idx
    }

    /// After `idx` was written with `prev = old tail, next = None`: hook it in as the new tail.
    fn link_tail_fixup(&mut self, idx: usize) {
        match self.tail {
            Some(t) => {
                if let Some(n) = self.node_mut(t) {
                    n.next = Some(idx);
                }
            }
            None => self.head = Some(idx),
        }
        self.tail = Some(idx);
    }

    fn unlink(&mut self, idx: usize) {
        let Some((prev, next)) = self.node(idx).map(|n| (n.prev, n.next)) else {
            return;
        };
        match prev {
            Some(p) => {
                if let Some(n) = self.node_mut(p) {
                    n.next = next;
                }
            }
            None => self.head = next,
        }
        match next {
            Some(nx) => {
                if let Some(n) = self.node_mut(nx) {
                    n.prev = prev;
                }
            }
            None => self.tail = prev,
        }
    }

    /// Marks `idx` as the most recently used entry. O(1), no allocation.
    pub(crate) fn touch(&mut self, idx: usize) {
        if self.tail == Some(idx) || self.node(idx).is_none() {
            return;
        }
        self.unlink(idx);
        let old_tail = self.tail;
        if let Some(n) = self.node_mut(idx) {
            n.prev = old_tail;
            n.next = None;
        }
        self.link_tail_fixup(idx);
    }

    /// Removes `idx` and returns its value; `None` for a stale index.
    pub(crate) fn remove(&mut self, idx: usize) -> Option<T> {
        self.node(idx)?;
        self.unlink(idx);
        let slot = self.slots.get_mut(idx)?;
        let Slot::Used(node) = std::mem::replace(slot, Slot::Free) else {
            return None;
        };
        // ALLOC: free-list entry, bounded by limits::max_connections (the slab size).
        self.free.push(idx);
        self.len = self.len.saturating_sub(1);
        Some(node.value)
    }

    /// Every live entry with its index, in slab order (callers sort when order matters).
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, &T)> {
        self.slots.iter().enumerate().filter_map(|(i, s)| match s {
            Slot::Used(n) => Some((i, &n.value)),
            Slot::Free => None,
        })
    }

    /// Every live entry, mutable, in slab order.
    pub(crate) fn iter_mut(&mut self) -> impl Iterator<Item = (usize, &mut T)> {
        self.slots.iter_mut().enumerate().filter_map(|(i, s)| match s {
            Slot::Used(n) => Some((i, &mut n.value)),
            Slot::Free => None,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

    use super::*;

    /// Values from least to most recently used, walking the links.
    fn order(l: &Lru<u32>) -> Vec<u32> {
        let mut out = Vec::new();
        let mut cur = l.oldest();
        while let Some(i) = cur {
            let n = l.node(i).unwrap();
            out.push(n.value);
            cur = n.next;
        }
        out
    }

    #[test]
    fn lru_insert_touch_remove_keep_recency_order() {
        let mut l = Lru::new();
        let a = l.insert(1);
        let b = l.insert(2);
        let c = l.insert(3);
        assert_eq!(order(&l), vec![1, 2, 3]);
        l.touch(a);
        assert_eq!(order(&l), vec![2, 3, 1]);
        l.touch(a);
        assert_eq!(order(&l), vec![2, 3, 1]);
        assert_eq!(l.remove(c), Some(3));
        assert_eq!(l.remove(c), None, "stale index");
        assert_eq!(order(&l), vec![2, 1]);
        assert_eq!(l.oldest(), Some(b));
        let d = l.insert(4);
        assert_eq!(d, c, "freed slot is reused");
        assert_eq!(order(&l), vec![2, 1, 4]);
        assert_eq!(l.len(), 3);
        l.touch(b);
        assert_eq!(order(&l), vec![1, 4, 2]);
        assert_eq!(l.remove(b), Some(2));
        assert_eq!(l.remove(a), Some(1));
        assert_eq!(l.remove(d), Some(4));
        assert_eq!(l.len(), 0);
        assert_eq!(l.oldest(), None);
        assert!(l.iter().next().is_none());
    }

    #[test]
    fn lru_backward_links_agree_with_forward_links() {
        let mut l = Lru::new();
        let ids: Vec<usize> = (0..8).map(|v| l.insert(v)).collect();
        for &i in ids.iter().step_by(3) {
            l.touch(i);
        }
        l.remove(ids[4]);
        let fwd = order(&l);
        let mut back = Vec::new();
        let mut cur = l.tail;
        while let Some(i) = cur {
            let n = l.node(i).unwrap();
            back.push(n.value);
            cur = n.prev;
        }
        back.reverse();
        assert_eq!(fwd, back);
        assert_eq!(fwd, vec![1, 2, 5, 7, 0, 3, 6]);
    }
}
