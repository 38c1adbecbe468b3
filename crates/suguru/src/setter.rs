//! The setter's tools for Suguru ([`pencilbox_core::setter`]): the default `fast` engine model
//! ([`crate::fast`]) with one place per cell for `forced`, hints added at the cells where two
//! solutions differ for `count --suggest`, and the hints to remove for `count --redundant`.

use crate::fast::{FastError, FastSearch};
use crate::model::{Solution, Suguru};
use crate::theorems;
use pencilbox_core::engine::{Engine, VarId};
use pencilbox_core::regions::setter::{
    fact_model as region_model, hints_added as region_hints_added, hints_removed as region_hints_removed,
};
use pencilbox_core::setter::{Clue, ModelSearch, Setup};
use pencilbox_core::PuzzleError;

impl ModelSearch for FastSearch {
    fn engine(&self) -> &Engine {
        FastSearch::engine(self)
    }
    fn engine_mut(&mut self) -> &mut Engine {
        FastSearch::engine_mut(self)
    }
    fn propagate_root(&mut self) -> bool {
        FastSearch::propagate_root(self)
    }
}

/// The `fast` model of `p` (every rule, probing) and its cells, or Theorem 1's reason when the
/// hints already rule out a solution.
pub fn fact_model(p: &Suguru) -> Result<Setup, PuzzleError> {
    if let Some(reason) = theorems::precheck(p) {
        return Ok(Setup::NoSolution(reason));
    }
    let search = FastSearch::new(p).map_err(|FastError::RegionTooLarge(n)| {
        PuzzleError::unsupported(format!(
            "a region of {n} cells is larger than the engine model takes (64)"
        ))
    })?;
    let vars: Vec<VarId> = (0..p.shape().cells()).map(VarId::from_index).collect();
    // Variable `i` is cell `i`, as in the explainer: `forced` names its rules as techniques.
    let vocabulary = pencilbox_core::human::RegionVocabulary {
        shape: p.shape(),
        rules: &crate::explain::RULES,
        meets: pencilbox_core::human::TOUCHES,
    };
    Ok(region_model(p.board(), search, &vars).with_vocabulary(Box::new(vocabulary)))
}

/// A hint of `keep`'s value at each cell where it differs from `drop`.
pub fn separating_clues(p: &Suguru, keep: &Solution, drop: &Solution) -> Vec<Clue<Suguru>> {
    region_hints_added(p.board(), keep, drop, Suguru::from)
}

/// Each hint, with the puzzle without it.
pub fn removable_clues(p: &Suguru) -> Vec<Clue<Suguru>> {
    region_hints_removed(p.board(), Suguru::from)
}
