//! libFuzzer target: an HTTP request from structured input against the server's router,
//! in-process; see `pencilbox_fuzz::http`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: pencilbox_fuzz::HttpInput| {
    pencilbox_fuzz::http(&input);
});
