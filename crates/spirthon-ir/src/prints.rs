//! Print from the GPU (docs/language.md, "print"): the `print(...)` calls of a module, the
//! hidden buffer their records go to, and the text a record stands for, written once for
//! the compiler, the reflection JSON and the runtime.
//!
//! Each `print` call in the source is a [`PrintSite`] (module-wide index = its id): the text
//! it writes, as literal pieces and the values it formats. Running one reserves a record in
//! the print buffer ([`PrintBuffer`]) with an atomic add and writes `(site, global id x, y,
//! z, barriers, subgroup operations)` then the values' bits; the host reads the buffer back
//! after the launch and [`decode`]s it: records sorted in the reference executor's order
//! (workgroups in x, y, z order; within a workgroup, phase by phase: the barriers the
//! invocation had passed, then the subgroup operations since the last of them; then
//! invocations in local x, y, z order), each invocation's in the order it wrote them (an
//! invocation's own reservations are in program order), each turned into text as Python
//! would print it (module `pyformat`). The subgroup operations are counted as the compiler
//! emits them, so subgroups that take different paths through different numbers of them
//! may print in another order than the executor (the lines are the same).
//!
//! The buffer is a storage buffer at descriptor set 1, binding 1, of `u32` words: `used`
//! (words reserved), `dropped` (print calls that found no room, modulo 2^32), `capacity`
//! (data words; the runtime writes it), `dropped_high` (how many times `dropped` wrapped),
//! then the data. A print reserves only while `used` leaves
//! room for it, so `used` stays bounded however many invocations print. Invariant: a module
//! with no print site has no print buffer.

use crate::pyformat::{self, Kind, Num, Spec};
use crate::span::Span;
use crate::Scalar;

/// A value a print formats, as its words in a record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PrintValue {
    Scalar(Scalar),
    /// A vector, matrix or quaternion: `name(c0, c1, ...)` over `count` components in order.
    Composite {
        name: String,
        scalar: Scalar,
        count: u32,
    },
    /// A struct: `Name(field=value, ...)`.
    Struct {
        name: String,
        fields: Vec<(String, PrintValue)>,
    },
}

/// `!s`, `!r`, `!a` in an f-string's replacement field.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Conversion {
    Str,
    Repr,
    Ascii,
}

/// A piece of a printed line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PrintPart {
    Text(String),
    /// `format(value, spec)`, or `format(conv(value), spec)` with a conversion.
    Value {
        value: PrintValue,
        conversion: Option<Conversion>,
        spec: String,
    },
}

/// One `print(...)` call: the text it writes is its parts, then `end`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PrintSite {
    pub span: Span,
    pub parts: Vec<PrintPart>,
    pub end: String,
}

/// The hidden print buffer's place and layout (see the module docs).
pub struct PrintBuffer;

impl PrintBuffer {
    pub const SET: u32 = 1;
    pub const BINDING: u32 = 1;
    /// Header words before the data.
    pub const HEADER: u32 = 4;
    /// Words of a record before its values: the site, the global id, the barriers passed
    /// and the subgroup operations since the last.
    pub const RECORD_HEADER: u32 = 6;
    /// Data words of a launch's buffer (4 MiB).
    pub const CAPACITY: u32 = 1 << 20;
    /// The buffer's size in bytes.
    pub const SIZE: u64 = 4 * (Self::HEADER + Self::CAPACITY) as u64;

    /// The header as the runtime writes it before a launch.
    pub fn initial_header() -> [u32; 4] {
        [0, 0, Self::CAPACITY, 0]
    }
}

/// How many words a value of `s` takes in a record.
fn scalar_words(s: Scalar) -> usize {
    if s.bits() == 64 {
        2
    } else {
        1
    }
}

/// The number the words of a value of `s` hold.
fn scalar_num(s: Scalar, w: &[u32]) -> Num {
    let lo = w.first().copied().unwrap_or(0);
    let wide = || (w.get(1).copied().unwrap_or(0) as u64) << 32 | lo as u64;
    match s {
        Scalar::Bool => Num::Bool(lo != 0),
        Scalar::F32 => Num::F32(f32::from_bits(lo)),
        Scalar::F16 => Num::F16(f32::from_bits(lo) as f64),
        Scalar::F64 => Num::F64(f64::from_bits(wide())),
        Scalar::I64 => Num::Int(wide() as i64 as i128),
        Scalar::U64 => Num::Int(wide() as i128),
        Scalar::U32 | Scalar::U8 | Scalar::U16 => Num::Int(lo as i128),
        Scalar::I32 | Scalar::I8 | Scalar::I16 => Num::Int(lo as i32 as i128),
    }
}

fn spec_kind(s: Scalar) -> Kind {
    match s {
        Scalar::F32 | Scalar::F16 | Scalar::F64 => Kind::Float,
        _ => Kind::Int,
    }
}

impl PrintValue {
    /// Its words in a record.
    pub fn words(&self) -> usize {
        match self {
            PrintValue::Scalar(s) => scalar_words(*s),
            PrintValue::Composite { scalar, count, .. } => scalar_words(*scalar) * *count as usize,
            PrintValue::Struct { fields, .. } => fields.iter().map(|(_, f)| f.words()).sum(),
        }
    }

    /// What its format spec formats (a struct's only spec is the empty one, its `str`).
    fn spec_kind(&self) -> Kind {
        match self {
            PrintValue::Scalar(s) | PrintValue::Composite { scalar: s, .. } => spec_kind(*s),
            PrintValue::Struct { .. } => Kind::Str,
        }
    }

    /// Whether `format(value, spec)` (or with a conversion) is one the GPU prints as Python
    /// does; the message says why not.
    pub fn check(&self, conversion: Option<Conversion>, spec: &str) -> Result<(), String> {
        match (self, conversion) {
            (PrintValue::Struct { name, .. }, None) if !spec.is_empty() => Err(format!(
                "unsupported format string passed to {name}.__format__ (a struct formats only as its repr: format its fields)"
            )),
            (_, Some(_)) => Spec::parse(spec, Kind::Str).map(|_| ()),
            (v, None) => Spec::parse(spec, v.spec_kind()).map(|_| ()),
        }
    }

    /// `repr(value)` of the value in `w`.
    pub fn repr(&self, w: &[u32]) -> String {
        self.format(w, &Spec::default())
    }

    /// `format(value, spec)` of the value in `w` (a spec that [`PrintValue::check`] passed).
    fn format(&self, w: &[u32], spec: &Spec) -> String {
        match self {
            PrintValue::Scalar(s) => scalar_num(*s, w).format(spec),
            PrintValue::Composite {
                name,
                scalar,
                count,
            } => {
                let n = scalar_words(*scalar);
                let comps: Vec<String> = (0..*count as usize)
                    .map(|k| scalar_num(*scalar, w.get(k * n..).unwrap_or(&[])).format(spec))
                    .collect();
                format!("{name}({})", comps.join(", "))
            }
            PrintValue::Struct { name, fields } => {
                let mut at = 0;
                let mut out = Vec::new();
                for (f, v) in fields {
                    out.push(format!("{f}={}", v.repr(w.get(at..).unwrap_or(&[]))));
                    at += v.words();
                }
                format!("{name}({})", out.join(", "))
            }
        }
    }
}

/// Python's `ascii()` of a `repr`: non-ASCII characters escaped.
fn ascii(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c as u32 {
            0..=0x7F => out.push(c),
            n @ 0x80..=0xFF => out.push_str(&format!("\\x{n:02x}")),
            n @ 0x100..=0xFFFF => out.push_str(&format!("\\u{n:04x}")),
            n => out.push_str(&format!("\\U{n:08x}")),
        }
    }
    out
}

impl PrintSite {
    /// Words of one of its records.
    pub fn record_words(&self) -> usize {
        PrintBuffer::RECORD_HEADER as usize + self.values().map(PrintValue::words).sum::<usize>()
    }

    /// The values it formats, in record order.
    pub fn values(&self) -> impl Iterator<Item = &PrintValue> {
        self.parts.iter().filter_map(|p| match p {
            PrintPart::Value { value, .. } => Some(value),
            PrintPart::Text(_) => None,
        })
    }

    /// The text a record's values (`w`, after its header) print.
    pub fn text(&self, w: &[u32]) -> String {
        let mut out = String::new();
        let mut at = 0;
        for p in &self.parts {
            match p {
                PrintPart::Text(t) => out.push_str(t),
                PrintPart::Value {
                    value,
                    conversion,
                    spec,
                } => {
                    let words = w.get(at..).unwrap_or(&[]);
                    at += value.words();
                    let text = match conversion {
                        None => {
                            let spec = Spec::parse(spec, value.spec_kind()).unwrap_or_default();
                            value.format(words, &spec)
                        }
                        Some(c) => {
                            let r = value.repr(words);
                            let r = if *c == Conversion::Ascii {
                                ascii(&r)
                            } else {
                                r
                            };
                            pyformat::format_str(
                                &r,
                                &Spec::parse(spec, Kind::Str).unwrap_or_default(),
                            )
                        }
                    };
                    out.push_str(&text);
                }
            }
        }
        out.push_str(&self.end);
        out
    }
}

/// What a launch printed: its text, in the executor's order, and how many print calls
/// found the buffer full.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Printed {
    pub text: String,
    pub dropped: u64,
}

impl Printed {
    /// The text, then a line saying how many print calls were dropped, if any.
    pub fn output(&self) -> String {
        let mut out = self.text.clone();
        if self.dropped > 0 {
            out.push_str(&format!(
                "[spirthon: {} more print calls were dropped: a launch prints at most {} MiB of records from the GPU]\n",
                self.dropped,
                PrintBuffer::CAPACITY / (1 << 18),
            ));
        }
        out
    }
}

/// The text the print buffer's `words` hold, for a launch of `groups` workgroups of `size`
/// invocations, in the executor's order (see the module docs). Records that do not parse
/// (a site the module lacks) end the walk.
pub fn decode(sites: &[PrintSite], words: &[u32], groups: [u32; 3], size: [u32; 3]) -> Printed {
    let header = PrintBuffer::HEADER as usize;
    let word = |k: usize| words.get(k).copied().unwrap_or(0);
    let used = word(0) as usize;
    let dropped = u64::from(word(3)) << 32 | u64::from(word(1));
    let data = words.get(header..).unwrap_or(&[]);
    let end = used.min(data.len());
    let mut records = Vec::new();
    let mut at = 0;
    while at + PrintBuffer::RECORD_HEADER as usize <= end {
        let Some(site) = sites.get(data[at] as usize) else {
            break;
        };
        let n = site.record_words();
        if at + n > end {
            break;
        }
        let h = &data[at + 1..at + PrintBuffer::RECORD_HEADER as usize];
        let key = order_key([h[0], h[1], h[2]], [h[3], h[4]], groups, size);
        records.push((key, at, site));
        at += n;
    }
    // Stable: an invocation's records stay in the order it wrote them.
    records.sort_by_key(|r| r.0);
    let mut text = String::new();
    for (_, at, site) in records {
        let values = &data[at + PrintBuffer::RECORD_HEADER as usize..at + site.record_words()];
        text.push_str(&site.text(values));
    }
    Printed { text, dropped }
}

/// The executor's order of a record of the invocation with global id `g` in `phase`
/// (barriers passed, subgroup operations since): its linear workgroup id, the phase, its
/// local index.
fn order_key(
    g: [u32; 3],
    phase: [u32; 2],
    groups: [u32; 3],
    size: [u32; 3],
) -> (u64, [u32; 2], u64) {
    let s = size.map(|v| v.max(1) as u64);
    let n = groups.map(|v| v.max(1) as u64);
    let g = g.map(u64::from);
    let w = [g[0] / s[0], g[1] / s[1], g[2] / s[2]];
    let l = [g[0] % s[0], g[1] % s[1], g[2] % s[2]];
    let linear = w[0] + n[0] * (w[1] + n[1] * w[2]);
    (linear, phase, l[0] + s[0] * (l[1] + s[1] * l[2]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(parts: Vec<PrintPart>) -> PrintSite {
        PrintSite {
            span: Span::new(0, 0),
            parts,
            end: "\n".into(),
        }
    }

    fn value(value: PrintValue, spec: &str) -> PrintPart {
        PrintPart::Value {
            value,
            conversion: None,
            spec: spec.into(),
        }
    }

    #[test]
    fn records_decode_in_invocation_order() {
        let sites = vec![
            site(vec![
                PrintPart::Text("i=".into()),
                value(PrintValue::Scalar(Scalar::I32), ""),
            ]),
            site(vec![
                value(
                    PrintValue::Composite {
                        name: "vec2".into(),
                        scalar: Scalar::F32,
                        count: 2,
                    },
                    ".1f",
                ),
                PrintPart::Text(" ".into()),
                value(PrintValue::Scalar(Scalar::F64), ""),
            ]),
        ];
        let half = 0.5f64.to_bits();
        // Workgroups of 2: invocation 3 (group 1) wrote first, then 0, then 0 again.
        let mut words = vec![0, 0, PrintBuffer::CAPACITY, 0];
        let data = [
            vec![0, 3, 0, 0, 0, 0, (-7i32) as u32],
            vec![0, 0, 0, 0, 0, 0, 5],
            vec![
                1,
                0,
                0,
                0,
                0,
                0,
                1.25f32.to_bits(),
                2.0f32.to_bits(),
                half as u32,
                (half >> 32) as u32,
            ],
            // Invocation 1 after a barrier, then before it: phase by phase, and the
            // workgroup before the next.
            vec![0, 1, 0, 0, 1, 0, 9],
            vec![0, 1, 0, 0, 0, 0, 8],
        ];
        for r in &data {
            words.extend(r);
        }
        words[0] = (words.len() - 4) as u32;
        let p = decode(&sites, &words, [2, 1, 1], [2, 1, 1]);
        assert_eq!(p.text, "i=5\nvec2(1.2, 2.0) 0.5\ni=8\ni=9\ni=-7\n");
        assert_eq!(p.dropped, 0);
        words[1] = 3;
        assert!(decode(&sites, &words, [2, 1, 1], [2, 1, 1])
            .output()
            .contains("3 more print calls"));
        words[3] = 1;
        assert_eq!(
            decode(&sites, &words, [2, 1, 1], [2, 1, 1]).dropped,
            (1 << 32) + 3
        );
    }

    #[test]
    fn structs_print_their_fields_and_conversions_apply_to_the_repr() {
        let p = PrintValue::Struct {
            name: "P".into(),
            fields: vec![
                ("m".into(), PrintValue::Scalar(Scalar::F32)),
                ("alive".into(), PrintValue::Scalar(Scalar::Bool)),
            ],
        };
        assert!(p.check(None, ".2f").is_err());
        assert!(p.check(Some(Conversion::Repr), ">30").is_ok());
        let s = site(vec![PrintPart::Value {
            value: p,
            conversion: Some(Conversion::Repr),
            spec: "*>22".into(),
        }]);
        assert_eq!(s.text(&[0.1f32.to_bits(), 1]), "**P(m=0.1, alive=True)\n");
    }
}
