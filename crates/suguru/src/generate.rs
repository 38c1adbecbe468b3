//! A generator of Suguru puzzles with exactly one solution.
//!
//! 1. **Regions.** Cells are visited in row-major order; each unassigned cell seeds a region
//!    whose target size (1–5, mostly 4–5, like Janko's puzzles) is drawn at random, and the
//!    region grows into random orthogonally adjacent free cells. Random layouts are rarely
//!    solvable, so they are repaired: while a 2×2 window holds two complete regions (Theorem 1)
//!    or root propagation finds a conflict, the smallest region near the trouble is merged
//!    into its smallest orthogonal neighbour.
//! 2. **Solution.** The `fast` solver fills the hintless grid with values tried in a random
//!    order (a node limit makes a hopeless layout be redrawn).
//! 3. **Hints.** Starting from the full solution as hints, cells are emptied in random order,
//!    keeping an emptying only if the puzzle stays acceptable for the difficulty:
//!    * [`Difficulty::Easy`] — solved by naked and hidden singles alone, and at least 35 % of
//!      the cells keep their hint;
//!    * [`Difficulty::Medium`] — solved by propagation alone (singles, hidden singles,
//!      pointing, naked pairs: the rules of [`crate::fast`]), no guessing;
//!    * [`Difficulty::Hard`] — still has exactly one solution (counted up to 2 with `fast`), so
//!      the result is minimal: no hint can be removed.
//! 4. **Rating.** The puzzle is explained ([`crate::explain`]) and its hardest step must lie in
//!    the difficulty's band ([`Difficulty::band`]): easy up to hidden singles (levels 1–2),
//!    medium pointing, pairs or triples (3–5), hard a trial or a guess (6–7). Otherwise the
//!    layout is redrawn, `BAND_ATTEMPTS` times at most (then the last puzzle is kept: a
//!    small or narrow grid may have no hard puzzle at all).
//!
//!    Propagation is sound, so "solved by propagation" implies exactly one solution; every
//!    puzzle returned, at every difficulty, has exactly one solution.

use crate::fast::{FastSearch, Rules};
use crate::model::Suguru;
use crate::solver;
use crate::theorems::precheck;
use pencilbox_core::plugin::{GenerateRequest, Generated, GeneratorInfo};
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::search::{run, Flow, Limits, Progress};
use pencilbox_core::{Grid, PuzzleError, Shape};
use std::sync::Arc;

/// How hard a generated puzzle is (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    /// Naked and hidden singles suffice; many hints.
    Easy,
    /// Propagation suffices (no guessing).
    Medium,
    /// Minimal: every hint is needed for uniqueness.
    Hard,
}

impl Difficulty {
    /// Parses `easy`, `medium` or `hard`.
    pub fn from_name(s: &str) -> Option<Difficulty> {
        match s {
            "easy" => Some(Difficulty::Easy),
            "medium" => Some(Difficulty::Medium),
            "hard" => Some(Difficulty::Hard),
            _ => None,
        }
    }
}

/// Region target sizes, weighted towards 4 and 5.
const SIZES: [usize; 20] = [1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5];

/// A random region layout as labels (see the module docs, step 1): core's
/// [`pencilbox_core::regions::generate::random_layout`] with Suguru's region sizes (1–5,
/// weighted towards 4 and 5).
pub fn random_layout(shape: Shape, rng: &mut SplitMix64) -> Grid<u32> {
    pencilbox_core::regions::generate::random_layout(shape, rng, &SIZES)
}

/// Merges the smallest of region `k` and its orthogonal neighbours into that region's
/// smallest neighbour. `false` when there is nothing to merge (one region).
fn merge_near(labels: &mut Grid<u32>, p: &Suguru, k: usize) -> bool {
    let shape = p.shape();
    let neighbours = |k: usize| {
        let mut out: Vec<(usize, pencilbox_core::CellId)> = Vec::new();
        for &c in p.region(k) {
            for d in pencilbox_core::grid::ORTHOGONAL {
                if let Some(n) = shape.step(c, d) {
                    let j = p.region_of(n);
                    if j != k && !out.iter().any(|&(x, _)| x == j) {
                        out.push((j, n));
                    }
                }
            }
        }
        out
    };
    let mut victim = k;
    for (j, _) in neighbours(k) {
        if p.region_size(j) < p.region_size(victim) {
            victim = j;
        }
    }
    let Some(&(_, into)) = neighbours(victim).iter().min_by_key(|&&(j, _)| p.region_size(j)) else {
        return false;
    };
    let target = labels[into];
    for &c in p.region(victim) {
        labels[c] = target;
    }
    true
}

/// Merges regions until no 2×2 window holds two complete regions (Theorem 1) and root
/// propagation finds no conflict: each conflict merges the smallest region near the conflict
/// into its smallest neighbour. Returns the instance, or `None` if it gets stuck.
pub fn repair_layout(labels: &mut Grid<u32>) -> Option<Suguru> {
    let shape = labels.shape();
    for _ in 0..=shape.cells() {
        let p = Suguru::new(Grid::filled(shape, 0), &*labels).expect("no hints");
        let k = if let Some((_, crowded)) = crate::theorems::crowded_window(&p) {
            *crowded.iter().min_by_key(|&&k| p.region_size(k)).expect("two regions")
        } else {
            let mut s = FastSearch::new(&p).ok()?;
            if s.propagate_root() {
                return Some(p);
            }
            match s.conflict() {
                Some(c) => p.region_of(pencilbox_core::CellId::from_index(c)),
                None => unplaceable_region(&p, s.domains())?,
            }
        };
        if !merge_near(labels, &p, k) {
            return None;
        }
    }
    None
}

/// The first region that cannot be a permutation of its values in the domains left by a failed
/// propagation: a value with no place, or a cell that is the only place of two values (the
/// conflicts `hidden-single` finds without emptying a domain).
fn unplaceable_region(p: &Suguru, doms: &[pencilbox_core::Domain]) -> Option<usize> {
    use pencilbox_core::Domain;
    p.regions().position(|cells| {
        let (mut once, mut twice) = (Domain::EMPTY, Domain::EMPTY);
        for c in cells {
            let d = doms[c.index()];
            twice = twice.or(once.and(d));
            once = once.or(d);
        }
        let values = Domain::range(1, cells.len() as u32);
        let singles = values.minus(twice);
        !values.minus(once).is_empty() || cells.iter().any(|c| doms[c.index()].and(singles).len() > 1)
    })
}

/// A random solution of a hintless layout, or `None` if none is found within a node budget
/// (or before the deadline or cancellation of `stop`).
fn random_fill(p: &Suguru, rng: &mut SplitMix64, stop: &Limits) -> Option<Grid<u32>> {
    let mut s = FastSearch::new(p).ok()?;
    s.randomise(rng.next_u64());
    // Probing pays on puzzles with hints; on an empty layout it multiplies the cost of every
    // node of the fill (a 20×20 took seconds with it) while a random fill rarely needs it.
    s.set_probing(false);
    let mut out = None;
    let limits = Limits {
        node_limit: Some(2_000 + 5 * p.shape().cells() as u64),
        ..stop.clone().with_max_solutions(Some(1))
    };
    run(&mut s, &limits, |s| {
        out = Some(s.grid());
        Flow::Stop
    });
    out
}

/// Does propagation with `rules` alone fix every cell?
fn solved_by(p: &Suguru, rules: Rules) -> bool {
    FastSearch::with_rules(p, rules).is_ok_and(|mut s| s.propagate_root() && s.all_fixed())
}

/// Is the instance acceptable at this difficulty (given it came from a solution)? A check
/// that the deadline or cancellation of `stop` cut short says no.
fn acceptable(p: &Suguru, d: Difficulty, min_hints: usize, stop: &Limits) -> bool {
    match d {
        Difficulty::Easy => p.num_hints() >= min_hints && solved_by(p, Rules::SINGLES_AND_HIDDEN),
        Difficulty::Medium => solved_by(p, Rules::ALL),
        Difficulty::Hard => {
            let limits = Limits {
                node_limit: Some(200_000),
                ..stop.clone()
            };
            solver::is_unique(p, &limits)
        }
    }
}

/// Generates a `height × width` puzzle with exactly one solution (see the module docs).
/// Deterministic for a given seed. Sizes must be at least 1.
///
/// ```
/// use pencilbox_suguru::{generate, Difficulty};
/// let p = generate(6, 6, Difficulty::Medium, 1);
/// assert_eq!((p.shape().height, p.shape().width), (6, 6));
/// assert!(pencilbox_suguru::solver::is_unique(&p, &Default::default()));
/// ```
pub fn generate(height: usize, width: usize, difficulty: Difficulty, seed: u64) -> Suguru {
    generate_counting(height, width, difficulty, seed, None)
}

/// [`generate`], adding the nodes and solutions of its searches to `progress` (the command
/// line's progress line); the same puzzle for the same seed.
pub fn generate_counting(
    height: usize,
    width: usize,
    difficulty: Difficulty,
    seed: u64,
    progress: Option<&Arc<Progress>>,
) -> Suguru {
    let limits = Limits {
        progress: progress.cloned(),
        ..Limits::default()
    };
    match generate_limited(height, width, difficulty, seed, &limits) {
        Some(p) => p,
        // Without a deadline or a cancellation flag the loop runs until it has a puzzle.
        None => unreachable!("an unlimited generator always makes a puzzle"),
    }
}

/// [`generate`] under the deadline and cancellation flag of `limits` (read before each layout,
/// each hint's check and inside the checks and the rating), adding the nodes of its searches
/// to their progress counters; `None` when they stopped it before it made a puzzle.
pub fn generate_limited(
    height: usize,
    width: usize,
    difficulty: Difficulty,
    seed: u64,
    limits: &Limits,
) -> Option<Suguru> {
    let stop = limits.clone().with_max_solutions(None);
    let shape = Shape::new(height.max(1), width.max(1));
    let mut rng = SplitMix64::new(seed ^ 0x5EED_5EED_0000_0001);
    let mut attempts = 0;
    loop {
        if stop.interrupted().is_some() {
            return None;
        }
        let mut labels = random_layout(shape, &mut rng);
        let Some(empty) = repair_layout(&mut labels) else {
            continue;
        };
        if precheck(&empty).is_some() {
            continue;
        }
        let Some(solution) = random_fill(&empty, &mut rng, &stop) else {
            continue;
        };
        let mut hints = solution.clone();
        let mut order: Vec<usize> = (0..shape.cells()).collect();
        rng.shuffle_mod(&mut order);
        let min_hints = shape.cells() * 35 / 100;
        for i in order {
            if stop.interrupted().is_some() {
                return None;
            }
            let keep = hints.as_slice()[i];
            hints.as_mut_slice()[i] = 0;
            let candidate = empty.with_hints(hints.clone()).expect("hints come from a solution");
            if !acceptable(&candidate, difficulty, min_hints, &stop) {
                hints.as_mut_slice()[i] = keep;
            }
        }
        let p = empty.with_hints(hints).expect("hints come from a solution");
        // The rating decides: a puzzle whose hardest step is outside the difficulty's band is
        // redrawn, a few times at most (the last one is kept).
        attempts += 1;
        let level = hardest_level(&p, &stop);
        if stop.interrupted().is_some() {
            return None;
        }
        if attempts < BAND_ATTEMPTS && !difficulty.band().contains(&level) {
            continue;
        }
        return Some(p);
    }
}

/// How many layouts are tried for a puzzle whose rating falls in the difficulty's band before
/// the last one is accepted anyway.
const BAND_ATTEMPTS: u32 = 4;

/// The level of the hardest step of the puzzle's explanation (0: nothing to do), on the scale
/// of [`crate::explain`]: 1–2 singles, 3–5 pointing, pairs and triples, 6 trial, 7 guess.
fn hardest_level(p: &Suguru, limits: &Limits) -> u8 {
    let opts = pencilbox_core::human::ExplainOptions {
        limits: limits.clone(),
        ..pencilbox_core::human::ExplainOptions::default()
    };
    crate::explain::explain(p, &opts)
        .ok()
        .and_then(|x| x.rating.hardest.map(|h| h.level))
        .unwrap_or(u8::MAX)
}

impl Difficulty {
    /// The levels of the hardest step ([`crate::explain`]'s scale) a puzzle of this difficulty
    /// should need: easy up to hidden singles, medium pointing to triples, hard a trial or more.
    pub fn band(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Difficulty::Easy => 0..=2,
            Difficulty::Medium => 3..=5,
            Difficulty::Hard => 6..=u8::MAX,
        }
    }
}

/// What the generator offers through the plug-in (`pencilbox generate suguru`, the
/// playground): three difficulties (see [`Difficulty`]), grids up to 900 cells (30×30).
///
/// Larger grids are refused: a random layout has a solution less and less often as it grows
/// (the fill fails on about 24 layouts per success at 30×30, 266 at 35×35 and over 600 at
/// 40×40, and larger node budgets do not change that), so generation time grows
/// exponentially: at most about 10 s at 30×30 (seeds 1–6, every difficulty), 9–10 s at
/// 35×35, over 100 s at 40×40.
pub const GENERATOR: GeneratorInfo = GeneratorInfo {
    difficulties: &["medium", "easy", "hard"],
    settings: &[],
    max_cells: 900,
    default_size: (8, 8),
};

/// [`generate`] behind the plug-in's generator capability: the puzzle as text, JSON and a
/// puzz.link URL, and its solution.
pub fn generated(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
    let name = req.difficulty.as_deref().unwrap_or(GENERATOR.difficulties[0]);
    let difficulty =
        Difficulty::from_name(name).ok_or_else(|| PuzzleError::unsupported(format!("unknown difficulty `{name}`")))?;
    let p = generate_limited(req.height, req.width, difficulty, req.seed, &req.limits)
        .ok_or_else(|| pencilbox_core::generate::stopped(&req.limits))?;
    let answer = solver::solve(&p, None, &req.limits)?
        .solution
        .map(|s| format!("{}\n", s.to_text()))
        .ok_or_else(|| pencilbox_core::generate::stopped(&req.limits))?;
    Ok(Generated {
        text: p.to_text(),
        json: p.to_json(),
        url: Some(crate::puzzlink::to_url(&p)),
        answer,
        seed: req.seed,
        unique: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;

    #[test]
    fn generated_puzzles_are_unique_at_every_difficulty_and_deterministic() {
        for (i, d) in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard]
            .into_iter()
            .enumerate()
        {
            let p = generate(7, 6, d, 40 + i as u64);
            assert!(solver::is_unique(&p, &Limits::default()), "{d:?}\n{p}");
            assert_eq!(p, generate(7, 6, d, 40 + i as u64));
            let r = solver::solve(&p, None, &Limits::default()).unwrap();
            assert!(verify(&p, r.solution.as_ref().unwrap()).is_valid());
        }
    }

    #[test]
    fn counting_progress_records_the_searches_and_gives_the_same_puzzle() {
        let progress = Arc::new(Progress::default());
        let p = generate_counting(10, 10, Difficulty::Hard, 4, Some(&progress));
        assert_eq!(p, generate(10, 10, Difficulty::Hard, 4));
        // A fill, then a uniqueness search per cell (each with at least its root node).
        assert!(progress.nodes() >= 100 && progress.solutions() > 0, "{progress:?}");
    }

    #[test]
    fn harder_puzzles_have_fewer_hints() {
        let easy = generate(8, 8, Difficulty::Easy, 3).num_hints();
        let hard = generate(8, 8, Difficulty::Hard, 3).num_hints();
        assert!(hard < easy, "hard {hard} vs easy {easy}");
    }

    #[test]
    fn layouts_have_regions_of_at_most_five_cells() {
        let mut rng = SplitMix64::new(9);
        let l = random_layout(Shape::new(10, 10), &mut rng);
        let p = Suguru::new(Grid::filled(l.shape(), 0), &l).unwrap();
        assert!(p.max_region_size() <= 5);
    }

    #[test]
    fn tiny_and_one_row_grids_are_generated() {
        assert_eq!(generate(1, 1, Difficulty::Hard, 0).num_hints(), 0);
        let p = generate(1, 7, Difficulty::Medium, 5);
        assert!(solver::is_unique(&p, &Limits::default()));
    }
}
