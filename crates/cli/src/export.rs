//! `pencilbox export`: the puzzle's engine model as DIMACS CNF, CPLEX LP or OPB
//! ([`pencilbox_core::encode`]), for an external SAT, MIP or pseudo-Boolean solver.

use crate::commands::fail;
use crate::input::{describe, InputError};
use crate::setter::load_one;
use crate::PuzzleArgs;
use clap::ValueEnum;
use pencilbox_core::encode::ExportFormat;
use std::io::Write;
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

// `pencilbox export` flags.
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

/// A writer that remembers its first error, so that a closed pipe can end the run quietly
/// as [`crate::output::emit`] does.
struct Recording<W> {
    inner: W,
    error: Option<std::io::ErrorKind>,
}

impl<W: Write> Write for Recording<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf).inspect_err(|e| {
            self.error.get_or_insert(e.kind());
        })
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush().inspect_err(|e| {
            self.error.get_or_insert(e.kind());
        })
    }
}

/// Runs `pencilbox export`: exit 0 written, 2 bad input, a model or formula above the memory
/// budget (`--memory`), or an unwritable output. The formula is written as it is made
/// (DIMACS is streamed and never held in memory), so a failure part-way leaves a partial
/// file behind: the exit code tells.
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
    let sink: Box<dyn Write> = match &a.output {
        None => Box::new(std::io::stdout().lock()),
        Some(path) => match std::fs::File::create(path) {
            Ok(f) => Box::new(f),
            Err(e) => return fail(InputError(format!("{}: cannot write: {e}", path.display()))),
        },
    };
    let mut out = Recording {
        inner: sink,
        error: None,
    };
    let written = one.kind.export(&one.text, format, &one.opts, &mut out);
    match (written, out.error) {
        (Ok(()), _) => 0,
        // `pencilbox export … | head`: a closed pipe is not an error.
        (Err(_), Some(std::io::ErrorKind::BrokenPipe)) if a.output.is_none() => 0,
        (Err(e), Some(_)) => {
            let to = a
                .output
                .as_ref()
                .map_or("<stdout>".to_string(), |p| p.display().to_string());
            fail(InputError(format!("{to}: {e}")))
        }
        (Err(e), None) => fail(describe(&one.name, one.first_line, &e)),
    }
}
