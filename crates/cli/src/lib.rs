//! The `pencilbox` command line as a library (the binary is a one-line `main`), so that tests
//! and the server can use the registry and commands in-process.
//!
//! `pencilbox`: solve, check, count and benchmark pencil-and-paper logic puzzles.
//!
//! A thin shell over the puzzle crates: flags are parsed here ([`Cli`]), resolved into
//! [`pencilbox_core::RunOptions`], and handed to the [`registry`]'s [`pencilbox_core::PuzzleKind`]s.
//! Exit codes: 0 solved / valid, 1 no solution / invalid, 2 bad input or usage (also work
//! whose memory estimate is above the budget, `--memory`), 3 timeout or limit reached, 130
//! stopped by Ctrl-C ([`interrupt`]).

pub mod batch;
pub mod bench;
pub mod commands;
pub mod explain;
pub mod export;
pub mod generate;
pub mod input;
pub mod interrupt;
pub mod output;
pub mod plot;
pub use pencilbox_registry as registry;
#[cfg(feature = "serve")]
pub mod serve;
pub mod setter;
pub mod study;
pub mod sudoku;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

/// Solve, check, count and benchmark pencil-and-paper logic puzzles (Suguru, Path puzzles, Sudoku).
#[derive(Parser, Debug)]
#[command(name = "pencilbox", version, about, long_about = None)]
pub struct Cli {
    /// The memory a run may use, e.g. 2G or 512M (K, M, G, T: powers of 1024): work whose
    /// estimate is above it is refused with exit code 2 before anything is allocated
    /// (default: half of the machine's memory, or of a lower limit such as `ulimit -v`).
    #[arg(long, global = true, value_name = "SIZE", value_parser = pencilbox_core::memory::parse_size)]
    memory: Option<u64>,
    #[command(subcommand)]
    command: Command,
}

/// The memory budget of the current run in bytes (0: none): `--memory`, or the system's
/// default ([`pencilbox_core::memory::default_budget`]), set by [`run_from`] before the
/// command runs.
static MEMORY_BUDGET: AtomicU64 = AtomicU64::new(0);

/// The memory budget of the current run ([`pencilbox_core::Limits::memory`]), for every
/// command's limits.
pub fn memory_budget() -> Option<u64> {
    Some(MEMORY_BUDGET.load(Ordering::Relaxed)).filter(|&b| b > 0)
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Plain text, the answer-file format.
    Text,
    /// JSON on one line.
    Json,
    /// A drawing for people: the grid with its regions, clues and the solution's numbers,
    /// shading or lines (every family draws its own).
    Pretty,
}

// Options shared by the commands that read one puzzle and search.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct PuzzleArgs {
    /// Puzzle family (see `pencilbox list`); detected from the file when omitted.
    #[arg(long, short = 'p')]
    pub puzzle: Option<String>,
    /// Algorithm (see `pencilbox list`); the family's default when omitted.
    #[arg(long, short = 'a')]
    pub algorithm: Option<String>,
    /// Give up after this many seconds (exit code 3).
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// Give up after this many search nodes (exit code 3).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// Puzzle-specific setting KEY=VALUE (e.g. `--set block=2x3` for Sudoku; `pencilbox list`
    /// shows each family's); repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub settings: Vec<String>,
}

/// `defer`: a subcommand's flags are built only when it is the one run (or its help is
/// asked for); building all of them cost every start-up about 0.1 ms (BENCHMARKS.md,
/// start-up). The `clap::Args` structs of the subcommands carry plain `//` comments, not doc
/// comments: with `defer`, a struct's doc comment would replace the subcommand's own
/// description in its `--help` (`every_subcommand_help_starts_with_its_listed_description`).
#[derive(Subcommand, Debug)]
#[command(defer = true)]
enum Command {
    /// Solve a puzzle and print the solution.
    Solve {
        #[command(flatten)]
        args: PuzzleArgs,
        /// Output format.
        #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Show search statistics (nodes, time, the paper's bounds) on stderr (in JSON: in "stats").
        #[arg(long)]
        stats: bool,
        /// The puzzle file, or `-` for standard input.
        file: PathBuf,
    },
    /// Check a proposed solution and list every violated rule.
    Verify {
        /// Puzzle family; detected from the puzzle file when omitted.
        #[arg(long, short = 'p')]
        puzzle: Option<String>,
        /// Puzzle-specific setting KEY=VALUE (e.g. `--set block=2x3` for Sudoku); repeatable.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        settings: Vec<String>,
        /// Output format: text or json (`pretty` prints the same as text).
        #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
        format: Format,
        /// The puzzle file (`-` for standard input).
        file: PathBuf,
        /// The proposed solution, in the answer-file format.
        solution: PathBuf,
    },
    /// Count solutions (up to a limit); `--limit 2` checks uniqueness.
    Count {
        #[command(flatten)]
        args: PuzzleArgs,
        /// Stop counting at this many solutions (default: count them all).
        #[arg(long, short = 'l')]
        limit: Option<u64>,
        /// Output format.
        #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Show search statistics on stderr.
        #[arg(long)]
        stats: bool,
        /// For a puzzle with several solutions: propose a clue that removes the second solution
        /// and keeps the first (recounts capped at --limit, default 100).
        #[arg(long, conflicts_with = "redundant")]
        suggest: bool,
        /// With --suggest: write the puzzle with the suggested clue to this file.
        #[arg(long, value_name = "OUT", requires = "suggest")]
        apply: Option<PathBuf>,
        /// For a unique puzzle: list the clues each of which can be removed alone while the
        /// puzzle stays unique.
        #[arg(long)]
        redundant: bool,
        /// The puzzle file, or `-` for standard input.
        file: PathBuf,
    },
    /// List what is the same in every solution, each marked given, implied by the rules alone
    /// (with the rules) or only by search.
    Forced {
        /// Puzzle family (see `pencilbox list`); detected from the file when omitted.
        #[arg(long, short = 'p')]
        puzzle: Option<String>,
        /// Output format: text or json (`pretty` prints the same as text).
        #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Give up after this many seconds (exit code 3; the facts found so far are listed).
        #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
        timeout: Option<f64>,
        /// Puzzle-specific setting KEY=VALUE (e.g. `--set block=2x3` for Sudoku); repeatable.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        settings: Vec<String>,
        /// The puzzle file, or `-` for standard input.
        file: PathBuf,
    },
    /// Write the puzzle's model for an external solver: DIMACS CNF (SAT), CPLEX LP (MIP) or
    /// OPB (pseudo-Boolean), variables named after cells and links.
    Export(export::ExportArgs),
    /// Solve every instance under the given paths in-process and report times and nodes.
    Bench(bench::BenchArgs),
    /// Study the pruning rules: every family's default, each optional rule toggled, the
    /// defining rules alone and with each optional rule, and `paper`, over a corpus of any
    /// families; nodes, failures, time and timeouts as a table, JSON or CSV, and SVG figures.
    Study(study::StudyArgs),
    /// Run one operation over a JSON Lines file of puzzles on every core, one record per line.
    Batch(batch::BatchArgs),
    /// The steps a person would take to solve a puzzle, with the rule, level, cells and
    /// conclusion of each, and a difficulty rating.
    Explain(explain::ExplainArgs),
    /// The next step at three depths: where to look, which rule, the conclusion.
    Hint(explain::HintArgs),
    /// List puzzle families and their algorithms.
    List,
    /// Sudoku tools: Nishio deduction and the explained deductive solver.
    #[command(subcommand)]
    Sudoku(sudoku::SudokuCommand),
    /// Generate a puzzle with a unique solution (every family with a generator).
    Generate(generate::GenerateArgs),
    /// Serve the interactive playground and JSON API over HTTP.
    #[cfg(feature = "serve")]
    Serve(serve::ServeArgs),
}

/// Parses the command line and runs it; returns the process exit code.
pub fn main_entry() -> ExitCode {
    ExitCode::from(run_from(std::env::args_os()))
}

/// Parses `args` (the program name first) and runs the command in this process; returns the
/// exit code. What the binary does, callable by the CLI-arguments fuzz target.
///
/// `pencilbox solve FILE` with no flag, the commonest command (the README's first), does not
/// go through clap (`plain_solve`): building clap's command and matching the arguments cost
/// a process that solves a small puzzle about 0.12 ms, a tenth of its run (BENCHMARKS.md,
/// "Issue 30, fourth round"); those arguments parse to fixed values, which a test checks
/// against what clap gives.
pub fn run_from<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let cli = match plain_solve(&args) {
        Some(cli) => cli,
        None => match Cli::try_parse_from(args) {
            Ok(c) => c,
            Err(e) => {
                let code = if e.use_stderr() { 2 } else { 0 };
                let _ = e.print();
                return code;
            }
        },
    };
    run(cli)
}

/// What clap parses `pencilbox solve FILE` into, when those are all the arguments and `FILE`
/// is `-` or a non-empty name that does not start with `-` (anything else, a flag included,
/// goes through clap).
fn plain_solve(args: &[std::ffi::OsString]) -> Option<Cli> {
    let [_, command, file] = args else { return None };
    let name = file.as_encoded_bytes();
    let plain = name == b"-" || !(name.is_empty() || name.starts_with(b"-"));
    (command == "solve" && plain).then(|| Cli {
        memory: None,
        command: Command::Solve {
            args: PuzzleArgs::default(),
            format: Format::Text,
            stats: false,
            file: PathBuf::from(file),
        },
    })
}

/// Runs a parsed command line.
fn run(cli: Cli) -> u8 {
    let budget = cli.memory.or_else(pencilbox_core::memory::default_budget);
    MEMORY_BUDGET.store(budget.unwrap_or(0), Ordering::Relaxed);
    match cli.command {
        Command::Solve {
            args,
            format,
            stats,
            file,
        } => commands::solve(&args, format, stats, &file),
        Command::Verify {
            puzzle,
            settings,
            format,
            file,
            solution,
        } => commands::verify(puzzle.as_deref(), &settings, format, &file, &solution),
        Command::Count {
            args,
            limit,
            format,
            stats,
            suggest,
            apply,
            redundant,
            file,
        } => {
            if suggest {
                setter::suggest(&args, limit, format, apply.as_deref(), &file)
            } else if redundant {
                setter::redundant(&args, format, &file)
            } else {
                commands::count(&args, limit, format, stats, &file)
            }
        }
        Command::Forced {
            puzzle,
            format,
            timeout,
            settings,
            file,
        } => {
            let args = PuzzleArgs {
                puzzle,
                algorithm: None,
                timeout,
                node_limit: None,
                settings,
            };
            setter::forced(&args, format, &file)
        }
        Command::Export(a) => export::run(&a),
        Command::Bench(b) => bench::run(&b),
        Command::Study(a) => study::run(&a),
        Command::Batch(b) => batch::run(&b),
        Command::Explain(a) => explain::explain(&a),
        Command::Hint(a) => explain::hint(&a),
        Command::List => commands::list(),
        Command::Sudoku(c) => sudoku::run(c),
        Command::Generate(a) => generate::run(&a),
        #[cfg(feature = "serve")]
        Command::Serve(a) => serve::run(a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_solve_is_what_clap_parses_and_anything_else_goes_to_clap() {
        let argv = |a: &[&str]| -> Vec<std::ffi::OsString> { a.iter().map(Into::into).collect() };
        for a in [
            &["pencilbox", "solve", "examples/suguru/example-6x6.in"][..],
            &["pencilbox", "solve", "-"],
            &["pencilbox", "solve", "help"],
            &["pencilbox", "solve", "solve"],
            &["pencilbox", "solve", "https://puzz.link/p?masyu/3/3/000"],
            &["./pencilbox", "solve", "a file with spaces.txt"],
        ] {
            let fast = plain_solve(&argv(a)).unwrap_or_else(|| panic!("{a:?} is a plain solve"));
            let clap = Cli::try_parse_from(argv(a)).expect("clap parses it");
            assert_eq!(format!("{fast:?}"), format!("{clap:?}"), "{a:?}");
        }
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let odd = std::ffi::OsStr::from_bytes(b"caf\xe9.txt").to_os_string();
            let a = vec!["pencilbox".into(), "solve".into(), odd];
            let fast = plain_solve(&a).expect("a file name that is not UTF-8");
            assert_eq!(format!("{fast:?}"), format!("{:?}", Cli::try_parse_from(a).unwrap()));
        }
        for a in [
            &["pencilbox", "solve"][..],
            &["pencilbox", "solve", ""],
            &["pencilbox", "solve", "--help"],
            &["pencilbox", "solve", "-h"],
            &["pencilbox", "solve", "--stats", "x.txt"],
            &["pencilbox", "solve", "x.txt", "--stats"],
            &["pencilbox", "--memory", "1G", "solve", "x.txt"],
            &["pencilbox", "count", "x.txt"],
            &["pencilbox", "Solve", "x.txt"],
        ] {
            assert!(plain_solve(&argv(a)).is_none(), "{a:?} goes through clap");
        }
    }

    /// `pencilbox ARGS… --help`, rendered as the binary prints it.
    fn help(args: &[&str]) -> String {
        let argv = std::iter::once("pencilbox")
            .chain(args.iter().copied())
            .chain(["--help"]);
        match Cli::try_parse_from(argv) {
            Err(e) => e.render().to_string(),
            Ok(_) => panic!("`{} --help` parsed as a command", args.join(" ")),
        }
    }

    /// The `Commands:` section of a help text: each subcommand's name and description.
    fn listed(help: &str) -> Vec<(String, String)> {
        help.lines()
            .skip_while(|l| *l != "Commands:")
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .filter_map(|l| l.trim().split_once(char::is_whitespace))
            .map(|(name, about)| (name.to_string(), about.trim().to_string()))
            .filter(|(name, _)| name != "help")
            .collect()
    }

    /// Subcommands are built lazily (`#[command(defer = true)]`), and a deferred
    /// `clap::Args` struct with a doc comment would put that comment in place of the
    /// subcommand's description: each `pencilbox … SUB --help` must start with what the
    /// parent's help lists for SUB.
    #[test]
    fn every_subcommand_help_starts_with_its_listed_description() {
        let mut todo = vec![Vec::<String>::new()];
        let mut seen = 0;
        while let Some(path) = todo.pop() {
            let args: Vec<&str> = path.iter().map(String::as_str).collect();
            for (name, about) in listed(&help(&args)) {
                let mut sub = path.clone();
                sub.push(name);
                let args: Vec<&str> = sub.iter().map(String::as_str).collect();
                let text = help(&args);
                assert!(
                    text.starts_with(&about),
                    "`pencilbox {} --help` starts with\n{}\ninstead of its listed description\n{about}",
                    args.join(" "),
                    text.lines().next().unwrap_or("")
                );
                seen += 1;
                todo.push(sub);
            }
        }
        // The 13 commands and the Sudoku tools.
        assert!(seen >= 15, "only {seen} subcommands checked");
    }
}
