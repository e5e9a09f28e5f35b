//! A static type check of rule conditions against the fact schema. CEL is dynamically typed, so a
//! condition like `json_before > "3"` would only fail when a fact reaches it, perhaps hours into a live
//! run; this pass rejects it at load instead. It infers what it can (fields, params, literals, the
//! operators below) and leaves the rest to run time.

use cel_parser::ast::{Expr, IdedExpr};
use cel_parser::reference::Val;

use crate::facts::FieldType;

/// A type the checker can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Str,
    Int,
    Bool,
    Other,
}

impl Ty {
    fn name(self) -> &'static str {
        match self {
            Ty::Str => "string",
            Ty::Int => "int",
            Ty::Bool => "bool",
            Ty::Other => "value",
        }
    }
}

impl From<FieldType> for Ty {
    fn from(t: FieldType) -> Ty {
        match t {
            FieldType::Str => Ty::Str,
            FieldType::Int => Ty::Int,
            FieldType::Bool => Ty::Bool,
            FieldType::IntList => Ty::Other,
        }
    }
}

/// Checks the expression; `lookup` gives the type of a variable. Returns the first mismatch found.
pub fn check(expr: &IdedExpr, lookup: &dyn Fn(&str) -> Option<Ty>) -> Result<Ty, String> {
    match &expr.expr {
        Expr::Ident(name) => Ok(lookup(name).unwrap_or(Ty::Other)),
        Expr::Literal(v) => Ok(match v {
            Val::String(_) => Ty::Str,
            Val::Int(_) | Val::UInt(_) => Ty::Int,
            Val::Boolean(_) => Ty::Bool,
            _ => Ty::Other,
        }),
        Expr::List(list) => {
            for e in &list.elements {
                check(e, lookup)?;
            }
            Ok(Ty::Other)
        }
        Expr::Call(call) => {
            let args: Vec<Ty> = call.args.iter().map(|a| check(a, lookup)).collect::<Result<_, _>>()?;
            if let Some(t) = &call.target {
                check(t, lookup)?;
            }
            let f = call.func_name.as_str();
            match (f, args.as_slice()) {
                ("_&&_" | "_||_", [a, b]) => {
                    for t in [a, b] {
                        if !matches!(t, Ty::Bool | Ty::Other) {
                            return Err(format!("'{}' needs bool operands, got {}", op(f), t.name()));
                        }
                    }
                    Ok(Ty::Bool)
                }
                ("!_", [a]) => {
                    if !matches!(a, Ty::Bool | Ty::Other) {
                        return Err(format!("'!' needs a bool, got {}", a.name()));
                    }
                    Ok(Ty::Bool)
                }
                ("_==_" | "_!=_" | "_<_" | "_<=_" | "_>_" | "_>=_", [a, b]) => {
                    if *a != Ty::Other && *b != Ty::Other && a != b {
                        return Err(format!("'{}' compares {} with {}", op(f), a.name(), b.name()));
                    }
                    Ok(Ty::Bool)
                }
                ("@in", [a, _]) => {
                    if let (Some(list), true) = (call.args.get(1), *a != Ty::Other) {
                        if let Expr::List(l) = &list.expr {
                            for e in &l.elements {
                                let t = check(e, lookup)?;
                                if t != Ty::Other && t != *a {
                                    return Err(format!("'in' looks for a {} in a list holding a {}", a.name(), t.name()));
                                }
                            }
                        }
                    }
                    Ok(Ty::Bool)
                }
                ("_+_" | "_-_" | "_*_" | "_/_" | "_%_", [a, b]) => {
                    if *a != Ty::Other && *b != Ty::Other && a != b {
                        return Err(format!("'{}' mixes {} and {}", op(f), a.name(), b.name()));
                    }
                    Ok(*a)
                }
                _ => Ok(Ty::Other),
            }
        }
        _ => Ok(Ty::Other),
    }
}

/// Names a condition reads from outside: identifiers not bound by a comprehension (`list.filter(x, ...)`
/// binds `x`). These must all be fact fields or params.
pub fn free_variables(expr: &IdedExpr) -> Vec<String> {
    let mut out = Vec::new();
    collect(expr, &mut Vec::new(), &mut out);
    out.sort();
    out.dedup();
    out
}

fn collect(expr: &IdedExpr, bound: &mut Vec<String>, out: &mut Vec<String>) {
    match &expr.expr {
        Expr::Ident(name) => {
            if !bound.contains(name) {
                out.push(name.clone());
            }
        }
        Expr::Call(call) => {
            if let Some(t) = &call.target {
                collect(t, bound, out);
            }
            for a in &call.args {
                collect(a, bound, out);
            }
        }
        Expr::List(list) => {
            for e in &list.elements {
                collect(e, bound, out);
            }
        }
        Expr::Select(sel) => collect(&sel.operand, bound, out),
        Expr::Comprehension(c) => {
            collect(&c.iter_range, bound, out);
            collect(&c.accu_init, bound, out);
            let depth = bound.len();
            bound.push(c.iter_var.clone());
            if let Some(v) = &c.iter_var2 {
                bound.push(v.clone());
            }
            bound.push(c.accu_var.clone());
            collect(&c.loop_cond, bound, out);
            collect(&c.loop_step, bound, out);
            collect(&c.result, bound, out);
            bound.truncate(depth);
        }
        Expr::Map(m) => {
            for e in &m.entries {
                if let cel_parser::ast::EntryExpr::MapEntry(me) = &e.expr {
                    collect(&me.key, bound, out);
                    collect(&me.value, bound, out);
                }
            }
        }
        Expr::Struct(st) => {
            for e in &st.entries {
                if let cel_parser::ast::EntryExpr::StructField(f) = &e.expr {
                    collect(&f.value, bound, out);
                }
            }
        }
        Expr::Literal(_) | Expr::Unspecified => {}
    }
}

fn op(f: &str) -> &str {
    f.trim_matches('_').trim_start_matches('@')
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]
    use super::*;

    fn run(src: &str) -> Result<Ty, String> {
        let e = cel_parser::Parser::default().parse(src).unwrap();
        check(&e, &|n| match n {
            "count" => Some(Ty::Int),
            "name" => Some(Ty::Str),
            "flag" => Some(Ty::Bool),
            _ => None,
        })
    }

    #[test]
    fn typecheck_accepts_well_typed() {
        assert_eq!(run(r#"count > 3 && name in ["a", "b"] && !flag"#), Ok(Ty::Bool));
    }

    #[test]
    fn free_variables_skip_comprehension_bindings() {
        let e = cel_parser::Parser::default().parse("size(ages.filter(a, a <= w)) >= n").unwrap();
        assert_eq!(free_variables(&e), vec!["ages".to_string(), "n".to_string(), "w".to_string()]);
    }

    #[test]
    fn typecheck_rejects_mismatches() {
        assert!(run(r#"count > "3""#).unwrap_err().contains("compares int with string"));
        assert!(run(r#"name in [1, 2]"#).unwrap_err().contains("'in' looks for a string"));
        assert!(run(r#"count && flag"#).unwrap_err().contains("needs bool operands"));
        assert!(run(r#"!name"#).unwrap_err().contains("needs a bool"));
    }
}
