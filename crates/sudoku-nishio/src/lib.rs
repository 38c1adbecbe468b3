//! Temporary registration shim: replaced by the crate's real implementation.
use pencilbox_core::*;

/// The sudoku puzzle family.
pub struct Kind;
/// The registry entry.
pub static KIND: Kind = Kind;

impl PuzzleKind for Kind {
    fn name(&self) -> &'static str {
        "sudoku"
    }
    fn summary(&self) -> &'static str {
        "Sudoku (in progress)"
    }
    fn detect(&self, _: &str) -> bool {
        false
    }
    fn algorithms(&self) -> &'static [AlgorithmInfo] {
        &[]
    }
    fn solve(&self, _: &str, _: &RunOptions) -> Result<SolveReport, PuzzleError> {
        Err(PuzzleError::unsupported("sudoku is being built"))
    }
    fn count(&self, _: &str, _: Option<u64>, _: &RunOptions) -> Result<CountReport, PuzzleError> {
        Err(PuzzleError::unsupported("sudoku is being built"))
    }
    fn verify(&self, _: &str, _: &str, _: &RunOptions) -> Result<VerifyReport, PuzzleError> {
        Err(PuzzleError::unsupported("sudoku is being built"))
    }
}
