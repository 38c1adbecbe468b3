//! What a genre built on a toolkit ([`crate::lines`], [`crate::shading`]) shares with every
//! other such genre, so that its crate holds only what is its own: the format, the clues as
//! constraints, the verifier's genre rules and the generator's random solution.
//!
//! A genre implements [`Genre`]: its toolkit model with its clues posted ([`Genre::model`]),
//! its own rules for explanations, which cells the puzzle gives, and the player's entries. The
//! functions here then write the [`crate::plugin::Puzzle`] methods that are the same for all
//! of them — the search with the engine or a SAT solver ([`search`]), explanations with
//! entries ([`explain`]), the setter's model ([`fact_model`]) — and
//! [`genre_methods!`](crate::genre_methods) writes those methods in one line.

use crate::engine::{Brancher, Engine, EngineSearch};
use crate::error::{ParseError, PuzzleError};
use crate::grid::{CellId, Grid, Shape};
use crate::human::grid::{GridNames, GridVocabulary, Refine};
use crate::human::{ExplainOptions, ExplainStatus, Explanation, RuleInfo};
use crate::plugin::engine_search;
use crate::puzzle::{AlgorithmInfo, Found, RunOptions};
use crate::scan::{shorten, Scanner};
use crate::search::Limits;
use crate::setter::{FactModel, Place, Setup};

/// The algorithms of a toolkit genre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// The engine model with every rule and probing (the default).
    Fast,
    /// The same model's CNF on a CDCL SAT solver ([`crate::sat`]).
    Sat,
}

/// The algorithm table of a toolkit genre.
pub const ALGORITHMS: &[(Algorithm, AlgorithmInfo)] = &[
    (
        Algorithm::Fast,
        AlgorithmInfo {
            name: "fast",
            summary: "the engine model: the toolkit's rules and the genre's clues, probing",
        },
    ),
    (
        Algorithm::Sat,
        AlgorithmInfo {
            name: "sat",
            summary: "the engine model as CNF on a CDCL SAT solver; counts with a blocking clause per solution",
        },
    ),
];

/// A toolkit's model of a puzzle: how it is searched, decoded, named and explained.
pub trait Toolkit {
    /// The answer (a line grid, a shading).
    type Answer: Clone + PartialEq;
    /// The toolkit's optional rules.
    type Rules: Copy;
    /// Its branching.
    type Brancher: Brancher + 'static;
    /// A player's position.
    type Entries;
    /// The toolkit's rules and how its steps become techniques, for explanations.
    const PARTS: &'static [(&'static [RuleInfo], Refine)];
    /// The optional rules the options ask for (`--set rules=…`).
    fn rules(opts: &RunOptions) -> Result<Self::Rules, PuzzleError>;
    /// Every optional rule.
    fn all_rules() -> Self::Rules;
    /// The search of the model posted on `engine`.
    fn search(&self, engine: Engine, rules: Self::Rules) -> EngineSearch<Self::Brancher>;
    /// The answer of a solved model.
    fn decode(&self, engine: &Engine) -> Self::Answer;
    /// How the variables are named.
    fn names(&self) -> GridNames;
    /// The places facts are about; `given(c)` marks the cells the puzzle gives.
    fn places(&self, given: &dyn Fn(CellId) -> bool) -> Vec<Place>;
    /// Fixes a player's entries on the model (`Err`: why they break a rule at once).
    fn fix_entries(&self, engine: &mut Engine, entries: &Self::Entries) -> Result<(), String>;
    /// The cells whose variables (its own, or a line's links at it) are not fixed.
    fn undecided(&self, engine: &Engine) -> Vec<CellId>;
}

/// A genre on a toolkit (see the module docs).
pub trait Genre {
    /// Its toolkit model.
    type Kit: Toolkit;
    /// The genre's own rules for explanations (the toolkit's are added).
    const RULES: &'static [RuleInfo];
    /// The model with the genre's clues posted and the toolkit's optional `rules`; `Err` with
    /// the reason when the clues break a rule before any search.
    fn model(&self, rules: <Self::Kit as Toolkit>::Rules) -> Result<(Engine, Self::Kit), String>;
    /// Does the puzzle give cell `c` (a pearl, an end, a number)?
    fn given(&self, c: CellId) -> bool;
    /// The player's entries, for hints from a position.
    fn entries(&self) -> Option<&<Self::Kit as Toolkit>::Entries>;
}

type Answer<G> = <<G as Genre>::Kit as Toolkit>::Answer;

/// The vocabulary of a genre's model.
pub fn vocabulary<G: Genre>(kit: &G::Kit) -> GridVocabulary {
    GridVocabulary::new(kit.names(), <G::Kit as Toolkit>::PARTS, G::RULES)
}

/// The search of [`crate::plugin::Puzzle::search`]: the model on the engine, or (`sat`) its
/// CNF on a SAT solver.
pub fn search<G: Genre>(
    g: &G,
    alg: Option<Algorithm>,
    opts: &RunOptions,
    limits: &Limits,
    keep: usize,
) -> Result<Found<Answer<G>>, PuzzleError> {
    let rules = <G::Kit as Toolkit>::rules(opts)?;
    let (mut e, kit) = match g.model(rules) {
        Ok(m) => m,
        Err(why) => return Ok(Found::unsolvable(why)),
    };
    if alg == Some(Algorithm::Sat) {
        return crate::sat::sat_search(&mut e, crate::sat::unnamed, limits, keep, |e| kit.decode(e));
    }
    let mut s = kit.search(e, rules);
    Ok(engine_search(&mut s, limits, keep, |e| kit.decode(e)))
}

/// The explanation of [`crate::plugin::Puzzle::explain`], from the player's entries when
/// there are some.
pub fn explain<G: Genre>(g: &G, opts: &ExplainOptions) -> Option<Result<Explanation, PuzzleError>> {
    let no = |why: String| Some(Ok(Explanation::new(Vec::new(), ExplainStatus::NoSolution, vec![why])));
    let (mut e, kit) = match g.model(<G::Kit as Toolkit>::all_rules()) {
        Ok(m) => m,
        Err(why) => return no(why),
    };
    if let Some(x) = g.entries() {
        if let Err(why) = kit.fix_entries(&mut e, x) {
            return no(why);
        }
    }
    Some(Ok(crate::human::explain_engine(&mut e, &vocabulary::<G>(&kit), opts)))
}

/// The cheap test of [`crate::plugin::Puzzle::settles`] ([`crate::human::settles_engine`]).
pub fn settles<G: Genre>(g: &G, max_level: Option<u8>, trial: bool, limits: &Limits) -> Option<bool> {
    let Ok((mut e, kit)) = g.model(<G::Kit as Toolkit>::all_rules()) else {
        return Some(false);
    };
    crate::human::settles_engine(&mut e, &vocabulary::<G>(&kit), max_level, trial, limits)
}

/// The cells the rules leave undecided at the root of `g`'s model (propagation, no search):
/// what a generator's local search drives to nothing ([`crate::generate::settle`]). `None`
/// when the rules find no solution.
pub fn undecided<G: Genre>(g: &G) -> Option<Vec<CellId>> {
    undecided_limited(g, &crate::Limits::default())
}

/// [`undecided`] with the propagation under the deadline and cancellation flag of `limits`
/// (a generator's local search runs many of them): `None` also when they stopped it.
pub fn undecided_limited<G: Genre>(g: &G, limits: &crate::Limits) -> Option<Vec<CellId>> {
    let (mut e, kit) = g.model(<G::Kit as Toolkit>::all_rules()).ok()?;
    e.set_limits(limits);
    e.propagate().ok()?;
    e.interrupted().is_none().then(|| kit.undecided(&e))
}

/// The cells `rules` leave undecided at the root of `g`'s model, after propagation and, with
/// `probe`, failed-value probing to a fixpoint (what the explanations' trial step does): a
/// generator's local search that settles a puzzle for a difficulty. `None` when the rules find
/// no solution, or the deadline or cancellation of `limits` stopped them.
pub fn undecided_with<G: Genre>(
    g: &G,
    rules: <G::Kit as Toolkit>::Rules,
    probe: bool,
    limits: &crate::Limits,
) -> Option<Vec<CellId>> {
    let (mut e, kit) = g.model(rules).ok()?;
    e.set_limits(limits);
    e.propagate().ok()?;
    if probe {
        e.probe(&crate::engine::Probe {
            vars: None,
            max_values: 2,
            passes: crate::engine::Passes::Fixpoint,
            suspend: Some(crate::engine::Priority::Global),
            descending: true,
            after_failures: 0,
        })
        .ok()?;
    }
    e.interrupted().is_none().then(|| kit.undecided(&e))
}

/// The setter's model of [`crate::plugin::Puzzle::fact_model`].
pub fn fact_model<G: Genre>(g: &G) -> Option<Result<Setup, PuzzleError>> {
    let rules = <G::Kit as Toolkit>::all_rules();
    Some(Ok(match g.model(rules) {
        Err(why) => Setup::NoSolution(why),
        Ok((e, kit)) => Setup::Model(FactModel {
            places: kit.places(&|c| g.given(c)),
            vocabulary: Some(Box::new(vocabulary::<G>(&kit))),
            search: Box::new(kit.search(e, rules)),
        }),
    }))
}

/// Reads a genre's text: the header `keyword ROWS COLUMNS` (and whatever `extra` reads
/// next: counts outside the grid), then ROWS lines of COLUMNS tokens, each turned into a
/// cell by `cell` (its `Err` is reported at the token).
pub fn read_grid<T, X>(
    text: &str,
    keyword: &str,
    extra: impl FnOnce(&mut Scanner, Shape) -> Result<X, ParseError>,
    cell: impl FnMut(&str) -> Result<T, String>,
) -> Result<(X, Grid<T>), ParseError> {
    let mut s = Scanner::new(text);
    let (h, w) = s.header(keyword)?;
    let shape = Shape::new(h, w);
    let x = extra(&mut s, shape)?;
    let mut cell = cell;
    let cells = s.grid_rows(h, w, |t| cell(t.text))?;
    s.finish("the grid")?;
    Ok((x, Grid::from_vec(shape, cells).expect("the rows have the grid's size")))
}

/// Does `text` look like a puzz.link URL rather than the genre's text format?
pub fn is_url(text: &str) -> bool {
    let t = text.trim();
    t.starts_with("http") || t.contains("puzz.link") || t.contains("pzv.jp") || t.starts_with("p?")
}

/// "expected {what}, found `{token}`" for a cell token.
pub fn expected(what: &str, token: &str) -> String {
    format!("expected {what}, found `{}`", shorten(token))
}

/// Writes a genre's text: the header, the lines `extra` writes, then the grid's rows.
pub fn write_grid<T>(keyword: &str, g: &Grid<T>, extra: &str, mut cell: impl FnMut(&mut String, &T)) -> String {
    let s = g.shape();
    let mut out = format!("{keyword} {} {}\n{extra}", s.height, s.width);
    g.write_rows(&mut out, |o, x| cell(o, x));
    out.push('\n');
    out
}

/// Writes the [`crate::plugin::Puzzle`] methods every toolkit genre writes the same way, from
/// its [`Genre`] implementation: `search`, `explain` and `fact_model`. Use inside `impl Puzzle`.
#[macro_export]
macro_rules! genre_methods {
    () => {
        fn search(
            &self,
            alg: Option<$crate::genre::Algorithm>,
            opts: &$crate::RunOptions,
            limits: &$crate::Limits,
            keep: usize,
        ) -> Result<$crate::plugin::Found<Self::Solution>, $crate::PuzzleError> {
            $crate::genre::search(self, alg, opts, limits, keep)
        }
        fn explain(
            &self,
            opts: &$crate::human::ExplainOptions,
        ) -> Option<Result<$crate::human::Explanation, $crate::PuzzleError>> {
            $crate::genre::explain(self, opts)
        }
        fn fact_model(&self, _: &$crate::RunOptions) -> Option<Result<$crate::setter::Setup, $crate::PuzzleError>> {
            $crate::genre::fact_model(self)
        }
        fn settles(&self, max_level: Option<u8>, trial: bool, limits: &$crate::Limits) -> Option<bool> {
            $crate::genre::settles(self, max_level, trial, limits)
        }
    };
}

/// The clues a setter could add to a grid of clues (`None`: no clue at that cell), each with
/// the puzzle it makes (`make` turns the amended grid into the puzzle).
pub fn clues_added<T: Copy + Into<u32>, P>(
    clues: &Grid<T>,
    clue: impl Fn(CellId) -> Option<T>,
    make: impl Fn(Grid<T>) -> P,
) -> Vec<crate::setter::Clue<P>> {
    let shape = clues.shape();
    shape
        .all()
        .filter_map(|c| {
            let v = clue(c)?;
            let mut g = clues.clone();
            g[c] = v;
            Some(crate::setter::Clue {
                at: shape.name(c),
                value: v.into(),
                puzzle: make(g),
            })
        })
        .collect()
}

/// Each clue of a grid of clues (cells other than `none`), with the puzzle without it.
pub fn clues_removed<T: Copy + PartialEq + Into<u32>, P>(
    clues: &Grid<T>,
    none: T,
    make: impl Fn(Grid<T>) -> P,
) -> Vec<crate::setter::Clue<P>> {
    clues_replaced(clues, |v| v != none, none, make)
}

/// Each clue of a grid of clues that `weaker` has a weaker form of (Nurikabe's size, whose
/// weaker form is `?`), with the puzzle that has `weaker`'s value there instead.
pub fn clues_replaced<T: Copy + Into<u32>, P>(
    clues: &Grid<T>,
    is_clue: impl Fn(T) -> bool,
    weaker: T,
    make: impl Fn(Grid<T>) -> P,
) -> Vec<crate::setter::Clue<P>> {
    let shape = clues.shape();
    shape
        .all()
        .filter(|&c| is_clue(clues[c]))
        .map(|c| {
            let mut g = clues.clone();
            g[c] = weaker;
            crate::setter::Clue {
                at: shape.name(c),
                value: clues[c].into(),
                puzzle: make(g),
            }
        })
        .collect()
}

/// Each count outside the grid (`column 2`, `row 5`: `None` is no count), with the puzzle
/// `make` builds from the column and row counts without it.
pub fn counts_removed<P>(
    columns: &[Option<u32>],
    rows: &[Option<u32>],
    make: impl Fn(Vec<Option<u32>>, Vec<Option<u32>>) -> P,
) -> Vec<crate::setter::Clue<P>> {
    let mut out = Vec::new();
    for (what, line) in [("column", columns), ("row", rows)] {
        for (k, v) in line.iter().enumerate() {
            let Some(value) = *v else { continue };
            let (mut c, mut r) = (columns.to_vec(), rows.to_vec());
            if what == "row" {
                r[k] = None
            } else {
                c[k] = None
            }
            out.push(crate::setter::Clue {
                at: format!("{what} {}", k + 1),
                value,
                puzzle: make(c, r),
            });
        }
    }
    out
}
