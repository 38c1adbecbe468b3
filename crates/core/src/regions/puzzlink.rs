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
use crate::puzzlink::{decode_borders, decode_numbers, encode_borders, encode_numbers, rooms, Frame};

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
        let f = Frame::parse(text, &[self.genre])?;
        let (h, w, body) = (f.shape.height, f.shape.width, f.body);
        let err = |off: usize, m: String| f.at_url(off, m);
        let body_off = f.body_off;
        let shape = Shape::new(h, w);
        let at = |k: usize, m: String| err(body_off + k, m);
        let mut k = 0usize;
        let mut borders = decode_borders(body.as_bytes(), &mut k, (w - 1) * h, &at)?;
        borders.extend(decode_borders(body.as_bytes(), &mut k, w * (h - 1), &at)?);
        let hints: Vec<u32> = decode_numbers(body, &mut k, shape.cells(), &at)?
            .into_iter()
            .map(|v| v.flatten().unwrap_or(0))
            .collect();
        if k < body.len() {
            hole_mask(&body[k..], shape, self.name, &|j, m| at(k + j, m))?;
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

    /// Writes the puzz.link URL of a board (with no hole mask: every cell is in a region).
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
        let hints: Vec<Option<Option<u32>>> = b
            .hints()
            .as_slice()
            .iter()
            .map(|&v| (v != 0).then_some(Some(v)))
            .collect();
        encode_numbers(&hints, &mut body);
        crate::puzzlink::url(self.genre, None, s, &body)
    }
}

/// Reads pzprjs's optional hole mask after the numbers (`decodeEmpty`: one bit per cell in
/// row-major order, 5 bits to a base-32 character, most significant first, written only when
/// some cell is a hole, `ceil(cells / 5)` characters). A region board has no holes (every cell
/// belongs to a region and holds a number), so a set bit is refused, with the hole's cell and
/// the character that holds its bit; an all-zero (or shortened) mask is accepted.
fn hole_mask(
    mask: &str,
    shape: Shape,
    family: &str,
    at: &dyn Fn(usize, String) -> ParseError,
) -> Result<(), ParseError> {
    let cells = shape.cells();
    for (j, ch) in mask.char_indices() {
        if j >= cells.div_ceil(5) {
            return Err(at(j, "unexpected characters after the last cell".into()));
        }
        let Some(v) = ch.to_digit(32) else {
            return Err(at(
                j,
                format!("unexpected `{ch}` after the last cell (the hole mask is base 32)"),
            ));
        };
        for bit in 0..5 {
            if v & (16 >> bit) == 0 {
                continue;
            }
            let cell = j * 5 + bit;
            if cell >= cells {
                return Err(at(j, "unexpected characters after the last cell".into()));
            }
            return Err(at(
                j,
                format!(
                    "{} is a hole (the URL's hole mask), and pencilbox's {family} has no holes: every cell belongs to a region",
                    shape.name(crate::grid::CellId::from_index(cell))
                ),
            ));
        }
    }
    Ok(())
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
        let body = format!("{}7-c8+fa0=388@328zk-3b{}p", "0".repeat(1800), "z".repeat(448));
        assert_eq!(url, format!("https://puzz.link/p?ripple/9001/1/{body}"));
        assert_eq!(RIPPLE.parse_url(&url).unwrap(), b);
    }

    /// pzprjs (since 2026-04) writes a hole mask after the numbers when some cell is a hole
    /// (`/tmp/research/puzzlink.md` §5, vectors G1 to G3): holes are refused at the mask's
    /// character, naming the cell; a mask of zeros (no hole) is read.
    #[test]
    fn suguru_hole_masks_are_refused_with_the_hole_named() {
        use crate::regions::Family;
        let suguru = Family {
            name: "Suguru",
            keyword: None,
            genre: "suguru",
        };
        // G1: no holes, no mask.
        let g1 = suguru
            .parse_url("https://puzz.link/p?suguru/5/5/cih47bs73m3g5p1g2g")
            .unwrap();
        assert_eq!(g1.regions().num_regions(), 7);
        // G2: a hole at row 3, column 1 (bit 8: the mask's second character, `2`).
        let e = suguru
            .parse_url("https://puzz.link/p?suguru/4/4/asgdf01h2h3l2g10200")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "1:48: r3c1 is a hole (the URL's hole mask), and pencilbox's Suguru has no holes: every cell belongs to a region"
        );
        // The shortened mask pzprjs also reads.
        let e = suguru
            .parse_url("https://puzz.link/p?suguru/4/4/asgdf01h2h3l2g102")
            .unwrap_err();
        assert!(e.to_string().starts_with("1:48: r3c1 is a hole"), "{e}");
        // G3: holes at cells 0 and 8; the first is named.
        let e = suguru
            .parse_url("https://puzz.link/p?suguru/3/3/0000j.jg2")
            .unwrap_err();
        assert!(e.to_string().starts_with("1:39: r1c1 is a hole"), "{e}");
        // G2 without its hole: an all-zero mask is no hole at all.
        let plain = suguru
            .parse_url("https://puzz.link/p?suguru/4/4/asgdf01h2h3l2g1")
            .unwrap();
        assert_eq!(
            suguru
                .parse_url("https://puzz.link/p?suguru/4/4/asgdf01h2h3l2g10000")
                .unwrap(),
            plain
        );
        // More characters than the mask has, or a character outside base 32.
        let e = suguru
            .parse_url("https://puzz.link/p?suguru/4/4/asgdf01h2h3l2g100000")
            .unwrap_err();
        assert!(
            e.to_string().contains("unexpected characters after the last cell"),
            "{e}"
        );
        let e = suguru
            .parse_url("https://puzz.link/p?suguru/4/4/asgdf01h2h3l2g1w")
            .unwrap_err();
        assert!(e.to_string().contains("the hole mask is base 32"), "{e}");
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
