//! The hash maps of the compiler's passes: the multiply-rotate hash of rustc's `FxHasher`,
//! several times faster than the standard library's SipHash on the small keys the passes use
//! (names, constants, ids). It gives no protection against adversarial keys; the compiler's
//! inputs are bounded in size, so a crafted collision costs time in proportion to that bound,
//! not a denial of service.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// A `HashMap` with [`FxHasher`]; make one with `FastMap::default()`.
pub type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FxHasher>>;

/// A `HashSet` with [`FxHasher`]; make one with `FastSet::default()`.
pub type FastSet<T> = HashSet<T, BuildHasherDefault<FxHasher>>;

/// rustc's `FxHasher`: `h = (h.rotl(5) ^ word) * K` per machine word (a byte string's
/// length is one more word).
#[derive(Default, Clone, Copy)]
pub struct FxHasher(u64);

const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.write_u64(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.write_u64(u64::from_le_bytes(w));
        }
        // The length, so that trailing zero bytes count.
        self.write_usize(bytes.len());
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(K);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maps_keep_their_entries() {
        let mut m: FastMap<String, usize> = FastMap::default();
        for k in 0..1000 {
            m.insert(format!("name_{k}"), k);
        }
        assert_eq!(m.len(), 1000);
        assert!((0..1000).all(|k| m[&format!("name_{k}")] == k));
    }

    #[test]
    fn strings_differing_past_eight_bytes_hash_apart() {
        let h = |s: &str| {
            let mut f = FxHasher::default();
            std::hash::Hash::hash(s, &mut f);
            f.finish()
        };
        assert_ne!(h("abcdefgh1"), h("abcdefgh2"));
        assert_ne!(h("a"), h("a\0"));
    }
}
