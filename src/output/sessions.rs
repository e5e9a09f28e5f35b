//! The session inventory (`--sessions FILE`): one CSV row per MCP session seen, so an operator can see
//! which sessions were healthy, not only which were not. Rows are ordered by first seen, then session id
//! and key (the recorder's order), so the same capture always gives the same file.

use std::collections::BTreeMap;
use std::io::Write;

use crate::detect::Incident;
use crate::mcp::record::SessionRecord;

/// The columns, in order.
pub const COLUMNS: &[&str] = &[
    "session_id", "client", "server", "host", "endpoint", "era", "version", "first_seen", "last_seen", "requests",
    "responses_json", "responses_sse", "responses_other", "sse_streams", "fallbacks", "incidents", "content_codings",
];

/// `name:count` pairs joined by `;` (BTreeMap order: sorted by name).
fn counts<K: AsRef<str>>(m: &BTreeMap<K, u64>) -> String {
    m.iter().map(|(k, v)| format!("{}:{v}", k.as_ref())).collect::<Vec<_>>().join(";")
}

/// Incidents of one session by rule id, each with how many times it fired.
pub fn incidents_by_rule<'a>(record: &SessionRecord, incidents: &'a [Incident]) -> BTreeMap<&'a str, u64> {
    let mut m = BTreeMap::new();
    for i in incidents.iter().filter(|i| i.session_key == record.unique) {
        *m.entry(i.rule_id.as_str()).or_default() += i.count;
    }
    m
}

/// Writes the inventory CSV.
pub fn write<W: Write>(out: W, records: &[SessionRecord], incidents: &[Incident]) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(COLUMNS)?;
    for r in records {
        let row = [
            r.session_id.clone(),
            r.client.map(|c| c.to_string()).unwrap_or_default(),
            r.server.to_string(),
            r.host.clone(),
            r.endpoint.clone(),
            r.era.as_str().to_string(),
            r.version.clone().unwrap_or_default(),
            r.first_seen.rfc3339(),
            r.last_seen.rfc3339(),
            r.requests.to_string(),
            r.resp_json.to_string(),
            r.resp_sse.to_string(),
            r.resp_other.to_string(),
            counts(&r.streams),
            r.fallbacks.to_string(),
            counts(&incidents_by_rule(r, incidents)),
            counts(&r.codings),
        ];
        w.write_record(&row)?;
    }
    w.flush()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn counts_are_sorted_name_colon_count() {
        let mut m = BTreeMap::new();
        m.insert("ordered".to_string(), 1);
        m.insert("none".to_string(), 3);
        assert_eq!(counts(&m), "none:3;ordered:1");
        assert_eq!(counts(&BTreeMap::<String, u64>::new()), "");
    }
}
