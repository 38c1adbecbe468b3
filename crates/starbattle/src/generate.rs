//! Star Battle's generator: a random star placement (`K` per row and column, never
//! touching), regions grown around it (each with `K` of its stars), then a local search on
//! the regions until the rules settle every cell, and core's driver
//! ([`pencilbox_core::generate::make`]) checks, rates and bands the result.
//!
//! # The local search
//! A change moves a cell without a planted star into a neighbouring region (its own region
//! stays connected), so the planted stars stay a solution. A change is kept unless it leaves
//! more cells undecided at the root: by propagation and trial (failed-value probing to a
//! fixpoint, what the explanations' `trial` step does) first, then, for `medium` and `easy`,
//! by propagation alone with the difficulty's rules (`easy`: without the bands). None
//! undecided means a unique solution that those rules find without search; a `medium` or
//! `easy` search that stalls keeps the trial-settled puzzle (the driver draws again when its
//! rating is out of band).
//!
//! While many cells are open, a round makes several changes at once (one per
//! [`MOVES_EVERY`] open cells): most single changes of a loose layout decide nothing, and
//! evaluating each would cost a probe of the whole grid. Near the end the last open cells are
//! often two solutions that differ by swapping two stars between two rows, whose starless cells
//! are inside their regions where no single change reaches them; after [`STALL`] rounds
//! without progress, every way to take such a cell out of its region along a path of
//! starless cells ([`detours`]) is tried and the best is kept. A search that makes no
//! progress for [`PATIENCE`] rounds is dropped and the driver draws a new placement.

use super::StarBattle;
use pencilbox_core::constraints::SumRule;
use pencilbox_core::counts::Counts;
use pencilbox_core::engine::{Engine, EngineSearch, Passes, Priority, Probe, SmallestDomain};
use pencilbox_core::grid::{KING, ORTHOGONAL};
use pencilbox_core::plugin::{GenerateRequest, Generated};
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::search::{run, Flow, Limits};
use pencilbox_core::shading::{ShadeModel, ShadeRules, Shading};
use pencilbox_core::{generate, CellId, Grid, PuzzleError, Shape};

/// The growth speed of the slow regions (the others grow at 1).
const SLOW: f64 = 0.1;

/// A round makes one change, plus one per this many open cells.
const MOVES_EVERY: usize = 30;

/// Rounds without progress after which the search is dropped.
const PATIENCE: usize = 150;

/// Rounds without progress, with at most [`ENDGAME`] cells open, before the detours.
const STALL: usize = 40;

/// The open cells below which the detours are tried.
const ENDGAME: usize = 12;

/// How many more open cells a detour may leave than before (a way out of a dead end).
const DETOUR_SLACK: usize = 8;

/// The generator behind [`pencilbox_core::plugin::Puzzle::generate`] (see the module docs).
pub fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
    let shape = Shape::new(req.height, req.width);
    let k = req.setting("stars").map_or(
        Ok(if shape.height.min(shape.width) >= 10 { 2 } else { 1 }),
        str::parse::<u32>,
    );
    let k = k.map_err(|_| PuzzleError::unsupported("stars wants a whole number"))?;
    let rules = match req.difficulty.as_deref() {
        Some("hard") => ShadeRules::ALL,
        Some("easy") => ShadeRules::NONE,
        _ => ShadeRules {
            connect: true,
            probe: false,
        },
    };
    let rounds = 4 * shape.cells();
    generate::make(req, |rng| {
        let stars = random_stars(shape, k, rng)?;
        let p = StarBattle::new(&random_regions(&stars, k, rng)?, k);
        let mut p = settle(p, &stars, rng, rounds, ShadeRules::ALL, &req.limits)?;
        if !rules.probe {
            if let Some(q) = settle(p.clone(), &stars, rng, rounds, rules, &req.limits) {
                p = q;
            }
        }
        Some((p, stars))
    })
}

/// Random stars: `k` per row and column, not touching, placed row by row with random
/// values (`None` when none was found fast).
fn random_stars(shape: Shape, k: u32, rng: &mut SplitMix64) -> Option<Shading> {
    let mut e = Engine::new();
    let m = ShadeModel::new(&mut e, shape, ["empty", "star"]);
    m.no_touch(&mut e);
    let ks = vec![Some(k); shape.height.max(shape.width)];
    let mut c = Counts::new("rows");
    c.rows(shape, &ks[..shape.height], SumRule::Exactly)
        .columns(shape, &ks[..shape.width], SumRule::Exactly);
    c.post(&mut e, &m.cells);
    let mut s = EngineSearch::new(e, SmallestDomain::over(m.cells.clone()).shuffled_values(rng.next_u64()));
    let mut out = None;
    run(
        &mut s,
        &Limits {
            node_limit: Some(20 * shape.cells() as u64),
            ..Limits::first()
        },
        |s| {
            out = Some(m.grid(&s.engine));
            Flow::Stop
        },
    );
    out
}

/// Regions around `stars`: one per star grown at random over the grid (half of them
/// slowly), then merged with neighbours until each holds `k` stars, the region with the
/// fewest choices first (`None` when the merging gets stuck).
fn random_regions(stars: &Shading, k: u32, rng: &mut SplitMix64) -> Option<Grid<u32>> {
    let shape = stars.shape();
    let mut label = Grid::from_vec(shape, shape.all().map(|c| if stars[c] { c.0 + 1 } else { 0 }).collect())?;
    let mut open: Vec<CellId> = shape.all().filter(|&c| label[c] == 0).collect();
    // Half the regions grow at a tenth of the speed: some small regions, which pin their
    // stars down early, among large ones.
    let speed: Vec<f64> = (0..=shape.cells())
        .map(|_| if rng.chance(0.5) { 1.0 } else { SLOW })
        .collect();
    while !open.is_empty() {
        let i = rng.below(open.len());
        let c = open[i];
        let next: Vec<CellId> = ORTHOGONAL
            .iter()
            .filter_map(|&d| shape.step(c, d))
            .filter(|&n| label[n] != 0)
            .collect();
        if let Some(&n) = next.get(rng.below(next.len().max(1))) {
            if !rng.chance(speed[label[n] as usize]) {
                continue;
            }
            label[c] = label[n];
            open.swap_remove(i);
        }
    }
    let mut count = vec![0u32; shape.cells() + 1];
    shape
        .all()
        .filter(|&c| stars[c])
        .for_each(|c| count[label[c] as usize] += 1);
    loop {
        // Each region short of k stars, with the neighbours it could merge with.
        let mut best: Option<(u32, Vec<u32>)> = None;
        for l in (1..count.len() as u32).filter(|&l| count[l as usize] > 0 && count[l as usize] < k) {
            let mut near: Vec<u32> = shape
                .all()
                .filter(|&c| label[c] == l)
                .flat_map(|c| ORTHOGONAL.iter().filter_map(move |&d| shape.step(c, d)))
                .map(|n| label[n])
                .filter(|&m| m != l && count[m as usize] + count[l as usize] <= k)
                .collect();
            near.sort_unstable();
            near.dedup();
            if best.as_ref().is_none_or(|(_, b)| near.len() < b.len()) {
                best = Some((l, near));
            }
        }
        let Some((l, near)) = best else {
            return Some(label);
        };
        let &m = near.get(rng.below(near.len().max(1)))?;
        label
            .as_mut_slice()
            .iter_mut()
            .filter(|x| **x == m)
            .for_each(|x| *x = l);
        count[l as usize] += count[m as usize];
        count[m as usize] = 0;
    }
}

/// The cells that the rules (with `rules.probe`: and trial, as the explanations try
/// values) leave undecided at the root; `None` when they find no solution.
fn undecided(p: &StarBattle, rules: ShadeRules, limits: &Limits) -> Option<Vec<CellId>> {
    let (mut e, m) = p.model(rules).ok()?;
    // The local search runs many of these: each reads the deadline (`None` once it passed).
    e.set_limits(limits);
    e.propagate().ok()?;
    if rules.probe {
        e.probe(&Probe {
            vars: Some(m.cells.clone()),
            max_values: 2,
            passes: Passes::Fixpoint,
            suspend: Some(Priority::Global),
            descending: true,
            after_failures: 0,
        })
        .ok()?;
    }
    if e.interrupted().is_some() {
        return None;
    }
    Some(m.shape.all().filter(|&c| e.value(m.cell(c)).is_none()).collect())
}

/// The local search of the module docs: `p` changed until `rules` leave no cell of it
/// undecided (`None` when it stopped before, also at the deadline or cancellation of
/// `limits`, read every round).
fn settle(
    mut p: StarBattle,
    stars: &Shading,
    rng: &mut SplitMix64,
    rounds: usize,
    rules: ShadeRules,
    limits: &Limits,
) -> Option<StarBattle> {
    let mut open = undecided(&p, rules, limits)?;
    let mut best = open.len();
    let (mut since_best, mut since_less) = (0, 0);
    for _ in 0..rounds {
        if open.is_empty() {
            return Some(p);
        }
        if since_best > PATIENCE || limits.interrupted().is_some() {
            return None;
        }
        since_best += 1;
        since_less += 1;
        let next = if open.len() <= ENDGAME && since_less > STALL {
            since_less = 0;
            let mut tried = Vec::new();
            for &x in open.iter().filter(|&&x| !stars[x]) {
                for labels in detours(&p.regions, stars, x) {
                    let q = StarBattle::new(&labels, p.k);
                    if let Some(o) = undecided(&q, rules, limits) {
                        tried.push((q, o));
                    }
                }
            }
            tried
                .into_iter()
                .filter(|(_, o)| o.len() <= open.len() + DETOUR_SLACK)
                .min_by_key(|(_, o)| o.len())
        } else {
            let mut q = p.clone();
            let mut moved = false;
            for _ in 0..1 + open.len() / MOVES_EVERY {
                moved |= reshape(&mut q, stars, open[rng.below(open.len())], rng);
            }
            moved
                .then(|| undecided(&q, rules, limits).map(|o| (q, o)))
                .flatten()
                .filter(|(_, o)| o.len() <= open.len())
        };
        let Some((q, o)) = next else {
            continue;
        };
        if o.len() < open.len() {
            since_less = 0;
        }
        if o.len() < best {
            (best, since_best) = (o.len(), 0);
        }
        (p, open) = (q, o);
    }
    open.is_empty().then_some(p)
}

/// One change of the regions near `c` that keeps `stars` a solution: a cell next to `c` (or
/// `c`) without a star moves into a neighbouring region, which leaves its own connected.
fn reshape(p: &mut StarBattle, stars: &Shading, c: CellId, rng: &mut SplitMix64) -> bool {
    let shape = p.shape();
    let mut moves = Vec::new();
    for x in std::iter::once(c).chain(KING.iter().filter_map(|&d| shape.step(c, d))) {
        if stars[x] {
            continue;
        }
        for n in ORTHOGONAL.iter().filter_map(|&d| shape.step(x, d)) {
            if p.regions[n] != p.regions[x] {
                moves.push((x, p.regions[n]));
            }
        }
    }
    rng.shuffle(&mut moves);
    for (x, l) in moves {
        let mut next = p.regions.clone();
        next[x] = l;
        if region_connected(&next, p.regions[x]) {
            *p = StarBattle::new(&next, p.k);
            return true;
        }
    }
    false
}

/// Layouts where `x` (without a star) has left its region: the cells of a shortest path of
/// cells without stars in `x`'s region, from `x` to one next to another region, join that
/// region (only those that leave `x`'s region connected).
fn detours(labels: &Grid<u32>, stars: &Shading, x: CellId) -> Vec<Grid<u32>> {
    let shape = labels.shape();
    let l = labels[x];
    let mut parent = vec![None; shape.cells()];
    let mut queue = vec![x];
    let mut out = Vec::new();
    let mut i = 0;
    while i < queue.len() && out.len() < 4 {
        let y = queue[i];
        i += 1;
        let mut into: Vec<u32> = ORTHOGONAL
            .iter()
            .filter_map(|&d| shape.step(y, d))
            .map(|n| labels[n])
            .filter(|&m| m != l)
            .collect();
        into.dedup();
        for m in into {
            let mut next = labels.clone();
            let mut z = Some(y);
            while let Some(c) = z {
                next[c] = m;
                z = parent[c.index()];
            }
            if region_connected(&next, l) {
                out.push(next);
            }
        }
        for n in ORTHOGONAL.iter().filter_map(|&d| shape.step(y, d)) {
            if labels[n] == l && !stars[n] && n != x && parent[n.index()].is_none() {
                parent[n.index()] = Some(y);
                queue.push(n);
            }
        }
    }
    out
}

/// Are the cells of region `l` of `labels` connected?
fn region_connected(labels: &Grid<u32>, l: u32) -> bool {
    let shape = labels.shape();
    let size = shape.all().filter(|&c| labels[c] == l).count();
    let Some(start) = shape.all().find(|&c| labels[c] == l) else {
        return true;
    };
    let mut seen = vec![start];
    let mut i = 0;
    while i < seen.len() {
        let x = seen[i];
        i += 1;
        for n in ORTHOGONAL.iter().filter_map(|&d| shape.step(x, d)) {
            if labels[n] == l && !seen.contains(&n) {
                seen.push(n);
            }
        }
    }
    seen.len() == size
}
