//! Float arithmetic as the reference executor does it, on devices that would otherwise do
//! less: what a kernel computes in `f16`, `f32` and `f64` is IEEE 754 arithmetic rounded
//! after every operation, subnormal numbers and signed zeros included (docs/language.md,
//! "Floats on the GPU").
//!
//! Two things stand between a module and that on Vulkan:
//!
//! - **Contraction.** A driver may fuse `a * b + c` into one fused multiply-add (one
//!   rounding instead of two) unless the multiplication carries `NoContraction`, which the
//!   compiler puts on every float operation. wgpu's usual path translates a SPIR-V module
//!   through naga, whose IR has no such flag: NVIDIA's driver then fuses (`saxpy` differed
//!   from NumPy in the last bit; the error-free transformations of the `f64` functions lost
//!   all their digits). So on Vulkan the runtime hands the driver the compiler's module
//!   itself (wgpu's SPIR-V passthrough); the compiler validated it with naga already, and
//!   the tests put every module through `spirv-val`.
//! - **Denormals and signed zeros.** Vulkan lets a device flush subnormal values to zero
//!   and ignore the sign of zero, infinities and NaNs unless a module asks otherwise with
//!   the execution modes of `SPV_KHR_float_controls` (core in Vulkan 1.2), which a device
//!   supports per width (`VkPhysicalDeviceFloatControlsProperties`). [`with_float_controls`]
//!   adds `DenormPreserve` and `SignedZeroInfNanPreserve` for each width the module computes
//!   in where the device supports them. A device that supports neither keeps its defaults,
//!   and `Gpu::describe_floats` says so.
//!
//! Invariant: the module that comes out is the module that went in, plus at most two
//! capabilities, one extension and a few execution modes, each in its section of the
//! module's layout (SPIR-V 1.6, 2.4 "Logical Layout of a Module").

/// Which float controls a device supports, per width (16, 32, 64 bits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FloatControls {
    pub denorm_preserve: [bool; 3],
    pub signed_zero_inf_nan_preserve: [bool; 3],
}

const WIDTHS: [u32; 3] = [16, 32, 64];

const OP_EXTENSION: u32 = 10;
const OP_ENTRY_POINT: u32 = 15;
const OP_EXECUTION_MODE: u32 = 16;
const OP_CAPABILITY: u32 = 17;
const OP_EXECUTION_MODE_ID: u32 = 331;

const CAP_FLOAT16: u32 = 9;
const CAP_FLOAT64: u32 = 10;
const CAP_DENORM_PRESERVE: u32 = 4464;
const CAP_SIGNED_ZERO_INF_NAN_PRESERVE: u32 = 4466;
const MODE_DENORM_PRESERVE: u32 = 4459;
const MODE_SIGNED_ZERO_INF_NAN_PRESERVE: u32 = 4461;

/// SPIR-V 1.4 made `SPV_KHR_float_controls` core.
const VERSION_1_4: u32 = 0x0001_0400;

impl FloatControls {
    /// The widths (of 16, 32, 64) whose subnormals this device keeps, as words.
    pub fn describe(&self) -> String {
        let kept: Vec<String> = WIDTHS
            .iter()
            .zip(self.denorm_preserve)
            .filter(|(_, k)| *k)
            .map(|(w, _)| format!("f{w}"))
            .collect();
        match kept.len() {
            0 => "subnormal floats may be flushed to zero".into(),
            _ => format!("subnormals kept in {}", kept.join(", ")),
        }
    }
}

/// `words` with the execution modes of `fc` that apply to it (see the module docs): for
/// `f32`, and for `f16` and `f64` when the module declares `Float16` or `Float64`.
pub fn with_float_controls(words: &[u32], fc: &FloatControls) -> Vec<u32> {
    let layout = Layout::of(words);
    let used = [
        layout.capabilities.contains(&CAP_FLOAT16),
        true,
        layout.capabilities.contains(&CAP_FLOAT64),
    ];
    let mut modes = Vec::new();
    for k in 0..3 {
        if used[k] && fc.denorm_preserve[k] {
            modes.push((MODE_DENORM_PRESERVE, WIDTHS[k]));
        }
        if used[k] && fc.signed_zero_inf_nan_preserve[k] {
            modes.push((MODE_SIGNED_ZERO_INF_NAN_PRESERVE, WIDTHS[k]));
        }
    }
    if modes.is_empty() || layout.entry_points.is_empty() {
        return words.to_vec();
    }
    let mut caps = Vec::new();
    for (mode, cap) in [
        (MODE_DENORM_PRESERVE, CAP_DENORM_PRESERVE),
        (
            MODE_SIGNED_ZERO_INF_NAN_PRESERVE,
            CAP_SIGNED_ZERO_INF_NAN_PRESERVE,
        ),
    ] {
        if modes.iter().any(|m| m.0 == mode) && !layout.capabilities.contains(&cap) {
            caps.extend([(2 << 16) | OP_CAPABILITY, cap]);
        }
    }
    let mut ext = Vec::new();
    if words.get(1).is_some_and(|&v| v < VERSION_1_4) && !layout.float_controls_extension {
        ext = string_instruction(OP_EXTENSION, "SPV_KHR_float_controls");
    }
    let mut exec = Vec::new();
    for &entry in &layout.entry_points {
        for &(mode, width) in &modes {
            exec.extend([(4 << 16) | OP_EXECUTION_MODE, entry, mode, width]);
        }
    }
    let mut out = Vec::with_capacity(words.len() + caps.len() + ext.len() + exec.len());
    out.extend_from_slice(&words[..layout.after_capabilities]);
    out.extend(caps);
    out.extend_from_slice(&words[layout.after_capabilities..layout.after_extensions]);
    out.extend(ext);
    out.extend_from_slice(&words[layout.after_extensions..layout.after_modes]);
    out.extend(exec);
    out.extend_from_slice(&words[layout.after_modes..]);
    out
}

/// Where a module's first sections end (word indices), and what they declare.
struct Layout {
    capabilities: Vec<u32>,
    float_controls_extension: bool,
    entry_points: Vec<u32>,
    after_capabilities: usize,
    after_extensions: usize,
    after_modes: usize,
}

impl Layout {
    fn of(words: &[u32]) -> Layout {
        let mut l = Layout {
            capabilities: Vec::new(),
            float_controls_extension: false,
            entry_points: Vec::new(),
            after_capabilities: 5.min(words.len()),
            after_extensions: 5.min(words.len()),
            after_modes: 5.min(words.len()),
        };
        let mut at = 5;
        while let Some(&w) = words.get(at) {
            let (op, len) = (w & 0xffff, (w >> 16) as usize);
            if len == 0 || at + len > words.len() {
                break;
            }
            let next = at + len;
            match op {
                OP_CAPABILITY => {
                    l.capabilities.push(words[at + 1]);
                    l.after_capabilities = next;
                    l.after_extensions = next;
                }
                OP_EXTENSION => {
                    let name = string_of(&words[at + 1..next]);
                    l.float_controls_extension |= name == "SPV_KHR_float_controls";
                    l.after_extensions = next;
                }
                OP_ENTRY_POINT => {
                    l.entry_points.push(words[at + 2]);
                    l.after_modes = next;
                }
                OP_EXECUTION_MODE | OP_EXECUTION_MODE_ID => l.after_modes = next,
                _ => {}
            }
            at = next;
        }
        l.after_modes = l.after_modes.max(l.after_extensions);
        l
    }
}

/// An instruction of `op` whose one operand is the literal string `s`.
fn string_instruction(op: u32, s: &str) -> Vec<u32> {
    let mut bytes = s.as_bytes().to_vec();
    bytes.push(0);
    bytes.resize(bytes.len().next_multiple_of(4), 0);
    let mut out = vec![(((bytes.len() / 4 + 1) as u32) << 16) | op];
    out.extend(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    );
    out
}

fn string_of(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module's preamble: Shader and Float64, GLSL.std.450, one entry point with
    /// LocalSize, then one more instruction (OpTypeVoid) that must stay last.
    fn module(version: u32) -> Vec<u32> {
        let mut w = vec![0x0723_0203, version, 0, 10, 0];
        w.extend([(2 << 16) | OP_CAPABILITY, 1]);
        w.extend([(2 << 16) | OP_CAPABILITY, CAP_FLOAT64]);
        // OpExtInstImport %1 "GLSL.std.450": the name after the result id.
        let name = string_instruction(11, "GLSL.std.450");
        w.extend([(((name.len() + 1) as u32) << 16) | 11, 1]);
        w.extend(&name[1..]);
        w.extend([(3 << 16) | 14, 0, 1]); // OpMemoryModel Logical GLSL450
        w.extend([(4 << 16) | OP_ENTRY_POINT, 5, 7, 0x6b]); // GLCompute %7 "k"
        w.extend([(6 << 16) | OP_EXECUTION_MODE, 7, 17, 64, 1, 1]);
        w.extend([(2 << 16) | 19, 2]); // OpTypeVoid %2
        w
    }

    fn ops(words: &[u32]) -> Vec<(u32, Vec<u32>)> {
        let mut out = Vec::new();
        let mut at = 5;
        while at < words.len() {
            let len = (words[at] >> 16) as usize;
            out.push((words[at] & 0xffff, words[at + 1..at + len].to_vec()));
            at += len;
        }
        out
    }

    #[test]
    fn modes_go_into_their_sections_for_each_width_the_module_uses() {
        let fc = FloatControls {
            denorm_preserve: [true, true, true],
            signed_zero_inf_nan_preserve: [false, true, false],
        };
        let before = module(0x0001_0300);
        let after = with_float_controls(&before, &fc);
        let ops = ops(&after);
        let names: Vec<u32> = ops.iter().map(|o| o.0).collect();
        assert_eq!(
            names,
            [17, 17, 17, 17, OP_EXTENSION, 11, 14, 15, 16, 16, 16, 16, 19],
            "{ops:?}"
        );
        assert_eq!(ops[2].1, [CAP_DENORM_PRESERVE]);
        assert_eq!(ops[3].1, [CAP_SIGNED_ZERO_INF_NAN_PRESERVE]);
        assert_eq!(string_of(&ops[4].1), "SPV_KHR_float_controls");
        // f16 is not declared: no mode for it.
        assert_eq!(ops[9].1, [7, MODE_DENORM_PRESERVE, 32]);
        assert_eq!(ops[10].1, [7, MODE_SIGNED_ZERO_INF_NAN_PRESERVE, 32]);
        assert_eq!(ops[11].1, [7, MODE_DENORM_PRESERVE, 64]);
        // The instructions around them are untouched.
        assert_eq!(&after[after.len() - 2..], &before[before.len() - 2..]);
    }

    #[test]
    fn a_device_without_float_controls_gets_the_module_as_it_is() {
        let before = module(0x0001_0300);
        assert_eq!(
            with_float_controls(&before, &FloatControls::default()),
            before
        );
    }

    #[test]
    fn spirv_1_4_needs_no_extension() {
        let fc = FloatControls {
            denorm_preserve: [false, true, false],
            ..Default::default()
        };
        let after = with_float_controls(&module(VERSION_1_4), &fc);
        assert!(!ops(&after).iter().any(|o| o.0 == OP_EXTENSION));
        assert_eq!(after.len(), module(VERSION_1_4).len() + 2 + 4);
    }
}
