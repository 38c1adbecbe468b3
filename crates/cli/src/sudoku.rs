//! `pencilbox sudoku ...` (owned by the Sudoku work; wired to pencilbox-sudoku-nishio).

/// Sudoku subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum SudokuCommand {}

/// Runs a Sudoku subcommand.
pub fn run(c: SudokuCommand) -> u8 {
    match c {}
}
