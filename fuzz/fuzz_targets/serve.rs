//! libFuzzer target: see `pencilbox_fuzz::serve`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    pencilbox_fuzz::serve(data);
});
