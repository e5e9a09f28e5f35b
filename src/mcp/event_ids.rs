//! The SSE event ids a session's streams issued (the `id:` field, WHATWG HTML §9.2.6), each with the
//! stream that issued it and its issue order: how a reused or replayed id is told from a new one, and
//! how a reconnect's `Last-Event-ID` is resolved (MCP 2025-03-26 transports, "Resumability and
//! Redelivery").
//!
//! A busy session issues an id per event, thousands of them. Kept as a map of owned strings, each id was
//! an allocation, its table was rehashed as it grew with every key hashed again, and the end of a run
//! freed them one by one (2-3 % of a one-thread run on the bench capture, by wall-clock samples). Here
//! the ids' bytes go end to end into one buffer, and the index holds each id's range with its hash, so a
//! session's ids are two allocations that grow by doubling, and growing the index hashes nothing again.
//! The hash is the keyed one of every map keyed from the wire (`crate::keyed`).

use std::hash::{BuildHasher, Hasher};
use std::ops::Range;

use hashbrown::HashTable;

use crate::keyed::WireState;

/// The bytes at each end of an event's data that its digest covers.
const DIGEST_EDGE: usize = 96;

/// Where an issued id's bytes lie in the buffer, with what is known of its issue.
#[derive(Debug, Clone)]
struct Issued {
    hash: u64,
    bytes: Range<usize>,
    at: Issue,
}

/// An id's issue: the stream that issued it, its issue order in the session, and a digest of the event's
/// data, which tells a replay (the same event again) from the id given to a new event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Issue {
    pub stream: u64,
    pub order: u64,
    pub content: u64,
}

#[derive(Debug, Default)]
pub struct EventIds {
    // ALLOC: the bytes of every id kept, bounded by limits::max_event_ids_per_session ids
    bytes: String,
    // ALLOC: one entry per id kept, bounded like the bytes
    index: HashTable<Issued>,
    state: WireState,
}

impl EventIds {
    /// How `id` was issued, if it was kept.
    pub fn get(&self, id: &str) -> Option<Issue> {
        let hash = self.state.hash_one(id.as_bytes());
        self.index.find(hash, |e| self.is(e, hash, id)).map(|e| e.at)
    }

    /// Keeps `id`, which must not be kept already (`get` first), with its issue.
    pub fn insert(&mut self, id: &str, at: Issue) {
        let hash = self.state.hash_one(id.as_bytes());
        let start = self.bytes.len();
        self.bytes.push_str(id);
        let issued = Issued { hash, bytes: start..self.bytes.len(), at };
        self.index.insert_unique(hash, issued, |e| e.hash);
    }

    /// The digest [`Issue::content`] holds for an event's data: its length and its first and last
    /// [`DIGEST_EDGE`] bytes, where a JSON-RPC message's id, method and the numbers that change from one
    /// notification to the next lie, so that every event with an id is not hashed whole. Unkeyed (FxHash):
    /// data made to collide with an earlier event's turns a reuse into a replay, which is reported as such
    /// (both high), so nothing is hidden by it.
    pub fn digest(data: &[u8]) -> u64 {
        let mut h = rustc_hash::FxHasher::default();
        h.write_usize(data.len());
        if data.len() <= 2 * DIGEST_EDGE {
            h.write(data);
        } else {
            h.write(data.get(..DIGEST_EDGE).unwrap_or_default());
            h.write(data.get(data.len() - DIGEST_EDGE..).unwrap_or_default());
        }
        h.finish()
    }

    pub fn len(&self) -> usize {
        self.index.len()
    }

    fn is(&self, e: &Issued, hash: u64, id: &str) -> bool {
        e.hash == hash && self.bytes.get(e.bytes.clone()) == Some(id)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn at(stream: u64, order: u64) -> Issue {
        Issue { stream, order, content: stream ^ order }
    }

    #[test]
    fn every_id_is_found_with_its_own_stream_and_order_and_no_other_is() {
        let mut ids = EventIds::default();
        // Prefixes of one another, an empty-looking one and non-ASCII: only the exact bytes match.
        let all = ["1", "10", "100", "a/b", "1 ", "é", "stream-7/event-12"];
        for (i, id) in all.iter().enumerate() {
            assert_eq!(ids.get(id), None, "{id}");
            ids.insert(id, at(100 + i as u64, i as u64 + 1));
        }
        // Past the index's first sizes, so it has grown several times.
        for n in 0..1000u64 {
            ids.insert(&format!("n{n}"), at(7, 1000 + n));
        }
        assert_eq!(ids.len(), all.len() + 1000);
        for (i, id) in all.iter().enumerate() {
            assert_eq!(ids.get(id), Some(at(100 + i as u64, i as u64 + 1)), "{id}");
        }
        for n in 0..1000u64 {
            assert_eq!(ids.get(&format!("n{n}")), Some(at(7, 1000 + n)));
        }
        for absent in ["", "2", "10 ", "n1000", "a/", "e"] {
            assert_eq!(ids.get(absent), None, "{absent:?}");
        }
    }

    #[test]
    fn digest_tells_events_apart_by_length_and_ends() {
        let tick = |n: u32| format!(r#"{{"jsonrpc":"2.0","method":"notifications/message","params":{{"level":"info","data":"tick {n}"}}}}"#);
        assert_eq!(EventIds::digest(tick(3).as_bytes()), EventIds::digest(tick(3).as_bytes()));
        assert_ne!(EventIds::digest(tick(3).as_bytes()), EventIds::digest(tick(9).as_bytes()));
        assert_ne!(EventIds::digest(b""), EventIds::digest(b"x"));
        // A long event: its ends and its length are read, its middle is not.
        let long = |mid: &str, end: &str| format!("{}{mid}{}{end}", "a".repeat(DIGEST_EDGE), "b".repeat(DIGEST_EDGE));
        assert_ne!(EventIds::digest(long("m", "1").as_bytes()), EventIds::digest(long("m", "2").as_bytes()));
        assert_ne!(EventIds::digest(long("m", "1").as_bytes()), EventIds::digest(long("mm", "1").as_bytes()));
        assert_eq!(EventIds::digest(long("m", "1").as_bytes()), EventIds::digest(long("n", "1").as_bytes()));
    }

    #[test]
    fn ids_with_one_hash_are_told_apart_by_their_bytes() {
        // Every entry given one hash, as a collision would: lookups must still compare the bytes.
        let mut ids = EventIds::default();
        for (i, id) in ["x", "y", "z"].iter().enumerate() {
            let start = ids.bytes.len();
            ids.bytes.push_str(id);
            let issued = Issued { hash: 42, bytes: start..ids.bytes.len(), at: at(i as u64, i as u64) };
            ids.index.insert_unique(42, issued, |e| e.hash);
        }
        for (i, id) in ["x", "y", "z"].iter().enumerate() {
            assert_eq!(ids.index.find(42, |e| ids.is(e, 42, id)).map(|e| e.at.stream), Some(i as u64));
        }
        assert!(ids.index.find(42, |e| ids.is(e, 42, "w")).is_none());
    }
}
