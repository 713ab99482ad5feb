//! Immediate dominators and the dominator tree.
//!
//! Method: Cooper, Harvey and Kennedy, "A Simple, Fast Dominance Algorithm" (2001). Blocks
//! are numbered in post-order; the idom of each block is the intersection of its
//! already-processed predecessors in the current idom forest, iterated over reverse
//! post-order until nothing changes. Reducible graphs settle in one pass; the paper confirms
//! that with a second, which is skipped here when every edge the first pass had to ignore
//! (one from later in reverse post-order) leads back to a dominator of its source, since the
//! second pass would then repeat the first's intersections exactly. Irreducible graphs take
//! the confirming pass and maybe a few more. The intersection is the same as the paper's
//! two-finger walk, but answered with depths and skew-binary jump pointers
//! (`PartialTree`), so a deep dominator tree (a ladder, a long chain of joins) costs
//! `O(log n)` per intersection rather than its depth; each node also remembers the last
//! ancestor a query found for it (inherited by its children), so a run of queries down a
//! chain towards the same depth costs `O(1)` each.
//!
//! Invariants of a [`DomTree`]:
//! - only blocks reachable from the entry are in the tree; unreachable blocks have no idom,
//!   no level, dominate nothing and are dominated by nothing;
//! - the entry has no idom and level 0; `level(b) = level(idom(b)) + 1`;
//! - children are listed in reverse post-order; `pre`/`post` are the entry and exit times of
//!   a depth-first walk of the tree, so `dominates` is two comparisons.
//!
//! What it does not do: it never mutates the graph, and it does not compute frontiers (see
//! [`crate::frontier`]). No recursion: every walk uses an explicit stack.

use crate::graph::{postorder, Graph};
use crate::ids::Block;
use crate::table::Table;

const NONE: u32 = u32::MAX;

/// The dominator tree of the reachable part of a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DomTree {
    rpo: Vec<Block>,
    rpo_index: Vec<u32>,
    idom: Vec<u32>,
    level: Vec<u32>,
    children: Table<Block>,
    pre: Vec<u32>,
    post: Vec<u32>,
}

impl DomTree {
    pub fn compute<G: Graph>(g: &G) -> DomTree {
        let n = g.num_blocks();
        let po = postorder(g);
        let mut po_num = vec![NONE; n];
        for (i, b) in po.iter().enumerate() {
            po_num[b.index()] = i as u32;
        }
        let (idom_po, _passes) = idoms_in_postorder(g, &po, &po_num);
        let mut idom = vec![NONE; n];
        for (i, &b) in po.iter().enumerate() {
            if idom_po[i] != i as u32 {
                idom[b.index()] = po[idom_po[i] as usize].as_u32();
            }
        }
        let rpo: Vec<Block> = po.into_iter().rev().collect();
        let mut rpo_index = vec![NONE; n];
        for (i, b) in rpo.iter().enumerate() {
            rpo_index[b.index()] = i as u32;
        }
        // A stable counting sort keeps each block's children in reverse post-order.
        let with_parent = rpo.iter().skip(1).map(|&b| (idom[b.index()] as usize, b));
        let children = Table::group(n, with_parent);
        let mut tree = DomTree {
            rpo,
            rpo_index,
            idom,
            level: vec![NONE; n],
            children,
            pre: vec![NONE; n],
            post: vec![NONE; n],
        };
        tree.fill_levels();
        tree.number_tree();
        tree
    }

    fn fill_levels(&mut self) {
        if let Some(&entry) = self.rpo.first() {
            self.level[entry.index()] = 0;
        }
        for &b in self.rpo.iter().skip(1) {
            let parent = self.idom[b.index()];
            self.level[b.index()] = self.level[parent as usize] + 1;
        }
    }

    fn number_tree(&mut self) {
        let Some(&entry) = self.rpo.first() else {
            return;
        };
        let mut clock = 0u32;
        let mut stack: Vec<(Block, u32)> = vec![(entry, 0)];
        self.pre[entry.index()] = clock;
        while let Some(top) = stack.last_mut() {
            let (block, next) = *top;
            if let Some(&child) = self.children(block).get(next as usize) {
                top.1 += 1;
                clock += 1;
                self.pre[child.index()] = clock;
                stack.push((child, 0));
            } else {
                clock += 1;
                self.post[block.index()] = clock;
                stack.pop();
            }
        }
    }

    /// Reachable blocks in reverse post-order; the entry first.
    pub fn rpo(&self) -> &[Block] {
        &self.rpo
    }

    /// The position of `block` in [`DomTree::rpo`], if reachable.
    pub fn rpo_index(&self, block: Block) -> Option<usize> {
        let i = self.rpo_index[block.index()];
        (i != NONE).then_some(i as usize)
    }

    pub fn is_reachable(&self, block: Block) -> bool {
        self.rpo_index[block.index()] != NONE
    }

    /// The immediate dominator; `None` for the entry and for unreachable blocks.
    pub fn idom(&self, block: Block) -> Option<Block> {
        let d = self.idom[block.index()];
        (d != NONE).then(|| Block::from_u32(d))
    }

    /// Depth in the dominator tree (entry 0); `None` for unreachable blocks.
    pub fn level(&self, block: Block) -> Option<u32> {
        let l = self.level[block.index()];
        (l != NONE).then_some(l)
    }

    /// The blocks whose idom is `block`, in reverse post-order.
    pub fn children(&self, block: Block) -> &[Block] {
        self.children.row(block.index())
    }

    /// Whether `a` dominates `b` (reflexive). False when either is unreachable.
    pub fn dominates(&self, a: Block, b: Block) -> bool {
        let (pa, pb) = (self.pre[a.index()], self.pre[b.index()]);
        pa != NONE && pb != NONE && pa <= pb && self.post[b.index()] <= self.post[a.index()]
    }

    pub fn strictly_dominates(&self, a: Block, b: Block) -> bool {
        a != b && self.dominates(a, b)
    }
}

/// Cooper-Harvey-Kennedy on post-order numbers: `result[i]` is the post-order number of the
/// idom of `po[i]`; the entry (last in post-order) is its own idom. Also returns how many
/// passes it took.
fn idoms_in_postorder<G: Graph>(g: &G, po: &[Block], po_num: &[u32]) -> (Vec<u32>, usize) {
    let n = po.len();
    if n == 0 {
        return (Vec::new(), 0);
    }
    // Predecessors in post-order numbers, unreachable ones dropped.
    let bound = po.iter().map(|&b| g.predecessors(b).len()).sum();
    let preds = Table::from_rows(n, bound, |i, row| {
        let reachable = g.predecessors(po[i]).iter().map(|p| po_num[p.index()]);
        row.extend(reachable.filter(|&p| p != NONE));
    });
    let mut tree = PartialTree::new(n);
    // Edges `(p, i)` the first pass skipped because `p` comes later in reverse post-order.
    let mut retreating = Vec::new();
    let mut passes = 0;
    loop {
        let first_pass = passes == 0;
        passes += 1;
        let mut changed = false;
        for i in (0..n as u32 - 1).rev() {
            let mut new_idom = NONE;
            for &p in preds.row(i as usize) {
                if tree.idom[p as usize] == NONE {
                    if first_pass {
                        retreating.push((p, i));
                    }
                    continue;
                }
                let settled = tree.climb_past(p, i);
                new_idom = if new_idom == NONE {
                    settled
                } else {
                    tree.lca(settled, new_idom)
                };
            }
            changed |= tree.idom[i as usize] != new_idom;
            tree.attach(i, new_idom);
        }
        // After the first pass, a graph whose every retreating edge goes back to a dominator
        // of its source (a reducible one, as every Python function is) has settled: the next
        // pass would meet the same intersections and change nothing, so it is not run.
        let confirmed = first_pass && retreating.iter().all(|&(p, i)| tree.is_ancestor(i, p));
        if !changed || confirmed {
            break;
        }
    }
    (tree.idom, passes)
}

/// The idom forest during one pass of Cooper-Harvey-Kennedy, with depths and Myers' skew
/// binary jump pointers ("Efficient applicative data types", POPL 1984) so that the
/// intersection of two fingers is an `O(log n)` nearest-common-ancestor query instead of a
/// walk, which is quadratic on ladder graphs.
///
/// Processing node `i` of a pass (in reverse post-order), every node numbered above `i` has
/// been attached in this pass and so have all its ancestors (an idom always has a higher
/// post-order number): depths and jumps are exact there. Nodes numbered `<= i` still carry
/// the previous pass's idoms; [`PartialTree::climb_past`] walks them one step at a time,
/// exactly as the plain finger walk would, until it reaches the settled part.
struct PartialTree {
    idom: Vec<u32>,
    depth: Vec<u32>,
    jump: Vec<u32>,
    /// Per settled node: `(depth, ancestor)`, an ancestor-or-self at that depth found by an
    /// earlier query, or inherited from the idom when attached. A query starts from it when
    /// it is not above the target, so successive queries from down a chain of joins towards
    /// the same depth (a ladder's) cost `O(1)` instead of `O(log n)`.
    hint: Vec<(u32, u32)>,
}

impl PartialTree {
    fn new(n: usize) -> PartialTree {
        let entry = (n - 1) as u32;
        let mut t = PartialTree {
            idom: vec![NONE; n],
            depth: vec![0; n],
            jump: vec![NONE; n],
            hint: vec![(0, entry); n],
        };
        t.idom[entry as usize] = entry;
        t.jump[entry as usize] = entry;
        t
    }

    /// Makes `parent` the idom of `node`; the jump pointer's depth depends on depth alone.
    fn attach(&mut self, node: u32, parent: u32) {
        let (nd, p) = (node as usize, parent as usize);
        self.idom[nd] = parent;
        self.depth[nd] = self.depth[p] + 1;
        let j = self.jump[p] as usize;
        let jj = self.jump[j] as usize;
        self.jump[nd] = if self.depth[p] - self.depth[j] == self.depth[j] - self.depth[jj] {
            jj as u32
        } else {
            parent
        };
        // The parent's ancestors are the node's, at the same depths.
        self.hint[nd] = self.hint[p];
    }

    /// The first ancestor-or-self of `p` numbered above `i`.
    fn climb_past(&self, mut p: u32, i: u32) -> u32 {
        while p <= i {
            p = self.idom[p as usize];
        }
        p
    }

    /// The ancestor-or-self of settled node `a` at depth `target` (at most `a`'s depth).
    fn ancestor_at(&mut self, node: u32, target: u32) -> u32 {
        let (hint_depth, hint) = self.hint[node as usize];
        let mut a = if hint_depth >= target { hint } else { node };
        while self.depth[a as usize] > target {
            let j = self.jump[a as usize];
            a = if self.depth[j as usize] >= target {
                j
            } else {
                self.idom[a as usize]
            };
        }
        self.hint[node as usize] = (target, a);
        a
    }

    /// Whether settled node `a` is an ancestor-or-self of settled node `b`.
    fn is_ancestor(&mut self, a: u32, b: u32) -> bool {
        let target = self.depth[a as usize];
        self.depth[b as usize] >= target && self.ancestor_at(b, target) == a
    }

    /// The nearest common ancestor of two settled nodes.
    fn lca(&mut self, mut a: u32, mut b: u32) -> u32 {
        if self.depth[a as usize] < self.depth[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        a = self.ancestor_at(a, self.depth[b as usize]);
        while a != b {
            let (ja, jb) = (self.jump[a as usize], self.jump[b as usize]);
            if ja != jb {
                (a, b) = (ja, jb);
            } else {
                (a, b) = (self.idom[a as usize], self.idom[b as usize]);
            }
        }
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::Cfg;

    fn passes(n: usize, edges: &[(usize, usize)]) -> usize {
        let edges: Vec<_> = edges
            .iter()
            .map(|&(a, b)| (Block::new(a), Block::new(b)))
            .collect();
        let g = Cfg::from_edges(n, Block::new(0), &edges);
        let po = postorder(&g);
        let mut po_num = vec![NONE; n];
        for (i, b) in po.iter().enumerate() {
            po_num[b.index()] = i as u32;
        }
        idoms_in_postorder(&g, &po, &po_num).1
    }

    #[test]
    fn reducible_graphs_settle_in_one_pass_and_irreducible_ones_are_confirmed() {
        // A chain, a loop with a self-loop inside, and two nested loops sharing a latch.
        assert_eq!(passes(3, &[(0, 1), (1, 2)]), 1);
        assert_eq!(passes(4, &[(0, 1), (1, 2), (2, 2), (2, 1), (1, 3)]), 1);
        let nested = [(0, 1), (1, 2), (2, 3), (3, 2), (3, 1), (1, 4)];
        assert_eq!(passes(5, &nested), 1);
        // Two ways into the cycle 1 <-> 2: the first pass cannot know it has settled.
        assert_eq!(passes(3, &[(0, 1), (0, 2), (1, 2), (2, 1)]), 2);
    }
}
