//! The HTML report in a real browser: headless Chromium opens the page from disk, runs its scripts and
//! dumps the DOM. The page must run without script errors (its own error collector writes them into the
//! DOM, and Chromium's console log on standard error must show no "Uncaught"), finish its script
//! (`data-ready="1"` on <body>), and show the MCP-SSE-DOWNGRADE incident of samples/downgrade.pcap.
//! Skipped, with the reason printed, when Chromium is not installed (.ci/run installs it).

use std::path::Path;
use std::process::Command;

use crate::common::*;

const CHROMIUM: &str = "/usr/bin/chromium";

fn chromium_args(profile: &Path) -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--enable-logging=stderr",
        "--v=0",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mcptap-html-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn html_report_opens_in_headless_chromium_without_errors() {
    if !Path::new(CHROMIUM).exists() {
        println!("SKIPPED html_report_opens_in_headless_chromium_without_errors: {CHROMIUM} not installed (apt-get install chromium)");
        return;
    }
    let dir = scratch("dom");
    let page = dir.join("downgrade.html");
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--html", page.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));

    let profile = scratch("profile");
    let out = Command::new(CHROMIUM)
        .args(chromium_args(&profile))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    let dom = String::from_utf8_lossy(&out.stdout);
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "chromium failed: {log}");
    // Scripts ran to the end, and none threw.
    assert!(dom.contains("data-ready=\"1\""), "page script did not finish:\n{log}\n{dom}");
    assert!(dom.contains("<pre id=\"js-errors\" hidden=\"\"></pre>"), "script errors recorded in the page:\n{dom}");
    for bad in ["Uncaught", "Refused to", "ERR_"] {
        let hit = log.lines().find(|l| l.contains(bad) && (l.contains("CONSOLE") || l.contains("console")));
        assert!(hit.is_none(), "console error: {}", hit.unwrap_or(""));
    }
    // The expected incident is on the page, in the table and in the chart.
    assert!(dom.contains("data-rule=\"MCP-SSE-DOWNGRADE\""), "incident row missing:\n{dom}");
    assert!(dom.contains("class=\"incident-mark\""), "incident mark missing in the chart");
    // Frames as in tests/golden/downgrade.pcap.csv.
    assert!(dom.contains("frame.number in {40 46 47}"), "wireshark filter missing");
    assert!(dom.contains("class=\"shift\""), "content-type shift not drawn");
}

#[test]
fn html_report_screenshot_renders() {
    if !Path::new(CHROMIUM).exists() {
        println!("SKIPPED html_report_screenshot_renders: {CHROMIUM} not installed (apt-get install chromium)");
        return;
    }
    let dir = scratch("shot");
    let page = dir.join("downgrade.html");
    let o = run(&["-r", "samples/downgrade.pcap", "-q", "--html", page.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shot = std::env::var_os("MCPTAP_HTML_SCREENSHOT").map(std::path::PathBuf::from).unwrap_or_else(|| dir.join("shot.png"));
    let profile = scratch("shot-profile");
    let out = Command::new(CHROMIUM)
        .args(chromium_args(&profile))
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=1280,1600")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    assert!(png.len() > 10_000, "screenshot suspiciously small ({} bytes): blank page?", png.len());
}
