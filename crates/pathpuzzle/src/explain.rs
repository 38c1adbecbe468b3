//! The steps a person would take to solve a Path puzzle, rated: the link model of
//! [`crate::fast`] (one Boolean per link, one per cell) run by core's levelled driver
//! ([`pencilbox_core::human`]). A fact is about a link (`r2c3-r2c4`: `line` or `blank`) or a
//! cell (`r2c3`: `used` or `unused`).
//!
//! | level | rule | what it says |
//! |---|---|---|
//! | 1 | clue full | a row or column that has its count: its other cells are unused |
//! | 1 | clue takes every free cell | a row or column with exactly as many open cells as it still owes: all are used |
//! | 1 | dead end | a cell that cannot get two lines (a door: one) is unused |
//! | 1 | line enters | a cell a line enters is used |
//! | 1 | only ways out | a used cell with exactly as many open links as it still needs takes them all |
//! | 1 | cell complete | a cell with its two lines (a door: one), or an unused cell, has no other line (bookkeeping: what a drawing shows, so hints pass over it) |
//! | 2 | no premature loop | a link that would close a loop is blank; a finished path leaves every other cell unused |
//! | 3 | parity | the path crosses the cut between two rows (columns) an odd number of times exactly when the doors are on different sides |
//! | 3 | ways in a line | every way to place a row's path cells with the lines each needs, crossing the cuts above and below with their parities, agrees ([`pencilbox_core::lines::ways`]) |
//! | 3 | crossing count | bounds on how often the path crosses between two rows from what the rows hold ([`pencilbox_core::lines::crossings`]) |
//! | 3 | checkerboard count | with every row (or column) clued, the path's length fixes how many cells of each colour it uses |
//! | 4 | ways in two lines | two neighbouring rows (columns) together: every way to place their path cells with their lines, crossing the three cuts with their parities and closing no loop inside them, agrees ([`pencilbox_core::lines::pairs`]) |
//! | 4 | reachability | only cells on some simple door-to-door path can be used; a cell every such path passes is used |
//! | 6 | contradiction (trial) | assuming a cell used (unused), or else a link drawn (blank), the rules above reach a contradiction |
//! | 7 | guess | nothing applies: the value of the solution, found by search
//!
//! Trial and guess have the levels they have in every family on the engine
//! ([`human::TRIAL_LEVEL`], [`human::GUESS_LEVEL`]); level 5 is empty here. |

use crate::fast::{LinkModel, Rules};
use crate::PathPuzzle;
use pencilbox_core::constraints::PathVars;
use pencilbox_core::engine::{Step, VarId, FALSE, TRUE};
use pencilbox_core::human::grid::{GridNames, GridVocabulary};
use pencilbox_core::human::{self, ExplainOptions, ExplainStatus, Explanation, RuleInfo, Vocabulary};
use pencilbox_core::lines::crossings::Crossings;
use pencilbox_core::lines::pairs::Pairs;
use pencilbox_core::lines::ways::Ways;
use pencilbox_core::lines::{self, LineModel};
use pencilbox_core::{CellId, Domain};

/// Path's rules, simplest first: its clues, and the line toolkit's rules where Path words them
/// its own way (a door, the path); the toolkit's others ([`lines::RULES`]) come with them.
pub const RULES: [RuleInfo; 15] = [
    // The clue counts' own name, for a contradiction (its steps are told as the two below).
    RuleInfo::new(
        "lines",
        "clue count",
        1,
        "a clued row or column visits exactly its clue's cells",
    ),
    RuleInfo::new("clue-full", "clue full", 1, "the row or column already has its count"),
    RuleInfo::new(
        "clue-every-free-cell",
        "clue takes every free cell",
        1,
        "the row or column owes as many cells as it has open",
    ),
    RuleInfo::new(
        "dead-end",
        "dead end",
        1,
        "the cell cannot get its two lines (a door: one)",
    ),
    RuleInfo::new("loops", "no premature loop", 2, "the link would close a loop"),
    RuleInfo::new("finish", "path complete", 2, "the line already joins the two doors"),
    RuleInfo::new("chains", "no premature loop", 2, "no loop may close"),
    RuleInfo::new(
        "cuts",
        "parity",
        3,
        "the path crosses this cut an odd number of times exactly when the doors are on different sides",
    ),
    RuleInfo::new(
        "ways",
        "ways in a line",
        3,
        "every way to place the line's path cells with their lines agrees",
    ),
    RuleInfo::new(
        "crossings",
        "crossing count",
        3,
        "the path crosses between two rows (columns) through its own cell on each side, and each stretch along a row leaves it at both ends",
    ),
    RuleInfo::new(
        "colours",
        "checkerboard count",
        3,
        "the path alternates colours, and its length fixes how many cells of each colour it uses",
    ),
    RuleInfo::new(
        "pairs",
        "ways in two lines",
        4,
        "every way to place two neighbouring lines' path cells with their lines, closing no loop between them, agrees",
    ),
    RuleInfo::new(
        "connect",
        "reachability",
        4,
        "only cells on some simple path between the doors can be used, and cells every such path passes must be",
    ),
    RuleInfo::new(
        human::TRIAL,
        "contradiction (trial)",
        human::TRIAL_LEVEL,
        "assuming it, the simpler rules reach a contradiction",
    ),
    RuleInfo::new(
        human::GUESS,
        "guess",
        human::GUESS_LEVEL,
        "no rule applies; a guess that leads to the solution",
    ),
];

/// The technique of a `lines` step: a clued row or column that takes every free cell, or
/// that is full.
fn refine_lines(names: &GridNames, step: &Step, after: &[Domain]) -> Option<&'static str> {
    (step.rule == "lines").then(|| {
        if names.sets(step, after, true, TRUE) {
            "clue-every-free-cell"
        } else {
            "clue-full"
        }
    })
}

/// The explainer's names over the link model's variables (also `forced`'s,
/// [`crate::setter::fact_model`]): core's line vocabulary ([`pencilbox_core::lines`]: links
/// `r2c3-r2c4` line / blank, cells used / unused, the techniques of `degree`) with Path's
/// rule table and its clue techniques, and each clue step worded with its line ("row 3 needs
/// 2 more").
pub(crate) struct PathVocabulary {
    grid: GridVocabulary,
    rows: Vec<Option<u32>>,
    cols: Vec<Option<u32>>,
    door_a: CellId,
    /// The `crossings`, `ways` and `pairs` rules when the model has them (the explanation's
    /// model).
    extra: Option<(Crossings, Ways, Pairs)>,
}

/// The vocabulary of `p` over `vars` (see [`PathVocabulary`]); `crossings` when the model
/// posts that rule. Trial assumes cells first, then links.
pub(crate) fn vocabulary(p: &PathPuzzle, vars: &PathVars, extra: Option<(Crossings, Ways, Pairs)>) -> PathVocabulary {
    let ends = (p.cell_a(), p.cell_b());
    let model = LineModel {
        vars: vars.clone(),
        ends: Some(ends),
    };
    let mut grid = GridVocabulary::new(
        model.names(),
        &[(&lines::RULES, lines::refine), (&[], refine_lines)],
        &RULES,
    );
    grid.trial.extend(vars.link.iter().copied());
    PathVocabulary {
        grid,
        rows: p.row_clues().to_vec(),
        cols: p.col_clues().to_vec(),
        door_a: p.cell_a(),
        extra,
    }
}

/// `row 3` or `column 5`.
fn line_name(rows: bool, i: usize) -> String {
    format!("{} {}", if rows { "row" } else { "column" }, i + 1)
}

/// `N cell` / `N cells`.
fn cells(n: usize) -> String {
    format!("{n} cell{}", if n == 1 { "" } else { "s" })
}

impl PathVocabulary {
    /// The clued line all of a `lines` step's cells lie in, its clue and the cells it had
    /// used before the step.
    fn clue_line(&self, step: &Step, before: &[Domain]) -> Option<(bool, usize, u32, usize)> {
        let names = &self.grid.names;
        let cells: Vec<CellId> = step
            .premises
            .iter()
            .map(|p| p.var)
            .chain(step.changes.iter().map(|c| c.var))
            .filter_map(|v| names.cell_of(v))
            .collect();
        let first = *cells.first()?;
        let shape = names.shape;
        let (r, c) = shape.coords(first);
        let same_row = cells.iter().all(|&x| shape.coords(x).0 == r);
        let same_col = cells.iter().all(|&x| shape.coords(x).1 == c);
        let (rows, i, clue) = match (same_row, same_col) {
            (true, _) if self.rows[r].is_some() => (true, r, self.rows[r]?),
            (_, true) => (false, c, self.cols[c]?),
            _ => return None,
        };
        let line: Vec<CellId> = if rows {
            (0..shape.width).map(|k| shape.id(i, k)).collect()
        } else {
            (0..shape.height).map(|k| shape.id(k, i)).collect()
        };
        let used = line
            .iter()
            .filter(|&&x| before[names.first_cell.index() + x.index()] == Domain::single(TRUE))
            .count();
        Some((rows, i, clue, used))
    }

    /// A `cuts` step's cut: the rows (columns) between which its links lie.
    fn cut_words(&self, step: &Step) -> Option<String> {
        let (links, first) = self.grid.names.links.as_ref()?;
        let l = step.changes.iter().find_map(|c| {
            let i = c.var.index().checked_sub(first.index())?;
            (i < links.len()).then_some(i as u32)
        })?;
        let shape = self.grid.names.shape;
        let (x, _) = links.ends(l);
        let (r, c) = shape.coords(x);
        let (rows, t) = if links.is_horizontal(l) { (false, c) } else { (true, r) };
        let word = if rows { "rows" } else { "columns" };
        Some(format!("between {word} {} and {}", t + 1, t + 2))
    }
}

impl Vocabulary for PathVocabulary {
    fn rules(&self) -> &[RuleInfo] {
        self.grid.rules()
    }
    fn var_name(&self, var: VarId) -> String {
        self.grid.var_name(var)
    }
    fn value_name(&self, var: VarId, value: u32) -> String {
        self.grid.value_name(var, value)
    }
    fn fact_text(&self, var: VarId, value: u32, holds: bool) -> String {
        self.grid.fact_text(var, value, holds)
    }
    fn classify(&self, step: &Step, before: &[Domain], after: &[Domain]) -> &'static str {
        self.grid.classify(step, before, after)
    }
    fn trial_vars(&self) -> Vec<VarId> {
        self.grid.trial_vars()
    }
    fn guess_vars(&self) -> Option<Vec<VarId>> {
        Some(self.grid.names.cell_vars())
    }
    fn step_why(&self, step: &Step, rule: &'static str, before: &[Domain], after: &[Domain]) -> Option<String> {
        let _ = after;
        match rule {
            "clue-full" => {
                let (rows, i, clue, used) = self.clue_line(step, before)?;
                Some(format!("{} is full ({used} of {clue})", line_name(rows, i)))
            }
            "clue-every-free-cell" => {
                let (rows, i, clue, used) = self.clue_line(step, before)?;
                let owed = (clue as usize).saturating_sub(used);
                Some(format!(
                    "{} needs {owed} more ({used} of {clue}) and has just {} open",
                    line_name(rows, i),
                    cells(owed)
                ))
            }
            "cuts" => Some(format!(
                "the path crosses {} an odd number of times exactly when the doors are on different sides",
                self.cut_words(step)?
            )),
            "colours" => {
                let length = path_length(&self.rows).or_else(|| path_length(&self.cols))?;
                let by = if path_length(&self.rows).is_some() {
                    "row"
                } else {
                    "column"
                };
                let shape = self.grid.names.shape;
                let colour = |c: CellId| {
                    let (r, k) = shape.coords(c);
                    (r + k) % 2
                };
                let cell = step.changes.iter().find_map(|c| self.grid.names.cell_of(c.var))?;
                let mine = colour(cell) == colour(self.door_a);
                let n = if mine { length.div_ceil(2) } else { length / 2 };
                Some(format!(
                    "the {by} clues add up to the path's length, {length} cells; it alternates colours from door A, so it uses {n} cells of {} colour",
                    if mine { "door A's" } else { "the other" }
                ))
            }
            "ways" => {
                let (_, x, _) = self.extra.as_ref()?;
                let changed: Vec<VarId> = step.changes.iter().map(|c| c.var).collect();
                let dom = |v: VarId| before[v.index()];
                let line = x.line_of(&changed, &dom)?;
                Some(x.describe(line))
            }
            "pairs" => {
                let (_, _, x) = self.extra.as_ref()?;
                let changed: Vec<VarId> = step.changes.iter().map(|c| c.var).collect();
                let dom = |v: VarId| before[v.index()];
                let pair = x.pair_of(&changed, &dom)?;
                Some(x.describe(pair))
            }
            "crossings" => {
                let (x, _, _) = self.extra.as_ref()?;
                let changed: Vec<VarId> = step.changes.iter().map(|c| c.var).collect();
                let dom = |v: VarId| before[v.index()];
                let cut = x.cut_of(&changed, &dom)?;
                Some(x.describe(cut, &dom))
            }
            _ => None,
        }
    }
}

/// The path's length when every line of `clues` is clued.
fn path_length(clues: &[Option<u32>]) -> Option<u32> {
    clues.iter().copied().sum()
}

/// Explains `p` (see the module docs).
///
/// ```
/// use pencilbox_core::human::{ExplainOptions, ExplainStatus};
/// let p = pencilbox_pathpuzzle::PathPuzzle::parse("2 2\n1 1\n2 1\n\n1 1\n2 0\n").unwrap();
/// let x = pencilbox_pathpuzzle::explain::explain(&p, &ExplainOptions::default());
/// assert_eq!(x.status, ExplainStatus::Solved);
/// assert!(x.steps.iter().any(|s| s.placed.iter().any(|f| f.cell == "r1c1-r2c1" && f.value == "line")));
/// ```
pub fn explain(p: &PathPuzzle, opts: &ExplainOptions) -> Explanation {
    if let Some(reason) = crate::checks::no_solution_reason(p) {
        return Explanation::new(Vec::new(), ExplainStatus::NoSolution, vec![reason]);
    }
    let rules = Rules {
        probe: false,
        pairs: false,
        ..Rules::ALL
    };
    let (mut e, model) = LinkModel::post(p, &rules);
    // The explanation's own rules, beyond the solver's.
    let crossings = Crossings::new(
        &model.vars,
        Some((p.cell_a(), p.cell_b())),
        p.row_clues(),
        p.col_clues(),
    );
    e.post(crossings.clone());
    let ways = Ways::new(
        &model.vars,
        Some((p.cell_a(), p.cell_b())),
        p.row_clues(),
        p.col_clues(),
    );
    e.post(ways.clone());
    let pairs = Pairs::new(
        &model.vars,
        Some((p.cell_a(), p.cell_b())),
        p.row_clues(),
        p.col_clues(),
    );
    e.post(pairs.clone());
    // The player's lines and the cells they join are given (not steps).
    for &(a, b) in p.drawn() {
        let link = model.vars.links.between(a, b).expect("drawn lines join neighbours");
        let given = [
            model.vars.link[link as usize],
            model.vars.cell[a.index()],
            model.vars.cell[b.index()],
        ];
        if given.into_iter().any(|v| e.assign(v, TRUE).is_err()) {
            let at = p.shape().name(a) + "-" + &p.shape().name(b);
            return Explanation::new(
                Vec::new(),
                ExplainStatus::NoSolution,
                vec![format!("the drawn line {at} breaks a rule at once")],
            );
        }
    }
    for &c in p.crossed() {
        if e.assign(model.vars.cell[c.index()], FALSE).is_err() {
            return Explanation::new(
                Vec::new(),
                ExplainStatus::NoSolution,
                vec![format!(
                    "the cell {} marked unused breaks a rule at once",
                    p.shape().name(c)
                )],
            );
        }
    }
    let vocab = vocabulary(p, &model.vars, Some((crossings, ways, pairs)));
    human::explain_engine(&mut e, &vocab, opts)
}

/// The drawn lines of `entries` ([`PathPuzzle::with_drawn`]) that `solution` does not have,
/// as facts `r2c3-r2c4` = `line`, then the cells marked unused that it uses (`r2c3` =
/// `unused`).
pub fn wrong_lines(p: &PathPuzzle, entries: &str, solution: &crate::Configuration) -> Option<Vec<human::Fact>> {
    let shape = p.shape();
    let q = p.with_drawn(entries).ok()?;
    let has = |a: CellId, b: CellId| {
        let points = |x: CellId, y: CellId| x != p.cell_b() && shape.step(x, solution[x].delta()) == Some(y);
        points(a, b) || points(b, a)
    };
    Some(
        q.drawn()
            .iter()
            .filter(|&&(a, b)| !has(a, b))
            .map(|&(a, b)| human::Fact {
                cell: format!("{}-{}", shape.name(a), shape.name(b)),
                value: "line".to_string(),
            })
            .chain(
                q.crossed()
                    .iter()
                    .filter(|&&c| solution[c] != crate::Arrow::Empty)
                    .map(|&c| human::Fact {
                        cell: shape.name(c),
                        value: "unused".to_string(),
                    }),
            )
            .collect(),
    )
}
