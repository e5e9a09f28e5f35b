//! The shards' results made one: counters summed, session records and incident rows put in the order one
//! thread would give them. Every struct is taken apart field by field, so a counter added later cannot be
//! forgotten here without the build failing.

use std::collections::BTreeMap;

use crate::analyzer::{HttpCounters, Summary};
use crate::detect::{report_order, Incident, MERGED_AT_CAP, MAX_FRAMES};
use crate::mcp::McpStats;
use crate::reassembly::ReassemblyStats;
use crate::tls::TlsStats;

fn add(into: &mut u64, n: u64) {
    *into = into.saturating_add(n);
}

fn add_map<K: Ord>(into: &mut BTreeMap<K, u64>, from: BTreeMap<K, u64>) {
    for (k, n) in from {
        add(into.entry(k).or_default(), n);
    }
}

/// Adds one shard's share of the summary (what `Back::finish` and the front half's reassembly, HTTP and
/// TLS counters filled) to `into`. The packet-level fields and capture counters are the dispatcher's and
/// are left alone.
pub fn absorb(into: &mut Summary, shard: Summary) {
    let Summary {
        packets: _,
        bytes: _,
        tcp_segments: _,
        decapsulated: _,
        skipped: _,
        first_ts: _,
        last_ts: _,
        capture: _,
        link_types: _,
        tcp,
        http,
        mcp,
        // Counted again from the merged rows (`incidents`): overflow rows of shards fold into one.
        incidents_by_rule: _,
        rule_eval_errors,
        sessions,
        sessions_unrecorded,
        tls,
        incidents_merged,
    } = shard;
    absorb_tcp(&mut into.tcp, tcp);
    absorb_http(&mut into.http, http);
    absorb_mcp(&mut into.mcp, mcp);
    add(&mut into.rule_eval_errors, rule_eval_errors);
    into.sessions.extend(sessions);
    into.sessions.sort_by(crate::mcp::record::report_order);
    add(&mut into.sessions_unrecorded, sessions_unrecorded);
    absorb_tls(&mut into.tls, tls);
    add(&mut into.incidents_merged, incidents_merged);
}

fn absorb_tcp(into: &mut ReassemblyStats, s: ReassemblyStats) {
    let ReassemblyStats {
        connections,
        midstream_pickups,
        gaps,
        missed_bytes,
        retransmitted_bytes,
        retransmitted_segments,
        out_of_order_segments,
        overlap_conflicts,
        ooo_cap_hits,
        connection_cap_hits,
        unacked_silences,
        one_way_connections,
        after_close_segments,
        after_close_bytes,
        roles_guessed,
        roles_unroutable,
        damaged_segments,
        damaged_taken,
        damaged_lost,
    } = s;
    add(&mut into.connections, connections);
    add(&mut into.midstream_pickups, midstream_pickups);
    add(&mut into.gaps, gaps);
    add(&mut into.missed_bytes, missed_bytes);
    add(&mut into.retransmitted_bytes, retransmitted_bytes);
    add(&mut into.retransmitted_segments, retransmitted_segments);
    add(&mut into.out_of_order_segments, out_of_order_segments);
    add(&mut into.overlap_conflicts, overlap_conflicts);
    add(&mut into.ooo_cap_hits, ooo_cap_hits);
    add(&mut into.connection_cap_hits, connection_cap_hits);
    add(&mut into.unacked_silences, unacked_silences);
    add(&mut into.one_way_connections, one_way_connections);
    add(&mut into.after_close_segments, after_close_segments);
    add(&mut into.after_close_bytes, after_close_bytes);
    add(&mut into.roles_guessed, roles_guessed);
    add(&mut into.roles_unroutable, roles_unroutable);
    add(&mut into.damaged_segments, damaged_segments);
    add(&mut into.damaged_taken, damaged_taken);
    add(&mut into.damaged_lost, damaged_lost);
}

fn absorb_http(into: &mut HttpCounters, s: HttpCounters) {
    let HttpCounters { requests, responses, sse_events, anomalies, responses_by_type, coded, undecoded, h2, responses_lost, requests_lost, tunnels, tunnels_opaque } = s;
    add(&mut into.requests, requests);
    add(&mut into.responses, responses);
    add(&mut into.sse_events, sse_events);
    add_map(&mut into.anomalies, anomalies);
    add_map(&mut into.responses_by_type, responses_by_type);
    add_map(&mut into.coded, coded);
    add_map(&mut into.undecoded, undecoded);
    into.h2.merge(&h2);
    add(&mut into.responses_lost, responses_lost);
    add(&mut into.requests_lost, requests_lost);
    add(&mut into.tunnels, tunnels);
    add(&mut into.tunnels_opaque, tunnels_opaque);
}

fn absorb_mcp(into: &mut McpStats, s: McpStats) {
    let McpStats {
        jsonrpc_messages,
        not_jsonrpc,
        bodies_over_cap,
        sse_events,
        session_cap_hits,
        pending_cap_hits,
        sessions_expired,
        sessions_by_era,
    } = s;
    add(&mut into.jsonrpc_messages, jsonrpc_messages);
    add(&mut into.not_jsonrpc, not_jsonrpc);
    add(&mut into.bodies_over_cap, bodies_over_cap);
    add(&mut into.sse_events, sse_events);
    add(&mut into.session_cap_hits, session_cap_hits);
    add(&mut into.pending_cap_hits, pending_cap_hits);
    add(&mut into.sessions_expired, sessions_expired);
    add_map(&mut into.sessions_by_era, sessions_by_era);
}

fn absorb_tls(into: &mut TlsStats, s: TlsStats) {
    let TlsStats {
        connections,
        decrypted,
        undecrypted,
        decrypted_bytes,
        undecrypted_bytes,
        early_data_bytes,
        http2_connections,
        keylog_secrets,
        keylog_malformed,
        key_waits,
        key_wait_resumes,
        key_wait_cap_hits,
    } = s;
    add(&mut into.connections, connections);
    add(&mut into.decrypted, decrypted);
    add_map(&mut into.undecrypted, undecrypted);
    add(&mut into.decrypted_bytes, decrypted_bytes);
    add(&mut into.undecrypted_bytes, undecrypted_bytes);
    add(&mut into.early_data_bytes, early_data_bytes);
    add(&mut into.http2_connections, http2_connections);
    // Every shard reads the whole key log and every secret inside the capture: the same count each.
    into.keylog_secrets = into.keylog_secrets.max(keylog_secrets);
    into.keylog_malformed = into.keylog_malformed.max(keylog_malformed);
    add(&mut into.key_waits, key_waits);
    add(&mut into.key_wait_resumes, key_wait_resumes);
    add(&mut into.key_wait_cap_hits, key_wait_cap_hits);
}

/// Every shard's incident rows in report order. A rule's rows merged at the incident cap (session `*`,
/// one per shard that reached its share of the cap) become one row, as one thread keeps one.
pub fn incidents(shards: Vec<Vec<Incident>>) -> Vec<Incident> {
    let mut rows: Vec<Incident> = Vec::new();
    let mut overflow: BTreeMap<String, usize> = BTreeMap::new();
    for row in shards.into_iter().flatten() {
        let merged_row = row.session_id == "*" && row.evidence.ends_with(MERGED_AT_CAP);
        match overflow.get(&row.rule_id).copied().filter(|_| merged_row) {
            Some(i) => {
                if let Some(kept) = rows.get_mut(i) {
                    fold(kept, row);
                }
            }
            None => {
                if merged_row {
                    overflow.insert(row.rule_id.clone(), rows.len());
                }
                rows.push(row);
            }
        }
    }
    rows.sort_by(report_order);
    rows
}

/// Rows per rule, as `Incidents::by_rule` counts them on one thread.
pub fn by_rule(rows: &[Incident]) -> BTreeMap<String, u64> {
    let mut m = BTreeMap::new();
    for r in rows {
        add(m.entry(r.rule_id.clone()).or_default(), 1);
    }
    m
}

/// Adds `other`'s firings to `kept` (two overflow rows of one rule).
fn fold(kept: &mut Incident, other: Incident) {
    if (other.first_seen, other.frames.first()) < (kept.first_seen, kept.frames.first()) {
        kept.first_seen = other.first_seen;
        kept.client = other.client;
        kept.server = other.server;
        kept.host = other.host;
        kept.endpoint = other.endpoint;
        kept.era = other.era;
        kept.session_key = other.session_key;
    }
    kept.last_seen = kept.last_seen.max(other.last_seen);
    kept.count = kept.count.saturating_add(other.count);
    kept.frames.extend(other.frames);
    kept.frames.sort_unstable();
    kept.frames.dedup();
    kept.frames.truncate(MAX_FRAMES);
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::time::Timestamp;

    fn row(rule: &str, session: &str, first: i64, frame: u64) -> Incident {
        let mut i = crate::output::test_incident("e");
        i.rule_id = rule.into();
        i.session_id = session.into();
        i.session_key = format!("k {session}");
        i.first_seen = Timestamp(first);
        i.last_seen = Timestamp(first);
        i.frames = vec![frame];
        i.count = 1;
        i
    }

    #[test]
    fn rows_of_all_shards_come_out_in_report_order() {
        let a = vec![row("R1", "s1", 5, 50), row("R2", "s2", 1, 10)];
        let b = vec![row("R1", "s3", 3, 30), row("R1", "s4", 5, 40)];
        let got: Vec<(String, u64)> = incidents(vec![a, b]).into_iter().map(|i| (i.session_id, i.frames[0])).collect();
        let want = [("s2", 10), ("s3", 30), ("s4", 40), ("s1", 50)];
        assert_eq!(got, want.map(|(s, f)| (s.to_string(), f)));
    }

    #[test]
    fn overflow_rows_of_one_rule_fold_into_one() {
        let over = |first: i64, frame: u64, count: u64| {
            let mut r = row("R1", "*", first, frame);
            r.evidence.push_str(MERGED_AT_CAP);
            r.count = count;
            r.last_seen = Timestamp(first + 10);
            r
        };
        let got = incidents(vec![vec![over(7, 70, 3), row("R1", "s1", 1, 1)], vec![over(4, 40, 5)], vec![over(9, 90, 1)]]);
        assert_eq!(got.len(), 2);
        let o = &got[1];
        assert_eq!((o.session_id.as_str(), o.count, o.first_seen, o.last_seen), ("*", 9, Timestamp(4), Timestamp(19)));
        assert_eq!(o.frames, vec![40, 70, 90]);
    }
}
