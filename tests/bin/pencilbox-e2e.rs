//! The `pencilbox` command line, built inside the test package so that cargo builds it (with
//! the same features) before the end-to-end tests run. It is the same `main_entry` as the
//! real binary.

fn main() -> std::process::ExitCode {
    pencilbox_cli::main_entry()
}
