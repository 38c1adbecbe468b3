//! pencilbox-pathpuzzle: Path puzzles (Roderick Kimball, 2013) after J. E. Sakti, M. Arzaki and
//! G. S. Wulandari, "A backtracking approach for solving Path puzzles" (the spec:
//! `shared/papers/path-puzzle-backtracking.txt`).
//!
//! A Path puzzle (Definition 1) is an `m × n` grid with two doors on its edge and optional
//! row and column clues; a solution is one non-intersecting path of orthogonally adjacent cells
//! from door A to door B that visits, in each clued row and column, exactly the clued number of
//! cells. Path puzzles are NP-complete even with complete information (Bosboom et al., 2020).
//!
//! # Modules
//! * [`model`] — [`PathPuzzle`], [`Arrow`], configurations; the paper's text format, `.sol`
//!   files and JSON.
//! * [`checks`] — instant no-solution checks (Definition 1, Theorems 1 and 2).
//! * [`verify`] — the O(mn) verifier (Algorithms 1 and 2) listing every violation.
//! * [`paper`] — Algorithm 3 as published; [`extend`] — the same extension search with
//!   pruning rules; [`fast`] — the default: the link model on the shared engine
//!   ([`pencilbox_core::engine`]) with propagation, probing and a race of branchings, after
//!   [`quick`] — Algorithm 3's walk on bitboards with cheap cuts, which settles most small
//!   puzzles before any model is built.
//! * [`solve`] — solve / count / uniqueness for any algorithm on the core driver.
//! * [`puzzlink`] — the Path URL in the puzz.link style (`p?pathpuzzle/W/H/BODY`; puzz.link
//!   has no such genre), read and written.
//! * [`render`] — the box-drawing picture; [`mod@generate`] — random instances and fixtures.
//! * [`setter`] — the setter's tools (`forced` on cells and links, row and column clues for
//!   `count --suggest` and `count --redundant`) on the `fast` model.
//! * [`kind`] — the typed [`Puzzle`](pencilbox_core::plugin::Puzzle) implementation and the plug-in [`KIND`].
//!
//! # API for servers and tools
//! ```
//! use pencilbox_pathpuzzle::{configuration_rows, solve_text, verify_text, PathPuzzle};
//! let text = "3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n";
//! let p = PathPuzzle::parse(text).unwrap();          // ParseError with line:col on bad input
//! assert_eq!(p.to_text(), text);                       // back to the paper's format
//! let a = solve_text(text).unwrap().expect("solvable"); // the direction grid
//! assert_eq!(configuration_rows(&a), ["rrd", "u0d", "0ul"]);
//! assert!(verify_text(text, "r r d\nu 0 d\n0 u l").unwrap().is_empty());
//! ```

#![deny(missing_docs)]

mod bitboard;
pub mod checks;
pub mod explain;
pub mod extend;
pub mod fast;
pub mod generate;
pub mod kind;
pub mod model;
pub mod paper;
pub mod puzzlink;
pub mod quick;
pub mod render;
pub mod setter;
pub mod solve;
pub mod verify;

pub use generate::{generate, ClueDensity};
pub use kind::KIND;
pub use model::{
    configuration_from_path, configuration_rows, configuration_to_text, parse_arrows, parse_configuration, Arrow,
    Configuration, InvalidInstance, PathPuzzle,
};
pub use solve::{Algorithm, Outcome};

use pencilbox_core::{Limits, PuzzleError, Violation};

/// Parses a puzzle and solves it with the default algorithm (no limits): `Ok(None)` when it
/// has no solution.
pub fn solve_text(text: &str) -> Result<Option<Configuration>, PuzzleError> {
    let p = PathPuzzle::parse(text)?;
    Ok(solve::solve(&p, &Algorithm::default(), &Limits::default())
        .solutions
        .into_iter()
        .next())
}

/// Parses a puzzle and a configuration (`.sol` text, header optional) and lists every
/// violation (empty = a solution). A malformed configuration is [`PuzzleError::Solution`].
pub fn verify_text(text: &str, solution: &str) -> Result<Vec<Violation>, PuzzleError> {
    let p = PathPuzzle::parse(text)?;
    let a = parse_configuration(&p, solution).map_err(PuzzleError::Solution)?;
    Ok(verify::violations(&p, &a))
}
