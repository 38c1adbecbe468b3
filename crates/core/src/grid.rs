//! Grid geometry: `(row, col)` coordinates, row-major cell ids, flat grids, precomputed
//! orthogonal and king (8-way) neighbourhoods, and connected-component labelling.
//!
//! One coordinate order, `(row, col)`, and one shape order, `(height, width)`, everywhere.

use serde::Serialize;
use smallvec::SmallVec;
use std::ops::{Index, IndexMut};

/// A cell of a grid, as its row-major index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct CellId(pub u32);

impl CellId {
    /// The row-major index.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
    /// The cell at a row-major index.
    #[inline]
    pub fn from_index(i: usize) -> Self {
        CellId(i as u32)
    }
}

/// The size of a grid: `height` rows of `width` columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Shape {
    /// Number of rows.
    pub height: usize,
    /// Number of columns.
    pub width: usize,
}

/// The 4 orthogonal steps, in the order up, left, right, down.
pub const ORTHOGONAL: [(isize, isize); 4] = [(-1, 0), (0, -1), (0, 1), (1, 0)];
/// The 8 king steps in row-major order.
pub const KING: [(isize, isize); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

impl Shape {
    /// A `height × width` shape.
    pub fn new(height: usize, width: usize) -> Self {
        Shape { height, width }
    }
    /// Number of cells.
    #[inline]
    pub fn cells(&self) -> usize {
        self.height * self.width
    }
    /// The id of `(row, col)`.
    #[inline]
    pub fn id(&self, row: usize, col: usize) -> CellId {
        debug_assert!(row < self.height && col < self.width);
        CellId((row * self.width + col) as u32)
    }
    /// The `(row, col)` of a cell.
    #[inline]
    pub fn coords(&self, c: CellId) -> (usize, usize) {
        (c.index() / self.width, c.index() % self.width)
    }
    /// All cells in row-major order.
    pub fn all(&self) -> impl Iterator<Item = CellId> {
        (0..self.cells() as u32).map(CellId)
    }
    /// The cell one `(dr, dc)` step from `c`, if inside the grid.
    #[inline]
    pub fn step(&self, c: CellId, (dr, dc): (isize, isize)) -> Option<CellId> {
        let (r, col) = self.coords(c);
        let r2 = r.checked_add_signed(dr)?;
        let c2 = col.checked_add_signed(dc)?;
        (r2 < self.height && c2 < self.width).then(|| self.id(r2, c2))
    }
    /// The orthogonal neighbours of `c` inside the grid (up, left, right, down).
    pub fn orth(self, c: CellId) -> impl Iterator<Item = CellId> {
        ORTHOGONAL.iter().filter_map(move |&d| self.step(c, d))
    }
    /// True when the cell is on the outer border.
    pub fn on_edge(&self, c: CellId) -> bool {
        let (r, col) = self.coords(c);
        r == 0 || col == 0 || r + 1 == self.height || col + 1 == self.width
    }
    /// Human coordinates `r{row}c{col}`, 1-based, as used in messages.
    pub fn name(&self, c: CellId) -> String {
        let (r, col) = self.coords(c);
        format!("r{}c{}", r + 1, col + 1)
    }
}

/// A short list of neighbours (never more than 8).
pub type NeighbourList = SmallVec<[CellId; 8]>;

/// Precomputed orthogonal and king neighbourhoods of every cell of a shape.
#[derive(Clone, Debug)]
pub struct Neighbours {
    shape: Shape,
    orth: Vec<NeighbourList>,
    king: Vec<NeighbourList>,
}

impl Neighbours {
    /// Computes both neighbourhoods for every cell.
    pub fn new(shape: Shape) -> Self {
        let list = |steps: &[(isize, isize)]| -> Vec<NeighbourList> {
            shape
                .all()
                .map(|c| steps.iter().filter_map(|&d| shape.step(c, d)).collect())
                .collect()
        };
        Neighbours {
            shape,
            orth: list(&ORTHOGONAL),
            king: list(&KING),
        }
    }
    /// The shape these neighbourhoods belong to.
    pub fn shape(&self) -> Shape {
        self.shape
    }
    /// Orthogonal neighbours of `c` (up, left, right, down order).
    #[inline]
    pub fn orth(&self, c: CellId) -> &[CellId] {
        &self.orth[c.index()]
    }
    /// King (8-way) neighbours of `c` in row-major order.
    #[inline]
    pub fn king(&self, c: CellId) -> &[CellId] {
        &self.king[c.index()]
    }
}

/// A flat, row-major grid of values.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Grid<T> {
    shape: Shape,
    cells: Vec<T>,
}

impl<T> Grid<T> {
    /// A grid from row-major values; `None` if the length does not match the shape.
    pub fn from_vec(shape: Shape, cells: Vec<T>) -> Option<Self> {
        (cells.len() == shape.cells()).then_some(Grid { shape, cells })
    }
    /// A grid filled with `value`.
    pub fn filled(shape: Shape, value: T) -> Self
    where
        T: Clone,
    {
        Grid {
            shape,
            cells: vec![value; shape.cells()],
        }
    }
    /// Its shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.shape
    }
    /// Number of rows.
    pub fn height(&self) -> usize {
        self.shape.height
    }
    /// Number of columns.
    pub fn width(&self) -> usize {
        self.shape.width
    }
    /// The values in row-major order.
    pub fn as_slice(&self) -> &[T] {
        &self.cells
    }
    /// The values in row-major order, mutably.
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        &mut self.cells
    }
    /// The value at `(row, col)`.
    pub fn at(&self, row: usize, col: usize) -> &T {
        &self.cells[row * self.shape.width + col]
    }
    /// The rows as slices.
    pub fn rows(&self) -> impl Iterator<Item = &[T]> {
        self.cells.chunks(self.shape.width.max(1))
    }
    /// Applies `f` to every value.
    pub fn map<U>(&self, f: impl FnMut(&T) -> U) -> Grid<U> {
        Grid {
            shape: self.shape,
            cells: self.cells.iter().map(f).collect(),
        }
    }
    /// Consumes the grid, returning its values.
    pub fn into_vec(self) -> Vec<T> {
        self.cells
    }
    /// Rows as nested vectors (for JSON output).
    pub fn to_rows(&self) -> Vec<Vec<T>>
    where
        T: Clone,
    {
        self.rows().map(|r| r.to_vec()).collect()
    }
}

impl<T> Index<CellId> for Grid<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: CellId) -> &T {
        &self.cells[c.index()]
    }
}
impl<T> IndexMut<CellId> for Grid<T> {
    #[inline]
    fn index_mut(&mut self, c: CellId) -> &mut T {
        &mut self.cells[c.index()]
    }
}

/// Appends `n` in decimal, without formatting machinery or allocations (answer texts and
/// verifier messages are written for every cell of every solution).
pub fn push_decimal(out: &mut String, n: usize) {
    if n >= 10 {
        push_decimal(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

impl Grid<u32> {
    /// [`Grid::to_text`] for numbers, written digit by digit (the answer text of every solve).
    ///
    /// ```
    /// use pencilbox_core::{Grid, Shape};
    /// let g = Grid::from_vec(Shape::new(2, 2), vec![1, 20, 3, 4]).unwrap();
    /// assert_eq!(g.numbers_text(), g.to_text());
    /// ```
    pub fn numbers_text(&self) -> String {
        let mut out = String::with_capacity(self.cells.len() * 3);
        self.write_rows(&mut out, |out, &v| push_decimal(out, v as usize));
        out
    }
}

impl<T> Grid<T> {
    /// Appends the rows to `out`, one per line (no trailing newline), the cells of a row
    /// separated by single spaces, each written by `cell`: the layout of every answer text.
    ///
    /// ```
    /// use pencilbox_core::{Grid, Shape};
    /// let g = Grid::from_vec(Shape::new(2, 2), vec!['a', 'b', 'c', 'd']).unwrap();
    /// let mut out = String::new();
    /// g.write_rows(&mut out, |out, &c| out.push(c));
    /// assert_eq!(out, "a b\nc d");
    /// ```
    pub fn write_rows(&self, out: &mut String, mut cell: impl FnMut(&mut String, &T)) {
        if self.shape.width == 1 {
            // A column: one flat pass (a 10⁶×1 grid costs what a 1×10⁶ row does).
            for (i, v) in self.cells.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                cell(out, v);
            }
            return;
        }
        for (r, row) in self.rows().enumerate() {
            if r > 0 {
                out.push('\n');
            }
            for (c, v) in row.iter().enumerate() {
                if c > 0 {
                    out.push(' ');
                }
                cell(out, v);
            }
        }
    }
}

impl<T: std::fmt::Display> Grid<T> {
    /// Rows of values separated by single spaces, one row per line (no trailing newline).
    ///
    /// ```
    /// use pencilbox_core::{Grid, Shape};
    /// assert_eq!(Grid::from_vec(Shape::new(2, 2), vec![1, 20, 3, 4]).unwrap().to_text(), "1 20\n3 4");
    /// ```
    pub fn to_text(&self) -> String {
        use std::fmt::Write;
        let mut out = String::with_capacity(self.cells.len() * 3);
        self.write_rows(&mut out, |out, v| {
            let _ = write!(out, "{v}");
        });
        out
    }
}

/// Labels orthogonally connected components of equal labels. Components are numbered
/// `0, 1, …` in row-major order of their first cell; returns the component grid and the count.
///
/// ```
/// use pencilbox_core::grid::{components, Grid, Shape};
/// // Two cells labelled 7 that do not touch become two components.
/// let g = Grid::from_vec(Shape::new(1, 3), vec![7, 1, 7]).unwrap();
/// let (comp, n) = components(&g);
/// assert_eq!((comp.as_slice(), n), (&[0u32, 1, 2][..], 3));
/// ```
pub fn components<T: PartialEq>(labels: &Grid<T>) -> (Grid<u32>, usize) {
    // Union-find over the left and upper neighbours in one row-major pass, each set's root
    // being its first cell; then the roots are numbered in row-major order (so a component's
    // number is that of its first cell, as a flood fill from each unlabelled cell gives).
    fn root(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let up = parent[parent[x as usize] as usize];
            parent[x as usize] = up;
            x = up;
        }
        x
    }
    fn union(parent: &mut [u32], a: u32, b: u32) {
        let (ra, rb) = (root(parent, a), root(parent, b));
        if ra != rb {
            parent[ra.max(rb) as usize] = ra.min(rb);
        }
    }
    let shape = labels.shape();
    let (h, w) = (shape.height, shape.width);
    let cells = &labels.cells;
    let mut parent: Vec<u32> = (0..shape.cells() as u32).collect();
    for r in 0..h {
        let row = r * w;
        for c in 0..w {
            let i = row + c;
            if c > 0 && cells[i - 1] == cells[i] {
                union(&mut parent, (i - 1) as u32, i as u32);
            }
            if r > 0 && cells[i - w] == cells[i] {
                union(&mut parent, (i - w) as u32, i as u32);
            }
        }
    }
    let mut comp = vec![0u32; shape.cells()];
    let mut next = 0u32;
    for i in 0..shape.cells() {
        let r = root(&mut parent, i as u32) as usize;
        comp[i] = if r == i {
            next += 1;
            next - 1
        } else {
            comp[r]
        };
    }
    (Grid { shape, cells: comp }, next as usize)
}

/// Cells grouped by a dense label (`0..count`), each group in row-major order.
pub fn groups(labels: &Grid<u32>, count: usize) -> Vec<Vec<CellId>> {
    let mut out = vec![Vec::new(); count];
    for c in labels.shape().all() {
        out[labels[c] as usize].push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_written_one_a_line_for_columns_rows_and_grids() {
        let text = |h, w, v: Vec<u32>| {
            let mut out = String::new();
            Grid::from_vec(Shape::new(h, w), v)
                .unwrap()
                .write_rows(&mut out, |o, v| o.push_str(&v.to_string()));
            out
        };
        assert_eq!(text(3, 1, vec![1, 2, 3]), "1\n2\n3");
        assert_eq!(text(1, 3, vec![1, 2, 3]), "1 2 3");
        assert_eq!(text(2, 2, vec![1, 2, 3, 4]), "1 2\n3 4");
        assert_eq!(text(0, 1, vec![]), "");
    }

    /// Components by flood fill from each unlabelled cell in row-major order (the definition).
    fn flood(labels: &Grid<u8>) -> (Vec<u32>, usize) {
        let shape = labels.shape();
        let mut comp = vec![u32::MAX; shape.cells()];
        let mut next = 0u32;
        for start in shape.all() {
            if comp[start.index()] != u32::MAX {
                continue;
            }
            comp[start.index()] = next;
            let mut stack = vec![start];
            while let Some(c) = stack.pop() {
                for d in ORTHOGONAL {
                    if let Some(n) = shape.step(c, d) {
                        if comp[n.index()] == u32::MAX && labels[n] == labels[c] {
                            comp[n.index()] = next;
                            stack.push(n);
                        }
                    }
                }
            }
            next += 1;
        }
        (comp, next as usize)
    }

    proptest::proptest! {
        #[test]
        fn components_number_regions_as_a_flood_fill_does(
            h in 1usize..7, w in 1usize..7, seed in proptest::collection::vec(0u8..3, 36),
        ) {
            let g = Grid::from_vec(Shape::new(h, w), seed[..h * w].to_vec()).unwrap();
            let (comp, n) = components(&g);
            proptest::prop_assert_eq!((comp.as_slice().to_vec(), n), flood(&g));
        }
    }

    #[test]
    fn corner_cells_have_three_king_neighbours_and_two_orthogonal() {
        let n = Neighbours::new(Shape::new(3, 4));
        let s = n.shape();
        assert_eq!(n.king(s.id(0, 0)).len(), 3);
        assert_eq!(n.orth(s.id(0, 0)), &[s.id(0, 1), s.id(1, 0)]);
        assert_eq!(n.king(s.id(1, 1)).len(), 8);
        assert_eq!(n.orth(s.id(2, 3)).len(), 2);
    }

    #[test]
    fn components_split_disconnected_equal_labels_in_row_major_order() {
        let g = Grid::from_vec(Shape::new(2, 3), vec![5, 5, 9, 9, 5, 5]).unwrap();
        let (c, n) = components(&g);
        assert_eq!(n, 3);
        assert_eq!(c.as_slice(), &[0, 0, 1, 2, 0, 0]);
    }

    #[test]
    fn one_row_grids_step_only_sideways() {
        let s = Shape::new(1, 5);
        assert_eq!(s.step(s.id(0, 0), (-1, 0)), None);
        assert_eq!(s.step(s.id(0, 4), (0, 1)), None);
        assert_eq!(s.step(s.id(0, 2), (0, 1)), Some(s.id(0, 3)));
    }
}
