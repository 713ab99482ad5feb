//! Other shading languages from a compiled module: naga's back-ends (WGSL, MSL, HLSL, GLSL)
//! over the module naga's SPIR-V frontend reads from the validated words, so every output
//! describes exactly the module the runtime runs. The binding layout is kept: WGSL keeps
//! `@group(0) @binding(n)`, HLSL uses register `n` in space 0, MSL buffer slot `n`, and GLSL
//! `binding = n`.

use std::fmt::Write;

/// A target language.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Target {
    Wgsl,
    Msl,
    Hlsl,
    Glsl,
}

/// The module `words` in `target`; `kernels` names the entry points (GLSL writes one per
/// kernel, one after the other, each headed by a comment).
pub fn translate(words: &[u32], target: Target, kernels: &[&str]) -> Result<String, String> {
    let (module, info) = spirthon_spirv::validate(words)?;
    match target {
        Target::Wgsl => naga::back::wgsl::write_string(
            &module,
            &info,
            naga::back::wgsl::WriterFlags::EXPLICIT_TYPES,
        )
        .map_err(|e| format!("naga's WGSL writer: {e}")),
        Target::Msl => {
            let options = naga::back::msl::Options {
                lang_version: (2, 1),
                ..Default::default()
            };
            naga::back::msl::write_string(
                &module,
                &info,
                &options,
                &naga::back::msl::PipelineOptions::default(),
            )
            .map(|(s, _)| s)
            .map_err(|e| format!("naga's MSL writer: {e}"))
        }
        Target::Hlsl => {
            let options = naga::back::hlsl::Options::default();
            let pipeline = naga::back::hlsl::PipelineOptions { entry_point: None };
            let mut out = String::new();
            naga::back::hlsl::Writer::new(&mut out, &options, &pipeline)
                .write(&module, &info, None)
                .map_err(|e| format!("naga's HLSL writer: {e}"))?;
            Ok(out)
        }
        Target::Glsl => glsl(&module, &info, kernels),
    }
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
