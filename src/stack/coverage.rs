//! What the layers below the session stage could not analyse, as typed notices: TLS that stayed dark and
//! HTTP/2 not analysed (tallied per server and reason by the TLS layer, `TlsLayer::finish`), and a capture
//! with not one TCP segment (the packet counters). They go up to the session stage like exchanges do, and
//! the session stage turns them into the coverage facts the rules read (`mcp::coverage`): no layer below it
//! builds a fact.

use std::net::SocketAddr;

use crate::capture::LinkType;
use crate::time::Timestamp;
use crate::tls::Undecrypted;

/// One coverage notice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    pub what: Uncovered,
    /// The server the connections went to; `None` for the capture as a whole.
    pub server: Option<SocketAddr>,
    /// The first connection's client.
    pub client: Option<SocketAddr>,
    /// The first connection's TLS server name (empty without one).
    pub sni: String,
    /// Connections tallied, and the bytes that stayed dark (TLS).
    pub connections: u64,
    pub bytes: u64,
    /// Capture time of the first connection.
    pub ts: Timestamp,
    /// Frames where it was seen (at most a few, in order).
    pub frames: Vec<u64>,
}

/// What went unanalysed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Uncovered {
    /// TLS the key log could not open.
    TlsUndecrypted(Undecrypted),
    /// HTTP/2 the HTTP layer could not follow, and why.
    Http2(&'static str),
    /// Packets were read and not one decoded to TCP: why (`analyzer::unreadable`), the link type of most
    /// of them, and how many packets were read.
    Unreadable { reason: &'static str, link_type: LinkType, packets: u64 },
}
