//! A whitespace tokenizer that remembers where every token starts, for parse errors with
//! line and column.
//!
//! Every puzzle parser reads its numbers through [`Scanner`], so that all of them report the
//! same kinds of mistakes the same way: a missing token names the end of the input, a token
//! that is not a number names its own position, and out-of-range values are refused *before*
//! anything is allocated from them (see [`Scanner::dims`] and [`MAX_CELLS`]).

use crate::error::{ParseError, Pos};

/// The largest grid (in cells) any parser accepts; larger inputs are refused with a message
/// instead of being allocated.
pub const MAX_CELLS: usize = 4_000_000;

/// The largest side length any parser accepts.
pub const MAX_SIDE: usize = 2_000_000;

/// One whitespace-separated token and where it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The token's text.
    pub text: &'a str,
    /// Where it starts.
    pub pos: Pos,
}

/// Reads whitespace-separated tokens with their positions.
///
/// ```
/// use pencilbox_core::scan::Scanner;
/// let mut s = Scanner::new("2 3\n x");
/// assert_eq!(s.int::<u32>("height").unwrap(), 2);
/// assert_eq!(s.int::<u32>("width").unwrap(), 3);
/// let err = s.int::<u32>("a hint").unwrap_err();
/// assert_eq!(err.to_string(), "2:2: expected a hint (a whole number), found `x`");
/// ```
#[derive(Clone, Debug)]
pub struct Scanner<'a> {
    text: &'a str,
    offset: usize,
    line: u32,
    col: u32,
}

impl<'a> Scanner<'a> {
    /// Starts reading `text` at line 1, column 1. A leading byte-order mark is skipped.
    pub fn new(text: &'a str) -> Self {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Scanner {
            text,
            offset: 0,
            line: 1,
            col: 1,
        }
    }

    /// The current position (after skipping nothing).
    pub fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            col: self.col,
        }
    }

    fn bump(&mut self, c: char) {
        self.offset += c.len_utf8();
        if c == '\n' {
            self.line += 1;
            self.col = 1;
        } else {
            self.col += 1;
        }
    }

    /// Skips spaces, tabs and carriage returns but not newlines; returns how many newlines
    /// follow before the next token when `skip_newlines` is set.
    fn skip_ws(&mut self, skip_newlines: bool) -> u32 {
        let mut newlines = 0;
        // ASCII by bytes (the common case), anything else by characters.
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.offset) {
            if b >= 0x80 {
                break;
            }
            if b == b'\n' {
                if !skip_newlines {
                    return newlines;
                }
                newlines += 1;
                self.offset += 1;
                self.line += 1;
                self.col = 1;
            } else if is_ascii_space(b) {
                self.offset += 1;
                self.col += 1;
            } else {
                return newlines;
            }
        }
        while let Some(c) = self.text[self.offset..].chars().next() {
            if c == '\n' {
                if !skip_newlines {
                    break;
                }
                newlines += 1;
            } else if !c.is_whitespace() {
                break;
            }
            self.bump(c);
        }
        newlines
    }

    /// Skips blank space, returning the number of line breaks crossed (so a caller can tell
    /// that a blank line separates two sections).
    pub fn skip_blank(&mut self) -> u32 {
        self.skip_ws(true)
    }

    /// Where the current line ends: just past its last token (trailing spaces skipped), before
    /// the newline; where a row that ended early is reported.
    pub fn line_end(&self) -> Pos {
        let mut s = self.clone();
        s.skip_ws(false);
        s.pos()
    }

    /// The end-of-input position (after trailing white space).
    pub fn end_pos(&self) -> Pos {
        let mut s = self.clone();
        s.skip_ws(true);
        s.pos()
    }

    /// True when only white space is left.
    pub fn at_end(&self) -> bool {
        self.text[self.offset..].trim().is_empty()
    }

    /// The next token, or `None` at the end of the input.
    pub fn next_token(&mut self) -> Option<Token<'a>> {
        self.skip_ws(true);
        let rest = &self.text[self.offset..];
        if rest.is_empty() {
            return None;
        }
        let pos = self.pos();
        // An ASCII token is measured by bytes; one with other characters by characters.
        // The token is ASCII up to the first byte that is a space or not ASCII; when that byte
        // is a space (or there is none) the whole token is ASCII and is measured by bytes.
        let ascii = rest.bytes().position(|b| b >= 0x80 || is_ascii_space(b));
        let len = match ascii {
            Some(i) if rest.as_bytes()[i] < 0x80 => i,
            None => rest.len(),
            Some(_) => {
                let len = rest.find(char::is_whitespace).unwrap_or(rest.len());
                for c in rest[..len].chars() {
                    self.bump(c);
                }
                return Some(Token {
                    text: &rest[..len],
                    pos,
                });
            }
        };
        self.offset += len;
        self.col += len as u32;
        Some(Token {
            text: &rest[..len],
            pos,
        })
    }

    /// The next token, or an error naming `what` was expected at the end of the input.
    pub fn expect(&mut self, what: &str) -> Result<Token<'a>, ParseError> {
        let end = self.end_pos();
        self.next_token()
            .ok_or_else(|| ParseError::new(end, format!("expected {what}, found the end of the input")))
    }

    /// Reads a whole number of type `T` (which may be signed).
    pub fn int<T: std::str::FromStr + TryFrom<i64>>(&mut self, what: &str) -> Result<T, ParseError> {
        let tok = self.expect(what)?;
        parse_int(tok, what)
    }

    /// Reads a whole number and checks it lies in `lo..=hi`.
    pub fn int_in(&mut self, what: &str, lo: i64, hi: i64) -> Result<i64, ParseError> {
        let tok = self.expect(what)?;
        let v: i64 = parse_int(tok, what)?;
        if v < lo || v > hi {
            return Err(ParseError::new(
                tok.pos,
                format!("{what} must be between {lo} and {hi}, found {v}"),
            ));
        }
        Ok(v)
    }

    /// Reads `height width` and checks both are at least 1, at most [`MAX_SIDE`], and that the
    /// grid has at most [`MAX_CELLS`] cells. Nothing is allocated before this check passes.
    pub fn dims(&mut self) -> Result<(usize, usize), ParseError> {
        let h_tok = self.expect("the number of rows")?;
        let h: i64 = parse_int(h_tok, "the number of rows")?;
        let w_tok = self.expect("the number of columns")?;
        let w: i64 = parse_int(w_tok, "the number of columns")?;
        check_dims(h, w, h_tok.pos, w_tok.pos)
    }

    /// The fast path for grids of small numbers: reads `rows` lines of `width` whole numbers in
    /// `0..=max` (each row on one line, rows separated by line breaks, blank lines allowed),
    /// appending them to `out`, and returns true. On anything else (a short or long row, a
    /// sign, a value above `max` or of more than nine digits, a letter, a non-ASCII byte) it
    /// returns false and leaves the scanner and `out` as they were, so that the caller reads
    /// the same rows again token by token for its exact message: the fast path never decides
    /// what an error says. It reads bytes once, without tokens or positions.
    ///
    /// ```
    /// use pencilbox_core::scan::Scanner;
    /// let mut s = Scanner::new("1 2\n\n 3 40 \nx");
    /// let mut v = Vec::new();
    /// assert!(s.uint_rows(2, 2, 99, &mut v));
    /// assert_eq!((v, s.pos().line, s.pos().col), (vec![1, 2, 3, 40], 3, 7));
    /// let mut s = Scanner::new("1 2\n3\n");
    /// assert!(!s.uint_rows(2, 2, 99, &mut Vec::new()));
    /// assert_eq!(s.pos().line, 1);
    /// ```
    pub fn uint_rows(&mut self, rows: usize, width: usize, max: u32, out: &mut Vec<u32>) -> bool {
        let bytes = self.text.as_bytes();
        let start_len = out.len();
        let mut i = self.offset;
        let mut line = self.line;
        // Byte offset where the current line starts, when a line break was crossed.
        let mut line_start: Option<usize> = None;
        let ok = 'rows: {
            for _ in 0..rows {
                // Blank space before the row, line breaks included.
                while let Some(&b) = bytes.get(i) {
                    if b == b'\n' {
                        line += 1;
                        line_start = Some(i + 1);
                    } else if !matches!(b, b' ' | b'\t' | b'\r') {
                        break;
                    }
                    i += 1;
                }
                for j in 0..width {
                    if j > 0 {
                        // At least one space, no line break, between two numbers.
                        let before = i;
                        while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\r')) {
                            i += 1;
                        }
                        if i == before {
                            break 'rows false;
                        }
                    }
                    let digits = i;
                    let mut v: u32 = 0;
                    while let Some(&b) = bytes.get(i) {
                        if !b.is_ascii_digit() {
                            break;
                        }
                        if i - digits == 9 {
                            break 'rows false;
                        }
                        v = v * 10 + u32::from(b - b'0');
                        i += 1;
                    }
                    if i == digits || v > max {
                        break 'rows false;
                    }
                    out.push(v);
                }
                // Nothing but spaces after the row on its line.
                while matches!(bytes.get(i), Some(b' ' | b'\t' | b'\r')) {
                    i += 1;
                }
                if !matches!(bytes.get(i), None | Some(b'\n')) {
                    break 'rows false;
                }
            }
            true
        };
        if !ok {
            out.truncate(start_len);
            return false;
        }
        // Only ASCII was read, so columns are bytes.
        self.col = match line_start {
            Some(s) => (i - s) as u32 + 1,
            None => self.col + (i - self.offset) as u32,
        };
        self.offset = i;
        self.line = line;
        true
    }

    /// Reads `rows` lines of `width` tokens each (one grid row per line, blank lines allowed
    /// between rows), turning each token into a cell with `cell` (an `Err` message is reported
    /// at the token). A row with fewer or more tokens is refused at the place it goes wrong.
    /// The caller has checked `rows × width` against [`MAX_CELLS`].
    ///
    /// ```
    /// use pencilbox_core::scan::Scanner;
    /// let cell = |t: &str| match t { "w" => Ok(1), "b" => Ok(2), "-" => Ok(0), _ => Err(format!("expected w, b or -, found `{t}`")) };
    /// let mut s = Scanner::new("w - b\n- - -\n");
    /// assert_eq!(s.grid_rows(2, 3, |t| cell(t.text)).unwrap(), [1, 0, 2, 0, 0, 0]);
    /// let e = Scanner::new("w -\n- - -\n").grid_rows(2, 3, |t| cell(t.text)).unwrap_err();
    /// assert_eq!(e.to_string(), "1:4: row 1 has 2 cells, expected 3");
    /// let e = Scanner::new("w - x\n").grid_rows(1, 3, |t| cell(t.text)).unwrap_err();
    /// assert_eq!(e.to_string(), "1:5: expected w, b or -, found `x`");
    /// ```
    pub fn grid_rows<T>(
        &mut self,
        rows: usize,
        width: usize,
        mut cell: impl FnMut(Token<'a>) -> Result<T, String>,
    ) -> Result<Vec<T>, ParseError> {
        let mut out = Vec::with_capacity(rows.saturating_mul(width).min(MAX_CELLS));
        let mut last_line = 0;
        for r in 0..rows {
            let mut line = 0;
            for j in 0..width {
                let before = self.clone();
                let cells = |j: usize| {
                    format!(
                        "row {} has {j} cell{}, expected {width}",
                        r + 1,
                        if j == 1 { "" } else { "s" }
                    )
                };
                let line_end = |mut at: Scanner<'a>| {
                    at.skip_ws(false);
                    at.pos()
                };
                let Some(tok) = self.next_token() else {
                    return Err(if j == 0 {
                        ParseError::new(
                            before.end_pos(),
                            format!("expected row {} of {rows}, found the end of the input", r + 1),
                        )
                    } else {
                        ParseError::new(line_end(before), cells(j))
                    });
                };
                if j == 0 {
                    if r > 0 && tok.pos.line == last_line {
                        return Err(ParseError::new(tok.pos, format!("row {r} has more than {width} cells")));
                    }
                    line = tok.pos.line;
                } else if tok.pos.line != line {
                    // The row ended early: report at the end of its line.
                    return Err(ParseError::new(line_end(before), cells(j)));
                }
                out.push(cell(tok).map_err(|m| ParseError::new(tok.pos, m))?);
            }
            last_line = line;
        }
        let mut after = self.clone();
        if let Some(tok) = after.next_token() {
            if tok.pos.line == last_line {
                return Err(ParseError::new(
                    tok.pos,
                    format!("row {rows} has more than {width} cells"),
                ));
            }
        }
        Ok(out)
    }

    /// Reads one line of `n` counts outside the grid (`what`: "column counts"): each a number
    /// from 0 to `max`, or `-` for no count.
    ///
    /// ```
    /// use pencilbox_core::scan::Scanner;
    /// let mut s = Scanner::new("2 - 0\n");
    /// assert_eq!(s.counts_line(3, "column counts", 4).unwrap(), [Some(2), None, Some(0)]);
    /// let e = Scanner::new("2 -\n1").counts_line(3, "column counts", 4).unwrap_err();
    /// assert_eq!(e.to_string(), "1:4: the column counts: 2 on this line, expected 3");
    /// let e = Scanner::new("2 5 1").counts_line(3, "column counts", 4).unwrap_err();
    /// assert_eq!(e.to_string(), "1:3: expected a count from 0 to 4 or -, found `5`");
    /// ```
    pub fn counts_line(&mut self, n: usize, what: &str, max: u32) -> Result<Vec<Option<u32>>, ParseError> {
        let mut out = Vec::with_capacity(n.min(MAX_CELLS));
        let mut line = 0;
        for j in 0..n {
            let before = self.clone();
            let short = |mut at: Scanner<'a>| {
                at.skip_ws(false);
                ParseError::new(at.pos(), format!("the {what}: {j} on this line, expected {n}"))
            };
            let Some(tok) = self.next_token() else {
                return Err(if j == 0 {
                    ParseError::new(
                        before.end_pos(),
                        format!("expected the {what}, found the end of the input"),
                    )
                } else {
                    short(before)
                });
            };
            if j == 0 {
                line = tok.pos.line;
            } else if tok.pos.line != line {
                return Err(short(before));
            }
            out.push(match tok.text {
                "-" => None,
                t => Some(t.parse::<u32>().ok().filter(|&k| k <= max).ok_or_else(|| {
                    ParseError::new(
                        tok.pos,
                        format!("expected a count from 0 to {max} or -, found `{}`", shorten(t)),
                    )
                })?),
            });
        }
        let mut after = self.clone();
        match after.next_token() {
            Some(tok) if tok.pos.line == line && n > 0 => Err(ParseError::new(
                tok.pos,
                format!("the {what}: more than {n} on this line"),
            )),
            _ => Ok(out),
        }
    }

    /// Reads a header `keyword height width` (the keyword names the genre; `detect` checks it
    /// cheaply), with the size checked as [`Scanner::dims`] does.
    pub fn header(&mut self, keyword: &str) -> Result<(usize, usize), ParseError> {
        let tok = self.expect(keyword)?;
        if tok.text != keyword {
            return Err(ParseError::new(
                tok.pos,
                format!(
                    "expected `{keyword}` (the header `{keyword} ROWS COLUMNS`), found `{}`",
                    shorten(tok.text)
                ),
            ));
        }
        self.dims()
    }

    /// Fails with "unexpected trailing input" if any token is left.
    pub fn finish(mut self, what: &str) -> Result<(), ParseError> {
        match self.next_token() {
            None => Ok(()),
            Some(t) => Err(ParseError::new(
                t.pos,
                format!("unexpected `{}` after {what}", shorten(t.text)),
            )),
        }
    }
}

/// Checks a `height × width` pair read at the given positions against the global size limits.
pub fn check_dims(h: i64, w: i64, h_pos: Pos, w_pos: Pos) -> Result<(usize, usize), ParseError> {
    for (v, pos, name) in [(h, h_pos, "number of rows"), (w, w_pos, "number of columns")] {
        if v < 1 {
            return Err(ParseError::new(
                pos,
                format!("the {name} must be at least 1, found {v}"),
            ));
        }
        if v as u64 > MAX_SIDE as u64 {
            return Err(ParseError::new(
                pos,
                format!("the {name} is {v}, more than the supported {MAX_SIDE}"),
            ));
        }
    }
    let cells = (h as u64) * (w as u64);
    if cells > MAX_CELLS as u64 {
        return Err(ParseError::new(
            h_pos,
            format!("a {h}×{w} grid has {cells} cells, more than the supported {MAX_CELLS}"),
        ));
    }
    Ok((h as usize, w as usize))
}

/// Parses a token as a whole number, with messages for non-numbers and overflow.
pub fn parse_int<T: std::str::FromStr + TryFrom<i64>>(tok: Token<'_>, what: &str) -> Result<T, ParseError> {
    let t = tok.text;
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::new(
            tok.pos,
            format!("expected {what} (a whole number), found `{}`", shorten(t)),
        ));
    }
    // Up to 18 digits cannot overflow an i64: add them up directly (the common, short case).
    let wide: i64 = if digits.len() <= 18 {
        let v = digits.bytes().fold(0i64, |v, b| v * 10 + i64::from(b - b'0'));
        if t.starts_with('-') {
            -v
        } else {
            v
        }
    } else {
        t.parse()
            .map_err(|_| ParseError::new(tok.pos, format!("{what} `{}` is too large", shorten(t))))?
    };
    T::try_from(wide).map_err(|_| ParseError::new(tok.pos, format!("{what} {wide} is out of range")))
}

/// The ASCII characters `char::is_whitespace` accepts (tab, line feed, vertical tab, form
/// feed, carriage return, space).
#[inline]
fn is_ascii_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ')
}

/// Cuts long or unprintable token text for an error message.
pub fn shorten(t: &str) -> String {
    let clean: String = t
        .chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .take(24)
        .collect();
    if t.chars().count() > 24 {
        format!("{clean}…")
    } else {
        clean
    }
}

/// Turns raw bytes into text, refusing binary input (invalid UTF-8 or a NUL byte) with the
/// position of the first offending byte.
pub fn text_from_bytes(bytes: &[u8]) -> Result<&str, ParseError> {
    let (valid, complete) = match std::str::from_utf8(bytes) {
        Ok(s) => (s, true),
        Err(e) => (std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""), false),
    };
    let (bad, message) = match valid.find('\0') {
        Some(i) => (i, "binary data (a NUL byte) in a text puzzle file"),
        None if complete => return Ok(valid),
        None => (valid.len(), "the input is not UTF-8 text (binary data?)"),
    };
    Err(ParseError::new(pos_at(valid, bad), message))
}

/// Where byte `offset` of `text` is, as a 1-based line and column in characters. An offset
/// inside a multi-byte character names that character; one past the end names the end.
///
/// ```
/// use pencilbox_core::{scan::pos_at, Pos};
/// assert_eq!(pos_at("ab\néx", 5), Pos { line: 2, col: 2 });
/// assert_eq!(pos_at("ab\néx", 4), Pos { line: 2, col: 1 });
/// ```
pub fn pos_at(text: &str, offset: usize) -> Pos {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1; // inside a multi-byte character: name the character itself
    }
    let before = &text[..end];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
    Pos { line, col }
}

/// A `serde_json` error as a [`ParseError`] at the right *character* position.
///
/// serde counts columns in bytes, so every multi-byte character before the error would move it
/// right; this converts the column to characters of that line and drops serde's own
/// "at line L column C" suffix from the message, which becomes `{what}: {serde's reason}`.
///
/// ```
/// use pencilbox_core::scan::json_error;
/// let text = "[\"éé\",x";
/// let e = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
/// let p = json_error(text, &e, "invalid JSON");
/// assert_eq!((p.pos.line, p.pos.col), (1, 7));
/// assert!(p.message.starts_with("invalid JSON: expected value"), "{}", p.message);
/// ```
pub fn json_error(text: &str, e: &serde_json::Error, what: &str) -> ParseError {
    let line_no = e.line().max(1);
    let line = text.split('\n').nth(line_no - 1).unwrap_or("");
    let mut bytes = e.column().saturating_sub(1).min(line.len());
    while !line.is_char_boundary(bytes) {
        bytes -= 1;
    }
    let col = line[..bytes].chars().count() + 1;
    let full = e.to_string();
    let reason = full.rfind(" at line ").map_or(full.as_str(), |k| &full[..k]);
    ParseError::at(line_no as u32, col as u32, format!("{what}: {reason}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_line_and_column() {
        let mut s = Scanner::new("  1 22\n\n  333");
        assert_eq!(s.next_token().unwrap().pos, Pos { line: 1, col: 3 });
        assert_eq!(s.next_token().unwrap().pos, Pos { line: 1, col: 5 });
        let t = s.next_token().unwrap();
        assert_eq!((t.text, t.pos), ("333", Pos { line: 3, col: 3 }));
        assert!(s.next_token().is_none());
    }

    #[test]
    fn overflowing_numbers_are_reported_not_wrapped() {
        let mut s = Scanner::new("99999999999999999999999");
        let e = s.int::<i64>("a size").unwrap_err();
        assert!(e.message.contains("too large"), "{e}");
        let mut s = Scanner::new("5000000000");
        let e = s.int::<u32>("a size").unwrap_err();
        assert!(e.message.contains("out of range"), "{e}");
    }

    #[test]
    fn huge_dimensions_are_refused_before_allocation() {
        let e = Scanner::new("100000 100000").dims().unwrap_err();
        assert!(e.message.contains("more than the supported"), "{e}");
        let e = Scanner::new("0 0").dims().unwrap_err();
        assert!(e.message.contains("at least 1"), "{e}");
        let e = Scanner::new("-3 4").dims().unwrap_err();
        assert_eq!(e.pos, Pos::START);
    }

    #[test]
    fn binary_input_is_refused_with_a_position() {
        let e = text_from_bytes(b"3 3\n\xff\xfe").unwrap_err();
        assert_eq!(e.pos, Pos { line: 2, col: 1 });
        let e = text_from_bytes(b"1\0").unwrap_err();
        assert_eq!(e.pos, Pos { line: 1, col: 2 });
    }

    #[test]
    fn the_end_of_input_is_named_when_a_token_is_missing() {
        let mut s = Scanner::new("1\n2\n");
        s.int::<u8>("a").unwrap();
        s.int::<u8>("b").unwrap();
        let e = s.int::<u8>("a hint").unwrap_err();
        assert_eq!(e.to_string(), "3:1: expected a hint, found the end of the input");
    }
}
