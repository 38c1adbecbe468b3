//! A puzzle's board as the playground draws and edits it, described by the family
//! ([`crate::plugin::Puzzle::board`]): one page renders every genre from this description, so a
//! new genre needs no JavaScript.
//!
//! The description says what is given in each cell (a number, `?`, a pearl, a snake's end),
//! the region walls, the clues outside the grid (top: one per column, left: one per row),
//! openings in the frame (a Path puzzle's doors), and what a player enters ([`Input`]): a
//! number per cell, a shade per cell, lines between cell centres, ✕ marks on cells. It also
//! says how the player's position is written as the family's entries and answer text
//! ([`Form`]), so the page can check a position (`verify`), ask for a hint from it
//! (`hint --entries`) and show a solution on the board.
//!
//! ```
//! use pencilbox_core::board::{Board, Form, Given, Input};
//! use pencilbox_core::Shape;
//! let mut b = Board::new(Shape::new(1, 2), Input::lines(), Form::Pairs);
//! b.givens[0] = Some(Given::Pearl { black: true });
//! let json = serde_json::to_value(&b).unwrap();
//! assert_eq!(json["givens"][0], serde_json::json!({"kind": "pearl", "black": true}));
//! assert_eq!(json["input"]["lines"], true);
//! ```

use crate::grid::{CellId, Grid, Shape};
use serde::{Deserialize, Serialize};

/// What the puzzle gives in a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Given {
    /// A number (a Suguru hint, a Nurikabe island's size).
    Number {
        /// The number.
        value: u32,
    },
    /// A clue written as text (`?`).
    Text {
        /// The text.
        text: String,
    },
    /// A Masyu pearl.
    Pearl {
        /// Black (true) or white.
        black: bool,
    },
    /// An end of a line (a Snake's end).
    End,
}

/// An opening in the frame: a cell on the edge and the side it opens to (`n`, `s`, `e`, `w`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Door {
    /// Row and column (0-based).
    pub cell: [usize; 2],
    /// The side: `n`, `s`, `e` or `w`.
    pub side: char,
    /// A label (`A`, `B`).
    pub label: String,
}

/// What a player enters in a cell.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum CellInput {
    /// Nothing (line genres).
    None,
    /// A number from 1 to the cell's maximum ([`Board::max`]).
    Number,
    /// A shade: shaded, or marked unshaded (a dot).
    Shade {
        /// What a shaded cell is (`wall`, `star`, `snake`).
        yes: String,
        /// What an unshaded cell is (`island`, `empty`).
        no: String,
        /// How a shaded cell is drawn: `block`, `star` or `snake`.
        glyph: String,
    },
}

/// What a player enters.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Input {
    /// In the cells.
    pub cells: CellInput,
    /// Lines between the centres of adjacent cells.
    pub lines: bool,
    /// ✕ marks on cells a line does not use.
    pub cross: bool,
}

impl Input {
    /// Numbers in the cells.
    pub fn numbers() -> Self {
        Input {
            cells: CellInput::Number,
            lines: false,
            cross: false,
        }
    }
    /// Lines and ✕ marks.
    pub fn lines() -> Self {
        Input {
            cells: CellInput::None,
            lines: true,
            cross: true,
        }
    }
    /// Shades: shaded cells are `yes`, unshaded `no`, drawn as `glyph`.
    pub fn shade(yes: &str, no: &str, glyph: &str) -> Self {
        Input {
            cells: CellInput::Shade {
                yes: yes.into(),
                no: no.into(),
                glyph: glyph.into(),
            },
            lines: false,
            cross: false,
        }
    }
}

/// How a position is written as the family's text (entries and answers), one token per cell,
/// rows on lines, tokens separated by spaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// Numbers; an empty cell is `0` in entries.
    Numbers,
    /// `x` shaded, `-` not (answers); `o` marked unshaded and `-` nothing (entries).
    Shading,
    /// The directions a line leaves each cell (`ns`, `ew`, `ne`, …, one letter at an end, `-`
    /// none); `x` a cell marked unused (entries).
    Pairs,
}

/// A board (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Board {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// What is given in each cell, row-major.
    pub givens: Vec<Option<Given>>,
    /// Region labels, row-major (walls between different labels); empty when the genre has no
    /// regions.
    pub regions: Vec<u32>,
    /// The largest number a cell takes, row-major (numbers genres; empty otherwise).
    pub max: Vec<u32>,
    /// Clues above the columns (empty strings for none; empty when the genre has none).
    pub top: Vec<String>,
    /// Clues left of the rows.
    pub left: Vec<String>,
    /// Openings in the frame.
    pub doors: Vec<Door>,
    /// What a player enters.
    pub input: Input,
    /// How a position is written.
    pub form: Form,
    /// What the board does not show and a player needs to know, in a few words (Star
    /// Battle's `2 ★ in every row, column and region`); empty for none.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub note: String,
    /// What a setter edits (the playground's Creative Mode), when the family writes a puzzle
    /// from an edited board ([`crate::plugin::Puzzle::compose`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edit: Option<Edit>,
}

/// What a setter edits on a board, each a kind of [`Draft`] field the family reads back.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Edit {
    /// The largest number a cell may be given (0: no numbers).
    pub numbers: u32,
    /// Texts a cell may be given besides numbers (`?`).
    pub texts: Vec<String>,
    /// Pearls, white or black.
    pub pearls: bool,
    /// A line's two ends and white circles on it (Snake): a tap cycles end, circle, none.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub ends: bool,
    /// Regions, drawn by the setter.
    pub regions: bool,
    /// The clues outside the grid (above the columns, left of the rows).
    pub clues: bool,
    /// The labels of the doors a setter places on cells of the frame.
    pub doors: Vec<String>,
}

/// An edited board, as the playground sends it to be written as the family's text
/// (`POST /api/compose`): the fields of [`Board`] a setter edits, of any size. Regions are
/// labels; cells of one label that do not touch become separate regions.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct Draft {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The givens, row-major.
    pub givens: Vec<Option<Given>>,
    /// Region labels, row-major (empty: one region, or none).
    #[serde(default)]
    pub regions: Vec<u32>,
    /// Clues above the columns (empty strings: none).
    #[serde(default)]
    pub top: Vec<String>,
    /// Clues left of the rows.
    #[serde(default)]
    pub left: Vec<String>,
    /// Openings in the frame.
    #[serde(default)]
    pub doors: Vec<Door>,
}

impl Draft {
    /// The shape, after checking that the fields fit it (and that it is not empty).
    pub fn shape(&self) -> Result<Shape, crate::PuzzleError> {
        let bad = |m: String| Err(crate::PuzzleError::unsupported(m));
        if self.rows == 0 || self.cols == 0 {
            return bad(format!(
                "a grid needs rows and columns, not {}×{}",
                self.rows, self.cols
            ));
        }
        let cells = self.rows.saturating_mul(self.cols);
        if self.givens.len() != cells || !(self.regions.is_empty() || self.regions.len() == cells) {
            return bad(format!(
                "the board's cells do not fit a {}×{} grid",
                self.rows, self.cols
            ));
        }
        if !(self.top.is_empty() || self.top.len() == self.cols)
            || !(self.left.is_empty() || self.left.len() == self.rows)
        {
            return bad("the clues do not fit the grid".into());
        }
        Ok(Shape::new(self.rows, self.cols))
    }

    /// The number given in cell `i`, if any.
    pub fn number(&self, i: usize) -> Option<u32> {
        match self.givens.get(i) {
            Some(Some(Given::Number { value })) => Some(*value),
            _ => None,
        }
    }

    /// The region labels as a grid (one region when there are none).
    pub fn labels(&self) -> Result<Grid<u32>, crate::PuzzleError> {
        let shape = self.shape()?;
        let labels = if self.regions.is_empty() {
            vec![1; shape.cells()]
        } else {
            self.regions.clone()
        };
        Ok(Grid::from_vec(shape, labels).expect("checked by shape()"))
    }

    /// The clues outside the grid as numbers: above the columns, then left of the rows.
    pub fn clue_numbers(&self) -> Result<[Vec<Option<u32>>; 2], crate::PuzzleError> {
        let read = |texts: &[String], n: usize, what: &str| {
            (0..n)
                .map(|k| {
                    texts
                        .get(k)
                        .map_or(Ok(None), |t| Draft::clue(t, &format!("{what} {}", k + 1)))
                })
                .collect::<Result<Vec<_>, _>>()
        };
        Ok([
            read(&self.top, self.cols, "column")?,
            read(&self.left, self.rows, "row")?,
        ])
    }

    /// A clue outside the grid as a number (`None`: none); `what` names it in errors.
    pub fn clue(text: &str, what: &str) -> Result<Option<u32>, crate::PuzzleError> {
        let t = text.trim();
        if t.is_empty() || t == "-" {
            return Ok(None);
        }
        t.parse()
            .map(Some)
            .map_err(|_| crate::PuzzleError::unsupported(format!("{what}: expected a number, found `{t}`")))
    }
}

impl Board {
    /// An empty board of `shape`.
    pub fn new(shape: Shape, input: Input, form: Form) -> Self {
        Board {
            rows: shape.height,
            cols: shape.width,
            givens: vec![None; shape.cells()],
            regions: Vec::new(),
            max: Vec::new(),
            top: Vec::new(),
            left: Vec::new(),
            doors: Vec::new(),
            input,
            form,
            note: String::new(),
            edit: None,
        }
    }

    /// The same board with region walls between different labels.
    pub fn with_regions(mut self, labels: &Grid<u32>) -> Self {
        self.regions = labels.as_slice().to_vec();
        self
    }

    /// Sets the given of a cell.
    pub fn give(&mut self, c: CellId, g: Given) {
        self.givens[c.index()] = Some(g);
    }
}

/// Clues outside the grid as texts (`None`: no clue, an empty string).
pub fn clue_texts(clues: &[Option<u32>]) -> Vec<String> {
    clues
        .iter()
        .map(|c| c.map_or(String::new(), |v| v.to_string()))
        .collect()
}
