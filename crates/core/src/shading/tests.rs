//! The shading toolkit against brute force: every shading of small grids, with cells fixed at
//! random, counted by the engine with each rule, and the checks of answers.

use super::*;
use crate::search::{count_keeping, Limits};
use crate::testing::{all_shadings, assert_fixpoints_after};
use proptest::prelude::*;

fn fixings(n: usize, raw: &[u8]) -> Vec<Option<bool>> {
    (0..n)
        .map(|i| match raw.get(i).copied().unwrap_or(9) {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        })
        .collect()
}

/// The engine's count of the model `post` builds on a fresh shading of `shape` with `fixed`
/// cells, with each rule set.
fn engine_count(
    shape: Shape,
    fixed: &[Option<bool>],
    rules: ShadeRules,
    post: &dyn Fn(&ShadeModel, &mut Engine),
) -> u64 {
    let mut e = Engine::new();
    let m = ShadeModel::new(&mut e, shape, ["no", "yes"]);
    for (i, v) in fixed.iter().enumerate() {
        if let Some(v) = v {
            if e.assign(m.cells[i], if *v { TRUE } else { FALSE }).is_err() {
                return 0;
            }
        }
    }
    post(&m, &mut e);
    let mut s = m.search(e, rules);
    let (r, _) = count_keeping(&mut s, &Limits::all(), 0, |_| ());
    assert!(r.complete());
    r.solutions
}

fn brute(shape: Shape, fixed: &[Option<bool>], ok: &dyn Fn(&Shading) -> bool) -> u64 {
    all_shadings(shape)
        .filter(|g| shape.all().all(|c| fixed[c.index()].is_none_or(|v| v == g[c])))
        .filter(|g| ok(g))
        .count() as u64
}

const SHAPES: [(usize, usize); 5] = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)];

proptest! {
    #![proptest_config(ProptestConfig { cases: 80, ..ProptestConfig::default() })]

    #[test]
    fn connected_counts_like_brute_force(s in 0usize..5, colour in any::<bool>(), raw in prop::collection::vec(0u8..6, 16)) {
        let (h, w) = SHAPES[s];
        let shape = Shape::new(h, w);
        let fixed = fixings(shape.cells(), &raw);
        let want = brute(shape, &fixed, &|g| check_connected(g, colour, "x").is_empty());
        for rules in [ShadeRules::ALL, ShadeRules::NONE] {
            let got = engine_count(shape, &fixed, rules, &|m, e| m.connected(e, colour, rules));
            prop_assert_eq!(got, want, "{:?} colour {}", rules, colour);
        }
    }

    #[test]
    fn islands_and_a_connected_wall_count_like_brute_force(
        s in 0usize..5,
        raw in prop::collection::vec(0u8..8, 16),
        nums in prop::collection::vec((0usize..16, 0u32..6), 1..4),
    ) {
        let (h, w) = SHAPES[s];
        let shape = Shape::new(h, w);
        let fixed = fixings(shape.cells(), &raw);
        let mut numbers: Vec<Number> = Vec::new();
        for (i, n) in nums {
            let c = CellId::from_index(i % shape.cells());
            if !numbers.iter().any(|x| x.0 == c) {
                numbers.push((c, (n > 0).then_some(n)));
            }
        }
        let want = brute(shape, &fixed, &|g| {
            check_islands(g, &numbers).is_empty() && check_connected(g, true, "wall").is_empty() && check_2x2(g, true, "wall").is_empty()
        });
        for rules in [ShadeRules::ALL, ShadeRules::NONE] {
            let got = engine_count(shape, &fixed, rules, &|m, e| {
                if m.islands(e, &numbers).is_ok() {
                    m.connected(e, true, rules);
                    m.no_2x2(e, true);
                } else {
                    // A numbered cell fixed shaded: no solution; post a contradiction.
                    e.post(crate::constraints::BoolSum::new("none", vec![m.cells[0]], crate::constraints::SumRule::Exactly(2)));
                }
            });
            prop_assert_eq!(got, want, "{:?} {:?}", rules, numbers);
        }
    }

    #[test]
    fn no_touch_counts_like_brute_force(s in 0usize..5, raw in prop::collection::vec(0u8..6, 16)) {
        let (h, w) = SHAPES[s];
        let shape = Shape::new(h, w);
        let fixed = fixings(shape.cells(), &raw);
        let want = brute(shape, &fixed, &|g| check_no_touch(g, "star").is_empty());
        prop_assert_eq!(engine_count(shape, &fixed, ShadeRules::ALL, &|m, e| m.no_touch(e)), want);
    }

    #[test]
    fn islands_reach_their_fixpoint_incrementally(picks in prop::collection::vec((0usize..25, any::<bool>()), 0..8)) {
        let shape = Shape::new(5, 5);
        let mut e = Engine::new();
        let m = ShadeModel::new(&mut e, shape, ["island", "wall"]);
        let numbers = vec![(CellId(0), Some(3)), (CellId(12), Some(2)), (CellId(24), None)];
        m.islands(&mut e, &numbers).unwrap();
        m.connected(&mut e, true, ShadeRules::ALL);
        m.no_2x2(&mut e, true);
        let picks: Vec<_> = picks.into_iter().map(|(i, v)| (m.cells[i], if v { TRUE } else { FALSE })).collect();
        assert_fixpoints_after(e, &picks);
    }
}

#[test]
fn the_checks_name_what_breaks() {
    let shape = Shape::new(3, 3);
    let g = answer::parse("x x -\nx x -\n- - x\n", shape, "nurikabe").unwrap();
    assert_eq!(
        check_2x2(&g, true, "wall")[0].message,
        "the 2×2 block at r1c1 is all wall"
    );
    assert_eq!(
        check_connected(&g, true, "wall")[0].message,
        "the wall is in 2 separate parts (one at r1c1, another at r3c3)"
    );
    let v = check_islands(&g, &[(shape.id(0, 2), Some(3))]);
    assert!(
        v.iter().any(|x| x.message == "the island of r1c3 has 2 cells, not 3"),
        "{v:?}"
    );
    assert!(
        v.iter()
            .any(|x| x.message == "the island at r3c1 (2 cells) has no number"),
        "{v:?}"
    );
    assert_eq!(
        check_no_touch(&g, "star")[0].message,
        "the stars at r1c1 and r1c2 touch"
    );
}

#[test]
fn answers_and_entries_read_back() {
    let shape = Shape::new(2, 2);
    let g = answer::parse("x -\n- x\n", shape, "nurikabe").unwrap();
    assert_eq!(answer::write(&g), "x -\n- x");
    let x = answer::parse_entries("x o\n- .\n", shape, "nurikabe").unwrap();
    assert_eq!(x.as_slice(), &[Some(true), Some(false), None, None]);
    let solution = answer::parse("- -\n- x\n", shape, "nurikabe").unwrap();
    let wrong = answer::wrong(&x, &solution, ["island", "wall"]);
    assert_eq!((wrong[0].cell.as_str(), wrong[0].value.as_str()), ("r1c1", "wall"));
    let e = answer::parse("x -\n- y\n", shape, "nurikabe").unwrap_err();
    assert_eq!((e.pos.line, e.pos.col), (2, 3));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Soundness on larger grids than brute force reaches: a random shading, its unshaded
    /// groups numbered (a random cell of each, its size or `?`), and the cells of that shading
    /// assumed one at a time in a random order; no rule may refute the shading it came from.
    #[test]
    fn islands_never_refute_a_shading_they_hold(
        h in 3usize..8,
        w in 3usize..8,
        bits in prop::collection::vec(any::<bool>(), 49),
        order in prop::collection::vec(any::<u32>(), 49),
        unknown in any::<u8>(),
    ) {
        let shape = Shape::new(h, w);
        let shading = Grid::from_vec(shape, bits[..shape.cells()].to_vec()).expect("sized");
        let mut numbers: Vec<Number> = Vec::new();
        for (k, group) in connect::groups(shape, |c| !shading[c]).into_iter().enumerate() {
            let c = group[order[k] as usize % group.len()];
            numbers.push((c, ((unknown >> (k % 8)) & 1 == 0).then_some(group.len() as u32)));
        }
        let wall_connected = check_connected(&shading, true, "wall").is_empty();
        let mut e = Engine::new();
        let m = ShadeModel::new(&mut e, shape, ["island", "wall"]);
        m.islands(&mut e, &numbers).unwrap();
        if wall_connected {
            m.connected(&mut e, true, ShadeRules::ALL);
        }
        prop_assert!(e.propagate().is_ok());
        let mut cells: Vec<usize> = (0..shape.cells()).collect();
        cells.sort_by_key(|&i| order[i]);
        for i in cells {
            let value = if shading[CellId::from_index(i)] { TRUE } else { FALSE };
            prop_assert!(e.assign(m.cells[i], value).is_ok() && e.propagate().is_ok(), "refuted at cell {}", i);
        }
    }
}

/// A star shading from `bits` (cells taken in order while they touch no star) and counts of
/// its rows, columns and the regions of a random layout, each `Exactly` what it holds.
fn packed_counts(shape: Shape, bits: &[bool], seed: u64) -> (Shading, Vec<crate::counts::Counts>) {
    use crate::constraints::SumRule;
    let mut g = Grid::filled(shape, false);
    for c in shape.all() {
        let near = crate::grid::KING.iter().filter_map(|&d| shape.step(c, d)).any(|n| g[n]);
        g[c] = bits[c.index()] && !near;
    }
    let labels = crate::regions::generate::random_layout(shape, &mut crate::rng::SplitMix64::new(seed), &[2, 3, 4, 5]);
    let count = |cells: &mut dyn Iterator<Item = CellId>| SumRule::Exactly(cells.filter(|&c| g[c]).count() as u32);
    let (mut rows, mut cols, mut regions) = (
        crate::counts::Counts::new("rows"),
        crate::counts::Counts::new("columns"),
        crate::counts::Counts::new("regions"),
    );
    for r in 0..shape.height {
        rows.add(
            format!("row {r}"),
            (0..shape.width).map(|c| shape.id(r, c)),
            count(&mut (0..shape.width).map(|c| shape.id(r, c))),
        );
    }
    for c in 0..shape.width {
        cols.add(
            format!("column {c}"),
            (0..shape.height).map(|r| shape.id(r, c)),
            count(&mut (0..shape.height).map(|r| shape.id(r, c))),
        );
    }
    for l in labels
        .as_slice()
        .iter()
        .copied()
        .collect::<std::collections::BTreeSet<_>>()
    {
        let cells: Vec<CellId> = shape.all().filter(|&c| labels[c] == l).collect();
        regions.add(format!("region {l}"), cells.clone(), count(&mut cells.into_iter()));
    }
    (g, vec![rows, cols, regions])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// `packing` never refutes a star shading that its counts come from, whatever order its
    /// cells are assumed in.
    #[test]
    fn packing_never_refutes_a_shading_it_holds(
        h in 2usize..9,
        w in 2usize..9,
        bits in prop::collection::vec(any::<bool>(), 64),
        order in prop::collection::vec(any::<u32>(), 64),
        seed in any::<u64>(),
    ) {
        let shape = Shape::new(h, w);
        let (g, counts) = packed_counts(shape, &bits, seed);
        let mut e = Engine::new();
        let m = ShadeModel::new(&mut e, shape, ["empty", "star"]);
        m.no_touch(&mut e);
        counts.iter().for_each(|c| c.post(&mut e, &m.cells));
        e.post(crate::counts::Packing::new(shape, &counts, m.cells.clone()));
        prop_assert!(e.propagate().is_ok());
        let mut cells: Vec<usize> = (0..shape.cells()).collect();
        cells.sort_by_key(|&i| order[i]);
        for i in cells {
            let value = if g[CellId::from_index(i)] { TRUE } else { FALSE };
            prop_assert!(e.assign(m.cells[i], value).is_ok() && e.propagate().is_ok(), "refuted at cell {}", i);
        }
    }

    /// With `packing` the engine counts the solutions of random counts with no-touch as brute
    /// force does, from random fixed cells (it only deduces what the counts imply).
    #[test]
    fn packing_counts_like_brute_force(
        s in 0usize..5,
        bits in prop::collection::vec(any::<bool>(), 16),
        raw in prop::collection::vec(0u8..6, 16),
        seed in any::<u64>(),
    ) {
        let (h, w) = SHAPES[s];
        let shape = Shape::new(h, w);
        let (_, counts) = packed_counts(shape, &bits, seed);
        let fixed = fixings(shape.cells(), &raw);
        let ok = |g: &Shading| check_no_touch(g, "star").is_empty() && counts.iter().all(|c| c.check(g, "star").is_empty());
        let want = brute(shape, &fixed, &ok);
        let post = |m: &ShadeModel, e: &mut Engine| {
            m.no_touch(e);
            counts.iter().for_each(|c| c.post(e, &m.cells));
            e.post(crate::counts::Packing::new(shape, &counts, m.cells.clone()));
        };
        prop_assert_eq!(engine_count(shape, &fixed, ShadeRules::NONE, &post), want);
    }
}
