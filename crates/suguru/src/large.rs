//! `fast`'s search for grids with a region of more than 64 cells, whose values do not fit the
//! engine's [`pencilbox_core::Domain`] (`1..=64`).
//!
//! A row-major backtracking search like Algorithm 2 ([`crate::paper`]), with the two checks of
//! MUSTBACKTRACK applied *before* a value is tried instead of after: an empty cell of region `r`
//! tries, in increasing order, only the values of `1..=s_r` that no cell of `r` holds and no
//! king neighbour holds. The values already used in a region are a bitset per region (one bit
//! per value), and the next candidate is found word by word, so a node costs `O(s_r / 64)` at
//! worst and the state is linear in the grid: a single 300×300 region (90,000 values) needs a
//! few megabytes. The branches are generated lazily ([`Backtrack::successor`]), so the driver's
//! stack is one branch per filled cell.
//!
//! No propagation: this search is complete and exact (solutions and counts are those of
//! `paper`), it is what `fast` can do when the engine model does not apply, and the limits
//! (deadline, node limit) bound it like any other search.

use crate::model::{Solution, Suguru};
use pencilbox_core::grid::KING;
use pencilbox_core::search::{Backtrack, Expand};
use pencilbox_core::{CellId, Grid, Shape};

/// Row-major search with per-region value bitsets (see the module docs).
pub struct LargeSearch {
    shape: Shape,
    /// Hints and filled values, 0 = empty.
    g: Vec<u32>,
    region: Vec<u32>,
    /// Region sizes (the largest value of each region).
    size: Vec<u32>,
    /// Bit `v - 1` of region `r`'s words: value `v` is used in `r`.
    used: Vec<u64>,
    /// First word of each region in `used`.
    offset: Vec<usize>,
    /// The empty cells in row-major order.
    empty: Vec<u32>,
    /// How many of `empty` are filled (the depth).
    depth: usize,
    /// A hint appears twice in a region: no solution.
    clash: bool,
}

impl LargeSearch {
    /// The search from the hints of `p`.
    pub fn new(p: &Suguru) -> Self {
        let shape = p.shape();
        let size: Vec<u32> = p.regions().map(|r| r.len() as u32).collect();
        let mut offset = Vec::with_capacity(size.len());
        let mut words = 0;
        for &s in &size {
            offset.push(words);
            words += (s as usize).div_ceil(64);
        }
        let mut used = vec![0u64; words];
        let g = p.hints().as_slice().to_vec();
        let region = p.region_grid().as_slice().to_vec();
        let mut clash = false;
        let mut empty = Vec::new();
        for (c, &h) in g.iter().enumerate() {
            let r = region[c] as usize;
            if h == 0 {
                empty.push(c as u32);
            } else if h > size[r] {
                clash = true;
            } else {
                let (w, bit) = (offset[r] + (h as usize - 1) / 64, 1u64 << ((h - 1) % 64));
                clash |= used[w] & bit != 0;
                used[w] |= bit;
            }
        }
        LargeSearch {
            shape,
            g,
            region,
            size,
            used,
            offset,
            empty,
            depth: 0,
            clash,
        }
    }

    /// The current grid (the solution when the driver reports one).
    pub fn grid(&self) -> Solution {
        Grid::from_vec(self.shape, self.g.clone()).expect("sized")
    }

    /// The smallest value `> after` that cell `c` may take: unused in its region and held by
    /// no king neighbour.
    fn candidate(&self, c: usize, after: u32) -> Option<u32> {
        let r = self.region[c] as usize;
        let s = self.size[r];
        let words = &self.used[self.offset[r]..self.offset[r] + (s as usize).div_ceil(64)];
        let mut v = after + 1;
        while v <= s {
            // Skip used values a word at a time.
            let i = (v - 1) as usize;
            let free = !words[i / 64] >> (i % 64);
            if free == 0 {
                v += 64 - (i % 64) as u32;
                continue;
            }
            v += free.trailing_zeros();
            if v > s {
                return None;
            }
            let clashes = KING.iter().any(|&d| {
                self.shape
                    .step(CellId::from_index(c), d)
                    .is_some_and(|n| self.g[n.index()] == v)
            });
            if !clashes {
                return Some(v);
            }
            v += 1;
        }
        None
    }

    fn mark(&mut self, c: usize, v: u32) {
        let r = self.region[c] as usize;
        self.used[self.offset[r] + (v as usize - 1) / 64] ^= 1u64 << ((v - 1) % 64);
    }
}

impl Backtrack for LargeSearch {
    /// `(cell, value)`.
    type Branch = (u32, u32);

    fn expand(&mut self, out: &mut Vec<(u32, u32)>) -> Expand {
        if self.clash {
            return Expand::Dead;
        }
        let Some(&c) = self.empty.get(self.depth) else {
            return Expand::Solution;
        };
        match self.candidate(c as usize, 0) {
            Some(v) => {
                out.push((c, v));
                Expand::Branches
            }
            None => Expand::Dead,
        }
    }

    fn apply(&mut self, (c, v): (u32, u32)) -> bool {
        self.g[c as usize] = v;
        self.mark(c as usize, v);
        self.depth += 1;
        true
    }

    fn undo(&mut self, (c, v): (u32, u32)) {
        self.g[c as usize] = 0;
        self.mark(c as usize, v);
        self.depth -= 1;
    }

    fn successor(&mut self, (c, v): (u32, u32)) -> Option<(u32, u32)> {
        self.candidate(c as usize, v).map(|next| (c, next))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse;
    use crate::paper::PaperSearch;
    use pencilbox_core::search::{run, Flow, Limits};

    fn all_solutions<S: Backtrack>(s: &mut S, decode: impl Fn(&S) -> Solution) -> Vec<Solution> {
        let mut found = Vec::new();
        let r = run(s, &Limits::all(), |s| {
            found.push(decode(s));
            Flow::Continue
        });
        assert!(r.complete());
        found.sort_by(|a, b| a.as_slice().cmp(b.as_slice()));
        found
    }

    #[test]
    fn large_search_finds_exactly_the_solutions_of_algorithm_2() {
        for text in [
            "3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n",
            "2 4\n0 0 0 0\n0 0 0 0\n1 1 2 2\n1 1 2 2\n",
            "3 3\n0 0 0\n0 0 0\n0 0 0\n1 1 1\n1 2 1\n1 1 1\n",
        ] {
            let p = parse(text).unwrap();
            let want = all_solutions(&mut PaperSearch::new(&p), PaperSearch::grid);
            let got = all_solutions(&mut LargeSearch::new(&p), LargeSearch::grid);
            assert_eq!(got, want, "{text}");
        }
    }

    #[test]
    fn clashing_hints_have_no_solution() {
        let p = parse("2 2\n1 0\n0 1\n1 1\n1 1\n").unwrap();
        assert!(all_solutions(&mut LargeSearch::new(&p), LargeSearch::grid).is_empty());
    }

    #[test]
    fn a_100_value_region_is_solved_and_valid() {
        let hints = format!("{}\n", ["0"; 10].join(" ")).repeat(10);
        let labels = format!("{}\n", ["1"; 10].join(" ")).repeat(10);
        let p = parse(&format!("10 10\n{hints}{labels}")).unwrap();
        let mut s = LargeSearch::new(&p);
        let mut got = None;
        run(&mut s, &Limits::first(), |s| {
            got = Some(s.grid());
            Flow::Stop
        });
        assert!(crate::verify(&p, &got.unwrap()).is_valid());
        assert_eq!(s.depth, 0, "back at the root");
    }
}
