//! Suguru on the generic core finite-domain layer ([`pencilbox_core::fd`]): one variable per
//! cell, a [`NotEqual`] for every pair of king neighbours in different regions (paper rule 2),
//! and an [`AllDifferent::permutation`] of `1..=s` per region (rules 1 and 3, with hidden
//! singles). Searched by [`FdSearch`] (smallest domain first).
//!
//! This is the textbook model (the same constraints as the MIP model and the playground's SAT
//! model); the `fast` solver makes the same deductions incrementally. It is kept as the
//! `fd` algorithm and as an independent cross-check in the tests.

use crate::model::{Solution, Suguru};
use pencilbox_core::fd::{AllDifferent, FdSearch, Model, NotEqual, VarId};
use pencilbox_core::{Domain, Grid};

/// Builds the model; `None` when a region has more than 64 cells.
pub fn model(p: &Suguru) -> Option<FdSearch> {
    if p.max_region_size() > Domain::MAX as usize {
        return None;
    }
    let shape = p.shape();
    let mut m = Model::new();
    let vars: Vec<VarId> = shape
        .all()
        .map(|c| {
            m.new_var(match p.hint(c) {
                0 => Domain::range(1, p.region_size_of(c) as u32),
                h => Domain::single(h),
            })
        })
        .collect();
    for c in shape.all() {
        for d in &pencilbox_core::grid::KING[4..] {
            if let Some(n) = shape.step(c, *d) {
                if p.region_of(n) != p.region_of(c) {
                    m.post(Box::new(NotEqual::new(vars[c.index()], vars[n.index()])));
                }
            }
        }
    }
    for cells in p.regions() {
        let vs = cells.iter().map(|c| vars[c.index()]).collect();
        m.post(Box::new(AllDifferent::permutation(
            vs,
            Domain::range(1, cells.len() as u32),
        )));
    }
    Some(FdSearch::new(m))
}

/// The grid of an all-fixed model.
pub fn grid(p: &Suguru, s: &FdSearch) -> Solution {
    Grid::from_vec(
        p.shape(),
        s.model.values().into_iter().map(|v| v.unwrap_or(0)).collect(),
    )
    .expect("sized")
}
