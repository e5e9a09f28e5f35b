//! Bodies the HTTP layer could not decode (`Content-Encoding`, see `http/coding.rs`): the response is
//! marked so that nothing is judged on content that was never seen (an undecodable SSE reply is not a
//! stream "without events", "without ids" or "lost": no `stream_end`, no pending `response_shift`, no
//! `request_waiting` for it), and one coverage notice per server and reason is reported at the end of
//! the capture (`body_undecoded`, rule CAPTURE-BODY-UNDECODED), as the TLS layer does for dark TLS.
//! Any HTTP body counts, MCP or not: an undecodable body may be the only MCP evidence there was.

use super::coverage::{add_distinct, Seen};
use crate::http::coding::Undecoded;

use super::*;

/// Distinct coding names kept per notice.
const MAX_ENCODINGS: usize = 4;

/// One notice under construction: bodies of one server not decoded for one reason.
#[derive(Debug)]
struct Note {
    encodings: Vec<String>,
    bodies: u64,
    requests: u64,
    seen: Seen,
}

/// The notices, by server and reason (sorted: the report order is deterministic).
#[derive(Debug, Default)]
pub(super) struct UndecodedNotes {
    // ALLOC: one entry per server and reason (7 reasons), bounded by the servers the capture holds.
    by: BTreeMap<(SocketAddr, Undecoded), Note>,
}

impl McpTracker {
    /// The HTTP layer gave up decoding a body of `conn` (a request's when `request`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn body_undecoded(&mut self, conn: ConnId, tx: Option<TxId>, request: bool, coding: &str, reason: Undecoded, frame: u64, ts: Timestamp) {
        let Some(view) = self.conns.get_mut(&conn) else { return };
        let (client, server) = (view.client, view.server);
        let t = view.tx_mut(tx);
        let (host, endpoint) = t.as_ref().and_then(|t| t.req.as_deref()).map(|r| (r.host().to_string(), r.path().to_string())).unwrap_or_default();
        if !request {
            if let Some(r) = t.and_then(|t| t.resp.as_mut()) {
                r.undecoded = true;
            }
        }
        let note = self.undecoded.by.entry((server, reason)).or_insert_with(|| Note {
            encodings: Vec::new(),
            bodies: 0,
            requests: 0,
            seen: Seen::new(ts, client, host, endpoint),
        });
        note.bodies += 1;
        note.requests += u64::from(request);
        add_distinct(&mut note.encodings, coding, MAX_ENCODINGS);
        note.seen.frame(frame);
    }

    /// End of capture: one `body_undecoded` fact per server and reason.
    pub(super) fn finish_undecoded<F: FnMut(Fact)>(&mut self, out: &mut F) {
        for ((server, reason), n) in std::mem::take(&mut self.undecoded.by) {
            out(Fact {
                ctx: FactContext { crosses_gap: reason == Undecoded::Gap, ..n.seen.context(format!("{server} body {}", reason.as_str()), server) },
                kind: FactKind::BodyUndecoded(facts::BodyUndecoded {
                    encoding: (n.encodings.join("; ")).into(),
                    reason: reason.as_str().into(),
                    bodies: n.bodies as i64,
                    requests: n.requests as i64,
                }),
            });
        }
    }
}
