//! Path puzzles as URLs in the puzz.link style: `https://puzz.link/p?pathpuzzle/W/H/BODY`.
//!
//! puzz.link (pzprjs) has no Path puzzle genre, so this is pencilbox's own URL, written in
//! pzprjs's frame and with its `Number16` codec ([`pencilbox_core::puzzlink`]); such a link
//! does not open on puzz.link itself, but the playground (`/?url=…`) and every `pencilbox`
//! command read it. The frame is puzz.link's: the width before the height, `key=value&` before
//! the genre and `_edit` / `_play` after it ignored, any host. The body is:
//!
//! * **door A, then door B**: each the row-major index of its cell, `r·W + c` (0-based), as one
//!   `Number16` token (`0`-`f` for 0 to 15, `-xx` two hex digits, `+xxx` three, …);
//! * **the clues**, in pzprjs's order of clues outside the grid (as its Snake writes them): the
//!   `W` column clues left to right, then the `H` row clues top to bottom, as `Number16`: a clue
//!   as its token, a run of 1 to 20 rows or columns without a clue as `g` to `z`.
//!
//! The paper's 3×3 example of doors (1, 1) and (3, 3), row clues 3 1 1 and column clues 1 1 3
//! is `https://puzz.link/p?pathpuzzle/3/3/08113311`:
//!
//! ```
//! use pencilbox_pathpuzzle::{puzzlink, PathPuzzle};
//! let p = PathPuzzle::parse("3 3\n1 1\n3 3\n\n3 1 1\n1 1 3\n").unwrap();
//! assert_eq!(puzzlink::to_url(&p), "https://puzz.link/p?pathpuzzle/3/3/08113311");
//! assert_eq!(puzzlink::parse_url("https://puzz.link/p?pathpuzzle/3/3/08113311").unwrap(), p);
//! // Without clues on row 2 and columns 1 to 2: runs `h` (two) and `g` (one).
//! let q = PathPuzzle::parse("3 3\n1 1\n3 3\n\n3 -1 1\n-1 -1 3\n").unwrap();
//! assert_eq!(puzzlink::to_url(&q), "https://puzz.link/p?pathpuzzle/3/3/08h33g1");
//! ```

use crate::model::PathPuzzle;
use pencilbox_core::puzzlink::{decode_numbers, encode_numbers, url, Frame};
use pencilbox_core::ParseError;

/// The genre of the URL (`p?pathpuzzle/…`).
pub const PID: &str = "pathpuzzle";

/// Does `text` look like a Path URL (`…?pathpuzzle/…`)?
pub fn is_url(text: &str) -> bool {
    let t = text.trim();
    t.contains("?") && (t.contains("?pathpuzzle/") || t.contains("&pathpuzzle/") || t.contains("pathpuzzle_"))
}

/// Reads a Path URL (see the module docs); errors name the offending character's line and
/// column in `text`.
pub fn parse_url(text: &str) -> Result<PathPuzzle, ParseError> {
    let f = Frame::parse(text, &[PID])?;
    let (h, w) = (f.shape.height, f.shape.width);
    let body = f.body;
    let at = |k: usize, m: String| f.at(k, m);
    let mut k = 0usize;
    let mut doors = [(0usize, 0usize); 2];
    for (i, name) in ["A", "B"].into_iter().enumerate() {
        let start = k;
        let cell = decode_numbers(body, &mut k, 1, &at)?;
        let index = match cell.first() {
            Some(Some(Some(v))) => *v as usize,
            _ if start >= body.len() => {
                return Err(at(
                    start,
                    format!("expected door {name}'s cell, found the end of the URL"),
                ));
            }
            _ => {
                return Err(at(
                    start,
                    format!("expected door {name}'s cell as a number (its row-major index)"),
                ))
            }
        };
        if index >= h * w {
            return Err(at(
                start,
                format!("door {name} is cell {index}, outside the {h}×{w} grid"),
            ));
        }
        doors[i] = (index / w, index % w);
    }
    let clues_at = k;
    let clues = decode_numbers(body, &mut k, w + h, &at)?;
    f.finish(k)?;
    let mut plain = Vec::with_capacity(w + h);
    for c in clues {
        match c {
            None => plain.push(None),
            Some(Some(v)) => plain.push(Some(v)),
            Some(None) => return Err(at(clues_at, "a `?` clue (`.`) means nothing in a Path puzzle".into())),
        }
    }
    let (cols, rows) = plain.split_at(w);
    PathPuzzle::new(h, w, doors[0], doors[1], rows.to_vec(), cols.to_vec()).map_err(|e| at(0, e.0))
}

/// Writes the URL of a Path puzzle (see the module docs).
pub fn to_url(p: &PathPuzzle) -> String {
    let w = p.width();
    let mut body = String::new();
    for (r, c) in [p.door_a(), p.door_b()] {
        encode_numbers(&[Some(Some((r * w + c) as u32))], &mut body);
    }
    let clues: Vec<Option<Option<u32>>> = p.col_clues().iter().chain(p.row_clues()).map(|c| c.map(Some)).collect();
    encode_numbers(&clues, &mut body);
    url(PID, None, p.shape(), &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_example_goes_to_a_url_and_back() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/path");
        let mut seen = 0;
        for e in std::fs::read_dir(&root).unwrap() {
            let path = e.unwrap().path();
            if path.extension().is_some_and(|x| x == "txt") {
                let p = PathPuzzle::parse(&std::fs::read_to_string(&path).unwrap()).unwrap();
                let u = to_url(&p);
                assert!(is_url(&u), "{u}");
                assert_eq!(parse_url(&u).unwrap(), p, "{}: {u}", path.display());
                assert_eq!(PathPuzzle::parse(&u).unwrap(), p, "{u}");
                seen += 1;
            }
        }
        assert!(seen >= 3);
    }

    #[test]
    fn large_cells_and_long_runs_round_trip() {
        // A 30×40 grid: door B's index needs three hex digits, clues above 15 two, and 65
        // columns and rows without a clue run as `zzzk`.
        let mut cols = vec![None; 40];
        cols[3] = Some(17);
        let mut rows = vec![None; 30];
        rows[29] = Some(40);
        let p = PathPuzzle::new(30, 40, (0, 0), (29, 39), rows, cols).unwrap();
        let u = to_url(&p);
        assert_eq!(u, "https://puzz.link/p?pathpuzzle/40/30/0+4afi-11zzzk-28");
        assert_eq!(parse_url(&u).unwrap(), p);
    }

    #[test]
    fn the_frame_is_puzz_links() {
        let p = parse_url("https://puzz.link/p?pathpuzzle/3/3/08113311").unwrap();
        for u in [
            "http://localhost/p?type=editor&pathpuzzle/3/3/08113311",
            "https://puzz.link/p?pathpuzzle_play/3/3/08113311/",
            "  https://example.org/p?pathpuzzle/3/3/08113311\n",
        ] {
            assert_eq!(parse_url(u).unwrap(), p, "{u}");
        }
    }

    #[test]
    fn bad_urls_are_refused_at_their_character() {
        for (u, col, msg) in [
            (
                "https://puzz.link/p?pathpuzzle/3/3/",
                36,
                "expected door A's cell, found the end of the URL",
            ),
            (
                "https://puzz.link/p?pathpuzzle/3/3/0g",
                37,
                "expected door B's cell as a number",
            ),
            (
                "https://puzz.link/p?pathpuzzle/3/3/09113311",
                37,
                "door B is cell 9, outside the 3×3 grid",
            ),
            (
                "https://puzz.link/p?pathpuzzle/3/3/04113311",
                36,
                "door B (2, 2) is not on the edge",
            ),
            (
                "https://puzz.link/p?pathpuzzle/3/3/08913311",
                36,
                "a column clue is at most 3, found 9",
            ),
            ("https://puzz.link/p?pathpuzzle/3/3/08.13311", 38, "a `?` clue"),
            (
                "https://puzz.link/p?pathpuzzle/3/3/081133110",
                44,
                "unexpected characters after the last cell",
            ),
            (
                "https://puzz.link/p?suguru/3/3/08113311",
                21,
                "expected the `pathpuzzle` genre",
            ),
        ] {
            let e = parse_url(u).unwrap_err();
            assert!(e.to_string().contains(msg), "{u}: {e}");
            assert_eq!((e.pos.line, e.pos.col), (1, col), "{u}: {e}");
        }
    }
}
