//! Long runs of the real binary: Ctrl-C (SIGINT) stops them cleanly with exit code 130 and the
//! partial report, and a progress line appears only when stderr is a terminal.
#![cfg(unix)]

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a run may take to stop after SIGINT (generous: a debug build on a busy machine).
const STOPS_WITHIN: Duration = Duration::from_secs(10);

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pencilbox"));
    c.current_dir(repo());
    c
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A Sudoku with no givens: 6.67 × 10²¹ solutions, so counting them never ends.
const EMPTY_SUDOKU: &str = ".................................................................................\n";

/// The bundled 20×20 Suguru with every hint removed: its regions alone have more solutions
/// than any count can reach.
fn empty_suguru() -> String {
    let text = std::fs::read_to_string(repo().join("examples/suguru/example-20x20.in")).expect("bundled example");
    pencilbox_core::testing::blank_givens(&text)
}

/// Starts `pencilbox ARGS` with `stdin` written to it and stdout/stderr captured.
fn start(args: &[&str], stdin: &str) -> Child {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the pencilbox binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    input.write_all(stdin.as_bytes()).expect("write the puzzle");
    drop(input);
    child
}

/// Sends SIGINT, as Ctrl-C on a terminal does (through `kill`: the crate forbids `unsafe`).
fn interrupt(child: &Child) {
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("the kill command runs")
        .success();
    assert!(ok, "kill -INT failed");
}

/// Waits for the process to end within `within`; kills it and fails otherwise. Returns the
/// exit code, stdout and stderr.
fn finish(mut child: Child, within: Duration) -> (Option<i32>, String, String) {
    let deadline = Instant::now() + within;
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait for the child") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("pencilbox did not stop within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read stdout");
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read stderr");
    (status.code(), out, err)
}

/// Runs `pencilbox ARGS`, sends SIGINT after 300 ms and returns what it reported.
fn run_and_interrupt(args: &[&str], stdin: &str) -> (Option<i32>, String, String) {
    let child = start(args, stdin);
    std::thread::sleep(Duration::from_millis(300));
    interrupt(&child);
    finish(child, STOPS_WITHIN)
}

#[test]
fn ctrl_c_stops_an_endless_sudoku_count_with_the_partial_count_and_code_130() {
    let (code, out, err) = run_and_interrupt(&["count", "-p", "sudoku", "-"], EMPTY_SUDOKU);
    assert_eq!(code, Some(130), "stdout: {out}\nstderr: {err}");
    let line = out.lines().next().unwrap_or_default();
    assert!(
        line.starts_with("at least ") && line.ends_with(" solution(s) (stopped by Ctrl-C)"),
        "{out}"
    );
    // The partial count is a real count: hundreds of milliseconds find many solutions.
    let n: u64 = line["at least ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a number");
    assert!(n > 0, "{out}");
    assert_eq!(err, "", "no progress line or message when stderr is not a terminal");
}

#[test]
fn ctrl_c_stops_an_endless_suguru_count_and_json_says_incomplete() {
    let (code, out, err) = run_and_interrupt(&["count", "-p", "suguru", "-f", "json", "-"], &empty_suguru());
    assert_eq!(code, Some(130), "stdout: {out}\nstderr: {err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["complete"], false, "{out}");
    assert_eq!(v["stopped_by"], "ctrl-c", "JSON tells Ctrl-C from a timeout: {out}");
    assert!(v["stats"]["nodes"].as_u64().is_some_and(|n| n > 0), "{out}");
}

#[test]
fn ctrl_c_stops_a_solve_that_has_not_found_a_solution() {
    // The paper's Algorithm 2 on the empty 20×20 Suguru: no solution within any patience.
    let (code, out, err) = run_and_interrupt(
        &["solve", "-p", "suguru", "-a", "paper", "--stats", "-"],
        &empty_suguru(),
    );
    assert_eq!(code, Some(130), "stdout: {out}\nstderr: {err}");
    assert_eq!(
        out.trim(),
        "interrupted: Ctrl-C stopped the search before a solution was found"
    );
    assert!(err.starts_with("nodes: "), "--stats still reports: {err}");
}

#[test]
fn ctrl_c_stops_forced_and_lists_what_it_has() {
    let (code, out, err) = run_and_interrupt(&["forced", "-p", "suguru", "-"], &empty_suguru());
    assert_eq!(code, Some(130), "stdout: {out}\nstderr: {err}");
    assert!(out.contains("incomplete: stopped by Ctrl-C;"), "{out}");
}

#[test]
fn a_timeout_in_json_has_no_ctrl_c_mark() {
    let child = start(
        &["count", "-p", "sudoku", "-f", "json", "--timeout", "0.3", "-"],
        EMPTY_SUDOKU,
    );
    let (code, out, err) = finish(child, STOPS_WITHIN);
    assert_eq!(code, Some(3), "stdout: {out}\nstderr: {err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["complete"], false, "{out}");
    assert!(v.get("stopped_by").is_none(), "{out}");
}

#[test]
fn a_timeout_is_still_reported_as_a_timeout_with_code_3() {
    let child = start(&["count", "-p", "sudoku", "--timeout", "0.3", "-"], EMPTY_SUDOKU);
    let (code, out, err) = finish(child, STOPS_WITHIN);
    assert_eq!(code, Some(3), "stdout: {out}\nstderr: {err}");
    assert!(
        out.starts_with("at least ") && out.contains("(stopped by the time or node limit)"),
        "{out}"
    );
}

#[test]
fn piped_stderr_gets_no_progress_line_from_a_long_run() {
    // Longer than the second after which a terminal shows progress.
    let child = start(&["count", "-p", "sudoku", "--timeout", "1.6", "-"], EMPTY_SUDOKU);
    let (code, out, err) = finish(child, STOPS_WITHIN);
    assert_eq!(code, Some(3), "stdout: {out}\nstderr: {err}");
    assert_eq!(err, "", "stderr is a pipe: nothing but diagnostics goes there");
    assert!(
        out.starts_with("at least ") && out.contains("(stopped by the time or node limit)\nfirst solution:"),
        "{out}"
    );
}

/// `script` (util-linux) runs a command on a pseudo-terminal and copies what it draws.
fn script_available() -> bool {
    Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn a_terminal_sees_a_progress_line_with_nodes_and_solutions_after_a_second() {
    if !script_available() {
        pencilbox_core::testing::skip("`script` (util-linux) is not installed: no pseudo-terminal to draw on");
        return;
    }
    let puzzle = std::env::temp_dir().join(format!("pencilbox-progress-{}.txt", std::process::id()));
    std::fs::write(&puzzle, EMPTY_SUDOKU).expect("write a temporary puzzle");
    let cmd = format!(
        "{} count -p sudoku --timeout 1.8 {}",
        env!("CARGO_BIN_EXE_pencilbox"),
        puzzle.display()
    );
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    let _ = std::fs::remove_file(&puzzle);
    let drawn = String::from_utf8_lossy(&out.stdout);
    assert!(drawn.contains("count: "), "{drawn}");
    assert!(
        drawn.contains(" nodes, ") && drawn.contains(" solution(s), "),
        "{drawn}"
    );
    assert!(drawn.contains("(Ctrl-C stops)"), "{drawn}");
    assert!(drawn.contains("(stopped by the time or node limit)"), "{drawn}");

    // A run that ends within the second draws nothing.
    let cmd = format!(
        "{} solve {}",
        env!("CARGO_BIN_EXE_pencilbox"),
        repo().join("examples/sudoku/9x9.txt").display()
    );
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .expect("script runs");
    let drawn = String::from_utf8_lossy(&out.stdout);
    assert!(!drawn.contains("(Ctrl-C stops)"), "{drawn}");
}

#[test]
fn ctrl_c_ends_a_generator_at_once_without_output_or_answer_file() {
    // The largest hard Suguru, with a seed whose layouts often have no fill (9 s in a release
    // build): long enough to be interrupted.
    let answer = std::env::temp_dir().join(format!("pencilbox-interrupted-{}.ans", std::process::id()));
    let answer_arg = answer.to_str().expect("a UTF-8 temporary path");
    let (code, out, err) = run_and_interrupt(
        &[
            "generate",
            "suguru",
            "--size",
            "30x30",
            "--difficulty",
            "hard",
            "--seed",
            "3",
            "--answer",
            answer_arg,
        ],
        "",
    );
    assert_eq!(code, Some(130), "stdout: {out}\nstderr: {err}");
    assert_eq!(out, "");
    assert_eq!(err, "pencilbox: interrupted\n");
    assert!(!answer.exists(), "no answer file from an interrupted run");
}

#[test]
fn ctrl_c_stops_bench_and_reports_the_finished_instances() {
    // a.in is solved at once; b.in (the empty 20×20 under the paper's search) never ends.
    let dir = std::env::temp_dir().join(format!("pencilbox-bench-interrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::copy(repo().join("examples/suguru/example-6x6.in"), dir.join("a.in")).expect("copy");
    std::fs::write(dir.join("b.in"), empty_suguru()).expect("write");
    let dir_arg = dir.to_string_lossy().to_string();
    for json in [false, true] {
        let mut args = vec!["bench", "-p", "suguru", "-a", "paper", dir_arg.as_str()];
        if json {
            args.extend(["-f", "json"]);
        }
        let child = start(&args, "");
        std::thread::sleep(Duration::from_millis(500));
        interrupt(&child);
        let (code, out, err) = finish(child, STOPS_WITHIN);
        assert_eq!(code, Some(130), "stdout: {out}\nstderr: {err}");
        if json {
            let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
            assert_eq!(v["stopped_by"], "ctrl-c", "{out}");
            assert_eq!(
                (&v["summary"]["instances"], &v["summary"]["of"]),
                (&1.into(), &2.into()),
                "{out}"
            );
        } else {
            assert!(out.contains("a.in") && out.contains("solved"), "{out}");
            assert!(!out.contains("b.in"), "the interrupted instance has no row: {out}");
            assert!(
                out.contains("interrupted: Ctrl-C stopped the run after 1 of 2 instances"),
                "{out}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_stops_batch_keeps_the_finished_records_and_resume_completes_the_run() {
    // Line 1 is counted at once, line 2 (an empty Sudoku) never finishes, line 3 at once.
    let dir = std::env::temp_dir().join(format!("pencilbox-batch-interrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let grid = std::fs::read_to_string(repo().join("examples/sudoku/9x9.txt")).expect("bundled example");
    let one_line: String = grid.split_whitespace().collect::<Vec<_>>().join("\n");
    let quick = serde_json::json!({"puzzle": "sudoku", "text": one_line});
    let endless = serde_json::json!({"id": "endless", "puzzle": "sudoku", "text": EMPTY_SUDOKU});
    let input = dir.join("in.jsonl");
    let mut first = quick.clone();
    first["id"] = "first".into();
    let mut last = quick;
    last["id"] = "last".into();
    std::fs::write(&input, format!("{first}\n{endless}\n{last}\n")).expect("write the input");
    let out = dir.join("out.jsonl");
    let (input_arg, out_arg) = (input.to_string_lossy().to_string(), out.to_string_lossy().to_string());
    let child = start(&["batch", "--op", "count", "-j", "1", "-o", &out_arg, &input_arg], "");
    std::thread::sleep(Duration::from_millis(800));
    interrupt(&child);
    let (code, _, err) = finish(child, STOPS_WITHIN);
    assert_eq!(code, Some(130), "stderr: {err}");
    assert!(err.contains("interrupted: Ctrl-C stopped the run"), "{err}");
    assert!(err.contains(&format!("--resume {out_arg}")), "{err}");
    let ids = |text: &str| -> Vec<String> {
        text.lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).expect("every line is a whole record");
                v["id"].as_str().expect("a string id").to_string()
            })
            .collect()
    };
    let kept = ids(&std::fs::read_to_string(&out).expect("the output file"));
    assert!(kept.contains(&"first".to_string()), "{kept:?}");
    assert!(
        !kept.contains(&"endless".to_string()),
        "the cut record is not written: {kept:?}"
    );
    // Resuming (with a node limit, so the endless line ends as an error record) writes the rest.
    let status = bin()
        .args([
            "batch",
            "--op",
            "count",
            "-j",
            "1",
            "--node-limit",
            "1000",
            "--resume",
            &out_arg,
            &input_arg,
        ])
        .stderr(Stdio::null())
        .status()
        .expect("the resumed batch runs");
    assert_eq!(status.code(), Some(0));
    let mut all = ids(&std::fs::read_to_string(&out).expect("the output file"));
    all.sort();
    assert_eq!(all, ["endless", "first", "last"]);
    let _ = std::fs::remove_dir_all(&dir);
}
