//! The `pencilbox` binary: see the `pencilbox_cli` library.

/// mimalloc instead of the system allocator: every instance builds its model (peer lists,
/// watch lists, propagators), so allocation is a visible part of solving small puzzles.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    pencilbox_cli::main_entry()
}
