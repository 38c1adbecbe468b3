//! `pencilbox export`: the puzzle's engine model as DIMACS CNF, CPLEX LP or OPB
//! ([`pencilbox_core::encode`]), for an external SAT, MIP or pseudo-Boolean solver.

use crate::commands::fail;
use crate::input::{describe, InputError};
use crate::output::emit;
use crate::setter::load_one;
use crate::PuzzleArgs;
use clap::ValueEnum;
use pencilbox_core::encode::ExportFormat;
use std::path::PathBuf;

/// The file formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// DIMACS CNF (`p cnf`), for SAT solvers; `c N NAME` lines name the variables.
    Dimacs,
    /// CPLEX LP, for MIP solvers (HiGHS, CBC, SCIP, Gurobi): 0-1 variables, linear rows.
    Lp,
    /// OPB, for pseudo-Boolean solvers; `* xN NAME` lines name the variables.
    Opb,
}

/// `pencilbox export` flags.
#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The file format.
    #[arg(long, short = 'f', value_enum)]
    pub format: Format,
    /// Puzzle family (see `pencilbox list`); detected from the file when omitted.
    #[arg(long, short = 'p')]
    pub puzzle: Option<String>,
    /// Puzzle-specific setting KEY=VALUE (e.g. `--set block=2x3` for Sudoku); repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub settings: Vec<String>,
    /// Write to this file instead of standard output.
    #[arg(long, short = 'o', value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// The puzzle file, or `-` for standard input.
    pub file: PathBuf,
}

/// Runs `pencilbox export`: exit 0 written, 2 bad input or an unwritable output.
pub fn run(a: &ExportArgs) -> u8 {
    let args = PuzzleArgs {
        puzzle: a.puzzle.clone(),
        algorithm: None,
        timeout: None,
        node_limit: None,
        settings: a.settings.clone(),
    };
    let one = match load_one(&args, &a.file, "export") {
        Ok(o) => o,
        Err(e) => return fail(e),
    };
    let format = match a.format {
        Format::Dimacs => ExportFormat::Dimacs,
        Format::Lp => ExportFormat::Lp,
        Format::Opb => ExportFormat::Opb,
    };
    let text = match one.kind.export(&one.text, format, &one.opts) {
        Ok(t) => t,
        Err(e) => return fail(describe(&one.name, one.first_line, &e)),
    };
    match &a.output {
        None => {
            emit(text.trim_end());
            0
        }
        Some(path) => match std::fs::write(path, text) {
            Ok(()) => 0,
            Err(e) => fail(InputError(format!("{}: cannot write: {e}", path.display()))),
        },
    }
}
