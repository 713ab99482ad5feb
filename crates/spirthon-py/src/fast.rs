//! The one-pass launch of the Python library (`gpu._fast_path` builds it): after a kernel's
//! first launch, a launch whose scalars are Python (or NumPy) numbers and whose arrays are
//! device arrays of the device is checked, packed and recorded here, in one call from
//! Python, instead of by the package's general path.
//!
//! Invariant: it accepts a subset of what the general path accepts and packs the very bytes
//! that path packs (the same `struct` codes at the same offsets, the same rounding of a
//! double to `f32`). Anything else (a bool, a string, an array of another type or shape, an
//! int out of its parameter's range, a float too large for `f32`, aliasing) makes the call
//! return `False` before anything is sent, and the general path then raises what its rules
//! raise. The Python package's `FastLaunches` tests hold both paths to that.

use std::sync::Arc;

use pyo3::exceptions::{PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyFloat, PyInt, PyTuple, PyType};

use spirthon_runtime::resident::{DeviceBuffer, Pipeline};

use crate::{Buffer, Device, Kept, Kernel};

/// The largest thread count along an axis (`_library.MAX_THREADS_PER_AXIS`).
const MAX_THREADS_PER_AXIS: i64 = i32::MAX as i64;

/// A scalar argument's value: a float, or an int of any width the parameters have.
#[derive(Clone, Copy)]
enum Num {
    F(f64),
    I(i128),
}

/// What one field of the uniform block holds.
enum What {
    /// The `k`-th used scalar.
    Scalar(usize),
    /// The launch's three thread counts (`3I`).
    Threads,
    /// Axis `axis` of argument `arg`'s shape (`i`).
    Shape(usize, usize),
}

/// One field of the uniform block: its offset, its `struct` code, what it holds.
struct Field {
    offset: usize,
    code: u8,
    what: What,
}

/// One array parameter: its argument, element type (a Python object, compared by
/// identity), number of axes, and binding slot (`None` when the kernel never touches it).
struct ArrayParam {
    arg: usize,
    elem: Py<PyAny>,
    dims: usize,
    slot: Option<usize>,
}

/// A kernel's one-pass launch on one device.
#[pyclass(frozen, module = "spirthon._native")]
pub(crate) struct Fast {
    name: String,
    native: Py<Device>,
    /// The package's `_Device` the arrays must belong to.
    device: Py<PyAny>,
    array_type: Py<PyType>,
    pipeline: Kept<Arc<Pipeline>>,
    nargs: usize,
    /// The used scalars: argument and whether the parameter is a float.
    scalars: Vec<(usize, bool)>,
    /// Scalars the kernel never reads, still checked: argument and, for an int, its range.
    unused: Vec<(usize, Option<(i128, i128)>)>,
    arrays: Vec<ArrayParam>,
    /// Pairs of array arguments that must not be one device array (one of them written).
    pairs: Vec<(usize, usize)>,
    fields: Vec<Field>,
    size: usize,
    bindings: usize,
    /// NumPy's scalar types, and whether each is a float (else an int).
    numbers: Vec<(Py<PyType>, bool)>,
}

#[pymethods]
impl Fast {
    #[new]
    // One argument per part of the plan that `gpu._fast_path` computes.
    #[allow(clippy::too_many_arguments)]
    fn new(
        name: String,
        native: Py<Device>,
        device: Py<PyAny>,
        array_type: Py<PyType>,
        kernel: PyRef<'_, Kernel>,
        nargs: usize,
        scalars: Vec<(usize, bool)>,
        unused: Vec<(usize, Option<(i128, i128)>)>,
        arrays: Vec<(usize, Py<PyAny>, usize, Option<usize>)>,
        pairs: Vec<(usize, usize)>,
        fields: Vec<(usize, String, Bound<'_, PyTuple>)>,
        size: usize,
        bindings: usize,
        numbers: Vec<(Py<PyType>, bool)>,
    ) -> PyResult<Fast> {
        let fields = fields
            .into_iter()
            .map(|(offset, code, what)| field(offset, &code, &what))
            .collect::<PyResult<Vec<Field>>>()?;
        for f in &fields {
            if f.offset + field_size(f) > size {
                return Err(PyValueError::new_err(format!(
                    "a field at {} past the uniform block's {size} bytes",
                    f.offset
                )));
            }
        }
        let arrays = arrays
            .into_iter()
            .map(|(arg, elem, dims, slot)| ArrayParam {
                arg,
                elem,
                dims,
                slot,
            })
            .collect();
        Ok(Fast {
            name,
            native,
            device,
            array_type,
            pipeline: Kept::new(Arc::clone(&kernel.pipeline)),
            nargs,
            scalars,
            unused,
            arrays,
            pairs,
            fields,
            size,
            bindings,
            numbers,
        })
    }

    /// The package's device this path launches on.
    #[getter]
    fn device(&self, py: Python<'_>) -> Py<PyAny> {
        self.device.clone_ref(py)
    }

    /// Launches with `threads` and `args` when they are of the kinds this path takes (and
    /// returns True), else returns False having sent nothing.
    #[pyo3(signature = (threads, args, timeout=None, site=None))]
    fn __call__(
        &self,
        py: Python<'_>,
        threads: &Bound<'_, PyAny>,
        args: &Bound<'_, PyAny>,
        timeout: Option<f64>,
        site: Option<String>,
    ) -> PyResult<bool> {
        let Ok(args) = args.cast::<PyTuple>() else {
            return Ok(false);
        };
        let Some((threads, uniform, bufs)) = self.pack(threads, args)? else {
            return Ok(false);
        };
        let device = self.native.get();
        match device.launch_owned(
            py,
            Arc::clone(&self.pipeline),
            uniform,
            bufs,
            threads,
            timeout,
            site,
        ) {
            Ok(_) => Ok(true),
            Err(e) if e.is_instance_of::<PyTimeoutError>(py) => {
                Err(PyTimeoutError::new_err(format!(
                    "kernel `{}`: {}; the arrays it writes are not updated",
                    self.name,
                    e.value(py)
                )))
            }
            Err(e) => Err(e),
        }
    }
}

/// A launch's thread counts, uniform bytes and buffers.
type Packed = ([u32; 3], Vec<u8>, Vec<DeviceBuffer>);

impl Fast {
    /// The launch's parts, or `None` when an argument is not of a kind this path takes.
    fn pack(
        &self,
        threads: &Bound<'_, PyAny>,
        args: &Bound<'_, PyTuple>,
    ) -> PyResult<Option<Packed>> {
        if args.len() != self.nargs {
            return Ok(None);
        }
        let Some(threads) = thread_counts(threads)? else {
            return Ok(None);
        };
        let mut values = Vec::with_capacity(self.scalars.len());
        for &(k, floating) in &self.scalars {
            match self.number(&args.get_item(k)?, floating)? {
                Some(v) => values.push(v),
                None => return Ok(None),
            }
        }
        for &(k, bounds) in &self.unused {
            match (self.number(&args.get_item(k)?, bounds.is_none())?, bounds) {
                (None, _) => return Ok(None),
                (Some(Num::I(v)), Some((lo, hi))) if !(lo..=hi).contains(&v) => return Ok(None),
                _ => {}
            }
        }
        let mut slots: Vec<Option<DeviceBuffer>> = vec![None; self.bindings];
        let py = args.py();
        for a in &self.arrays {
            let arg = args.get_item(a.arg)?;
            if !arg.get_type().is(self.array_type.bind(py))
                || !arg.getattr(pyo3::intern!(py, "device"))?.is(&self.device)
                || !arg.getattr(pyo3::intern!(py, "elem"))?.is(&a.elem)
                || arg.getattr(pyo3::intern!(py, "shape"))?.len()? != a.dims
            {
                return Ok(None);
            }
            if let Some(at) = a.slot {
                let b = arg.getattr(pyo3::intern!(py, "_buffer"))?;
                let Ok(b) = b.cast::<Buffer>() else {
                    return Ok(None);
                };
                slots[at] = Some(b.get().buf.clone());
            }
        }
        for &(a, b) in &self.pairs {
            if args.get_item(a)?.is(&args.get_item(b)?) {
                return Ok(None);
            }
        }
        let mut uniform = vec![0u8; self.size];
        for f in &self.fields {
            let ok = match f.what {
                What::Scalar(k) => put(&mut uniform, f.offset, f.code, values[k]),
                What::Threads => {
                    for (i, t) in threads.iter().enumerate() {
                        uniform[f.offset + 4 * i..][..4].copy_from_slice(&t.to_le_bytes());
                    }
                    true
                }
                What::Shape(k, axis) => {
                    let n: i64 = args
                        .get_item(k)?
                        .getattr(pyo3::intern!(py, "shape"))?
                        .get_item(axis)?
                        .extract()?;
                    put(&mut uniform, f.offset, f.code, Num::I(n.into()))
                }
            };
            if !ok {
                return Ok(None);
            }
        }
        let Some(bufs) = slots.into_iter().collect::<Option<Vec<_>>>() else {
            return Ok(None);
        };
        Ok(Some((threads, uniform, bufs)))
    }

    /// `v` as the number it is, when it is a plain one for the parameter (an int for a
    /// float only while the double holds it exactly): the package's `_number`.
    fn number(&self, v: &Bound<'_, PyAny>, floating: bool) -> PyResult<Option<Num>> {
        let is_float = if v.is_exact_instance_of::<PyFloat>() {
            true
        } else if v.is_exact_instance_of::<PyInt>() {
            false
        } else {
            let t = v.get_type();
            match self.numbers.iter().find(|(k, _)| t.is(k)) {
                Some(&(_, is_float)) => is_float,
                None => return Ok(None),
            }
        };
        let n = match is_float {
            true => Num::F(v.extract()?),
            false => match int(v) {
                Some(i) => Num::I(i),
                None => return Ok(None),
            },
        };
        Ok(match n {
            Num::F(_) if !floating => None,
            Num::I(i) if floating && !(-(1i128 << 53)..=1i128 << 53).contains(&i) => None,
            n => Some(n),
        })
    }
}

/// An int (or NumPy int) in the range of 64-bit ints, signed or not.
fn int(v: &Bound<'_, PyAny>) -> Option<i128> {
    v.extract::<i64>()
        .map(i128::from)
        .or_else(|_| v.extract::<u64>().map(i128::from))
        .ok()
}

/// One to three thread counts, each an `int` (not a bool) from 0 to the largest count.
fn thread_counts(threads: &Bound<'_, PyAny>) -> PyResult<Option<[u32; 3]>> {
    let mut t = [1u32; 3];
    let counts: Vec<Bound<'_, PyAny>> = if threads.is_exact_instance_of::<PyInt>() {
        vec![threads.clone()]
    } else if let Ok(tuple) = threads.cast_exact::<PyTuple>() {
        if !(1..=3).contains(&tuple.len()) {
            return Ok(None);
        }
        tuple.iter().collect()
    } else {
        return Ok(None);
    };
    for (i, n) in counts.iter().enumerate() {
        if !n.is_exact_instance_of::<PyInt>() {
            return Ok(None);
        }
        match n.extract::<i64>() {
            Ok(n) if (0..=MAX_THREADS_PER_AXIS).contains(&n) => t[i] = n as u32,
            _ => return Ok(None),
        }
    }
    Ok(Some(t))
}

/// A field from the package's description: `(offset, code, what)`, `what` being `("s", k)`,
/// `("t",)` or `("h", arg, axis)`.
fn field(offset: usize, code: &str, what: &Bound<'_, PyTuple>) -> PyResult<Field> {
    let kind: String = what.get_item(0)?.extract()?;
    let what = match kind.as_str() {
        "s" => What::Scalar(what.get_item(1)?.extract()?),
        "t" => What::Threads,
        "h" => What::Shape(what.get_item(1)?.extract()?, what.get_item(2)?.extract()?),
        _ => return Err(PyValueError::new_err(format!("no field kind {kind:?}"))),
    };
    let code = match (code, &what) {
        ("3I", What::Threads) => b'3',
        ("f" | "d" | "i" | "I" | "q" | "Q", What::Scalar(_)) | ("i", What::Shape(..)) => {
            code.as_bytes()[0]
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "no field of code {code:?} for {kind:?}"
            )))
        }
    };
    Ok(Field { offset, code, what })
}

/// The bytes a field takes.
fn field_size(f: &Field) -> usize {
    match f.code {
        b'3' => 12,
        b'd' | b'q' | b'Q' => 8,
        _ => 4,
    }
}

/// Writes `v` at `at` as `struct` code `code` packs it (little-endian), or returns false
/// where `struct.pack` raises (an int out of range, a float for an int, a finite double
/// past `f32`'s range).
fn put(out: &mut [u8], at: usize, code: u8, v: Num) -> bool {
    let bytes: Vec<u8> = match (code, v) {
        (b'f', v) => {
            let x = match v {
                Num::F(x) => x,
                Num::I(i) => i as f64,
            };
            let y = x as f32;
            if x.is_finite() && y.is_infinite() {
                return false;
            }
            y.to_le_bytes().to_vec()
        }
        (b'd', Num::F(x)) => x.to_le_bytes().to_vec(),
        (b'd', Num::I(i)) => (i as f64).to_le_bytes().to_vec(),
        (b'i' | b'I' | b'q' | b'Q', Num::I(i)) => {
            let (lo, hi, width) = match code {
                b'i' => (i32::MIN.into(), i32::MAX.into(), 4),
                b'I' => (0, u32::MAX.into(), 4),
                b'q' => (i64::MIN.into(), i64::MAX.into(), 8),
                _ => (0, u64::MAX.into(), 8),
            };
            if !(lo..=hi).contains(&i) {
                return false;
            }
            // Two's complement, little-endian: the low bytes of the i128 are the int's.
            i.to_le_bytes()[..width].to_vec()
        }
        _ => return false,
    };
    out[at..at + bytes.len()].copy_from_slice(&bytes);
    true
}
