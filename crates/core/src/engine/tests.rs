//! Tests of the engine and the constraint library against brute force.

use super::*;
use crate::constraints::{BoolSum, Distinct, DistinctRules, PathRules, PathVars, SinglePath, SumRule};
use crate::domain::Domain;
use crate::grid::{CellId, Neighbours, Shape};
use crate::rng::SplitMix64;
use crate::search::{count_keeping, run, Flow, Limits, StopReason};
use proptest::prelude::*;

fn count(engine: Engine, probe: Option<Probe>) -> u64 {
    let mut s = EngineSearch::new(engine, SmallestDomain::new());
    s.probe = probe;
    let r = run(&mut s, &Limits::all(), |s| {
        assert!(s.engine.all_fixed());
        Flow::Continue
    });
    assert!(r.complete());
    r.solutions
}

fn latin(n: u32, rules: DistinctRules) -> (Engine, Vec<VarId>) {
    let mut e = Engine::new();
    let x: Vec<VarId> = (0..n * n).map(|_| e.new_var(Domain::range(1, n))).collect();
    let mut d = Distinct::new();
    for i in 0..n {
        let row: Vec<VarId> = (0..n).map(|j| x[(i * n + j) as usize]).collect();
        let col: Vec<VarId> = (0..n).map(|j| x[(j * n + i) as usize]).collect();
        d.permutation(&row, Domain::range(1, n));
        d.permutation(&col, Domain::range(1, n));
    }
    d.post(&mut e, rules);
    (e, x)
}

#[test]
fn latin_squares_of_order_4_number_576_with_every_rule_set() {
    for rules in [DistinctRules::NAKED_SINGLES, DistinctRules::SINGLES, DistinctRules::ALL] {
        assert_eq!(count(latin(4, rules).0, None), 576, "{rules:?}");
        assert_eq!(
            count(latin(4, rules).0, Some(Probe::pairs())),
            576,
            "{rules:?} with probing"
        );
    }
}

#[test]
fn backtracking_restores_domains_and_trailed_integers_above_the_level() {
    let (mut e, x) = latin(3, DistinctRules::ALL);
    let counter = e.new_int(5);
    e.propagate().unwrap();
    let before = e.domains().to_vec();
    e.push_level();
    e.with_context("test", |cx| cx.set_int(counter, 9));
    e.assign(x[0], 2).unwrap();
    e.propagate().unwrap();
    assert_ne!(e.domains(), &before[..]);
    assert_eq!(e.int(counter), 9);
    e.pop_level();
    assert_eq!(e.domains(), &before[..]);
    assert_eq!(e.int(counter), 5);
    assert_eq!(e.level(), 0);
    assert!(!e.all_fixed());
}

#[test]
fn a_hidden_single_is_placed_and_pigeonhole_conflicts() {
    let mut e = Engine::new();
    let a = e.new_var(Domain::range(1, 2));
    let b = e.new_var(Domain::range(1, 2));
    let c = e.new_var(Domain::range(1, 3));
    let mut d = Distinct::new();
    d.permutation(&[a, b, c], Domain::range(1, 3));
    d.post(&mut e, DistinctRules::SINGLES);
    e.propagate().unwrap();
    assert_eq!(e.value(c), Some(3));
    let mut e = Engine::new();
    let vs: Vec<_> = (0..3).map(|_| e.new_var(Domain::range(1, 2))).collect();
    let mut d = Distinct::new();
    d.all_different(&vs);
    d.post(&mut e, DistinctRules::SINGLES);
    assert_eq!(e.propagate(), Err(Conflict));
}

#[test]
fn pointing_removes_a_value_from_cells_that_see_all_its_places() {
    // Group {a, b, c} over 1..3 with 3 only possible in a and b; z conflicts with a and b on
    // every value (a king neighbour of both, say), so z cannot be 3.
    let mut e = Engine::new();
    let a = e.new_var(Domain::range(1, 3));
    let b = e.new_var(Domain::range(1, 3));
    let c = e.new_var(Domain::range(1, 2));
    let z = e.new_var(Domain::range(1, 4));
    let mut d = Distinct::new();
    d.permutation(&[a, b, c], Domain::range(1, 3));
    d.not_equal(z, a);
    d.not_equal(z, b);
    d.post(&mut e, DistinctRules::ALL);
    e.propagate().unwrap();
    assert!(!e.dom(z).contains(3));
    assert!(
        e.dom(z).contains(1),
        "pointing on 1 and 2 does not apply: c can take them"
    );
}

#[test]
/// A naked subset's removals stay in its group (issue 27: a step is its rule's own
/// definition); a cell outside that conflicts with both is pointing's step, which needs a
/// permutation group — here the group is only all-different, so `outside` keeps 1 and 2.
fn a_naked_pair_clears_its_values_from_its_group_only() {
    let mut e = Engine::new();
    let p = e.new_var(Domain::from_iter([1, 2]));
    let q = e.new_var(Domain::from_iter([1, 2]));
    let r = e.new_var(Domain::range(1, 4));
    let s = e.new_var(Domain::range(1, 4));
    let outside = e.new_var(Domain::range(1, 4));
    let mut d = Distinct::new();
    d.all_different(&[p, q, r, s]);
    d.not_equal(outside, p);
    d.not_equal(outside, q);
    d.post(&mut e, DistinctRules::ALL);
    e.propagate().unwrap();
    for v in [r, s] {
        assert_eq!(e.dom(v), Domain::from_iter([3, 4]), "{v:?}");
    }
    assert_eq!(e.dom(outside), Domain::range(1, 4));
}

#[test]
fn a_hidden_pair_keeps_only_its_two_values() {
    // 1 and 2 can only go in a and b: they lose 3 and 4.
    let mut e = Engine::new();
    let a = e.new_var(Domain::range(1, 4));
    let b = e.new_var(Domain::range(1, 4));
    let c = e.new_var(Domain::from_iter([3, 4]));
    let d4 = e.new_var(Domain::from_iter([3, 4]));
    let mut d = Distinct::new();
    d.permutation(&[a, b, c, d4], Domain::range(1, 4));
    d.post(
        &mut e,
        DistinctRules {
            naked_subsets: 0,
            ..DistinctRules::ALL
        },
    );
    e.propagate().unwrap();
    assert_eq!(e.dom(a), Domain::from_iter([1, 2]));
}

#[test]
fn value_masked_conflicts_forbid_only_their_values() {
    // Ripple Effect style: a and b may not both be 2 or more; both 1 is fine.
    let mut e = Engine::new();
    let a = e.new_var(Domain::range(1, 3));
    let b = e.new_var(Domain::range(1, 3));
    let mut d = Distinct::new();
    d.not_equal_on(a, b, Domain::range(2, 3));
    d.post(&mut e, DistinctRules::ALL);
    // 9 pairs minus (2,2) and (3,3).
    assert_eq!(count(e, None), 7);
}

/// Every assignment of `doms` (row-major over the variables), for brute force.
fn assignments(doms: &[Domain], mut f: impl FnMut(&[u32])) {
    let mut cur = vec![0u32; doms.len()];
    fn rec(i: usize, doms: &[Domain], cur: &mut Vec<u32>, f: &mut impl FnMut(&[u32])) {
        if i == doms.len() {
            f(cur);
            return;
        }
        for v in doms[i].iter() {
            cur[i] = v;
            rec(i + 1, doms, cur, f);
        }
    }
    rec(0, doms, &mut cur, &mut f);
}

/// A random distinctness model: domains, groups, masked pairs.
#[derive(Clone, Debug)]
struct RandomDistinct {
    doms: Vec<Domain>,
    groups: Vec<(Vec<usize>, bool)>,
    pairs: Vec<(usize, usize, Domain)>,
}

fn random_distinct(seed: u64) -> RandomDistinct {
    let mut rng = SplitMix64::new(seed);
    let n = 3 + rng.below(4);
    let doms = (0..n)
        .map(|_| {
            let mut d: Domain = (1..=4).filter(|_| rng.chance(0.75)).collect();
            if d.is_empty() {
                d.insert(1 + rng.below(4) as u32);
            }
            d
        })
        .collect();
    let mut groups = Vec::new();
    for _ in 0..rng.below(3) {
        let k = 2 + rng.below(3).min(n - 2);
        let mut idx: Vec<usize> = (0..n).collect();
        rng.shuffle(&mut idx);
        idx.truncate(k);
        idx.sort_unstable();
        groups.push((idx, rng.chance(0.5)));
    }
    let mut pairs = Vec::new();
    for _ in 0..rng.below(4) {
        let (a, b) = (rng.below(n), rng.below(n));
        let mask: Domain = (1..=4).filter(|_| rng.chance(0.6)).collect();
        pairs.push((a, b, mask));
    }
    RandomDistinct { doms, groups, pairs }
}

impl RandomDistinct {
    fn holds(&self, x: &[u32]) -> bool {
        self.groups.iter().all(|(g, perm)| {
            let vals: Vec<u32> = g.iter().map(|&i| x[i]).collect();
            let distinct = (0..vals.len()).all(|i| (0..i).all(|j| vals[i] != vals[j]));
            let covers = !perm || (1..=g.len() as u32).all(|v| vals.contains(&v));
            distinct && covers
        }) && self
            .pairs
            .iter()
            .all(|&(a, b, m)| a == b || x[a] != x[b] || !m.contains(x[a]))
    }
    fn engine(&self, rules: DistinctRules) -> (Engine, Vec<VarId>) {
        let mut e = Engine::new();
        let v: Vec<VarId> = self.doms.iter().map(|&d| e.new_var(d)).collect();
        let mut d = Distinct::new();
        for (g, perm) in &self.groups {
            let vars: Vec<VarId> = g.iter().map(|&i| v[i]).collect();
            if *perm {
                d.permutation(&vars, Domain::range(1, g.len() as u32));
            } else {
                d.all_different(&vars);
            }
        }
        for &(a, b, m) in &self.pairs {
            d.not_equal_on(v[a], v[b], m);
        }
        d.post(&mut e, rules);
        (e, v)
    }
}

/// Makes the decisions `picks` one at a time (each at a new level, undone when it fails) with
/// incremental propagation; after each, every propagator run again from scratch finds nothing
/// more.
/// A 6×6 Sudoku (2×3 blocks) with every explanation rule (`DistinctRules::EXPLAIN`), each
/// cell missing a few random values.
fn sudoku6(seed: u64) -> (Engine, Vec<VarId>) {
    let mut rng = SplitMix64::new(seed);
    let mut e = Engine::new();
    let x: Vec<VarId> = (0..36)
        .map(|_| {
            let mut d: Domain = (1..=6).filter(|_| !rng.chance(0.25)).collect();
            if d.is_empty() {
                d.insert(1 + rng.below(6) as u32);
            }
            e.new_var(d)
        })
        .collect();
    let mut d = Distinct::new();
    for i in 0..6 {
        let row: Vec<VarId> = (0..6).map(|j| x[i * 6 + j]).collect();
        let col: Vec<VarId> = (0..6).map(|j| x[j * 6 + i]).collect();
        let (br, bc) = (i / 2 * 2, i % 2 * 3);
        let block: Vec<VarId> = (0..6).map(|j| x[(br + j / 3) * 6 + bc + j % 3]).collect();
        for unit in [row, col, block] {
            d.permutation(&unit, Domain::range(1, 6));
        }
    }
    d.post(&mut e, DistinctRules::EXPLAIN);
    (e, x)
}

fn check_fixpoints(mut e: Engine, picks: &[(VarId, u32)]) -> Result<(), TestCaseError> {
    if e.propagate().is_err() {
        return Ok(());
    }
    for &(x, value) in picks {
        e.push_level();
        if e.assign(x, value).is_err() || e.propagate().is_err() {
            e.pop_level();
            continue;
        }
        let at = e.domains().to_vec();
        e.enqueue_all();
        prop_assert!(e.propagate().is_ok());
        prop_assert_eq!(e.domains(), &at[..]);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn distinct_rules_count_like_brute_force(seed in any::<u64>()) {
        let m = random_distinct(seed);
        let mut brute = 0u64;
        assignments(&m.doms, |x| if m.holds(x) { brute += 1 });
        for rules in [DistinctRules::NAKED_SINGLES, DistinctRules::SINGLES, DistinctRules::ALL] {
            prop_assert_eq!(count(m.engine(rules).0, None), brute, "{:?}", rules);
            prop_assert_eq!(count(m.engine(rules).0, Some(Probe::pairs())), brute, "{:?} probing", rules);
        }
    }

    #[test]
    fn incremental_propagation_reaches_the_from_scratch_fixpoint(seed in any::<u64>(), picks in proptest::collection::vec((0usize..8, 1u32..=4), 0..4)) {
        let m = random_distinct(seed);
        let (e, v) = m.engine(DistinctRules::ALL);
        let picks: Vec<(VarId, u32)> = picks.into_iter().map(|(i, val)| (v[i % v.len()], val)).collect();
        check_fixpoints(e, &picks)?;
    }

    #[test]
    fn a_levelled_run_with_pauses_and_holds_reaches_the_plain_fixpoint(seed in any::<u64>(), picks in proptest::collection::vec((0usize..36, 1u32..=6), 0..6)) {
        // The explainer's way (rules held above the current level, each hard rule pausing
        // after its first step, `crate::human::Ladder`) ends where plain propagation does,
        // after every assumption, and leaves no stale work behind (a from-scratch run adds
        // nothing, and an assumption propagated without pauses agrees too).
        let (mut plain, v) = sudoku6(seed);
        let (mut led, _) = sudoku6(seed);
        led.explain(true);
        let mut ladder = crate::human::Ladder::new(&mut led, crate::human::region::propagator_level, u8::MAX);
        let run = |e: &mut Engine, ladder: &mut crate::human::Ladder| -> bool {
            ladder.set(e, 1);
            loop {
                let before: u32 = e.domains().iter().map(|d| d.len()).sum();
                if e.propagate().is_err() {
                    return false;
                }
                let progress = e.paused() || e.domains().iter().map(|d| d.len()).sum::<u32>() < before;
                if !ladder.climb(e, progress) {
                    return true;
                }
            }
        };
        let ok = plain.propagate().is_ok();
        prop_assert_eq!(run(&mut led, &mut ladder), ok);
        if !ok {
            return Ok(());
        }
        prop_assert_eq!(plain.domains(), led.domains());
        for (i, val) in picks {
            let x = v[i % v.len()];
            if !plain.dom(x).contains(val) {
                continue;
            }
            plain.push_level();
            led.push_level();
            let ok = plain.assign(x, val).is_ok() && plain.propagate().is_ok();
            prop_assert_eq!(led.assign(x, val).is_ok() && run(&mut led, &mut ladder), ok);
            if ok {
                prop_assert_eq!(plain.domains(), led.domains());
                // An assumption on top, propagated without pauses, as a forcing chain does.
                if let Some((y, w)) = (0..v.len()).map(|j| v[j]).find_map(|y| {
                    let d = plain.dom(y);
                    (d.len() > 1).then(|| (y, d.min().unwrap_or(1)))
                }) {
                    plain.push_level();
                    led.push_level();
                    ladder.set_pauses(&mut led, false);
                    let a = plain.assign(y, w).is_ok() && plain.propagate().is_ok();
                    let b = led.assign(y, w).is_ok() && led.propagate().is_ok();
                    ladder.set_pauses(&mut led, true);
                    prop_assert_eq!(a, b);
                    if a {
                        prop_assert_eq!(plain.domains(), led.domains());
                    }
                    plain.pop_level();
                    led.pop_level();
                }
                let at = led.domains().to_vec();
                led.enqueue_all();
                prop_assert!(run(&mut led, &mut ladder));
                prop_assert_eq!(led.domains(), &at[..]);
            }
            plain.pop_level();
            led.pop_level();
        }
    }

    #[test]
    fn bool_sums_count_like_brute_force(n in 1usize..7, k in 0u32..7, kind in 0u8..4, odd in any::<bool>(), fixed in proptest::collection::vec(0u8..3, 7)) {
        let rule = rule_of(kind, k, odd);
        let doms: Vec<Domain> = (0..n).map(|i| match fixed[i] { 0 => Domain::single(FALSE), 1 => Domain::single(TRUE), _ => BOOL }).collect();
        let mut brute = 0u64;
        assignments(&doms, |x| {
            let t = x.iter().filter(|&&v| v == TRUE).count() as u32;
            let ok = holds(rule, t);
            if ok { brute += 1 }
        });
        let mut e = Engine::new();
        let vars: Vec<VarId> = doms.iter().map(|&d| e.new_var(d)).collect();
        e.post(BoolSum::new("sum", vars, rule));
        prop_assert_eq!(count(e, None), brute);
    }
}

/// Simple paths from `a` to `b` in a grid, by brute force (their cell sets and links).
fn simple_paths(shape: Shape, a: CellId, b: CellId) -> Vec<Vec<CellId>> {
    let nb = Neighbours::new(shape);
    let mut out = Vec::new();
    let mut path = vec![a];
    let mut on = vec![false; shape.cells()];
    on[a.index()] = true;
    fn rec(nb: &Neighbours, b: CellId, path: &mut Vec<CellId>, on: &mut Vec<bool>, out: &mut Vec<Vec<CellId>>) {
        let c = *path.last().unwrap();
        if c == b {
            out.push(path.clone());
            return;
        }
        for &n in nb.orth(c) {
            if !on[n.index()] {
                on[n.index()] = true;
                path.push(n);
                rec(nb, b, path, on, out);
                path.pop();
                on[n.index()] = false;
            }
        }
    }
    rec(&nb, b, &mut path, &mut on, &mut out);
    out
}

fn path_model(shape: Shape, a: CellId, b: CellId, rules: PathRules, rows: &[Option<u32>]) -> Engine {
    let mut e = Engine::new();
    let vars = PathVars::new(&mut e, shape);
    for (r, clue) in rows.iter().enumerate() {
        if let Some(k) = clue {
            let line: Vec<VarId> = (0..shape.width).map(|c| vars.cell[shape.id(r, c).index()]).collect();
            e.post(BoolSum::new("lines", line, SumRule::Exactly(*k)));
        }
    }
    let p = SinglePath { vars, a, b };
    if p.post(&mut e, rules).is_err() {
        // Equal terminals and the like: an unsatisfiable model (no variable left open).
    }
    e
}

#[test]
fn single_path_models_count_every_simple_path_between_the_terminals() {
    for (h, w) in [(1, 4), (2, 2), (2, 3), (3, 3), (3, 4)] {
        let shape = Shape::new(h, w);
        let cells: Vec<CellId> = shape.all().collect();
        for &a in &cells {
            for &b in &cells {
                if a == b {
                    continue;
                }
                let brute = simple_paths(shape, a, b).len() as u64;
                for rules in [
                    PathRules {
                        loops: false,
                        connect: false,
                    },
                    PathRules {
                        loops: true,
                        connect: true,
                    },
                ] {
                    let e = path_model(shape, a, b, rules, &[]);
                    let probe = test_probe(true);
                    assert_eq!(count(e, None), brute, "{h}x{w} {a:?}->{b:?} {rules:?}");
                    let e = path_model(shape, a, b, rules, &[]);
                    assert_eq!(
                        count(e, Some(probe.clone())),
                        brute,
                        "{h}x{w} {a:?}->{b:?} {rules:?} probing"
                    );
                    // Probing that starts after a few dead ends counts the same.
                    let e = path_model(shape, a, b, rules, &[]);
                    let late = Probe {
                        after_failures: 3,
                        ..probe
                    };
                    assert_eq!(
                        count(e, Some(late)),
                        brute,
                        "{h}x{w} {a:?}->{b:?} {rules:?} late probing"
                    );
                }
            }
        }
    }
}

#[test]
fn row_counts_on_a_path_agree_with_brute_force() {
    let shape = Shape::new(3, 4);
    let (a, b) = (shape.id(0, 0), shape.id(2, 3));
    let paths = simple_paths(shape, a, b);
    for k0 in 1..=4u32 {
        for k2 in 1..=4u32 {
            let brute = paths
                .iter()
                .filter(|p| {
                    let in_row = |r| p.iter().filter(|c| shape.coords(**c).0 == r).count() as u32;
                    in_row(0) == k0 && in_row(2) == k2
                })
                .count() as u64;
            let e = path_model(
                shape,
                a,
                b,
                PathRules {
                    loops: true,
                    connect: true,
                },
                &[Some(k0), None, Some(k2)],
            );
            assert_eq!(count(e, None), brute, "rows {k0}, {k2}");
        }
    }
}

#[test]
fn the_explanation_log_names_the_rule_and_its_premises() {
    let mut e = Engine::new();
    let a = e.new_var(Domain::range(1, 3));
    let b = e.new_var(Domain::range(1, 3));
    let mut d = Distinct::new();
    d.not_equal(a, b);
    d.post(&mut e, DistinctRules::ALL);
    assert!(e.log().is_none());
    e.explain(true);
    e.propagate().unwrap();
    e.assign(a, 2).unwrap();
    e.propagate().unwrap();
    let steps = e.take_log();
    assert_eq!(steps[0].kind, StepKind::Decision);
    assert_eq!(steps[0].changes[0].var, a);
    let s = &steps[1];
    assert_eq!((s.rule, s.kind), ("naked-single", StepKind::Deduction));
    assert_eq!(s.premises, vec![Premise::is(a, 2)]);
    assert_eq!(
        s.changes,
        vec![Change {
            var: b,
            removed: Domain::single(2)
        }]
    );
}

#[test]
fn the_log_follows_the_trail() {
    let (mut e, x) = latin(3, DistinctRules::ALL);
    e.explain(true);
    e.propagate().unwrap();
    let root = e.log().unwrap().steps().len();
    e.push_level();
    e.assign(x[0], 1).unwrap();
    e.propagate().unwrap();
    assert!(e.log().unwrap().steps().len() > root);
    e.pop_level();
    assert_eq!(e.log().unwrap().steps().len(), root);
}

#[test]
fn every_change_of_a_latin_square_solve_is_explained_by_a_named_rule() {
    let (mut e, x) = latin(4, DistinctRules::ALL);
    e.explain(true);
    e.assign(x[0], 1).unwrap();
    e.assign(x[5], 1).unwrap_or_default();
    e.propagate().unwrap();
    for s in e.log().unwrap().steps() {
        assert!(!s.changes.is_empty());
        if s.kind == StepKind::Deduction {
            assert!(!s.premises.is_empty(), "{s:?}");
        }
    }
}

#[test]
fn switching_a_rule_off_skips_it() {
    let (mut e, _) = latin(3, DistinctRules::ALL);
    assert_eq!(e.set_enabled("pointing", false), 1);
    e.propagate().unwrap();
    let stats = e.rule_stats();
    let pointing = stats.iter().find(|(n, _)| *n == "pointing").unwrap().1;
    assert_eq!(pointing.runs, 0);
    assert!(stats.iter().find(|(n, _)| *n == "naked-single").unwrap().1.runs > 0);
}

#[test]
fn a_propagator_without_watches_is_woken_by_every_change() {
    /// `x ≤ y`, from scratch only.
    struct LessEq(VarId, VarId);
    impl Propagator for LessEq {
        fn name(&self) -> &'static str {
            "less-eq"
        }
        fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
            let (x, y) = (cx.dom(self.0), cx.dom(self.1));
            let (Some(xmin), Some(ymax)) = (x.min(), y.max()) else {
                return Err(Conflict);
            };
            cx.restrict(self.0, Domain::range(1, ymax))?;
            cx.restrict(self.1, Domain::range(xmin, 64))?;
            Ok(())
        }
    }
    let mut e = Engine::new();
    let x = e.new_var(Domain::range(1, 5));
    let y = e.new_var(Domain::range(1, 5));
    e.post(LessEq(x, y));
    e.propagate().unwrap();
    e.remove(y, 5).unwrap();
    e.remove(y, 4).unwrap();
    e.propagate().unwrap();
    assert_eq!(e.dom(x), Domain::range(1, 3));
    assert_eq!(count(e, None), 6);
}

#[test]
fn a_passed_deadline_interrupts_the_search() {
    let (e, _) = latin(6, DistinctRules::SINGLES);
    let mut s = EngineSearch::new(e, SmallestDomain::new());
    let limits = Limits {
        deadline: Some(crate::time::Instant::now()),
        ..Limits::all()
    };
    s.engine.set_limits(&limits);
    let r = run(&mut s, &limits, |_| Flow::Continue);
    assert_eq!(r.stop, StopReason::Deadline);
    assert!(r.stats.nodes < 100, "{:?}", r.stats);
}

#[test]
fn count_keeping_everything_does_not_reserve_memory_up_front() {
    let (e, _) = latin(3, DistinctRules::ALL);
    let mut s = EngineSearch::new(e, SmallestDomain::new());
    let (r, kept) = count_keeping(&mut s, &Limits::all(), usize::MAX, |s| s.engine.domains().to_vec());
    assert_eq!((r.solutions, kept.len()), (12, 12));
}

#[test]
fn restarts_find_a_solution_or_prove_there_is_none() {
    let (e, _) = latin(5, DistinctRules::SINGLES);
    let mut s = EngineSearch::new(e, SmallestDomain::new());
    let r = solve_restarting(&mut s, &Limits::first(), 1, |_| {});
    assert_eq!((r.solutions, r.stop), (1, StopReason::SolutionLimit));
    let mut e = Engine::new();
    let vs: Vec<_> = (0..4).map(|_| e.new_var(Domain::range(1, 3))).collect();
    let mut d = Distinct::new();
    d.all_different(&vs);
    d.post(&mut e, DistinctRules::NAKED_SINGLES);
    let mut s = EngineSearch::new(e, SmallestDomain::new());
    let r = solve_restarting(&mut s, &Limits::first(), 1, |_| {});
    assert_eq!((r.solutions, r.stop), (0, StopReason::Exhausted));
}

#[test]
fn a_given_fixed_before_posting_is_counted_once() {
    // `x` is fixed before the sum is posted: the sum counts it from the domains, and the
    // change is not delivered to it again as an event.
    let mut e = Engine::new();
    let v: Vec<VarId> = (0..3).map(|_| e.new_bool()).collect();
    e.assign(v[0], TRUE).unwrap();
    e.post(BoolSum::new("sum", v.clone(), SumRule::Exactly(2)));
    e.propagate().unwrap();
    assert_eq!(e.dom(v[1]), BOOL);
    e.assign(v[1], TRUE).unwrap();
    e.propagate().unwrap();
    assert_eq!(e.value(v[2]), Some(FALSE));
}

/// Records what the engine tells it; fails at its first run when asked to.
struct Recorder {
    vars: Vec<VarId>,
    fail: bool,
    idempotent: bool,
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl Recorder {
    fn note(&self, s: String) {
        self.log.lock().unwrap().push(s);
    }
}

impl Propagator for Recorder {
    fn name(&self) -> &'static str {
        "recorder"
    }
    fn init(&mut self, init: &mut Init) {
        init.watch_removal(self.vars[0], 0, Domain::single(FALSE));
        init.wake_on_removal(self.vars[1], Domain::single(TRUE));
        init.watch_buffered(self.vars[2], 2);
        init.watch_buffered(self.vars[3], 3);
    }
    fn notify(&mut self, _: &mut Ints, tag: u32, _: Domain, new: Domain) -> bool {
        self.note(format!("notify {tag} {:?}", new.value()));
        true
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        self.note(format!("run {:?}", cx.events()));
        if self.fail {
            return Err(Conflict);
        }
        // Its own change of `vars[3]`.
        if cx.is_true(self.vars[2]) {
            cx.set(self.vars[3], true)?;
        }
        Ok(())
    }
    fn backtracked(&mut self) {
        self.note("backtracked".into());
    }
    fn idempotent(&self) -> bool {
        self.idempotent
    }
}

fn recorder(fail: bool, idempotent: bool) -> (Engine, Vec<VarId>, std::sync::Arc<std::sync::Mutex<Vec<String>>>) {
    let mut e = Engine::new();
    let vars: Vec<VarId> = (0..4).map(|_| e.new_bool()).collect();
    let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    e.post(Recorder {
        vars: vars.clone(),
        fail,
        idempotent,
        log: log.clone(),
    });
    (e, vars, log)
}

#[test]
fn watches_deliver_only_the_removals_they_ask_for() {
    // `vars[0]` is watched for becoming true, `vars[1]` wakes without `notify` when it becomes
    // false.
    for (values, expected) in [
        ([FALSE, TRUE], &[][..]),
        ([TRUE, FALSE], &["notify 0 Some(2)", "run []"][..]),
    ] {
        let (mut e, v, log) = recorder(false, false);
        e.propagate().unwrap();
        log.lock().unwrap().clear();
        e.assign(v[0], values[0]).unwrap();
        e.assign(v[1], values[1]).unwrap();
        e.propagate().unwrap();
        assert_eq!(*log.lock().unwrap(), expected, "{values:?}");
    }
}

#[test]
fn buffered_events_arrive_in_order_and_own_changes_follow_idempotence() {
    for idempotent in [false, true] {
        let (mut e, v, log) = recorder(false, idempotent);
        e.propagate().unwrap();
        log.lock().unwrap().clear();
        e.assign(v[2], TRUE).unwrap();
        e.propagate().unwrap();
        // Its own change of `vars[3]` comes back as an event unless it is idempotent.
        let expected: &[&str] = if idempotent {
            &["run [2]"]
        } else {
            &["run [2]", "run [3]"]
        };
        assert_eq!(*log.lock().unwrap(), expected, "idempotent: {idempotent}");
    }
}

#[test]
fn a_propagator_that_fails_is_told_to_forget_its_events() {
    let (mut e, v, log) = recorder(true, false);
    assert!(e.propagate().is_err());
    assert_eq!(*log.lock().unwrap(), ["run []", "backtracked"]);
    log.lock().unwrap().clear();
    e.push_level();
    e.assign(v[2], TRUE).unwrap();
    assert!(e.propagate().is_err());
    e.pop_level();
    // The next run sees only the new event, not the one of the failed run.
    e.assign(v[3], TRUE).unwrap();
    assert!(e.propagate().is_err());
    assert_eq!(
        *log.lock().unwrap(),
        ["run [2]", "backtracked", "run [3]", "backtracked"]
    );
}

#[test]
fn a_run_from_scratch_gets_no_events() {
    let (mut e, v, log) = recorder(false, false);
    e.propagate().unwrap();
    e.push_level();
    // Queued from scratch: the changes before its run are read from the domains.
    e.enqueue_all();
    e.assign(v[2], TRUE).unwrap();
    e.propagate().unwrap();
    e.pop_level();
    // Its next incremental run has events again.
    e.assign(v[2], TRUE).unwrap();
    e.propagate().unwrap();
    let log = log.lock().unwrap();
    assert_eq!(log[0], "run []");
    assert_eq!(log[1], "run []");
    assert_eq!(log[2], "run [3]", "{log:?}");
    assert_eq!(log[3], "run [2]", "{log:?}");
}

/// A random path model on a small grid: terminals, row and column sums (one family each way),
/// cut parities, `loops` and `connect` at random.
fn random_path_model(seed: u64) -> (Engine, Vec<VarId>) {
    let mut rng = SplitMix64::new(seed);
    let shape = Shape::new(2 + rng.below(3), 2 + rng.below(3));
    let cells: Vec<CellId> = shape.all().collect();
    let a = cells[rng.below(cells.len())];
    let mut b = cells[rng.below(cells.len())];
    if a == b {
        b = cells[(a.index() + 1) % cells.len()];
    }
    let mut e = Engine::new();
    let vars = PathVars::new(&mut e, shape);
    let mut lines = BoolSum::family("lines");
    for r in 0..shape.height {
        if rng.below(2) == 0 {
            let row: Vec<VarId> = (0..shape.width).map(|c| vars.cell[shape.id(r, c).index()]).collect();
            lines.add(&row, SumRule::Exactly(rng.below(shape.width + 1) as u32));
        }
    }
    for c in 0..shape.width {
        if rng.below(2) == 0 {
            let col: Vec<VarId> = (0..shape.height).map(|r| vars.cell[shape.id(r, c).index()]).collect();
            lines.add(&col, SumRule::Exactly(rng.below(shape.height + 1) as u32));
        }
    }
    if !lines.is_empty() {
        e.post(lines);
    }
    let mut cuts = BoolSum::family("cuts");
    for t in 0..shape.height - 1 {
        let crossing: Vec<VarId> = (0..shape.width)
            .map(|c| vars.link[vars.links.vertical(t, c) as usize])
            .collect();
        cuts.add(&crossing, SumRule::Parity(rng.below(2) == 0));
    }
    e.post(cuts);
    let all: Vec<VarId> = vars.link.iter().chain(&vars.cell).copied().collect();
    let rules = PathRules {
        loops: rng.below(2) == 0,
        connect: rng.below(2) == 0,
    };
    let p = SinglePath { vars, a, b };
    p.post(&mut e, rules).unwrap();
    (e, all)
}

/// One probing pass written out naively (every value of every variable in order, no skipping).
fn naive_probe(e: &mut Engine, vars: &[VarId]) -> Result<(), Conflict> {
    let before = e.changes();
    for &x in vars {
        let d = e.dom(x);
        if d.len() != 2 {
            continue;
        }
        for v in [TRUE, FALSE] {
            e.push_level();
            let ok = e.assign(x, v).is_ok() && e.propagate_below(Priority::Global).is_ok();
            e.pop_level();
            if !ok {
                e.remove(x, v)?;
                e.propagate_below(Priority::Global)?;
                break;
            }
        }
    }
    if e.changes() != before {
        e.enqueue_from(Priority::Global);
        e.propagate()?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn bool_sum_families_count_like_brute_force(
        n in 1usize..6,
        sums in proptest::collection::vec((proptest::collection::vec(0usize..6, 0..5), 0u32..5, 0u8..4, any::<bool>()), 1..4),
        fixed in proptest::collection::vec(0u8..4, 6),
    ) {
        let doms: Vec<Domain> = (0..n).map(|i| match fixed[i] { 0 => Domain::single(FALSE), 1 => Domain::single(TRUE), _ => BOOL }).collect();
        let sums: Vec<(Vec<usize>, SumRule)> = sums
            .into_iter()
            .map(|(m, k, kind, odd)| (m.into_iter().map(|i| i % n).collect(), rule_of(kind, k, odd)))
            .collect();
        let mut brute = 0u64;
        assignments(&doms, |x| {
            let ok = sums.iter().all(|(m, rule)| {
                let t = m.iter().filter(|&&i| x[i] == TRUE).count() as u32;
                holds(*rule, t)
            });
            if ok { brute += 1 }
        });
        for probe in [None, Some(Probe::pairs())] {
            let mut e = Engine::new();
            let vars: Vec<VarId> = doms.iter().map(|&d| e.new_var(d)).collect();
            let mut family = BoolSum::family("sums");
            for (m, rule) in &sums {
                let members: Vec<VarId> = m.iter().map(|&i| vars[i]).collect();
                family.add(&members, *rule);
            }
            e.post(family);
            prop_assert_eq!(count(e, probe.clone()), brute, "probing {}", probe.is_some());
        }
    }

    #[test]
    fn probing_removes_what_a_naive_pass_removes(seed in any::<u64>(), picks in proptest::collection::vec(0usize..64, 0..3)) {
        let (mut e, vars) = random_path_model(seed);
        let (mut f, _) = random_path_model(seed);
        if e.propagate().is_err() {
            prop_assert!(f.propagate().is_err());
            return Ok(());
        }
        f.propagate().unwrap();
        for &i in &picks {
            let x = vars[i % vars.len()];
            if e.dom(x).len() == 2 {
                let (a, b) = (e.assign(x, TRUE).is_ok() && e.propagate().is_ok(), f.assign(x, TRUE).is_ok() && f.propagate().is_ok());
                prop_assert_eq!(a, b);
                if !a {
                    return Ok(());
                }
            }
        }
        let probe = Probe { vars: Some(vars.clone()), max_values: 2, passes: Passes::One, suspend: Some(Priority::Global), descending: true, after_failures: 0 };
        let r = e.probe(&probe);
        let naive = naive_probe(&mut f, &vars);
        prop_assert_eq!(r.is_ok(), naive.is_ok());
        if r.is_ok() {
            prop_assert_eq!(e.domains(), f.domains());
        }
    }

    #[test]
    fn path_models_reach_the_from_scratch_fixpoint(seed in any::<u64>(), picks in proptest::collection::vec((0usize..64, any::<bool>()), 0..6)) {
        let (e, vars) = random_path_model(seed);
        let picks: Vec<(VarId, u32)> = picks.into_iter().map(|(i, value)| (vars[i % vars.len()], if value { TRUE } else { FALSE })).collect();
        check_fixpoints(e, &picks)?;
    }
}

/// A sum rule of each kind, for the property tests.
fn rule_of(kind: u8, k: u32, odd: bool) -> SumRule {
    match kind {
        0 => SumRule::Exactly(k),
        1 => SumRule::AtMost(k),
        2 => SumRule::AtLeast(k),
        _ => SumRule::Parity(odd),
    }
}

/// Does a count of `t` true members satisfy `rule`?
fn holds(rule: SumRule, t: u32) -> bool {
    match rule {
        SumRule::Exactly(k) => t == k,
        SumRule::AtMost(k) => t <= k,
        SumRule::AtLeast(k) => t >= k,
        SumRule::Parity(odd) => (t % 2 == 1) == odd,
    }
}

/// Counts the solutions of `engine` with the learning settings `learning` (every variable
/// fixed at each), and the learning counters when it learned.
fn count_learning(engine: Engine, learning: learn::Learning) -> (u64, Option<learn::LearnStats>) {
    count_learning_probing(engine, learning, None)
}

fn count_learning_probing(
    engine: Engine,
    learning: learn::Learning,
    probe: Option<Probe>,
) -> (u64, Option<learn::LearnStats>) {
    let limits = Limits {
        learning,
        ..Limits::all()
    };
    let mut s = EngineSearch::new(engine, SmallestDomain::new());
    s.probe = probe;
    s.engine.set_limits(&limits);
    let r = run(&mut s, &limits, |s| {
        assert!(s.engine.all_fixed());
        Flow::Continue
    });
    assert!(r.complete());
    (r.solutions, s.learn_stats())
}

fn learning(mode: learn::LearnMode, activity: bool) -> learn::Learning {
    // Auto mode starts learning after a few nodes, so that the switch happens in the tests.
    learn::Learning {
        mode,
        activity,
        auto_after: Some(3),
    }
}

#[test]
fn auto_learning_switches_on_mid_search_and_counts_every_latin_square_once() {
    // The plain search finds some squares, then learning begins at the root with those
    // squares blocked.
    let (n, stats) = count_learning(
        latin(4, DistinctRules::NAKED_SINGLES).0,
        learning(learn::LearnMode::Auto, false),
    );
    assert_eq!(n, 576);
    let stats = stats.expect("it switched to learning");
    assert!(stats.blocking > 0 && stats.searches == 1, "{stats:?}");
}

#[test]
fn auto_learning_stays_plain_on_an_enumeration() {
    // Within 100 nodes the plain search finds more than AUTO_MAX_SOLUTIONS squares: it is
    // enumerating, and goes on without learning (no blocking clause per square).
    let (n, stats) = count_learning(
        latin(4, DistinctRules::NAKED_SINGLES).0,
        learn::Learning {
            auto_after: Some(100),
            ..learning(learn::LearnMode::Auto, false)
        },
    );
    assert_eq!(n, 576);
    assert_eq!(stats, None, "it never learned");
    // With a budget it spends before its ninth square, it learns.
    let (n, stats) = count_learning(
        latin(4, DistinctRules::NAKED_SINGLES).0,
        learn::Learning {
            auto_after: Some(learn::AUTO_MAX_SOLUTIONS as u64),
            ..learning(learn::LearnMode::Auto, false)
        },
    );
    assert_eq!(n, 576);
    assert!(stats.is_some_and(|s| s.searches == 1));
}

#[test]
fn learning_counts_latin_squares_of_order_4() {
    for activity in [false, true] {
        let (n, stats) = count_learning(
            latin(4, DistinctRules::NAKED_SINGLES).0,
            learning(learn::LearnMode::On, activity),
        );
        assert_eq!(n, 576);
        let stats = stats.expect("it learned");
        // One blocking clause per solution found below a decision (the last may need none).
        assert!((575..=576).contains(&stats.blocking), "{stats:?}");
    }
}

#[test]
fn learning_learns_on_a_pigeonhole_and_proves_it_has_no_solution() {
    // Five pigeons in four holes, all different: every branch fails, and the search learns.
    let mut e = Engine::new();
    let x: Vec<VarId> = (0..5).map(|_| e.new_var(Domain::range(1, 4))).collect();
    let mut d = Distinct::new();
    d.all_different(&x);
    d.post(&mut e, DistinctRules::NAKED_SINGLES);
    let (n, stats) = count_learning(e, learning(learn::LearnMode::On, false));
    assert_eq!(n, 0);
    let stats = stats.expect("it learned");
    assert!(stats.conflicts > 0 && stats.learned > 0, "{stats:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn learning_counts_distinct_models_like_brute_force(seed in any::<u64>(), mode in 0u8..3, activity in any::<bool>()) {
        let m = random_distinct(seed);
        let mut brute = 0u64;
        assignments(&m.doms, |x| if m.holds(x) { brute += 1 });
        let mode = [learn::LearnMode::On, learn::LearnMode::Auto, learn::LearnMode::Off][mode as usize];
        for rules in [DistinctRules::NAKED_SINGLES, DistinctRules::ALL] {
            prop_assert_eq!(count_learning(m.engine(rules).0, learning(mode, activity)).0, brute, "{:?}", rules);
        }
    }

    #[test]
    fn learning_counts_path_models_like_the_plain_search(seed in any::<u64>(), activity in any::<bool>(), auto in any::<bool>()) {
        let plain = count(random_path_model(seed).0, None);
        let mode = if auto { learn::LearnMode::Auto } else { learn::LearnMode::On };
        let (learned, _) = count_learning(random_path_model(seed).0, learning(mode, activity));
        prop_assert_eq!(learned, plain);
    }

    #[test]
    fn learning_counts_sudoku6_with_every_rule_like_the_plain_search(seed in 0u64..40) {
        let plain = count(sudoku6(seed).0, None);
        let (learned, _) = count_learning(sudoku6(seed).0, learning(learn::LearnMode::On, false));
        prop_assert_eq!(learned, plain);
    }
}

/// Every clause the learning search learns holds in every solution (found by the plain
/// search) that it had not found before: learning never cuts a solution off. (A clause
/// learned after a solution may rest on that solution's blocking clause.)
fn check_learned_clauses(make: impl Fn() -> Engine, activity: bool) -> Result<(), TestCaseError> {
    check_learned_clauses_probing(make, activity, None)
}

/// The probes the tests learn with: every pair to a fixpoint, or as the line toolkit probes
/// (one pass, true first, global rules suspended inside probes).
fn test_probe(lines: bool) -> Probe {
    if lines {
        Probe {
            vars: None,
            max_values: 2,
            passes: Passes::One,
            suspend: Some(Priority::Global),
            descending: true,
            after_failures: 0,
        }
    } else {
        Probe::pairs()
    }
}

fn check_learned_clauses_probing(
    make: impl Fn() -> Engine,
    activity: bool,
    probe: Option<Probe>,
) -> Result<(), TestCaseError> {
    let mut sols: Vec<Vec<Domain>> = Vec::new();
    let mut s = EngineSearch::new(make(), SmallestDomain::new());
    run(&mut s, &Limits::all(), |s| {
        sols.push(s.engine.domains().to_vec());
        Flow::Continue
    });
    let limits = Limits {
        learning: learning(learn::LearnMode::On, activity),
        ..Limits::all()
    };
    let mut s = EngineSearch::new(make(), SmallestDomain::new());
    s.probe = probe;
    s.engine.set_limits(&limits);
    let mut found: Vec<Vec<Domain>> = Vec::new();
    let r = run(&mut s, &limits, |s| {
        found.push(s.engine.domains().to_vec());
        Flow::Continue
    });
    prop_assert_eq!(r.solutions, sols.len() as u64);
    // When each solution was blocked (its index among the learning search's).
    let order: std::collections::HashMap<&[Domain], usize> =
        found.iter().enumerate().map(|(i, f)| (&f[..], i)).collect();
    for (k, (clause, conflict, blocked)) in s.learned().iter().enumerate() {
        for sol in sols.iter().filter(|s| order[&s[..]] >= *blocked as usize) {
            let ok = clause.iter().any(|l| l.holds(sol[l.var().index()]));
            prop_assert!(
                ok,
                "clause {} {:?} from conflict {:?} breaks a solution",
                k,
                clause,
                conflict
            );
        }
    }
    Ok(())
}

#[test]
fn every_clause_learned_on_latin_squares_holds_in_every_solution() {
    check_learned_clauses(|| latin(4, DistinctRules::NAKED_SINGLES).0, false).unwrap();
    check_learned_clauses(|| latin(4, DistinctRules::ALL).0, true).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 100, ..ProptestConfig::default() })]

    #[test]
    fn every_clause_learned_on_path_models_holds_in_every_solution(seed in any::<u64>(), activity in any::<bool>()) {
        check_learned_clauses(|| random_path_model(seed).0, activity)?;
    }

    #[test]
    fn every_clause_learned_on_sudoku6_holds_in_every_solution(seed in 40u64..80) {
        check_learned_clauses(|| sudoku6(seed).0, false)?;
    }

    #[test]
    fn every_clause_learned_while_probing_holds_in_every_solution(seed in any::<u64>(), activity in any::<bool>(), lines in any::<bool>()) {
        check_learned_clauses_probing(|| random_path_model(seed).0, activity, Some(test_probe(lines)))?;
    }


    #[test]
    fn learning_while_probing_counts_like_the_plain_search(seed in any::<u64>(), activity in any::<bool>(), auto in any::<bool>(), lines in any::<bool>()) {
        let plain = count(random_path_model(seed).0, None);
        let mode = if auto { learn::LearnMode::Auto } else { learn::LearnMode::On };
        let probe = Some(test_probe(lines));
        let (learned, _) = count_learning_probing(random_path_model(seed).0, learning(mode, activity), probe);
        prop_assert_eq!(learned, plain);
        let m = random_distinct(seed);
        let mut brute = 0u64;
        assignments(&m.doms, |x| if m.holds(x) { brute += 1 });
        let probe = Some(Probe { max_values: 3, ..Probe::pairs() });
        prop_assert_eq!(count_learning_probing(m.engine(DistinctRules::ALL).0, learning(mode, activity), probe).0, brute);
    }
}

#[test]
fn every_clause_learned_while_probing_sudoku6_holds_in_every_solution() {
    for seed in 80u64..83 {
        let probe = Probe {
            max_values: 3,
            ..Probe::pairs()
        };
        check_learned_clauses_probing(|| sudoku6(seed).0, true, Some(probe)).unwrap();
    }
}

#[test]
fn learning_while_probing_refutes_probed_values_with_clauses() {
    // Latin squares of order 4 with a few givens: probes fail, and each failure is learned.
    let mut total = learn::LearnStats::default();
    for seed in 0..20u64 {
        let make = || {
            let (mut e, x) = latin(4, DistinctRules::NAKED_SINGLES);
            let mut rng = SplitMix64::new(seed);
            let _ = e.assign(x[rng.below(16)], 1 + rng.below(4) as u32);
            let _ = e.assign(x[rng.below(16)], 1 + rng.below(4) as u32);
            e
        };
        let plain = count(make(), None);
        let probe = Some(Probe {
            max_values: 4,
            ..Probe::pairs()
        });
        let (n, stats) = count_learning_probing(make(), learning(learn::LearnMode::On, true), probe);
        assert_eq!(n, plain, "seed {seed}");
        if let Some(st) = stats {
            total.absorb(&st);
        }
    }
    assert!(total.probes > 0 && total.learned >= total.probes, "{total:?}");
}
