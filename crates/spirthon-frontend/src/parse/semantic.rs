//! The errors CPython's compiler finds in a file that parses, outside kernels and funcs
//! (whose bodies lowering checks in its own words): `return` outside a function, `break`
//! and `continue` outside a loop, `nonlocal` at module level, and a parameter named twice.
//! CPython refuses to import such a file, so the compiler refuses it too, at the statement,
//! in CPython's words. The first in source order is reported, as CPython reports one.
//!
//! The walk is over statements, with an explicit stack (blocks nest at most 100 deep, but no
//! recursion is needed); expressions (`yield`, `await`, lambdas) are not visited.

use ruff_python_ast::{self as ast};
use ruff_text_size::Ranged;
use spirthon_ir::{Diagnostic, Span};

use super::{is_device_decorator, mentions_device, span};

/// Where a statement list sits: in a function's body, in a loop's body (within the same
/// function or class body), or at module level.
#[derive(Copy, Clone)]
struct Where {
    function: bool,
    loop_body: bool,
    module: bool,
}

/// The first error CPython's compiler reports in `module`'s code outside kernels and funcs.
pub(super) fn first_error(module: &[ast::Stmt]) -> Option<Diagnostic> {
    let top = Where {
        function: false,
        loop_body: false,
        module: true,
    };
    let mut found: Vec<(u32, Diagnostic)> = Vec::new();
    let mut work: Vec<(&[ast::Stmt], Where)> = vec![(module, top)];
    while let Some((stmts, at)) = work.pop() {
        for s in stmts {
            if let Some(d) = error_at(s, at) {
                found.push((d.primary.span.start, d));
                continue;
            }
            work.extend(inner(s, at));
        }
    }
    found
        .into_iter()
        .min_by_key(|(start, _)| *start)
        .map(|(_, d)| d)
}

/// The error of statement `s` itself, where it sits.
fn error_at(s: &ast::Stmt, at: Where) -> Option<Diagnostic> {
    let message = match s {
        ast::Stmt::Return(_) if !at.function => "'return' outside function".to_string(),
        ast::Stmt::Break(_) if !at.loop_body => "'break' outside loop".to_string(),
        ast::Stmt::Continue(_) if !at.loop_body => "'continue' not properly in loop".to_string(),
        ast::Stmt::Nonlocal(_) if at.module => {
            "nonlocal declaration not allowed at module level".to_string()
        }
        ast::Stmt::FunctionDef(f) => {
            let p = &f.parameters;
            let names = p
                .posonlyargs
                .iter()
                .chain(&p.args)
                .chain(&p.kwonlyargs)
                .map(|a| &a.parameter)
                .chain(p.vararg.as_deref())
                .chain(p.kwarg.as_deref());
            let mut seen: Vec<&str> = Vec::new();
            let mut twice = None;
            for param in names {
                let name = param.name.as_str();
                if seen.contains(&name) {
                    twice = Some(param);
                    break;
                }
                seen.push(name);
            }
            let param = twice?;
            return Some(refused(
                span(param.range()),
                format!(
                    "duplicate argument '{}' in function definition",
                    param.name.as_str()
                ),
            ));
        }
        _ => return None,
    };
    Some(refused(span(s.range()), message))
}

fn refused(at: Span, message: String) -> Diagnostic {
    Diagnostic::error(at, message).with_note("CPython refuses to compile a file with this")
}

/// The statement lists inside `s` to walk, each with where it sits. A kernel's or func's
/// body is left to lowering.
fn inner<'a>(s: &'a ast::Stmt, at: Where) -> Vec<(&'a [ast::Stmt], Where)> {
    let same = |b: &'a [ast::Stmt]| (b, at);
    let looped = Where {
        loop_body: true,
        ..at
    };
    match s {
        ast::Stmt::FunctionDef(f) => {
            let device = f
                .decorator_list
                .iter()
                .any(|d| is_device_decorator(d) || mentions_device(d));
            if device {
                return Vec::new();
            }
            let body = Where {
                function: true,
                loop_body: false,
                module: false,
            };
            vec![(&f.body[..], body)]
        }
        ast::Stmt::ClassDef(c) => {
            let body = Where {
                function: false,
                loop_body: false,
                module: false,
            };
            vec![(&c.body[..], body)]
        }
        ast::Stmt::For(f) => vec![(&f.body[..], looped), same(&f.orelse)],
        ast::Stmt::While(w) => vec![(&w.body[..], looped), same(&w.orelse)],
        ast::Stmt::If(i) => std::iter::once(same(&i.body))
            .chain(i.elif_else_clauses.iter().map(|c| same(&c.body)))
            .collect(),
        ast::Stmt::With(w) => vec![same(&w.body)],
        ast::Stmt::Match(m) => m.cases.iter().map(|c| same(&c.body)).collect(),
        ast::Stmt::Try(t) => {
            let mut v = vec![same(&t.body), same(&t.orelse), same(&t.finalbody)];
            for h in &t.handlers {
                let ast::ExceptHandler::ExceptHandler(h) = h;
                v.push(same(&h.body));
            }
            v
        }
        _ => Vec::new(),
    }
}
