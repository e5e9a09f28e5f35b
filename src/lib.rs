//! mcptap: a passive analyzer of Model Context Protocol traffic.
//!
//! The pipeline, one stage per module, each handing typed values forward and none reaching back:
//! `capture` (packets) -> `decode` (TCP segments) -> per connection, one layer stack (`stack`):
//! `reassembly` (byte streams) -> `tls` (plaintext) -> `http` (messages, SSE events) -> JSON-RPC
//! (`stack::rpc` with `jsonrpc`: decoded messages) -> `mcp` (sessions, era; the classifier emitting
//! `facts`) -> `detect` (rules) -> `output` (CSV). The core is synchronous and sans-IO:
//! `Analyzer::on_packet` / `Analyzer::finish`.

#![forbid(unsafe_code)]

// Packets in.
pub mod capture;
pub mod decode;
// One layer stack per connection, bottom to top (src/stack/: reassembly, tls, http, jsonrpc).
pub mod stack;
pub use stack::{http, jsonrpc, reassembly, tls};
// Sessions, facts, rules, reports.
pub mod mcp;
pub mod facts;
pub mod detect;
pub mod output;
// Driving it: one thread or N workers, the command line, limits and capture time.
pub mod analyzer;
pub mod shard;
pub mod app;
pub mod cli;
pub mod keyed;
pub mod limits;
pub mod time;

use std::fs::File;
use std::io::{BufWriter, Write};

use capture::file::{CaptureError, CaptureReader};
use cli::Config;
use output::csv::{CsvSink, Mode};
use output::{Collect, Format, IncidentSink};

/// A run's failure, printed as one line by the binary (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Capture(#[from] CaptureError),
    #[error("{path}: cannot write report: {}", io_reason(.source))]
    Output { path: String, source: std::io::Error },
    /// `--fail-on`: incidents at or above the severity were found (exit 1, after every report is written).
    #[error("{} at or above severity {severity} (--fail-on {severity})", analyzer::plural(*count as u64, "incident"))]
    Gate { severity: &'static str, count: usize },
    #[error("cannot start the worker threads (--threads): {}", io_reason(.0))]
    Threads(std::io::Error),
    #[error("--timeline {0}: no MCP session with this id in the capture")]
    NoSuchSession(String),
    /// Packets were read but none decoded to TCP (exit 2, after the report with its CAPTURE-UNREADABLE row).
    #[error("{inputs}: {message}")]
    Unreadable { inputs: String, message: String },
}

/// The operating system's message for an I/O error without Rust's ` (os error N)` suffix (`No such file or
/// directory`), as the one-line messages print it: the path and what mcptap was doing come first, and the
/// number adds nothing a user acts on.
pub fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.split_once(" (os error ") {
        Some((head, _)) => head.to_string(),
        None => s,
    }
}

impl RunError {
    /// The reader of our output went away (`mcptap ... | head`): not an error for the user.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RunError::Output { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }

    /// `--fail-on` triggered: exit 1, not an error of the run.
    pub fn is_gate(&self) -> bool {
        matches!(self, RunError::Gate { .. })
    }
}

/// Runs an offline analysis as configured: reads every input, writes the CSV report, prints the summary.
/// Incidents found before a fatal input error are still written before the error is returned.
pub fn run(config: Config) -> Result<(), RunError> {
    let clock = output::elapsed::Stopwatch::start();
    let report = &config.report;
    // Every output is opened (not yet emptied) before the first packet is read: an unwritable path stops
    // the run at once, and one that is an input was refused already (cli::check_paths).
    let reader = CaptureReader::open(&config.inputs)?;
    let named: Vec<output::paths::Named<'_>> = [
        ("-o", config.output.as_deref()),
        ("--sessions", report.sessions.as_deref()),
        ("--html", report.html.as_deref()),
        ("--http-log", config.http_log.as_deref()),
    ]
    .into_iter()
    .filter_map(|(flag, p)| p.map(|path| output::paths::Named { flag, path }))
    .collect();
    let mut files = output::paths::Opened::open(&named).map_err(|(p, e)| RunError::Output { path: p.display().to_string(), source: e })?;
    let mut take = |flag: &str| -> Result<Option<(std::path::PathBuf, File)>, RunError> {
        match files.take(flag) {
            None => Ok(None),
            Some(Ok(f)) => Ok(Some(f)),
            Some(Err(e)) => Err(RunError::Output { path: flag.to_string(), source: e }),
        }
    };
    let sessions_file = take("--sessions")?;
    let html_file = take("--html")?;
    // With --timeline and no -o, standard output carries the timeline, not the incident report.
    let (out, out_name): (Box<dyn Write>, String) = match take("-o")? {
        Some((p, f)) => (Box::new(BufWriter::new(f)), p.display().to_string()),
        None if report.timeline.is_some() => (Box::new(std::io::sink()), "<none>".to_string()),
        None => (Box::new(BufWriter::new(std::io::stdout().lock())), "<stdout>".to_string()),
    };
    let out_err = |e: std::io::Error| RunError::Output { path: out_name.clone(), source: e };
    let extra = output::Extra { wireshark_filter: report.wireshark_filter, sensor: config.sensor.clone(), pcap: false };
    let mut inner: Box<dyn IncidentSink> = match report.format {
        Format::Csv => Box::new(CsvSink::new(out, Mode::AtEnd).with_extra(extra)),
        Format::Jsonl => Box::new(output::jsonl::JsonlSink::new(out, Mode::AtEnd).with_extra(extra)),
    };
    let mut sink = Collect::new(inner.as_mut());
    let mut progress = output::progress::Progress::new(!config.quiet, reader.total_size());
    let (summary, fatal, workers_line) = if config.threads > 1 {
        let setup = shard::Setup {
            shards: usize::from(config.threads),
            limits: config.limits.clone(),
            rules: std::sync::Arc::new(config.rules),
            keylog: config.keylog,
            recorder: report.recorder(),
            wait_for_keys: false,
            on_raised: None,
            warmup: shard::WARMUP_SEGMENTS,
        };
        let mut reader = reader;
        let (outcome, fatal) = shard::run(&mut reader, setup, &mut progress).map_err(RunError::Threads)?;
        progress.finish();
        let rows: Vec<&detect::Incident> = outcome.incidents.iter().collect();
        sink.finish(&rows).map_err(out_err)?;
        let workers_line = output::elapsed::workers_line(outcome.cpu.0, &outcome.cpu.1);
        (outcome.summary, fatal, workers_line)
    } else {
        let mut front = analyzer::Front::new(config.limits.clone());
        let mut back = analyzer::Back::new(&config.limits, config.rules);
        if let Some(rc) = report.recorder() {
            back.enable_recorder(rc);
        }
        front.set_keylog(config.keylog);
        if let Some((_, f)) = take("--http-log")? {
            front.set_http_log(output::httplog::HttpLog::new(Box::new(BufWriter::new(f))));
        }
        let (front_result, sink_result) = single_thread(reader, front, &mut back, &mut sink, &mut progress);
        sink_result.map_err(out_err)?;
        front_result.http_log.map_err(out_err)?;
        progress.finish();
        let mut summary = front_result.summary;
        back.finish(&mut sink, &mut summary).map_err(out_err)?;
        (summary, front_result.fatal, String::new())
    };
    let incidents = std::mem::take(&mut sink.incidents);
    drop(inner);
    let inputs: Vec<String> = config.inputs.iter().map(|p| p.display().to_string()).collect();
    write_reports(report, &inputs, &summary, &incidents, sessions_file, html_file)?;
    if !config.quiet {
        eprint!("{summary}{}{workers_line}", clock.line(summary.bytes, summary.packets));
    }
    if let Some(e) = fatal {
        return Err(e.into());
    }
    // Said even with -q: an empty report must not pass for a clean capture.
    if let Some(message) = summary.unreadable_message() {
        return Err(RunError::Unreadable { inputs: inputs.join(", "), message });
    }
    if let Some(id) = &report.timeline {
        if !summary.sessions.iter().any(|r| &r.session_id == id) {
            return Err(RunError::NoSuchSession(id.clone()));
        }
    }
    match report.gate(&incidents) {
        Some((severity, count)) => Err(RunError::Gate { severity: severity.as_str(), count }),
        None => Ok(()),
    }
}

/// What reading the capture through the front half leaves behind.
pub struct FrontResult {
    /// The front half's share of the summary (packets, TCP, HTTP, TLS, capture counters).
    pub summary: analyzer::Summary,
    /// The capture error that stopped reading, if any; everything before it was analysed.
    pub fatal: Option<CaptureError>,
    /// An error writing the HTTP transaction log.
    pub http_log: std::io::Result<()>,
}

/// Reads the next packet through `front`; `Ok(false)` at the end of the capture.
fn feed_next<F: FnMut(analyzer::Cmd<'_>)>(reader: &mut CaptureReader, front: &mut analyzer::Front, out: &mut F) -> Result<bool, CaptureError> {
    match reader.next_packet()? {
        Some(pkt) => front.on_packet(&pkt, out),
        None => return Ok(false),
    }
    // pcapng Decryption Secrets Blocks read while reaching this packet.
    let secrets = reader.take_secrets();
    if !secrets.is_empty() {
        front.add_secrets(&secrets);
    }
    Ok(true)
}

/// Reads every packet through both halves of the analyzer on this thread; the commands pass borrowed.
fn single_thread(
    mut reader: CaptureReader,
    mut front: analyzer::Front,
    back: &mut analyzer::Back,
    sink: &mut dyn IncidentSink,
    progress: &mut output::progress::Progress,
) -> (FrontResult, std::io::Result<()>) {
    let mut result = Ok(());
    let mut fatal = None;
    loop {
        let fed = feed_next(&mut reader, &mut front, &mut |cmd| analyzer::keep_first_error(&mut result, || back.handle(cmd, sink)));
        front.expect_timer(back.next_timer());
        match fed {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                fatal = Some(e);
                break;
            }
        }
        if result.is_err() {
            // The reader of the report went away: stop reading (the caller reports the error).
            break;
        }
        progress.tick(|| (reader.stats().bytes_read, back.open_sessions(), back.incidents().len()));
    }
    let http_log = front.finish(&mut |cmd| analyzer::keep_first_error(&mut result, || back.handle(cmd, sink)));
    let mut summary = analyzer::Summary::default();
    front.summarize(reader.stats().clone(), &mut summary);
    (FrontResult { summary, fatal, http_log }, result)
}

/// The reports written after the run: session inventory, timeline (standard output), HTML page, each
/// into its file opened before the run.
fn write_reports(
    report: &output::ReportArgs,
    inputs: &[String],
    summary: &analyzer::Summary,
    incidents: &[detect::Incident],
    sessions_file: Option<(std::path::PathBuf, File)>,
    html_file: Option<(std::path::PathBuf, File)>,
) -> Result<(), RunError> {
    if let Some((p, f)) = sessions_file {
        let err = |e: std::io::Error| RunError::Output { path: p.display().to_string(), source: e };
        output::sessions::write(BufWriter::new(f), &summary.sessions, incidents).map_err(err)?;
    }
    if let Some(id) = &report.timeline {
        let err = |e: std::io::Error| RunError::Output { path: "<stdout>".into(), source: e };
        let mut out = std::io::stdout().lock();
        let mut first = true;
        for r in summary.sessions.iter().filter(|r| &r.session_id == id) {
            if !first {
                out.write_all(b"\n").map_err(err)?;
            }
            first = false;
            out.write_all(output::timeline::render(r, incidents).as_bytes()).map_err(err)?;
        }
        out.flush().map_err(err)?;
    }
    if let Some((p, f)) = html_file {
        let err = |e: std::io::Error| RunError::Output { path: p.display().to_string(), source: e };
        let mut f = BufWriter::new(f);
        f.write_all(output::html::render(inputs, summary, incidents, &summary.sessions).as_bytes()).map_err(err)?;
        f.flush().map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_reason_drops_the_os_error_number_only() {
        let missing = std::io::Error::from_raw_os_error(2);
        assert!(missing.to_string().ends_with("(os error 2)"), "{missing}");
        assert_eq!(io_reason(&missing), "No such file or directory");
        let custom = std::io::Error::other("disk on fire");
        assert_eq!(io_reason(&custom), "disk on fire");
        let e = RunError::Output { path: "out/x.csv".into(), source: missing };
        assert_eq!(e.to_string(), "out/x.csv: cannot write report: No such file or directory");
    }
}
