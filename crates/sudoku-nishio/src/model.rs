//! Sudoku as a model on the shared engine ([`pencilbox_core::engine`]): one variable per cell
//! (domain `1..=n`, narrowed by the givens), one permutation constraint per row, column and
//! block ([`Distinct`]), and Nishio (Eppstein, Sections 2–3) as the engine rule `nishio`.
//!
//! | rule | priority | what it does |
//! |---|---|---|
//! | `naked-single`, `hidden-single` | immediate, linear | core's all-different-with-permutation propagation |
//! | `pointing` | costly | pointing (a block's places for a digit on one line) and claiming (a line's places in one block) |
//! | `naked-pair`, `naked-triple`, `hidden-pair`, `hidden-triple` | costly | naked and hidden pairs and triples, one propagator per size ([`DistinctRules::by_size`]), so the explainer switches pairs on before triples |
//! | `x-wing`, `swordfish`, `jellyfish`, `turbot-fish`, `xy-wing`, `xyz-wing`, `wxyz-wing`, `naked-quad`, `hidden-quad` (and `unique-rectangle`, `bug` when [`RuleSet::uniqueness`]) | costly | the named patterns of [`crate::patterns`] and core's subsets of four, with [`RuleSet::patterns`] |
//! | `nishio` | global | [`NishioRule`]: the candidates of a digit `d` on no valid placement inside `S` (Section 2), by reachability in the shared [`AbGraph`] (Section 3): every digit at once in one bit-parallel sweep ([`crate::nishio::nishio_lanes`], the fastest method) on graphs up to 65,536 vertices when no explanation is asked for; otherwise one digit at a time with the paper's DAG method and its placement count ([`crate::nishio::nishio_with`]) |
//!
//! The `deduce` algorithm ([`crate::solver`]) runs these to a fixpoint with the explanation log
//! on, adds the implication and forcing chains as its own last-resort rules, and searches on
//! the same engine if the rules stall; `backtrack` ([`crate::backtrack`]) searches a model with
//! the singles only.

use crate::board::{Candidates, CellMask};
use crate::geometry::Geometry;
use crate::graph::AbGraph;
use crate::solver::RuleSet;
use pencilbox_core::constraints::distinct::post_rules;
use pencilbox_core::constraints::{Distinct, DistinctGraph, DistinctRules};
use pencilbox_core::encode::{Encoded, Encoder};
use pencilbox_core::engine::{Conflict, Context, Engine, Premise, Priority, Propagator, VarId};
use pencilbox_core::{Domain, Limits};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::sync::{Arc, Mutex};

/// Estimated time to build `G_U`, per vertex (measured: 25×25, 4.5 M vertices, 1.3–2.5 s).
const BUILD_NS_PER_VERTEX: u64 = 500;

/// What the [`NishioRule`] tells its model besides domain changes: the number of valid
/// placements left after each elimination (when explaining), why it found a contradiction,
/// and why it is off.
#[derive(Clone, Debug, Default)]
pub struct NishioLog {
    /// Per elimination step (in log order, only while explaining): the digit and the number of
    /// valid placements inside `S`.
    pub placements: Vec<(u8, Option<u128>)>,
    /// The digit that has no valid placement left, after a conflict of the rule.
    pub no_placement: Option<u8>,
    /// Why the rule is off or was skipped.
    pub note: Option<String>,
}

/// The work of a deduction run counted against [`Limits::node_limit`]: a node limit bounds
/// deduction as it bounds search. One unit is one poll of the limits by the Nishio graph build
/// or search (each covers a bounded slice of their loops) or one deduction round of the
/// [`crate::solver::Deducer`].
#[derive(Debug, Default)]
pub struct Work {
    used: AtomicU64,
    max: Option<u64>,
}

impl Work {
    /// A meter for `limits.node_limit` (no limit: never stops).
    pub fn new(limits: &Limits) -> Self {
        Work {
            used: AtomicU64::new(0),
            max: limits.node_limit,
        }
    }
    /// Spends one unit; true when the limit is exceeded.
    pub fn spend(&self) -> bool {
        match self.max {
            None => false,
            Some(m) => self.used.fetch_add(1, Ordering::Relaxed) >= m,
        }
    }
    /// Units spent so far (at most the limit).
    pub fn used(&self) -> u64 {
        let u = self.used.load(Ordering::Relaxed);
        self.max.map_or(u, |m| u.min(m))
    }
}

/// The engine rule `nishio`: Eppstein's single-digit deduction. Each run finds the first digit
/// (in increasing order) whose candidate set `S` loses cells, removes them and returns, so the
/// cheaper rules reach their fixpoint before the next digit is looked at (the engine queues
/// the rule again after its own changes). A digit whose `S` is the one on which the rule last
/// removed nothing is skipped (the result depends only on `S`).
pub struct NishioRule {
    geo: Arc<Geometry>,
    graph: Option<Arc<AbGraph>>,
    limits: Limits,
    work: Arc<Work>,
    clean: Vec<Option<CellMask>>,
    off: bool,
    log: Arc<Mutex<NishioLog>>,
}

impl NishioRule {
    /// The rule for a shape; the graph is fetched (built on first use) at its first run, under
    /// the deadline and cancellation flag of `limits`.
    pub fn new(geo: Arc<Geometry>, limits: Limits, log: Arc<Mutex<NishioLog>>) -> Self {
        let work = Arc::new(Work::new(&limits));
        Self::metered(geo, limits, work, log)
    }

    /// [`NishioRule::new`] spending `work` at every poll of the limits.
    pub fn metered(geo: Arc<Geometry>, limits: Limits, work: Arc<Work>, log: Arc<Mutex<NishioLog>>) -> Self {
        let n = geo.n();
        let off = match AbGraph::check(geo.block()) {
            Err(e) => {
                lock_log(&log).note = Some(format!("Nishio rule off: {e}"));
                true
            }
            Ok(()) => false,
        };
        NishioRule {
            geo,
            graph: None,
            limits,
            work,
            clean: vec![None; n + 1],
            off,
            log,
        }
    }

    /// The graph, fetched under the limits; `None` when the rule is off for this run or the
    /// limits stopped the build.
    fn graph(&mut self) -> Option<Arc<AbGraph>> {
        if self.off {
            return None;
        }
        if let Some(g) = &self.graph {
            return Some(g.clone());
        }
        // The first build for a shape takes seconds for 25×25. When the deadline leaves
        // clearly too little time for it (less than twice the estimate), the rule is skipped
        // for this run rather than spend the rest of the time on a build that would be dropped.
        let block = self.geo.block();
        if let Some(deadline) = self.limits.deadline {
            let estimate = std::time::Duration::from_nanos(
                (crate::graph::vertex_count(block) as u64).saturating_mul(BUILD_NS_PER_VERTEX),
            );
            let left = deadline.saturating_duration_since(pencilbox_core::time::Instant::now());
            if !AbGraph::is_cached(block) && left < 2 * estimate {
                lock_log(&self.log).note = Some(format!(
                    "Nishio rule skipped: building its graph for {block} blocks (about {} ms) would not fit the time left ({} ms)",
                    estimate.as_millis(),
                    left.as_millis()
                ));
                self.off = true;
                return None;
            }
        }
        let (limits, work) = (&self.limits, &self.work);
        match AbGraph::get_with(block, &|| limits.interrupted().is_some() || work.spend()) {
            Ok(g) => self.graph = g,
            Err(e) => {
                lock_log(&self.log).note = Some(format!("Nishio rule off: {e}"));
                self.off = true;
            }
        }
        self.graph.clone()
    }
}

pub(crate) fn lock_log(m: &Mutex<NishioLog>) -> std::sync::MutexGuard<'_, NishioLog> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Propagator for NishioRule {
    fn name(&self) -> &'static str {
        "nishio"
    }
    fn encode(&self, _: &mut Encoder) -> Encoded {
        // A deduction from the permutations, which `naked-single` encodes.
        Encoded::Implied
    }
    fn priority(&self) -> Priority {
        Priority::Global
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let Some(g) = self.graph() else {
            return Ok(());
        };
        let n = self.geo.n();
        let (limits, work) = (&self.limits, &self.work);
        let stop = || limits.interrupted().is_some() || work.spend();
        if !cx.explaining() && g.num_vertices() <= LANES_MAX_VERTICES {
            if stop() {
                return Ok(());
            }
            return self.propagate_lanes(cx, &g);
        }
        for (d, s) in self.changed_sets(cx) {
            // Interrupted: leave the rest to the engine, which reports the interruption.
            let Some(r) = crate::nishio::nishio_with(&g, &s, &stop) else {
                return Ok(());
            };
            let Some(removed) = verdict(&self.log, &mut self.clean[d as usize], d, s, &r.keep)? else {
                continue;
            };
            if cx.explaining() {
                // It rests on S: every cell outside S has lost the digit.
                let premises: Vec<Premise> = (0..n * n)
                    .filter(|&i| !s.contains(i / n, i % n))
                    .map(|i| Premise::not(VarId::from_index(i), d as u32))
                    .collect();
                cx.because(premises);
                lock_log(&self.log).placements.push((d, r.placements));
            }
            return remove_digit(cx, n, d, &removed);
        }
        Ok(())
    }
}

/// Nishio's verdict on digit `d` (candidate cells `s`, `keep` those on some valid placement):
/// no placement is a contradiction (logged); nothing to remove marks `s` clean in `clean`
/// (`None`); else the cells to remove.
fn verdict(
    log: &Mutex<NishioLog>,
    clean: &mut Option<CellMask>,
    d: u8,
    s: CellMask,
    keep: &CellMask,
) -> Result<Option<CellMask>, Conflict> {
    if keep.is_empty() {
        lock_log(log).no_placement = Some(d);
        return Err(Conflict);
    }
    let removed = s.minus(keep);
    if removed.is_empty() {
        *clean = Some(s);
        return Ok(None);
    }
    Ok(Some(removed))
}

/// Removes digit `d` from `cells` (an `n × n` grid).
fn remove_digit(cx: &mut Context, n: usize, d: u8, cells: &CellMask) -> Result<(), Conflict> {
    for (row, c) in cells.iter() {
        cx.remove(VarId::from_index(row * n + c), d as u32)?;
    }
    Ok(())
}

/// Graphs up to this many vertices (every shape up to 16×16 blocks of 4×4; a sweep takes well
/// under the limits' polling interval) run Nishio for every digit at once with
/// [`crate::nishio::nishio_lanes`], the fastest method, when no explanation is asked for (an
/// explanation reports each digit's placement count, which only the DAG method counts).
const LANES_MAX_VERTICES: usize = 1 << 16;

impl NishioRule {
    /// Each digit's candidate cells `S`, for the digits whose `S` changed since Nishio last
    /// found nothing to remove in it.
    fn changed_sets(&self, cx: &Context) -> Vec<(u8, CellMask)> {
        let n = self.geo.n();
        (1..=n as u8)
            .filter_map(|d| {
                let mut s = CellMask::empty(n);
                for i in 0..n * n {
                    if cx.dom(VarId::from_index(i)).contains(d as u32) {
                        s.insert(i / n, i % n);
                    }
                }
                (self.clean[d as usize].as_ref() != Some(&s)).then_some((d, s))
            })
            .collect()
    }

    /// Nishio for every digit whose candidates changed, in one bit-parallel sweep of the DAG
    /// (lane `k` = one digit's candidate set `S`); every elimination applied at once.
    fn propagate_lanes(&mut self, cx: &mut Context, g: &AbGraph) -> Result<(), Conflict> {
        let n = self.geo.n();
        let (digits, sets): (Vec<u8>, Vec<CellMask>) = self.changed_sets(cx).into_iter().unzip();
        if sets.is_empty() {
            return Ok(());
        }
        let keep = crate::nishio::nishio_lanes(g, &sets);
        for ((d, s), keep) in digits.into_iter().zip(sets).zip(keep) {
            if let Some(removed) = verdict(&self.log, &mut self.clean[d as usize], d, s, &keep)? {
                remove_digit(cx, n, d, &removed)?;
            }
        }
        Ok(())
    }
}

/// The permutation constraints of a shape (variable `i` is cell `i`): one per row, column and
/// block over `1..=n`, built once per shape and shared by every model of that shape.
fn units_graph(geo: &Geometry) -> Arc<DistinctGraph> {
    static CACHE: OnceLock<Mutex<HashMap<crate::board::BlockShape, Arc<DistinctGraph>>>> = OnceLock::new();
    let mut map = CACHE
        .get_or_init(|| Mutex::new(HashMap::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    map.entry(geo.block())
        .or_insert_with(|| {
            let values = Domain::range(1, geo.n() as u32);
            let mut distinct = Distinct::new();
            for unit in geo.units() {
                let vars: Vec<VarId> = unit.iter().map(|&c| VarId(c as u32)).collect();
                distinct.permutation(&vars, values);
            }
            distinct.build()
        })
        .clone()
}

/// A Sudoku model: the engine (variable `i` is cell `i`, row-major) and what its rules report.
pub struct Model {
    /// The engine with the rules posted.
    pub engine: Engine,
    /// Units and names.
    pub geo: Arc<Geometry>,
    /// The Nishio rule's side channel (when posted).
    pub nishio: Arc<Mutex<NishioLog>>,
    /// The deduction work done, counted against the node limit ([`Work`]).
    pub work: Arc<Work>,
    /// The named patterns found while explaining ([`crate::patterns`]), in log order.
    pub patterns: crate::patterns::PatternLog,
}

impl Model {
    /// The model of a candidate grid with the rules of `rules` (Nishio under `limits`).
    pub fn new(cand: &Candidates, rules: RuleSet, limits: &Limits) -> Model {
        let subsets = match (rules.subsets, rules.patterns) {
            (false, _) => 0,
            (true, false) => 3,
            (true, true) => 4,
        };
        let d = DistinctRules {
            hidden_single: true,
            pointing: rules.locked,
            naked_subsets: subsets,
            hidden_subsets: subsets,
            by_size: true,
        };
        let mut m = Model::with_rules(cand, d, rules.nishio, limits);
        if rules.patterns {
            use crate::patterns::{BugRule, FishRule, TurbotRule, UniqueRectangleRule, WingRule, WxyzRule};
            let (geo, log) = (&m.geo, &m.patterns);
            let n = geo.n();
            // Fish of size k need 2k ≤ n lines to be more than a hidden subset of lines.
            for k in 2..=4usize.min(n / 2) {
                m.engine.post(FishRule::new(geo.clone(), k, log.clone()));
            }
            m.engine.post(TurbotRule::new(geo.clone(), log.clone()));
            m.engine.post(WingRule::new(geo.clone(), false, log.clone()));
            m.engine.post(WingRule::new(geo.clone(), true, log.clone()));
            m.engine.post(WxyzRule::new(geo.clone(), log.clone()));
            if rules.uniqueness {
                m.engine.post(UniqueRectangleRule::new(geo.clone(), log.clone()));
                m.engine.post(BugRule::new(geo.clone(), log.clone()));
            }
        }
        m
    }

    /// The model with core's all-different rules `d` chosen one by one, and Nishio when
    /// `nishio` (`backtrack`'s `--set rules=…`, [`crate::kind::RULE_TABLE`]).
    pub fn with_rules(cand: &Candidates, d: DistinctRules, with_nishio: bool, limits: &Limits) -> Model {
        let geo = Geometry::get(cand.block());
        let n = geo.n();
        let mut engine = Engine::new();
        engine.reserve(n * n);
        for &dom in cand.cells() {
            engine.new_var(dom);
        }
        post_rules(&units_graph(&geo), &mut engine, d);
        let nishio = Arc::new(Mutex::new(NishioLog::default()));
        let work = Arc::new(Work::new(limits));
        if with_nishio {
            engine.post(NishioRule::metered(
                geo.clone(),
                limits.clone(),
                work.clone(),
                nishio.clone(),
            ));
        }
        engine.set_limits(limits);
        Model {
            engine,
            geo,
            nishio,
            work,
            patterns: Default::default(),
        }
    }

    /// The current candidates.
    pub fn candidates(&self) -> Candidates {
        Candidates::from_cells(self.geo.block(), self.engine.domains().to_vec())
            .unwrap_or_else(|| Candidates::full(self.geo.block()))
    }

    /// The values (`0` where not fixed).
    pub fn values(&self) -> Vec<u8> {
        values(&self.engine)
    }

    /// The Nishio rule's note (off, skipped), if any.
    pub fn nishio_note(&self) -> Option<String> {
        lock_log(&self.nishio).note.clone()
    }
}

/// The values of an engine's cell variables (`0` where not fixed).
pub fn values(engine: &Engine) -> Vec<u8> {
    engine.domains().iter().map(|d| d.value().unwrap_or(0) as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::BlockShape;
    use crate::solver::RuleSet;
    use proptest::prelude::*;

    /// The root fixpoint of a model with Nishio, run all digits at once (no explanation) or
    /// one digit at a time with the DAG method (explaining).
    fn fixpoint(cand: &Candidates, explaining: bool) -> Option<Vec<Domain>> {
        let rules = RuleSet {
            nishio: true,
            ..RuleSet::SINGLES
        };
        let mut m = Model::new(cand, rules, &Limits::default());
        m.engine.explain(explaining);
        m.engine.propagate().ok().map(|_| m.engine.domains().to_vec())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        /// Nishio in lanes (every digit at once) and by the DAG (one digit at a time) reach
        /// the same fixpoint, or both a conflict, on random candidate grids.
        #[test]
        fn lanes_and_the_dag_reach_the_same_fixpoint(
            shape in prop_oneof![Just((2usize, 2usize)), Just((2, 3)), Just((3, 3))],
            seed in any::<u64>(),
            keep in 55u64..=95,
        ) {
            let block = BlockShape::new(shape.0, shape.1);
            let n = block.n();
            let mut rng = crate::generate::Rng::new(seed);
            let cells: Vec<Domain> = (0..n * n)
                .map(|_| {
                    let mut d = Domain::EMPTY;
                    for v in 1..=n as u32 {
                        if rng.next_u64() % 100 < keep {
                            d.insert(v);
                        }
                    }
                    d
                })
                .collect();
            let cand = Candidates::from_cells(block, cells).unwrap();
            prop_assert_eq!(fixpoint(&cand, false), fixpoint(&cand, true));
        }
    }
}
