//! MCP sessions: identity (INCIDENTS.md "session") and the per-session facts the classifier keeps.
//! A session spans every TCP connection that carries its key.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};

use crate::facts::Era;
use crate::time::Timestamp;

/// How a session is identified on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SessionIdent {
    /// Streamable HTTP: `Mcp-Session-Id` (2025-03-26 transports, "Session Management").
    McpSessionId(String),
    /// HTTP+SSE: the session parameter of the POST URL announced in the `endpoint` event.
    LegacyParam(String),
    /// No session on the wire (stateless 2026-07-28, or a server that mints none): client address,
    /// endpoint and the `_meta` `clientInfo.name` when present.
    Anonymous { client: IpAddr, endpoint: String, client_name: Option<String> },
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SessionKey {
    pub server: SocketAddr,
    pub ident: SessionIdent,
}

impl SessionKey {
    /// The `session_id` column: the id, or `-` where the wire carries none.
    pub fn display_id(&self) -> &str {
        match &self.ident {
            SessionIdent::McpSessionId(s) | SessionIdent::LegacyParam(s) => s,
            SessionIdent::Anonymous { .. } => "-",
        }
    }

    /// A unique string for aggregation (incidents are per rule and session).
    pub fn unique(&self) -> String {
        match &self.ident {
            SessionIdent::McpSessionId(s) => format!("{} sid {}", self.server, s),
            SessionIdent::LegacyParam(s) => format!("{} legacy {}", self.server, s),
            SessionIdent::Anonymous { client, endpoint, client_name } => {
                format!("{} anon {} {} {}", self.server, client, endpoint, client_name.as_deref().unwrap_or("-"))
            }
        }
    }
}

/// Content type class of a POST response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyType {
    Json,
    Sse,
}

impl BodyType {
    pub fn from_media(media: Option<&str>) -> Option<BodyType> {
        match media {
            Some("application/json") => Some(BodyType::Json),
            Some("text/event-stream") => Some(BodyType::Sse),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            BodyType::Json => "application/json",
            BodyType::Sse => "text/event-stream",
        }
    }
}

/// The previous POST response of a session, against which the next is compared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastPost {
    pub body: BodyType,
    pub frame: u64,
    pub server_hdr: String,
    pub session_id: Option<String>,
}

#[derive(Debug)]
pub struct Session {
    pub key: SessionKey,
    pub unique: String,
    pub era: Era,
    /// Version the client asked for in `initialize`.
    pub requested_version: Option<String>,
    /// Version the server answered in the `initialize` result.
    pub version: Option<String>,
    pub host: String,
    pub endpoint: String,
    pub first_seen: Timestamp,
    pub last_seen: Timestamp,
    pub post_json: u64,
    pub post_sse: u64,
    pub last_post: Option<LastPost>,
    /// A 4xx/5xx was answered since `last_post`.
    pub error_since_last_post: bool,
    /// Event ids issued in this session, with the stream that issued each and its issue order (bounded
    /// by `Limits::max_event_ids_per_session`).
    pub event_ids: HashMap<String, (u64, u64)>,
    pub ids_issued: u64,
    /// GET streams that ended, and POST streams that ended before their response: a later GET is a
    /// reconnect.
    pub streams_broken: u64,
    /// A 2xx answered a request of this session.
    pub seen_ok: bool,
    /// Response ids delivered, with the frame and stream (0 for JSON bodies) that delivered them.
    pub answered: HashMap<crate::jsonrpc::Id, (u64, u64)>,
    /// HTTP+SSE: requests POSTed (answered 202) whose responses come on the GET stream.
    pub legacy_pending: Vec<crate::jsonrpc::Id>,
    pub event_ids_full: bool,
    /// Some stream of this session lost bytes to a capture gap.
    pub gap: bool,
}

impl Session {
    pub fn new(key: SessionKey, ts: Timestamp) -> Session {
        let unique = key.unique();
        Session {
            key,
            unique,
            era: Era::Unknown,
            requested_version: None,
            version: None,
            host: String::new(),
            endpoint: String::new(),
            first_seen: ts,
            last_seen: ts,
            post_json: 0,
            post_sse: 0,
            last_post: None,
            error_since_last_post: false,
            event_ids: HashMap::new(),
            ids_issued: 0,
            streams_broken: 0,
            seen_ok: false,
            answered: HashMap::new(),
            legacy_pending: Vec::new(),
            event_ids_full: false,
            gap: false,
        }
    }

    /// Raises the era when the wire shows a later one; never lowers it (a 2025 session's DELETE can share
    /// a connection with 2026 requests, but one session has one era).
    pub fn observe_era(&mut self, era: Era) {
        if self.era == Era::Unknown {
            self.era = era;
        }
    }

    /// Records an event id issued by stream `stream`; returns the stream and issue order of an earlier
    /// issue of the same id, if any.
    pub fn issue_event_id(&mut self, id: &str, stream: u64, cap: usize) -> Option<(u64, u64)> {
        if let Some(&earlier) = self.event_ids.get(id) {
            return Some(earlier);
        }
        self.ids_issued += 1;
        if self.event_ids.len() < cap {
            // ALLOC: one event id, bounded by limits::max_event_ids_per_session
            self.event_ids.insert(id.to_string(), (stream, self.ids_issued));
        } else {
            self.event_ids_full = true;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn key_display_and_unique() {
        let server: SocketAddr = "127.0.0.1:8000".parse().unwrap();
        let k = SessionKey { server, ident: SessionIdent::McpSessionId("abc".into()) };
        assert_eq!(k.display_id(), "abc");
        let a = SessionKey { server, ident: SessionIdent::Anonymous { client: "127.0.0.1".parse().unwrap(), endpoint: "/mcp".into(), client_name: None } };
        assert_eq!(a.display_id(), "-");
        assert_ne!(k.unique(), a.unique());
    }

    #[test]
    fn event_ids_bounded() {
        let server: SocketAddr = "127.0.0.1:8000".parse().unwrap();
        let mut s = Session::new(SessionKey { server, ident: SessionIdent::McpSessionId("a".into()) }, Timestamp(0));
        assert_eq!(s.issue_event_id("1", 7, 1), None);
        assert_eq!(s.issue_event_id("1", 8, 1), Some((7, 1)));
        assert_eq!(s.issue_event_id("2", 7, 1), None);
        assert!(s.event_ids_full);
    }
}
