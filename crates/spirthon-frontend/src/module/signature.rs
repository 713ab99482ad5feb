//! A def's signature: what its decorators make of it (kernel or func, workgroup size), its
//! annotated parameters and its return type.

use super::*;

pub(super) fn signature(
    m: &ModuleInfo,
    ast: &Ast,
    def: &FuncDef,
    item: usize,
) -> Result<DefSig, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let kind = decorator_kind(m, ast, def, &mut diags);
    let Some((is_kernel, workgroup_size)) = kind else {
        return Err(diags);
    };
    let (params, generic) = param_sigs(m, ast, def, is_kernel, &mut diags);
    let mut ret_tuple = None;
    let mut ret_struct = None;
    let ret = match def.returns.map(|r| (r, m.annotation(ast, r))) {
        None | Some((_, Ok(Ann::None))) => None,
        Some((r, _)) if is_kernel => {
            diags.push(Diagnostic::error(
                ast.expr(r).span,
                "a kernel returns nothing: it writes its results into arrays",
            ));
            None
        }
        Some((_, Ok(Ann::Value(t)))) => Some(t),
        Some((_, Ok(Ann::Tuple(t)))) => {
            ret_tuple = Some(t);
            Some(t.carrier())
        }
        Some((r, Ok(Ann::Struct(id)))) => {
            let st = m.strukt(id);
            let items: Vec<Ty> = st.leaves.iter().map(|l| l.ty).collect();
            match TupleTy::new(&items) {
                Some(tt) if TupleTy::mixed_wide(&items).is_none() => {
                    ret_tuple = Some(tt);
                    ret_struct = Some(id);
                    Some(tt.carrier())
                }
                Some(_) => {
                    let w = TupleTy::mixed_wide(&items).map_or("f64", |s| s.name());
                    diags.push(
                        Diagnostic::error(ast.expr(r).span, format!("a func returns a struct whose {w} fields are its only ones, in this version; `{}` mixes them with others", st.name))
                            .with_help("write the result into an array parameter, or return its parts as a tuple"),
                    );
                    None
                }
                None => {
                    diags.push(
                        Diagnostic::error(ast.expr(r).span, format!("a func returns a struct of at most {MAX_TUPLE_COMPONENTS} numbers in this version; `{}` has {}", st.name, items.iter().map(|t| t.components()).sum::<u32>()))
                            .with_help("write the result into an array parameter, or return its parts as a tuple"),
                    );
                    None
                }
            }
        }
        Some((r, Ok(Ann::Array(..) | Ann::Records(..)))) => {
            diags.push(Diagnostic::error(
                ast.expr(r).span,
                "a func cannot return an array",
            ));
            None
        }
        Some((_, Err(e))) => {
            diags.push(e);
            None
        }
    };
    if !diags.is_empty() {
        return Err(diags);
    }
    Ok(DefSig {
        name: def.name.clone(),
        is_kernel,
        workgroup_size,
        params,
        ret,
        ret_tuple,
        ret_struct,
        ret_unknown: false,
        item,
        span: def.name_span,
        generic,
        specializes: None,
    })
}

/// What the decorators make of a def: `(is_kernel, workgroup_size)`, or `None` when no
/// decorator is spirthon's.
fn decorator_kind(
    m: &ModuleInfo,
    ast: &Ast,
    def: &FuncDef,
    diags: &mut Vec<Diagnostic>,
) -> Option<(bool, [u32; 3])> {
    let no_local = |_: &str| false;
    let mut kind: Option<(bool, [u32; 3])> = None;
    for &d in &def.decorators {
        let (target, keywords, call_args) = match &ast.expr(d).kind {
            ExprKind::Call {
                func,
                args,
                keywords,
            } => (*func, keywords.as_slice(), args.as_slice()),
            _ => (d, &[][..], &[][..]),
        };
        match m.lib_item(ast, target, &no_local) {
            Some((Lib::Spirthon, "kernel")) => {
                let mut wg = [64, 1, 1];
                for &a in call_args {
                    diags.push(Diagnostic::error(ast.expr(a).span, "write the workgroup size as `workgroup_size=...`"));
                }
                for k in keywords {
                    if k.name != "workgroup_size" {
                        diags.push(Diagnostic::error(k.span, format!("unknown `kernel` argument `{}`", k.name)).with_help("the only argument is `workgroup_size`"));
                        continue;
                    }
                    match workgroup_size(m, ast, k.value) {
                        Ok(w) => wg = w,
                        Err(e) => diags.push(e),
                    }
                }
                kind = Some((true, wg));
            }
            Some((Lib::Spirthon, "func")) => {
                for &a in call_args {
                    diags.push(Diagnostic::error(ast.expr(a).span, "`func` takes only `grad=...`"));
                }
                for k in keywords {
                    // `@func(grad=f_grad)`: the func's own adjoint, for `spirthon.Tape`
                    // (the Python side's); compiling the func, it names a func of the file.
                    let named = matches!(&ast.expr(k.value).kind, ExprKind::Name(n)
                        if matches!(m.globals.get(n.as_str()), Some(Global::Def(d)) if !m.defs[*d].is_kernel));
                    if k.name != "grad" {
                        diags.push(Diagnostic::error(k.span, format!("unknown `func` argument `{}`", k.name)).with_help("the only argument is `grad`, the func's own adjoint"));
                    } else if !named {
                        diags.push(Diagnostic::error(ast.expr(k.value).span, "`grad` names a `@func` of this file defined before this one"));
                    }
                }
                kind = Some((false, [1, 1, 1]));
            }
            _ => diags.push(Diagnostic::error(ast.expr(d).span, "unknown decorator: kernels and funcs take only `@kernel` or `@func` from spirthon")
                .with_help("import them: `from spirthon import kernel, func`")),
        }
    }
    kind
}

/// The annotated parameters of a def; each missing or bad annotation is an error, as is a
/// default value that is not a constant of the parameter's type (or any default of a
/// kernel's parameter: every launch passes them all).
fn param_sigs(
    m: &ModuleInfo,
    ast: &Ast,
    def: &FuncDef,
    is_kernel: bool,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<ParamSig>, Vec<GenericParam>) {
    let mut params = Vec::new();
    let mut generic = Vec::new();
    for p in &def.params {
        if let Some((var, use_)) = m.generic_use(ast, p) {
            // A generic func parameter's default is a constant of its own type (a literal's
            // default type when the call leaves it out).
            let default = match (p.default, is_kernel) {
                (Some(d), true) => {
                    diags.push(Diagnostic::error(
                        ast.expr(d).span,
                        format!("kernel parameter `{}` cannot have a default value", p.name),
                    ));
                    None
                }
                (Some(d), false) => match m.const_eval(ast, d, &|_: &str| false) {
                    Ok(Some(l)) => Some(l),
                    Ok(None) => {
                        diags.push(Diagnostic::error(ast.expr(d).span, "a default value must be a constant: a number, a bool, or an expression of module constants"));
                        None
                    }
                    Err(e) => {
                        diags.push(e);
                        None
                    }
                },
                (None, _) => None,
            };
            generic.push(GenericParam {
                param: params.len(),
                var,
                use_,
            });
            // A placeholder: a generic def is never lowered (see `generic`).
            params.push(ParamSig {
                name: p.name.clone(),
                kind: ParamKind::Value(Ty::I32),
                span: p.span,
                default,
            });
            continue;
        }
        let Some(a) = p.annotation else {
            diags.push(
                Diagnostic::error(
                    p.span,
                    format!("parameter `{}` needs a type annotation", p.name),
                )
                .with_help(format!(
                    "for example `{}: f32` or `{}: Array[f32]`",
                    p.name, p.name
                )),
            );
            continue;
        };
        let kind = match m.annotation(ast, a) {
            Ok(Ann::Value(t)) => ParamKind::Value(t),
            Ok(Ann::Struct(id)) => ParamKind::Struct(id),
            Ok(Ann::Records(id, dims)) => ParamKind::Records(id, dims),
            Ok(Ann::Array(t, dims)) => ParamKind::Array(t, dims),
            Ok(Ann::None) => {
                diags.push(Diagnostic::error(
                    ast.expr(a).span,
                    "a parameter cannot have type `None`",
                ));
                continue;
            }
            Ok(Ann::Tuple(_)) => {
                diags.push(
                    Diagnostic::error(ast.expr(a).span, "a parameter cannot be a tuple")
                        .with_help("pass its items as separate parameters, or a vector"),
                );
                continue;
            }
            Err(e) => {
                diags.push(e);
                continue;
            }
        };
        let default = match p.default {
            Some(d) => match default_value(m, ast, p, d, &kind, is_kernel) {
                Ok(v) => Some(v),
                Err(e) => {
                    diags.push(e);
                    continue;
                }
            },
            None => None,
        };
        params.push(ParamSig {
            name: p.name.clone(),
            kind,
            span: p.span,
            default,
        });
    }
    (params, generic)
}

/// The default value `d` of parameter `p` (of `kind`): a constant expression (literals and
/// module constants, as Python evaluates it once at the `def`) that the parameter's scalar
/// type holds, as a literal argument would be converted.
fn default_value(
    m: &ModuleInfo,
    ast: &Ast,
    p: &Param,
    d: ExprId,
    kind: &ParamKind,
    is_kernel: bool,
) -> Result<Lit, Diagnostic> {
    let at = ast.expr(d).span;
    if is_kernel {
        return Err(Diagnostic::error(
            at,
            format!("kernel parameter `{}` cannot have a default value", p.name),
        )
        .with_note("a launch passes every kernel parameter (by position or by name)")
        .with_help("give the value at each launch, or make it a module constant"));
    }
    let t = match kind {
        ParamKind::Value(t @ Ty::Scalar(_)) => *t,
        _ => {
            return Err(Diagnostic::error(
                at,
                format!(
                    "parameter `{}` cannot have a default value: defaults are numbers and bools",
                    p.name
                ),
            )
            .with_help("pass the value at each call"));
        }
    };
    let lit = match m.const_eval(ast, d, &|_: &str| false) {
        Ok(Some(l)) => l,
        Ok(None) => {
            return Err(Diagnostic::error(at, "a default value must be a constant: a number, a bool, or an expression of module constants")
                .with_note("Python evaluates a default once, when the `def` runs; the compiler needs its value"));
        }
        Err(e) => return Err(e),
    };
    match lit.to_const(t.scalar()) {
        Ok(_) => Ok(lit),
        Err(e) => Err(Diagnostic::error(
            at,
            format!(
                "the default of `{}: {t}` is not {}: {e}",
                p.name,
                t.with_article()
            ),
        )),
    }
}

fn workgroup_size(m: &ModuleInfo, ast: &Ast, e: ExprId) -> Result<[u32; 3], Diagnostic> {
    let expr = ast.expr(e);
    let no_local = |_: &str| false;
    let parts = m
        .size_items(ast, e, &no_local)
        .unwrap_or_else(|| vec![m.size_item(ast, e, &no_local)]);
    if parts.is_empty() || parts.len() > 3 {
        return Err(Diagnostic::error(
            expr.span,
            "`workgroup_size` is one to three positive integers",
        ));
    }
    let mut out = [1u32; 3];
    let mut total = 1i128;
    for (i, part) in parts.into_iter().enumerate() {
        let bad = || part.error("a workgroup size must be a positive integer constant");
        match part.value.clone()? {
            // Past 1024 in one axis, the total check below says why.
            Some(Lit::Int(v)) if v >= 1 => {
                out[i] = u32::try_from(v).unwrap_or(u32::MAX);
                total = total.saturating_mul(v);
            }
            _ => return Err(bad()),
        }
    }
    if total > 1024 {
        return Err(Diagnostic::error(expr.span, format!("a workgroup of {total} invocations is larger than devices allow"))
            .with_note("Vulkan devices commonly allow at most 1024 invocations per workgroup, and all allow 128"));
    }
    Ok(out)
}
