//! The binding ABI of a kernel (docs/language.md, "The binding ABI"): what the emitter declares, the
//! runtime fills, `--emit reflect` describes and the tests check, written once.
//!
//! Binding 0 is a uniform block in std140 layout: the kernel's scalar and vector parameters
//! in declaration order, each at the next multiple of its alignment (4 bytes for a scalar, 8
//! for a 2-vector, 16 for a 3- or 4-vector), then the hidden shape of every multi-dimensional
//! array parameter in declaration order (one `i32` per axis, named `A.shape[k]`), then the
//! hidden launch size `threads`, a `uvec3` at the next 16-byte boundary, then the hidden
//! `group_base`, a `uvec3` in the block's last 16 bytes: the first workgroup id of a
//! dispatch's block of the launch's workgroups (zeros unless a launch takes several
//! dispatches). Bindings 1, 2, … are the array parameters in declaration order (see
//! [`crate::EntryPoint::arrays`]).
//!
//! Invariants: offsets increase in declaration order; `threads` comes after every scalar and
//! is 16-byte aligned; `group_base` is 16 bytes after it; [`UniformLayout::size`] is a
//! multiple of 16.

use crate::cfg::ArrayId;
use crate::types::{Scalar, Ty};

/// A scalar or vector parameter's place in the uniform block.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UniformField {
    pub name: String,
    pub ty: Ty,
    pub offset: u32,
}

/// One axis of a multi-dimensional array's shape (a hidden `i32`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ShapeField {
    pub array: ArrayId,
    pub axis: u32,
    /// `A.shape[k]`.
    pub name: String,
    pub offset: u32,
}

/// A kernel's uniform block (binding 0).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UniformLayout {
    /// The scalar and vector parameters, in declaration order.
    pub params: Vec<UniformField>,
    /// The axes of the multi-dimensional arrays, in declaration order.
    pub shapes: Vec<ShapeField>,
    /// The byte offset of the hidden launch size.
    pub threads: u32,
}

/// The most threads a launch may ask for per axis: `global_id()` is an `ivec3`, so every id
/// of a launch is a non-negative `i32`. Every runner checks a launch against it (the run
/// JSON, the Python library, through the generated `_library.MAX_THREADS_PER_AXIS`).
pub const MAX_THREADS_PER_AXIS: u32 = i32::MAX as u32;

impl UniformLayout {
    /// The hidden launch-size member's name (in reflection and debug names).
    pub const THREADS_NAME: &'static str = "threads";
    /// The hidden launch-size member's type.
    pub const THREADS_TY: Ty = Ty::Vector(Scalar::U32, 3);
    /// The hidden member of a dispatch's first workgroup id.
    pub const BASE_NAME: &'static str = "group_base";

    /// The std140 layout of a kernel whose scalar and vector parameters are `params`, in
    /// order.
    pub fn std140(params: impl IntoIterator<Item = (String, Ty)>) -> UniformLayout {
        Self::with_shapes(params, [])
    }

    /// The layout with the shapes of multi-dimensional arrays `(array, name, dimensions)`.
    pub fn with_shapes(
        params: impl IntoIterator<Item = (String, Ty)>,
        arrays: impl IntoIterator<Item = (ArrayId, String, u32)>,
    ) -> UniformLayout {
        let mut offset = 0u32;
        let params = params
            .into_iter()
            .map(|(name, ty)| {
                let at = offset.next_multiple_of(ty.align());
                offset = at + ty.uniform_size();
                UniformField {
                    name,
                    ty,
                    offset: at,
                }
            })
            .collect();
        let mut shapes = Vec::new();
        for (array, name, dims) in arrays {
            for axis in 0..dims {
                shapes.push(ShapeField {
                    array,
                    axis,
                    name: format!("{name}.shape[{axis}]"),
                    offset,
                });
                offset += 4;
            }
        }
        UniformLayout {
            params,
            shapes,
            threads: offset.next_multiple_of(16),
        }
    }

    /// The struct member index of axis `axis` of `array`'s shape.
    pub fn shape_member(&self, array: ArrayId, axis: u32) -> Option<u32> {
        self.shapes
            .iter()
            .position(|s| s.array == array && s.axis == axis)
            .map(|k| (self.params.len() + k) as u32)
    }

    /// The block's size in bytes: past `group_base`, rounded up to the block's alignment
    /// (std140: its largest member's, at least 16; 32 with a `dvec3`, `dvec4` or `dmat`).
    pub fn size(&self) -> u32 {
        let align = self.params.iter().map(|f| f.ty.align()).fold(16, u32::max);
        (self.base_offset() + 16).next_multiple_of(align)
    }

    /// The byte offset of `group_base`: the block's last 16 bytes.
    pub fn base_offset(&self) -> u32 {
        self.threads + 16
    }

    /// The struct member index of `group_base` (it follows `threads`).
    pub fn base_member(&self) -> u32 {
        self.threads_member() + 1
    }

    /// The struct member index of `threads` (it follows the parameters and shapes).
    pub fn threads_member(&self) -> u32 {
        (self.params.len() + self.shapes.len()) as u32
    }

    /// Every member in struct order as `(name, type, offset, hidden)`.
    pub fn members(&self) -> impl Iterator<Item = (&str, Ty, u32, bool)> + '_ {
        self.params
            .iter()
            .map(|f| (f.name.as_str(), f.ty, f.offset, false))
            .chain(
                self.shapes
                    .iter()
                    .map(|s| (s.name.as_str(), Ty::I32, s.offset, true)),
            )
            .chain([
                (Self::THREADS_NAME, Self::THREADS_TY, self.threads, true),
                (Self::BASE_NAME, Self::THREADS_TY, self.base_offset(), true),
            ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_follows_the_scalars_at_a_16_byte_boundary() {
        let none = UniformLayout::std140([]);
        assert_eq!(
            (none.threads, none.size(), none.threads_member()),
            (0, 32, 0)
        );
        let three = UniformLayout::std140(
            ["a", "b", "c"].map(|n| (n.to_string(), Ty::Scalar(Scalar::F32))),
        );
        let offsets: Vec<u32> = three.members().map(|m| m.2).collect();
        assert_eq!(offsets, [0, 4, 8, 16, 32]);
        assert_eq!(three.size(), 48);
        let four = UniformLayout::std140(
            ["a", "b", "c", "d"].map(|n| (n.to_string(), Ty::Scalar(Scalar::I32))),
        );
        assert_eq!(
            (four.threads, four.size(), four.threads_member()),
            (16, 48, 4)
        );
        let five = UniformLayout::std140(
            ["a", "b", "c", "d", "e"].map(|n| (n.to_string(), Ty::Scalar(Scalar::U32))),
        );
        assert_eq!((five.threads, five.size()), (32, 64));
        assert_eq!(five.members().filter(|m| m.3).count(), 2);
    }

    #[test]
    fn a_block_with_doubles_rounds_up_to_their_alignment() {
        let l = UniformLayout::std140([("p".to_string(), Ty::Vector(Scalar::F64, 3))]);
        // p 0..24, threads 32, group_base 48..60: 64, a multiple of dvec3's 32.
        assert_eq!((l.threads, l.base_offset(), l.size()), (32, 48, 64));
        let l = UniformLayout::std140([
            ("p".to_string(), Ty::Vector(Scalar::F64, 3)),
            ("s".to_string(), Ty::F32),
            ("t".to_string(), Ty::F32),
        ]);
        // s 24, t 28, threads 32, group_base 48: 64.
        assert_eq!(l.size(), 64);
        let l = UniformLayout::std140([
            ("p".to_string(), Ty::Vector(Scalar::F64, 4)),
            ("s".to_string(), Ty::F32),
        ]);
        // s 32, threads 48, group_base 64..76: 96, not 80.
        assert_eq!(l.size(), 96);
    }

    #[test]
    fn vectors_align_as_std140_says() {
        let f = Ty::F32;
        let mixed = UniformLayout::std140([
            ("a".to_string(), f),
            ("v2".to_string(), Ty::Vector(Scalar::F32, 2)),
            ("b".to_string(), f),
            ("v3".to_string(), Ty::Vector(Scalar::I32, 3)),
            ("c".to_string(), f),
            ("v4".to_string(), Ty::Vector(Scalar::U32, 4)),
        ]);
        let offsets: Vec<u32> = mixed.members().map(|m| m.2).collect();
        // a 0, v2 8 (8-aligned), b 16, v3 32 (16-aligned), c 44 (fills v3's last word),
        // v4 48, threads 64.
        assert_eq!(offsets, [0, 8, 16, 32, 44, 48, 64, 80]);
        assert_eq!(mixed.size(), 96);
    }

    #[test]
    fn shapes_follow_the_parameters() {
        let l = UniformLayout::with_shapes(
            [("v".to_string(), Ty::Vector(Scalar::F32, 2))],
            [
                (ArrayId(0), "a".to_string(), 2),
                (ArrayId(2), "c".to_string(), 3),
            ],
        );
        let names: Vec<(&str, u32)> = l.members().map(|m| (m.0, m.2)).collect();
        assert_eq!(
            names,
            [
                ("v", 0),
                ("a.shape[0]", 8),
                ("a.shape[1]", 12),
                ("c.shape[0]", 16),
                ("c.shape[1]", 20),
                ("c.shape[2]", 24),
                ("threads", 32),
                ("group_base", 48)
            ]
        );
        assert_eq!(l.shape_member(ArrayId(2), 1), Some(4));
        assert_eq!(l.threads_member(), 6);
    }
}
