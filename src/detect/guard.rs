//! A native pre-check of a rule's condition: the leading `&&` terms that are a simple comparison of a
//! fact field with a constant or with another field (`!capture_loss`, `kind == "post"`, `pending > 0`,
//! `max_silence_ms > idle_secs * 1000`, `negotiated < server_best`), a string field's membership in a
//! list of literals (`cursor in ["none", "regressing"]`), or an `||` of such terms and `&&` groups of
//! them, are evaluated on the fact directly, and a fact that fails one is turned away without building a
//! CEL context. Most facts fail a rule this way (three rules look at every `stream_end`), and building the
//! context was most of a rule's cost. A condition made of such terms alone is decided natively both ways:
//! when all hold, it holds.
//!
//! Exactly what the interpreter would answer, errors included: cel-interpreter evaluates `a && b` left to
//! right, stopping at the first false operand and passing on the first error (stricter than cel-spec's
//! commutative AND), and `a || b` the same way, stopping at the first true one; so the guard walks the
//! terms in the same order and stops, leaving the fact to CEL, at the first term it cannot decide: another
//! shape, a field missing or of another type than the constant, arithmetic that overflows. A term it
//! decides cannot err in CEL (a comparison of two ints, strings or bools, a bool field). Strings and bools
//! are ordered as cel-interpreter orders them (its `PartialOrd for Value`: Rust's `str` and `bool` order,
//! so strings byte by byte, which for UTF-8 is code point order, as cel-spec has it; `false < true`).
//! Params are read when the fact comes, so a patched param is never stale.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use cel_parser::ast::{Expr, IdedExpr};
use cel_parser::reference::Val;

use super::rule::Param;
use crate::facts::FieldValue;

/// The leading terms of a condition the guard evaluates natively, in evaluation order; empty when the
/// first is of a shape it does not know.
#[derive(Debug, Clone, Default)]
pub struct Guard {
    terms: Vec<Term>,
    /// Every term of the condition is here: when all hold, so does the condition, and CEL is not asked.
    whole: bool,
}

#[derive(Debug, Clone)]
enum Term {
    /// `field OP operand`.
    Cmp { field: String, op: Op, value: Operand },
    /// `field in ["a", "b"]`: a string field among string literals.
    In { field: String, list: Vec<String> },
    /// `t || u || ...`, in order.
    Any(Vec<Term>),
    /// `t && u && ...` inside an `Any`, in order.
    All(Vec<Term>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn from_func(f: &str) -> Option<Op> {
        Some(match f {
            "_==_" => Op::Eq,
            "_!=_" => Op::Ne,
            "_<_" => Op::Lt,
            "_<=_" => Op::Le,
            "_>_" => Op::Gt,
            "_>=_" => Op::Ge,
            _ => return None,
        })
    }

    /// The operator with its operands swapped (`3 < x` is `x > 3`).
    fn flipped(self) -> Op {
        match self {
            Op::Lt => Op::Gt,
            Op::Le => Op::Ge,
            Op::Gt => Op::Lt,
            Op::Ge => Op::Le,
            o => o,
        }
    }

    fn holds(self, o: Ordering) -> bool {
        match self {
            Op::Eq => o == Ordering::Equal,
            Op::Ne => o != Ordering::Equal,
            Op::Lt => o == Ordering::Less,
            Op::Le => o != Ordering::Greater,
            Op::Gt => o == Ordering::Greater,
            Op::Ge => o != Ordering::Less,
        }
    }
}

/// What a field is compared with: a literal, a param, the product of two integer constants, or (alone,
/// never inside a product) another field.
#[derive(Debug, Clone)]
enum Operand {
    Int(i64),
    Str(String),
    Bool(bool),
    Param(String),
    Mul(Box<Operand>, Box<Operand>),
    Field(String),
}

/// An operand's value.
enum Const<'a> {
    Int(i64),
    Str(&'a str),
    Bool(bool),
}

impl<'a> Const<'a> {
    /// A field's value as an operand; `None` for a type no comparison takes (a list).
    fn of(v: &'a FieldValue<'_>) -> Option<Const<'a>> {
        Some(match v {
            FieldValue::Int(n) => Const::Int(*n),
            FieldValue::Str(s) => Const::Str(s),
            FieldValue::Bool(b) => Const::Bool(*b),
            _ => return None,
        })
    }
}

impl Operand {
    /// The value of a constant operand (`None` for a field, and where CEL would err).
    fn value<'a>(&'a self, params: &'a BTreeMap<String, Param>) -> Option<Const<'a>> {
        Some(match self {
            Operand::Int(n) => Const::Int(*n),
            Operand::Str(s) => Const::Str(s),
            Operand::Bool(b) => Const::Bool(*b),
            Operand::Param(name) => match params.get(name)? {
                Param::Int(n) => Const::Int(*n),
                Param::Str(s) => Const::Str(s),
                Param::Bool(b) => Const::Bool(*b),
            },
            Operand::Mul(a, b) => match (a.value(params)?, b.value(params)?) {
                // CEL errs on overflow; the guard then leaves the term to CEL.
                (Const::Int(x), Const::Int(y)) => Const::Int(x.checked_mul(y)?),
                _ => return None,
            },
            Operand::Field(_) => return None,
        })
    }
}

impl Guard {
    /// The guard of a parsed condition; `is_field` tells a fact field from a param (a param may not
    /// shadow a field: `Rule::from_file` refuses it).
    pub fn compile(expr: &IdedExpr, is_field: &dyn Fn(&str) -> bool) -> Guard {
        let mut conjuncts = Vec::new();
        flatten("_&&_", expr, &mut conjuncts);
        let terms: Vec<Term> = conjuncts.iter().map_while(|e| term(e, is_field)).collect();
        Guard { whole: terms.len() == conjuncts.len(), terms }
    }

    /// The terms it checks natively (for tests).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.terms.len()
    }

    /// Whether it decides the whole condition (for tests).
    #[cfg(test)]
    pub(crate) fn is_whole(&self) -> bool {
        self.whole
    }

    /// The condition's value on this fact as the interpreter would find it, when the guard is sure:
    /// false at the first false term (the terms before it were all true), true when it holds every
    /// term of the condition and all are true; `None` leaves the fact to CEL.
    pub fn decide<'f>(&self, field: &dyn Fn(&str) -> Option<FieldValue<'f>>, params: &BTreeMap<String, Param>) -> Option<bool> {
        for t in &self.terms {
            match t.eval(field, params) {
                Some(true) => {}
                Some(false) => return Some(false),
                None => return None,
            }
        }
        self.whole.then_some(true)
    }
}

impl Term {
    /// The term's value, or `None` when the guard cannot be sure of what CEL would give.
    fn eval<'f>(&self, field: &dyn Fn(&str) -> Option<FieldValue<'f>>, params: &BTreeMap<String, Param>) -> Option<bool> {
        match self {
            Term::Cmp { field: name, op, value: Operand::Field(other) } => {
                // CEL reads the left operand first; either missing is an error there, undecided here.
                let left = field(name)?;
                compare(&left, *op, Const::of(&field(other)?)?)
            }
            Term::Cmp { field: name, op, value } => compare(&field(name)?, *op, value.value(params)?),
            // A list of strings holds a string field's value or not; any other type is left to CEL.
            Term::In { field: name, list } => match field(name)? {
                FieldValue::Str(v) => Some(list.iter().any(|l| *l == *v)),
                _ => None,
            },
            Term::Any(terms) => short_circuit(terms, true, field, params),
            Term::All(terms) => short_circuit(terms, false, field, params),
        }
    }
}

/// `field OP constant`, where the guard is sure of CEL's answer.
fn compare(field: &FieldValue<'_>, op: Op, value: Const) -> Option<bool> {
    let order = match (field, value) {
        (FieldValue::Int(a), Const::Int(b)) => a.cmp(&b),
        // Orders as cel-interpreter's (see the module docs).
        (FieldValue::Str(a), Const::Str(b)) => (**a).cmp(b),
        (FieldValue::Bool(a), Const::Bool(b)) => a.cmp(&b),
        _ => return None,
    };
    Some(op.holds(order))
}

/// An `||` (`stop` true) or `&&` (`stop` false) of `terms`, left to right and stopping where CEL stops: at
/// the first term whose value is `stop`, which is then the answer; `!stop` if none is. An undecided term
/// before that leaves the whole to CEL.
fn short_circuit<'f>(terms: &[Term], stop: bool, field: &dyn Fn(&str) -> Option<FieldValue<'f>>, params: &BTreeMap<String, Param>) -> Option<bool> {
    for t in terms {
        if t.eval(field, params)? == stop {
            return Some(stop);
        }
    }
    Some(!stop)
}

/// The operands of a chain of one binary operator (`a && b && c`), in evaluation order.
fn flatten<'a>(func: &str, e: &'a IdedExpr, out: &mut Vec<&'a IdedExpr>) {
    match &e.expr {
        Expr::Call(c) if c.func_name == func && c.target.is_none() && c.args.len() == 2 => {
            for a in &c.args {
                flatten(func, a, out);
            }
        }
        _ => out.push(e),
    }
}

/// Every operand of a chain as a term, or `None` if one is not.
fn chain(func: &str, e: &IdedExpr, is_field: &dyn Fn(&str) -> bool) -> Option<Vec<Term>> {
    let mut operands = Vec::new();
    flatten(func, e, &mut operands);
    operands.iter().map(|o| term(o, is_field)).collect()
}

fn term(e: &IdedExpr, is_field: &dyn Fn(&str) -> bool) -> Option<Term> {
    let cmp = |field: &String, op, value| Some(Term::Cmp { field: field.clone(), op, value });
    match &e.expr {
        Expr::Ident(name) if is_field(name) => cmp(name, Op::Eq, Operand::Bool(true)),
        Expr::Call(c) if c.target.is_none() => match (c.func_name.as_str(), c.args.as_slice()) {
            ("!_", [inner]) => match &inner.expr {
                Expr::Ident(name) if is_field(name) => cmp(name, Op::Eq, Operand::Bool(false)),
                _ => None,
            },
            ("_||_", [_, _]) => Some(Term::Any(chain("_||_", e, is_field)?)),
            ("_&&_", [_, _]) => Some(Term::All(chain("_&&_", e, is_field)?)),
            ("@in", [a, b]) => match (&a.expr, &b.expr) {
                (Expr::Ident(name), Expr::List(l)) if is_field(name) => {
                    let list = l.elements.iter().map(|x| match &x.expr {
                        Expr::Literal(Val::String(s)) => Some(s.to_string()),
                        _ => None,
                    });
                    Some(Term::In { field: name.clone(), list: list.collect::<Option<_>>()? })
                }
                _ => None,
            },
            (f, [a, b]) => {
                let op = Op::from_func(f)?;
                let (field, value, op) = match (&a.expr, &b.expr) {
                    (Expr::Ident(name), Expr::Ident(other)) if is_field(name) && is_field(other) => (name, Operand::Field(other.clone()), op),
                    (Expr::Ident(name), _) if is_field(name) => (name, operand(b, is_field)?, op),
                    (_, Expr::Ident(name)) if is_field(name) => (name, operand(a, is_field)?, op.flipped()),
                    _ => return None,
                };
                cmp(field, op, value)
            }
            _ => None,
        },
        _ => None,
    }
}

fn operand(e: &IdedExpr, is_field: &dyn Fn(&str) -> bool) -> Option<Operand> {
    match &e.expr {
        Expr::Literal(Val::Int(n)) => Some(Operand::Int(*n)),
        Expr::Literal(Val::String(s)) => Some(Operand::Str(s.to_string())),
        Expr::Literal(Val::Boolean(b)) => Some(Operand::Bool(*b)),
        Expr::Ident(name) if !is_field(name) => Some(Operand::Param(name.clone())),
        Expr::Call(c) if c.func_name == "_*_" && c.target.is_none() => match c.args.as_slice() {
            [a, b] => Some(Operand::Mul(Box::new(operand(a, is_field)?), Box::new(operand(b, is_field)?))),
            _ => None,
        },
        _ => None,
    }
}
