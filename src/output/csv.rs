//! The CSV report of INCIDENTS.md, column for column, RFC 4180 quoting by the `csv` crate. Rows are
//! written whole and flushed, so a reader never sees half a row.

use std::io::Write;

use super::IncidentSink;
use crate::detect::Incident;

/// The columns, in order (INCIDENTS.md "CSV report"). Changing this breaks every golden file on purpose.
pub const COLUMNS: &[&str] = &[
    "first_seen", "last_seen", "rule_id", "severity", "session_id", "client", "server", "host", "endpoint", "era",
    "count", "frames", "evidence", "action",
];

/// When rows are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// All rows at the end, sorted, with final counts (offline: byte-identical for the same capture).
    AtEnd,
    /// Each row as soon as its incident is raised (live sensor: append-only stream).
    AsRaised,
}

pub struct CsvSink<W: Write> {
    writer: csv::Writer<W>,
    mode: Mode,
    header_written: bool,
    /// Columns after the INCIDENTS.md ones (so the contract's columns keep their positions).
    extra: super::Extra,
}

impl<W: Write> CsvSink<W> {
    pub fn new(out: W, mode: Mode) -> Self {
        CsvSink { writer: csv::WriterBuilder::new().has_headers(false).from_writer(out), mode, header_written: false, extra: super::Extra::default() }
    }

    /// Adds the `wireshark_filter` column after the INCIDENTS.md columns (so the contract's columns keep
    /// their positions).
    pub fn with_wireshark_filter(mut self, on: bool) -> Self {
        self.extra.wireshark_filter = on;
        self
    }

    /// The columns after the fixed ones (see [`super::Extra`]).
    pub fn with_extra(mut self, extra: super::Extra) -> Self {
        self.extra = extra;
        self
    }

    fn header(&mut self) -> std::io::Result<()> {
        if !self.header_written {
            let mut cols: Vec<&str> = COLUMNS.to_vec();
            cols.extend(self.extra.names());
            self.writer.write_record(cols)?;
            self.header_written = true;
        }
        Ok(())
    }

    fn row(&mut self, i: &Incident, pcap: &str) -> std::io::Result<()> {
        let frames: Vec<String> = i.frames.iter().map(u64::to_string).collect();
        let (first, last, count, frames) = (i.first_seen.rfc3339(), i.last_seen.rfc3339(), i.count.to_string(), frames.join(";"));
        let mut fields: Vec<&str> = vec![
            first.as_str(),
            last.as_str(),
            i.rule_id.as_str(),
            i.severity.as_str(),
            i.session_id.as_str(),
            i.client.as_str(),
            i.server.as_str(),
            i.host.as_str(),
            i.endpoint.as_str(),
            i.era.as_str(),
            count.as_str(),
            frames.as_str(),
            i.evidence.as_str(),
            i.action.as_str(),
        ];
        let extra = self.extra.values(i, pcap);
        fields.extend(extra.iter().map(String::as_str));
        self.writer.write_record(fields)?;
        Ok(())
    }

    /// One row written and flushed at once (a live report), `pcap` naming the savefile(s) of its frames.
    pub fn write_now(&mut self, i: &Incident, pcap: &str) -> std::io::Result<()> {
        self.header()?;
        self.row(i, pcap)?;
        self.writer.flush()
    }

    /// For a report that already holds rows (a restarted live sensor appending to its file): no second
    /// header.
    pub fn header_already_written(mut self) -> Self {
        self.header_written = true;
        self
    }

    /// Writes the header now, flushed (a live sensor announces its columns before the first incident).
    pub fn start(&mut self) -> std::io::Result<()> {
        self.header()?;
        self.writer.flush()
    }

    pub fn into_inner(self) -> Option<W> {
        self.writer.into_inner().ok()
    }
}

impl<W: Write> IncidentSink for CsvSink<W> {
    fn raised(&mut self, incident: &Incident) -> std::io::Result<()> {
        if self.mode == Mode::AsRaised {
            self.header()?;
            self.row(incident, "")?;
            self.writer.flush()?;
        }
        Ok(())
    }

    fn finish(&mut self, incidents: &[&Incident]) -> std::io::Result<()> {
        self.header()?;
        if self.mode == Mode::AtEnd {
            for i in incidents {
                self.row(i, "")?;
            }
        }
        self.writer.flush()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn incident() -> Incident {
        crate::output::test_incident("a \"quoted\", sentence")
    }

    #[test]
    fn csv_header_and_row_quoted() {
        let mut sink = CsvSink::new(Vec::new(), Mode::AtEnd);
        let i = incident();
        sink.raised(&i).unwrap();
        sink.finish(&[&i]).unwrap();
        let text = String::from_utf8(sink.into_inner().unwrap()).unwrap();
        assert_eq!(
            text,
            "first_seen,last_seen,rule_id,severity,session_id,client,server,host,endpoint,era,count,frames,evidence,action\n\
             2023-11-14T22:13:20.000005Z,2023-11-14T22:13:21.000000Z,MCP-SSE-DOWNGRADE,high,abc,[::1]:5000,[::1]:8000,localhost:8000,/mcp,streamable-2025 (2025-06-18),2,3;9,\"a \"\"quoted\"\", sentence\",renegotiate: x\n"
        );
    }

    #[test]
    fn csv_as_raised_writes_immediately_and_only_once() {
        let mut sink = CsvSink::new(Vec::new(), Mode::AsRaised);
        let i = incident();
        sink.raised(&i).unwrap();
        sink.finish(&[&i]).unwrap();
        let text = String::from_utf8(sink.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().count(), 2);
    }

    #[test]
    fn csv_wireshark_filter_is_the_last_column() {
        let mut sink = CsvSink::new(Vec::new(), Mode::AtEnd).with_wireshark_filter(true);
        let i = incident();
        sink.finish(&[&i]).unwrap();
        let text = String::from_utf8(sink.into_inner().unwrap()).unwrap();
        let mut lines = text.lines();
        assert!(lines.next().unwrap().ends_with(",action,wireshark_filter"));
        assert!(lines.next().unwrap().ends_with(",renegotiate: x,frame.number in {3 9}"));
    }

    #[test]
        fn csv_appending_sink_writes_no_second_header() {
        let mut sink = CsvSink::new(Vec::new(), Mode::AsRaised).header_already_written();
        let i = incident();
        sink.raised(&i).unwrap();
        sink.finish(&[&i]).unwrap();
        let text = String::from_utf8(sink.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().count(), 1);
        assert!(text.starts_with("2023-11-14T22:13:20.000005Z,"), "{text}");
    }

    #[test]
    fn csv_start_writes_header_once() {
        let mut sink = CsvSink::new(Vec::new(), Mode::AsRaised);
        sink.start().unwrap();
        sink.raised(&incident()).unwrap();
        sink.finish(&[]).unwrap();
        let text = String::from_utf8(sink.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().filter(|l| l.starts_with("first_seen,")).count(), 1);
        assert_eq!(text.lines().count(), 2);
    }

    #[test]
    fn csv_empty_report_has_header() {
        let mut sink = CsvSink::new(Vec::new(), Mode::AtEnd);
        sink.finish(&[]).unwrap();
        assert_eq!(String::from_utf8(sink.into_inner().unwrap()).unwrap().lines().count(), 1);
    }
}
