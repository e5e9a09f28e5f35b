//! The test suite itself: no test passes having checked nothing. A test that drives an external tool
//! (tshark, Chromium, GNU time) finds it on PATH (no hard-coded /usr/bin path) and carries
//! `#[cfg_attr(not(any(has_TOOL, ci)), ignore = "...")]`, so where the tool is missing the test summary
//! lists it as ignored with the reason, and under CI=true it runs and fails (build.rs sets the cfgs).

use std::collections::{BTreeMap, BTreeSet};

use crate::common::*;

/// The tool helpers of tests/common and the cfg each needs.
const TOOLS: &[(&str, &str)] = &[("tshark()", "has_tshark"), ("chromium()", "has_chromium"), ("gnu_time()", "has_gnu_time")];

/// Top-level functions of a test file: name -> (attributes above it, body).
fn functions(text: &str) -> BTreeMap<String, (String, String)> {
    let mut out = BTreeMap::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        if let Some(rest) = l.strip_prefix("fn ").or_else(|| l.strip_prefix("pub fn ")) {
            let name = rest.split(['(', '<']).next().unwrap_or_default().to_string();
            let mut attrs = Vec::new();
            let mut j = i;
            while j > 0 && (lines[j - 1].starts_with("#[") || lines[j - 1].starts_with("///")) {
                j -= 1;
                attrs.push(lines[j]);
            }
            let end = (i..lines.len()).find(|&k| lines[k] == "}").unwrap_or(lines.len() - 1);
            out.insert(name, (attrs.join("\n"), lines[i..=end].join("\n")));
            i = end;
        }
        i += 1;
    }
    out
}

#[test]
fn every_test_that_needs_a_tool_is_ignored_with_the_reason_when_it_is_missing() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for entry in std::fs::read_dir(root().join("tests")).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_none_or(|e| e != "rs") || p.ends_with("honest.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&p).unwrap();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        for bad in ["/usr/bin/", "SKIPPED", "not installed"] {
            if text.contains(bad) && !name.starts_with("live") && name != "common" {
                problems.push(format!("{name}: contains {bad:?} (find tools on PATH; ignore, never skip by returning)"));
            }
        }
        let fns = functions(&text);
        for (tool, cfg) in TOOLS {
            // Functions that reach the tool, directly or through other functions of the file.
            let mut uses: BTreeSet<&str> = fns.iter().filter(|(_, (_, b))| b.contains(tool)).map(|(n, _)| n.as_str()).collect();
            loop {
                let more: Vec<&str> = fns
                    .iter()
                    .filter(|(n, (_, b))| !uses.contains(n.as_str()) && uses.iter().any(|u| b.contains(&format!("{u}("))))
                    .map(|(n, _)| n.as_str())
                    .collect();
                if more.is_empty() {
                    break;
                }
                uses.extend(more);
            }
            for f in uses {
                let (attrs, _) = &fns[f];
                if attrs.contains("#[test]") {
                    checked += 1;
                    let want = format!("#[cfg_attr(not(any({cfg}, ci)), ignore = \"needs ");
                    if !attrs.contains(&want) {
                        problems.push(format!("{name}: test {f} uses {tool} without `{want}...\")]`"));
                    }
                }
            }
        }
    }
    assert!(checked >= 10, "only {checked} tool tests found: the scan is broken");
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}
