//! Live capture on loopback with real MCP traffic (feature `live`): the Python SDK client against a real
//! Python SDK server behind the JSON-rewriting gateway of samples/gen, captured by `mcptap -i lo`.
//! Needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv with the `mcp` package
//! (`python3 -m venv samples/gen/.venv && samples/gen/.venv/bin/pip install -r samples/gen/requirements.txt`);
//! without them the traffic tests print why and skip. All traffic stays on 127.0.0.1, bounded.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::common::*;

fn python() -> Option<PathBuf> {
    let py = std::env::var_os("MCPTAP_PYTHON").map(PathBuf::from).unwrap_or_else(|| root().join("samples/gen/.venv/bin/python"));
    let ok = Command::new(&py).args(["-c", "import mcp"]).stderr(Stdio::null()).status().map(|s| s.success()).unwrap_or(false);
    ok.then_some(py)
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false)
}

/// The live tests run where they can or not at all: they are ignored (with the reason) outside CI, and
/// a test that runs without what it needs fails rather than passing having checked nothing.
fn require_live() {
    if let Some(why) = skip_reason() {
        panic!("cannot run: {why}");
    }
}

/// Why the traffic tests cannot run here, if they cannot.
fn skip_reason() -> Option<String> {
    if !is_root() {
        return Some("live capture needs root (or CAP_NET_RAW+CAP_NET_ADMIN)".into());
    }
    if python().is_none() {
        return Some("no Python with the mcp SDK: create samples/gen/.venv (pip install -r samples/gen/requirements.txt) or set MCPTAP_PYTHON".into());
    }
    None
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn tmp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("mcptap-live-{}-{name}", std::process::id()));
    std::fs::remove_file(&p).ok();
    p
}

/// Kills a child on drop, so a failing test leaves no server or sensor behind.
struct Reaper(Child);
impl Drop for Reaper {
    fn drop(&mut self) {
        self.0.kill().ok();
        self.0.wait().ok();
    }
}

fn wait_until(what: &str, timeout: Duration, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < timeout, "timed out after {timeout:?} waiting for {what}");
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn signal(pid: u32, sig: &str) {
    assert!(Command::new("kill").args([sig, &pid.to_string()]).status().unwrap().success());
}

/// Wall-clock time of capture frame `n` in a pcap, as µs since the epoch.
fn frame_time_us(pcap: &Path, n: u64) -> i64 {
    let mut r = mcptap::capture::CaptureReader::open(&[pcap.to_path_buf()]).unwrap();
    while let Some(p) = r.next_packet().unwrap() {
        if p.frame == n {
            return p.ts.nanos() / 1000;
        }
    }
    panic!("frame {n} not in {}", pcap.display());
}

struct LiveRun {
    rows: Vec<Vec<String>>,
    stderr: String,
    pcap: PathBuf,
    /// Wall time from the evidence packet to the row being readable in the CSV, when measured.
    latency: Option<Duration>,
}

/// One sensor run around one real SDK session. `wait_for_row`: poll the CSV for the downgrade row
/// before stopping (and measure its latency); otherwise stop as soon as the client is done.
/// HTTPS for a live session: the server's certificate and key, and the key log the client writes.
struct Https {
    cert: PathBuf,
    key: PathBuf,
    keylog: PathBuf,
}

impl Https {
    /// A self-signed certificate for 127.0.0.1 (openssl), and an empty key log.
    fn new(tag: &str) -> Option<Https> {
        let h = Https { cert: tmp(&format!("{tag}.cert.pem")), key: tmp(&format!("{tag}.key.pem")), keylog: tmp(&format!("{tag}.keys")) };
        let ok = Command::new("openssl")
            .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"])
            .args(["-addext", "subjectAltName=IP:127.0.0.1", "-keyout"])
            .arg(&h.key)
            .arg("-out")
            .arg(&h.cert)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        std::fs::write(&h.keylog, b"").unwrap();
        ok.then_some(h)
    }
}

impl Drop for Https {
    fn drop(&mut self) {
        for p in [&self.cert, &self.key, &self.keylog] {
            std::fs::remove_file(p).ok();
        }
    }
}

fn live_session(tag: &str, sig: &str, wait_for_row: bool) -> LiveRun {
    live_session_over(tag, sig, wait_for_row, None, &[])
}

/// One SDK session through the sensor, which runs with `sensor_args` besides the usual ones.
fn live_session_over(tag: &str, sig: &str, wait_for_row: bool, https: Option<&Https>, sensor_args: &[&str]) -> LiveRun {
    let py = python().unwrap();
    let gen = root().join("samples/gen/py/mcp_sample.py");
    let port = free_port();
    let (csv, pcap) = (tmp(&format!("{tag}.csv")), tmp(&format!("{tag}.pcap")));

    let server = sample_server(&py, &gen, port, https);

    let keylog = https.map(|h| h.keylog.to_str().unwrap().to_string());
    let mut extra: Vec<&str> = keylog.as_deref().map(|k| vec!["--keylog", k]).unwrap_or_default();
    extra.extend_from_slice(sensor_args);
    let (mut sensor, reader) = start_sensor(&extra, &csv, &pcap, port);

    let mut client_cmd = Command::new(&py);
    let scheme = if https.is_some() { "https" } else { "http" };
    client_cmd.arg(&gen).args(["client", "--url", &format!("{scheme}://127.0.0.1:{port}/mcp")]);
    if let Some(h) = https {
        // The client logs its secrets as each handshake happens (Python's ssl honours SSLKEYLOGFILE).
        client_cmd.env("SSLKEYLOGFILE", &h.keylog).env("SSL_CERT_FILE", &h.cert);
    }
    let client = client_cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut client = Reaper(client);
    let mut seen_at_us: Option<i64> = None;
    if wait_for_row {
        // Poll while the client runs: the row must be written as raised, long before the stop.
        let mut seen = None;
        wait_until("the MCP-SSE-DOWNGRADE row in the live CSV", Duration::from_secs(60), || {
            let text = std::fs::read_to_string(&csv).unwrap_or_default();
            let hit = csv_rows(&text).into_iter().find(|r| r.get(2).map(String::as_str) == Some("MCP-SSE-DOWNGRADE"));
            if let Some(r) = hit {
                let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_micros() as i64;
                seen = Some((r, now));
                true
            } else {
                false
            }
        });
        let (_, seen_us) = seen.unwrap();
        // Measured against the evidence packet's timestamp after the stop, when the -w file is complete.
        seen_at_us = Some(seen_us);
        wait_until("the SDK client", Duration::from_secs(60), || client.0.try_wait().unwrap().is_some());
    } else {
        wait_until("the SDK client", Duration::from_secs(60), || client.0.try_wait().unwrap().is_some());
    }
    assert!(client.0.wait().unwrap().success(), "the SDK client failed");

    let stderr = stop_sensor(&mut sensor, reader, sig);
    drop(server);

    let rows = csv_rows(&std::fs::read_to_string(&csv).unwrap());
    // Latency: from the kernel timestamp of the evidence packet to the moment the row was readable.
    // The evidence packet is the row's last frame (the SSE reply that completed the proof).
    let latency = seen_at_us.map(|seen| {
        let row = rows.iter().find(|r| r[2] == "MCP-SSE-DOWNGRADE").unwrap();
        let last_frame: u64 = row[11].split(';').map(|f| f.parse().unwrap()).max().unwrap();
        let pkt_us = frame_time_us(&pcap, last_frame);
        Duration::from_micros(u64::try_from(seen - pkt_us).unwrap_or(0))
    });
    std::fs::remove_file(&csv).ok();
    LiveRun { rows, stderr, pcap, latency }
}

/// The same capture read back offline must give the same incidents: rule, session, endpoints, frames.
fn assert_same_as_offline(run: &LiveRun) {
    assert_same_as_offline_with(run, &[]);
}

fn assert_same_as_offline_with(run: &LiveRun, extra: &[&str]) {
    let mut args = vec!["-r", run.pcap.to_str().unwrap(), "-q"];
    args.extend_from_slice(extra);
    let o = run_args(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let key = |r: &Vec<String>| (r[0].clone(), r[2].clone(), r[4].clone(), r[5].clone(), r[6].clone(), r[11].clone());
    let mut live: Vec<_> = run.rows.iter().skip(1).map(key).collect();
    let mut offline: Vec<_> = csv_rows(&stdout(&o)).iter().skip(1).map(key).collect();
    live.sort();
    offline.sort();
    assert_eq!(live, offline, "live rows differ from `mcptap -r` on the -w file");
    assert!(live.iter().any(|k| k.1 == "MCP-SSE-DOWNGRADE"), "{live:?}");
    std::fs::remove_file(&run.pcap).ok();
}

fn run_args(args: &[&str]) -> std::process::Output {
    run(args)
}

fn assert_summary(run: &LiveRun) {
    let e = &run.stderr;
    assert!(e.contains("mcptap summary"), "{e}");
    assert!(e.contains("MCP-SSE-DOWNGRADE: 1"), "{e}");
    assert!(e.contains("  libpcap:   ") && e.contains("dropped by kernel") && e.contains("dropped by interface"), "{e}");
    assert_eq!(run.rows[0][0], "first_seen", "one header row first");
    assert_eq!(run.rows.iter().filter(|r| r[0] == "first_seen").count(), 1, "exactly one header");
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_sigint_writes_the_downgrade_as_raised_and_matches_offline() {
    require_live();
    let run = live_session("int", "-INT", true);
    assert_summary(&run);
    let latency = run.latency.unwrap();
    eprintln!("live: evidence packet to CSV row: {:.1} ms", latency.as_secs_f64() * 1000.0);
    assert_same_as_offline(&run);
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_sigterm_right_after_the_traffic_loses_no_row() {
    require_live();
    let run = live_session("term", "-TERM", false);
    assert_summary(&run);
    assert_same_as_offline(&run);
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_https_decrypts_with_the_key_log_the_client_writes_as_it_goes() {
    // The key log is empty when the sensor starts; the SDK client appends each connection's secrets
    // during its handshake, after the sensor has captured the packets that need them.
    require_live();
    let Some(https) = Https::new("https") else {
        panic!("cannot run: openssl could not make a certificate");
    };
    let run = live_session_over("https", "-INT", true, Some(&https), &[]);
    assert_summary(&run);
    let tls = run.stderr.lines().find(|l| l.trim_start().starts_with("tls:")).unwrap_or_default();
    let n: u64 = tls.trim_start().trim_start_matches("tls:").split_whitespace().next().unwrap().parse().unwrap();
    assert!(n >= 2 && tls.contains(&format!("({n} decrypted, 0 undecrypted)")), "{}", run.stderr);
    assert!(!run.rows.iter().any(|r| r[2] == "CAPTURE-TLS-UNDECRYPTED"), "{:?}", run.rows);
    let latency = run.latency.unwrap();
    eprintln!("live https: evidence packet to CSV row: {:.1} ms", latency.as_secs_f64() * 1000.0);
    assert_same_as_offline_with(&run, &["--keylog", https.keylog.to_str().unwrap()]);
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_on_three_workers_writes_the_row_as_raised_and_matches_offline() {
    // --threads 3: the sensor thread routes, a worker raises the row and sends it back to be written.
    require_live();
    let run = live_session_over("workers", "-INT", true, None, &["--threads", "3"]);
    assert_summary(&run);
    let workers = run.stderr.lines().find_map(|l| l.trim_start().strip_prefix("workers:")).unwrap_or_default();
    assert!(workers.trim_start().starts_with("3, CPU s each"), "{}", run.stderr);
    let latency = run.latency.unwrap();
    eprintln!("live, 3 workers: evidence packet to CSV row: {:.1} ms", latency.as_secs_f64() * 1000.0);
    assert!(latency < Duration::from_secs(5), "row written {latency:?} after its evidence packet");
    assert_same_as_offline(&run);
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_on_any_writes_linux_cooked_v2_and_matches_offline() {
    // `-i any` (samples/ecosystem/sensor5.md): libpcap's default link type there is Linux cooked capture v1,
    // which does not name the interface a packet was seen on; tcpdump 4.99 asks for v2, and so does mcptap.
    require_live();
    let run = live_session_over("any", "-INT", true, None, &["-i", "any"]);
    assert_summary(&run);
    let head = std::fs::read(&run.pcap).unwrap();
    let linktype = u32::from_le_bytes(head[20..24].try_into().unwrap());
    assert_eq!(linktype, 276, "LINKTYPE_LINUX_SLL2 in the -w file's header");
    assert_same_as_offline(&run);
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_https_on_two_workers_decrypts_with_keys_written_as_it_goes() {
    // The key log grows while the workers hold the connections that wait for it: the sensor must see
    // that a worker waits and send the appended secrets to every worker.
    require_live();
    let Some(https) = Https::new("https-workers") else {
        panic!("cannot run: openssl could not make a certificate");
    };
    let run = live_session_over("https-workers", "-INT", true, Some(&https), &["--threads", "2"]);
    assert_summary(&run);
    let tls = run.stderr.lines().find(|l| l.trim_start().starts_with("tls:")).unwrap_or_default();
    let n: u64 = tls.trim_start().trim_start_matches("tls:").split_whitespace().next().unwrap().parse().unwrap();
    assert!(n >= 2 && tls.contains(&format!("({n} decrypted, 0 undecrypted)")), "{}", run.stderr);
    assert!(!run.rows.iter().any(|r| r[2] == "CAPTURE-TLS-UNDECRYPTED"), "{:?}", run.rows);
    assert_same_as_offline_with(&run, &["--keylog", https.keylog.to_str().unwrap()]);
}

/// The sample server behind its JSON-first gateway (the silent downgrade), over TLS with `https`, once its
/// port accepts.
fn sample_server(py: &Path, gen: &Path, port: u16, https: Option<&Https>) -> Reaper {
    let mut cmd = Command::new(py);
    cmd.arg(gen).args(["server", "--port", &port.to_string(), "--json-first", "3"]);
    if let Some(h) = https {
        cmd.arg("--tls-cert").arg(&h.cert).arg("--tls-key").arg(&h.key);
    }
    let server = Reaper(cmd.stderr(Stdio::null()).spawn().unwrap());
    wait_until("the MCP server's port", Duration::from_secs(30), || TcpStream::connect(("127.0.0.1", port)).is_ok());
    server
}

/// A sensor on lo for `tcp port PORT` with `-o report -w pcap` and `extra` flags, once it listens; its
/// standard error is collected, line by line, by the returned thread ("listening on" first, the summary
/// at the end). The capture filter comes last, as with tcpdump: it takes every word after it.
/// The sensor on `lo`, or on the interface `extra` names with `-i`.
fn start_sensor(extra: &[&str], report: &Path, pcap: &Path, port: u16) -> (Reaper, std::thread::JoinHandle<String>) {
    let at = extra.iter().position(|a| *a == "-i");
    let iface = at.and_then(|i| extra.get(i + 1)).copied().unwrap_or("lo");
    let rest: Vec<&str> = extra.iter().enumerate().filter(|(i, _)| at.is_none_or(|a| *i != a && *i != a + 1)).map(|(_, a)| *a).collect();
    let mut sensor = Reaper(
        bin()
            .args(["-i", iface])
            .args(&rest)
            .arg("-o")
            .arg(report)
            .arg("-w")
            .arg(pcap)
            .arg(format!("tcp port {port}"))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let (tx, rx) = mpsc::channel();
    let err = BufReader::new(sensor.0.stderr.take().unwrap());
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in err.lines().map_while(Result::ok) {
            tx.send(line.clone()).ok();
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    let first = rx.recv_timeout(Duration::from_secs(20)).expect("sensor announces itself");
    assert!(first.starts_with(&format!("mcptap: listening on {iface}")), "{first}");
    (sensor, reader)
}

/// A stop signal (`-INT`, `-TERM`), a clean exit, and the sensor's standard error.
fn stop_sensor(sensor: &mut Reaper, reader: std::thread::JoinHandle<String>, sig: &str) -> String {
    signal(sensor.0.id(), sig);
    let mut status = None;
    wait_until("the sensor to stop", Duration::from_secs(20), || {
        status = sensor.0.try_wait().unwrap();
        status.is_some()
    });
    let stderr_text = reader.join().unwrap();
    assert_eq!(status.unwrap().code(), Some(0), "{stderr_text}");
    stderr_text
}

/// One run of the Python SDK client against the sample server (one session, bounded).
fn sdk_client(py: &Path, gen: &Path, port: u16) {
    let ok = Command::new(py).arg(gen).args(["client", "--url", &format!("http://127.0.0.1:{port}/mcp")]).stdout(Stdio::null()).stderr(Stdio::null()).status().unwrap().success();
    assert!(ok, "the SDK client failed");
}

/// Packets in a pcap file (tshark-free: the record headers, walked).
fn pcap_packets(path: &Path) -> u64 {
    let b = std::fs::read(path).unwrap();
    let (mut at, mut n) = (24usize, 0u64);
    while at + 16 <= b.len() {
        let caplen = u32::from_le_bytes(b[at + 8..at + 12].try_into().unwrap()) as usize;
        at += 16 + caplen;
        n += 1;
    }
    n
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_g_rotates_the_packet_file_and_rows_name_the_file_of_their_frames() {
    require_live();
    let py = python().unwrap();
    let gen = root().join("samples/gen/py/mcp_sample.py");
    let port = free_port();
    let (report, pcap) = (tmp("g.csv"), tmp("g.pcap"));
    let _server = sample_server(&py, &gen, port, None);
    let (mut sensor, reader) = start_sensor(&["-G", "1"], &report, &pcap, port);
    sdk_client(&py, &gen, port);
    std::thread::sleep(Duration::from_millis(1200));
    sdk_client(&py, &gen, port);
    let stderr_text = stop_sensor(&mut sensor, reader, "-INT");
    // tcpdump -G/-C names: FILE, FILE1, FILE2, ...
    let files: Vec<PathBuf> = (0..).map(|k| if k == 0 { pcap.clone() } else { PathBuf::from(format!("{}{k}", pcap.display())) }).take_while(|p| p.exists()).collect();
    assert!(files.len() >= 2, "one packet file per second of capture time: {files:?}\n{stderr_text}");
    let total: u64 = files.iter().map(|f| pcap_packets(f)).sum();
    assert!(stderr_text.contains(&format!("  packets:   {total} ")), "every packet in exactly one file ({total}):\n{stderr_text}");
    let rows = csv_rows(&std::fs::read_to_string(&report).unwrap());
    let col = |name: &str| rows[0].iter().position(|c| c == name).unwrap_or_else(|| panic!("no {name} column: {:?}", rows[0]));
    let (frames, named, sensor_col) = (col("frames"), col("pcap"), col("sensor"));
    assert!(rows.iter().skip(1).any(|r| r[2] == "MCP-SSE-DOWNGRADE"), "{rows:?}");
    for r in rows.iter().skip(1) {
        assert!(!r[sensor_col].is_empty(), "sensor defaults to the host name: {r:?}");
        let fs: Vec<u64> = r[frames].split(';').map(|f| f.parse().unwrap()).collect();
        let names: Vec<&str> = r[named].split(';').collect();
        assert!(names.len() == 1 || names.len() == fs.len(), "{r:?}");
        for (k, f) in fs.iter().enumerate() {
            let file = names.get(k).unwrap_or(&names[0]);
            assert!(files.iter().any(|p| p.to_str() == Some(*file)), "{file} is not a -w file: {r:?}");
            assert!(*f >= 1 && *f <= pcap_packets(Path::new(file)), "frame {f} not in {file}: {r:?}");
        }
    }
    for p in files.iter().chain([&report]) {
        std::fs::remove_file(p).ok();
    }
}

/// JSON lines of one report file (each line a whole object).
fn jsonl_rows(path: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: not a JSON line ({e}): {l}", path.display()))).collect()
}

fn downgrades(rows: &[serde_json::Value]) -> usize {
    rows.iter().filter(|r| r["rule_id"] == "MCP-SSE-DOWNGRADE").count()
}

/// The rows of a report against `mcptap -r` on the packet file they name: rule, session, frames.
fn assert_rows_match_offline(rows: &[serde_json::Value], pcap: &Path) {
    let o = run(&["-r", pcap.to_str().unwrap(), "-q", "--format", "jsonl"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let key = |r: &serde_json::Value| (r["rule_id"].to_string(), r["session_id"].to_string(), r["frames"].to_string());
    let mut live: Vec<_> = rows.iter().map(key).collect();
    let mut offline: Vec<_> = stdout(&o).lines().map(|l| key(&serde_json::from_str(l).unwrap())).collect();
    live.sort();
    offline.sort();
    assert_eq!(live, offline, "rows differ from `mcptap -r {}`", pcap.display());
    for r in rows {
        assert_eq!(r["pcap"], pcap.to_str().unwrap().trim_end_matches(".1"), "{r}");
    }
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_jsonl_rows_survive_a_sighup_rotation_with_none_lost_or_repeated() {
    // logrotate's way: move -o and -w aside, SIGHUP; the sensor goes on in files at the same paths.
    require_live();
    let py = python().unwrap();
    let gen = root().join("samples/gen/py/mcp_sample.py");
    let port = free_port();
    let (report, pcap) = (tmp("rot.jsonl"), tmp("rot.pcap"));
    let (report_old, pcap_old) = (tmp("rot.jsonl.1"), tmp("rot.pcap.1"));
    let stats = tmp("rot.stats");
    let _server = sample_server(&py, &gen, port, None);
    let stats_arg = stats.to_str().unwrap();
    let (mut sensor, reader) = start_sensor(&["--format", "jsonl", "--sensor", "tap-7", "--stats-interval", "1", "--stats-file", stats_arg], &report, &pcap, port);
    let client = || sdk_client(&py, &gen, port);
    client();
    wait_until("the first session's row, as raised", Duration::from_secs(30), || downgrades(&jsonl_rows(&report)) == 1);
    std::fs::rename(&report, &report_old).unwrap();
    std::fs::rename(&pcap, &pcap_old).unwrap();
    signal(sensor.0.id(), "-HUP");
    wait_until("the sensor to reopen its files", Duration::from_secs(20), || pcap.exists() && report.exists());
    client();
    wait_until("the second session's row in the new report", Duration::from_secs(30), || downgrades(&jsonl_rows(&report)) == 1);
    let stderr_text = stop_sensor(&mut sensor, reader, "-INT");
    assert!(stderr_text.contains("MCP-SSE-DOWNGRADE: 2"), "{stderr_text}");

    let (old, new) = (jsonl_rows(&report_old), jsonl_rows(&report));
    assert_eq!((downgrades(&old), downgrades(&new)), (1, 1), "old {old:?}\nnew {new:?}");
    let sid = |rows: &[serde_json::Value]| rows.iter().find(|r| r["rule_id"] == "MCP-SSE-DOWNGRADE").unwrap()["session_id"].clone();
    assert_ne!(sid(&old), sid(&new), "each session's row once, in its own file");
    assert!(old.iter().chain(&new).all(|r| r["sensor"] == "tap-7"), "{old:?} {new:?}");
    // Each report's frames are those of the packet file rotated with it.
    assert_rows_match_offline(&old, &pcap_old);
    assert_rows_match_offline(&new, &pcap);
    let stat_lines: Vec<serde_json::Value> = jsonl_rows(&stats);
    assert!(!stat_lines.is_empty(), "no stats line in --stats-file");
    let last = stat_lines.last().unwrap();
    assert!(last["packets"].as_u64().unwrap() > 0 && last["rss_bytes"].as_u64().unwrap() > 0 && last["sensor"] == "tap-7", "{last}");
    for p in [&report, &report_old, &pcap, &pcap_old, &stats] {
        std::fs::remove_file(p).ok();
    }
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_sighup_keeps_a_packet_file_nobody_moved() {
    // dist/mcptap.logrotate rotates the report alone: the packet file stays where it is, and the rows of the
    // rotated report name its frames. A HUP used to start it again at the same path, emptying it
    // (samples/ecosystem/sensor4.md).
    require_live();
    let py = python().unwrap();
    let gen = root().join("samples/gen/py/mcp_sample.py");
    let port = free_port();
    let (report, pcap, report_old) = (tmp("hup.jsonl"), tmp("hup.pcap"), tmp("hup.jsonl.1"));
    let _server = sample_server(&py, &gen, port, None);
    let (mut sensor, reader) = start_sensor(&["--format", "jsonl"], &report, &pcap, port);
    let client = || sdk_client(&py, &gen, port);
    client();
    wait_until("the first session's row, as raised", Duration::from_secs(30), || downgrades(&jsonl_rows(&report)) == 1);
    std::fs::rename(&report, &report_old).unwrap();
    signal(sensor.0.id(), "-HUP");
    wait_until("the sensor to reopen its report", Duration::from_secs(20), || report.exists());
    client();
    wait_until("the second session's row in the new report", Duration::from_secs(30), || downgrades(&jsonl_rows(&report)) == 1);
    let stderr_text = stop_sensor(&mut sensor, reader, "-INT");
    assert!(stderr_text.contains("was not moved, writing on"), "{stderr_text}");
    // Both reports' frames are in the one packet file, the rows raised before the HUP too.
    let rows: Vec<serde_json::Value> = jsonl_rows(&report_old).into_iter().chain(jsonl_rows(&report)).collect();
    assert_eq!(downgrades(&rows), 2, "{rows:?}");
    assert_rows_match_offline(&rows, &pcap);
    for p in [&report, &report_old, &pcap] {
        std::fs::remove_file(p).ok();
    }
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_bad_filter_is_exit_2_with_one_line() {
    assert!(is_root(), "cannot run: needs root to open lo before compiling the filter");
    let o = run(&["-i", "lo", "tcp", "port"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with("mcptap: bad capture filter 'tcp port': "), "{e}");
    assert!(stdout(&o).is_empty(), "nothing on stdout before the capture opens: {}", stdout(&o));
}

#[test]
fn live_missing_interface_is_exit_2_with_one_line() {
    let o = run(&["-i", "mcptap-nosuch0"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    if is_root() {
        assert_eq!(e.trim(), "mcptap: mcptap-nosuch0: no such interface (mcptap -D lists them)");
    }
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_without_capture_permission_says_what_is_needed() {
    // Root minus the two capabilities is the situation of an unprivileged user, on any machine.
    let has_setpriv = Command::new("setpriv").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    assert!(is_root() && has_setpriv, "cannot run: needs root and setpriv to drop CAP_NET_RAW/CAP_NET_ADMIN");
    let o = Command::new("setpriv")
        .args(["--inh-caps=-net_raw,-net_admin", "--bounding-set=-net_raw,-net_admin", env!("CARGO_BIN_EXE_mcptap"), "-i", "lo"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.contains("lo: no permission to capture") && e.contains("CAP_NET_RAW and CAP_NET_ADMIN"), "{e}");
}

#[test]
fn list_interfaces_shows_loopback() {
    let o = run(&["-D"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().any(|l| l.contains(".lo ") || l.contains(".lo0 ")), "{}", stdout(&o));
}

#[test]
fn live_rejects_file_only_flags_with_one_line() {
    // These reports are made from the whole capture; a sensor writes rows as raised. Refused before any
    // capture opens, so no permission is needed to check it.
    for (flag, value) in [("--html", "x.html"), ("--sessions", "s.csv"), ("--timeline", "abc"), ("--fail-on", "high")] {
        let o = run(&["-i", "lo", flag, value]);
        assert_eq!(o.status.code(), Some(2), "{flag}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{flag}: {e}");
        assert!(e.contains(flag.trim_start_matches("--").split(' ').next().unwrap()) && e.contains("-r"), "{flag}: {e}");
    }
}

/// The directory the system loads libpcap from, as the helper's loader resolves it (ldd).
fn libpcap_dir() -> Option<PathBuf> {
    let o = Command::new("ldd").arg(env!("CARGO_BIN_EXE_mcptap-live")).output().ok()?;
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let line = text.lines().find(|l| l.trim_start().starts_with("libpcap"))?;
    let path = line.split("=>").nth(1)?.split_whitespace().next()?;
    std::fs::canonicalize(path).ok()?.parent().map(Path::to_path_buf)
}

#[test]
fn mcptap_itself_does_not_need_libpcap() {
    // The file analysis executable must start where libpcap is absent; only mcptap-live links it.
    let needs = |exe: &str| {
        let o = Command::new("ldd").arg(exe).output().unwrap();
        String::from_utf8_lossy(&o.stdout).contains("libpcap")
    };
    assert!(!needs(env!("CARGO_BIN_EXE_mcptap")), "mcptap is linked to libpcap");
    assert!(needs(env!("CARGO_BIN_EXE_mcptap-live")), "mcptap-live should be the one linked to libpcap");
}

#[test]
#[cfg_attr(not(ci), ignore = "needs root (or CAP_NET_RAW+CAP_NET_ADMIN) and samples/gen/.venv: run with --include-ignored; CI runs it")]
fn live_without_libpcap_says_what_to_install_and_files_still_work() {
    // A machine without libpcap, made in a private mount namespace: the library directory is covered by a
    // copy of itself (symlinks to every entry but libpcap*), so the dynamic loader really cannot find it.
    let dir = libpcap_dir().expect("cannot run: libpcap's directory not found with ldd");
    let has_unshare = Command::new("unshare").arg("--version").output().map(|o| o.status.success()).unwrap_or(false);
    assert!(is_root() && has_unshare, "cannot run: needs root and unshare to hide libpcap in a mount namespace");
    let base = tmp("nolibpcap");
    let (keep, farm) = (base.join("keep"), base.join("farm"));
    std::fs::create_dir_all(&keep).unwrap();
    std::fs::create_dir_all(&farm).unwrap();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name();
        if !name.to_string_lossy().starts_with("libpcap") {
            std::os::unix::fs::symlink(keep.join(&name), farm.join(&name)).unwrap();
        }
    }
    let in_namespace_without_libpcap = |args: &str| {
        let script = format!(
            "mount --bind '{dir}' '{keep}' && mount --bind '{farm}' '{dir}' && exec '{exe}' {args}",
            dir = dir.display(),
            keep = keep.display(),
            farm = farm.display(),
            exe = env!("CARGO_BIN_EXE_mcptap"),
        );
        Command::new("unshare").args(["--mount", "sh", "-c", &script]).current_dir(root()).stdin(Stdio::null()).output().unwrap()
    };
    let expected = "mcptap: live capture needs libpcap, which the system could not load (libpcap.so.0.8: cannot open \
                    shared object file: No such file or directory); install it: apt-get install libpcap0.8 \
                    (Debian/Ubuntu), dnf install libpcap (Fedora)";
    for args in ["-i lo", "-D"] {
        let o = in_namespace_without_libpcap(args);
        assert_eq!(o.status.code(), Some(2), "{args}: {}", stderr(&o));
        assert_eq!(stderr(&o).trim_end(), expected, "{args}");
    }
    let o = in_namespace_without_libpcap("-r samples/downgrade.pcap");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("MCP-SSE-DOWNGRADE"), "{}", stdout(&o));
    std::fs::remove_dir_all(&base).ok();
}

#[test]
fn live_without_the_helper_beside_mcptap_is_one_line() {
    // An install that copied mcptap alone: -i and -D say what is missing; files still work.
    let dir = tmp("alone");
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("mcptap");
    std::fs::copy(env!("CARGO_BIN_EXE_mcptap"), &exe).unwrap();
    for args in [&["-i", "lo"][..], &["-D"]] {
        let o = Command::new(&exe).args(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = stderr(&o);
        assert_eq!(e.lines().count(), 1, "{e}");
        assert!(e.starts_with(&format!("mcptap: live capture needs {}, which is not installed", dir.join("mcptap-live").display())), "{e}");
    }
    let o = Command::new(&exe).args(["-r", "samples/downgrade.pcap"]).current_dir(root()).output().unwrap();
    assert!(o.status.success() && stdout(&o).contains("MCP-SSE-DOWNGRADE"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn mcptap_copied_under_the_helpers_name_says_so_instead_of_starting_itself_forever() {
    // `cp target/release/mcptap bin/mcptap-live` by mistake: each hand-over would start mcptap again.
    let dir = tmp("selfhelper");
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["mcptap", "mcptap-live"] {
        std::fs::copy(env!("CARGO_BIN_EXE_mcptap"), dir.join(name)).unwrap();
    }
    let mut child = Command::new(dir.join("mcptap")).arg("-D").stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            child.kill().ok();
            panic!("mcptap -D with mcptap copied as mcptap-live did not end in 20 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert!(e.starts_with(&format!("mcptap: {} is mcptap itself, not the live capture helper", dir.join("mcptap-live").display())), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_helper_runs_directly_too() {
    // Where only mcptap-live has been given the capture capabilities, users run it by name.
    let o = Command::new(env!("CARGO_BIN_EXE_mcptap-live")).arg("-D").output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().any(|l| l.contains(".lo ") || l.contains(".lo0 ")), "{}", stdout(&o));
}
