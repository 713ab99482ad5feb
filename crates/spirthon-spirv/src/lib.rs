//! spirthon's backend: structured SPIR-V from SSA-form functions ([`emit`]), checked in
//! process by naga's SPIR-V frontend and validator ([`validate`]), and a disassembler that
//! names ids after the Python variables ([`disassemble`]).

pub mod disasm;
pub mod emit;
pub mod validate;
mod words;

pub use disasm::disassemble;
pub use emit::{emit, EmitError, EmitOptions};
pub use validate::{check, validate};
