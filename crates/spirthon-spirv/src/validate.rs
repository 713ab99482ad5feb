//! Runs naga's SPIR-V frontend and validator over an emitted module: exactly what wgpu will
//! do with it. A rejection here is a compiler bug, reported as such by the caller.

/// Parses and validates `words` with naga; on failure, naga's message. The module and its
/// validation info are what naga's back-ends translate.
pub fn validate(words: &[u32]) -> Result<(naga::Module, naga::valid::ModuleInfo), String> {
    let options = naga::front::spv::Options {
        adjust_coordinate_space: false,
        strict_capabilities: true,
        block_ctx_dump_prefix: None,
    };
    let module = naga::front::spv::Frontend::new(words.iter().copied(), &options)
        .parse()
        .map_err(|e| format!("naga's SPIR-V frontend rejected the module: {e}"))?;
    let info = check(&module)?;
    Ok((module, info))
}

/// Validates a naga module read from our SPIR-V (after a back end's adjustment, for one).
pub fn check(module: &naga::Module) -> Result<naga::valid::ModuleInfo, String> {
    // `atomic_add` on an `Array[f32]`, `f64`, `i64`/`u64` and their atomics, and subgroup
    // operations need device features; the runtime checks the device.
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default()
            | naga::valid::Capabilities::SHADER_FLOAT32_ATOMIC
            | naga::valid::Capabilities::FLOAT64
            | naga::valid::Capabilities::SHADER_INT64
            | naga::valid::Capabilities::SHADER_INT64_ATOMIC_ALL_OPS
            | naga::valid::Capabilities::SUBGROUP,
    );
    validator
        .subgroup_stages(naga::valid::ShaderStages::COMPUTE)
        .subgroup_operations(naga::valid::SubgroupOperationSet::all());
    validator
        .validate(module)
        .map_err(|e| format!("naga's validator rejected the module: {:?}", e.into_inner()))
}
