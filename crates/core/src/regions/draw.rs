//! Region grids for people: numbers inside `+---+` corners with walls (`|`, `---`) between
//! regions, as `--format pretty` prints them.

use super::Regions;
use crate::grid::Grid;
use crate::puzzle::{Render, Rendered};

/// A filled grid as a solve report carries it: the answer-file text (rows of numbers, see
/// [`Grid::to_text`]), the drawing with region walls ([`draw`]) and JSON rows.
pub fn render(regions: &Regions, s: &Grid<u32>) -> Rendered {
    render_as(regions, s, Render::All)
}

/// The forms of [`render`] that `what` asks for (the others empty).
pub fn render_as(regions: &Regions, s: &Grid<u32>, what: Render) -> Rendered {
    Rendered {
        text: if what.text() { s.numbers_text() } else { String::new() },
        pretty: if what.pretty() { draw(regions, s) } else { String::new() },
        json: if what.json() {
            serde_json::Value::Array(
                s.rows()
                    .map(|row| serde_json::Value::Array(row.iter().map(|&v| v.into()).collect()))
                    .collect(),
            )
        } else {
            serde_json::Value::Null
        },
    }
}

/// Draws the values of `s` (`0` as `.`) with walls between regions, every column as wide as
/// the widest number.
///
/// ```
/// use pencilbox_core::{regions::{draw, Regions}, Grid, Shape};
/// let s = Shape::new(2, 2);
/// let regions = Regions::new(&Grid::from_vec(s, vec![1, 1, 2, 1]).unwrap());
/// let drawing = draw(&regions, &Grid::from_vec(s, vec![1, 3, 1, 2]).unwrap());
/// assert_eq!(drawing, "+---+---+\n| 1   3 |\n+---+   +\n| 1 | 2 |\n+---+---+\n");
/// ```
pub fn draw(regions: &Regions, s: &Grid<u32>) -> String {
    let shape = regions.shape();
    let reg = regions.grid();
    let w = s
        .as_slice()
        .iter()
        .map(|v| v.checked_ilog10().unwrap_or(0) as usize + 1)
        .max()
        .unwrap_or(1);
    let dash = "-".repeat(w + 2);
    let blank = " ".repeat(w + 2);
    let mut out = String::with_capacity((2 * shape.height + 1) * (shape.width * (w + 3) + 2));
    for r in 0..=shape.height {
        out.push('+');
        for c in 0..shape.width {
            let wall = r == 0 || r == shape.height || reg.at(r - 1, c) != reg.at(r, c);
            out.push_str(if wall { &dash } else { &blank });
            out.push('+');
        }
        out.push('\n');
        if r == shape.height {
            break;
        }
        out.push('|');
        for c in 0..shape.width {
            let v = *s.at(r, c);
            out.push(' ');
            if v == 0 {
                out.extend(std::iter::repeat_n(' ', w - 1));
                out.push('.');
            } else {
                let digits = v.checked_ilog10().unwrap_or(0) as usize + 1;
                out.extend(std::iter::repeat_n(' ', w - digits));
                // The digits, most significant first (no formatting machinery: this runs for
                // every cell of every solution reported).
                for k in (0..digits as u32).rev() {
                    out.push(char::from(b'0' + (v / 10u32.pow(k) % 10) as u8));
                }
            }
            out.push(' ');
            let wall = c + 1 == shape.width || reg.at(r, c) != reg.at(r, c + 1);
            out.push(if wall { '|' } else { ' ' });
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Shape;

    #[test]
    fn empty_cells_are_dots_and_columns_are_as_wide_as_the_widest_number() {
        let s = Shape::new(1, 3);
        let regions = Regions::new(&Grid::from_vec(s, vec![4, 4, 6]).unwrap());
        let drawing = draw(&regions, &Grid::from_vec(s, vec![0, 12, 3]).unwrap());
        assert_eq!(drawing, "+----+----+----+\n|  .   12 |  3 |\n+----+----+----+\n");
    }

    #[test]
    fn a_rendered_grid_carries_text_drawing_and_json_rows() {
        let s = Shape::new(2, 1);
        let regions = Regions::new(&Grid::filled(s, 0));
        let r = render(&regions, &Grid::from_vec(s, vec![2, 1]).unwrap());
        assert_eq!(r.text, "2\n1");
        assert_eq!(r.pretty, "+---+\n| 2 |\n+   +\n| 1 |\n+---+\n");
        assert_eq!(r.json, serde_json::json!([[2], [1]]));
    }
}
