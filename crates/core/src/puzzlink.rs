//! puzz.link / pzprjs URLs: `https://puzz.link/p?PID/[FLAG/]WIDTH/HEIGHT/BODY`, the frame
//! ([`Frame`]) and the codecs of its bodies that the genres share (pzprjs,
//! `src/pzpr/parser.js` and `src/variety-common/Encode.js`):
//!
//! * **Borders** ([`decode_borders`]): first the `(W-1)·H` vertical borders (between `(r,c)`
//!   and `(r,c+1)`, row by row), then the `W·(H-1)` horizontal ones, each list packed 5 bits
//!   per character, most significant bit first, as a base-32 digit (`0-9a-v`), the last
//!   character of each list padded with zero bits; [`rooms`] labels the regions they cut.
//! * **Numbers** ([`decode_numbers`], pzprjs's `Number16`): cells in row-major order: `0-9a-f`
//!   a number below 16, `-xx` two hex digits, `+xxx` three, `=xxx` 4096 + three, `@xxx` (or
//!   `%xxx`) 8192 + three, `*xxxx` 12240 + four, `$xxxxx` 77776 + five; `g`..`z` skip 1..20
//!   empty cells; `.` is `?` (a number not given).
//! * **Circles** ([`decode_circles`], pzprjs's `Circle`): three cells to a base-27 digit
//!   (`0-9a-q`) worth `9·a + 3·b + c`, where 1 is a white circle and 2 a black one.
//!
//! The frame: the width comes before the height; a non-numeric field before them is a flag
//! (Masyu's `f`); `key=value&` before the genre and `_edit` / `_play` after it are ignored;
//! a URL ending in a character that is not a letter or digit is written with a closing `/`.

use crate::error::ParseError;
use crate::grid::Shape;
use crate::scan::{check_dims, pos_at};

/// A URL split into its frame: the genre (as written), the flag, the size and the body, with
/// positions for errors.
#[derive(Clone, Debug)]
pub struct Frame<'a> {
    text: &'a str,
    /// Where the URL starts in `text` (after leading white space).
    start: usize,
    /// The genre as written (`masyu`), without `_edit`.
    pub pid: &'a str,
    /// The flag field, when there is one (`f`).
    pub flag: Option<&'a str>,
    /// The grid's size.
    pub shape: Shape,
    /// The body (everything after the height; `/` inside it kept, a closing `/` dropped).
    pub body: &'a str,
    /// Where the body starts in the URL.
    pub body_off: usize,
}

impl<'a> Frame<'a> {
    /// Splits `text` (a URL, white space around it allowed) whose genre is one of `pids`.
    ///
    /// ```
    /// use pencilbox_core::puzzlink::Frame;
    /// let f = Frame::parse("https://puzz.link/p?mashu/f/3/3/j01", &["mashu", "masyu"]).unwrap();
    /// assert_eq!((f.pid, f.flag, f.shape.height, f.shape.width, f.body), ("mashu", Some("f"), 3, 3, "j01"));
    /// let e = Frame::parse("https://puzz.link/p?nurikabe/3/3/", &["mashu"]).unwrap_err();
    /// assert_eq!(e.to_string(), "1:21: expected the `mashu` genre, found `nurikabe`");
    /// ```
    pub fn parse(text: &'a str, pids: &[&str]) -> Result<Frame<'a>, ParseError> {
        let start = text.len() - text.trim_start().len();
        let url = text.trim();
        let err = |off: usize, m: String| ParseError::new(pos_at(text, start + off), m);
        let Some(q) = url.find('?') else {
            return Err(err(0, "not a puzz.link URL: no `?` before the puzzle data".into()));
        };
        let mut fields: Vec<(usize, &str)> = Vec::new();
        let mut off = q + 1;
        for f in url[q + 1..].split('/') {
            fields.push((off, f));
            off += f.len() + 1;
        }
        // `type=editor&pid`: the genre follows the last `&`.
        let (mut pid_off, mut pid) = fields[0];
        if let Some(amp) = pid.rfind('&') {
            pid_off += amp + 1;
            pid = &pid[amp + 1..];
        }
        let pid = pid
            .strip_suffix("_edit")
            .or_else(|| pid.strip_suffix("_play"))
            .unwrap_or(pid);
        if !pids.contains(&pid) {
            return Err(err(
                pid_off,
                format!(
                    "expected the `{}` genre, found `{pid}`",
                    pids.first().copied().unwrap_or("")
                ),
            ));
        }
        let mut i = 1;
        let mut flag = None;
        if fields.get(i).is_some_and(|(_, f)| f.starts_with("v:")) {
            i += 1;
        }
        if let Some(&(_, f)) = fields
            .get(i)
            .filter(|(_, f)| !f.is_empty() && !f.bytes().all(|b| b.is_ascii_digit()))
        {
            flag = Some(f);
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
        let (body_off, mut body) = match fields.get(i + 2) {
            Some(&(o, _)) => (o, &url[o..]),
            None => (url.len(), ""),
        };
        body = body.strip_suffix('/').unwrap_or(body);
        Ok(Frame {
            text,
            start,
            pid,
            flag,
            shape: Shape::new(h, w),
            body,
            body_off,
        })
    }

    /// An error at byte `k` of the body.
    pub fn at(&self, k: usize, message: String) -> ParseError {
        self.at_url(self.body_off + k, message)
    }

    /// An error at byte `off` of the URL.
    pub fn at_url(&self, off: usize, message: String) -> ParseError {
        ParseError::new(pos_at(self.text, self.start + off), message)
    }

    /// Fails unless the body was read to its end (`k`).
    pub fn finish(&self, k: usize) -> Result<(), ParseError> {
        if k < self.body.len() {
            return Err(self.at(k, "unexpected characters after the last cell".into()));
        }
        Ok(())
    }
}

/// Writes a URL: `https://puzz.link/p?PID/[FLAG/]W/H/BODY`, with a closing `/` when the body
/// ends in a character that is not a letter or digit (as pzprjs writes it).
pub fn url(pid: &str, flag: Option<&str>, shape: Shape, body: &str) -> String {
    let flag = flag.map(|f| format!("{f}/")).unwrap_or_default();
    let mut u = format!(
        "https://puzz.link/p?{pid}/{flag}{}/{}/{body}",
        shape.width, shape.height
    );
    if !u.ends_with(|c: char| c.is_ascii_alphanumeric()) {
        u.push('/');
    }
    u
}

/// Reads pzprjs's circles for `n` cells from `body[*k..]`: 0 none, 1 white, 2 black.
pub fn decode_circles(
    body: &str,
    k: &mut usize,
    n: usize,
    at: &dyn Fn(usize, String) -> ParseError,
) -> Result<Vec<u8>, ParseError> {
    let bytes = body.as_bytes();
    let mut out = vec![0u8; n];
    for chunk in 0..n.div_ceil(3) {
        let Some(&b) = bytes.get(*k) else {
            break; // a short body leaves the rest empty, as pzprjs reads it
        };
        let v = (b as char)
            .to_digit(27)
            .ok_or_else(|| at(*k, format!("`{}` is not a base-27 circle digit", b as char)))?;
        for (i, d) in [v / 9, v / 3 % 3, v % 3].into_iter().enumerate() {
            if let Some(slot) = out.get_mut(chunk * 3 + i) {
                *slot = d as u8;
            }
        }
        *k += 1;
    }
    Ok(out)
}

/// Writes circles (0 none, 1 white, 2 black), three cells to a base-27 digit.
pub fn encode_circles(cells: &[u8], out: &mut String) {
    for chunk in cells.chunks(3) {
        let v = chunk
            .iter()
            .chain(std::iter::repeat(&0))
            .take(3)
            .fold(0u32, |v, &c| v * 3 + u32::from(c.min(2)));
        out.push(char::from_digit(v, 27).unwrap_or('0'));
    }
}

/// Reads `count` border bits, 5 to a base-32 character, from `bytes[*k..]`; `at` places an error
/// at a byte offset of the body.
pub fn decode_borders(
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
pub fn encode_borders(bits: &[bool], out: &mut String) {
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

/// Reads pzprjs's `Number16` clues for `n` cells from `body[*k..]` (see the module docs):
/// `Some(None)` is `?` (`.`), `None` an empty cell.
pub fn decode_numbers(
    body: &str,
    k: &mut usize,
    n: usize,
    at: &dyn Fn(usize, String) -> ParseError,
) -> Result<Vec<Option<Option<u32>>>, ParseError> {
    let bytes = body.as_bytes();
    let mut hints: Vec<Option<Option<u32>>> = vec![None; n];
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
            '0'..='9' | 'a'..='f' => hints[c] = Some(ch.to_digit(16)),
            '-' => {
                hints[c] = Some(Some(hex(*k + 1, 2)?));
                *k += 2;
            }
            '+' => {
                hints[c] = Some(Some(hex(*k + 1, 3)?));
                *k += 3;
            }
            '=' => {
                hints[c] = Some(Some(hex(*k + 1, 3)? + 4096));
                *k += 3;
            }
            '%' | '@' => {
                hints[c] = Some(Some(hex(*k + 1, 3)? + 8192));
                *k += 3;
            }
            '*' => {
                hints[c] = Some(Some(hex(*k + 1, 4)? + 12240));
                *k += 4;
            }
            '$' => {
                hints[c] = Some(Some(hex(*k + 1, 5)? + 77776));
                *k += 5;
            }
            '.' => hints[c] = Some(None),
            'g'..='z' => c += ch.to_digit(36).unwrap_or(16) as usize - 16,
            _ => return Err(at(*k, format!("unexpected `{ch}` in the clue data"))),
        }
        *k += 1;
        c += 1;
    }
    Ok(hints)
}

/// Writes clues as pzprjs's `Number16` (`None` an empty cell, `Some(None)` a `?`), runs of
/// empty cells as `g`..`z`.
pub fn encode_numbers(clues: &[Option<Option<u32>>], out: &mut String) {
    let mut count = 0u32;
    for &q in clues {
        let piece = match q {
            None => {
                count += 1;
                String::new()
            }
            Some(None) => ".".to_string(),
            Some(Some(q)) => match q {
                0..=15 => format!("{q:x}"),
                16..=255 => format!("-{q:02x}"),
                256..=4095 => format!("+{q:03x}"),
                4096..=8191 => format!("={:03x}", q - 4096),
                8192..=12239 => format!("@{:03x}", q - 8192),
                12240..=77775 => format!("*{:04x}", q - 12240),
                _ => format!("${:05x}", q - 77776),
            },
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
pub fn rooms(h: usize, w: usize, borders: &[bool]) -> Vec<u32> {
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
