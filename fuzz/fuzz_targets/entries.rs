//! libFuzzer target: see `pencilbox_fuzz::entries`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    pencilbox_fuzz::entries(data);
});
