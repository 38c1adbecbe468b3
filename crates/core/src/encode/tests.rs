//! Tests of the encodings: every row kind against its definition by enumeration, the
//! constraint library's models counted by the SAT search and by the engine's own search, and
//! the refusal of a model with a rule that has no encoding.

use super::*;
use crate::constraints::{BoolSum, Distinct, DistinctRules, PathRules, PathVars, SinglePath, SumRule};
use crate::engine::{Conflict, Context, Engine, EngineSearch, Propagator, SmallestDomain};
use crate::grid::{CellId, Shape};
use crate::sat::{sat_search, unnamed};
use crate::search::{count_keeping, Limits};
use rustsat::solvers::{Solve, SolverResult};
use rustsat::types::TernaryVal;

/// The assignments of the first `n` formula variables that extend to a model of the CNF.
fn models(enc: &Encoder, n: usize) -> Vec<Vec<bool>> {
    let cnf = enc.cnf().expect("a small formula fits in memory");
    let mut s = rustsat_batsat::BasicSolver::default();
    for cl in cnf.clauses.iter() {
        s.add_clause_ref(cl).unwrap();
    }
    let mut out = Vec::new();
    while s.solve().unwrap() == SolverResult::Sat {
        let m: Vec<bool> = (0..n as u32)
            .map(|i| s.lit_val(Lit::positive(i)).unwrap() == TernaryVal::True)
            .collect();
        let block = (0..n as u32).map(|i| {
            if m[i as usize] {
                Lit::negative(i)
            } else {
                Lit::positive(i)
            }
        });
        s.add_clause(block.collect()).unwrap();
        out.push(m);
    }
    out.sort();
    out
}

fn all_assignments(n: usize) -> impl Iterator<Item = Vec<bool>> {
    (0..1u32 << n).map(move |m| (0..n).map(|i| m >> i & 1 == 1).collect())
}

fn number(bits: &[bool]) -> u32 {
    bits.iter().enumerate().map(|(i, &b)| u32::from(b) << i).sum()
}

#[test]
fn parity_order_and_pb_rows_have_exactly_their_solutions_in_cnf_and_linear_form() {
    // Five literals: a parity over all, `x0 → bits(x1,x2) < bits(x3,x4)`, `2x0 + x1 − x3 ≤ 1`.
    for odd in [false, true] {
        let mut e = Encoder::new(&[], |_| unnamed(VarId(0)));
        let x: Vec<Lit> = (0..5).map(|i| e.new_lit(format!("x{i}"))).collect();
        e.parity(x.clone(), odd);
        e.less(x[0], vec![x[1], x[2]], vec![x[3], x[4]]);
        e.linear(vec![(x[0], 2), (x[1], 1), (x[3], -1)], Cmp::Le, 1);
        let def = |a: &Vec<bool>| {
            let parity = a.iter().filter(|&&b| b).count() % 2 == 1;
            let less = !a[0] || number(&a[1..3]) < number(&a[3..5]);
            let pb = 2 * i32::from(a[0]) + i32::from(a[1]) - i32::from(a[3]) <= 1;
            parity == odd && less && pb
        };
        let mut truth: Vec<Vec<bool>> = all_assignments(5).filter(def).collect();
        truth.sort();
        assert_eq!(models(&e, 5), truth, "odd = {odd}");
        // The linear rows: exactly the same assignments, the parity's helper bits chosen freely.
        let (rows, n) = e.linear_rows();
        let helpers = n as usize - 5;
        for a in all_assignments(5) {
            let fits = (0..1u32 << helpers).any(|h| {
                let v = |i: u32| {
                    if (i as usize) < 5 {
                        a[i as usize]
                    } else {
                        h >> (i - 5) & 1 == 1
                    }
                };
                rows.iter().all(|r| r.holds(v))
            });
            assert_eq!(fits, def(&a), "{a:?}");
        }
    }
}

/// Solutions of the model `build` makes, counted by the engine's search and by the SAT search
/// (two copies: engines are not `Clone`).
fn counts_of(build: impl Fn() -> Engine) -> (u64, u64) {
    let mut s = EngineSearch::new(build(), SmallestDomain::new());
    let (r, _) = count_keeping(&mut s, &Limits::all(), 0, |_| ());
    assert!(r.complete());
    let f = sat_search(&mut build(), unnamed, &Limits::all(), 2, |e| e.domains().to_vec()).unwrap();
    assert!(f.complete);
    for d in &f.solutions {
        assert!(d.iter().all(|x| x.is_single()));
    }
    (r.solutions, u64::try_from(&f.count).unwrap())
}

#[test]
fn distinct_models_count_the_same_on_the_sat_solver() {
    // A 4-permutation with a pair that may not share 1 or 2, and an all-different triple.
    let (engine, sat) = counts_of(|| {
        let mut e = Engine::new();
        let x: Vec<VarId> = (0..4).map(|_| e.new_var(Domain::range(1, 4))).collect();
        let y: Vec<VarId> = (0..3).map(|_| e.new_var(Domain::range(1, 5))).collect();
        let mut d = Distinct::new();
        d.permutation(&x, Domain::range(1, 4));
        d.all_different(&y);
        d.not_equal_on(x[0], y[0], Domain::range(1, 2));
        d.not_equal(x[3], y[2]);
        d.post(&mut e, DistinctRules::ALL);
        e
    });
    assert_eq!(engine, sat);
    assert!(engine > 0);
}

#[test]
fn single_path_models_count_the_same_on_the_sat_solver() {
    // Every simple path between opposite corners of a 3×4 grid, with and without a row count
    // and a parity: the lazy no-cycle cuts of the SAT search and the static encoding (ranks)
    // both keep exactly the engine's solutions.
    for clue in [None, Some(3)] {
        let build = |clue: Option<u32>| {
            let mut e = Engine::new();
            let shape = Shape::new(3, 4);
            let vars = PathVars::new(&mut e, shape);
            let path = SinglePath {
                vars: vars.clone(),
                a: CellId(0),
                b: CellId(11),
            };
            path.post(
                &mut e,
                PathRules {
                    loops: true,
                    connect: true,
                },
            )
            .unwrap();
            if let Some(k) = clue {
                e.post(BoolSum::new("lines", vars.cell[4..8].to_vec(), SumRule::Exactly(k)));
                e.post(BoolSum::new("cuts", vars.link[..3].to_vec(), SumRule::Parity(true)));
            }
            e
        };
        let (engine, sat) = counts_of(|| build(clue));
        assert_eq!(engine, sat, "clue {clue:?}");
        assert!(engine > 1);
        // The static encoding (ranks, what export writes) has the same models on the
        // engine's variables (all Booleans: the first formula variables).
        let e = build(clue);
        let n = e.num_vars();
        assert_eq!(
            models(&Encoder::of_engine(&e, unnamed).unwrap(), n).len() as u64,
            engine
        );
    }
}

struct NoEncoding;

impl Propagator for NoEncoding {
    fn name(&self) -> &'static str {
        "mine"
    }
    fn propagate(&mut self, _: &mut Context) -> Result<(), Conflict> {
        Ok(())
    }
}

#[test]
fn a_rule_without_an_encoding_is_reported_by_name_not_a_panic() {
    let mut e = Engine::new();
    e.new_bool();
    e.post(NoEncoding);
    let err = Encoder::of_engine(&e, unnamed).unwrap_err();
    assert_eq!(err.rule, "mine");
    let r = sat_search(&mut e, unnamed, &Limits::all(), 1, |_| ());
    assert!(r.unwrap_err().to_string().contains("`mine` has no SAT/LP encoding"));
}

#[test]
fn an_unsolvable_puzzle_exports_a_formula_without_models_in_every_format() {
    let e = Encoder::unsatisfiable();
    assert!(models(&e, 1).is_empty());
    let dimacs = e.write(ExportFormat::Dimacs, &["no solution".into()]);
    assert!(dimacs.contains("p cnf 1 2") && dimacs.contains("c no solution"));
    let (rows, _) = e.linear_rows();
    assert!([false, true].iter().all(|&v| !rows.iter().all(|r| r.holds(|_| v))));
    assert!(e.write(ExportFormat::Lp, &[]).contains("Binary\n x_unsat\n"));
    assert!(e
        .write(ExportFormat::Opb, &[])
        .starts_with("* #variable= 1 #constraint= 2"));
}

/// A path model on a `n`×`n` grid with a row count: rows of every kind (degree, a totalizer,
/// parities, the ranks' orders), named variables and auxiliaries.
fn path_model(n: usize) -> Engine {
    let mut e = Engine::new();
    let shape = Shape::new(n, n);
    let vars = PathVars::new(&mut e, shape);
    let p = SinglePath {
        vars: vars.clone(),
        a: CellId(0),
        b: CellId((n * n - 1) as u32),
    };
    p.post(
        &mut e,
        PathRules {
            loops: true,
            connect: true,
        },
    )
    .unwrap();
    e.post(BoolSum::new("lines", vars.cell[..n].to_vec(), SumRule::Exactly(2)));
    e.post(BoolSum::new("cuts", vars.link[..3].to_vec(), SumRule::Parity(true)));
    e
}

fn named(v: VarId) -> VarInfo {
    VarInfo {
        name: format!("x{}", v.index()),
        boolean: true,
    }
}

#[test]
fn streamed_dimacs_is_the_kept_formulas_text() {
    // Written in two passes (names and counts, then clauses), never held: the same text, byte
    // for byte, as the formula kept in memory and written whole.
    let e = path_model(5);
    let header = vec!["a header".to_string()];
    let kept = Encoder::of_engine(&e, named)
        .unwrap()
        .write(ExportFormat::Dimacs, &header);
    let mut streamed = Vec::new();
    write_dimacs(
        e.domains(),
        |enc| e.encode(enc),
        named,
        &header,
        &Limits::default(),
        &mut streamed,
    )
    .unwrap();
    assert_eq!(String::from_utf8(streamed).unwrap(), kept);
    assert!(kept.starts_with("c a header\nc 1 x0\n"));
}

#[test]
fn a_kept_formula_stops_at_its_budget_and_measures_without_keeping() {
    let e = path_model(6);
    let full = Encoder::of_engine(&e, named).unwrap();
    let (bytes, vars) = formula_size(e.domains(), |enc| e.encode(enc), named, &Limits::default()).unwrap();
    assert_eq!(bytes, full.kept_bytes());
    assert_eq!(vars, full.num_lits() as u64);
    let mut small = Encoder::limited(e.domains(), named, &Limits::default(), Some(bytes / 2))
        .with_rows_of(&e)
        .unwrap();
    match small.take_halt() {
        Some(Halt::Memory(m)) => {
            assert!(m.at_least && m.needed > bytes / 2 && m.needed <= bytes, "{m:?}");
            assert!(m.to_string().contains("more than"), "{m}");
        }
        other => panic!("expected the budget to stop it, got {other:?}"),
    }
    assert!(small.rows().len() < full.rows().len());
}

#[test]
fn a_formula_built_past_its_deadline_halts_and_sat_reports_the_timeout() {
    let mut e = path_model(40);
    let past = Limits {
        deadline: Some(crate::time::Instant::now()),
        ..Limits::default()
    };
    let mut enc = Encoder::limited(e.domains(), named, &past, None)
        .with_rows_of(&e)
        .unwrap();
    assert!(matches!(enc.take_halt(), Some(Halt::Limit(StopReason::Deadline))));
    let found = sat_search(&mut e, unnamed, &past, 1, |_| ()).unwrap();
    assert_eq!(found.interrupted, Some(StopReason::Deadline));
    let mut out = Vec::new();
    let err = write_dimacs(e.domains(), |enc| e.encode(enc), named, &[], &past, &mut out).unwrap_err();
    assert!(matches!(err, crate::error::PuzzleError::Interrupted { .. }), "{err}");
}
