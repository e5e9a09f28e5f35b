//! The analyzer: drives one packet through every stage and keeps the run's counters. Synchronous and
//! sans-IO (the caller brings packets and a sink), so file and live capture run exactly the same code.

use std::collections::BTreeMap;
use std::fmt;

use crate::capture::{CaptureStats, RawPacket};
use crate::decode::{self, Skip};
use crate::detect::{Incidents, Raised, RuleSet};
use crate::facts::{Era, Fact};
use crate::http::{HttpAnomaly, HttpConnection, HttpEvent};
use crate::limits::Limits;
use crate::mcp::{McpStats, McpTracker};
use crate::output::httplog::HttpLog;
use crate::output::IncidentSink;
use crate::reassembly::{ConnId, ConnMap, FlowEvent, FlowTable, ReassemblyStats};
use crate::time::{Duration, Timestamp};
use crate::tls::keylog::KeyLog;
use crate::tls::{Delivery, TlsLayer, TlsStats};

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
}

/// Distinct media types counted by name in [`HttpCounters::responses_by_type`].
pub const MAX_CONTENT_TYPES: usize = 16;

impl HttpCounters {
    fn count_response(&mut self, headers: &crate::http::Headers) {
        let name = headers.get("content-type").map(|v| v.split(';').next().unwrap_or_default().trim());
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

/// What the run saw and skipped, printed at the end (the summary on standard error).
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub packets: u64,
    pub bytes: u64,
    pub tcp_segments: u64,
    pub skipped: BTreeMap<Skip, u64>,
    pub first_ts: Option<Timestamp>,
    pub last_ts: Option<Timestamp>,
    pub capture: CaptureStats,
    pub tcp: ReassemblyStats,
    pub http: HttpCounters,
    pub mcp: McpStats,
    pub incidents_by_rule: BTreeMap<String, u64>,
    pub rule_eval_errors: u64,
    /// Per-session records for the reports, when `enable_recorder` asked for them (first seen order).
    pub sessions: Vec<crate::mcp::record::SessionRecord>,
    /// Sessions not recorded because the recorder was full.
    pub sessions_unrecorded: u64,
    pub tls: TlsStats,
    /// Incidents merged into a per-rule row at `Limits::max_incidents`.
    pub incidents_merged: u64,
}

pub struct Analyzer {
    limits: Limits,
    flows: FlowTable,
    http: ConnMap<HttpConnection>,
    tls: TlsLayer,
    mcp: McpTracker,
    rules: RuleSet,
    incidents: Incidents,
    summary: Summary,
    now: Timestamp,
    last_expiry: Timestamp,
    /// `--http-log`: the HTTP transaction log, when asked for.
    http_log: Option<HttpLog>,
}

impl Analyzer {
    pub fn new(limits: Limits, rules: RuleSet) -> Analyzer {
        Analyzer {
            flows: FlowTable::new(&limits),
            http: ConnMap::default(),
            tls: TlsLayer::default(),
            mcp: McpTracker::new(&limits),
            rules,
            incidents: Incidents::with_cap(limits.max_incidents),
            summary: Summary::default(),
            now: Timestamp::ZERO,
            last_expiry: Timestamp::ZERO,
            limits,
            http_log: None,
        }
    }

    /// The TLS key log (`--keylog`); set before the first packet.
    pub fn set_keylog(&mut self, keylog: KeyLog) {
        self.tls = TlsLayer::new(keylog);
    }

    /// Key-log text found inside the capture (pcapng Decryption Secrets Blocks).
    pub fn add_secrets(&mut self, text: &[u8]) {
        self.tls.add_secrets(text);
    }

    /// Also writes one line per HTTP transaction to `log` (`--http-log`).
    pub fn set_http_log(&mut self, log: HttpLog) {
        self.http_log = Some(log);
    }

    /// Capture time: the latest packet timestamp seen.
    pub fn now(&self) -> Timestamp {
        self.now
    }

    pub fn incidents(&self) -> &Incidents {
        &self.incidents
    }

    /// MCP sessions currently tracked (for progress display).
    pub fn open_sessions(&self) -> usize {
        self.mcp.open_sessions()
    }

    /// Makes the classifier keep per-session counters and timelines for the reports (output::sessions,
    /// timeline, html); they come back in `Summary::sessions`. Call before the first packet.
    pub fn enable_recorder(&mut self, config: crate::mcp::record::RecorderConfig) {
        self.mcp.enable_recorder(config);
    }

    /// Feeds one packet through the pipeline. Errors are the sink's (I/O), never the packet's.
    pub fn on_packet(&mut self, pkt: &RawPacket<'_>, sink: &mut dyn IncidentSink) -> std::io::Result<()> {
        let s = &mut self.summary;
        s.packets += 1;
        s.bytes += pkt.data.len() as u64;
        s.first_ts = Some(s.first_ts.map_or(pkt.ts, |t| t.min(pkt.ts)));
        s.last_ts = Some(s.last_ts.map_or(pkt.ts, |t| t.max(pkt.ts)));
        // Capture time moves to this packet first: timers due before it (a request that waited 60 s, an
        // idle connection) fire before the packet can answer or revive them.
        if pkt.ts.since(self.last_expiry) >= Duration::from_secs(1) {
            self.advance(pkt.ts, sink)?;
        }
        self.now = self.now.max(pkt.ts);
        let mut result = Ok(());
        match decode::decode(pkt) {
            Ok(seg) => {
                self.summary.tcp_segments += 1;
                let Analyzer { flows, http, tls, mcp, rules, incidents, summary, limits, http_log, .. } = self;
                let mut on_fact = fact_handler(rules, incidents, sink, &mut result, &mut summary.rule_eval_errors);
                flows.feed(&seg, &mut |ev| route(ev, http, tls, mcp, &mut summary.http, limits, http_log, &mut on_fact));
            }
            Err(skip) => *self.summary.skipped.entry(skip).or_default() += 1,
        }
        result
    }

    /// Moves capture time forward without a packet (a live sensor's timer): expires idle state.
    pub fn advance(&mut self, now: Timestamp, sink: &mut dyn IncidentSink) -> std::io::Result<()> {
        self.now = self.now.max(now);
        self.last_expiry = self.now;
        let mut result = Ok(());
        {
            let Analyzer { flows, http, tls, mcp, rules, incidents, summary, limits, http_log, now, .. } = self;
            let mut on_fact = fact_handler(rules, incidents, sink, &mut result, &mut summary.rule_eval_errors);
            flows.expire(*now, &mut |ev| route(ev, http, tls, mcp, &mut summary.http, limits, http_log, &mut on_fact));
            mcp.advance(*now, &mut on_fact);
        }
        result
    }

    /// End of capture: flushes every stream and session, hands all incidents to the sink, and returns the
    /// summary.
    pub fn finish(mut self, capture: CaptureStats, sink: &mut dyn IncidentSink) -> std::io::Result<Summary> {
        let mut result = Ok(());
        {
            let Analyzer { flows, http, tls, mcp, rules, incidents, summary, limits, http_log, now, .. } = &mut self;
            let mut on_fact = fact_handler(rules, incidents, sink, &mut result, &mut summary.rule_eval_errors);
            flows.finish(*now, &mut |ev| route(ev, http, tls, mcp, &mut summary.http, limits, http_log, &mut on_fact));
            mcp.finish(*now, &mut on_fact);
            tls.finish(*now, &mut on_fact);
        }
        result?;
        if let Some(log) = self.http_log.take() {
            log.finish()?;
        }
        sink.finish(&self.incidents.sorted())?;
        let mut summary = self.summary;
        summary.capture = capture;
        summary.tcp = self.flows.stats().clone();
        summary.mcp = self.mcp.stats().clone();
        summary.tls = self.tls.stats();
        summary.incidents_by_rule = self.incidents.by_rule().into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        summary.rule_eval_errors += self.incidents.eval_errors;
        summary.incidents_merged = self.incidents.merged;
        if let Some((records, dropped)) = self.mcp.take_records() {
            summary.sessions = records;
            summary.sessions_unrecorded = dropped;
        }
        Ok(summary)
    }
}

/// Evaluates a fact against the rules and raises incidents; the first sink error is kept in `result`.
fn fact_handler<'a>(
    rules: &'a RuleSet,
    incidents: &'a mut Incidents,
    sink: &'a mut dyn IncidentSink,
    result: &'a mut std::io::Result<()>,
    eval_errors: &'a mut u64,
) -> impl FnMut(Fact) + 'a {
    move |fact: Fact| {
        for rule in rules.evaluate(&fact, |_, _| *eval_errors += 1) {
            if let Raised::New(i) = incidents.raise(rule, &fact) {
                if let (Some(inc), true) = (incidents.get(i), result.is_ok()) {
                    *result = sink.raised(inc);
                }
            }
        }
    }
}

/// Hands a reassembly event to the HTTP layer of its connection and the HTTP events on to the MCP layer.
// The stages it hands between are separate borrows of the analyzer; a struct for them would only rename them.
#[allow(clippy::too_many_arguments)]
fn route<F: FnMut(Fact)>(
    ev: FlowEvent<'_>,
    http: &mut ConnMap<HttpConnection>,
    tls: &mut TlsLayer,
    mcp: &mut McpTracker,
    counters: &mut HttpCounters,
    limits: &Limits,
    http_log: &mut Option<HttpLog>,
    on_fact: &mut F,
) {
    let mut deliver = |conn: ConnId, hev: HttpEvent<'_>, mcp: &mut McpTracker, log: &mut Option<HttpLog>| {
        if let Some(l) = log {
            l.http(conn, &hev);
        }
        match &hev {
            HttpEvent::Request { .. } => counters.requests += 1,
            HttpEvent::Response { head, .. } => {
                counters.responses += 1;
                counters.count_response(&head.headers);
            }
            HttpEvent::Sse { .. } => counters.sse_events += 1,
            HttpEvent::Anomaly { kind, .. } => *counters.anomalies.entry(*kind).or_default() += 1,
            _ => {}
        }
        mcp.http(conn, hev, on_fact);
    };
    match ev {
        FlowEvent::Open { conn, client, server, ts, .. } => {
            // ALLOC: HTTP state per open connection, bounded by limits::max_connections
            http.insert(conn, HttpConnection::new(limits));
            tls.open(conn, client, server, ts);
            mcp.open(conn, client, server);
            if let Some(l) = http_log {
                l.open(conn, client, server);
            }
        }
        FlowEvent::Data { conn, dir, bytes, frame, ts } => {
            // The TLS layer passes plaintext through and decrypts TLS (src/tls).
            if let Some(h) = http.get_mut(&conn) {
                tls.data(conn, dir, bytes, frame, ts, &mut |d| deliver_http(h, d, &mut |hev| deliver(conn, hev, mcp, http_log)));
            }
        }
        FlowEvent::Gap { conn, dir, len, frame, ts } => {
            mcp.gap(conn, len, frame);
            if let Some(h) = http.get_mut(&conn) {
                tls.gap(conn, dir, len, frame, ts, &mut |d| deliver_http(h, d, &mut |hev| deliver(conn, hev, mcp, http_log)));
            }
        }
        FlowEvent::End { conn, dir, reason, frame, ts } => {
            mcp.end(conn, dir, reason);
            if let Some(h) = http.get_mut(&conn) {
                h.end(dir, reason, frame, ts, &mut |hev| deliver(conn, hev, mcp, http_log));
            }
        }
        FlowEvent::Close { conn, ts } => {
            http.remove(&conn);
            tls.close(conn);
            if let Some(l) = http_log {
                l.close(conn);
            }
            mcp.close(conn, ts, on_fact);
        }
    }
}

/// Hands what the TLS layer passes on (plaintext or decrypted) to the connection's HTTP state.
fn deliver_http<F: FnMut(HttpEvent<'_>)>(h: &mut HttpConnection, d: Delivery<'_>, out: &mut F) {
    match d {
        Delivery::Data { dir, bytes, frame, ts } => h.data(dir, bytes, frame, ts, out),
        Delivery::Gap { dir, len, frame, ts } => h.gap(dir, len, frame, ts, out),
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let span = match (self.first_ts, self.last_ts) {
            (Some(a), Some(b)) => format!(", {:.3} s of capture time from {}", b.since(a).as_secs_f64(), a),
            _ => String::new(),
        };
        writeln!(f, "mcptap summary")?;
        writeln!(f, "  packets:   {} ({} bytes captured){span}", self.packets, self.bytes)?;
        let skipped: Vec<String> = self.skipped.iter().map(|(k, v)| format!("{v} {}", skip_name(*k))).collect();
        writeln!(
            f,
            "  decode:    {} TCP segments; skipped: {}",
            self.tcp_segments,
            if skipped.is_empty() { "none".to_string() } else { skipped.join(", ") }
        )?;
        let c = &self.capture;
        if c.truncated_records + c.truncated_tail + c.skipped_blocks > 0 {
            writeln!(
                f,
                "  capture:   {} records cut by the snap length, {} truncated record at end of file, {} pcapng blocks skipped",
                c.truncated_records, c.truncated_tail, c.skipped_blocks
            )?;
        }
        let t = &self.tcp;
        writeln!(
            f,
            "  tcp:       {} connections ({} picked up midstream), {} gaps, {} bytes missed, {} bytes retransmitted, {} overlap conflicts",
            t.connections, t.midstream_pickups, t.gaps, t.missed_bytes, t.retransmitted_bytes, t.overlap_conflicts
        )?;
        if t.ooo_cap_hits + t.connection_cap_hits > 0 {
            writeln!(f, "  caps hit:  {} out-of-order buffer, {} connection table", t.ooo_cap_hits, t.connection_cap_hits)?;
        }
        if self.tls.connections > 0 || self.tls.keylog_secrets + self.tls.keylog_malformed > 0 {
            writeln!(f, "  tls:       {}", self.tls)?;
        }
        let h = &self.http;
        let anomalies: Vec<String> = h.anomalies.iter().map(|(k, v)| format!("{v} {k:?}")).collect();
        writeln!(
            f,
            "  http:      {} requests, {} responses, {} SSE events; anomalies: {}",
            h.requests,
            h.responses,
            h.sse_events,
            if anomalies.is_empty() { "none".to_string() } else { anomalies.join(", ") }
        )?;
        if !h.responses_by_type.is_empty() {
            let types: Vec<String> = h.responses_by_type.iter().map(|(k, v)| format!("{k} {v}")).collect();
            writeln!(f, "  http:      responses by content type: {}", types.join(", "))?;
        }
        let m = &self.mcp;
        let total: u64 = m.sessions_by_era.values().sum();
        let eras: Vec<String> = m.sessions_by_era.iter().map(|(e, n)| format!("{n} {}", era_name(*e))).collect();
        writeln!(
            f,
            "  mcp:       {total} sessions ({}), {} JSON-RPC messages, {} undecodable payloads, {} bodies over the cap",
            if eras.is_empty() { "none".to_string() } else { eras.join(", ") },
            m.jsonrpc_messages,
            m.json_parse_errors,
            m.bodies_over_cap
        )?;
        if m.session_cap_hits > 0 {
            writeln!(f, "  caps hit:  {} sessions evicted at the session cap", m.session_cap_hits)?;
        }
        if m.pending_cap_hits > 0 {
            writeln!(f, "  caps hit:  {} pending requests forgotten at the pending cap", m.pending_cap_hits)?;
        }
        let total: u64 = self.incidents_by_rule.values().sum();
        let rules: Vec<String> = self.incidents_by_rule.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        write!(f, "  incidents: {total}")?;
        if !rules.is_empty() {
            write!(f, " ({})", rules.join(", "))?;
        }
        writeln!(f)?;
        if self.incidents_merged > 0 {
            writeln!(f, "  caps hit:  {} incidents merged into one row per rule at the incident cap", self.incidents_merged)?;
        }
        if self.rule_eval_errors > 0 {
            writeln!(f, "  rules:     {} evaluation errors", self.rule_eval_errors)?;
        }
        Ok(())
    }
}

fn skip_name(s: Skip) -> &'static str {
    match s {
        Skip::NotTcp => "not TCP",
        Skip::UnsupportedLinkType => "unsupported link type",
        Skip::Malformed => "malformed",
        Skip::Fragment => "IP fragments",
    }
}

fn era_name(e: Era) -> &'static str {
    e.as_str()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::http::Headers;

    fn ct(v: Option<&str>) -> Headers {
        Headers(v.map(|v| vec![("content-type".to_string(), v.to_string())]).unwrap_or_default())
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
