//! Helpers for the end-to-end tests: run the built `pencilbox` binary with arguments and
//! standard input, and check its exit code and output with readable failure messages.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// `../shared/data/<rel>` beside the workspace, when it exists; otherwise prints a skip line.
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    let p = root().join("../shared/data").join(rel);
    if p.exists() {
        Some(p)
    } else {
        pencilbox_core::testing::skip_shared(&format!(
            "{} not found (../shared/data is not part of a clone)",
            p.display()
        ));
        None
    }
}

/// The path of the command-line binary of the same profile as this test.
///
/// It is this package's `pencilbox-e2e` target (`bin/pencilbox-e2e.rs`, the same `main_entry`
/// as `pencilbox`), which cargo builds before running the integration tests.
pub fn binary() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        // The test executable lives in target/<profile>/deps/.
        let exe = std::env::current_exe().expect("test executable path");
        let profile_dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target/<profile>")
            .to_path_buf();
        let bin = profile_dir.join(format!("pencilbox-e2e{}", std::env::consts::EXE_SUFFIX));
        assert!(bin.is_file(), "{} was not built", bin.display());
        bin
    })
}

/// What a run printed and how it ended.
#[derive(Debug)]
pub struct Output {
    /// Exit code (`-1` when killed by a signal).
    pub code: i32,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Output {
    /// Asserts the exit code, showing both streams on failure.
    #[track_caller]
    pub fn code(&self, expected: i32) -> &Self {
        assert_eq!(
            self.code, expected,
            "exit code {} (expected {expected})\n--- stdout\n{}\n--- stderr\n{}",
            self.code, self.stdout, self.stderr
        );
        self
    }
    /// Asserts that stderr contains `needle`.
    #[track_caller]
    pub fn stderr_has(&self, needle: &str) -> &Self {
        assert!(
            self.stderr.contains(needle),
            "stderr lacks {needle:?}:\n{}",
            self.stderr
        );
        self
    }
    /// Asserts that stdout contains `needle`.
    #[track_caller]
    pub fn stdout_has(&self, needle: &str) -> &Self {
        assert!(
            self.stdout.contains(needle),
            "stdout lacks {needle:?}:\n{}",
            self.stdout
        );
        self
    }
    /// Parses stdout as one JSON value.
    #[track_caller]
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}):\n{}", self.stdout))
    }
}

/// Runs `pencilbox ARGS` in the workspace root with `stdin` as standard input.
pub fn run_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(binary())
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start pencilbox");
    if let Some(mut input) = child.stdin.take() {
        // The program may exit before reading everything; that is not a test failure.
        let _ = input.write_all(stdin);
    }
    let out = child.wait_with_output().expect("wait for pencilbox");
    Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `pencilbox ARGS` in the workspace root with empty standard input.
pub fn run(args: &[&str]) -> Output {
    run_with_stdin(args, b"")
}

/// Runs `pencilbox bench --format json ARGS DIR` and asserts that all `instances` instances
/// were solved and every one matched its answer file.
#[track_caller]
pub fn assert_bench_matches_answers(args: &[&str], dir: &Path, instances: u64) {
    let mut full = vec!["bench", "--format", "json"];
    full.extend_from_slice(args);
    let dir = dir.to_str().unwrap_or_default();
    full.push(dir);
    let v = run(&full).code(0).json();
    let what = full.join(" ");
    assert_eq!(v["summary"]["instances"], instances, "{what}");
    assert_eq!(v["summary"]["solved"], instances, "{what}");
    assert_eq!(v["summary"]["mismatches"], 0, "{what}");
    let all_match = v["instances"]
        .as_array()
        .is_some_and(|a| a.iter().all(|i| i["matches_answer"] == true));
    assert!(all_match, "{what}: every instance has an answer file and matches it");
}

/// Runs `pencilbox verify PUZZLE SOLUTION` and asserts that the solution is valid (exit 0).
#[track_caller]
pub fn assert_verifies(puzzle: &Path, solution: &Path) {
    run(&[
        "verify",
        puzzle.to_str().unwrap_or_default(),
        solution.to_str().unwrap_or_default(),
    ])
    .code(0)
    .stdout_has("valid");
}

/// Writes `content` to a fresh temporary file and returns its path.
pub fn temp_file(name: &str, content: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pencilbox-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    let p = dir.join(name);
    std::fs::write(&p, content).expect("write temp file");
    p
}

/// Runs `pencilbox ARGS` (empty standard input) with its address space limited to `mem_kib`
/// KiB (`ulimit -v` in a shell on Unix; no limit elsewhere) and returns how long it took.
pub fn run_bounded(args: &[&str], mem_kib: u64) -> (Output, std::time::Duration) {
    let t0 = std::time::Instant::now();
    let mut cmd = if cfg!(unix) {
        let mut c = Command::new("sh");
        c.arg("-c")
            .arg(format!("ulimit -v {mem_kib} && exec \"$0\" \"$@\""))
            .arg(binary())
            .args(args);
        c
    } else {
        let mut c = Command::new(binary());
        c.args(args);
        c
    };
    let out = cmd
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("start pencilbox");
    let out = Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    (out, t0.elapsed())
}
