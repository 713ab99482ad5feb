//! Running a compiled kernel on a device with the run JSON (`spirthon run`): the launch
//! its inputs plan, the dispatch, and the output object with a checked run's failure.

use serde_json::Value;
pub use spirthon_runtime::{Gpu, RunError, Shader};

/// A run's output object and timings.
pub struct Ran {
    pub output: Value,
    pub dispatch: std::time::Duration,
    pub plan: spirthon_runtime::inputs::Plan,
    /// A checked run's first failure (see [`spirthon_ir::checks`]).
    pub failure: Option<spirthon_ir::Failure>,
    /// The module's check sites, to report `failure` with.
    pub checks: Vec<spirthon_ir::CheckSite>,
    /// What a kernel that prints printed (see [`spirthon_ir::prints`]).
    pub printed: Option<spirthon_ir::prints::Printed>,
}

impl Ran {
    /// A checked run's first failure as `spirthon run --checked` reports it (`path` and
    /// `source` are the kernel file's).
    pub fn failure_report(&self, path: &str, source: &str) -> Option<String> {
        let l = &self.plan.launch;
        let f = self.failure.as_ref()?;
        Some(f.report(&self.checks, path, source, l.workgroups(), l.workgroup_size))
    }
}

/// The launch of the kernel that `inputs` (or `kernel`) names: checks the inputs
/// without touching the GPU stack.
pub fn plan(
    compiled: &crate::Compiled,
    inputs: &Value,
    kernel: Option<&str>,
) -> Result<spirthon_runtime::inputs::Plan, RunError> {
    let ep = spirthon_runtime::inputs::entry_point(&compiled.module, inputs, kernel)?;
    spirthon_runtime::inputs::plan(&compiled.module, ep, inputs)
}

/// What a run JSON asks to compile besides every kernel: with a `"types"` object (a generic
/// kernel's: `{"T": "f32"}`), the kernel it names (`--kernel`, else its `"kernel"`), the
/// only one then compiled, and those types for it, or for the file's only generic kernel
/// when none is named; without one, nothing (`(None, [])`).
#[allow(clippy::type_complexity)]
pub fn wanted_types(
    inputs: &Value,
    kernel: Option<&str>,
) -> Result<(Option<String>, Vec<(String, Vec<(String, String)>)>), String> {
    let named = match inputs.get("kernel") {
        Some(Value::String(k)) => Some(k.clone()),
        _ => None,
    };
    let kernel = kernel.map(str::to_string).or(named);
    let types = match inputs.get("types") {
        None | Some(Value::Null) => return Ok((None, Vec::new())),
        Some(Value::Object(o)) => o
            .iter()
            .map(|(k, v)| match v {
                Value::String(t) => Ok((k.clone(), t.clone())),
                other => Err(format!("\"types\": the type of `{k}` must be a string like \"f32\" or \"Array[f32]\", found {other}")),
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(other) => {
            return Err(format!(
                "\"types\" must be an object of a type per generic name, like {{\"T\": \"f32\"}}, found {other}"
            ))
        }
    };
    let target = kernel.clone().unwrap_or_default();
    Ok((kernel, vec![(target, types)]))
}

/// Runs a planned launch of a compiled file on `gpu`. `repeat` extra dispatches time the
/// kernel (the fastest is reported).
pub fn run_plan(
    gpu: &Gpu,
    compiled: &crate::Compiled,
    plan: spirthon_runtime::inputs::Plan,
    repeat: usize,
) -> Result<Ran, RunError> {
    let outcome = gpu.run(Shader::SpirV(&compiled.words), &plan.launch, repeat)?;
    let failure = outcome
        .reported
        .errors
        .as_deref()
        .and_then(spirthon_ir::Failure::decode);
    let l = &plan.launch;
    let printed = outcome.reported.prints.as_deref().map(|w| {
        let sites = &compiled.module.prints;
        spirthon_ir::prints::decode(sites, w, l.workgroups(), l.workgroup_size)
    });
    Ok(Ran {
        output: spirthon_runtime::inputs::output(&plan, &outcome),
        dispatch: outcome.dispatch,
        plan,
        failure,
        checks: compiled.module.checks.clone(),
        printed,
    })
}

/// [`plan`], then [`run_plan`].
pub fn run_compiled(
    gpu: &Gpu,
    compiled: &crate::Compiled,
    inputs: &Value,
    kernel: Option<&str>,
    repeat: usize,
) -> Result<Ran, RunError> {
    let plan = plan(compiled, inputs, kernel)?;
    run_plan(gpu, compiled, plan, repeat)
}
