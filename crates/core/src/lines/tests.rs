//! The line toolkit against brute force: every subset of links of small grids that forms one
//! loop (or one path between two ends), with cells and links fixed at random, counted by the
//! engine with every rule on and with the definition alone, and checked by [`check`].

use super::*;
use crate::constraints::{Clauses, Literal};
use crate::grid::Grid;
use crate::search::{count_keeping, Limits};
use crate::testing::assert_fixpoints_after;
use proptest::prelude::*;

/// The line grid of a set of links (bit `l` of `mask` = link `l` used).
fn grid_of(shape: Shape, mask: u64) -> LineGrid {
    let links = crate::links::Links::new(shape);
    let mut g = LineGrid::filled(shape, 0);
    for l in 0..links.len() as u32 {
        if mask >> l & 1 == 1 {
            let (a, b) = links.ends(l);
            let d = answer::toward(shape, a, b).unwrap();
            g[a] |= d;
            g[b] |= answer::opposite(d);
        }
    }
    g
}

/// Brute force: the link sets forming one line (loop or path between `ends`) that satisfy
/// the fixed cells (`Some(true)` visited) and links.
fn brute(shape: Shape, ends: Option<(CellId, CellId)>, cells: &[Option<bool>], links: &[Option<bool>]) -> u64 {
    let n = links.len();
    (0u64..1 << n)
        .filter(|&m| {
            if (0..n).any(|l| links[l].is_some_and(|v| v != (m >> l & 1 == 1))) {
                return false;
            }
            let g = grid_of(shape, m);
            if shape.all().any(|c| cells[c.index()].is_some_and(|v| v != (g[c] != 0))) {
                return false;
            }
            check(&g, ends).is_empty()
        })
        .count() as u64
}

fn engine_count(
    shape: Shape,
    ends: Option<(CellId, CellId)>,
    cells: &[Option<bool>],
    links: &[Option<bool>],
    rules: LineRules,
) -> u64 {
    let mut e = Engine::new();
    let m = LineModel::new(&mut e, shape, ends);
    let mut fixed_ok = true;
    for (i, v) in cells.iter().enumerate() {
        if let Some(v) = v {
            fixed_ok &= e.assign(m.vars.cell[i], if *v { TRUE } else { FALSE }).is_ok();
        }
    }
    for (i, v) in links.iter().enumerate() {
        if let Some(v) = v {
            fixed_ok &= e.assign(m.vars.link[i], if *v { TRUE } else { FALSE }).is_ok();
        }
    }
    if !fixed_ok || m.post(&mut e, rules).is_err() {
        return 0;
    }
    let mut s = m.search(e, rules);
    let (r, _) = count_keeping(&mut s, &Limits::all(), 0, |_| ());
    assert!(r.complete());
    r.solutions
}

fn fixings(n: usize, raw: &[u8]) -> Vec<Option<bool>> {
    (0..n)
        .map(|i| match raw.get(i).copied().unwrap_or(9) {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    #[test]
    fn loops_are_counted_like_brute_force(
        (h, w) in prop_oneof![Just((2usize, 2usize)), Just((2, 3)), Just((3, 3)), Just((3, 4)), Just((2, 5))],
        cell_raw in prop::collection::vec(0u8..12, 12),
        link_raw in prop::collection::vec(0u8..20, 17),
    ) {
        let shape = Shape::new(h, w);
        let nl = crate::links::Links::new(shape).len();
        let cells = fixings(shape.cells(), &cell_raw);
        let links = fixings(nl, &link_raw);
        let want = brute(shape, None, &cells, &links);
        for rules in [LineRules::ALL, LineRules::NONE, LineRules { probe: false, ..LineRules::ALL }] {
            prop_assert_eq!(engine_count(shape, None, &cells, &links, rules), want, "{:?}", rules);
        }
    }

    #[test]
    fn paths_are_counted_like_brute_force(
        (h, w) in prop_oneof![Just((2usize, 3usize)), Just((3, 3)), Just((3, 4))],
        a in 0usize..12, b in 0usize..12,
        cell_raw in prop::collection::vec(0u8..12, 12),
        link_raw in prop::collection::vec(0u8..20, 17),
    ) {
        let shape = Shape::new(h, w);
        let (a, b) = (CellId::from_index(a % shape.cells()), CellId::from_index(b % shape.cells()));
        prop_assume!(a != b);
        let nl = crate::links::Links::new(shape).len();
        let cells = fixings(shape.cells(), &cell_raw);
        let links = fixings(nl, &link_raw);
        let want = brute(shape, Some((a, b)), &cells, &links);
        for rules in [LineRules::ALL, LineRules::NONE] {
            prop_assert_eq!(engine_count(shape, Some((a, b)), &cells, &links, rules), want, "{:?}", rules);
        }
    }

    #[test]
    fn loop_propagation_reaches_its_fixpoint_incrementally(
        (h, w) in prop_oneof![Just((3usize, 3usize)), Just((3, 4)), Just((4, 4))],
        picks in prop::collection::vec((0usize..40, any::<bool>()), 0..5),
    ) {
        let shape = Shape::new(h, w);
        let mut e = Engine::new();
        let m = LineModel::new(&mut e, shape, None);
        m.post(&mut e, LineRules::ALL).unwrap();
        // A pearl-like clause family, to mix rules.
        let mut c = Clauses::new("clauses");
        c.add(&[Literal::not(m.vars.link[0]), Literal::is(m.vars.cell[shape.cells() - 1])]);
        e.post(c);
        let all: Vec<VarId> = m.vars.link.iter().chain(&m.vars.cell).copied().collect();
        let picks: Vec<(VarId, u32)> = picks
            .into_iter()
            .map(|(i, v)| (all[i % all.len()], if v { TRUE } else { FALSE }))
            .collect();
        assert_fixpoints_after(e, &picks);
    }
}

#[test]
fn the_loop_and_path_encodings_have_the_engine_solutions() {
    use crate::encode::Encoder;
    use crate::sat::{sat_search, unnamed};
    let shape = Shape::new(3, 3);
    for ends in [None, Some((CellId(0), CellId(8)))] {
        let build = || {
            let mut e = Engine::new();
            let m = LineModel::new(&mut e, shape, ends);
            m.post(&mut e, LineRules::ALL).unwrap();
            (e, m)
        };
        let want = brute(shape, ends, &[None; 9], &[None; 12]);
        let (e, m) = build();
        let (r, _) = count_keeping(&mut m.search(e, LineRules::ALL), &Limits::all(), 0, |_| ());
        assert_eq!(r.solutions, want, "{ends:?}");
        let (mut e, _) = build();
        let f = sat_search(&mut e, unnamed, &Limits::all(), 0, |_| ()).unwrap();
        assert_eq!(u64::try_from(&f.count).unwrap(), want, "sat {ends:?}");
        // The static encoding (export) projected on the engine's variables.
        let (e, _) = build();
        let enc = Encoder::of_engine(&e, unnamed).unwrap();
        let n = e.num_vars();
        assert_eq!(models(&enc, n), want, "export {ends:?}");
    }
}

#[test]
fn check_names_every_kind_of_break() {
    let shape = Shape::new(2, 3);
    let g = answer::parse("se ew sw\nne ew nw\n", shape, "masyu").unwrap();
    assert!(check(&g, None).is_empty());
    // Two pieces, a dangling end, a line off the grid.
    let g = answer::parse("se sw -\nne n -\n", shape, "masyu").unwrap();
    let v = check(&g, None);
    assert!(v.iter().any(|x| x.rule == "line" && x.at == "r2c1"), "{v:?}");
    assert!(v.iter().any(|x| x.rule == "degree"), "{v:?}");
    let g = answer::parse("se sw n\nne nw -\n", shape, "masyu").unwrap();
    let v = check(&g, None);
    assert!(v.iter().any(|x| x.message.contains("leaves the grid")), "{v:?}");
    let g: Grid<u8> = answer::parse("- - -\n- - -\n", shape, "masyu").unwrap();
    assert_eq!(check(&g, None)[0].message, "there is no line");
}

#[test]
fn entries_draw_both_ends_of_a_line_and_name_the_wrong_ones() {
    let shape = Shape::new(2, 2);
    let x = Entries::parse("e x\n. -\n", shape, "masyu").unwrap();
    assert_eq!(x.lines[shape.id(0, 1)], answer::W, "the neighbour gets the line back");
    assert!(x.crossed[shape.id(0, 1)]);
    let solution = answer::parse("se sw\nne nw\n", shape, "masyu").unwrap();
    let wrong: Vec<String> = x
        .wrong(&solution)
        .iter()
        .map(|f| format!("{} {}", f.cell, f.value))
        .collect();
    assert_eq!(wrong, ["r1c2 unused"]);
}

/// The number of models of a formula, projected on its first `n` variables (blocking each).
fn models(enc: &crate::encode::Encoder, n: usize) -> u64 {
    use rustsat::solvers::{Solve, SolverResult};
    use rustsat::types::{Lit, TernaryVal};
    let cnf = enc.cnf().expect("a small formula fits in memory");
    let mut s = rustsat_batsat::BasicSolver::default();
    for cl in cnf.clauses.iter() {
        s.add_clause_ref(cl).unwrap();
    }
    let mut count = 0;
    while s.solve().unwrap() == SolverResult::Sat {
        let block: Vec<Lit> = (0..n as u32)
            .map(|i| {
                if s.lit_val(Lit::positive(i)).unwrap() == TernaryVal::True {
                    Lit::negative(i)
                } else {
                    Lit::positive(i)
                }
            })
            .collect();
        s.add_clause(block.into_iter().collect()).unwrap();
        count += 1;
    }
    count
}
