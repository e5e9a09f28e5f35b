//! A rule: one incident, as data (`rules/*.toml`). Parsed with serde, its CEL condition compiled once and
//! checked against the fact kind's schema at load, so a bad rule stops the run before any packet is read.

use std::collections::BTreeMap;

use cel_interpreter::{Context, Program, Value};
use serde::Deserialize;

use super::guard::Guard;
use super::typecheck::{self, Ty};
use crate::facts::{self, Fact, FieldType, FieldValue};

/// Severity, ordered (`info` < ... < `critical`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }

    /// Case-insensitive (`HIGH`, `High`, `high`), as users type them on a command line.
    pub fn parse(s: &str) -> Option<Severity> {
        Some(match s.to_ascii_lowercase().as_str() {
            "info" => Severity::Info,
            "low" => Severity::Low,
            "medium" => Severity::Medium,
            "high" => Severity::High,
            "critical" => Severity::Critical,
            _ => return None,
        })
    }
}

/// A threshold or window a rule's condition may name.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum Param {
    Int(i64),
    Bool(bool),
    Str(String),
}

/// The file format, field for field (documented in `rules/README.md`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleFile {
    pub id: String,
    #[serde(default = "one")]
    pub rev: u32,
    pub severity: Severity,
    pub fact: String,
    pub summary: String,
    pub condition: String,
    pub evidence: String,
    pub action: String,
    #[serde(default)]
    pub references: Vec<String>,
    #[serde(default)]
    pub params: BTreeMap<String, Param>,
    /// For a fact that the classifier emits on a clock (`request_waiting`, `stale_session`): the integer
    /// param whose value, in seconds of capture time, is an age at which the fact is emitted, so the
    /// rule fires at that value whatever it is.
    #[serde(default)]
    pub timer: Option<String>,
    #[serde(default = "yes")]
    pub enabled: bool,
    #[serde(default)]
    pub suppress: Suppress,
}

/// Fact kinds emitted on a clock, whose rules name their `timer` param.
pub const TIMED_FACTS: &[&str] = &["request_waiting", "stale_session"];

/// How repeated firings are grouped into rows (noise control, as Suricata's per-flow event rules and
/// Zeek's notice suppression do).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Suppress {
    /// One row per session; repeats raise `count` (the default).
    #[default]
    Session,
    /// One row per server address.
    Server,
    /// Every firing is its own row.
    None,
}

impl Suppress {
    pub fn as_str(self) -> &'static str {
        match self {
            Suppress::Session => "session",
            Suppress::Server => "server",
            Suppress::None => "none",
        }
    }
}

/// A file in `--rules DIR` that changes a loaded rule without restating it: only `id` plus any of
/// `severity`, `enabled`, `suppress` and `params` (each param must exist and keep its type).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulePatch {
    pub id: String,
    pub severity: Option<Severity>,
    pub enabled: Option<bool>,
    pub suppress: Option<Suppress>,
    #[serde(default)]
    pub params: BTreeMap<String, Param>,
}

/// What a rule file holds.
#[derive(Debug)]
pub enum RuleText {
    Rule(Box<Rule>),
    Patch(RulePatch),
}

fn one() -> u32 {
    1
}
fn yes() -> bool {
    true
}

/// A loaded, validated rule.
#[derive(Debug)]
pub struct Rule {
    pub id: String,
    pub rev: u32,
    pub severity: Severity,
    pub fact: String,
    pub summary: String,
    pub condition: String,
    pub evidence: String,
    pub action: String,
    pub references: Vec<String>,
    pub params: BTreeMap<String, Param>,
    /// The param that sets when the classifier emits this rule's (timed) fact.
    pub timer: Option<String>,
    pub enabled: bool,
    pub suppress: Suppress,
    /// Where the rule came from (`rules/x.toml` for built-ins, the path for `--rules DIR` files).
    pub source: String,
    program: Program,
    /// Fact fields the condition reads (checked against the schema at load).
    variables: Vec<String>,
    /// The condition's leading terms, checked natively before CEL runs (`guard`).
    guard: Guard,
}

/// Why a rule failed to load: names the file, the rule id when known, and the offending text.
/// Printed `FILE: rule ID: what`, or `FILE: what` when no id is known (`-` or `?`: the file did not
/// parse, or could not be read), so the user never sees a placeholder id.
#[derive(Debug, thiserror::Error)]
pub struct RuleError {
    pub source_name: String,
    pub id: String,
    pub message: String,
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.id.as_str() {
            "" | "-" | "?" => write!(f, "{}: {}", self.source_name, self.message),
            id => write!(f, "{}: rule {id}: {}", self.source_name, self.message),
        }
    }
}

impl RuleText {
    /// A full rule (it has `fact` and `condition`) or a patch of a loaded one.
    pub fn parse(source_name: &str, text: &str) -> Result<RuleText, RuleError> {
        let table: toml::Table = toml::from_str(text).map_err(|e| RuleError {
            source_name: source_name.to_string(),
            id: "?".into(),
            message: format!("not a valid rule file: {}", e.message()),
        })?;
        if table.contains_key("fact") || table.contains_key("condition") {
            return Rule::parse(source_name, text).map(|r| RuleText::Rule(Box::new(r)));
        }
        let id = table.get("id").and_then(|v| v.as_str()).unwrap_or("?").to_string();
        toml::from_str::<RulePatch>(text).map(RuleText::Patch).map_err(|e| RuleError {
            source_name: source_name.to_string(),
            id,
            message: format!("not a valid rule patch (a patch may set only severity, enabled, suppress and params): {}", e.message()),
        })
    }
}

impl Rule {
    /// Applies a patch; a param must already exist and keep its type.
    pub fn apply(&mut self, patch: RulePatch, source_name: &str) -> Result<(), RuleError> {
        for (name, value) in &patch.params {
            let same_type = matches!(
                (self.params.get(name), value),
                (Some(Param::Int(_)), Param::Int(_)) | (Some(Param::Bool(_)), Param::Bool(_)) | (Some(Param::Str(_)), Param::Str(_))
            );
            if !same_type {
                return Err(RuleError {
                    source_name: source_name.to_string(),
                    id: self.id.clone(),
                    message: format!("param '{name}' is not a param of this rule, or changes its type"),
                });
            }
            if self.timer.as_deref() == Some(name.as_str()) && !matches!(value, Param::Int(n) if *n > 0) {
                return Err(RuleError {
                    source_name: source_name.to_string(),
                    id: self.id.clone(),
                    message: format!("param '{name}' is the rule's timer: it must be an integer above 0 (seconds)"),
                });
            }
        }
        if let Some(s) = patch.severity {
            self.severity = s;
        }
        if let Some(e) = patch.enabled {
            self.enabled = e;
        }
        if let Some(s) = patch.suppress {
            self.suppress = s;
        }
        self.params.extend(patch.params);
        self.source = format!("{} + {source_name}", self.source);
        Ok(())
    }

    pub fn parse(source_name: &str, text: &str) -> Result<Rule, RuleError> {
        let err = |id: &str, message: String| RuleError { source_name: source_name.to_string(), id: id.to_string(), message };
        let file: RuleFile = toml::from_str(text).map_err(|e| err("?", format!("not a valid rule file: {}", e.message())))?;
        let id = file.id.clone();
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_') {
            return Err(err(&id, format!("id '{id}' must be non-empty ASCII letters, digits, '-' or '_'")));
        }
        let schema = facts::schema(&file.fact).ok_or_else(|| {
            let known: Vec<&str> = facts::KINDS.iter().map(|(n, _)| *n).collect();
            err(&id, format!("unknown fact kind '{}' (known: {})", file.fact, known.join(", ")))
        })?;
        for name in file.params.keys() {
            if schema.iter().any(|(f, _)| f == name) {
                return Err(err(&id, format!("param '{name}' shadows a field of fact '{}'", file.fact)));
            }
        }
        if let Some(t) = &file.timer {
            if !TIMED_FACTS.contains(&file.fact.as_str()) {
                return Err(err(&id, format!("timer '{t}' on fact '{}', which is not emitted on a clock (timed facts: {})", file.fact, TIMED_FACTS.join(", "))));
            }
            if !matches!(file.params.get(t), Some(Param::Int(n)) if *n > 0) {
                return Err(err(&id, format!("timer '{t}' must name an integer param above 0 (seconds of capture time)")));
            }
        }
        let program = Program::compile(&file.condition)
            .map_err(|e| err(&id, format!("condition does not parse: {e}: `{}`", file.condition.trim())))?;
        let ast = cel_parser::Parser::default()
            .parse(&file.condition)
            .map_err(|e| err(&id, format!("condition does not parse: {e}")))?;
        let mut variables = Vec::new();
        for v in typecheck::free_variables(&ast) {
            let known = schema.iter().any(|(f, _)| *f == v) || file.params.contains_key(&v);
            if !known {
                return Err(err(&id, format!("condition names '{v}', which is neither a field of fact '{}' nor a param: `{}`", file.fact, file.condition.trim())));
            }
            if !file.params.contains_key(&v) {
                variables.push(v);
            }
        }
        for name in placeholders(&file.evidence) {
            let known = schema.iter().any(|(f, _)| *f == name) || file.params.contains_key(name);
            if !known {
                return Err(err(&id, format!("evidence names '{{{name}}}', which is neither a field of fact '{}' nor a param", file.fact)));
            }
        }
        let rule = Rule {
            id: id.clone(),
            rev: file.rev,
            severity: file.severity,
            fact: file.fact,
            summary: file.summary,
            condition: file.condition,
            evidence: file.evidence,
            action: file.action,
            references: file.references,
            params: file.params,
            timer: file.timer,
            enabled: file.enabled,
            suppress: file.suppress,
            source: source_name.to_string(),
            program,
            variables,
            guard: Guard::compile(&ast, &|name| schema.iter().any(|(f, _)| *f == name)),
        };
        let lookup = |name: &str| -> Option<Ty> {
            schema.iter().find(|(f, _)| *f == name).map(|(_, t)| Ty::from(*t)).or_else(|| {
                rule.params.get(name).map(|p| match p {
                    Param::Int(_) => Ty::Int,
                    Param::Bool(_) => Ty::Bool,
                    Param::Str(_) => Ty::Str,
                })
            })
        };
        match typecheck::check(&ast, &lookup) {
            Ok(Ty::Bool | Ty::Other) => {}
            Ok(t) => return Err(err(&id, format!("condition is not a bool: `{}` ({t:?})", rule.condition.trim()))),
            Err(e) => return Err(err(&id, format!("condition is ill-typed: {e}: `{}`", rule.condition.trim()))),
        }
        // A dry run on a zero-valued fact catches what the static check cannot see.
        let probe = zero_fact(&schema);
        rule.eval_values(&probe)
            .map_err(|e| err(&id, format!("condition fails on a sample fact: {e}: `{}`", rule.condition.trim())))?;
        Ok(rule)
    }

    /// Whether the fact satisfies the condition. Errors are evaluation failures (counted, not fatal).
    pub fn matches(&self, fact: &Fact) -> Result<bool, String> {
        match self.guard.decide(&|name| fact.field(name), &self.params) {
            Some(known) => Ok(known),
            None => self.matches_in_cel(fact),
        }
    }

    /// The condition evaluated by CEL alone, without the guard.
    fn matches_in_cel(&self, fact: &Fact) -> Result<bool, String> {
        let values: Vec<(&str, FieldValue<'_>)> = self
            .variables
            .iter()
            .filter_map(|v| fact.field(v).map(|val| (v.as_str(), val)))
            .collect();
        self.eval_values(&values)
    }

    fn eval_values<N: AsRef<str>>(&self, values: &[(N, FieldValue<'_>)]) -> Result<bool, String> {
        // The root context holds the built-in functions, registered once per thread: building it for every
        // evaluation (`Context::default()`) cost more than evaluating the condition. Params and fact fields
        // go into a child scope, which resolves functions through its parent.
        thread_local! {
            static ROOT: Context<'static> = Context::default();
        }
        ROOT.with(|root| {
            let mut ctx = root.new_inner_scope();
            for (name, p) in &self.params {
                ctx.add_variable_from_value(name.clone(), param_value(p));
            }
            for (name, v) in values {
                ctx.add_variable_from_value(name.as_ref(), cel_value(v));
            }
            match self.program.execute(&ctx) {
                Ok(Value::Bool(b)) => Ok(b),
                Ok(other) => Err(format!("condition gave {other:?}, not a bool")),
                Err(e) => Err(e.to_string()),
            }
        })
    }

    /// The evidence sentence with `{field}` placeholders filled from the fact and params.
    pub fn render_evidence(&self, fact: &Fact) -> String {
        let mut out = String::with_capacity(self.evidence.len() + 32);
        let mut rest = self.evidence.as_str();
        while let Some(open) = rest.find('{') {
            let (before, after) = rest.split_at(open);
            out.push_str(before);
            let after = after.get(1..).unwrap_or("");
            match after.find('}') {
                Some(close) => {
                    let written = after.get(..close).unwrap_or("");
                    let (name, optional) = placeholder_name(written);
                    rest = after.get(close + 1..).unwrap_or("");
                    match fact.field(name).map(|v| v.to_string()).or_else(|| self.params.get(name).map(param_text)) {
                        // `{name?}`: a value only some firings have (the reusing request of a trigger that
                        // has none) is left out with the space after it, so the sentence still reads.
                        Some(v) if v.is_empty() && optional => rest = rest.strip_prefix(' ').unwrap_or(rest),
                        // An empty value (no content type, no method) reads better named than blank.
                        Some(v) if v.is_empty() => out.push_str("(none)"),
                        Some(v) => out.push_str(&v),
                        None => {
                            out.push('{');
                            out.push_str(written);
                            out.push('}');
                        }
                    }
                }
                None => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// A placeholder's field or param name, and whether it was written `{name?}` (left out when empty).
fn placeholder_name(written: &str) -> (&str, bool) {
    match written.strip_suffix('?') {
        Some(name) => (name, true),
        None => (written, false),
    }
}

/// `{name}` and `{name?}` placeholders of an evidence template, by name.
fn placeholders(template: &str) -> Vec<&str> {
    let mut names = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = rest.get(open + 1..).unwrap_or("");
        match after.find('}') {
            Some(close) => {
                names.push(placeholder_name(after.get(..close).unwrap_or("")).0);
                rest = after.get(close + 1..).unwrap_or("");
            }
            None => break,
        }
    }
    names
}

fn cel_value(v: &FieldValue) -> Value {
    match v {
        FieldValue::Str(s) => Value::String(std::sync::Arc::new(s.to_string())),
        FieldValue::Int(n) => Value::Int(*n),
        FieldValue::Bool(b) => Value::Bool(*b),
        FieldValue::IntList(v) => Value::List(std::sync::Arc::new(v.iter().map(|n| Value::Int(*n)).collect())),
    }
}

fn param_value(p: &Param) -> Value {
    match p {
        Param::Int(n) => Value::Int(*n),
        Param::Bool(b) => Value::Bool(*b),
        Param::Str(s) => Value::String(std::sync::Arc::new(s.clone())),
    }
}

fn param_text(p: &Param) -> String {
    match p {
        Param::Int(n) => n.to_string(),
        Param::Bool(b) => b.to_string(),
        Param::Str(s) => s.clone(),
    }
}

fn zero_fact(schema: &[(&'static str, FieldType)]) -> Vec<(String, FieldValue<'static>)> {
    schema
        .iter()
        .map(|(name, ty)| {
            let v = match ty {
                FieldType::Str => FieldValue::Str("".into()),
                FieldType::Int => FieldValue::Int(0),
                FieldType::Bool => FieldValue::Bool(false),
                FieldType::IntList => FieldValue::IntList(Vec::new().into()),
            };
            (name.to_string(), v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;
    use crate::facts::{FactContext, FactKind, ResponseShift};

    #[test]
    fn severity_parse_ignores_case() {
        assert_eq!(Severity::parse("HIGH"), Some(Severity::High));
        assert_eq!(Severity::parse("Critical"), Some(Severity::Critical));
        assert_eq!(Severity::parse("severe"), None);
    }

    #[test]
    fn rule_error_without_an_id_shows_no_placeholder() {
        let e = RuleText::parse("x.toml", "not toml [").err().unwrap();
        assert!(e.to_string().starts_with("x.toml: not a valid rule file:"), "{e}");
        let e = RuleError { source_name: "y.toml".into(), id: "-".into(), message: "cannot read: gone".into() };
        assert_eq!(e.to_string(), "y.toml: cannot read: gone");
        let e = RuleError { source_name: "y.toml".into(), id: "R-1".into(), message: "bad".into() };
        assert_eq!(e.to_string(), "y.toml: rule R-1: bad");
    }

    /// Protocol versions, in order, and text that sorts around them: what version fields are drawn from.
    const VERSIONS: [&str; 8] = ["", "2024-11-05", "2025-03-26", "2025-03-26 ", "2025-06-18", "2025-11-25", "2026-07-28", "x"];

    /// Values a field is drawn from: boundaries, the params' values and their thousands (rules compare
    /// milliseconds with `secs * 1000`), each +-1, the string params, protocol versions, and the string
    /// literals of the condition.
    fn candidates(rule: &Rule) -> (Vec<i64>, Vec<String>) {
        let mut ints = vec![0, 1, 2, 3, -1, 10, 100, i64::MAX, i64::MIN];
        let mut strs: Vec<String> = VERSIONS.iter().map(|v| v.to_string()).collect();
        for p in rule.params.values() {
            match p {
                Param::Int(n) => {
                    for base in [*n, n.saturating_mul(1000)] {
                        ints.extend([base - 1, base, base + 1]);
                    }
                }
                Param::Str(v) => strs.push(v.clone()),
                Param::Bool(_) => {}
            }
        }
        let mut rest = rule.condition.as_str();
        while let Some(open) = rest.find('"') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('"') else { break };
            strs.push(after[..close].to_string());
            rest = &after[close + 1..];
        }
        (ints, strs)
    }

    #[test]
    fn the_guard_answers_as_cel_does_on_every_builtin_rule() {
        // Differential: for many facts per rule, the guarded answer equals CEL's alone, errors included.
        let set = crate::detect::RuleSet::builtin().unwrap();
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let (mut guarded, mut rejected, mut accepted) = (0, 0, 0);
        for rule in set.rules() {
            let schema = facts::schema(&rule.fact).unwrap();
            let (ints, strs) = candidates(rule);
            if rule.guard.len() > 0 {
                guarded += 1;
            }
            for _ in 0..3000 {
                // Now and then a field is missing: CEL then errs, and the guard must not decide.
                let mut values: Vec<(String, FieldValue<'_>)> = Vec::new();
                for (name, ty) in &schema {
                    if next(40) == 0 {
                        continue;
                    }
                    let v = match ty {
                        FieldType::Str => FieldValue::Str(strs[next(strs.len())].clone().into()),
                        FieldType::Int => FieldValue::Int(ints[next(ints.len())]),
                        FieldType::Bool => FieldValue::Bool(next(2) == 0),
                        FieldType::IntList => FieldValue::IntList(vec![ints[next(ints.len())]].into()),
                    };
                    values.push((name.to_string(), v));
                }
                let lookup = |name: &str| values.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
                let cel = rule.eval_values(&values);
                match rule.guard.decide(&lookup, &rule.params) {
                    Some(false) => {
                        rejected += 1;
                        assert_eq!(cel, Ok(false), "{}: the guard turned away a fact CEL answers otherwise: {values:?}", rule.id);
                    }
                    Some(true) => {
                        accepted += 1;
                        assert_eq!(cel, Ok(true), "{}: the guard let through a fact CEL answers otherwise: {values:?}", rule.id);
                    }
                    None => {}
                }
            }
        }
        // The guard must have work to do: most built-in conditions start with simple terms.
        assert!(guarded * 2 > set.rules().len(), "only {guarded} of {} rules guarded", set.rules().len());
        assert!(rejected > 10_000, "the guard turned away only {rejected} facts");
        assert!(accepted > 100, "the guard decided only {accepted} facts true");
    }

    #[test]
    fn the_guard_decides_the_response_shift_rules_whole_as_cel_does() {
        // The two rules every response shift goes through end in a list membership and an `||`: with the
        // leading terms held, every cursor, server message count and capture loss (and a field missing
        // now and then) is decided natively, and as CEL decides it.
        let set = crate::detect::RuleSet::builtin().unwrap();
        for id in ["MCP-SSE-DOWNGRADE", "MCP-SSE-SHIFT"] {
            let rule = set.rules().iter().find(|r| r.id == id).unwrap();
            let schema = facts::schema(&rule.fact).unwrap();
            let (mut decided, mut held) = (0, 0);
            for cursor in [None, Some("none"), Some("regressing"), Some("ordered"), Some("unordered-unique"), Some(""), Some("x")] {
                for server_messages in [None, Some(-1), Some(0), Some(1), Some(7)] {
                    for capture_loss in [false, true] {
                        let mut values: Vec<(String, FieldValue<'_>)> = Vec::new();
                        for (name, ty) in &schema {
                            let v = match (*name, ty) {
                                ("to", _) => FieldValue::Str("text/event-stream".into()),
                                ("from", _) => FieldValue::Str("application/json".into()),
                                ("era", _) => FieldValue::Str("streamable-2025".into()),
                                ("json_before", _) => FieldValue::Int(2),
                                ("has_session_id" | "single_message", _) => FieldValue::Bool(true),
                                ("capture_loss", _) => FieldValue::Bool(capture_loss),
                                ("cursor", _) => match cursor {
                                    Some(c) => FieldValue::Str(c.into()),
                                    None => continue,
                                },
                                ("server_messages", _) => match server_messages {
                                    Some(n) => FieldValue::Int(n),
                                    None => continue,
                                },
                                (_, FieldType::Str) => FieldValue::Str("".into()),
                                (_, FieldType::Int) => FieldValue::Int(0),
                                (_, FieldType::Bool) => FieldValue::Bool(false),
                                (_, FieldType::IntList) => FieldValue::IntList(vec![].into()),
                            };
                            values.push((name.to_string(), v));
                        }
                        let lookup = |name: &str| values.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
                        let cel = rule.eval_values(&values);
                        let native = rule.guard.decide(&lookup, &rule.params);
                        if let Some(b) = native {
                            decided += 1;
                            held += usize::from(b);
                            assert_eq!(cel, Ok(b), "{id}: {values:?}");
                        } else {
                            // Only a missing field the condition reaches leaves the fact to CEL.
                            assert!(cursor.is_none() || server_messages.is_none(), "{id} undecided: {values:?}");
                        }
                    }
                }
            }
            assert!(decided >= 2 * 6 * 4 && held > 0 && held < decided, "{id}: {decided} decided, {held} held");
        }
    }

    #[test]
    fn the_guard_decides_the_version_downgrade_rule_whole_as_cel_does() {
        // Every `initialize` goes through it: string order and field-against-field comparisons, decided
        // natively for every combination of versions and eras, and as CEL decides them; a missing field
        // the condition reaches leaves the fact to CEL.
        let set = crate::detect::RuleSet::builtin().unwrap();
        let rule = set.rules().iter().find(|r| r.id == "MCP-VERSION-DOWNGRADE").unwrap();
        let schema = facts::schema(&rule.fact).unwrap();
        let with_missing = || VERSIONS.iter().map(|v| Some(*v)).chain([None]);
        let (mut decided, mut held, mut undecided) = (0, 0, 0);
        for negotiated in with_missing() {
            for server_best in with_missing() {
                for client_previous in with_missing() {
                    for era in ["streamable-2025", "legacy-sse-2024", "stateless-2026", ""] {
                        // Every other field at its zero value; a version field absent where it is `None`.
                        let mut values = zero_fact(&schema);
                        for (name, v) in [("negotiated", negotiated), ("server_best", server_best), ("client_previous", client_previous), ("era", Some(era))] {
                            match v {
                                Some(v) => values.iter_mut().filter(|(n, _)| n == name).for_each(|(_, f)| *f = FieldValue::Str(v.into())),
                                None => values.retain(|(n, _)| n != name),
                            }
                        }
                        let lookup = |name: &str| values.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
                        let cel = rule.eval_values(&values);
                        match rule.guard.decide(&lookup, &rule.params) {
                            Some(b) => {
                                decided += 1;
                                held += usize::from(b);
                                assert_eq!(cel, Ok(b), "{values:?}");
                            }
                            None => {
                                undecided += 1;
                                let all = negotiated.is_some() && server_best.is_some() && client_previous.is_some();
                                assert!(!all, "undecided with every field present: {values:?}");
                            }
                        }
                    }
                }
            }
        }
        let all_present = VERSIONS.len().pow(3) * 4;
        assert!(decided >= all_present && held > 100 && held < decided / 2, "{decided} decided, {held} held, {undecided} left to CEL");
    }

    #[test]
    fn built_in_conditions_on_ordinary_traffic_are_decided_natively() {
        // CEL stays for conditions users write, and for built-in ones on facts only failures produce
        // (error responses, fallbacks, answers to GETs: `size(filter)`, `endsWith`, negated groups); every
        // other fact goes through its rules with no CEL context built and nothing allocated (README,
        // Performance: allocations).
        let set = crate::detect::RuleSet::builtin().unwrap();
        let rare = ["error_response", "fallback", "get_response"];
        let left: Vec<&str> = set.rules().iter().filter(|r| !r.guard.is_whole() && !rare.contains(&r.fact.as_str())).map(|r| r.id.as_str()).collect();
        assert!(left.is_empty(), "left to CEL: {left:?}");
        assert!(set.rules().iter().filter(|r| !rare.contains(&r.fact.as_str())).count() > 20);
    }

    #[test]
    fn the_guard_checks_the_stream_end_rules_natively() {
        // The three rules every stream_end goes through: each is a conjunction the guard reads whole.
        let set = crate::detect::RuleSet::builtin().unwrap();
        for id in ["MCP-SSE-BUFFERED", "MCP-SSE-IDLE", "MCP-STREAM-LOST"] {
            let r = set.rules().iter().find(|r| r.id == id).unwrap();
            let terms = r.condition.split("&&").count();
            assert_eq!(r.guard.len(), terms, "{id}: {}", r.condition);
        }
    }

    const GOOD: &str = r#"
id = "T-1"
severity = "high"
fact = "response_shift"
summary = "s"
condition = 'to == "text/event-stream" && json_before >= min_json && cursor in ["none", "regressing"]'
evidence = "after {json_before} JSON responses, cursor {cursor} (min {min_json})"
action = "renegotiate"
[params]
min_json = 1
"#;

    fn fact(cursor: &str, json_before: i64) -> Fact {
        Fact {
            ctx: FactContext::for_test("k", "abc", false),
            kind: FactKind::ResponseShift(ResponseShift { to: "text/event-stream".into(), cursor: cursor.to_string().into(), json_before, ..Default::default() }),
        }
    }

    #[test]
    fn rule_patch_changes_severity_params_and_suppression_only() {
        let mut r = Rule::parse("t.toml", GOOD).unwrap();
        let patch = match RuleText::parse("p.toml", "id = \"T-1\"\nseverity = \"low\"\nsuppress = \"none\"\n[params]\nmin_json = 3\n").unwrap() {
            RuleText::Patch(p) => p,
            RuleText::Rule(_) => panic!("a patch"),
        };
        r.apply(patch, "p.toml").unwrap();
        assert_eq!(r.severity, Severity::Low);
        assert_eq!(r.suppress, Suppress::None);
        assert_eq!(r.matches(&fact("none", 2)), Ok(false));
        assert_eq!(r.matches(&fact("none", 3)), Ok(true));
        assert_eq!(r.source, "t.toml + p.toml");
        let bad = match RuleText::parse("p.toml", "id = \"T-1\"\n[params]\nmin_json = \"x\"\n").unwrap() {
            RuleText::Patch(p) => p,
            RuleText::Rule(_) => panic!("a patch"),
        };
        assert!(r.apply(bad, "p.toml").unwrap_err().to_string().contains("changes its type"));
        assert!(RuleText::parse("p.toml", "id = \"T-1\"\nsummary = \"x\"\n").unwrap_err().to_string().contains("not a valid rule patch"));
    }

    #[test]
    fn rule_matches_and_renders() {
        let r = Rule::parse("t.toml", GOOD).unwrap();
        assert_eq!(r.matches(&fact("none", 2)), Ok(true));
        assert_eq!(r.matches(&fact("ordered", 2)), Ok(false));
        assert_eq!(r.matches(&fact("none", 0)), Ok(false));
        assert_eq!(r.render_evidence(&fact("none", 2)), "after 2 JSON responses, cursor none (min 1)");
    }

    #[test]
    fn optional_placeholder_leaves_an_empty_value_out() {
        let r = Rule::parse("t.toml", &GOOD.replace("cursor {cursor} (min", "cursor {cursor?} (min")).unwrap();
        assert_eq!(r.render_evidence(&fact("", 2)), "after 2 JSON responses, cursor (min 1)");
        assert_eq!(r.render_evidence(&fact("none", 2)), "after 2 JSON responses, cursor none (min 1)");
        let plain = Rule::parse("t.toml", GOOD).unwrap();
        assert_eq!(plain.render_evidence(&fact("", 2)), "after 2 JSON responses, cursor (none) (min 1)");
        let e = Rule::parse("t", &GOOD.replace("{cursor}", "{cursr?}")).unwrap_err().to_string();
        assert!(e.contains("evidence names '{cursr}'"), "{e}");
    }

    #[test]
    fn rule_unknown_field_is_a_load_error_naming_file_id_and_text() {
        let bad = GOOD.replace("json_before >= min_json", "json_count >= 1");
        let e = Rule::parse("rules/t.toml", &bad).unwrap_err().to_string();
        assert!(e.starts_with("rules/t.toml: rule T-1: condition names 'json_count'"), "{e}");
        assert!(e.contains("json_count >= 1"), "{e}");
    }

    #[test]
    fn rule_syntax_error_is_a_load_error() {
        let bad = GOOD.replace("&& cursor in", "&& && cursor in");
        let e = Rule::parse("t.toml", &bad).unwrap_err().to_string();
        assert!(e.contains("condition does not parse"), "{e}");
    }

    #[test]
    fn rule_type_error_is_a_load_error() {
        let bad = GOOD.replace("json_before >= min_json", "json_before >= \"x\"");
        let e = Rule::parse("t.toml", &bad).unwrap_err().to_string();
        assert!(e.contains("condition is ill-typed: '>=' compares int with string"), "{e}");
    }

    #[test]
    fn rule_unknown_fact_severity_placeholder_are_load_errors() {
        assert!(Rule::parse("t", &GOOD.replace("response_shift", "nope")).unwrap_err().to_string().contains("unknown fact kind 'nope'"));
        assert!(Rule::parse("t", &GOOD.replace("\"high\"", "\"urgent\"")).unwrap_err().to_string().contains("not a valid rule file"));
        assert!(Rule::parse("t", &GOOD.replace("{cursor}", "{cursr}")).unwrap_err().to_string().contains("evidence names '{cursr}'"));
        assert!(Rule::parse("t", &GOOD.replace("action =", "actoin =")).unwrap_err().to_string().contains("not a valid rule file"));
    }
}
