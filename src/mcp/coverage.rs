//! The layers' coverage notices (`stack::coverage`) as the facts the rules read: TLS_UNDECRYPTED,
//! HTTP2-SEEN and CAPTURE-UNREADABLE. Not a session's: each names its server (or the capture) as its key.

use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};

use crate::facts::{self, Era, Fact, FactContext, FactKind};
use crate::stack::coverage::{Coverage, Uncovered};
use crate::time::Timestamp;

/// The address of a notice that has none (0.0.0.0:0).
pub(super) const NO_ADDR: SocketAddr = SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 0));

/// The context of a coverage notice (these, capture gaps, bodies not decoded): not a session's, so no
/// session id, era or version; keyed by what it counts. Host and endpoint are empty and no gap is
/// crossed unless the caller sets them.
pub(super) fn notice_context(session_key: String, client: SocketAddr, server: SocketAddr, ts: Timestamp, frames: Vec<u64>) -> FactContext {
    FactContext {
        ts,
        session_key: session_key.into(),
        session_id: "-".into(),
        client,
        server,
        host: "".into(),
        endpoint: "".into(),
        era: Era::Unknown,
        version: "".into(),
        frames,
        crosses_gap: false,
    }
}

/// Where a per-server notice under construction was first seen, and the frames that prove it (the
/// session stage's notices: bodies not decoded, protocol switches).
#[derive(Debug)]
pub(super) struct Seen {
    first_ts: Timestamp,
    client: SocketAddr,
    host: String,
    endpoint: String,
    frames: Vec<u64>,
}

impl Seen {
    pub(super) fn new(ts: Timestamp, client: SocketAddr, host: String, endpoint: String) -> Seen {
        Seen { first_ts: ts, client, host, endpoint, frames: Vec::new() }
    }

    /// One more proving frame, the first [`crate::detect::MAX_FRAMES`] kept.
    pub(super) fn frame(&mut self, frame: u64) {
        if self.frames.len() < crate::detect::MAX_FRAMES {
            self.frames.push(frame);
        }
    }

    /// The notice's context, keyed by `session_key`, with its host and endpoint.
    pub(super) fn context(self, session_key: String, server: SocketAddr) -> FactContext {
        FactContext { host: self.host.into(), endpoint: self.endpoint.into(), ..notice_context(session_key, self.client, server, self.first_ts, self.frames) }
    }
}

/// Adds `value` to the distinct values of a notice, unless it holds `max` already.
pub(super) fn add_distinct(values: &mut Vec<String>, value: &str, max: usize) {
    if values.len() < max && !values.iter().any(|v| v == value) {
        values.push(value.to_string());
    }
}

/// The fact of one notice.
pub(super) fn fact(c: Coverage) -> Fact {
    let server = c.server.unwrap_or(NO_ADDR);
    let (session_key, kind) = match c.what {
        Uncovered::TlsUndecrypted(why) => (
            format!("{server} tls {why}"),
            FactKind::TlsUndecrypted(facts::TlsUndecrypted {
                reason: why.to_string().into(),
                connections: count(c.connections),
                bytes: count(c.bytes),
                sni: c.sni.clone().into(),
            }),
        ),
        Uncovered::Http2(reason) => (
            format!("{server} http2 {reason}"),
            FactKind::Http2Seen(facts::Http2Seen { connections: count(c.connections), sni: c.sni.clone().into(), reason: reason.into() }),
        ),
        Uncovered::Unreadable { reason, link_type, packets } => (
            "capture".to_string(),
            FactKind::CaptureUnreadable(facts::CaptureUnreadable {
                reason: reason.into(),
                link_type: i64::from(link_type.0),
                link_type_name: link_type.name().into(),
                packets: count(packets),
            }),
        ),
    };
    Fact { ctx: FactContext { host: c.sni.into(), ..notice_context(session_key, c.client.unwrap_or(NO_ADDR), server, c.ts, c.frames) }, kind }
}

fn count(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::LinkType;
    use crate::facts::FieldValue;
    use crate::time::Timestamp;
    use crate::tls::Undecrypted;

    fn notice(what: Uncovered, server: Option<SocketAddr>) -> Coverage {
        Coverage {
            what,
            server,
            client: server.map(|_| SocketAddr::from(([10, 0, 0, 1], 40000))),
            sni: if server.is_some() { "mcp.example".into() } else { String::new() },
            connections: 3,
            bytes: 1234,
            ts: Timestamp(7),
            frames: vec![4, 9],
        }
    }

    fn text(f: &Fact, name: &str) -> String {
        match f.field(name) {
            Some(FieldValue::Str(s)) => s.into_owned(),
            other => panic!("{name}: {other:?}"),
        }
    }

    fn int(f: &Fact, name: &str) -> i64 {
        match f.field(name) {
            Some(FieldValue::Int(n)) => n,
            other => panic!("{name}: {other:?}"),
        }
    }

    #[test]
    fn tls_notice_keys_server_and_reason() {
        let server = SocketAddr::from(([192, 0, 2, 5], 443));
        let f = fact(notice(Uncovered::TlsUndecrypted(Undecrypted::UnsupportedSuite(0x1305)), Some(server)));
        assert_eq!(f.kind.name(), "tls_undecrypted");
        assert_eq!(&*f.ctx.session_key, "192.0.2.5:443 tls unsupported cipher suite 0x1305");
        assert_eq!(text(&f, "reason"), "unsupported cipher suite 0x1305");
        assert_eq!((int(&f, "connections"), int(&f, "bytes")), (3, 1234));
        assert_eq!((text(&f, "sni"), text(&f, "host")), ("mcp.example".to_string(), "mcp.example".to_string()));
        assert_eq!((f.ctx.server, f.ctx.client), (server, SocketAddr::from(([10, 0, 0, 1], 40000))));
        assert_eq!((f.ctx.ts, f.ctx.frames.as_slice(), &*f.ctx.session_id), (Timestamp(7), &[4, 9][..], "-"));
    }

    #[test]
    fn http2_notice_keeps_its_reason() {
        let server = SocketAddr::from(([192, 0, 2, 6], 8443));
        let f = fact(notice(Uncovered::Http2("midstream"), Some(server)));
        assert_eq!(f.kind.name(), "http2_seen");
        assert_eq!(&*f.ctx.session_key, "192.0.2.6:8443 http2 midstream");
        assert_eq!((text(&f, "reason"), int(&f, "connections")), ("midstream".to_string(), 3));
    }

    #[test]
    fn capture_notice_has_no_addresses() {
        let f = fact(notice(Uncovered::Unreadable { reason: "no TCP", link_type: LinkType(1), packets: 12 }, None));
        assert_eq!(f.kind.name(), "capture_unreadable");
        assert_eq!(&*f.ctx.session_key, "capture");
        assert_eq!((text(&f, "reason"), int(&f, "link_type"), int(&f, "packets")), ("no TCP".to_string(), 1, 12));
        assert_eq!(text(&f, "link_type_name"), LinkType(1).name());
        let none = SocketAddr::from(([0, 0, 0, 0], 0));
        assert_eq!((f.ctx.client, f.ctx.server, text(&f, "host")), (none, none, String::new()));
    }
}
