//! libFuzzer target: the input bytes go through every `PuzzleKind` operation of *every*
//! registered family (`pencilbox_registry::PUZZLES`) with tight limits, so a genre is fuzzed
//! as soon as it is registered (see `pencilbox_fuzz::exercise` for what is asserted).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for &kind in pencilbox_fuzz::kinds() {
        pencilbox_fuzz::exercise(kind, data);
    }
});
