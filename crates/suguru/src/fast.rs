//! The default solver: Suguru as a model on the shared engine ([`pencilbox_core::engine`]),
//! with failed-value probing and smallest-domain-first branching.
//!
//! # Background
//! Definition 1 of the paper (Butrahandisya, Arzaki and Wulandari, *Elementary Algorithmic
//! Methods for Solving Suguru Puzzles*, Section II) has three rules: a region of `s` cells holds
//! `1..=s` (rules 1 and 3: a *permutation*), and two king-adjacent cells differ (rule 2). The
//! model states exactly that:
//! * one variable per cell over `1..=size of its region` (its hint when given), and a
//!   permutation of `1..=size` per region: core's [`RegionModel`];
//! * `a ≠ b` for every two king-adjacent cells of different regions
//!   ([`Distinct::not_equal`](pencilbox_core::constraints::Distinct::not_equal)).
//!
//! The rules of [`pencilbox_core::constraints::distinct`] read that structure; each is a classic
//! Suguru technique, and the engine runs them from the cheapest up:
//! 1. **`naked-single`** — a fixed value leaves every king neighbour and every cell of its
//!    region (the paper's rules 1 and 2 as eliminations).
//! 2. **`hidden-single`** — a value that fits one cell of a region goes there; a value that fits
//!    none is a conflict.
//! 3. **`pointing`** — when value `v` of a region can only go in cells `C`, every cell outside the
//!    region that touches all of `C` loses `v`.
//! 4. **`naked-pair`** — two cells of a region
//!    with the same two values take both, so the rest of the region and their common king
//!    neighbours lose them.
//!
//! [`Rules`] switches rules 2–4 off; the generator grades difficulty with it and the hint
//! explains with the engine's log of these rules.
//!
//! 5. **Failed-value probing** (singleton consistency on two-valued cells, at every node that
//!    still has something to decide: [`Probe::pairs`]) — a value whose assignment propagates to
//!    a conflict is removed. This keeps minimal 20×20 puzzles to a handful of nodes. Off by
//!    default above [`PROBE_MAX_CELLS`] cells, where one probing pass costs more than it saves.
//!
//! # Branching
//! The unfixed cell with the fewest values (lowest index on ties), values increasing, or in a
//! seeded random order for the generator ([`SmallestDomain`]).
//!
//! Regions of more than 64 cells exceed a [`Domain`]; they are refused with
//! [`FastError::RegionTooLarge`] and the caller runs [`crate::large`] instead.

use crate::model::{Solution, Suguru};
use pencilbox_core::constraints::DistinctRules;
use pencilbox_core::engine::{Decision, Engine, EngineSearch, Probe, SmallestDomain, VarId};
use pencilbox_core::grid::KING;
use pencilbox_core::regions::presolve::{PresolveRules, Presolved};
use pencilbox_core::regions::{self, RegionModel};
use pencilbox_core::search::{Backtrack, Expand, StopReason};
use pencilbox_core::{Domain, Grid, Shape};

/// Which deduction rules run (`naked-single` always does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// `hidden-single` in regions.
    pub hidden_single: bool,
    /// `pointing` (a region's value confined to cells with common neighbours).
    pub pointing: bool,
    /// Naked pairs in regions (`naked-pair`).
    pub naked_pair: bool,
    /// Failed-value probing at every node (on grids of at most [`PROBE_MAX_CELLS`] cells).
    pub probe: bool,
}

impl Rules {
    /// Every rule.
    pub const ALL: Rules = Rules {
        hidden_single: true,
        pointing: true,
        naked_pair: true,
        probe: true,
    };
    /// Only naked singles (neighbour and region elimination).
    pub const SINGLES: Rules = Rules {
        hidden_single: false,
        pointing: false,
        naked_pair: false,
        probe: false,
    };
    /// Naked and hidden singles.
    pub const SINGLES_AND_HIDDEN: Rules = Rules {
        hidden_single: true,
        pointing: false,
        naked_pair: false,
        probe: false,
    };

    /// The rules a rule list of [`TABLE`] switches on (`--set rules=-pointing`).
    pub fn parse(spec: Option<&str>) -> Result<Rules, String> {
        let on = TABLE.parse(spec)?;
        Ok(Rules {
            hidden_single: on.has("hidden-single"),
            pointing: on.has("pointing"),
            naked_pair: on.has("naked-pair"),
            probe: on.has("probe"),
        })
    }

    /// The presolve's share of these rules ([`presolve`]).
    pub fn presolve(self) -> PresolveRules {
        PresolveRules {
            hidden_single: self.hidden_single,
            pointing: self.pointing,
        }
    }

    /// The same rules as the distinctness library's switches (no hidden subsets: `fast` never
    /// used them).
    pub fn distinct(self) -> DistinctRules {
        DistinctRules {
            hidden_single: self.hidden_single,
            pointing: self.pointing,
            naked_subsets: if self.naked_pair { 2 } else { 0 },
            hidden_subsets: 0,
            by_size: false,
        }
    }
}

/// The rules of `fast` in core's vocabulary ([`pencilbox_core::rules`]): `naked-single` (the
/// regions and the touching rule) defines the puzzle; the others switch with
/// `--set rules=…`.
pub static TABLE: pencilbox_core::rules::RuleTable = pencilbox_core::rules::RuleTable {
    algorithm: "fast",
    rules: &[
        pencilbox_core::rules::NAKED_SINGLE,
        pencilbox_core::rules::HIDDEN_SINGLE,
        pencilbox_core::rules::POINTING,
        pencilbox_core::rules::NAKED_PAIR.saying("two cells of a region with the same two values take them from the rest of the region and from their common neighbours (`naked-subset` of two cells)"),
        pencilbox_core::rules::PROBE,
    ],
};

/// The instance cannot be handled by the engine model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FastError {
    /// A region has more cells than a [`Domain`] has values.
    RegionTooLarge(usize),
}

/// Probing costs a propagation per two-valued cell at every branching node, so it is switched
/// off by default on grids larger than this (in cells).
pub const PROBE_MAX_CELLS: usize = 10_000;

/// The engine holding the Suguru model of `p` with `rules` posted: variable `i` is cell `i`
/// (row-major).
pub fn model(p: &Suguru, rules: Rules) -> Result<Engine, FastError> {
    model_with(p, rules.distinct())
}

/// [`model`] with any of the distinctness library's rules (the explainer posts them all).
pub fn model_with(p: &Suguru, rules: DistinctRules) -> Result<Engine, FastError> {
    let big = p.max_region_size();
    let Some(model) = RegionModel::new(p.board()) else {
        return Err(FastError::RegionTooLarge(big));
    };
    // Cells of different regions that touch (the king's steps; the four forward ones give
    // every touching pair) differ.
    let (engine, _) = model.post_touching(p.board(), &KING[4..], rules);
    Ok(engine)
}

/// The root deductions of the default rules on plain bitmasks
/// ([`pencilbox_core::regions::presolve`]: naked and hidden singles, pointing, with the king's
/// steps): a conflict, the only grid they allow, or the domains to start the engine from.
/// `None` when a region has more than 64 cells.
pub fn presolve(p: &Suguru) -> Option<Presolved> {
    presolve_with(p, Rules::ALL)
}

/// [`presolve`] with the presolve's share of `rules` (hidden singles, pointing).
pub fn presolve_with(p: &Suguru, rules: Rules) -> Option<Presolved> {
    regions::presolve::presolve(p.board(), &KING[4..], rules.presolve())
}

/// The search state: the engine model searched with probing and smallest-domain branching.
pub struct FastSearch {
    search: EngineSearch<SmallestDomain>,
    shape: Shape,
}

impl FastSearch {
    /// Builds the state with every rule on.
    pub fn new(p: &Suguru) -> Result<Self, FastError> {
        Self::with_rules(p, Rules::ALL)
    }

    /// Builds the state with a chosen rule set.
    pub fn with_rules(p: &Suguru, rules: Rules) -> Result<Self, FastError> {
        let engine = model(p, rules)?;
        let mut search = EngineSearch::new(engine, SmallestDomain::new());
        if rules.probe && p.shape().cells() <= PROBE_MAX_CELLS {
            search = search.with_probe(Probe::pairs());
        }
        Ok(FastSearch {
            search,
            shape: p.shape(),
        })
    }

    /// Builds the state (every rule on) with the cells narrowed to `domains` (row-major), e.g.
    /// what [`presolve`] left; `None` starts from the hints.
    pub fn from_domains(p: &Suguru, domains: Option<&Vec<Domain>>) -> Result<Self, FastError> {
        Self::from_domains_with(p, domains, Rules::ALL)
    }

    /// [`FastSearch::from_domains`] with a chosen rule set.
    pub fn from_domains_with(p: &Suguru, domains: Option<&Vec<Domain>>, rules: Rules) -> Result<Self, FastError> {
        let mut s = Self::with_rules(p, rules)?;
        if let Some(domains) = domains {
            let engine = s.engine_mut();
            for (i, &d) in domains.iter().enumerate() {
                let v = VarId(i as u32);
                if d != engine.dom(v) {
                    // A conflict here is found again by the root propagation.
                    let _ = engine.restrict(v, d);
                }
            }
        }
        Ok(s)
    }

    /// Tries values in a random order drawn from `seed` (the generator's random fill).
    pub fn randomise(&mut self, seed: u64) {
        self.search.brancher = SmallestDomain::new().shuffled_values(seed);
    }

    /// Switches failed-value probing at branching nodes on or off (on by default for grids of at
    /// most [`PROBE_MAX_CELLS`] cells).
    pub fn set_probing(&mut self, on: bool) {
        self.search.probe = on.then(Probe::pairs);
    }

    /// The engine (its rule statistics, its explanation log).
    pub fn engine(&self) -> &Engine {
        &self.search.engine
    }

    /// The engine, to switch explanations on or set limits before searching.
    pub fn engine_mut(&mut self) -> &mut Engine {
        &mut self.search.engine
    }

    /// The current domains, row-major.
    pub fn domains(&self) -> &[Domain] {
        self.search.engine.domains()
    }

    /// The filled grid (`0` where a cell is not fixed).
    pub fn grid(&self) -> Solution {
        Grid::from_vec(
            self.shape,
            self.domains().iter().map(|d| d.value().unwrap_or(0)).collect(),
        )
        .expect("one variable per cell")
    }

    /// True when every cell is fixed.
    pub fn all_fixed(&self) -> bool {
        self.search.engine.all_fixed()
    }

    /// Root propagation only (no search): `false` when it finds a conflict.
    pub fn propagate_root(&mut self) -> bool {
        self.search.propagate_root()
    }

    /// The cell whose domain the last conflict would have emptied, if it emptied one (the
    /// generator repairs layouts around it).
    pub fn conflict(&self) -> Option<usize> {
        self.search.engine.conflict_var().map(|v| v.index())
    }
}

impl Backtrack for FastSearch {
    type Branch = Decision;

    #[inline]
    fn expand(&mut self, out: &mut Vec<Decision>) -> Expand {
        self.search.expand(out)
    }

    #[inline]
    fn apply(&mut self, d: Decision) -> bool {
        self.search.apply(d)
    }

    #[inline]
    fn undo(&mut self, d: Decision) {
        self.search.undo(d)
    }

    /// The learning search asserts its clauses here (after a dead end or a solution): a
    /// wrapper that left this method out would end a learning search at its first solution.
    #[inline]
    fn successor(&mut self, d: Decision) -> Option<Decision> {
        self.search.successor(d)
    }

    fn interrupted(&self) -> Option<StopReason> {
        self.search.interrupted()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse;
    use pencilbox_core::search::{run, Flow, Limits};

    #[test]
    fn fig1_is_solved_by_propagation_alone() {
        let p = parse("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
        let mut s = FastSearch::new(&p).unwrap();
        let r = run(&mut s, &Limits::all(), |s| {
            assert!(crate::verify(&p, &s.grid()).is_valid());
            Flow::Continue
        });
        assert!(r.solutions >= 1);
    }

    #[test]
    fn undo_restores_the_root_domains() {
        let p = parse("3 3\n0 0 0\n0 0 0\n0 0 0\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
        let mut s = FastSearch::new(&p).unwrap();
        assert!(s.propagate_root());
        let before = s.domains().to_vec();
        let r = run(&mut s, &Limits::all(), |_| Flow::Continue);
        assert!(r.complete());
        assert_eq!(s.domains(), &before[..]);
    }

    #[test]
    fn regions_over_64_cells_are_refused() {
        let labels = vec!["1"; 65].join(" ");
        let hints = vec!["0"; 65].join(" ");
        let p = parse(&format!("1 65\n{hints}\n{labels}\n")).unwrap();
        assert!(matches!(FastSearch::new(&p), Err(FastError::RegionTooLarge(65))));
    }

    #[test]
    fn the_rules_are_posted_under_their_names() {
        let p = parse("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
        let all = model(&p, Rules::ALL).unwrap();
        assert_eq!(
            all.rule_names(),
            ["naked-single", "hidden-single", "pointing", "naked-pair"]
        );
        assert_eq!(model(&p, Rules::SINGLES).unwrap().rule_names(), ["naked-single"]);
    }
}
