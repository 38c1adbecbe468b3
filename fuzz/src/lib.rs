//! Shared body of pencilbox's libFuzzer targets (`fuzz_targets/*.rs`).
//!
//! Each family target calls [`exercise`] with the raw input bytes: they are decoded with
//! [`pencilbox_core::scan::text_from_bytes`] (the CLI's own decoder) and fed to every
//! [`PuzzleKind`] operation under tight limits ([`NODE_LIMIT`] nodes, a [`DEADLINE`] per call), so
//! each execution is bounded by the *code*, not by the search: an input that takes seconds is a
//! finding (unbounded work on a small input), as is a panic, an abort or a huge allocation.
//!
//! What is asserted (the contract of `pencilbox_core::puzzle`):
//! * no panic anywhere;
//! * every `ParseError` (of the decoder, of `solve`/`count`/`verify`) has line ≥ 1, col ≥ 1, a
//!   message, and points inside the text it refers to (line ≤ number of lines, col ≤ length of that
//!   line + 1);
//! * `instances` gives 1-based first lines that exist in the file;
//! * a `Solved` report carries a solution, that solution passes `verify` (called on
//!   `solution.text`) and `matches_answer` its own text; other statuses carry no solution
//!   (a `Timeout` may);
//! * `count(text, Some(2))` never exceeds 2 unless it is exact (`complete`), its witnesses pass `verify`, and when both the count
//!   is complete and the solve finished, they agree on solvability.
//!
//! [`settings`] is the body of the `settings` target: the same checks with a header line giving
//! the family, `--algorithm` and `--set key=value` settings (Sudoku `block=AxB`, Path `rules=...` and, with `algorithm=extend`, `prune=...`).
//!
//! [`verify_split`] is the body of the `verify` target: puzzle and proposed solution separated by
//! the byte [`MARKER`].
//!
//! [`http`] and [`cli`] are the bodies of the `http` target (requests against the server's
//! router) and the `cli` target (command lines run in-process); [`serve`] of the `serve` target
//! (a connection's raw bytes, head and body, against a running server), [`batch`] of the `batch`
//! target (JSON Lines through `pencilbox batch`'s reader and records), [`entries`] of the
//! `entries` target (the player's entries of every family, `explain`/`hint --entries`).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod batch;
pub mod cli;
pub mod entries;
pub mod http;
pub mod serve;
pub use batch::batch;
pub use cli::{cli, CliInput};
pub use entries::entries;
pub use http::{http, HttpInput};
pub use serve::serve;

use pencilbox_core::scan::text_from_bytes;
use pencilbox_core::{CountReport, Limits, ParseError, Pos, PuzzleError, PuzzleKind, RunOptions, Status};
use std::time::{Duration, Instant};

/// Search nodes allowed per `solve`/`count` call.
pub const NODE_LIMIT: u64 = 2_000;
/// Wall-clock budget per `solve`/`count` call.
pub const DEADLINE: Duration = Duration::from_millis(50);
/// At most this many puzzles of a batch file are solved per input.
pub const MAX_INSTANCES: usize = 3;
/// Separates the puzzle from the solution in the `verify` target's input (never occurs in UTF-8).
pub const MARKER: u8 = 0xFF;

/// The family called `name`, from the same registry the CLI, Python and the browser use
/// ([`pencilbox_registry::PUZZLES`]).
pub fn kind(name: &str) -> &'static dyn PuzzleKind {
    pencilbox_registry::by_name(name).unwrap_or_else(|| panic!("no puzzle family called {name}"))
}

/// Every registered family (sorted by name), so a new genre is fuzzed as soon as it is
/// registered.
pub fn kinds() -> &'static [&'static dyn PuzzleKind] {
    pencilbox_registry::PUZZLES
}

/// What the CLI would pass besides the text: `--algorithm` and `--set key=value` settings.
#[derive(Clone, Debug, Default)]
pub struct Setup {
    /// `--algorithm` (`None` = the family's default).
    pub algorithm: Option<String>,
    /// `--set key=value` (and `--block`).
    pub settings: Vec<(String, String)>,
}

impl Setup {
    /// Options with tight limits ([`NODE_LIMIT`] nodes, a [`DEADLINE`] from now), the setup's
    /// settings, and `algorithm` (or the setup's own when `None`).
    pub fn options(&self, algorithm: Option<&str>) -> RunOptions {
        RunOptions {
            algorithm: algorithm.map(str::to_owned).or_else(|| self.algorithm.clone()),
            limits: Limits {
                node_limit: Some(NODE_LIMIT),
                deadline: Some(Instant::now() + DEADLINE),
                ..Limits::default()
            },
            settings: self.settings.clone(),
            ..RunOptions::default()
        }
    }

    /// Reads a header line `key=value;key=value` (`;` or spaces between items): `puzzle=` names
    /// the family, `algorithm=` the algorithm, anything else is a setting. Returns the family
    /// named (if any) and the setup.
    pub fn from_header(header: &str) -> (Option<&str>, Setup) {
        let mut family = None;
        let mut setup = Setup::default();
        for item in header.split([';', ' ']).filter(|s| !s.is_empty()) {
            let (k, v) = item.split_once('=').unwrap_or((item, ""));
            match k {
                "puzzle" => family = Some(v),
                "algorithm" => setup.algorithm = Some(v.to_owned()),
                _ => setup.settings.push((k.to_owned(), v.to_owned())),
            }
        }
        (family, setup)
    }
}

/// Tight limits and no settings (see [`Setup::options`]).
pub fn options(algorithm: Option<&str>) -> RunOptions {
    Setup::default().options(algorithm)
}

/// Asserts that `pos` is 1-based and lies inside `text` (at most one past the end of its line).
pub fn assert_pos_in(text: &str, pos: Pos, what: &str) {
    assert!(pos.line >= 1 && pos.col >= 1, "{what}: position {pos} is not 1-based");
    let line = text.split('\n').nth(pos.line as usize - 1);
    let Some(line) = line else {
        panic!(
            "{what}: line {} is past the end of the text ({} lines)",
            pos.line,
            text.split('\n').count()
        );
    };
    let len = line.chars().count();
    assert!(
        pos.col as usize <= len + 1,
        "{what}: column {} is past the end of line {} ({len} characters)",
        pos.col,
        pos.line
    );
}

fn check_parse_error(text: &str, e: &ParseError, what: &str) {
    assert!(
        !e.message.is_empty(),
        "{what}: parse error at {} without a message",
        e.pos
    );
    assert_pos_in(text, e.pos, what);
}

/// Checks an error of an operation on `puzzle` (with `solution` for `verify`).
pub fn check_error(kind: &dyn PuzzleKind, op: &str, puzzle: &str, solution: Option<&str>, e: &PuzzleError) {
    let name = kind.name();
    match e {
        PuzzleError::Parse(p) => check_parse_error(puzzle, p, &format!("{name} {op}: puzzle parse error")),
        PuzzleError::Solution(p) => match solution {
            Some(s) => check_parse_error(s, p, &format!("{name} {op}: solution parse error")),
            None => panic!("{name} {op}: a solution error ({p}) from an operation without a solution"),
        },
        PuzzleError::Unsupported(m) => assert!(!m.is_empty(), "{name} {op}: unsupported without a message"),
        _ => {}
    }
}

/// `kind.verify(puzzle, solution)` must accept a solution the solver produced.
fn assert_own_solution_verifies(kind: &dyn PuzzleKind, setup: &Setup, puzzle: &str, solution: &str, op: &str) {
    let name = kind.name();
    match kind.verify(puzzle, solution, &setup.options(None)) {
        Ok(v) => assert!(
            v.is_valid(),
            "{name} {op}: returned a solution its verifier rejects: {:?}\nsolution:\n{solution}",
            v.violations
        ),
        Err(e) => panic!("{name} {op}: its own solution does not read back: {e}\nsolution:\n{solution}"),
    }
}

/// Solves with `algorithm` and checks the report; `Some(solvable)` when the search finished.
fn solve_checked(kind: &dyn PuzzleKind, setup: &Setup, text: &str, algorithm: Option<&str>) -> Option<bool> {
    let name = kind.name();
    let opts = setup.options(algorithm);
    let op = format!(
        "solve --algorithm {} {:?}",
        opts.algorithm.as_deref().unwrap_or("(default)"),
        opts.settings
    );
    match kind.solve(text, &opts) {
        Ok(report) => match report.status {
            Status::Solved => {
                let Some(sol) = report.solution.as_ref() else {
                    panic!("{name} {op}: status solved without a solution");
                };
                assert_own_solution_verifies(kind, setup, text, &sol.text, &op);
                match kind.matches_answer(sol, &sol.text) {
                    Ok(same) => assert!(same, "{name} {op}: a solution does not match its own text"),
                    Err(e) => panic!("{name} {op}: matches_answer cannot read the solution's own text: {e}"),
                }
                Some(true)
            }
            Status::Unsolvable => {
                assert!(report.solution.is_none(), "{name} {op}: unsolvable with a solution");
                Some(false)
            }
            Status::Timeout => None,
        },
        Err(e) => {
            check_error(kind, &op, text, None, &e);
            None
        }
    }
}

fn check_count(kind: &dyn PuzzleKind, setup: &Setup, text: &str, c: &CountReport) {
    let name = kind.name();
    let two = pencilbox_core::BigUint::from(2u32);
    // A family may report an exact count beyond the cap when it has one cheaply (Suguru 1xn: linear).
    assert!(
        c.count <= two || c.complete,
        "{name} count(limit 2): counted {} solutions without finishing",
        c.count
    );
    for w in &c.witness {
        assert_own_solution_verifies(kind, setup, text, &w.text, "count witness");
    }
}

/// The algorithm run in addition to the default: chosen by the input, so a run is reproducible.
fn extra_algorithm(kind: &dyn PuzzleKind, text: &str) -> Option<&'static str> {
    let algs = kind.algorithms();
    if algs.len() < 2 {
        return None;
    }
    let sum = text
        .bytes()
        .fold(0usize, |a, b| a.wrapping_mul(31).wrapping_add(b as usize));
    Some(algs[1 + sum % (algs.len() - 1)].name)
}

/// Runs `detect`, `instances`, `solve` (default and one more algorithm), `count` (limit 2) and
/// `verify(text, text)` of `kind` on `data`, asserting the contract listed in the crate docs.
pub fn exercise(kind: &dyn PuzzleKind, data: &[u8]) {
    exercise_with(kind, &Setup::default(), data);
}

/// [`exercise`] with an algorithm and settings (the setup's algorithm replaces the default one).
pub fn exercise_with(kind: &dyn PuzzleKind, setup: &Setup, data: &[u8]) {
    let text = match text_from_bytes(data) {
        Ok(t) => t,
        Err(e) => {
            // The decoder's position is within the valid prefix, which is what the CLI shows.
            let valid = match std::str::from_utf8(data) {
                Ok(s) => s,
                Err(u) => std::str::from_utf8(&data[..u.valid_up_to()]).unwrap_or(""),
            };
            check_parse_error(valid, &e, "text_from_bytes");
            return;
        }
    };
    let name = kind.name();
    let _ = kind.detect(text);
    let instances = kind.instances(text);
    let lines = text.split('\n').count();
    for inst in &instances {
        assert!(
            inst.first_line >= 1 && inst.first_line as usize <= lines,
            "{name} instances: first line {} of a {lines}-line text",
            inst.first_line
        );
    }
    for inst in instances.iter().take(MAX_INSTANCES) {
        let t = inst.text;
        let solved = solve_checked(kind, setup, t, None);
        if let Some(alg) = extra_algorithm(kind, t) {
            let other = solve_checked(kind, setup, t, Some(alg));
            if let (Some(a), Some(b)) = (solved, other) {
                assert_eq!(
                    a, b,
                    "{name} {setup:?}: first solve says solvable={a}, `{alg}` says {b}"
                );
            }
        }
        match kind.count(t, Some(2), &setup.options(None)) {
            Ok(c) => {
                check_count(kind, setup, t, &c);
                if let (true, Some(s)) = (c.complete, solved) {
                    assert_eq!(
                        s,
                        c.count > pencilbox_core::BigUint::from(0u32),
                        "{name}: solve says solvable={s}, a complete count says {}",
                        c.count
                    );
                }
            }
            Err(e) => check_error(kind, "count", t, None, &e),
        }
        if let Err(e) = kind.verify(t, t, &setup.options(None)) {
            check_error(kind, "verify(text, text)", t, Some(t), &e);
        }
    }
}

/// Splits `data` at the first [`MARKER`] into puzzle and solution and runs `verify` of every
/// family on them (an input without the marker is verified against itself).
pub fn verify_split(data: &[u8]) {
    let (p, s) = match data.iter().position(|&b| b == MARKER) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, data),
    };
    let (Ok(puzzle), Ok(solution)) = (text_from_bytes(p), text_from_bytes(s)) else {
        return;
    };
    for &kind in kinds() {
        if let Err(e) = kind.verify(puzzle, solution, &options(None)) {
            check_error(kind, "verify", puzzle, Some(solution), &e);
        }
    }
}

/// Body of the `settings` target: a header line `puzzle=NAME;algorithm=A;key=value...` (see
/// [`Setup::from_header`]), then the puzzle. Without `puzzle=`, every family whose `detect`
/// accepts the text is exercised.
pub fn settings(data: &[u8]) {
    let split = data.iter().position(|&b| b == b'\n').unwrap_or(data.len());
    let Ok(header) = std::str::from_utf8(&data[..split]) else {
        return;
    };
    let body = data.get(split + 1..).unwrap_or(&[]);
    let (family, setup) = Setup::from_header(header);
    match family {
        Some(f) => {
            if let Some(k) = kinds().iter().copied().find(|k| k.name() == f) {
                exercise_with(k, &setup, body);
            }
        }
        None => {
            let Ok(text) = text_from_bytes(body) else {
                return;
            };
            for k in kinds().iter().copied().filter(|k| k.detect(text)) {
                exercise_with(k, &setup, body);
            }
        }
    }
}
