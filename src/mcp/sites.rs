//! What a server address knows of its paths, per site: the `Host` a request names (RFC 9110 §7.2) with the
//! path. One address fronts many sites (name-based virtual hosts behind an ingress or a CDN, a forward
//! proxy's origins), and `/mcp` on one of them says nothing of `/mcp` on another: a web site's page, an
//! origin that is down, a legacy server beside a moved one (`samples/ecosystem/vhosts-*.pcap`).

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::keyed::WireMap;

/// Entries kept per address, whatever the sites and paths the clients name (they choose both).
pub(super) const MAX_SITE_PATHS: usize = 1024;

/// Values by site and path, at most [`MAX_SITE_PATHS`]; nothing allocated before the first.
#[derive(Debug)]
pub(super) struct SitePaths<V> {
    // ALLOC: one map per site an address serves, one entry per path of it; MAX_SITE_PATHS in all
    by_host: WireMap<Arc<str>, BTreeMap<String, V>>,
    len: usize,
}

impl<V> Default for SitePaths<V> {
    fn default() -> Self {
        SitePaths { by_host: WireMap::default(), len: 0 }
    }
}

impl<V> SitePaths<V> {
    pub(super) fn get(&self, host: &str, path: &str) -> Option<&V> {
        self.by_host.get(host)?.get(path)
    }

    pub(super) fn get_mut(&mut self, host: &str, path: &str) -> Option<&mut V> {
        self.by_host.get_mut(host)?.get_mut(path)
    }

    pub(super) fn contains(&self, host: &str, path: &str) -> bool {
        self.get(host, path).is_some()
    }

    /// The value of `path` on `host`, made by `make` if new; `None` when it is new and the cap is reached.
    pub(super) fn get_or_insert_with(&mut self, host: &Arc<str>, path: &str, make: impl FnOnce() -> V) -> Option<&mut V> {
        if self.len >= MAX_SITE_PATHS {
            return self.get_mut(host, path);
        }
        let paths = self.by_host.entry(Arc::clone(host)).or_default();
        if !paths.contains_key(path) {
            self.len += 1;
            paths.insert(path.to_string(), make());
        }
        paths.get_mut(path)
    }

    /// Sets the value of `path` on `host`; whether it is kept (the cap).
    pub(super) fn insert(&mut self, host: &Arc<str>, path: &str, value: V) -> bool {
        if let Some(v) = self.get_mut(host, path) {
            *v = value;
            return true;
        }
        self.get_or_insert_with(host, path, || value).is_some()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn one_path_of_two_sites_is_two_entries() {
        let mut s: SitePaths<u32> = SitePaths::default();
        let (a, b): (Arc<str>, Arc<str>) = ("mcp.example.test".into(), "www.example.test".into());
        assert!(s.insert(&a, "/mcp", 1));
        assert!(s.contains("mcp.example.test", "/mcp"));
        assert!(!s.contains("www.example.test", "/mcp"));
        assert!(!s.contains("mcp.example.test", "/sse"));
        *s.get_or_insert_with(&b, "/mcp", || 0).unwrap() += 5;
        *s.get_or_insert_with(&a, "/mcp", || 0).unwrap() += 5;
        assert_eq!((s.get("mcp.example.test", "/mcp"), s.get("www.example.test", "/mcp")), (Some(&6), Some(&5)));
        *s.get_mut("www.example.test", "/mcp").unwrap() = 7;
        assert_eq!(s.get("www.example.test", "/mcp"), Some(&7));
    }

    #[test]
    fn the_cap_keeps_what_is_known_and_takes_nothing_new() {
        let mut s: SitePaths<u32> = SitePaths::default();
        for i in 0..MAX_SITE_PATHS {
            let host: Arc<str> = format!("h{}", i % 7).into();
            assert!(s.insert(&host, &format!("/p{i}"), 0));
        }
        let host: Arc<str> = "h0".into();
        assert!(!s.insert(&host, "/new", 1));
        assert!(!s.contains("h0", "/new"));
        // A known entry is still updated at the cap.
        assert!(s.insert(&host, "/p0", 9));
        assert_eq!(s.get("h0", "/p0"), Some(&9));
        *s.get_or_insert_with(&host, "/p7", || 0).unwrap() = 3;
        assert_eq!(s.get("h0", "/p7"), Some(&3));
    }
}
