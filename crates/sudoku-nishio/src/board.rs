//! The Sudoku model and its file formats.
//!
//! An `ab × ab` grid with blocks of `a` rows by `b` columns (Eppstein, Section 1: "more
//! generally, Sudoku puzzles may use any ab × ab grid with blocks of size a × b"). The block
//! shape defaults from the side `n` (the most square factorisation with `a ≤ b`: 4 → 2×2,
//! 6 → 2×3, 8 → 2×4, 9 → 3×3, 12 → 3×4, 16 → 4×4, 25 → 5×5) and can be given explicitly.
//!
//! # Formats read
//! * one line of `n²` symbols: `.` or `0` for an empty cell, `1`–`9`, then `A`–`Z` for 10–35;
//! * a grid of `n` lines of `n` symbols, with or without spaces (with spaces a cell may also be
//!   a decimal number such as `12`); `|` characters and separator lines made of `-+=|` are
//!   ignored, and so are lines starting with `#`;
//! * JSON: `{"size": 9, "block": "3x3", "grid": [[5,3,0,...],...]}`, or just the array of rows
//!   (`0`/`null`/`"."` empty), or `{"grid": "53..7...."}`;
//! * a puzz.link / pzv.jp URL `https://puzz.link/p?sudoku/9/9/<body>` whose body uses the
//!   pzprjs "number16" encoding (hex digit per clue, `-xx` for clues 16–255, `g`–`z` for runs of
//!   1–20 empty cells). [`Sudoku::to_url`] writes the same encoding.
//!
//! Grids of 36×36 and more are refused (the symbol alphabet ends at `Z` = 35).

use pencilbox_core::error::{ParseError, Pos};
use pencilbox_core::scan::{json_error, Scanner};
use pencilbox_core::Domain;
use serde_json::Value;
use std::fmt;

/// The largest side supported: the symbols `1`–`9`, `A`–`Z` stop at 35.
pub const MAX_N: usize = 35;

/// The largest JSON puzzle text read (a 35×35 grid needs about 10 kB).
const MAX_JSON_BYTES: usize = 1 << 20;

/// The shape of a block: `height` rows by `width` columns (the paper's `a × b`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockShape {
    /// Rows per block (`a`).
    pub height: usize,
    /// Columns per block (`b`).
    pub width: usize,
}

impl BlockShape {
    /// A block of `height × width` cells.
    pub const fn new(height: usize, width: usize) -> Self {
        BlockShape { height, width }
    }
    /// The side of the grid, `a·b`.
    pub const fn n(self) -> usize {
        self.height * self.width
    }
    /// The usual block shape for side `n`: the most square `a × b` with `2 ≤ a ≤ b`.
    pub fn default_for(n: usize) -> Option<Self> {
        (2..=n)
            .rev()
            .find(|a| a * a <= n && n % a == 0)
            .map(|a| BlockShape::new(a, n / a))
    }
    /// Parses `AxB` (also `A×B`, `A*B`).
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim();
        let (a, b) = s.split_once(['x', 'X', '×', '*'])?;
        let a: usize = a.trim().parse().ok()?;
        let b: usize = b.trim().parse().ok()?;
        if a == 0 || b == 0 || a.checked_mul(b).is_none_or(|n| n > MAX_N) {
            return None;
        }
        Some(BlockShape::new(a, b))
    }
    /// The block index of cell `(r, c)`, row-major over the `n / height` bands and
    /// `n / width` stacks of blocks.
    #[inline]
    pub fn block_of(self, r: usize, c: usize) -> usize {
        (r / self.height) * (self.n() / self.width) + c / self.width
    }
}

impl fmt::Display for BlockShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.height, self.width)
    }
}

/// The symbol of value `v` (`1`–`9`, `A`–`Z`), `.` for 0.
pub fn symbol(v: u8) -> char {
    match v {
        0 => '.',
        1..=9 => (b'0' + v) as char,
        10..=35 => (b'A' + v - 10) as char,
        _ => '?',
    }
}

/// The value of a symbol: `Some(0)` for empty (`.`, `0`), `Some(v)` for a digit or letter.
pub fn symbol_value(c: char) -> Option<u8> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        'A'..='Z' => Some(c as u8 - b'A' + 10),
        'a'..='z' => Some(c as u8 - b'a' + 10),
        _ => None,
    }
}

/// A Sudoku puzzle: block shape and givens (`0` = empty), row-major.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sudoku {
    block: BlockShape,
    givens: Vec<u8>,
}

/// A cell read from text, with where it was.
struct RawCell {
    value: u32,
    pos: Pos,
    /// The symbol as written, when the cell was one character of a text grid.
    written: Option<char>,
}

impl Sudoku {
    /// A puzzle from a block shape and `n²` givens (`0` = empty). `None` when the sizes or values
    /// do not fit.
    pub fn new(block: BlockShape, givens: Vec<u8>) -> Option<Self> {
        let n = block.n();
        if n == 0 || n > MAX_N || givens.len() != n * n || givens.iter().any(|&v| v as usize > n) {
            return None;
        }
        Some(Sudoku { block, givens })
    }
    /// The side `n`.
    pub fn n(&self) -> usize {
        self.block.n()
    }
    /// The block shape.
    pub fn block(&self) -> BlockShape {
        self.block
    }
    /// The givens, row-major, `0` = empty.
    pub fn givens(&self) -> &[u8] {
        &self.givens
    }
    /// The given at `(r, c)` (`0` = empty).
    pub fn given(&self, r: usize, c: usize) -> u8 {
        self.givens[r * self.n() + c]
    }
    /// Number of givens.
    pub fn num_givens(&self) -> usize {
        self.givens.iter().filter(|&&v| v != 0).count()
    }

    /// Parses any supported format; `block` overrides the default block shape.
    pub fn parse(text: &str, block: Option<BlockShape>) -> Result<Sudoku, ParseError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let first = text.trim_start();
        if first.starts_with('{') || first.starts_with('[') {
            if text.len() > MAX_JSON_BYTES {
                return Err(ParseError::new(
                    Pos::START,
                    format!("a JSON Sudoku longer than {MAX_JSON_BYTES} bytes is not supported"),
                ));
            }
            return parse_json(text, block);
        }
        if let Some((line_no, line)) = text.lines().enumerate().find(|(_, l)| l.contains("sudoku/")) {
            return parse_url(line, line_no as u32 + 1, block);
        }
        parse_grid_text(text, block)
    }

    /// One line of `n²` symbols (`.` for empty).
    pub fn to_line(&self) -> String {
        self.givens.iter().map(|&v| symbol(v)).collect()
    }

    /// A drawing with block separators.
    pub fn to_pretty(&self) -> String {
        pretty_grid(self.block, &self.givens)
    }

    /// The rows as numbers (`0` = empty).
    pub fn to_rows(&self) -> Vec<Vec<u8>> {
        self.givens.chunks(self.n()).map(|r| r.to_vec()).collect()
    }

    /// The puzz.link URL (`https://puzz.link/p?sudoku/N/N/body`, pzprjs number16 body).
    pub fn to_url(&self) -> String {
        let n = self.n();
        format!("https://puzz.link/p?sudoku/{n}/{n}/{}", encode_number16(&self.givens))
    }
}

impl fmt::Display for Sudoku {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}

/// Draws an `n × n` grid of values with `|` and `-` block separators.
pub fn pretty_grid(block: BlockShape, values: &[u8]) -> String {
    let n = block.n();
    let mut out = String::new();
    for r in 0..n {
        if r > 0 && r % block.height == 0 {
            let seg = "-".repeat(block.width * 2 - 1);
            let line: Vec<String> = (0..n / block.width).map(|_| seg.clone()).collect();
            out.push_str(&line.join("-+-"));
            out.push('\n');
        }
        for c in 0..n {
            if c > 0 {
                out.push_str(if c % block.width == 0 { " | " } else { " " });
            }
            out.push(symbol(values[r * n + c]));
        }
        if r + 1 < n {
            out.push('\n');
        }
    }
    out
}

fn check_size(n: usize, pos: Pos) -> Result<(), ParseError> {
    if n > MAX_N {
        return Err(ParseError::new(
            pos,
            format!("a {n}×{n} Sudoku is not supported: the largest is {MAX_N}×{MAX_N} (symbols 1-9, A-Z)"),
        ));
    }
    if n < 4 {
        return Err(ParseError::new(
            pos,
            format!("a {n}×{n} grid is too small for Sudoku (the smallest is 4×4 with 2×2 blocks)"),
        ));
    }
    Ok(())
}

fn resolve_block(n: usize, block: Option<BlockShape>, pos: Pos) -> Result<BlockShape, ParseError> {
    match block {
        Some(b) if b.n() == n => Ok(b),
        Some(b) => Err(ParseError::new(
            pos,
            format!("{b} blocks do not tile a {n}×{n} grid (need a·b = {n})"),
        )),
        None => BlockShape::default_for(n).ok_or_else(|| {
            ParseError::new(
                pos,
                format!("{n}×{n} has no block shape a×b with a, b ≥ 2; give one with --set block=AxB"),
            )
        }),
    }
}

fn finish(n: usize, cells: Vec<RawCell>, block: Option<BlockShape>, start: Pos) -> Result<Sudoku, ParseError> {
    check_size(n, start)?;
    let block = resolve_block(n, block, start)?;
    let mut givens = Vec::with_capacity(n * n);
    for c in cells {
        if c.value as usize > n {
            let message = match c.written {
                Some(ch) if ch.is_ascii_alphabetic() => format!(
                    "`{ch}` is not a symbol of a {n}×{n} Sudoku (it stands for {}; use . or 0 for empty, 1-{})",
                    c.value,
                    symbol(n as u8)
                ),
                _ => format!(
                    "value {} is out of range for a {n}×{n} grid (1-{n}, symbols 1-{})",
                    c.value,
                    symbol(n as u8)
                ),
            };
            return Err(ParseError::new(c.pos, message));
        }
        givens.push(c.value as u8);
    }
    Ok(Sudoku { block, givens })
}

fn is_separator_line(l: &str) -> bool {
    let t = l.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, '-' | '+' | '=' | '|' | ' ' | '\t'))
}

/// Reads the cells of one content line.
fn line_cells(line: &str, line_no: u32) -> Result<Vec<RawCell>, ParseError> {
    // Token positions (1-based character columns).
    let mut toks: Vec<(u32, &str)> = Vec::new();
    let mut start: Option<(u32, usize)> = None;
    for (col, (i, ch)) in (1u32..).zip(line.char_indices()) {
        if ch.is_whitespace() || ch == '|' {
            if let Some((sc, si)) = start.take() {
                if toks.len() >= LINE_CAP {
                    return Err(ParseError::new(
                        Pos { line: line_no, col: sc },
                        format!("more than {LINE_CAP} cells on one line: far larger than the biggest supported Sudoku (35×35)"),
                    ));
                }
                toks.push((sc, &line[si..i]));
            }
        } else if start.is_none() {
            start = Some((col, i));
        }
    }
    if let Some((sc, si)) = start {
        toks.push((sc, &line[si..]));
    }
    let spaced = toks.len() >= 2
        && toks
            .iter()
            .all(|(_, t)| t.chars().count() == 1 || (t.len() <= 2 && t.bytes().all(|b| b.is_ascii_digit())));
    let mut out = Vec::new();
    if spaced {
        for (c, t) in toks {
            let pos = Pos { line: line_no, col: c };
            let value = if t.len() == 2 {
                t.parse::<u32>().unwrap_or(0)
            } else {
                let ch = t.chars().next().unwrap_or('?');
                symbol_value(ch).ok_or_else(|| {
                    ParseError::new(
                        pos,
                        format!("`{ch}` is not a Sudoku symbol (use . or 0 for empty, 1-9, A-Z)"),
                    )
                })? as u32
            };
            out.push(RawCell {
                value,
                pos,
                written: None,
            });
        }
    } else {
        for (c, t) in toks {
            for (k, ch) in t.chars().enumerate() {
                let pos = Pos {
                    line: line_no,
                    col: c + k as u32,
                };
                let v = symbol_value(ch).ok_or_else(|| {
                    ParseError::new(
                        pos,
                        format!(
                            "`{}` is not a Sudoku symbol (use . or 0 for empty, 1-9, A-Z)",
                            pencilbox_core::scan::shorten(&ch.to_string())
                        ),
                    )
                })?;
                if out.len() >= LINE_CAP {
                    return Err(ParseError::new(
                        pos,
                        format!("more than {LINE_CAP} symbols on one line: far larger than the biggest supported Sudoku (35×35)"),
                    ));
                }
                out.push(RawCell {
                    value: v as u32,
                    pos,
                    written: Some(ch),
                });
            }
        }
    }
    Ok(out)
}

/// Symbols read from one line at most (a 35×35 puzzle has 1225; a 36×36 still gets its own
/// "not supported" message).
const LINE_CAP: usize = 4 * MAX_N * MAX_N;

fn parse_grid_text(text: &str, block: Option<BlockShape>) -> Result<Sudoku, ParseError> {
    let mut rows: Vec<(u32, Vec<RawCell>)> = Vec::new();
    let mut last_line = 1u32;
    for (i, line) in text.lines().enumerate() {
        let line_no = i as u32 + 1;
        last_line = line_no;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || is_separator_line(line) {
            continue;
        }
        let cells = line_cells(line, line_no)?;
        if !cells.is_empty() {
            if rows.len() > MAX_N {
                return Err(ParseError::new(
                    Pos { line: line_no, col: 1 },
                    format!("more than {MAX_N} rows: larger than the biggest supported Sudoku (35×35)"),
                ));
            }
            rows.push((line_no, cells));
        }
    }
    let Some((first_line, _)) = rows.first() else {
        return Err(ParseError::new(
            Pos {
                line: last_line,
                col: 1,
            },
            "expected a Sudoku grid, found no cells",
        ));
    };
    let start = Pos {
        line: *first_line,
        col: 1,
    };
    if rows.len() == 1 {
        let (line_no, cells) = rows.pop().unwrap_or_default();
        let len = cells.len();
        let n = (len as f64).sqrt().round() as usize;
        if n * n != len {
            let end = cells.last().map_or(start, |c| Pos {
                line: line_no,
                col: c.pos.col + 1,
            });
            let lo = (len as f64).sqrt().floor() as usize;
            let (below, above) = ((lo * lo).max(16), ((lo + 1) * (lo + 1)).max(16));
            let hint = if below == above {
                format!("{below}")
            } else {
                format!("{below} or {above}")
            };
            return Err(ParseError::new(
                end,
                format!("wrong length: {len} symbols, but a one-line Sudoku has n² symbols (nearest: {hint})"),
            ));
        }
        return finish(n, cells, block, start);
    }
    let n = rows[0].1.len();
    if n < 4 {
        // The first row sets the size: say so, rather than name a grid the text does not hold.
        return Err(ParseError::new(
            start,
            format!(
                "the first row has {n} cell{}, so this would be a {n}×{n} Sudoku; a Sudoku has at least 4×4 cells \
                 (rows of n symbols, or one line of n² symbols)",
                if n == 1 { "" } else { "s" }
            ),
        ));
    }
    check_size(n, start)?;
    for (line_no, cells) in &rows {
        if cells.len() != n {
            let col = cells.last().map_or(1, |c| c.pos.col + 1);
            return Err(ParseError::new(
                Pos { line: *line_no, col },
                format!(
                    "this row has {} cells, expected {n} (the first row has {n})",
                    cells.len()
                ),
            ));
        }
    }
    if rows.len() != n {
        let pos = if rows.len() > n {
            Pos {
                line: rows[n].0,
                col: 1,
            }
        } else {
            // Just past the last row: the end of the text (a line that exists).
            Scanner::new(text).end_pos()
        };
        return Err(ParseError::new(
            pos,
            format!("the grid has {} rows, expected {n} (rows have {n} cells)", rows.len()),
        ));
    }
    let cells = rows.into_iter().flat_map(|(_, c)| c).collect();
    finish(n, cells, block, start)
}

fn json_cell(v: &Value, r: usize, c: usize) -> Result<u32, ParseError> {
    let at = || Pos::START;
    match v {
        Value::Null => Ok(0),
        Value::Number(x) => x.as_u64().filter(|&x| x <= 64).map(|x| x as u32).ok_or_else(|| {
            ParseError::new(
                at(),
                format!("grid row {}, column {}: `{x}` is not a value", r + 1, c + 1),
            )
        }),
        Value::String(s) if s.chars().count() == 1 => symbol_value(s.chars().next().unwrap_or('?'))
            .map(u32::from)
            .ok_or_else(|| {
                ParseError::new(
                    at(),
                    format!("grid row {}, column {}: `{s}` is not a symbol", r + 1, c + 1),
                )
            }),
        other => Err(ParseError::new(
            at(),
            format!("grid row {}, column {}: expected a number, found {other}", r + 1, c + 1),
        )),
    }
}

fn parse_json(text: &str, block: Option<BlockShape>) -> Result<Sudoku, ParseError> {
    let v: Value = serde_json::from_str(text).map_err(|e| json_error(text, &e, "invalid JSON"))?;
    let mut block = block;
    let (grid, size) = match &v {
        Value::Array(_) => (&v, None),
        Value::Object(m) => {
            if block.is_none() {
                if let Some(b) = m.get("block").and_then(Value::as_str) {
                    block = Some(BlockShape::parse(b).ok_or_else(|| {
                        ParseError::new(Pos::START, format!("`block` must look like 3x3, found `{b}`"))
                    })?);
                }
            }
            let g = m
                .get("grid")
                .or_else(|| m.get("puzzle"))
                .ok_or_else(|| ParseError::new(Pos::START, "JSON Sudoku needs a `grid` field"))?;
            (g, m.get("size").and_then(Value::as_u64))
        }
        _ => {
            return Err(ParseError::new(
                Pos::START,
                "JSON Sudoku must be an object or an array of rows",
            ))
        }
    };
    if let Value::String(s) = grid {
        return parse_grid_text(s, block);
    }
    let rows = grid
        .as_array()
        .ok_or_else(|| ParseError::new(Pos::START, "`grid` must be an array of rows or a string"))?;
    let n = rows.len();
    check_size(n, Pos::START)?;
    if let Some(s) = size {
        if s as usize != n {
            return Err(ParseError::new(
                Pos::START,
                format!("`size` is {s} but the grid has {n} rows"),
            ));
        }
    }
    let mut cells = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let row = row
            .as_array()
            .ok_or_else(|| ParseError::new(Pos::START, format!("grid row {} is not an array", r + 1)))?;
        if row.len() != n {
            return Err(ParseError::new(
                Pos::START,
                format!("grid row {} has {} cells, expected {n}", r + 1, row.len()),
            ));
        }
        for (c, x) in row.iter().enumerate() {
            cells.push(RawCell {
                value: json_cell(x, r, c)?,
                pos: Pos::START,
                written: None,
            });
        }
    }
    finish(n, cells, block, Pos::START)
}

/// Encodes values (0 = empty) with the pzprjs number16 scheme.
pub fn encode_number16(values: &[u8]) -> String {
    let mut out = String::new();
    let mut count = 0u32;
    for &v in values {
        let p = if v == 0 {
            count += 1;
            String::new()
        } else if v < 16 {
            format!("{v:x}")
        } else {
            format!("-{v:02x}")
        };
        if count == 0 {
            out.push_str(&p);
        } else if !p.is_empty() || count == 20 {
            out.push(char::from_digit(15 + count, 36).unwrap_or('z'));
            out.push_str(&p);
            count = 0;
        }
    }
    if count > 0 {
        out.push(char::from_digit(15 + count, 36).unwrap_or('z'));
    }
    out
}

fn parse_url(line: &str, line_no: u32, block: Option<BlockShape>) -> Result<Sudoku, ParseError> {
    let idx = line.find("sudoku/").unwrap_or(0);
    let col_of = |byte: usize| line[..byte.min(line.len())].chars().count() as u32 + 1;
    let rest_start = idx + "sudoku/".len();
    let rest = line[rest_start..].trim_end();
    let parts: Vec<&str> = rest.split('/').collect();
    let pos_at = |byte: usize| Pos {
        line: line_no,
        col: col_of(byte),
    };
    let num = |s: &str, off: usize| -> Result<usize, ParseError> {
        s.parse::<usize>()
            .map_err(|_| ParseError::new(pos_at(off), format!("expected a grid size in the URL, found `{s}`")))
    };
    let (n, body, body_off) = match parts.as_slice() {
        [cols, rows, body, ..] => {
            let c = num(cols, rest_start)?;
            let r = num(rows, rest_start + cols.len() + 1)?;
            if c != r {
                return Err(ParseError::new(
                    pos_at(rest_start),
                    format!("a Sudoku is square, found {c}×{r}"),
                ));
            }
            (c, *body, rest_start + cols.len() + rows.len() + 2)
        }
        [size, body] => (num(size, rest_start)?, *body, rest_start + size.len() + 1),
        _ => {
            return Err(ParseError::new(
                pos_at(rest_start),
                "expected sudoku/COLS/ROWS/BODY in the URL",
            ))
        }
    };
    let start = pos_at(rest_start);
    check_size(n, start)?;
    let total = n * n;
    let mut cells: Vec<RawCell> = Vec::with_capacity(total);
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() && cells.len() < total {
        let pos = pos_at(body_off + i);
        let ch = bytes[i] as char;
        let (value, used) = match ch {
            '0'..='9' | 'a'..='f' => (ch.to_digit(16).unwrap_or(0), 1),
            '-' | '+' => {
                let w = if ch == '-' { 2 } else { 3 };
                let hex = body.get(i + 1..i + 1 + w).unwrap_or("");
                let v = u32::from_str_radix(hex, 16)
                    .map_err(|_| ParseError::new(pos, format!("`{ch}` must be followed by {w} hex digits")))?;
                (v, 1 + w)
            }
            '.' => (0, 1),
            'g'..='z' => {
                let run = ch.to_digit(36).unwrap_or(16) as usize - 15;
                for _ in 0..run.min(total - cells.len()) {
                    cells.push(RawCell {
                        value: 0,
                        pos,
                        written: None,
                    });
                }
                i += 1;
                continue;
            }
            _ => {
                return Err(ParseError::new(
                    pos,
                    format!("`{ch}` is not valid in a puzz.link number16 body"),
                ))
            }
        };
        if value == 0 && ch != '.' {
            return Err(ParseError::new(pos, "a Sudoku clue cannot be 0"));
        }
        cells.push(RawCell {
            value,
            pos,
            written: None,
        });
        i += used;
    }
    while cells.len() < total {
        cells.push(RawCell {
            value: 0,
            pos: pos_at(body_off + bytes.len()),
            written: None,
        });
    }
    finish(n, cells, block, start)
}

/// Splits a batch file (one puzzle per line) into lines; anything else is one puzzle.
///
/// A file is a batch when it has at least two content lines, the first holds a square number
/// `L ≥ 16` of symbols without spaces, and it is not an `n × n` grid (`L` lines of `L` symbols).
pub fn batch_lines(text: &str) -> Option<Vec<(u32, &str)>> {
    let content = |l: &str| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    };
    // The first content line decides before anything else is read (a large file of another
    // kind is refused at its first line).
    let first = text.lines().find(|l| content(l))?.trim();
    let len = first.chars().count();
    let root = (len as f64).sqrt().round() as usize;
    let plain = first.chars().all(|c| symbol_value(c).is_some());
    if !plain || len < 16 || root * root != len || first.contains("sudoku/") {
        return None;
    }
    let lines: Vec<(u32, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i as u32 + 1, l))
        .filter(|(_, l)| content(l))
        .collect();
    if lines.len() < 2 || lines.len() == len {
        return None;
    }
    Some(lines)
}

/// Candidates: the values still possible in each cell (core [`Domain`] bitsets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidates {
    block: BlockShape,
    cells: Vec<Domain>,
}

/// Givens that break the rules by themselves (two equal digits in a unit, or a cell left with
/// no candidate).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contradiction {
    /// A sentence for people.
    pub message: String,
}

impl Candidates {
    /// Every value possible everywhere.
    pub fn full(block: BlockShape) -> Self {
        let n = block.n();
        Candidates {
            block,
            cells: vec![Domain::range(1, n as u32); n * n],
        }
    }
    /// Candidates after the simple eliminations from the givens: a given fixes its cell and is
    /// removed from every other cell of its row, column and block.
    pub fn from_puzzle(p: &Sudoku) -> Result<Self, Contradiction> {
        let geo = crate::geometry::Geometry::get(p.block());
        let mut cand = Candidates::full(p.block());
        for (i, &v) in p.givens().iter().enumerate() {
            if v != 0 {
                cand.cells[i] = Domain::single(v as u32);
            }
        }
        for (i, &v) in p.givens().iter().enumerate() {
            if v == 0 {
                continue;
            }
            for &j in geo.peers(i) {
                let j = j as usize;
                if p.givens()[j] == v {
                    return Err(Contradiction {
                        message: format!(
                            "the given {} at {} repeats at {} in the same row, column or block",
                            symbol(v),
                            geo.name(i),
                            geo.name(j)
                        ),
                    });
                }
                cand.cells[j].remove(v as u32);
            }
        }
        if let Some(i) = cand.cells.iter().position(|d| d.is_empty()) {
            return Err(Contradiction {
                message: format!("no value fits {} next to the givens", geo.name(i)),
            });
        }
        Ok(cand)
    }
    /// A grid from explicit per-cell candidate sets (row-major).
    pub fn from_cells(block: BlockShape, cells: Vec<Domain>) -> Option<Self> {
        (cells.len() == block.n() * block.n()).then_some(Candidates { block, cells })
    }
    /// The block shape.
    pub fn block(&self) -> BlockShape {
        self.block
    }
    /// The side `n`.
    pub fn n(&self) -> usize {
        self.block.n()
    }
    /// The candidates of cell `i` (row-major index).
    pub fn get(&self, i: usize) -> Domain {
        self.cells[i]
    }
    /// All cells' candidates.
    pub fn cells(&self) -> &[Domain] {
        &self.cells
    }
    /// Mutable access for deduction rules.
    pub fn cells_mut(&mut self) -> &mut [Domain] {
        &mut self.cells
    }
    /// The cells where digit `d` is still possible, as a [`CellMask`] (`S` in the paper).
    pub fn digit_cells(&self, d: u8) -> CellMask {
        let n = self.n();
        let mut m = CellMask::empty(n);
        for r in 0..n {
            for c in 0..n {
                if self.cells[r * n + c].contains(d as u32) {
                    m.insert(r, c);
                }
            }
        }
        m
    }
    /// The candidate grid drawn for people: each cell shows its candidates (or its value).
    pub fn to_pretty(&self) -> String {
        let n = self.n();
        let width = self.cells.iter().map(|d| d.len() as usize).max().unwrap_or(1).max(1);
        let mut out = String::new();
        for r in 0..n {
            if r > 0 && r % self.block.height == 0 {
                out.push_str(&"-".repeat(n * (width + 1) + 2 * (n / self.block.width - 1)));
                out.push('\n');
            }
            for c in 0..n {
                if c > 0 && c % self.block.width == 0 {
                    out.push_str("| ");
                }
                let s: String = self.cells[r * n + c].iter().map(|v| symbol(v as u8)).collect();
                out.push_str(&format!("{s:<width$} "));
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out
    }
}

/// A set of cells of an `n × n` grid stored as one row mask per column: bit `r` of column `c`
/// is cell `(r, c)`. This is the paper's `S` (the cells still open to one digit) and the form in
/// which the DAG search reads it (the edges entering count `c + 1` are labelled with column `c`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CellMask {
    n: u8,
    cols: [u64; MAX_N],
}

impl CellMask {
    /// The empty set for side `n`.
    pub fn empty(n: usize) -> Self {
        CellMask {
            n: n as u8,
            cols: [0; MAX_N],
        }
    }
    /// Every cell.
    pub fn full(n: usize) -> Self {
        let mut m = Self::empty(n);
        let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        for c in 0..n {
            m.cols[c] = all;
        }
        m
    }
    /// Side.
    pub fn n(&self) -> usize {
        self.n as usize
    }
    /// The row mask of column `c`.
    #[inline]
    pub fn col(&self, c: usize) -> u64 {
        self.cols[c]
    }
    /// Sets the row mask of column `c`.
    #[inline]
    pub fn set_col(&mut self, c: usize, rows: u64) {
        self.cols[c] = rows;
    }
    /// Is `(r, c)` in the set?
    #[inline]
    pub fn contains(&self, r: usize, c: usize) -> bool {
        self.cols[c] >> r & 1 == 1
    }
    /// Adds `(r, c)`.
    #[inline]
    pub fn insert(&mut self, r: usize, c: usize) {
        self.cols[c] |= 1 << r;
    }
    /// Removes `(r, c)`.
    #[inline]
    pub fn remove(&mut self, r: usize, c: usize) {
        self.cols[c] &= !(1 << r);
    }
    /// Number of cells.
    pub fn len(&self) -> usize {
        self.cols[..self.n()].iter().map(|m| m.count_ones() as usize).sum()
    }
    /// No cells?
    pub fn is_empty(&self) -> bool {
        self.cols[..self.n()].iter().all(|&m| m == 0)
    }
    /// Cells in `self` but not in `other`.
    pub fn minus(&self, other: &CellMask) -> CellMask {
        let mut m = *self;
        for c in 0..self.n() {
            m.cols[c] &= !other.cols[c];
        }
        m
    }
    /// Is every cell of `self` in `other`?
    pub fn is_subset(&self, other: &CellMask) -> bool {
        (0..self.n()).all(|c| self.cols[c] & !other.cols[c] == 0)
    }
    /// The cells `(r, c)`, column by column.
    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.n()).flat_map(move |c| {
            let mut m = self.cols[c];
            std::iter::from_fn(move || {
                if m == 0 {
                    return None;
                }
                let r = m.trailing_zeros() as usize;
                m &= m - 1;
                Some((r, c))
            })
        })
    }
    /// The cells in reading order (row by row), named `r3c4`.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<(usize, usize)> = self.iter().collect();
        v.sort();
        v.into_iter().map(|(r, c)| format!("r{}c{}", r + 1, c + 1)).collect()
    }
}

impl fmt::Debug for CellMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.n();
        for r in 0..n {
            let row: String = (0..n).map(|c| if self.contains(r, c) { 'o' } else { '.' }).collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIG4: &str = "3.9....74..5...9.2....49...6....3.2....2.5....3.1....7...78....8.3...7..91....5.8";

    #[test]
    fn default_block_shapes_follow_the_usual_variants() {
        let got: Vec<_> = [4, 6, 8, 9, 12, 16, 25]
            .iter()
            .map(|&n| BlockShape::default_for(n).unwrap().to_string())
            .collect();
        assert_eq!(got, ["2x2", "2x3", "2x4", "3x3", "3x4", "4x4", "5x5"]);
        assert_eq!(BlockShape::default_for(7), None);
    }

    #[test]
    fn a_line_parses_and_displays_back() {
        let p = Sudoku::parse(FIG4, None).unwrap();
        assert_eq!(p.n(), 9);
        assert_eq!(p.given(0, 0), 3);
        assert_eq!(p.to_line(), FIG4);
        let again = Sudoku::parse(&p.to_pretty(), None).unwrap();
        assert_eq!(again, p);
    }

    #[test]
    fn zeros_and_dots_are_both_empty() {
        let a = Sudoku::parse(&FIG4.replace('.', "0"), None).unwrap();
        assert_eq!(a, Sudoku::parse(FIG4, None).unwrap());
    }

    #[test]
    fn spaced_grids_with_numbers_parse() {
        let text = "1 2 . .\n. . 1 2\n2 . . 1\n. 1 2 .\n";
        let p = Sudoku::parse(text, None).unwrap();
        assert_eq!(p.to_line(), "12....122..1.12.");
        let big: String = (0..16)
            .map(|r| {
                (0..16)
                    .map(|c| if r == c { (c + 1).to_string() } else { "0".into() })
                    .collect::<Vec<_>>()
                    .join(" ")
                    + "\n"
            })
            .collect();
        let p = Sudoku::parse(&big, None).unwrap();
        assert_eq!(p.given(15, 15), 16);
        assert_eq!(p.block(), BlockShape::new(4, 4));
    }

    #[test]
    fn wrong_lengths_and_symbols_have_positions() {
        let e = Sudoku::parse(&FIG4[..80], None).unwrap_err();
        assert!(e.message.contains("wrong length"), "{e}");
        let e = Sudoku::parse(&FIG4.replacen('9', "A", 1), None).unwrap_err();
        assert_eq!(e.pos, Pos { line: 1, col: 3 });
        let e = Sudoku::parse("12..\n..12\n2..1\n.12\n", None).unwrap_err();
        assert_eq!(e.pos.line, 4);
        let e = Sudoku::parse("12.?\n", None).unwrap_err();
        assert!(e.message.contains("not a Sudoku symbol"));
    }

    #[test]
    fn grids_of_36_and_more_are_refused() {
        let line = ".".repeat(36 * 36);
        let e = Sudoku::parse(&line, None).unwrap_err();
        assert!(e.message.contains("not supported"), "{e}");
    }

    #[test]
    fn huge_lines_are_refused_without_reading_them_all() {
        let e = Sudoku::parse(&"1".repeat(100_000), None).unwrap_err();
        assert!(e.message.contains("far larger"), "{e}");
        let e = Sudoku::parse(&"1 ".repeat(100_000), None).unwrap_err();
        assert!(e.message.contains("far larger"), "{e}");
        let many_rows = "1234\n".repeat(100);
        let e = Sudoku::parse(&many_rows, None).unwrap_err();
        assert!(e.message.contains("rows"), "{e}");
        assert!(BlockShape::parse("99999999999x99999999999").is_none());
    }

    #[test]
    fn an_explicit_block_must_tile_the_grid() {
        let e = Sudoku::parse(FIG4, Some(BlockShape::new(2, 4))).unwrap_err();
        assert!(e.message.contains("do not tile"));
        let p = Sudoku::parse(&".".repeat(36), Some(BlockShape::new(3, 2))).unwrap();
        assert_eq!(p.block(), BlockShape::new(3, 2));
    }

    #[test]
    fn urls_round_trip_with_the_number16_encoding() {
        let p = Sudoku::parse(FIG4, None).unwrap();
        let url = p.to_url();
        assert!(url.starts_with("https://puzz.link/p?sudoku/9/9/3g9j74h5i9g2j49i6j3g2j2g5j3g1j7i78j8g3i7h91j5g8"));
        assert_eq!(Sudoku::parse(&url, None).unwrap(), p);
        // Runs longer than 20 empty cells use `z` then the rest.
        let mut g = vec![0u8; 81];
        g[80] = 9;
        g[25] = 1;
        let q = Sudoku::new(BlockShape::new(3, 3), g).unwrap();
        assert_eq!(encode_number16(q.givens()), "zk1zzt9");
        assert_eq!(Sudoku::parse(&q.to_url(), None).unwrap(), q);
    }

    #[test]
    fn url_clues_above_15_use_two_hex_digits() {
        let mut g = vec![0u8; 25 * 25];
        g[0] = 25;
        g[1] = 16;
        g[2] = 15;
        let p = Sudoku::new(BlockShape::new(5, 5), g).unwrap();
        let url = p.to_url();
        let expected = format!("/25/25/-19-10f{}h", "z".repeat(31));
        assert!(url.ends_with(&expected), "{url}");
        assert_eq!(Sudoku::parse(&url, None).unwrap(), p);
    }

    #[test]
    fn json_grids_parse() {
        let p = Sudoku::parse(
            r#"{"size":4,"grid":[[1,2,0,0],[0,0,1,2],[2,0,null,1],[0,1,2,"."]]}"#,
            None,
        )
        .unwrap();
        assert_eq!(p.to_line(), "12....122..1.12.");
        let e = Sudoku::parse("{\"grid\": [1,2,", None).unwrap_err();
        assert!(e.message.contains("invalid JSON"));
    }

    #[test]
    fn batch_files_split_into_lines_but_grids_do_not() {
        let batch = format!("{FIG4}\n{FIG4}\n");
        assert_eq!(batch_lines(&batch).unwrap().len(), 2);
        let p = Sudoku::parse(FIG4, None).unwrap();
        assert!(batch_lines(&p.to_pretty()).is_none());
        let grid16: String = (0..16).map(|_| ".".repeat(16) + "\n").collect();
        assert!(batch_lines(&grid16).is_none());
    }

    #[test]
    fn givens_in_conflict_are_a_contradiction_not_a_parse_error() {
        let p = Sudoku::parse(&format!("11{}", ".".repeat(14)), None).unwrap();
        assert!(Candidates::from_puzzle(&p).is_err());
    }

    #[test]
    fn simple_eliminations_remove_givens_from_peers() {
        let p = Sudoku::parse(FIG4, None).unwrap();
        let c = Candidates::from_puzzle(&p).unwrap();
        assert!(!c.get(1).contains(3) && !c.get(1).contains(9) && !c.get(1).contains(7));
        let s = c.digit_cells(3);
        assert!(s.contains(0, 0) && !s.contains(0, 1));
    }
}
