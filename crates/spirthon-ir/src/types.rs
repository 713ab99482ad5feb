//! The kernel language's value types and constants.

/// A scalar type.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Scalar {
    Bool,
    I32,
    U32,
    F32,
    /// `f64`: a double, as NumPy's `float64` and Python's `float` (the device feature
    /// `shaderFloat64`).
    F64,
    /// `i8 u8 i16 u16`: NumPy's `int8 uint8 int16 uint16`. A value is held in a 32-bit
    /// register of the same signedness ([`Scalar::carrier`]), sign- or zero-extended, and
    /// wrapped to its width after every operation; a buffer packs them, 4 or 2 to a word.
    I8,
    U8,
    I16,
    U16,
    /// `i64 u64`: NumPy's `int64 uint64`, held in 64-bit registers (the device feature
    /// `shaderInt64`), wrapping at 64 bits.
    I64,
    U64,
    /// `f16`: a half, as NumPy's `float16`. A value is held in an `f32` register
    /// ([`Scalar::carrier`]) and rounded to half after every operation (exact: an `f32`
    /// result rounded again to half is the correctly rounded half); a buffer packs them two
    /// to a word.
    F16,
}

impl Scalar {
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I32 => "i32",
            Scalar::U32 => "u32",
            Scalar::F32 => "f32",
            Scalar::F64 => "f64",
            Scalar::I8 => "i8",
            Scalar::U8 => "u8",
            Scalar::I16 => "i16",
            Scalar::U16 => "u16",
            Scalar::I64 => "i64",
            Scalar::U64 => "u64",
            Scalar::F16 => "f16",
        }
    }
    /// The scalar type a spirthon name spells (`i32`, `f64`, `u8`, …; `bool` is Python's).
    pub fn named(name: &str) -> Option<Scalar> {
        const SPIRTHON: [Scalar; 11] = [
            Scalar::I32,
            Scalar::U32,
            Scalar::F32,
            Scalar::F64,
            Scalar::I8,
            Scalar::U8,
            Scalar::I16,
            Scalar::U16,
            Scalar::I64,
            Scalar::U64,
            Scalar::F16,
        ];
        SPIRTHON.into_iter().find(|s| s.name() == name)
    }
    /// The 32-bit type a value of this type is held in: `i32` for `i8`/`i16`, `u32` for
    /// `u8`/`u16`, `f32` for `f16`, the type itself otherwise.
    pub fn carrier(self) -> Scalar {
        match self {
            Scalar::I8 | Scalar::I16 => Scalar::I32,
            Scalar::U8 | Scalar::U16 => Scalar::U32,
            Scalar::F16 => Scalar::F32,
            s => s,
        }
    }
    /// Whether this is one of the narrow types (`i8 u8 i16 u16 f16`): held in a 32-bit
    /// carrier, brought back to the type after every operation, packed in buffers.
    pub fn is_narrow(self) -> bool {
        matches!(
            self,
            Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16 | Scalar::F16
        )
    }
    /// The bits of a value in a buffer: 8 or 16 for a narrow int, 32 or 64 for the others
    /// (bool's 32, as stored).
    pub fn bits(self) -> u32 {
        8 * self.size()
    }
    /// The smallest and largest value of an int type.
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            Scalar::I64 => (i64::MIN.into(), i64::MAX.into()),
            Scalar::U64 => (0, u64::MAX.into()),
            Scalar::I8 => (i8::MIN.into(), i8::MAX.into()),
            Scalar::U8 => (0, u8::MAX.into()),
            Scalar::I16 => (i16::MIN.into(), i16::MAX.into()),
            Scalar::U16 => (0, u16::MAX.into()),
            Scalar::I32 => (i32::MIN.into(), i32::MAX.into()),
            Scalar::U32 => (0, u32::MAX.into()),
            _ => return None,
        })
    }
    /// Whether an int type is signed.
    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64)
    }
    /// Whether this is `i64` or `u64`.
    pub fn is_int64(self) -> bool {
        matches!(self, Scalar::I64 | Scalar::U64)
    }
    /// `v` wrapped to int type `self` (two's complement), as the type's operations wrap.
    pub fn wrap(self, v: i128) -> i128 {
        match self {
            Scalar::I8 => v as i8 as i128,
            Scalar::U8 => v as u8 as i128,
            Scalar::I16 => v as i16 as i128,
            Scalar::U16 => v as u16 as i128,
            Scalar::I32 => v as i32 as i128,
            Scalar::U32 => v as u32 as i128,
            Scalar::I64 => v as i64 as i128,
            Scalar::U64 => v as u64 as i128,
            _ => v,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F32 | Scalar::F64 | Scalar::F16)
    }
    /// Bytes in a buffer (a bool is stored as a `u32`).
    pub fn size(self) -> u32 {
        match self {
            Scalar::F64 | Scalar::I64 | Scalar::U64 => 8,
            Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 | Scalar::F16 => 2,
            _ => 4,
        }
    }
    pub fn is_int(self) -> bool {
        matches!(
            self,
            Scalar::I32
                | Scalar::U32
                | Scalar::I8
                | Scalar::U8
                | Scalar::I16
                | Scalar::U16
                | Scalar::I64
                | Scalar::U64
        )
    }
    pub fn is_numeric(self) -> bool {
        self != Scalar::Bool
    }
}

/// The type of a value: a scalar, a vector of 2 to 4 scalars, or a square `f32` matrix.
/// (Past 4 components, up to 16, a "vector" is the carrier of a tuple a func returns: it is
/// only built, returned and taken apart, and is emitted as an array.)
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Ty {
    Scalar(Scalar),
    Vector(Scalar, u8),
    /// `mat22`, `mat33`, `mat44` (`f32`) and `dmat22`, `dmat33`, `dmat44` (`f64`): `n` rows
    /// of `n` floats, row-major as NumPy and Warp hold them. A value is its `n * n` entries in
    /// row-major order (emitted as an array of them); lowering takes it apart and builds it
    /// entry by entry. The scalar is `F32` or `F64`.
    Matrix(Scalar, u8),
    /// `quat`: a rotation quaternion `(x, y, z, w)` as Warp holds it, four `f32`s (emitted
    /// as a `vec4`); `*` of two is the Hamilton product, which lowering writes out.
    Quat,
}

impl Ty {
    pub const BOOL: Ty = Ty::Scalar(Scalar::Bool);
    pub const I32: Ty = Ty::Scalar(Scalar::I32);
    pub const U32: Ty = Ty::Scalar(Scalar::U32);
    pub const F32: Ty = Ty::Scalar(Scalar::F32);
    pub const F64: Ty = Ty::Scalar(Scalar::F64);

    /// The scalar, or the component type of a vector.
    pub fn scalar(self) -> Scalar {
        match self {
            Ty::Scalar(s) | Ty::Vector(s, _) | Ty::Matrix(s, _) => s,
            Ty::Quat => Scalar::F32,
        }
    }
    pub fn as_scalar(self) -> Option<Scalar> {
        match self {
            Ty::Scalar(s) => Some(s),
            Ty::Vector(..) | Ty::Matrix(..) | Ty::Quat => None,
        }
    }
    pub fn is(self, s: Scalar) -> bool {
        self == Ty::Scalar(s)
    }
    /// The component count: 1 for a scalar, the entries of a matrix.
    pub fn components(self) -> u32 {
        match self {
            Ty::Scalar(_) => 1,
            Ty::Vector(_, n) => n as u32,
            Ty::Matrix(_, n) => n as u32 * n as u32,
            Ty::Quat => 4,
        }
    }
    /// The size in bytes of an array element, packed (a bool is stored as a `u32`; a matrix
    /// is its entries, NumPy's `(n, n)` `float32`).
    pub fn size(self) -> u32 {
        self.scalar().size() * self.components()
    }
    /// The alignment in a std140 uniform block and of a std430 array element: a `vec3`
    /// aligns as a `vec4`, a matrix as its rows do in std140 (16, or 32 for the rows of a
    /// `dmat33`/`dmat44`).
    pub fn align(self) -> u32 {
        match self {
            Ty::Matrix(..) => self.row_stride(),
            // A narrow parameter (or component) is a whole word of the uniform block: an int
            // extended, an `f16` the `f32` of its value.
            Ty::Scalar(s) if s.is_narrow() => 4,
            Ty::Vector(s, n) if s.is_narrow() => Ty::Vector(s.carrier(), n).align(),
            _ => {
                self.scalar().size()
                    * match self.components() {
                        1 => 1,
                        2 => 2,
                        _ => 4,
                    }
            }
        }
    }
    /// How far apart a matrix's rows are in a uniform block (std140: a row's vector size
    /// rounded up to 16 bytes; 16 for `f32` rows, 16 or 32 for `f64` ones).
    pub fn row_stride(self) -> u32 {
        match self {
            Ty::Matrix(s, n) => Ty::Vector(s, n).align().next_multiple_of(16),
            _ => 0,
        }
    }
    /// The size in a std140 uniform block: a matrix's rows are [`Ty::row_stride`] apart there.
    pub fn uniform_size(self) -> u32 {
        match self {
            Ty::Matrix(_, n) => self.row_stride() * n as u32,
            Ty::Scalar(s) if s.is_narrow() => 4,
            Ty::Vector(s, n) if s.is_narrow() => 4 * n as u32,
            t => t.size(),
        }
    }
    /// Where 32-bit word `k` of a value of this type lies in a uniform block, from its
    /// start: a matrix's rows are [`Ty::row_stride`] apart there (std140), other words 4
    /// (an `f64` entry is two words).
    pub fn uniform_word_offset(self, k: u32) -> u32 {
        match self {
            Ty::Matrix(s, n) => {
                let per_row = n as u32 * s.size() / 4;
                self.row_stride() * (k / per_row) + 4 * (k % per_row)
            }
            _ => 4 * k,
        }
    }
    /// The type with the same shape and component type `s` (a matrix keeps its own unless
    /// `s` is `f32` or `f64`).
    pub fn with_scalar(self, s: Scalar) -> Ty {
        match self {
            Ty::Scalar(_) => Ty::Scalar(s),
            Ty::Vector(_, n) => Ty::Vector(s, n),
            Ty::Matrix(_, n) if matches!(s, Scalar::F32 | Scalar::F64) => Ty::Matrix(s, n),
            t @ Ty::Matrix(..) => t,
            Ty::Quat => Ty::Quat,
        }
    }
    /// The vector shape the device holds a value in: a vector's, or a quaternion's four
    /// `f32`s.
    pub fn as_vector(self) -> Option<(Scalar, u8)> {
        match self {
            Ty::Vector(s, n) => Some((s, n)),
            Ty::Quat => Some((Scalar::F32, 4)),
            _ => None,
        }
    }
    /// The matrix type a spirthon name spells (`mat22`, `mat33`, `mat44`, and `dmat22`,
    /// `dmat33`, `dmat44` of `f64`).
    pub fn matrix_named(name: &str) -> Option<Ty> {
        let (s, rest) = match name.strip_prefix('d') {
            Some(rest) => (Scalar::F64, rest),
            None => (Scalar::F32, name),
        };
        match rest {
            "mat22" => Some(Ty::Matrix(s, 2)),
            "mat33" => Some(Ty::Matrix(s, 3)),
            "mat44" => Some(Ty::Matrix(s, 4)),
            _ => None,
        }
    }
    /// The type's name with its indefinite article: "a vec3", "an ivec3", "an f32".
    pub fn with_article(self) -> String {
        with_article(&self.name())
    }
    /// The vector type that a spirthon name spells (`vec2`, `ivec3`, `uvec4`, `dvec3`, and
    /// the other widths by their scalar's name: `i8vec4 u8vec4 i16vec2 u16vec2 i64vec3
    /// u64vec3 f16vec3`, as GLSL's explicit-width types).
    pub fn vector_named(name: &str) -> Option<Ty> {
        let at = name.find("vec")?;
        let (prefix, rest) = name.split_at(at);
        let s = match prefix {
            "" => Scalar::F32,
            "i" => Scalar::I32,
            "u" => Scalar::U32,
            "d" => Scalar::F64,
            p => Scalar::named(p)
                .filter(|s| !matches!(s, Scalar::I32 | Scalar::U32 | Scalar::F32 | Scalar::F64))?,
        };
        let n = match rest {
            "vec2" => 2,
            "vec3" => 3,
            "vec4" => 4,
            _ => return None,
        };
        Some(Ty::Vector(s, n))
    }
    /// The type's Python spelling.
    pub fn name(self) -> String {
        match self {
            Ty::Scalar(s) => s.name().to_string(),
            Ty::Matrix(Scalar::F64, n) => format!("dmat{n}{n}"),
            Ty::Matrix(_, n) => format!("mat{n}{n}"),
            Ty::Quat => "quat".to_string(),
            Ty::Vector(s, n) if n > 4 => format!("{}[{n}]", s.name()),
            Ty::Vector(s, n) => {
                let p = match s {
                    Scalar::F32 => "",
                    Scalar::I32 => "i",
                    Scalar::U32 => "u",
                    Scalar::Bool => "b",
                    Scalar::F64 => "d",
                    s => s.name(),
                };
                format!("{p}vec{n}")
            }
        }
    }
}

impl core::fmt::Display for Ty {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.name())
    }
}

/// A type's name with its indefinite article: "a vec3", "an ivec3", "an f32".
pub fn with_article(name: &str) -> String {
    let article = if name.starts_with(['i', 'f']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name}")
}

/// A scalar constant. Floats are kept as bits so constants hash and compare exactly.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Const {
    Bool(bool),
    I32(i32),
    U32(u32),
    F32(u32),
    F64(u64),
    I64(i64),
    U64(u64),
    /// A narrow int (`i8 u8 i16 u16`) and its value, in its range.
    Narrow(Scalar, i32),
    /// An `f16`: its bits.
    F16(u16),
}

impl Const {
    pub fn f32(v: f32) -> Const {
        Const::F32(v.to_bits())
    }
    pub fn f64(v: f64) -> Const {
        Const::F64(v.to_bits())
    }
    /// The float `v` as a constant of float type `s` (rounded to `f32` for `f32`, to half
    /// for `f16`).
    pub fn float(s: Scalar, v: f64) -> Const {
        match s {
            Scalar::F64 => Const::f64(v),
            Scalar::F16 => Const::F16(crate::half::bits(v)),
            _ => Const::f32(v as f32),
        }
    }
    /// Zero (or `False`) of scalar type `s`.
    pub fn zero(s: Scalar) -> Const {
        match s {
            Scalar::Bool => Const::Bool(false),
            Scalar::I32 => Const::I32(0),
            Scalar::U32 => Const::U32(0),
            Scalar::F32 => Const::f32(0.0),
            Scalar::F64 => Const::f64(0.0),
            Scalar::I64 => Const::I64(0),
            Scalar::U64 => Const::U64(0),
            Scalar::F16 => Const::F16(0),
            s => Const::Narrow(s, 0),
        }
    }
    /// One (or `True`) of scalar type `s`.
    pub fn one(s: Scalar) -> Const {
        match s {
            Scalar::Bool => Const::Bool(true),
            Scalar::I32 => Const::I32(1),
            Scalar::U32 => Const::U32(1),
            Scalar::F32 => Const::f32(1.0),
            Scalar::F64 => Const::f64(1.0),
            Scalar::I64 => Const::I64(1),
            Scalar::U64 => Const::U64(1),
            Scalar::F16 => Const::F16(0x3C00),
            s => Const::Narrow(s, 1),
        }
    }
    pub fn ty(self) -> Ty {
        Ty::Scalar(match self {
            Const::Bool(_) => Scalar::Bool,
            Const::I32(_) => Scalar::I32,
            Const::U32(_) => Scalar::U32,
            Const::F32(_) => Scalar::F32,
            Const::F64(_) => Scalar::F64,
            Const::I64(_) => Scalar::I64,
            Const::U64(_) => Scalar::U64,
            Const::Narrow(s, _) => s,
            Const::F16(_) => Scalar::F16,
        })
    }
    /// An int constant's value (of any int type).
    pub fn int_value(self) -> Option<i128> {
        match self {
            Const::I32(v) | Const::Narrow(_, v) => Some(v.into()),
            Const::U32(v) => Some(v.into()),
            Const::I64(v) => Some(v.into()),
            Const::U64(v) => Some(v.into()),
            _ => None,
        }
    }
    pub fn as_f32(self) -> Option<f32> {
        match self {
            Const::F32(b) => Some(f32::from_bits(b)),
            _ => None,
        }
    }
    /// A float constant's value (an `f32`'s or `f16`'s widened exactly).
    pub fn as_float(self) -> Option<f64> {
        match self {
            Const::F32(b) => Some(f32::from_bits(b) as f64),
            Const::F64(b) => Some(f64::from_bits(b)),
            Const::F16(h) => Some(crate::half::value(h)),
            _ => None,
        }
    }
    /// The bits SPIR-V stores for this constant, low word first (booleans have none; an
    /// `f64` has two words).
    pub fn bits(self) -> u64 {
        match self {
            Const::Bool(b) => b as u64,
            Const::I32(v) => v as u32 as u64,
            Const::U32(v) | Const::F32(v) => v as u64,
            Const::F64(v) | Const::U64(v) => v,
            Const::I64(v) => v as u64,
            // Held as its 32-bit carrier holds it: sign- or zero-extended.
            Const::Narrow(_, v) => v as u32 as u64,
            // Held as an `f32` of the same value.
            Const::F16(h) => u64::from((crate::half::value(h) as f32).to_bits()),
        }
    }
}

impl core::fmt::Display for Const {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            Const::Bool(b) => write!(f, "{}", if b { "True" } else { "False" }),
            Const::I32(v) => write!(f, "{v}"),
            Const::U32(v) => write!(f, "{v}u"),
            Const::F32(b) => write!(f, "{:?}", f32::from_bits(b)),
            Const::F64(b) => write!(f, "f64({:?})", f64::from_bits(b)),
            Const::I64(v) => write!(f, "i64({v})"),
            Const::U64(v) => write!(f, "u64({v})"),
            Const::Narrow(s, v) => write!(f, "{}({v})", s.name()),
            Const::F16(h) => write!(f, "f16({:?})", crate::half::value(h)),
        }
    }
}
