//! Star Battle's generator: a random star placement (`K` per row and column, never
//! touching), regions grown around it (each with `K` of its stars), then core's local search
//! on the regions ([`generate::settle_with`]) until the rules settle every cell, and core's
//! driver ([`generate::make`]) checks, rates and bands the result.
//!
//! A change moves a cell without a planted star into a neighbouring region, its own region
//! staying connected ([`layout::shift_near`]), so the planted stars stay a solution. A change
//! is kept unless it leaves more cells undecided at the root: by propagation and trial
//! (failed-value probing to a fixpoint, what the explanations' `trial` step does) first, then,
//! for `medium` and `easy`, by propagation alone with the difficulty's rules (`easy`: without
//! the bands). None undecided means a unique solution that those rules find without search; a
//! `medium` or `easy` search that stalls keeps the trial-settled puzzle (the driver draws
//! again when its rating is out of band). Near the end the last open cells are often two
//! solutions that differ by swapping two stars between two rows, whose starless cells are
//! deep inside their regions where no single change reaches them: the endgame takes such a
//! cell out of its region along a path of starless cells ([`layout::detours`]).

use super::StarBattle;
use pencilbox_core::constraints::SumRule;
use pencilbox_core::counts::Counts;
use pencilbox_core::engine::Engine;
use pencilbox_core::genre::undecided_with;
use pencilbox_core::plugin::{GenerateRequest, Generated};
use pencilbox_core::regions::layout;
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::shading::{ShadeModel, ShadeRules, Shading};
use pencilbox_core::{generate, Grid, Limits, PuzzleError, Shape};

/// The growth speed of the slow regions (the others grow at 1).
const SLOW: f64 = 0.1;

/// The generator behind [`pencilbox_core::plugin::Puzzle::generate`] (see the module docs).
pub fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
    let shape = Shape::new(req.height, req.width);
    let k = req
        .setting("stars")
        .map_or(Ok(if shape.height.min(shape.width) >= 10 { 2 } else { 1 }), str::parse);
    let k = k.map_err(|_| PuzzleError::unsupported("stars wants a whole number"))?;
    let rules = match req.difficulty.as_deref() {
        Some("hard") => ShadeRules::ALL,
        Some("easy") => ShadeRules::NONE,
        _ => ShadeRules {
            connect: true,
            probe: false,
        },
    };
    generate::make(req, |rng| {
        let stars = random_stars(shape, k, rng)?;
        let mut labels = Grid::from_vec(shape, shape.all().map(|c| if stars[c] { c.0 + 1 } else { 0 }).collect())?;
        // Half the regions grow at a tenth of the speed: some small regions, which pin their
        // stars down early, among large ones.
        let speed: Vec<f64> = (0..=shape.cells())
            .map(|_| if rng.chance(0.5) { 1.0 } else { SLOW })
            .collect();
        layout::grow(&mut labels, rng, |l| speed[l as usize]);
        layout::merge_to(&mut labels, |c| stars[c], k, rng)?;
        let limits = &req.limits;
        let p = settle(StarBattle::new(&labels, k), &stars, rng, ShadeRules::ALL, limits)?;
        Some((settle(p.clone(), &stars, rng, rules, limits).unwrap_or(p), stars))
    })
}

/// Random stars: `k` per row and column, not touching (`None` when none was found fast).
fn random_stars(shape: Shape, k: u32, rng: &mut SplitMix64) -> Option<Shading> {
    let mut e = Engine::new();
    let m = ShadeModel::new(&mut e, shape, ["empty", "star"]);
    m.no_touch(&mut e);
    let ks = vec![Some(k); shape.height.max(shape.width)];
    let mut c = Counts::new("rows");
    c.rows(shape, &ks[..shape.height], SumRule::Exactly)
        .columns(shape, &ks[..shape.width], SumRule::Exactly);
    c.post(&mut e, &m.cells);
    generate::random_solution(e, m.cells.clone(), rng, 20 * shape.cells() as u64, |e| m.grid(e))
}

/// The local search of the module docs: `p` changed until `rules` (with `rules.probe`: and
/// trial) leave no cell undecided (`None` when it stopped before).
fn settle(
    p: StarBattle,
    stars: &Shading,
    rng: &mut SplitMix64,
    rules: ShadeRules,
    limits: &Limits,
) -> Option<StarBattle> {
    let (k, rounds) = (p.k, 4 * p.shape().cells());
    let open = |l: &Grid<u32>| undecided_with(&StarBattle::new(l, k), rules, rules.probe, limits);
    let shift = |l: &mut Grid<u32>, c, rng: &mut SplitMix64| layout::shift_near(l, |x| stars[x], c, rng);
    let detours = |l: &Grid<u32>, open: &[_]| {
        let starless = open.iter().filter(|&&x| !stars[x]);
        starless.flat_map(|&x| layout::detours(l, |y| stars[y], x)).collect()
    };
    let labels = generate::settle_with(p.regions, rng, rounds, open, shift, limits, detours);
    open(&labels)?.is_empty().then(|| StarBattle::new(&labels, k))
}
