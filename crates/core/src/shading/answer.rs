//! A shading as an answer: rows of `x` (shaded: a wall, a star, a snake cell) and `-`
//! (unshaded), separated by spaces; and a player's entries: `x` shaded, `o` marked unshaded,
//! `-` (or `.`) nothing yet.

use crate::error::{ParseError, Pos};
use crate::grid::{Grid, Shape};
use crate::scan::{shorten, Scanner};

/// A shading: `true` = shaded.
pub type Shading = Grid<bool>;

/// A player's entries: `Some(true)` shaded, `Some(false)` marked unshaded, `None` nothing.
pub type Entries = Grid<Option<bool>>;

/// Reads the optional header `keyword R C` (as the puzzle file starts; its size must match).
fn header(s: &mut Scanner, shape: Shape, keyword: &str) -> Result<(), ParseError> {
    if s.clone().next_token().is_some_and(|t| t.text == keyword) {
        let at = s.clone().next_token().map_or(Pos { line: 1, col: 1 }, |t| t.pos);
        let (h, w) = s.header(keyword)?;
        if (h, w) != (shape.height, shape.width) {
            return Err(ParseError::new(
                at,
                format!(
                    "the answer is for a {h}×{w} grid, the puzzle is {}×{}",
                    shape.height, shape.width
                ),
            ));
        }
    }
    Ok(())
}

/// Reads an answer grid of `shape`: `x` shaded, `-` unshaded.
pub fn parse(text: &str, shape: Shape, keyword: &str) -> Result<Shading, ParseError> {
    let mut s = Scanner::new(text);
    header(&mut s, shape, keyword)?;
    let cells = s.grid_rows(shape.height, shape.width, |t| match t.text {
        "x" => Ok(true),
        "-" => Ok(false),
        o => Err(format!("expected x (shaded) or - (not), found `{}`", shorten(o))),
    })?;
    s.finish("the answer grid")?;
    Ok(Grid::from_vec(shape, cells).expect("sized"))
}

/// Reads a player's entries (see the module docs).
pub fn parse_entries(text: &str, shape: Shape, keyword: &str) -> Result<Entries, ParseError> {
    let mut s = Scanner::new(text);
    header(&mut s, shape, keyword)?;
    let cells = s.grid_rows(shape.height, shape.width, |t| match t.text {
        "x" => Ok(Some(true)),
        "o" => Ok(Some(false)),
        "-" | "." => Ok(None),
        o => Err(format!(
            "expected x (shaded), o (marked not shaded) or - (nothing), found `{}`",
            shorten(o)
        )),
    })?;
    s.finish("the entries")?;
    Ok(Grid::from_vec(shape, cells).expect("sized"))
}

/// The entries a `solution` does not have, as facts (`r2c3` = the entry's name of
/// `values`).
pub fn wrong(entries: &Entries, solution: &Shading, values: [&str; 2]) -> Vec<crate::human::Fact> {
    let shape = entries.shape();
    shape
        .all()
        .filter_map(|c| {
            let v = entries[c]?;
            (v != solution[c]).then(|| crate::human::Fact {
                cell: shape.name(c),
                value: values[usize::from(v)].to_string(),
            })
        })
        .collect()
}

/// Fixes a player's `entries` on the cells' variables (row-major; [`TRUE`](crate::engine::TRUE)
/// = shaded), `values` naming the two colours: for hints from a position. `Err` names the
/// first entry that breaks a rule at once.
pub fn fix_entries(
    e: &mut crate::engine::Engine,
    cells: &[crate::engine::VarId],
    values: [&str; 2],
    entries: &Entries,
) -> Result<(), String> {
    use crate::engine::{FALSE, TRUE};
    let shape = entries.shape();
    for c in shape.all() {
        let Some(v) = entries[c] else { continue };
        if e.assign(cells[c.index()], if v { TRUE } else { FALSE }).is_err() {
            return Err(format!(
                "the entry {} at {} breaks a rule at once",
                values[usize::from(v)],
                shape.name(c)
            ));
        }
    }
    Ok(())
}

/// Writes an answer: rows of `x` / `-`.
pub fn write(g: &Shading) -> String {
    let mut out = String::new();
    g.write_rows(&mut out, |o, &v| o.push(if v { 'x' } else { '-' }));
    out
}

/// The answer as JSON: rows of `"x"` / `"-"`.
pub fn json(g: &Shading) -> serde_json::Value {
    g.rows()
        .map(|r| r.iter().map(|&v| if v { "x" } else { "-" }).collect::<Vec<_>>())
        .collect::<Vec<_>>()
        .into()
}

/// A shading in the forms `what` asks for; the drawing made only when asked.
pub fn rendered(g: &Shading, what: crate::puzzle::Render, pretty: impl FnOnce() -> String) -> crate::puzzle::Rendered {
    crate::puzzle::Rendered {
        text: if what.text() { write(g) } else { String::new() },
        pretty: if what.pretty() { pretty() } else { String::new() },
        json: if what.json() { json(g) } else { serde_json::Value::Null },
    }
}

/// Writes the [`crate::plugin::Puzzle`] methods of a shading genre whose answer is a
/// [`Shading`] (`parse_solution`, `differences`, `dimensions`, `with_entries`,
/// `wrong_entries`), given its keyword, its shape method, how entries are stored
/// (`self.$entries: Option<Entries>`) and the names of its two colours. Use inside
/// `impl Puzzle`.
#[macro_export]
macro_rules! shading_genre_methods {
    ($keyword:expr, $shape:ident, $entries:ident, $values:expr) => {
        fn parse_solution(&self, text: &str) -> Result<$crate::shading::Shading, $crate::ParseError> {
            $crate::shading::answer::parse(text, self.$shape(), $keyword)
        }
        fn differences(&self, a: &$crate::shading::Shading, b: &$crate::shading::Shading) -> Vec<String> {
            $crate::plugin::grid_differences(a.width(), a.as_slice(), b.as_slice())
        }
        fn dimensions(&self) -> (usize, usize) {
            (self.$shape().height, self.$shape().width)
        }
        fn render(&self, s: &$crate::shading::Shading) -> $crate::Rendered {
            self.render_as(s, $crate::Render::All)
        }
        fn with_entries(&self, entries: &str) -> Result<Self, $crate::PuzzleError> {
            let x = $crate::shading::answer::parse_entries(entries, self.$shape(), $keyword)
                .map_err($crate::PuzzleError::Solution)?;
            let mut p = self.clone();
            p.$entries = Some(x);
            Ok(p)
        }
        fn wrong_entries(
            &self,
            entries: &str,
            solution: &$crate::shading::Shading,
        ) -> Option<Vec<$crate::human::Fact>> {
            let x = $crate::shading::answer::parse_entries(entries, self.$shape(), $keyword).ok()?;
            Some($crate::shading::answer::wrong(&x, solution, $values))
        }
    };
}
