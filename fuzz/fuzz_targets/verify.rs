//! libFuzzer target: `verify` of every family on a split input, puzzle bytes, then the marker byte
//! 0xFF (never part of UTF-8 text), then the proposed solution (see `pencilbox_fuzz::verify_split`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    pencilbox_fuzz::verify_split(data);
});
