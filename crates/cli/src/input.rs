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
    } else {
        path.display().to_string()
    }
}

/// Reads a whole file (or stdin for `-`) as UTF-8 text, refusing huge or binary input.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    let name = display_name(path);
    let mut bytes = Vec::new();
    let res = if path.as_os_str() == "-" {
        std::io::stdin()
            .lock()
            .take(MAX_INPUT_BYTES + 1)
            .read_to_end(&mut bytes)
    } else {
        match std::fs::File::open(path) {
            Ok(f) => f.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes),
            Err(e) => return Err(InputError(format!("{name}: cannot open: {e}"))),
        }
    };
    if let Err(e) = res {
        return Err(InputError(format!("{name}: cannot read: {e}")));
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
