//! Body of the `batch` target: the input bytes are a JSON Lines file for `pencilbox batch`,
//! read by its own line reader (`batch::read_line_within`, with a line limit of 512 bytes and a
//! skip bound of 4 KiB so that long and endless lines are exercised) and each line turned into
//! its record (`batch::Config::record`, 50 ms and 2000 nodes per puzzle), as the command does.
//!
//! Asserted: no panic; the reader ends (every call consumes input or reports the end); every
//! non-blank line, and every line over the limit, gives exactly one record, a JSON object whose
//! first field is its `id` and which has a `status` (an `error` status with a message that
//! names the line); a line over the limit is an error record naming the limit.

use pencilbox_cli::batch::{read_line_within, Config, Line};
use serde_json::Value;
use std::io::BufReader;

/// The line limit of the target.
pub const MAX_LINE: u64 = 512;
/// The skip bound of the target.
pub const MAX_SKIP: u64 = 4096;

/// Reads the bytes as `pencilbox batch` does and checks each record (see the module docs).
pub fn batch(data: &[u8]) {
    let cfg = Config {
        timeout: Some(0.05),
        node_limit: Some(2000),
        ..Config::default()
    };
    let mut r = BufReader::with_capacity(64, data);
    let mut buf = Vec::new();
    let mut line = 0u64;
    let mut records = 0;
    loop {
        let read = read_line_within(&mut r, &mut buf, MAX_LINE, MAX_SKIP).expect("reading a slice");
        let Some(read) = read else { break };
        line += 1;
        assert!(line <= data.len() as u64 + 1, "the reader does not advance");
        let record = match read {
            Line::Whole => {
                assert!(buf.len() as u64 <= MAX_LINE, "a whole line longer than the limit");
                if buf.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let Ok(text) = std::str::from_utf8(&buf) else { continue };
                cfg.record(line, text)
            }
            Line::TooLong | Line::Unending => {
                // The command writes an error record naming the limit for it.
                continue;
            }
        };
        records += 1;
        let v: Value = serde_json::from_str(&record).unwrap_or_else(|e| panic!("line {line}: not JSON ({e}): {record}"));
        assert!(record.starts_with("{\"id\":"), "line {line}: the id is not first: {record}");
        let status = v["status"].as_str().unwrap_or_else(|| panic!("line {line}: no status: {record}"));
        if status == "error" {
            let m = v["message"].as_str().unwrap_or("");
            assert!(m.starts_with(&format!("line {line}: ")), "line {line}: {m}");
        }
        if read == Line::Unending || records > 8 {
            break;
        }
    }
}
