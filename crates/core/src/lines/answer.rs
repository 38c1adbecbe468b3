//! A drawn line as a grid of directions: each cell holds the directions in which the line
//! leaves it (`n` up, `s` down, `e` right, `w` left). The answer format of line genres writes
//! one token per cell, separated by spaces: the two directions of a cell the line passes, as
//! exactly one of `ns`, `ew`, `ne`, `nw`, `se`, `sw`; one direction at an end of a path (`n`,
//! `s`, `e`, `w`); `-` where the line does not pass.

use crate::error::ParseError;
use crate::grid::{CellId, Grid, Shape};
use crate::scan::{shorten, Scanner};

/// Up.
pub const N: u8 = 1;
/// Down.
pub const S: u8 = 2;
/// Left.
pub const W: u8 = 4;
/// Right.
pub const E: u8 = 8;
/// The four directions with their letters and steps, in the order `n s w e`.
pub const DIRS: [(u8, char, (isize, isize)); 4] =
    [(N, 'n', (-1, 0)), (S, 's', (1, 0)), (W, 'w', (0, -1)), (E, 'e', (0, 1))];

/// The opposite direction.
pub fn opposite(d: u8) -> u8 {
    match d {
        N => S,
        S => N,
        W => E,
        _ => W,
    }
}

/// The cell one step from `c` in direction `d`.
pub fn step(shape: Shape, c: CellId, d: u8) -> Option<CellId> {
    DIRS.iter().find(|x| x.0 == d).and_then(|x| shape.step(c, x.2))
}

/// The direction from `a` to its orthogonal neighbour `b`.
pub fn toward(shape: Shape, a: CellId, b: CellId) -> Option<u8> {
    DIRS.iter().find(|x| shape.step(a, x.2) == Some(b)).map(|x| x.0)
}

/// A cell's directions as its token (`ns`, `e`, `-`), in the answer format's order: `n` or
/// `s` first, then `e` or `w`; `ns` and `ew` for straight lines.
pub fn token(dirs: u8) -> &'static str {
    match dirs {
        0 => "-",
        x if x == N | S => "ns",
        x if x == E | W => "ew",
        x if x == N | E => "ne",
        x if x == N | W => "nw",
        x if x == S | E => "se",
        x if x == S | W => "sw",
        N => "n",
        S => "s",
        E => "e",
        W => "w",
        _ => "?",
    }
}

/// The directions of a token: the letters `n s e w`, each at most once (any order), or `-`.
pub fn parse_token(t: &str) -> Option<u8> {
    if t == "-" {
        return Some(0);
    }
    let mut dirs = 0u8;
    for ch in t.chars() {
        let d = DIRS.iter().find(|x| x.1 == ch)?.0;
        if dirs & d != 0 {
            return None;
        }
        dirs |= d;
    }
    (dirs != 0).then_some(dirs)
}

/// The lines of a grid: per cell, the directions in which the line leaves it.
pub type LineGrid = Grid<u8>;

/// Reads an answer grid of `shape` (see the module docs): at most two directions per cell
/// (the answer's own consistency is the verifier's job). A leading header line of the genre
/// (`masyu R C`, as the puzzle file starts) is allowed and must match the size.
pub fn parse(text: &str, shape: Shape, keyword: &str) -> Result<LineGrid, ParseError> {
    let mut s = Scanner::new(text);
    let mut peek = s.clone();
    if peek.next_token().is_some_and(|t| t.text == keyword) {
        let at = s.clone().next_token().map(|t| t.pos);
        let (h, w) = s.header(keyword)?;
        if (h, w) != (shape.height, shape.width) {
            return Err(ParseError::new(
                at.unwrap_or(crate::error::Pos { line: 1, col: 1 }),
                format!(
                    "the answer is for a {h}×{w} grid, the puzzle is {}×{}",
                    shape.height, shape.width
                ),
            ));
        }
    }
    let cells = s.grid_rows(shape.height, shape.width, |t| match parse_token(t.text) {
        Some(d) if d.count_ones() <= 2 => Ok(d),
        _ => Err(format!(
            "expected the line's two directions (ns, ew, ne, nw, se, sw), one at an end (n, s, e, w) or - , found `{}`",
            shorten(t.text)
        )),
    })?;
    s.finish("the answer grid")?;
    Ok(Grid::from_vec(shape, cells).expect("the rows have the grid's size"))
}

/// Writes an answer grid: rows of tokens separated by single spaces, one row per line.
pub fn write(g: &LineGrid) -> String {
    let mut out = String::new();
    g.write_rows(&mut out, |o, &d| o.push_str(token(d)));
    out
}

/// The answer as JSON: rows of tokens.
pub fn json(g: &LineGrid) -> serde_json::Value {
    g.rows()
        .map(|r| r.iter().map(|&d| token(d)).collect::<Vec<_>>())
        .collect::<Vec<_>>()
        .into()
}

/// The cells whose directions differ between two line grids (`r2c3`).
pub fn differences(a: &LineGrid, b: &LineGrid) -> Vec<String> {
    crate::plugin::grid_differences(a.width(), a.as_slice(), b.as_slice())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_token_reads_back() {
        for d in 0u8..16 {
            if d.count_ones() <= 2 {
                assert_eq!(parse_token(token(d)), Some(d), "{d}");
            }
        }
        assert_eq!(parse_token("sn"), Some(N | S));
        assert_eq!(parse_token("nn"), None);
        assert_eq!(parse_token(""), None);
        assert_eq!(parse_token("x"), None);
    }

    #[test]
    fn grids_read_with_or_without_their_header_and_errors_have_positions() {
        let shape = Shape::new(2, 2);
        let g = parse("se sw\nne nw\n", shape, "masyu").unwrap();
        assert_eq!(write(&g), "se sw\nne nw");
        assert_eq!(parse("masyu 2 2\nse sw\nne nw\n", shape, "masyu").unwrap(), g);
        let e = parse("masyu 3 2\nse sw\nne nw\n", shape, "masyu").unwrap_err();
        assert_eq!(e.to_string(), "1:1: the answer is for a 3×2 grid, the puzzle is 2×2");
        let e = parse("se sw\nne nwe\n", shape, "masyu").unwrap_err();
        assert_eq!(e.pos.line, 2);
        assert_eq!(e.pos.col, 4);
    }
}
