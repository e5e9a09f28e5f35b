//! The last answer to a client's POSTs, per site and path: what a later GET on the same URL is judged
//! against (a legacy client falling back to a GET stream after its POSTs were answered). The site (`Host`)
//! is part of the URL: one address may front a legacy server's `/sse` and another site's `/sse` that
//! accepts POSTs (`samples/ecosystem/vhosts-sse-moved.pcap`).

use std::sync::Arc;

use super::sites::SitePaths;

/// Status, media type and frame of the last answer to a POST on a path.
pub(super) type Answer = (u16, String, u64);

/// A client's answers by site and path. Nearly every client POSTs to one URL, so the first is held inline
/// and the map is filled only from a second: a map allocates for its first entry, and there is one of these
/// per client, held for as long as the client is (3.9 MB of the heap on the bench capture's 5,736 clients
/// with a `BTreeMap`). At most [`super::sites::MAX_SITE_PATHS`] more, whatever a client sends.
#[derive(Debug, Default)]
pub(super) struct PathAnswers {
    first: Option<(Arc<str>, String, Answer)>,
    more: SitePaths<Answer>,
}

impl PathAnswers {
    pub(super) fn get(&self, host: &str, path: &str) -> Option<&Answer> {
        match &self.first {
            Some((h, p, a)) if **h == *host && p == path => Some(a),
            _ => self.more.get(host, path),
        }
    }

    pub(super) fn get_mut(&mut self, host: &str, path: &str) -> Option<&mut Answer> {
        match &mut self.first {
            Some((h, p, a)) if **h == *host && p == path => Some(a),
            _ => self.more.get_mut(host, path),
        }
    }

    /// Sets the answer of `path` on `host`, replacing the one it had.
    pub(super) fn insert(&mut self, host: &Arc<str>, path: &str, answer: Answer) {
        match &mut self.first {
            Some((h, p, a)) if **h == **host && p == path => *a = answer,
            // `more` fills only once `first` is taken, and `first` is never given back.
            // ALLOC: the path, the first time (the host is shared)
            None => self.first = Some((Arc::clone(host), path.to_string(), answer)),
            Some(_) => {
                self.more.insert(host, path, answer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::collections::BTreeMap;

    proptest::proptest! {
        /// Any sequence of answers on a few sites and paths leaves what a map keyed by both would hold.
        #[test]
        fn answers_are_kept_per_site_and_path_as_a_map_keeps_them(ops in proptest::collection::vec((0u8..2, 0u8..5, 0u16..600, 0u64..1000), 0..40)) {
            let mut ours = PathAnswers::default();
            let mut map = BTreeMap::new();
            for (h, p, status, frame) in ops {
                let (host, path): (Arc<str>, String) = (format!("h{h}").into(), format!("/p{p}"));
                let answer = (status, format!("type/{status}"), frame);
                ours.insert(&host, &path, answer.clone());
                map.insert((host.to_string(), path), answer);
            }
            for h in 0..3u8 {
                for p in 0..6u8 {
                    let (host, path) = (format!("h{h}"), format!("/p{p}"));
                    let want = map.get(&(host.clone(), path.clone()));
                    proptest::prop_assert_eq!(ours.get(&host, &path), want);
                    proptest::prop_assert_eq!(ours.get_mut(&host, &path).map(|a| &*a), want);
                }
            }
        }
    }
}
