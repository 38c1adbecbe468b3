//! Random Path puzzles with a planted answer, optionally unique.
//!
//! 1. Choose door A on the edge and grow a random self-avoiding path from it by randomised
//!    depth-first search (with a node budget) until it stops on another edge cell — door B —
//!    after at least a target number of cells (40–80 % of the grid on the first attempt).
//! 2. Read the clues off the path (complete information).
//! 3. Without `unique`, keep each clue with probability `percent`. With `unique`, discard paths
//!    whose complete clues admit a second solution (counted by the `fast` solver up to 2), then
//!    remove clues in random order as long as the puzzle stays unique, down to `percent`.
//!
//! # Why the target length shrinks
//! Row and column counts rarely pin down a long random path: with all clues, none of about 150
//! random paths covering 30–40 % of a 15×15 grid was unique, while 46 of 100 covering 8 % were
//! (`examples/generate_bench.rs rates` prints such rates). So with `unique`, every
//! rejected path makes the next target 20 % shorter (never below `height + width` cells, or
//! the first target when that is smaller): small grids keep their long paths, and 15×15 or
//! 20×20 find a unique path within a few attempts instead of minutes. Each check has a small
//! node budget ([`PATH_CHECK_NODES`], [`CLUE_CHECK_NODES`]): unique complete-clue puzzles are
//! settled in a few hundred nodes, so a path the budget cannot settle is simply rejected, and
//! a clue whose removal cannot be settled is kept. Only puzzles proved unique (an exhausted
//! count) are returned.
//!
//! The generator is deterministic for a seed on every platform: it uses its own SplitMix64
//! stream rather than a library RNG whose algorithm may change between versions.
//!
//! ```
//! use pencilbox_pathpuzzle::{generate, ClueDensity, solve::is_unique};
//! let p = generate(5, 5, ClueDensity::Percent(60), true, 7).unwrap();
//! assert_eq!(is_unique(&p, &Default::default()), Some(true));
//! assert_eq!(p, generate(5, 5, ClueDensity::Percent(60), true, 7).unwrap());
//! ```

use crate::model::{InvalidInstance, PathPuzzle};
use crate::solve::{count, Algorithm};
use pencilbox_core::human;
use pencilbox_core::plugin::{GenerateRequest, Generated, SettingInfo};
use pencilbox_core::search::StopReason;
use pencilbox_core::{CellId, Limits, Neighbours, PuzzleError, Shape};

/// How many clues a generated puzzle keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClueDensity {
    /// Every row and column has its clue.
    Complete,
    /// About this percentage (0–100) of the `m + n` clues are kept.
    Percent(u8),
}

/// The generator's random stream (core's SplitMix64, re-exported for callers that pass their own).
pub use pencilbox_core::rng::SplitMix64;

/// The largest grid the generator accepts (uniqueness checks grow exponentially).
pub const MAX_GENERATED_CELLS: usize = 400;

/// A random self-avoiding path between two distinct edge cells, at least `min_len` cells
/// long, or `None` if the node budget ran out.
pub fn random_path(shape: Shape, min_len: usize, rng: &mut SplitMix64) -> Option<Vec<CellId>> {
    let nb = Neighbours::new(shape);
    let edge: Vec<CellId> = shape.all().filter(|&c| shape.on_edge(c)).collect();
    if shape.cells() < 2 {
        return None;
    }
    let start = edge[rng.below(edge.len())];
    let mut on = vec![false; shape.cells()];
    let mut path = vec![start];
    on[start.index()] = true;
    // Each stack entry holds the untried neighbours of the corresponding path cell.
    let mut options: Vec<Vec<CellId>> = vec![shuffled(&nb, start, rng)];
    let mut budget = 40 * shape.cells() + 1000;
    while let Some(top) = options.last_mut() {
        let head = *path.last()?;
        if path.len() >= min_len && head != start && shape.on_edge(head) {
            return Some(path);
        }
        budget = budget.checked_sub(1)?;
        match top.pop() {
            Some(n) if !on[n.index()] => {
                on[n.index()] = true;
                path.push(n);
                let next = shuffled(&nb, n, rng);
                options.push(next);
            }
            Some(_) => {}
            None => {
                options.pop();
                if let Some(c) = path.pop() {
                    on[c.index()] = false;
                }
            }
        }
    }
    None
}

fn shuffled(nb: &Neighbours, c: CellId, rng: &mut SplitMix64) -> Vec<CellId> {
    let mut v = nb.orth(c).to_vec();
    rng.shuffle(&mut v);
    v
}

/// The puzzle whose doors are the ends of `path` and whose clues are all read off it.
pub fn puzzle_from_path(shape: Shape, path: &[CellId]) -> Result<PathPuzzle, InvalidInstance> {
    let (Some(&a), Some(&b)) = (path.first(), path.last()) else {
        return Err(InvalidInstance("an empty path has no doors".into()));
    };
    let mut rows = vec![0u32; shape.height];
    let mut cols = vec![0u32; shape.width];
    for &c in path {
        let (r, col) = shape.coords(c);
        rows[r] += 1;
        cols[col] += 1;
    }
    PathPuzzle::new(
        shape.height,
        shape.width,
        shape.coords(a),
        shape.coords(b),
        rows.into_iter().map(Some).collect(),
        cols.into_iter().map(Some).collect(),
    )
}

/// Node budget for the uniqueness check of a path's complete clues (see the module docs).
pub const PATH_CHECK_NODES: u64 = 2_000;

/// Node budget for the uniqueness check after removing one clue.
pub const CLUE_CHECK_NODES: u64 = 5_000;

/// Unique within `nodes` search nodes? (`None` when the budget, or the deadline or
/// cancellation of `stop`, ran out.)
fn unique_within_budget(p: &PathPuzzle, nodes: u64, stop: &Limits) -> Option<bool> {
    let limits = Limits {
        node_limit: Some(nodes),
        deadline: stop.deadline,
        cancel: stop.cancel.clone(),
        ..Limits::default()
    };
    let o = count(p, &Algorithm::default(), Some(2), &limits);
    (!o.stop.is_interrupted()).then_some(o.count == 1)
}

/// The range of the path length asked for on attempt `attempt` (0-based) of a `cells`-cell,
/// `height + width`-clue grid: 40–80 % of the grid at first; with `unique`, 20 % less after
/// each rejected path, down to a floor (see the module docs).
fn length_range(cells: usize, clues: usize, attempt: u32, unique: bool) -> (usize, usize) {
    let lo0 = (cells * 2).div_ceil(5).max(2);
    let hi0 = (cells * 4 / 5).max(lo0);
    if !unique || attempt == 0 {
        return (lo0, hi0);
    }
    let floor = clues.min(lo0).max(2);
    let scale = 0.8f64.powi(attempt.min(64) as i32);
    let shrink = |x: usize| ((x as f64 * scale).ceil() as usize).max(floor);
    (shrink(lo0), shrink(hi0))
}

/// A planted puzzle of any size (the learning benchmarks' large grids, BENCHMARKS.md): a
/// random path from `seed` covering at least `percent` % of the cells between two border
/// cells, every row and column clued, not checked for uniqueness. `None` when no such path
/// was found.
///
/// The path is a stretch of a random Hamiltonian path: the serpentine through every cell,
/// scrambled by "backbite" moves (an end steps to a neighbour and the loop this closes is
/// reversed; N. Madras and G. Slade, *The Self-Avoiding Walk*, 1993), then cut between two
/// border cells far enough apart. A depth-first random walk ([`random_path`]) rarely covers
/// 60 % of a large grid.
pub fn planted(height: usize, width: usize, percent: usize, seed: u64) -> Option<PathPuzzle> {
    let shape = Shape::new(height, width);
    let cells = shape.cells();
    if cells < 2 {
        return None;
    }
    let mut rng = SplitMix64::new(seed);
    let nb = Neighbours::new(shape);
    let mut path: Vec<CellId> = (0..height)
        .flat_map(|r| {
            let row: Vec<CellId> = (0..width).map(|c| shape.id(r, c)).collect();
            if r % 2 == 0 {
                row
            } else {
                row.into_iter().rev().collect()
            }
        })
        .collect();
    let mut pos = vec![0usize; cells];
    for (k, c) in path.iter().enumerate() {
        pos[c.index()] = k;
    }
    let min_len = (cells * percent.min(100)).div_ceil(100).max(2);
    // Mix, then look for a long enough stretch between border cells; mix more if none.
    for _round in 0..200 {
        for _ in 0..5 * cells {
            if rng.below(2) == 0 {
                path.reverse();
                for (k, c) in path.iter().enumerate() {
                    pos[c.index()] = k;
                }
            }
            let last = path.len() - 1;
            let around = nb.orth(path[last]);
            let v = around[rng.below(around.len())];
            let i = pos[v.index()];
            if i + 1 == last {
                continue;
            }
            path[i + 1..].reverse();
            for k in i + 1..=last {
                pos[path[k].index()] = k;
            }
        }
        let edge: Vec<usize> = (0..cells).filter(|&k| shape.on_edge(path[k])).collect();
        let mut starts = edge.clone();
        rng.shuffle(&mut starts);
        for i in starts {
            if let Some(&j) = edge.iter().find(|&&j| j + 1 >= i + min_len) {
                return puzzle_from_path(shape, &path[i..=j]).ok();
            }
        }
    }
    None
}

/// A random `height × width` Path puzzle from `seed` (see the module docs). Fails for grids of
/// fewer than 2 or more than [`MAX_GENERATED_CELLS`] cells, and when no unique puzzle was found
/// in 200 attempts.
pub fn generate(
    height: usize,
    width: usize,
    clues: ClueDensity,
    unique: bool,
    seed: u64,
) -> Result<PathPuzzle, InvalidInstance> {
    generate_paths(height, width, clues, unique, seed, 200, true, &Limits::default()).map_err(Failed::invalid)
}

/// Why a generator with limits made no puzzle.
#[derive(Debug)]
enum Failed {
    /// No puzzle within its attempts (or a bad request).
    Invalid(InvalidInstance),
    /// The deadline passed or the run was cancelled.
    Stopped(StopReason),
}

impl From<InvalidInstance> for Failed {
    fn from(e: InvalidInstance) -> Self {
        Failed::Invalid(e)
    }
}

impl Failed {
    /// The error of a run without a deadline or a cancellation flag (which cannot stop).
    fn invalid(self) -> InvalidInstance {
        match self {
            Failed::Invalid(e) => e,
            Failed::Stopped(r) => InvalidInstance(format!("stopped: {r:?}")),
        }
    }
}

/// `Err` once the deadline of `stop` passed or it was cancelled.
fn check(stop: &Limits) -> Result<(), Failed> {
    match stop.interrupted() {
        Some(r) => Err(Failed::Stopped(r)),
        None => Ok(()),
    }
}

/// A unique random puzzle whose path is never shortened: 40–80 % of the grid, as on
/// [`generate`]'s first attempt, trying up to `paths` random paths (about 1 in 100 such paths
/// has unique complete clues on a 10×10 grid: 1,142 paths gave 10). These are the puzzles of the bundled `examples/path/bench-*` sets, generated before
/// the target length shrank; `examples/make_fixtures.rs` writes fresh ones with `long`, a
/// held-out set for checking that the solver is not tuned to those files.
///
/// ```
/// use pencilbox_pathpuzzle::generate::{generate_long, ClueDensity};
/// let p = generate_long(6, 6, ClueDensity::Complete, 3, 5_000).unwrap();
/// let length: u32 = p.row_clues().iter().flatten().sum();
/// assert!(length >= 15, "{length}"); // 40 % of 36 cells
/// assert_eq!(pencilbox_pathpuzzle::solve::is_unique(&p, &Default::default()), Some(true));
/// ```
pub fn generate_long(
    height: usize,
    width: usize,
    clues: ClueDensity,
    seed: u64,
    paths: u32,
) -> Result<PathPuzzle, InvalidInstance> {
    generate_paths(height, width, clues, true, seed, paths, false, &Limits::default()).map_err(Failed::invalid)
}

/// [`generate`] with at most `attempts` paths, shrinking the target length after each
/// rejected one when `shrink` is set; `stop`'s deadline and cancellation are read before
/// each path and each clue's uniqueness check, and inside the checks.
#[allow(clippy::too_many_arguments)] // `generate`'s arguments, the two knobs and the limits
fn generate_paths(
    height: usize,
    width: usize,
    clues: ClueDensity,
    unique: bool,
    seed: u64,
    attempts: u32,
    shrink: bool,
    stop: &Limits,
) -> Result<PathPuzzle, Failed> {
    let cells = height.saturating_mul(width);
    if height == 0 || width == 0 || !(2..=MAX_GENERATED_CELLS).contains(&cells) {
        return Err(Failed::Invalid(InvalidInstance(format!(
            "the generator makes grids of 2 to {MAX_GENERATED_CELLS} cells, not {height}×{width}"
        ))));
    }
    let shape = Shape::new(height, width);
    let percent = match clues {
        ClueDensity::Complete => 100,
        ClueDensity::Percent(p) => p.min(100) as usize,
    };
    let mut rng = SplitMix64::new(seed);
    for attempt in 0..attempts {
        check(stop)?;
        let (lo, hi) = length_range(cells, height + width, if shrink { attempt } else { 0 }, unique);
        let min_len = lo + rng.below(hi - lo + 1);
        let Some(path) = random_path(shape, min_len, &mut rng) else {
            continue;
        };
        let full = puzzle_from_path(shape, &path)?;
        let n = height + width;
        let mut order: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut order);
        let target_kept = (n * percent).div_ceil(100);
        let mut rows: Vec<Option<u32>> = full.row_clues().to_vec();
        let mut cols: Vec<Option<u32>> = full.col_clues().to_vec();
        if !unique {
            for &k in order.iter().take(n - target_kept) {
                if k < height {
                    rows[k] = None;
                } else {
                    cols[k - height] = None;
                }
            }
            return Ok(full.with_clues(rows, cols)?);
        }
        if unique_within_budget(&full, PATH_CHECK_NODES, stop) != Some(true) {
            continue;
        }
        let mut kept = n;
        for &k in &order {
            if kept <= target_kept {
                break;
            }
            check(stop)?;
            let (mut r2, mut c2) = (rows.clone(), cols.clone());
            if k < height {
                r2[k] = None;
            } else {
                c2[k - height] = None;
            }
            let candidate = full.with_clues(r2.clone(), c2.clone())?;
            if unique_within_budget(&candidate, CLUE_CHECK_NODES, stop) == Some(true) {
                rows = r2;
                cols = c2;
                kept -= 1;
            }
        }
        // A removal whose check the limits cut short is not kept: stopped, not a puzzle.
        check(stop)?;
        return Ok(full.with_clues(rows, cols)?);
    }
    check(stop)?;
    Err(Failed::Invalid(InvalidInstance(format!(
        "no unique {height}×{width} puzzle found in {attempts} attempts from seed {seed}"
    ))))
}

/// [`generate`] from `seed`, then `seed + 1`, … for up to `tries` seeds (at least one): the
/// first success and the seed that gave it. Random complete-clue paths are rarely unique
/// (none of 100 at 10×10), so one seed's 200 paths are often not enough. Fails with the last
/// seed's error.
///
/// ```
/// use pencilbox_pathpuzzle::generate::{generate_trying, ClueDensity};
/// let (p, seed) = generate_trying(6, 6, ClueDensity::Percent(70), true, 1, 20).unwrap();
/// assert!(seed >= 1 && seed < 21);
/// assert_eq!(pencilbox_pathpuzzle::solve::is_unique(&p, &Default::default()), Some(true));
/// ```
pub fn generate_trying(
    height: usize,
    width: usize,
    clues: ClueDensity,
    unique: bool,
    seed: u64,
    tries: u32,
) -> Result<(PathPuzzle, u64), InvalidInstance> {
    trying(height, width, clues, unique, seed, tries, &Limits::default()).map_err(Failed::invalid)
}

/// [`generate_trying`] under the deadline and cancellation of `stop`.
fn trying(
    height: usize,
    width: usize,
    clues: ClueDensity,
    unique: bool,
    seed: u64,
    tries: u32,
    stop: &Limits,
) -> Result<(PathPuzzle, u64), Failed> {
    let mut last = None;
    for k in 0..u64::from(tries.max(1)) {
        let s = seed.wrapping_add(k);
        match generate_paths(height, width, clues, unique, s, 200, true, stop) {
            Ok(p) => return Ok((p, s)),
            Err(Failed::Invalid(e)) => last = Some(e),
            Err(stopped) => return Err(stopped),
        }
    }
    Err(Failed::Invalid(
        last.unwrap_or_else(|| InvalidInstance("no seed was tried".into())),
    ))
}

/// The difficulty of a generated puzzle: the band of levels its hardest explained step falls in
/// ([`crate::explain`]'s scale), as Suguru's generator does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Difficulty {
    /// Solved by the level-1 and level-2 rules (clue counts, dead ends, ways out, no loop).
    Easy,
    /// Needs parity, reachability or a trial (levels 3–6), never a guess.
    Medium,
    /// The rules stall: a guess is needed (level 7).
    Hard,
}

/// The difficulty names, in the order `pencilbox list` shows them.
pub const DIFFICULTIES: &[&str] = &["easy", "medium", "hard"];

impl Difficulty {
    /// The difficulty named `s` (`easy`, `medium`, `hard`).
    pub fn from_name(s: &str) -> Option<Difficulty> {
        match s {
            "easy" => Some(Difficulty::Easy),
            "medium" => Some(Difficulty::Medium),
            "hard" => Some(Difficulty::Hard),
            _ => None,
        }
    }
    /// The levels of the hardest step a puzzle of this difficulty may need.
    pub fn band(self) -> std::ops::RangeInclusive<u8> {
        match self {
            Difficulty::Easy => 0..=2,
            Difficulty::Medium => 3..=human::TRIAL_LEVEL,
            Difficulty::Hard => human::GUESS_LEVEL..=u8::MAX,
        }
    }
    /// The clue percentage used when `--set clues` is not given: fewer clues make harder
    /// puzzles (with all clues, 35 of 40 generated 10×10 puzzles needed a trial, 2 a guess).
    pub fn default_clues(self) -> u8 {
        match self {
            Difficulty::Easy => 100,
            Difficulty::Medium => 70,
            Difficulty::Hard => 40,
        }
    }
}

/// The level of the hardest step in `p`'s explanation (0: nothing to do).
pub fn hardest_level(p: &PathPuzzle) -> u8 {
    hardest_level_limited(p, &Limits::default())
}

/// [`hardest_level`] with the explanation under `limits` (then meaningless once they stopped
/// it: the caller checks).
fn hardest_level_limited(p: &PathPuzzle, limits: &Limits) -> u8 {
    let opts = pencilbox_core::human::ExplainOptions {
        limits: limits.clone(),
        ..pencilbox_core::human::ExplainOptions::default()
    };
    let x = crate::explain::explain(p, &opts);
    x.rating.hardest.map_or(0, |h| h.level)
}

/// How many puzzles `generate path --difficulty` makes before giving up on the band.
pub const DIFFICULTY_PUZZLES: u64 = 60;

/// The first puzzle of `difficulty` made by [`generate_trying`] from `seed`, then from the seed
/// after the one that gave the previous puzzle, and so on, for up to [`DIFFICULTY_PUZZLES`]
/// puzzles: the puzzle and its seed. `Ok(None)` when the deadline or cancellation of `limits`
/// stopped it first (read before each path, each clue's check and inside the checks and the
/// rating).
#[allow(clippy::too_many_arguments)] // the arguments of `generate_trying`, plus two
pub fn generate_rated(
    height: usize,
    width: usize,
    clues: ClueDensity,
    unique: bool,
    difficulty: Difficulty,
    seed: u64,
    tries: u32,
    limits: &Limits,
) -> Result<Option<(PathPuzzle, u64)>, InvalidInstance> {
    let mut next = seed;
    for _ in 0..DIFFICULTY_PUZZLES {
        let (p, s) = match trying(height, width, clues, unique, next, tries, limits) {
            Ok(found) => found,
            Err(Failed::Stopped(_)) => return Ok(None),
            Err(Failed::Invalid(e)) => return Err(e),
        };
        let level = hardest_level_limited(&p, limits);
        if limits.interrupted().is_some() {
            return Ok(None);
        }
        if difficulty.band().contains(&level) {
            return Ok(Some((p, s)));
        }
        next = s.wrapping_add(1);
    }
    Err(InvalidInstance(format!(
        "no {difficulty:?} {height}×{width} puzzle among {DIFFICULTY_PUZZLES} from seed {seed}"
    )))
}

/// The generator's settings (`pencilbox generate path --set KEY=VALUE`).
pub const SETTINGS: &[SettingInfo] = &[
    SettingInfo {
        key: "clues",
        summary: "percentage of the row and column clues to keep at most, 0 to 100 (default 100)",
    },
    SettingInfo {
        key: "tries",
        summary: "how many consecutive seeds to try for a unique puzzle (default 20)",
    },
    SettingInfo {
        key: "any",
        summary: "yes: keep the planted puzzle even when it has other solutions (default no)",
    },
];

/// [`generate_trying`] behind the plug-in's generator capability: the settings of
/// [`SETTINGS`], the puzzle in the paper's format and as JSON, its solution as arrows.
pub fn generated(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
    let bad = |key: &str, v: &str, what: &str| PuzzleError::unsupported(format!("{key}={v}: {what}"));
    let difficulty = match req.difficulty.as_deref() {
        None => None,
        Some(d) => Some(Difficulty::from_name(d).ok_or_else(|| {
            PuzzleError::unsupported(format!("unknown difficulty `{d}`; choose one of: easy, medium, hard"))
        })?),
    };
    let clues = match req.setting("clues") {
        None => difficulty.map_or(100, Difficulty::default_clues),
        Some(v) => v
            .parse::<u8>()
            .ok()
            .filter(|&p| p <= 100)
            .ok_or_else(|| bad("clues", v, "a percentage from 0 to 100"))?,
    };
    let tries = match req.setting("tries") {
        None => 20,
        Some(v) => v
            .parse::<u32>()
            .ok()
            .filter(|&t| (1..=10_000).contains(&t))
            .ok_or_else(|| bad("tries", v, "a whole number from 1 to 10000"))?,
    };
    let unique = match req.setting("any") {
        None | Some("no") => true,
        Some("yes") => false,
        Some(v) => return Err(bad("any", v, "yes or no")),
    };
    let density = if clues == 100 {
        ClueDensity::Complete
    } else {
        ClueDensity::Percent(clues)
    };
    let (h, w) = (req.height, req.width);
    if h * w < 2 {
        return Err(PuzzleError::unsupported(format!(
            "the Path generator makes grids of 2 to {MAX_GENERATED_CELLS} cells, not {h}x{w}"
        )));
    }
    if let Some(d) = difficulty {
        let (p, seed) = generate_rated(h, w, density, unique, d, req.seed, tries, &req.limits)
            .map_err(|_| {
                PuzzleError::not_found(format!(
                    "no {} {h}x{w} Path puzzle among {DIFFICULTY_PUZZLES} from seed {}; try another seed, size or --set clues=PERCENT",
                    DIFFICULTIES[d as usize], req.seed
                ))
            })?
            .ok_or_else(|| pencilbox_core::generate::stopped(&req.limits))?;
        return finish(p, seed, unique, req);
    }
    let (p, seed) = trying(h, w, density, unique, req.seed, tries, &req.limits).map_err(|e| match e {
        Failed::Stopped(_) => pencilbox_core::generate::stopped(&req.limits),
        Failed::Invalid(_) => PuzzleError::not_found(format!(
            "no unique {h}x{w} Path puzzle from seeds {}..{} (200 paths each); try other seeds, more tries (--set tries=N) or --set any=yes",
            req.seed,
            req.seed.wrapping_add(u64::from(tries) - 1)
        )),
    })?;
    finish(p, seed, unique, req)
}

/// The plug-in's answer for a generated puzzle: its texts and its solution.
fn finish(p: PathPuzzle, seed: u64, unique: bool, req: &GenerateRequest) -> Result<Generated, PuzzleError> {
    let o = crate::solve::solve(&p, &Algorithm::default(), &req.limits);
    let answer = o
        .solutions
        .first()
        .map(|sol| crate::model::configuration_to_text(&p, sol))
        .ok_or_else(|| pencilbox_core::generate::stopped(&req.limits))?;
    let unique = unique || {
        let c = count(&p, &Algorithm::default(), Some(2), &req.limits);
        c.count == 1 && c.stop == pencilbox_core::search::StopReason::Exhausted
    };
    Ok(Generated {
        text: p.to_text(),
        json: serde_json::to_value(&p).map_err(|e| PuzzleError::unsupported(e.to_string()))?,
        url: Some(crate::puzzlink::to_url(&p)),
        answer,
        seed,
        unique,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::configuration_from_path;
    use crate::verify::is_solution;

    #[test]
    fn a_random_path_is_self_avoiding_and_joins_two_edge_cells() {
        let shape = Shape::new(6, 7);
        let mut rng = SplitMix64::new(3);
        for _ in 0..20 {
            let path = random_path(shape, 20, &mut rng).unwrap();
            let mut seen = std::collections::HashSet::new();
            assert!(path.iter().all(|c| seen.insert(*c)));
            assert!(path.len() >= 20);
            assert!(shape.on_edge(path[0]) && shape.on_edge(*path.last().unwrap()));
            let p = puzzle_from_path(shape, &path).unwrap();
            assert!(is_solution(&p, &configuration_from_path(shape, &path)));
        }
    }

    #[test]
    fn partial_clues_keep_about_the_asked_share() {
        let p = generate(8, 8, ClueDensity::Percent(50), false, 11).unwrap();
        let kept = p
            .row_clues()
            .iter()
            .chain(p.col_clues())
            .filter(|c| c.is_some())
            .count();
        assert_eq!(kept, 8);
    }

    #[test]
    fn unique_generation_gives_a_unique_puzzle() {
        let p = generate(6, 6, ClueDensity::Complete, true, 5).unwrap();
        assert!(p.complete_information());
        assert_eq!(crate::solve::is_unique(&p, &Limits::default()), Some(true));
    }

    #[test]
    fn long_generation_keeps_a_long_path_and_stays_unique() {
        // With 75 % of the clues: the path is the unique solution's, at least 40 % of the grid.
        for seed in [1, 2] {
            let p = generate_long(6, 6, ClueDensity::Percent(75), seed, 20_000).unwrap();
            let o = crate::solve::count(&p, &crate::solve::Algorithm::default(), None, &Limits::default());
            assert_eq!((o.count, o.complete()), (1, true));
            let used = o.solutions[0]
                .as_slice()
                .iter()
                .filter(|&&a| a != crate::model::Arrow::Empty)
                .count();
            assert!(used >= 15, "seed {seed}: {used} cells");
        }
        // One path whose clues are not unique is not enough.
        let e = generate_long(10, 10, ClueDensity::Complete, 4, 1).map(|p| p.to_text());
        assert!(e.as_ref().is_err_and(|e| e.0.contains("in 1 attempts")), "{e:?}");
    }

    #[test]
    fn the_target_length_shrinks_after_each_rejected_path_down_to_its_floor() {
        let cells = 20 * 20;
        assert_eq!(length_range(cells, 40, 0, true), (160, 320));
        assert_eq!(length_range(cells, 40, 5, false), (160, 320));
        let mut last = length_range(cells, 40, 0, true);
        for attempt in 1..200 {
            let (lo, hi) = length_range(cells, 40, attempt, true);
            assert!(lo <= hi && lo >= 40 && lo <= last.0 && hi <= last.1);
            last = (lo, hi);
        }
        assert_eq!(last, (40, 40));
        // A grid whose first target is below the clue count keeps it.
        assert_eq!(length_range(2, 3, 9, true), (2, 2));
    }

    #[test]
    fn a_unique_fifteen_by_fifteen_is_found_from_one_seed() {
        let p = generate(15, 15, ClueDensity::Complete, true, 1).unwrap();
        assert_eq!(crate::solve::is_unique(&p, &Limits::default()), Some(true));
    }

    #[test]
    fn the_mean_rating_rises_strictly_with_the_difficulty() {
        let mut means = Vec::new();
        for d in [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard] {
            let mut total = 0.0;
            for seed in [1, 2, 3, 4] {
                let density = ClueDensity::Percent(d.default_clues());
                let (p, _) = generate_rated(7, 7, density, true, d, seed * 100, 20, &Limits::default())
                    .unwrap()
                    .expect("no limits: a puzzle");
                assert!(d.band().contains(&hardest_level(&p)));
                assert_eq!(crate::solve::is_unique(&p, &Limits::default()), Some(true));
                let x = crate::explain::explain(&p, &pencilbox_core::human::ExplainOptions::default());
                total += x.rating.score;
            }
            means.push(total / 4.0);
        }
        assert!(means[0] < means[1] && means[1] < means[2], "{means:?}");
    }

    #[test]
    fn degenerate_sizes_are_refused() {
        assert!(generate(1, 1, ClueDensity::Complete, false, 0).is_err());
        assert!(generate(100, 100, ClueDensity::Complete, false, 0).is_err());
        assert!(generate(1, 2, ClueDensity::Complete, true, 0).is_ok());
    }
}
