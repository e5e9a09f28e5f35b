//! The incident report of a live sensor: each row written and flushed as it is raised, in CSV or JSON
//! lines, with a `sensor` column and, with `-w`, a `pcap` column naming the savefile its frames are numbered
//! in; reopened on SIGHUP so logrotate can move it (Suricata's and Zeek's convention).
//!
//! Owns: [`LiveReport`] (the file or standard output, the row format, the map from the sensor's frame
//! numbers to savefiles and their own numbering, the occurrence counts for the summary). Must not: know
//! libpcap; the capture loop tells it when a savefile starts.
//!
//! Frames: the analyzer numbers packets from 1 since the sensor started. Each `-w` file numbers its own
//! packets from 1, so a row's frames are rewritten to the numbering of their file and the `pcap` column
//! names it (one name when every frame is in one file, else one name per frame, in the order of `frames`).

use std::collections::BTreeMap;
use std::fs::OpenOptions;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::csv::{CsvSink, Mode};
use super::jsonl::JsonlSink;
use super::{Extra, Format, IncidentSink};
use crate::detect::Incident;

enum Rows {
    // ALLOC: the CSV writer's state, once per report (boxed: it is most of the enum's size)
    Csv(Box<CsvSink<Box<dyn Write>>>),
    Jsonl(JsonlSink<Box<dyn Write>>),
}

/// A live run's incident report.
pub struct LiveReport {
    /// `None`: standard output.
    path: Option<PathBuf>,
    format: Format,
    extra: Extra,
    rows: Rows,
    occurrences: BTreeMap<String, u64>,
    // ALLOC: one entry per -w file started (rotation, SIGHUP), a few per day on a sensor
    files: Vec<(u64, String)>,
}

impl LiveReport {
    /// Opens the report: a file for append (a restarted sensor or a reopened file goes on where it was;
    /// a CSV header is written only when the file is empty), or standard output. Nothing is written
    /// until [`LiveReport::start`].
    pub fn open(path: Option<&Path>, format: Format, extra: Extra) -> std::io::Result<LiveReport> {
        let rows = open_rows(path, format, &extra)?;
        Ok(LiveReport { path: path.map(Path::to_path_buf), format, extra, rows, occurrences: BTreeMap::new(), files: Vec::new() })
    }

    /// The capture is open: the CSV header goes out at once (unless the file had one), so a reader
    /// tailing the report knows the columns before any incident.
    pub fn start(&mut self) -> std::io::Result<()> {
        match &mut self.rows {
            Rows::Csv(c) => c.start(),
            Rows::Jsonl(_) => Ok(()),
        }
    }

    /// The name errors carry.
    pub fn name(&self) -> String {
        self.path.as_ref().map_or_else(|| "<stdout>".to_string(), |p| p.display().to_string())
    }

    /// SIGHUP: the file was moved (or not): rows from now on go to a file opened afresh at the same path.
    /// Every row raised before was written and flushed to the old one, so none is lost or written twice.
    pub fn reopen(&mut self) -> std::io::Result<()> {
        if self.path.is_some() {
            self.flush()?;
            self.rows = open_rows(self.path.as_deref(), self.format, &self.extra)?;
            self.start()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.rows {
            Rows::Csv(c) => c.finish(&[]),
            Rows::Jsonl(j) => j.finish(&[]),
        }
    }

    /// A savefile starts with the sensor's frame `first` as its frame 1.
    pub fn savefile_started(&mut self, first: u64, name: String) {
        self.files.push((first, name));
    }

    /// Occurrences by rule at the end of the run (rows were written when first raised).
    pub fn occurrences(&self) -> &BTreeMap<String, u64> {
        &self.occurrences
    }

    /// The incident with its frames numbered as in their savefiles, and the `pcap` column's value.
    fn localise(&self, i: &Incident) -> (Incident, String) {
        if self.files.is_empty() {
            return (i.clone(), String::new());
        }
        let mut local = i.clone();
        let mut names: Vec<&str> = Vec::with_capacity(i.frames.len());
        for f in &mut local.frames {
            // The last file started at or before the frame (a frame before the first file keeps its number).
            let at = self.files.partition_point(|(first, _)| *first <= *f);
            if let Some((first, name)) = at.checked_sub(1).and_then(|k| self.files.get(k)) {
                *f = *f - first + 1;
                names.push(name);
            }
        }
        let pcap = match names.first() {
            Some(one) if names.iter().all(|n| n == one) => one.to_string(),
            // Frames in more than one file: a name per frame, aligned with `frames`.
            _ => names.join(";"),
        };
        (local, pcap)
    }
}

fn open_rows(path: Option<&Path>, format: Format, extra: &Extra) -> std::io::Result<Rows> {
    let (out, present): (Box<dyn Write>, bool) = match path {
        Some(p) => {
            let f = OpenOptions::new().create(true).append(true).open(p)?;
            let present = f.metadata().map(|m| m.len() > 0).unwrap_or(false);
            (Box::new(BufWriter::new(f)), present)
        }
        None => (Box::new(BufWriter::new(std::io::stdout())), false),
    };
    Ok(match format {
        Format::Csv => {
            let csv = CsvSink::new(out, Mode::AsRaised).with_extra(extra.clone());
            Rows::Csv(Box::new(if present { csv.header_already_written() } else { csv }))
        }
        Format::Jsonl => Rows::Jsonl(JsonlSink::new(out, Mode::AsRaised).with_extra(extra.clone())),
    })
}

impl IncidentSink for LiveReport {
    fn raised(&mut self, incident: &Incident) -> std::io::Result<()> {
        let (row, pcap) = self.localise(incident);
        match &mut self.rows {
            Rows::Csv(c) => c.write_now(&row, &pcap),
            Rows::Jsonl(j) => j.write_now(&row, &pcap),
        }
    }

    fn finish(&mut self, incidents: &[&Incident]) -> std::io::Result<()> {
        for i in incidents {
            *self.occurrences.entry(i.rule_id.clone()).or_default() += i.count;
        }
        self.flush()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let p = std::env::temp_dir().join(format!("mcptap-livereport-{}-{name}", std::process::id()));
        std::fs::remove_file(&p).ok();
        p
    }

    fn incident(frames: &[u64]) -> Incident {
        let mut i = crate::output::test_incident("e");
        i.frames = frames.to_vec();
        i
    }

    #[test]
    fn reopen_after_a_move_loses_and_repeats_no_row() {
        let (path, moved) = (scratch("r.csv"), scratch("r.csv.1"));
        let extra = Extra { sensor: Some("tap-1".into()), ..Extra::default() };
        let mut r = LiveReport::open(Some(&path), Format::Csv, extra).unwrap();
        r.start().unwrap();
        r.raised(&incident(&[3])).unwrap();
        std::fs::rename(&path, &moved).unwrap();
        // Written after the move but before SIGHUP: still the old file (logrotate's postrotate comes next).
        r.raised(&incident(&[4])).unwrap();
        r.reopen().unwrap();
        r.raised(&incident(&[5])).unwrap();
        r.finish(&[]).unwrap();
        let old = std::fs::read_to_string(&moved).unwrap();
        let new = std::fs::read_to_string(&path).unwrap();
        assert_eq!(old.lines().count(), 3, "{old}");
        assert!(old.lines().next().unwrap().ends_with(",action,sensor"), "{old}");
        assert!(old.lines().nth(1).unwrap().contains(",3,") && old.lines().nth(2).unwrap().contains(",4,"), "{old}");
        assert_eq!(new.lines().count(), 2, "a header, then the one new row: {new}");
        assert!(new.lines().nth(1).unwrap().ends_with(",tap-1") && new.contains(",5,"), "{new}");
        std::fs::remove_file(&path).ok();
        std::fs::remove_file(&moved).ok();
    }

    #[test]
    fn frames_are_numbered_in_their_savefile_and_named() {
        let path = scratch("f.jsonl");
        let extra = Extra { sensor: Some("s".into()), pcap: true, ..Extra::default() };
        let mut r = LiveReport::open(Some(&path), Format::Jsonl, extra).unwrap();
        r.savefile_started(1, "cap.pcap".into());
        r.savefile_started(101, "cap.pcap1".into());
        r.raised(&incident(&[5, 9])).unwrap();
        r.raised(&incident(&[99, 102])).unwrap();
        r.raised(&incident(&[150])).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let rows: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!((rows[0]["frames"].clone(), rows[0]["pcap"].clone()), (serde_json::json!([5, 9]), serde_json::json!("cap.pcap")));
        assert_eq!((rows[1]["frames"].clone(), rows[1]["pcap"].clone()), (serde_json::json!([99, 2]), serde_json::json!("cap.pcap;cap.pcap1")));
        assert_eq!((rows[2]["frames"].clone(), rows[2]["pcap"].clone()), (serde_json::json!([50]), serde_json::json!("cap.pcap1")));
        assert_eq!(rows[2]["sensor"], "s");
        std::fs::remove_file(&path).ok();
    }
}
