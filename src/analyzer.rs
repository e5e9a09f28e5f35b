//! The analyzer: drives one packet through every stage and keeps the run's counters. Synchronous and
//! sans-IO (the caller brings packets and a sink), so file and live capture run exactly the same code.

use std::collections::BTreeMap;
use std::fmt;

use crate::capture::{CaptureStats, LinkType, RawPacket};
use crate::decode::tunnel::Tunnel;
use crate::decode::{self, Skip, TcpSegment};
use crate::detect::{Incidents, Raised, RuleSet};
use crate::facts::{Era, Fact};
use crate::limits::Limits;
use crate::mcp::{McpStats, McpTracker};
use crate::output::httplog::HttpLog;
use crate::output::IncidentSink;
use crate::reassembly::{ConnId, ReassemblyStats};
use crate::stack::coverage::{Coverage, Uncovered};
use crate::stack::{Exchange, Stack};

pub use crate::stack::counters::{HttpCounters, MAX_CONTENT_TYPES};
use crate::time::{Duration, Timestamp};
use crate::tls::keylog::KeyLog;
use crate::tls::{TlsLayer, TlsStats};

/// What the run saw and skipped, printed at the end (the summary on standard error).
#[derive(Debug, Clone, Default)]
pub struct Summary {
    pub packets: u64,
    pub bytes: u64,
    pub tcp_segments: u64,
    /// TCP segments found inside tunnels, by the outermost one.
    pub decapsulated: BTreeMap<Tunnel, u64>,
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
    /// Packets by link type, in order of first appearance (at most [`MAX_LINK_TYPES`] kinds).
    pub link_types: Vec<(LinkType, u64)>,
}

/// Distinct link types counted in [`Summary::link_types`] (a pcapng may declare one per interface).
pub const MAX_LINK_TYPES: usize = 16;

/// Why nothing in the capture could be analysed, when packets were read but none decoded to TCP:
/// (reason, link type of most packets, packets of it).
pub fn unreadable(packets: u64, tcp_segments: u64, link_types: &[(LinkType, u64)]) -> Option<(&'static str, LinkType, u64)> {
    if packets == 0 || tcp_segments > 0 {
        return None;
    }
    let &(lt, n) = link_types.iter().max_by_key(|(lt, n)| (*n, std::cmp::Reverse(lt.0)))?;
    let reason = if link_types.iter().any(|(lt, _)| decode::supported(*lt)) { "no TCP" } else { "unsupported link type" };
    Some((reason, lt, n))
}

impl Summary {
    /// The one-line message for a capture mcptap could not analyse at all (printed even with `-q`).
    pub fn unreadable_message(&self) -> Option<String> {
        let (reason, lt, n) = unreadable(self.packets, self.tcp_segments, &self.link_types)?;
        let of = format!("{} of link type {} ({})", plural(n, "packet"), lt.0, lt.name());
        Some(match reason {
            "no TCP" => format!("nothing to analyse: {of}, and not one TCP segment over IPv4/IPv6 among the {} read", plural(self.packets, "packet")),
            _ => format!("nothing to analyse: {of}, a link type mcptap does not decode (supported: Ethernet, Linux SLL/SLL2, raw IP, BSD loopback)"),
        })
    }
}

/// `1 session`, `2 sessions`.
pub fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// What the front half of the pipeline (every connection's layer stack: reassembly, TLS, HTTP,
/// JSON-RPC) hands the back half (MCP sessions, rules), in capture order.
// An exchange is large (a body's message is inline) and by far the most common command: boxing it would
// cost the allocation per message that holding the message inline saves.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum Cmd<'a> {
    /// An exchange of one connection (`stack::Exchange`).
    Conn { conn: ConnId, ev: Exchange<'a> },
    /// Capture time moved (after the front half expired its idle connections).
    Advance(Timestamp),
    /// The capture clock moved to this time: the session stage's timers due by then fire (a request that
    /// has waited its threshold, a window without re-initialize) before anything later can answer them.
    Timers(Timestamp),
    /// A coverage notice of the layers (TLS, HTTP/2) or of the capture, for the session stage.
    Coverage(Box<Coverage>),
    /// End of capture: every connection has been flushed; sessions finish at this time.
    Finish(Timestamp),
}

/// The front half: packets in, [`Cmd`]s out. Owns the connections (their layer stacks) and the
/// packet-level counters.
pub struct Front {
    limits: Limits,
    stack: Stack,
    pkts: PacketCounts,
    now: Timestamp,
    last_expiry: Timestamp,
    /// When the back half's earliest timer is due, as the driver last said (`expect_timer`): the clock
    /// moves with nearly every packet, and telling the back half each time cost 1.4 % of a run.
    /// `Timestamp(i64::MIN)` until a driver says: every move is told.
    next_timer: Timestamp,
}

/// What the summary counts per packet, before and regardless of analysis: packets, bytes, link types,
/// TCP segments and why other packets were skipped, the time span. Kept by whoever reads the packets:
/// the front half on one thread, the dispatcher with `--threads N` (`shard`).
#[derive(Debug, Default)]
pub struct PacketCounts {
    packets: u64,
    bytes: u64,
    tcp_segments: u64,
    decapsulated: BTreeMap<Tunnel, u64>,
    skipped: BTreeMap<Skip, u64>,
    first_ts: Option<Timestamp>,
    last_ts: Option<Timestamp>,
    link_types: Vec<(LinkType, u64)>,
}

impl PacketCounts {
    /// One packet read.
    pub fn packet(&mut self, pkt: &RawPacket<'_>) {
        self.packets += 1;
        self.bytes += pkt.data.len() as u64;
        // Nearly always one link type per capture: a short linear search, no allocation after the first.
        if let Some((_, n)) = self.link_types.iter_mut().find(|(lt, _)| *lt == pkt.linktype) {
            *n += 1;
        } else if self.link_types.len() < MAX_LINK_TYPES {
            // ALLOC: one entry per distinct link type, at most MAX_LINK_TYPES
            self.link_types.push((pkt.linktype, 1));
        }
        self.first_ts = Some(self.first_ts.map_or(pkt.ts, |t| t.min(pkt.ts)));
        self.last_ts = Some(self.last_ts.map_or(pkt.ts, |t| t.max(pkt.ts)));
    }

    /// The capture clock: the latest packet time read so far (timestamps can go backwards).
    pub fn clock(&self) -> Timestamp {
        self.last_ts.unwrap_or(Timestamp::ZERO)
    }

    /// The packet decoded to a TCP segment, inside `tunnel` or not.
    pub fn segment(&mut self, tunnel: Option<Tunnel>) {
        self.tcp_segments += 1;
        if let Some(t) = tunnel {
            // ALLOC: one entry per tunnel kind, at most five
            *self.decapsulated.entry(t).or_default() += 1;
        }
    }

    /// The packet was not analysed, for `skip`.
    pub fn skipped(&mut self, skip: Skip) {
        *self.skipped.entry(skip).or_default() += 1;
    }

    /// The coverage notice of a capture with packets and not one TCP segment (rule CAPTURE-UNREADABLE):
    /// not a server's; its frame is the first.
    pub fn unreadable(&self, now: Timestamp) -> Option<Coverage> {
        let (reason, link_type, _) = unreadable(self.packets, self.tcp_segments, &self.link_types)?;
        Some(Coverage {
            what: Uncovered::Unreadable { reason, link_type, packets: self.packets },
            server: None,
            client: None,
            sni: String::new(),
            connections: 0,
            bytes: 0,
            ts: self.first_ts.unwrap_or(now),
            frames: vec![1],
        })
    }

    /// The summary's packet-level fields.
    pub fn summarize(&self, summary: &mut Summary) {
        summary.packets = self.packets;
        summary.bytes = self.bytes;
        summary.tcp_segments = self.tcp_segments;
        summary.decapsulated = self.decapsulated.clone();
        summary.skipped = self.skipped.clone();
        summary.first_ts = self.first_ts;
        summary.last_ts = self.last_ts;
        summary.link_types = self.link_types.clone();
    }
}

impl Front {
    pub fn new(limits: Limits) -> Front {
        Front { stack: Stack::new(limits.clone()), pkts: PacketCounts::default(), now: Timestamp::ZERO, last_expiry: Timestamp(i64::MIN), next_timer: Timestamp(i64::MIN), limits }
    }

    /// The TLS key log (`--keylog`); set before the first packet.
    pub fn set_keylog(&mut self, keylog: KeyLog) {
        *self.stack.tls_mut() = TlsLayer::new(keylog);
    }

    /// Key-log text found inside the capture (pcapng Decryption Secrets Blocks).
    pub fn add_secrets(&mut self, text: &[u8]) {
        self.stack.tls_mut().add_secrets(text);
    }

    /// Live capture: TLS connections whose secrets are not logged yet wait for them, within the limits
    /// `tls_key_wait_secs` and `max_tls_wait_bytes_*` (`tls` module header).
    pub fn wait_for_keys(&mut self) {
        let l = &self.limits;
        self.stack.tls_mut().wait_for_keys(crate::tls::KeyWait {
            max: Duration::from_secs(l.tls_key_wait_secs),
            bytes_per_conn: l.max_tls_wait_bytes_per_conn,
            bytes_total: l.max_tls_wait_bytes_total,
        });
    }

    /// Some TLS connection waits for secrets.
    pub fn tls_waiting(&self) -> bool {
        self.stack.tls().waiting()
    }

    /// Key-log lines appended while live: connections they complete decrypt what they held, on to `out`.
    pub fn add_live_secrets<F: FnMut(Cmd<'_>)>(&mut self, text: &[u8], out: &mut F) {
        self.stack.add_live_secrets(text, &mut |conn, ev| out(Cmd::Conn { conn, ev }));
    }

    /// Also writes one line per HTTP transaction to `log` (`--http-log`).
    pub fn set_http_log(&mut self, log: HttpLog) {
        self.stack.set_http_log(log);
    }

    /// Capture time: the latest packet timestamp seen.
    pub fn now(&self) -> Timestamp {
        self.now
    }

    /// Feeds one packet through reassembly, TLS and HTTP; what the MCP layer needs goes to `out`.
    pub fn on_packet<F: FnMut(Cmd<'_>)>(&mut self, pkt: &RawPacket<'_>, out: &mut F) {
        self.pkts.packet(pkt);
        self.tick(pkt.ts, out);
        match decode::decode_with(pkt, self.limits.checksums) {
            Ok(seg) => {
                self.pkts.segment(seg.tunnel);
                self.on_segment(&seg, out);
            }
            Err(skip) => self.pkts.skipped(skip),
        }
    }

    /// One decoded TCP segment, after the caller moved capture time to it (`tick`): a shard worker's
    /// input, the dispatcher having counted and decoded the packet.
    pub fn on_segment<F: FnMut(Cmd<'_>)>(&mut self, seg: &TcpSegment<'_>, out: &mut F) {
        self.stack.segment(seg, &mut |conn, ev| out(Cmd::Conn { conn, ev }));
    }

    /// Capture time moves to a packet's: timers due before it (a request that waited 60 s, an idle
    /// connection) fire before the packet can answer or revive them. Expiry runs on the whole second of
    /// the capture clock (the latest packet time so far), once per second: what expires before a packet
    /// then depends on that clock alone, never on which other packets moved it there, so a shard that sees
    /// only its own connections' packets, told the clock with each (`shard`), reaches the same verdicts as
    /// one thread seeing all of them.
    ///
    /// Timers are exact: they fire once the clock reaches them, not on the next whole second, or a
    /// request that waited 60.03 s on a stream the server ended 0.03 s past the threshold would never be
    /// seen waiting (samples/ecosystem/situations5-vercel-py.pcap). They follow the capture clock too: a
    /// timer belongs to one connection's or client's state, which only that server's packets change, and
    /// every packet a worker gets carries the clock one thread would have reached, so a timer fires
    /// before the same packets of its server on any number of workers.
    pub fn tick<F: FnMut(Cmd<'_>)>(&mut self, ts: Timestamp, out: &mut F) {
        let second = ts.whole_second();
        if second > self.last_expiry {
            self.advance(second, out);
        }
        if ts > self.now {
            self.now = ts;
            if self.next_timer <= ts {
                out(Cmd::Timers(ts));
            }
        }
        self.stack.observe(ts);
    }

    /// The back half's earliest timer (`Back::next_timer`), told after each packet by whoever drives both
    /// halves, so that `tick` tells the back half of a clock move only when a timer is due by then.
    pub fn expect_timer(&mut self, at: Option<Timestamp>) {
        self.next_timer = at.unwrap_or(Timestamp(i64::MAX));
    }

    /// Moves capture time forward without a packet: fires the timers due by then (while the connections
    /// they watch are still open), expires idle connections, then tells the back half.
    pub fn advance<F: FnMut(Cmd<'_>)>(&mut self, now: Timestamp, out: &mut F) {
        self.now = self.now.max(now);
        self.last_expiry = self.last_expiry.max(now);
        out(Cmd::Timers(now));
        self.stack.expire(now, &mut |conn, ev| out(Cmd::Conn { conn, ev }));
        out(Cmd::Advance(now));
    }

    /// End of capture: flushes every stream, finishes the back half, then the TLS coverage notices.
    pub fn finish<F: FnMut(Cmd<'_>)>(&mut self, out: &mut F) -> std::io::Result<()> {
        let now = self.now;
        self.stack.finish(now, &mut |conn, ev| out(Cmd::Conn { conn, ev }));
        out(Cmd::Finish(now));
        self.stack.tls_mut().finish(now, &mut |c| out(Cmd::Coverage(Box::new(c))));
        if let Some(c) = self.pkts.unreadable(now) {
            out(Cmd::Coverage(Box::new(c)));
        }
        match self.stack.take_http_log() {
            Some(log) => log.finish(),
            None => Ok(()),
        }
    }

    /// The front half's share of the summary (see `summarize`).
    pub fn summarize(&self, capture: CaptureStats, summary: &mut Summary) {
        self.pkts.summarize(summary);
        summary.capture = capture;
        summary.tcp = self.stack.tcp_stats().clone();
        summary.http = self.stack.http_counters().clone();
        summary.tls = self.stack.tls_stats();
    }
}

/// The back half: [`Cmd`]s in, incidents out. Owns the MCP sessions, the rules and the incident table.
pub struct Back {
    mcp: McpTracker,
    /// Shared read-only by every shard's back half with `--threads N`.
    rules: std::sync::Arc<RuleSet>,
    incidents: Incidents,
    rule_eval_errors: u64,
}

impl Back {
    pub fn new(limits: &Limits, rules: RuleSet) -> Back {
        Back::sharing(limits, std::sync::Arc::new(rules))
    }

    /// A back half evaluating rules another one holds too (a `--threads N` shard).
    pub fn sharing(limits: &Limits, rules: std::sync::Arc<RuleSet>) -> Back {
        Back { mcp: McpTracker::new(limits, rules.checkpoints()), rules, incidents: Incidents::with_cap(limits.max_incidents), rule_eval_errors: 0 }
    }

    pub fn incidents(&self) -> &Incidents {
        &self.incidents
    }

    /// MCP sessions currently tracked (for progress display).
    pub fn open_sessions(&self) -> usize {
        self.mcp.open_sessions()
    }

    /// When the session stage's earliest timer is due (`Front::expect_timer`).
    pub fn next_timer(&self) -> Option<Timestamp> {
        self.mcp.next_timer()
    }

    /// See [`Analyzer::enable_recorder`].
    pub fn enable_recorder(&mut self, config: crate::mcp::record::RecorderConfig) {
        self.mcp.enable_recorder(config);
    }

    /// Applies one command. Errors are the sink's (I/O).
    pub fn handle(&mut self, cmd: Cmd<'_>, sink: &mut dyn IncidentSink) -> std::io::Result<()> {
        let mut result = Ok(());
        let Back { mcp, rules, incidents, rule_eval_errors } = self;
        let mut on_fact = fact_handler(rules, incidents, sink, &mut result, rule_eval_errors);
        Self::apply(mcp, cmd, &mut on_fact);
        drop(on_fact);
        result
    }

    fn apply<F: FnMut(Fact)>(mcp: &mut McpTracker, cmd: Cmd<'_>, mut on_fact: F) {
        match cmd {
            Cmd::Conn { conn, ev } => mcp.exchange(conn, ev, &mut on_fact),
            Cmd::Advance(now) => mcp.advance(now, &mut on_fact),
            Cmd::Timers(now) => mcp.fire_due(now, &mut on_fact),
            Cmd::Coverage(c) => mcp.coverage(*c, &mut on_fact),
            Cmd::Finish(now) => mcp.finish(now, &mut on_fact),
        }
    }

    /// Hands every incident to the sink (report order) and fills the back half's share of the summary.
    pub fn finish(self, sink: &mut dyn IncidentSink, summary: &mut Summary) -> std::io::Result<()> {
        let rows = self.finish_rows(summary);
        let mut sorted: Vec<&crate::detect::Incident> = rows.iter().collect();
        sorted.sort_by(|a, b| crate::detect::report_order(a, b));
        sink.finish(&sorted)
    }

    /// Fills the back half's share of the summary and returns the incident rows (in no order).
    pub fn finish_rows(mut self, summary: &mut Summary) -> Vec<crate::detect::Incident> {
        summary.mcp = self.mcp.stats().clone();
        summary.incidents_by_rule = self.incidents.by_rule().into_iter().map(|(k, v)| (k.to_string(), v)).collect();
        summary.rule_eval_errors = self.rule_eval_errors + self.incidents.eval_errors;
        summary.incidents_merged = self.incidents.merged;
        if let Some((records, dropped)) = self.mcp.take_records() {
            summary.sessions = records;
            summary.sessions_unrecorded = dropped;
        }
        self.incidents.into_rows()
    }
}

/// The whole pipeline on one thread: the front half's commands go straight to the back half, borrowed,
/// with nothing copied in between.
pub struct Analyzer {
    front: Front,
    back: Back,
}

impl Analyzer {
    pub fn new(limits: Limits, rules: RuleSet) -> Analyzer {
        Analyzer { back: Back::new(&limits, rules), front: Front::new(limits) }
    }

    /// The TLS key log (`--keylog`); set before the first packet.
    pub fn set_keylog(&mut self, keylog: KeyLog) {
        self.front.set_keylog(keylog);
    }

    /// Key-log text found inside the capture (pcapng Decryption Secrets Blocks).
    pub fn add_secrets(&mut self, text: &[u8]) {
        self.front.add_secrets(text);
    }

    /// See [`Front::wait_for_keys`].
    pub fn wait_for_keys(&mut self) {
        self.front.wait_for_keys();
    }

    /// See [`Front::tls_waiting`].
    pub fn tls_waiting(&self) -> bool {
        self.front.tls_waiting()
    }

    /// See [`Front::add_live_secrets`]. Errors are the sink's (I/O).
    pub fn add_live_secrets(&mut self, text: &[u8], sink: &mut dyn IncidentSink) -> std::io::Result<()> {
        let Analyzer { front, back } = self;
        let mut result = Ok(());
        front.add_live_secrets(text, &mut |cmd| keep_first_error(&mut result, || back.handle(cmd, sink)));
        result
    }

    /// Also writes one line per HTTP transaction to `log` (`--http-log`).
    pub fn set_http_log(&mut self, log: HttpLog) {
        self.front.set_http_log(log);
    }

    /// Capture time: the latest packet timestamp seen.
    pub fn now(&self) -> Timestamp {
        self.front.now()
    }

    pub fn incidents(&self) -> &Incidents {
        self.back.incidents()
    }

    /// MCP sessions currently tracked (for progress display).
    pub fn open_sessions(&self) -> usize {
        self.back.open_sessions()
    }

    /// Makes the classifier keep per-session counters and timelines for the reports (output::sessions,
    /// timeline, html); they come back in `Summary::sessions`. Call before the first packet.
    pub fn enable_recorder(&mut self, config: crate::mcp::record::RecorderConfig) {
        self.back.enable_recorder(config);
    }

    /// Feeds one packet through the pipeline. Errors are the sink's (I/O), never the packet's.
    pub fn on_packet(&mut self, pkt: &RawPacket<'_>, sink: &mut dyn IncidentSink) -> std::io::Result<()> {
        let Analyzer { front, back } = self;
        let mut result = Ok(());
        front.on_packet(pkt, &mut |cmd| keep_first_error(&mut result, || back.handle(cmd, sink)));
        front.expect_timer(back.next_timer());
        result
    }

    /// Moves capture time forward without a packet (a live sensor's timer): expires idle state.
    pub fn advance(&mut self, now: Timestamp, sink: &mut dyn IncidentSink) -> std::io::Result<()> {
        let Analyzer { front, back } = self;
        let mut result = Ok(());
        front.advance(now, &mut |cmd| keep_first_error(&mut result, || back.handle(cmd, sink)));
        result
    }

    /// End of capture: flushes every stream and session, hands all incidents to the sink, and returns the
    /// summary.
    pub fn finish(self, capture: CaptureStats, sink: &mut dyn IncidentSink) -> std::io::Result<Summary> {
        let Analyzer { mut front, mut back } = self;
        let mut result = Ok(());
        front.finish(&mut |cmd| keep_first_error(&mut result, || back.handle(cmd, sink)))?;
        result?;
        let mut summary = Summary::default();
        front.summarize(capture, &mut summary);
        back.finish(sink, &mut summary)?;
        Ok(summary)
    }
}

/// Runs `f` unless an earlier call failed; keeps the first error. The pipeline goes on after a sink error
/// so that state stays consistent; the caller reports the error once.
pub(crate) fn keep_first_error(result: &mut std::io::Result<()>, f: impl FnOnce() -> std::io::Result<()>) {
    let r = f();
    if result.is_ok() {
        *result = r;
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

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let span = match (self.first_ts, self.last_ts) {
            (Some(a), Some(b)) => format!(", {:.3} s of capture time from {}", b.since(a).as_secs_f64(), a),
            _ => String::new(),
        };
        writeln!(f, "mcptap summary")?;
        writeln!(f, "  packets:   {} ({} bytes captured){span}", self.packets, self.bytes)?;
        let skipped: Vec<String> = self
            .skipped
            .iter()
            .map(|(k, v)| match k {
                // Which link types: the number and name say what the capture holds.
                Skip::UnsupportedLinkType => {
                    let lts: Vec<String> =
                        self.link_types.iter().filter(|(lt, _)| !decode::supported(*lt)).map(|(lt, n)| format!("{} {}: {n}", lt.0, lt.name())).collect();
                    format!("{v} {} ({})", skip_name(*k), lts.join(", "))
                }
                _ => format!("{v} {}", skip_name(*k)),
            })
            .collect();
        // Only a capture with tunnels says so: the line of every other capture stays as it was.
        let tunnels: Vec<String> = self.decapsulated.iter().map(|(t, n)| format!("{} {n}", t.name())).collect();
        let tunnels = if tunnels.is_empty() { String::new() } else { format!(" ({} inside tunnels: {})", self.decapsulated.values().sum::<u64>(), tunnels.join(", ")) };
        writeln!(
            f,
            "  decode:    {} TCP segments{tunnels}; skipped: {}",
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
            "  tcp:       {} connections ({} picked up midstream), {} gaps, {} bytes missed, {} bytes retransmitted, \
             {} retransmitted segments, {} out-of-order segments, {} overlap conflicts",
            t.connections,
            t.midstream_pickups,
            t.gaps,
            t.missed_bytes,
            t.retransmitted_bytes,
            t.retransmitted_segments,
            t.out_of_order_segments,
            t.overlap_conflicts
        )?;
        if t.unacked_silences > 0 {
            writeln!(
                f,
                "  tcp:       {} connections fell silent with bytes their peer never acknowledged (the capture lost their packets)",
                t.unacked_silences
            )?;
        }
        if t.one_way_connections > 0 {
            writeln!(
                f,
                "  tcp:       {} connections showed the client's packets only (it acknowledged server bytes the capture never saw)",
                t.one_way_connections
            )?;
        }
        if t.damaged_segments > 0 {
            writeln!(
                f,
                "  tcp:       {} segments with a wrong TCP checksum set aside as damaged on the way ({} taken after all, acknowledged by their receiver or beyond the out-of-order budget; {} never resent before their stream ended, their bytes a gap)",
                t.damaged_segments, t.damaged_taken, t.damaged_lost
            )?;
        }
        if t.after_close_segments > 0 {
            writeln!(
                f,
                "  tcp:       {} data segments ({} bytes) came after their connection closed and were not analysed (late copies, or data after a reset)",
                t.after_close_segments, t.after_close_bytes
            )?;
        }
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
            "  http:      {} requests{}, {} responses{}, {} SSE events; anomalies: {}",
            h.requests,
            if h.requests_lost > 0 { format!(" ({} more lost in capture gaps)", h.requests_lost) } else { String::new() },
            h.responses,
            if h.responses_lost > 0 { format!(" ({} more lost in capture gaps)", h.responses_lost) } else { String::new() },
            h.sse_events,
            if anomalies.is_empty() { "none".to_string() } else { anomalies.join(", ") }
        )?;
        if h.tunnels + h.tunnels_opaque > 0 {
            writeln!(
                f,
                "  http:      {} CONNECT tunnels analysed from their first byte{}",
                h.tunnels,
                if h.tunnels_opaque > 0 { format!(", {} inside TLS to the proxy not followed", h.tunnels_opaque) } else { String::new() }
            )?;
        }
        if !h.responses_by_type.is_empty() {
            let types: Vec<String> = h.responses_by_type.iter().map(|(k, v)| format!("{k} {v}")).collect();
            writeln!(f, "  http:      responses by content type: {}", types.join(", "))?;
        }
        if !h.coded.is_empty() || !h.undecoded.is_empty() {
            let coded: Vec<String> = h.coded.iter().map(|(k, v)| format!("{k} {v}")).collect();
            let failed: Vec<String> = h.undecoded.iter().map(|(k, v)| format!("{v} {k}")).collect();
            writeln!(
                f,
                "  http:      coded messages: {}; bodies not decoded: {}",
                if coded.is_empty() { "none".to_string() } else { coded.join(", ") },
                if failed.is_empty() { "none".to_string() } else { failed.join(", ") }
            )?;
        }
        if h.h2.connections > 0 {
            let x = &h.h2;
            let dark: Vec<String> = x.unanalysed.iter().map(|(k, v)| format!("{v} {}", k.as_str())).collect();
            writeln!(
                f,
                "  http2:     {} connections ({} not analysed{}), {} streams, {} resets, {} GOAWAY, {} HPACK errors, {} protocol errors{}",
                x.connections,
                x.unanalysed.values().sum::<u64>(),
                if dark.is_empty() { String::new() } else { format!(": {}", dark.join(", ")) },
                x.streams,
                x.resets,
                x.goaways,
                x.hpack_errors,
                x.protocol_errors,
                // Server push is off in every MCP client seen; say so only when a server pushed anyway.
                if x.pushed > 0 { format!(", {} pushed streams (not analysed)", x.pushed) } else { String::new() }
            )?;
            if x.header_list_cap_hits + x.stream_cap_hits + x.frame_cap_hits > 0 {
                writeln!(
                    f,
                    "  caps hit:  {} HTTP/2 header lists, {} HTTP/2 streams, {} HTTP/2 frames",
                    x.header_list_cap_hits, x.stream_cap_hits, x.frame_cap_hits
                )?;
            }
        }
        let m = &self.mcp;
        let total: u64 = m.sessions_by_era.values().sum();
        let eras: Vec<String> = m.sessions_by_era.iter().map(|(e, n)| format!("{n} {}", era_name(*e))).collect();
        writeln!(
            f,
            // Not "undecodable": most are JSON, just not JSON-RPC (OAuth documents on the MCP port, a `null`).
            "  mcp:       {} ({}), {}, {} not JSON-RPC, {} over the cap",
            plural(total, "session"),
            if eras.is_empty() { "none".to_string() } else { eras.join(", ") },
            plural(m.jsonrpc_messages, "JSON-RPC message"),
            plural(m.not_jsonrpc, "payload"),
            if m.bodies_over_cap == 1 { "1 body".to_string() } else { format!("{} bodies", m.bodies_over_cap) }
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

    /// The capture time the back half has been told of when a packet at `ts` is handled.
    fn told_before(front: &mut Front, ts: Timestamp) -> Option<Timestamp> {
        let mut last = None;
        front.tick(ts, &mut |cmd| {
            if let Cmd::Advance(t) = cmd {
                last = Some(t);
            }
        });
        last
    }

    #[test]
    fn what_expires_before_a_packet_depends_on_its_time_alone() {
        // A `--threads` worker sees only its servers' packets. Whatever other packets come between, a
        // packet at t finds expiry run up to the whole second of t, never past it and never short of it.
        let ns = |s: f64| Timestamp((s * 1e9) as i64);
        let mine = [0.5, 60.9, 61.0, 61.4, 62.2, 130.0];
        let others = [0.3, 60.4, 60.95, 61.3, 62.0, 129.99];
        let mut alone = Front::new(Limits::default());
        let mut mixed = Front::new(Limits::default());
        let (mut seen_alone, mut seen_mixed) = (Timestamp(i64::MIN), Timestamp(i64::MIN));
        for (&m, &o) in mine.iter().zip(&others) {
            if let Some(t) = told_before(&mut mixed, ns(o)) {
                seen_mixed = t;
            }
            for (front, seen) in [(&mut alone, &mut seen_alone), (&mut mixed, &mut seen_mixed)] {
                if let Some(t) = told_before(front, ns(m)) {
                    *seen = t;
                }
            }
            assert_eq!(seen_alone, ns(m).whole_second(), "alone, packet at {m}");
            assert_eq!(seen_mixed, ns(m).whole_second(), "among others, packet at {m}");
        }
        assert_eq!(Timestamp(-1).whole_second(), Timestamp(-1_000_000_000));
    }

    #[test]
    fn timers_are_told_when_the_clock_reaches_them_not_on_the_next_second() {
        // A request that waited 60.03 s on a stream the server ended at once after: its 60 s check must fire
        // before the packet that ends the stream (samples/ecosystem/situations5-vercel-py.pcap).
        let ns = |s: f64| Timestamp((s * 1e9) as i64);
        let told = |front: &mut Front, ts: Timestamp| {
            let mut cmds = Vec::new();
            front.tick(ts, &mut |cmd| match cmd {
                Cmd::Timers(t) => cmds.push(format!("timers {}", t.0)),
                Cmd::Advance(t) => cmds.push(format!("advance {}", t.0)),
                _ => {}
            });
            cmds
        };
        let mut front = Front::new(Limits::default());
        front.expect_timer(Some(ns(70.011)));
        // The whole second (told once a second, timers first); then, before the timer, nothing.
        assert_eq!(told(&mut front, ns(70.0)), [format!("timers {}", ns(70.0).0), format!("advance {}", ns(70.0).0)]);
        assert_eq!(told(&mut front, ns(70.005)), Vec::<String>::new());
        // The first packet at or past it: the timers, before the packet.
        assert_eq!(told(&mut front, ns(70.039)), [format!("timers {}", ns(70.039).0)]);
        // A packet from the past does not move the clock.
        assert_eq!(told(&mut front, ns(70.02)), Vec::<String>::new());
        // On the whole second, the timers due by then are told before the expiry.
        front.expect_timer(Some(ns(70.9)));
        assert_eq!(told(&mut front, ns(71.2)), [format!("timers {}", ns(71.0).0), format!("advance {}", ns(71.0).0), format!("timers {}", ns(71.2).0)]);
        // Nothing due: the clock moves silently.
        front.expect_timer(None);
        assert_eq!(told(&mut front, ns(71.5)), Vec::<String>::new());
    }
}
