//! Python's text of the kernel language's numbers: `repr` (= `str`) of each scalar type's
//! values as the reference executor prints them, and `format(value, spec)` with Python's
//! format-specification mini-language, so that a line printed from the GPU is the line the
//! executor prints for the same invocation.
//!
//! Floats follow CPython's own algorithm (`PyOS_double_to_string` and `format_float_short`
//! in `Python/pystrtod.c`): correctly rounded digits (here from Rust's exact formatting,
//! which rounds half to even as `_Py_dg_dtoa` does) laid out by the decimal point's position.
//! Padding, signs and digit grouping follow `Python/formatter_unicode.c`
//! (`calc_number_widths`, `fill_number` and `_PyUnicode_InsertThousandsGrouping`).
//!
//! An `f32` (`f16`) prints as the shortest decimal of 1 to 9 (5) significant digits, each
//! rounded half to even, that reads back as the same value: the executor's `repr`, which
//! NumPy's too. A spec with neither a precision nor a type formats those digits, as the
//! executor's `__format__` does; any other spec formats the value's exact double.
//!
//! [`Spec::parse`] accepts the specs whose result is the same on every CPython from 3.9 on;
//! it refuses the rest (`'n'`, `'c'`, `'z'`, a `'0'` before a string's width, grouping of a
//! fraction) with a message, which the compiler reports at the f-string.

/// The shortest decimal that reads back as `f`, as the double nearest to it (which prints
/// with those digits): of 1 to 9 significant digits, each rounded half to even, the first
/// that reads back as `f` (33.3515625 is `33.351562`, where the shortest-digits algorithm
/// of `{:e}` gives `33.351563`).
pub fn shortest_f32(f: f32) -> f64 {
    if !f.is_finite() {
        return f as f64;
    }
    for digits in 1..=9 {
        let text = format!("{:.*e}", digits - 1, f as f64);
        if let Ok(v) = text.parse::<f64>() {
            if v as f32 == f {
                return v;
            }
        }
    }
    f as f64
}

/// The shortest decimal of 1 to 5 significant digits, each rounded half to even, that reads
/// back as the half `v` (a value of `f16`), as the double nearest to it.
pub fn shortest_f16(v: f64) -> f64 {
    if !v.is_finite() {
        return v;
    }
    for digits in 1..=5 {
        let text = format!("{:.*e}", digits - 1, v);
        if let Ok(x) = text.parse::<f64>() {
            if crate::half::round(x) == v {
                return x;
            }
        }
    }
    v
}

/// A float as Python's `repr` writes it: the shortest digits that read back as `f`, in
/// positional notation for exponents from -4 to 15 (`0.0001`, `4.0`, `1e+16`, `1e-05`).
pub fn float_repr(f: f64) -> String {
    double_to_string(f, 'r', 0, false, true, false)
}

/// A number of the kernel language, as its bits were read back from the device.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Num {
    Bool(bool),
    /// Any integer type's value.
    Int(i128),
    F32(f32),
    /// A half, as its exact value.
    F16(f64),
    F64(f64),
}

impl Num {
    /// `repr(x)` (the same as `str(x)`) as the reference executor writes it.
    pub fn repr(self) -> String {
        match self {
            Num::Bool(b) => if b { "True" } else { "False" }.to_string(),
            Num::Int(i) => i.to_string(),
            Num::F32(f) => float_repr(shortest_f32(f)),
            Num::F16(v) => float_repr(shortest_f16(v)),
            Num::F64(f) => float_repr(f),
        }
    }

    /// The kind of spec that formats it.
    pub fn kind(self) -> Kind {
        match self {
            Num::Bool(_) | Num::Int(_) => Kind::Int,
            _ => Kind::Float,
        }
    }

    /// `format(x, spec)`; `spec` was parsed for [`Num::kind`].
    pub fn format(self, spec: &Spec) -> String {
        if spec.is_empty() {
            return self.repr();
        }
        match self {
            Num::Bool(b) => format_int(b as i128, spec),
            Num::Int(i) => format_int(i, spec),
            // Without a precision or a type the executor formats the shortest digits.
            Num::F32(f) if spec.precision.is_none() && spec.ty.is_none() => {
                format_float(shortest_f32(f), spec)
            }
            Num::F16(v) if spec.precision.is_none() && spec.ty.is_none() => {
                format_float(shortest_f16(v), spec)
            }
            Num::F32(f) => format_float(f as f64, spec),
            Num::F16(v) | Num::F64(v) => format_float(v, spec),
        }
    }
}

/// What a spec formats: `int` (and `bool`), `float`, or `str`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Int,
    Float,
    Str,
}

impl Kind {
    fn python(self) -> &'static str {
        match self {
            Kind::Int => "int",
            Kind::Float => "float",
            Kind::Str => "str",
        }
    }
}

/// A parsed format spec: `[[fill]align][sign][#][0][width][grouping][.precision][type]`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Spec {
    pub fill: Option<char>,
    pub align: Option<char>,
    pub sign: Option<char>,
    pub alt: bool,
    /// The `0` before the width.
    pub zero: bool,
    pub width: Option<usize>,
    pub grouping: Option<char>,
    pub precision: Option<usize>,
    pub ty: Option<char>,
}

/// The largest width or precision a spec may give (a printed line stays small).
pub const MAX_WIDTH: usize = 1000;

impl Spec {
    /// Whether the spec is empty (`format(x, "")`, which is `str(x)`).
    pub fn is_empty(&self) -> bool {
        *self == Spec::default()
    }

    /// Parses `text` as a spec for a value of `kind`, or says why Python refuses it (in
    /// Python's words where it does) or why the kernel language does.
    pub fn parse(text: &str, kind: Kind) -> Result<Spec, String> {
        let c: Vec<char> = text.chars().collect();
        let mut s = Spec::default();
        let mut k = 0;
        let is_align = |ch: char| matches!(ch, '<' | '>' | '=' | '^');
        if c.len() >= 2 && is_align(c[1]) {
            s.fill = Some(c[0]);
            s.align = Some(c[1]);
            k = 2;
        } else if !c.is_empty() && is_align(c[0]) {
            s.align = Some(c[0]);
            k = 1;
        }
        if let Some(&ch @ ('+' | '-' | ' ')) = c.get(k) {
            s.sign = Some(ch);
            k += 1;
        }
        if c.get(k) == Some(&'z') {
            return Err(
                "the 'z' option (Python 3.11 and later) is not supported in kernels".into(),
            );
        }
        if c.get(k) == Some(&'#') {
            s.alt = true;
            k += 1;
        }
        if c.get(k) == Some(&'0') {
            s.zero = true;
            k += 1;
        }
        let digits = |k: &mut usize| -> Result<Option<usize>, String> {
            let start = *k;
            while c.get(*k).is_some_and(|ch| ch.is_ascii_digit()) {
                *k += 1;
            }
            if *k == start {
                return Ok(None);
            }
            let n: String = c[start..*k].iter().collect();
            match n.parse::<usize>() {
                Ok(v) if v <= MAX_WIDTH => Ok(Some(v)),
                _ => Err(format!(
                    "a width or precision is at most {MAX_WIDTH} in kernels"
                )),
            }
        };
        s.width = digits(&mut k)?;
        if let Some(&ch @ (',' | '_')) = c.get(k) {
            s.grouping = Some(ch);
            k += 1;
            if matches!(c.get(k), Some(',' | '_')) {
                return Err("Cannot specify both ',' and '_'.".into());
            }
        }
        if c.get(k) == Some(&'.') {
            k += 1;
            s.precision = digits(&mut k)?;
            if s.precision.is_none() {
                return Err("Format specifier missing precision".into());
            }
        }
        if c.len() > k + 1 {
            return Err("Invalid format specifier".into());
        }
        s.ty = c.get(k).copied();
        s.check(kind)?;
        Ok(s)
    }

    /// Python's checks of a spec against the value's kind, and the kernel language's.
    fn check(&self, kind: Kind) -> Result<(), String> {
        let ty = self.ty;
        let unknown = |t: char| {
            Err(format!(
                "Unknown format code '{t}' for object of type '{}'",
                kind.python()
            ))
        };
        match (kind, ty) {
            (_, Some('n')) => {
                return Err("the 'n' format (the locale's) is not supported in kernels".into())
            }
            (Kind::Int, Some('c')) => {
                return Err("the 'c' format is not supported in kernels".into())
            }
            (
                Kind::Int,
                None | Some('b' | 'd' | 'o' | 'x' | 'X' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%'),
            ) => {}
            (Kind::Float, None | Some('e' | 'E' | 'f' | 'F' | 'g' | 'G' | '%')) => {}
            (Kind::Str, None | Some('s')) => {}
            (_, Some(t)) => return unknown(t),
        }
        let int_form = matches!(ty, None | Some('b' | 'd' | 'o' | 'x' | 'X')) && kind == Kind::Int;
        if kind == Kind::Int && int_form && self.precision.is_some() {
            return Err("Precision not allowed in integer format specifier".into());
        }
        match (self.grouping, ty) {
            (Some(','), Some(t @ ('b' | 'o' | 'x' | 'X' | 's'))) => {
                return Err(format!("Cannot specify ',' with '{t}'."))
            }
            (Some(g), _) if kind == Kind::Str => {
                return Err(format!("Cannot specify '{g}' with 's'."))
            }
            _ => {}
        }
        if kind == Kind::Str {
            if self.sign.is_some() {
                return Err("Sign not allowed in string format specifier".into());
            }
            if self.alt {
                return Err("Alternate form (#) not allowed in string format specifier".into());
            }
            if self.align == Some('=') {
                return Err("'=' alignment not allowed in string format specifier".into());
            }
            if self.zero {
                return Err("a '0' before a string's width is not supported in kernels (Python 3.9 and 3.10 differ on it): write a fill and an alignment, as `0<8`".into());
            }
        }
        Ok(())
    }

    /// The fill and alignment in effect (`0` before the width fills with zeros after the
    /// sign, unless a fill or an alignment is given).
    fn fill_align(&self, default: char) -> (char, char) {
        let fill = self.fill.unwrap_or(if self.zero { '0' } else { ' ' });
        let align = self.align.unwrap_or(if self.zero && default == '>' {
            '='
        } else {
            default
        });
        (fill, align)
    }
}

/// `format(s, spec)` of a string (`spec` parsed for [`Kind::Str`]).
pub fn format_str(s: &str, spec: &Spec) -> String {
    let text: String = match spec.precision {
        Some(p) => s.chars().take(p).collect(),
        None => s.to_string(),
    };
    let (fill, align) = spec.fill_align('<');
    let len = text.chars().count();
    let pad = spec.width.unwrap_or(0).saturating_sub(len);
    let (left, right) = match align {
        '>' => (pad, 0),
        '^' => (pad / 2, pad - pad / 2),
        _ => (0, pad),
    };
    let fill = |n: usize| std::iter::repeat_n(fill, n).collect::<String>();
    format!("{}{text}{}", fill(left), fill(right))
}

fn format_int(v: i128, spec: &Spec) -> String {
    let (base, prefix) = match spec.ty {
        Some('b') => (2, "0b"),
        Some('o') => (8, "0o"),
        Some('x') => (16, "0x"),
        Some('X') => (16, "0X"),
        None | Some('d') => (10, ""),
        // `e f g %` on an int format `float(v)`, the double nearest to it.
        _ => return format_float(v as f64, spec),
    };
    let m = v.unsigned_abs();
    let digits = match base {
        2 => format!("{m:b}"),
        8 => format!("{m:o}"),
        16 if spec.ty == Some('X') => format!("{m:X}"),
        16 => format!("{m:x}"),
        _ => m.to_string(),
    };
    let prefix = if spec.alt { prefix } else { "" };
    let group = match spec.grouping {
        Some('_') if base != 10 => Some(('_', 4)),
        Some(g) => Some((g, 3)),
        None => None,
    };
    let sign = sign_char(v < 0, spec);
    layout(sign, prefix, &digits, "", spec, group)
}

fn sign_char(negative: bool, spec: &Spec) -> Option<char> {
    match (negative, spec.sign) {
        (true, _) => Some('-'),
        (false, Some('+')) => Some('+'),
        (false, Some(' ')) => Some(' '),
        _ => None,
    }
}

fn format_float(x: f64, spec: &Spec) -> String {
    let (mut ty, default) = match spec.ty {
        None => ('r', 0),
        Some(t) => (t, 6),
    };
    let add_dot_0 = spec.ty.is_none();
    let upper = matches!(ty, 'E' | 'F' | 'G');
    ty = ty.to_ascii_lowercase();
    let (mut val, mut pct) = (x, false);
    if ty == '%' {
        ty = 'f';
        val *= 100.0;
        pct = true;
    }
    let precision = match spec.precision {
        None => default,
        Some(p) => {
            if ty == 'r' {
                ty = 'g';
            }
            p
        }
    };
    let mut text = double_to_string(val, ty, precision, spec.alt, add_dot_0, upper);
    if pct {
        text.push('%');
    }
    let (negative, body) = match text.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, text.as_str()),
    };
    let n = body.bytes().take_while(u8::is_ascii_digit).count();
    let (digits, rest) = body.split_at(n);
    let group = spec.grouping.map(|g| (g, 3));
    layout(sign_char(negative, spec), "", digits, rest, spec, group)
}

/// CPython's `PyOS_double_to_string` for format codes `e f g r`: the sign (`-` only), the
/// digits and the exponent, without padding.
fn double_to_string(
    d: f64,
    ty: char,
    precision: usize,
    alt: bool,
    add_dot_0: bool,
    upper: bool,
) -> String {
    if d.is_nan() {
        return if upper { "NAN" } else { "nan" }.into();
    }
    if d.is_infinite() {
        let s = if upper { "INF" } else { "inf" };
        return if d < 0.0 { format!("-{s}") } else { s.into() };
    }
    // The correctly rounded digits (no leading zeros; trailing ones dropped as `_Py_dg_dtoa`
    // drops them) and the decimal point's position: value = 0.DIGITS * 10**decpt.
    let (mut precision, sign) = (precision as i64, d.is_sign_negative());
    let (digits, decpt) = match ty {
        'e' => {
            precision += 1;
            sig_digits(d, precision.max(1) as usize)
        }
        'g' => {
            if precision == 0 {
                precision = 1;
            }
            sig_digits(d, precision as usize)
        }
        'f' => fixed_digits(d, precision as usize),
        _ => shortest_digits(d),
    };
    let digits = digits.as_bytes();
    let len = digits.len() as i64;
    let mut decpt = decpt;
    let mut vend = len;
    let mut use_exp = false;
    match ty {
        'e' => {
            use_exp = true;
            vend = precision;
        }
        'f' => vend = decpt + precision,
        'g' => {
            if decpt <= -4 || decpt > if add_dot_0 { precision - 1 } else { precision } {
                use_exp = true;
            }
            if alt {
                vend = precision;
            }
        }
        _ => use_exp = decpt <= -4 || decpt > 16,
    }
    let mut exp = 0;
    if use_exp {
        exp = decpt - 1;
        decpt = 1;
    }
    let vstart = if decpt <= 0 { decpt - 1 } else { 0 };
    vend = if !use_exp && add_dot_0 {
        vend.max(decpt + 1)
    } else {
        vend.max(decpt)
    };
    let mut out = String::new();
    if sign {
        out.push('-');
    }
    let zeros = |out: &mut String, n: i64| out.extend(std::iter::repeat_n('0', n.max(0) as usize));
    let push = |out: &mut String, b: &[u8]| out.extend(b.iter().map(|&c| c as char));
    if decpt <= 0 {
        zeros(&mut out, decpt - vstart);
        out.push('.');
        zeros(&mut out, -decpt);
    } else {
        zeros(&mut out, -vstart);
    }
    if 0 < decpt && decpt <= len {
        push(&mut out, &digits[..decpt as usize]);
        out.push('.');
        push(&mut out, &digits[decpt as usize..]);
    } else {
        push(&mut out, digits);
    }
    if len < decpt {
        zeros(&mut out, decpt - len);
        out.push('.');
        zeros(&mut out, vend - decpt);
    } else {
        zeros(&mut out, vend - len);
    }
    if out.ends_with('.') && !alt {
        out.pop();
    }
    if use_exp {
        out.push(if upper { 'E' } else { 'e' });
        out.push(if exp < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", exp.abs()));
    }
    out
}

/// Digits and decimal point of a `d.ddde±x` text (`d` ≥ 0).
fn from_sci(text: &str) -> (String, i64) {
    let (m, e) = text.split_once('e').unwrap_or((text, "0"));
    let exp: i64 = e.parse().unwrap_or(0);
    let digits: String = m.chars().filter(char::is_ascii_digit).collect();
    trimmed(digits, exp + 1)
}

/// `digits` without trailing zeros; a zero is `"0"` with the point after it.
fn trimmed(digits: String, decpt: i64) -> (String, i64) {
    let lead = digits.bytes().take_while(|&b| b == b'0').count();
    let t = digits[lead..].trim_end_matches('0').to_string();
    if t.is_empty() {
        return ("0".into(), 1);
    }
    (t, decpt - lead as i64)
}

/// The shortest digits that read back as `d`.
fn shortest_digits(d: f64) -> (String, i64) {
    from_sci(&format!("{:e}", d.abs()))
}

/// `d` rounded to `n` significant digits (half to even, exactly).
fn sig_digits(d: f64, n: usize) -> (String, i64) {
    from_sci(&format!("{:.*e}", n - 1, d.abs()))
}

/// `d` rounded to `n` digits after the point (half to even, exactly).
fn fixed_digits(d: f64, n: usize) -> (String, i64) {
    let text = format!("{:.*}", n, d.abs());
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    trimmed(format!("{int}{frac}"), int.len() as i64)
}

/// CPython's `calc_number_widths` and `fill_number`: the sign, prefix, digits (grouped,
/// and zero-padded when the fill is `0` after the sign) and the rest, padded to the width.
fn layout(
    sign: Option<char>,
    prefix: &str,
    digits: &str,
    rest: &str,
    spec: &Spec,
    group: Option<(char, usize)>,
) -> String {
    let (fill, align) = spec.fill_align('>');
    let width = spec.width.unwrap_or(0) as i64;
    let fixed = sign.is_some() as i64 + prefix.len() as i64 + rest.chars().count() as i64;
    let min_width = if fill == '0' && align == '=' {
        width - fixed
    } else {
        0
    };
    let grouped = if digits.is_empty() {
        String::new()
    } else {
        insert_grouping(digits, min_width, group)
    };
    let total = fixed + grouped.chars().count() as i64;
    let pad = (width - total).max(0) as usize;
    let (left, middle, right) = match align {
        '<' => (0, 0, pad),
        '^' => (pad / 2, 0, pad - pad / 2),
        '=' => (0, pad, 0),
        _ => (pad, 0, 0),
    };
    let fill = |n: usize| std::iter::repeat_n(fill, n).collect::<String>();
    let mut out = fill(left);
    out.extend(sign);
    out.push_str(prefix);
    out.push_str(&fill(middle));
    out.push_str(&grouped);
    out.push_str(rest);
    out.push_str(&fill(right));
    out
}

/// CPython's `_PyUnicode_InsertThousandsGrouping`: `digits` with a separator every `size`
/// digits from the right, and leading zeros (grouped as well) up to `min_width` characters.
fn insert_grouping(digits: &str, min_width: i64, group: Option<(char, usize)>) -> String {
    let src: Vec<char> = digits.chars().collect();
    let mut remaining = src.len() as i64;
    let mut min_width = min_width;
    // Built from the right, reversed at the end.
    let mut out: Vec<char> = Vec::new();
    let take = |out: &mut Vec<char>, n_chars: i64, n_zeros: i64, remaining: i64| {
        for k in 0..n_chars {
            out.push(src[(remaining - 1 - k) as usize]);
        }
        out.extend(std::iter::repeat_n('0', n_zeros.max(0) as usize));
    };
    let mut use_sep = false;
    if let Some((sep, size)) = group {
        let len = size as i64;
        loop {
            let l = len.min(remaining.max(min_width).max(1));
            let n_zeros = (l - remaining).max(0);
            let n_chars = remaining.min(l).max(0);
            if use_sep {
                out.push(sep);
            }
            take(&mut out, n_chars, n_zeros, remaining);
            use_sep = true;
            remaining -= n_chars;
            min_width -= len;
            if remaining <= 0 && min_width <= 0 {
                out.reverse();
                return out.into_iter().collect();
            }
            min_width -= 1;
        }
    }
    let len = remaining.max(min_width).max(1);
    let n_zeros = (len - remaining).max(0);
    let n_chars = remaining.min(len).max(0);
    take(&mut out, n_chars, n_zeros, remaining);
    out.reverse();
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(x: Num, spec: &str) -> String {
        x.format(&Spec::parse(spec, x.kind()).unwrap())
    }

    /// Expected texts are CPython 3.11's.
    #[test]
    fn floats_format_as_python_does() {
        let d = Num::F64;
        for (x, spec, want) in [
            (d(1234.5678), "", "1234.5678"),
            (d(1234.5678), ".2f", "1234.57"),
            (d(0.125), ".2f", "0.12"),
            (d(0.375), ".2f", "0.38"),
            (d(-0.0001), ".2f", "-0.00"),
            (d(1234.5678), "e", "1.234568e+03"),
            (d(1234.5678), ".3E", "1.235E+03"),
            (d(1234.5678), "g", "1234.57"),
            (d(1e-5), "g", "1e-05"),
            (d(123456789.0), "g", "1.23457e+08"),
            (d(100.0), ".3", "1e+02"),
            (d(10.0), ".3", "10.0"),
            (d(1e16), "", "1e+16"),
            (d(1e15), "", "1000000000000000.0"),
            (d(0.5), "%", "50.000000%"),
            (d(0.5), ".1%", "50.0%"),
            (d(1234567.891), ",.2f", "1,234,567.89"),
            (d(1234567.891), "_.1f", "1_234_567.9"),
            (d(3.5), "010.3f", "000003.500"),
            (d(-3.5), "010.3f", "-00003.500"),
            (d(3.5), "+.1f", "+3.5"),
            (d(3.5), " .1f", " 3.5"),
            (d(3.5), "*^9.1f", "***3.5***"),
            (d(3.5), "<6", "3.5   "),
            (d(f64::INFINITY), "010", "0000000inf"),
            (d(f64::NAN), "F", "NAN"),
            (d(-f64::INFINITY), "+", "-inf"),
            (d(1.0), "#.0f", "1."),
            (d(1.0), "#g", "1.00000"),
            (d(0.0), "e", "0.000000e+00"),
            (d(1234.0), "012,.1f", "00,001,234.0"),
            (Num::F32(0.1), "", "0.1"),
            (Num::F32(0.1), "8", "     0.1"),
            (Num::F32(0.1), ".10f", "0.1000000015"),
            (Num::F32(1e20), "", "1e+20"),
            (Num::F16(0.0999755859375), "", "0.1"),
            (Num::F16(0.0999755859375), ".5f", "0.09998"),
        ] {
            assert_eq!(f(x, spec), want, "format({x:?}, {spec:?})");
        }
    }

    #[test]
    fn ints_format_as_python_does() {
        let i = Num::Int;
        for (x, spec, want) in [
            (i(255), "", "255"),
            (i(255), "x", "ff"),
            (i(255), "#X", "0XFF"),
            (i(255), "#010b", "0b11111111"),
            (i(-255), "#o", "-0o377"),
            (i(1234567), ",", "1,234,567"),
            (i(1234567), "_x", "12_d687"),
            (i(1234), "010,", "00,001,234"),
            (i(1234), "09,", "0,001,234"),
            (i(1234), "0=10,", "00,001,234"),
            (i(1234), "*=10", "******1234"),
            (i(-42), "=8", "-     42"),
            (i(-42), "^8", "  -42   "),
            (i(42), "+d", "+42"),
            (i(7), ".2f", "7.00"),
            (i(7), "e", "7.000000e+00"),
            (Num::Bool(true), "", "True"),
            (Num::Bool(true), ">5", "    1"),
        ] {
            assert_eq!(f(x, spec), want, "format({x:?}, {spec:?})");
        }
    }

    #[test]
    fn strings_format_as_python_does() {
        let s = |spec: &str| format_str("abc", &Spec::parse(spec, Kind::Str).unwrap());
        assert_eq!(s(">5"), "  abc");
        assert_eq!(s("^6"), " abc  ");
        assert_eq!(s("*<5"), "abc**");
        assert_eq!(s(".2"), "ab");
        assert_eq!(s("5s"), "abc  ");
    }

    #[test]
    fn bad_specs_are_refused_with_pythons_words() {
        for (spec, kind, want) in [
            (
                ".2d",
                Kind::Int,
                "Precision not allowed in integer format specifier",
            ),
            (
                "d",
                Kind::Float,
                "Unknown format code 'd' for object of type 'float'",
            ),
            (",x", Kind::Int, "Cannot specify ',' with 'x'."),
            (",_", Kind::Int, "Cannot specify both ',' and '_'."),
            (".f", Kind::Float, "Format specifier missing precision"),
            (
                "+s",
                Kind::Str,
                "Sign not allowed in string format specifier",
            ),
            ("10.2fx", Kind::Float, "Invalid format specifier"),
        ] {
            assert_eq!(Spec::parse(spec, kind).unwrap_err(), want, "{spec}");
        }
        assert!(Spec::parse("n", Kind::Int).is_err());
        assert!(Spec::parse("z.2f", Kind::Float).is_err());
        assert!(Spec::parse("05", Kind::Str).is_err());
        assert!(Spec::parse(".5000f", Kind::Float).is_err());
    }
}
