//! The ecosystem corpus (`samples/ecosystem/`): real traffic of implementations other than the two official
//! SDKs' default setups (the conformance suite, third-party SDKs, gateways and proxies, plain JSON-RPC),
//! each capture labelled from the wire in `samples/ecosystem/labels-*.tsv`. A `fire` label must be raised,
//! a `silent` one must not; any incident of severity medium or higher that no `fire` or `tolerated` label
//! names fails the test, so an alarm on traffic nobody here shaped is never let through unlabelled.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::common::{bin, csv_rows, root, stderr, stdout};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Label {
    Fire,
    Silent,
    Tolerated,
}

/// capture file name -> rule id -> label.
fn labels() -> BTreeMap<String, BTreeMap<String, Label>> {
    let dir = root().join("samples/ecosystem");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("labels-") && n.ends_with(".tsv")))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no label tables in {}", dir.display());
    let mut out: BTreeMap<String, BTreeMap<String, Label>> = BTreeMap::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let mut lines = text.lines();
        assert_eq!(lines.next(), Some("capture\trule_id\tlabel\twhy"), "{}: header", f.display());
        for (n, line) in lines.enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let cols: Vec<&str> = line.split('\t').collect();
            assert!(cols.len() >= 4 && !cols[3].trim().is_empty(), "{}:{}: four columns with a reason: {line}", f.display(), n + 2);
            let label = match cols[2] {
                "fire" => Label::Fire,
                "silent" => Label::Silent,
                "tolerated" => Label::Tolerated,
                other => panic!("{}:{}: label '{other}' is not fire, silent or tolerated", f.display(), n + 2),
            };
            let prev = out.entry(cols[0].to_string()).or_default().insert(cols[1].to_string(), label);
            assert!(prev.is_none(), "{}:{}: {} {} labelled twice", f.display(), n + 2, cols[0], cols[1]);
        }
    }
    out
}

fn captures() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root().join("samples/ecosystem"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "pcap" || x == "pcapng"))
        .collect();
    v.sort();
    v
}

/// (rule id, severity) of every row mcptap reports for a capture.
fn report(capture: &Path) -> Vec<(String, String)> {
    let mut args = vec!["-r".to_string(), capture.to_string_lossy().into_owned(), "-q".into()];
    let keys = capture.with_extension("keys");
    if keys.exists() {
        args.extend(["--keylog".to_string(), keys.to_string_lossy().into_owned()]);
    }
    let o = bin().args(&args).output().unwrap();
    assert!(o.status.success(), "{}: {}", capture.display(), stderr(&o));
    let rows = csv_rows(&stdout(&o));
    let header = &rows[0];
    let col = |name: &str| header.iter().position(|c| c == name).unwrap();
    let (rule, sev) = (col("rule_id"), col("severity"));
    rows[1..].iter().map(|r| (r[rule].clone(), r[sev].clone())).collect()
}

#[test]
fn ecosystem_corpus_matches_its_labels() {
    let labels = labels();
    let caps = captures();
    assert!(caps.len() >= 30, "the corpus shrank: {} captures", caps.len());
    let known: BTreeSet<String> = caps.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    for name in labels.keys() {
        assert!(known.contains(name), "labels name {name}, which is not in samples/ecosystem");
    }
    let mut problems = Vec::new();
    for cap in &caps {
        let name = cap.file_name().unwrap().to_string_lossy().into_owned();
        let Some(want) = labels.get(&name) else {
            problems.push(format!("{name}: no labels (every capture is judged from the wire in a labels-*.tsv)"));
            continue;
        };
        let got = report(cap);
        let fired: BTreeSet<&str> = got.iter().map(|(r, _)| r.as_str()).collect();
        for (rule, sev) in &got {
            let alarm = matches!(sev.as_str(), "medium" | "high" | "critical");
            match want.get(rule) {
                Some(Label::Fire | Label::Tolerated) => {}
                Some(Label::Silent) => problems.push(format!("{name}: {rule} ({sev}) fired but is labelled silent")),
                None if alarm => problems.push(format!("{name}: {rule} ({sev}) fired and is not labelled")),
                None => {}
            }
        }
        for (rule, label) in want {
            if *label == Label::Fire && !fired.contains(rule.as_str()) {
                problems.push(format!("{name}: {rule} is labelled fire but was not raised"));
            }
        }
    }
    assert!(problems.is_empty(), "ecosystem corpus disagrees with its labels:\n  {}", problems.join("\n  "));
}

#[test]
fn ecosystem_labels_name_known_rules() {
    let o = bin().args(["rules"]).output().unwrap();
    assert!(o.status.success());
    let listing = stdout(&o);
    for (cap, rules) in labels() {
        for rule in rules.keys() {
            assert!(listing.contains(rule.as_str()), "{cap}: label for unknown rule {rule}");
        }
    }
}
