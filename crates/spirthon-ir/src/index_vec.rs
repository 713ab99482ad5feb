//! [`IndexVec`]: a `Vec` indexed by one typed id (rustc's `IndexVec`, cranelift's
//! `PrimaryMap`), so that `f.insts[v]` takes a `Value` and nothing else. It dereferences to a
//! slice for iteration and length; indexing by the id is the typed path.

use core::marker::PhantomData;
use core::ops::{Deref, DerefMut, Index, IndexMut};

use crate::cfg::{ArrayId, Block, FuncId, Phi, Value, Var};

/// A typed index: converts to and from a position.
pub trait Idx: Copy {
    fn new(index: usize) -> Self;
    fn index(self) -> usize;
}

macro_rules! idx {
    ($($t:ty),*) => {$(
        impl Idx for $t {
            fn new(index: usize) -> Self { <$t>::new(index) }
            fn index(self) -> usize { <$t>::index(self) }
        }
    )*};
}
idx!(Block, Value, Phi, Var);

impl Idx for ArrayId {
    fn new(index: usize) -> Self {
        ArrayId(index as u32)
    }
    fn index(self) -> usize {
        ArrayId::index(self)
    }
}

impl Idx for FuncId {
    fn new(index: usize) -> Self {
        FuncId(index as u32)
    }
    fn index(self) -> usize {
        FuncId::index(self)
    }
}

/// A vector whose positions are ids of type `I`.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IndexVec<I, T> {
    items: Vec<T>,
    _index: PhantomData<fn(I) -> I>,
}

impl<I: Idx, T> IndexVec<I, T> {
    pub fn new() -> Self {
        Vec::new().into()
    }
    /// Appends `item`; its id.
    pub fn push(&mut self, item: T) -> I {
        self.items.push(item);
        I::new(self.items.len() - 1)
    }
    /// The ids of every position, in order.
    pub fn ids(&self) -> impl Iterator<Item = I> {
        (0..self.items.len()).map(I::new)
    }
    /// Each id with its item.
    pub fn iter_enumerated(&self) -> impl Iterator<Item = (I, &T)> {
        self.items.iter().enumerate().map(|(i, t)| (I::new(i), t))
    }
    pub fn get(&self, i: I) -> Option<&T> {
        self.items.get(i.index())
    }
    pub fn into_vec(self) -> Vec<T> {
        self.items
    }
}

impl<I: Idx, T> Default for IndexVec<I, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I, T> From<Vec<T>> for IndexVec<I, T> {
    fn from(items: Vec<T>) -> Self {
        IndexVec {
            items,
            _index: PhantomData,
        }
    }
}

impl<I, T> FromIterator<T> for IndexVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(it: It) -> Self {
        Vec::from_iter(it).into()
    }
}

impl<I, T> Deref for IndexVec<I, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<I, T> DerefMut for IndexVec<I, T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items
    }
}

impl<I: Idx, T> Index<I> for IndexVec<I, T> {
    type Output = T;
    fn index(&self, i: I) -> &T {
        &self.items[i.index()]
    }
}

impl<I: Idx, T> IndexMut<I> for IndexVec<I, T> {
    fn index_mut(&mut self, i: I) -> &mut T {
        &mut self.items[i.index()]
    }
}

impl<'a, I, T> IntoIterator for &'a IndexVec<I, T> {
    type Item = &'a T;
    type IntoIter = core::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}

impl<'a, I, T> IntoIterator for &'a mut IndexVec<I, T> {
    type Item = &'a mut T;
    type IntoIter = core::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter_mut()
    }
}

impl<I, T> IntoIterator for IndexVec<I, T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter()
    }
}

impl<I, T: core::fmt::Debug> core::fmt::Debug for IndexVec<I, T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        self.items.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_ids_index_their_items() {
        let mut v: IndexVec<Block, &str> = IndexVec::new();
        let (a, b) = (v.push("entry"), v.push("exit"));
        assert_eq!((a, b), (Block::new(0), Block::new(1)));
        assert_eq!(v[b], "exit");
        v[a] = "start";
        assert_eq!(v.iter_enumerated().next(), Some((a, &"start")));
        assert_eq!(v.ids().collect::<Vec<_>>(), [a, b]);
        assert_eq!(v.len(), 2);
    }
}
