//! The HTTP counters of the summary, kept by the layer stack as HTTP events go up (`stack::up`) and summed
//! over connections (and over workers, `shard::merge`).

use std::collections::BTreeMap;

use crate::http::h2::H2Stats;
use crate::http::{HttpAnomaly, HttpEvent};

/// Counters of the HTTP layer, summed over connections.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HttpCounters {
    pub requests: u64,
    pub responses: u64,
    pub sse_events: u64,
    pub anomalies: BTreeMap<HttpAnomaly, u64>,
    /// Final responses by media type (lower-cased, parameters dropped; `none` without `Content-Type`). At
    /// most [`MAX_CONTENT_TYPES`] distinct names are kept; the rest are counted under `other` so a hostile
    /// capture cannot grow the map.
    pub responses_by_type: BTreeMap<String, u64>,
    /// Messages (requests and responses) with a Content-Encoding or a transfer coding other than
    /// chunked, by coding list as written (`gzip`, `br, gzip`); at most [`MAX_CONTENT_TYPES`] names, the
    /// rest under `other`.
    pub coded: BTreeMap<String, u64>,
    /// Bodies whose codings could not be undone, by reason (`http::coding::Undecoded`); the cap reasons
    /// are the decoded-bytes limits being hit.
    pub undecoded: BTreeMap<&'static str, u64>,
    /// HTTP/2 connections, summed when each closes.
    pub h2: H2Stats,
    /// Requests whose response a capture gap took (`HttpEvent::ResponseLost`), and requests it took
    /// (`HttpEvent::RequestLost`).
    pub responses_lost: u64,
    pub requests_lost: u64,
    /// CONNECT tunnels whose bytes were analysed from their start as a connection of their own
    /// (`stack::Layers::tunnel`), and tunnels inside TLS to the proxy, left opaque.
    pub tunnels: u64,
    pub tunnels_opaque: u64,
}

/// Distinct media types counted by name in [`HttpCounters::responses_by_type`].
pub const MAX_CONTENT_TYPES: usize = 16;

impl HttpCounters {
    /// One HTTP event of any connection.
    pub fn count(&mut self, hev: &HttpEvent<'_>) {
        match hev {
            HttpEvent::Request { head, .. } => {
                self.requests += 1;
                self.count_coding(&head.headers);
            }
            HttpEvent::Response { head, .. } => {
                self.responses += 1;
                self.count_response(&head.headers);
                self.count_coding(&head.headers);
            }
            HttpEvent::RequestUndecoded { reason, .. } | HttpEvent::ResponseUndecoded { reason, .. } => {
                *self.undecoded.entry(reason.as_str()).or_default() += 1;
            }
            HttpEvent::Sse { .. } => self.sse_events += 1,
            HttpEvent::ResponseLost { .. } => self.responses_lost += 1,
            HttpEvent::RequestLost { .. } => self.requests_lost += 1,
            HttpEvent::Anomaly { kind, .. } => *self.anomalies.entry(*kind).or_default() += 1,
            _ => {}
        }
    }

    fn count_coding(&mut self, headers: &crate::http::Headers) {
        let Some(c) = crate::http::coding::BodyCodings::from_headers(headers) else { return };
        if let Some(n) = self.coded.get_mut(&c.names) {
            *n += 1;
        } else if self.coded.len() < MAX_CONTENT_TYPES {
            // ALLOC: one name per distinct coding list, at most MAX_CONTENT_TYPES.
            self.coded.insert(c.names, 1);
        } else {
            *self.coded.entry("other".to_string()).or_default() += 1;
        }
    }

    fn count_response(&mut self, headers: &crate::http::Headers) {
        let name = headers.media_type_raw();
        let name = match name {
            None => "none",
            Some(n) => n,
        };
        // Looked up without allocating on the hot path: only a new media type allocates its name.
        if let Some(c) = self.responses_by_type.iter_mut().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, c)| c) {
            *c += 1;
        } else if self.responses_by_type.len() < MAX_CONTENT_TYPES {
            // ALLOC: one name per distinct media type, at most MAX_CONTENT_TYPES.
            self.responses_by_type.insert(name.to_ascii_lowercase(), 1);
        } else {
            *self.responses_by_type.entry("other".to_string()).or_default() += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::http::Headers;

    fn ct(v: Option<&str>) -> Headers {
        Headers::from_pairs(v.map(|v| ("content-type", v)))
    }

    #[test]
    fn responses_by_type_folds_case_and_parameters_and_caps_names() {
        let mut c = HttpCounters::default();
        c.count_response(&ct(Some("Text/Event-Stream; charset=utf-8")));
        c.count_response(&ct(Some("text/event-stream")));
        c.count_response(&ct(None));
        assert_eq!(c.responses_by_type.get("text/event-stream"), Some(&2));
        assert_eq!(c.responses_by_type.get("none"), Some(&1));
        for i in 0..40 {
            c.count_response(&ct(Some(&format!("x/{i}"))));
        }
        assert_eq!(c.responses_by_type.len(), MAX_CONTENT_TYPES + 1);
        assert_eq!(c.responses_by_type.get("other"), Some(&(40 + 2 - MAX_CONTENT_TYPES as u64)));
    }
}
