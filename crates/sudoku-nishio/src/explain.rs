//! Sudoku's explanation for `pencilbox explain`: the [`Deducer`]'s steps (engine rules in
//! human order, Nishio, chains) as core's human steps ([`pencilbox_core::human`]), with
//! guesses when the rules stall, and the rating on Sudoku's scale.
//!
//! | level | rule | SE-like |
//! |---|---|---|
//! | 1 | naked single (and a placed digit's eliminations) | 2.3 |
//! | 2 | hidden single (row, column or block) | 1.5 (1.2 in a block) |
//! | 3 | pointing, claiming | 2.6, 2.8 |
//! | 4 | naked pair | 3.0 |
//! | 5 | X-Wing | 3.2 |
//! | 6 | hidden pair | 3.4 |
//! | 7 | naked triple | 3.6 |
//! | 8 | Swordfish | 3.8 |
//! | 9 | hidden triple | 4.0 |
//! | 10 | turbot fish: Skyscraper, 2-String Kite, Turbot Fish | 4.0, 4.1, 4.2 |
//! | 11 | XY-Wing | 4.2 |
//! | 12 | XYZ-Wing | 4.4 |
//! | 13 | unique rectangle, type 1 (only when the puzzle was counted unique first) | 4.5 |
//! | 14 | naked quad | 5.0 |
//! | 15 | Jellyfish | 5.2 |
//! | 16 | hidden quad | 5.4 |
//! | 17 | WXYZ-Wing | 5.5 |
//! | 18 | BUG+1 (only when the puzzle was counted unique first) | 5.6 |
//! | 19 | implication chain | 6.6 (X- or Y-chain) or 7.0, + length; an X-chain with k strong links: at most Sukaku's k-strong-linked fish (5.4 for 3, 5.8 for 4, …) |
//! | 20 | Nishio (one digit, Eppstein's DAG reachability) | as an X-chain when its chain is one, else 7.5 + length |
//! | 21 | forcing chain | 8.5 + length |
//! | 22 | guess (the solution's digit in a cell with the fewest candidates) | 10.0 |
//!
//! The levels follow the order of techniques of Sudoku Explainer and of Sukaku Explainer, its
//! successor that graded the Sudoku Exchange bank (their ratings: the *SE-like* column, see
//! [`se_of`]), so the simplest rule in their sense is always tried first: the implication
//! chain (SE's static forcing chains and cycles) comes before Nishio (SE's Nishio forcing
//! chains), and the forcing chain (SE's dynamic forcing chains) after both.

use crate::backtrack::search;
use crate::board::Sudoku;
use crate::solver::{Deducer, Rule, RuleSet, Step};
use pencilbox_core::human::{
    chain_text, ChainLink, ExplainOptions, ExplainStatus, Explanation, Fact, HumanStep, RuleInfo,
};
use pencilbox_core::Limits;

/// Sudoku's rules, simplest first (index = [`Rule`] as `usize`).
pub const RULES: [RuleInfo; 23] = [
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
    RuleInfo::new(
        "x-wing",
        "X-Wing",
        5,
        "two lines' places for a digit lie in two crossing lines",
    ),
    RuleInfo::new("hidden-pair", "hidden pair", 6, "two digits with the same two places"),
    RuleInfo::new("naked-triple", "naked triple", 7, "three cells with three candidates"),
    RuleInfo::new(
        "swordfish",
        "Swordfish",
        8,
        "three lines' places for a digit lie in three crossing lines",
    ),
    RuleInfo::new("hidden-triple", "hidden triple", 9, "three digits with three places"),
    RuleInfo::new(
        "turbot-fish",
        "turbot fish",
        10,
        "two strong links of a digit joined by a weak one (Skyscraper, 2-String Kite)",
    ),
    RuleInfo::new(
        "xy-wing",
        "XY-Wing",
        11,
        "a bivalue pivot and two pincers: one pincer holds the digit",
    ),
    RuleInfo::new(
        "xyz-wing",
        "XYZ-Wing",
        12,
        "a three-candidate pivot and two pincers: one of them holds the digit",
    ),
    RuleInfo::new(
        "unique-rectangle",
        "unique rectangle",
        13,
        "otherwise four cells could swap two digits (the puzzle has one solution)",
    ),
    RuleInfo::new("naked-quad", "naked quad", 14, "four cells with four candidates"),
    RuleInfo::new(
        "jellyfish",
        "Jellyfish",
        15,
        "four lines' places for a digit lie in four crossing lines",
    ),
    RuleInfo::new("hidden-quad", "hidden quad", 16, "four digits with four places"),
    RuleInfo::new(
        "wxyz-wing",
        "WXYZ-Wing",
        17,
        "four cells with four digits, all but one confined to one of them: that one is there",
    ),
    RuleInfo::new(
        "bug",
        "BUG+1",
        18,
        "otherwise every digit would have two places in every unit (the puzzle has one solution)",
    ),
    RuleInfo::new(
        "chain",
        "implication chain",
        19,
        "a chain of implications refutes the candidate",
    ),
    RuleInfo::new(
        "nishio",
        "Nishio",
        20,
        "no valid placement of the digit uses the candidate",
    ),
    RuleInfo::new(
        "forcing-chain",
        "forcing chain",
        21,
        "assuming the candidate, singles reach a contradiction",
    ),
    RuleInfo::new(
        "guess",
        "guess",
        22,
        "no rule applies; a guess that leads to the solution",
    ),
];

/// The names of the turbot fish by kind ([`crate::patterns::turbot_kind`]), as their steps'
/// texts begin.
pub const TURBOT_NAMES: [&str; 3] = ["Skyscraper", "2-String Kite", "Turbot Fish"];

/// The level of Nishio, the chains and the guess ([`RULES`]).
pub const NISHIO_LEVEL: u8 = RULES[Rule::Nishio as usize].level;
/// The level of the implication chain.
pub const CHAIN_LEVEL: u8 = RULES[Rule::Chain as usize].level;
/// The level of the forcing chain.
pub const FORCING_LEVEL: u8 = RULES[Rule::ForcingChain as usize].level;
/// The level of a guess.
pub const GUESS_LEVEL: u8 = RULES[Rule::Guess as usize].level;

/// The Sudoku Explainer–like rating of one step: the rule's number in SE's table of
/// techniques, plus SE's length increment for chains.
///
/// Source: the technique ratings of Sudoku Explainer and Sukaku Explainer (SudokuMonster's
/// successor, which graded the Sudoku Exchange bank; its `getDifficulty()` methods): hidden
/// single 1.2 in a block and 1.5 in a line, naked single 2.3, pointing 2.6, claiming 2.8, naked
/// pair 3.0, X-Wing 3.2, hidden pair 3.4, naked triple 3.6, Swordfish 3.8, hidden triple 4.0,
/// Skyscraper 4.0, 2-String Kite 4.1, Turbot Fish 4.2 (and, for longer chains on one digit,
/// its k-strong-linked fishes: 5.4, 5.8, 6.2, 6.6, 7.0, 7.4 for k = 3..8), XY-Wing 4.2, XYZ-Wing 4.4, unique
/// rectangle 4.5, naked quad 5.0, Jellyfish 5.2, hidden quad 5.4, WXYZ-Wing 5.5, BUG+1 5.6, forcing chain 6.6 when it is
/// an X-chain or a Y-chain and 7.0 when it mixes both, Nishio forcing chain 7.5, dynamic forcing
/// chain 8.5. Our chains map onto SE's kinds by what they use: an implication chain is a static
/// chain of bivalue cells and bilocal units (SE's forcing chain); a Nishio step whose chain
/// is static on one digit is a forcing X-chain (6.6), else SE's Nishio (7.5); a forcing chain
/// propagates singles on a changing grid, SE's dynamic forcing chain (8.5). A guess is 10.0
/// (beyond SE's scale). `length` is the chain's number of links (the assumption included),
/// and the increment is SE's `getLengthDifficulty`: with `l = length − 2`, +0.1 each time `l`
/// passes 4, 6, 8, 12, 16, 24, 32, … (the bound alternately ×3/2 and ×4/3). `simple` says
/// the chain is an X-chain or a Y-chain (see [`se_of_step`]); `variant` picks the number of
/// a rule with several (a hidden single in a block: 1; a turbot fish: 0 Skyscraper, 1 2-String
/// Kite, 2 Turbot Fish).
pub fn se_of(rule: &str, length: usize, simple: bool, variant: usize) -> f64 {
    let base = match rule {
        "naked-single" => 2.3,
        "hidden-single" if variant == 1 => 1.2,
        "hidden-single" => 1.5,
        "pointing" => 2.6,
        "claiming" => 2.8,
        "naked-pair" => 3.0,
        "x-wing" => 3.2,
        "hidden-pair" => 3.4,
        "naked-triple" => 3.6,
        "swordfish" => 3.8,
        "hidden-triple" => 4.0,
        "turbot-fish" => [4.0, 4.1, 4.2][variant.min(2)],
        "xy-wing" => 4.2,
        "xyz-wing" => 4.4,
        "unique-rectangle" => 4.5,
        "naked-quad" => 5.0,
        "jellyfish" => 5.2,
        "hidden-quad" => 5.4,
        "wxyz-wing" => 5.5,
        "bug" => 5.6,
        "chain" if simple => 6.6,
        "chain" => 7.0,
        "nishio" if simple => 6.6,
        "nishio" => 7.5,
        "forcing-chain" => 8.5,
        _ => return 10.0,
    };
    let chained = matches!(rule, "nishio" | "chain" | "forcing-chain");
    if chained {
        base + se_length(length.saturating_sub(2))
    } else {
        base
    }
}

/// Sudoku Explainer's length increment of a chain of complexity `length + 2`.
pub fn se_length(length: usize) -> f64 {
    let (mut added, mut ceil, mut odd) = (0.0, 4usize, false);
    while length > ceil {
        added += 0.1;
        ceil = if odd { ceil * 4 / 3 } else { ceil * 3 / 2 };
        odd = !odd;
    }
    added
}

/// The SE-like rating of one explained step ([`se_of`] from its rule, chain and text). An
/// implication chain is *simple* when its strong links are all of one kind (bilocal units: an
/// X-chain; bivalue cells: a Y-chain); a Nishio step when its text says its chain is an
/// X-chain ([`X_CHAIN`]).
pub fn se_of_step(s: &HumanStep) -> f64 {
    let strong = |r: &str| s.chain.iter().skip(1).any(|l| l.holds && l.rule == r);
    // A static chain on one digit is an X-chain: Sukaku Explainer rates one with k strong
    // links as a k-strong-linked fish (StrongLinksHint: 4.0, 5.4, 5.8, 6.2, 6.6, 7.0, 7.4 for
    // k = 2..8) when that is below the forcing chain's number.
    let one_digit = s.chain.windows(2).all(|w| w[0].value == w[1].value);
    let x_chain = one_digit
        && match s.rule {
            "chain" => !strong("naked-single"),
            "nishio" => s.text.contains(X_CHAIN),
            _ => false,
        };
    if x_chain {
        let k = s.chain.iter().skip(1).filter(|l| l.holds).count().clamp(2, 8);
        let fish = [4.0, 5.4, 5.8, 6.2, 6.6, 7.0, 7.4][k - 2];
        return f64::min(fish, se_of(s.rule, s.chain.len(), true, 0));
    }
    let simple = match s.rule {
        "chain" => !(strong("naked-single") && strong("hidden-single")),
        "nishio" => s.text.contains(X_CHAIN),
        _ => false,
    };
    let variant = match s.rule {
        "hidden-single" => usize::from(s.text.contains("hidden single in block")),
        "turbot-fish" => TURBOT_NAMES.iter().position(|n| s.text.starts_with(n)).unwrap_or(2),
        _ => 0,
    };
    se_of(s.rule, s.chain.len(), simple, variant)
}

/// The words a Nishio step's text uses when its chain is an X-chain (one digit, strong links
/// from units where the digit had two places, weak links between cells that see each other).
pub const X_CHAIN: &str = "an X-chain";

/// The SE-like rating of an explanation: its hardest step's [`se_of_step`] (rounded to one
/// decimal; `0.0` with no step).
pub fn se_rating(x: &Explanation) -> f64 {
    let m = x.steps.iter().map(se_of_step).fold(0.0f64, f64::max);
    (m * 10.0).round() / 10.0
}

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
    RULES[r as usize]
}

/// The rules allowed up to level `max` (the ladder switches each engine rule on at its own
/// level; this only leaves out what cannot be reached).
fn rule_set(max: u8, unique: bool) -> RuleSet {
    RuleSet {
        locked: max >= 3,
        subsets: max >= 4,
        patterns: max >= 5,
        uniqueness: unique && max >= RULES[Rule::UniqueRectangle as usize].level,
        nishio: max >= NISHIO_LEVEL,
        chains: max >= CHAIN_LEVEL,
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
        chain: chain_links(n, &s.chain),
        contradiction: s.contradiction.clone(),
        premises: {
            let mut p = s.premises.clone();
            p.sort_unstable();
            p.dedup();
            p.len()
        },
        conclusion: String::new(),
        folded_into: None,
    }
}

/// The SE-like rating of deducer steps ([`se_of_step`] of each; `0.0` for none).
pub fn se_of_steps(n: usize, steps: &[Step]) -> f64 {
    let m = steps
        .iter()
        .map(|s| se_of_step(&human_step(n, s)))
        .fold(0.0f64, f64::max);
    (m * 10.0).round() / 10.0
}

/// A deducer chain as core's chain links (cells named `rNcM`).
pub fn chain_links(n: usize, chain: &[crate::solver::Link]) -> Vec<ChainLink> {
    chain
        .iter()
        .map(|&(c, d, holds, rule)| ChainLink {
            cell: format!("r{}c{}", c / n + 1, c % n + 1),
            value: d.to_string(),
            holds,
            rule,
            text: String::new(),
        })
        .collect()
}

/// A chain in words for a step's text: `assume r1c5 = 2 → r1c7 ≠ 2 → … : r9c3 would be both
/// 4 and not 4` (at most 12 links shown, the middle elided).
pub fn chain_sentence(n: usize, chain: &[crate::solver::Link], contradiction: &str) -> String {
    let links = chain_links(n, chain);
    format!("assume {}", chain_text(&links, Some(contradiction), 12))
}

/// True when `p` has exactly one solution (counted to two under the deadline of `limits`;
/// false when it cannot tell in time).
pub fn is_unique(p: &Sudoku, limits: &Limits) -> bool {
    let limits = Limits {
        deadline: limits.deadline,
        cancel: limits.cancel.clone(),
        ..Limits::all()
    }
    .with_max_solutions(Some(2));
    if let Some((_, r)) = crate::bitsolve::search(p, &limits, 0) {
        return r.complete() && r.solutions == 1;
    }
    let Ok(cand) = crate::board::Candidates::from_puzzle(p) else {
        return false;
    };
    match search(&cand, &limits, 2) {
        (_, Some(r)) => r.complete() && r.solutions == 1,
        (_, None) => false,
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
    if !opts.refute.is_empty() {
        let mut x = Explanation::new(Vec::new(), ExplainStatus::Stalled, Vec::new());
        x.breaks = opts.refute.iter().map(|f| refute(p, f, &opts.limits)).collect();
        return x;
    }
    let max = opts.max_level.unwrap_or(u8::MAX);
    let n = p.n();
    // The unique rectangle holds only for a puzzle with one solution: count to two first (the
    // bit solver, microseconds on 9×9) and use it only when there is exactly one.
    let unique = max >= RULES[Rule::UniqueRectangle as usize].level && is_unique(p, &opts.limits);
    let mut d = match Deducer::new_limited(p, rule_set(max, unique), opts.limits.clone()) {
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
        if opts.no_guess || max < GUESS_LEVEL {
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

/// [`ExplainOptions::refute`] for one fact `rNcM` = digit: the puzzle with that digit given,
/// deduced with every rule but guesses and uniqueness (the simplest first) until the rules
/// break; what broke, with the rule of the step that reached it (a clash with a given breaks
/// the rule of one of each digit per row, column and block). `None` when the rules accept it, a limit stopped them, or the fact names
/// no cell or digit of the puzzle.
fn refute(p: &Sudoku, f: &Fact, limits: &Limits) -> Option<pencilbox_core::human::Contradiction> {
    let n = p.n();
    let (r, c) = pencilbox_core::human::cell_coords(&f.cell)?;
    let (r, c) = (r as usize, c as usize);
    let mut chars = f.value.chars();
    let digit = crate::board::symbol_value(chars.next()?).filter(|_| chars.next().is_none())?;
    if r == 0 || c == 0 || r > n || c > n || digit == 0 || usize::from(digit) > n {
        return None;
    }
    let mut givens = p.givens().to_vec();
    givens[(r - 1) * n + c - 1] = digit;
    let clues = |text: String| pencilbox_core::human::Contradiction {
        rule: "given",
        name: "one of each digit per row, column and block",
        cells: vec![f.cell.clone()],
        text,
    };
    let Some(q) = Sudoku::new(p.block(), givens) else {
        return Some(clues(format!("{} = {digit} does not fit the grid", f.cell)));
    };
    let mut d = match Deducer::new_limited(&q, rule_set(GUESS_LEVEL - 1, false), limits.clone()) {
        Ok(d) => d,
        Err(e) => return Some(clues(e.message)),
    };
    let mut last = None;
    while let Some(s) = d.step() {
        last = Some(s.rule);
    }
    let why = d.contradiction()?.to_string();
    let info = rule_info(last.unwrap_or(Rule::NakedSingle));
    Some(pencilbox_core::human::Contradiction {
        rule: info.id,
        name: info.name,
        cells: vec![f.cell.clone()],
        text: why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIG4: &str = "3.9....74..5...9.2....49...6....3.2....2.5....3.1....7...78....8.3...7..91....5.8";
    const TOP95_2: &str = "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....";
    const SEVERAL: &str = "9........5..734.8.....8........4.......2.586.1.4...357..7.5...6..8....4..........";

    fn run(p: &Sudoku, max_level: Option<u8>, no_guess: bool) -> Explanation {
        let opts = ExplainOptions {
            no_guess,
            max_level,
            ..ExplainOptions::default()
        };
        explain(p, &opts)
    }

    /// `--max-level N` uses exactly the rules of level `N` and below, at every level up to the
    /// hardest one a full explanation uses, and the hardest level is the lowest that solves:
    /// on puzzles that need the named patterns, the chains and Nishio.
    #[test]
    fn max_level_is_exact_at_every_level_and_the_hardest_level_is_needed() {
        let block = crate::board::BlockShape::new(3, 3);
        let mut rng = crate::generate::Rng::new(5);
        let mut puzzles: Vec<Sudoku> = vec![
            Sudoku::parse(FIG4, None).unwrap(),
            Sudoku::parse(TOP95_2, None).unwrap(),
        ];
        puzzles.extend((0..12).map(|_| crate::generate::generate(block, &mut rng, 20).0));
        let mut levels_seen = std::collections::BTreeSet::new();
        for p in &puzzles {
            let full = run(p, None, false);
            assert_eq!(full.status, ExplainStatus::Solved, "{}", p.to_line());
            let hardest = full.steps.iter().map(|s| s.level).max().unwrap_or(1);
            levels_seen.extend(full.steps.iter().map(|s| s.level));
            for level in 1..=hardest {
                let x = run(p, Some(level), true);
                assert!(
                    x.steps.iter().all(|s| s.level <= level),
                    "{} --max-level {level}: {:?}",
                    p.to_line(),
                    x.steps.iter().find(|s| s.level > level).map(|s| &s.text)
                );
                let want = if level == hardest {
                    ExplainStatus::Solved
                } else {
                    ExplainStatus::Stalled
                };
                assert_eq!(
                    x.status,
                    want,
                    "{} --max-level {level} (hardest {hardest})",
                    p.to_line()
                );
            }
        }
        assert!(levels_seen.len() >= 8, "too few levels exercised: {levels_seen:?}");
    }

    /// The rules of uniqueness are used only on a puzzle counted unique: on one with several
    /// solutions the explanation never names them and still reaches a solution (by guesses).
    #[test]
    fn uniqueness_rules_stay_off_for_a_puzzle_with_several_solutions() {
        let p = Sudoku::parse(SEVERAL, None).unwrap();
        assert!(!is_unique(&p, &Limits::default()));
        let x = run(&p, None, false);
        assert_eq!(x.status, ExplainStatus::Solved);
        assert!(x.steps.iter().all(|s| s.rule != "unique-rectangle" && s.rule != "bug"));
        assert!(is_unique(&Sudoku::parse(FIG4, None).unwrap(), &Limits::default()));
    }

    /// SE's length increment (`getLengthDifficulty`), the table's order (each named rule's
    /// number no smaller than the one before it in level order), and the text and JSON rating.
    #[test]
    fn the_se_like_table_follows_sudoku_explainer() {
        let inc: Vec<f64> = [0, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25]
            .iter()
            .map(|&l| (se_length(l) * 10.0).round() / 10.0)
            .collect();
        assert_eq!(inc, [0.0, 0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6]);
        let named: Vec<f64> = RULES[2..17].iter().map(|r| se_of(r.id, 0, false, 0)).collect();
        assert!(named.windows(2).all(|w| w[0] <= w[1]), "{named:?}");
        assert_eq!(se_of("hidden-single", 0, false, 1), 1.2);
        assert_eq!(se_of("chain", 8, false, 0), 7.0 + 0.1);
        assert_eq!(se_of("guess", 0, false, 0), 10.0);
        let x = run(&Sudoku::parse(FIG4, None).unwrap(), None, false);
        let se = se_rating(&x);
        assert!((8.5..10.0).contains(&se), "{se}");
    }
}
