//! Other shading languages from a compiled module: naga's back-ends (WGSL, MSL, HLSL, GLSL)
//! over the module naga's SPIR-V frontend reads from the validated words, so every output
//! describes exactly the module the runtime runs. The binding layout is kept: WGSL keeps
//! `@group(0) @binding(n)`, HLSL uses register `n` in space 0, MSL buffer slot `n`, and GLSL
//! `binding = n`.
//!
//! Every output is a program its language's compilers accept (`tests/translate.rs` feeds
//! each to one): where a back end writes something a target rejects, this module works
//! around it, and where a target cannot express the kernel, [`translate`] refuses with a
//! located reason that names the target.
//!
//! - A func whose end is unreachable (it ends in `while True:`) gets a `return` of a zero
//!   value after its last loop: WGSL (and HLSL) require a function that returns a value to
//!   end with a return statement, reachable or not.
//! - WGSL: naga's explicit-type flag would name predeclared types (the result of
//!   `atomicCompareExchangeWeak`) that WGSL cannot spell, so a module that has them is
//!   written with inferred types.
//! - GLSL 4.30: a component-wise select of integers or bools is `mix` with a `bvec`, which
//!   needs `GL_EXT_shader_integer_mix` (core only from 4.50): the unit enables it when it
//!   has one.
//! - WGSL, GLSL 4.30 and HLSL have no atomic operations on floats (the device's float add of
//!   `atomic_add` on an `Array[f32]`): refused at the call. MSL has them from 3.0, which a
//!   module with one is written for (2.1 otherwise). The float atomics that are
//!   compare-exchange loops on the bits (`atomic_min`, `atomic_max`, those on shared arrays:
//!   [`Module::word_arrays`]) are integer atomics, which every target has.

use std::fmt::Write;

use spirthon_ir::{Diagnostic, Module, Op, Ty};

/// A target language.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Target {
    Wgsl,
    Msl,
    Hlsl,
    Glsl,
}

impl Target {
    fn name(self) -> &'static str {
        match self {
            Target::Wgsl => "WGSL",
            Target::Msl => "MSL",
            Target::Hlsl => "HLSL",
            Target::Glsl => "GLSL",
        }
    }
}

/// Why a module has no text in a target.
#[derive(Debug)]
pub enum TranslateError {
    /// The target cannot express the kernel: the rendered, located reason (exit status 1).
    Unsupported(String),
    /// A back end failed: a bug.
    Internal(String),
}

/// The compiled file a module came from: its IR, source text and path, which locate a
/// refusal.
pub type Origin<'a> = (&'a Module, &'a str, &'a str);

/// The module `words` in `target`; `kernels` names the entry points (GLSL writes one per
/// kernel, one after the other, each headed by a comment).
pub fn translate(
    words: &[u32],
    target: Target,
    kernels: &[&str],
    origin: Option<Origin<'_>>,
) -> Result<String, TranslateError> {
    if let Some((m, source, path)) = origin {
        if let Some(d) = unsupported(m, target) {
            return Err(TranslateError::Unsupported(crate::render_diagnostics(
                &[d],
                source,
                path,
                false,
            )));
        }
    }
    let internal = TranslateError::Internal;
    let (mut module, mut info) = spirthon_spirv::validate(words).map_err(internal)?;
    if return_after_last_loop(&mut module) {
        info = spirthon_spirv::check(&module).map_err(internal)?;
    }
    match target {
        Target::Wgsl => {
            let flags = if module.special_types.predeclared_types.is_empty() {
                naga::back::wgsl::WriterFlags::EXPLICIT_TYPES
            } else {
                naga::back::wgsl::WriterFlags::empty()
            };
            naga::back::wgsl::write_string(&module, &info, flags)
                .map(|text| entry_names_kept(text, kernels))
                .map_err(|e| internal(format!("naga's WGSL writer: {e}")))
        }
        Target::Msl => {
            // Atomics on floats are MSL 3.0's; everything else is 2.1's.
            let floats = origin.is_some_and(|(m, ..)| float_atomic(m).is_some());
            let options = naga::back::msl::Options {
                lang_version: if floats { (3, 0) } else { (2, 1) },
                ..Default::default()
            };
            naga::back::msl::write_string(
                &module,
                &info,
                &options,
                &naga::back::msl::PipelineOptions::default(),
            )
            .map(|(s, _)| s)
            .map_err(|e| internal(format!("naga's MSL writer: {e}")))
        }
        Target::Hlsl => {
            let options = naga::back::hlsl::Options::default();
            let pipeline = naga::back::hlsl::PipelineOptions { entry_point: None };
            let mut out = String::new();
            naga::back::hlsl::Writer::new(&mut out, &options, &pipeline)
                .write(&module, &info, None)
                .map_err(|e| internal(format!("naga's HLSL writer: {e}")))?;
            Ok(out)
        }
        Target::Glsl => glsl(&module, &info, kernels).map_err(internal),
    }
}

/// The name kernel `kernel`'s entry point has in the WGSL: its own, or with naga's trailing
/// `_` when it is a WGSL keyword, a reserved word or a built-in name (`filter`, `step`).
pub fn wgsl_entry_name(kernel: &str) -> String {
    use naga::keywords::wgsl::{BUILTIN_IDENTIFIERS, RESERVED};
    if RESERVED.contains(&kernel) || BUILTIN_IDENTIFIERS.contains(&kernel) {
        format!("{kernel}_")
    } else {
        kernel.to_string()
    }
}

/// `text` (naga's WGSL) with each kernel's entry point under the kernel's own name. naga's
/// namer appends `_` to every name that ends in a digit (`lbm_d2q9` is written
/// `lbm_d2q9_`), so that its own numbered names (`lbm_d2q9_1`) never collide; the bare name
/// is then used nowhere else, and WGSL allows it, so the entry point's declaration takes it
/// back and a host finds the kernel by its name. (A name that is a WGSL keyword or built-in name
/// keeps naga's suffix: see [`wgsl_entry_name`].)
fn entry_names_kept(mut text: String, kernels: &[&str]) -> String {
    for name in kernels {
        if !name.ends_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let renamed = format!("\nfn {name}_(");
        if let Some(at) = text.find(&renamed) {
            text.replace_range(at..at + renamed.len(), &format!("\nfn {name}("));
        }
    }
    text
}

/// The first atomic of `m` that is the device's float add (on an `f32` buffer, or a
/// vector of them): its span and its name (`add`).
fn float_atomic(m: &Module) -> Option<(spirthon_ir::Span, &'static str)> {
    let words = m.word_arrays();
    m.functions.iter().find_map(|f| {
        f.insts.iter().find_map(|i| match i.op {
            Op::Atomic(op, a)
                if i.ty.is_some_and(|t| t.scalar() == spirthon_ir::Scalar::F32)
                    && !words.contains(&a) =>
            {
                let name = spirthon_ir::AtomicOp::ALL
                    .iter()
                    .find(|(o, _)| *o == op)
                    .map_or("add", |(_, n)| *n);
                Some((i.span, name))
            }
            _ => None,
        })
    })
}

/// The first value of `m` whose scalar type `pick` accepts, located (at an expression of
/// the source where one is: a constant the compiler made has no place of its own).
fn first_of(m: &Module, pick: fn(spirthon_ir::Scalar) -> bool) -> Option<spirthon_ir::Span> {
    let found =
        |i: &spirthon_ir::cfg::Inst<spirthon_ir::cfg::Ref>| i.ty.is_some_and(|t| pick(t.scalar()));
    let all = || {
        m.functions
            .iter()
            .flat_map(|f| f.insts.iter())
            .filter(|i| found(i))
    };
    all()
        .find(|i| i.span.end > i.span.start)
        .or_else(|| all().next())
        .map(|i| i.span)
}

/// The first construct of `m` that `target` cannot express, located.
fn unsupported(m: &Module, target: Target) -> Option<Diagnostic> {
    if target == Target::Glsl {
        // The module's own f64 functions read the bits through 64-bit ints.
        let f64_math = m.functions.iter().flat_map(|f| f.insts.iter()).find(|i| {
            matches!(i.op, Op::Math(mf) if mf.takes_f64() && !mf.exact_on_f64())
                && i.ty == Some(Ty::F64)
        });
        if let Some(i) = f64_math {
            return Some(
                Diagnostic::error(i.span, "GLSL cannot express this f64 function")
                    .with_label("computed on f64 through 64-bit integers")
                    .with_note(
                        "spirthon computes `exp`, `log`, `sin` and the like on f64 itself, reading the bits as 64-bit ints, which naga's GLSL writer has none of; SPIR-V (the default) and HLSL express it",
                    ),
            );
        }
        // An f64 atomic is a compare-exchange loop on the float's bits in a u64 word.
        let f64_atomic = m.functions.iter().flat_map(|f| f.insts.iter()).find(|i| {
            matches!(i.op, Op::Atomic(..))
                && i.ty.is_some_and(|t| t.scalar() == spirthon_ir::Scalar::F64)
        });
        if let Some(i) = f64_atomic {
            return Some(
                Diagnostic::error(i.span, "GLSL cannot express an atomic on f64")
                    .with_label("an atomic on an f64 array")
                    .with_note(
                        "an f64 atomic is a compare-exchange loop on the float's bits in a 64-bit int, which naga's GLSL writer has none of; SPIR-V (the default) and HLSL express it",
                    ),
            );
        }
    }
    if matches!(target, Target::Wgsl | Target::Glsl) {
        if let Some(span) = first_of(m, spirthon_ir::Scalar::is_int64) {
            return Some(
                Diagnostic::error(span, format!("{} has no 64-bit integers", target.name()))
                    .with_label("an i64 or u64 value")
                    .with_note(
                        "SPIR-V (the default), MSL and HLSL express i64 and u64; WGSL has no 64-bit integer type, and the GLSL writer none either",
                    ),
            );
        }
    }
    if matches!(target, Target::Wgsl | Target::Msl) {
        if let Some(span) = first_of(m, |s| s == spirthon_ir::Scalar::F64) {
            return Some(
                Diagnostic::error(span, format!("{} has no f64", target.name()))
                    .with_label("an f64 value")
                    .with_note(
                        "SPIR-V (the default), HLSL and GLSL express f64; WGSL and Metal have no double-precision type",
                    ),
            );
        }
    }
    if target == Target::Msl {
        return None;
    }
    float_atomic(m).map(|(span, name)| {
        Diagnostic::error(
            span,
            format!("{} has no atomic operations on floats", target.name()),
        )
        .with_label(format!("`atomic_{name}` on an f32 array"))
        .with_note(concat!(
            "SPIR-V (the default) and MSL 3.0 express it; ",
            "the atomics of WGSL, GLSL 4.30 and HLSL are integers"
        ))
    })
}

/// Appends `return <zero>` to each function that returns a value and whose body ends in a
/// loop (its end unreachable, so our SPIR-V has no return there); whether any changed.
fn return_after_last_loop(module: &mut naga::Module) -> bool {
    let mut changed = false;
    for (_, f) in module.functions.iter_mut() {
        let Some(result) = &f.result else { continue };
        let ends_in_loop = matches!(f.body.last(), Some(naga::Statement::Loop { .. }));
        if ends_in_loop {
            let zero = f.expressions.append(
                naga::Expression::ZeroValue(result.ty),
                naga::Span::UNDEFINED,
            );
            f.body.push(
                naga::Statement::Return { value: Some(zero) },
                naga::Span::UNDEFINED,
            );
            changed = true;
        }
    }
    changed
}

/// Whether `module` selects integers or bools component-wise (GLSL's `mix` with a `bvec`).
fn selects_ints_by_vector(module: &naga::Module, info: &naga::valid::ModuleInfo) -> bool {
    let functions = module.functions.iter().map(|(h, f)| (f, &info[h])).chain(
        module
            .entry_points
            .iter()
            .enumerate()
            .map(|(k, e)| (&e.function, info.get_entry_point(k))),
    );
    for (f, fi) in functions {
        for (_, e) in f.expressions.iter() {
            let naga::Expression::Select {
                condition, accept, ..
            } = *e
            else {
                continue;
            };
            let is_vector = |h: naga::Handle<naga::Expression>| {
                matches!(
                    fi[h].ty.inner_with(&module.types),
                    naga::TypeInner::Vector { .. }
                )
            };
            let float = matches!(
                fi[accept].ty.inner_with(&module.types).scalar_kind(),
                Some(naga::ScalarKind::Float)
            );
            if is_vector(condition) && !float {
                return true;
            }
        }
    }
    false
}

fn glsl(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    kernels: &[&str],
) -> Result<String, String> {
    let mut options = naga::back::glsl::Options {
        version: naga::back::glsl::Version::Desktop(430),
        writer_flags: naga::back::glsl::WriterFlags::empty(),
        ..Default::default()
    };
    for (_, var) in module.global_variables.iter() {
        if let Some(rb) = var.binding {
            options.binding_map.insert(rb, rb.binding as u8);
        }
    }
    let integer_mix = selects_ints_by_vector(module, info);
    let mut all = String::new();
    for (k, name) in kernels.iter().enumerate() {
        let pipeline = naga::back::glsl::PipelineOptions {
            shader_stage: naga::ShaderStage::Compute,
            entry_point: name.to_string(),
            multiview: None,
        };
        let mut out = String::new();
        naga::back::glsl::Writer::new(
            &mut out,
            module,
            info,
            &options,
            &pipeline,
            naga::proc::BoundsCheckPolicies::default(),
        )
        .and_then(|mut w| w.write().map(|_| ()))
        .map_err(|e| format!("naga's GLSL writer ({name}): {e}"))?;
        if integer_mix {
            out = enable_after_version(&out, "GL_EXT_shader_integer_mix");
        }
        // naga requests the subgroup extension for subgroup operations, not for the
        // subgroup size or index read alone.
        let basic = "GL_KHR_shader_subgroup_basic";
        if (out.contains("gl_SubgroupSize") || out.contains("gl_SubgroupInvocationID"))
            && !out.contains(basic)
        {
            out = enable_after_version(&out, basic);
        }
        if kernels.len() > 1 {
            if k > 0 {
                all.push('\n');
            }
            let _ = writeln!(all, "// ---- kernel `{name}` ----");
        }
        all.push_str(&out);
    }
    Ok(all)
}

/// `unit` with `#extension <ext> : require` after its `#version` line.
fn enable_after_version(unit: &str, ext: &str) -> String {
    match unit.find('\n') {
        Some(end) if unit.starts_with("#version") => format!(
            "{}\n#extension {ext} : require{}",
            &unit[..end],
            &unit[end..]
        ),
        _ => format!("#extension {ext} : require\n{unit}"),
    }
}
