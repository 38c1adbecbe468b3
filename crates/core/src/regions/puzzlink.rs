//! puzz.link / pzprjs URLs of region boards: `https://puzz.link/p?GENRE/W/H/BODY`, read and
//! written for the family's [`Family::genre`].
//!
//! The body is pzprjs's `encodeBorder` followed by `encodeNumber16`
//! (pzprjs, `src/variety-common/Encode.js`):
//!
//! * **Borders.** First the `(W-1)·H` vertical borders (between `(r,c)` and `(r,c+1)`, row by
//!   row), then the `W·(H-1)` horizontal borders (between `(r,c)` and `(r+1,c)`, row by row),
//!   each list packed 5 bits per character, most significant bit first, as a base-32 digit
//!   (`0-9a-v`), the last character of each list padded with zero bits.
//! * **Numbers.** Cells in row-major order: `0-9a-f` a hint below 16, `-xx` two hex digits,
//!   `+xxx` three, `=xxx` 4096 + three, `%xxx` 8192 + three; `g`..`z` skip 1..20 empty cells;
//!   `.` is an unknown number ("some number"), which constrains nothing and is read as an empty
//!   cell.
//!
//! Regions are the cell components that no border separates (pzprjs's room manager). An
//! optional non-numeric flag field may stand between the genre and the width.

use super::{Board, BoardError, Family};
use crate::error::ParseError;
use crate::grid::{Grid, Shape};
use crate::scan::{check_dims, pos_at};

/// Reads `count` border bits, 5 to a base-32 character, from `bytes[*k..]`; `at` places an error
/// at a byte offset of the body.
fn decode_borders(
    bytes: &[u8],
    k: &mut usize,
    count: usize,
    at: &dyn Fn(usize, String) -> ParseError,
) -> Result<Vec<bool>, ParseError> {
    let chars = count.div_ceil(5);
    let mut bits = vec![false; count];
    for ci in 0..chars {
        let Some(&b) = bytes.get(*k) else {
            return Err(at(
                *k,
                format!("the region borders need {chars} more characters, found the end of the URL"),
            ));
        };
        let v = (b as char)
            .to_digit(32)
            .ok_or_else(|| at(*k, format!("`{}` is not a base-32 border digit", b as char)))?;
        for bit in 0..5 {
            let id = ci * 5 + bit;
            if id < count {
                bits[id] = v & (16 >> bit) != 0;
            }
        }
        *k += 1;
    }
    Ok(bits)
}

/// Packs border bits 5 to a base-32 character, most significant first.
fn encode_borders(bits: &[bool], out: &mut String) {
    for chunk in bits.chunks(5) {
        let mut v = 0u32;
        for (i, &b) in chunk.iter().enumerate() {
            if b {
                v |= 16 >> i;
            }
        }
        out.push(char::from_digit(v, 32).unwrap_or('0'));
    }
}

/// Reads pzprjs's `Number16` clues for `n` cells from `body[*k..]` (see the module docs).
fn decode_numbers(
    body: &str,
    k: &mut usize,
    n: usize,
    at: &dyn Fn(usize, String) -> ParseError,
) -> Result<Vec<u32>, ParseError> {
    let bytes = body.as_bytes();
    let mut hints = vec![0u32; n];
    let mut c = 0usize;
    while *k < bytes.len() && c < n {
        let ch = bytes[*k] as char;
        let hex = |from: usize, len: usize| -> Result<u32, ParseError> {
            let s = body.get(from..from + len).unwrap_or("");
            if s.len() != len {
                return Err(at(from, format!("expected {len} hex digits after `{ch}`")));
            }
            u32::from_str_radix(s, 16).map_err(|_| at(from, format!("`{s}` is not hexadecimal")))
        };
        match ch {
            '0'..='9' | 'a'..='f' => hints[c] = ch.to_digit(16).unwrap_or(0),
            '-' => {
                hints[c] = hex(*k + 1, 2)?;
                *k += 2;
            }
            '+' => {
                hints[c] = hex(*k + 1, 3)?;
                *k += 3;
            }
            '=' => {
                hints[c] = hex(*k + 1, 3)? + 4096;
                *k += 3;
            }
            '%' => {
                hints[c] = hex(*k + 1, 3)? + 8192;
                *k += 3;
            }
            '.' => {}
            'g'..='z' => c += ch.to_digit(36).unwrap_or(16) as usize - 16,
            _ => return Err(at(*k, format!("unexpected `{ch}` in the clue data"))),
        }
        *k += 1;
        c += 1;
    }
    Ok(hints)
}

/// Writes hints as pzprjs's `Number16` clues, runs of empty cells as `g`..`z`.
fn encode_numbers(hints: &[u32], out: &mut String) {
    let mut count = 0u32;
    for &q in hints {
        let piece = match q {
            0 => {
                count += 1;
                String::new()
            }
            1..=15 => format!("{q:x}"),
            16..=255 => format!("-{q:x}"),
            256..=4095 => format!("+{q:x}"),
            4096..=8191 => format!("={:x}", q - 4096),
            _ => format!("%{:x}", q - 8192),
        };
        if count > 0 && (!piece.is_empty() || count == 20) {
            out.push(char::from_digit(15 + count, 36).unwrap_or('z'));
            count = 0;
        }
        out.push_str(&piece);
    }
    if count > 0 {
        out.push(char::from_digit(15 + count, 36).unwrap_or('z'));
    }
}

/// Labels the cells of an `h × w` grid by the components no border separates, in row-major
/// order of first cells; `borders` holds the vertical borders first, then the horizontal ones.
fn rooms(h: usize, w: usize, borders: &[bool]) -> Vec<u32> {
    let n = h * w;
    let nv = (w - 1) * h;
    let mut label = vec![u32::MAX; n];
    let mut next = 0u32;
    let mut stack = Vec::new();
    for s in 0..n {
        if label[s] != u32::MAX {
            continue;
        }
        label[s] = next;
        stack.push(s);
        while let Some(x) = stack.pop() {
            let (r, cc) = (x / w, x % w);
            let mut go = |y: usize, border: usize| {
                if !borders[border] && label[y] == u32::MAX {
                    label[y] = next;
                    stack.push(y);
                }
            };
            if cc + 1 < w {
                go(x + 1, r * (w - 1) + cc);
            }
            if cc > 0 {
                go(x - 1, r * (w - 1) + cc - 1);
            }
            if r + 1 < h {
                go(x + w, nv + r * w + cc);
            }
            if r > 0 {
                go(x - w, nv + (r - 1) * w + cc);
            }
        }
        next += 1;
    }
    label
}

impl Family {
    /// Parses a puzz.link (or pzv.jp) URL of the family's genre. Errors name the offending
    /// character's line and column in `text`.
    ///
    /// ```
    /// use pencilbox_core::regions::Family;
    /// let f = Family { name: "Suguru", keyword: None, genre: "suguru" };
    /// let b = f.parse_url("https://puzz.link/p?suguru/3/3/bg10j5i3").unwrap();
    /// assert_eq!(b.regions().num_regions(), 3);
    /// assert_eq!(f.to_url(&b), "https://puzz.link/p?suguru/3/3/bg10j5i3");
    /// let e = f.parse_url("https://puzz.link/p?ripple/3/3/bg10j5i3").unwrap_err();
    /// assert_eq!(e.to_string(), "1:21: expected the `suguru` genre, found `ripple`");
    /// ```
    pub fn parse_url(&self, text: &str) -> Result<Board, ParseError> {
        let start = text.len() - text.trim_start().len();
        let url = text.trim();
        let err = |off: usize, m: String| ParseError::new(pos_at(text, start + off), m);
        let Some(q) = url.find('?') else {
            return Err(err(0, "not a puzz.link URL: no `?` before the puzzle data".into()));
        };
        // Split the query into `/`-separated fields, remembering where each starts.
        let mut fields: Vec<(usize, &str)> = Vec::new();
        let mut off = q + 1;
        for f in url[q + 1..].split('/') {
            fields.push((off, f));
            off += f.len() + 1;
        }
        let (pid_off, pid) = fields[0];
        if pid != self.genre {
            return Err(err(
                pid_off,
                format!("expected the `{}` genre, found `{pid}`", self.genre),
            ));
        }
        let mut i = 1;
        // An optional flag field (non-numeric) may precede the size.
        if fields
            .get(i)
            .is_some_and(|(_, f)| !f.is_empty() && !f.bytes().all(|b| b.is_ascii_digit()))
        {
            i += 1;
        }
        let num = |i: usize, what: &str| -> Result<i64, ParseError> {
            let Some(&(o, f)) = fields.get(i) else {
                return Err(err(url.len(), format!("expected the {what}, found the end of the URL")));
            };
            f.parse::<i64>()
                .map_err(|_| err(o, format!("expected the {what} (a whole number), found `{f}`")))
        };
        let w = num(i, "width")?;
        let h = num(i + 1, "height")?;
        let (wo, ho) = (fields[i].0, fields[i + 1].0);
        let (h, w) = check_dims(h, w, pos_at(text, start + ho), pos_at(text, start + wo))?;
        let (body_off, body) = match fields.get(i + 2) {
            Some(&(o, _)) => (o, &url[o..]),
            None => (url.len(), ""),
        };
        let shape = Shape::new(h, w);
        let at = |k: usize, m: String| err(body_off + k, m);
        let mut k = 0usize;
        let mut borders = decode_borders(body.as_bytes(), &mut k, (w - 1) * h, &at)?;
        borders.extend(decode_borders(body.as_bytes(), &mut k, w * (h - 1), &at)?);
        let hints = decode_numbers(body, &mut k, shape.cells(), &at)?;
        if k < body.len() {
            return Err(at(k, "unexpected characters after the last cell".into()));
        }
        let hints = Grid::from_vec(shape, hints).expect("sized");
        let labels = Grid::from_vec(shape, rooms(h, w, &borders)).expect("sized");
        Board::new(hints, &labels).map_err(|e| match e {
            BoardError::HintTooLarge { cell, hint, size } => err(
                body_off,
                format!(
                    "hint {hint} at {} is larger than its region of {size} cells",
                    shape.name(cell)
                ),
            ),
            BoardError::ShapeMismatch => err(0, "inconsistent grid".into()),
        })
    }

    /// Writes the puzz.link URL of a board.
    pub fn to_url(&self, b: &Board) -> String {
        let s = b.shape();
        let (h, w) = (s.height, s.width);
        let reg = b.regions().grid();
        let mut body = String::new();
        let mut bits: Vec<bool> = Vec::with_capacity(2 * h * w);
        for r in 0..h {
            for c in 0..w.saturating_sub(1) {
                bits.push(reg.at(r, c) != reg.at(r, c + 1));
            }
        }
        encode_borders(&bits, &mut body);
        bits.clear();
        for r in 0..h.saturating_sub(1) {
            for c in 0..w {
                bits.push(reg.at(r, c) != reg.at(r + 1, c));
            }
        }
        encode_borders(&bits, &mut body);
        encode_numbers(b.hints().as_slice(), &mut body);
        format!("https://puzz.link/p?{}/{w}/{h}/{body}", self.genre)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::regions::RIPPLE;

    #[test]
    fn a_small_board_goes_to_a_url_and_back() {
        let b = RIPPLE
            .parse_text("ripple 3 4\n2 0 0 0\n0 0 0 5\n0 0 0 0\n1 1 2 2\n3 3 2 2\n3 3 3 2\n")
            .unwrap_or_else(|e| panic!("{e}"));
        let url = RIPPLE.to_url(&b);
        assert_eq!(url, "https://puzz.link/p?ripple/4/3/92o82l5j");
        assert_eq!(RIPPLE.parse_url(&url).unwrap(), b);
        assert_eq!(RIPPLE.parse(&url).unwrap(), b);
    }

    #[test]
    fn every_clue_width_and_run_length_round_trips() {
        // One region of 9001 cells in a row, so that every clue width is a legal hint.
        let shape = Shape::new(1, 9001);
        let mut hints = vec![0u32; 9001];
        for (i, v) in [(0, 7), (1, 200), (2, 4000), (3, 5000), (4, 9000), (30, 59)] {
            hints[i] = v;
        }
        let b = Board::new(Grid::from_vec(shape, hints).unwrap(), &Grid::filled(shape, 1)).unwrap();
        let url = RIPPLE.to_url(&b);
        let body = format!("{}7-c8+fa0=388%328zk-3b{}p", "0".repeat(1800), "z".repeat(448));
        assert_eq!(url, format!("https://puzz.link/p?ripple/9001/1/{body}"));
        assert_eq!(RIPPLE.parse_url(&url).unwrap(), b);
    }

    #[test]
    fn url_errors_name_the_offending_character() {
        let cases = [
            (
                "ripple/3/3/bg10j5i3",
                1,
                "not a puzz.link URL: no `?` before the puzzle data",
            ),
            (
                "https://puzz.link/p?suguru/1/1/",
                21,
                "expected the `ripple` genre, found `suguru`",
            ),
            (
                "https://puzz.link/p?ripple/2/x/",
                30,
                "expected the height (a whole number), found `x`",
            ),
            (
                "https://puzz.link/p?ripple/2",
                29,
                "expected the height, found the end of the URL",
            ),
            (
                "https://puzz.link/p?ripple/2/2/8",
                33,
                "the region borders need 1 more characters, found the end of the URL",
            ),
            (
                "https://puzz.link/p?ripple/2/2/w0",
                32,
                "`w` is not a base-32 border digit",
            ),
            (
                "https://puzz.link/p?ripple/2/2/00-1",
                35,
                "expected 2 hex digits after `-`",
            ),
            ("https://puzz.link/p?ripple/2/2/00+xyz", 35, "`xyz` is not hexadecimal"),
            (
                "https://puzz.link/p?ripple/2/2/00#",
                34,
                "unexpected `#` in the clue data",
            ),
            (
                "https://puzz.link/p?ripple/2/2/00j1",
                35,
                "unexpected characters after the last cell",
            ),
            (
                "https://puzz.link/p?ripple/2/2/ooi2",
                32,
                "hint 2 at r2c2 is larger than its region of 1 cells",
            ),
        ];
        for (url, col, message) in cases {
            let e = RIPPLE.parse_url(url).unwrap_err();
            assert_eq!((e.pos.line, e.pos.col, e.message.as_str()), (1, col, message), "{url}");
        }
    }
}
