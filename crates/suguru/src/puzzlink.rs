//! puzz.link / pzprjs URLs for the `suguru` genre: `https://puzz.link/p?suguru/W/H/BODY`.
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
//!   `.` is an unknown number ("some number"), which in Suguru constrains nothing and is read
//!   as an empty cell.
//!
//! Regions are the cell components that no border separates (pzprjs's room manager).

use crate::model::Suguru;
use pencilbox_core::scan::check_dims;
use pencilbox_core::{Grid, ParseError, Pos, Shape};

/// Where byte `offset` of `text` is, as line and column.
fn pos_at(text: &str, offset: usize) -> Pos {
    let mut end = offset.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1; // inside a multi-byte character: name the character itself
    }
    let before = &text[..end];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) as u32 + 1;
    Pos { line, col }
}

/// Parses a puzz.link (or pzv.jp) `suguru` URL.
///
/// ```
/// let p = pencilbox_suguru::puzzlink::parse_url("https://puzz.link/p?suguru/3/3/bg10j5i3").unwrap();
/// assert_eq!(p.num_regions(), 3);
/// assert_eq!(pencilbox_suguru::puzzlink::to_url(&p), "https://puzz.link/p?suguru/3/3/bg10j5i3");
/// ```
pub fn parse_url(text: &str) -> Result<Suguru, ParseError> {
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
    if pid != "suguru" {
        return Err(err(pid_off, format!("expected the `suguru` genre, found `{pid}`")));
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
    let bytes = body.as_bytes();

    // Borders.
    let nv = (w - 1) * h;
    let nh = w * (h - 1);
    let mut borders = vec![false; nv + nh];
    let mut k = 0usize;
    let mut read_bits = |count: usize, base: usize, k: &mut usize| -> Result<(), ParseError> {
        let chars = count.div_ceil(5);
        for ci in 0..chars {
            let Some(&b) = bytes.get(*k) else {
                return Err(err(
                    body_off + *k,
                    format!("the region borders need {chars} more characters, found the end of the URL"),
                ));
            };
            let v = (b as char)
                .to_digit(32)
                .ok_or_else(|| err(body_off + *k, format!("`{}` is not a base-32 border digit", b as char)))?;
            for bit in 0..5 {
                let id = ci * 5 + bit;
                if id < count {
                    borders[base + id] = v & (16 >> bit) != 0;
                }
            }
            *k += 1;
        }
        Ok(())
    };
    read_bits(nv, 0, &mut k)?;
    read_bits(nh, nv, &mut k)?;

    // Numbers (decodeNumber16).
    let n = shape.cells();
    let mut hints = vec![0u32; n];
    let mut c = 0usize;
    while k < bytes.len() && c < n {
        let ch = bytes[k] as char;
        let hex = |from: usize, len: usize| -> Result<u32, ParseError> {
            let s = body.get(from..from + len).unwrap_or("");
            if s.len() != len {
                return Err(err(body_off + from, format!("expected {len} hex digits after `{ch}`")));
            }
            u32::from_str_radix(s, 16).map_err(|_| err(body_off + from, format!("`{s}` is not hexadecimal")))
        };
        match ch {
            '0'..='9' | 'a'..='f' => hints[c] = ch.to_digit(16).unwrap_or(0),
            '-' => {
                hints[c] = hex(k + 1, 2)?;
                k += 2;
            }
            '+' => {
                hints[c] = hex(k + 1, 3)?;
                k += 3;
            }
            '=' => {
                hints[c] = hex(k + 1, 3)? + 4096;
                k += 3;
            }
            '%' => {
                hints[c] = hex(k + 1, 3)? + 8192;
                k += 3;
            }
            '.' => {}
            'g'..='z' => c += ch.to_digit(36).unwrap_or(16) as usize - 16,
            _ => return Err(err(body_off + k, format!("unexpected `{ch}` in the clue data"))),
        }
        k += 1;
        c += 1;
    }
    if k < bytes.len() {
        return Err(err(body_off + k, "unexpected characters after the last cell".into()));
    }

    // Regions: components of cells not separated by a border.
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
    let hints = Grid::from_vec(shape, hints).expect("sized");
    let labels = Grid::from_vec(shape, label).expect("sized");
    Suguru::new(hints, &labels).map_err(|e| match e {
        crate::model::ModelError::HintTooLarge { cell, hint, size } => err(
            body_off,
            format!(
                "hint {hint} at {} is larger than its region of {size} cells",
                shape.name(cell)
            ),
        ),
        crate::model::ModelError::ShapeMismatch => err(0, "inconsistent grid".into()),
    })
}

/// Writes the puzz.link URL of an instance.
pub fn to_url(p: &Suguru) -> String {
    let s = p.shape();
    let (h, w) = (s.height, s.width);
    let reg = p.region_grid();
    let mut bits: Vec<bool> = Vec::with_capacity(2 * h * w);
    let mut body = String::new();
    let pack = |bits: &[bool], out: &mut String| {
        for chunk in bits.chunks(5) {
            let mut v = 0u32;
            for (i, &b) in chunk.iter().enumerate() {
                if b {
                    v |= 16 >> i;
                }
            }
            out.push(char::from_digit(v, 32).unwrap_or('0'));
        }
    };
    for r in 0..h {
        for c in 0..w.saturating_sub(1) {
            bits.push(reg.at(r, c) != reg.at(r, c + 1));
        }
    }
    pack(&bits, &mut body);
    bits.clear();
    for r in 0..h.saturating_sub(1) {
        for c in 0..w {
            bits.push(reg.at(r, c) != reg.at(r + 1, c));
        }
    }
    pack(&bits, &mut body);
    let mut count = 0u32;
    for &q in p.hints().as_slice() {
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
            body.push(char::from_digit(15 + count, 36).unwrap_or('z'));
            count = 0;
        }
        body.push_str(&piece);
    }
    if count > 0 {
        body.push(char::from_digit(15 + count, 36).unwrap_or('z'));
    }
    format!("https://puzz.link/p?suguru/{w}/{h}/{body}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fig1_url_decodes_to_fig1_and_encodes_back() {
        let p = crate::parse("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
        let url = to_url(&p);
        assert_eq!(url, "https://puzz.link/p?suguru/3/3/bg10j5i3");
        assert_eq!(parse_url(&url).unwrap(), p);
    }

    /// A URL made by the pzprjs editor (pzprxs fork), from the public noqx solver's examples.
    const KNOWN: &str = "https://pzprxs.vercel.app/p?suguru/6/6/adbli15d2tluj2g1l2l3l4l5g";

    #[test]
    fn a_known_editor_url_decodes_to_a_unique_puzzle_and_reencodes_to_the_same_body() {
        let p = parse_url(KNOWN).unwrap();
        assert_eq!((p.shape().height, p.shape().width), (6, 6));
        assert_eq!(p.hints().as_slice()[..7], [0, 0, 0, 0, 2, 0, 1]);
        assert_eq!(to_url(&p), "https://puzz.link/p?suguru/6/6/adbli15d2tluj2g1l2l3l4l5g");
        assert!(crate::solver::is_unique(&p, &Default::default()));
    }

    #[test]
    fn a_url_with_extra_data_after_the_clues_is_refused_at_that_character() {
        // The same genre with shaded "hole" cells appends more data, which plain Suguru does not have.
        let url = "https://pzprxs.vercel.app/p?suguru/16/6/gkca9ilcv6lapem2c8fraajtje56rd8u3r2j5h1n3k3p4m4j42j2m2p5k5g2l2h2j3000g0000000000000000";
        let e = parse_url(url).unwrap_err();
        assert_eq!(e.pos.col, 107, "{e}");
    }

    #[test]
    fn long_runs_of_empty_cells_and_big_hints_round_trip() {
        let mut text = String::from("1 30\n");
        let hints: Vec<String> = (0..30)
            .map(|i| if i == 29 { "17".into() } else { "0".into() })
            .collect();
        text.push_str(&hints.join(" "));
        text.push('\n');
        text.push_str(&vec!["1"; 30].join(" "));
        let p = crate::parse(&text).unwrap();
        let url = to_url(&p);
        assert!(url.ends_with("/30/1/000000zo-11"), "{url}");
        assert_eq!(parse_url(&url).unwrap(), p);
    }

    #[test]
    fn bad_urls_name_the_offending_character() {
        let e = parse_url("https://puzz.link/p?suguru/3/3/bg1#").unwrap_err();
        assert_eq!(e.pos.col, 35);
        let e = parse_url("https://puzz.link/p?nurikabe/3/3/").unwrap_err();
        assert!(e.message.contains("suguru"), "{e}");
        let e = parse_url("https://puzz.link/p?suguru/0/3/").unwrap_err();
        assert!(e.message.contains("at least 1"), "{e}");
        let e = parse_url("https://puzz.link/p?suguru/3/3/bgé0j5i3").unwrap_err();
        assert_eq!(e.pos.col, 34, "{e}");
        let e = parse_url("https://puzz.link/p?suguru/3/3/bg10j5i3é").unwrap_err();
        assert!(e.message.contains("unexpected"), "{e}");
        let e = parse_url("https://puzz.link/p?suguru/3/3/bg10j9").unwrap_err();
        assert!(e.message.contains("larger than its region"), "{e}");
    }
}
