//! Live capture (feature `live`): a sensor on a network interface. Owns libpcap (through the `pcap`
//! crate), the tokio event loop, the wall clock and the signals; every stage after capture is the same
//! `Analyzer` the offline path drives (or, with `--threads N`, the same worker pool: `engine.rs`), so the
//! goldens cover the analysis and this file only moves packets.
//!
//! Shape: the capture thread (`mover.rs`) owns libpcap and only moves packets from the kernel ring into
//! batches on a bounded channel; this thread runs one current-thread tokio runtime that waits on
//! everything else with `select!`: a batch, a 1 s clock tick, a stats tick, the key logs, rows raised by
//! workers, SIGINT/SIGTERM/SIGHUP. It analyses the batches itself, or with workers only routes them; a slow
//! moment in the analysis (a large body, a burst of incidents) no longer leaves the ring unread.
//!
//! Time: packets carry the kernel's timestamp, which is the analyzer's clock as in a file. While no
//! packet arrives, the tick moves capture time to `last packet ts + wall time since that packet`
//! (`Analyzer::advance`), so stall and idle rules fire on a quiet link as they would in a file whose
//! next packet came later. The wall clock is read only here, for that and for the stats interval.
//!
//! Output: incidents are written as they are raised, one CSV row or JSON line flushed at once
//! (`output::live`); a report file is opened for append, and gets a header only when empty, so a restarted
//! sensor appends safely. Later occurrences of an incident raise its count, shown in the summary at exit.
//! SIGHUP reopens `-o` and starts a new `-w` file at the same path (logrotate's `postrotate`).
//!
//! Stop: on SIGINT or SIGTERM the capture thread first drains packets already queued in the kernel
//! (bounded) and this loop analyses them, then `Analyzer::finish` flushes pending streams and sessions, their incidents are written, and the
//! summary is printed with libpcap's received/dropped counters (tcpdump's, Suricata's capture stats).
//!
//! `-w FILE` writes every packet the analyzer sees, in the same order, to a libpcap savefile, so the
//! `frames` of a live row are the frame numbers of that file (`mcptap -r FILE` gives the same rows). With
//! `-C`/`-G` (size, capture time) or at SIGHUP a new file starts; each numbers its packets from 1, and the
//! row's `pcap` column names the file its frames are in.

use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::Duration as WallDuration;

use pcap::{Active, Capture, Device, PacketHeader};
use tokio::signal::unix::{signal, SignalKind};
use tokio::time::{Instant, MissedTickBehavior};

use crate::capture::engine::{Build, Engine};
use crate::detect::Incident;
use crate::capture::mover;
use crate::capture::savefile::{self, PcapWriter};
use crate::capture::{LinkType, RawPacket};
use crate::cli::{Config, LiveConfig};
use crate::output::live::LiveReport;
use crate::output::{Extra, IncidentSink};
use crate::time::{Duration, Timestamp};
use crate::tls::keylog_tail::KeyLogTail;

/// How often capture time is advanced while the link is quiet.
const CLOCK_TICK: WallDuration = WallDuration::from_secs(1);
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
    #[error("{path}: cannot write stats: {}", crate::io_reason(.source))]
    Stats { path: String, source: std::io::Error },
    #[error("{path}: cannot write report: {}", crate::io_reason(.source))]
    Output { path: String, source: std::io::Error },
    #[error("{iface}: capture failed: {msg}")]
    Read { iface: String, msg: String },
    #[error("cannot list interfaces: {msg}")]
    List { msg: String },
    #[error("cannot start the capture loop: {}", crate::io_reason(.0))]
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

/// How long the kernel holds a block that is not full before handing it over (Suricata's AF_PACKET
/// `block-timeout` default is 10 ms too): the latency a packet on a quiet link waits.
const BLOCK_TIMEOUT_MS: i32 = 10;

/// Opens and activates the capture, applies the filter, and makes it non-blocking for the capture
/// thread's packet stream.
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
        .buffer_size(live.buffer_bytes)
        // Not immediate mode: on Linux that means TPACKET_V2, one ring frame per packet sized for the snap
        // length (capped at the interface MTU: 64 KiB on `lo`, where segmentation offload makes packets that
        // large), so a 256 KiB buffer held two packets and a burst was mostly dropped
        // (samples/ecosystem/sensor3.md: 3,135 drops where tcpdump at a quarter of the buffer had 230).
        // TPACKET_V3 packs packets into blocks, as tcpdump and Suricata's AF_PACKET use it; a block is
        // handed over when full or after BLOCK_TIMEOUT_MS, which bounds the latency an incident waits.
        .immediate_mode(false)
        .timeout(BLOCK_TIMEOUT_MS)
        .open()
        .map_err(|e| open_error(iface, &e))?;
    let mut cap = cap;
    if iface == "any" {
        // Linux cooked capture v2 (LINKTYPE_LINUX_SLL2) names the interface of each packet, which v1 does
        // not: on "any" a packet that crossed two interfaces is in the capture twice, and the `-w` file
        // should say where each copy was seen, as tcpdump 4.99 writes it. libpcap before 1.10 has no v2;
        // then v1 stays. Set before the filter, which is compiled for the link type.
        let _ = cap.set_datalink(pcap::Linktype::LINUX_SLL2);
    }
    if let Some(expr) = &live.filter {
        cap.filter(expr, true).map_err(|e| LiveError::Filter { expr: expr.clone(), msg: pcap_msg(&e) })?;
    }
    cap.setnonblock().map_err(|e| LiveError::Open { iface: iface.to_string(), msg: pcap_msg(&e) })
}

/// Capture time of a packet: libpcap's timeval (microseconds; the default precision).
#[allow(clippy::useless_conversion)] // time_t / suseconds_t are i32 or i64 depending on the platform
fn packet_ts(h: &PacketHeader) -> Timestamp {
    let secs = i64::from(h.ts.tv_sec);
    let micros = u32::try_from(i64::from(h.ts.tv_usec)).unwrap_or(0).min(999_999);
    Timestamp::from_secs_micros(secs, micros)
}

/// The `-w` files: the current one, its size and capture-time start, and when the next one is due.
struct Savefiles {
    base: PathBuf,
    current: PcapWriter,
    linktype: u32,
    snaplen: u32,
    /// 0 for `base`, then `base1`, `base2`, ... (tcpdump -C names).
    seq: u64,
    bytes: u64,
    /// Capture time of the current file's first packet.
    started: Option<Timestamp>,
    rotate_bytes: Option<u64>,
    rotate_secs: Option<u64>,
    /// `-W`: names are reused after this many files.
    file_count: Option<u64>,
}

impl Savefiles {
    fn name(base: &Path, seq: u64) -> PathBuf {
        if seq == 0 {
            return base.to_path_buf();
        }
        let mut s = base.as_os_str().to_os_string();
        s.push(seq.to_string());
        PathBuf::from(s)
    }

    fn error(path: &Path, e: &std::io::Error) -> LiveError {
        LiveError::Savefile { path: path.display().to_string(), msg: crate::io_reason(e) }
    }

    fn open(live: &LiveConfig, linktype: u32, base: &Path, report: &mut LiveReport) -> Result<Savefiles, LiveError> {
        let snaplen = u32::try_from(live.snaplen).unwrap_or(u32::MAX);
        let current = PcapWriter::create(base, linktype, snaplen).map_err(|e| Savefiles::error(base, &e))?;
        report.savefile_started(1, base.display().to_string());
        Ok(Savefiles {
            base: base.to_path_buf(),
            current,
            linktype,
            snaplen,
            seq: 0,
            bytes: savefile::FILE_HEADER,
            started: None,
            rotate_bytes: live.rotate_bytes,
            rotate_secs: live.rotate_secs,
            file_count: live.file_count,
        })
    }

    /// The current file's name.
    fn path(&self) -> PathBuf {
        Savefiles::name(&self.base, self.seq)
    }

    fn flush(&mut self) -> Result<(), LiveError> {
        self.current.flush().map_err(|e| Savefiles::error(&self.path(), &e))
    }

    /// SIGHUP: a file moved aside is started again at its path; one still there (a logrotate that rotates
    /// the report alone, a HUP by hand) keeps its packets, which earlier rows name by frame; another file
    /// that took the path is never written over (the moved one goes on). Says what it did.
    fn reopen(&mut self, frame: u64, report: &mut LiveReport) -> Result<String, LiveError> {
        let path = self.path();
        if self.current.is_at(&path) {
            self.flush()?;
            Ok(format!("the packet file {} was not moved, writing on", path.display()))
        } else if path.exists() {
            self.flush()?;
            Ok(format!("{} is another file now, so packets go on into the moved one", path.display()))
        } else {
            self.start(false, frame, report)?;
            Ok(format!("started the packet file {}", path.display()))
        }
    }

    /// Whether the packet must go to a new file (-C: it would pass the size; -G: its capture time is past
    /// the file's span). A file always gets at least one packet.
    fn due(&self, h: &PacketHeader) -> bool {
        let Some(start) = self.started else { return false };
        let size = self.rotate_bytes.is_some_and(|max| self.bytes.saturating_add(savefile::RECORD_HEADER + u64::from(h.caplen)) > max);
        let span = self.rotate_secs.is_some_and(|secs| packet_ts(h).since(start).as_secs_f64() >= secs as f64);
        size || span
    }

    /// Starts the next file (`next`: false reopens the same name, for SIGHUP); `frame` is its frame 1.
    fn start(&mut self, next: bool, frame: u64, report: &mut LiveReport) -> Result<(), LiveError> {
        self.flush()?;
        if next {
            self.seq = self.seq.saturating_add(1);
            if let Some(n) = self.file_count {
                // tcpdump -W: a ring of N names; the oldest file is overwritten.
                self.seq %= n;
            }
        }
        let path = self.path();
        self.current = PcapWriter::create(&path, self.linktype, self.snaplen).map_err(|e| Savefiles::error(&path, &e))?;
        report.savefile_started(frame, path.display().to_string());
        self.bytes = savefile::FILE_HEADER;
        self.started = None;
        Ok(())
    }

    #[allow(clippy::useless_conversion)] // time_t / suseconds_t are i32 or i64 depending on the platform
    fn write(&mut self, h: &PacketHeader, data: &[u8]) -> Result<(), LiveError> {
        self.started.get_or_insert_with(|| packet_ts(h));
        self.bytes = self.bytes.saturating_add(savefile::RECORD_HEADER + data.len() as u64);
        // pcap-savefile(5) has 32-bit seconds; a timestamp past 2106 is clamped rather than wrapped.
        let secs = u32::try_from(i64::from(h.ts.tv_sec)).unwrap_or(if i64::from(h.ts.tv_sec) < 0 { 0 } else { u32::MAX });
        let micros = u32::try_from(i64::from(h.ts.tv_usec)).unwrap_or(0).min(999_999);
        self.current.write(secs, micros, h.len, data).map_err(|e| Savefiles::error(&self.path(), &e))
    }
}

/// Resident memory of this process (Linux `/proc/self/statm`), for the stats line.
fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    // statm counts pages: 4 KiB on the x86-64 and arm64 Linux kernels a sensor runs (no unsafe sysconf).
    Some(pages.saturating_mul(4096))
}

/// Runs the sensor until SIGINT/SIGTERM (or the interface goes away), as configured by `-i`.
pub fn run(config: Config) -> Result<(), LiveError> {
    let Some(live) = config.live.clone() else {
        return Err(LiveError::Open { iface: "-".into(), msg: "no interface given".into() });
    };
    // Report first: a report we cannot write must stop the sensor before it captures anything.
    let extra = Extra { wireshark_filter: config.report.wireshark_filter, sensor: Some(live.sensor.clone()), pcap: live.savefile.is_some() };
    let mut report = LiveReport::open(config.output.as_deref(), config.report.format, extra)
        .map_err(|e| LiveError::Output { path: config.output.as_ref().map_or_else(|| "<stdout>".into(), |p| p.display().to_string()), source: e })?;
    let out_name = report.name();
    let out_err = |e: std::io::Error| LiveError::Output { path: out_name.clone(), source: e };
    let stats_file = match &live.stats_file {
        Some(p) => Some((
            p.display().to_string(),
            OpenOptions::new().create(true).append(true).open(p).map_err(|e| LiveError::Stats { path: p.display().to_string(), source: e })?,
        )),
        None => None,
    };
    let cap = open_capture(&live)?;
    let datalink = cap.get_datalink();
    let linktype_value = u32::try_from(datalink.0).unwrap_or(u32::MAX);
    let savefiles = match &live.savefile {
        Some(p) => Some(Savefiles::open(&live, linktype_value, p, &mut report)?),
        None => None,
    };
    report.start().map_err(out_err)?;
    let linktype = LinkType(linktype_value);
    let link_name = datalink.get_name().unwrap_or_else(|_| datalink.0.to_string());

    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(LiveError::Runtime)?;
    let keys = KeyLogTail::new(config.keylog_files);
    let build = Build { threads: config.threads, limits: config.limits.clone(), rules: config.rules, keylog: config.keylog, wait_for_keys: !keys.is_empty() };
    // The runtime's context: the rows channel is tokio's, and workers send on it from their threads.
    let (mut engine, mut rows) = {
        let _enter = runtime.enter();
        Engine::start(build).map_err(LiveError::Runtime)?
    };
    if let Some(p) = &config.http_log {
        let f = std::fs::File::create(p).map_err(|e| LiveError::Output { path: p.display().to_string(), source: e })?;
        if let Engine::One { analyzer, .. } = &mut engine {
            analyzer.set_http_log(crate::output::httplog::HttpLog::new(Box::new(BufWriter::new(f))));
        }
    }
    let mut sensor = Sensor { live: &live, linktype, savefiles, frame: 0, bytes: 0, last: None, out_name: &out_name, keys, stats_file, stat: None };
    let outcome = runtime.block_on(sensor.capture(cap, &link_name, &mut engine, &mut rows, &mut report));
    let (stat, loop_err) = match outcome {
        Ok((stat, err)) => (stat, err),
        Err(e) => return Err(e),
    };

    // Stop: pending streams and sessions are flushed and their incidents written before the summary.
    // The -w file first: the rows written while finishing name frames in it.
    sensor.flush_savefile()?;
    let (summary, workers_line) = engine.finish(&mut rows, &mut report).map_err(out_err)?;
    if !config.quiet {
        eprint!("{summary}{workers_line}");
        match stat {
            Some(s) => eprintln!(
                "  libpcap:   {} packets received by filter, {} dropped by kernel, {} dropped by interface",
                s.received, s.dropped, s.if_dropped
            ),
            None => eprintln!("  libpcap:   statistics not available"),
        }
        let total: u64 = report.occurrences().values().sum();
        let by_rule: Vec<String> = report.occurrences().iter().map(|(k, v)| format!("{k}: {v}")).collect();
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

/// The state of the analysis loop outside the analyzer.
struct Sensor<'a> {
    live: &'a LiveConfig,
    linktype: LinkType,
    savefiles: Option<Savefiles>,
    /// Frames numbered as received, from 1 (each `-w` file numbers its own; `output::live` maps them).
    frame: u64,
    /// Bytes on the wire of the packets analysed.
    bytes: u64,
    /// Capture time of the last packet and the wall-clock instant it was read.
    last: Option<(Timestamp, Instant)>,
    out_name: &'a str,
    /// `--keylog` files, followed as they grow.
    keys: KeyLogTail,
    /// `--stats-file`: its name and the open file.
    stats_file: Option<(String, std::fs::File)>,
    /// libpcap's counters, as the capture thread last sent them.
    stat: Option<pcap::Stat>,
}

impl Sensor<'_> {
    fn out_err(&self, e: std::io::Error) -> LiveError {
        LiveError::Output { path: self.out_name.to_string(), source: e }
    }

    fn flush_savefile(&mut self) -> Result<(), LiveError> {
        match &mut self.savefiles {
            Some(s) => s.flush(),
            None => Ok(()),
        }
    }

    /// SIGHUP: rows go to a reopened -o; packets go on in the -w file, or in a new one if it was moved aside.
    fn reopen(&mut self, report: &mut LiveReport) -> Result<(), LiveError> {
        report.reopen().map_err(|e| self.out_err(e))?;
        match self.savefiles.as_mut() {
            Some(s) => {
                let done = s.reopen(self.frame.saturating_add(1), report)?;
                eprintln!("mcptap: SIGHUP: reopened the report; {done}");
            }
            None => eprintln!("mcptap: SIGHUP: reopened the report"),
        }
        Ok(())
    }

    /// The periodic counters: a line on standard error, and a JSON line in --stats-file.
    fn stats(&mut self, engine: &Engine) -> Result<(), LiveError> {
        let (sessions, incidents, rss) = (engine.open_sessions(), engine.incidents(), rss_bytes().unwrap_or(0));
        let s = self.stat;
        match &s {
            Some(s) => eprintln!(
                "mcptap: stats: {} packets analysed ({} bytes), {sessions} sessions open, {incidents} incidents, {} MiB resident; libpcap: {} received by filter, {} dropped by kernel, {} dropped by interface",
                self.frame, self.bytes, rss >> 20, s.received, s.dropped, s.if_dropped
            ),
            None => eprintln!(
                "mcptap: stats: {} packets analysed ({} bytes), {sessions} sessions open, {incidents} incidents, {} MiB resident; libpcap counters not available yet",
                self.frame, self.bytes, rss >> 20
            ),
        }
        if let Some((name, f)) = self.stats_file.as_mut() {
            let line = serde_json::json!({
                "ts": engine.now().rfc3339(),
                "sensor": self.live.sensor,
                "packets": self.frame,
                "bytes": self.bytes,
                "received": s.map(|s| s.received),
                "dropped_kernel": s.map(|s| s.dropped),
                "dropped_interface": s.map(|s| s.if_dropped),
                "sessions_open": sessions,
                "incidents": incidents,
                "rss_bytes": rss,
            });
            writeln!(f, "{line}").and_then(|()| f.flush()).map_err(|e| LiveError::Stats { path: name.clone(), source: e })?;
        }
        Ok(())
    }

    /// Secrets appended to the key logs go to the connections waiting for them.
    fn poll_keys(&mut self, engine: &mut Engine, sink: &mut dyn IncidentSink) -> Result<(), LiveError> {
        let text = self.keys.poll();
        if text.is_empty() {
            return Ok(());
        }
        engine.add_live_secrets(&text, sink).map_err(|e| self.out_err(e))
    }

    /// One packet: a new -w file first if one is due (-C, -G), then -w and the engine.
    fn packet(&mut self, h: &PacketHeader, data: &[u8], engine: &mut Engine, report: &mut LiveReport) -> Result<(), LiveError> {
        if let Some(s) = self.savefiles.as_mut().filter(|s| s.due(h)) {
            s.start(true, self.frame.saturating_add(1), report)?;
        }
        self.frame = self.frame.saturating_add(1);
        self.bytes = self.bytes.saturating_add(u64::from(h.len));
        if let Some(s) = &mut self.savefiles {
            s.write(h, data)?;
        }
        let ts = packet_ts(h);
        self.last = Some((ts, Instant::now()));
        if engine.tls_waiting() {
            // Before this packet, which may end the connection or need its plaintext in order.
            self.poll_keys(engine, report)?;
        }
        let raw = RawPacket { frame: self.frame, ts, linktype: self.linktype, data, wire_len: h.len };
        if engine.on_packet(&raw, report).map_err(|e| self.out_err(e))? {
            // A new row names frames up to this one: make them readable in the -w file right away.
            self.flush_savefile()?;
        }
        Ok(())
    }

    /// A row a worker raised (`--threads N`): its frames are made readable in the -w file, then it is
    /// written.
    fn row(&mut self, row: &Incident, report: &mut LiveReport) -> Result<(), LiveError> {
        self.flush_savefile()?;
        report.raised(row).map_err(|e| self.out_err(e))
    }

    /// What the capture thread sent; `Some(error)` when the capture failed.
    fn message(&mut self, msg: mover::Msg, engine: &mut Engine, report: &mut LiveReport) -> Result<Option<LiveError>, LiveError> {
        match msg {
            mover::Msg::Batch(b) => {
                // A batch can hold a whole short connection (the kernel hands packets over a block at a
                // time), so a connection would end before it could be seen waiting for its secrets. A
                // client logs them during its handshake, before the block that carries it is handed over:
                // read what the key log gained before the batch's packets are analysed or routed.
                if !self.keys.is_empty() {
                    self.poll_keys(engine, report)?;
                }
                for (h, data) in b.packets() {
                    self.packet(h, data, engine, report)?;
                }
                engine.flush();
                Ok(None)
            }
            mover::Msg::Stats(s) => {
                self.stat = Some(s);
                Ok(None)
            }
            mover::Msg::Failed(msg) => Ok(Some(LiveError::Read { iface: self.live.interface.clone(), msg })),
        }
    }

    /// The analysis loop. The capture thread reads the ring; this thread analyses what it sends, with the
    /// clock tick, the stats tick, the key logs and the signals. Returns libpcap's last counters, and a
    /// capture error that ended the loop (the run still finishes and writes everything found before it).
    async fn capture(
        &mut self,
        cap: Capture<Active>,
        link_name: &str,
        engine: &mut Engine,
        rows: &mut tokio::sync::mpsc::UnboundedReceiver<Incident>,
        report: &mut LiveReport,
    ) -> Result<(Option<pcap::Stat>, Option<LiveError>), LiveError> {
        // Signals are installed before "listening" is announced: from then on a stop is never lost.
        let mut sigint = signal(SignalKind::interrupt()).map_err(LiveError::Runtime)?;
        let mut sigterm = signal(SignalKind::terminate()).map_err(LiveError::Runtime)?;
        let mut sighup = signal(SignalKind::hangup()).map_err(LiveError::Runtime)?;
        let iface = self.live.interface.clone();
        let (tx, mut rx) = tokio::sync::mpsc::channel(mover::QUEUE_BATCHES);
        let (thread, stopper) = mover::spawn(cap, tx).map_err(LiveError::Runtime)?;
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
        let mut closed = false;
        loop {
            let keys_wanted = engine.tls_waiting();
            tokio::select! {
                // Signals first, so a stop is handled even on a link that is never idle; packets already
                // queued are drained below.
                biased;
                _ = sigint.recv() => break,
                _ = sigterm.recv() => break,
                _ = sighup.recv() => self.reopen(report)?,
                msg = rx.recv() => match msg {
                    Some(m) => {
                        if let Some(e) = self.message(m, engine, report)? {
                            loop_err = Some(e);
                        }
                    }
                    None => {
                        closed = true;
                        break;
                    }
                },
                _ = clock.tick() => {
                    if let Some((ts, at)) = self.last {
                        let idle = Duration(i64::try_from(at.elapsed().as_nanos()).unwrap_or(i64::MAX));
                        engine.advance(ts.plus(idle), report).map_err(|e| self.out_err(e))?;
                    }
                    self.flush_savefile()?;
                },
                Some(row) = rows.recv() => self.row(&row, report)?,
                _ = key_tick.tick(), if keys_wanted => self.poll_keys(engine, report)?,
                _ = stats.tick(), if stats_on => self.stats(engine)?,
            }
        }
        // Packets the kernel queued before the stop belong to the capture (they are in the -w file's
        // future too): the capture thread reads them until the link is quiet (bounded), sends them and its
        // final counters, and ends.
        stopper.stop();
        if !closed {
            while let Some(m) = rx.recv().await {
                if let Some(e) = self.message(m, engine, report)? {
                    loop_err = Some(e);
                }
            }
        }
        if thread.join().is_err() {
            loop_err.get_or_insert(LiveError::Read { iface, msg: "the capture thread stopped unexpectedly".into() });
        }
        Ok((self.stat, loop_err))
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
