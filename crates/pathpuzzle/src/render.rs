//! A drawing of a configuration for people (`--format pretty`): the path in box-drawing
//! characters inside a frame with openings at the doors, the row clues on the left and the
//! column clues on top (a missing clue is left blank).
//!
//! ```text
//!     2  2  3
//!   ┌─────────┐
//! 3 │ ┌─────┐ │
//! 2 ──┘  ·  │ │
//! 2 │ ·  ┌──┘ │
//!   └────│────┘
//! ```

use crate::model::{Arrow, Configuration, PathPuzzle};
use pencilbox_core::CellId;

const N: u8 = 1;
const S: u8 = 2;
const W: u8 = 4;
const E: u8 = 8;

fn glyph(conn: u8, on_path: bool) -> char {
    match conn {
        0 if on_path => '•',
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

/// The side of the frame a door opens through: left/right edges first, then top/bottom.
fn opening(p: &PathPuzzle, (r, c): (usize, usize)) -> u8 {
    if c == 0 {
        W
    } else if c + 1 == p.width() {
        E
    } else if r == 0 {
        N
    } else {
        S
    }
}

/// Draws `a` (any configuration, solution or not) for puzzle `p`.
pub fn pretty(p: &PathPuzzle, a: &Configuration) -> String {
    let shape = p.shape();
    let (h, w) = (p.height(), p.width());
    let mut conn = vec![0u8; shape.cells()];
    let cb = p.cell_b();
    for c in shape.all() {
        let arrow = a[c];
        if arrow == Arrow::Empty || c == cb {
            continue;
        }
        if let Some(t) = shape.step(c, arrow.delta()) {
            let (out, back) = match arrow {
                Arrow::Down => (S, N),
                Arrow::Up => (N, S),
                Arrow::Left => (W, E),
                _ => (E, W),
            };
            conn[c.index()] |= out;
            conn[t.index()] |= back;
        }
    }
    let mut doors: Vec<(CellId, u8)> = Vec::new();
    for d in [p.door_a(), p.door_b()] {
        let side = opening(p, d);
        let id = shape.id(d.0, d.1);
        if a[id] != Arrow::Empty {
            doors.push((id, side));
            conn[id.index()] |= side;
        }
    }
    let clue = |c: &Option<u32>| c.map_or(String::new(), |v| v.to_string());
    let row_labels: Vec<String> = p.row_clues().iter().map(clue).collect();
    let lw = row_labels.iter().map(String::len).max().unwrap_or(0);
    // Each line: the label column (`lw + 1` wide), then the frame and 3 characters per cell.
    let mut out = String::with_capacity((h + 3) * (lw + 3 + 3 * w) * 3);
    let pad = |out: &mut String, n: usize| out.extend(std::iter::repeat_n(' ', n));
    // Column clues, the last digit above each cell's centre.
    pad(&mut out, lw + 2);
    for c in p.col_clues() {
        let label = clue(c);
        pad(&mut out, 2usize.saturating_sub(label.len()));
        out.push_str(&label);
        out.push(' ');
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    let frame = |out: &mut String, top: bool| {
        pad(out, lw + 1);
        out.push(if top { '┌' } else { '└' });
        for c in 0..3 * w {
            let door = c % 3 == 1
                && doors.iter().any(|&(id, side)| {
                    let (r, k) = shape.coords(id);
                    k == c / 3 && ((top && side == N && r == 0) || (!top && side == S && r + 1 == h))
                });
            out.push(if door { '│' } else { '─' });
        }
        out.push(if top { '┐' } else { '┘' });
        out.push('\n');
    };
    frame(&mut out, true);
    for (r, label) in row_labels.iter().enumerate() {
        pad(&mut out, lw - label.len());
        out.push_str(label);
        out.push(' ');
        let left_door = doors.iter().any(|&(id, side)| side == W && shape.coords(id) == (r, 0));
        out.push(if left_door { '─' } else { '│' });
        for c in 0..w {
            let id = shape.id(r, c);
            let k = conn[id.index()];
            out.push(if k & W != 0 { '─' } else { ' ' });
            out.push(glyph(k, a[id] != Arrow::Empty));
            out.push(if k & E != 0 { '─' } else { ' ' });
        }
        let right_door = doors
            .iter()
            .any(|&(id, side)| side == E && shape.coords(id) == (r, w - 1));
        out.push(if right_door { '─' } else { '│' });
        out.push('\n');
    }
    frame(&mut out, false);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse_configuration;

    #[test]
    fn the_figure_5_solution_is_drawn_with_openings_at_both_doors() {
        let p = PathPuzzle::parse("3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n").unwrap();
        let a = parse_configuration(&p, "r r d\nu 0 d\n0 u l").unwrap();
        let expected = "    2  2  3\n  ┌─────────┐\n3 │ ┌─────┐ │\n2 ──┘  ·  │ │\n2 │ ·  ┌──┘ │\n  └────│────┘\n";
        assert_eq!(pretty(&p, &a), expected);
    }

    #[test]
    fn missing_clues_are_blank_and_empty_grids_are_dots() {
        let p = PathPuzzle::parse("1 2\n1 1\n1 2\n\n-1\n1 -1\n").unwrap();
        let a = parse_configuration(&p, "0 0").unwrap();
        assert_eq!(pretty(&p, &a), "   1\n ┌──────┐\n │ ·  · │\n └──────┘\n");
    }
}
