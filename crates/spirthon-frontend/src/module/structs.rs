//! `@struct` classes: their fields, the leaves a value of one is made of, and the one
//! storage layout an `Array[S]` element has (docs/language.md, "Structs").
//!
//! A struct value never exists as one thing past lowering: it is its *leaves*, the scalars,
//! vectors, matrices and quaternions of its fields in declaration order, a nested struct's
//! in its place. Each leaf has a path (`vel`, `inner.x`) and a byte offset in the element
//! layout: each leaf at the next multiple of its scalar's size (a bool is a 4-byte word, a
//! `vec3` is 12 bytes aligned to 4, as NumPy's `(3,)` subarray), a nested struct at the next
//! multiple of its own alignment; a struct's alignment is its largest leaf's, and its size
//! is rounded up to a multiple of that and of 4, so every element starts on a word. This is
//! NumPy's aligned structured dtype (`align=True`) with the size padded to a word.
//!
//! Invariants: leaf offsets increase in declaration order and each is a multiple of its
//! scalar's size; `size` is a multiple of 4 and of `align`; a struct's fields name only
//! structs declared before it (so there is no cycle).

use super::*;

/// A struct's index in [`ModuleInfo::structs`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct StructId(pub u32);

/// A field's type: a value type, or a struct declared earlier.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum FieldTy {
    Value(Ty),
    Struct(StructId),
}

#[derive(Clone, Debug)]
pub struct Field {
    pub name: String,
    pub ty: FieldTy,
    pub span: Span,
    /// The field's leaves: `leaves[first..first + count]` of its struct.
    pub first: u32,
    pub count: u32,
}

/// One scalar, vector, matrix or quaternion of a struct value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leaf {
    /// `vel`, `inner.x`: the fields from the struct down to it.
    pub path: String,
    pub ty: Ty,
    /// Its byte offset in an array element.
    pub offset: u32,
}

#[derive(Clone, Debug)]
pub struct StructDef {
    pub name: String,
    pub span: Span,
    pub fields: Vec<Field>,
    pub leaves: Vec<Leaf>,
    /// An array element's size in bytes, and its alignment.
    pub size: u32,
    pub align: u32,
}

impl StructDef {
    /// The field named `name`.
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
    /// The field names, for an error's help: "`pos`, `vel` and `mass`".
    pub fn field_list(&self) -> String {
        let names: Vec<String> = self
            .fields
            .iter()
            .map(|f| format!("`{}`", f.name))
            .collect();
        match names.split_last() {
            Some((last, [])) => last.clone(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => String::new(),
        }
    }
}

/// spirthon's `Rand`: one `u32` field, `state`, as a `@struct` would declare it.
pub(super) fn rand_struct() -> StructDef {
    StructDef {
        name: "Rand".into(),
        span: Span::default(),
        fields: vec![Field {
            name: "state".into(),
            ty: FieldTy::Value(Ty::U32),
            span: Span::default(),
            first: 0,
            count: 1,
        }],
        leaves: vec![Leaf {
            path: "state".into(),
            ty: Ty::U32,
            offset: 0,
        }],
        size: 4,
        align: 4,
    }
}

/// The bytes a leaf takes and its alignment in an array element.
fn leaf_layout(t: Ty) -> (u32, u32) {
    (t.size(), t.scalar().size())
}

impl ModuleInfo {
    pub fn strukt(&self, id: StructId) -> &StructDef {
        &self.structs[id.0 as usize]
    }

    /// The struct a top-level name declares (or names: spirthon's `Rand`).
    pub fn struct_named(&self, name: &str) -> Option<StructId> {
        match self.globals.get(name) {
            Some(Global::Struct(id)) => Some(*id),
            Some(Global::Item(Lib::Spirthon, item)) if item == "Rand" => Some(Self::RAND),
            _ => None,
        }
    }

    /// spirthon's `Rand`, the state of a random stream (see `lower::random`): the first
    /// struct of every module.
    pub const RAND: StructId = StructId(0);

    /// Reads a `@struct` class: each field's type (a value type or a struct declared
    /// before), its leaves and its layout.
    pub(super) fn declare_struct(
        &mut self,
        ast: &Ast,
        decl: &StructDecl,
    ) -> Result<StructId, Vec<Diagnostic>> {
        let mut diags = Vec::new();
        let no_local = |_: &str| false;
        if !matches!(
            self.lib_item(ast, decl.decorator, &no_local),
            Some((Lib::Spirthon, "struct"))
        ) {
            diags.push(
                Diagnostic::error(
                    ast.expr(decl.decorator).span,
                    "`struct` is not spirthon's here",
                )
                .with_help("import it: `from spirthon import struct`"),
            );
        }
        if decl.fields.is_empty() {
            diags.push(
                Diagnostic::error(
                    decl.name_span,
                    format!("struct `{}` has no fields", decl.name),
                )
                .with_help("declare each field with its type: `pos: vec3`"),
            );
        }
        let mut fields: Vec<Field> = Vec::new();
        let mut leaves: Vec<Leaf> = Vec::new();
        let (mut offset, mut align) = (0u32, 1u32);
        for (name, ann, span) in &decl.fields {
            if name.starts_with("__") {
                diags.push(
                    Diagnostic::error(*span, format!("field `{name}` starts with two underscores"))
                        .with_note(format!("inside a class Python renames such a name (to `_{}{name}`), so kernels could not read it by this one", decl.name.trim_start_matches('_')))
                        .with_help("name the field without the leading underscores"),
                );
                continue;
            }
            if let Some(first) = fields.iter().find(|f| f.name == *name) {
                diags.push(
                    Diagnostic::error(*span, format!("field `{name}` is declared twice"))
                        .with_secondary(first.span, "first declared here"),
                );
                continue;
            }
            let ty = match self.annotation(ast, *ann) {
                Ok(Ann::Value(t)) if t.components() <= 16 => FieldTy::Value(t),
                Ok(Ann::Struct(s)) => FieldTy::Struct(s),
                Ok(_) => {
                    diags.push(
                        Diagnostic::error(ast.expr(*ann).span, "a struct field holds a number, a bool, a vector, a matrix, a quaternion or a struct")
                            .with_help("an array is a kernel parameter of its own"),
                    );
                    continue;
                }
                Err(_) if matches!(&ast.expr(*ann).kind, ExprKind::Name(n) if *n == decl.name) => {
                    diags.push(
                        Diagnostic::error(
                            ast.expr(*ann).span,
                            format!("struct `{}` cannot hold itself", decl.name),
                        )
                        .with_note("a struct is a value: one that held itself would never end")
                        .with_help("hold an index into an array of them instead (`parent: i32`)"),
                    );
                    continue;
                }
                Err(e) => {
                    diags.push(e);
                    continue;
                }
            };
            let first = leaves.len() as u32;
            match ty {
                FieldTy::Value(t) => {
                    let (size, a) = leaf_layout(t);
                    offset = offset.next_multiple_of(a);
                    leaves.push(Leaf {
                        path: name.clone(),
                        ty: t,
                        offset,
                    });
                    offset += size;
                    align = align.max(a);
                }
                FieldTy::Struct(s) => {
                    let inner = self.strukt(s);
                    offset = offset.next_multiple_of(inner.align);
                    for l in &inner.leaves {
                        leaves.push(Leaf {
                            path: format!("{name}.{}", l.path),
                            ty: l.ty,
                            offset: offset + l.offset,
                        });
                    }
                    offset += inner.size;
                    align = align.max(inner.align);
                }
            }
            fields.push(Field {
                name: name.clone(),
                ty,
                span: *span,
                first,
                count: leaves.len() as u32 - first,
            });
        }
        if !diags.is_empty() {
            return Err(diags);
        }
        let id = StructId(self.structs.len() as u32);
        self.structs.push(StructDef {
            name: decl.name.clone(),
            span: decl.name_span,
            fields,
            leaves,
            size: offset.next_multiple_of(align.max(4)),
            align,
        });
        Ok(id)
    }
}
