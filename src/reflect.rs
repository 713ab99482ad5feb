//! The reflection JSON of `--emit reflect` (docs/language.md, "The binding ABI"): per
//! kernel its workgroup size and bindings, the uniform block's fields and hidden members;
//! for a checked module the error buffer and every check site; for a module that prints
//! the print buffer and every print site; and the check and print sites read back from it,
//! for a host that reports failures and prints what a kernel printed.

use serde_json::json;
use spirthon_ir::prints::{Conversion, PrintPart, PrintSite, PrintValue};
use spirthon_ir::{LineIndex, Ty};

use crate::IrModule;

fn type_name(t: Ty) -> String {
    t.name()
}

/// The reflection JSON of `--emit reflect`: per kernel, its workgroup size and bindings;
/// for a checked module, the error buffer and every check site (located in `source`).
pub fn reflect_json(m: &IrModule, source: &str) -> String {
    let kernels: Vec<_> = m
        .entry_points
        .iter()
        .map(|ep| {
            let mut bindings = Vec::new();
            let u = &ep.uniform;
            let fields: Vec<_> = u
                .members()
                .map(|(name, ty, offset, hidden)| json!({"name": name, "type": type_name(ty), "offset": offset, "hidden": hidden}))
                .collect();
            // The hidden members again as data, so that a host need not parse their names.
            let shapes: Vec<_> = u
                .shapes
                .iter()
                .map(|f| json!({"array": m.arrays[f.array].name, "axis": f.axis, "offset": f.offset}))
                .collect();
            bindings.push(json!({"binding": 0, "name": "params", "kind": "uniform", "size": u.size(), "fields": fields, "threads": u.threads, "shapes": shapes}));
            for &a in &ep.arrays {
                let arr = &m.arrays[a];
                let mut b = json!({"binding": arr.binding, "name": arr.name, "kind": "storage", "type": type_name(arr.elem), "read_only": !arr.written});
                // An array of structs: its element's name, size and fields (each leaf's
                // path, type and byte offset).
                if let Some(r) = &arr.record {
                    let fields: Vec<_> = r
                        .fields
                        .iter()
                        .map(|(path, ty, offset)| json!({"name": path, "type": type_name(*ty), "offset": offset}))
                        .collect();
                    b["type"] = json!(r.name);
                    b["struct"] = json!({"size": r.size, "fields": fields});
                }
                bindings.push(b);
            }
            let mut k = json!({"name": ep.name, "workgroup_size": ep.workgroup_size, "bindings": bindings});
            if m.prints(ep.function) {
                k["prints"] = json!(true);
            }
            // A specialization: the generic kernel's name and its types.
            if let Some(s) = &ep.specializes {
                let types: serde_json::Map<String, serde_json::Value> =
                    s.types.iter().map(|(n, t)| (n.clone(), json!(t))).collect();
                k["specializes"] = json!({"kernel": s.kernel, "types": types});
            }
            k
        })
        .collect();
    let mut out = json!({ "kernels": kernels });
    if m.checked {
        out["checks"] = checks_json(m, source);
    }
    if !m.prints.is_empty() {
        out["prints"] = prints_json(m, source);
    }
    serde_json::to_string_pretty(&out).unwrap_or_default() + "\n"
}

/// The error buffer of a checked module and its check sites, by id.
fn checks_json(m: &IrModule, source: &str) -> serde_json::Value {
    use spirthon_ir::{CheckKind, ErrorBuffer};
    let lines = LineIndex::new(source);
    let sites: Vec<_> = m
        .checks
        .iter()
        .enumerate()
        .map(|(id, s)| {
            let (line, column) = lines.line_col(source, s.span.start);
            let mut site = json!({"site": id, "kind": s.kind_name(), "line": line, "column": column, "span": [s.span.start, s.span.end]});
            match &s.kind {
                CheckKind::Index { array, axis } => {
                    site["array"] = json!(array);
                    if let Some(k) = axis {
                        site["axis"] = json!(k);
                    }
                }
                CheckKind::VectorIndex { vector } => site["vector"] = json!(vector),
                CheckKind::ZeroDivision { modulo } => {
                    site["operator"] = json!(if *modulo { "%" } else { "//" })
                }
                CheckKind::Assert { message } => site["message"] = json!(message),
            }
            site
        })
        .collect();
    json!({
        "set": ErrorBuffer::SET,
        "binding": ErrorBuffer::BINDING,
        "size": ErrorBuffer::SIZE,
        "words": ["count", "first", "next", "pad"],
        "first_initial": u32::MAX,
        "records": ErrorBuffer::RECORDS,
        "record_words": ["key", "site", "index", "len"],
        "sites": sites,
    })
}

/// The check sites of a checked module's reflection JSON (`--emit reflect`), by id, as the
/// module has them: what a host needs to report a failure from the error buffer alone.
pub fn checks_from_reflection(reflection: &str) -> Result<Vec<spirthon_ir::CheckSite>, String> {
    use serde_json::Value;
    use spirthon_ir::{CheckKind, CheckSite, Span};
    let v: Value = serde_json::from_str(reflection).map_err(|e| e.to_string())?;
    let Some(sites) = v["checks"]["sites"].as_array() else {
        return Ok(Vec::new());
    };
    let text = |s: &Value, key: &str| s[key].as_str().map(str::to_string);
    sites
        .iter()
        .map(|s| {
            let at = |k: usize| s["span"][k].as_u64().and_then(|n| u32::try_from(n).ok());
            let (Some(start), Some(end)) = (at(0), at(1)) else {
                return Err(format!("site {} has no span", s["site"]));
            };
            let kind = match s["kind"].as_str() {
                Some("index") => CheckKind::Index {
                    array: text(s, "array").unwrap_or_default(),
                    axis: s["axis"].as_u64().map(|k| k as u32),
                },
                Some("vector_index") => CheckKind::VectorIndex {
                    vector: text(s, "vector").unwrap_or_default(),
                },
                Some("zero_division") => CheckKind::ZeroDivision {
                    modulo: s["operator"] == "%",
                },
                Some("assert") => CheckKind::Assert {
                    message: text(s, "message"),
                },
                other => return Err(format!("unknown check kind {other:?}")),
            };
            Ok(CheckSite {
                kind,
                span: Span { start, end },
            })
        })
        .collect()
}

fn scalar_named(name: &str) -> Option<spirthon_ir::Scalar> {
    match name {
        "bool" => Some(spirthon_ir::Scalar::Bool),
        n => spirthon_ir::Scalar::named(n),
    }
}

/// A printed value's type as JSON: `{"scalar": "f32"}`, `{"composite": "vec3", "scalar":
/// "f32", "count": 3}` or `{"struct": "P", "fields": [["m", {...}], ...]}`.
fn print_value_json(v: &PrintValue) -> serde_json::Value {
    match v {
        PrintValue::Scalar(s) => json!({"scalar": s.name()}),
        PrintValue::Composite {
            name,
            scalar,
            count,
        } => json!({"composite": name, "scalar": scalar.name(), "count": count}),
        PrintValue::Struct { name, fields } => {
            let fields: Vec<_> = fields
                .iter()
                .map(|(f, v)| json!([f, print_value_json(v)]))
                .collect();
            json!({"struct": name, "fields": fields})
        }
    }
}

fn print_value_from(v: &serde_json::Value) -> Result<PrintValue, String> {
    let scalar = |v: &serde_json::Value| {
        v["scalar"]
            .as_str()
            .and_then(scalar_named)
            .ok_or_else(|| format!("a printed value without a known scalar type: {v}"))
    };
    if let Some(name) = v["struct"].as_str() {
        let fields = v["fields"]
            .as_array()
            .ok_or("a printed struct without fields")?
            .iter()
            .map(|f| {
                let name = f[0].as_str().ok_or("a printed field without a name")?;
                Ok((name.to_string(), print_value_from(&f[1])?))
            })
            .collect::<Result<_, String>>()?;
        return Ok(PrintValue::Struct {
            name: name.to_string(),
            fields,
        });
    }
    if let Some(name) = v["composite"].as_str() {
        let count = v["count"]
            .as_u64()
            .ok_or("a printed composite without a count")?;
        return Ok(PrintValue::Composite {
            name: name.to_string(),
            scalar: scalar(v)?,
            count: count as u32,
        });
    }
    Ok(PrintValue::Scalar(scalar(v)?))
}

/// The print buffer of a module that prints and its print sites, by id.
fn prints_json(m: &IrModule, source: &str) -> serde_json::Value {
    use spirthon_ir::PrintBuffer;
    let lines = LineIndex::new(source);
    let sites: Vec<_> = m
        .prints
        .iter()
        .enumerate()
        .map(|(id, s)| {
            let (line, column) = lines.line_col(source, s.span.start);
            let parts: Vec<_> = s
                .parts
                .iter()
                .map(|p| match p {
                    PrintPart::Text(t) => json!({"text": t}),
                    PrintPart::Value {
                        value,
                        conversion,
                        spec,
                    } => {
                        let c = conversion.map(|c| match c {
                            Conversion::Str => "s",
                            Conversion::Repr => "r",
                            Conversion::Ascii => "a",
                        });
                        json!({"value": print_value_json(value), "conversion": c, "spec": spec})
                    }
                })
                .collect();
            json!({"site": id, "line": line, "column": column, "span": [s.span.start, s.span.end], "parts": parts, "end": s.end, "record_words": s.record_words()})
        })
        .collect();
    json!({
        "set": PrintBuffer::SET,
        "binding": PrintBuffer::BINDING,
        "size": PrintBuffer::SIZE,
        "words": ["used", "dropped", "capacity", "dropped_high"],
        "capacity": PrintBuffer::CAPACITY,
        "record_header": ["site", "global_id.x", "global_id.y", "global_id.z"],
        "sites": sites,
    })
}

/// The print sites of a module's reflection JSON (`--emit reflect`), by id: what a host
/// needs to turn the print buffer into text.
pub fn prints_from_reflection(reflection: &str) -> Result<Vec<PrintSite>, String> {
    use serde_json::Value;
    let v: Value = serde_json::from_str(reflection).map_err(|e| e.to_string())?;
    let Some(sites) = v["prints"]["sites"].as_array() else {
        return Ok(Vec::new());
    };
    sites
        .iter()
        .map(|s| {
            let at = |k: usize| s["span"][k].as_u64().and_then(|n| u32::try_from(n).ok());
            let (Some(start), Some(end)) = (at(0), at(1)) else {
                return Err(format!("print site {} has no span", s["site"]));
            };
            let parts = s["parts"]
                .as_array()
                .ok_or("a print site without parts")?
                .iter()
                .map(|p| {
                    if let Some(t) = p["text"].as_str() {
                        return Ok(PrintPart::Text(t.to_string()));
                    }
                    let conversion = match p["conversion"].as_str() {
                        Some("s") => Some(Conversion::Str),
                        Some("r") => Some(Conversion::Repr),
                        Some("a") => Some(Conversion::Ascii),
                        _ => None,
                    };
                    Ok(PrintPart::Value {
                        value: print_value_from(&p["value"])?,
                        conversion,
                        spec: p["spec"].as_str().unwrap_or("").to_string(),
                    })
                })
                .collect::<Result<_, String>>()?;
            Ok(PrintSite {
                span: spirthon_ir::Span { start, end },
                parts,
                end: s["end"].as_str().unwrap_or("\n").to_string(),
            })
        })
        .collect()
}
