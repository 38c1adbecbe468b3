//! The tractable case of Section V: `1×n` (and, transposed, `m×1`) instances.
//!
//! * [`solve_hintless`] — the hintless algorithm of Fig. 5: fill the `i`-th cell of every
//!   region with `i`, then scan left to right; when `v_i = v_{i+1}`, answer "no solution" if
//!   the region of cell `i+1` has size 1, else swap `v_{i+1}` and `v_{i+2}`.
//! * [`solve_with_hints`] — Theorem 3 / Algorithms 3–5: `χ_k` (Algorithm 3), the sets `ρ_k` of
//!   values the last cell of region `k` may take given regions `1..k` (Algorithm 4), then the
//!   construction from region `R` back to 1 (Algorithm 5). Where Algorithm 5 says "fill
//!   `v_{k,1}` with *any* number λ ∈ χ_k \ ρ_{k-1}" (line 13), we pick a λ that leaves
//!   `ρ_k` non-empty, because `ρ_k` may already have lost the first value of region `k+1`
//!   (line 23); an arbitrary λ could empty it. Everything else is as published.
//! * [`count`] — the exact number of solutions in `O(n)` big-integer operations: a dynamic
//!   programme over regions whose state is the value of the region's last cell. Inside a
//!   region all values differ anyway, so only the boundary pairs (last of `k-1`, first of `k`)
//!   interact, and the number of fillings of a region with given first and last values is a
//!   factorial of its free cells. The count never exceeds Theorem 4's `Π_k |χ_k|!`.
//!
//! All functions take the cells of a `1×n` instance in order; [`solve`] and [`count_solutions`]
//! accept either orientation.

use crate::model::{Solution, Suguru};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use pencilbox_core::Grid;
use smallvec::SmallVec;

/// A small set of values (regions rarely exceed 8 cells, so no heap allocation).
type Set = SmallVec<[u32; 8]>;

/// True when the grid is one row or one column.
pub fn applies(p: &Suguru) -> bool {
    p.shape().height == 1 || p.shape().width == 1
}

/// One region of a line: its first cell and its size.
#[derive(Clone, Copy, Debug)]
struct Span {
    start: usize,
    size: usize,
}

fn spans(p: &Suguru) -> Vec<Span> {
    p.regions()
        .map(|cells| Span {
            start: cells.first().map_or(0, |c| c.index()),
            size: cells.len(),
        })
        .collect()
}

/// Solves a one-row or one-column instance: the hintless algorithm when there is no hint,
/// Algorithm 5 otherwise. `None` = no solution.
pub fn solve(p: &Suguru) -> Option<Solution> {
    debug_assert!(applies(p));
    let transposed;
    let line = if p.shape().height == 1 {
        p
    } else {
        transposed = p.transposed();
        &transposed
    };
    let vals = if line.num_hints() == 0 {
        solve_hintless(line)
    } else {
        solve_with_hints(line)
    }?;
    Some(Grid::from_vec(p.shape(), vals).expect("same cell count"))
}

/// The hintless `1×n` algorithm of Section V (Fig. 5). `None` = no solution.
pub fn solve_hintless(p: &Suguru) -> Option<Vec<u32>> {
    let sp = spans(p);
    let n = p.shape().cells();
    let mut v = vec![0u32; n];
    let mut size_at = vec![0usize; n];
    for s in &sp {
        for i in 0..s.size {
            v[s.start + i] = i as u32 + 1;
            size_at[s.start + i] = s.size;
        }
    }
    for i in 0..n.saturating_sub(1) {
        if v[i] == v[i + 1] {
            if size_at[i + 1] == 1 {
                return None;
            }
            v.swap(i + 1, i + 2);
        }
    }
    Some(v)
}

/// Theorem 3 / Algorithm 5 on a `1×n` instance. `None` = no solution.
pub fn solve_with_hints(p: &Suguru) -> Option<Vec<u32>> {
    let sp = spans(p);
    let mut v: Vec<u32> = p.hints().as_slice().to_vec();
    let n = v.len();
    // Algorithm 5, lines 1–5: adjacent cells sharing a number.
    if (0..n.saturating_sub(1)).any(|i| v[i] != 0 && v[i] == v[i + 1]) {
        return None;
    }
    // Algorithm 3: χ_k = {1..s_k} \ β_k.
    let mut chi: Vec<Set> = sp.iter().map(|s| free_values(&v[s.start..s.start + s.size])).collect();
    let first = |k: usize| sp[k].start;
    let last = |k: usize| sp[k].start + sp[k].size - 1;
    let empties =
        |v: &[u32], k: usize| -> SmallVec<[usize; 8]> { (first(k)..=last(k)).filter(|&i| v[i] == 0).collect() };
    // A region with two equal hints (χ too small for its empty cells) cannot be filled.
    if sp
        .iter()
        .zip(&chi)
        .any(|(s, c)| c.len() != v[s.start..s.start + s.size].iter().filter(|&&x| x == 0).count())
    {
        return None;
    }
    // Algorithm 4: ρ.
    let r = sp.len();
    let mut rho: Vec<Set> = vec![Set::new(); r];
    rho[0] = if v[last(0)] != 0 {
        Set::from_slice(&[v[last(0)]])
    } else {
        chi[0].clone()
    };
    for k in 1..r {
        if chi[k].len() == 1 {
            let e = empties(&v, k);
            if let [cell] = e[..] {
                v[cell] = chi[k][0]; // line 9
            }
        }
        let prev_single = rho[k - 1].len() == 1;
        if prev_single && v[first(k)] != 0 && rho[k - 1][0] == v[first(k)] {
            return None; // lines 11–12
        }
        if prev_single && chi[k].len() == 2 {
            // Lines 14–24: the two ways of filling the two empty cells.
            let e = empties(&v, k);
            let (a, b) = (chi[k][0], chi[k][1]);
            for (x, y) in [(a, b), (b, a)] {
                let w = |i: usize| {
                    if i == e[0] {
                        x
                    } else if i == e[1] {
                        y
                    } else {
                        v[i]
                    }
                };
                if w(first(k)) != rho[k - 1][0] {
                    let l = w(last(k));
                    if !rho[k].contains(&l) {
                        rho[k].push(l);
                    }
                }
            }
        } else if v[last(k)] != 0 {
            rho[k] = Set::from_slice(&[v[last(k)]]); // lines 26–27
        } else {
            rho[k] = chi[k].clone(); // line 29
        }
        if rho[k].is_empty() {
            return None;
        }
    }
    // Algorithm 5, lines 11–25: construct from region R down to 1.
    for k in (0..r).rev() {
        let (f, l) = (first(k), last(k));
        // χ_k minus the value placed by line 9 of Algorithm 4, if any.
        if chi[k].len() == 1 && v[f..=l].contains(&chi[k][0]) {
            chi[k].clear();
        }
        if k > 0 && v[f] == 0 && rho[k - 1].len() == 1 {
            // Line 13, choosing λ so that ρ_k keeps a value for the last cell.
            let needs_last = l != f && v[l] == 0;
            let lambda = chi[k]
                .iter()
                .copied()
                .filter(|x| !rho[k - 1].contains(x))
                .find(|x| !needs_last || rho[k].iter().any(|y| y != x && chi[k].contains(y)))?;
            v[f] = lambda;
            rho[k].retain(|y| *y != lambda); // line 14
            chi[k].retain(|y| *y != lambda); // line 15
        }
        if v[l] == 0 {
            let lambda = rho[k].iter().copied().find(|y| chi[k].contains(y))?; // line 18
            v[l] = lambda;
            chi[k].retain(|y| *y != lambda); // line 19
        }
        // Line 21: the remaining empty cells take the remaining values.
        let mut rest = chi[k].iter().copied();
        for x in &mut v[f..=l] {
            if *x == 0 {
                *x = rest.next()?;
            }
        }
        if k > 0 {
            let fv = v[f];
            rho[k - 1].retain(|y| *y != fv); // line 23
            if rho[k - 1].is_empty() {
                return None;
            }
        }
    }
    Some(v)
}

/// `{1..=s} \ hints` for a region's cells (`s` = number of cells), in increasing order.
fn free_values(cells: &[u32]) -> Set {
    let s = cells.len();
    if s <= 64 {
        let used = cells
            .iter()
            .fold(0u64, |m, &h| if h == 0 { m } else { m | 1 << (h - 1) });
        let mut free = !used & (u64::MAX >> (64 - s));
        let mut out = Set::new();
        while free != 0 {
            out.push(free.trailing_zeros() + 1);
            free &= free - 1;
        }
        out
    } else {
        (1..=s as u32).filter(|x| !cells.contains(x)).collect()
    }
}

fn factorial(n: usize) -> BigUint {
    (2..=n as u64).fold(BigUint::one(), |acc, k| acc * k)
}

/// The exact number of solutions of a one-row or one-column instance (see the module docs).
///
/// ```
/// // Fig. 5's hintless 1×6 instance, regions of sizes 1, 2, 3.
/// let p = pencilbox_suguru::parse("1 6\n0 0 0 0 0 0\n1 2 2 3 3 3\n").unwrap();
/// assert_eq!(pencilbox_suguru::linear::count_solutions(&p).to_string(), "4");
/// ```
pub fn count_solutions(p: &Suguru) -> BigUint {
    debug_assert!(applies(p));
    if p.shape().height == 1 {
        count(p)
    } else {
        count(&p.transposed())
    }
}

/// The DP of [`count_solutions`] on a `1×n` instance.
pub fn count(p: &Suguru) -> BigUint {
    let sp = spans(p);
    let h = p.hints().as_slice();
    // g[λ] = number of fillings of regions 1..k whose last cell holds λ (index λ, 0 unused).
    let mut g: Vec<BigUint> = Vec::new();
    for (k, s) in sp.iter().enumerate() {
        let cells = &h[s.start..s.start + s.size];
        let mut used = vec![false; s.size + 1];
        for &x in cells {
            if x != 0 {
                if used[x as usize] {
                    return BigUint::zero(); // two equal hints in a region
                }
                used[x as usize] = true;
            }
        }
        let chi: Vec<usize> = (1..=s.size).filter(|&x| !used[x]).collect();
        let e = chi.len();
        let total: BigUint = if k == 0 { BigUint::one() } else { g.iter().sum() };
        let prev = |x: usize| -> BigUint {
            if k == 0 {
                BigUint::zero()
            } else {
                g.get(x).cloned().unwrap_or_default()
            }
        };
        // Fillings of region k with first value ≠ μ summed over μ: (total − prev(first)).
        let avoid = |x: usize| -> BigUint { &total - prev(x) };
        let mut next = vec![BigUint::zero(); s.size + 1];
        let (hf, hl) = (cells[0] as usize, cells[s.size - 1] as usize);
        if s.size == 1 {
            let x = if hf != 0 { hf } else { 1 };
            next[x] = avoid(x);
        } else {
            match (hf != 0, hl != 0) {
                (true, true) => next[hl] = factorial(e) * avoid(hf),
                (true, false) => {
                    let w = factorial(e - 1) * avoid(hf);
                    for &l in &chi {
                        next[l] = w.clone();
                    }
                }
                (false, true) => {
                    let sum: BigUint = chi.iter().map(|&x| avoid(x)).sum();
                    next[hl] = factorial(e - 1) * sum;
                }
                (false, false) => {
                    if e >= 2 {
                        let f = factorial(e - 2);
                        let sum: BigUint = chi.iter().map(|&x| avoid(x)).sum();
                        for &l in &chi {
                            next[l] = &f * (&sum - avoid(l));
                        }
                    }
                }
            }
        }
        g = next;
    }
    g.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse;

    #[test]
    fn fig5_hintless_instance_gives_the_papers_solution() {
        let p = parse("1 6\n0 0 0 0 0 0\n1 2 2 3 3 3\n").unwrap();
        assert_eq!(solve_hintless(&p).unwrap(), vec![1, 2, 1, 2, 1, 3]);
    }

    #[test]
    fn fig6_instance_gives_the_papers_solution() {
        // Example 2: regions {1,2}, {3}, {4,5,6}; hints c_{2,1} = 1 and c_{3,2} = 2.
        let p = parse("1 6\n0 0 1 0 2 0\n1 1 2 3 3 3\n").unwrap();
        assert_eq!(solve_with_hints(&p).unwrap(), vec![1, 2, 1, 3, 2, 1]);
    }

    #[test]
    fn two_single_cell_regions_side_by_side_have_no_solution() {
        let p = parse("1 3\n0 0 0\n1 2 2\n").unwrap();
        assert!(solve_hintless(&p).is_some());
        let p = parse("1 2\n0 0\n1 2\n").unwrap();
        assert!(solve_hintless(&p).is_none());
        assert_eq!(count(&p), BigUint::zero());
    }

    #[test]
    fn columns_are_solved_by_transposing() {
        let p = parse("6 1\n0\n0\n1\n0\n2\n0\n1\n1\n2\n3\n3\n3\n").unwrap();
        let sol = solve(&p).unwrap();
        assert_eq!(sol.as_slice(), &[1, 2, 1, 3, 2, 1]);
        assert_eq!(count_solutions(&p), BigUint::one());
    }
}
