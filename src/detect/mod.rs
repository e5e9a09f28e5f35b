//! Detection: facts in, incidents out. Rules are indexed by the fact kind they apply to, so a fact is
//! checked only against its own rules (a CEL evaluation costs microseconds; facts are rare, packets are
//! not). Repeated firings of a rule in one session raise `count` and `last_seen` of one incident, as
//! Suricata's per-flow event rules and Zeek's notice suppression do.

pub mod guard;
pub mod rule;
pub mod typecheck;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::facts::{Fact, FactKind};
use crate::time::Timestamp;

pub use rule::{Rule, RuleError, RuleText, Severity, Suppress};

/// The built-in rules (`rules/*.toml`, by file name), embedded at build time by `build.rs` so the binary
/// runs from any directory.
pub const BUILTIN: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/builtin_rules.rs"));

/// Appended to the evidence of an incident whose session lost stream bytes to a capture gap: what the
/// rule saw may be incomplete (a response shift judged across a gap, an event id never seen), so the
/// reader must weigh it (Zeek marks such messages "interrupted by a content gap"). Added once per row,
/// also when only a repeat crossed the gap.
pub const CROSSES_GAP: &str = " (evidence crosses a capture gap)";

/// The fact's session lost bytes to a gap, and the fact is not the gap notice itself (CAPTURE-GAPS says
/// so already).
fn marks_gap(fact: &Fact) -> bool {
    fact.ctx.crosses_gap && !matches!(fact.kind, FactKind::CaptureGap(_))
}

/// The report's row order: first seen, then first frame, then rule id and session; the remaining
/// columns only break ties, so that the order is total and rows merged from `--threads N` shards come out
/// as one thread would write them.
pub fn report_order(a: &Incident, b: &Incident) -> std::cmp::Ordering {
    fn key(i: &Incident) -> (Timestamp, Option<u64>, &str, &str) {
        (i.first_seen, i.frames.first().copied(), &i.rule_id, &i.session_key)
    }
    fn rest(i: &Incident) -> (&str, &str, &str, &str, Timestamp, u64, &[u64], &str) {
        (&i.client, &i.server, &i.host, &i.endpoint, i.last_seen, i.count, &i.frames, &i.evidence)
    }
    key(a).cmp(&key(b)).then_with(|| rest(a).cmp(&rest(b)))
}

/// Frames listed per incident at most (INCIDENTS.md, `frames` column).
pub const MAX_FRAMES: usize = 8;

#[derive(Debug, Default)]
pub struct RuleSet {
    rules: Vec<Rule>,
    by_kind: HashMap<String, Vec<usize>>,
}

impl RuleSet {
    /// The built-in rules.
    pub fn builtin() -> Result<RuleSet, RuleError> {
        let mut set = RuleSet::default();
        for (name, text) in BUILTIN {
            set.add(Rule::parse(name, text)?)?;
        }
        Ok(set)
    }

    /// Adds the `*.toml` rules of a directory; a rule with the id of a loaded one replaces it.
    pub fn load_dir(&mut self, dir: &Path) -> Result<(), RuleError> {
        let io_err = |message: String| RuleError { source_name: dir.display().to_string(), id: "-".into(), message };
        let entries = std::fs::read_dir(dir).map_err(|e| io_err(format!("cannot read rules directory: {}", crate::io_reason(&e))))?;
        let mut paths: Vec<_> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect();
        // Deterministic: a later file overrides an earlier one only by name order.
        paths.sort();
        for p in paths {
            let name = p.display().to_string();
            let text = std::fs::read_to_string(&p).map_err(|e| RuleError { source_name: name.clone(), id: "-".into(), message: format!("cannot read: {}", crate::io_reason(&e)) })?;
            match RuleText::parse(&name, &text)? {
                RuleText::Rule(rule) => self.replace(*rule),
                RuleText::Patch(patch) => {
                    let id = patch.id.clone();
                    let Some(rule) = self.rules.iter_mut().find(|r| r.id == id) else {
                        return Err(RuleError { source_name: name, id, message: "patch for a rule that is not loaded".into() });
                    };
                    rule.apply(patch, &name)?;
                    self.reindex();
                }
            }
        }
        Ok(())
    }

    fn add(&mut self, rule: Rule) -> Result<(), RuleError> {
        if let Some(old) = self.rules.iter().find(|r| r.id == rule.id) {
            return Err(RuleError { source_name: rule.source.clone(), id: rule.id.clone(), message: format!("duplicate id (also in {})", old.source) });
        }
        self.rules.push(rule);
        self.reindex();
        Ok(())
    }

    fn replace(&mut self, rule: Rule) {
        match self.rules.iter_mut().find(|r| r.id == rule.id) {
            Some(slot) => *slot = rule,
            None => self.rules.push(rule),
        }
        self.reindex();
    }

    fn reindex(&mut self) {
        self.by_kind.clear();
        for (i, r) in self.rules.iter().enumerate() {
            if r.enabled {
                self.by_kind.entry(r.fact.clone()).or_default().push(i);
            }
        }
    }

    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// When the timed facts are due: the values of the enabled rules' `timer` params, per fact kind.
    pub fn checkpoints(&self) -> crate::facts::Checkpoints {
        let secs = |kind: &str| -> Vec<i64> {
            self.rules
                .iter()
                .filter(|r| r.enabled && r.fact == kind)
                .filter_map(|r| match r.timer.as_ref().and_then(|t| r.params.get(t)) {
                    Some(rule::Param::Int(n)) => Some(*n),
                    _ => None,
                })
                .collect()
        };
        crate::facts::Checkpoints { request_waiting: secs("request_waiting"), stale_session: secs("stale_session") }
    }

    /// Rules of the fact's kind whose condition holds. Evaluation errors are returned with the rule.
    pub fn evaluate<'s>(&'s self, fact: &Fact, mut on_error: impl FnMut(&'s Rule, String)) -> Vec<&'s Rule> {
        let Some(idx) = self.by_kind.get(fact.kind.name()) else { return Vec::new() };
        idx.iter()
            .filter_map(|&i| self.rules.get(i))
            .filter(|r| match r.matches(fact) {
                Ok(b) => b,
                Err(e) => {
                    on_error(r, e);
                    false
                }
            })
            .collect()
    }
}

/// One row of the report: a rule firing for a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incident {
    pub first_seen: Timestamp,
    pub last_seen: Timestamp,
    pub rule_id: String,
    pub rev: u32,
    pub severity: Severity,
    pub session_id: String,
    pub client: String,
    pub server: String,
    pub host: String,
    pub endpoint: String,
    pub era: String,
    pub count: u64,
    pub frames: Vec<u64>,
    pub evidence: String,
    pub action: String,
    /// Aggregation key (not a column).
    pub session_key: String,
}

/// What happened to an incident table on a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Raised {
    /// A new incident (row index).
    New(usize),
    /// An existing incident's count went up (row index).
    Repeat(usize),
}

/// Incidents of a run, one per rule and session, in the order they were first raised.
///
/// Memory: rows are kept to the end of the run (the CSV is sorted), so a capture with endless distinct
/// sessions that each trip a rule would grow the table without bound. Past `cap` rows a new incident is
/// not dropped but merged into one overflow row per rule (session `*`, counted in `merged`): the finding
/// survives with its count. A flood of one rule must not take attribution from the others, so each rule
/// keeps its first `RULE_FLOOR` rows (or `cap`, if smaller) of its own even past the cap: the table
/// stays within the cap plus `RULE_FLOOR + 1` rows per rule.
#[derive(Debug, Default)]
pub struct Incidents {
    // ALLOC: one row per rule and session, bounded by limits::max_incidents (+ one overflow row per rule)
    rows: Vec<Incident>,
    index: HashMap<(String, String), usize>,
    pub eval_errors: u64,
    /// Rows kept before new incidents are merged per rule; `None`: no cap.
    cap: Option<usize>,
    /// Incidents merged into an overflow row at the cap.
    pub merged: u64,
    /// Rows per rule id, for the floor.
    per_rule: HashMap<String, usize>,
}

/// Rows each rule keeps of its own past the incident cap.
const RULE_FLOOR: usize = 100;

/// Evidence suffix of a row that merges incidents past the incident cap.
pub const MERGED_AT_CAP: &str = " (more sessions merged into this row at the incident cap)";

impl Incidents {
    /// An empty table that keeps at most `cap` rows before merging new incidents per rule.
    pub fn with_cap(cap: usize) -> Incidents {
        Incidents { cap: Some(cap), ..Incidents::default() }
    }

    pub fn raise(&mut self, rule: &Rule, fact: &Fact) -> Raised {
        let scope = match rule.suppress {
            Suppress::Session => fact.ctx.session_key.to_string(),
            Suppress::Server => fact.ctx.server.to_string(),
            Suppress::None => format!("#{}", self.rows.len()),
        };
        let mut key = (rule.id.clone(), scope);
        let rule_rows = self.per_rule.get(&rule.id).copied().unwrap_or(0);
        let full = self.cap.is_some_and(|cap| self.rows.len() >= cap && rule_rows >= RULE_FLOOR.min(cap));
        let overflow = full && !self.index.contains_key(&key);
        if overflow {
            key.1 = "* overflow".to_string();
            self.merged = self.merged.saturating_add(1);
        }
        if let Some(&i) = self.index.get(&key) {
            if let Some(row) = self.rows.get_mut(i) {
                row.count += 1;
                // A fact may come after a later one of its row: a GET's answer is held until the session's
                // next POST answer says what it meant (`mcp/response.rs`).
                row.first_seen = row.first_seen.min(fact.ctx.ts);
                row.last_seen = row.last_seen.max(fact.ctx.ts);
                for f in &fact.ctx.frames {
                    if row.frames.len() < MAX_FRAMES && !row.frames.contains(f) {
                        row.frames.push(*f);
                    }
                }
                if marks_gap(fact) && !row.evidence.ends_with(CROSSES_GAP) {
                    row.evidence.push_str(CROSSES_GAP);
                }
            }
            return Raised::Repeat(i);
        }
        let era = match (fact.ctx.era, &*fact.ctx.version) {
            (e, "") => e.as_str().to_string(),
            (e, v) => format!("{} ({v})", e.as_str()),
        };
        let mut frames: Vec<u64> = Vec::new();
        for f in &fact.ctx.frames {
            if frames.len() < MAX_FRAMES && !frames.contains(f) {
                frames.push(*f);
            }
        }
        let row = Incident {
            first_seen: fact.ctx.ts,
            last_seen: fact.ctx.ts,
            rule_id: rule.id.clone(),
            rev: rule.rev,
            severity: rule.severity,
            session_id: fact.ctx.session_id.to_string(),
            client: fact.ctx.client.to_string(),
            server: fact.ctx.server.to_string(),
            host: fact.ctx.host.to_string(),
            endpoint: fact.ctx.endpoint.to_string(),
            era,
            count: 1,
            frames,
            evidence: {
                let mut e = rule.render_evidence(fact);
                if marks_gap(fact) {
                    e.push_str(CROSSES_GAP);
                }
                e
            },
            action: rule.action.clone(),
            session_key: fact.ctx.session_key.to_string(),
        };
        let mut row = row;
        if overflow {
            row.session_id = "*".to_string();
            row.session_key = key.1.clone();
            row.evidence.push_str(MERGED_AT_CAP);
        }
        self.rows.push(row);
        *self.per_rule.entry(rule.id.clone()).or_default() += 1;
        let i = self.rows.len() - 1;
        self.index.insert(key, i);
        Raised::New(i)
    }

    pub fn get(&self, i: usize) -> Option<&Incident> {
        self.rows.get(i)
    }

    /// Every row, in no order (`report_order` sorts them for the report).
    pub fn into_rows(self) -> Vec<Incident> {
        self.rows
    }

    /// Incident counts by rule id, for the summary.
    pub fn by_rule(&self) -> BTreeMap<&str, u64> {
        let mut m = BTreeMap::new();
        for r in &self.rows {
            *m.entry(r.rule_id.as_str()).or_default() += 1;
        }
        m
    }

    pub fn len(&self) -> usize {
        self.rows.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    #[test]
    fn builtin_rules_load_with_unique_ids() {
        let set = RuleSet::builtin().unwrap();
        let mut ids: Vec<&str> = set.rules().iter().map(|r| r.id.as_str()).collect();
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n);
        assert!(ids.contains(&"MCP-SSE-DOWNGRADE"));
    }

    #[test]
    fn every_rule_file_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "toml") {
                let name = format!("rules/{}", p.file_name().unwrap().to_string_lossy());
                assert!(BUILTIN.iter().any(|(n, _)| *n == name), "{name} is not in detect::BUILTIN");
            }
        }
    }

    #[test]
    fn builtin_ids_match_file_names() {
        for r in RuleSet::builtin().unwrap().rules() {
            assert_eq!(r.source, format!("rules/{}.toml", r.id));
        }
    }

    fn shift(crosses_gap: bool, session: &str) -> Fact {
        use crate::facts::{FactContext, ResponseShift};
        Fact {
            ctx: FactContext::for_test(session, session, crosses_gap),
            kind: FactKind::ResponseShift(ResponseShift { to: "text/event-stream".into(), cursor: "none".into(), json_before: 3, ..Default::default() }),
        }
    }

    #[test]
    fn incident_evidence_says_when_it_crosses_a_gap() {
        let set = RuleSet::builtin().unwrap();
        let rule = set.rules().iter().find(|r| r.id == "MCP-SSE-DOWNGRADE").unwrap();
        let mut inc = Incidents::default();
        let Raised::New(clean) = inc.raise(rule, &shift(false, "a")) else { panic!("new") };
        assert!(!inc.get(clean).unwrap().evidence.ends_with(CROSSES_GAP));
        let Raised::New(gapped) = inc.raise(rule, &shift(true, "b")) else { panic!("new") };
        assert!(inc.get(gapped).unwrap().evidence.ends_with(CROSSES_GAP), "{}", inc.get(gapped).unwrap().evidence);
        // A repeat that crosses a gap marks the row once; further repeats do not stack the suffix.
        inc.raise(rule, &shift(true, "a"));
        inc.raise(rule, &shift(true, "a"));
        let e = &inc.get(clean).unwrap().evidence;
        assert!(e.ends_with(CROSSES_GAP) && e.matches(CROSSES_GAP).count() == 1, "{e}");
    }

    #[test]
    fn a_row_spans_its_facts_whatever_order_they_come_in() {
        // A GET's answer held until the session's next POST answer comes after later facts of its row.
        let set = RuleSet::builtin().unwrap();
        let rule = set.rules().iter().find(|r| r.id == "MCP-SSE-DOWNGRADE").unwrap();
        let mut inc = Incidents::default();
        let at = |secs: i64| {
            let mut f = shift(false, "a");
            f.ctx.ts = crate::time::Timestamp::from_secs_micros(secs, 0);
            f
        };
        let Raised::New(row) = inc.raise(rule, &at(20)) else { panic!("new") };
        inc.raise(rule, &at(10));
        inc.raise(rule, &at(30));
        let r = inc.get(row).unwrap();
        assert_eq!((r.first_seen, r.last_seen, r.count), (at(10).ctx.ts, at(30).ctx.ts, 3));
    }

    #[test]
    fn incidents_past_the_cap_merge_into_one_row_per_rule() {
        let set = RuleSet::builtin().unwrap();
        let rule = set.rules().iter().find(|r| r.id == "MCP-SSE-DOWNGRADE").unwrap();
        let mut inc = Incidents::with_cap(3);
        for i in 0..1000 {
            inc.raise(rule, &shift(false, &format!("s{i}")));
        }
        // Three sessions of their own, then one row for the other 997.
        assert_eq!(inc.len(), 4);
        assert_eq!(inc.merged, 997);
        let over = inc.get(3).unwrap();
        assert_eq!((over.session_id.as_str(), over.count), ("*", 997));
        assert!(over.evidence.ends_with(MERGED_AT_CAP), "{}", over.evidence);
        // A session that already has its row keeps counting there.
        assert!(matches!(inc.raise(rule, &shift(false, "s1")), Raised::Repeat(1)));
        assert_eq!(inc.merged, 997);
        // Another rule still gets rows of its own past the cap.
        let other = set.rules().iter().find(|r| r.id != rule.id).unwrap();
        assert!(matches!(inc.raise(other, &shift(false, "x")), Raised::New(4)));
        assert_eq!(inc.get(4).unwrap().session_id, "x");
    }
}
