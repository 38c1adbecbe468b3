//! libFuzzer target: a command line and two files from structured input, run in-process by the
//! binary's own entry; see `pencilbox_fuzz::cli`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: pencilbox_fuzz::CliInput| {
    pencilbox_fuzz::cli(&input);
});
