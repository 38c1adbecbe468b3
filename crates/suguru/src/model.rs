//! The Suguru instance (paper, Definition 1) and its text formats.
//!
//! A Suguru instance is a region [`Board`] of the core crate: hints on a partition of the grid
//! into regions, each hint at most its region's size. Everything about reading and writing it
//! is the core's region toolkit ([`pencilbox_core::regions`]) spelled the Suguru way by
//! [`FAMILY`]; this module keeps the Suguru names.
//!
//! # The paper-repository format
//! ```text
//! m n
//! m lines of n hints (0 = empty cell)
//! m lines of n region labels
//! ```
//! Region labels are any whole numbers. They are *normalised* as the playground's
//! `clean_region` does (playground manual, Appendix A): orthogonally connected cells with the
//! same label form one region, so two separated parts with one label become two regions, and
//! regions are numbered in row-major order of their first cell (paper, Section II-A: "the first
//! region in the first row is labeled with one").
//!
//! A hint must lie in `0..=s` where `s` is the size of its region (Definition 1); anything
//! else is a [`ParseError`] at the hint's line and column.
//!
//! # Answers
//! An answer (`.ans`) is `m` lines of `n` values; `0` stands for an empty cell.
//!
//! # JSON
//! `{"height": m, "width": n, "hints": [[..]], "regions": [[..]]}` through serde.

use pencilbox_core::regions::{self, Board, Family};
use pencilbox_core::{CellId, Grid, ParseError, Shape};

/// Why a grid of hints and labels is not a Suguru instance: the core's [`regions::BoardError`]
/// (`ShapeMismatch`, or `HintTooLarge { cell, hint, size }` against Definition 1).
pub use pencilbox_core::regions::BoardError as ModelError;

/// How Suguru spells its boards: the plain `m n` header, "Suguru" in JSON errors, and the
/// puzz.link genre `suguru`.
pub const FAMILY: Family = Family {
    name: "Suguru",
    keyword: None,
    genre: "suguru",
};

/// A Suguru instance: hints and a partition of the grid into regions (Definition 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suguru {
    board: Board,
}

/// A filled grid (a configuration in the paper's words); `0` = empty.
pub type Solution = Grid<u32>;

impl Suguru {
    /// Builds an instance from hints (`0` = empty) and region labels of the same shape.
    ///
    /// Labels are normalised (see the module docs).
    ///
    /// ```
    /// use pencilbox_core::{Grid, Shape};
    /// use pencilbox_suguru::Suguru;
    /// let s = Shape::new(1, 3);
    /// let p = Suguru::new(Grid::from_vec(s, vec![0, 0, 1]).unwrap(), &Grid::from_vec(s, vec![7, 7, 2]).unwrap()).unwrap();
    /// assert_eq!(p.num_regions(), 2);
    /// assert_eq!(p.region_size_of(p.shape().id(0, 0)), 2);
    /// ```
    pub fn new<T: PartialEq>(hints: Grid<u32>, labels: &Grid<T>) -> Result<Self, ModelError> {
        Board::new(hints, labels).map(Suguru::from)
    }

    /// The instance as a core region board.
    pub fn board(&self) -> &Board {
        &self.board
    }
    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.board.shape()
    }
    /// The hints, `0` for an empty cell.
    pub fn hints(&self) -> &Grid<u32> {
        self.board.hints()
    }
    /// The hint of a cell (`0` = empty).
    pub fn hint(&self, c: CellId) -> u32 {
        self.board.hint(c)
    }
    /// The normalised region (0-based, row-major order of first cells) of every cell.
    pub fn region_grid(&self) -> &Grid<u32> {
        self.board.regions().grid()
    }
    /// The region of a cell.
    pub fn region_of(&self, c: CellId) -> usize {
        self.board.regions().region_of(c)
    }
    /// The cells of region `k` in row-major order.
    pub fn region(&self, k: usize) -> &[CellId] {
        self.board.regions().region(k)
    }
    /// The cells of every region (regions in order, cells row-major).
    pub fn regions(&self) -> impl ExactSizeIterator<Item = &[CellId]> + '_ {
        self.board.regions().iter()
    }
    /// Number of regions `R`.
    pub fn num_regions(&self) -> usize {
        self.board.regions().num_regions()
    }
    /// Size of region `k`.
    pub fn region_size(&self, k: usize) -> usize {
        self.board.regions().size(k)
    }
    /// Size of the region of `c`.
    pub fn region_size_of(&self, c: CellId) -> usize {
        self.board.regions().size_of(c)
    }
    /// The largest region size.
    pub fn max_region_size(&self) -> usize {
        self.board.regions().max_size()
    }
    /// Number of hint cells `H`.
    pub fn num_hints(&self) -> usize {
        self.board.num_hints()
    }
    /// The same regions with other hints.
    pub fn with_hints(&self, hints: Grid<u32>) -> Result<Self, ModelError> {
        self.board.with_hints(hints).map(Suguru::from)
    }
    /// The instance with rows and columns swapped (used to run the `1×n` algorithm on `m×1`).
    pub fn transposed(&self) -> Suguru {
        Suguru::from(self.board.transposed())
    }

    /// The paper-repository text (`m n`, hints, labels `1..=R`), ending with a newline.
    pub fn to_text(&self) -> String {
        FAMILY.to_text(&self.board)
    }

    /// The JSON form.
    pub fn to_json(&self) -> serde_json::Value {
        FAMILY.to_json(&self.board)
    }
}

impl From<Board> for Suguru {
    fn from(board: Board) -> Self {
        Suguru { board }
    }
}

impl std::fmt::Display for Suguru {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// Parses the paper-repository format, the JSON form or a puzz.link URL. Positions in errors
/// are 1-based line:column of `text`.
///
/// ```
/// let p = pencilbox_suguru::parse("1 3\n0 0 1\n1 1 2\n").unwrap();
/// assert_eq!(p.num_regions(), 2);
/// let e = pencilbox_suguru::parse("1 3\n0 0 2\n1 1 2\n").unwrap_err();
/// assert_eq!(e.to_string(), "2:5: hint 2 is larger than its region (r1c3 is in a region of 1 cell)");
/// ```
pub fn parse(text: &str) -> Result<Suguru, ParseError> {
    FAMILY.parse(text).map(Suguru::from)
}

/// Parses the JSON form (serde); errors carry serde's line and column.
pub fn parse_json(text: &str) -> Result<Suguru, ParseError> {
    FAMILY.parse_json(text).map(Suguru::from)
}

/// Parses an answer (`m` lines of `n` values, `0` = empty, or JSON rows) for a puzzle of the
/// given shape.
pub fn parse_answer(text: &str, shape: Shape) -> Result<Solution, ParseError> {
    regions::parse_answer(text, shape)
}

/// A cheap test: does `text` look like a Suguru file (the repository format, JSON with
/// `regions`, or a puzz.link `suguru` URL)?
///
/// Accepts `m n` followed by exactly `2m` rows of `n` integers each, one row per line; this
/// rejects Path-puzzle files (their door lines have 2 numbers and a blank line precedes clues)
/// and one-line Sudoku strings.
pub fn detect(text: &str) -> bool {
    FAMILY.detect(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pencilbox_core::Pos;

    const FIG1: &str = "3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n";

    #[test]
    fn parse_display_parse_is_the_identity() {
        let p = parse(FIG1).unwrap();
        assert_eq!(p.to_text(), FIG1);
        assert_eq!(parse(&p.to_text()).unwrap(), p);
        let j = serde_json::to_string(&p.to_json()).unwrap();
        assert_eq!(parse(&j).unwrap(), p);
    }

    #[test]
    fn separated_parts_with_one_label_become_two_regions_numbered_row_major() {
        let p = parse("2 3\n0 0 0\n0 0 0\n9 4 9\n9 4 4\n").unwrap();
        // 9 at r1c1 and r2c1 is one region; the 9 at r1c3 is cut off and becomes its own.
        assert_eq!(p.num_regions(), 3);
        assert_eq!(p.region_grid().as_slice(), &[0, 1, 2, 0, 1, 1]);
        assert_eq!(p.to_text(), "2 3\n0 0 0\n0 0 0\n1 2 3\n1 2 2\n");
    }

    #[test]
    fn detect_accepts_repository_files_and_refuses_other_formats() {
        assert!(detect(FIG1));
        assert!(detect("1 6\n0 0 0 0 0 0\n1 2 2 3 3 3\n"));
        // A Path puzzle: size, door, door, blank line, clues.
        assert!(!detect("3 3\n1 1\n3 3\n\n2 1 0\n1 0 2\n"));
        assert!(!detect(
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
        ));
        assert!(!detect("3 3\n0 0 0\n0 5 0\n"));
        assert!(detect("https://puzz.link/p?suguru/3/3/4g0023"));
    }

    #[test]
    fn answers_are_read_row_by_row() {
        let s = Shape::new(2, 2);
        assert_eq!(parse_answer("1 2\n3 4\n", s).unwrap().as_slice(), &[1, 2, 3, 4]);
        // A short row is placed at its own end.
        let e = parse_answer("1 2\n3\n", s).unwrap_err();
        assert_eq!(e.pos, Pos { line: 2, col: 2 });
        let e = parse_answer("1 2 3\n3 4\n", s).unwrap_err();
        assert_eq!(e.pos, Pos { line: 1, col: 5 });
    }
}
