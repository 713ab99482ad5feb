//! Typed `u32` indices. Every table in this crate is a `Vec` indexed by one of these.

macro_rules! id {
    ($(#[$meta:meta])* $name:ident, $prefix:literal) => {
        $(#[$meta])*
        #[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
        pub struct $name(u32);

        impl $name {
            /// The id with this index. Indices must fit in a `u32`.
            #[inline]
            pub fn new(index: usize) -> Self {
                debug_assert!(index < u32::MAX as usize, "index out of the u32 range");
                Self(index as u32)
            }
            #[inline]
            pub const fn from_u32(raw: u32) -> Self {
                Self(raw)
            }
            #[inline]
            pub const fn as_u32(self) -> u32 {
                self.0
            }
            #[inline]
            pub const fn index(self) -> usize {
                self.0 as usize
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

id!(
    /// A basic block. Block 0 of a function is its entry.
    Block,
    "b"
);
id!(
    /// A source variable (a Python local), before SSA.
    Var,
    "v"
);
id!(
    /// A value computed by the client (an instruction result). Opaque to this crate.
    Value,
    "%"
);
id!(
    /// An upward-exposed read of a variable: a use in a block before any definition of the
    /// variable in that block. SSA construction resolves each one to a [`crate::Val`].
    UseId,
    "use"
);
id!(
    /// A phi created by SSA construction.
    Phi,
    "phi"
);
