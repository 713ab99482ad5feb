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

use super::{inner_bodies, mentions_device, span, Inner};

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

/// The statement lists inside `s` to walk ([`inner_bodies`]), each with where it sits. A
/// kernel's or func's body is left to lowering.
fn inner(s: &ast::Stmt, at: Where) -> Vec<(&[ast::Stmt], Where)> {
    if let ast::Stmt::FunctionDef(f) = s {
        if f.decorator_list.iter().any(mentions_device) {
            return Vec::new();
        }
    }
    inner_bodies(s)
        .into_iter()
        .map(|(body, how)| {
            let scope = |function| Where {
                function,
                loop_body: false,
                module: false,
            };
            let here = match how {
                Inner::Function => scope(true),
                Inner::Class => scope(false),
                Inner::Loop => Where {
                    loop_body: true,
                    ..at
                },
                Inner::With | Inner::Plain => at,
            };
            (body, here)
        })
        .collect()
}
