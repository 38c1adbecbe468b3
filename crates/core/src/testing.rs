//! Test helpers for the puzzle crates (feature `test-support`): brute-force oracles that
//! share nothing with the solvers, a check of the engine's incremental propagation against
//! from-scratch runs, and a macro that makes one `#[test]` per fixture file.
//!
//! ```toml
//! [dev-dependencies]
//! pencilbox-core = { workspace = true, features = ["test-support"] }
//! ```

use crate::domain::Domain;
use crate::engine::Engine;
use crate::grid::{CellId, Grid, Shape};
use std::path::{Path, PathBuf};

/// Every assignment of values to cells `0..doms.len()` (cell `i` takes a value of `doms[i]`)
/// that `clash` accepts, by plain depth-first enumeration in index order: after cell `i` is
/// given a value, `clash(values, i)` must say whether `values[i]` breaks a rule together with
/// the cells before it (`values[..=i]` are set). Stops after `limit` solutions.
///
/// ```
/// use pencilbox_core::testing::brute_force;
/// use pencilbox_core::Domain;
/// // Three cells over 1..3, pairwise different: 3! solutions.
/// let doms = vec![Domain::range(1, 3); 3];
/// let sols = brute_force(&doms, |v, i| (0..i).any(|j| v[j] == v[i]), None);
/// assert_eq!(sols.len(), 6);
/// ```
pub fn brute_force(
    doms: &[Domain],
    mut clash: impl FnMut(&[u32], usize) -> bool,
    limit: Option<usize>,
) -> Vec<Vec<u32>> {
    let mut vals = vec![0u32; doms.len()];
    let mut out = Vec::new();
    fn go(
        doms: &[Domain],
        vals: &mut Vec<u32>,
        i: usize,
        clash: &mut impl FnMut(&[u32], usize) -> bool,
        out: &mut Vec<Vec<u32>>,
        limit: usize,
    ) {
        if out.len() >= limit {
            return;
        }
        if i == vals.len() {
            out.push(vals.clone());
            return;
        }
        for v in doms[i].iter() {
            vals[i] = v;
            if !clash(&vals[..=i], i) {
                go(doms, vals, i + 1, clash, out, limit);
            }
        }
        vals[i] = 0;
    }
    go(doms, &mut vals, 0, &mut clash, &mut out, limit.unwrap_or(usize::MAX));
    out
}

/// Every simple path of orthogonally adjacent cells from `a` to `b` (as cell lists, `a`
/// first), by plain depth-first enumeration (directions down, left, right, up).
///
/// ```
/// use pencilbox_core::testing::simple_paths;
/// use pencilbox_core::Shape;
/// let s = Shape::new(2, 2);
/// assert_eq!(simple_paths(s, s.id(0, 0), s.id(1, 1)).len(), 2);
/// ```
pub fn simple_paths(shape: Shape, a: CellId, b: CellId) -> Vec<Vec<CellId>> {
    let mut out = Vec::new();
    if a == b {
        return out;
    }
    let mut path = vec![a];
    let mut seen = vec![false; shape.cells()];
    seen[a.index()] = true;
    fn go(shape: Shape, b: CellId, path: &mut Vec<CellId>, seen: &mut [bool], out: &mut Vec<Vec<CellId>>) {
        let head = *path.last().expect("the path starts at a");
        if head == b {
            out.push(path.clone());
            return;
        }
        for d in [(1, 0), (0, -1), (0, 1), (-1, 0)] {
            if let Some(n) = shape.step(head, d) {
                if !seen[n.index()] {
                    seen[n.index()] = true;
                    path.push(n);
                    go(shape, b, path, seen, out);
                    path.pop();
                    seen[n.index()] = false;
                }
            }
        }
    }
    go(shape, b, &mut path, &mut seen, &mut out);
    out
}

/// Checks that the engine is at the fixpoint of every propagator run from scratch: after
/// `engine.propagate()` succeeded, queueing every propagator again must change nothing.
/// Panics (with the differing variables) otherwise.
pub fn assert_complete_fixpoint(engine: &mut Engine) {
    let before = engine.domains().to_vec();
    engine.enqueue_all();
    let ok = engine.propagate().is_ok();
    let after = engine.domains();
    let differ: Vec<usize> = (0..before.len()).filter(|&i| before[i] != after[i]).collect();
    assert!(
        ok && differ.is_empty(),
        "incremental propagation stopped short of the from-scratch fixpoint: {} (variables {:?})",
        if ok {
            "domains narrowed"
        } else {
            "a conflict was missed"
        },
        differ
    );
}

/// For each `(variable, value)` of `picks` in turn, from the root of `engine`: assumes it one
/// level down (skipping picks that fail at once) and checks that incremental propagation
/// reached the from-scratch fixpoint ([`assert_complete_fixpoint`]); the level is kept, so
/// later picks build on earlier ones.
pub fn assert_fixpoints_after(mut engine: Engine, picks: &[(crate::engine::VarId, u32)]) {
    if engine.propagate().is_err() {
        return;
    }
    assert_complete_fixpoint(&mut engine);
    for &(x, value) in picks {
        engine.push_level();
        if engine.assign(x, value).is_err() || engine.propagate().is_err() {
            engine.pop_level();
            continue;
        }
        assert_complete_fixpoint(&mut engine);
    }
}

/// A region-number puzzle's text (Suguru, Ripple Effect: a header whose first number is the
/// row count, that many rows of givens, then the regions) with every given set to `0`: a grid
/// with many solutions, for tests of counting and of endless searches.
///
/// ```
/// use pencilbox_core::testing::blank_givens;
/// let text = "suguru 2 2\n1 0\n0 2\n1 1\n1 2\n";
/// assert_eq!(blank_givens(text), "suguru 2 2\n0 0\n0 0\n1 1\n1 2\n");
/// ```
pub fn blank_givens(text: &str) -> String {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let rows: usize = header.split_whitespace().find_map(|t| t.parse().ok()).unwrap_or(0);
    let mut out = format!("{header}\n");
    for (i, line) in lines.enumerate() {
        if i < rows {
            out.push_str(&line.split_whitespace().map(|_| "0").collect::<Vec<_>>().join(" "));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The files with extension `ext` directly in `dir`, by file stem, sorted.
pub fn fixture_stems(dir: &Path, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    out.sort();
    out
}

/// Asserts that every fixture file of `dir` with extension `ext` has a test among `listed`
/// (file stems), so a new fixture cannot be forgotten.
pub fn assert_all_listed(dir: &Path, ext: &str, listed: &[&str]) {
    let missing: Vec<String> = fixture_stems(dir, ext)
        .into_iter()
        .filter(|s| !listed.contains(&s.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "fixtures without a test in {}: {missing:?}",
        dir.display()
    );
}

/// The file named by this environment variable, when set, receives one line per skipped check
/// (`KIND<TAB>TEST<TAB>WHAT`) instead of standard error; `.ci/run` sets it, prints one summary
/// line, and fails a CI run on a skip that is not on its allow-list (docs/testing.md).
pub const SKIP_LOG: &str = "PENCILBOX_SKIP_LOG";

/// Why a check was skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// `../shared/data` (the public data sets beside the checkout, not part of a clone) or a
    /// file in it is absent.
    SharedData,
    /// A tool, a browser, a build or a system facility this machine lacks.
    Missing,
}

impl Skip {
    /// The kind as the skip log writes it.
    pub fn name(self) -> &'static str {
        match self {
            Skip::SharedData => "shared-data",
            Skip::Missing => "missing",
        }
    }
}

/// Reports a skipped check (see [`skip_for`]) that needs something this machine lacks.
pub fn skip(what: &str) {
    skip_for(Skip::Missing, what);
}

/// Reports a skipped check that needs `../shared/data`.
pub fn skip_shared(what: &str) {
    skip_for(Skip::SharedData, what);
}

/// Reports a skipped check so that it cannot pass for a passed one: with [`SKIP_LOG`] set,
/// as a line of that file (the test binary and the test's name, the kind, `what`); otherwise as
/// `skip: <what>` straight to the process's standard error, which the test harness does not
/// capture (a `println!` in a passing test is swallowed), and, for [`Skip::SharedData`], once
/// per test binary (without `../shared` beside a clone, dozens of checks skip for that one
/// reason).
pub fn skip_for(kind: Skip, what: &str) {
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};
    static SHARED_SAID: AtomicBool = AtomicBool::new(false);
    if let Some(log) = std::env::var_os(SKIP_LOG).filter(|v| !v.is_empty()) {
        let binary = std::env::current_exe()
            .ok()
            .and_then(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .unwrap_or_default();
        // Test binaries are `NAME-HASH`.
        let binary = binary.rsplit_once('-').map_or(binary.as_str(), |(n, _)| n).to_string();
        let test = std::thread::current().name().unwrap_or("main").to_string();
        let line = format!(
            "{}\t{binary}::{test}\t{}\n",
            kind.name(),
            what.replace(['\t', '\n'], " ")
        );
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .and_then(|mut f| f.write_all(line.as_bytes()));
        if written.is_ok() {
            return;
        }
    }
    let mut err = std::io::stderr().lock();
    if kind == Skip::SharedData {
        if !SHARED_SAID.swap(true, Ordering::Relaxed) {
            let _ = writeln!(
                err,
                "skip: {what} (and every other check of this test binary that reads ../shared/data; \
                 {SKIP_LOG}=FILE lists them)"
            );
        }
        return;
    }
    let _ = writeln!(err, "skip: {what}");
}

/// A public data set under `../shared/data` beside the checkout (found from a crate's
/// manifest directory), or `None` with a `skip:` line on standard error when it is absent.
pub fn shared_data(manifest_dir: &str, relative: &str) -> Option<PathBuf> {
    let root = Path::new(manifest_dir)
        .ancestors()
        .map(|a| a.join("../shared/data"))
        .find(|p| p.is_dir());
    match root.map(|r| r.join(relative)).filter(|p| p.exists()) {
        Some(p) => Some(p),
        None => {
            skip_shared(&format!("../shared/data/{relative} is not present"));
            None
        }
    }
}

/// One `#[test]` per fixture: `fixtures!(check; name => "file", ...)` expands to
/// `#[test] fn name() { check("file") }` for each pair, so a failing fixture names its file.
/// Pair it with [`assert_all_listed`] in one more test.
///
/// ```
/// # mod demo {
/// fn check(file: &str) { assert!(file.ends_with(".in")); }
/// pencilbox_core::fixtures!(check; fig1 => "paper-fig1.in", fig5 => "paper-fig5.in");
/// # }
/// ```
#[macro_export]
macro_rules! fixtures {
    ($check:path; $($name:ident => $file:expr),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                $check($file)
            }
        )*
    };
}

/// Every drawing of lines on a `shape` grid: each subset of its links as a
/// [`crate::lines::answer::LineGrid`] (`2^links` of them: keep grids small).
pub fn all_line_grids(shape: Shape) -> impl Iterator<Item = crate::lines::answer::LineGrid> {
    let links = crate::links::Links::new(shape);
    let n = links.len();
    assert!(n <= 24, "too many links to enumerate: {n}");
    (0u64..1 << n).map(move |m| {
        let mut g = Grid::filled(shape, 0u8);
        for l in 0..n as u32 {
            if m >> l & 1 == 1 {
                let (a, b) = links.ends(l);
                let d = crate::lines::answer::toward(shape, a, b).expect("neighbours");
                g[a] |= d;
                g[b] |= crate::lines::answer::opposite(d);
            }
        }
        g
    })
}

/// Every shading of a `shape` grid (`2^cells` of them: keep grids small).
pub fn all_shadings(shape: Shape) -> impl Iterator<Item = Grid<bool>> {
    let n = shape.cells();
    assert!(n <= 24, "too many cells to enumerate: {n}");
    (0u64..1 << n).map(move |m| Grid::from_vec(shape, (0..n).map(|i| m >> i & 1 == 1).collect()).expect("sized"))
}

/// Brute force against a family's algorithms: the `candidates` its verifier accepts are the
/// puzzle's solutions; every algorithm of the family (with `opts`) must count exactly as many,
/// and every solution it returns must be one of them. Returns the number of solutions.
pub fn crosscheck<P: crate::plugin::Puzzle>(
    p: &P,
    candidates: impl Iterator<Item = P::Solution>,
    opts: &crate::puzzle::RunOptions,
) -> usize {
    let truth: Vec<String> = candidates
        .filter(|s| p.verify(s).is_valid())
        .map(|s| p.render(&s).text)
        .collect();
    for &(alg, info) in P::ALGORITHMS {
        let f = p
            .search(Some(alg), opts, &crate::search::Limits::all(), usize::MAX)
            .unwrap_or_else(|e| panic!("{}: {e}", info.name));
        assert!(f.complete, "{}: incomplete", info.name);
        assert_eq!(
            f.count,
            truth.len().into(),
            "{}: counted {} solutions, brute force {}",
            info.name,
            f.count,
            truth.len()
        );
        for s in &f.solutions {
            let text = p.render(s).text;
            assert!(truth.contains(&text), "{} returned a non-solution:\n{text}", info.name);
        }
    }
    truth.len()
}

/// Checks the fixtures of a family directory: every `*.txt` with an answer beside it
/// (`x.txt` ↔ `x.ans`) has exactly one solution, equal to its answer, which verifies.
pub fn check_fixtures(kind: &dyn crate::kind::PuzzleKind, dir: &Path) -> usize {
    let opts = crate::puzzle::RunOptions::default();
    let mut n = 0;
    for stem in fixture_stems(dir, "txt") {
        let ans = dir.join(format!("{stem}.ans"));
        let Ok(answer) = std::fs::read_to_string(&ans) else {
            continue;
        };
        let text = std::fs::read_to_string(dir.join(format!("{stem}.txt"))).expect("readable");
        let c = kind
            .count(&text, Some(2), &opts)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(c.count, 1u32.into(), "{stem}: not unique");
        let s = kind.solve(&text, &opts).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let sol = s.solution.unwrap_or_else(|| panic!("{stem}: no solution"));
        assert!(
            kind.matches_answer(&sol, &answer).unwrap(),
            "{stem}: differs from {}",
            ans.display()
        );
        let v = kind
            .verify(&text, &answer, &opts)
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert!(v.is_valid(), "{stem}: the answer does not verify: {v:?}");
        n += 1;
    }
    n
}

/// Checks a family's generator at each `(difficulty, size)` with `seed`: the same request
/// makes the same puzzle, which has exactly one solution, its answer verifies, and its
/// explanation without guesses needs no guess, and no trial below `hard`.
pub fn check_generated(kind: &dyn crate::kind::PuzzleKind, cases: &[(&str, usize)], seed: u64) {
    let opts = crate::puzzle::RunOptions::default();
    for &(difficulty, size) in cases {
        let req = crate::puzzle::GenerateRequest {
            height: size,
            width: size,
            difficulty: Some(difficulty.into()),
            seed,
            ..crate::puzzle::GenerateRequest::default()
        };
        let g = kind.generate(&req).unwrap();
        assert_eq!(g, kind.generate(&req).unwrap(), "{difficulty}: not deterministic");
        let c = kind.count(&g.text, Some(2), &opts).unwrap();
        assert_eq!(c.count, 1u32.into(), "{difficulty}\n{}", g.text);
        assert!(
            kind.verify(&g.text, &g.answer, &opts).unwrap().is_valid(),
            "{difficulty}"
        );
        let x = kind.explain(&g.text, None, &opts, &Default::default()).unwrap();
        assert!(!x.steps.iter().any(|s| s.guess), "{difficulty}: a guess\n{}", g.text);
        if difficulty != "hard" {
            assert!(
                !x.steps.iter().any(|s| s.rule == crate::human::TRIAL),
                "{difficulty} needs trial\n{}",
                g.text
            );
        }
    }
}

/// Asserts that [`crate::plugin::Puzzle::settles`] answers as an explanation without guesses
/// does, for `p` and the puzzle left by each of its removable clues, at the three settings a
/// generator's thinning asks (rules up to level 2 without trial, every rule without trial,
/// every rule with trial). Returns how many answers it compared (some `false`, some `true`
/// for a useful test).
pub fn assert_settles_as_explained<P: crate::plugin::Puzzle + Clone>(p: &P) -> (usize, usize) {
    use crate::human::{ExplainOptions, ExplainStatus, TRIAL};
    let limits = crate::search::Limits::default();
    let mut puzzles: Vec<P> = p
        .removable_clues()
        .unwrap_or_default()
        .into_iter()
        .map(|c| c.puzzle)
        .collect();
    puzzles.push(p.clone());
    let (mut no, mut yes) = (0, 0);
    for q in &puzzles {
        for (max_level, trial) in [(Some(2), false), (None, false), (None, true)] {
            let opts = ExplainOptions {
                no_guess: true,
                max_level,
                limits: limits.clone(),
                check_chains: false,
                check_steps: false,
                refute: Vec::new(),
            };
            let x = q.explain(&opts).expect("an explainer").expect("explained");
            let solved = x.status == ExplainStatus::Solved && (trial || !x.steps.iter().any(|s| s.rule == TRIAL));
            let fast = q.settles(max_level, trial, &limits).expect("a cheap test");
            assert_eq!(fast, solved, "level {max_level:?}, trial {trial}\n{:?}", q.write(false));
            if fast {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    (no, yes)
}

/// Asserts that `count --suggest` ([`crate::plugin::suggest`]) gives a unique puzzle that
/// lost one clue a clue back that makes it unique again: for every removable clue of `p`
/// (unique) whose removal leaves between 2 and [`crate::plugin::SUGGEST_SAMPLE`] solutions,
/// the suggested clue's puzzle counts exactly one. Returns how many removals it checked.
pub fn assert_suggest_restores_uniqueness<P: crate::plugin::Puzzle>(p: &P) -> usize {
    use crate::search::Limits;
    let opts = crate::puzzle::RunOptions::default();
    let mut checked = 0;
    for clue in p.removable_clues().unwrap_or_default() {
        let q = clue.puzzle;
        let limits = Limits::default().with_max_solutions(Some(crate::plugin::SUGGEST_SAMPLE as u64 + 1));
        let found = q.search(None, &opts, &limits, 0).expect("searched");
        let n = u64::try_from(&found.count).unwrap_or(u64::MAX);
        if !(2..=crate::plugin::SUGGEST_SAMPLE as u64).contains(&n) {
            continue;
        }
        let r = crate::plugin::suggest(&q, None, &opts, 100).expect("suggested");
        let c = r.clue.as_ref().expect("a clue");
        assert_eq!(
            (r.count_after.clone(), r.complete_after),
            (Some(1u32.into()), true),
            "{n} solutions without {} = {}; suggested {} = {}\n{:?}",
            clue.at,
            clue.value,
            c.at,
            c.value,
            q.write(false)
        );
        checked += 1;
    }
    checked
}

/// [`assert_suggest_restores_uniqueness`] on bundled examples (`files` under the repository's
/// `examples/`, read from the crate at `manifest_dir`); at least one removal must be checked.
pub fn assert_suggest_restores_examples<P: crate::plugin::Puzzle>(manifest_dir: &str, files: &[&str]) {
    let mut checked = 0;
    for file in files {
        let path = format!("{manifest_dir}/../../examples/{file}");
        let text = std::fs::read_to_string(&path).expect("the bundled example");
        let p = P::parse(&text, &crate::puzzle::RunOptions::default()).expect("parsed");
        checked += assert_suggest_restores_uniqueness(&p);
    }
    assert!(checked > 0, "no clue was needed in {files:?}");
}
