//! The run JSON's reader and the text of JSON values in messages: one definition that
//! `spirthon run` and `python3 -m spirthon run` (its module `spirthon.runjson` is a
//! line-for-line port) share, so that the same bad input gives the same error from both.
//!
//! The reader takes RFC 8259 JSON and nothing more: no `NaN`/`Infinity` (the run JSON writes
//! non-finite floats as the strings `"nan"`, `"inf"`, `"-inf"`), no lone surrogate escapes,
//! no number that overflows a double, and at most [`MAX_DEPTH`] nested lists and objects.
//! Numbers follow one model on both sides: an integer in `[-2^63, 2^64)` is exact, any other
//! number (a fraction, an exponent, a larger integer) is the nearest double. An error says
//! what was wrong at which line and column (1-based, columns in characters), in the
//! project's words.
//!
//! Values print ([`text`]) as compact JSON with Python's `repr` of floats (`1e+20`,
//! `4.0`), which both sides can produce.
//!
//! The reader keeps an explicit stack: nesting costs no Rust stack.

use serde_json::{Map, Number, Value};

/// The most lists and objects that may nest (a deeper input is refused, on both sides).
pub const MAX_DEPTH: usize = 128;

/// The most bytes a run-JSON file may have.
pub const MAX_BYTES: u64 = 64 << 20;

/// Parses run-JSON text.
pub fn parse(text: &str) -> Result<Value, String> {
    Reader {
        chars: text.char_indices().peekable(),
        text,
        line: 1,
        col: 1,
    }
    .document()
}

/// A container being read: its items so far, and for an object the key of the next value.
enum Open {
    List(Vec<Value>),
    Object(Map<String, Value>, Option<String>),
}

struct Reader<'t> {
    chars: std::iter::Peekable<std::str::CharIndices<'t>>,
    text: &'t str,
    /// The position of the next character.
    line: usize,
    col: usize,
}

impl Reader<'_> {
    fn peek(&mut self) -> Option<char> {
        self.chars.peek().map(|&(_, c)| c)
    }

    fn bump(&mut self) -> Option<char> {
        let (_, c) = self.chars.next()?;
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
        Some(c)
    }

    fn offset(&mut self) -> usize {
        self.chars.peek().map_or(self.text.len(), |&(i, _)| i)
    }

    fn error<T>(&self, what: impl Into<String>) -> Result<T, String> {
        Err(format!(
            "{} at line {} column {}",
            what.into(),
            self.line,
            self.col
        ))
    }

    /// An error at the next character: what was found there, or the end of the text.
    fn unexpected<T>(&mut self, expected: &str) -> Result<T, String> {
        match self.peek() {
            None => self.error(format!("expected {expected}, found the end of the text")),
            Some(c) => {
                let hint = if matches!(c, 'N' | 'I') && expected.contains("value") {
                    " (JSON has no NaN or Infinity: the run JSON writes them as \"nan\", \"inf\", \"-inf\")"
                } else {
                    ""
                };
                self.error(format!("expected {expected}, found {}{hint}", shown(c)))
            }
        }
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t' | '\n' | '\r')) {
            self.bump();
        }
    }

    fn document(mut self) -> Result<Value, String> {
        let mut stack: Vec<Open> = Vec::new();
        loop {
            self.skip_space();
            // A value starts here: a container opens, or a scalar completes.
            let mut value = match self.peek() {
                Some('[') => {
                    self.open(&mut stack, Open::List(Vec::new()))?;
                    self.skip_space();
                    if self.peek() == Some(']') {
                        self.bump();
                        stack.pop().map(close).unwrap_or(Value::Null)
                    } else {
                        continue;
                    }
                }
                Some('{') => {
                    self.open(&mut stack, Open::Object(Map::new(), None))?;
                    self.skip_space();
                    if self.peek() == Some('}') {
                        self.bump();
                        stack.pop().map(close).unwrap_or(Value::Null)
                    } else {
                        let key = self.key()?;
                        if let Some(Open::Object(_, k)) = stack.last_mut() {
                            *k = Some(key);
                        }
                        continue;
                    }
                }
                _ => self.scalar()?,
            };
            // Hand the value to the containers it completes.
            loop {
                let Some(top) = stack.last_mut() else {
                    self.skip_space();
                    if self.peek().is_some() {
                        return self.error("unexpected text after the JSON value");
                    }
                    return Ok(value);
                };
                match top {
                    Open::List(items) => items.push(value),
                    Open::Object(map, key) => {
                        map.insert(key.take().unwrap_or_default(), value);
                    }
                }
                self.skip_space();
                let is_list = matches!(top, Open::List(_));
                let end = if is_list { ']' } else { '}' };
                match self.peek() {
                    Some(',') => {
                        self.bump();
                        if !is_list {
                            self.skip_space();
                            let k = self.key()?;
                            if let Some(Open::Object(_, key)) = stack.last_mut() {
                                *key = Some(k);
                            }
                        }
                        break;
                    }
                    Some(c) if c == end => {
                        self.bump();
                        value = stack.pop().map(close).unwrap_or(Value::Null);
                    }
                    _ => return self.unexpected(&format!("',' or '{end}'")),
                }
            }
        }
    }

    fn open(&mut self, stack: &mut Vec<Open>, o: Open) -> Result<(), String> {
        if stack.len() == MAX_DEPTH {
            return self.error(format!(
                "lists and objects nested more than {MAX_DEPTH} levels deep"
            ));
        }
        self.bump();
        stack.push(o);
        Ok(())
    }

    /// An object's key and its colon.
    fn key(&mut self) -> Result<String, String> {
        if self.peek() != Some('"') {
            return self.unexpected("a key in double quotes");
        }
        let k = self.string()?;
        self.skip_space();
        if self.peek() != Some(':') {
            return self.unexpected("':'");
        }
        self.bump();
        Ok(k)
    }

    fn scalar(&mut self) -> Result<Value, String> {
        match self.peek() {
            Some('"') => Ok(Value::String(self.string()?)),
            Some('-' | '0'..='9') => self.number(),
            Some(c @ ('t' | 'f' | 'n')) => {
                let (word, v) = match c {
                    't' => ("true", Value::Bool(true)),
                    'f' => ("false", Value::Bool(false)),
                    _ => ("null", Value::Null),
                };
                let at = self.offset();
                if self.text[at..].starts_with(word) {
                    for _ in 0..word.len() {
                        self.bump();
                    }
                    Ok(v)
                } else {
                    self.unexpected("a value")
                }
            }
            _ => self.unexpected("a value"),
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let (line, col) = (self.line, self.col);
        let start = self.offset();
        let mut integral = true;
        if self.peek() == Some('-') {
            self.bump();
        }
        match self.peek() {
            Some('0') => {
                self.bump();
            }
            Some('1'..='9') => self.digits(),
            _ => return self.unexpected("a digit"),
        }
        if self.peek() == Some('.') {
            integral = false;
            self.bump();
            if !matches!(self.peek(), Some('0'..='9')) {
                return self.unexpected("a digit");
            }
            self.digits();
        }
        if matches!(self.peek(), Some('e' | 'E')) {
            integral = false;
            self.bump();
            if matches!(self.peek(), Some('+' | '-')) {
                self.bump();
            }
            if !matches!(self.peek(), Some('0'..='9')) {
                return self.unexpected("a digit");
            }
            self.digits();
        }
        let end = self.offset();
        let t = &self.text[start..end];
        if integral {
            if let Ok(u) = t.parse::<u64>() {
                return Ok(Value::Number(u.into()));
            }
            if let Ok(i) = t.parse::<i64>() {
                return Ok(Value::Number(i.into()));
            }
        }
        match t.parse::<f64>().ok().and_then(Number::from_f64) {
            Some(n) if n.as_f64().is_some_and(f64::is_finite) => Ok(Value::Number(n)),
            _ => Err(format!(
                "the number {t} is out of range at line {line} column {col}"
            )),
        }
    }

    fn digits(&mut self) {
        while matches!(self.peek(), Some('0'..='9')) {
            self.bump();
        }
    }

    /// A string, from its opening quote.
    fn string(&mut self) -> Result<String, String> {
        self.bump();
        let mut out = String::new();
        loop {
            match self.peek() {
                None => return self.error("the text ends inside a string"),
                Some('"') => {
                    self.bump();
                    return Ok(out);
                }
                Some('\\') => {
                    let (line, col) = (self.line, self.col);
                    self.bump();
                    let c = match self.bump() {
                        Some('"') => '"',
                        Some('\\') => '\\',
                        Some('/') => '/',
                        Some('b') => '\u{8}',
                        Some('f') => '\u{c}',
                        Some('n') => '\n',
                        Some('r') => '\r',
                        Some('t') => '\t',
                        Some('u') => self.unicode_escape(line, col)?,
                        Some(c) => {
                            return Err(format!(
                                "invalid escape \\{} in a string at line {line} column {col}",
                                shown(c).trim_matches('\'')
                            ))
                        }
                        None => return self.error("the text ends inside a string"),
                    };
                    out.push(c);
                }
                Some(c) if (c as u32) < 0x20 => {
                    return self.error(format!(
                        "control character U+{:04X} in a string (write it as an escape)",
                        c as u32
                    ))
                }
                Some(c) => {
                    self.bump();
                    out.push(c);
                }
            }
        }
    }

    /// The character of `\uXXXX` (the `\u` read), joining a surrogate pair.
    fn unicode_escape(&mut self, line: usize, col: usize) -> Result<char, String> {
        let hi = self.hex4(line, col)?;
        if !(0xD800..0xE000).contains(&hi) {
            return Ok(char::from_u32(hi).unwrap_or('\u{fffd}'));
        }
        let lone = || {
            Err(format!(
                "lone surrogate \\u{hi:04X} in a string at line {line} column {col}"
            ))
        };
        if hi >= 0xDC00 {
            return lone();
        }
        let at = self.offset();
        if !self.text[at..].starts_with("\\u") {
            return lone();
        }
        self.bump();
        self.bump();
        let lo = self.hex4(line, col)?;
        if !(0xDC00..0xE000).contains(&lo) {
            return lone();
        }
        Ok(char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)).unwrap_or('\u{fffd}'))
    }

    fn hex4(&mut self, line: usize, col: usize) -> Result<u32, String> {
        let mut v = 0;
        for _ in 0..4 {
            match self.peek().and_then(|c| c.to_digit(16)) {
                Some(d) => {
                    self.bump();
                    v = v * 16 + d;
                }
                None => {
                    return Err(format!(
                        "\\u must be followed by four hex digits at line {line} column {col}"
                    ))
                }
            }
        }
        Ok(v)
    }
}

fn close(o: Open) -> Value {
    match o {
        Open::List(items) => Value::Array(items),
        Open::Object(map, _) => Value::Object(map),
    }
}

/// A character as a message shows it: quoted when printable, else its code point.
fn shown(c: char) -> String {
    if c.is_control() || c.is_whitespace() || c == '\u{feff}' {
        format!("U+{:04X}", c as u32)
    } else {
        format!("'{c}'")
    }
}

/// A float as Python's `repr` writes it: the shortest digits that read back as `f`, in
/// positional notation for exponents from -4 to 15 (`0.0001`, `4.0`, `1e+16`, `1e-05`).
pub fn float_text(f: f64) -> String {
    spirthon_ir::pyformat::float_repr(f)
}

/// `v` as compact JSON (`[1,2.5,"x"]`, `{"a":1}`), floats as [`float_text`] writes them,
/// strings escaped as JSON escapes them (`\"`, `\n`, `\u001f`; other characters as they are).
pub fn text(v: &Value) -> String {
    enum Item<'v> {
        Value(&'v Value),
        Key(&'v str),
        Punct(&'static str),
    }
    let mut out = String::new();
    let mut work = vec![Item::Value(v)];
    while let Some(item) = work.pop() {
        let v = match item {
            Item::Punct(p) => {
                out.push_str(p);
                continue;
            }
            Item::Key(k) => {
                out.push_str(&Value::String(k.to_string()).to_string());
                continue;
            }
            Item::Value(v) => v,
        };
        match v {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
                (Some(u), _, _) => out.push_str(&u.to_string()),
                (_, Some(i), _) => out.push_str(&i.to_string()),
                (_, _, Some(f)) => out.push_str(&float_text(f)),
                _ => out.push_str(&n.to_string()),
            },
            Value::String(_) => out.push_str(&v.to_string()),
            Value::Array(items) => {
                out.push('[');
                work.push(Item::Punct("]"));
                for (k, x) in items.iter().enumerate().rev() {
                    work.push(Item::Value(x));
                    if k > 0 {
                        work.push(Item::Punct(","));
                    }
                }
            }
            Value::Object(map) => {
                out.push('{');
                work.push(Item::Punct("}"));
                let entries: Vec<_> = map.iter().collect();
                for (k, (key, x)) in entries.into_iter().enumerate().rev() {
                    work.push(Item::Value(x));
                    work.push(Item::Punct(":"));
                    work.push(Item::Key(key));
                    if k > 0 {
                        work.push(Item::Punct(","));
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_python_repr() {
        for (f, want) in [
            (4.0, "4.0"),
            (1.5, "1.5"),
            (1e20, "1e+20"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-2.5e-7, "-2.5e-07"),
            (123456.789, "123456.789"),
            (1.8446744073709552e19, "1.8446744073709552e+19"),
            (-0.0, "-0.0"),
            (5e-324, "5e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
        ] {
            assert_eq!(float_text(f), want, "{f:e}");
        }
    }
}

#[cfg(test)]
mod reader_tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(text).expect_err(text)
    }

    #[test]
    fn reads_json_and_the_number_model() {
        let v = parse(r#" {"a": [1, -2, 2.5, 1e2, 18446744073709551615, 18446744073709551616, "x\u00e9\ud83d\ude00"], "b": {}, "c": [], "d": null, "e": true} "#).unwrap();
        assert_eq!(
            text(&v),
            r#"{"a":[1,-2,2.5,100.0,18446744073709551615,1.8446744073709552e+19,"xé😀"],"b":{},"c":[],"d":null,"e":true}"#
        );
        assert!(v["a"][0].is_u64() && v["a"][1].is_i64() && v["a"][3].is_f64());
    }

    #[test]
    fn errors_say_what_and_where() {
        for (text, want) in [
            ("", "expected a value, found the end of the text at line 1 column 1"),
            ("{\"a\": 1,}", "expected a key in double quotes, found '}' at line 1 column 9"),
            ("[1 2]", "expected ',' or ']', found '2' at line 1 column 4"),
            ("{\"a\" 1}", "expected ':', found '1' at line 1 column 6"),
            ("[1,\n NaN]", "expected a value, found 'N' (JSON has no NaN or Infinity: the run JSON writes them as \"nan\", \"inf\", \"-inf\") at line 2 column 2"),
            ("1e400", "the number 1e400 is out of range at line 1 column 1"),
            ("[01]", "expected ',' or ']', found '1' at line 1 column 3"),
            ("-", "expected a digit, found the end of the text at line 1 column 2"),
            ("1.", "expected a digit, found the end of the text at line 1 column 3"),
            ("\"a\tb\"", "control character U+0009 in a string (write it as an escape) at line 1 column 3"),
            ("\"\\x\"", "invalid escape \\x in a string at line 1 column 2"),
            ("\"\\ud800\"", "lone surrogate \\uD800 in a string at line 1 column 2"),
            ("\"\\u12g4\"", "\\u must be followed by four hex digits at line 1 column 2"),
            ("\"abc", "the text ends inside a string at line 1 column 5"),
            ("{} x", "unexpected text after the JSON value at line 1 column 4"),
            ("tru", "expected a value, found 't' at line 1 column 1"),
            ("\u{feff}{}", "expected a value, found U+FEFF at line 1 column 1"),
        ] {
            assert_eq!(err(text), want, "{text:?}");
        }
        let deep = format!("{}{}", "[".repeat(MAX_DEPTH + 1), "]".repeat(MAX_DEPTH + 1));
        assert_eq!(
            err(&deep),
            format!(
                "lists and objects nested more than {MAX_DEPTH} levels deep at line 1 column {}",
                MAX_DEPTH + 1
            )
        );
        let ok = format!("{}{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        assert!(parse(&ok).is_ok());
        // Far deeper than any stack: still an error, not a crash.
        let huge = "[".repeat(1 << 20);
        assert!(err(&huge).contains("nested more than"));
    }
}
