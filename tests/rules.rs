//! The rule catalogue against the samples: every expectation in `samples/gen/expected-incidents.tsv`
//! (written by the people who made each capture, from INCIDENTS.md) holds, and every built-in rule fires
//! in at least one sample's golden report.

use std::collections::{BTreeMap, BTreeSet};

use crate::common::*;

fn fired(sample: &str) -> BTreeSet<String> {
    let path = format!("samples/{sample}");
    // A TLS sample is read with its key log, as a user would.
    let keys = root().join(&path).with_extension("keys");
    let keys = keys.exists().then(|| keys.display().to_string());
    let mut args = vec!["-q", "-r", path.as_str()];
    if let Some(k) = keys.as_deref() {
        args.extend(["--keylog", k]);
    }
    let o = run(&args);
    assert!(o.status.success(), "{sample}: {}", stderr(&o));
    csv_rows(&stdout(&o)).into_iter().skip(1).map(|r| r[2].clone()).collect()
}

#[test]
fn expected_incidents_fire_and_near_misses_stay_silent() {
    let text = std::fs::read_to_string(root().join("samples/gen/expected-incidents.tsv")).unwrap();
    let mut by_sample: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for line in text.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "bad line: {line}");
        by_sample.entry(cols[0].to_string()).or_default().push((cols[1].to_string(), cols[2].to_string()));
    }
    assert!(by_sample.len() >= 30, "{} samples in the expectations", by_sample.len());
    let mut problems = Vec::new();
    for (sample, expectations) in &by_sample {
        let got = fired(sample);
        for (rule, must) in expectations {
            match must.as_str() {
                "fire" if !got.contains(rule) => problems.push(format!("{sample}: {rule} did not fire")),
                "silent" if got.contains(rule) => problems.push(format!("{sample}: {rule} fired but must not")),
                "fire" | "silent" => {}
                other => problems.push(format!("{sample}: unknown expectation {other}")),
            }
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn every_builtin_rule_fires_in_some_golden_report() {
    let list = run(&["rules"]);
    let ids: BTreeSet<String> = stdout(&list).lines().skip(1).filter_map(|l| l.split_whitespace().next().map(str::to_string)).collect();
    assert!(ids.len() >= 20, "{ids:?}");
    let mut seen = BTreeSet::new();
    for entry in std::fs::read_dir(root().join("tests/golden")).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|e| e == "csv") {
            for row in csv_rows(&std::fs::read_to_string(&p).unwrap()).into_iter().skip(1) {
                seen.insert(row[2].clone());
            }
        }
    }
    let never: Vec<&String> = ids.iter().filter(|id| !seen.contains(*id)).collect();
    assert!(never.is_empty(), "built-in rules that fire in no sample: {never:?}");
}

#[test]
fn docs_cover_every_rule_fact_and_field() {
    let rules_doc = std::fs::read_to_string(root().join("rules/README.md")).unwrap();
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let set = mcptap::detect::RuleSet::builtin().unwrap();
    for r in set.rules() {
        assert!(rules_doc.contains(&format!("#### {}\n", r.id)), "rules/README.md lacks a section for {}", r.id);
        assert!(readme.contains(&format!("| {} | {} |", r.id, r.severity.as_str())), "README.md rule table lacks {}", r.id);
    }
    for (kind, fields) in mcptap::facts::KINDS {
        let header = format!("### `{kind}`");
        let at = rules_doc.find(&header).unwrap_or_else(|| panic!("rules/README.md lacks fact kind {kind}"));
        let section = &rules_doc[at..];
        let section = &section[..section[4..].find("\n### ").map_or(section.len(), |i| i + 4)];
        for (field, ty) in *fields {
            assert!(section.contains(&format!("| {field} | {} |", ty.as_str())), "rules/README.md: fact {kind} lacks field {field}");
        }
    }
}

/// Every built-in rule file: its TOML table.
fn rule_files() -> Vec<(String, toml::Table)> {
    let mut v: Vec<(String, toml::Table)> = std::fs::read_dir(root().join("rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap().parse::<toml::Table>().unwrap()))
        .collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

#[test]
fn no_builtin_rule_is_a_label_decided_in_code() {
    // INCIDENTS.md: "a rule whose condition is `true` and whose verdict was made in Rust is a label".
    for (name, t) in rule_files() {
        let cond = t["condition"].as_str().unwrap().trim();
        assert!(!matches!(cond, "true" | "(true)" | "!false"), "{name}: condition '{cond}' decides nothing");
    }
}

#[test]
fn every_rule_references_its_section_of_the_incident_reference() {
    let doc = std::fs::read_to_string(root().join("docs/incidents.md")).unwrap();
    for (name, t) in rule_files() {
        let id = t["id"].as_str().unwrap();
        let refs: Vec<&str> = t["references"].as_array().unwrap().iter().map(|r| r.as_str().unwrap()).collect();
        let want = format!("docs/incidents.md#{}", id.to_ascii_lowercase());
        assert_eq!(refs.first().copied(), Some(want.as_str()), "{name}: first reference");
        assert!(doc.lines().any(|l| l == format!("## {id}")), "docs/incidents.md has no section '## {id}'");
        for r in &refs {
            // Only this repository's documents or the specification and public threads: not a file users do not have.
            assert!(!r.starts_with("INCIDENTS.md") && !r.contains("shared/"), "{name}: reference '{r}' points outside the repository");
        }
    }
}

/// `rules/README.md` shows each rule's row as a sample's report gives it (`From samples/X:` and a code
/// block of rule_id, severity, frames, evidence). Each must be a row of that sample's golden report, so an
/// evidence template changed without its example is caught.
#[test]
fn the_rule_catalogues_examples_are_rows_of_the_golden_reports() {
    let text = std::fs::read_to_string(root().join("rules/README.md")).unwrap();
    let mut seen = 0;
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(sample) = line.strip_prefix("From `samples/").and_then(|l| l.strip_suffix("`:")) else { continue };
        assert_eq!((lines.next(), lines.next()), (Some(""), Some("```")), "rules/README.md: the example of {sample}");
        let example = lines.next().unwrap();
        let want = &csv_rows(example)[0];
        let golden = std::fs::read_to_string(root().join(format!("tests/golden/{sample}.csv"))).unwrap();
        let rows: Vec<Vec<String>> = csv_rows(&golden).into_iter().skip(1).map(|r| vec![r[2].clone(), r[3].clone(), r[11].clone(), r[12].clone()]).collect();
        assert!(rows.contains(want), "rules/README.md's example from {sample} is no row of its golden report:\n{example}\nrows:\n{rows:#?}");
        seen += 1;
    }
    assert!(seen >= 20, "{seen} examples found in rules/README.md");
}
