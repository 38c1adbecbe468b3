//! The search: a Sudoku [`Model`] on the shared engine searched by core's driver
//! ([`EngineSearch`]), with a Sudoku branching rule ([`UnitBrancher`]).
//!
//! At every node the engine propagates naked and hidden singles (core's
//! [`Distinct`](pencilbox_core::constraints::Distinct) permutation rules) to a fixpoint; the
//! brancher picks a cell with the fewest candidates, or a digit of a unit with even fewer
//! places (the digit must take one of them). This is both the `backtrack` algorithm and the
//! fallback that finishes `deduce` after the rules stall (then on the deducer's engine, with
//! Nishio switched off).
//!
//! # Restarts (first-solution searches)
//! Plain depth-first search has heavy-tailed run times on large grids with many solutions.
//! When one solution is wanted, [`search`] uses the engine's [`solve_restarting`]: runs with
//! node budgets from the Luby sequence times [`RESTART_BASE`], run `i` breaking ties between
//! equally narrow branching points and ordering branches by a hash of `i` (run 1 is the plain
//! deterministic order). Counting searches run once, without restarts. The deadline and
//! cancellation flag are polled by the engine inside propagation ([`Engine::set_limits`]).

use crate::board::Candidates;
use crate::geometry::Geometry;
use crate::model::{values, Model};
use crate::solver::RuleSet;
use pencilbox_core::engine::{solve_restarting, Brancher, Decision, Engine, EngineSearch, VarId};
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::search::{count_keeping, Limits, SearchResult, Stats};
use std::sync::Arc;

/// Nodes of the first run of a restarting search; run `i` gets `luby(i)` times this.
pub const RESTART_BASE: u64 = 512;

fn mix(x: u64) -> u64 {
    SplitMix64::new(x).next_u64()
}

/// Sudoku's branching rule: the cell with the fewest candidates per unit of failure weight
/// (dom/wdeg on the engine's weights; ties broken by position or a hash of the seed), unless
/// some unit has a digit with fewer places (two or three) than that cell has candidates; then
/// one branch per place of that digit. Both partition the node: a cell takes
/// one of its values, a digit takes one place of each unit.
#[derive(Clone, Debug)]
pub struct UnitBrancher {
    geo: Arc<Geometry>,
    seed: u64,
}

impl UnitBrancher {
    /// For a grid geometry, deterministic.
    pub fn new(geo: Arc<Geometry>) -> Self {
        UnitBrancher { geo, seed: 0 }
    }

    /// With a seed, starts the branch list at a hashed position.
    fn rotate(&self, branches: &mut [Decision], depth: usize) {
        if self.seed != 0 && branches.len() > 1 {
            let d = branches[0];
            let h = mix(self.seed ^ ((depth as u64) << 32) ^ ((d.var.0 as u64) << 8) ^ d.dom.0);
            branches.rotate_left((h % branches.len() as u64) as usize);
        }
    }
}

impl Brancher for UnitBrancher {
    fn branch(&mut self, engine: &Engine, out: &mut Vec<Decision>) {
        let seed = self.seed;
        let grid = engine.domains();
        let start = out.len();
        // dom/wdeg: the cell with the fewest candidates per unit of failure weight (the
        // engine's count of conflicts at the cell), ties broken by position or a seeded hash.
        let (mut best, mut bk, mut bw, mut bh) = (None, u32::MAX, 1u64, u64::MAX);
        for (i, d) in grid.iter().enumerate() {
            let k = d.len();
            if k < 2 {
                continue;
            }
            let w = engine.weight(VarId::from_index(i)) as u64;
            let (lhs, rhs) = (k as u64 * bw, (bk as u64).saturating_mul(w));
            if lhs < rhs || (lhs == rhs && seed != 0 && mix(seed ^ i as u64) < bh) {
                (best, bk, bw) = (Some(i), k, w);
                bh = if seed == 0 { 0 } else { mix(seed ^ i as u64) };
            }
        }
        let Some(i) = best else {
            return;
        };
        let depth = engine.level();
        if bk > 2 {
            // Per unit, saturating bit counters over the open cells (`a[j]`: the digits with at
            // least `j + 1` places); a digit with exactly 2 or 3 places (fewer than the cell's
            // `bk` candidates) is a narrower branching point than the cell.
            let mut narrow: Option<(u32, u64, usize, u32)> = None;
            for (u, unit) in self.geo.units().iter().enumerate() {
                let (mut a1, mut a2, mut a3, mut a4, mut fixed) = (0u64, 0u64, 0u64, 0u64, 0u64);
                for &c in unit {
                    let d = grid[c as usize].0;
                    if d & d.wrapping_sub(1) == 0 {
                        fixed |= d;
                        continue;
                    }
                    a4 |= a3 & d;
                    a3 |= a2 & d;
                    a2 |= a1 & d;
                    a1 |= d;
                }
                for (p, exact) in [(2u32, a2 & !a3), (3, a3 & !a4)] {
                    let limit = narrow.map_or(bk, |(q, _, _, _)| q);
                    if p > limit || (p == limit && seed == 0) {
                        break;
                    }
                    let mut exact = exact & !fixed;
                    while exact != 0 {
                        let v = exact.trailing_zeros() + 1;
                        exact &= exact - 1;
                        if seed == 0 {
                            narrow = Some((p, 0, u, v));
                            break;
                        }
                        let h = mix(seed ^ ((u as u64) << 8) ^ v as u64);
                        if narrow.is_none_or(|(q, bh, _, _)| p < q || h < bh) {
                            narrow = Some((p, h, u, v));
                        }
                    }
                }
            }
            if let Some((_, _, u, v)) = narrow {
                out.extend(
                    self.geo
                        .unit(u)
                        .iter()
                        .filter(|&&c| grid[c as usize].contains(v))
                        .map(|&c| Decision::assign(VarId(c as u32), v)),
                );
                self.rotate(&mut out[start..], depth);
                return;
            }
        }
        let var = VarId::from_index(i);
        out.extend(grid[i].iter().map(|v| Decision::assign(var, v)));
        self.rotate(&mut out[start..], depth);
    }
    fn reseed(&mut self, seed: u64) {
        self.seed = seed;
    }
}

/// The search of an engine holding a Sudoku model (variable `i` = cell `i`).
pub fn engine_search(engine: Engine, geo: Arc<Geometry>) -> EngineSearch<UnitBrancher> {
    EngineSearch::new(engine, UnitBrancher::new(geo))
}

/// Runs a search, returning up to `limits.max_solutions` solutions (values row-major, at most
/// `keep` of them stored) and the driver's result. A first-solution search
/// (`limits.max_solutions == Some(1)`) restarts (see the module docs); others are one run.
pub fn run_search(s: &mut EngineSearch<UnitBrancher>, limits: &Limits, keep: usize) -> (Vec<Vec<u8>>, SearchResult) {
    s.engine.set_limits(limits);
    if let Some(why) = limits.interrupted() {
        let r = SearchResult {
            solutions: 0,
            stop: why,
            stats: Stats::default(),
        };
        return (vec![], r);
    }
    if limits.max_solutions == Some(1) {
        let mut sols = Vec::new();
        let r = solve_restarting(s, limits, RESTART_BASE, |s| {
            if sols.len() < keep {
                sols.push(values(&s.engine));
            }
        });
        return (sols, r);
    }
    let (r, sols) = count_keeping(s, limits, keep, |s| values(&s.engine));
    (sols, r)
}

/// Searches from `cand` with singles propagation, returning up to `limits.max_solutions`
/// solutions (at most `keep` stored) and the driver's result.
pub fn search(cand: &Candidates, limits: &Limits, keep: usize) -> (Vec<Vec<u8>>, Option<SearchResult>) {
    let m = Model::new(cand, RuleSet::SINGLES, limits);
    let mut s = engine_search(m.engine, m.geo);
    let (sols, r) = run_search(&mut s, limits, keep);
    (sols, Some(r))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::board::{BlockShape, Sudoku};
    use pencilbox_core::testing::brute_force;
    use pencilbox_core::Domain;

    /// The solutions of a puzzle (at most `limit`) by core's brute-force oracle (no
    /// propagation shared).
    pub(crate) fn brute(p: &Sudoku, limit: Option<usize>) -> Vec<Vec<u32>> {
        let geo = Geometry::get(p.block());
        let n = p.n() as u32;
        let doms: Vec<Domain> = p
            .givens()
            .iter()
            .map(|&g| {
                if g == 0 {
                    Domain::range(1, n)
                } else {
                    Domain::single(g as u32)
                }
            })
            .collect();
        brute_force(
            &doms,
            |v, i| geo.peers(i).iter().any(|&j| (j as usize) < i && v[j as usize] == v[i]),
            limit,
        )
    }

    /// Givens copied from a random grid (`pct` percent of the cells), one in six replaced by a
    /// random value (so some instances have no solution).
    pub(crate) fn random_puzzle(block: BlockShape, rng: &mut crate::generate::Rng, pct: usize) -> Sudoku {
        let n = block.n();
        let base = crate::generate::pattern_solution(block, rng);
        let mut g = vec![0u8; n * n];
        for (i, v) in g.iter_mut().enumerate() {
            if rng.below(100) < pct {
                *v = if rng.below(6) == 0 {
                    1 + rng.below(n) as u8
                } else {
                    base[i]
                };
            }
        }
        Sudoku::new(block, g).unwrap()
    }

    #[test]
    fn an_empty_four_by_four_has_288_solutions() {
        let p = Sudoku::parse(&".".repeat(16), None).unwrap();
        let c = Candidates::from_puzzle(&p).unwrap();
        let (_, r) = search(&c, &Limits::all(), 0);
        assert_eq!(r.unwrap().solutions, 288);
    }

    #[test]
    fn counts_and_first_solutions_agree_with_brute_force_on_random_small_givens() {
        let mut rng = crate::generate::Rng::new(99);
        for k in 0..160 {
            let (block, pct) = if k % 2 == 0 {
                (BlockShape::new(2, 2), 30)
            } else {
                (BlockShape::new(2, 3), 55)
            };
            let p = random_puzzle(block, &mut rng, pct);
            let all = brute(&p, Some(100_000));
            let Ok(c) = Candidates::from_puzzle(&p) else {
                assert!(all.is_empty(), "{}", p.to_line());
                continue;
            };
            let (_, r) = search(&c, &Limits::all(), 0);
            assert_eq!(r.unwrap().solutions, all.len() as u64, "{}", p.to_line());
            let (sols, r) = search(&c, &Limits::first(), 1);
            assert_eq!(r.unwrap().solutions == 1, !all.is_empty(), "{}", p.to_line());
            if let Some(s) = sols.first() {
                assert!(crate::solver::check_solution(&p, s).is_empty());
            }
        }
    }

    #[test]
    fn restarting_with_tiny_budgets_stays_complete() {
        let mut rng = crate::generate::Rng::new(7);
        for _ in 0..100 {
            let p = random_puzzle(BlockShape::new(2, 3), &mut rng, 25);
            let any = !brute(&p, Some(1)).is_empty();
            let Ok(c) = Candidates::from_puzzle(&p) else {
                assert!(!any);
                continue;
            };
            let m = Model::new(&c, RuleSet::SINGLES, &Limits::default());
            let mut s = engine_search(m.engine, m.geo);
            // A budget of one node per Luby unit forces many restarts.
            let mut found = Vec::new();
            let r = solve_restarting(&mut s, &Limits::first(), 1, |s| found = values(&s.engine));
            assert_eq!(r.solutions == 1, any, "{}", p.to_line());
            if any {
                assert!(crate::solver::check_solution(&p, &found).is_empty());
            }
        }
    }

    #[test]
    fn the_figure_four_puzzle_has_exactly_one_solution() {
        let p = Sudoku::parse(
            "3.9....74..5...9.2....49...6....3.2....2.5....3.1....7...78....8.3...7..91....5.8",
            None,
        )
        .unwrap();
        let c = Candidates::from_puzzle(&p).unwrap();
        let (sols, r) = search(&c, &Limits::all(), 2);
        assert_eq!(r.unwrap().solutions, 1);
        assert!(crate::solver::check_solution(&p, &sols[0]).is_empty());
    }
}
