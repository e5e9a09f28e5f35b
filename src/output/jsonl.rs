//! The incident report as JSON lines (`--format jsonl`), for log shippers and SIEMs in the style of
//! Suricata's EVE log: one JSON object per incident and line, keys in the CSV column order
//! (`csv::COLUMNS`, then the extra columns asked for: `wireshark_filter`, `sensor`, `pcap`), `count` a number and `frames` an array of
//! numbers. Lines are written whole and flushed, so a shipper tailing the file never reads half an object.
//!
//! Key order is fixed by writing each key ourselves (serde_json's map would sort them); values go through
//! serde_json for correct string escaping (RFC 8259 §7).

use std::io::Write;

use super::csv::{Mode, COLUMNS};
use super::IncidentSink;
use crate::detect::Incident;

pub struct JsonlSink<W: Write> {
    out: W,
    mode: Mode,
    extra: super::Extra,
}

impl<W: Write> JsonlSink<W> {
    pub fn new(out: W, mode: Mode) -> Self {
        JsonlSink { out, mode, extra: super::Extra::default() }
    }

    /// Adds a `wireshark_filter` key after the CSV columns' keys.
    pub fn with_wireshark_filter(mut self, on: bool) -> Self {
        self.extra.wireshark_filter = on;
        self
    }

    /// The keys after the CSV columns' keys (see [`super::Extra`]).
    pub fn with_extra(mut self, extra: super::Extra) -> Self {
        self.extra = extra;
        self
    }

    /// One line written and flushed at once (a live report), `pcap` naming the savefile(s) of its frames.
    pub fn write_now(&mut self, i: &Incident, pcap: &str) -> std::io::Result<()> {
        let l = self.line_in(i, pcap);
        self.out.write_all(l.as_bytes())?;
        self.out.flush()
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    /// One incident as one line of JSON, ending in `\n`.
    pub fn line(&self, i: &Incident) -> String {
        self.line_in(i, "")
    }

    fn line_in(&self, i: &Incident, pcap: &str) -> String {
        let s = |v: &str| serde_json::Value::from(v).to_string();
        let frames: Vec<String> = i.frames.iter().map(u64::to_string).collect();
        let values: [String; 14] = [
            s(&i.first_seen.rfc3339()),
            s(&i.last_seen.rfc3339()),
            s(&i.rule_id),
            s(i.severity.as_str()),
            s(&i.session_id),
            s(&i.client),
            s(&i.server),
            s(&i.host),
            s(&i.endpoint),
            s(&i.era),
            i.count.to_string(),
            format!("[{}]", frames.join(",")),
            s(&i.evidence),
            s(&i.action),
        ];
        let mut pairs: Vec<String> = COLUMNS.iter().zip(values.iter()).map(|(k, v)| format!("\"{k}\":{v}")).collect();
        for (k, v) in self.extra.names().into_iter().zip(self.extra.values(i, pcap)) {
            pairs.push(format!("\"{k}\":{}", s(&v)));
        }
        format!("{{{}}}\n", pairs.join(","))
    }
}

impl<W: Write> IncidentSink for JsonlSink<W> {
    fn raised(&mut self, incident: &Incident) -> std::io::Result<()> {
        if self.mode == Mode::AsRaised {
            let l = self.line(incident);
            self.out.write_all(l.as_bytes())?;
            self.out.flush()?;
        }
        Ok(())
    }

    fn finish(&mut self, incidents: &[&Incident]) -> std::io::Result<()> {
        if self.mode == Mode::AtEnd {
            for i in incidents {
                let l = self.line(i);
                self.out.write_all(l.as_bytes())?;
            }
        }
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn incident() -> Incident {
        crate::output::test_incident("a \"quoted\"\nsentence")
    }

    #[test]
    fn jsonl_keys_in_csv_order_with_typed_values() {
        let sink = JsonlSink::new(Vec::new(), Mode::AtEnd).with_wireshark_filter(true);
        let line = sink.line(&incident());
        assert!(line.ends_with("}\n") && line.lines().count() == 1, "{line}");
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["count"], serde_json::json!(2));
        assert_eq!(v["frames"], serde_json::json!([3, 9]));
        assert_eq!(v["evidence"], "a \"quoted\"\nsentence");
        assert_eq!(v["wireshark_filter"], "frame.number in {3 9}");
        // Key order: positions in the text follow COLUMNS.
        let mut last = 0;
        for k in COLUMNS.iter().chain(["wireshark_filter"].iter()) {
            let at = line.find(&format!("\"{k}\":")).unwrap();
            assert!(at >= last, "{k} out of order in {line}");
            last = at;
        }
    }

    #[test]
    fn jsonl_modes_write_once() {
        let i = incident();
        let mut at_end = JsonlSink::new(Vec::new(), Mode::AtEnd);
        at_end.raised(&i).unwrap();
        assert!(at_end.out.is_empty());
        at_end.finish(&[&i]).unwrap();
        assert_eq!(String::from_utf8(at_end.into_inner()).unwrap().lines().count(), 1);
        let mut raised = JsonlSink::new(Vec::new(), Mode::AsRaised);
        raised.raised(&i).unwrap();
        assert_eq!(raised.out.len(), raised.line(&i).len());
        raised.finish(&[&i]).unwrap();
        assert_eq!(String::from_utf8(raised.into_inner()).unwrap().lines().count(), 1);
    }
}
