//! The reports people act on, end to end over the samples: JSON lines, the Wireshark filter column, the
//! session inventory, one session's timeline, the CI gate and the progress bar's silence off a terminal.

use crate::common::*;

/// The CSV report of a sample, parsed (header included).
fn csv_of(sample: &str, extra: &[&str]) -> Vec<Vec<String>> {
    let mut args = vec!["-r", sample, "-q"];
    args.extend_from_slice(extra);
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    csv_rows(&stdout(&o))
}


#[test]
fn jsonl_has_the_csv_fields_in_order_for_every_sample() {
    for sample in samples() {
        let s = sample.to_str().unwrap();
        let csv = csv_of(s, &[]);
        let o = run(&["-r", s, "-q", "--format", "jsonl"]);
        assert!(o.status.success(), "{s}: {}", stderr(&o));
        let text = stdout(&o);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), csv.len() - 1, "{s}: one JSON object per CSV row\n{text}");
        let header = &csv[0];
        for (line, row) in lines.iter().zip(csv.iter().skip(1)) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{s}: {e}: {line}"));
            let obj = v.as_object().unwrap();
            // Key order in the text is the CSV column order.
            let mut at = 0;
            for k in header {
                let pos = line.find(&format!("\"{k}\":")).unwrap_or_else(|| panic!("{s}: key {k} missing in {line}"));
                assert!(pos >= at, "{s}: key {k} out of order in {line}");
                at = pos;
            }
            assert_eq!(obj.len(), header.len(), "{s}: {line}");
            for (k, cell) in header.iter().zip(row) {
                let val = &obj[k.as_str()];
                match k.as_str() {
                    "count" => assert_eq!(val.as_u64().unwrap().to_string(), *cell, "{s}"),
                    "frames" => {
                        let frames: Vec<String> = val.as_array().unwrap().iter().map(|f| f.as_u64().unwrap().to_string()).collect();
                        assert_eq!(frames.join(";"), *cell, "{s}");
                    }
                    _ => assert_eq!(val.as_str().unwrap(), cell, "{s}: {k}"),
                }
            }
        }
    }
}

#[test]
fn wireshark_filter_column_matches_frames_in_csv_and_jsonl() {
    let csv = csv_of("samples/downgrade.pcap", &["--wireshark-filter"]);
    assert_eq!(csv[0].last().unwrap(), "wireshark_filter");
    assert_eq!(csv[0].len(), 15);
    let frames_col = csv[0].iter().position(|c| c == "frames").unwrap();
    assert!(csv.len() > 1);
    for row in &csv[1..] {
        let want = format!("frame.number in {{{}}}", row[frames_col].replace(';', " "));
        assert_eq!(row.last().unwrap(), &want);
    }
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--format", "jsonl", "--wireshark-filter"]);
    let text = stdout(&o);
    let v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let frames: Vec<String> = v["frames"].as_array().unwrap().iter().map(|f| f.to_string()).collect();
    assert_eq!(v["wireshark_filter"], format!("frame.number in {{{}}}", frames.join(" ")));
    assert!(text.lines().next().unwrap().trim_end().ends_with(&format!("\"wireshark_filter\":\"{}\"}}", v["wireshark_filter"].as_str().unwrap())));
}

#[test]
fn sessions_inventory_lists_each_session_with_counters_and_incidents() {
    let path_dir = Scratch::new("reports-downgrade-sessions.csv");
    let path = path_dir.join("downgrade-sessions.csv");
    let csv = csv_of("samples/downgrade.pcap", &["--sessions", path.to_str().unwrap()]);
    let inv = csv_rows(&std::fs::read_to_string(&path).unwrap());
    let h = &inv[0];
    let col = |name: &str| h.iter().position(|c| c == name).unwrap_or_else(|| panic!("no column {name}"));
    assert_eq!(h[0], "session_id");
    // The downgraded session from the incident report is in the inventory, with its incident.
    let sid = &csv[1][csv[0].iter().position(|c| c == "session_id").unwrap()];
    let row = inv.iter().find(|r| &r[0] == sid).unwrap_or_else(|| panic!("session {sid} not in inventory: {inv:?}"));
    assert_eq!(row[col("incidents")], "MCP-SSE-DOWNGRADE:1");
    assert!(row[col("era")].starts_with("streamable-2025"), "{row:?}");
    assert_eq!(row[col("version")], "2025-11-25");
    let json: u64 = row[col("responses_json")].parse().unwrap();
    let sse: u64 = row[col("responses_sse")].parse().unwrap();
    let other: u64 = row[col("responses_other")].parse().unwrap();
    assert!(json >= 1 && sse >= 1, "{row:?}");
    assert_eq!(row[col("requests")].parse::<u64>().unwrap(), json + sse + other);
    // The downgrade's streams carried no ids: the cursor column says so.
    assert!(row[col("sse_streams")].contains("none:"), "{row:?}");
    assert!(row[col("first_seen")] <= row[col("last_seen")]);

    // Deterministic, ordered by first_seen; a clean capture lists sessions with no incidents.
    let path2_dir = Scratch::new("reports-clean-sessions.csv");
    let path2 = path2_dir.join("clean-sessions.csv");
    csv_of("samples/sse-ids-clean.pcap", &["--sessions", path2.to_str().unwrap()]);
    let a = std::fs::read_to_string(&path2).unwrap();
    csv_of("samples/sse-ids-clean.pcap", &["--sessions", path2.to_str().unwrap()]);
    assert_eq!(a, std::fs::read_to_string(&path2).unwrap());
    let rows = csv_rows(&a);
    assert!(rows.len() >= 2, "{a}");
    let fs = col("first_seen");
    assert!(rows[1..].windows(2).all(|w| w[0][fs] <= w[1][fs]), "{a}");
    assert!(rows[1..].iter().all(|r| r[col("incidents")].is_empty()), "{a}");
    assert!(rows[1..].iter().any(|r| r[col("sse_streams")].contains("ordered:")), "{a}");
}

#[test]
fn sessions_inventory_counts_fallbacks() {
    let path_dir = Scratch::new("reports-fallback-sessions.csv");
    let path = path_dir.join("fallback-sessions.csv");
    csv_of("samples/inc-legacy-fallback.pcap", &["--sessions", path.to_str().unwrap()]);
    let inv = csv_rows(&std::fs::read_to_string(&path).unwrap());
    let col = inv[0].iter().position(|c| c == "fallbacks").unwrap();
    let total: u64 = inv[1..].iter().map(|r| r[col].parse::<u64>().unwrap()).sum();
    assert!(total >= 1, "{inv:?}");
}

/// HTTP/2 (issue 16): each request line names the stream that carried it, and a gzip-coded reply behind nginx
/// reads as its decoded events.
#[test]
fn timeline_names_the_http2_stream_of_each_request() {
    let (pcap, keys) = ("samples/tls-13-h2-nginx-gzip-downgrade.pcap", "samples/tls-13-h2-nginx-gzip-downgrade.keys");
    let csv = csv_of(pcap, &["--keylog", keys]);
    let sid = csv[1][csv[0].iter().position(|c| c == "session_id").unwrap()].clone();
    let o = run(&["-r", pcap, "--keylog", keys, "-q", "--timeline", &sid]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("-> POST /mcp  initialize  [h2 stream 1]"), "{text}");
    assert!(text.contains("-> GET /mcp  [h2 stream 5]"), "{text}");
    let shift = text.lines().find(|l| l.contains("=> shift")).unwrap_or_else(|| panic!("{text}"));
    assert!(shift.contains("<- 200 text/event-stream (gzip)"), "{shift}");
    assert!(text.contains("sse id=- event=message  result #4"), "{text}");
    // HTTP/1.1 request lines name no stream.
    let csv = csv_of("samples/downgrade.pcap", &[]);
    let sid = csv[1][csv[0].iter().position(|c| c == "session_id").unwrap()].clone();
    let h1 = stdout(&run(&["-r", "samples/downgrade.pcap", "-q", "--timeline", &sid]));
    assert!(h1.contains("-> POST /mcp  initialize\n") && !h1.contains("[h2 stream"), "{h1}");
}

#[test]
fn timeline_shows_the_downgrade_moment() {
    let csv = csv_of("samples/downgrade.pcap", &[]);
    let sid = csv[1][csv[0].iter().position(|c| c == "session_id").unwrap()].clone();
    let frames = csv[1][csv[0].iter().position(|c| c == "frames").unwrap()].clone();
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--timeline", &sid]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(!text.contains("first_seen,last_seen"), "the timeline replaces the CSV on stdout:\n{text}");
    assert!(text.starts_with(&format!("session {sid} ")), "{text}");
    let shift = text.lines().find(|l| l.contains("=> shift application/json -> text/event-stream")).unwrap_or_else(|| panic!("{text}"));
    assert!(shift.contains("!!") && shift.contains("<- 200 text/event-stream"), "{shift}");
    let inc = text.lines().position(|l| l.contains("INCIDENT MCP-SSE-DOWNGRADE (high)")).unwrap_or_else(|| panic!("{text}"));
    assert!(text.lines().nth(inc).unwrap().contains(&format!("frames {frames}")), "{text}");
    // The incident comes after the shift line, and the lines are in frame order around it.
    let shift_at = text.lines().position(|l| l.contains("=> shift")).unwrap();
    assert!(inc > shift_at, "{text}");
    assert!(text.contains("-> POST /mcp  initialize"), "{text}");
    assert!(text.contains("sse id=-"), "{text}");
    // With -o the CSV still goes to the file.
    let path_dir = Scratch::new("reports-timeline.csv");
    let path = path_dir.join("timeline.csv");
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--timeline", &sid, "-o", path.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), text);
    assert_eq!(csv_rows(&std::fs::read_to_string(&path).unwrap()), csv);
}

#[test]
fn timeline_of_unknown_session_is_exit_2() {
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--timeline", "no-such-session"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--timeline no-such-session: no MCP session"), "{}", stderr(&o));
}

#[test]
fn fail_on_gates_by_severity_after_writing_the_report() {
    // downgrade.pcap has a high incident.
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--fail-on", "high"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("MCP-SSE-DOWNGRADE"), "report written before the gate");
    assert!(stderr(&o).contains("--fail-on high"), "{}", stderr(&o));
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--fail-on", "critical"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A clean capture passes any gate.
    let o = run(&["-r", "samples/json-clean.pcap", "-q", "--fail-on", "info"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Bad severity: usage error.
    let o = run(&["-r", "samples/json-clean.pcap", "--fail-on", "severe"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let o = run(&["-r", "samples/downgrade.pcap"]);
    assert!(o.status.success());
    let e = stderr(&o);
    assert!(e.starts_with("mcptap summary"), "only the summary on a non-terminal stderr:\n{e}");
    let o = run(&["-r", "samples/downgrade.pcap", "-q"]);
    assert!(stderr(&o).is_empty());
}

#[test]
fn html_report_is_self_contained_and_lists_incidents() {
    let path_dir = Scratch::new("reports-downgrade.html");
    let path = path_dir.join("downgrade.html");
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--html", path.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = std::fs::read_to_string(&path).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains("<tr class=\"incident\" data-rule=\"MCP-SSE-DOWNGRADE\">"), "incident row");
    assert!(page.contains("class=\"shift\""), "shift marked in the chart");
    assert!(page.contains("class=\"incident-mark\""), "incident marked in the chart");
    for needle in ["src=\"http", "href=\"http", "@import", "url("] {
        assert!(!page.contains(needle), "no network fetch: found {needle}");
    }
}

/// brotli-asgi holds back the head of the Python SDK's GET stream until a first body byte, which never
/// comes (`samples/ecosystem/compress.md`): the GET of frame 19 carried the session id and was never
/// answered. It is one of the session's requests, and its timeline says the wait ended with the
/// connection (whole timeline against its golden; the inventory row counts 9 requests, 8 answered: 6 JSON
/// replies, and the 202 to notifications/initialized and the DELETE's 200, both `application/json` with
/// `Content-Length: 0`, with the other answers).
#[test]
fn a_request_never_answered_is_on_its_sessions_row_and_timeline() {
    let pcap = "samples/ecosystem/compress-pysdk-brotli-json.pcap";
    let sid = "017e753f54ab4dcb9d491f2cf9133091";
    let o = run(&["-q", "-r", pcap, "--timeline", sid]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_golden(&root().join("tests/golden/compress-pysdk-brotli-json.timeline"), &stdout(&o));
    let dir = Scratch::new("reports-unanswered");
    let inv = dir.join("sessions.csv");
    let o = run(&["-q", "-r", pcap, "--sessions", inv.to_str().unwrap(), "-o", dir.join("r.csv").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = csv_rows(&std::fs::read_to_string(&inv).unwrap());
    let col = |name: &str| rows[0].iter().position(|c| c == name).unwrap();
    let row = rows.iter().find(|r| r[col("session_id")] == sid).expect("the session's row");
    let counts = ["requests", "responses_json", "responses_sse", "responses_other"].map(|c| row[col(c)].as_str());
    assert_eq!(counts, ["9", "6", "0", "2"], "{row:?}");
    // The wait's end is no traffic of the session: last_seen is the DELETE's answer (frame 60).
    assert_eq!(row[col("last_seen")], "2026-12-04T23:52:49.693191Z", "{row:?}");
}

/// undici with `allowH2` spreads one session over three HTTP/2 connections, each numbering its streams
/// from 1 (`samples/ecosystem/h2more.md`): each request names its connection's client port. The session
/// begins with its `initialize` request (frame 9), not with the answer that minted its id (frame 15).
/// Whole timeline against its golden.
#[test]
fn a_session_over_several_h2_connections_names_each_requests_connection() {
    let pcap = "samples/ecosystem/h2more-undici-h2-go.pcap";
    let o = run(&["-q", "-r", pcap, "--keylog", "samples/ecosystem/h2more-undici-h2-go.keys", "--timeline", "BOK2IBSA25WTMKLG35LXNBDTIP"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_golden(&root().join("tests/golden/h2more-undici-h2-go.timeline"), &stdout(&o));
}

/// FastMCP 1.x redirects every request to `/mcp` with a 307 to `/mcp/` (`samples/ecosystem/oldsdks.md`).
/// In py19 the 307 comes before the POST body (initialize: head 4, 307 at 6, body 8; tools/list 47, 307
/// at 49, body 51); in py18 after it. Both captures hold the same exchanges, and mcptap must read them
/// alike: each request's body is its own however it arrived (the timeline names tools/list at frame 47),
/// the redirected initialize starts no session, and the redirected GET is no misbehaviour. Whole
/// timeline against its golden; the summary line of both captures.
#[test]
fn an_answer_before_the_request_body_is_judged_on_the_whole_request() {
    let o = run(&["-q", "-r", "samples/ecosystem/oldsdks-py19.pcap", "--timeline", "a1ad4c3102a543e8b43b41819bfb7cf3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_golden(&root().join("tests/golden/oldsdks-py19.timeline"), &stdout(&o));
    for (pcap, rows) in [("py18", 1), ("py19", 0)] {
        let o = run(&["-r", &format!("samples/ecosystem/oldsdks-{pcap}.pcap")]);
        assert!(o.status.success(), "{}", stderr(&o));
        let summary = stderr(&o);
        assert!(summary.contains("mcp:       1 session (1 streamable-2025), 23 JSON-RPC messages,"), "{pcap}: {summary}");
        // py18's one row is MCP-VERSION-DOWNGRADE (its client's newest version is 2024-11-05).
        let report = csv_rows(&stdout(&o));
        assert_eq!(report.len(), 1 + rows, "{pcap}: {report:?}");
        assert!(report.iter().skip(1).all(|r| r[2] == "MCP-VERSION-DOWNGRADE"), "{pcap}: {report:?}");
    }
}

/// A sensor between agents and an egress proxy (`samples/ecosystem/egress.md`, squid 5.7). Through
/// `HTTPS_PROXY` each client tunnels its TLS with CONNECT: the Python SDK opens nine tunnels, undici three
/// that it keeps alive and resumes TLS on, httpx2 one carrying HTTP/2 (ALPN h2 inside the tunnel). Each
/// tunnel is analysed from the byte after squid's 200 and
/// decrypted with the client's key log, so the front hop's session is seen beside the backend's, with squid
/// as its server and the origin as its host. Through `HTTP_PROXY` the clients send absolute-form targets,
/// and the front hop's endpoint is the path, as on the backend. Two origins behind the one proxy address
/// keep their own sessions and versions: two of different SDK generations (no MCP-VERSION-DOWNGRADE), two
/// that mint no session id, one agent's calls to them interleaved (four sessions of six requests). Whole
/// inventories and summaries against their goldens.
#[test]
fn mcp_through_a_forward_proxy_is_seen_on_the_proxys_hop() {
    let dir = Scratch::new("reports-egress");
    let names = ["connect", "ts-connect", "connect-h2", "http", "ts-http", "two-origins", "two-stateless"].map(|n| format!("egress-squid-{n}"));
    for name in &names {
        let pcap = format!("samples/ecosystem/{name}.pcap");
        let keys = format!("samples/ecosystem/{name}.keys");
        let inv = dir.join(format!("{name}.sessions"));
        let mut args = vec!["-r", &pcap, "--sessions", inv.to_str().unwrap()];
        if root().join(&keys).exists() {
            args.extend(["--keylog", &keys]);
        }
        let o = run(&args);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert_eq!(csv_rows(&stdout(&o)).len(), 1, "{name}: no incident (labels-egress.tsv)");
        assert_golden(&root().join(format!("tests/golden/{name}.sessions")), &std::fs::read_to_string(&inv).unwrap());
        assert_golden(&root().join(format!("tests/golden/{name}.summary")), &normalise_elapsed(&stderr(&o)));
    }
    // Without the key log the tunnels are TLS the sensor cannot read, and it says so for the proxy's hop too.
    let rows = csv_of("samples/ecosystem/egress-squid-connect.pcap", &[]);
    let dark: Vec<(&str, &str)> = rows.iter().skip(1).map(|r| (r[2].as_str(), r[6].as_str())).collect();
    assert_eq!(dark, [("CAPTURE-TLS-UNDECRYPTED", "127.0.0.1:19090"), ("CAPTURE-TLS-UNDECRYPTED", "127.0.0.1:19095")]);
    assert!(rows[1][12].starts_with("9 TLS connection(s) to this server not decrypted (no key log)"), "{:?}", rows[1]);
}

/// A client that keeps its dead session id past the window (longlived-pysdk-reuse-ts: one POST with the dead
/// id, then 30 s without an initialize) is reported by the `wait` trigger, whose sentence has no reusing
/// request to name: it must not read "(none) (none)".
#[test]
fn a_stale_session_by_waiting_names_no_request() {
    let rows = csv_of("samples/ecosystem/longlived-pysdk-reuse-ts.pcap", &[]);
    let stale: Vec<&Vec<String>> = rows.iter().skip(1).filter(|r| r[2] == "MCP-NO-REINITIALIZE").collect();
    assert_eq!(stale.len(), 1, "{rows:?}");
    assert_eq!((stale[0][5].as_str(), stale[0][10].as_str(), stale[0][11].as_str()), ("127.0.0.1:53846", "2", "85;95;107"));
    assert_eq!(
        stale[0][12],
        "wait: 30000 ms after the server answered 404 for session 6e2ad26e7fd6440a9b0afd5fc408dd08 (1 request(s) with the dead id since), and no new initialize (window 30 s)"
    );
}
