//! Issue 29: a CI that hides nothing. A skipped check goes to the skip log
//! (`PENCILBOX_SKIP_LOG`, `pencilbox_core::testing::skip_for`) instead of a `skip:` line, and
//! `scripts/ci-skips.py` prints one summary line and fails a CI run on a skip off the allow-list
//! (checks that read ../shared/data, when it is absent), Python's `-rs` skips included.

use pencilbox_tests::root;
use std::path::Path;
use std::process::Command;

/// Set in the child run of this test binary that reports skips.
const CHILD: &str = "PENCILBOX_SKIP_TEST_CHILD";

#[test]
fn a_skip_reports_itself() {
    // Only in the child run below: report one skip of each kind.
    if std::env::var_os(CHILD).is_some() {
        pencilbox_core::testing::skip_shared("../shared/data/x is not present");
        pencilbox_core::testing::skip_shared("../shared/data/y is not present");
        pencilbox_core::testing::skip("a tool is missing");
    }
}

fn run_child(log: Option<&Path>) -> std::process::Output {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["--exact", "a_skip_reports_itself", "--test-threads", "1"])
        .env(CHILD, "1")
        .env_remove(pencilbox_core::testing::SKIP_LOG);
    if let Some(log) = log {
        cmd.env(pencilbox_core::testing::SKIP_LOG, log);
    }
    cmd.output().unwrap()
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("pencilbox-ci-skips-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn skips_go_to_the_log_or_once_per_reason_to_stderr() {
    // Without a log: the shared-data reason once per test binary, the others each.
    let out = run_child(None);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("skip:")).collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].contains("../shared/data/x") && lines[0].contains("PENCILBOX_SKIP_LOG"),
        "{err}"
    );
    assert_eq!(lines[1], "skip: a tool is missing");
    // With a log: nothing on stderr, one line per skipped check.
    let dir = temp_dir("log");
    let log = dir.join("skips.log");
    let out = run_child(Some(&log));
    assert!(out.status.success());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("skip:"));
    let text = std::fs::read_to_string(&log).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), 3, "{text}");
    assert_eq!(rows[0][0], "shared-data");
    assert_eq!(rows[0][1], "ci_skips::a_skip_reports_itself");
    assert_eq!(
        rows[2],
        vec!["missing", "ci_skips::a_skip_reports_itself", "a tool is missing"]
    );
}

/// Runs `scripts/ci-skips.py summary LOG --shared-data DIR [--ci]`.
fn summary(log: &Path, shared: &Path, ci: bool) -> (i32, String) {
    let mut cmd = Command::new("python3");
    cmd.arg(root().join("scripts/ci-skips.py"))
        .arg("summary")
        .arg(log)
        .arg("--shared-data")
        .arg(shared)
        .env_remove("CI");
    if ci {
        cmd.arg("--ci");
    }
    let out = cmd.output().expect("python3 runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

#[test]
fn ci_fails_on_a_skip_off_the_allow_list_and_prints_one_summary_line() {
    let dir = temp_dir("summary");
    let absent = dir.join("no-shared-data");
    let present = dir.join("shared-data");
    std::fs::create_dir_all(&present).unwrap();
    let shared_only = dir.join("shared.log");
    std::fs::write(
        &shared_only,
        "shared-data\tshared_data::a\t../shared/data/a is not present\n".repeat(173),
    )
    .unwrap();
    // 173 shared-data skips without ../shared: allowed, one summary line.
    let (code, text) = summary(&shared_only, &absent, true);
    assert_eq!(code, 0, "{text}");
    assert!(
        text.starts_with("skipped: 173 checks (173 shared-data); allowed: 173; not allowed: 0"),
        "{text}"
    );
    assert!(!text.contains("skip:"), "{text}");
    // With ../shared/data present they must run.
    let (code, text) = summary(&shared_only, &present, true);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("not allowed: 173"), "{text}");
    // A missing tool, and a Python skip from pytest's -rs list, fail a CI run...
    let mixed = dir.join("mixed.log");
    std::fs::write(&mixed, "missing\tserve_browser::x\tchromium not found\n").unwrap();
    let pytest_out = dir.join("pytest.log");
    std::fs::write(
        &pytest_out,
        "..s.\nSKIPPED [2] crates/python/tests/test_pencilbox.py:28: no pencilbox binary\n2 passed, 2 skipped in 0.1s\n",
    )
    .unwrap();
    let st = Command::new("python3")
        .arg(root().join("scripts/ci-skips.py"))
        .args(["pytest"])
        .arg(&pytest_out)
        .arg(&mixed)
        .status()
        .unwrap();
    assert!(st.success());
    let (code, text) = summary(&mixed, &absent, true);
    assert_eq!(code, 1, "{text}");
    assert!(text.contains("skipped: 3 checks (1 missing, 2 python)"), "{text}");
    assert!(
        text.contains("not allowed: python: crates/python/tests/test_pencilbox.py:28: no pencilbox binary"),
        "{text}"
    );
    // ...and are listed, without failing, outside CI.
    let (code, _) = summary(&mixed, &absent, false);
    assert_eq!(code, 0);
}

#[test]
fn ci_builds_nothing_after_the_tests_and_finds_binaries_through_cargo_metadata() {
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    let tests = ci.find("cargo test --workspace\n").expect("the test stage");
    let after = &ci[tests..];
    for build in ["cargo build", "maturin develop", "cargo rustc"] {
        assert!(!after.contains(build), "`{build}` after the test stage of .ci/run");
    }
    assert!(
        !ci.contains("target/debug/pencilbox"),
        "a hard-coded binary path in .ci/run"
    );
    assert!(ci.contains("cargo metadata") && after.contains("pytest -q -rs"), "{ci}");
    for py in [
        "crates/python/tests/test_pencilbox.py",
        "examples/dask/test_pencilbox_dask.py",
    ] {
        let text = std::fs::read_to_string(root().join(py)).unwrap();
        assert!(
            text.contains("cargo\", \"metadata\""),
            "{py} finds the binary through cargo metadata"
        );
        assert!(!text.contains("ROOT / \"target\" / p"), "{py} hard-codes target/");
    }
}
