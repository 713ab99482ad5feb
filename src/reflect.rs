//! The reflection JSON of `--emit reflect` (docs/language.md, "The binding ABI"): per
//! kernel its workgroup size and bindings, the uniform block's fields and hidden members;
//! for a checked module the error buffer and every check site; and the check sites read
//! back from it, for a host that reports failures.

use serde_json::json;
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
