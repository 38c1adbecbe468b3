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
//! | 3 | checkerboard count | with every row (or column) clued, the path's length fixes how many cells of each colour it uses |
//! | 4 | reachability | only cells on some simple door-to-door path can be used; a cell every such path passes is used |
//! | 5 | contradiction (trial) | assuming a cell used (unused), the rules above reach a contradiction |
//! | 6 | guess | nothing applies: the value of the solution, found by search |

use crate::fast::{LinkModel, Rules};
use crate::PathPuzzle;
use pencilbox_core::constraints::PathVars;
use pencilbox_core::engine::{Step, FALSE, TRUE};
use pencilbox_core::human::grid::{GridNames, GridVocabulary};
use pencilbox_core::human::{self, ExplainOptions, ExplainStatus, Explanation, RuleInfo};
use pencilbox_core::lines::{self, LineModel};
use pencilbox_core::{CellId, Domain};

/// Path's rules, simplest first: its clues, and the line toolkit's rules where Path words them
/// its own way (a door, the path); the toolkit's others ([`lines::RULES`]) come with them.
pub const RULES: [RuleInfo; 11] = [
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
        "colours",
        "checkerboard count",
        3,
        "the path alternates colours, and its length fixes how many cells of each colour it uses",
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
        5,
        "assuming it, the simpler rules reach a contradiction",
    ),
    RuleInfo::new(
        human::GUESS,
        "guess",
        6,
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
/// rule table and its clue techniques.
pub(crate) fn vocabulary(vars: &PathVars, ends: (CellId, CellId)) -> GridVocabulary {
    let model = LineModel {
        vars: vars.clone(),
        ends: Some(ends),
    };
    GridVocabulary::new(
        model.names(),
        &[(&lines::RULES, lines::refine), (&[], refine_lines)],
        &RULES,
    )
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
        ..Rules::ALL
    };
    let (mut e, model) = LinkModel::post(p, &rules);
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
    let vocab = vocabulary(&model.vars, (p.cell_a(), p.cell_b()));
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
