//! Checked mode (docs/language.md, "Checked mode"): the run-time checks a `--checked` module
//! makes, the hidden error buffer they report through, and the messages a failure prints,
//! written once for the compiler, the reflection JSON and the runtime.
//!
//! Each check in the source is a [`CheckSite`] (module-wide index = its id). A failing check
//! records `(invocation key, site id, index, length)` in the error buffer and stops the
//! invocation; [`Failure::decode`] reads the buffer back after the dispatch.
//!
//! The error buffer ([`ErrorBuffer`]) is a storage buffer at descriptor set 1, binding 0, of
//! `u32` words: `count` (failing invocations), `first` (the smallest key that failed; the
//! runtime fills it with `0xFFFF_FFFF` before the dispatch), `next` (records written), a pad
//! word, then [`ErrorBuffer::RECORDS`] records of four words `(key, site, index, len)` in a
//! ring. An invocation writes a record only when its key lowered `first`, so the record whose
//! key equals `first` holds the first failure's details: the first failure is the lowest
//! `(workgroup, invocation)`, whatever order the device ran them in. The key of an invocation
//! is `linear workgroup id * invocations per workgroup + local_index()`, the linear workgroup
//! id being `x + X * (y + Y * z)` over the launch's `X * Y * Z` workgroups.

use crate::span::{LineIndex, Span};

/// What a check tests.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CheckKind {
    /// `0 <= index < len` for an array access (`axis` of a multi-dimensional array).
    Index { array: String, axis: Option<u32> },
    /// `-n <= index < n` for a vector's component at a run-time index (`vector`: the
    /// vector's type, `ivec3`).
    VectorIndex { vector: String },
    /// A nonzero divisor of integer `//` (`modulo: false`) or `%`.
    ZeroDivision { modulo: bool },
    /// `assert test` or `assert test, "message"`.
    Assert { message: Option<String> },
}

/// One check in the source.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CheckSite {
    pub kind: CheckKind,
    /// Where the failure is reported: the subscript, the division (or the augmented
    /// assignment), the assert's test; CPython's traceback names the same column.
    pub span: Span,
}

impl CheckSite {
    /// The short name of the kind in the reflection JSON.
    pub fn kind_name(&self) -> &'static str {
        match self.kind {
            CheckKind::Index { .. } => "index",
            CheckKind::VectorIndex { .. } => "vector_index",
            CheckKind::ZeroDivision { .. } => "zero_division",
            CheckKind::Assert { .. } => "assert",
        }
    }

    /// Python's exception and message for a failure with this `index` and `len`, as
    /// `IndexError: index 70 out of range for 'x' (len 64)`.
    pub fn message(&self, index: i32, len: i32) -> String {
        match &self.kind {
            CheckKind::Index { array, axis } => {
                let of = match axis {
                    Some(k) => format!("axis {k} of '{array}'"),
                    None => format!("'{array}'"),
                };
                let wrap = if index < 0 {
                    "; negative indices do not wrap"
                } else {
                    ""
                };
                // An `i64` index past the `i32` range is checked as the end of that range
                // (no array reaches it), so these two stand for every index beyond.
                let beyond = match index {
                    i32::MAX => " or more",
                    i32::MIN => " or less",
                    _ => "",
                };
                format!("IndexError: index {index}{beyond} out of range for {of} (len {len}{wrap})")
            }
            CheckKind::VectorIndex { vector } => {
                let what = crate::types::with_article(vector);
                let beyond = match index {
                    i32::MAX => " or more",
                    i32::MIN => " or less",
                    _ => "",
                };
                format!("IndexError: index {index}{beyond} out of range for {what}")
            }
            CheckKind::ZeroDivision { modulo: false } => {
                "ZeroDivisionError: integer division or modulo by zero".to_string()
            }
            CheckKind::ZeroDivision { modulo: true } => {
                "ZeroDivisionError: integer modulo by zero".to_string()
            }
            CheckKind::Assert { message: None } => "AssertionError".to_string(),
            CheckKind::Assert { message: Some(m) } => format!("AssertionError: {m}"),
        }
    }
}

/// The hidden error buffer's place and layout (see the module docs).
pub struct ErrorBuffer;

impl ErrorBuffer {
    pub const SET: u32 = 1;
    pub const BINDING: u32 = 0;
    /// Records kept (a ring).
    pub const RECORDS: u32 = 64;
    /// Header words before the records.
    pub const HEADER: u32 = 4;
    /// The buffer's size in bytes.
    pub const SIZE: u32 = 4 * (Self::HEADER + 4 * Self::RECORDS);
    /// The initial contents: zeros, and `first` = `u32::MAX`.
    pub fn initial() -> Vec<u32> {
        let mut words = vec![0; (Self::SIZE / 4) as usize];
        words[1] = u32::MAX;
        words
    }
}

/// The first failure of a checked dispatch, read back from the error buffer.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Failure {
    /// Invocations that failed.
    pub count: u32,
    /// The first failing invocation's key.
    pub key: u32,
    /// `(site, index, len)` of the first failure; `None` when its record was overwritten,
    /// which takes more than [`ErrorBuffer::RECORDS`] failures racing to be first.
    pub record: Option<(u32, i32, i32)>,
}

impl Failure {
    /// The failure the buffer's `words` report, if any invocation failed.
    pub fn decode(words: &[u32]) -> Option<Failure> {
        let (&count, &key, &next) = (words.first()?, words.get(1)?, words.get(2)?);
        if count == 0 {
            return None;
        }
        let n = next.min(ErrorBuffer::RECORDS) as usize;
        let record = words
            .get(ErrorBuffer::HEADER as usize..)
            .unwrap_or(&[])
            .chunks_exact(4)
            .take(n)
            .find(|r| r[0] == key)
            .map(|r| (r[1], r[2] as i32, r[3] as i32));
        Some(Failure { count, key, record })
    }

    /// The failing invocation's `(workgroup_id, local_id)` for a launch of `groups`
    /// workgroups of `size` invocations.
    pub fn invocation(&self, groups: [u32; 3], size: [u32; 3]) -> ([u32; 3], [u32; 3]) {
        let per = (size[0] * size[1] * size[2]).max(1);
        let (wg, local) = (self.key / per, self.key % per);
        let split = |v: u32, d: [u32; 3]| {
            let (x, y) = (d[0].max(1), d[1].max(1));
            [v % x, (v / x) % y, v / (x * y)]
        };
        (split(wg, groups), split(local, size))
    }

    /// The report `run --checked` prints: the first failure as Python words it, located,
    /// then which invocation it was and how many failed ([`words`], which the reference
    /// executor's report uses too).
    pub fn report(
        &self,
        sites: &[CheckSite],
        path: &str,
        source: &str,
        groups: [u32; 3],
        size: [u32; 3],
    ) -> String {
        let head = match self.located(sites, source) {
            Some((message, line, col)) => words::fill(
                words::LOCATED,
                &[
                    ("message", message),
                    ("path", path.to_string()),
                    ("line", line.to_string()),
                    ("col", col.to_string()),
                ],
            ),
            None => words::LOST.to_string(),
        };
        let others = match self.count {
            1 => words::ONLY.to_string(),
            n => words::fill(words::FIRST_OF, &[("count", n.to_string())]),
        };
        words::fill(
            words::REPORT,
            &[
                ("head", head),
                ("ids", self.invocation_ids(groups, size)),
                ("others", others),
            ],
        )
    }

    /// The first failure's message in Python's words (`IndexError: …`) and its 1-based
    /// line and column in `source`; `None` when its record was overwritten.
    pub fn located(&self, sites: &[CheckSite], source: &str) -> Option<(String, usize, usize)> {
        let (s, index, len) = self.record?;
        let site = sites.get(s as usize)?;
        let (line, col) = LineIndex::new(source).line_col(source, site.span.start);
        Some((site.message(index, len), line, col))
    }

    /// `global_id (x, y, z), workgroup_id (…), local_id (…)` of the first failing
    /// invocation.
    pub fn invocation_ids(&self, groups: [u32; 3], size: [u32; 3]) -> String {
        let (wg, local) = self.invocation(groups, size);
        let global: Vec<u32> = (0..3).map(|k| wg[k] * size[k] + local[k]).collect();
        let names = ["gx", "gy", "gz", "wx", "wy", "wz", "lx", "ly", "lz"];
        let values = global.iter().chain(&wg).chain(&local);
        let fields: Vec<(&str, String)> =
            names.into_iter().zip(values.map(u32::to_string)).collect();
        words::fill(words::IDS, &fields)
    }
}

/// The words of a checked launch's report, as templates with `{name}` fields (Python's
/// `str.format` syntax): `spirthon run --checked`, the native module and the reference
/// executor (through the generated `_library.CHECK_REPORT`) all print them.
pub mod words {
    /// The whole report.
    pub const REPORT: &str = "{head}\n  in invocation {ids}: {others}";
    /// Its first line, for a failure whose record survived.
    pub const LOCATED: &str = "{message} at {path}:{line}:{col}";
    /// Its first line, when later failures overwrote the first one's record.
    pub const LOST: &str = "a check failed (its record was overwritten by later failures)";
    /// How many failed: one.
    pub const ONLY: &str = "the only failing invocation";
    /// How many failed: more than one.
    pub const FIRST_OF: &str = "the first of {count} failing invocations";
    /// The invocation's ids.
    pub const IDS: &str = "global_id ({gx}, {gy}, {gz}), workgroup_id ({wx}, {wy}, {wz}), local_id ({lx}, {ly}, {lz})";
    /// Every template, by the name the Python table gives it.
    pub const ALL: [(&str, &str); 6] = [
        ("report", REPORT),
        ("located", LOCATED),
        ("lost", LOST),
        ("only", ONLY),
        ("first_of", FIRST_OF),
        ("ids", IDS),
    ];

    /// `template` with each `{name}` of `fields` replaced by its value, in one pass over the
    /// template (a value is never searched for fields: an assert's message may hold braces).
    pub fn fill(template: &str, fields: &[(&str, String)]) -> String {
        let mut out = String::with_capacity(template.len());
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let field = after.find('}').and_then(|close| {
                let name = &after[..close];
                let value = fields.iter().find(|(n, _)| *n == name)?;
                Some((close, &value.1))
            });
            match field {
                Some((close, value)) => {
                    out.push_str(value);
                    rest = &after[close + 1..];
                }
                None => {
                    out.push('{');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(kind: CheckKind) -> CheckSite {
        CheckSite {
            kind,
            span: Span::new(4, 5),
        }
    }

    #[test]
    fn messages_read_as_pythons() {
        let x = site(CheckKind::Index {
            array: "x".into(),
            axis: None,
        });
        assert_eq!(
            x.message(70, 64),
            "IndexError: index 70 out of range for 'x' (len 64)"
        );
        assert_eq!(
            x.message(-1, 64),
            "IndexError: index -1 out of range for 'x' (len 64; negative indices do not wrap)"
        );
        let a = site(CheckKind::Index {
            array: "A".into(),
            axis: Some(1),
        });
        assert_eq!(
            a.message(5, 4),
            "IndexError: index 5 out of range for axis 1 of 'A' (len 4)"
        );
        let m = site(CheckKind::Assert {
            message: Some("n must be positive".into()),
        });
        assert_eq!(m.message(0, 0), "AssertionError: n must be positive");
    }

    #[test]
    fn the_record_of_the_first_key_is_the_one_reported() {
        let mut w = ErrorBuffer::initial();
        assert_eq!(Failure::decode(&w), None);
        // Three failures; the ring holds two records, the second for the first key.
        w[0] = 3;
        w[1] = 9;
        w[2] = 2;
        w[4..8].copy_from_slice(&[12, 1, 70, 64]);
        w[8..12].copy_from_slice(&[9, 0, -1i32 as u32, 8]);
        let f = Failure::decode(&w).unwrap();
        assert_eq!(f.record, Some((0, -1, 8)));
        assert_eq!((f.count, f.key), (3, 9));
        // Key 9 with workgroups of 4 x 2: workgroup 1 (of 3 x 1 x 1), local index 1.
        assert_eq!(f.invocation([3, 1, 1], [4, 2, 1]), ([1, 0, 0], [1, 0, 0]));
        let src = "abcd[x]\n";
        let sites = [site(CheckKind::ZeroDivision { modulo: true })];
        let r = f.report(&sites, "k.py", src, [3, 1, 1], [4, 2, 1]);
        assert!(
            r.starts_with("ZeroDivisionError: integer modulo by zero at k.py:1:5\n"),
            "{r}"
        );
        assert!(r.contains("global_id (5, 0, 0)"), "{r}");
        assert!(r.contains("the first of 3 failing invocations"), "{r}");
    }

    /// A field's value is not searched for fields: an assert message with braces stays.
    #[test]
    fn the_report_keeps_braces_of_a_message() {
        let got = words::fill(
            words::REPORT,
            &[
                ("head", "AssertionError: {ids}".into()),
                ("ids", "X".into()),
                ("others", "Y".into()),
            ],
        );
        assert_eq!(got, "AssertionError: {ids}\n  in invocation X: Y");
    }
}
