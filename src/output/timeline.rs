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
use crate::mcp::record::{EntryKind, SessionRecord, TimelineEntry};
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
    sorted.sort_by_key(|e| (e.ts, e.frame));
    let mut last_post: Option<&str> = None;
    for e in sorted {
        let mut shift = None;
        if let EntryKind::Response { http_method, status, content_type, .. } = &e.what {
            let reply = (200..300).contains(status) && *status != 202 && *status != 204;
            if http_method == "POST" && reply && !content_type.is_empty() {
                if let Some(prev) = last_post.filter(|p| *p != content_type.as_str()) {
                    shift = Some((prev.to_string(), content_type.clone()));
                }
                last_post = Some(content_type.as_str());
            }
        }
        // A stream end carries its response's frame, and a wait without answer its request's: neither is
        // where the end was seen.
        let is_end = matches!(e.what, EntryKind::StreamEnd { .. } | EntryKind::NoResponse { .. });
        let evidence = !is_end && mine.iter().any(|i| i.frames.contains(&e.frame));
        keyed.push(((e.ts, e.frame, 0), Line::Entry { entry: e, evidence, shift }));
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

/// A short description of an entry: `-> POST /mcp tools/call`, `<- 200 text/event-stream`, ...
pub fn describe(e: &TimelineEntry) -> String {
    match &e.what {
        EntryKind::Request { http_method, path, rpc_method, h2_stream } => format!(
            "-> {http_method} {path}{}{}",
            if rpc_method.is_empty() { String::new() } else { format!("  {rpc_method}") },
            h2_stream.map(|s| format!("  [h2 stream {s}]")).unwrap_or_default()
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
    for l in lines(record, incidents) {
        match l {
            Line::Entry { entry, evidence, shift } => {
                let mark = if evidence { "!!" } else { "  " };
                let shift = shift.map(|(a, b)| format!("   => shift {a} -> {b}")).unwrap_or_default();
                let no_frame = matches!(entry.what, EntryKind::StreamEnd { .. } | EntryKind::NoResponse { .. });
                let frame = if no_frame { String::new() } else { entry.frame.to_string() };
                let _ = writeln!(out, "{frame:>8}  {:<16} {mark}  {}{shift}", clock(entry.ts), describe(entry));
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
}
