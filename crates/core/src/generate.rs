//! Generating puzzles of any family with three difficulties, from one function of the genre:
//! a random complete puzzle (every clue of a random solution). The rest is shared:
//!
//! 1. the genre's `draw` makes a candidate from the random stream; it must have exactly one
//!    solution (checked with the family's default search under a node budget), otherwise
//!    another is drawn;
//! 2. its clues are taken away one at a time in a random order ([`Puzzle::removable_clues`]),
//!    each removal kept only while the explanation without guesses still solves the puzzle
//!    (which proves it unique: every step is a sound deduction): with the rules up to level 2
//!    and no trial for `easy`, with every rule and no trial for `medium`, trial allowed for
//!    `hard`;
//! 3. the result is rated ([`Puzzle::explain`]); a puzzle whose hardest step falls outside
//!    the difficulty's band is drawn again, a few times at most.
//!
//! The bands, on the family's explanation levels: `easy` is solved without trial by the
//! simplest rules (levels 1–2), `medium` without trial but needs a rule of level 3 or more,
//! `hard` needs a rule of level 4 or more, or trial; every difficulty is solved without a
//! guess. Every puzzle returned has exactly one solution.

use crate::error::PuzzleError;
use crate::human::{ExplainOptions, ExplainStatus, TRIAL};
use crate::plugin::Puzzle;
use crate::puzzle::{GenerateRequest, Generated, GeneratorInfo, RunOptions};
use crate::rng::SplitMix64;
use crate::search::{Limits, StopReason};

/// The difficulty names of [`make`], the default first.
pub const DIFFICULTIES: &[&str] = &["medium", "easy", "hard"];

/// A generator over `max_cells` cells with [`DIFFICULTIES`], made by [`make`].
pub const fn info(max_cells: usize, default_size: (usize, usize)) -> GeneratorInfo {
    GeneratorInfo {
        difficulties: DIFFICULTIES,
        settings: &[],
        max_cells,
        default_size,
    }
}

/// How many candidates are rated before one outside its band is kept anyway.
const BAND_ATTEMPTS: u32 = 4;

/// Node budget per cell of each uniqueness check: a removal whose uniqueness takes longer to
/// prove is not kept.
pub const NODES_PER_CELL: u64 = 20;

/// The error of a generator that the deadline or cancellation of `limits` stopped before it
/// made a puzzle: [`PuzzleError::Interrupted`], so the command line exits with 3 (130 for
/// Ctrl-C) as for a search, and Python raises `TimeoutError`.
pub fn stopped(limits: &Limits) -> PuzzleError {
    let reason = limits.interrupted().unwrap_or(StopReason::Deadline);
    let message = if reason == StopReason::Cancelled {
        "cancelled before a puzzle was made"
    } else {
        "the time limit passed before a puzzle was made"
    };
    PuzzleError::interrupted(reason, message)
}

/// The family's answer when a search with the default algorithm counts at most two
/// solutions: `Some(true)` unique, `Some(false)` not, `None` when the limits stopped it.
pub fn unique<P: Puzzle>(p: &P, limits: &Limits) -> Option<bool> {
    let two = limits.clone().with_max_solutions(Some(2));
    let f = p.search(None, &RunOptions::default(), &two, 0).ok()?;
    if f.interrupted.is_some() {
        return None;
    }
    Some(f.complete && f.count == 1u32.into())
}

/// What an explanation of `p` without guesses needed: its hardest level, and whether it
/// solved the puzzle without trial and with it (`None`: no explanation, or stopped).
fn rate<P: Puzzle>(p: &P, limits: &Limits, max_level: Option<u8>) -> Option<Rated> {
    let opts = ExplainOptions {
        no_guess: true,
        max_level,
        limits: limits.clone(),
        check_chains: false,
        check_steps: false,
        refute: Vec::new(),
    };
    let x = p.explain(&opts)?.ok()?;
    let trial = x.steps.iter().any(|s| s.rule == TRIAL);
    let solved = x.status == ExplainStatus::Solved;
    Some(Rated {
        level: x.rating.hardest.map_or(0, |h| h.level),
        plain: solved && !trial,
        solved,
    })
}

/// An explanation's outcome.
#[derive(Clone, Copy, Debug)]
struct Rated {
    level: u8,
    /// Solved without trial.
    plain: bool,
    /// Solved (trial allowed).
    solved: bool,
}

/// Is an explanation's outcome right for `difficulty`?
fn in_band(difficulty: &str, r: Rated) -> bool {
    match difficulty {
        "easy" => r.plain && r.level <= 2,
        "hard" => r.solved && (!r.plain || r.level >= 4),
        _ => r.plain && r.level >= 3,
    }
}

/// Makes a puzzle for `req` (see the module docs): `draw` returns a complete candidate and
/// its solution.
pub fn make<P: Puzzle>(
    req: &GenerateRequest,
    mut draw: impl FnMut(&mut SplitMix64) -> Option<(P, P::Solution)>,
) -> Result<Generated, PuzzleError> {
    let difficulty = req.difficulty.as_deref().unwrap_or(DIFFICULTIES[0]);
    let limits = &req.limits;
    let stopped = || stopped(limits);
    let mut rng = SplitMix64::new(req.seed ^ 0x6E6E_7261_7465_0001);
    let cells = (req.height * req.width) as u64;
    let check = Limits {
        node_limit: Some(NODES_PER_CELL * cells.max(1)),
        ..limits.clone()
    };
    // While thinning, a removal is kept when the rules of the difficulty still solve the
    // puzzle: without trial up to level 2 (easy) or at any level (medium), or with trial
    // (hard). Solved by sound rules without guesses means unique.
    let (cap, trial) = match difficulty {
        "easy" => (Some(2), false),
        "hard" => (None, true),
        _ => (None, false),
    };
    let mut attempts = 0;
    loop {
        if limits.interrupted().is_some() {
            return Err(stopped());
        }
        let Some((full, solution)) = draw(&mut rng) else {
            continue;
        };
        if unique(&full, &check) != Some(true) {
            continue;
        }
        let mut p = full;
        let mut order: Vec<String> = p
            .removable_clues()
            .unwrap_or_default()
            .into_iter()
            .map(|c| c.at)
            .collect();
        rng.shuffle(&mut order);
        for at in order {
            if limits.interrupted().is_some() {
                return Err(stopped());
            }
            let Some(clue) = p.removable_clues().unwrap_or_default().into_iter().find(|c| c.at == at) else {
                continue;
            };
            let q = clue.puzzle;
            // The cheap test when the family has one (the same answer as the explanation).
            let ok = q
                .settles(cap, trial, &check)
                .or_else(|| rate(&q, &check, cap).map(|r| if trial { r.solved } else { r.plain }))
                .unwrap_or(false);
            if ok {
                p = q;
            }
        }
        attempts += 1;
        let outcome = rate(&p, limits, None).unwrap_or(Rated {
            level: u8::MAX,
            plain: false,
            solved: false,
        });
        // A rating the limits cut short says nothing: stopped, not a puzzle of the band.
        if limits.interrupted().is_some() {
            return Err(stopped());
        }
        if attempts < BAND_ATTEMPTS && !in_band(difficulty, outcome) {
            continue;
        }
        let answer = p.render(&solution).text;
        let text = p.write(false).unwrap_or_default();
        return Ok(Generated {
            json: serde_json::json!({ "text": text }),
            text,
            url: p.write(true),
            answer: format!("{answer}\n"),
            seed: req.seed,
            unique: true,
        });
    }
}

/// A round of [`settle`] makes one change, plus one per this many open cells.
const SETTLE_BATCH: usize = 30;

/// Rounds of [`settle`] without a new best after which it stops.
const SETTLE_PATIENCE: usize = 300;

/// The chance that [`settle`] takes a change that leaves a few more cells open.
const SETTLE_WORSE: f64 = 0.3;

/// Rounds of [`settle_with`] without fewer open cells, with at most [`SETTLE_ENDGAME`] cells
/// open, before its `endgame` candidates are tried.
const SETTLE_STALL: usize = 40;

/// The open cells at or below which [`settle_with`]'s `endgame` candidates are tried.
const SETTLE_ENDGAME: usize = 12;

/// How many more open cells an `endgame` candidate may leave than before (a way out of a dead
/// end).
const SETTLE_DETOUR: usize = 8;

/// Local search towards a solution whose complete clues the rules settle: from `state`, up to
/// `rounds` times, changes it near random cells its clues leave undecided (`perturb`: `false`
/// when it could not) and keeps the change unless more cells are left undecided
/// (`undecided`: `None` when the state's clues have no solution). Returns the best state (none
/// undecided when it got there), also when the deadline or cancellation of `limits` stop it
/// (read every round: a round propagates the whole grid once).
///
/// While many cells are open, a round makes several changes at once (one per
/// `SETTLE_BATCH` open cells): most changes of a loose grid decide nothing, and each
/// evaluation propagates the whole grid, so a round per change made large grids quadratic.
/// A change that leaves a few more cells open (up to one per 50 of the first count, plus one)
/// is still taken with chance `SETTLE_WORSE`, which walks off the plateaus where every
/// single change near the last open cells makes things worse; the search stops after
/// `SETTLE_PATIENCE` rounds without a new best.
pub fn settle<S: Clone>(
    state: S,
    rng: &mut SplitMix64,
    rounds: usize,
    undecided: impl Fn(&S) -> Option<Vec<crate::grid::CellId>>,
    perturb: impl FnMut(&mut S, crate::grid::CellId, &mut SplitMix64) -> bool,
    limits: &Limits,
) -> S {
    settle_with(state, rng, rounds, undecided, perturb, limits, |_, _| Vec::new())
}

/// [`settle`] with an endgame: when at most `SETTLE_ENDGAME` cells are open and
/// `SETTLE_STALL` rounds have not lessened them, every state `endgame(state, open)` offers is
/// evaluated and the best kept (when it leaves at most `SETTLE_DETOUR` more cells open). The
/// last open cells are often two solutions that no single change near them tells apart (Star
/// Battle: two stars swapped between two rows, their starless cells deep inside their
/// regions); the endgame makes the larger change that does.
pub fn settle_with<S: Clone>(
    mut state: S,
    rng: &mut SplitMix64,
    rounds: usize,
    undecided: impl Fn(&S) -> Option<Vec<crate::grid::CellId>>,
    mut perturb: impl FnMut(&mut S, crate::grid::CellId, &mut SplitMix64) -> bool,
    limits: &Limits,
    mut endgame: impl FnMut(&S, &[crate::grid::CellId]) -> Vec<S>,
) -> S {
    let Some(mut open) = undecided(&state) else {
        return state;
    };
    let slack = 1 + open.len() / 50;
    let mut best = (open.len(), state.clone());
    let (mut since_best, mut since_less) = (0, 0);
    for _ in 0..rounds {
        if best.0 == 0 || since_best > SETTLE_PATIENCE || limits.interrupted().is_some() {
            break;
        }
        since_best += 1;
        since_less += 1;
        let offered = match open.len() <= SETTLE_ENDGAME && since_less > SETTLE_STALL {
            true => endgame(&state, &open),
            false => Vec::new(),
        };
        if !offered.is_empty() {
            since_less = 0;
            let tried = offered.into_iter().filter_map(|s| undecided(&s).map(|o| (s, o)));
            if let Some((s, o)) = tried
                .filter(|(_, o)| o.len() <= open.len() + SETTLE_DETOUR)
                .min_by_key(|(_, o)| o.len())
            {
                (state, open) = (s, o);
                if open.len() < best.0 {
                    (best, since_best) = ((open.len(), state.clone()), 0);
                }
            }
            continue;
        }
        let mut next = state.clone();
        let mut changed = false;
        for _ in 0..1 + open.len() / SETTLE_BATCH {
            changed |= perturb(&mut next, open[rng.below(open.len())], rng);
        }
        if !changed {
            continue;
        }
        let Some(o) = undecided(&next) else {
            continue;
        };
        if o.len() <= open.len() || (o.len() <= open.len() + slack && rng.chance(SETTLE_WORSE)) {
            since_less = if o.len() < open.len() { 0 } else { since_less };
            (state, open) = (next, o);
            if open.len() < best.0 {
                (best, since_best) = ((open.len(), state.clone()), 0);
            }
        }
    }
    best.1
}

/// Repairs a puzzle towards uniqueness while keeping `solution`: up to `rounds` times, finds
/// a second solution (within `limits`) and amends the puzzle with a random clue that
/// `solution` keeps and that solution breaks ([`Puzzle::separating_clues`]). Returns the
/// puzzle once it is unique; `None` when the rounds, the limits or the clues ran out first.
pub fn repair<P: Puzzle>(
    mut p: P,
    solution: &P::Solution,
    rng: &mut SplitMix64,
    rounds: usize,
    limits: &Limits,
) -> Option<P> {
    let two = limits.clone().with_max_solutions(Some(2));
    for _ in 0..rounds {
        let f = p.search(None, &RunOptions::default(), &two, 2).ok()?;
        if f.interrupted.is_some() {
            return None;
        }
        if f.complete && f.count == 1u32.into() {
            return (f.solutions.first() == Some(solution)).then_some(p);
        }
        let other = f.solutions.iter().find(|s| *s != solution)?.clone();
        let mut clues = p.separating_clues(solution, &other)?;
        if clues.is_empty() {
            return None;
        }
        let k = rng.below(clues.len());
        p = clues.swap_remove(k).puzzle;
    }
    unique(&p, limits).filter(|&u| u).map(|_| p)
}

/// A random solution of the model posted on `engine`: a search over `vars` (the smallest
/// domain first, values in a random order) within `node_limit` nodes, the first solution
/// read by `decode` (`None` when there is none within the limit). A generator's random
/// planted solution when the genre's rules without clues make it (Star Battle's stars).
pub fn random_solution<T>(
    engine: crate::engine::Engine,
    vars: Vec<crate::engine::VarId>,
    rng: &mut SplitMix64,
    node_limit: u64,
    decode: impl Fn(&crate::engine::Engine) -> T,
) -> Option<T> {
    use crate::engine::{EngineSearch, SmallestDomain};
    let order = SmallestDomain::over(vars).shuffled_values(rng.next_u64());
    let mut s = EngineSearch::new(engine, order);
    let mut out = None;
    let limits = Limits {
        node_limit: Some(node_limit),
        ..Limits::first()
    };
    crate::search::run(&mut s, &limits, |s| {
        out = Some(decode(&s.engine));
        crate::search::Flow::Stop
    });
    out
}
