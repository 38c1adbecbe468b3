//! Reading puzzle files (or standard input) with a size cap, and formatting input errors as
//! `FILE:LINE:COL: message`.

use pencilbox_core::scan::text_from_bytes;
use pencilbox_core::{ParseError, PuzzleError};
use std::io::Read;
use std::path::Path;

/// The largest input file read, in bytes.
pub const MAX_INPUT_BYTES: u64 = 64 * 1024 * 1024;

/// A failure the CLI reports with exit code 2.
#[derive(Debug)]
pub struct InputError(pub String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A named input: a path or `-` for standard input.
pub fn display_name(path: &Path) -> String {
    if path.as_os_str() == "-" {
        "<stdin>".to_string()
    } else if url_argument(path).is_some() {
        "<url>".to_string()
    } else {
        path.display().to_string()
    }
}

/// A puzz.link URL given where a file name goes (`pencilbox solve 'https://puzz.link/p?…'`):
/// an argument that names no file and looks like a URL is the puzzle itself.
pub fn url_argument(path: &Path) -> Option<String> {
    let text = path.to_str()?;
    let looks = text.starts_with("http://") || text.starts_with("https://") || text.contains("puzz.link/p?");
    (looks && !text.contains('\n') && !path.exists()).then(|| text.trim().to_string())
}

/// The first bytes read and checked for binary data before the rest of the input is read.
const PREFIX_BYTES: usize = 4096;

/// Reads a whole file (or stdin for `-`) as UTF-8 text, refusing huge or binary input. Binary
/// data (a NUL byte or bytes that are not UTF-8) in the first few KiB is refused before the
/// rest is read, so `/dev/urandom` is refused at once rather than after 64 MiB.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    if let Some(url) = url_argument(path) {
        return Ok(url);
    }
    let name = display_name(path);
    // Room for the prefix at once: a small file is then one `read` and the one that finds
    // its end, not one per doubling of the buffer from 32 bytes.
    let mut bytes = Vec::with_capacity(PREFIX_BYTES);
    let res = if path.as_os_str() == "-" {
        read_checked(&mut std::io::stdin().lock(), &mut bytes)
    } else {
        match std::fs::File::open(path) {
            Ok(mut f) => read_checked(&mut f, &mut bytes),
            Err(e) => return Err(InputError(format!("{name}: cannot open: {e}"))),
        }
    };
    match res {
        Ok(()) => {}
        Err(Refused::Io(e)) => return Err(InputError(format!("{name}: cannot read: {e}"))),
        Err(Refused::Binary(e)) => return Err(InputError(format!("{name}:{e}"))),
    }
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        return Err(InputError(format!(
            "{name}: the file is larger than {} MiB",
            MAX_INPUT_BYTES / (1024 * 1024)
        )));
    }
    match text_from_bytes(&bytes) {
        Ok(_) => Ok(String::from_utf8(bytes).unwrap_or_default()),
        Err(e) => Err(InputError(format!("{name}:{e}"))),
    }
}

/// Why [`read_checked`] stopped.
enum Refused {
    Io(std::io::Error),
    Binary(pencilbox_core::ParseError),
}

/// Reads a prefix, refuses it if it is binary, then reads the rest (up to one byte past the cap).
fn read_checked(r: &mut impl Read, bytes: &mut Vec<u8>) -> Result<(), Refused> {
    let mut head = r.take(PREFIX_BYTES as u64);
    head.read_to_end(bytes).map_err(Refused::Io)?;
    let r = head.into_inner();
    if let Err(e) = binary_prefix(bytes) {
        return Err(Refused::Binary(e));
    }
    if bytes.len() == PREFIX_BYTES {
        r.take(MAX_INPUT_BYTES + 1 - PREFIX_BYTES as u64)
            .read_to_end(bytes)
            .map_err(Refused::Io)?;
    }
    Ok(())
}

/// Refuses a prefix with a NUL byte or invalid UTF-8; a multi-byte character cut at the end
/// of the prefix is not an error.
fn binary_prefix(prefix: &[u8]) -> Result<(), pencilbox_core::ParseError> {
    let checked = match std::str::from_utf8(prefix) {
        Err(e) if e.error_len().is_none() => &prefix[..e.valid_up_to()],
        _ => prefix,
    };
    text_from_bytes(checked).map(|_| ())
}

/// Formats a puzzle error found in `name` (for [`PuzzleError::Solution`], `name` is the
/// solution file's), shifting parse positions by `first_line - 1`.
pub fn describe(name: &str, first_line: u32, e: &PuzzleError) -> InputError {
    match e {
        PuzzleError::Parse(ParseError { pos, message }) => {
            InputError(format!("{name}:{}:{}: {message}", pos.line + first_line - 1, pos.col))
        }
        PuzzleError::Solution(ParseError { pos, message }) => {
            InputError(format!("{name}:{}:{}: {message}", pos.line, pos.col))
        }
        other => InputError(format!("{name}: {other}")),
    }
}
