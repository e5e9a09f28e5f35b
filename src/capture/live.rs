//! Live capture (feature `live`): a sensor on a network interface. Owns libpcap (through the `pcap`
//! crate), the tokio event loop, the wall clock and the signals; every stage after capture is the same
//! `Analyzer` the offline path drives, so the goldens cover the analysis and this file only moves packets.
//!
//! Shape: libpcap runs non-blocking in immediate mode and its selectable fd is registered with tokio
//! (`Capture::stream`, the pcap crate's async stream), so one current-thread runtime waits on four
//! things at once with `select!`: a packet, a 1 s clock tick, a stats tick, SIGINT/SIGTERM. One thread,
//! no locks, and the analyzer stays single-threaded as the design requires. (The alternative, a blocking
//! capture thread feeding a channel, needs a read timeout to notice a stop and copies across threads;
//! the async stream has neither cost.)
//!
//! Time: packets carry the kernel's timestamp, which is the analyzer's clock as in a file. While no
//! packet arrives, the tick moves capture time to `last packet ts + wall time since that packet`
//! (`Analyzer::advance`), so stall and idle rules fire on a quiet link as they would in a file whose
//! next packet came later. The wall clock is read only here, for that and for the stats interval.
//!
//! Output: incidents are written as they are raised (`Mode::AsRaised`), one CSV row flushed at once; a
//! report file is opened for append, and gets a header only when empty, so a restarted sensor appends
//! safely. Later occurrences of an incident raise its count, shown in the summary at exit.
//!
//! Stop: on SIGINT or SIGTERM the loop first drains packets already queued in the kernel (bounded),
//! then `Analyzer::finish` flushes pending streams and sessions, their incidents are written, and the
//! summary is printed with libpcap's received/dropped counters (tcpdump's, Suricata's capture stats).
//!
//! `-w FILE` writes every packet the analyzer sees, in the same order, to a libpcap savefile, so the
//! `frames` of a live row are the frame numbers of that file (`mcptap -r FILE` gives the same rows).

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::time::Duration as WallDuration;

use futures_util::StreamExt;
use pcap::{Active, Capture, Device, Packet, PacketCodec, PacketHeader, Savefile};
use tokio::signal::unix::{signal, SignalKind};
use tokio::time::{Instant, MissedTickBehavior};

use crate::analyzer::Analyzer;
use crate::capture::{CaptureStats, LinkType, RawPacket};
use crate::cli::{Config, LiveConfig};
use crate::detect::Incident;
use crate::output::csv::{CsvSink, Mode};
use crate::output::IncidentSink;
use crate::time::{Duration, Timestamp};
use crate::tls::keylog_tail::KeyLogTail;

/// The kernel buffer libpcap asks for (libpcap's own default is 2 MiB): bursts of SSE traffic on a busy
/// link should not overflow it while the analyzer works through a large body.
const BUFFER_BYTES: i32 = 16 * 1024 * 1024;
/// How often capture time is advanced while the link is quiet.
const CLOCK_TICK: WallDuration = WallDuration::from_secs(1);
/// At stop, packets already queued are read until the link has been quiet this long...
const DRAIN_QUIET: WallDuration = WallDuration::from_millis(50);
/// ...or for at most this long (a busy link never goes quiet).
const DRAIN_MAX: WallDuration = WallDuration::from_secs(2);
/// How often the key logs are looked at while a connection waits and no packet arrives.
const KEY_TICK: WallDuration = WallDuration::from_millis(50);

/// A live-capture failure, printed as one line by the binary (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    #[error("{iface}: no such interface (mcptap -D lists them)")]
    NoSuchInterface { iface: String },
    #[error(
        "{iface}: no permission to capture: run as root, or give the binary CAP_NET_RAW and CAP_NET_ADMIN \
         (setcap cap_net_raw,cap_net_admin=eip PATH-TO-mcptap-live)"
    )]
    Permission { iface: String },
    #[error("{iface}: cannot capture: {msg}")]
    Open { iface: String, msg: String },
    #[error("bad capture filter '{expr}': {msg}")]
    Filter { expr: String, msg: String },
    #[error("{path}: cannot write packets: {msg}")]
    Savefile { path: String, msg: String },
    #[error("{path}: cannot write report: {source}")]
    Output { path: String, source: std::io::Error },
    #[error("{iface}: capture failed: {msg}")]
    Read { iface: String, msg: String },
    #[error("cannot list interfaces: {msg}")]
    List { msg: String },
    #[error("cannot start the capture loop: {0}")]
    Runtime(std::io::Error),
}

impl LiveError {
    /// The reader of our output went away (`mcptap -i eth0 | head`): not an error for the user.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, LiveError::Output { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// libpcap's message without the crate's "libpcap error: " prefix.
fn pcap_msg(e: &pcap::Error) -> String {
    match e {
        pcap::Error::PcapError(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Turns an activation failure into the line a user can act on. libpcap reports these as
/// PCAP_ERROR_NO_SUCH_DEVICE / PCAP_ERROR_PERM_DENIED with a text like "eth9: No such device exists"
/// or "socket: Operation not permitted"; the crate keeps only the text, so the text is matched.
fn open_error(iface: &str, e: &pcap::Error) -> LiveError {
    let msg = pcap_msg(e);
    let lower = msg.to_ascii_lowercase();
    if lower.contains("no such device") || lower.contains("doesn't exist") || lower.contains("does not exist") {
        LiveError::NoSuchInterface { iface: iface.to_string() }
    } else if lower.contains("permission") || lower.contains("operation not permitted") {
        LiveError::Permission { iface: iface.to_string() }
    } else {
        LiveError::Open { iface: iface.to_string(), msg }
    }
}

/// `-D`: the interfaces libpcap can open, numbered as tcpdump -D numbers them.
pub fn list_interfaces() -> Result<Vec<String>, LiveError> {
    let devices = Device::list().map_err(|e| LiveError::List { msg: pcap_msg(&e) })?;
    Ok(devices
        .iter()
        .zip(1..)
        .map(|(d, n)| {
            let mut flags = Vec::new();
            if d.flags.is_up() {
                flags.push("Up");
            }
            if d.flags.is_running() {
                flags.push("Running");
            }
            if d.flags.is_loopback() {
                flags.push("Loopback");
            }
            let desc = d.desc.as_deref().map(|s| format!(" ({s})")).unwrap_or_default();
            format!("{n}.{}{desc} [{}]", d.name, flags.join(", "))
        })
        .collect())
}

/// Opens and activates the capture, applies the filter, and makes it non-blocking for the async stream.
fn open_capture(live: &LiveConfig) -> Result<Capture<Active>, LiveError> {
    let iface = live.interface.as_str();
    // libpcap cannot put the "any" pseudo-device into promiscuous mode and says so with a warning
    // (PCAP_WARNING_PROMISC_NOTSUP), which the pcap crate turns into an error: ask for it only where it
    // can work.
    let promisc = live.promisc && iface != "any";
    let cap = Capture::from_device(iface)
        .map_err(|e| open_error(iface, &e))?
        .promisc(promisc)
        .snaplen(live.snaplen)
        .buffer_size(BUFFER_BYTES)
        // Immediate mode: each packet is handed over as it arrives, not when a TPACKET_V3 block fills or
        // times out, so an incident is written within milliseconds of its evidence.
        .immediate_mode(true)
        .open()
        .map_err(|e| open_error(iface, &e))?;
    let mut cap = cap;
    if let Some(expr) = &live.filter {
        cap.filter(expr, true).map_err(|e| LiveError::Filter { expr: expr.clone(), msg: pcap_msg(&e) })?;
    }
    cap.setnonblock().map_err(|e| LiveError::Open { iface: iface.to_string(), msg: pcap_msg(&e) })
}

/// A packet copied out of libpcap's ring (the live path's one copy), with its pcap header kept for `-w`.
struct OwnedPacket {
    header: PacketHeader,
    // ALLOC: one buffer per packet, bounded by the snap length; freed once the analyzer has seen it
    data: Vec<u8>,
}

struct Copy;

impl PacketCodec for Copy {
    type Item = OwnedPacket;

    fn decode(&mut self, p: Packet<'_>) -> OwnedPacket {
        OwnedPacket { header: *p.header, data: p.data.to_vec() }
    }
}

/// Capture time of a packet: libpcap's timeval (microseconds; the default precision).
#[allow(clippy::useless_conversion)] // time_t / suseconds_t are i32 or i64 depending on the platform
fn packet_ts(h: &PacketHeader) -> Timestamp {
    let secs = i64::from(h.ts.tv_sec);
    let micros = u32::try_from(i64::from(h.ts.tv_usec)).unwrap_or(0).min(999_999);
    Timestamp::from_secs_micros(secs, micros)
}

/// The CSV sink of a live run: rows as raised, plus the final occurrence counts for the summary (the
/// analyzer hands every incident with its final count to `finish`).
struct LiveSink<W: Write> {
    csv: CsvSink<W>,
    occurrences: BTreeMap<String, u64>,
}

impl<W: Write> IncidentSink for LiveSink<W> {
    fn raised(&mut self, incident: &Incident) -> std::io::Result<()> {
        self.csv.raised(incident)
    }

    fn finish(&mut self, incidents: &[&Incident]) -> std::io::Result<()> {
        for i in incidents {
            *self.occurrences.entry(i.rule_id.clone()).or_default() += i.count;
        }
        self.csv.finish(incidents)
    }
}

/// Runs the sensor until SIGINT/SIGTERM (or the interface goes away), as configured by `-i`.
pub fn run(config: Config) -> Result<(), LiveError> {
    let Some(live) = config.live.clone() else {
        return Err(LiveError::Open { iface: "-".into(), msg: "no interface given".into() });
    };
    // Report first: a report we cannot write must stop the sensor before it captures anything.
    let (out, out_name, header_present): (Box<dyn Write>, String, bool) = match &config.output {
        Some(p) => {
            let name = p.display().to_string();
            let f = OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| LiveError::Output { path: name.clone(), source: e })?;
            let present = f.metadata().map(|m| m.len() > 0).unwrap_or(false);
            (Box::new(BufWriter::new(f)), name, present)
        }
        None => (Box::new(BufWriter::new(std::io::stdout())), "<stdout>".to_string(), false),
    };
    let out_err = |e: std::io::Error| LiveError::Output { path: out_name.clone(), source: e };
    let cap = open_capture(&live)?;
    let datalink = cap.get_datalink();
    let savefile = match &live.savefile {
        Some(p) => Some(cap.savefile(p).map_err(|e| LiveError::Savefile { path: p.display().to_string(), msg: pcap_msg(&e) })?),
        None => None,
    };
    let mut csv = CsvSink::new(out, Mode::AsRaised).with_wireshark_filter(config.report.wireshark_filter);
    if header_present {
        csv = csv.header_already_written();
    } else {
        // The columns go out at once, so a reader tailing the report knows them before any incident.
        csv.start().map_err(out_err)?;
    }
    let mut sink = LiveSink { csv, occurrences: BTreeMap::new() };
    let linktype = LinkType(u32::try_from(datalink.0).unwrap_or(u32::MAX));
    let link_name = datalink.get_name().unwrap_or_else(|_| datalink.0.to_string());

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(LiveError::Runtime)?;
    let mut analyzer = Analyzer::new(config.limits.clone(), config.rules);
    analyzer.set_keylog(config.keylog);
    let keys = KeyLogTail::new(config.keylog_files);
    if !keys.is_empty() {
        analyzer.wait_for_keys();
    }
    if let Some(p) = &config.http_log {
        let f = std::fs::File::create(p).map_err(|e| LiveError::Output { path: p.display().to_string(), source: e })?;
        analyzer.set_http_log(crate::output::httplog::HttpLog::new(Box::new(BufWriter::new(f))));
    }
    let mut sensor = Sensor { live: &live, linktype, savefile, frame: 0, last: None, out_name: &out_name, keys };
    let outcome = runtime.block_on(sensor.capture(cap, &link_name, &mut analyzer, &mut sink));
    let (stat, loop_err) = match outcome {
        Ok((stat, err)) => (stat, err),
        Err(e) => return Err(e),
    };

    // Stop: pending streams and sessions are flushed and their incidents written before the summary.
    let summary = analyzer.finish(CaptureStats::default(), &mut sink).map_err(out_err)?;
    sensor.flush_savefile()?;
    if !config.quiet {
        eprint!("{summary}");
        match stat {
            Some(s) => eprintln!(
                "  libpcap:   {} packets received by filter, {} dropped by kernel, {} dropped by interface",
                s.received, s.dropped, s.if_dropped
            ),
            None => eprintln!("  libpcap:   statistics not available"),
        }
        let total: u64 = sink.occurrences.values().sum();
        let by_rule: Vec<String> = sink.occurrences.iter().map(|(k, v)| format!("{k}: {v}")).collect();
        eprintln!(
            "  occurrences: {total}{} (rows were written when first raised; later occurrences are counted here)",
            if by_rule.is_empty() { String::new() } else { format!(" ({})", by_rule.join(", ")) }
        );
    }
    match loop_err {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// The state of the capture loop outside the analyzer.
struct Sensor<'a> {
    live: &'a LiveConfig,
    linktype: LinkType,
    savefile: Option<Savefile>,
    /// Frames numbered as received, from 1: the numbering of the `-w` file.
    frame: u64,
    /// Capture time of the last packet and the wall-clock instant it was read.
    last: Option<(Timestamp, Instant)>,
    out_name: &'a str,
    /// `--keylog` files, followed as they grow.
    keys: KeyLogTail,
}

impl Sensor<'_> {
    fn out_err(&self, e: std::io::Error) -> LiveError {
        LiveError::Output { path: self.out_name.to_string(), source: e }
    }

    fn flush_savefile(&mut self) -> Result<(), LiveError> {
        match (&mut self.savefile, &self.live.savefile) {
            (Some(s), Some(p)) => {
                s.flush().map_err(|e| LiveError::Savefile { path: p.display().to_string(), msg: pcap_msg(&e) })
            }
            _ => Ok(()),
        }
    }

    /// Secrets appended to the key logs go to the connections waiting for them.
    fn poll_keys(&mut self, analyzer: &mut Analyzer, sink: &mut dyn IncidentSink) -> Result<(), LiveError> {
        let text = self.keys.poll();
        if text.is_empty() {
            return Ok(());
        }
        analyzer.add_live_secrets(&text, sink).map_err(|e| self.out_err(e))
    }

    /// One packet through `-w` and the analyzer.
    fn packet(&mut self, p: &OwnedPacket, analyzer: &mut Analyzer, sink: &mut dyn IncidentSink) -> Result<(), LiveError> {
        self.frame = self.frame.saturating_add(1);
        if let Some(s) = &mut self.savefile {
            s.write(&Packet::new(&p.header, &p.data));
        }
        let ts = packet_ts(&p.header);
        self.last = Some((ts, Instant::now()));
        if analyzer.tls_waiting() {
            // Before this packet, which may end the connection or need its plaintext in order.
            self.poll_keys(analyzer, sink)?;
        }
        let before = analyzer.incidents().len();
        let raw = RawPacket { frame: self.frame, ts, linktype: self.linktype, data: &p.data, wire_len: p.header.len };
        analyzer.on_packet(&raw, sink).map_err(|e| self.out_err(e))?;
        if analyzer.incidents().len() != before {
            // A new row names frames up to this one: make them readable in the -w file right away.
            self.flush_savefile()?;
        }
        Ok(())
    }

    /// The event loop. Returns libpcap's counters, and a capture error that ended the loop (the run still
    /// finishes and writes everything found before it).
    async fn capture(
        &mut self,
        cap: Capture<Active>,
        link_name: &str,
        analyzer: &mut Analyzer,
        sink: &mut dyn IncidentSink,
    ) -> Result<(Option<pcap::Stat>, Option<LiveError>), LiveError> {
        // Signals are installed before "listening" is announced: from then on a stop is never lost.
        let mut sigint = signal(SignalKind::interrupt()).map_err(LiveError::Runtime)?;
        let mut sigterm = signal(SignalKind::terminate()).map_err(LiveError::Runtime)?;
        let iface = self.live.interface.clone();
        let mut stream =
            cap.stream(Copy).map_err(|e| LiveError::Open { iface: iface.clone(), msg: pcap_msg(&e) })?;
        eprintln!(
            "mcptap: listening on {iface}, link-type {link_name}, snapshot length {} bytes{}",
            self.live.snaplen,
            self.live.filter.as_deref().map(|f| format!(", filter '{f}'")).unwrap_or_default()
        );
        let mut clock = tokio::time::interval(CLOCK_TICK);
        clock.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let stats_every = WallDuration::from_secs(self.live.stats_interval_secs.max(1));
        let mut stats = tokio::time::interval_at(Instant::now() + stats_every, stats_every);
        stats.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let stats_on = self.live.stats_interval_secs > 0;
        let mut key_tick = tokio::time::interval(KEY_TICK);
        key_tick.set_missed_tick_behavior(MissedTickBehavior::Delay);

        let mut loop_err = None;
        loop {
            let keys_wanted = analyzer.tls_waiting();
            tokio::select! {
                // Signals first, so a stop is handled even on a link that is never idle; packets already
                // queued are drained below.
                biased;
                _ = sigint.recv() => break,
                _ = sigterm.recv() => break,
                item = stream.next() => match item {
                    Some(Ok(p)) => self.packet(&p, analyzer, sink)?,
                    Some(Err(e)) => {
                        loop_err = Some(LiveError::Read { iface: iface.clone(), msg: pcap_msg(&e) });
                        break;
                    }
                    None => break,
                },
                _ = clock.tick() => {
                    if let Some((ts, at)) = self.last {
                        let idle = Duration(i64::try_from(at.elapsed().as_nanos()).unwrap_or(i64::MAX));
                        analyzer.advance(ts.plus(idle), sink).map_err(|e| self.out_err(e))?;
                    }
                    self.flush_savefile()?;
                },
                _ = key_tick.tick(), if keys_wanted => self.poll_keys(analyzer, sink)?,
                _ = stats.tick(), if stats_on => {
                    match stream.capture_mut().stats() {
                        Ok(s) => eprintln!(
                            "mcptap: stats: {} packets analysed, {} incidents; libpcap: {} received by filter, {} dropped by kernel, {} dropped by interface",
                            self.frame, analyzer.incidents().len(), s.received, s.dropped, s.if_dropped
                        ),
                        Err(e) => eprintln!("mcptap: stats: not available: {}", pcap_msg(&e)),
                    }
                },
            }
        }
        if loop_err.is_none() {
            // Packets the kernel queued before the stop belong to the capture (they are in the -w file's
            // future too): read them until the link is quiet, bounded for a busy link.
            let deadline = Instant::now() + DRAIN_MAX;
            while Instant::now() < deadline {
                match tokio::time::timeout(DRAIN_QUIET, stream.next()).await {
                    Ok(Some(Ok(p))) => self.packet(&p, analyzer, sink)?,
                    Ok(Some(Err(e))) => {
                        loop_err = Some(LiveError::Read { iface: iface.clone(), msg: pcap_msg(&e) });
                        break;
                    }
                    Ok(None) | Err(_) => break,
                }
            }
        }
        let stat = stream.capture_mut().stats().ok();
        Ok((stat, loop_err))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn header(sec: i64, usec: i64) -> PacketHeader {
        PacketHeader { ts: libc::timeval { tv_sec: sec as _, tv_usec: usec as _ }, caplen: 60, len: 60 }
    }

    #[test]
    fn packet_ts_from_timeval_keeps_microseconds() {
        assert_eq!(packet_ts(&header(1_700_000_000, 123_456)), Timestamp::from_secs_micros(1_700_000_000, 123_456));
    }

    #[test]
    fn packet_ts_clamps_a_bad_usec_field() {
        assert_eq!(packet_ts(&header(10, -5)), Timestamp::from_secs_micros(10, 0));
        assert_eq!(packet_ts(&header(10, 5_000_000)), Timestamp::from_secs_micros(10, 999_999));
    }

    #[test]
    fn open_errors_are_classified_from_libpcap_text() {
        let e = |s: &str| open_error("eth9", &pcap::Error::PcapError(s.into()));
        assert!(matches!(e("eth9: No such device exists (SIOCGIFHWADDR: No such device)"), LiveError::NoSuchInterface { .. }));
        assert!(matches!(e("socket: Operation not permitted"), LiveError::Permission { .. }));
        assert!(matches!(e("eth9: You don't have permission to capture on that device"), LiveError::Permission { .. }));
        assert!(matches!(e("something else"), LiveError::Open { .. }));
        assert!(e("socket: Operation not permitted").to_string().contains("CAP_NET_RAW and CAP_NET_ADMIN"));
    }
}
