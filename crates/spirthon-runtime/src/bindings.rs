//! The binding numbers the driver sees. wgpu numbers the bindings of each bind group layout
//! densely for Vulkan, in the order of their numbers (a layout of bindings 0, 2 and 5 is
//! Vulkan's 0, 1 and 2), and rewrites the bindings of the modules it translates to match.
//! A module given to the driver as it is (module `floats`) keeps the ABI's numbers, so
//! [`with_layout_bindings`] rewrites its `Binding` decorations the same way: a kernel that
//! prints but is not checked binds only the print buffer in set 1, ABI binding 1, which is
//! Vulkan's binding 0 there (without this its prints went nowhere on NVIDIA's driver).
//!
//! Invariant: a variable whose set and binding are in the layout gets the binding's rank
//! among the layout's bindings of that set; every other word of the module is unchanged.

const OP_DECORATE: u32 = 71;
const DECORATION_BINDING: u32 = 33;
const DECORATION_DESCRIPTOR_SET: u32 = 34;

/// `words` with each variable's binding in set `s` renumbered to its rank in `sets[s]`
/// (the layout's bindings of that set, any order).
pub fn with_layout_bindings(words: &[u32], sets: &[Vec<u32>]) -> Vec<u32> {
    let decorations = decorations(words);
    let set_of = |target: u32| {
        decorations
            .iter()
            .find(|d| d.1 == target && d.2 == DECORATION_DESCRIPTOR_SET)
            .map(|d| d.3)
    };
    let mut out = words.to_vec();
    for &(at, target, decoration, binding) in &decorations {
        if decoration != DECORATION_BINDING {
            continue;
        }
        let Some(layout) = set_of(target).and_then(|s| sets.get(s as usize)) else {
            continue;
        };
        if layout.contains(&binding) {
            out[at + 3] = layout.iter().filter(|&&b| b < binding).count() as u32;
        }
    }
    out
}

/// Each one-literal `OpDecorate`: (word index, target, decoration, literal).
fn decorations(words: &[u32]) -> Vec<(usize, u32, u32, u32)> {
    let mut out = Vec::new();
    let mut at = 5;
    while let Some(&w) = words.get(at) {
        let (op, len) = (w & 0xffff, (w >> 16) as usize);
        if len == 0 || at + len > words.len() {
            break;
        }
        if op == OP_DECORATE && len == 4 {
            out.push((at, words[at + 1], words[at + 2], words[at + 3]));
        }
        at += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decorate(target: u32, decoration: u32, literal: u32) -> [u32; 4] {
        [(4 << 16) | OP_DECORATE, target, decoration, literal]
    }

    #[test]
    fn bindings_become_their_rank_in_their_set() {
        let mut words = vec![0x0723_0203, 0x0001_0300, 0, 20, 0];
        // %1: set 0 binding 3; %2: set 1 binding 1; %3: set 0 binding 0; %4: set 0
        // binding 9, not in the layout; a decoration that is no binding.
        for (id, set, binding) in [(1, 0, 3), (2, 1, 1), (3, 0, 0), (4, 0, 9)] {
            words.extend(decorate(id, DECORATION_DESCRIPTOR_SET, set));
            words.extend(decorate(id, DECORATION_BINDING, binding));
        }
        words.extend(decorate(5, 6, 4)); // ArrayStride 4
        let out = with_layout_bindings(&words, &[vec![0, 1, 3], vec![1]]);
        let binding = |id: u32| {
            decorations(&out)
                .iter()
                .find(|d| d.1 == id && d.2 == DECORATION_BINDING)
                .map(|d| d.3)
        };
        assert_eq!(binding(1), Some(2));
        assert_eq!(binding(2), Some(0));
        assert_eq!(binding(3), Some(0));
        assert_eq!(binding(4), Some(9));
        assert_eq!(out[out.len() - 4..], decorate(5, 6, 4));
        assert_eq!(out.len(), words.len());
    }
}
