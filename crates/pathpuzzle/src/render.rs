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
use pencilbox_core::lines::answer::{LineGrid, E, N, S, W};
use pencilbox_core::lines::draw::{draw, line_glyph, Picture};

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

/// Draws `a` (any configuration, solution or not) for puzzle `p` with core's line drawing
/// ([`pencilbox_core::lines::draw`]): the arrows become connections, a door on the path opens
/// the frame.
pub fn pretty(p: &PathPuzzle, a: &Configuration) -> String {
    let shape = p.shape();
    let mut conn = links(p, a);
    let mut openings = Vec::new();
    for d in [p.door_a(), p.door_b()] {
        let side = opening(p, d);
        let id = shape.id(d.0, d.1);
        if a[id] != Arrow::Empty {
            openings.push((id, side));
            conn[id] |= side;
        }
    }
    let clue = |c: &Option<u32>| c.map_or(String::new(), |v| v.to_string());
    let glyph = |c, k| line_glyph(k, a[c] != Arrow::Empty);
    draw(&Picture {
        lines: &conn,
        glyph: &glyph,
        top: p.col_clues().iter().map(clue).collect(),
        left: p.row_clues().iter().map(clue).collect(),
        openings,
    })
}

/// The links between cells of a configuration as core's line grid (the directions each cell
/// is left in; the doors' openings not included): the playground's position of a solution.
pub fn links(p: &PathPuzzle, a: &Configuration) -> LineGrid {
    let shape = p.shape();
    let mut conn = LineGrid::filled(shape, 0);
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
            conn[c] |= out;
            conn[t] |= back;
        }
    }
    conn
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
