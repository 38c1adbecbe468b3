//! Issue 29, items 1 and 2: memory is a budget, not a crash, and every time limit is honoured.
//! Each test runs the real binary on a reproducer of the issue's table (rows 1–5, and the
//! `hint` of row 8), the memory ones under an address-space limit (`ulimit -v`, as the issue
//! ran them), and checks: no abort, exit 2 or 3 with a message, and the time limit kept.
//!
//! The wall-time bounds are loose on purpose (the limit plus [`SLACK`], for a loaded 2-core
//! CI machine): each old behaviour they reproduce overran them by seconds, while the measured
//! overshoots now are a few to a hundred milliseconds (printed by each test; the figures are
//! in docs/cli.md). Timing targets belong in benchmarks, not here.
#![cfg(unix)]

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a run may take beyond its time limit here (see the module docs).
const SLACK: Duration = Duration::from_secs(2);

/// The issue's address-space limit for its 2000×2000 reproducer, in KiB (`ulimit -v 4000000`).
const ISSUE_LIMIT_KIB: u64 = 4_000_000;

/// A run of the binary.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

impl Run {
    /// Asserts the exit code (a signal, such as an abort, has none) and returns the run.
    fn code(self, code: i32) -> Self {
        assert_eq!(
            self.code,
            Some(code),
            "exit code (stderr: {}; stdout: {})",
            self.stderr,
            self.stdout.chars().take(400).collect::<String>()
        );
        self
    }
    /// Asserts the run ended within `limit` plus [`SLACK`] and prints how far past `limit` it
    /// went (the overshoot the issue measures).
    fn within(self, what: &str, limit: Duration) -> Self {
        eprintln!(
            "{what}: {:.3} s, {} ms past its {:.3} s limit",
            self.took.as_secs_f64(),
            self.took.saturating_sub(limit).as_millis(),
            limit.as_secs_f64()
        );
        assert!(
            self.took < limit + SLACK,
            "{what} took {:?} for a {limit:?} limit",
            self.took
        );
        self
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `pencilbox ARGS`, under an address-space limit of `kib` KiB when given (`ulimit -v`
/// in a shell, as the issue did: the crate forbids the `unsafe` of a `pre_exec`).
fn run(args: &[&str], kib: Option<u64>) -> Run {
    let bin = env!("CARGO_BIN_EXE_pencilbox");
    let mut cmd = match kib {
        Some(kib) => {
            let mut c = Command::new("sh");
            c.arg("-c")
                .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
                .arg(bin)
                .args(args);
            c
        }
        None => {
            let mut c = Command::new(bin);
            c.args(args);
            c
        }
    };
    let t0 = Instant::now();
    let out = cmd
        .current_dir(repo())
        .stdin(Stdio::null())
        .output()
        .expect("the pencilbox binary starts");
    Run {
        took: t0.elapsed(),
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The issue's empty `n`×`n` Path puzzle: doors in opposite corners, no clue.
fn empty_path(n: usize) -> PathBuf {
    let clues = vec!["-1"; n].join(" ");
    file(
        &format!("empty-path-{n}.txt"),
        &format!("{n} {n}\n1 1\n{n} {n}\n\n{clues}\n{clues}\n"),
    )
}

/// An `n`×`n` Suguru of 2×2 regions without hints (every rule stalls: a long explanation).
fn blank_suguru(n: usize) -> PathBuf {
    let row = |f: &dyn Fn(usize) -> String| (0..n).map(f).collect::<Vec<_>>().join(" ");
    let mut text = format!("{n} {n}\n");
    for _ in 0..n {
        text.push_str(&row(&|_| "0".into()));
        text.push('\n');
    }
    for r in 0..n {
        text.push_str(&row(&|c| ((r / 2) * n.div_ceil(2) + c / 2 + 1).to_string()));
        text.push('\n');
    }
    file(&format!("blank-suguru-{n}.in"), &text)
}

/// Writes `text` to a file of this test process in the temporary directory.
fn file(name: &str, text: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("pencilbox-limits-{}-{name}", std::process::id()));
    std::fs::write(&p, text).expect("write a temporary puzzle");
    p
}

fn path_str(p: &std::path::Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

#[test]
fn row_1_a_2000x2000_path_under_4_gb_is_refused_by_its_estimate_not_aborted() {
    // Before: `memory allocation of 2303232000 bytes failed`, exit 134 (Engine::reserve ←
    // PathVars::new ← LinkModel::post_limited). Now the estimate is checked against the
    // budget (half of the address-space limit) before anything is allocated.
    let f = empty_path(2000);
    let r = run(
        &["solve", "-p", "path", "--timeout", "1", path_str(&f)],
        Some(ISSUE_LIMIT_KIB),
    )
    .code(2)
    .within("row 1, refused by its estimate", Duration::from_secs(1));
    assert!(
        r.stderr.contains("would need about") && r.stderr.contains("budget of") && r.stderr.contains("--memory"),
        "{}",
        r.stderr
    );
}

#[test]
fn row_1_memory_the_system_refuses_below_the_budget_is_an_error_not_an_abort() {
    // A budget above what the process may have (`--memory 100G`) lets the model start; the
    // engine asks its room with `try_reserve`, the system refuses, and the run ends with a
    // message and exit 2, as the abort of the issue did not.
    let f = empty_path(2000);
    let r = run(
        &[
            "--memory",
            "100G",
            "solve",
            "-p",
            "path",
            "--timeout",
            "1",
            path_str(&f),
        ],
        Some(ISSUE_LIMIT_KIB),
    )
    .code(2)
    .within("row 1, refused by the system", Duration::from_secs(1));
    assert!(r.stderr.contains("out of memory"), "{}", r.stderr);
}

#[test]
fn row_1_the_memory_option_is_checked_and_applies_to_every_command() {
    let f = empty_path(400);
    let small = ["--memory", "100M"];
    for args in [
        vec!["solve", "-p", "path"],
        vec!["count", "-p", "path", "--limit", "2"],
        vec!["forced", "-p", "path"],
        vec!["explain", "-p", "path"],
        vec!["hint", "-p", "path"],
        vec!["export", "-f", "lp", "-p", "path"],
    ] {
        let mut all: Vec<&str> = small.to_vec();
        all.extend(args.iter().copied());
        all.push(path_str(&f));
        let r = run(&all, None).code(2);
        assert!(r.stderr.contains("above a budget of 100 MiB"), "{args:?}: {}", r.stderr);
    }
    let r = run(&["--memory", "lots", "list"], None).code(2);
    assert!(r.stderr.contains("expected a size"), "{}", r.stderr);
    // Within the budget, the same grid is solved as before.
    run(
        &[
            "--memory",
            "2G",
            "solve",
            "-p",
            "path",
            "-a",
            "paper",
            "--timeout",
            "5",
            path_str(&f),
        ],
        None,
    )
    .code(0);
}

#[test]
fn row_2_dimacs_export_streams_its_clauses_instead_of_holding_them() {
    // Before: the clauses were held (200×200: 1.08 GB; 1000×1000 panicked at cnf.rs:130),
    // and 200×200 under a 1.2 GB address space aborted. Now they are written as they are made,
    // in about 90 MB.
    let f = empty_path(200);
    let r = run(
        &["export", "-f", "dimacs", "-o", "/dev/null", "-p", "path", path_str(&f)],
        Some(1_200_000),
    );
    r.code(0);
    // LP and OPB hold their rows: refused by their measured size above the budget.
    let r = run(
        &[
            "--memory",
            "150M",
            "export",
            "-f",
            "opb",
            "-o",
            "/dev/null",
            "-p",
            "path",
            path_str(&f),
        ],
        None,
    )
    .code(2);
    assert!(
        r.stderr.contains("exporting as OPB") && r.stderr.contains("150 MiB"),
        "{}",
        r.stderr
    );
}

#[test]
fn row_3_extend_on_1000x1000_stops_at_its_tenth_of_a_second() {
    // Before: 18 s in the set-up, whose grid-sized tables and nodes did not read the clock.
    let f = empty_path(1000);
    run(
        &["solve", "-p", "path", "-a", "extend", "--timeout", "0.1", path_str(&f)],
        None,
    )
    .code(3)
    .within("row 3, extend 1000x1000", Duration::from_millis(100));
}

#[test]
fn row_4_sat_on_400x400_reads_the_clock_while_it_encodes() {
    // Before: 2.1–5.5 s at --timeout 1 and 5.5 s at --timeout 0.3 (the formula was built and
    // handed to the solver without a look at the clock), 1.1 GB.
    let f = empty_path(400);
    let r = run(
        &["solve", "-p", "path", "-a", "sat", "--timeout", "0.3", path_str(&f)],
        None,
    )
    .code(3)
    .within("row 4, sat 400x400", Duration::from_millis(300));
    assert!(r.stdout.contains("timeout"), "{}", r.stdout);
}

#[test]
fn row_5_generate_exits_3_at_its_time_limit_in_every_family() {
    // Before: Suguru 30×30 hard (seed 3) took 21.6 s and exited 1, Path 20×20 hard 2.4 s and
    // exit 1, Ripple 10×10 exit 2; Masyu 50×50 took 20 s. Sudoku's generator makes a 12×12 in
    // milliseconds, so its limit is all but zero.
    let cases: [(&[&str], &str); 8] = [
        (
            &["suguru", "--size", "30x30", "--difficulty", "hard", "--seed", "3"],
            "1",
        ),
        (&["path", "--size", "20x20", "--difficulty", "hard", "--seed", "1"], "1"),
        (&["ripple", "--size", "10x10", "--seed", "1"], "1"),
        (
            &["sudoku", "--size", "12x12", "--difficulty", "hard", "--seed", "1"],
            "0.000001",
        ),
        (
            &["masyu", "--size", "50x50", "--difficulty", "hard", "--seed", "1"],
            "0.5",
        ),
        (
            &["snake", "--size", "50x50", "--difficulty", "hard", "--seed", "1"],
            "0.5",
        ),
        (
            &["starbattle", "--size", "30x30", "--difficulty", "hard", "--seed", "1"],
            "0.5",
        ),
        (
            &["nurikabe", "--size", "50x50", "--difficulty", "hard", "--seed", "1"],
            "0.5",
        ),
    ];
    for (request, timeout) in cases {
        let mut args = vec!["generate"];
        args.extend_from_slice(request);
        args.extend(["--timeout", timeout]);
        let limit = Duration::from_secs_f64(timeout.parse().expect("seconds"));
        let r = run(&args, None)
            .code(3)
            .within(&format!("row 5, generate {}", request[0]), limit);
        assert!(r.stderr.contains("timeout: the time limit passed"), "{}", r.stderr);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
    }
}

#[test]
fn row_8_hint_at_its_time_limit_exits_3_with_a_message() {
    // Before: the explanation stopped by the deadline gave its first step anyway (a guess on
    // a blank grid, unchecked) and exit 0.
    let f = blank_suguru(50);
    let r = run(&["hint", "--timeout", "0.3", path_str(&f)], None)
        .code(3)
        .within("row 8, hint", Duration::from_millis(300));
    assert!(r.stdout.contains("the time limit was reached"), "{}", r.stdout);
    let r = run(&["hint", "-f", "json", "--timeout", "0.3", path_str(&f)], None).code(3);
    assert!(r.stdout.contains("\"status\":\"timeout\""), "{}", r.stdout);
}
