//! Region grids: the toolkit shared by puzzles whose grid is cut into regions that each hold
//! the numbers `1..=size` (Suguru, Ripple Effect, …).
//!
//! What a region puzzle family gets from here, so that its own crate holds only its extra rule
//! and its solver:
//!
//! * [`Regions`] — a partition of a grid into regions, *normalised* from any grid of labels:
//!   orthogonally connected cells with the same label form one region, so two separated parts
//!   with one label become two regions, and regions are numbered `0, 1, …` in row-major order of
//!   their first cell. Cells are kept in flat per-region lists, so million-cell grids stay
//!   cache friendly.
//! * [`Board`] — hints (`0` = empty) on such a partition, with every hint at most its region's
//!   size ([`BoardError`] otherwise).
//! * [`Family`] — how one family spells its boards: the text format (`m n`, `m` rows of hints,
//!   `m` rows of labels, optionally with a keyword before the dimensions), the JSON form and the
//!   puzz.link URL genre; see [`format`](mod@format) and [`puzzlink`]. [`parse_answer`] reads filled grids.
//! * [`verify()`] — "every region holds `1..=size`, each value once; hints kept; no empty cell"
//!   in O(mn), every violation with its cell, plus a hook for the family's own rule.
//! * [`draw()`] and [`render`] — the grid with region walls for `--format pretty`, and the three
//!   forms a solve report carries.
//! * [`RegionModel`] — the board on the engine: a variable per cell and a permutation per
//!   region, to which the family adds its own rule; [`generate`] — random layouts and hint
//!   thinning for generators.
//! * [`presolve`](mod@presolve) — the same model's root rules (naked and hidden singles,
//!   pointing) on one bitmask per cell, before any engine is built: most hand-made puzzles end
//!   there, and the rest start the engine from the reduced domains.
//!
//! ```
//! use pencilbox_core::regions::Family;
//! const RIPPLE: Family = Family { name: "Ripple Effect", keyword: Some("ripple"), genre: "ripple" };
//! let b = RIPPLE.parse("ripple 1 3\n0 0 1\n7 7 2\n").unwrap();
//! assert_eq!(b.regions().num_regions(), 2);
//! assert_eq!(RIPPLE.to_text(&b), "ripple 1 3\n0 0 1\n1 1 2\n");
//! assert_eq!(RIPPLE.to_url(&b), "https://puzz.link/p?ripple/3/1/8h1");
//! ```

pub mod draw;
pub mod entries;
pub mod format;
pub mod generate;
pub mod layout;
pub mod model;
pub mod presolve;
pub mod puzzlink;
pub mod setter;
pub mod verify;

pub use draw::{draw, render, render_as};
pub use format::parse_answer;
pub use model::RegionModel;
pub use verify::{verify, CellCheck};

use crate::grid::{components, CellId, Grid, Shape};

/// A partition of a grid into regions, normalised (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regions {
    /// The region of every cell.
    region: Grid<u32>,
    /// The cells of region `k` are `cells[start[k]..start[k + 1]]`, row-major.
    cells: Vec<CellId>,
    start: Vec<u32>,
}

impl Regions {
    /// The regions of a grid of labels: orthogonally connected equal labels form one region,
    /// numbered in row-major order of first cells.
    ///
    /// ```
    /// use pencilbox_core::{regions::Regions, Grid, Shape};
    /// let r = Regions::new(&Grid::from_vec(Shape::new(2, 3), vec![5, 9, 5, 5, 9, 9]).unwrap());
    /// assert_eq!(r.grid().as_slice(), &[0, 1, 2, 0, 1, 1]); // the 5 at the top right is cut off
    /// assert_eq!((r.num_regions(), r.max_size()), (3, 3));
    /// ```
    pub fn new<T: PartialEq>(labels: &Grid<T>) -> Self {
        let (region, count) = components(labels);
        let mut start = vec![0u32; count + 1];
        for &k in region.as_slice() {
            start[k as usize + 1] += 1;
        }
        for k in 0..count {
            start[k + 1] += start[k];
        }
        let mut fill = start.clone();
        let mut cells = vec![CellId(0); region.as_slice().len()];
        for c in region.shape().all() {
            let k = region[c] as usize;
            cells[fill[k] as usize] = c;
            fill[k] += 1;
        }
        Regions { region, cells, start }
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.region.shape()
    }
    /// The region (`0..num_regions()`) of every cell.
    pub fn grid(&self) -> &Grid<u32> {
        &self.region
    }
    /// The region of a cell.
    pub fn region_of(&self, c: CellId) -> usize {
        self.region[c] as usize
    }
    /// The cells of region `k` in row-major order.
    pub fn region(&self, k: usize) -> &[CellId] {
        &self.cells[self.start[k] as usize..self.start[k + 1] as usize]
    }
    /// The cells of every region (regions in order, cells row-major).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &[CellId]> + '_ {
        (0..self.num_regions()).map(|k| self.region(k))
    }
    /// The number of regions.
    pub fn num_regions(&self) -> usize {
        self.start.len() - 1
    }
    /// The size of region `k`.
    pub fn size(&self, k: usize) -> usize {
        (self.start[k + 1] - self.start[k]) as usize
    }
    /// The size of the region of `c`.
    pub fn size_of(&self, c: CellId) -> usize {
        self.size(self.region_of(c))
    }
    /// The largest region size (`0` for no regions).
    pub fn max_size(&self) -> usize {
        (0..self.num_regions()).map(|k| self.size(k)).max().unwrap_or(0)
    }
    /// True when the cells `a` and `b` lie in different regions (a wall between neighbours).
    pub fn wall(&self, a: CellId, b: CellId) -> bool {
        self.region[a] != self.region[b]
    }
}

/// Why hints and labels do not make a [`Board`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    /// The two grids differ in shape.
    ShapeMismatch,
    /// A hint exceeds its region's size.
    HintTooLarge {
        /// The cell.
        cell: CellId,
        /// The hint.
        hint: u32,
        /// The size of its region.
        size: usize,
    },
}

/// Hints (`0` = empty cell) on a partition into regions, each hint at most its region's size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    hints: Grid<u32>,
    regions: Regions,
}

impl Board {
    /// A board from hints and region labels of the same shape (labels are normalised).
    ///
    /// ```
    /// use pencilbox_core::{regions::{Board, BoardError}, CellId, Grid, Shape};
    /// let s = Shape::new(1, 3);
    /// let labels = Grid::from_vec(s, vec![7, 7, 2]).unwrap();
    /// let b = Board::new(Grid::from_vec(s, vec![0, 0, 1]).unwrap(), &labels).unwrap();
    /// assert_eq!(b.regions().size_of(s.id(0, 0)), 2);
    /// let e = Board::new(Grid::from_vec(s, vec![0, 0, 2]).unwrap(), &labels).unwrap_err();
    /// assert_eq!(e, BoardError::HintTooLarge { cell: CellId(2), hint: 2, size: 1 });
    /// ```
    pub fn new<T: PartialEq>(hints: Grid<u32>, labels: &Grid<T>) -> Result<Self, BoardError> {
        if hints.shape() != labels.shape() {
            return Err(BoardError::ShapeMismatch);
        }
        Board::from_regions(hints, Regions::new(labels))
    }

    /// A board from hints and regions already built.
    pub fn from_regions(hints: Grid<u32>, regions: Regions) -> Result<Self, BoardError> {
        if hints.shape() != regions.shape() {
            return Err(BoardError::ShapeMismatch);
        }
        for c in hints.shape().all() {
            let size = regions.size_of(c);
            if hints[c] as usize > size {
                return Err(BoardError::HintTooLarge {
                    cell: c,
                    hint: hints[c],
                    size,
                });
            }
        }
        Ok(Board { hints, regions })
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.hints.shape()
    }
    /// The hints, `0` for an empty cell.
    pub fn hints(&self) -> &Grid<u32> {
        &self.hints
    }
    /// The hint of a cell (`0` = empty).
    pub fn hint(&self, c: CellId) -> u32 {
        self.hints[c]
    }
    /// The number of hint cells.
    pub fn num_hints(&self) -> usize {
        self.hints.as_slice().iter().filter(|&&h| h != 0).count()
    }
    /// The board for the playground ([`crate::board`]): the hints, the region walls, a number
    /// up to its region's size in every cell.
    pub fn board(&self) -> crate::board::Board {
        use crate::board::{Board as View, Form, Given, Input};
        let shape = self.shape();
        let mut b = View::new(shape, Input::numbers(), Form::Numbers).with_regions(self.regions().grid());
        for c in shape.all().filter(|&c| self.hint(c) != 0) {
            b.give(c, Given::Number { value: self.hint(c) });
        }
        b.max = shape.all().map(|c| self.regions().size_of(c) as u32).collect();
        b.edit = Some(crate::board::Edit {
            numbers: self.regions().max_size() as u32,
            regions: true,
            ..Default::default()
        });
        b
    }

    /// The board a setter made ([`crate::board::Draft`]): its numbers as hints on its regions
    /// (parts of one label that do not touch become separate regions). A hint larger than its
    /// region is refused, naming the cell.
    pub fn compose(d: &crate::board::Draft) -> Result<Board, crate::PuzzleError> {
        let shape = d.shape()?;
        let hints = Grid::from_vec(shape, (0..shape.cells()).map(|i| d.number(i).unwrap_or(0)).collect())
            .expect("one hint per cell");
        Board::new(hints, &d.labels()?).map_err(|e| match e {
            BoardError::HintTooLarge { cell, hint, size } => crate::PuzzleError::unsupported(format!(
                "{} holds {hint}, but its region has {}",
                shape.name(cell),
                format::plural(size, "cell")
            )),
            BoardError::ShapeMismatch => crate::PuzzleError::unsupported("the hint and region grids differ in shape"),
        })
    }
    /// The `--stats` notes every region family shows: the number of regions and of hints.
    pub fn notes(&self) -> Vec<crate::puzzle::Note> {
        use crate::puzzle::Note;
        vec![
            Note::new("regions", self.regions().num_regions()),
            Note::new("hints", self.num_hints()),
        ]
    }
    /// The regions.
    pub fn regions(&self) -> &Regions {
        &self.regions
    }
    /// The same regions with other hints.
    pub fn with_hints(&self, hints: Grid<u32>) -> Result<Self, BoardError> {
        Board::from_regions(hints, self.regions.clone())
    }
    /// The board with rows and columns swapped.
    pub fn transposed(&self) -> Board {
        let s = self.shape();
        let t = Shape::new(s.width, s.height);
        if s.height == 1 || s.width == 1 {
            // One row or one column: row-major order is the same both ways, so every cell keeps
            // its id and every region its number and cell list (no relabelling of 10⁶ cells).
            let reshape = |g: &Grid<u32>| Grid::from_vec(t, g.as_slice().to_vec()).expect("same cell count");
            return Board {
                hints: reshape(&self.hints),
                regions: Regions {
                    region: reshape(&self.regions.region),
                    cells: self.regions.cells.clone(),
                    start: self.regions.start.clone(),
                },
            };
        }
        let tr = |g: &Grid<u32>| {
            let v = t.all().map(|c| {
                let (r, col) = t.coords(c);
                g[s.id(col, r)]
            });
            Grid::from_vec(t, v.collect()).expect("same cell count")
        };
        Board::new(tr(&self.hints), &tr(self.regions.grid())).expect("transposing keeps hints valid")
    }
}

/// How one region puzzle family spells its boards in text, JSON and puzz.link URLs.
///
/// The reading and writing methods live in [`format`](mod@format) (text, JSON, detection) and
/// [`puzzlink`] (URLs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Family {
    /// The family's name in messages, as in "not a Suguru JSON object".
    pub name: &'static str,
    /// A word the text format requires before `height width` on the first line (`ripple 6 6`),
    /// so that detection is unambiguous; `None` for the plain `m n` header.
    pub keyword: Option<&'static str>,
    /// The puzz.link genre: `suguru` in `https://puzz.link/p?suguru/W/H/BODY`.
    pub genre: &'static str,
}

/// A family with the plain `m n` header, for the tests of this module tree.
#[cfg(test)]
const PLAIN: Family = Family {
    name: "Plain",
    keyword: None,
    genre: "plain",
};

/// A family with a keyword header, for the tests of this module tree.
#[cfg(test)]
const RIPPLE: Family = Family {
    name: "Ripple Effect",
    keyword: Some("ripple"),
    genre: "ripple",
};

/// For the property tests of this module tree: the board of the first `h × w` of random
/// `labels` and `hints` (each hint capped at its region's size), and the king's steps picked
/// by `steps` as the touching rule.
#[cfg(test)]
fn random_board(h: usize, w: usize, labels: &[u8], hints: &[u32], steps: &[usize]) -> (Board, Vec<(isize, isize)>) {
    let shape = Shape::new(h, w);
    let labels = Grid::from_vec(shape, labels[..shape.cells()].to_vec()).expect("enough labels");
    let regions = Regions::new(&labels);
    let hints: Vec<u32> = shape
        .all()
        .map(|c| hints[c.index()].min(regions.size_of(c) as u32))
        .collect();
    let board = Board::from_regions(Grid::from_vec(shape, hints).expect("one hint per cell"), regions)
        .expect("hints within their regions");
    (board, steps.iter().map(|&k| crate::grid::KING[k]).collect())
}

/// The [`Puzzle`](crate::plugin::Puzzle) methods that every region family writes the same way,
/// for a type with a method `$board(&self) -> &Board` and a constructor `$wrap: Board -> Self`:
/// reading answers ([`parse_answer`]), `--format pretty` with region walls ([`render_as`]),
/// the cells two solutions differ at, the grid's size, and the player's entries for hints
/// ([`entries::with_entries`],
/// [`entries::wrong_entries`]). Written inside the family's
/// `impl Puzzle` block: `pencilbox_core::region_board_methods!(board, Suguru::from);`.
#[macro_export]
macro_rules! region_board_methods {
    ($board:ident, $wrap:expr) => {
        fn parse_solution(&self, text: &str) -> Result<$crate::Grid<u32>, $crate::ParseError> {
            $crate::regions::parse_answer(text, self.$board().shape())
        }
        fn render_as(&self, s: &$crate::Grid<u32>, what: $crate::Render) -> $crate::Rendered {
            $crate::regions::render_as(self.$board().regions(), s, what)
        }
        fn differences(&self, a: &$crate::Grid<u32>, b: &$crate::Grid<u32>) -> Vec<String> {
            $crate::plugin::grid_differences(self.$board().shape().width, a.as_slice(), b.as_slice())
        }
        fn dimensions(&self) -> (usize, usize) {
            (self.$board().shape().height, self.$board().shape().width)
        }
        fn with_entries(&self, entries: &str) -> Result<Self, $crate::PuzzleError> {
            $crate::regions::entries::with_entries(self.$board(), entries).map($wrap)
        }
        fn wrong_entries(&self, entries: &str, solution: &$crate::Grid<u32>) -> Option<Vec<$crate::human::Fact>> {
            $crate::regions::entries::wrong_entries(self.$board(), entries, solution)
        }
        fn board(&self) -> Option<$crate::board::Board> {
            Some(self.$board().board())
        }
        fn compose(&self, d: &$crate::board::Draft) -> Option<Result<Self, $crate::PuzzleError>> {
            Some($crate::regions::Board::compose(d).map($wrap))
        }
    };
}

/// [`region_board_methods!`] plus the methods of a family whose format is entirely a
/// [`Family`] constant `$family` (detection, parsing, the text and URL forms, the drawing and
/// the board's notes), as Ripple Effect's: `pencilbox_core::region_family_methods!(FAMILY,
/// board, Ripple);`.
#[macro_export]
macro_rules! region_family_methods {
    ($family:expr, $board:ident, $wrap:expr) => {
        $crate::region_board_methods!($board, $wrap);
        fn detect(text: &str) -> bool {
            $family.detect(text)
        }
        fn parse(text: &str, _: &$crate::RunOptions) -> Result<Self, $crate::PuzzleError> {
            Ok($wrap($family.parse(text)?))
        }
        fn render(&self, s: &$crate::Grid<u32>) -> $crate::Rendered {
            $crate::regions::render(self.$board().regions(), s)
        }
        fn notes(&self) -> Vec<$crate::Note> {
            self.$board().notes()
        }
        fn write(&self, url: bool) -> Option<String> {
            Some(match url {
                true => $family.to_url(self.$board()),
                false => $family.to_text(self.$board()),
            })
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_list_their_cells_row_major_and_know_their_sizes() {
        let labels = Grid::from_vec(Shape::new(3, 3), vec![1, 1, 2, 3, 1, 2, 3, 3, 3]).unwrap();
        let r = Regions::new(&labels);
        let s = r.shape();
        assert_eq!(r.num_regions(), 3);
        assert_eq!(r.region(0), &[s.id(0, 0), s.id(0, 1), s.id(1, 1)]);
        assert_eq!(r.region(2), &[s.id(1, 0), s.id(2, 0), s.id(2, 1), s.id(2, 2)]);
        assert_eq!(r.iter().map(<[_]>::len).collect::<Vec<_>>(), vec![3, 2, 4]);
        assert_eq!((r.size(1), r.size_of(s.id(2, 2)), r.max_size()), (2, 4, 4));
        assert!(r.wall(s.id(0, 1), s.id(0, 2)) && !r.wall(s.id(0, 0), s.id(0, 1)));
    }

    #[test]
    fn a_board_refuses_a_hint_above_its_region_size_and_grids_of_two_shapes() {
        let s = Shape::new(1, 2);
        let labels = Grid::from_vec(s, vec![1, 2]).unwrap();
        let e = Board::new(Grid::from_vec(s, vec![0, 2]).unwrap(), &labels).unwrap_err();
        assert_eq!(
            e,
            BoardError::HintTooLarge {
                cell: CellId(1),
                hint: 2,
                size: 1
            }
        );
        let e = Board::new(Grid::filled(Shape::new(2, 1), 0), &labels).unwrap_err();
        assert_eq!(e, BoardError::ShapeMismatch);
    }

    proptest::proptest! {
        /// A single row or column is transposed by reshaping: the same board as relabelling
        /// the transposed grids from scratch.
        #[test]
        fn a_line_transposes_as_relabelling_would(
            n in 1usize..14,
            labels in proptest::collection::vec(0u8..3, 14),
            hints in proptest::collection::vec(0u32..3, 14),
            column in proptest::bool::ANY,
        ) {
            let s = if column { Shape::new(n, 1) } else { Shape::new(1, n) };
            let t = Shape::new(s.width, s.height);
            let labels = Grid::from_vec(s, labels[..n].to_vec()).unwrap();
            let regions = Regions::new(&labels);
            let hints: Vec<u32> = s.all().map(|c| hints[c.index()].min(regions.size_of(c) as u32)).collect();
            let b = Board::from_regions(Grid::from_vec(s, hints.clone()).unwrap(), regions).unwrap();
            let relabelled = Board::new(
                Grid::from_vec(t, hints).unwrap(),
                &Grid::from_vec(t, labels.as_slice().to_vec()).unwrap(),
            )
            .unwrap();
            proptest::prop_assert_eq!(b.transposed(), relabelled);
        }
    }

    #[test]
    fn transposing_twice_gives_the_board_back_and_other_hints_keep_the_regions() {
        let s = Shape::new(2, 3);
        let labels = Grid::from_vec(s, vec![4, 4, 5, 6, 6, 5]).unwrap();
        let b = Board::new(Grid::from_vec(s, vec![2, 0, 0, 0, 0, 1]).unwrap(), &labels).unwrap();
        let t = b.transposed();
        assert_eq!(t.shape(), Shape::new(3, 2));
        assert_eq!(t.hints().as_slice(), &[2, 0, 0, 0, 0, 1]);
        assert_eq!(t.transposed(), b);
        let other = b
            .with_hints(Grid::from_vec(s, vec![0, 0, 2, 0, 0, 0]).unwrap())
            .unwrap();
        assert_eq!((other.regions(), other.num_hints()), (b.regions(), 1));
    }
}
