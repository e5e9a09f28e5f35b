//! One session's history (`--timeline SESSION_ID`), as text on standard output: every request, response,
//! SSE event and stream end the classifier keyed to the session, in capture order, with the incidents
//! placed where they fired. Two marks make the moment of a downgrade visible at a glance: `=>` on a POST
//! reply whose content type differs from the previous POST reply's, and `!!` on every line whose frame is
//! evidence of an incident. A 202 or 204 is not a reply: it acknowledges notifications and responses (the
//! Python SDK sends its 202 as `application/json` with no body), and taking its content type would mark a
//! shift to JSON and back between two SSE replies where the rules see none.
//!
//! Order: by capture time, then frame; an incident sorts after the entries of its moment (its first_seen
//! and its last evidence frame).

use std::fmt::Write as _;

use crate::detect::Incident;
use crate::mcp::record::{acknowledgement, EntryKind, SessionRecord, TimelineEntry};
use crate::time::Timestamp;

/// One line of a timeline, before rendering (shared with the HTML chart).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line<'a> {
    Entry {
        entry: &'a TimelineEntry,
        /// The frame is evidence of an incident.
        evidence: bool,
        /// A POST reply whose content type differs from the previous POST reply's: (from, to).
        shift: Option<(String, String)>,
    },
    Incident(&'a Incident),
}

impl Line<'_> {
    pub fn ts(&self) -> Timestamp {
        match self {
            Line::Entry { entry, .. } => entry.ts,
            Line::Incident(i) => i.first_seen,
        }
    }
}

/// The session's incidents (by the incidents' aggregation key).
pub fn incidents_of<'a>(record: &SessionRecord, incidents: &'a [Incident]) -> Vec<&'a Incident> {
    incidents.iter().filter(|i| i.session_key == record.unique).collect()
}

/// The timeline's lines in order; empty when the session's timeline was not recorded.
pub fn lines<'a>(record: &'a SessionRecord, incidents: &'a [Incident]) -> Vec<Line<'a>> {
    let mine = incidents_of(record, incidents);
    let Some(entries) = record.timeline.as_ref() else { return Vec::new() };
    let mut keyed: Vec<((Timestamp, u64, u8), Line<'a>)> = Vec::with_capacity(entries.len() + mine.len());
    let mut sorted: Vec<&TimelineEntry> = entries.iter().collect();
    // An end carries the frame of its response (or request), not where the end was seen: at its moment it
    // goes after every entry of that moment, such as the last event of a DATA frame that also ended the
    // stream, and takes the latest frame seen for its place.
    let is_end = |e: &TimelineEntry| matches!(e.what, EntryKind::StreamEnd { .. } | EntryKind::NoResponse { .. });
    sorted.sort_by_key(|e| (e.ts, is_end(e), e.frame));
    let mut latest = 0u64;
    let mut last_post: Option<&str> = None;
    for e in sorted {
        let mut shift = None;
        if let EntryKind::Response { http_method, status, content_type, .. } = &e.what {
            let reply = (200..300).contains(status) && !acknowledgement(*status);
            if http_method == "POST" && reply && !content_type.is_empty() {
                if let Some(prev) = last_post.filter(|p| *p != content_type.as_str()) {
                    shift = Some((prev.to_string(), content_type.clone()));
                }
                last_post = Some(content_type.as_str());
            }
        }
        let end = is_end(e);
        let place = if end { latest.max(e.frame) } else { e.frame };
        latest = latest.max(e.frame);
        let evidence = !end && mine.iter().any(|i| i.frames.contains(&e.frame));
        keyed.push(((e.ts, place, 0), Line::Entry { entry: e, evidence, shift }));
    }
    for i in mine {
        // After its last evidence: a shift is judged when its stream's reply arrives, later than the
        // incident's first_seen (the response head).
        let frame = i.frames.iter().copied().max().unwrap_or(0);
        let evidence_ts = entries.iter().filter(|e| e.frame == frame).map(|e| e.ts).min().unwrap_or(i.first_seen);
        keyed.push(((i.first_seen.max(evidence_ts), frame, 1), Line::Incident(i)));
    }
    keyed.sort_by_key(|k| k.0);
    keyed.into_iter().map(|(_, l)| l).collect()
}

/// Whether the session's requests came over more than one connection (told apart by client port): then
/// each HTTP/2 request line names its connection, since stream numbers start again on each. (HTTP/1.1
/// lines name none: a line there is one exchange whatever its connection, and SDK clients spread every
/// session over a pool.)
pub fn several_connections(record: &SessionRecord) -> bool {
    let mut ports = record.timeline.iter().flatten().filter_map(|e| match e.what {
        EntryKind::Request { client_port, .. } => Some(client_port),
        _ => None,
    });
    let first = ports.next();
    ports.any(|p| Some(p) != first)
}

/// A short description of an entry: `-> POST /mcp tools/call`, `<- 200 text/event-stream`, ...;
/// `conn`: name a request's connection (its client port).
pub fn describe(e: &TimelineEntry, conn: bool) -> String {
    match &e.what {
        EntryKind::Request { http_method, path, rpc_method, h2_stream, client_port } => format!(
            "-> {http_method} {path}{}{}",
            if rpc_method.is_empty() { String::new() } else { format!("  {rpc_method}") },
            match (h2_stream, conn) {
                (Some(s), false) => format!("  [h2 stream {s}]"),
                (Some(s), true) => format!("  [h2 stream {s}, client port {client_port}]"),
                (None, _) => String::new(),
            }
        ),
        EntryKind::Response { status, content_type, rpc_method, coding, .. } => format!(
            "<- {status} {}{}{}",
            if content_type.is_empty() { "(no content type)" } else { content_type },
            if coding.is_empty() { String::new() } else { format!(" ({coding})") },
            if rpc_method.is_empty() { String::new() } else { format!("  ({rpc_method})") }
        ),
        EntryKind::SseEvent { event, id, rpc } => format!(
            "   sse id={}{}{}",
            if id.is_empty() { "-" } else { id },
            if event.is_empty() { String::new() } else { format!(" event={event}") },
            if rpc.is_empty() { String::new() } else { format!("  {rpc}") }
        ),
        EntryKind::NoResponse { reason } => format!("<- {reason} (request of frame {})", e.frame),
        EntryKind::StreamEnd { reason, events, ids, cursor } => {
            format!("   stream of frame {} ended ({reason}): {events} events, {ids} ids, cursor {cursor}", e.frame)
        }
    }
}

/// Clock time of day with microseconds (the date is in the header).
fn clock(ts: Timestamp) -> String {
    let s = ts.rfc3339();
    s.get(11..).unwrap_or(&s).to_string()
}

/// Renders one session's timeline as text.
pub fn render(record: &SessionRecord, incidents: &[Incident]) -> String {
    let mut out = String::new();
    let version = record.version.as_deref().map(|v| format!(" ({v})")).unwrap_or_default();
    let _ = writeln!(
        out,
        "session {}  server {}  client {}  host {}  endpoint {}  era {}{version}",
        record.session_id,
        record.server,
        record.client.map(|c| c.to_string()).unwrap_or_else(|| "-".into()),
        if record.host.is_empty() { "-" } else { &record.host },
        if record.endpoint.is_empty() { "-" } else { &record.endpoint },
        record.era.as_str(),
    );
    let _ = writeln!(out, "first seen {}  last seen {}", record.first_seen.rfc3339(), record.last_seen.rfc3339());
    let _ = writeln!(out, "{:>8}  {:<16}     what", "frame", "time (UTC)");
    let conn = several_connections(record);
    for l in lines(record, incidents) {
        match l {
            Line::Entry { entry, evidence, shift } => {
                let mark = if evidence { "!!" } else { "  " };
                let shift = shift.map(|(a, b)| format!("   => shift {a} -> {b}")).unwrap_or_default();
                let no_frame = matches!(entry.what, EntryKind::StreamEnd { .. } | EntryKind::NoResponse { .. });
                let frame = if no_frame { String::new() } else { entry.frame.to_string() };
                let _ = writeln!(out, "{frame:>8}  {:<16} {mark}  {}{shift}", clock(entry.ts), describe(entry, conn));
            }
            Line::Incident(i) => {
                let frames: Vec<String> = i.frames.iter().map(u64::to_string).collect();
                let _ = writeln!(
                    out,
                    "{:>8}  {:<16} !!  INCIDENT {} ({}) frames {}: {}",
                    "",
                    clock(i.first_seen),
                    i.rule_id,
                    i.severity.as_str(),
                    frames.join(";"),
                    i.evidence
                );
            }
        }
    }
    if record.timeline_dropped > 0 {
        let _ = writeln!(out, "({} later entries not kept: timeline cap per session)", record.timeline_dropped);
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::detect::Severity;
    use crate::facts::Era;

    fn t(s: i64) -> Timestamp {
        Timestamp::from_secs_micros(1_700_000_000 + s, 0)
    }

    fn resp(frame: u64, ct: &str) -> TimelineEntry {
        resp_status(frame, 200, ct)
    }

    fn resp_status(frame: u64, status: u16, ct: &str) -> TimelineEntry {
        TimelineEntry {
            ts: t(frame as i64),
            frame,
            what: EntryKind::Response { http_method: "POST".into(), rpc_method: "tools/call".into(), status, content_type: ct.into(), coding: String::new() },
        }
    }

    fn record(timeline: Vec<TimelineEntry>) -> SessionRecord {
        SessionRecord {
            session_id: "abc".into(),
            unique: "k".into(),
            client: None,
            server: "127.0.0.1:8000".parse().unwrap(),
            host: String::new(),
            endpoint: "/mcp".into(),
            era: Era::Streamable2025,
            version: None,
            first_seen: t(0),
            last_seen: t(9),
            requests: 2,
            resp_json: 1,
            resp_sse: 1,
            resp_other: 0,
            streams: Default::default(),
            fallbacks: 0,
            codings: Default::default(),
            timeline: Some(timeline),
            timeline_dropped: 0,
        }
    }

    #[test]
    fn timeline_marks_shift_and_incident_evidence() {
        let record = record(vec![resp(9, "text/event-stream"), resp(2, "application/json")]);
        let inc = Incident {
            first_seen: t(9),
            last_seen: t(9),
            rule_id: "MCP-SSE-DOWNGRADE".into(),
            rev: 1,
            severity: Severity::High,
            session_id: "abc".into(),
            client: String::new(),
            server: String::new(),
            host: String::new(),
            endpoint: String::new(),
            era: String::new(),
            count: 1,
            frames: vec![2, 9],
            evidence: "downgraded".into(),
            action: String::new(),
            session_key: "k".into(),
        };
        let text = render(&record, &[inc]);
        let body: Vec<&str> = text.lines().skip(3).collect();
        assert_eq!(body.len(), 3, "{text}");
        assert!(body[0].trim_start().starts_with("2 ") && body[0].contains("!!") && !body[0].contains("=>"), "{text}");
        assert!(body[1].contains("=> shift application/json -> text/event-stream"), "{text}");
        assert!(body[2].contains("INCIDENT MCP-SSE-DOWNGRADE (high) frames 2;9: downgraded"), "{text}");
    }

    #[test]
    fn an_acknowledgement_is_not_a_reply_that_shifts() {
        // The Python SDK's session: SSE replies, its 202 to notifications/initialized sent as application/json.
        let entries = vec![
            resp(1, "text/event-stream"),
            resp_status(2, 202, "application/json"),
            resp(3, "text/event-stream"),
            resp_status(4, 204, "application/json"),
            resp(5, "application/json"),
        ];
        let record = record(entries);
        let text = render(&record, &[]);
        let marked: Vec<&str> = text.lines().filter(|l| l.contains("=>")).collect();
        assert_eq!(marked.len(), 1, "{text}");
        assert!(marked[0].trim_start().starts_with("5 ") && marked[0].contains("=> shift text/event-stream -> application/json"), "{text}");
    }

    fn entry(frame: u64, ts: i64, what: EntryKind) -> TimelineEntry {
        TimelineEntry { ts: t(ts), frame, what }
    }

    fn request(frame: u64, ts: i64, h2_stream: Option<u32>, client_port: u16) -> TimelineEntry {
        entry(frame, ts, EntryKind::Request { http_method: "POST".into(), path: "/mcp".into(), rpc_method: "tools/call".into(), h2_stream, client_port })
    }

    #[test]
    fn a_stream_end_goes_after_the_event_of_the_frame_that_ended_it() {
        // granian: END_STREAM on the DATA frame that carries the last event, so the end and the event share a
        // moment; the end carries the response head's frame (2), the event its own (3).
        let end = entry(2, 3, EntryKind::StreamEnd { reason: "complete".into(), events: 1, ids: 0, cursor: "none".into() });
        let event = entry(3, 3, EntryKind::SseEvent { event: "message".into(), id: String::new(), rpc: "result #1".into() });
        let record = record(vec![request(1, 1, Some(1), 5000), resp(2, "text/event-stream"), end, event]);
        let text = render(&record, &[]);
        let body: Vec<&str> = text.lines().skip(3).collect();
        assert_eq!(body.len(), 4, "{text}");
        assert!(body[2].contains("sse id=-") && body[3].contains("stream of frame 2 ended"), "{text}");
    }

    #[test]
    fn requests_name_their_connection_when_the_session_spans_several() {
        let one = record(vec![request(1, 1, Some(1), 5000), request(3, 3, Some(3), 5000)]);
        let text = render(&one, &[]);
        assert!(text.contains("[h2 stream 3]") && !text.contains("client port"), "{text}");
        // undici with allowH2: stream 1 on two connections.
        let two = record(vec![request(1, 1, Some(1), 5000), request(3, 3, Some(1), 5002), request(5, 5, None, 5004)]);
        let text = render(&two, &[]);
        let body: Vec<&str> = text.lines().skip(3).collect();
        assert!(body[0].ends_with("[h2 stream 1, client port 5000]"), "{text}");
        assert!(body[1].ends_with("[h2 stream 1, client port 5002]"), "{text}");
        assert!(body[2].ends_with("-> POST /mcp  tools/call"), "{text}");
    }
}
