//! Soundness of the link model (`fast`) beyond the brute-force range: following a known
//! answer through the search, every decision that agrees with the answer must survive
//! propagation under every rule set, and the search must end in a solution. A rule that
//! removed a real solution anywhere on that path fails here, on grids from 6×6 to 12×12.

use pencilbox_core::links::Links;
use pencilbox_core::search::{Backtrack, Expand};
use pencilbox_core::Limits;
use pencilbox_pathpuzzle::fast::{link_search, Branching, Choice, Rules};
use pencilbox_pathpuzzle::generate::{generate, ClueDensity};
use pencilbox_pathpuzzle::solve::{count, solve, Algorithm};
use pencilbox_pathpuzzle::verify::is_solution;
use pencilbox_pathpuzzle::{Configuration, PathPuzzle};

fn rule_sets() -> Vec<Rules> {
    let mut out = vec![Rules::ALL, Rules::NONE];
    for rule in Rules::OPTIONAL {
        out.push(Rules::parse(rule).unwrap());
        out.push(Rules::parse(&format!("-{rule}")).unwrap());
    }
    let links: Vec<Rules> = out
        .iter()
        .map(|r| Rules {
            branch: Branching::Links,
            ..*r
        })
        .collect();
    out.extend(links);
    out
}

/// Walks the search along `answer`, taking at each node the branch that agrees with it.
fn follow(p: &PathPuzzle, answer: &Configuration, rules: Rules) {
    let shape = p.shape();
    let links = Links::new(shape);
    let mut on_path = vec![false; shape.cells()];
    let mut used = vec![false; links.len()];
    let mut c = p.cell_a();
    on_path[c.index()] = true;
    while c != p.cell_b() {
        let next = shape.step(c, answer[c].delta()).expect("the answer stays in the grid");
        used[links.between(c, next).expect("adjacent") as usize] = true;
        on_path[next.index()] = true;
        c = next;
    }
    let mut s = link_search(p, &rules, None);
    let mut out = Vec::new();
    for depth in 0.. {
        out.clear();
        match s.expand(&mut out) {
            Expand::Solution => {
                assert_eq!(
                    &s.brancher.model().configuration(&s.engine),
                    answer,
                    "{rules:?} found another path\n{p}"
                );
                return;
            }
            Expand::Dead => panic!(
                "{rules:?}: the answer was refuted at depth {depth} ({:?})\n{p}\n{}",
                s.engine.rule_stats(),
                s.brancher.model().sketch(&s.engine)
            ),
            Expand::Branches => {}
        }
        let agree = out
            .iter()
            .copied()
            .find(|d| match s.brancher.model().choice(*d) {
                Choice::Link(l, v) => used[l as usize] == v,
                Choice::Cell(c, v) => on_path[c.index()] == v,
            })
            .expect("one branch agrees with the answer");
        assert!(
            s.apply(agree),
            "{rules:?}: {agree:?} (agreeing with the answer) failed at depth {depth} ({:?})\n{p}",
            s.engine.rule_stats()
        );
    }
}

#[test]
fn no_rule_refutes_a_planted_answer_on_grids_up_to_12x12() {
    for (k, (h, w)) in [(6, 6), (7, 9), (8, 8), (10, 10), (11, 12), (12, 12)]
        .into_iter()
        .enumerate()
    {
        for percent in [100u8, 60] {
            for seed in 0..3u64 {
                let p = generate(h, w, ClueDensity::Percent(percent), false, 700 + 10 * k as u64 + seed).unwrap();
                // The planted path is a solution; find one with the reference-free brute force of
                // the default solver, then check every rule set against it.
                let limits = Limits {
                    node_limit: Some(200_000),
                    ..Limits::default()
                };
                let o = solve(&p, &Algorithm::default(), &limits);
                let Some(answer) = o.solutions.first() else {
                    assert!(o.stop.is_interrupted(), "a planted puzzle reported unsolvable\n{p}");
                    continue;
                };
                assert!(is_solution(&p, answer));
                for rules in rule_sets() {
                    follow(&p, answer, rules);
                }
            }
        }
    }
}

#[test]
fn every_rule_set_counts_the_same_on_the_bundled_benchmark_sets() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/path");
    let mut seen = 0;
    for size in ["bench-6x6", "bench-7x7", "bench-8x8"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(size))
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|f| f.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort();
        for f in files {
            let p = PathPuzzle::parse(&std::fs::read_to_string(&f).unwrap()).unwrap();
            for rules in rule_sets() {
                let o = count(&p, &Algorithm::Fast(rules), None, &Limits::default());
                assert_eq!((o.count, o.complete()), (1, true), "{} with {rules:?}", f.display());
            }
            seen += 1;
        }
    }
    assert!(seen >= 18, "{seen}");
}

/// When `auto`'s race is won by link branching, the answer and witnesses are the winner's
/// (12×12 `complete-02`: line branching needs about 25 times the nodes of link branching).
#[test]
fn the_race_reports_the_winners_solutions() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/path/bench-12x12");
    let p = PathPuzzle::parse(&std::fs::read_to_string(root.join("complete-02.txt")).unwrap()).unwrap();
    let expected =
        pencilbox_pathpuzzle::parse_configuration(&p, &std::fs::read_to_string(root.join("complete-02.sol")).unwrap())
            .unwrap();
    let rules = Rules {
        slice: 16,
        racers: 2,
        ..Rules::ALL
    };
    for counting in [false, true] {
        let o = if counting {
            count(&p, &Algorithm::Fast(rules), None, &Limits::default())
        } else {
            solve(&p, &Algorithm::Fast(rules), &Limits::default())
        };
        assert_eq!((o.searches, o.answered_by), (2, Some(Branching::Links)));
        assert_eq!(o.solutions, vec![expected.clone()]);
        assert_eq!(o.count, 1);
    }
}

/// Searches with random tie-breaking (the late racers of `auto`) are complete searches too:
/// each seed follows a different tree to the same unique answer and the same count.
#[test]
fn seeded_searches_find_the_same_unique_answers() {
    use pencilbox_core::search::run;
    use pencilbox_core::Flow;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/path");
    for name in [
        "bench-8x8/partial-01",
        "bench-10x10/complete-03",
        "bench-10x10/partial-03",
    ] {
        let p = PathPuzzle::parse(&std::fs::read_to_string(root.join(format!("{name}.txt"))).unwrap()).unwrap();
        let expected = pencilbox_pathpuzzle::parse_configuration(
            &p,
            &std::fs::read_to_string(root.join(format!("{name}.sol"))).unwrap(),
        )
        .unwrap();
        let mut trees = std::collections::BTreeSet::new();
        for seed in 1..=4 {
            for branch in [Branching::Lines, Branching::Links] {
                let rules = Rules { branch, ..Rules::ALL };
                let mut s = link_search(&p, &rules, Some(seed));
                let mut found = Vec::new();
                let r = run(&mut s, &Limits::all(), |s| {
                    found.push(s.brancher.model().configuration(&s.engine));
                    Flow::Continue
                });
                assert!(r.complete(), "{name}");
                assert_eq!(found, vec![expected.clone()], "{name} seed {seed} {branch:?}");
                trees.insert(r.stats.nodes);
            }
        }
        assert!(trees.len() > 1, "{name}: every seed searched the same tree");
    }
}

/// A search still running after [`PAIRS_AFTER`] nodes on a grid of at most 16×16 starts again
/// with `pairs` on, and answers and counts as the plain search does (`bench-12x12/partial-02`
/// takes 14,336 nodes without `pairs`); `-pairs`, `pairs_after=0`, an enumeration (more than 8
/// solutions in the first race) and grids above [`PAIRS_AFTER_CELLS`] cells never restart
/// with it.
#[test]
fn a_search_past_pairs_after_starts_again_with_pairs() {
    use pencilbox_pathpuzzle::fast::{PAIRS_AFTER, PAIRS_AFTER_CELLS};
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let read = |f: &str| std::fs::read_to_string(root.join(f)).unwrap();
    let p = PathPuzzle::parse(&read("path/bench-12x12/partial-02.txt")).unwrap();
    let expected = pencilbox_pathpuzzle::parse_configuration(&p, &read("path/bench-12x12/partial-02.sol")).unwrap();
    let default = Algorithm::Fast(Rules::DEFAULT);
    let o = solve(&p, &default, &Limits::default());
    assert_eq!(
        (o.pairs_after, &o.solutions),
        (Some(PAIRS_AFTER), &vec![expected.clone()])
    );
    assert!(o.stats.nodes > PAIRS_AFTER, "the first race's nodes count too");
    let c = count(&p, &default, None, &Limits::default());
    assert_eq!((c.count, c.complete(), c.pairs_after), (1, true, Some(PAIRS_AFTER)));
    // Without the restart the plain search is still wandering after 2,000 nodes.
    let short = Limits {
        node_limit: Some(2_000),
        ..Limits::default()
    };
    for plain in [
        Rules::parse("-pairs").unwrap(),
        Rules {
            pairs_after: 0,
            ..Rules::DEFAULT
        },
    ] {
        let o = solve(&p, &Algorithm::Fast(plain), &short);
        assert_eq!((o.pairs_after, o.solutions.len(), o.complete()), (None, 0, false));
    }
    assert_eq!(solve(&p, &default, &short).solutions, vec![expected.clone()]);
    // A node limit below the budget is the caller's: no restart.
    let limited = solve(
        &p,
        &default,
        &Limits {
            node_limit: Some(PAIRS_AFTER),
            ..Limits::default()
        },
    );
    assert_eq!((limited.pairs_after, limited.complete()), (None, false));

    // An enumeration: a 5×5 grid without clues has 8,512 paths; its first race finds more than
    // 8 in 256 nodes and it runs again plain, with the same count. After 1 node it has found
    // none, and restarts with `pairs`, with the same count too.
    let open = PathPuzzle::parse("5 5\n1 1\n5 5\n\n-1 -1 -1 -1 -1\n-1 -1 -1 -1 -1\n").unwrap();
    for (after, restarts) in [(PAIRS_AFTER, false), (1, true)] {
        let alg = Algorithm::Fast(Rules {
            pairs_after: after,
            quick: 0,
            ..Rules::DEFAULT
        });
        let c = count(&open, &alg, Some(100_000), &Limits::default());
        assert_eq!(
            (c.count, c.complete(), c.pairs_after.is_some()),
            (8512, true, restarts),
            "after {after}"
        );
    }
    let early = Algorithm::Fast(Rules {
        pairs_after: 1,
        quick: 0,
        ..Rules::DEFAULT
    });

    // Only grids up to PAIRS_AFTER_CELLS cells restart.
    for (h, w) in [(16, 16), (16, 17)] {
        let big = generate(h, w, ClueDensity::Percent(100), true, 7).unwrap();
        let o = solve(&big, &early, &Limits::default());
        assert_eq!(
            o.pairs_after.is_some(),
            h * w <= PAIRS_AFTER_CELLS && o.stats.nodes > 1,
            "{h}x{w}"
        );
        assert!(is_solution(&big, &o.solutions[0]));
    }
}
