//! pencilbox-sudoku-nishio: Sudoku with Eppstein's exact single-digit ("Nishio") deduction.
//!
//! # Background
//! D. Eppstein, *Solving single-digit Sudoku subproblems* (FUN 2012, arXiv:1202.5074) computes
//! Nishio(S) — the cells of a digit's candidate set `S` that lie on some *valid placement*
//! (one cell per row, column and block) inside `S` — by reachability in a DAG whose vertices are
//! the almost-balanced 0–1 matrices (Definition 1) and whose source-to-sink paths are the valid
//! placements (Lemma 1). Section 6 proves the decision problem NP-complete (Theorems 2–3).
//!
//! # Modules
//! * [`board`] — the model ([`Sudoku`], [`BlockShape`], [`Candidates`], [`CellMask`]) and
//!   formats (line, grid, JSON, puzz.link URL, batch files).
//! * [`geometry`] — units and peers per block shape (cached).
//! * [`graph`] — `G_U`, the DAG of almost-balanced matrices, built once per shape and shared.
//! * [`nishio`] — Nishio(S): the paper's DFS, the fast level-synchronous default with exact
//!   placement counting, and the bit-parallel 64-lane variant.
//! * [`overlay`], [`matching`] — the baselines: pattern overlay and the bipartite-matching
//!   approximation (which ignores blocks).
//! * [`model`] — Sudoku as a model on core's engine: a permutation per row, column and block
//!   (core's `Distinct` rules: singles, pointing/claiming, pairs and triples) and Nishio as the
//!   engine rule `nishio`.
//! * [`solver`] — the deductive solver on that model (the engine's rules, then chains) with a
//!   step log from the engine's explanations and a rating; [`backtrack`] — the engine's search
//!   (unit-digit branching, Luby restarts); [`bitsolve`] — `bits`, the bit-parallel 9×9
//!   solver (digit-band words, table-driven locked candidates, bit-sliced singles).
//! * [`setter`] — the setter's tools (`forced`, `count --suggest`, `count --redundant`) on
//!   the engine model.
//! * [`reduction`] — the 3-SAT → Nishio decision reduction of Theorems 2–3.
//! * [`kind`] — [`Sudoku`] implements core's typed `Puzzle` trait; [`KIND`] is its `Plugin`
//!   (algorithms `bits`, `deduce`, `backtrack` and `sat`, the setting `block=AxB`).
//! * [`generate`] — a small puzzle generator (bundled examples, tests).
//!
//! # API for the playground server
//! * parse: [`Sudoku::parse`]`(text, block) -> Result<Sudoku, ParseError>`;
//! * candidates: [`Candidates::from_puzzle`]`(&sudoku) -> Result<Candidates, Contradiction>`;
//! * one deduction step: [`solver::Deducer::new`]`(&sudoku, RuleSet::ALL)` then
//!   [`solver::Deducer::step`]`() -> Option<Step>` (each [`solver::Step`] has `text`,
//!   `rule`, `placed`, `eliminated`); whole explanation: [`solver::explain`];
//! * Nishio for a digit: [`nishio_for_digit`]`(&candidates, digit, Method) -> Result<DigitNishio, String>`
//!   returning the removed cells and the number of valid placements.
#![deny(missing_docs)]

/// The largest side served interactively (the playground): 25×25, the largest shape whose
/// Nishio graph the deductive solver builds within a request's deadline (every rule, the graph
/// build and the search poll it). Larger grids: `pencilbox solve`.
pub const MAX_INTERACTIVE_SIDE: usize = 25;

pub mod backtrack;
pub mod bitsolve;
pub mod board;
pub mod chains;
pub mod explain;
pub mod generate;
pub mod geometry;
pub mod graph;
pub mod kind;
pub mod matching;
pub mod model;
pub mod nishio;
pub mod overlay;
pub mod patterns;
pub mod reduction;
pub mod setter;
pub mod solver;

pub use board::{BlockShape, Candidates, CellMask, Contradiction, Sudoku};
pub use graph::AbGraph;
pub use kind::{Algorithm, KIND};
pub use solver::{explain, explain_limited, Deducer, Explanation, Rule, RuleSet, Step};

/// A Nishio method, as chosen by `--method`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Level-synchronous reachability in `G_S` with exact placement counting (default).
    Dag,
    /// The paper's recursive DFS, exactly as published (reference).
    Paper,
    /// Pattern overlay: every valid placement tested against `S`.
    Overlay,
    /// The bipartite matching approximation (ignores blocks; may keep more).
    Matching,
}

impl Method {
    /// Every method with its CLI name.
    pub const ALL: [(&'static str, Method); 4] = [
        ("dag", Method::Dag),
        ("paper", Method::Paper),
        ("overlay", Method::Overlay),
        ("matching", Method::Matching),
    ];
    /// Looks a method up by name.
    pub fn from_name(s: &str) -> Option<Method> {
        Self::ALL.iter().find(|(n, _)| *n == s).map(|&(_, m)| m)
    }
    /// The CLI name.
    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|(_, m)| *m == self).map_or("dag", |(n, _)| n)
    }
}

/// A prepared Nishio engine for one block shape and method (the cached graph or placement list).
#[derive(Clone)]
pub enum Engine {
    /// The DAG (used by [`Method::Dag`] and [`Method::Paper`]).
    Graph(std::sync::Arc<AbGraph>, Method),
    /// The pattern overlay's placement list.
    Overlay(std::sync::Arc<overlay::Overlay>),
    /// Bipartite matching (needs nothing prepared).
    Matching,
}

impl Engine {
    /// Prepares the engine for a shape (builds or fetches the cached graph / placements).
    pub fn new(block: BlockShape, method: Method) -> Result<Engine, String> {
        Ok(match method {
            Method::Dag | Method::Paper => Engine::Graph(AbGraph::get(block).map_err(|e| e.0)?, method),
            Method::Overlay => Engine::Overlay(overlay::Overlay::get(block)?),
            Method::Matching => Engine::Matching,
        })
    }
    /// Nishio(S) (for the matching method: the matching approximation `T ⊇ Nishio(S)`).
    pub fn run(&self, s: &CellMask) -> nishio::Nishio {
        match self {
            Engine::Graph(g, Method::Paper) => nishio::Nishio {
                keep: nishio::nishio_paper(g, s),
                placements: None,
            },
            Engine::Graph(g, _) => nishio::nishio(g, s),
            Engine::Overlay(o) => o.nishio(s),
            Engine::Matching => nishio::Nishio {
                keep: matching::matching_keep(s),
                placements: None,
            },
        }
    }
}

/// The outcome of Nishio for one digit of a candidate grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DigitNishio {
    /// The digit.
    pub digit: u8,
    /// `S`: cells where the digit is a candidate.
    pub candidates: CellMask,
    /// The cells Nishio removes (`S − Nishio(S)`).
    pub removed: CellMask,
    /// Valid placements inside `S` (when the method counts them).
    pub placements: Option<u128>,
}

/// [`nishio_for_digit`] honouring the deadline and cancel flag of `limits`: `Ok(None)` when
/// they stopped it (during the graph's first build for the shape, or during the search of
/// [`Method::Dag`], both polled every few thousand vertices). The other methods poll only
/// before they start (`paper` is kept exactly as published; `overlay` is refused beyond
/// 10×10; `matching` is fast).
pub fn nishio_for_digit_limited(
    cand: &Candidates,
    digit: u8,
    method: Method,
    limits: &pencilbox_core::Limits,
) -> Result<Option<DigitNishio>, String> {
    if digit == 0 || digit as usize > cand.n() {
        return Err(format!("digit {digit} is out of range 1-{}", cand.n()));
    }
    let stop = || limits.interrupted().is_some();
    if stop() {
        return Ok(None);
    }
    let s = cand.digit_cells(digit);
    let r = match method {
        Method::Dag => {
            let Some(g) = AbGraph::get_with(cand.block(), &stop).map_err(|e| e.0)? else {
                return Ok(None);
            };
            match nishio::nishio_with(&g, &s, &stop) {
                Some(r) => r,
                None => return Ok(None),
            }
        }
        Method::Paper => {
            let Some(g) = AbGraph::get_with(cand.block(), &stop).map_err(|e| e.0)? else {
                return Ok(None);
            };
            if stop() {
                return Ok(None);
            }
            Engine::Graph(g, method).run(&s)
        }
        _ => Engine::new(cand.block(), method)?.run(&s),
    };
    Ok(Some(DigitNishio {
        digit,
        candidates: s,
        removed: r.removed(&s),
        placements: r.placements,
    }))
}

/// Runs Nishio for one digit of a candidate grid.
pub fn nishio_for_digit(cand: &Candidates, digit: u8, method: Method) -> Result<DigitNishio, String> {
    if digit == 0 || digit as usize > cand.n() {
        return Err(format!("digit {digit} is out of range 1-{}", cand.n()));
    }
    let engine = Engine::new(cand.block(), method)?;
    let s = cand.digit_cells(digit);
    let r = engine.run(&s);
    Ok(DigitNishio {
        digit,
        candidates: s,
        removed: r.removed(&s),
        placements: r.placements,
    })
}

/// Grids up to this side keep their cached Nishio graphs and overlay placements in
/// [`release_cached`] (a 9×9's graph is about 2 MB; a 16×16's tens of MB, a 25×25's about 200 MB).
pub const KEEP_CACHED_UP_TO: usize = 9;

/// Drops the per-shape caches of the Nishio graph ([`AbGraph::get`]) and of the pattern overlay
/// for grids above [`KEEP_CACHED_UP_TO`]: a long-running process (`pencilbox serve`) calls it
/// when no job runs, so that one 25×25 request does not hold its graph for the life of the
/// process. A cache still in use is freed when its last user ends; the next use builds it again.
pub fn release_cached() {
    graph::release(KEEP_CACHED_UP_TO);
    overlay::release(KEEP_CACHED_UP_TO);
}
