//! The Path puzzle instance and configuration (paper, Definition 1 and Section 2.1) and their
//! text and JSON formats.
//!
//! # Instance format (the paper's repository format)
//! ```text
//! m n          grid size: m rows, n columns
//! ia ja        door A (1-based row and column), where the path starts
//! ib jb        door B, where the path ends
//!              a blank line (tolerated when missing)
//! cr1 … crm    the m row clues, −1 = no clue
//! cc1 … ccn    the n column clues, −1 = no clue
//! ```
//! A row clue lies in `−1..=n`, a column clue in `−1..=m` (Section 2.1), and both doors lie on
//! the edge of the grid (Definition 1). Input breaking these rules is a [`ParseError`] with the
//! line and column of the offending number. When the clues sit on exactly two lines, the first
//! must hold `m` and the second `n` numbers; any other layout is read as a stream of `m + n`
//! numbers.
//!
//! # Configuration format (`.sol` files)
//! As in the shared data set (`letters/*.sol`, `paper/fig1-6x6.sol`): the whole instance
//! (header, blank line, clue lines), a blank line, then the `m × n` configuration grid of
//! `0 d l r u` separated by spaces (Section 2.1): `0` is an empty cell and every other path
//! cell points to the next cell on the way from door A to door B. Door B holds `u` by the
//! paper's convention ("this u can be changed with any character other than 0").
//! [`parse_configuration`] also accepts the header and grid without the clues, the grid alone,
//! and rows written without spaces (`dl0rrd`).

use pencilbox_core::grid::push_decimal;
use pencilbox_core::scan::{check_dims, parse_int, Scanner, Token, MAX_CELLS};
use pencilbox_core::{CellId, Grid, ParseError, Pos, Shape};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A Path puzzle instance (Definition 1): an `m × n` grid, two doors on its edge and optional
/// row and column clues. Coordinates are 0-based `(row, col)` in the API and 1-based in files.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "PuzzleJson", into = "PuzzleJson")]
pub struct PathPuzzle {
    shape: Shape,
    door_a: (usize, usize),
    door_b: (usize, usize),
    row_clues: Vec<Option<u32>>,
    col_clues: Vec<Option<u32>>,
    /// Lines a player drew (entries, [`PathPuzzle::with_drawn`]): read by the explainer, for
    /// hints from a position; the solvers solve the puzzle without them.
    drawn: Vec<(CellId, CellId)>,
    /// Cells a player marked unused (`x` in the entries), likewise.
    crossed: Vec<CellId>,
}

/// Why a [`PathPuzzle`] could not be built from its parts.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InvalidInstance(pub String);

/// The JSON form of a [`PathPuzzle`]: 1-based doors, clues with −1 for "no clue", as in the
/// paper's arrays `cr` and `cc`.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct PuzzleJson {
    height: usize,
    width: usize,
    door_a: [usize; 2],
    door_b: [usize; 2],
    row_clues: Vec<i64>,
    col_clues: Vec<i64>,
}

impl TryFrom<PuzzleJson> for PathPuzzle {
    type Error = InvalidInstance;
    fn try_from(j: PuzzleJson) -> Result<Self, InvalidInstance> {
        let clue = |v: i64, max: usize, what: &str| -> Result<Option<u32>, InvalidInstance> {
            match v {
                -1 => Ok(None),
                v if v >= 0 && v <= max as i64 => Ok(Some(v as u32)),
                v => Err(InvalidInstance(format!(
                    "a {what} clue must be between -1 and {max}, found {v}"
                ))),
            }
        };
        let door = |d: [usize; 2], name: &str| -> Result<(usize, usize), InvalidInstance> {
            if d[0] == 0 || d[1] == 0 {
                return Err(InvalidInstance(format!(
                    "door {name} is 1-based, found ({}, {})",
                    d[0], d[1]
                )));
            }
            Ok((d[0] - 1, d[1] - 1))
        };
        let rows = j
            .row_clues
            .iter()
            .map(|&v| clue(v, j.width, "row"))
            .collect::<Result<Vec<_>, _>>()?;
        let cols = j
            .col_clues
            .iter()
            .map(|&v| clue(v, j.height, "column"))
            .collect::<Result<Vec<_>, _>>()?;
        PathPuzzle::new(
            j.height,
            j.width,
            door(j.door_a, "A")?,
            door(j.door_b, "B")?,
            rows,
            cols,
        )
    }
}

impl From<PathPuzzle> for PuzzleJson {
    fn from(p: PathPuzzle) -> Self {
        let raw = |c: &Option<u32>| c.map_or(-1, i64::from);
        PuzzleJson {
            height: p.height(),
            width: p.width(),
            door_a: [p.door_a.0 + 1, p.door_a.1 + 1],
            door_b: [p.door_b.0 + 1, p.door_b.1 + 1],
            row_clues: p.row_clues.iter().map(raw).collect(),
            col_clues: p.col_clues.iter().map(raw).collect(),
        }
    }
}

impl PathPuzzle {
    /// Builds an instance, checking the sizes, that both doors lie on the edge of the grid and
    /// that every clue is in range (a row clue at most `width`, a column clue at most `height`).
    /// Equal doors are accepted here: such an instance simply has no solution.
    ///
    /// ```
    /// use pencilbox_pathpuzzle::PathPuzzle;
    /// // The paper's Figure 5: doors (2,1) and (3,2), cr = [3,2,2], cc = [2,2,3] (1-based).
    /// let p = PathPuzzle::new(3, 3, (1, 0), (2, 1), vec![Some(3), Some(2), Some(2)], vec![Some(2), Some(2), Some(3)])
    ///     .unwrap();
    /// assert_eq!(p.to_text(), "3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n");
    /// ```
    pub fn new(
        height: usize,
        width: usize,
        door_a: (usize, usize),
        door_b: (usize, usize),
        row_clues: Vec<Option<u32>>,
        col_clues: Vec<Option<u32>>,
    ) -> Result<Self, InvalidInstance> {
        if height == 0 || width == 0 || height.saturating_mul(width) > MAX_CELLS {
            return Err(InvalidInstance(format!(
                "a {height}×{width} grid is not supported (1 to {MAX_CELLS} cells)"
            )));
        }
        let shape = Shape::new(height, width);
        for (name, (r, c)) in [("A", door_a), ("B", door_b)] {
            if r >= height || c >= width {
                return Err(InvalidInstance(format!(
                    "door {name} ({}, {}) is outside the {height}×{width} grid",
                    r + 1,
                    c + 1
                )));
            }
            if !shape.on_edge(shape.id(r, c)) {
                return Err(InvalidInstance(format!(
                    "door {name} ({}, {}) is not on the edge of the grid",
                    r + 1,
                    c + 1
                )));
            }
        }
        if row_clues.len() != height || col_clues.len() != width {
            return Err(InvalidInstance(format!(
                "expected {height} row clues and {width} column clues, found {} and {}",
                row_clues.len(),
                col_clues.len()
            )));
        }
        if let Some(v) = row_clues.iter().flatten().find(|&&v| v as usize > width) {
            return Err(InvalidInstance(format!("a row clue is at most {width}, found {v}")));
        }
        if let Some(v) = col_clues.iter().flatten().find(|&&v| v as usize > height) {
            return Err(InvalidInstance(format!("a column clue is at most {height}, found {v}")));
        }
        Ok(PathPuzzle::checked(shape, door_a, door_b, row_clues, col_clues))
    }

    /// An instance from parts already checked (by [`PathPuzzle::new`] or a reader), with
    /// nothing drawn.
    fn checked(
        shape: Shape,
        door_a: (usize, usize),
        door_b: (usize, usize),
        row_clues: Vec<Option<u32>>,
        col_clues: Vec<Option<u32>>,
    ) -> Self {
        PathPuzzle {
            shape,
            door_a,
            door_b,
            row_clues,
            col_clues,
            drawn: Vec::new(),
            crossed: Vec::new(),
        }
    }

    /// Parses the paper's repository format (see the module docs).
    ///
    /// ```
    /// use pencilbox_pathpuzzle::PathPuzzle;
    /// let p = PathPuzzle::parse("3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n").unwrap();
    /// assert_eq!((p.height(), p.width(), p.door_a(), p.door_b()), (3, 3, (1, 0), (2, 1)));
    /// let e = PathPuzzle::parse("3 3\n2 2\n3 2\n\n3 2 2\n2 2 3\n").unwrap_err();
    /// assert_eq!(e.to_string(), "2:1: door A (2, 2) is not on the edge of the 3×3 grid");
    /// ```
    pub fn parse(text: &str) -> Result<Self, ParseError> {
        if crate::puzzlink::is_url(text) {
            return crate::puzzlink::parse_url(text);
        }
        match parse_plain(text.as_bytes()) {
            Some(p) => Ok(p),
            None => Self::parse_tokens(text),
        }
    }

    /// The general reader: token by token, with a position and a message for every mistake.
    fn parse_tokens(text: &str) -> Result<Self, ParseError> {
        let mut s = Scanner::new(text);
        let (height, width) = s.dims()?;
        let shape = Shape::new(height, width);
        let mut doors = [(0, 0); 2];
        let coords = [
            ("A", "the row of door A", "the column of door A"),
            ("B", "the row of door B", "the column of door B"),
        ];
        for (k, (name, row, col)) in coords.into_iter().enumerate() {
            let pos = s.end_pos();
            let r = s.int_in(row, 1, height as i64)? as usize;
            let c = s.int_in(col, 1, width as i64)? as usize;
            if !shape.on_edge(shape.id(r - 1, c - 1)) {
                return Err(ParseError::new(
                    pos,
                    format!("door {name} ({r}, {c}) is not on the edge of the {height}×{width} grid"),
                ));
            }
            doors[k] = (r - 1, c - 1);
        }
        // The clues: at most m + n + 1 tokens are kept (the extra one names trailing input).
        let mut toks: Vec<Token<'_>> = Vec::with_capacity(height + width + 1);
        while toks.len() <= height + width {
            match s.next_token() {
                Some(t) => toks.push(t),
                None => break,
            }
        }
        let end = s.end_pos();
        check_clue_layout(&toks, height, width, end)?;
        let mut row_clues = Vec::with_capacity(height);
        let mut col_clues = Vec::with_capacity(width);
        for (i, &t) in toks.iter().enumerate() {
            if i < height {
                row_clues.push(clue(t, ("row", i + 1), width)?);
            } else if i < height + width {
                col_clues.push(clue(t, ("column", i - height + 1), height)?);
            } else {
                return Err(ParseError::new(
                    t.pos,
                    format!(
                        "unexpected `{}` after the {width} column clues",
                        pencilbox_core::scan::shorten(t.text)
                    ),
                ));
            }
        }
        if toks.len() < height + width {
            let (what, count, k) = if toks.len() < height {
                ("row", height, toks.len())
            } else {
                ("column", width, toks.len() - height)
            };
            return Err(ParseError::new(
                end,
                format!("expected {count} {what} clues, found {k} before the end of the input"),
            ));
        }
        Ok(PathPuzzle::checked(shape, doors[0], doors[1], row_clues, col_clues))
    }

    /// The instance in the paper's repository format (ends with a newline).
    pub fn to_text(&self) -> String {
        let mut out = String::with_capacity(16 + 3 * (self.row_clues.len() + self.col_clues.len()));
        self.write_text(&mut out);
        out
    }

    /// Appends [`PathPuzzle::to_text`] to `out` (one buffer for a whole `.sol` text).
    fn write_text(&self, out: &mut String) {
        // Digit by digit (no formatting machinery): every solve's answer starts with this.
        for (i, n) in [
            self.height(),
            self.width(),
            self.door_a.0 + 1,
            self.door_a.1 + 1,
            self.door_b.0 + 1,
            self.door_b.1 + 1,
        ]
        .into_iter()
        .enumerate()
        {
            push_decimal(out, n);
            out.push(if i % 2 == 0 { ' ' } else { '\n' });
        }
        out.push('\n');
        for clues in [&self.row_clues, &self.col_clues] {
            for (i, c) in clues.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                match c {
                    Some(v) => push_decimal(out, *v as usize),
                    None => out.push_str("-1"),
                }
            }
            out.push('\n');
        }
    }

    /// The three header lines `m n`, `ia ja`, `ib jb` (1-based, no trailing newline).
    pub fn header(&self) -> String {
        format!(
            "{} {}\n{} {}\n{} {}",
            self.height(),
            self.width(),
            self.door_a.0 + 1,
            self.door_a.1 + 1,
            self.door_b.0 + 1,
            self.door_b.1 + 1
        )
    }

    /// Number of rows `m`.
    pub fn height(&self) -> usize {
        self.shape.height
    }
    /// Number of columns `n`.
    pub fn width(&self) -> usize {
        self.shape.width
    }
    /// The grid shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }
    /// Door A `(row, col)`, 0-based: where the path starts.
    pub fn door_a(&self) -> (usize, usize) {
        self.door_a
    }
    /// Door B `(row, col)`, 0-based: where the path ends.
    pub fn door_b(&self) -> (usize, usize) {
        self.door_b
    }
    /// Door A as a cell id.
    pub fn cell_a(&self) -> CellId {
        self.shape.id(self.door_a.0, self.door_a.1)
    }
    /// Door B as a cell id.
    pub fn cell_b(&self) -> CellId {
        self.shape.id(self.door_b.0, self.door_b.1)
    }
    /// The row clues (`None` = no clue).
    pub fn row_clues(&self) -> &[Option<u32>] {
        &self.row_clues
    }
    /// The column clues (`None` = no clue).
    pub fn col_clues(&self) -> &[Option<u32>] {
        &self.col_clues
    }
    /// True when every row and column has a clue ("complete information", Section 2.1).
    pub fn complete_information(&self) -> bool {
        self.row_clues.iter().all(Option::is_some) && self.col_clues.iter().all(Option::is_some)
    }
    /// The paper's array `cr` (−1 = no clue).
    pub fn cr(&self) -> Vec<i32> {
        self.row_clues.iter().map(|c| c.map_or(-1, |v| v as i32)).collect()
    }
    /// The paper's array `cc` (−1 = no clue).
    pub fn cc(&self) -> Vec<i32> {
        self.col_clues.iter().map(|c| c.map_or(-1, |v| v as i32)).collect()
    }
    /// The lines a player drew ([`PathPuzzle::with_drawn`]), each as its two cells in
    /// increasing order.
    pub fn drawn(&self) -> &[(CellId, CellId)] {
        &self.drawn
    }
    /// The cells a player marked unused ([`PathPuzzle::with_drawn`], `x`), in increasing order.
    pub fn crossed(&self) -> &[CellId] {
        &self.crossed
    }
    /// The same instance with the lines a player drew, read from `entries`: a configuration in
    /// the answer format ([`parse_configuration`]; `.` may stand for `0`) where every arrow
    /// draws one line, from its cell to the neighbour it points to, and `0` says nothing. Door
    /// B's mark is not a line (the `.sol` files mark door B `u`), so a finished answer is a
    /// drawing too. The explainer takes the lines and their cells as given; the solvers
    /// ignore them. An `x` marks a cell the player says the path does not use.
    ///
    /// ```
    /// use pencilbox_pathpuzzle::PathPuzzle;
    /// let p = PathPuzzle::parse("2 2\n1 1\n2 1\n\n1 1\n2 0\n").unwrap();
    /// let q = p.with_drawn("r 0\n. x").unwrap();
    /// assert_eq!((q.drawn().len(), q.crossed().len()), (1, 1));
    /// assert!(p.with_drawn("l 0\n0 0").unwrap_err().to_string().contains("off the grid"));
    /// ```
    pub fn with_drawn(&self, entries: &str) -> Result<Self, pencilbox_core::PuzzleError> {
        if crate::kind::is_pairs(entries) {
            let x = pencilbox_core::lines::Entries::parse(entries, self.shape, "")
                .map_err(pencilbox_core::PuzzleError::Solution)?;
            let shape = self.shape;
            let mut drawn = Vec::new();
            for c in shape.all() {
                for (d, delta) in [
                    (pencilbox_core::lines::answer::S, (1, 0)),
                    (pencilbox_core::lines::answer::E, (0, 1)),
                ] {
                    if let Some(o) = shape.step(c, delta).filter(|_| x.lines[c] & d != 0) {
                        drawn.push((c, o));
                    }
                }
            }
            let crossed = shape.all().filter(|&c| x.crossed[c]).collect();
            return Ok(PathPuzzle {
                drawn,
                crossed,
                ..self.clone()
            });
        }
        use pencilbox_core::PuzzleError;
        let plain = entries.replace('.', "0").replace(['x', 'X'], "0");
        let grid = parse_configuration(self, &plain).map_err(PuzzleError::Solution)?;
        let shape = self.shape;
        // The grid is the last `cells` marks of the tokens made of marks alone (a header or
        // clues before it hold digits other than 0, or a lone clue 0 that comes earlier).
        let marks: Vec<char> = entries
            .split_whitespace()
            .filter(|t| t.chars().all(|ch| "0.xXdlruDLRU".contains(ch)))
            .flat_map(str::chars)
            .collect();
        let crossed: Vec<CellId> = marks[marks.len().saturating_sub(shape.cells())..]
            .iter()
            .zip(shape.all())
            .filter(|(ch, _)| matches!(ch, 'x' | 'X'))
            .map(|(_, c)| c)
            .collect();
        let mut drawn = Vec::new();
        for c in shape.all() {
            let arrow = grid[c];
            if arrow == Arrow::Empty || c == self.cell_b() {
                continue;
            }
            let Some(to) = shape.step(c, arrow.delta()) else {
                return Err(PuzzleError::Entries(format!(
                    "the line drawn from {} ({}) points off the grid",
                    shape.name(c),
                    arrow.to_char()
                )));
            };
            drawn.push((c.min(to), c.max(to)));
        }
        drawn.sort_unstable();
        drawn.dedup();
        Ok(PathPuzzle {
            drawn,
            crossed,
            ..self.clone()
        })
    }
    /// The same instance with other clues (lengths and ranges are checked).
    pub fn with_clues(&self, rows: Vec<Option<u32>>, cols: Vec<Option<u32>>) -> Result<Self, InvalidInstance> {
        PathPuzzle::new(self.height(), self.width(), self.door_a, self.door_b, rows, cols)
    }
}

impl fmt::Display for PathPuzzle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

/// The clue of `(row or column, 1-based number)`; its name is spelled out only for an error.
fn clue(t: Token<'_>, (line, i): (&str, usize), max: usize) -> Result<Option<u32>, ParseError> {
    let what = || format!("the clue of {line} {i}");
    let v: i64 = parse_int(t, "").or_else(|_| parse_int(t, &what()))?;
    if v < -1 || v > max as i64 {
        return Err(ParseError::new(
            t.pos,
            format!("{} must be between -1 (no clue) and {max}, found {v}", what()),
        ));
    }
    Ok((v >= 0).then_some(v as u32))
}

/// The fast path of [`PathPuzzle::parse`]: one pass over the bytes of a file in the usual
/// layout (whole numbers separated by spaces, tabs and line breaks; the row clues on one line
/// and the column clues on the next; `-1` the only negative number), with nothing allocated
/// but the two clue lists. `None` on anything else, valid or not (a sign, a leading zero, a
/// byte order mark, another layout, any mistake): the general reader then reads the same text
/// and says exactly what is wrong. It accepts only what the general reader accepts, with the
/// same result (a property test checks it).
fn parse_plain(bytes: &[u8]) -> Option<PathPuzzle> {
    let mut i = 0;
    let mut line = 1u32;
    // The next number and the line it is on; `None` at the end of the input or at anything
    // other than blank space before it.
    let mut next = |i: &mut usize| -> Option<(i64, u32)> {
        loop {
            match *bytes.get(*i)? {
                b' ' | b'\t' => *i += 1,
                b'\n' => {
                    *i += 1;
                    line += 1;
                }
                b'\r' if bytes.get(*i + 1) == Some(&b'\n') => *i += 1,
                _ => break,
            }
        }
        let negative = bytes[*i] == b'-';
        let start = *i + usize::from(negative);
        let mut end = start;
        while end < bytes.len() && bytes[end].is_ascii_digit() && end - start < 9 {
            end += 1;
        }
        let digits = &bytes[start..end];
        let ends_here = bytes.get(end).is_none_or(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'));
        if digits.is_empty() || !ends_here || (digits.len() > 1 && digits[0] == b'0') || (negative && digits != b"1") {
            return None;
        }
        *i = end;
        let v = digits.iter().fold(0i64, |v, &b| v * 10 + i64::from(b - b'0'));
        Some((if negative { -v } else { v }, line))
    };
    let mut header = [0i64; 6];
    for h in header.iter_mut() {
        *h = next(&mut i)?.0;
    }
    let [height, width, ra, ca, rb, cb] = header;
    if !(1..=1000).contains(&height) || !(1..=1000).contains(&width) {
        return None;
    }
    let (height, width) = (height as usize, width as usize);
    let shape = Shape::new(height, width);
    let door = |r: i64, c: i64| {
        let ok = (1..=height as i64).contains(&r) && (1..=width as i64).contains(&c);
        let d = (r as usize - usize::from(ok), c as usize - usize::from(ok));
        (ok && shape.on_edge(shape.id(d.0, d.1))).then_some(d)
    };
    let (door_a, door_b) = (door(ra, ca)?, door(rb, cb)?);
    let mut clues = |n: usize, max: usize| -> Option<(Vec<Option<u32>>, u32)> {
        let mut out = Vec::with_capacity(n);
        let mut on = None;
        for _ in 0..n {
            let (v, l) = next(&mut i)?;
            if *on.get_or_insert(l) != l || !(-1..=max as i64).contains(&v) {
                return None;
            }
            out.push((v >= 0).then_some(v as u32));
        }
        Some((out, on?))
    };
    let (row_clues, row_line) = clues(height, width)?;
    let (col_clues, col_line) = clues(width, height)?;
    if col_line != row_line + 1 || !bytes[i..].iter().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
        return None;
    }
    Some(PathPuzzle::checked(shape, door_a, door_b, row_clues, col_clues))
}

/// When the clues occupy exactly two lines, the first must hold the `m` row clues and the second
/// the `n` column clues; a mismatch is reported on the line where it happens.
fn check_clue_layout(toks: &[Token<'_>], height: usize, width: usize, end: Pos) -> Result<(), ParseError> {
    let mut lines: Vec<(u32, usize, usize)> = Vec::new(); // (line, first token index, count)
    for (i, t) in toks.iter().enumerate() {
        match lines.last_mut() {
            Some((l, _, n)) if *l == t.pos.line => *n += 1,
            _ => lines.push((t.pos.line, i, 1)),
        }
    }
    if lines.len() != 2 {
        return Ok(());
    }
    for (k, (what, want)) in [("row", height), ("column", width)].into_iter().enumerate() {
        let (line, first, count) = lines[k];
        if count > want {
            return Err(ParseError::new(
                toks[first + want].pos,
                format!("line {line} holds {count} {what} clues, expected {want}"),
            ));
        }
        if count < want {
            let last = toks[first + count - 1];
            let after = Pos {
                line,
                col: last.pos.col + last.text.chars().count() as u32,
            };
            let at = if k == 1 && toks.len() <= height + width {
                end.min(after)
            } else {
                after
            };
            return Err(ParseError::new(
                at,
                format!("line {line} holds {count} {what} clues, expected {want}"),
            ));
        }
    }
    Ok(())
}

/// One cell of a configuration (Section 2.1): empty, or the direction to the next path cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Arrow {
    /// `0`: not on the path.
    #[default]
    Empty,
    /// `d`: the next cell is below.
    Down,
    /// `l`: the next cell is to the left.
    Left,
    /// `r`: the next cell is to the right.
    Right,
    /// `u`: the next cell is above (and door B's mark).
    Up,
}

impl Arrow {
    /// The four directions in the paper's order `d, l, r, u` (Algorithm 3, `dir`).
    pub const DIRS: [Arrow; 4] = [Arrow::Down, Arrow::Left, Arrow::Right, Arrow::Up];

    /// The character used in files.
    pub fn to_char(self) -> char {
        match self {
            Arrow::Empty => '0',
            Arrow::Down => 'd',
            Arrow::Left => 'l',
            Arrow::Right => 'r',
            Arrow::Up => 'u',
        }
    }
    /// The arrow written as `c`.
    pub fn from_char(c: char) -> Option<Arrow> {
        Some(match c {
            '0' => Arrow::Empty,
            'd' | 'D' => Arrow::Down,
            'l' | 'L' => Arrow::Left,
            'r' | 'R' => Arrow::Right,
            'u' | 'U' => Arrow::Up,
            _ => return None,
        })
    }
    /// The `(drow, dcol)` step (the paper's `mx`, `my`); `(0, 0)` for [`Arrow::Empty`].
    pub fn delta(self) -> (isize, isize) {
        match self {
            Arrow::Empty => (0, 0),
            Arrow::Down => (1, 0),
            Arrow::Left => (0, -1),
            Arrow::Right => (0, 1),
            Arrow::Up => (-1, 0),
        }
    }
    /// The arrow from `from` to the orthogonally adjacent `to`.
    pub fn between(shape: Shape, from: CellId, to: CellId) -> Arrow {
        let (r0, c0) = shape.coords(from);
        let (r1, c1) = shape.coords(to);
        match (r1 as isize - r0 as isize, c1 as isize - c0 as isize) {
            (1, 0) => Arrow::Down,
            (0, -1) => Arrow::Left,
            (0, 1) => Arrow::Right,
            (-1, 0) => Arrow::Up,
            _ => Arrow::Empty,
        }
    }
}

impl fmt::Display for Arrow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// A configuration: one [`Arrow`] per cell (the paper's array `A`).
pub type Configuration = Grid<Arrow>;

/// The configuration of a path given as its cells from door A to door B; door B gets `u`.
pub fn configuration_from_path(shape: Shape, path: &[CellId]) -> Configuration {
    let mut g = Grid::filled(shape, Arrow::Empty);
    for w in path.windows(2) {
        g[w[0]] = Arrow::between(shape, w[0], w[1]);
    }
    if let Some(&last) = path.last() {
        g[last] = Arrow::Up;
    }
    g
}

/// The `.sol` text of a configuration, as in the shared data set: the instance (header, blank
/// line, clues), a blank line and the grid.
pub fn configuration_to_text(p: &PathPuzzle, a: &Configuration) -> String {
    let mut out = String::with_capacity(32 + 3 * (p.height() + p.width()) + 2 * a.as_slice().len());
    p.write_text(&mut out);
    out.push('\n');
    a.write_rows(&mut out, |out, x| out.push(x.to_char()));
    out.push('\n');
    out
}

/// The rows of a configuration as strings of `0dlru` without spaces (the JSON form).
pub fn configuration_rows(a: &Configuration) -> Vec<String> {
    a.rows().map(|r| r.iter().map(|x| x.to_char()).collect()).collect()
}

/// The header of a `.sol` file, when present: `(m, n)`, door A, door B, 1-based as written,
/// with the positions of `m`, `ia` and `ib`.
struct SolHeader {
    dims: (usize, usize),
    doors: [(usize, usize); 2],
    pos: [Pos; 3],
}

/// A `.sol` text split into its parts.
struct SolText {
    header: Option<SolHeader>,
    /// The clues repeated after the header (as in the shared data set), with positions.
    clues: Option<Vec<(i64, Pos)>>,
    arrows: Vec<Arrow>,
}

fn arrow_cells(t: &Token<'_>) -> Option<usize> {
    t.text
        .chars()
        .all(|c| Arrow::from_char(c).is_some())
        .then(|| t.text.chars().count())
}

/// Reads a configuration text without knowing the puzzle: an optional header `m n / ia ja /
/// ib jb`, then optionally the `m + n` clues (the shared `.sol` files repeat the whole
/// instance), then the arrows.
fn read_sol(text: &str) -> Result<SolText, ParseError> {
    let mut s = Scanner::new(text);
    let mut header = None;
    if let Some(t) = s.clone().next_token() {
        // A header starts with the number of rows (>= 1); a grid starts with 0 or a letter.
        if t.text.bytes().all(|b| b.is_ascii_digit()) && !t.text.trim_start_matches('0').is_empty() {
            let mut nums = [0usize; 6];
            let mut pos = [Pos::START; 3];
            for (i, n) in nums.iter_mut().enumerate() {
                let tok = s.expect("a number of the header `m n / ia ja / ib jb`")?;
                if i % 2 == 0 {
                    pos[i / 2] = tok.pos;
                }
                *n = parse_int::<i64>(tok, "a number of the header")?.max(0) as usize;
            }
            check_dims(nums[0] as i64, nums[1] as i64, pos[0], pos[0])?;
            header = Some(SolHeader {
                dims: (nums[0], nums[1]),
                doors: [(nums[2], nums[3]), (nums[4], nums[5])],
                pos,
            });
        }
    }
    let (cells, extra) = header
        .as_ref()
        .map_or((MAX_CELLS, 0), |h| (h.dims.0 * h.dims.1, h.dims.0 + h.dims.1));
    let mut toks = Vec::new();
    let mut total = 0usize;
    while let Some(t) = s.next_token() {
        total += arrow_cells(&t).unwrap_or(1);
        toks.push(t);
        if total > cells + extra {
            break;
        }
    }
    let grid_only = toks.iter().map(arrow_cells).sum::<Option<usize>>() == Some(cells);
    let mut clues = None;
    let mut grid = &toks[..];
    if header.is_some()
        && !grid_only
        && toks.len() > extra
        && toks[..extra].iter().all(|t| t.text.parse::<i64>().is_ok())
    {
        clues = Some(
            toks[..extra]
                .iter()
                .map(|t| (t.text.parse::<i64>().unwrap_or(-2), t.pos))
                .collect(),
        );
        grid = &toks[extra..];
    }
    let mut arrows = Vec::new();
    for t in grid {
        for (k, ch) in t.text.chars().enumerate() {
            let pos = Pos {
                line: t.pos.line,
                col: t.pos.col + k as u32,
            };
            let Some(a) = Arrow::from_char(ch) else {
                return Err(ParseError::new(
                    pos,
                    format!(
                        "expected a direction (one of 0 d l r u), found `{}`",
                        pencilbox_core::scan::shorten(t.text)
                    ),
                ));
            };
            if arrows.len() == cells {
                return Err(ParseError::new(
                    pos,
                    format!("more than the {cells} direction entries of the grid"),
                ));
            }
            arrows.push(a);
        }
    }
    Ok(SolText { header, clues, arrows })
}

/// Parses a configuration for puzzle `p`: the `.sol` format of the shared data (the instance,
/// a blank line, the grid), or the header and the grid, or the grid alone. Whatever is given
/// of the instance must match `p`. Positions in errors refer to `text`.
///
/// ```
/// use pencilbox_pathpuzzle::{parse_configuration, Arrow, PathPuzzle};
/// let p = PathPuzzle::parse("1 3\n1 1\n1 3\n\n3\n1 1 1\n").unwrap();
/// let a = parse_configuration(&p, "r r u").unwrap();
/// assert_eq!(a.as_slice(), &[Arrow::Right, Arrow::Right, Arrow::Up]);
/// assert_eq!(parse_configuration(&p, "1 3\n1 1\n1 3\n\n3\n1 1 1\n\nr r u\n").unwrap(), a);
/// ```
pub fn parse_configuration(p: &PathPuzzle, text: &str) -> Result<Configuration, ParseError> {
    let cells = p.shape().cells();
    let sol = read_sol(text)?;
    if let Some(h) = &sol.header {
        if h.dims != (p.height(), p.width()) {
            return Err(ParseError::new(
                h.pos[0],
                format!(
                    "the solution is for a {}×{} grid but the puzzle is {}×{}",
                    h.dims.0,
                    h.dims.1,
                    p.height(),
                    p.width()
                ),
            ));
        }
        for (k, (name, want)) in [("A", p.door_a()), ("B", p.door_b())].into_iter().enumerate() {
            let got = h.doors[k];
            if got != (want.0 + 1, want.1 + 1) {
                return Err(ParseError::new(
                    h.pos[k + 1],
                    format!(
                        "the solution puts door {name} at ({}, {}) but the puzzle has it at ({}, {})",
                        got.0,
                        got.1,
                        want.0 + 1,
                        want.1 + 1
                    ),
                ));
            }
        }
    }
    if let Some(clues) = &sol.clues {
        let want = p.cr().into_iter().chain(p.cc()).map(i64::from);
        for (i, (&(got, pos), want)) in clues.iter().zip(want).enumerate() {
            if got != want {
                let what = if i < p.height() {
                    format!("row {}", i + 1)
                } else {
                    format!("column {}", i - p.height() + 1)
                };
                return Err(ParseError::new(
                    pos,
                    format!("the solution file gives {what} the clue {got} but the puzzle has {want}"),
                ));
            }
        }
    }
    if sol.arrows.len() != cells {
        return Err(ParseError::new(
            Scanner::new(text).end_pos(),
            format!(
                "expected {}×{} = {cells} direction entries, found {}",
                p.height(),
                p.width(),
                sol.arrows.len()
            ),
        ));
    }
    Ok(Grid::from_vec(p.shape(), sol.arrows).expect("length checked above"))
}

/// The arrows of a configuration text (instance or header optional) in row-major order, for
/// comparing an answer file with a found solution without the puzzle at hand.
pub fn parse_arrows(text: &str) -> Result<Vec<Arrow>, ParseError> {
    read_sol(text).map(|s| s.arrows)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIG5: &str = "3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n";

    #[test]
    fn parse_then_to_text_round_trips() {
        let p = PathPuzzle::parse(FIG5).unwrap();
        assert_eq!(p.to_text(), FIG5);
        assert_eq!(PathPuzzle::parse(&p.to_text()).unwrap(), p);
        let partial = "2 4\n1 1\n2 4\n\n-1 3\n2 -1 -1 1\n";
        assert_eq!(PathPuzzle::parse(partial).unwrap().to_text(), partial);
    }

    #[test]
    fn json_round_trips_and_uses_the_papers_arrays() {
        let p = PathPuzzle::parse("2 4\n1 1\n2 4\n\n-1 3\n2 -1 -1 1\n").unwrap();
        let j = serde_json::to_value(&p).unwrap();
        assert_eq!(j["door_a"], serde_json::json!([1, 1]));
        assert_eq!(j["row_clues"], serde_json::json!([-1, 3]));
        let back: PathPuzzle = serde_json::from_value(j).unwrap();
        assert_eq!(back, p);
    }

    #[test]
    fn json_with_a_door_inside_the_grid_is_refused() {
        let j = serde_json::json!({"height": 3, "width": 3, "door_a": [2, 2], "door_b": [1, 1],
            "row_clues": [-1, -1, -1], "col_clues": [-1, -1, -1]});
        let e = serde_json::from_value::<PathPuzzle>(j).unwrap_err();
        assert!(e.to_string().contains("not on the edge"), "{e}");
    }

    #[test]
    fn a_missing_blank_line_and_windows_line_ends_are_tolerated() {
        let p = PathPuzzle::parse("3 3\r\n2 1\r\n3 2\r\n3 2 2\r\n2 2 3").unwrap();
        assert_eq!(p.to_text(), FIG5);
    }

    #[test]
    fn clues_in_other_layouts_are_read_as_a_stream() {
        let p = PathPuzzle::parse("3 3\n2 1\n3 2\n\n3\n2\n2\n2\n2\n3\n").unwrap();
        assert_eq!(p.to_text(), FIG5);
    }

    #[test]
    fn configuration_text_round_trips_with_and_without_header() {
        let p = PathPuzzle::parse(FIG5).unwrap();
        let text = "3 3\n2 1\n3 2\n\n3 2 2\n2 2 3\n\nr r d\nu 0 d\n0 u l\n";
        let a = parse_configuration(&p, text).unwrap();
        assert_eq!(configuration_to_text(&p, &a), text);
        assert_eq!(
            parse_configuration(&p, "3 3\n2 1\n3 2\n\nr r d\nu 0 d\n0 u l\n").unwrap(),
            a
        );
        assert_eq!(parse_configuration(&p, "rrd u0d 0ul").unwrap(), a);
        assert_eq!(configuration_rows(&a), vec!["rrd", "u0d", "0ul"]);
    }

    #[test]
    fn a_configuration_for_another_puzzle_is_refused_at_its_header() {
        let p = PathPuzzle::parse(FIG5).unwrap();
        let e = parse_configuration(&p, "3 3\n1 1\n3 2\n\nr r d\nu 0 d\n0 u l\n").unwrap_err();
        assert_eq!(e.pos, Pos { line: 2, col: 1 });
        let e = parse_configuration(&p, "r r d\nu x d\n0 u l\n").unwrap_err();
        assert_eq!(e.pos, Pos { line: 2, col: 3 });
        let e = parse_configuration(&p, "r r d\nu l d\n0 u").unwrap_err();
        assert!(e.message.contains("found 8"), "{e}");
    }

    #[test]
    fn path_cells_become_arrows_and_door_b_gets_u() {
        let s = Shape::new(2, 2);
        let path = [s.id(0, 0), s.id(0, 1), s.id(1, 1), s.id(1, 0)];
        let a = configuration_from_path(s, &path);
        assert_eq!(configuration_rows(&a), vec!["rd", "ul"]);
    }
}

#[cfg(test)]
mod plain_tests {
    use super::*;
    use proptest::prelude::*;

    /// A file in the usual layout from its numbers, with `seps` choosing the blank space
    /// between tokens and `noise` optionally inserting one odd character.
    fn text(nums: &[i64], h: usize, seps: &[usize], noise: Option<(usize, usize)>) -> String {
        const SEPS: [&str; 4] = [" ", "  ", "\t", " \t "];
        let mut out = String::new();
        let mut k = 0;
        let mut sep = || {
            k += 1;
            SEPS[seps[k % seps.len()] % SEPS.len()]
        };
        for (i, v) in nums.iter().enumerate() {
            out.push_str(&v.to_string());
            out.push_str(match i {
                1 | 3 => "\n",
                5 => "\n\n",
                _ if i + 1 == 6 + h => "\r\n",
                _ if i + 1 == nums.len() => "\n",
                _ => sep(),
            });
        }
        if let Some((at, which)) = noise {
            const ODD: [&str; 9] = ["+", "0", "x", "\u{feff}", "\r", "\u{b}", "-", "\n", "9"];
            let mut at = at % (out.len() + 1);
            while !out.is_char_boundary(at) {
                at -= 1;
            }
            out.insert_str(at, ODD[which % ODD.len()]);
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        /// Whatever the fast path accepts, the general reader accepts with the same result;
        /// and every file in the usual layout that the general reader accepts takes the fast
        /// path.
        #[test]
        fn the_fast_path_agrees_with_the_general_reader(
            h in 1usize..=6, w in 1usize..=6,
            doors in proptest::collection::vec(0i64..=7, 4),
            clues in proptest::collection::vec(-2i64..=7, 12),
            seps in proptest::collection::vec(0usize..4, 1..6),
            noise in proptest::option::of((any::<usize>(), any::<usize>())),
        ) {
            let mut nums = vec![h as i64, w as i64];
            nums.extend(&doors);
            nums.extend(&clues[..h + w]);
            let t = text(&nums, h, &seps, noise);
            let slow = PathPuzzle::parse_tokens(&t);
            match parse_plain(t.as_bytes()) {
                Some(p) => prop_assert_eq!(Ok(p), slow, "{:?}", t),
                None => prop_assert!(noise.is_some() || slow.is_err(), "the usual layout missed the fast path: {:?}", t),
            }
        }
    }

    #[test]
    fn the_bundled_examples_take_the_fast_path() {
        for t in [
            include_str!("../../../examples/path/example-6x6.txt"),
            include_str!("../../../examples/path/example-7x9.txt"),
            include_str!("../../../examples/path/example-8x8-partial.txt"),
        ] {
            assert_eq!(parse_plain(t.as_bytes()), Some(PathPuzzle::parse_tokens(t).unwrap()));
        }
    }
}
