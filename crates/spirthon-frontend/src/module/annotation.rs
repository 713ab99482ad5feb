//! Type annotations: scalars, vectors, `Array[T]` / `Array2D[T]` / `Array3D[T]` and
//! `tuple[...]`, resolved against the module's imports.

use super::*;

/// What an annotation denotes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Ann {
    Value(Ty),
    /// `Array[T]` (1), `Array2D[T]` (2), `Array3D[T]` (3).
    Array(Ty, u32),
    /// `tuple[T1, T2, ...]`: what a func may return.
    Tuple(TupleTy),
    /// A `@struct` class.
    Struct(StructId),
    /// `Array[S]` (and 2-D, 3-D) of a struct `S`.
    Records(StructId, u32),
    None,
}

/// The most numbers a func can return as a tuple (vector items count their components).
pub const MAX_TUPLE_COMPONENTS: u32 = 16;

/// A tuple type: up to sixteen scalars and vectors of at most sixteen components in all. A
/// func returns it as one *carrier* of those components: of their type when they all have
/// one (not bool), else of their bits as `u32`s (bools as 0 or 1). The carrier is a vector
/// type of that many components; past four, the emitter declares it as an array (it is never
/// an operand of arithmetic: it is only built, returned and taken apart).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TupleTy {
    items: [Ty; 16],
    len: u8,
}

impl TupleTy {
    /// The tuple of `items`, or `None` past the component limit.
    pub fn new(items: &[Ty]) -> Option<TupleTy> {
        let comps: u32 = items.iter().map(|t| t.components()).sum();
        if items.is_empty() || comps > MAX_TUPLE_COMPONENTS {
            return None;
        }
        let mut arr = [Ty::I32; 16];
        arr[..items.len()].copy_from_slice(items);
        Some(TupleTy {
            items: arr,
            len: items.len() as u8,
        })
    }
    pub fn items(&self) -> &[Ty] {
        &self.items[..self.len as usize]
    }
    /// The 8-byte scalar type (`f64`, `i64`, `u64`) that `items` mix with another type, if
    /// they do: a packed carrier holds each component's bits in a `u32`, and these have 64.
    pub fn mixed_wide(items: &[Ty]) -> Option<Scalar> {
        let wide = items.iter().map(|t| t.scalar()).find(|s| s.size() == 8)?;
        items.iter().any(|t| t.scalar() != wide).then_some(wide)
    }
    /// Whether the carrier holds the components' bits as `u32`s.
    pub fn packed(&self) -> bool {
        let s = self.items[0].scalar();
        s == Scalar::Bool || self.items().iter().any(|t| t.scalar() != s)
    }
    /// The type the func returns.
    pub fn carrier(&self) -> Ty {
        let n: u32 = self.items().iter().map(|t| t.components()).sum();
        let s = if self.packed() {
            Scalar::U32
        } else {
            self.items[0].scalar()
        };
        match n {
            1 => Ty::Scalar(s),
            n => Ty::Vector(s, n as u8),
        }
    }
    /// The Python spelling, `tuple[f32, i32]`.
    pub fn name(&self) -> String {
        let items: Vec<String> = self.items().iter().map(|t| t.name()).collect();
        format!("tuple[{}]", items.join(", "))
    }
}

impl ModuleInfo {
    /// `tuple[T1, T2, ...]`: scalars and vectors, at most four numbers in all.
    fn tuple_annotation(&self, ast: &Ast, inner: ExprId, span: Span) -> Result<Ann, Diagnostic> {
        let parts: Vec<ExprId> = match &ast.expr(inner).kind {
            ExprKind::Tuple(items) => items.clone(),
            _ => vec![inner],
        };
        let mut items = Vec::new();
        for p in parts {
            match self.annotation(ast, p)? {
                Ann::Value(t) => items.push(t),
                _ => {
                    return Err(Diagnostic::error(
                        ast.expr(p).span,
                        "a tuple holds numbers, bools and vectors",
                    ))
                }
            }
        }
        if let Some(w) = TupleTy::mixed_wide(&items) {
            let w = w.name();
            return Err(Diagnostic::error(
                span,
                format!(
                    "a tuple returned by a func holds {w}s only with other {w}s in this version"
                ),
            )
            .with_help(format!(
                "return the {w}s alone, or convert the others with `{w}(...)`"
            )));
        }
        match TupleTy::new(&items) {
            Some(t) => Ok(Ann::Tuple(t)),
            None => Err(Diagnostic::error(
                span,
                format!("a tuple returned by a func holds at most {MAX_TUPLE_COMPONENTS} numbers in this version (a vector counts its components)"),
            )
            .with_help("write larger results into an array parameter")),
        }
    }

    /// `Array[T]`, `Array2D[T]`, `Array3D[T]`: `T` a number type or a vector (a buffer of
    /// 3-vectors is packed, 12 bytes an element: see the emitter).
    fn array_annotation(&self, ast: &Ast, elem: ExprId, dims: u32) -> Result<Ann, Diagnostic> {
        let kind = ["Array", "Array2D", "Array3D"][dims as usize - 1];
        let sp = ast.expr(elem).span;
        match self.annotation(ast, elem)? {
            Ann::Struct(id) => self.records_annotation(id, sp, kind, dims),
            Ann::Value(Ty::Scalar(Scalar::Bool)) => Err(Diagnostic::error(
                sp,
                format!("`{kind}[bool]` has no portable storage layout"),
            )
            .with_help(format!("use `{kind}[u32]` and store 0 or 1"))),
            Ann::Value(t) => Ok(Ann::Array(t, dims)),
            _ => Err(Diagnostic::error(
                sp,
                format!(
                    "an `{kind}` element must be a number type (`i32`, `u32`, `f32`, `f64`, `i8`, `u8`, `i16`, `u16`, `i64`, `u64`, `f16`) or a vector"
                ),
            )),
        }
    }

    /// `Array[S]` of a struct: an element with narrow ints is 32-bit words, so it cannot
    /// hold an 8-byte scalar (`f64`, `i64`, `u64`) as well.
    pub(super) fn records_annotation(
        &self,
        id: StructId,
        sp: Span,
        kind: &str,
        dims: u32,
    ) -> Result<Ann, Diagnostic> {
        let s = self.strukt(id);
        let narrow = s.leaves.iter().find(|l| l.ty.scalar().is_narrow());
        let wide = s.leaves.iter().find(|l| l.ty.scalar().size() == 8);
        if let (Some(n), Some(w)) = (narrow, wide) {
            let wt = w.ty.scalar().name();
            return Err(Diagnostic::error(
                sp,
                format!("an `{kind}[{}]` cannot hold both its {wt} field `{}` and its {} field `{}` in this version", s.name, w.path, n.ty, n.path),
            )
            .with_note(format!("an element with narrow ints is 32-bit words, and {} is not one", spirthon_ir::types::with_article(wt)))
            .with_help(format!("keep the {wt}s, or the narrow ints, in an array of their own")));
        }
        Ok(Ann::Records(id, dims))
    }

    /// Resolves a type annotation.
    pub fn annotation(&self, ast: &Ast, e: ExprId) -> Result<Ann, Diagnostic> {
        let expr = ast.expr(e);
        let no_local = |_: &str| false;
        // `-> (f32, f32)`: the tuple spelled as a tuple of types.
        if let ExprKind::Tuple(_) = expr.kind {
            return self.tuple_annotation(ast, e, expr.span);
        }
        if let ExprKind::None = expr.kind {
            return Ok(Ann::None);
        }
        if let ExprKind::Subscript(base, elem) = expr.kind {
            let dims = match self.lib_item(ast, base, &no_local) {
                Some((Lib::Spirthon, "Array")) => Some(1),
                Some((Lib::Spirthon, "Array2D")) => Some(2),
                Some((Lib::Spirthon, "Array3D")) => Some(3),
                _ => None,
            };
            if let Some(dims) = dims {
                return self.array_annotation(ast, elem, dims);
            }
        }
        if let ExprKind::Name(n) = &expr.kind {
            if let Some(id) = self.struct_named(n) {
                return Ok(Ann::Struct(id));
            }
            if let Some(Global::Opaque { what, span }) = self.globals.get(n) {
                return Err(Diagnostic::error(
                    expr.span,
                    format!("`{n}` is {what}, so it is no type"),
                )
                .with_secondary(*span, format!("`{n}` is defined here")));
            }
            let later = ast.items.iter().find_map(|i| match i {
                Item::Struct(d) if d.name == *n => Some(d.name_span),
                _ => None,
            });
            if let (Some(at), false) = (later, self.globals.contains_key(n)) {
                return Err(Diagnostic::error(
                    expr.span,
                    format!("struct `{n}` is used before its declaration"),
                )
                .with_secondary(at, "declared here")
                .with_help(format!(
                    "declare `{n}` above its first use, as Python needs it"
                )));
            }
            if !self.globals.contains_key(n) {
                match n.as_str() {
                    "int" => return Ok(Ann::Value(Ty::I32)),
                    "float" => return Ok(Ann::Value(Ty::F32)),
                    "bool" => return Ok(Ann::Value(Ty::BOOL)),
                    _ if super::is_spirthon_name(n) => {
                        return Err(
                            Diagnostic::error(expr.span, format!("`{n}` is not imported"))
                                .with_help(format!("add `from spirthon import {n}`")),
                        );
                    }
                    _ => {}
                }
            }
        }
        let generic = match &expr.kind {
            ExprKind::Subscript(base, _) => match &ast.expr(*base).kind {
                ExprKind::Name(n) => Some(n.as_str()),
                ExprKind::Attr(_, a) => Some(a.as_str()),
                _ => None,
            },
            ExprKind::Name(n) => Some(n.as_str()),
            _ => None,
        };
        if let (Some("tuple" | "Tuple"), ExprKind::Subscript(_, inner)) = (generic, &expr.kind) {
            return self.tuple_annotation(ast, *inner, expr.span);
        }
        if let Some(t @ ("tuple" | "Tuple" | "list" | "List")) = generic {
            return Err(Diagnostic::error(
                expr.span,
                format!("`{t}` types are not supported in kernels"),
            )
            .with_help(
                "a func may return `tuple[T1, T2, ...]`; arrays are `Array[T]` parameters",
            ));
        }
        let item = self.lib_item(ast, e, &no_local);
        let type_var = matches!(&expr.kind, ExprKind::Name(n) if match self.globals.get(n) {
            Some(g) => matches!(g, Global::TypeVar),
            None => self.type_params.contains(n),
        });
        if let Some((Lib::Typing, other)) = item.filter(|&(_, n)| n != "Any") {
            return Err(Diagnostic::error(
                expr.span,
                format!("`typing.{other}` is no type in kernels"),
            )
            .with_help("kernels take `Any` and `TypeVar`s from `typing`; types come from spirthon: `from spirthon import f32, Array`"));
        }
        if type_var || item.is_some_and(|(lib, _)| lib == Lib::Typing) {
            return Err(Diagnostic::error(
                expr.span,
                "a generic type stands only for a kernel's or a func's parameter here",
            )
            .with_note("a parameter annotated `Any`, a `TypeVar` or `Array[T]` (or not annotated) is generic: a kernel's type comes from each launch, a func's from each call")
            .with_help("give this one a type (`f32`, `Array[f32]`, ...)"));
        }
        if item == Some((Lib::Spirthon, "Rand")) {
            return Ok(Ann::Struct(Self::RAND));
        }
        if let Some(t) = item.and_then(|(lib, v)| {
            (lib == Lib::Spirthon).then(|| {
                Scalar::named(v)
                    .map(Ty::Scalar)
                    .or_else(|| Ty::vector_named(v))
                    .or_else(|| Ty::matrix_named(v))
                    .or((v == "quat").then_some(Ty::Quat))
            })?
        }) {
            return Ok(Ann::Value(t));
        }
        match item {
            Some((Lib::Spirthon, "Array")) => Err(Diagnostic::error(
                expr.span,
                "`Array` needs an element type, as in `Array[f32]`",
            )),
            _ => Err(Diagnostic::error(
                expr.span,
                "unknown type: expected `i32`, `u32`, `f32`, `f64`, `i64`, `u64`, `i8`, `u8`, `i16`, `u16`, `f16`, `int`, `float`, `bool`, a vector (`vec3`, `ivec2`, …) or `Array[T]`",
            )
            .with_help("types come from spirthon: `from spirthon import f32, Array`")),
        }
    }
}
