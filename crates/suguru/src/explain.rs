//! The steps a person would take to solve a Suguru, rated: the engine model of
//! [`crate::fast`] with every rule of core's distinctness library, run by core's levelled
//! driver ([`pencilbox_core::human`]).
//!
//! | level | rule | what it says |
//! |---|---|---|
//! | 1 | neighbour exclusion (`exclusion`) | a placed number leaves its region and the eight cells around it |
//! | 1 | naked single | … and a cell left with one candidate takes it |
//! | 2 | hidden single in a region | a number the region still needs fits only one of its cells |
//! | 3 | pointing | a region's places for a number all touch one outside cell: that cell loses the number |
//! | 4 | naked / hidden pair | two cells holding the same two numbers (two numbers fitting the same two cells) |
//! | 5 | naked / hidden triple | the same with three |
//! | 6 | contradiction (trial) | assuming one value of a two-valued cell, levels 1–5 reach a contradiction |
//! | 7 | guess | nothing applies: the value of the solution, found by search |

use crate::model::Suguru;
use pencilbox_core::constraints::DistinctRules;
use pencilbox_core::human::{self, region, ExplainOptions, Explanation, RegionVocabulary, RuleInfo};
use pencilbox_core::PuzzleError;

/// Suguru's rules, simplest first.
pub const RULES: [RuleInfo; 10] = region::rules(
    "a placed number leaves its region and every cell touching it",
    "a placed number leaves its region and every cell touching it, and a cell is left with one number",
);

/// Explains `p` (see the module docs).
///
/// ```
/// use pencilbox_core::human::{ExplainOptions, ExplainStatus};
/// let p = pencilbox_suguru::parse("1 3\n0 0 0\n1 1 2\n").unwrap();
/// let x = pencilbox_suguru::explain::explain(&p, &ExplainOptions::default()).unwrap();
/// assert_eq!(x.status, ExplainStatus::Solved);
/// assert_eq!(x.steps[0].name, "naked single");
/// ```
pub fn explain(p: &Suguru, opts: &ExplainOptions) -> Result<Explanation, PuzzleError> {
    let mut e = crate::fast::model_with(p, DistinctRules::EXPLAIN)
        .map_err(|_| PuzzleError::unsupported("regions of more than 64 cells cannot be explained"))?;
    let vocab = RegionVocabulary {
        shape: p.shape(),
        rules: &RULES,
        meets: human::TOUCHES,
    };
    Ok(human::explain_engine(&mut e, &vocab, opts))
}
