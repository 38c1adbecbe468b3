//! Sudoku's explanation for `pencilbox explain`: the [`Deducer`]'s steps (engine rules in
//! human order, Nishio, chains) as core's human steps ([`pencilbox_core::human`]), with
//! guesses when the rules stall, and the rating on Sudoku's scale.
//!
//! | level | rule |
//! |---|---|
//! | 1 | naked single (and a placed digit's eliminations) |
//! | 2 | hidden single (row, column or block) |
//! | 3 | pointing, claiming |
//! | 4 | naked pair, hidden pair |
//! | 5 | naked triple, hidden triple |
//! | 6 | Nishio (one digit, Eppstein's DAG reachability) |
//! | 7 | implication chain |
//! | 8 | forcing chain |
//! | 9 | guess (the solution's digit in a cell with the fewest candidates) |

use crate::backtrack::search;
use crate::board::Sudoku;
use crate::solver::{Deducer, Rule, RuleSet, Step};
use pencilbox_core::human::{ExplainOptions, ExplainStatus, Explanation, Fact, HumanStep, RuleInfo};
use pencilbox_core::Limits;

/// Sudoku's rules, simplest first.
pub const RULES: [RuleInfo; 12] = [
    RuleInfo::new("naked-single", "naked single", 1, "one candidate left"),
    RuleInfo::new("hidden-single", "hidden single", 2, "one place left in a unit"),
    RuleInfo::new(
        "pointing",
        "pointing",
        3,
        "a block's places for a digit lie on one line",
    ),
    RuleInfo::new(
        "claiming",
        "claiming",
        3,
        "a line's places for a digit lie in one block",
    ),
    RuleInfo::new("naked-pair", "naked pair", 4, "two cells with the same two candidates"),
    RuleInfo::new("hidden-pair", "hidden pair", 4, "two digits with the same two places"),
    RuleInfo::new("naked-triple", "naked triple", 5, "three cells with three candidates"),
    RuleInfo::new("hidden-triple", "hidden triple", 5, "three digits with three places"),
    RuleInfo::new(
        "nishio",
        "Nishio",
        6,
        "no valid placement of the digit uses the candidate",
    ),
    RuleInfo::new(
        "chain",
        "implication chain",
        7,
        "a chain of implications refutes the candidate",
    ),
    RuleInfo::new(
        "forcing-chain",
        "forcing chain",
        8,
        "assuming the candidate, singles reach a contradiction",
    ),
    RuleInfo::new(
        "guess",
        "guess",
        9,
        "no rule applies; a guess that leads to the solution",
    ),
];

/// Sudoku's rule table over an engine model whose variable `i` is cell `i` (row-major), as
/// `forced` needs it ([`crate::setter::fact_model`]).
pub(crate) struct CellNames {
    /// The side of the grid.
    pub(crate) n: usize,
}

impl pencilbox_core::human::Vocabulary for CellNames {
    fn rules(&self) -> &'static [RuleInfo] {
        &RULES
    }
    fn var_name(&self, var: pencilbox_core::engine::VarId) -> String {
        let i = var.index();
        format!("r{}c{}", i / self.n + 1, i % self.n + 1)
    }
}

/// The table entry of a rule.
pub fn rule_info(r: Rule) -> RuleInfo {
    let i = match r {
        Rule::NakedSingle => 0,
        Rule::HiddenSingle => 1,
        Rule::Pointing => 2,
        Rule::Claiming => 3,
        Rule::NakedPair => 4,
        Rule::HiddenPair => 5,
        Rule::NakedTriple => 6,
        Rule::HiddenTriple => 7,
        Rule::Nishio => 8,
        Rule::Chain => 9,
        Rule::ForcingChain => 10,
        Rule::Guess => 11,
    };
    RULES[i]
}

/// The rules allowed up to level `max`.
fn rule_set(max: u8) -> RuleSet {
    RuleSet {
        locked: max >= 3,
        subsets: max >= 4,
        nishio: max >= 6,
        chains: max >= 7,
    }
}

/// A deducer step as a human step (cells named `rNcM`).
fn human_step(n: usize, s: &Step) -> HumanStep {
    let name = |i: usize| format!("r{}c{}", i / n + 1, i % n + 1);
    let info = rule_info(s.rule);
    let mut cells: Vec<String> = Vec::new();
    let all = s
        .premises
        .iter()
        .copied()
        .chain(s.placed.iter().map(|&(c, _)| c))
        .chain(s.eliminated.iter().map(|&(c, _)| c));
    for c in all {
        let c = name(c);
        if !cells.contains(&c) {
            cells.push(c);
        }
    }
    let placed_at = |c: usize| s.placed.iter().any(|&(p, _)| p == c);
    HumanStep {
        rule: info.id,
        name: info.name,
        level: info.level,
        cells,
        placed: s
            .placed
            .iter()
            .map(|&(c, d)| Fact {
                cell: name(c),
                value: d.to_string(),
            })
            .collect(),
        removed: s
            .eliminated
            .iter()
            .filter(|&&(c, _)| !placed_at(c))
            .map(|&(c, d)| Fact {
                cell: name(c),
                value: d.to_string(),
            })
            .collect(),
        text: s.text.clone(),
        guess: s.rule == Rule::Guess,
        bookkeeping: false,
        chain: Vec::new(),
        contradiction: None,
    }
}

/// Explains `p` (see the module docs).
///
/// ```
/// use pencilbox_core::human::{ExplainOptions, ExplainStatus};
/// let p = pencilbox_sudoku_nishio::Sudoku::parse("1.34..1243..21..", None).unwrap();
/// let x = pencilbox_sudoku_nishio::explain::explain(&p, &ExplainOptions::default());
/// assert_eq!(x.status, ExplainStatus::Solved);
/// assert_eq!(x.steps[0].placed[0].cell, "r1c2");
/// ```
pub fn explain(p: &Sudoku, opts: &ExplainOptions) -> Explanation {
    let max = opts.max_level.unwrap_or(u8::MAX);
    let n = p.n();
    let mut d = match Deducer::new_limited(p, rule_set(max), opts.limits.clone()) {
        Ok(d) => d.with_max_level(max),
        Err(c) => return Explanation::new(Vec::new(), ExplainStatus::NoSolution, vec![c.message]),
    };
    let mut steps = Vec::new();
    let mut solution: Option<Vec<u8>> = None;
    let status = loop {
        while let Some(s) = d.step() {
            steps.push(human_step(n, &s));
        }
        if d.contradiction().is_some() {
            break ExplainStatus::NoSolution;
        }
        if d.interrupted().is_some() {
            break ExplainStatus::Timeout;
        }
        if d.is_solved() {
            break ExplainStatus::Solved;
        }
        if opts.no_guess || max < RULES[11].level {
            break ExplainStatus::Stalled;
        }
        if solution.is_none() {
            let limits = Limits {
                deadline: opts.limits.deadline,
                cancel: opts.limits.cancel.clone(),
                ..Limits::first()
            };
            let (sols, _) = search(&d.candidates(), &limits, 1);
            match sols.into_iter().next() {
                Some(s) => solution = Some(s),
                None if opts.limits.interrupted().is_some() => break ExplainStatus::Timeout,
                None => break ExplainStatus::NoSolution,
            }
        }
        let sol = solution.as_ref().expect("found above");
        let cand = d.candidates();
        let Some(cell) = (0..n * n)
            .filter(|&c| cand.cells()[c].len() > 1)
            .min_by_key(|&c| cand.cells()[c].len())
        else {
            break ExplainStatus::Solved;
        };
        if !d.guess(cell, sol[cell]) {
            break ExplainStatus::NoSolution;
        }
    };
    let mut notes: Vec<String> = d.contradiction().map(str::to_string).into_iter().collect();
    notes.extend(d.nishio_note());
    Explanation::new(steps, status, notes)
}
