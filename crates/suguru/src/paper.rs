//! The paper's reference solver: **Algorithm 2** (SEARCH) with **Algorithm 1** (MUSTBACKTRACK),
//! exactly as published (Section IV), as a [`Backtrack`] state for the core driver.
//!
//! * Cells are filled in row-major order; NEXTCELL skips hint cells (lines 3–5).
//! * `χ_r` is the set of values `1..=s_r` that no hint of region `r` uses (Section IV); an empty
//!   cell of region `r` tries the values of `χ_r` in increasing order (line 7).
//! * Filling `β` sets `G_{i,j} = β` and increments `CV_{r,β}` (lines 8–9); MUSTBACKTRACK then
//!   rejects the branch when a king neighbour holds `β` (condition A) or `CV_{r,β} > 1`
//!   (condition B). Undoing resets the cell to 0 and decrements `CV_{r,β}` (lines 14–15).
//! * When the row-major pointer passes the last cell, `G` is a solution (lines 18–20).
//!
//! No propagation, no ordering heuristic: this is the baseline the other algorithms are
//! measured against. One driver node is one call of SEARCH on an empty cell (hint cells are
//! stepped over inside the node, as lines 3–5 do without branching).

use crate::model::{Solution, Suguru};
use pencilbox_core::grid::KING;
use pencilbox_core::search::{Backtrack, Expand};
use pencilbox_core::{CellId, Grid, Shape};

/// The state of Algorithm 2: the grid `G`, the counters `CV` and the sets `χ`.
pub struct PaperSearch {
    shape: Shape,
    /// `G`: hints and filled values, 0 = empty.
    g: Vec<u32>,
    /// Hint cells (never changed).
    is_hint: Vec<bool>,
    region: Vec<u32>,
    /// `CV_{r,β}` at `cv[offset[r] + β - 1]`.
    cv: Vec<u32>,
    offset: Vec<usize>,
    /// `χ_r`, increasing.
    chi: Vec<Vec<u32>>,
    /// The cells filled so far, in order (the recursion stack of SEARCH).
    filled: Vec<u32>,
    /// A χ_r of at most this many values is pushed whole at line 7; a longer one lazily.
    eager_max: usize,
}

/// Marks a branch `(cell, LAZY | i)` that names `χ_r[i]` by its index (a lazy branch, see
/// [`PaperSearch::expand`]); an unmarked branch `(cell, β)` names its value.
const LAZY: u32 = 1 << 31;

/// χ sets up to this size are pushed whole: no call back per branch, and memory stays linear
/// (at most this many branches per level).
const EAGER_MAX: usize = 32;

impl PaperSearch {
    /// The value a branch names (see [`LAZY`]).
    #[inline]
    fn beta(&self, r: usize, x: u32) -> u32 {
        if x & LAZY == 0 {
            x
        } else {
            self.chi[r][(x & !LAZY) as usize]
        }
    }

    /// Sets up `S`, `CV` (from the hints) and `χ` as Section IV describes.
    pub fn new(p: &Suguru) -> Self {
        let shape = p.shape();
        let sizes: Vec<usize> = p.regions().map(<[_]>::len).collect();
        let mut offset = Vec::with_capacity(sizes.len());
        let mut total = 0;
        for &s in &sizes {
            offset.push(total);
            total += s;
        }
        let mut cv = vec![0u32; total];
        for c in shape.all() {
            let h = p.hint(c) as usize;
            if h != 0 {
                cv[offset[p.region_of(c)] + h - 1] += 1;
            }
        }
        let chi = (0..sizes.len())
            .map(|r| {
                (1..=sizes[r] as u32)
                    .filter(|&b| cv[offset[r] + b as usize - 1] == 0)
                    .collect()
            })
            .collect();
        PaperSearch {
            shape,
            g: p.hints().as_slice().to_vec(),
            is_hint: p.hints().as_slice().iter().map(|&h| h != 0).collect(),
            region: p.region_grid().as_slice().to_vec(),
            cv,
            offset,
            chi,
            eager_max: EAGER_MAX,
            filled: Vec::new(),
        }
    }

    /// Algorithm 1: must we backtrack after filling `c`?
    fn must_backtrack(&self, c: usize) -> bool {
        let h = self.g[c];
        let r = self.region[c] as usize;
        let mut condition_a = false;
        for d in KING {
            if let Some(n) = self.shape.step(CellId::from_index(c), d) {
                condition_a = condition_a || h == self.g[n.index()];
            }
        }
        let condition_b = self.cv[self.offset[r] + h as usize - 1] > 1;
        condition_a || condition_b
    }

    /// The current grid `G` (the solution when the driver reports one).
    pub fn grid(&self) -> Solution {
        Grid::from_vec(self.shape, self.g.clone()).expect("sized")
    }
}

impl Backtrack for PaperSearch {
    /// `(cell, β)`, or `(cell, LAZY | i)` for `β = χ_r[i]` of a lazily pushed χ_r.
    type Branch = (u32, u32);

    fn expand(&mut self, out: &mut Vec<(u32, u32)>) -> Expand {
        // NEXTCELL from the last filled cell, stepping over hint cells (lines 3–5).
        let mut c = self.filled.last().map_or(0, |&c| c as usize + 1);
        while c < self.g.len() && self.is_hint[c] {
            c += 1;
        }
        if c == self.g.len() {
            return Expand::Solution; // lines 18–20
        }
        let r = self.region[c] as usize;
        if self.chi[r].is_empty() {
            return Expand::Dead;
        }
        // Line 7 tries every β of χ_r in turn. A small χ_r is pushed whole; a big one (a region
        // of many cells) one branch at a time: the driver asks [`Backtrack::successor`] for the
        // next, so memory stays linear in the grid (pushing all of χ_r at every level would hold
        // |χ_r|² branches on a big region). Either way the order, and the tree, are the same.
        let chi = &self.chi[r];
        if chi.len() <= self.eager_max {
            out.extend(chi.iter().map(|&b| (c as u32, b))); // line 7
        } else {
            out.push((c as u32, LAZY)); // line 7, lazily
        }
        Expand::Branches
    }

    fn successor(&mut self, (c, x): (u32, u32)) -> Option<(u32, u32)> {
        // The next β of a lazy χ_r (increasing).
        if x & LAZY == 0 {
            return None;
        }
        let i = x & !LAZY;
        let chi = &self.chi[self.region[c as usize] as usize];
        (i as usize + 1 < chi.len()).then_some((c, LAZY | (i + 1)))
    }

    fn apply(&mut self, (c, x): (u32, u32)) -> bool {
        let c = c as usize;
        let r = self.region[c] as usize;
        let b = self.beta(r, x);
        self.g[c] = b; // line 8
        self.cv[self.offset[r] + b as usize - 1] += 1; // line 9
        self.filled.push(c as u32);
        !self.must_backtrack(c) // line 10
    }

    fn undo(&mut self, (c, x): (u32, u32)) {
        let c = c as usize;
        let r = self.region[c] as usize;
        let b = self.beta(r, x);
        self.g[c] = 0; // line 14
        self.cv[self.offset[r] + b as usize - 1] -= 1; // line 15
        self.filled.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{parse, parse_answer};
    use pencilbox_core::search::{run, Flow, Limits};

    #[test]
    fn lazy_branches_keep_algorithm_2s_tree_node_for_node() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/suguru/");
        for (file, limits) in [
            ("paper-fig1-3x3.in", Limits::all()),
            ("example-6x6.in", Limits::all()),
            ("example-10x10.in", Limits::count_up_to(2)),
        ] {
            let p = parse(&std::fs::read_to_string(format!("{root}{file}")).unwrap()).unwrap();
            // Every χ_r lazily, and every χ_r pushed whole.
            let mut all_lazy = PaperSearch::new(&p);
            all_lazy.eager_max = 0;
            let mut all_eager = PaperSearch::new(&p);
            all_eager.eager_max = usize::MAX;
            let lazy = run(&mut all_lazy, &limits, |_| Flow::Continue);
            let eager = run(&mut all_eager, &limits, |_| Flow::Continue);
            assert_eq!(
                (
                    lazy.solutions,
                    lazy.stats.nodes,
                    lazy.stats.failures,
                    lazy.stats.max_depth
                ),
                (
                    eager.solutions,
                    eager.stats.nodes,
                    eager.stats.failures,
                    eager.stats.max_depth
                ),
                "{file}"
            );
        }
    }

    #[test]
    fn algorithm_2_finds_the_papers_fig1b_among_the_solutions_of_fig1() {
        let p = parse("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
        let mut s = PaperSearch::new(&p);
        let mut found = Vec::new();
        let r = run(&mut s, &Limits::all(), |s| {
            found.push(s.grid());
            Flow::Continue
        });
        assert_eq!(r.solutions as usize, found.len());
        assert!(found.iter().all(|g| crate::verify(&p, g).is_valid()));
        // Fig. 1b is "an example of a solution": Fig. 1a has four (brute force agrees, see tests/).
        assert_eq!(found.len(), 4);
        assert!(found.contains(&parse_answer("1 4 1\n2 5 2\n3 1 3", p.shape()).unwrap()));
        // Back at the root after the run.
        assert_eq!(s.g, p.hints().as_slice());
    }
}
