//! `spirthon._native`: the compiler and the Vulkan/Metal runtime inside a Python process,
//! for the pure-Python package under `python/spirthon` (which marshals arguments into
//! bytes, following the reflection JSON, and falls back to the CPython executor without this
//! module).
//!
//! The surface is deliberately small and byte-oriented, so that the package stays readable
//! Python and this module stays a thin shell over `spirthon` and `spirthon-runtime`:
//! - `compile(source, path, kernel, checked)` → `(words, reflection, messages)`;
//! - `Device(name)` with `alloc`, `upload`, `write`, `read`, `prepare`, `launch`, `finish`;
//!   `adapters()` lists what `Device` can open;
//! - `report(errors, reflection, path, source, workgroups, workgroup_size)` gives a checked
//!   launch's first failure, worded as `spirthon run --checked` words it and in parts.
//!
//! Long work (compiling, waiting for the device) releases the GIL.

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use spirthon_runtime::resident::{DeviceBuffer, Pipeline};
use spirthon_runtime::{Gpu, Interface, RunError, Shader};

fn run_error(e: RunError) -> PyErr {
    match e {
        RunError::Input(m) => PyValueError::new_err(m),
        RunError::NoAdapter(m) | RunError::Device(m) => PyRuntimeError::new_err(m),
    }
}

/// SPIR-V words from little-endian bytes.
fn words(bytes: &[u8]) -> PyResult<Vec<u32>> {
    if bytes.len() % 4 != 0 {
        return Err(PyValueError::new_err(
            "a SPIR-V module is a whole number of 32-bit words",
        ));
    }
    Ok(spirthon_runtime::le_words(bytes))
}

/// The outcome of `compile`: the module's words (`None` when the file has errors), its
/// reflection JSON, and the diagnostics (errors, or warnings of a file that compiled)
/// rendered as the CLI prints them.
type Compiled<'py> = (Option<Bound<'py, PyBytes>>, Option<String>, String);

/// Compiles the kernels of `source` (read from `path`, which messages name); with
/// `kernel`, that one only. `host_imports`: the file is a program's own (its other imports
/// are the CPU side's); `cpython`: it is checked for the reference executor, which allows
/// `print`. Errors come as `spirthon` prints them, with the line that counts them.
#[pyfunction]
#[pyo3(signature = (source, path, kernel=None, checked=false, host_imports=true, cpython=false))]
fn compile<'py>(
    py: Python<'py>,
    source: &str,
    path: &str,
    kernel: Option<String>,
    checked: bool,
    host_imports: bool,
    cpython: bool,
) -> PyResult<Compiled<'py>> {
    let opts = spirthon::CompileOptions {
        kernel,
        checked,
        host_imports,
        cpython,
        ..Default::default()
    };
    let result = py.detach(|| spirthon::compile(source, path, &opts));
    match result {
        Ok(c) => {
            let bytes: Vec<u8> = c.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let reflection = spirthon::reflect_json(&c.module, source);
            let warnings = spirthon::render_diagnostics(&c.warnings, source, path, false);
            Ok((Some(PyBytes::new(py, &bytes)), Some(reflection), warnings))
        }
        Err(spirthon::CompileError::Source(d)) => Ok((
            None,
            None,
            spirthon::render_failure(&d, source, path, false),
        )),
        Err(spirthon::CompileError::Internal(m)) => Err(PyRuntimeError::new_err(format!(
            "internal compiler error (a bug in spirthon, please report it): {m}"
        ))),
    }
}

/// Checks the kernel file `path` as `spirthon run` compiles it, for
/// `python3 -m spirthon run` (with `print` allowed, see `CompileOptions::cpython`):
/// `(status, text)`, the exit status `spirthon run` would end with at this point (0 when the
/// file compiles) and what it prints on stderr (the errors, or a clean file's warnings).
#[pyfunction]
fn check(py: Python<'_>, path: std::path::PathBuf, checked: bool) -> (u8, String) {
    py.detach(|| {
        let shown = path.display().to_string();
        let source = match spirthon::read_source(&path, &shown) {
            Ok(s) => s,
            Err(spirthon::ReadError::Io(m)) => return (2, format!("error: {m}\n")),
            Err(spirthon::ReadError::NotUtf8 { shown: text, diagnostic }) => {
                return (1, spirthon::render_diagnostics(&[diagnostic], &text, &shown, false))
            }
        };
        let opts = spirthon::CompileOptions {
            checked,
            cpython: true,
            ..Default::default()
        };
        match spirthon::compile(&source, &shown, &opts) {
            Ok(c) => (0, spirthon::render_diagnostics(&c.warnings, &source, &shown, false)),
            Err(spirthon::CompileError::Source(d)) => {
                (1, spirthon::render_failure(&d, &source, &shown, false))
            }
            Err(spirthon::CompileError::Internal(e)) => (
                101,
                format!("error: internal compiler error: {e}\nnote: this is a bug in spirthon; nothing was written\n"),
            ),
        }
    })
}

/// Every Vulkan or Metal adapter, described as `name (kind, backend)`.
#[pyfunction]
fn adapters(py: Python<'_>) -> Vec<String> {
    spirthon_runtime::quiet_vulkan_loader();
    py.detach(spirthon_runtime::adapters)
}

/// A checked launch's first failure: `(report, count, located, invocation)`, where
/// `report` is what `spirthon run --checked` prints, `located` the message in Python's
/// words with its line and column (`None` when its record was overwritten), and
/// `invocation` its ids; `None` when nothing failed.
type Report = (String, u32, Option<(String, usize, usize)>, String);

/// The first failure a checked launch's error words record.
#[pyfunction]
fn report(
    errors: Vec<u32>,
    reflection: &str,
    path: &str,
    source: &str,
    workgroups: [u32; 3],
    workgroup_size: [u32; 3],
) -> PyResult<Option<Report>> {
    let Some(failure) = spirthon_ir::Failure::decode(&errors) else {
        return Ok(None);
    };
    let sites = spirthon::checks_from_reflection(reflection)
        .map_err(|e| PyValueError::new_err(format!("bad reflection JSON: {e}")))?;
    Ok(Some((
        failure.report(&sites, path, source, workgroups, workgroup_size),
        failure.count,
        failure.located(&sites, source),
        failure.invocation_ids(workgroups, workgroup_size),
    )))
}

/// An open device.
#[pyclass(frozen, module = "spirthon._native")]
struct Device {
    gpu: Gpu,
}

/// A storage buffer on a device.
#[pyclass(frozen, module = "spirthon._native")]
struct Buffer {
    buf: DeviceBuffer,
}

#[pymethods]
impl Buffer {
    #[getter]
    fn nbytes(&self) -> u64 {
        self.buf.len()
    }
}

/// One kernel, compiled for a device.
#[pyclass(frozen, module = "spirthon._native")]
struct Kernel {
    pipeline: Pipeline,
}

#[pymethods]
impl Device {
    /// Opens the first hardware adapter, else a CPU one (lavapipe); with `name`, the first
    /// whose name contains it.
    #[new]
    #[pyo3(signature = (name=None))]
    fn new(py: Python<'_>, name: Option<String>) -> PyResult<Device> {
        spirthon_runtime::quiet_vulkan_loader();
        let gpu = py
            .detach(|| Gpu::open(name.as_deref()))
            .map_err(run_error)?;
        Ok(Device { gpu })
    }

    #[getter]
    fn name(&self) -> String {
        self.gpu.name().to_string()
    }

    fn describe(&self) -> String {
        self.gpu.describe()
    }

    /// A zeroed buffer of `nbytes` bytes.
    fn alloc(&self, nbytes: u64) -> PyResult<Buffer> {
        let buf = self.gpu.alloc(nbytes).map_err(run_error)?;
        Ok(Buffer { buf })
    }

    /// A buffer holding `data`.
    fn upload(&self, data: &[u8]) -> PyResult<Buffer> {
        let buf = self.gpu.upload(data).map_err(run_error)?;
        Ok(Buffer { buf })
    }

    /// Replaces a buffer's contents (same length).
    fn write(&self, buffer: &Buffer, data: &[u8]) -> PyResult<()> {
        self.gpu.write(&buffer.buf, data).map_err(run_error)
    }

    /// A buffer's contents, once everything launched before has run.
    fn read<'py>(&self, py: Python<'py>, buffer: &Buffer) -> PyResult<Bound<'py, PyBytes>> {
        let bytes = py
            .detach(|| self.gpu.read(&buffer.buf))
            .map_err(run_error)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Waits until everything launched has run.
    fn finish(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| self.gpu.finish()).map_err(run_error)
    }

    /// Compiles entry point `entry` of the SPIR-V module `words`: `arrays` lists each array
    /// binding and whether it is read-only, `uniform_size` is the uniform block's size.
    #[pyo3(signature = (words, entry, workgroup_size, arrays, uniform_size, checked=false))]
    // A Python method with keyword arguments: one parameter per keyword reads best there.
    #[allow(clippy::too_many_arguments)]
    fn prepare(
        &self,
        py: Python<'_>,
        words: &[u8],
        entry: String,
        workgroup_size: [u32; 3],
        arrays: Vec<(u32, bool)>,
        uniform_size: u64,
        checked: bool,
    ) -> PyResult<Kernel> {
        let words = self::words(words)?;
        let interface = Interface {
            entry,
            uniform: true,
            arrays,
            checked,
        };
        let pipeline = py
            .detach(|| {
                self.gpu.prepare(
                    Shader::SpirV(&words),
                    interface,
                    workgroup_size,
                    uniform_size,
                )
            })
            .map_err(run_error)?;
        Ok(Kernel { pipeline })
    }

    /// Launches `kernel` over `threads` with the uniform block `uniform` and `arrays` in
    /// binding order; returns a checked kernel's error words (after waiting), else `None`
    /// at once.
    fn launch(
        &self,
        py: Python<'_>,
        kernel: &Kernel,
        uniform: &[u8],
        arrays: Vec<PyRef<'_, Buffer>>,
        threads: [u32; 3],
    ) -> PyResult<Option<Vec<u32>>> {
        let bufs: Vec<&DeviceBuffer> = arrays.iter().map(|b| &b.buf).collect();
        let gpu = &self.gpu;
        let pipeline = &kernel.pipeline;
        py.detach(|| gpu.launch(pipeline, uniform, &bufs, threads))
            .map_err(run_error)
    }
}

/// spirthon's compiler and GPU runtime, for the `spirthon` package.
#[pymodule]
mod _native {
    #[pymodule_export]
    use super::{adapters, check, compile, report, Buffer, Device, Kernel};

    #[pymodule_export]
    const VERSION: &str = env!("CARGO_PKG_VERSION");
}
