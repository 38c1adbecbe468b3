//! Running the `pencilbox` binary from the repository root, for the CLI's end-to-end tests.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A finished run: exit code and both streams.
pub struct Out {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// The repository root (the binary runs there, so `examples/…` paths work).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `pencilbox ARGS…` from the repository root.
pub fn run(args: &[&str]) -> Out {
    let o = Command::new(env!("CARGO_BIN_EXE_pencilbox"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}
