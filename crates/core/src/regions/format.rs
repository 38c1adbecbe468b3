//! The text and JSON forms of a region [`Board`], answers, and a cheap detector.
//!
//! # Text
//! ```text
//! [keyword] m n
//! m lines of n hints (0 = empty cell)
//! m lines of n region labels
//! ```
//! The keyword is the family's [`Family::keyword`] (`ripple 6 6`); without one the first line
//! is the plain `m n` of the paper repository's Suguru files. Region labels are any whole
//! numbers, normalised as [`Regions::new`](super::Regions::new) says; they are written back as
//! `1..=R`. Every row must sit on one line. A hint must lie in `0..=s` where `s` is the size of
//! its region; anything else is a [`ParseError`] at the hint's line and column.
//!
//! # JSON
//! `{"height": m, "width": n, "hints": [[..]], "regions": [[..]]}`.
//!
//! # Answers
//! `m` lines of `n` values, `0` for an empty cell, or the same rows as JSON, bare or as
//! `{"solution": [[..]]}` ([`parse_answer`]).

use super::{Board, BoardError, Family};
use crate::error::{ParseError, Pos};
use crate::grid::{CellId, Grid, Shape};
use crate::scan::{check_dims, json_error, parse_int, shorten, Scanner, Token};
use serde::{Deserialize, Serialize};

/// The serde shape of the JSON form.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonBoard {
    height: usize,
    width: usize,
    hints: Vec<Vec<u32>>,
    regions: Vec<Vec<i64>>,
}

/// `1 cell`, `2 cells`: a count and its noun, for messages.
pub(crate) fn plural(n: usize, one: &str) -> String {
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
        // A row that ends early is reported at its own end, not where the next token is.
        let before = sc.clone();
        let tok = match sc.next_token() {
            Some(t) if t.pos.line == line => t,
            Some(_) => {
                return Err(ParseError::new(
                    before.line_end(),
                    format!(
                        "row {row} of the {what} has {} but the grid is {} wide",
                        plural(j, "number"),
                        width
                    ),
                ))
            }
            None => {
                return Err(ParseError::new(
                    before.line_end(),
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

/// A [`BoardError`] as a parse error; `pos` says where a cell's hint was read.
fn board_error(e: BoardError, shape: Shape, pos: impl Fn(CellId) -> Pos) -> ParseError {
    match e {
        BoardError::ShapeMismatch => ParseError::new(Pos::START, "the hint and region grids differ in shape"),
        BoardError::HintTooLarge { cell, hint, size } => ParseError::new(
            pos(cell),
            format!(
                "hint {hint} is larger than its region ({} is in a region of {})",
                shape.name(cell),
                plural(size, "cell")
            ),
        ),
    }
}

impl Family {
    /// What the first line holds, for messages: `height width` or `ripple height width`.
    fn header(&self) -> String {
        match self.keyword {
            Some(k) => format!("{k} height width"),
            None => "height width".to_string(),
        }
    }

    /// Parses any form: JSON when the text starts with `{`, a puzz.link URL when it starts with
    /// `http` or names the genre, and the text format otherwise. Positions in errors are
    /// 1-based line:column of `text`.
    pub fn parse(&self, text: &str) -> Result<Board, ParseError> {
        let trimmed = text.trim_start_matches('\u{feff}').trim_start();
        if trimmed.starts_with('{') {
            return self.parse_json(text);
        }
        if trimmed.starts_with("http")
            || trimmed.contains(&format!("p?{}", self.genre))
            || trimmed.contains(&format!("p.html?{}", self.genre))
        {
            return self.parse_url(text);
        }
        self.parse_text(text)
    }

    /// Parses the text format (see the module docs).
    ///
    /// ```
    /// use pencilbox_core::regions::Family;
    /// let f = Family { name: "Ripple Effect", keyword: Some("ripple"), genre: "ripple" };
    /// let e = f.parse_text("1 2\n0 0\n1 1\n").unwrap_err();
    /// assert_eq!(e.to_string(), "1:1: expected `ripple height width` on the first line, found `1`");
    /// let e = f.parse_text("ripple 1 3\n0 0 3\n1 1 2\n").unwrap_err();
    /// assert_eq!(e.to_string(), "2:5: hint 3 is larger than its region (r1c3 is in a region of 1 cell)");
    /// ```
    pub fn parse_text(&self, text: &str) -> Result<Board, ParseError> {
        self.parse_text_with(text, true)
    }

    /// [`Family::parse_text`], with or without the fast path for plain rows (tests compare
    /// the two).
    fn parse_text_with(&self, text: &str, fast_rows: bool) -> Result<Board, ParseError> {
        let header = self.header();
        let mut sc = Scanner::new(text);
        if sc.at_end() {
            return Err(ParseError::new(
                Pos::START,
                format!("the input is empty; expected `{header}` followed by hint rows and region rows"),
            ));
        }
        if let Some(keyword) = self.keyword {
            let t = sc.expect(&format!("`{header}`"))?;
            if t.text != keyword {
                return Err(ParseError::new(
                    t.pos,
                    format!("expected `{header}` on the first line, found `{}`", shorten(t.text)),
                ));
            }
        }
        let (h, w) = sc.dims()?;
        if let Some(t) = sc.clone().next_token() {
            if t.pos.line == 1 {
                return Err(ParseError::new(
                    t.pos,
                    format!("the first line must hold only `{header}`; found `{}`", shorten(t.text)),
                ));
            }
        }
        let shape = Shape::new(h, w);
        // The fast path reads plain rows of small numbers; anything it does not take (and any
        // board it cannot build) is read again below, token by token, for the exact message.
        let max_hint = u32::try_from(shape.cells()).unwrap_or(u32::MAX);
        let (mut fast, mut fast_labels) = (Vec::with_capacity(shape.cells()), Vec::with_capacity(shape.cells()));
        let mut fast_sc = sc.clone();
        if fast_rows
            && fast_sc.uint_rows(h, w, max_hint, &mut fast)
            && fast_sc.uint_rows(h, w, u32::MAX, &mut fast_labels)
            && fast_sc.at_end()
        {
            let hints = Grid::from_vec(shape, fast).expect("row lengths checked");
            let labels = Grid::from_vec(shape, fast_labels).expect("row lengths checked");
            if let Ok(board) = Board::new(hints, &labels) {
                return Ok(board);
            }
        }
        let mut hints = Vec::with_capacity(shape.cells());
        let mut hint_pos = Vec::with_capacity(shape.cells());
        for r in 1..=h {
            read_row(&mut sc, w, "hints", r, |t| {
                let v = parse_int::<i64>(t, "a hint")?;
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
                labels.push(parse_int::<i64>(t, "a region label")?);
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
        Board::new(hints, &labels).map_err(|e| board_error(e, shape, |c| hint_pos[c.index()]))
    }

    /// Parses the JSON form; errors carry serde's line and column (in characters).
    pub fn parse_json(&self, text: &str) -> Result<Board, ParseError> {
        let j: JsonBoard = serde_json::from_str(text)
            .map_err(|e| json_error(text, &e, &format!("not a {} JSON object", self.name)))?;
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
        Board::new(hints, &labels).map_err(|e| board_error(e, shape, |_| Pos::START))
    }

    /// The text form (header, hints, labels `1..=R`), ending with a newline.
    pub fn to_text(&self, b: &Board) -> String {
        let s = b.shape();
        let mut out = match self.keyword {
            Some(k) => format!("{k} {} {}\n", s.height, s.width),
            None => format!("{} {}\n", s.height, s.width),
        };
        out.push_str(&b.hints().to_text());
        out.push('\n');
        out.push_str(&b.regions().grid().map(|r| r + 1).to_text());
        out.push('\n');
        out
    }

    /// The JSON form (region labels `1..=R`).
    pub fn to_json(&self, b: &Board) -> serde_json::Value {
        serde_json::to_value(JsonBoard {
            height: b.shape().height,
            width: b.shape().width,
            hints: b.hints().to_rows(),
            regions: b.regions().grid().map(|r| i64::from(*r) + 1).to_rows(),
        })
        .unwrap_or(serde_json::Value::Null)
    }

    /// A cheap test: does `text` look like one of this family's boards (the text format, JSON
    /// with `hints` and `regions`, or a puzz.link URL of the genre)?
    ///
    /// The text must be the header (with the keyword, if any) followed by exactly `2m` rows of
    /// `n` integers, one row per line; this refuses Path-puzzle files (their door lines have 2
    /// numbers and a blank line precedes the clues) and one-line Sudoku strings. JSON carries no
    /// family, so every family without a keyword of its own accepts the same JSON.
    pub fn detect(&self, text: &str) -> bool {
        let t = text.trim_start_matches('\u{feff}').trim();
        if t.starts_with('{') {
            return t.contains("\"regions\"") && t.contains("\"hints\"");
        }
        if t.contains(&format!("?{}/", self.genre)) {
            return true;
        }
        let (first, body) = t.split_once('\n').unwrap_or((t, ""));
        let mut dims: Vec<&str> = first.split_whitespace().take(4).collect();
        if let Some(k) = self.keyword {
            if dims.first() != Some(&k) {
                return false;
            }
            dims.remove(0);
        }
        let (Some(h), Some(w)) = (
            dims.first().and_then(|x| x.parse::<usize>().ok()),
            dims.get(1).and_then(|x| x.parse::<usize>().ok()),
        ) else {
            return false;
        };
        if dims.len() != 2 || h == 0 || w == 0 {
            return false;
        }
        // Blank lines separate sections in other formats: every line must hold `w` integers.
        let rows = h.saturating_mul(2);
        integer_rows(body, w, rows) == Some(rows)
    }
}

/// [`integer_rows`] line by line with the standard library's splitting and parsing (for
/// texts that are not ASCII, and as the tests' reference).
fn integer_rows_by_lines(text: &str, w: usize, max_rows: usize) -> Option<usize> {
    let mut rows = 0;
    for line in text.lines() {
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks.len() != w || !toks.iter().all(|x| x.parse::<i64>().is_ok()) {
            return None;
        }
        rows += 1;
        if rows > max_rows {
            return None;
        }
    }
    Some(rows)
}

/// Whitespace as `str::split_whitespace` sees it, for ASCII bytes.
fn is_space(c: u8) -> bool {
    c.is_ascii_whitespace() || c == 0x0b
}

/// The number of lines of `text` when every line holds exactly `w` whitespace-separated
/// integers (as `i64` reads them), and there are at most `max_rows`; `None` otherwise (a blank
/// line, another count, a token that is not an integer). One pass over the bytes without
/// allocating: detection reads every line of the file, which may hold a million cells.
fn integer_rows(text: &str, w: usize, max_rows: usize) -> Option<usize> {
    if !text.is_ascii() {
        return integer_rows_by_lines(text, w, max_rows);
    }
    let b = text.as_bytes();
    let (mut i, mut rows, mut toks) = (0, 0, 0);
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            if toks != w {
                return None;
            }
            rows += 1;
            if rows > max_rows {
                return None;
            }
            toks = 0;
            i += 1;
        } else if is_space(c) {
            i += 1;
        } else {
            let start = i;
            if c == b'+' || c == b'-' {
                i += 1;
            }
            let digits = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i == digits || (i < b.len() && !is_space(b[i])) {
                return None;
            }
            // Up to 18 digits always fit; longer ones are checked by the parser.
            if i - digits > 18 && text[start..i].parse::<i64>().is_err() {
                return None;
            }
            toks += 1;
        }
    }
    // The last line has no newline (the text was trimmed).
    if toks > 0 {
        if toks != w {
            return None;
        }
        rows += 1;
    }
    (rows <= max_rows).then_some(rows)
}

/// Parses an answer for a board of the given shape: `m` lines of `n` values (`0` = empty), or
/// JSON rows, bare or as `{"solution": rows}`.
///
/// ```
/// use pencilbox_core::{regions::parse_answer, Shape};
/// let s = Shape::new(1, 2);
/// assert_eq!(parse_answer("2 1\n", s).unwrap().as_slice(), &[2, 1]);
/// assert_eq!(parse_answer("{\"solution\": [[2, 1]]}", s).unwrap().as_slice(), &[2, 1]);
/// assert_eq!(parse_answer("2\n1\n", s).unwrap_err().to_string(), "1:2: row 1 of the solution has 1 number but the grid is 2 wide");
/// ```
pub fn parse_answer(text: &str, shape: Shape) -> Result<Grid<u32>, ParseError> {
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
    // Plain rows in one pass; anything else is read again token by token for its message.
    let mut fast = sc.clone();
    if fast.uint_rows(shape.height, shape.width, u32::MAX, &mut vals) && fast.at_end() {
        return Ok(Grid::from_vec(shape, vals).expect("row lengths checked"));
    }
    vals.clear();
    for r in 1..=shape.height {
        read_row(&mut sc, shape.width, "solution", r, |t| {
            let v = parse_int::<i64>(t, "a value")?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regions::{PLAIN, RIPPLE};
    use proptest::prelude::*;

    proptest! {
        /// The fast path for plain rows never changes what a text means: on near-miss texts
        /// (missing, extra or split numbers, signs, letters, large values, blank lines, CRs,
        /// non-ASCII spaces) it gives the same board, or the same error, as reading token by
        /// token.
        #[test]
        fn the_fast_row_reader_agrees_with_the_token_reader(
            h in 1usize..4, w in 1usize..4,
            cells in proptest::collection::vec(0u32..4, 18),
            edits in proptest::collection::vec((0usize..64, 0usize..12), 0..3),
        ) {
            let mut text = format!("{h} {w}\n");
            for part in 0..2 {
                for r in 0..h {
                    let row: Vec<String> = (0..w).map(|c| cells[(part * h + r) * w % 18 + c].to_string()).collect();
                    text.push_str(&row.join(" "));
                    text.push('\n');
                }
            }
            let pieces = [" ", "\n", "\n\n", "-1", "x", "7", "99999999999", "\r", "\u{a0}", "+2", "\t", "0"];
            for (at, what) in edits {
                let mut at = at.min(text.len());
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                text.insert_str(at, pieces[what]);
            }
            let fast = PLAIN.parse_text_with(&text, true).map(|b| PLAIN.to_text(&b));
            let slow = PLAIN.parse_text_with(&text, false).map(|b| PLAIN.to_text(&b));
            prop_assert_eq!(fast.map_err(|e| e.to_string()), slow.map_err(|e| e.to_string()));
        }
    }

    /// A 2×4 board: labels `3 3 8 8 / 3 5 5 8`, one hint.
    const BOARD: &str = "2 4\n0 0 0 1\n0 2 0 0\n3 3 8 8\n3 5 5 8\n";

    #[test]
    fn text_to_board_to_text_renumbers_labels_and_keeps_the_rest() {
        let b = PLAIN.parse(BOARD).unwrap();
        assert_eq!(b.regions().num_regions(), 3);
        assert_eq!(PLAIN.to_text(&b), "2 4\n0 0 0 1\n0 2 0 0\n1 1 2 2\n1 3 3 2\n");
        assert_eq!(PLAIN.parse(&PLAIN.to_text(&b)).unwrap(), b);
    }

    #[test]
    fn the_json_form_round_trips_and_names_the_family_in_syntax_errors() {
        let b = PLAIN.parse(BOARD).unwrap();
        let json = PLAIN.to_json(&b);
        assert_eq!(json["regions"][1], serde_json::json!([1, 3, 3, 2]));
        assert_eq!(PLAIN.parse(&json.to_string()).unwrap(), b);
        let e = RIPPLE.parse("{\"height\": x}").unwrap_err();
        assert!(e.message.starts_with("not a Ripple Effect JSON object: "), "{e}");
        assert_eq!(e.pos, Pos { line: 1, col: 12 });
        let e = PLAIN
            .parse("{\"height\":1,\"width\":2,\"hints\":[[0,3]],\"regions\":[[1,1]]}")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "1:1: hint 3 is larger than its region (r1c2 is in a region of 2 cells)"
        );
    }

    #[test]
    fn a_keyword_header_is_required_written_and_detected() {
        let text = format!("ripple {BOARD}");
        let b = RIPPLE.parse(&text).unwrap();
        assert_eq!(b, PLAIN.parse(BOARD).unwrap());
        assert!(RIPPLE.to_text(&b).starts_with("ripple 2 4\n0 0 0 1\n"));
        assert!(RIPPLE.detect(&text) && !RIPPLE.detect(BOARD));
        assert!(PLAIN.detect(BOARD) && !PLAIN.detect(&text));
        let e = RIPPLE.parse(BOARD).unwrap_err();
        assert_eq!(
            e.to_string(),
            "1:1: expected `ripple height width` on the first line, found `2`"
        );
        let e = RIPPLE.parse("ripple 2 4 0\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "1:12: the first line must hold only `ripple height width`; found `0`"
        );
        let e = RIPPLE.parse(" \n").unwrap_err();
        assert!(e.message.contains("expected `ripple height width` followed by"), "{e}");
        let e = RIPPLE.parse("ripple").unwrap_err();
        assert_eq!(
            e.to_string(),
            "1:7: expected the number of rows, found the end of the input"
        );
    }

    #[test]
    fn text_errors_point_at_the_offending_number() {
        let cases = [
            (
                "2 4\n0 0 0\n1 1 1 1\n",
                (2, 6),
                "row 1 of the hints has 3 numbers but the grid is 4 wide",
            ),
            (
                "2 4\n0 0 0 1\n0 2 0 0\n3 3 8 8\n",
                (5, 1),
                "missing region rows: found 1 of 2",
            ),
            ("2 4\n0 0 0 1\n0 -2 0 0\n", (3, 3), "hint -2 is negative"),
            (
                "2 4\n0 0 0 9\n",
                (2, 7),
                "hint 9 is larger than the whole grid (8 cells)",
            ),
            (
                "2 4\n0 0 0 4\n0 0 0 0\n3 3 8 8\n3 5 5 8\n",
                (2, 7),
                "hint 4 is larger than its region",
            ),
            (
                "2 4\n0 0 0 1\n0 2 0 0\n3 3 8 8\n3 5 5 8 8\n",
                (5, 9),
                "has more than 4 numbers",
            ),
            (
                "2 4\n0 0 0 1\n0 2 0 0\n3 3 8 8\n3 5 5 8\n7\n",
                (6, 1),
                "unexpected `7` after the region rows",
            ),
        ];
        for (text, (line, col), message) in cases {
            let e = PLAIN.parse(text).unwrap_err();
            assert_eq!((e.pos, e.message.contains(message)), (Pos { line, col }, true), "{e}");
        }
    }

    proptest::proptest! {
        /// The byte scanner agrees with splitting and parsing line by line on texts made of
        /// the characters that matter (digits, signs, spaces of every kind, newlines, long
        /// numbers, other bytes), trimmed as detection trims them.
        #[test]
        fn integer_rows_agrees_with_the_standard_library(
            parts in proptest::collection::vec(
                proptest::prop_oneof![
                    proptest::strategy::Just("1".to_string()),
                    proptest::strategy::Just("-7".to_string()),
                    proptest::strategy::Just("+3".to_string()),
                    proptest::strategy::Just("-".to_string()),
                    proptest::strategy::Just(" ".to_string()),
                    proptest::strategy::Just("\t".to_string()),
                    proptest::strategy::Just("\x0b".to_string()),
                    proptest::strategy::Just("\r\n".to_string()),
                    proptest::strategy::Just("\n".to_string()),
                    proptest::strategy::Just("x".to_string()),
                    proptest::strategy::Just("9223372036854775807".to_string()),
                    proptest::strategy::Just("9223372036854775808".to_string()),
                    proptest::strategy::Just("0000000000000000000001".to_string()),
                ],
                0..24,
            ),
            w in 1usize..4,
            max in 0usize..6,
        ) {
            let text = parts.concat();
            let t = text.trim();
            proptest::prop_assert_eq!(integer_rows(t, w, max), integer_rows_by_lines(t, w, max), "{:?}", t);
        }
    }

    #[test]
    fn detection_wants_exactly_twice_as_many_rows_as_the_header_says() {
        assert!(PLAIN.detect(BOARD));
        assert!(!PLAIN.detect("2 4\n0 0 0 1\n0 2 0 0\n3 3 8 8\n"));
        assert!(!PLAIN.detect("2 4\n0 0 0 1\n\n0 2 0 0\n3 3 8 8\n3 5 5 8\n"));
        assert!(PLAIN.detect("https://puzz.link/p?plain/1/1/0"));
        assert!(!RIPPLE.detect("https://puzz.link/p?plain/1/1/0"));
    }

    #[test]
    fn answers_are_read_from_rows_or_json_with_positions_for_mistakes() {
        let cases: [(&str, Result<&[u32], &str>); 6] = [
            ("2 1\n1 2\n", Ok(&[2, 1, 1, 2])),
            ("[[1, 2], [2, 1]]", Ok(&[1, 2, 2, 1])),
            ("{\"solution\": [[0, 2], [2, 1]]}", Ok(&[0, 2, 2, 1])),
            (
                "1 2\n2 -1\n",
                Err("2:3: value -1 is not a cell value (0 = empty, otherwise 1..region size)"),
            ),
            ("[[1, 2]]", Err("1:1: expected 2 rows of 2 values")),
            ("", Err("1:1: the solution is empty; expected 2 rows of 2 values")),
        ];
        for (text, want) in cases {
            let got = parse_answer(text, Shape::new(2, 2));
            let got = got.as_ref().map(Grid::as_slice).map_err(ToString::to_string);
            assert_eq!(got, want.map_err(str::to_string), "{text:?}");
        }
    }
}
