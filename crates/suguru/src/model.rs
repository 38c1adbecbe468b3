//! The Suguru instance (paper, Definition 1) and its text formats.
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

use pencilbox_core::grid::components;
use pencilbox_core::scan::{check_dims, json_error, shorten, Scanner, Token};
use pencilbox_core::{CellId, Grid, ParseError, Pos, Shape};
use serde::{Deserialize, Serialize};

/// A Suguru instance: hints and a partition of the grid into regions (Definition 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suguru {
    hints: Grid<u32>,
    region: Grid<u32>,
    /// The cells of region `k` are `cells[start[k]..start[k + 1]]`, row-major (flat, so
    /// million-cell grids stay cache friendly).
    cells: Vec<CellId>,
    start: Vec<u32>,
}

/// A filled grid (a configuration in the paper's words); `0` = empty.
pub type Solution = Grid<u32>;

/// Why a grid of hints and labels is not a Suguru instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// The two grids differ in shape.
    ShapeMismatch,
    /// A hint exceeds its region's size (Definition 1).
    HintTooLarge {
        /// The cell.
        cell: CellId,
        /// The hint.
        hint: u32,
        /// The size of its region.
        size: usize,
    },
}

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
        if hints.shape() != labels.shape() {
            return Err(ModelError::ShapeMismatch);
        }
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
        for c in hints.shape().all() {
            let k = region[c] as usize;
            cells[fill[k] as usize] = c;
            fill[k] += 1;
        }
        for c in hints.shape().all() {
            let k = region[c] as usize;
            let size = (start[k + 1] - start[k]) as usize;
            if hints[c] as usize > size {
                return Err(ModelError::HintTooLarge {
                    cell: c,
                    hint: hints[c],
                    size,
                });
            }
        }
        Ok(Suguru {
            hints,
            region,
            cells,
            start,
        })
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
    /// The normalised region (0-based, row-major order of first cells) of every cell.
    pub fn region_grid(&self) -> &Grid<u32> {
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
    pub fn regions(&self) -> impl ExactSizeIterator<Item = &[CellId]> + '_ {
        (0..self.num_regions()).map(|k| self.region(k))
    }
    /// Number of regions `R`.
    pub fn num_regions(&self) -> usize {
        self.start.len() - 1
    }
    /// Size of region `k`.
    pub fn region_size(&self, k: usize) -> usize {
        (self.start[k + 1] - self.start[k]) as usize
    }
    /// Size of the region of `c`.
    pub fn region_size_of(&self, c: CellId) -> usize {
        self.region_size(self.region_of(c))
    }
    /// The largest region size.
    pub fn max_region_size(&self) -> usize {
        (0..self.num_regions()).map(|k| self.region_size(k)).max().unwrap_or(0)
    }
    /// Number of hint cells `H`.
    pub fn num_hints(&self) -> usize {
        self.hints.as_slice().iter().filter(|&&h| h != 0).count()
    }
    /// The same regions with other hints.
    pub fn with_hints(&self, hints: Grid<u32>) -> Result<Self, ModelError> {
        Suguru::new(hints, &self.region)
    }
    /// The instance with rows and columns swapped (used to run the `1×n` algorithm on `m×1`).
    pub fn transposed(&self) -> Suguru {
        let s = self.shape();
        let t = Shape::new(s.width, s.height);
        let tr = |g: &Grid<u32>| {
            let v = t.all().map(|c| {
                let (r, col) = t.coords(c);
                g[s.id(col, r)]
            });
            Grid::from_vec(t, v.collect()).expect("same cell count")
        };
        Suguru::new(tr(&self.hints), &tr(&self.region)).expect("transposing keeps hints valid")
    }

    /// The paper-repository text (`m n`, hints, labels `1..=R`), ending with a newline.
    pub fn to_text(&self) -> String {
        let s = self.shape();
        let mut out = format!("{} {}\n", s.height, s.width);
        out.push_str(&self.hints.to_text());
        out.push('\n');
        out.push_str(&self.region.map(|r| r + 1).to_text());
        out.push('\n');
        out
    }

    /// The JSON form.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(JsonSuguru {
            height: self.shape().height,
            width: self.shape().width,
            hints: self.hints.to_rows(),
            regions: self.region.map(|r| i64::from(*r) + 1).to_rows(),
        })
        .unwrap_or(serde_json::Value::Null)
    }
}

impl std::fmt::Display for Suguru {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// The serde shape of the JSON format.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonSuguru {
    height: usize,
    width: usize,
    hints: Vec<Vec<u32>>,
    regions: Vec<Vec<i64>>,
}

/// The word for a row/column count, for messages.
fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// Reads one row of `width` numbers that must sit on one line, with clear messages for short and long rows.
fn read_row<'a>(
    sc: &mut Scanner<'a>,
    width: usize,
    what: &str,
    row: usize,
    mut each: impl FnMut(Token<'a>) -> Result<(), ParseError>,
) -> Result<(), ParseError> {
    // At the end of the input `next_token` leaves the scanner at the end position, so that is
    // where a missing number is reported.
    let Some(first) = sc.next_token() else {
        return Err(ParseError::new(
            sc.pos(),
            format!("expected row {row} of the {what}, found the end of the input"),
        ));
    };
    let line = first.pos.line;
    each(first)?;
    for j in 1..width {
        let tok = match sc.next_token() {
            Some(t) if t.pos.line == line => t,
            Some(t) => {
                return Err(ParseError::new(
                    t.pos,
                    format!(
                        "row {row} of the {what} has {} but the grid is {} wide",
                        plural(j, "number"),
                        width
                    ),
                ))
            }
            None => {
                return Err(ParseError::new(
                    sc.pos(),
                    format!(
                        "expected {} more {} in row {row} of the {what}, found the end of the input",
                        width - j,
                        if width - j == 1 { "number" } else { "numbers" }
                    ),
                ))
            }
        };
        each(tok)?;
    }
    if let Some(t) = sc.clone().next_token() {
        if t.pos.line == line {
            return Err(ParseError::new(
                t.pos,
                format!(
                    "row {row} of the {what} has more than {width} numbers (found `{}`)",
                    shorten(t.text)
                ),
            ));
        }
    }
    Ok(())
}

/// Parses the paper-repository format. Positions in errors are 1-based line:column of `text`.
///
/// ```
/// let p = pencilbox_suguru::parse("1 3\n0 0 1\n1 1 2\n").unwrap();
/// assert_eq!(p.num_regions(), 2);
/// let e = pencilbox_suguru::parse("1 3\n0 0 2\n1 1 2\n").unwrap_err();
/// assert_eq!(e.to_string(), "2:5: hint 2 is larger than its region (r1c3 is in a region of 1 cell)");
/// ```
pub fn parse(text: &str) -> Result<Suguru, ParseError> {
    let trimmed = text.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with('{') {
        return parse_json(text);
    }
    if trimmed.starts_with("http") || trimmed.contains("p?suguru") || trimmed.contains("p.html?suguru") {
        return crate::puzzlink::parse_url(text);
    }
    let mut sc = Scanner::new(text);
    if sc.at_end() {
        return Err(ParseError::new(
            Pos::START,
            "the input is empty; expected `height width` followed by hint rows and region rows",
        ));
    }
    let (h, w) = sc.dims()?;
    if let Some(t) = sc.clone().next_token() {
        if t.pos.line == 1 {
            return Err(ParseError::new(
                t.pos,
                format!(
                    "the first line must hold only `height width`; found `{}`",
                    shorten(t.text)
                ),
            ));
        }
    }
    let shape = Shape::new(h, w);
    let mut hints = Vec::with_capacity(shape.cells());
    let mut hint_pos = Vec::with_capacity(shape.cells());
    for r in 1..=h {
        read_row(&mut sc, w, "hints", r, |t| {
            let v = pencilbox_core::scan::parse_int::<i64>(t, "a hint")?;
            if v < 0 {
                return Err(ParseError::new(
                    t.pos,
                    format!("hint {v} is negative; hints are 0 (empty) or 1..region size"),
                ));
            }
            if v > shape.cells() as i64 {
                return Err(ParseError::new(
                    t.pos,
                    format!("hint {v} is larger than the whole grid ({} cells)", shape.cells()),
                ));
            }
            hints.push(v as u32);
            hint_pos.push(t.pos);
            Ok(())
        })?;
    }
    let mut labels: Vec<i64> = Vec::with_capacity(shape.cells());
    for r in 1..=h {
        let res = read_row(&mut sc, w, "region labels", r, |t| {
            labels.push(pencilbox_core::scan::parse_int::<i64>(t, "a region label")?);
            Ok(())
        });
        if let Err(e) = res {
            if e.message.contains("found the end of the input") && labels.len() == (r - 1) * w {
                return Err(ParseError::new(
                    e.pos,
                    format!(
                        "missing region rows: found {} of {h}; after the {h} hint rows come {h} rows of region labels",
                        r - 1
                    ),
                ));
            }
            return Err(e);
        }
    }
    sc.finish("the region rows")?;
    let hints = Grid::from_vec(shape, hints).expect("row lengths checked");
    let labels = Grid::from_vec(shape, labels).expect("row lengths checked");
    Suguru::new(hints, &labels).map_err(|e| model_error(e, shape, |c| hint_pos[c.index()]))
}

fn model_error(e: ModelError, shape: Shape, pos: impl Fn(CellId) -> Pos) -> ParseError {
    match e {
        ModelError::ShapeMismatch => ParseError::new(Pos::START, "the hint and region grids differ in shape"),
        ModelError::HintTooLarge { cell, hint, size } => ParseError::new(
            pos(cell),
            format!(
                "hint {hint} is larger than its region ({} is in a region of {})",
                shape.name(cell),
                plural(size, "cell")
            ),
        ),
    }
}

/// Parses the JSON format (serde); errors carry serde's line and column.
pub fn parse_json(text: &str) -> Result<Suguru, ParseError> {
    let j: JsonSuguru = serde_json::from_str(text).map_err(|e| json_error(text, &e, "not a Suguru JSON object"))?;
    let (h, w) = check_dims(j.height as i64, j.width as i64, Pos::START, Pos::START)?;
    let shape = Shape::new(h, w);
    let hints_ok = j.hints.len() == h && j.hints.iter().all(|r| r.len() == w);
    let regions_ok = j.regions.len() == h && j.regions.iter().all(|r| r.len() == w);
    if !hints_ok || !regions_ok {
        return Err(ParseError::new(
            Pos::START,
            format!("`hints` and `regions` must both be {h} rows of {w} numbers"),
        ));
    }
    let hints = Grid::from_vec(shape, j.hints.concat()).expect("checked");
    let labels = Grid::from_vec(shape, j.regions.concat()).expect("checked");
    Suguru::new(hints, &labels).map_err(|e| model_error(e, shape, |_| Pos::START))
}

/// Parses an answer (`m` lines of `n` values, `0` = empty) for a puzzle of the given shape.
pub fn parse_answer(text: &str, shape: Shape) -> Result<Solution, ParseError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('[') || trimmed.starts_with('{') {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| json_error(text, &e, "bad JSON"))?;
        let rows = v.get("solution").cloned().unwrap_or(v);
        let rows: Vec<Vec<u32>> = serde_json::from_value(rows)
            .map_err(|e| ParseError::new(Pos::START, format!("expected rows of whole numbers: {e}")))?;
        if rows.len() != shape.height || rows.iter().any(|r| r.len() != shape.width) {
            return Err(ParseError::new(
                Pos::START,
                format!("expected {} rows of {} values", shape.height, shape.width),
            ));
        }
        return Ok(Grid::from_vec(shape, rows.concat()).expect("checked"));
    }
    let mut sc = Scanner::new(text);
    if sc.at_end() {
        return Err(ParseError::new(
            Pos::START,
            format!(
                "the solution is empty; expected {} rows of {} values",
                shape.height, shape.width
            ),
        ));
    }
    let mut vals = Vec::with_capacity(shape.cells());
    for r in 1..=shape.height {
        read_row(&mut sc, shape.width, "solution", r, |t| {
            let v = pencilbox_core::scan::parse_int::<i64>(t, "a value")?;
            if v < 0 || v > u32::MAX as i64 {
                return Err(ParseError::new(
                    t.pos,
                    format!("value {v} is not a cell value (0 = empty, otherwise 1..region size)"),
                ));
            }
            vals.push(v as u32);
            Ok(())
        })?;
    }
    sc.finish("the solution rows")?;
    Ok(Grid::from_vec(shape, vals).expect("row lengths checked"))
}

/// A cheap test: does `text` look like a Suguru file (the repository format, JSON with
/// `regions`, or a puzz.link `suguru` URL)?
///
/// Accepts `m n` followed by exactly `2m` rows of `n` integers each, one row per line; this
/// rejects Path-puzzle files (their door lines have 2 numbers and a blank line precedes clues)
/// and one-line Sudoku strings.
pub fn detect(text: &str) -> bool {
    let t = text.trim_start_matches('\u{feff}').trim();
    if t.starts_with('{') {
        return t.contains("\"regions\"") && t.contains("\"hints\"");
    }
    if t.contains("?suguru/") {
        return true;
    }
    let mut lines = t.lines();
    let Some(first) = lines.next() else {
        return false;
    };
    let dims: Vec<&str> = first.split_whitespace().collect();
    let (Some(h), Some(w)) = (
        dims.first().and_then(|x| x.parse::<usize>().ok()),
        dims.get(1).and_then(|x| x.parse::<usize>().ok()),
    ) else {
        return false;
    };
    if dims.len() != 2 || h == 0 || w == 0 {
        return false;
    }
    let mut rows = 0usize;
    for line in lines {
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks.is_empty() {
            return false; // blank lines separate sections in other formats
        }
        if toks.len() != w || !toks.iter().all(|x| x.parse::<i64>().is_ok()) {
            return false;
        }
        rows += 1;
        if rows > 2 * h {
            return false;
        }
    }
    rows == 2 * h
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let e = parse_answer("1 2\n3\n", s).unwrap_err();
        assert_eq!(e.pos, Pos { line: 3, col: 1 });
        let e = parse_answer("1 2 3\n3 4\n", s).unwrap_err();
        assert_eq!(e.pos, Pos { line: 1, col: 5 });
    }
}
