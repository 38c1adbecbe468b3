//! Differential tests: the DAG Nishio (fast and as published, and the 64-lane variant) against
//! the pattern overlay and against brute-force enumeration of valid placements (Lemma 1), and
//! the matching approximation's containment `Nishio(S) ⊆ T`.

use pencilbox_sudoku_nishio::board::{BlockShape, CellMask};
use pencilbox_sudoku_nishio::generate::Rng;
use pencilbox_sudoku_nishio::graph::AbGraph;
use pencilbox_sudoku_nishio::matching::matching_keep;
use pencilbox_sudoku_nishio::nishio::{nishio, nishio_dag, nishio_lanes, nishio_paper, Scratch};
use pencilbox_sudoku_nishio::overlay::Overlay;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A random subset of cells, each kept with probability `density / 100`.
fn random_set(n: usize, seed: u64, density: u64) -> CellMask {
    let mut rng = Rng::new(seed);
    let mut s = CellMask::empty(n);
    for r in 0..n {
        for c in 0..n {
            if rng.next_u64() % 100 < density {
                s.insert(r, c);
            }
        }
    }
    s
}

/// Every valid placement by brute force: permutations column → row with one cell per block.
fn brute_placements(block: BlockShape) -> Vec<Vec<u8>> {
    let n = block.n();
    let mut out = Vec::new();
    let mut perm: Vec<u8> = (0..n as u8).collect();
    fn heap(k: usize, perm: &mut Vec<u8>, out: &mut Vec<Vec<u8>>, block: BlockShape) {
        if k == 1 {
            let blocks: BTreeSet<usize> = perm
                .iter()
                .enumerate()
                .map(|(c, &r)| block.block_of(r as usize, c))
                .collect();
            if blocks.len() == perm.len() {
                out.push(perm.clone());
            }
            return;
        }
        for i in 0..k {
            heap(k - 1, perm, out, block);
            let j = if k % 2 == 0 { i } else { 0 };
            perm.swap(j, k - 1);
        }
    }
    heap(n, &mut perm, &mut out, block);
    out
}

/// The placements spelled by the source-to-sink paths of `G_S` (enumerated explicitly).
fn path_placements(g: &AbGraph, s: &CellMask) -> BTreeSet<Vec<u8>> {
    fn walk(g: &AbGraph, s: &CellMask, v: u32, cur: &mut Vec<u8>, out: &mut BTreeSet<Vec<u8>>) {
        if v == g.sink() {
            out.insert(cur.clone());
            return;
        }
        let c = g.mask(v).count_ones() as usize;
        for (w, r) in g.arcs(v) {
            if s.contains(r as usize, c) {
                cur.push(r as u8);
                walk(g, s, w, cur, out);
                cur.pop();
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(g, s, g.source(), &mut Vec::new(), &mut out);
    out
}

#[test]
fn lemma_one_paths_are_exactly_the_valid_placements_on_4x4_and_6x6() {
    for block in [BlockShape::new(2, 2), BlockShape::new(2, 3), BlockShape::new(3, 2)] {
        let n = block.n();
        let g = AbGraph::get(block).unwrap();
        let all = brute_placements(block);
        for seed in 0..300u64 {
            let s = if seed == 0 {
                CellMask::full(n)
            } else {
                random_set(n, seed, 55 + seed % 40)
            };
            let inside: BTreeSet<Vec<u8>> = all
                .iter()
                .filter(|p| p.iter().enumerate().all(|(c, &r)| s.contains(r as usize, c)))
                .cloned()
                .collect();
            assert_eq!(path_placements(&g, &s), inside, "{block} seed {seed}");
            let mut union = CellMask::empty(n);
            for p in &inside {
                for (c, &r) in p.iter().enumerate() {
                    union.insert(r as usize, c);
                }
            }
            let fast = nishio(&g, &s);
            assert_eq!(fast.keep, union, "{block} seed {seed}");
            assert_eq!(fast.placements, Some(inside.len() as u128));
            assert_eq!(nishio_paper(&g, &s), union);
        }
    }
}

fn check_against_overlay(block: BlockShape, seed: u64, density: u64) {
    let n = block.n();
    let g = AbGraph::get(block).unwrap();
    let o = Overlay::get(block).unwrap();
    let s = random_set(n, seed, density);
    let fast = nishio(&g, &s);
    let over = o.nishio(&s);
    assert_eq!(fast.keep, over.keep, "{block} seed {seed} density {density}\n{s:?}");
    assert_eq!(fast.placements, over.placements);
    assert_eq!(nishio_paper(&g, &s), over.keep);
    let mut sc = Scratch::default();
    assert_eq!(nishio_dag(&g, &s, &mut sc), over);
    let t = matching_keep(&s);
    assert!(fast.keep.is_subset(&t), "matching must keep every Nishio cell");
    assert!(t.is_subset(&s));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn dag_nishio_equals_overlay_on_4x4(seed in any::<u64>(), density in 30u64..100) {
        check_against_overlay(BlockShape::new(2, 2), seed, density);
    }

    #[test]
    fn dag_nishio_equals_overlay_on_6x6(seed in any::<u64>(), density in 40u64..100) {
        check_against_overlay(BlockShape::new(2, 3), seed, density);
    }

    #[test]
    fn dag_nishio_equals_overlay_on_9x9(seed in any::<u64>(), density in 45u64..100) {
        check_against_overlay(BlockShape::new(3, 3), seed, density);
    }

    #[test]
    fn dag_nishio_equals_overlay_on_8x8_and_6x6_transposed(seed in any::<u64>(), density in 45u64..100) {
        check_against_overlay(BlockShape::new(2, 4), seed, density);
        check_against_overlay(BlockShape::new(3, 2), seed, density);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn sixty_four_lanes_equal_one_set_at_a_time(seed in any::<u64>(), k in 1usize..=64) {
        let block = BlockShape::new(3, 3);
        let g = AbGraph::get(block).unwrap();
        let sets: Vec<CellMask> = (0..k as u64).map(|i| random_set(9, seed ^ i.wrapping_mul(77), 60 + i % 40)).collect();
        let lanes = nishio_lanes(&g, &sets);
        for (s, l) in sets.iter().zip(&lanes) {
            prop_assert_eq!(nishio(&g, s).keep, *l);
        }
    }
}

#[test]
fn the_placement_count_matches_overlay_on_realistic_candidate_sets() {
    // Candidate sets of generated puzzles (after the givens' eliminations), every digit.
    use pencilbox_sudoku_nishio::generate::generate;
    use pencilbox_sudoku_nishio::Candidates;
    let mut rng = Rng::new(2024);
    let block = BlockShape::new(3, 3);
    let g = AbGraph::get(block).unwrap();
    let o = Overlay::get(block).unwrap();
    for _ in 0..20 {
        let (p, _) = generate(block, &mut rng, 0);
        let cand = Candidates::from_puzzle(&p).unwrap();
        for d in 1..=9 {
            let s = cand.digit_cells(d);
            assert_eq!(nishio(&g, &s), o.nishio(&s));
        }
    }
}

#[test]
fn matching_sometimes_eliminates_strictly_less_than_nishio() {
    // Blocks matter: search deterministic random sets for cases where the row–column matching
    // keeps a cell that no valid placement uses.
    let mut found = Vec::new();
    for (block, density) in [(BlockShape::new(2, 2), 60), (BlockShape::new(3, 3), 55)] {
        let g = AbGraph::get(block).unwrap();
        for seed in 0..5000u64 {
            let s = random_set(block.n(), seed, density);
            let keep = nishio(&g, &s).keep;
            let t = matching_keep(&s);
            assert!(keep.is_subset(&t));
            if keep != t && !keep.is_empty() {
                found.push((block, seed, t.len() - keep.len()));
                break;
            }
        }
    }
    assert_eq!(found.len(), 2, "expected an example on 4×4 and on 9×9: {found:?}");
    assert!(found.iter().all(|&(_, _, extra)| extra > 0));
}
