//! The run JSON of docs/language.md: inputs to a [`Launch`], array bytes back to output.
//!
//! ```json
//! {"kernel": "saxpy", "threads": [1024], "args": {"a": 2.0, "x": [1.0, 2.0], "y": {"zeros": 1024}}}
//! ```
//! A JSON integer is accepted for an `f32`; a fractional number for an `i32`/`u32` is an
//! error; non-finite floats are the strings `"nan"`, `"inf"`, `"-inf"`. Every error names
//! the argument, and nothing runs.
//!
//! `python3 -m spirthon run` reads the same JSON with the same rules and the same messages
//! (`python/spirthon/runjson.py` is a port of this module and of [`crate::json`]; a table
//! of bad inputs in the Python tests feeds both): change them together.

use serde_json::{json, Map, Value};
use spirthon_ir::{ArrayId, EntryPoint, Module, Record, Scalar, Ty};

use crate::{ArrayArg, ArrayData, Launch, Outcome, RunError};

/// A launch and what is needed to print its result.
#[derive(Clone, Debug)]
pub struct Plan {
    pub kernel: String,
    pub launch: Launch,
    /// Per array binding, in order: the parameter name, element, and shape for a
    /// multi-dimensional array (empty for a one-dimensional one).
    pub arrays: Vec<(String, Elem, Vec<u32>)>,
}

/// An array's element: a value type, or a struct's fields.
#[derive(Clone, Debug)]
pub enum Elem {
    Value(Ty),
    Record(Record),
}

impl Elem {
    fn of(a: &spirthon_ir::GlobalArray) -> Elem {
        match &a.record {
            Some(r) => Elem::Record(r.clone()),
            None => Elem::Value(a.elem),
        }
    }
    /// Bytes per element.
    fn size(&self) -> u64 {
        u64::from(match self {
            Elem::Value(t) => t.size(),
            Elem::Record(r) => r.size,
        })
    }
}

/// The top-level argument a uniform field belongs to: `p` of a struct parameter's leaf
/// `p.vel.x`, the name itself otherwise.
fn param_of(field: &str) -> &str {
    field.split('.').next().unwrap_or(field)
}

/// The JSON value at a leaf's path (`vel.x`) in a struct argument's object; an error for a
/// missing field.
fn at_path<'v>(name: &str, v: &'v Value, path: &str) -> Result<&'v Value, RunError> {
    let mut cur = v;
    let mut walked = name.to_string();
    for part in path.split('.') {
        let Some(obj) = cur.as_object() else {
            return err(format!(
                "argument `{walked}`: a struct is a JSON object of its fields, found {}",
                short(cur)
            ));
        };
        match obj.get(part) {
            Some(x) => cur = x,
            None => return err(format!("argument `{walked}`: field `{part}` is missing")),
        }
        walked = format!("{walked}.{part}");
    }
    Ok(cur)
}

/// Every key of a struct argument's object (nested objects too) names a field: one of the
/// leaf `paths`, or a struct above some.
fn no_unknown_fields<'p>(
    name: &str,
    v: &Value,
    paths: impl Iterator<Item = &'p str> + Clone,
) -> Result<(), RunError> {
    let mut work = vec![(String::new(), v)];
    while let Some((prefix, v)) = work.pop() {
        let Some(obj) = v.as_object() else { continue };
        for (k, x) in obj {
            let path = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            let known = paths
                .clone()
                .any(|p| p == path || p.starts_with(&format!("{path}.")));
            if !known {
                let at = if prefix.is_empty() {
                    name.to_string()
                } else {
                    format!("{name}.{prefix}")
                };
                return err(format!("argument `{at}`: the struct has no field `{k}`"));
            }
            work.push((path, x));
        }
    }
    Ok(())
}

fn err<T>(m: impl Into<String>) -> Result<T, RunError> {
    Err(RunError::Input(m.into()))
}

/// Picks the entry point: `kernel` (from `--kernel`) or the input's `"kernel"`, or the only one.
pub fn entry_point<'m>(
    m: &'m Module,
    inputs: &Value,
    kernel: Option<&str>,
) -> Result<&'m EntryPoint, RunError> {
    let named = match inputs.get("kernel") {
        None | Some(Value::Null) => None,
        Some(Value::String(k)) => Some(k.as_str()),
        Some(other) => {
            return err(format!(
                "\"kernel\" must be a kernel's name, found {}",
                short(other)
            ))
        }
    };
    let wanted = kernel.or(named);
    let names: Vec<&str> = m.entry_points.iter().map(|e| e.name.as_str()).collect();
    match wanted {
        Some(k) => match m
            .entry_points
            .iter()
            .find(|e| e.name == k || e.specializes.as_ref().is_some_and(|s| s.kernel == k))
        {
            Some(e) => Ok(e),
            None => err(format!(
                "no kernel named `{k}` (the file has {})",
                names.join(", ")
            )),
        },
        None if m.entry_points.len() == 1 => Ok(&m.entry_points[0]),
        None => err(format!(
            "the file has {} kernels ({}): name one with \"kernel\" or --kernel",
            names.len(),
            names.join(", ")
        )),
    }
}

/// Builds the launch of `ep` from a run-JSON object.
pub fn plan(m: &Module, ep: &EntryPoint, inputs: &Value) -> Result<Plan, RunError> {
    let Some(obj) = inputs.as_object() else {
        return err("the inputs must be a JSON object");
    };
    let threads = threads(obj.get("threads"))?;
    let Some(args) = obj.get("args").and_then(Value::as_object) else {
        return err("\"args\" must be an object with one entry per parameter");
    };
    let scalars = &ep.uniform.params;
    let mut names: Vec<&str> = Vec::new();
    for u in scalars {
        if !names.contains(&param_of(&u.name)) {
            names.push(param_of(&u.name));
        }
    }
    names.extend(ep.arrays.iter().map(|a| m.arrays[*a].name.as_str()));
    if let Some(extra) = args.keys().find(|k| !names.contains(&k.as_str())) {
        return err(format!(
            "argument `{extra}`: kernel `{}` has no such parameter (it takes {})",
            ep.name,
            names.join(", ")
        ));
    }
    let mut arrays = Vec::new();
    let mut array_info = Vec::new();
    for &a in &ep.arrays {
        let ga = &m.arrays[a];
        let Some(v) = args.get(&ga.name) else {
            return err(format!("argument `{}` is missing", ga.name));
        };
        let elem = Elem::of(ga);
        let (data, shape) = if ga.dims > 1 {
            shaped_array(&ga.name, &elem, ga.dims, v)?
        } else {
            let data = array_bytes(&ga.name, &elem, v)?;
            // A packed array's length is in the uniform block, as a shape.
            let shape = match ga.packed() {
                true => vec![(data.len() / u64::from(ga.elem.size())) as u32],
                false => Vec::new(),
            };
            (data, shape)
        };
        arrays.push(ArrayArg {
            binding: ga.binding,
            read_only: !ga.written,
            data,
        });
        array_info.push((ga.name.clone(), elem, shape));
    }
    let shapes: Vec<(ArrayId, &[u32])> = ep
        .arrays
        .iter()
        .zip(&array_info)
        .map(|(&a, info)| (a, info.2.as_slice()))
        .collect();
    let uniform = Some(uniform_bytes(ep, args, threads, &shapes)?);
    Ok(Plan {
        // A specialization reports under its generic kernel's name.
        kernel: ep
            .specializes
            .as_ref()
            .map_or_else(|| ep.name.clone(), |s| s.kernel.clone()),
        launch: Launch {
            entry: ep.name.clone(),
            workgroup_size: ep.workgroup_size,
            threads,
            uniform,
            arrays,
            checked: m.checked,
            prints: m.prints(ep.function),
        },
        arrays: array_info,
    })
}

fn threads(v: Option<&Value>) -> Result<[u32; 3], RunError> {
    let bad = || {
        err("\"threads\" must be a list of one to three non-negative integers, like [1024] or [64, 48]")
    };
    let Some(Value::Array(list)) = v else {
        return bad();
    };
    if list.is_empty() || list.len() > 3 {
        return bad();
    }
    let mut t = [1u32; 3];
    for (i, x) in list.iter().enumerate() {
        let Value::Number(n) = x else {
            return bad();
        };
        if n.as_i64().is_some_and(|k| k < 0) {
            return bad();
        }
        let Some(w) = n.as_u64() else {
            return err(format!(
                "\"threads\"[{i}] is {}, but a count of threads is an integer (written without a point or an exponent)",
                crate::json::text(x)
            ));
        };
        let max = spirthon_ir::abi::MAX_THREADS_PER_AXIS;
        match u32::try_from(w) {
            Ok(w) if w <= max => t[i] = w,
            _ => {
                return err(format!(
                    "\"threads\"[{i}] is {w}, more than a launch can have (at most {max} per axis)"
                ))
            }
        }
    }
    Ok(t)
}

fn uniform_bytes(
    ep: &EntryPoint,
    args: &Map<String, Value>,
    threads: [u32; 3],
    shapes: &[(ArrayId, &[u32])],
) -> Result<Vec<u8>, RunError> {
    let layout = &ep.uniform;
    let mut bytes = vec![0u8; layout.size() as usize];
    let mut checked = "";
    for u in &layout.params {
        let top = param_of(&u.name);
        let Some(v) = args.get(top) else {
            return err(format!("argument `{top}` is missing"));
        };
        let v = match u.name.split_once('.') {
            // A leaf of a struct parameter: its field in the argument's object (whose keys
            // are checked once, at its first leaf).
            Some((_, path)) => {
                if checked != top {
                    let prefix = format!("{top}.");
                    let paths = layout
                        .params
                        .iter()
                        .filter_map(|f| f.name.strip_prefix(&prefix));
                    no_unknown_fields(top, v, paths)?;
                    checked = top;
                }
                at_path(top, v, path)?
            }
            None => v,
        };
        let mut words = value_bits(&u.name, u.ty, v, true)?;
        if u.ty.scalar() == Scalar::F16 {
            // An `f16` parameter (or component) is the `f32` of its value, a whole word.
            for w in &mut words {
                *w = (spirthon_ir::half::value(*w as u16) as f32).to_bits();
            }
        }
        for (k, w) in words.iter().enumerate() {
            let at = (u.offset + u.ty.uniform_word_offset(k as u32)) as usize;
            bytes[at..at + 4].copy_from_slice(&w.to_le_bytes());
        }
    }
    for s in &layout.shapes {
        let n = shapes
            .iter()
            .find(|(a, _)| *a == s.array)
            .and_then(|(_, shape)| shape.get(s.axis as usize))
            .copied()
            .unwrap_or(0);
        let at = s.offset as usize;
        bytes[at..at + 4].copy_from_slice(&n.to_le_bytes());
    }
    let at = layout.threads as usize;
    for (i, t) in threads.iter().enumerate() {
        bytes[at + 4 * i..at + 4 * i + 4].copy_from_slice(&t.to_le_bytes());
    }
    Ok(bytes)
}

/// The words of JSON value `v` as a `t`: one for a scalar, one per component of a vector
/// (written as a JSON list of its components).
fn value_bits(name: &str, t: Ty, v: &Value, allow_bool: bool) -> Result<Vec<u32>, RunError> {
    let n = t.components() as usize;
    match (t, v) {
        (Ty::Scalar(s), _) => Ok(scalar_words(s, scalar_bits(name, s, v, allow_bool)?)),
        (Ty::Vector(..) | Ty::Quat, Value::Array(items)) if items.len() == n => {
            let mut words = Vec::with_capacity(n);
            for (k, x) in items.iter().enumerate() {
                let bits = scalar_bits(&format!("{name}[{k}]"), t.scalar(), x, false)?;
                words.extend(scalar_words(t.scalar(), bits));
            }
            Ok(words)
        }
        // A matrix: a list of its rows, each a list of numbers.
        (Ty::Matrix(s, m), Value::Array(rows)) if rows.len() == m as usize => {
            let mut words = Vec::with_capacity(n);
            for (r, row) in rows.iter().enumerate() {
                let rt = Ty::Vector(s, m);
                words.extend(value_bits(&format!("{name}[{r}]"), rt, row, false)?);
            }
            Ok(words)
        }
        (Ty::Matrix(_, m), _) => err(format!(
            "argument `{name}`: a {t} is a list of {m} rows of {m} numbers, found {}",
            short(v)
        )),
        _ => err(format!(
            "argument `{name}`: a {t} is a list of {n} numbers, found {}",
            short(v)
        )),
    }
}

/// `v` as JSON text, cut short when long.
fn short(v: &Value) -> String {
    let text = crate::json::text(v);
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// A scalar's bits as the words a buffer holds, low word first (two for an `f64`).
fn scalar_words(s: Scalar, bits: u64) -> Vec<u32> {
    match s.size() {
        8 => vec![bits as u32, (bits >> 32) as u32],
        _ => vec![bits as u32],
    }
}

/// The bits that represent JSON value `v` as a `s` (bools as 0/1), in its low `s.size()`
/// bytes.
fn scalar_bits(name: &str, s: Scalar, v: &Value, allow_bool: bool) -> Result<u64, RunError> {
    let what = || format!("argument `{name}`");
    // A float is the JSON number's nearest double (or a non-finite one's string), then
    // rounded to float32 for an `f32`.
    let x = match v {
        Value::Number(n) if s.is_float() => n.as_f64().unwrap_or(f64::NAN),
        Value::String(t) if s.is_float() => match t.as_str() {
            "nan" => f64::NAN,
            "inf" => f64::INFINITY,
            "-inf" => f64::NEG_INFINITY,
            _ => return err(format!("{}: {} is not a number", what(), short(v))),
        },
        _ => return int_bits(name, s, v, allow_bool),
    };
    let bits = match s {
        Scalar::F64 => x.to_bits(),
        // A half's 16 bits (a uniform field holds the f32 of its value: `uniform_bytes`).
        Scalar::F16 => u64::from(spirthon_ir::half::bits(x)),
        _ => u64::from((x as f32).to_bits()),
    };
    // A finite number past the type's largest finite value is refused, not made infinite.
    let infinite = match s {
        Scalar::F16 => spirthon_ir::half::value(bits as u16).is_infinite(),
        Scalar::F32 => f32::from_bits(bits as u32).is_infinite(),
        _ => false,
    };
    if infinite && x.is_finite() {
        return err(format!(
            "{}: {} does not fit in {}",
            what(),
            short(v),
            s.name()
        ));
    }
    Ok(bits)
}

/// [`scalar_bits`] of a bool or an int: its two's complement bits, a narrow int's sign- or
/// zero-extended to a word.
fn int_bits(name: &str, s: Scalar, v: &Value, allow_bool: bool) -> Result<u64, RunError> {
    let what = || format!("argument `{name}`");
    match (s, v) {
        (Scalar::Bool, Value::Bool(b)) if allow_bool => Ok(*b as u64),
        (Scalar::Bool, _) => err(format!(
            "{}: expected true or false, found {}",
            what(),
            short(v)
        )),
        (s, Value::Number(n)) if s.is_int() => {
            let i: i128 = match (n.as_i64(), n.as_u64(), n.as_f64()) {
                (Some(i), _, _) => i.into(),
                (_, Some(u), _) => u.into(),
                (None, None, Some(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 => f as i128,
                (None, None, Some(f)) if f.fract() == 0.0 => {
                    return err(format!(
                        "{}: {} does not fit in {}",
                        what(),
                        integer_text(n),
                        s.name()
                    ))
                }
                _ => {
                    return err(format!(
                        "{}: {} is not an integer, but the parameter is {}",
                        what(),
                        short(v),
                        s.name()
                    ))
                }
            };
            match s.int_range() {
                // Held as the type's bits, sign-extended to a word for a signed narrow one.
                Some((lo, hi)) if (lo..=hi).contains(&i) => Ok(if s.is_int64() {
                    i as u64
                } else {
                    u64::from(i as u32)
                }),
                _ => err(format!("{}: {i} does not fit in {}", what(), s.name())),
            }
        }
        _ => err(format!(
            "{}: expected a number ({}), found {}",
            what(),
            s.name(),
            short(v)
        )),
    }
}

/// A JSON integer as its digits, also when it is too large for `u64`/`i64` and serde_json
/// holds it as a float (`18446744073709551616`, not `1.8446744073709552e19`).
fn integer_text(n: &serde_json::Number) -> String {
    match (n.as_u64(), n.as_i64(), n.as_f64()) {
        (Some(u), _, _) => u.to_string(),
        (_, Some(i), _) => i.to_string(),
        (_, _, Some(f)) if f.fract() == 0.0 => format!("{f:.0}"),
        _ => n.to_string(),
    }
}

/// The most elements an array can have: `len()` and indices are `i32` in kernels.
pub const MAX_ELEMENTS: u64 = i32::MAX as u64;

fn array_bytes(name: &str, elem: &Elem, v: &Value) -> Result<ArrayData, RunError> {
    match v {
        Value::Object(o) if o.len() == 1 && o.get("zeros").is_some_and(Value::is_u64) => {
            let n = o["zeros"].as_u64().unwrap_or(0);
            if n > MAX_ELEMENTS {
                return err(format!(
                    "argument `{name}`: {n} elements are more than an array can hold ({MAX_ELEMENTS}, since `len()` and indices are i32)"
                ));
            }
            Ok(ArrayData::Zeros(n * elem.size()))
        }
        Value::Array(items) => elements_bytes(name, elem, items),
        _ => err(format!(
            "argument `{name}`: an array is a JSON list, or {{\"zeros\": N}}"
        )),
    }
}

/// The bytes of the elements `items`, in order (`name[i]` in errors).
fn elements_bytes<'v>(
    name: &str,
    elem: &Elem,
    items: impl IntoIterator<Item = &'v Value>,
) -> Result<ArrayData, RunError> {
    let items = items.into_iter();
    let mut out = Vec::with_capacity(items.size_hint().0 * elem.size() as usize);
    for (i, x) in items.enumerate() {
        let at = format!("{name}[{i}]");
        match elem {
            Elem::Value(t) => out.extend(value_bytes(&at, *t, x)?),
            Elem::Record(r) => {
                // Each field at its offset; padding is zero.
                let start = out.len();
                out.resize(start + r.size as usize, 0);
                no_unknown_fields(&at, x, r.fields.iter().map(|f| f.0.as_str()))?;
                for (path, t, offset) in &r.fields {
                    let bytes = value_bytes(&format!("{at}.{path}"), *t, at_path(&at, x, path)?)?;
                    let o = start + *offset as usize;
                    out[o..o + bytes.len()].copy_from_slice(&bytes);
                }
            }
        }
    }
    Ok(ArrayData::Bytes(out))
}

/// The bytes of JSON value `v` as a `t` in a buffer (a narrow int its low bytes, as NumPy
/// packs them; a bool a word 0 or 1).
fn value_bytes(name: &str, t: Ty, v: &Value) -> Result<Vec<u8>, RunError> {
    let keep = t.scalar().size().min(4) as usize;
    let allow_bool = t.scalar() == Scalar::Bool;
    let mut out = Vec::new();
    for w in value_bits(name, t, v, allow_bool)? {
        out.extend_from_slice(&w.to_le_bytes()[..keep]);
    }
    Ok(out)
}

/// A multi-dimensional array argument: nested lists (rectangular, `dims` deep, then the
/// elements), `{"shape": [...], "data": [flat, row-major]}`, or `{"zeros": [...]}`; its
/// bytes and shape.
fn shaped_array(
    name: &str,
    elem: &Elem,
    dims: u32,
    v: &Value,
) -> Result<(ArrayData, Vec<u32>), RunError> {
    let kind = format!("an Array{dims}D");
    let shape_of = |s: &Value| -> Result<Vec<u32>, RunError> {
        let axes: Option<Vec<u32>> = s.as_array().and_then(|a| {
            a.iter()
                .map(|x| x.as_u64().and_then(|n| u32::try_from(n).ok()))
                .collect()
        });
        match axes {
            Some(axes) if axes.len() == dims as usize && axes.iter().all(|&n| n <= i32::MAX as u32) => Ok(axes),
            _ => err(format!("argument `{name}`: the shape of {kind} is a list of {dims} non-negative integers, found {}", short(s))),
        }
    };
    let total = |shape: &[u32]| -> Result<u64, RunError> {
        // Three axes below 2^31 multiply to below 2^93: no overflow in u128.
        let n = shape.iter().map(|&n| n as u128).product::<u128>();
        if n > MAX_ELEMENTS as u128 {
            return err(format!(
                "argument `{name}`: {n} elements are more than an array can hold ({MAX_ELEMENTS})"
            ));
        }
        Ok(n as u64)
    };
    match v {
        Value::Object(o) if o.len() == 1 && o.contains_key("zeros") => {
            let shape = shape_of(&o["zeros"])?;
            let n = total(&shape)?;
            Ok((ArrayData::Zeros(n * elem.size()), shape))
        }
        Value::Object(o) if o.len() == 2 && o.contains_key("shape") && o.contains_key("data") => {
            let shape = shape_of(&o["shape"])?;
            let n = total(&shape)?;
            let data = &o["data"];
            match data.as_array() {
                Some(items) if items.len() as u64 == n => Ok((array_bytes(name, elem, data)?, shape)),
                _ => err(format!("argument `{name}`: \"data\" must be a flat list of {n} elements, the shape's product")),
            }
        }
        Value::Array(_) => {
            // Walk the nesting level by level: every list of a level has the same length.
            let mut level: Vec<&Value> = vec![v];
            let mut shape = Vec::new();
            for depth in 0..dims {
                let len = match level.first().and_then(|x| x.as_array()) {
                    Some(l) => l.len(),
                    None if level.is_empty() => 0,
                    None => return err(format!("argument `{name}`: {kind} given as nested lists needs lists {dims} deep")),
                };
                let mut next = Vec::new();
                for x in &level {
                    match x.as_array() {
                        Some(l) if l.len() == len => next.extend(l.iter()),
                        _ => return err(format!("argument `{name}`: the nested lists are not rectangular at depth {}", depth + 1)),
                    }
                }
                shape.push(u32::try_from(len).unwrap_or(u32::MAX));
                level = next;
            }
            total(&shape)?;
            Ok((elements_bytes(name, elem, level)?, shape))
        }
        _ => err(format!(
            "argument `{name}`: {kind} is nested lists, {{\"shape\": [...], \"data\": [...]}}, or {{\"zeros\": [...]}}"
        )),
    }
}

/// The output object: `{"kernel": name, "args": {array: values}}`. It prints with
/// [`crate::json::text`], as the reference executor prints its own.
pub fn output(plan: &Plan, outcome: &Outcome) -> Value {
    let mut args = Map::new();
    for ((name, elem, shape), bytes) in plan.arrays.iter().zip(&outcome.arrays) {
        let values: Vec<Value> = match elem {
            Elem::Value(t) => bytes
                .chunks_exact(t.size() as usize)
                .map(|e| element_json(*t, e))
                .collect(),
            Elem::Record(r) => bytes
                .chunks_exact(r.size as usize)
                .map(|e| record_json(r, e))
                .collect(),
        };
        args.insert(name.clone(), nest(values, shape));
    }
    json!({"kernel": plan.kernel, "args": args})
}

/// An element of an array of structs as a JSON object of its fields (a nested struct's an
/// object too), in declaration order.
fn record_json(r: &Record, e: &[u8]) -> Value {
    let mut out = Map::new();
    for (path, t, offset) in &r.fields {
        let o = *offset as usize;
        let v = element_json(*t, &e[o..o + t.size() as usize]);
        let mut obj = &mut out;
        let parts: Vec<&str> = path.split('.').collect();
        for p in &parts[..parts.len() - 1] {
            let next = obj
                .entry(p.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            obj = match next {
                Value::Object(m) => m,
                _ => unreachable!("a struct's fields are objects"),
            };
        }
        obj.insert(parts[parts.len() - 1].to_string(), v);
    }
    Value::Object(out)
}

/// One element of type `elem` from its bytes `e`.
fn element_json(elem: Ty, e: &[u8]) -> Value {
    {
        let s = elem.scalar();
        let w = s.size() as usize;
        let word = |c: &[u8]| {
            if s == Scalar::F16 {
                return half_json(u16::from_le_bytes([c[0], c[1]]));
            }
            if s.is_narrow() {
                let mut b = [0u8; 8];
                b[..c.len()].copy_from_slice(c);
                let raw = i128::from(u64::from_le_bytes(b));
                // Sign-extended from its width for a signed type.
                let v = if s.is_signed() { s.wrap(raw) } else { raw };
                return json!(v as i64);
            }
            let lo = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            match s {
                Scalar::F32 => float_json(f32::from_bits(lo)),
                Scalar::F64 => {
                    let hi = u32::from_le_bytes([c[4], c[5], c[6], c[7]]);
                    double_json(f64::from_bits(u64::from(hi) << 32 | u64::from(lo)))
                }
                Scalar::I64 | Scalar::U64 => {
                    let hi = u32::from_le_bytes([c[4], c[5], c[6], c[7]]);
                    let bits = u64::from(hi) << 32 | u64::from(lo);
                    if s == Scalar::I64 {
                        json!(bits as i64)
                    } else {
                        json!(bits)
                    }
                }
                Scalar::I32 => json!(lo as i32),
                Scalar::Bool => json!(lo != 0),
                _ => json!(lo),
            }
        };
        match elem {
            Ty::Scalar(_) => word(e),
            Ty::Vector(..) | Ty::Quat => Value::Array(e.chunks_exact(w).map(word).collect()),
            Ty::Matrix(_, n) => Value::Array(
                e.chunks_exact(w * n as usize)
                    .map(|row| Value::Array(row.chunks_exact(w).map(word).collect()))
                    .collect(),
            ),
        }
    }
}

/// `values` as nested lists of `shape` (row-major); as they are for an empty shape. (An empty
/// array is bound as one element: what is past the shape's product is dropped.)
fn nest(mut values: Vec<Value>, shape: &[u32]) -> Value {
    if shape.len() <= 1 {
        if let Some(&n) = shape.first() {
            values.truncate(n as usize);
        }
        return Value::Array(values);
    }
    let inner: usize = shape[1..].iter().map(|&n| n as usize).product();
    let mut rest = values.into_iter();
    let rows = (0..shape[0])
        .map(|_| nest(rest.by_ref().take(inner).collect(), &shape[1..]))
        .collect();
    Value::Array(rows)
}

use spirthon_ir::pyformat::shortest_f32;

#[cfg(test)]
#[test]
fn floats_print_with_the_fewest_digits_rounded_half_to_even() {
    for (f, want) in [
        (33.0 + 45.0 / 128.0, "33.351562"), // 33.3515625, halfway between two 8-digit decimals
        (0.1, "0.1"),
        (1e-45, "1e-45"),
        (16_777_216.0, "16777216.0"),
        (3.402_823_5e38, "3.4028235e+38"),
        (-0.0, "-0.0"),
    ] {
        assert_eq!(crate::json::float_text(shortest_f32(f)), want);
    }
}

/// An `f16` (its bits) as JSON: the shortest decimal of 1 to 5 significant digits, each
/// rounded half to even, that reads back as the same half (as `python3 -m spirthon run`
/// chooses), or the string of a non-finite one.
fn half_json(h: u16) -> Value {
    let v = spirthon_ir::half::value(h);
    if !v.is_finite() {
        return float_json(v as f32);
    }
    json!(spirthon_ir::pyformat::shortest_f16(v))
}

/// An `f64` as JSON: the number (printed as Python's `repr` prints it), or the string of a
/// non-finite one.
fn double_json(f: f64) -> Value {
    if f.is_finite() {
        json!(f)
    } else {
        float_json(f as f32)
    }
}

fn float_json(f: f32) -> Value {
    if f.is_nan() {
        json!("nan")
    } else if f.is_infinite() {
        json!(if f > 0.0 { "inf" } else { "-inf" })
    } else {
        json!(shortest_f32(f))
    }
}
