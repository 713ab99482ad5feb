//! Generic kernels (docs/language.md, "Generic kernels"): a kernel parameter without an
//! annotation, or annotated `Any` or a `TypeVar` (also as `Array[T]`, `Array2D[Any]`), has
//! its type given per compile. A *binding* names a type for each generic name of the kernel:
//! a parameter's own name for an unannotated or `Any` parameter (`Array[Any]` too), the
//! type variable's for a `TypeVar` (one type for every parameter that uses it). Each binding
//! is a *specialization*: a kernel of its own, named `kernel__type_type…`, whose signature
//! has the bound types in the generic parameters' places; the generic kernel itself is
//! never lowered.
//!
//! Types are spelled as annotations are, with spirthon's names whatever the file imports:
//! `f32`, `int` (`i32`), `vec3`, `mat33`, `Array[f32]`, `Array2D[u8]`, a `@struct` class's
//! name, `Array[Particle]`.
//!
//! A func is generic the same way; it is specialized at each call from its arguments'
//! types (`specialize_func`), which a lowering asks for when it meets a call whose
//! specialization does not exist yet (`ModuleInfo::wanted`); the compile then makes them and
//! lowers again (a func's callees are specialized before it, as calls cannot recurse).
//!
//! Invariants: a generic def's `params` hold a placeholder kind at each generic parameter
//! (`generic` lists them), so nothing lowers a generic def; every specialization's params are
//! concrete and its `generic` is empty.

use super::*;
use spirthon_ir::Specialization;

/// How a generic parameter uses its generic name.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GenericUse {
    /// The whole parameter's type (no annotation, or `Any`): a value, a struct or an array.
    Whole,
    /// The element of an array of this many dimensions (`Array[T]`, `Array2D[Any]`).
    Elem(u32),
    /// A value's type (`k: T`).
    Value,
}

/// A kernel parameter whose type is given per compile.
#[derive(Clone, Debug)]
pub struct GenericParam {
    /// Its index in the def's parameters.
    pub param: usize,
    /// The generic name: the parameter's own, or its type variable's.
    pub var: String,
    pub use_: GenericUse,
}

/// A type given for a generic name.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum TypeArg {
    Value(Ty),
    Struct(StructId),
    Array(Elem, u32),
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Elem {
    Value(Ty),
    Struct(StructId),
}

impl ModuleInfo {
    /// What makes parameter `p` generic: `None` when its annotation is a type.
    pub(super) fn generic_use(&self, ast: &Ast, p: &Param) -> Option<(String, GenericUse)> {
        let Some(a) = p.annotation else {
            return Some((p.name.clone(), GenericUse::Whole));
        };
        let no_local = |_: &str| false;
        let var = |e: ExprId| -> Option<Option<String>> {
            match &ast.expr(e).kind {
                ExprKind::Name(n) if matches!(self.globals.get(n), Some(Global::TypeVar)) => {
                    Some(Some(n.clone()))
                }
                _ => match self.lib_item(ast, e, &no_local) {
                    Some((Lib::Typing, "Any")) => Some(None),
                    _ => None,
                },
            }
        };
        if let ExprKind::Subscript(base, elem) = &ast.expr(a).kind {
            let dims = match self.lib_item(ast, *base, &no_local) {
                Some((Lib::Spirthon, "Array")) => 1,
                Some((Lib::Spirthon, "Array2D")) => 2,
                Some((Lib::Spirthon, "Array3D")) => 3,
                _ => return None,
            };
            let v = var(*elem)?;
            return Some((v.unwrap_or_else(|| p.name.clone()), GenericUse::Elem(dims)));
        }
        match var(a)? {
            Some(v) => Some((v, GenericUse::Value)),
            None => Some((p.name.clone(), GenericUse::Whole)),
        }
    }

    /// The generic names of def `d`, in the order of first use.
    pub fn generic_names(&self, d: usize) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for g in &self.defs[d].generic {
            if !names.contains(&g.var.as_str()) {
                names.push(&g.var);
            }
        }
        names
    }

    /// Adds the specialization of generic kernel `d` that `types` (generic name, type)
    /// give, and returns its index in `defs`; the same binding twice is one specialization.
    pub fn specialize(
        &mut self,
        d: usize,
        types: &[(String, String)],
        at: Span,
    ) -> Result<usize, Diagnostic> {
        let sig = &self.defs[d];
        let names: Vec<String> = self
            .generic_names(d)
            .into_iter()
            .map(String::from)
            .collect();
        let listed = names
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let err = |m: String| {
            Diagnostic::error(at, m)
                .with_help(format!("the generic names of `{}` are {listed}", sig.name))
        };
        let mut bound: Vec<Option<(TypeArg, &str)>> = vec![None; names.len()];
        for (name, text) in types {
            let Some(k) = names.iter().position(|n| n == name) else {
                return Err(err(format!(
                    "kernel `{}` has no generic name `{name}`",
                    sig.name
                )));
            };
            if bound[k].is_some() {
                return Err(err(format!("`{name}` is given two types")));
            }
            let t = self.type_arg(text).map_err(|e| {
                Diagnostic::error(at, format!("`{name}={text}`: {e}")).with_help(
                    "types are spelled as annotations: `f32`, `vec3`, `Array[f32]`, `Array2D[u8]`, a struct's name",
                )
            })?;
            bound[k] = Some((t, text));
        }
        if let Some(k) = bound.iter().position(Option::is_none) {
            return Err(err(format!(
                "kernel `{}` is generic: no type is given for `{}`",
                sig.name, names[k]
            )));
        }
        let bound: Vec<(TypeArg, &str)> = bound.into_iter().map(Option::unwrap).collect();
        let mut params = sig.params.clone();
        for g in &sig.generic {
            let k = names.iter().position(|n| *n == g.var).unwrap_or(0);
            let (t, text) = bound[k];
            let p = &mut params[g.param];
            p.kind = self.bind(g.use_, t).map_err(|e| {
                Diagnostic::error(
                    at,
                    format!("`{}={text}` for parameter `{}`: {e}", g.var, p.name),
                )
                .with_secondary(p.span, "the parameter")
            })?;
        }
        let types: Vec<(String, String)> = names
            .iter()
            .zip(&bound)
            .map(|(n, (_, text))| (n.clone(), canonical(text)))
            .collect();
        let name = mangled(&sig.name, &types);
        if let Some(i) = self.defs.iter().position(|s| s.name == name) {
            return Ok(i);
        }
        Ok(self.add_specialization(d, params, types))
    }

    /// Adds the specialization of generic def `d` with these concrete `params` (its generic
    /// names' types, as text, name it); its index in `defs`.
    fn add_specialization(
        &mut self,
        d: usize,
        params: Vec<ParamSig>,
        types: Vec<(String, String)>,
    ) -> usize {
        let sig = &self.defs[d];
        let spec = DefSig {
            name: mangled(&sig.name, &types),
            params,
            generic: Vec::new(),
            specializes: Some(Specialization {
                kernel: sig.name.clone(),
                types,
            }),
            ..sig.clone()
        };
        self.defs.push(spec);
        self.reaches_barrier.push(self.reaches_barrier[d]);
        self.reaches_num_threads.push(self.reaches_num_threads[d]);
        self.reaches_lane_id.push(self.reaches_lane_id[d]);
        self.defs.len() - 1
    }

    /// The specialization of generic func `d` whose parameters have `kinds` (every one, the
    /// generic ones given by a call's arguments): made on first request, with no return type
    /// yet when the func has no annotation (see `lower::infer_returns`).
    pub fn specialize_func(&mut self, d: usize, kinds: Vec<ParamKind>) -> usize {
        if let Some(&s) = self.func_specs.get(&(d, kinds.clone())) {
            return s;
        }
        let sig = &self.defs[d];
        let mut params = sig.params.clone();
        let mut types: Vec<(String, String)> = Vec::new();
        for g in &sig.generic {
            let kind = kinds[g.param];
            params[g.param].kind = kind;
            if !types.iter().any(|(n, _)| *n == g.var) {
                types.push((g.var.clone(), self.kind_text(kind, g.use_)));
            }
        }
        let s = self.add_specialization(d, params, types);
        self.func_specs.insert((d, kinds), s);
        s
    }

    /// A parameter kind as the type a generic name stands for in it (`Array[T]`'s `T`
    /// is the element).
    fn kind_text(&self, kind: ParamKind, use_: GenericUse) -> String {
        let elem = use_ != GenericUse::Whole;
        match kind {
            ParamKind::Value(t) => t.name(),
            ParamKind::Struct(id) => self.strukt(id).name.clone(),
            ParamKind::Array(t, _) if elem => t.name(),
            ParamKind::Records(id, _) if elem => self.strukt(id).name.clone(),
            ParamKind::Array(t, dims) => {
                format!(
                    "{}[{}]",
                    ["Array", "Array2D", "Array3D"][dims as usize - 1],
                    t.name()
                )
            }
            ParamKind::Records(id, dims) => format!(
                "{}[{}]",
                ["Array", "Array2D", "Array3D"][dims as usize - 1],
                self.strukt(id).name
            ),
        }
    }

    /// The parameter kind a generic use of `t` gives.
    fn bind(&self, use_: GenericUse, t: TypeArg) -> Result<ParamKind, String> {
        Ok(match (use_, t) {
            (GenericUse::Whole | GenericUse::Value, TypeArg::Value(t)) => ParamKind::Value(t),
            (GenericUse::Whole | GenericUse::Value, TypeArg::Struct(id)) => ParamKind::Struct(id),
            (GenericUse::Whole, TypeArg::Array(e, dims)) => self.array_kind(e, dims)?,
            (GenericUse::Value, TypeArg::Array(..)) => {
                return Err("it is a value's type here, not an array".into())
            }
            (GenericUse::Elem(dims), TypeArg::Value(t)) => self.array_kind(Elem::Value(t), dims)?,
            (GenericUse::Elem(dims), TypeArg::Struct(id)) => {
                self.array_kind(Elem::Struct(id), dims)?
            }
            (GenericUse::Elem(_), TypeArg::Array(..)) => {
                return Err(
                    "it is an array's element type here: give the element (`f32`), not an array"
                        .into(),
                )
            }
        })
    }

    fn array_kind(&self, e: Elem, dims: u32) -> Result<ParamKind, String> {
        let kind = ["Array", "Array2D", "Array3D"][dims as usize - 1];
        match e {
            Elem::Value(Ty::Scalar(Scalar::Bool)) => Err(format!(
                "`{kind}[bool]` has no portable storage layout (use `u32`)"
            )),
            Elem::Value(t) => Ok(ParamKind::Array(t, dims)),
            Elem::Struct(id) => match self.records_annotation(id, Span::default(), kind, dims) {
                Ok(_) => Ok(ParamKind::Records(id, dims)),
                Err(d) => Err(d.message),
            },
        }
    }

    /// A type spelled as an annotation, with spirthon's names.
    fn type_arg(&self, text: &str) -> Result<TypeArg, String> {
        let text = text.trim();
        if let Some((head, rest)) = text.split_once('[') {
            let dims = match head.trim() {
                "Array" => 1,
                "Array2D" => 2,
                "Array3D" => 3,
                other => return Err(format!("`{other}[...]` is no type")),
            };
            let Some(inner) = rest.strip_suffix(']') else {
                return Err("a `]` is missing".into());
            };
            return match self.type_arg(inner)? {
                TypeArg::Value(t) => Ok(TypeArg::Array(Elem::Value(t), dims)),
                TypeArg::Struct(id) => Ok(TypeArg::Array(Elem::Struct(id), dims)),
                TypeArg::Array(..) => Err("an array of arrays is no type".into()),
            };
        }
        let t = match text {
            "int" => Some(Ty::I32),
            "float" => Some(Ty::F32),
            "bool" => Some(Ty::BOOL),
            "quat" => Some(Ty::Quat),
            _ => Scalar::named(text)
                .map(Ty::Scalar)
                .or_else(|| Ty::vector_named(text))
                .or_else(|| Ty::matrix_named(text)),
        };
        if let Some(t) = t {
            return Ok(TypeArg::Value(t));
        }
        match self.structs.iter().position(|s| s.name == text) {
            Some(k) => Ok(TypeArg::Struct(StructId(k as u32))),
            None if text.is_empty() => Err("the type is empty".into()),
            None => Err(format!(
                "`{text}` is no type of spirthon's or struct of this file"
            )),
        }
    }
}

/// The spelling a specialization records: `int` as `i32`, `float` as `f32`, no spaces.
fn canonical(text: &str) -> String {
    let t: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    match t.as_str() {
        "int" => "i32".into(),
        "float" => "f32".into(),
        _ => t.replace("[int]", "[i32]").replace("[float]", "[f32]"),
    }
}

/// `kernel__t1__t2`: the kernel's name and each bound type (`Array2D[f32]` as
/// `Array2D_f32`), an identifier in every shading language.
pub fn mangled(kernel: &str, types: &[(String, String)]) -> String {
    let mut out = kernel.to_string();
    for (_, t) in types {
        out.push_str("__");
        out.extend(t.chars().filter_map(|c| match c {
            '[' => Some('_'),
            ']' => None,
            c => Some(c),
        }));
    }
    out
}
