//! Lines drawn for people (`--format pretty`): box-drawing characters inside a frame, three
//! characters per cell, with optional labels on the left (row clues) and on top (column
//! clues), openings in the frame (a Path puzzle's doors), and a glyph of the genre's choice at
//! each cell (a pearl, a dot for an unused cell).
//!
//! ```text
//!     2  2  3
//!   ┌─────────┐
//! 3 │ ┌─────┐ │
//! 2 ──┘  ·  │ │
//! 2 │ ·  ┌──┘ │
//!   └────│────┘
//! ```

use super::answer::{LineGrid, E, N, S, W};
use crate::grid::CellId;

/// The box-drawing character of a cell with connections `conn` (`·` when none; `•` for a
/// one-cell line).
pub fn line_glyph(conn: u8, on_line: bool) -> char {
    match conn {
        0 if on_line => '•',
        0 => '·',
        x if x == N | S || x == N || x == S => '│',
        x if x == W | E || x == W || x == E => '─',
        x if x == S | E => '┌',
        x if x == S | W => '┐',
        x if x == N | E => '└',
        x if x == N | W => '┘',
        _ => '┼',
    }
}

/// What to draw.
pub struct Picture<'a> {
    /// The connections of each cell (a door's outward side included).
    pub lines: &'a LineGrid,
    /// The character at a cell's centre, given its connections.
    pub glyph: &'a dyn Fn(CellId, u8) -> char,
    /// Labels above the columns (empty: none).
    pub top: Vec<String>,
    /// Labels left of the rows (empty: none).
    pub left: Vec<String>,
    /// Openings in the frame: a cell on the edge and the side (`N`, `S`, `W`, `E`) it opens to.
    pub openings: Vec<(CellId, u8)>,
}

/// Draws a picture (see the module docs).
pub fn draw(p: &Picture) -> String {
    let g = p.lines;
    let shape = g.shape();
    let (h, w) = (shape.height, shape.width);
    let lw = p.left.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut out = String::with_capacity((h + 3) * (lw + 3 + 3 * w) * 3);
    let pad = |out: &mut String, n: usize| out.extend(std::iter::repeat_n(' ', n));
    let opens = |c: CellId, side: u8| p.openings.iter().any(|&(x, s)| x == c && s == side);
    if !p.top.is_empty() {
        pad(&mut out, lw + 2);
        for label in &p.top {
            pad(&mut out, 2usize.saturating_sub(label.chars().count()));
            out.push_str(label);
            out.push(' ');
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    let frame = |out: &mut String, top: bool| {
        pad(out, lw + 1);
        out.push(if top { '┌' } else { '└' });
        for c in 0..3 * w {
            let row = if top { 0 } else { h - 1 };
            let side = if top { N } else { S };
            let door = c % 3 == 1 && opens(shape.id(row, c / 3), side);
            out.push(if door { '│' } else { '─' });
        }
        out.push(if top { '┐' } else { '┘' });
        out.push('\n');
    };
    frame(&mut out, true);
    for r in 0..h {
        let label = p.left.get(r).map_or("", String::as_str);
        pad(&mut out, lw - label.chars().count());
        out.push_str(label);
        out.push(' ');
        out.push(if opens(shape.id(r, 0), W) { '─' } else { '│' });
        for c in 0..w {
            let id = shape.id(r, c);
            let k = g[id];
            out.push(if k & W != 0 { '─' } else { ' ' });
            out.push((p.glyph)(id, k));
            out.push(if k & E != 0 { '─' } else { ' ' });
        }
        out.push(if opens(shape.id(r, w - 1), E) { '─' } else { '│' });
        out.push('\n');
    }
    frame(&mut out, false);
    out
}
