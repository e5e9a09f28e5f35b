//! The last answer to a client's POSTs, per path: what a later GET on the same path is judged against
//! (a legacy client falling back to a GET stream after its POSTs were answered).

use std::collections::BTreeMap;

/// Status, media type and frame of the last answer to a POST on a path.
pub(super) type Answer = (u16, String, u64);

/// A client's answers by path. Nearly every client POSTs to one path, so the first is held inline and a
/// map is made only for a second: a `BTreeMap` allocates a whole node (about 700 bytes) for its first entry,
/// and there is one of these per client, held for as long as the client is (3.9 MB of the heap on the bench
/// capture's 5,736 clients). Further paths still cost a logarithmic lookup, whatever a client sends.
#[derive(Debug, Default)]
pub(super) struct PathAnswers {
    first: Option<(String, Answer)>,
    // ALLOC: a client's second and later POST paths, one entry each
    more: BTreeMap<String, Answer>,
}

impl PathAnswers {
    pub(super) fn get(&self, path: &str) -> Option<&Answer> {
        match &self.first {
            Some((p, a)) if p == path => Some(a),
            _ => self.more.get(path),
        }
    }

    pub(super) fn get_mut(&mut self, path: &str) -> Option<&mut Answer> {
        match &mut self.first {
            Some((p, a)) if p == path => Some(a),
            _ => self.more.get_mut(path),
        }
    }

    /// Sets the answer of `path`, replacing the one it had.
    pub(super) fn insert(&mut self, path: &str, answer: Answer) {
        match &mut self.first {
            Some((p, a)) if p == path => *a = answer,
            // `more` fills only once `first` is taken, and `first` is never given back.
            None => self.first = Some((path.to_string(), answer)),
            Some(_) => match self.more.get_mut(path) {
                Some(a) => *a = answer,
                None => {
                    self.more.insert(path.to_string(), answer);
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    proptest::proptest! {
        /// Any sequence of answers on a few paths leaves what a map keyed by path would hold.
        #[test]
        fn answers_are_kept_per_path_as_a_map_keeps_them(ops in proptest::collection::vec((0u8..5, 0u16..600, 0u64..1000), 0..40)) {
            let mut ours = PathAnswers::default();
            let mut map = BTreeMap::new();
            for (p, status, frame) in ops {
                let path = format!("/p{p}");
                let answer = (status, format!("type/{status}"), frame);
                ours.insert(&path, answer.clone());
                map.insert(path, answer);
            }
            for p in 0..6u8 {
                let path = format!("/p{p}");
                proptest::prop_assert_eq!(ours.get(&path), map.get(&path));
                proptest::prop_assert_eq!(ours.get_mut(&path).map(|a| &*a), map.get(&path));
            }
        }
    }
}
