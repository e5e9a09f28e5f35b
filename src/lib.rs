//! mcptap: a passive analyzer of Model Context Protocol traffic.
//!
//! The pipeline, one stage per module, each handing typed values forward and none reaching back:
//! `capture` (packets) -> `decode` (TCP segments) -> `reassembly` (byte streams) -> `http` (messages, SSE
//! events) -> `mcp` (JSON-RPC, sessions, era; the classifier emitting `facts`) -> `detect` (rules) ->
//! `output` (CSV). The core is synchronous and sans-IO: `Analyzer::on_packet` / `Analyzer::finish`.

#![forbid(unsafe_code)]

pub mod analyzer;
pub mod capture;
pub mod cli;
pub mod decode;
pub mod detect;
pub mod facts;
pub mod http;
pub mod jsonrpc;
pub mod limits;
pub mod mcp;
pub mod output;
pub mod reassembly;
pub mod time;

use std::fs::File;
use std::io::{BufWriter, Write};

use analyzer::Analyzer;
use capture::file::{CaptureError, CaptureReader};
use cli::Config;
use output::csv::{CsvSink, Mode};

/// A run's failure, printed as one line by the binary (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{0}")]
    Capture(#[from] CaptureError),
    #[error("{path}: cannot write report: {source}")]
    Output { path: String, source: std::io::Error },
}

impl RunError {
    /// The reader of our output went away (`mcptap ... | head`): not an error for the user.
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RunError::Output { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

/// Runs an offline analysis as configured: reads every input, writes the CSV report, prints the summary.
/// Incidents found before a fatal input error are still written before the error is returned.
pub fn run(config: Config) -> Result<(), RunError> {
    let (out, out_name): (Box<dyn Write>, String) = match &config.output {
        Some(p) => {
            let f = File::create(p).map_err(|e| RunError::Output { path: p.display().to_string(), source: e })?;
            (Box::new(BufWriter::new(f)), p.display().to_string())
        }
        None => (Box::new(BufWriter::new(std::io::stdout().lock())), "<stdout>".to_string()),
    };
    let out_err = |e: std::io::Error| RunError::Output { path: out_name.clone(), source: e };
    let mut sink = CsvSink::new(out, Mode::AtEnd);
    let mut reader = CaptureReader::open(&config.inputs)?;
    let mut analyzer = Analyzer::new(config.limits.clone(), config.rules);
    if let Some(p) = &config.http_log {
        let f = File::create(p).map_err(|e| RunError::Output { path: p.display().to_string(), source: e })?;
        analyzer.set_http_log(output::httplog::HttpLog::new(Box::new(BufWriter::new(f))));
    }
    let mut fatal = None;
    loop {
        match reader.next_packet() {
            Ok(Some(pkt)) => analyzer.on_packet(&pkt, &mut sink).map_err(out_err)?,
            Ok(None) => break,
            Err(e) => {
                fatal = Some(e);
                break;
            }
        }
    }
    let summary = analyzer.finish(reader.stats().clone(), &mut sink).map_err(out_err)?;
    if !config.quiet {
        eprint!("{summary}");
    }
    match fatal {
        Some(e) => Err(e.into()),
        None => Ok(()),
    }
}
