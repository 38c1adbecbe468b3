//! libFuzzer target: the input bytes, as UTF-8 text, go through every `PuzzleKind` operation of the
//! `suguru` family with tight limits (see `pencilbox_fuzz::exercise` for what is asserted).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    pencilbox_fuzz::exercise(pencilbox_fuzz::kind("suguru"), data);
});
