//! Output: where incidents go. The analyzer never knows the format (ripgrep's `Sink` boundary).
//!
//! Besides the incident report (`csv`, `jsonl`), this module owns the reports people act on after a run:
//! the per-session inventory (`sessions`), one session's history (`timeline`), a self-contained HTML page
//! (`html`), the CI gate (`--fail-on`) and the progress bar (`progress`). Their flags are one flattened
//! clap group, `ReportArgs`, so the command line gains them without `cli.rs` knowing each one.

pub mod csv;
pub mod elapsed;
pub mod html;
pub mod jsonl;
pub mod live;
pub mod paths;
pub mod progress;
pub mod sessions;
pub mod timeline;
pub mod httplog;

use std::path::PathBuf;

use crate::detect::{Incident, Severity};

/// Receives incidents. `raised` is called once when an incident first fires (a live sensor writes it at
/// once); `finish` gets every incident with its final count at the end of the run.
pub trait IncidentSink {
    fn raised(&mut self, incident: &Incident) -> std::io::Result<()>;
    fn finish(&mut self, incidents: &[&Incident]) -> std::io::Result<()>;
}

/// Columns (JSON keys) after the fixed ones, in this order: `wireshark_filter` (`--wireshark-filter`),
/// `sensor` (`--sensor`, and always live: rows of many sensors merge in one index), `pcap` (live with `-w`:
/// the savefile the row's frames are numbered in).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extra {
    pub wireshark_filter: bool,
    pub sensor: Option<String>,
    pub pcap: bool,
}

impl Extra {
    pub fn names(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.wireshark_filter {
            v.push("wireshark_filter");
        }
        if self.sensor.is_some() {
            v.push("sensor");
        }
        if self.pcap {
            v.push("pcap");
        }
        v
    }

    /// The values of `names()` for one row; `pcap` names the savefile(s) of its frames.
    pub fn values(&self, i: &Incident, pcap: &str) -> Vec<String> {
        let mut v = Vec::new();
        if self.wireshark_filter {
            v.push(wireshark_filter(&i.frames));
        }
        if let Some(s) = &self.sensor {
            v.push(s.clone());
        }
        if self.pcap {
            v.push(pcap.to_string());
        }
        v
    }
}

/// The incident report's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// RFC 4180 CSV with a header row.
    #[default]
    Csv,
    /// JSON lines: one object per incident, keys in CSV column order.
    Jsonl,
}

/// The report flags (flattened into `cli::Args`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct ReportArgs {
    /// Incident report format: csv, or jsonl (one JSON object per line, for log shippers and SIEMs).
    #[arg(long = "format", value_name = "FORMAT", value_enum, default_value_t = Format::Csv)]
    pub format: Format,

    /// Also write a per-session CSV inventory to FILE: one row per MCP session seen.
    #[arg(long = "sessions", value_name = "FILE")]
    pub sessions: Option<PathBuf>,

    /// Print the history of session SESSION_ID (its `session_id` column) on standard output, instead of
    /// the incident report (which still goes to -o FILE when given).
    #[arg(long = "timeline", value_name = "SESSION_ID")]
    pub timeline: Option<String>,

    /// Also write a self-contained HTML report to FILE (summary, incidents, per-session timeline charts).
    #[arg(long = "html", value_name = "FILE")]
    pub html: Option<PathBuf>,

    /// Add a `wireshark_filter` column (JSON key) with a display filter for the incident's frames.
    #[arg(long = "wireshark-filter")]
    pub wireshark_filter: bool,

    /// Exit 1 when an incident at or above SEVERITY (info, low, medium, high, critical) was found,
    /// after writing every report.
    #[arg(long = "fail-on", value_name = "SEVERITY", value_parser = parse_severity)]
    pub fail_on: Option<Severity>,
}

fn parse_severity(s: &str) -> Result<Severity, String> {
    Severity::parse(s).ok_or_else(|| format!("unknown severity '{s}': expected info, low, medium, high or critical"))
}

impl ReportArgs {
    /// Whether a report needs the classifier's session recorder, and for which timelines.
    pub fn recorder(&self) -> Option<crate::mcp::record::RecorderConfig> {
        use crate::mcp::record::{RecorderConfig, TimelineScope, DEFAULT_TIMELINE_ENTRIES};
        let timeline = match (&self.html, &self.timeline) {
            (Some(_), _) => TimelineScope::All,
            (None, Some(id)) => TimelineScope::Session(id.clone()),
            (None, None) if self.sessions.is_some() => TimelineScope::Off,
            (None, None) => return None,
        };
        Some(RecorderConfig { max_records: 100_000, max_entries: DEFAULT_TIMELINE_ENTRIES, timeline })
    }

    /// How many incidents are at or above the `--fail-on` severity.
    pub fn gate(&self, incidents: &[Incident]) -> Option<(Severity, usize)> {
        let floor = self.fail_on?;
        let n = incidents.iter().filter(|i| i.severity >= floor).count();
        (n > 0).then_some((floor, n))
    }
}

/// `frame.number in {3 9 12}`: a Wireshark/tshark display filter selecting an incident's frames
/// (Wireshark display filter reference: set membership `in {...}` with space-separated values).
pub fn wireshark_filter(frames: &[u64]) -> String {
    if frames.is_empty() {
        return String::new();
    }
    let list: Vec<String> = frames.iter().map(u64::to_string).collect();
    format!("frame.number in {{{}}}", list.join(" "))
}

/// A sink that writes nothing, for an analysis whose rows are taken from its incident table afterwards
/// (a `--threads` worker, the differential fuzz target).
pub struct Discard;

impl IncidentSink for Discard {
    fn raised(&mut self, _: &Incident) -> std::io::Result<()> {
        Ok(())
    }

    fn finish(&mut self, _: &[&Incident]) -> std::io::Result<()> {
        Ok(())
    }
}

/// Forwards to another sink and keeps a copy of the final incidents for the reports written after the
/// run (sessions, timeline, HTML, the fail-on gate).
pub struct Collect<'a> {
    inner: &'a mut dyn IncidentSink,
    pub incidents: Vec<Incident>,
}

impl<'a> Collect<'a> {
    pub fn new(inner: &'a mut dyn IncidentSink) -> Self {
        Collect { inner, incidents: Vec::new() }
    }
}

impl IncidentSink for Collect<'_> {
    fn raised(&mut self, incident: &Incident) -> std::io::Result<()> {
        self.inner.raised(incident)
    }

    fn finish(&mut self, incidents: &[&Incident]) -> std::io::Result<()> {
        self.incidents = incidents.iter().map(|i| (*i).clone()).collect();
        self.inner.finish(incidents)
    }
}

/// Escapes text for HTML element content and attribute values.
pub(crate) fn html_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// An incident for the sinks' unit tests, with `evidence` (quotes, commas, newlines to escape).
#[cfg(test)]
pub(crate) fn test_incident(evidence: &str) -> crate::detect::Incident {
    crate::detect::Incident {
        first_seen: crate::time::Timestamp::from_secs_micros(1_700_000_000, 5),
        last_seen: crate::time::Timestamp::from_secs_micros(1_700_000_001, 0),
        rule_id: "MCP-SSE-DOWNGRADE".into(),
        rev: 1,
        severity: crate::detect::Severity::High,
        session_id: "abc".into(),
        client: "[::1]:5000".into(),
        server: "[::1]:8000".into(),
        host: "localhost:8000".into(),
        endpoint: "/mcp".into(),
        era: "streamable-2025 (2025-06-18)".into(),
        count: 2,
        frames: vec![3, 9],
        evidence: evidence.into(),
        action: "renegotiate: x".into(),
        session_key: "k".into(),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn wireshark_filter_lists_frames() {
        assert_eq!(wireshark_filter(&[3, 9, 12]), "frame.number in {3 9 12}");
        assert_eq!(wireshark_filter(&[]), "");
    }

    #[test]
    fn html_escape_escapes_markup() {
        assert_eq!(html_escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
    }
}
