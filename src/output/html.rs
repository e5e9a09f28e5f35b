//! The HTML report (`--html FILE`): one self-contained page (inline CSS, JavaScript and SVG; no fetch of
//! anything, so it opens offline and from a ticket attachment) with the run summary, incidents by
//! severity and rule, the incident table, the session inventory and, per session, a timeline chart in
//! which content-type shifts and incidents stand out.
//!
//! Bounds: charts for at most `MAX_CHARTS` sessions (sessions with incidents first), each plotting at most
//! `MAX_POINTS` timeline lines; the inventory table lists at most `MAX_SESSION_ROWS` sessions. What was
//! left out is said on the page. Every text from the wire is HTML-escaped.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::html_escape as esc;
use super::sessions::incidents_by_rule;
use super::timeline::{self, Line};
use crate::analyzer::Summary;
use crate::detect::{Incident, Severity};
use crate::mcp::record::{EntryKind, SessionRecord};

const MAX_CHARTS: usize = 200;
const MAX_POINTS: usize = 400;
const MAX_SESSION_ROWS: usize = 2000;
/// Width of a chart in SVG user units when its timeline fits (it is then scaled to the page width).
const CHART_WIDTH: usize = 1100;

// Layout (readable from 900 to 1600 px wide, no sideways page scroll): the body grows to 1600 px; table
// cells wrap long tokens (session ids, addresses) anywhere, while Wireshark filters wrap only between
// frame numbers (`.wsf`: a number never splits); each wide table sits in a box that scrolls by itself
// should it ever not fit, so the page does not. Charts take the whole width (`chart()`).
const CSS: &str = "
body{font:14px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0 auto;max-width:1600px;padding:1em 1.5em;color:#1d2330;background:#fafbfc;box-sizing:border-box}
h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.25em;margin-top:1.6em;border-bottom:1px solid #d0d5dd;padding-bottom:.2em}
h3{font-size:1.05em;margin:1.2em 0 .3em;overflow-wrap:anywhere}
.wide{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;width:100%;margin:.4em 0;background:#fff}
th,td{border:1px solid #d0d5dd;padding:3px 5px;text-align:left;vertical-align:top;overflow-wrap:break-word}
#incidents,#sessions{font-size:13px}
th{background:#eef1f5}td.num{text-align:right}
pre{background:#fff;border:1px solid #d0d5dd;padding:.6em;overflow-x:auto;white-space:pre-wrap;overflow-wrap:anywhere}
.sev{font-weight:600;border-radius:3px;padding:0 5px;color:#fff;white-space:nowrap}
.sev-critical{background:#7a0010}.sev-high{background:#c62828}.sev-medium{background:#ef6c00}.sev-low{background:#9e8a00}.sev-info{background:#546e7a}
.cards{display:flex;gap:.8em;flex-wrap:wrap}.card{background:#fff;border:1px solid #d0d5dd;border-radius:6px;padding:.5em 1em;min-width:7em}
.card b{display:block;font-size:1.6em}
.chart{overflow-x:auto;background:#fff;border:1px solid #d0d5dd}.chart svg{display:block}
.legend span{margin-right:1.2em;display:inline-block}.sw{display:inline-block;width:10px;height:10px;margin-right:4px;vertical-align:middle}
code{font-size:12px}
code.wsf{overflow-wrap:normal;word-break:normal;white-space:normal}
code.wsf span{white-space:nowrap}
code.sid{overflow-wrap:anywhere}td.addr{overflow-wrap:anywhere;min-width:7.5em}
#incidents th.ts{width:8em}#incidents th.rule{width:9em}#incidents th.sid{width:11em}#incidents th.frames{width:8em}
#incidents th.evidence{min-width:12em}#incidents th.action{min-width:8em}.era,.count{color:#445}
tr.empty td{text-align:center;color:#445;padding:1em}
#filter{margin:.3em 0;padding:3px 6px;width:20em;max-width:100%}
tr.hidden{display:none}
";

/// Runs before anything else: records script errors in the page, so a headless browser's DOM dump shows
/// them (and a person sees them at the top).
const JS_ERRORS: &str = "window.__errors=[];window.addEventListener('error',function(e){window.__errors.push(String(e.message));\
var p=document.getElementById('js-errors');if(p){p.textContent='script errors: '+window.__errors.join('; ');p.hidden=false;}});";

/// The table filter; sets `data-ready` on <body> when it ran to the end.
const JS_MAIN: &str = "(function(){var f=document.getElementById('filter');var rows=document.querySelectorAll('#incidents tbody tr.incident');\
if(f){f.addEventListener('input',function(){var q=f.value.toLowerCase();rows.forEach(function(r){\
r.classList.toggle('hidden',q!==''&&r.textContent.toLowerCase().indexOf(q)<0);});});}\
document.body.setAttribute('data-ready','1');})();";

/// Colour of a response by content type.
fn ct_color(ct: &str) -> &'static str {
    match ct {
        "application/json" => "#1e88e5",
        "text/event-stream" => "#fb8c00",
        _ => "#8e99a8",
    }
}

/// The Wireshark filter of an incident's frames, each number in its own unbreakable span so the filter
/// wraps only between numbers (`{40 46 4` / `7}` cannot happen).
fn filter_markup(frames: &[u64]) -> String {
    if frames.is_empty() {
        return String::new();
    }
    let nums: Vec<String> = frames.iter().map(|f| format!("<span>{f}</span>")).collect();
    format!("<code class=\"wsf\"><span>frame.number</span> in {{{}}}</code>", nums.join(" "))
}

/// A timestamp that may wrap between date and time (`2026-11-30T` / `15:21:20.711794Z`).
fn ts_markup(rfc3339: &str) -> String {
    esc(rfc3339).replacen('T', "T<wbr>", 1)
}

fn sev_badge(s: Severity) -> String {
    format!("<span class=\"sev sev-{0}\">{0}</span>", s.as_str())
}

/// Renders the whole page.
pub fn render(inputs: &[String], summary: &Summary, incidents: &[Incident], records: &[SessionRecord]) -> String {
    let mut h = String::with_capacity(64 * 1024);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\
<title>mcptap report: {}</title><style>{CSS}</style><script>{JS_ERRORS}</script></head><body>\n",
        esc(&inputs.join(", "))
    );
    let _ = writeln!(h, "<pre id=\"js-errors\" hidden></pre>");
    let _ = writeln!(h, "<h1>mcptap report</h1><p>Capture: <code>{}</code></p>", esc(&inputs.join(" ")));

    // Cards: totals at a glance.
    let mut by_sev: BTreeMap<Severity, u64> = BTreeMap::new();
    let mut by_rule: BTreeMap<(&str, Severity), (u64, u64)> = BTreeMap::new();
    for i in incidents {
        *by_sev.entry(i.severity).or_default() += 1;
        let e = by_rule.entry((i.rule_id.as_str(), i.severity)).or_default();
        e.0 += 1;
        e.1 += i.count;
    }
    let sessions_total: u64 = summary.mcp.sessions_by_era.values().sum();
    let _ = write!(h, "<div class=\"cards\">");
    for (label, v) in [
        ("packets", summary.packets),
        ("TCP connections", summary.tcp.connections),
        ("HTTP requests", summary.http.requests),
        ("MCP sessions", sessions_total),
        ("incidents", incidents.len() as u64),
    ] {
        let _ = write!(h, "<div class=\"card\"><b>{v}</b>{label}</div>");
    }
    let _ = writeln!(h, "</div>");

    let _ = writeln!(h, "<h2>Incidents by severity and rule</h2>");
    if incidents.is_empty() {
        let _ = writeln!(h, "<p>No incidents: every MCP session seen was clean.</p>");
    } else {
        let _ = write!(h, "<table id=\"by-severity\"><thead><tr><th>severity</th><th>incidents</th></tr></thead><tbody>");
        for (s, n) in by_sev.iter().rev() {
            let _ = write!(h, "<tr><td>{}</td><td class=\"num\">{n}</td></tr>", sev_badge(*s));
        }
        let _ = writeln!(h, "</tbody></table>");
        let _ = write!(h, "<table id=\"by-rule\"><thead><tr><th>rule</th><th>severity</th><th>sessions</th><th>times fired</th></tr></thead><tbody>");
        let mut rules: Vec<_> = by_rule.into_iter().collect();
        rules.sort_by(|a, b| b.0 .1.cmp(&a.0 .1).then(a.0 .0.cmp(b.0 .0)));
        for ((rule, sev), (n, fired)) in rules {
            let _ = write!(h, "<tr><td>{}</td><td>{}</td><td class=\"num\">{n}</td><td class=\"num\">{fired}</td></tr>", esc(rule), sev_badge(sev));
        }
        let _ = writeln!(h, "</tbody></table>");
    }

    let _ = writeln!(h, "<h2>Incidents</h2>");
    let _ = writeln!(h, "<input id=\"filter\" type=\"search\" placeholder=\"filter incidents (rule, session, text)\" aria-label=\"filter incidents\">");
    // Seven columns, related values stacked in one cell (rule, severity and count; session, endpoint and
    // era), so evidence and action keep room to read at 900 px.
    let _ = write!(
        h,
        "<div class=\"wide\"><table id=\"incidents\"><thead><tr><th class=\"ts\">first seen</th><th class=\"rule\">rule</th>\
<th class=\"sid\">session / endpoint / era</th><th class=\"addr\">client / server</th><th class=\"frames\">frames (Wireshark filter)</th>\
<th class=\"evidence\">evidence</th><th class=\"action\">action</th></tr></thead><tbody>"
    );
    for i in incidents {
        let _ = write!(
            h,
            "<tr class=\"incident\" data-rule=\"{}\"><td>{}</td><td>{}<br>{} <span class=\"count\">&times;{}</span></td>\
<td><code class=\"sid\">{}</code><br>{}<br><span class=\"era\">{}</span></td><td class=\"addr\">{}<br>{}</td>\
<td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&i.rule_id),
            ts_markup(&i.first_seen.rfc3339()),
            esc(&i.rule_id),
            sev_badge(i.severity),
            i.count,
            esc(&i.session_id),
            esc(&i.endpoint),
            esc(&i.era),
            esc(&i.client),
            esc(&i.server),
            filter_markup(&i.frames),
            esc(&i.evidence),
            esc(&i.action),
        );
    }
    if incidents.is_empty() {
        let _ = write!(h, "<tr class=\"empty\"><td colspan=\"7\">No incidents: no rule fired on this capture.</td></tr>");
    }
    let _ = writeln!(h, "</tbody></table></div>");

    let _ = writeln!(h, "<h2>Sessions</h2>");
    let _ = write!(
        h,
        "<div class=\"wide\"><table id=\"sessions\"><thead><tr><th>session</th><th>client / server</th><th>endpoint</th><th>era</th><th>first / last seen</th>\
<th>requests</th><th>json / sse / other</th><th>SSE streams by cursor</th><th>fallbacks</th><th>incidents</th></tr></thead><tbody>"
    );
    for r in records.iter().take(MAX_SESSION_ROWS) {
        let streams: Vec<String> = r.streams.iter().map(|(k, v)| format!("{k}:{v}")).collect();
        let incs: Vec<String> = incidents_by_rule(r, incidents).iter().map(|(k, v)| format!("{k}:{v}")).collect();
        let _ = write!(
            h,
            "<tr><td><code class=\"sid\">{}</code></td><td class=\"addr\">{}<br>{}</td><td>{}</td><td>{}{}</td><td>{}<br>{}</td><td class=\"num\">{}</td><td>{} / {} / {}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            esc(&r.session_id),
            esc(&r.client.map(|c| c.to_string()).unwrap_or_default()),
            r.server,
            esc(&r.endpoint),
            r.era.as_str(),
            esc(&r.version.as_deref().map(|v| format!(" ({v})")).unwrap_or_default()),
            ts_markup(&r.first_seen.rfc3339()),
            ts_markup(&r.last_seen.rfc3339()),
            r.requests,
            r.resp_json,
            r.resp_sse,
            r.resp_other,
            esc(&streams.join(";")),
            r.fallbacks,
            esc(&incs.join(";")),
        );
    }
    if records.is_empty() {
        let _ = write!(h, "<tr class=\"empty\"><td colspan=\"10\">No MCP sessions in this capture.</td></tr>");
    }
    let _ = writeln!(h, "</tbody></table></div>");
    if records.len() > MAX_SESSION_ROWS {
        let _ = writeln!(h, "<p>{} more sessions not listed (see --sessions FILE).</p>", records.len() - MAX_SESSION_ROWS);
    }

    let _ = writeln!(h, "<h2>Session timelines</h2>");
    let _ = writeln!(
        h,
        "<p class=\"legend\"><span><i class=\"sw\" style=\"background:#455a64\"></i>request</span>\
<span><i class=\"sw\" style=\"background:{}\"></i>application/json response</span>\
<span><i class=\"sw\" style=\"background:{}\"></i>text/event-stream response / SSE event</span>\
<span><i class=\"sw\" style=\"background:#8e99a8\"></i>other response</span>\
<span><i class=\"sw\" style=\"background:#c62828\"></i>incident</span>\
<span>dashed line: content-type shift of POST responses</span></p>",
        ct_color("application/json"),
        ct_color("text/event-stream")
    );
    // Sessions with incidents first, then the rest, each group in inventory order.
    let mut order: Vec<&SessionRecord> = records.iter().filter(|r| r.timeline.is_some()).collect();
    order.sort_by_key(|r| timeline::incidents_of(r, incidents).is_empty());
    for r in order.iter().take(MAX_CHARTS) {
        chart(&mut h, r, incidents);
    }
    if order.len() > MAX_CHARTS {
        let _ = writeln!(h, "<p>{} more session timelines not drawn.</p>", order.len() - MAX_CHARTS);
    }

    let _ = writeln!(h, "<h2>Run summary</h2><pre id=\"summary\">{}</pre>", esc(&summary.to_string()));
    let _ = writeln!(h, "<script>{JS_MAIN}</script></body></html>");
    h
}

/// One session's timeline as an SVG chart: one column per line in capture order, four lanes (requests,
/// responses, SSE, incidents), shifts as dashed verticals. Each mark has a `<title>` tooltip.
fn chart(h: &mut String, r: &SessionRecord, incidents: &[Incident]) {
    let lines = timeline::lines(r, incidents);
    let conn = timeline::several_connections(r);
    let shown = lines.len().min(MAX_POINTS);
    // The chart spans the page: a short timeline spreads its columns over `CHART_WIDTH` user units and
    // the SVG scales to the box (width 100%, viewBox); a long one keeps 16 units a column and scrolls
    // inside its box. Rule names beside the last marks need `right` units of room.
    let left = 110usize;
    let right = 190usize;
    let step = ((CHART_WIDTH - left - right) / shown.max(1)).clamp(16, 120);
    let width = (left + step * shown.max(1) + right).max(CHART_WIDTH);
    let lanes = ["requests", "responses", "SSE / stream", "incidents"];
    let lane_y = |i: usize| 30 + i * 34;
    let height = lane_y(lanes.len()) + 10;
    let _ = writeln!(
        h,
        "<h3 id=\"session-{}\">session <code>{}</code> &middot; {} &middot; {}</h3>",
        esc(&r.unique).replace(' ', "_"),
        esc(&r.session_id),
        esc(&r.endpoint),
        r.era.as_str()
    );
    let _ = write!(h, "<div class=\"chart\"><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" style=\"{}\" role=\"img\" aria-label=\"timeline of session {}\">",
        if width > CHART_WIDTH { format!("width:{width}px") } else { "width:100%;min-width:760px".to_string() },
        esc(&r.session_id)
    );
    for (i, name) in lanes.iter().enumerate() {
        let y = lane_y(i);
        let _ = write!(h, "<text x=\"4\" y=\"{}\" font-size=\"12\" fill=\"#445\">{name}</text>", y + 4);
        let _ = write!(h, "<line x1=\"{left}\" y1=\"{y}\" x2=\"{}\" y2=\"{y}\" stroke=\"#e3e7ee\"/>", width - 10);
    }
    for (n, l) in lines.iter().take(shown).enumerate() {
        let x = left + step * n + step / 2;
        match l {
            Line::Entry { entry, evidence, shift } => {
                let tip = format!("frame {} at {}: {}", entry.frame, entry.ts.rfc3339(), timeline::describe(entry, conn));
                if let Some((a, b)) = shift {
                    let _ = write!(
                        h,
                        "<line class=\"shift\" x1=\"{x}\" y1=\"12\" x2=\"{x}\" y2=\"{}\" stroke=\"#c62828\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"><title>shift {} -&gt; {}</title></line>\
<text x=\"{}\" y=\"11\" font-size=\"11\" fill=\"#c62828\">{} &#8594; {}</text>",
                        height - 6,
                        esc(a),
                        esc(b),
                        x + 3,
                        esc(a),
                        esc(b)
                    );
                }
                let stroke = if *evidence { " stroke=\"#c62828\" stroke-width=\"2.5\"" } else { "" };
                let (lane, color) = match &entry.what {
                    EntryKind::Request { .. } => (0, "#455a64"),
                    EntryKind::Response { content_type, .. } => (1, ct_color(content_type)),
                    EntryKind::SseEvent { .. } | EntryKind::StreamEnd { .. } => (2, ct_color("text/event-stream")),
                    // The end of a wait no response ended: a bar on the responses' lane.
                    EntryKind::NoResponse { .. } => (1, ct_color("")),
                };
                let y = lane_y(lane);
                let shape = match &entry.what {
                    EntryKind::StreamEnd { .. } | EntryKind::NoResponse { .. } => format!("<rect x=\"{}\" y=\"{}\" width=\"4\" height=\"16\" fill=\"{color}\"{stroke}>", x - 2, y - 8),
                    _ => format!("<circle cx=\"{x}\" cy=\"{y}\" r=\"6\" fill=\"{color}\"{stroke}>"),
                };
                let close = if shape.starts_with("<rect") { "</rect>" } else { "</circle>" };
                let _ = write!(h, "{shape}<title>{}</title>{close}", esc(&tip));
            }
            Line::Incident(i) => {
                let y = lane_y(3);
                let tip = format!("{} ({}) frames {}: {}", i.rule_id, i.severity.as_str(), super::wireshark_filter(&i.frames), i.evidence);
                let _ = write!(
                    h,
                    "<polygon class=\"incident-mark\" points=\"{},{} {},{} {},{}\" fill=\"#c62828\"><title>{}</title></polygon>\
<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#c62828\">{}</text>",
                    x,
                    y - 8,
                    x - 7,
                    y + 6,
                    x + 7,
                    y + 6,
                    esc(&tip),
                    x + 9,
                    y + 4,
                    esc(&i.rule_id)
                );
            }
        }
    }
    let _ = writeln!(h, "</svg></div>");
    if lines.len() > shown {
        let _ = writeln!(h, "<p>{} later timeline lines not drawn (use --timeline {}).</p>", lines.len() - shown, esc(&r.session_id));
    }
    if r.timeline_dropped > 0 {
        let _ = writeln!(h, "<p>{} later entries not recorded (timeline cap per session).</p>", r.timeline_dropped);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn html_escapes_wire_text_and_is_self_contained() {
        let inc = Incident {
            first_seen: crate::time::Timestamp::from_secs_micros(1_700_000_000, 0),
            last_seen: crate::time::Timestamp::from_secs_micros(1_700_000_000, 0),
            rule_id: "MCP-SSE-DOWNGRADE".into(),
            rev: 1,
            severity: Severity::High,
            session_id: "<script>alert(1)</script>".into(),
            client: String::new(),
            server: String::new(),
            host: String::new(),
            endpoint: "/mcp".into(),
            era: String::new(),
            count: 1,
            frames: vec![3],
            evidence: "x".into(),
            action: String::new(),
            session_key: "k".into(),
        };
        let page = render(&["a.pcap".into()], &Summary::default(), &[inc], &[]);
        assert!(!page.contains("<script>alert(1)"), "wire text must be escaped");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(!page.contains("src=\"http") && !page.contains("href=\"http"));
        assert!(page.contains("<code class=\"wsf\"><span>frame.number</span> in {<span>3</span>}</code>"));
    }

    #[test]
    fn wireshark_filter_breaks_only_between_frame_numbers() {
        let m = filter_markup(&[40, 46, 47]);
        assert_eq!(m, "<code class=\"wsf\"><span>frame.number</span> in {<span>40</span> <span>46</span> <span>47</span>}</code>");
        // `break-all` would split a number at any character; the filter may wrap only at its spaces.
        assert!(!CSS.contains("break-all"), "no rule may let a filter break inside a number");
        assert!(CSS.contains("code.wsf span{white-space:nowrap}"));
    }

    #[test]
    fn empty_report_says_no_incidents_and_no_sessions() {
        let page = render(&["a.pcap".into()], &Summary::default(), &[], &[]);
        assert!(page.contains("<tr class=\"empty\"><td colspan=\"7\">No incidents: no rule fired on this capture.</td></tr>"), "{page}");
        assert!(page.contains("No MCP sessions in this capture."));
    }

    #[test]
    fn chart_spans_the_page_width() {
        // A short timeline is drawn over CHART_WIDTH units and scaled to the box, not 16 px a column.
        let entry = |frame| crate::mcp::record::TimelineEntry {
            ts: crate::time::Timestamp::from_secs_micros(1, 0),
            frame,
            what: EntryKind::Request { http_method: "POST".into(), path: "/mcp".into(), rpc_method: "tools/list".into(), h2_stream: None, client_port: 5000 },
        };
        let r = SessionRecord {
            session_id: "s".into(),
            unique: "s".into(),
            client: None,
            server: "127.0.0.1:8000".parse().unwrap(),
            host: String::new(),
            endpoint: "/mcp".into(),
            era: crate::facts::Era::Streamable2025,
            version: None,
            first_seen: crate::time::Timestamp::from_secs_micros(1, 0),
            last_seen: crate::time::Timestamp::from_secs_micros(1, 0),
            requests: 3,
            resp_json: 0,
            resp_sse: 0,
            resp_other: 0,
            streams: BTreeMap::new(),
            fallbacks: 0,
            codings: Default::default(),
            timeline: Some(vec![entry(1), entry(2), entry(3)]),
            timeline_dropped: 0,
        };
        let mut h = String::new();
        chart(&mut h, &r, &[]);
        assert!(h.contains(&format!("viewBox=\"0 0 {CHART_WIDTH} ")), "{h}");
        assert!(h.contains("style=\"width:100%;"), "{h}");
    }
}
