//! The request half of an HTTP transaction as the classifier keeps it (`Req`): the MCP headers, the
//! JSON-RPC body decoded once, and what the request says about its session and transport era: the
//! `Mcp-Session-Id` (2025-03-26 "Session Management"), the HTTP+SSE session parameter of the POST URL
//! (2024-11-05), and the 2026-07-28 markers (`Mcp-Method`, `_meta` protocol version, `server/discover`)
//! with the header expectations that revision sets (mcp-transports.md §1.2).

use crate::facts::Era;
use crate::http::RequestHead;
use crate::jsonrpc::{self, Id, Message};
use crate::time::Timestamp;

use super::McpStats;

/// The request half of an HTTP transaction, as much as the classifier keeps.
#[derive(Debug)]
pub(super) struct Req {
    pub(super) method: String,
    pub(super) target: String,
    pub(super) host: String,
    pub(super) session_id: Option<String>,
    pub(super) proto_version: Option<String>,
    pub(super) mcp_method: Option<String>,
    pub(super) mcp_name: Option<String>,
    pub(super) last_event_id: Option<String>,
    pub(super) frame: u64,
    pub(super) ts: Timestamp,
    // ALLOC: request body for JSON-RPC decoding, bounded by limits::max_body_bytes
    pub(super) body: Vec<u8>,
    pub(super) body_over: bool,
    pub(super) messages: Option<Vec<Message>>,
    /// Request-side facts were emitted (at RequestEnd, or at the response if that came first).
    pub(super) checked: bool,
}

impl Req {
    pub(super) fn from_head(head: &RequestHead, frame: u64, ts: Timestamp) -> Req {
        let h = &head.headers;
        let owned = |name: &str| h.get(name).map(str::to_string);
        Req {
            method: head.method.clone(),
            target: head.target.clone(),
            host: h.get("host").unwrap_or("").to_string(),
            session_id: owned("mcp-session-id"),
            proto_version: owned("mcp-protocol-version"),
            mcp_method: owned("mcp-method"),
            mcp_name: owned("mcp-name"),
            last_event_id: owned("last-event-id"),
            frame,
            ts,
            body: Vec::new(),
            body_over: false,
            messages: None,
            checked: false,
        }
    }

    pub(super) fn path(&self) -> &str {
        self.target.split('?').next().unwrap_or("")
    }

    /// The HTTP+SSE session parameter of the POST URL (`?sessionId=` TypeScript, `?session_id=` Python).
    pub(super) fn legacy_param(&self) -> Option<&str> {
        legacy_param(&self.target)
    }

    /// JSON-RPC messages of the body, decoded once.
    pub(super) fn decode(&mut self, stats: &mut McpStats) {
        if self.messages.is_some() {
            return;
        }
        let msgs = if self.body.is_empty() || self.body_over {
            Vec::new()
        } else {
            match jsonrpc::parse(&self.body) {
                Ok(p) => p.messages,
                Err(_) => {
                    stats.json_parse_errors += 1;
                    Vec::new()
                }
            }
        };
        stats.jsonrpc_messages += msgs.len() as u64;
        self.body = Vec::new();
        self.messages = Some(msgs);
    }

    pub(super) fn messages(&self) -> &[Message] {
        self.messages.as_deref().unwrap_or(&[])
    }

    pub(super) fn request_ids(&self) -> Vec<Id> {
        self.messages()
            .iter()
            .filter_map(|m| match m {
                Message::Request { id, .. } => Some(id.clone()),
                _ => None,
            })
            .collect()
    }

    pub(super) fn first_method(&self) -> String {
        self.messages().iter().find_map(|m| m.method().map(str::to_string)).unwrap_or_default()
    }

    pub(super) fn is_initialize(&self) -> bool {
        self.messages().iter().any(|m| matches!(m, Message::Request { method, .. } if method == "initialize"))
    }

    pub(super) fn requested_version(&self) -> Option<String> {
        self.messages().iter().find_map(|m| match m {
            Message::Request { method, params, .. } if method == "initialize" => params.protocol_version.clone(),
            _ => None,
        })
    }

    /// Carries markers of the stateless 2026-07-28 era (mcp-transports.md §1.2).
    pub(super) fn is_modern(&self) -> bool {
        self.mcp_method.is_some()
            || self.messages().iter().any(|m| {
                matches!(m.method(), Some("server/discover" | "subscriptions/listen"))
                    || match m {
                        Message::Request { params, .. } | Message::Notification { params, .. } => {
                            params.meta.as_ref().is_some_and(|meta| meta.protocol_version.is_some())
                        }
                        _ => false,
                    }
            })
    }

    pub(super) fn era(&self) -> Option<Era> {
        if self.is_modern() {
            Some(Era::Stateless2026)
        } else if self.legacy_param().is_some() {
            Some(Era::HttpSse2024)
        } else if self.session_id.is_some() || self.is_initialize() {
            Some(Era::Streamable2025)
        } else {
            None
        }
    }

    /// What keys the request to a session.
    pub(super) fn key_info(&self) -> KeyInfo {
        KeyInfo {
            session_id: self.session_id.clone(),
            legacy: self.legacy_param().map(str::to_string),
            path: self.path().to_string(),
            host: self.host.clone(),
            is_post: self.method == "POST",
            era: self.era(),
            requested: self.requested_version(),
            client_name: self.messages().iter().find_map(|m| match m {
                Message::Request { params, .. } | Message::Notification { params, .. } => params
                    .meta
                    .as_ref()
                    .and_then(|meta| meta.client_info.as_ref())
                    .and_then(|ci| ci.name.as_ref())
                    .and_then(|n| n.0.clone()),
                _ => None,
            }),
        }
    }

    pub(super) fn is_mcp(&self) -> bool {
        !self.messages().is_empty() || self.session_id.is_some() || (self.method == "POST" && self.legacy_param().is_some())
    }
}

/// The parts of a request that pick and describe its session.
#[derive(Debug, Clone)]
pub(super) struct KeyInfo {
    pub(super) session_id: Option<String>,
    pub(super) legacy: Option<String>,
    pub(super) path: String,
    pub(super) host: String,
    pub(super) is_post: bool,
    pub(super) era: Option<Era>,
    pub(super) requested: Option<String>,
    /// 2026-07-28 `_meta` `clientInfo.name`, part of a stateless exchange's key.
    pub(super) client_name: Option<String>,
}

pub(super) fn legacy_param(target: &str) -> Option<&str> {
    let query = target.split_once('?')?.1;
    query.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=')?;
        (k == "sessionId" || k == "session_id").then_some(v)
    })
}

/// 2026-07-28 header expectations of one request: (what, header value, expected value).
pub(super) fn header_expectations(req: &Req) -> Vec<(&'static str, String, String)> {
    let mut v = Vec::new();
    let Some(m) = req.messages().first() else { return v };
    let (method, params) = match m {
        Message::Request { method, params, .. } | Message::Notification { method, params } => (method, params),
        _ => return v,
    };
    let meta_version = params.meta.as_ref().and_then(|meta| meta.protocol_version.as_ref()).and_then(|p| p.0.clone());
    if !req.is_modern() {
        return v;
    }
    if let Some(mv) = &meta_version {
        let header = req.proto_version.clone().unwrap_or_default();
        if &header != mv {
            v.push(("meta-version", header, mv.clone()));
        }
    }
    let header_method = req.mcp_method.clone().unwrap_or_default();
    if &header_method != method {
        v.push(("method", header_method, method.clone()));
    }
    if matches!(method.as_str(), "tools/call" | "resources/read" | "prompts/get") {
        let expected = params.name.as_ref().and_then(|n| n.0.clone()).or_else(|| params.uri.as_ref().and_then(|u| u.0.clone())).unwrap_or_default();
        let header = req.mcp_name.clone().unwrap_or_default();
        if header != expected {
            v.push(("name", header, expected));
        }
    }
    v
}
