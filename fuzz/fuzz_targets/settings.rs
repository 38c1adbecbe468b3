//! libFuzzer target: a header line `puzzle=NAME;algorithm=A;key=value` (the CLI's `--puzzle`,
//! `--algorithm`, `--set`), then the puzzle; see `pencilbox_fuzz::settings`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    pencilbox_fuzz::settings(data);
});
