//! The HTML report in a real browser: headless Chromium opens the page from disk, runs its scripts and
//! dumps the DOM. The page must run without script errors (its own error collector writes them into the
//! DOM, and Chromium's console log on standard error must show no "Uncaught"), finish its script
//! (`data-ready="1"` on <body>), and show the MCP-SSE-DOWNGRADE incident of samples/downgrade.pcap.
//! The layout is checked at 900 and 1600 px by a probe script the test appends to a copy of the page
//! (LAYOUT_PROBE), and screenshots are taken at both widths. Chromium is found on PATH; without it these
//! tests are ignored, and the test summary says so (under CI=true they run and fail instead).
//! Everything they write (pages, Chromium profiles, screenshots) is in a scratch dir removed at the end;
//! set MCPTAP_HTML_SCREENSHOTS=DIR to keep the screenshots.

use std::path::Path;
use std::process::Command;

use crate::common::*;

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
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

/// Runs Chromium on `page` with a fresh profile inside `dir`; returns (stdout, stderr).
fn browse(dir: &Scratch, tag: &str, extra: &[String], page: &Path) -> (String, String) {
    let profile = dir.join(format!("profile-{tag}"));
    let out = Command::new(chromium())
        .args(chromium_args(&profile))
        .args(extra)
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    let log = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "chromium failed: {log}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), log)
}

fn report(dir: &Scratch, sample: &str) -> std::path::PathBuf {
    let page = dir.join("report.html");
    let o = run(&["-r", sample, "-q", "--html", page.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    page
}

#[test]
#[cfg_attr(not(any(has_chromium, ci)), ignore = "needs chromium on PATH (apt-get install chromium)")]
fn html_report_opens_in_headless_chromium_without_errors() {
    let dir = Scratch::new("html-dom");
    let page = report(&dir, "samples/downgrade.pcap");
    let (dom, log) = browse(&dir, "dom", &["--dump-dom".into()], &page);
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
    assert!(dom.contains("<span>frame.number</span> in {<span>40</span> <span>46</span> <span>47</span>}"), "wireshark filter missing");
    assert!(dom.contains("class=\"shift\""), "content-type shift not drawn");
}

/// Appended to a copy of the report: measures the layout once the page has run and writes the verdict
/// into `data-layout` on <body> (`ok`, or each problem found), where `--dump-dom` shows it.
const LAYOUT_PROBE: &str = r#"<script>(function(){
var bad=[];var de=document.documentElement;var vw=window.innerWidth;
if(de.scrollWidth>vw)bad.push('page scrolls sideways: '+de.scrollWidth+' > '+vw);
document.querySelectorAll('.wide').forEach(function(w){if(w.scrollWidth>w.clientWidth)bad.push((w.firstElementChild||w).id+' wider than its box: '+w.scrollWidth+' > '+w.clientWidth);});
document.querySelectorAll('#incidents td, #sessions td').forEach(function(td){if(td.scrollWidth>td.clientWidth+1)bad.push('cell cut: '+td.textContent.slice(0,40));});
document.querySelectorAll('code.wsf').forEach(function(c){var tw=document.createTreeWalker(c,NodeFilter.SHOW_TEXT);var n;
 while((n=tw.nextNode())){var re=/[0-9]+/g;var m;while((m=re.exec(n.data))){var r=document.createRange();r.setStart(n,m.index);r.setEnd(n,m.index+m[0].length);
 var tops={};Array.prototype.forEach.call(r.getClientRects(),function(x){tops[Math.round(x.top)]=1;});if(Object.keys(tops).length>1)bad.push('filter number split: '+m[0]);}}});
document.querySelectorAll('.chart').forEach(function(c){var s=c.querySelector('svg');if(s&&s.getBoundingClientRect().width<0.95*c.clientWidth)bad.push('chart uses '+Math.round(s.getBoundingClientRect().width)+' of '+c.clientWidth+' px');});
document.body.setAttribute('data-layout',bad.length?bad.join('; '):'ok');document.body.setAttribute('data-viewport',String(vw));})();</script>"#;

/// Every incident row of a capture with many (long evidence, long filters, IPv6-free but long ids).
const BUSY_SAMPLE: &str = "samples/inc-5xx-cascade.pcap";

#[test]
#[cfg_attr(not(any(has_chromium, ci)), ignore = "needs chromium on PATH (apt-get install chromium)")]
fn html_report_fits_900_to_1600_px_without_sideways_scroll() {
    let dir = Scratch::new("html-layout");
    let keep = std::env::var_os("MCPTAP_HTML_SCREENSHOTS").map(std::path::PathBuf::from);
    for sample in ["samples/downgrade.pcap", BUSY_SAMPLE, "samples/json-clean.pcap"] {
        let page = report(&dir, sample);
        let probed = dir.join("probed.html");
        let html = std::fs::read_to_string(&page).unwrap();
        std::fs::write(&probed, html.replace("</body></html>", &format!("{LAYOUT_PROBE}</body></html>"))).unwrap();
        for width in [900, 1600] {
            let size = format!("--window-size={width},1400");
            let (dom, log) = browse(&dir, &format!("layout-{width}"), &[size.clone(), "--dump-dom".into()], &probed);
            assert!(dom.contains(&format!("data-viewport=\"{width}\"")), "{sample} at {width} px: probe did not run:\n{log}");
            assert!(dom.contains("data-layout=\"ok\""), "{sample} at {width} px: {}", attr(&dom, "data-layout"));
            let name = format!("{}-{width}.png", Path::new(sample).file_stem().unwrap().to_string_lossy());
            let shot = keep.as_ref().map_or_else(|| dir.join(&name), |k| k.join(&name));
            browse(&dir, &format!("shot-{width}"), &[size, format!("--screenshot={}", shot.display())], &page);
            let png = std::fs::read(&shot).unwrap();
            assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
            // PNG IHDR: width at bytes 16..20, big-endian.
            assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), width, "screenshot width");
            assert!(png.len() > 10_000, "screenshot suspiciously small ({} bytes): blank page?", png.len());
        }
    }
    // An empty report says so instead of showing a bare header.
    let page = report(&dir, "samples/json-clean.pcap");
    let (dom, _) = browse(&dir, "empty", &["--dump-dom".into()], &page);
    assert!(dom.contains("No incidents: no rule fired on this capture."), "{dom}");
}

fn attr(dom: &str, name: &str) -> String {
    let at = dom.find(&format!("{name}=\"")).map(|i| i + name.len() + 2);
    at.and_then(|i| dom[i..].find('"').map(|j| dom[i..i + j].to_string())).unwrap_or_else(|| format!("no {name}"))
}
