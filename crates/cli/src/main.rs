//! The `pencilbox` binary: see the `pencilbox_cli` library.

fn main() -> std::process::ExitCode {
    pencilbox_cli::main_entry()
}
