//! `spirthon._native`: the compiler and the Vulkan/Metal runtime inside a Python process,
//! for the pure-Python package under `python/spirthon` (which marshals arguments into
//! bytes, following the reflection JSON, and falls back to the CPython executor without this
//! module).
//!
//! The surface is deliberately small and byte-oriented, so that the package stays readable
//! Python and this module stays a thin shell over `spirthon` and `spirthon-runtime`:
//! - `compile(source, path, kernel, checked)` → `(words, reflection, messages)`;
//! - `Device(name)` with `alloc`, `upload`, `write`, `read`, `prepare`, `launch`, `finish`,
//!   each run on the device's own thread in call order; those that return a result from
//!   the device wait for it interruptibly, with an optional `timeout` in seconds; `adapters()`
//!   lists what `Device` can open;
//! - `check(path, checked)` compiles a file as `spirthon run` does, for the CPython runner;
//! - `report(errors, reflection, path, source, workgroups, workgroup_size)` gives a checked
//!   launch's first failure, worded as `spirthon run --checked` words it and in parts.
//!
//! Long work (compiling, waiting for the device) releases the GIL.
//!
//! A device does not survive `os.fork()`: its thread is not in the child, and the driver's
//! state the child inherits is its parent's. A process forked from one that opened a device
//! (marked by the `os.register_at_fork` hook this module installs) refuses every operation
//! on a device with an error naming the `spawn` start method, opens none, and never destroys
//! the objects it inherited (dropping them would go into the parent's driver state); one
//! forked before any device was opened opens its own.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

mod fast;

use spirthon_runtime::resident::{DeviceBuffer, Pipeline};
use spirthon_runtime::worker::{DeviceThread, Pending, Waited};
use spirthon_runtime::{Gpu, Interface, RunError, Shader};

/// The process that opened the first device of this one (or of the process it was forked
/// from); 0 before any.
static OPENED_BY: AtomicU32 = AtomicU32::new(0);
/// This process is a fork of one that had opened a device (see the module's docs).
static FORKED: AtomicBool = AtomicBool::new(false);

/// The `os.register_at_fork(after_in_child=...)` hook.
#[pyfunction]
fn _after_fork_in_child() {
    if OPENED_BY.load(Ordering::Relaxed) != 0 {
        FORKED.store(true, Ordering::Relaxed);
    }
}

/// Whether this process is a fork of one that had opened a device: then no device works here.
#[pyfunction]
fn forked() -> bool {
    FORKED.load(Ordering::Relaxed)
}

/// The program is ending and a device was still busy ([`Device::close`]).
static ABANDONED: AtomicBool = AtomicBool::new(false);

/// Whether the native objects of this process are never destroyed: a forked child's are its
/// parent's; at exit, with a device still busy, they are left to the ending process.
fn kept() -> bool {
    forked() || ABANDONED.load(Ordering::Relaxed)
}

/// A native object on a device, destroyed when dropped unless [`kept`].
pub(crate) struct Kept<T>(Option<T>);

impl<T> Kept<T> {
    pub(crate) fn new(value: T) -> Kept<T> {
        Kept(Some(value))
    }
}

impl<T> std::ops::Deref for Kept<T> {
    type Target = T;

    fn deref(&self) -> &T {
        self.0
            .as_ref()
            .expect("a kept object is there until it is dropped")
    }
}

impl<T> Drop for Kept<T> {
    fn drop(&mut self) {
        if kept() {
            std::mem::forget(self.0.take());
        }
    }
}

/// The error of an operation on a device in a forked process: on `device` (described), or
/// `None` for opening one or listing them.
fn forked_error(device: Option<&str>) -> PyErr {
    let (me, opener) = (std::process::id(), OPENED_BY.load(Ordering::Relaxed));
    let what = match device {
        Some(d) => format!("device {d} was opened by process {opener}, and this process ({me}) is a fork of it"),
        None => format!("no device can be opened in this process ({me}): it is a fork of process {opener}, which opened one"),
    };
    PyRuntimeError::new_err(format!(
        "{what}; a device, its arrays and its kernels do not survive os.fork(). Start the processes that launch kernels with multiprocessing's 'spawn' (or 'forkserver') start method: multiprocessing.get_context('spawn').Pool(), ProcessPoolExecutor(mp_context=multiprocessing.get_context('spawn')); or fork before the first launch. spirthon.set_device('python') runs kernels here on the CPython executor"
    ))
}

fn run_error(e: RunError) -> PyErr {
    match e {
        RunError::Input(m) => PyValueError::new_err(m),
        RunError::NoAdapter(m) | RunError::Device(m) => PyRuntimeError::new_err(m),
    }
}

/// SPIR-V words from little-endian bytes.
fn words(bytes: &[u8]) -> PyResult<Vec<u32>> {
    if !bytes.len().is_multiple_of(4) {
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
/// `print`; `only_reached`: only what `kernel` reaches is diagnosed (a kernel's adjoint,
/// whose file compiled before it). Errors come as `spirthon` prints them, with the line
/// that counts them.
/// `workgroup_size`: the kernel's, from its launch (`kernel[griddim, blockdim]`), in place of
/// its decorator's default.
/// `spirthon::compile`, with a panic (a bug) turned into the internal error it is, so that
/// Python sees a `RuntimeError` that says so rather than pyo3's `PanicException`.
fn compile_caught(
    source: &str,
    path: &str,
    opts: &spirthon::CompileOptions,
) -> Result<spirthon::Compiled, spirthon::CompileError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        spirthon::compile_parsed(&parsed(source, path)?, source, path, opts)
    }))
    .unwrap_or_else(|p| {
        let what = p
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".into());
        Err(spirthon::CompileError::Internal(format!(
            "panicked: {what}"
        )))
    })
}

/// The parses of the texts kernels were last compiled from, newest first: a program
/// compiles each of a file's kernels (and its adjoints) from one text, which is parsed once.
static PARSES: std::sync::Mutex<Vec<(String, spirthon::Parsed)>> =
    std::sync::Mutex::new(Vec::new());

/// How many texts' parses are kept.
const KEPT_PARSES: usize = 8;

/// `source` parsed, from [`PARSES`] when it was parsed before. A parse depends on the text
/// alone (`path` only names it in messages, which a syntax error's are, and those are not
/// kept).
fn parsed(source: &str, path: &str) -> Result<spirthon::Parsed, spirthon::CompileError> {
    let kept = |parses: &mut Vec<(String, spirthon::Parsed)>| {
        let k = parses.iter().position(|(text, _)| text == source)?;
        let entry = parses.remove(k);
        let out = entry.1.clone();
        parses.insert(0, entry);
        Some(out)
    };
    // A panic while the lock was held cannot leave the list half changed: take it anyway.
    if let Some(p) = kept(&mut PARSES.lock().unwrap_or_else(|e| e.into_inner())) {
        return Ok(p);
    }
    let p = spirthon::parse(source, path)?;
    let mut parses = PARSES.lock().unwrap_or_else(|e| e.into_inner());
    parses.insert(0, (source.to_string(), p.clone()));
    parses.truncate(KEPT_PARSES);
    Ok(p)
}

#[pyfunction]
#[pyo3(signature = (source, path, kernel=None, checked=false, host_imports=true, cpython=false, types=None, only_reached=false, workgroup_size=None))]
#[allow(clippy::too_many_arguments)]
fn compile<'py>(
    py: Python<'py>,
    source: &str,
    path: &str,
    kernel: Option<String>,
    checked: bool,
    host_imports: bool,
    cpython: bool,
    types: Option<Vec<(String, String)>>,
    only_reached: bool,
    workgroup_size: Option<[u32; 3]>,
) -> PyResult<Compiled<'py>> {
    // A generic kernel's types (`kernel.types` of a specialization).
    let types = match (types, &kernel) {
        (Some(t), k) => vec![(k.clone().unwrap_or_default(), t)],
        (None, _) => Vec::new(),
    };
    let opts = spirthon::CompileOptions {
        kernel,
        checked,
        host_imports,
        cpython,
        types,
        only_reached,
        workgroup_size,
        ..Default::default()
    };
    let result = py.detach(|| compile_caught(source, path, &opts));
    match result {
        Ok(c) => {
            let bytes: Vec<u8> = c.words.iter().flat_map(|w| w.to_le_bytes()).collect();
            let reflection = spirthon::reflect_json(&c.module, source);
            let warnings = spirthon::render_diagnostics(&c.warnings, source, path, false);
            Ok((Some(PyBytes::new(py, &bytes)), Some(reflection), warnings))
        }
        Err(spirthon::CompileError::Source(mut d)) => {
            // A CompileError's text starts with its first error; the warnings (another
            // kernel's too) follow, in their order.
            d.sort_by_key(|x| !x.is_error());
            Ok((
                None,
                None,
                spirthon::render_failure(&d, source, path, false),
            ))
        }
        Err(spirthon::CompileError::Internal(m)) => Err(PyRuntimeError::new_err(format!(
            "internal compiler error (a bug in spirthon, please report it): {m}"
        ))),
    }
}

/// Checks the kernel file `path` as `spirthon run` compiles it, for
/// `python3 -m spirthon run` (with `print` allowed, see `CompileOptions::cpython`):
/// `(status, text)`, the exit status `spirthon run` would end with at this point (0 when the
/// file compiles) and what it prints on stderr (the errors, or a clean file's warnings).
/// `program`: the file is a program (`--program`), its other imports the CPU side's.
#[pyfunction]
#[pyo3(signature = (path, checked, program=false, kernel=None, types=None))]
fn check(
    py: Python<'_>,
    path: std::path::PathBuf,
    checked: bool,
    program: bool,
    kernel: Option<String>,
    types: Option<Vec<(String, String)>>,
) -> (u8, String) {
    py.detach(|| {
        let shown = path.display().to_string();
        let source = match spirthon::read_source(&path, &shown) {
            Ok(s) => s,
            Err(spirthon::ReadError::Io(m)) => return (2, format!("error: {m}\n")),
            Err(spirthon::ReadError::NotUtf8 {
                shown: text,
                diagnostic,
            }) => {
                return (
                    1,
                    spirthon::render_diagnostics(&[*diagnostic], &text, &shown, false),
                )
            }
        };
        // As `spirthon run` compiles it: the run JSON's kernel, and its "types".
        let types = match types {
            Some(t) => vec![(kernel.clone().unwrap_or_default(), t)],
            None => Vec::new(),
        };
        let opts = spirthon::CompileOptions {
            checked,
            host_imports: program,
            cpython: true,
            kernel,
            types,
            ..Default::default()
        };
        match compile_caught(&source, &shown, &opts) {
            Ok(c) => (
                0,
                spirthon::render_diagnostics(&c.warnings, &source, &shown, false),
            ),
            Err(spirthon::CompileError::Source(d)) => {
                (1, spirthon::render_failure(&d, &source, &shown, false))
            }
            Err(spirthon::CompileError::Internal(e)) => (101, spirthon::internal_error_text(&e)),
        }
    })
}

/// Every Vulkan or Metal adapter, described as `name (kind, backend)`.
#[pyfunction]
fn adapters(py: Python<'_>) -> PyResult<Vec<String>> {
    if forked() {
        return Err(forked_error(None));
    }
    spirthon_runtime::quiet_vulkan_loader();
    Ok(py.detach(spirthon_runtime::adapters))
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

/// The text a launch's print buffer `words` holds (see `spirthon_ir::prints`), for a launch
/// of `workgroups` workgroups of `workgroup_size`.
#[pyfunction]
fn printed(
    words: Vec<u32>,
    reflection: &str,
    workgroups: [u32; 3],
    workgroup_size: [u32; 3],
) -> PyResult<String> {
    let sites = spirthon::prints_from_reflection(reflection)
        .map_err(|e| PyValueError::new_err(format!("bad reflection JSON: {e}")))?;
    let p = spirthon_ir::prints::decode(&sites, &words, workgroups, workgroup_size);
    Ok(p.output())
}

/// A launch's error words and print words (see [`Device::launch`]).
type Hidden = (Option<Vec<u32>>, Option<Vec<u32>>);

/// An open device, with the thread that runs every operation on it in call order
/// (`spirthon_runtime::worker`). Each method waits for its operation in slices of
/// [`SLICE`], with the GIL released: between slices a pending signal (Ctrl-C) raises, and
/// past `timeout` seconds (`None`: no limit) a `TimeoutError` says what did not finish.
#[pyclass(frozen, module = "spirthon._native")]
struct Device {
    thread: Kept<DeviceThread>,
}

/// How often a wait looks for a signal.
const SLICE: Duration = Duration::from_millis(100);

/// How long the end of the program waits for a device's thread that makes no progress.
const STALL: Duration = Duration::from_millis(200);

/// A time limit on a wait for the device: `timeout` seconds without progress
/// ([`DeviceThread::progress`]); `None`, 0 or a non-finite number: no limit.
struct Watch {
    limit: Option<f64>,
    deadline: Option<Instant>,
    seen: u64,
}

impl Watch {
    fn new(thread: &DeviceThread, timeout: Option<f64>) -> Watch {
        let limit = timeout.filter(|t| t.is_finite() && *t > 0.0);
        Watch {
            limit,
            deadline: limit.map(|t| Instant::now() + Duration::from_secs_f64(t)),
            seen: thread.progress(),
        }
    }

    /// How long the next slice of the wait may be.
    fn slice(&self) -> Duration {
        self.deadline.map_or(SLICE, |d| {
            d.saturating_duration_since(Instant::now()).min(SLICE)
        })
    }

    /// After a slice: the limit, when the device has made no progress for that long.
    fn expired(&mut self, thread: &DeviceThread) -> Option<f64> {
        let (limit, deadline) = (self.limit?, self.deadline?);
        let now = thread.progress();
        if now != self.seen {
            self.seen = now;
            self.deadline = Some(Instant::now() + Duration::from_secs_f64(limit));
            return None;
        }
        (Instant::now() >= deadline).then_some(limit)
    }
}

/// The end of a `TimeoutError`'s message.
const STILL_RUNS: &str = "it still runs on the device, and later work on the device waits for it (raise the limit with spirthon.set_timeout(seconds), or None to wait forever)";

/// Waits for `pending`, interruptibly, while the device makes progress: at most `timeout`
/// seconds without any.
fn wait<T: Send + 'static>(
    py: Python<'_>,
    thread: &DeviceThread,
    mut pending: Pending<T>,
    timeout: Option<f64>,
    what: &dyn Fn() -> String,
) -> PyResult<T> {
    let mut watch = Watch::new(thread, timeout);
    loop {
        let slice = watch.slice();
        let (back, r) = py.detach(move || {
            let r = pending.wait(slice);
            (pending, r)
        });
        pending = back;
        match r {
            Ok(r) => return r.map_err(run_error),
            Err(Waited::Lost) => {
                return Err(PyRuntimeError::new_err(format!(
                "internal error: {} ended without a result (a panic in the driver or in spirthon)",
                what()
            )))
            }
            Err(Waited::NotYet) => {
                py.check_signals()?;
                if let Some(t) = watch.expired(thread) {
                    return Err(PyTimeoutError::new_err(format!(
                        "{} did not finish: the device made no progress within {t} s; {STILL_RUNS}",
                        what()
                    )));
                }
            }
        }
    }
}

/// Waits, interruptibly, until the device's queue has room for another job
/// ([`DeviceThread::wait_for_room`]), while the device makes progress: at most `timeout`
/// seconds without any.
fn room(py: Python<'_>, thread: &DeviceThread, timeout: Option<f64>) -> PyResult<()> {
    if thread.has_room() {
        return Ok(());
    }
    let mut watch = Watch::new(thread, timeout);
    loop {
        let slice = watch.slice();
        if py.detach(|| thread.wait_for_room(slice)) {
            return Ok(());
        }
        py.check_signals()?;
        if let Some(t) = watch.expired(thread) {
            return Err(PyTimeoutError::new_err(format!(
                "{} operations are queued on the device, and it made no progress within {t} s; {STILL_RUNS}",
                thread.queued()
            )));
        }
    }
}

/// A launch's kernel, uniform bytes and buffers, owned, for a job of the device's thread.
fn owned(
    kernel: &Kernel,
    uniform: &[u8],
    arrays: &[PyRef<'_, Buffer>],
) -> (Arc<Pipeline>, Vec<u8>, Vec<DeviceBuffer>) {
    let bufs = arrays.iter().map(|b| (*b.buf).clone()).collect();
    (Arc::clone(&kernel.pipeline), uniform.to_vec(), bufs)
}

/// A storage buffer on a device.
#[pyclass(frozen, module = "spirthon._native")]
struct Buffer {
    buf: Kept<DeviceBuffer>,
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
    pipeline: Kept<Arc<Pipeline>>,
}

#[pymethods]
impl Device {
    /// Opens the first hardware adapter, else a CPU one (lavapipe); with `name`, the first
    /// whose name contains it.
    #[new]
    #[pyo3(signature = (name=None))]
    fn new(py: Python<'_>, name: Option<String>) -> PyResult<Device> {
        if forked() {
            return Err(forked_error(None));
        }
        spirthon_runtime::quiet_vulkan_loader();
        let gpu = py
            .detach(|| Gpu::open(name.as_deref()))
            .map_err(run_error)?;
        let thread = DeviceThread::start(gpu).map_err(run_error)?;
        let _ =
            OPENED_BY.compare_exchange(0, std::process::id(), Ordering::Relaxed, Ordering::Relaxed);
        Ok(Device {
            thread: Kept::new(thread),
        })
    }

    #[getter]
    fn name(&self) -> String {
        self.thread.gpu().name().to_string()
    }

    fn describe(&self) -> String {
        self.thread.gpu().describe()
    }

    /// The operations asked for and not yet done by the device's thread (at most
    /// `MAX_QUEUED`, and one more for each Python thread waiting for a result).
    fn queued(&self) -> usize {
        self.thread.queued()
    }

    /// The device's subgroup size (`None` without subgroups, or when it varies by kernel).
    fn subgroup_size(&self) -> Option<u32> {
        self.thread.gpu().subgroup_size()
    }

    /// A zeroed buffer of `nbytes` bytes (made here: a new buffer is no one's to order).
    fn alloc(&self, nbytes: u64) -> PyResult<Buffer> {
        self.alive()?;
        let buf = self.thread.gpu().alloc(nbytes).map_err(run_error)?;
        Ok(Buffer {
            buf: Kept::new(buf),
        })
    }

    /// A buffer holding `data`: made here, filled in the device thread's turn (before any
    /// launch asked for later), without waiting but for room in the queue (at most `timeout`
    /// seconds without progress).
    #[pyo3(signature = (data, timeout=None))]
    fn upload(&self, py: Python<'_>, data: &[u8], timeout: Option<f64>) -> PyResult<Buffer> {
        self.alive()?;
        room(py, &self.thread, timeout)?;
        let buf = self
            .thread
            .gpu()
            .alloc(data.len() as u64)
            .map_err(run_error)?;
        let (into, data) = (buf.clone(), data.to_vec());
        self.thread.post_data(data.len(), move |g| {
            let _ = g.write(&into, &data);
        });
        Ok(Buffer {
            buf: Kept::new(buf),
        })
    }

    /// Replaces a buffer's contents (same length), after everything asked for before,
    /// without waiting but for room in the queue.
    #[pyo3(signature = (buffer, data, timeout=None))]
    fn write(
        &self,
        py: Python<'_>,
        buffer: &Buffer,
        data: &[u8],
        timeout: Option<f64>,
    ) -> PyResult<()> {
        self.alive()?;
        buffer.buf.fits(data).map_err(run_error)?;
        room(py, &self.thread, timeout)?;
        let (buf, data) = (buffer.buf.clone(), data.to_vec());
        self.thread.post_data(data.len(), move |g| {
            let _ = g.write(&buf, &data);
        });
        Ok(())
    }

    /// A new buffer holding a copy of `buffer`'s contents as they are after everything
    /// asked for before, made on the device without waiting but for room in the queue.
    #[pyo3(signature = (buffer, timeout=None))]
    fn copy(&self, py: Python<'_>, buffer: &Buffer, timeout: Option<f64>) -> PyResult<Buffer> {
        self.alive()?;
        room(py, &self.thread, timeout)?;
        let buf = self
            .thread
            .gpu()
            .alloc(buffer.buf.len())
            .map_err(run_error)?;
        let (from, into) = (buffer.buf.clone(), buf.clone());
        self.thread.post(move |g| {
            let _ = g.copy(&from, &into);
        });
        Ok(Buffer {
            buf: Kept::new(buf),
        })
    }

    /// A buffer's contents, once everything launched before has run.
    #[pyo3(signature = (buffer, timeout=None))]
    fn read<'py>(
        &self,
        py: Python<'py>,
        buffer: &Buffer,
        timeout: Option<f64>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        self.alive()?;
        let buf = (*buffer.buf).clone();
        let p = self.thread.submit(move |g| g.read(&buf));
        let bytes = wait(py, &self.thread, p, timeout, &|| {
            "reading a device array back (after the launches before it)".into()
        })?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Submits the launches recorded so far, without waiting for them to run (at most
    /// `timeout` seconds for the device's thread to get to it); the error of a batch the
    /// device rejected, this one or one submitted earlier that no call has reported yet.
    #[pyo3(signature = (timeout=None))]
    fn flush(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<()> {
        self.alive()?;
        let p = self.thread.submit(|g| {
            let earlier = g.take_failure();
            g.flush().and(earlier)
        });
        wait(py, &self.thread, p, timeout, &|| {
            "submitting the recorded launches".into()
        })
    }

    /// For the end of the program: submits the launches recorded so far, waiting at most
    /// `timeout` seconds in all (and [`STALL`] without progress: a thread busy with a long
    /// kernel will not get to it) for the device's thread to get to it, not for them to run;
    /// the error of a batch the device rejected, this one or one no call has reported yet.
    /// A device still busy then (its thread, or the device itself) is left to the ending
    /// process: no native object of the process is destroyed after this (destroying a device
    /// waits for its work), while the device's thread goes on with its queue (a later exit
    /// handler may still read a device array). Interrupted (Ctrl-C), the same.
    #[pyo3(signature = (timeout))]
    fn close(&self, py: Python<'_>, timeout: f64) -> PyResult<()> {
        if forked() {
            return Ok(());
        }
        let pending = self.thread.submit(|g| {
            let earlier = g.take_failure();
            g.flush().and(earlier)?;
            Ok(g.idle())
        });
        let deadline = Instant::now() + Duration::from_secs_f64(timeout.max(0.0));
        let mut watch = Watch::new(&self.thread, Some(STALL.as_secs_f64()));
        let mut pending = Some(pending);
        let outcome = loop {
            let slice = deadline
                .saturating_duration_since(Instant::now())
                .min(watch.slice());
            let p = pending.take().expect("waiting");
            let (p, r) = py.detach(move || {
                let r = p.wait(slice);
                (p, r)
            });
            pending = Some(p);
            match r {
                Ok(r) => break r.map_err(run_error),
                Err(Waited::Lost) => break Ok(false),
                Err(Waited::NotYet) => {
                    if let Err(e) = py.check_signals() {
                        break Err(e);
                    }
                    if Instant::now() >= deadline || watch.expired(&self.thread).is_some() {
                        break Ok(false);
                    }
                }
            }
        };
        if !matches!(outcome, Ok(true)) {
            ABANDONED.store(true, Ordering::Relaxed);
        }
        outcome.map(|_| ())
    }

    /// Waits until everything launched has run.
    #[pyo3(signature = (timeout=None))]
    fn finish(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<()> {
        self.alive()?;
        let p = self.thread.submit(|g| g.finish());
        wait(py, &self.thread, p, timeout, &|| {
            "the work launched on the device".into()
        })
    }

    /// Compiles entry point `entry` of the SPIR-V module `words`: `arrays` lists each array
    /// binding and whether it is read-only, `uniform_size` is the uniform block's size;
    /// `checked` and `prints` bind the error and print buffers.
    #[pyo3(signature = (words, entry, workgroup_size, arrays, uniform_size, checked=false, prints=false, timeout=None))]
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
        prints: bool,
        timeout: Option<f64>,
    ) -> PyResult<Kernel> {
        self.alive()?;
        let words = self::words(words)?;
        let what = format!("preparing kernel `{entry}`");
        let interface = Interface {
            entry,
            uniform: true,
            arrays,
            checked,
            prints,
        };
        let p = self.thread.submit(move |g| {
            g.prepare(
                Shader::SpirV(&words),
                interface,
                workgroup_size,
                uniform_size,
            )
        });
        let pipeline = wait(py, &self.thread, p, timeout, &|| what.clone())?;
        Ok(Kernel {
            pipeline: Kept::new(Arc::new(pipeline)),
        })
    }

    /// Launches `kernel` over `threads` with the uniform block `uniform` and `arrays` in
    /// binding order (`site`, `file:line` of the call, names it in a batch's error), once
    /// everything asked for before it is submitted; returns a checked
    /// kernel's error words and a printing kernel's print words (after it ran), each `None`
    /// otherwise (then once submitted).
    #[pyo3(signature = (kernel, uniform, arrays, threads, timeout=None, site=None))]
    // A Python method with keyword arguments: one parameter per keyword reads best there.
    #[allow(clippy::too_many_arguments)]
    fn launch(
        &self,
        py: Python<'_>,
        kernel: &Kernel,
        uniform: &[u8],
        arrays: Vec<PyRef<'_, Buffer>>,
        threads: [u32; 3],
        timeout: Option<f64>,
        site: Option<String>,
    ) -> PyResult<Hidden> {
        let (pipeline, uniform, bufs) = owned(kernel, uniform, &arrays);
        self.launch_owned(py, pipeline, uniform, bufs, threads, timeout, site)
    }

    /// For benchmarks: seconds for `times` launches as `launch` records them, recorded into
    /// one command buffer from Rust and submitted once (the floor of a loop of launches).
    #[pyo3(signature = (kernel, uniform, arrays, threads, times, timeout=None))]
    // A Python method with keyword arguments: one parameter per keyword reads best there.
    #[allow(clippy::too_many_arguments)]
    fn time_launches(
        &self,
        py: Python<'_>,
        kernel: &Kernel,
        uniform: &[u8],
        arrays: Vec<PyRef<'_, Buffer>>,
        threads: [u32; 3],
        times: u32,
        timeout: Option<f64>,
    ) -> PyResult<f64> {
        self.alive()?;
        let (pipeline, uniform, bufs) = owned(kernel, uniform, &arrays);
        let p = self.thread.submit(move |g| {
            let refs: Vec<&DeviceBuffer> = bufs.iter().collect();
            g.time_launches(&pipeline, &uniform, &refs, threads, times)
        });
        let t = wait(py, &self.thread, p, timeout, &|| "timing launches".into())?;
        Ok(t.as_secs_f64())
    }
}

impl Device {
    /// Refuses an operation in a forked process (see the module's docs).
    fn alive(&self) -> PyResult<()> {
        if forked() {
            return Err(forked_error(Some(&self.thread.gpu().describe())));
        }
        Ok(())
    }

    /// [`Device::launch`] of owned parts (the one-pass path of `fast` calls it too).
    // The parts of a launch, as `launch` takes them.
    #[allow(clippy::too_many_arguments)]
    fn launch_owned(
        &self,
        py: Python<'_>,
        pipeline: Arc<Pipeline>,
        uniform: Vec<u8>,
        bufs: Vec<DeviceBuffer>,
        threads: [u32; 3],
        timeout: Option<f64>,
        site: Option<String>,
    ) -> PyResult<Hidden> {
        self.alive()?;
        room(py, &self.thread, timeout)?;
        let gpu = self.thread.gpu();
        let dispatches = gpu
            .check_launch(&pipeline, &uniform, bufs.len(), threads)
            .map_err(run_error)?
            .len();
        if pipeline.records(dispatches) {
            // Recorded in its turn, without waiting: a device error comes from the next
            // call that waits.
            self.thread.post(move |g| {
                let refs: Vec<&DeviceBuffer> = bufs.iter().collect();
                if let Err(e) = g.launch(&pipeline, &uniform, &refs, threads, site.as_deref()) {
                    g.keep_failure(e);
                }
            });
            return Ok((None, None));
        }
        let what = format!("the launch of `{}`", pipeline.interface().entry);
        let p = self.thread.submit(move |g| {
            let refs: Vec<&DeviceBuffer> = bufs.iter().collect();
            g.launch(&pipeline, &uniform, &refs, threads, site.as_deref())
        });
        let r = wait(py, &self.thread, p, timeout, &|| what.clone())?;
        Ok((r.errors, r.prints))
    }
}

/// Installs the hook that marks a forked child (see the module's docs).
fn mark_forks(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let kwargs = pyo3::types::PyDict::new(py);
    kwargs.set_item("after_in_child", m.getattr("_after_fork_in_child")?)?;
    // `os.register_at_fork` is there on every platform that forks.
    if let Ok(register) = py.import("os")?.getattr("register_at_fork") {
        register.call((), Some(&kwargs))?;
    }
    Ok(())
}

/// spirthon's compiler and GPU runtime, for the `spirthon` package.
#[pymodule]
mod _native {
    #[pymodule_export]
    use super::fast::Fast;
    #[pymodule_export]
    use super::{
        _after_fork_in_child, adapters, check, compile, forked, printed, report, Buffer, Device,
        Kernel,
    };

    #[pymodule_init]
    fn init(m: &super::Bound<'_, super::PyModule>) -> super::PyResult<()> {
        super::mark_forks(m)
    }

    #[pymodule_export]
    const VERSION: &str = env!("CARGO_PKG_VERSION");

    /// The most operations queued on a device before a launch waits for room.
    #[pymodule_export]
    const MAX_QUEUED: usize = spirthon_runtime::worker::MAX_QUEUED;
}
