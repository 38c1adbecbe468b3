//! The plug-in: [`PathPuzzle`] implements the typed [`Puzzle`] trait, and [`KIND`] (core's
//! [`Plugin`] adapter) is the [`PuzzleKind`](pencilbox_core::PuzzleKind) the CLI registry and
//! the server use.
//!
//! * Algorithms: `fast` (default, the link model on the engine, [`crate::fast`]), `extend`
//!   (Algorithm 3's search with pruning, [`crate::extend`]) and `paper` (Algorithm 3,
//!   [`crate::paper`]).
//! * Settings: `rules=SPEC` for `fast` (see [`Rules::parse`]), e.g. `--set rules=-probe`;
//!   `prune=SPEC` for `extend` (see [`Pruning::parse`]), e.g. `--set prune=-parity`. A setting
//!   given to another algorithm is refused.
//! * Answer files: `x.txt` ↔ `x.sol`; [`Puzzle::answers_match`] compares the direction grids
//!   only, so a `.sol` with or without its header matches.
//! * `--stats` notes: the rules in force, the searches raced, the winning branching and how
//!   many conflicts each rule found (`fast`); the rules and how many nodes each cut (`extend`);
//!   Theorem 3's node bound (`paper`).

use crate::extend::Pruning;
use crate::fast::Rules;
use crate::model::{configuration_rows, configuration_to_text, parse_arrows, parse_configuration, Configuration};
use crate::render::pretty;
use crate::solve::{search, Algorithm, Outcome};
use crate::verify::violations;
use crate::PathPuzzle;
use pencilbox_core::plugin::{Found, GenerateRequest, Generated, GeneratorInfo, Plugin, Puzzle, SettingInfo};
use pencilbox_core::{
    AlgorithmInfo, BigUint, Limits, Note, ParseError, PuzzleError, Render, Rendered, RunOptions, VerifyReport,
};

/// The registry entry (`pencilbox_pathpuzzle::KIND`).
pub static KIND: Plugin<PathPuzzle> = Plugin::new();

/// A configuration in the three output forms: `.sol` text, drawing, JSON rows.
pub fn rendered(p: &PathPuzzle, a: &Configuration) -> Rendered {
    rendered_as(p, a, Render::All)
}

/// The forms of [`rendered`] that `what` asks for (the others empty).
pub fn rendered_as(p: &PathPuzzle, a: &Configuration, what: Render) -> Rendered {
    Rendered {
        text: if what.text() {
            configuration_to_text(p, a)
        } else {
            String::new()
        },
        pretty: if what.pretty() { pretty(p, a) } else { String::new() },
        json: if what.json() {
            serde_json::json!(configuration_rows(a))
        } else {
            serde_json::Value::Null
        },
    }
}

/// The algorithm to run: `alg` (`None`: `fast`, the default) with its setting from `opts`
/// (`rules` for `fast`, `prune` for `extend`). A setting meant for another algorithm is
/// refused, not silently ignored.
pub fn algorithm_with_settings(alg: Option<Algorithm>, opts: &RunOptions) -> Result<Algorithm, PuzzleError> {
    let alg = alg.unwrap_or_default();
    for (key, owner) in [("prune", "extend"), ("rules", "fast")] {
        if opts.setting(key).is_some() && alg.name() != owner {
            return Err(PuzzleError::unsupported(format!(
                "the setting `{key}` applies to --algorithm {owner}, not {}",
                alg.name()
            )));
        }
    }
    Ok(match alg {
        Algorithm::Extend(_) => match opts.setting("prune") {
            Some(spec) => Algorithm::Extend(Pruning::parse(spec).map_err(PuzzleError::unsupported)?),
            None => alg,
        },
        Algorithm::Fast(_) => match opts.setting("rules") {
            Some(spec) => Algorithm::Fast(Rules::parse(spec).map_err(PuzzleError::unsupported)?),
            None => alg,
        },
        Algorithm::Paper | Algorithm::Sat => alg,
    })
}

fn notes(p: &PathPuzzle, alg: &Algorithm, o: &Outcome) -> Vec<Note> {
    let mut notes = Vec::new();
    match alg {
        Algorithm::Extend(rules) => {
            notes.push(Note::new("pruning rules", rules.describe()));
            // Nodes (or branches) each rule in force cut. `order` only sorts; `reserve` and `tail`
            // only narrow the fill (its effect shows in the other rules' counts): neither cuts.
            let on = rules.describe();
            for (rule, n) in &o.prunes {
                if !["order", "reserve", "tail"].contains(rule) && on.split(',').any(|r| r == *rule) {
                    notes.push(Note::new(format!("cut by {rule}"), n));
                }
            }
        }
        Algorithm::Fast(rules) => {
            notes.push(Note::new("rules", rules.describe()));
            if rules.restarts_with_pairs(p.shape().cells()) == Some(false) {
                notes.push(Note::new(
                    "pairs_after",
                    format!(
                        "not on this grid (a restart with pairs only up to {} cells; --set rules=+pairs runs it from the start)",
                        crate::fast::PAIRS_AFTER_CELLS
                    ),
                ));
            }
            notes.push(Note::new("searches raced", o.searches));
            if let Some(n) = o.pairs_after {
                notes.push(Note::new("started again with pairs after", format!("{n} nodes")));
            }
            if let Some(b) = o.answered_by {
                let by = match o.answered_seed {
                    Some(seed) => format!("{} (random tie-breaks, seed {seed})", b.name()),
                    None => b.name().to_string(),
                };
                notes.push(Note::new("answered by branching", by));
            } else if o.prunes.iter().any(|(rule, _)| *rule == "walk") {
                // The walk before the model answered (`crate::quick`); its count is the nodes
                // its cuts ended.
                notes.push(Note::new("answered by", "the walk (Algorithm 3 with cuts)"));
            }
            // Every rule posted (and `probe` once it ran), from the engine's statistics.
            for (rule, n) in &o.prunes {
                notes.push(Note::new(format!("refuted by {rule}"), n));
            }
        }
        Algorithm::Sat => {}
        Algorithm::Paper => {
            let cells = p.shape().cells();
            if cells <= 1000 {
                let bound = (BigUint::from(3u32).pow(cells as u32 + 1) - 1u32) / 2u32;
                notes.push(Note::new("theorem3_bound", bound));
            }
        }
    }
    notes
}

/// Does `text` look like the paper's format: three lines of two whole numbers, a blank line,
/// then `m + n` whole numbers? (A Suguru file has no blank line after its first rows; a Sudoku
/// file has no pairs.)
pub fn looks_like_path(text: &str) -> bool {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines();
    let mut header = [0u64; 2];
    for k in 0..3 {
        let Some(line) = lines.next() else { return false };
        let nums: Vec<&str> = line.split_whitespace().take(3).collect();
        if nums.len() != 2 || !nums.iter().all(|t| t.parse::<u64>().is_ok()) {
            return false;
        }
        if k == 0 {
            header = [nums[0].parse().unwrap_or(0), nums[1].parse().unwrap_or(0)];
        }
    }
    match lines.next() {
        Some(l) if l.trim().is_empty() => {}
        _ => return false,
    }
    let mut clues = 0u64;
    for line in lines {
        for t in line.split_whitespace() {
            if t.parse::<i64>().is_err() {
                return false;
            }
            clues += 1;
        }
    }
    header[0] >= 1 && header[1] >= 1 && clues == header[0].saturating_add(header[1])
}

static ALGORITHMS: [(Algorithm, AlgorithmInfo); 4] = [
    (
        Algorithm::Fast(Rules::DEFAULT),
        AlgorithmInfo {
            name: "fast",
            summary: "link model on the shared engine: degree, line-count, chain, cut-parity, colour and reachability propagation, probing (default)",
        },
    ),
    (
        Algorithm::Extend(Pruning::DEFAULT),
        AlgorithmInfo {
            name: "extend",
            summary:
                "Algorithm 3's extension from door A with reachability, owed-count, length, parity and dead-end pruning",
        },
    ),
    (
        Algorithm::Paper,
        AlgorithmInfo {
            name: "paper",
            summary:
                "Algorithm 3 of Sakti, Arzaki & Wulandari exactly as published (d, l, r, u backtracking from door A)",
        },
    ),
    (
        Algorithm::Sat,
        AlgorithmInfo {
            name: "sat",
            summary: "the link model (degree, line counts, no cycles by ranks along the path) as CNF on a CDCL SAT solver; counts with a blocking clause per solution",
        },
    ),
];

impl Puzzle for PathPuzzle {
    const NAME: &'static str = "path";
    const SUMMARY: &'static str =
        "Path puzzles (Kimball): one path between two doors, row and column counts (Sakti, Arzaki & Wulandari)";
    type Solution = Configuration;
    type Algorithm = Algorithm;
    const ALGORITHMS: &'static [(Algorithm, AlgorithmInfo)] = &ALGORITHMS;
    const RULE_TABLE: Option<&'static pencilbox_core::rules::RuleTable> = Some(&crate::fast::TABLE);
    const SETTINGS: &'static [SettingInfo] = &[
        SettingInfo {
            key: "rules",
            summary: "fast's rules: default, all (pairs too), none, names (connect,cuts) or changes (-probe,+pairs); branch=auto|lines|links, slice=N, racers=N, quick=N, pairs_after=N",
        },
        SettingInfo {
            key: "prune",
            summary: "extend's pruning rules: all, none, names or changes (-parity)",
        },
        pencilbox_core::rules::LEARN_SETTING,
        pencilbox_core::rules::DECIDE_SETTING,
    ];
    const ANSWER_EXTENSION: Option<&'static str> = Some("sol");
    const GENERATOR: Option<GeneratorInfo> = Some(GeneratorInfo {
        difficulties: crate::generate::DIFFICULTIES,
        settings: crate::generate::SETTINGS,
        max_cells: crate::generate::MAX_GENERATED_CELLS,
        default_size: (8, 8),
    });

    fn detect(text: &str) -> bool {
        looks_like_path(text) || crate::puzzlink::is_url(text)
    }

    fn parse(text: &str, _: &RunOptions) -> Result<Self, PuzzleError> {
        Ok(PathPuzzle::parse(text)?)
    }

    fn search(
        &self,
        alg: Option<Algorithm>,
        opts: &RunOptions,
        limits: &Limits,
        keep: usize,
    ) -> Result<Found<Configuration>, PuzzleError> {
        let alg = algorithm_with_settings(alg, opts)?;
        let o = search(self, &alg, limits, keep);
        // Notes are for `--stats`: not built when nobody reads them.
        let notes = if opts.notes { notes(self, &alg, &o) } else { Vec::new() };
        Ok(Found {
            count: BigUint::from(o.count),
            complete: o.complete(),
            interrupted: o.stop.is_interrupted().then_some(o.stop),
            reason: o.reason,
            algorithm: None,
            stats: o.stats,
            notes,
            solutions: o.solutions,
            rules: o.rules,
        })
    }

    fn parse_solution(&self, text: &str) -> Result<Configuration, ParseError> {
        if is_pairs(text) {
            return Ok(walk_pairs(
                self,
                &pencilbox_core::lines::answer::parse(text, self.shape(), "")?,
            ));
        }
        parse_configuration(self, text)
    }

    fn verify(&self, s: &Configuration) -> VerifyReport {
        VerifyReport {
            violations: violations(self, s),
        }
    }

    fn render_as(&self, s: &Configuration, what: Render) -> Rendered {
        rendered_as(self, s, what)
    }

    fn render(&self, s: &Configuration) -> Rendered {
        rendered(self, s)
    }

    fn differences(&self, a: &Configuration, b: &Configuration) -> Vec<String> {
        let shape = self.shape();
        pencilbox_core::puzzle::differences(a.as_slice(), b.as_slice(), |i| {
            shape.name(pencilbox_core::CellId::from_index(i))
        })
    }

    fn explain(
        &self,
        opts: &pencilbox_core::human::ExplainOptions,
    ) -> Option<Result<pencilbox_core::human::Explanation, PuzzleError>> {
        Some(Ok(crate::explain::explain(self, opts)))
    }

    fn with_entries(&self, entries: &str) -> Result<Self, PuzzleError> {
        self.with_drawn(entries)
    }

    fn wrong_entries(&self, entries: &str, solution: &Configuration) -> Option<Vec<pencilbox_core::human::Fact>> {
        crate::explain::wrong_lines(self, entries, solution)
    }

    /// The board for the playground: the doors as openings, the clues outside, lines and ✕
    /// marks written as direction pairs (read back by `parse_solution` and `with_entries`).
    fn board(&self) -> Option<pencilbox_core::board::Board> {
        use pencilbox_core::board::{clue_texts, Board, Door, Form, Input};
        let mut b = Board::new(self.shape(), Input::lines(), Form::Pairs);
        b.top = clue_texts(self.col_clues());
        b.left = clue_texts(self.row_clues());
        for (label, (r, c)) in [("A", self.door_a()), ("B", self.door_b())] {
            let side = if c == 0 {
                'w'
            } else if c + 1 == self.width() {
                'e'
            } else if r == 0 {
                'n'
            } else {
                's'
            };
            b.doors.push(Door {
                cell: [r, c],
                side,
                label: label.into(),
            });
        }
        b.edit = Some(pencilbox_core::board::Edit {
            clues: true,
            doors: vec!["A".into(), "B".into()],
            ..Default::default()
        });
        Some(b)
    }

    /// A setter's board: its doors A and B and its clues (numbers or none).
    fn compose(&self, d: &pencilbox_core::board::Draft) -> Option<Result<Self, PuzzleError>> {
        Some(d.shape().and_then(|shape| {
            let door = |label: &str| {
                d.doors
                    .iter()
                    .find(|x| x.label == label)
                    .map(|x| (x.cell[0], x.cell[1]))
                    .ok_or_else(|| PuzzleError::unsupported(format!("place door {label} on a cell of the frame")))
            };
            let [columns, rows] = d.clue_numbers()?;
            PathPuzzle::new(shape.height, shape.width, door("A")?, door("B")?, rows, columns)
                .map_err(|e| PuzzleError::unsupported(e.0))
        }))
    }

    /// The path as direction pairs (the board's form), not the paper's arrows.
    fn position(&self, s: &Configuration) -> Option<String> {
        Some(pencilbox_core::lines::answer::write(&crate::render::links(self, s)))
    }

    fn dimensions(&self) -> (usize, usize) {
        (self.height(), self.width())
    }

    /// Measured peaks (docs/cli.md, "Memory"): `fast` needs one link model (about 1 KB per
    /// cell: variables, watches, the propagators' tables, the trail; its other racers join
    /// only while the budget has room for them, [`crate::solve`]), `extend` and `paper` a
    /// few tables per cell, `sat` its formula in the solver.
    fn memory_estimate(&self, algorithm: Option<&str>) -> u64 {
        let per_cell = match algorithm {
            Some("extend") => crate::solve::EXTEND_BYTES_PER_CELL,
            Some("paper") => crate::solve::PAPER_BYTES_PER_CELL,
            Some("sat") => crate::solve::SAT_BYTES_PER_CELL,
            _ => crate::solve::MODEL_BYTES_PER_CELL,
        };
        pencilbox_core::puzzle::estimate(self.height(), self.width(), per_cell, 0)
    }

    /// The paper's text, or the URL in the puzz.link style ([`crate::puzzlink`]: puzz.link has
    /// no Path genre, the URL is pencilbox's own).
    fn write(&self, url: bool) -> Option<String> {
        Some(if url {
            crate::puzzlink::to_url(self)
        } else {
            self.to_text()
        })
    }
    fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
        crate::generate::generated(req)
    }

    fn answers_match(found: &str, answer: &str) -> Result<bool, PuzzleError> {
        let ours = parse_arrows(found).map_err(PuzzleError::Solution)?;
        let theirs = parse_arrows(answer).map_err(PuzzleError::Solution)?;
        Ok(ours == theirs)
    }
    fn fact_model(&self, opts: &RunOptions) -> Option<Result<pencilbox_core::setter::Setup, PuzzleError>> {
        Some(crate::setter::fact_model(self, opts))
    }

    fn separating_clues(
        &self,
        keep: &Configuration,
        drop: &Configuration,
    ) -> Option<Vec<pencilbox_core::setter::Clue<Self>>> {
        Some(crate::setter::separating_clues(self, keep, drop))
    }

    fn removable_clues(&self) -> Option<Vec<pencilbox_core::setter::Clue<Self>>> {
        Some(crate::setter::removable_clues(self))
    }
}

/// Is `text` a drawing in direction pairs (`ns`, `e`, …, `-` for a cell without lines: core's
/// line format) rather than the paper's arrows (`d l r u`, `0`)? The two alphabets do not
/// share a letter.
pub fn is_pairs(text: &str) -> bool {
    text.split_whitespace()
        .any(|t| t == "-" || (t.chars().any(|ch| "nsew".contains(ch)) && t.chars().all(|ch| "nsew".contains(ch))))
}

/// The configuration of a drawing in direction pairs: the path walked from door A along the
/// drawn lines as far as they lead without a choice (pieces off that walk are left out, so
/// the verifier names what is missing).
pub fn walk_pairs(p: &PathPuzzle, g: &pencilbox_core::lines::answer::LineGrid) -> Configuration {
    use pencilbox_core::lines::answer::{opposite, step, DIRS};
    let shape = p.shape();
    let (a, b) = (p.cell_a(), p.cell_b());
    let mut path = vec![a];
    let mut from: Option<u8> = None;
    let mut cur = a;
    while cur != b && path.len() <= shape.cells() {
        let outs: Vec<(u8, pencilbox_core::CellId)> = DIRS
            .iter()
            .filter(|d| g[cur] & d.0 != 0 && Some(d.0) != from)
            .filter_map(|d| {
                step(shape, cur, d.0)
                    .filter(|&o| g[o] & opposite(d.0) != 0)
                    .map(|o| (d.0, o))
            })
            .collect();
        match outs.as_slice() {
            [(d, o)] if !path.contains(o) => {
                path.push(*o);
                from = Some(opposite(*d));
                cur = *o;
            }
            _ => break,
        }
    }
    if path.len() == 1 {
        path.clear();
    }
    crate::model::configuration_from_path(shape, &path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pencilbox_core::{PuzzleKind, Status};

    const FIG5: &str = "3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n";

    #[test]
    fn detect_accepts_the_paper_format_and_refuses_suguru_and_sudoku() {
        assert!(KIND.detect(FIG5));
        assert!(KIND.detect("6 6\n1 1 \n1 6\n\n2 2 4 4 6 4\n-1 -1 4 4 -1 -1 "));
        // A 2×2 Suguru: size line, then 2m rows of two numbers, no blank line.
        assert!(!KIND.detect("2 2\n0 0\n1 0\n1 1\n2 2\n"));
        assert!(!KIND.detect("4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n"));
        assert!(!KIND.detect(""));
    }

    #[test]
    fn solve_reports_the_sol_text_and_json_rows() {
        let r = KIND.solve(FIG5, &RunOptions::default()).unwrap();
        assert_eq!(r.status, Status::Solved);
        let s = r.solution.unwrap();
        assert_eq!(s.json, serde_json::json!(["rrd", "u0d", "0ul"]));
        assert!(KIND.matches_answer(&s, "r r d\nu 0 d\n0 u l").unwrap());
        assert!(!KIND.matches_answer(&s, "r r d\nu 0 d\n0 r l").unwrap());
        assert!(KIND.verify(FIG5, &s.text, &RunOptions::default()).unwrap().is_valid());
    }

    #[test]
    fn an_instant_check_gives_the_theorem_as_reason() {
        let r = KIND
            .solve("2 2\n1 1\n2 2\n\n2 1\n2 2\n", &RunOptions::default())
            .unwrap();
        assert_eq!(r.status, Status::Unsolvable);
        assert!(r.reason.unwrap().starts_with("Theorem 1"));
    }

    #[test]
    fn a_bad_prune_setting_or_algorithm_is_unsupported_not_a_panic() {
        for (key, value, alg) in [
            ("prune", "-speed", "extend"),
            ("rules", "-speed", "fast"),
            ("prune", "-parity", "fast"),
            ("rules", "-cuts", "paper"),
        ] {
            let opts = RunOptions {
                algorithm: Some(alg.into()),
                settings: vec![(key.into(), value.into())],
                ..RunOptions::default()
            };
            assert!(
                matches!(KIND.solve(FIG5, &opts), Err(PuzzleError::Unsupported(_))),
                "{key}={value} with {alg}"
            );
        }
        let opts = RunOptions {
            algorithm: Some("magic".into()),
            ..RunOptions::default()
        };
        assert!(matches!(KIND.solve(FIG5, &opts), Err(PuzzleError::Unsupported(_))));
    }

    #[test]
    fn a_malformed_solution_is_a_solution_error() {
        let e = KIND
            .verify(FIG5, "r r d\nu 0 d\n0 u", &RunOptions::default())
            .unwrap_err();
        assert!(matches!(e, PuzzleError::Solution(_)));
    }

    #[test]
    fn a_puzzle_with_two_solutions_has_two_witnesses_and_their_differences() {
        // 2×2, doors (1,1) and (1,2), no clues: the direct step or the U through row 2.
        let r = KIND
            .count("2 2\n1 1\n1 2\n\n-1 -1\n-1 -1\n", None, &RunOptions::default())
            .unwrap();
        assert_eq!(r.count, BigUint::from(2u32));
        assert!(r.complete);
        assert_eq!(r.witness.len(), 2);
        assert!(r.differences.contains(&"r2c1".to_string()));
    }

    /// The playground shows a solution on the board: the path as direction pairs, which read
    /// back as a drawing that verifies.
    #[test]
    fn a_solution_is_also_given_as_direction_pairs() {
        let r = KIND.solve(FIG5, &RunOptions::default()).unwrap();
        let pairs = r.position.unwrap();
        // Door A is r2c1, door B r3c2: the path goes up, along row 1, down column 3.
        assert_eq!(pairs, "se ew sw\nn - ns\n- e nw");
        assert!(KIND.verify(FIG5, &pairs, &RunOptions::default()).unwrap().is_valid());
    }

    /// A drawing with no line yet (only `-` and ✕ marks) is a drawing in direction pairs too:
    /// the playground sends it as the entries of a hint and as the answer of a check.
    #[test]
    fn a_drawing_without_lines_is_read_as_direction_pairs() {
        assert!(is_pairs("- - -\n- x -\n- - -\n"));
        assert!(!is_pairs("0 0 0\n0 x 0\n0 0 0\n"));
        let p = PathPuzzle::parse(FIG5).unwrap();
        let q = p.with_drawn("- - -\n- x -\n- - -\n").unwrap();
        assert_eq!((q.drawn().len(), q.crossed().len()), (0, 1));
        let r = KIND
            .verify(FIG5, "- - -\n- - -\n- - -\n", &RunOptions::default())
            .unwrap();
        assert!(!r.violations.is_empty());
    }
}
