//! Errors shared by every puzzle crate: parse errors with a line and column, and model errors.
//!
//! "No solution" and "several solutions" are *outcomes*, not errors (see [`crate::puzzle`]);
//! the types here are for input that is not a puzzle at all.

use std::fmt;

/// A position in a text input, 1-based, counted in characters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Pos {
    /// 1-based line number.
    pub line: u32,
    /// 1-based column (in characters) within the line.
    pub col: u32,
}

impl Pos {
    /// The start of a file.
    pub const START: Pos = Pos { line: 1, col: 1 };
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// Input that could not be read as a puzzle: where, and what is wrong.
///
/// Displayed as `LINE:COL: message`; the CLI prefixes the file name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{pos}: {message}")]
pub struct ParseError {
    /// Where the problem was found.
    pub pos: Pos,
    /// What is wrong, in words a user understands.
    pub message: String,
}

impl ParseError {
    /// Builds an error at `pos`.
    pub fn new(pos: Pos, message: impl Into<String>) -> Self {
        ParseError {
            pos,
            message: message.into(),
        }
    }

    /// Builds an error at line `line`, column `col`.
    pub fn at(line: u32, col: u32, message: impl Into<String>) -> Self {
        Self::new(Pos { line, col }, message)
    }
}

/// Everything a puzzle operation can fail with. Unsolvable puzzles are not errors.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PuzzleError {
    /// The puzzle (or solution) text is malformed.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The proposed solution (not the puzzle) is malformed; positions refer to the solution text.
    #[error("{0}")]
    Solution(ParseError),
    /// The player's entries (a position for `explain` and `hint`) are well-formed but cannot
    /// be taken: one differs from a hint, is too large for its region, or draws a line off the
    /// grid.
    #[error("{0}")]
    Entries(String),
    /// The request is well-formed text but cannot be served (unknown algorithm, unsupported size, ...).
    #[error("{0}")]
    Unsupported(String),
    /// The request was valid but the work found nothing (a generator tried every seed it was
    /// allowed without making a unique puzzle). The CLI exits with 1, not 2.
    #[error("{0}")]
    NotFound(String),
    /// The work would need more memory than the budget allows, or the system refused an
    /// allocation ([`crate::memory`]). The CLI exits with 2, Python raises `MemoryError`.
    #[error(transparent)]
    Memory(#[from] crate::memory::MemoryError),
    /// A time limit, node limit or cancellation stopped work that has no partial answer to
    /// give (a generator that has not made a puzzle yet). The CLI exits with 3 (130 for
    /// Ctrl-C).
    #[error("{message}")]
    Interrupted {
        /// What stopped it.
        reason: crate::search::StopReason,
        /// What was not done, in words.
        message: String,
    },
}

impl PuzzleError {
    /// An [`PuzzleError::Unsupported`] error with a message.
    pub fn unsupported(message: impl Into<String>) -> Self {
        PuzzleError::Unsupported(message.into())
    }

    /// A [`PuzzleError::Interrupted`] error: `reason` stopped the work before `message`.
    pub fn interrupted(reason: crate::search::StopReason, message: impl Into<String>) -> Self {
        PuzzleError::Interrupted {
            reason,
            message: message.into(),
        }
    }

    /// A [`PuzzleError::NotFound`] error with a message.
    pub fn not_found(message: impl Into<String>) -> Self {
        PuzzleError::NotFound(message.into())
    }
}
