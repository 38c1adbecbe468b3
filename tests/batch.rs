//! End-to-end tests of `pencilbox batch`: the same bytes on one thread and two, shards that
//! add up to the whole run, a killed run resumed to the same output, and error records for bad
//! lines that do not stop the run.

use pencilbox_tests::{binary, root, run, run_with_stdin, temp_file};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A mixed corpus: the bundled Sudoku batch file as bare lines, every bundled Suguru, Path and
/// Ripple example as JSON lines (some naming their family, some left to detection, one per
/// family with a solution for `--op verify`), and puzzles made by the generators.
fn corpus() -> String {
    let ex = root().join("examples");
    let mut out = String::new();
    let batch = std::fs::read_to_string(ex.join("sudoku/batch-9x9.txt")).expect("sudoku batch");
    for l in batch.lines().filter(|l| !l.trim().is_empty()) {
        out.push_str(l.trim());
        out.push('\n');
    }
    let mut files: Vec<(PathBuf, &str)> = Vec::new();
    for (dir, ext, family) in [
        ("suguru", "in", "suguru"),
        ("path/bench-8x8", "txt", "path"),
        ("path", "txt", "path"),
        ("ripple", "in", "ripple"),
    ] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(ex.join(dir))
            .expect("examples")
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        found.sort();
        files.extend(found.into_iter().map(|p| (p, family)));
    }
    for (k, (path, family)) in files.iter().enumerate() {
        let text = std::fs::read_to_string(path).expect("example");
        let id = path.strip_prefix(&ex).unwrap_or(path).display().to_string();
        let mut line = json!({"id": id, "text": text});
        if k % 2 == 0 {
            line["puzzle"] = json!(family);
        }
        out.push_str(&line.to_string());
        out.push('\n');
    }
    for (family, size) in [("suguru", 6), ("path", 6), ("sudoku", 4), ("ripple", 5)] {
        let kind = pencilbox_cli::registry::by_name(family).expect("family");
        for seed in 1..=3u64 {
            let req = pencilbox_core::plugin::GenerateRequest {
                height: size,
                width: size,
                seed,
                ..Default::default()
            };
            let g = kind.generate(&req).expect("generated");
            let line =
                json!({"id": format!("gen-{family}-{seed}"), "puzzle": family, "text": g.text, "solution": g.answer});
            out.push_str(&line.to_string());
            out.push('\n');
        }
    }
    out
}

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap_or_default()
}

/// Runs `pencilbox batch ARGS FILE` and returns its standard output (asserting exit 0).
fn batch(args: &[&str], file: &Path) -> String {
    let mut all = vec!["batch"];
    all.extend_from_slice(args);
    all.push(path_str(file));
    run(&all).code(0).stdout.clone()
}

fn records(out: &str) -> Vec<Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

#[test]
fn one_thread_and_two_give_identical_bytes() {
    let input = temp_file("batch-threads.jsonl", corpus().as_bytes());
    for op in ["solve", "rate", "count"] {
        let one = batch(&["--op", op, "--jobs", "1"], &input);
        let two = batch(&["--op", op, "--jobs", "2"], &input);
        assert_eq!(one, two, "--op {op}");
        let recs = records(&one);
        let lines = corpus().lines().count();
        assert_eq!(recs.len(), lines, "--op {op}: one record per line");
        assert!(
            recs.iter().all(|r| r["status"] != "error"),
            "--op {op}: {}",
            recs.iter()
                .find(|r| r["status"] == "error")
                .cloned()
                .unwrap_or_default()
        );
    }
}

#[test]
fn records_carry_the_single_file_commands_fields_and_input_ids() {
    let input = temp_file("batch-fields.jsonl", corpus().as_bytes());
    let out = batch(&["--jobs", "2"], &input);
    let recs = records(&out);
    // Bare Sudoku lines are numbered by their line; JSON lines keep their id, in input order.
    assert_eq!(recs[0]["id"], 1);
    assert_eq!(recs[9]["id"], 10);
    assert_eq!(recs[10]["id"], "suguru/example-10x10.in");
    // Identical to `solve --format json` on the same file, but for the wall-clock time.
    let single = run(&["solve", "--format", "json", "examples/suguru/example-10x10.in"])
        .code(0)
        .json();
    let mut batch_rec = recs[10].clone();
    let mut single = single;
    if let Some(stats) = single["stats"].as_object_mut() {
        stats.remove("elapsed_us");
    }
    if let Some(m) = batch_rec.as_object_mut() {
        m.remove("id");
    }
    assert_eq!(batch_rec, single);
    // `--op verify` checks each generated puzzle against its generated answer.
    let verified = records(&batch(&["--op", "verify"], &input));
    let gens: Vec<_> = verified
        .iter()
        .filter(|r| r["id"].as_str().is_some_and(|s| s.starts_with("gen-")))
        .collect();
    assert_eq!(gens.len(), 12);
    assert!(
        gens.iter().all(|r| r["status"] == "valid" && r["valid"] == true),
        "{gens:?}"
    );
    // `--timings` keeps the time.
    let timed = records(&batch(&["--timings"], &input));
    assert!(timed[0]["stats"]["elapsed_us"].is_u64());
}

#[test]
fn shards_add_up_to_the_whole_run() {
    let text = corpus();
    let input = temp_file("batch-shards.jsonl", text.as_bytes());
    let whole = batch(&[], &input);
    let by_id = |out: &str| -> BTreeMap<String, String> {
        records(out)
            .iter()
            .zip(out.lines())
            .map(|(r, l)| (r["id"].to_string(), l.to_string()))
            .collect()
    };
    let mut union = BTreeMap::new();
    let mut total = 0;
    for i in 0..3 {
        let shard = format!("{i}/3");
        let out = batch(&["--shard", &shard, "--jobs", "2"], &input);
        let part = by_id(&out);
        total += part.len();
        // The shard holds exactly the lines whose 0-based index is i mod 3.
        let expected = text.lines().enumerate().filter(|(k, _)| k % 3 == i).count();
        assert_eq!(part.len(), expected, "shard {shard}");
        union.extend(part);
    }
    assert_eq!(total, union.len(), "the shards overlap");
    assert_eq!(union, by_id(&whole));
}

#[test]
fn a_run_cut_short_and_resumed_equals_the_uninterrupted_run() {
    let input = temp_file("batch-resume.jsonl", corpus().as_bytes());
    let full_path = temp_file("batch-resume-full.jsonl", b"");
    run(&["batch", "-o", path_str(&full_path), path_str(&input)]).code(0);
    let full = std::fs::read(&full_path).expect("full output");
    // Cut after 7 whole records and half of the 8th, as a kill during a write leaves it.
    let ends: Vec<usize> = full
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    let cut = ends[6] + (ends[7] - ends[6]) / 2;
    let partial = temp_file("batch-resume-partial.jsonl", &full[..cut]);
    let out = run(&["batch", "--resume", path_str(&partial), path_str(&input)]);
    out.code(0).stderr_has("7 already done");
    assert_eq!(std::fs::read(&partial).expect("resumed output"), full);
    // Resuming a finished run changes nothing.
    run(&["batch", "--resume", path_str(&partial), path_str(&input)]).code(0);
    assert_eq!(std::fs::read(&partial).expect("resumed output"), full);
}

#[test]
fn a_killed_run_resumed_equals_the_uninterrupted_run() {
    // Enough work that one thread takes a while: the corpus several times, with new ids.
    let mut text = String::new();
    for copy in 0..20 {
        for (k, line) in corpus().lines().enumerate() {
            let v: Value = if line.starts_with('{') {
                serde_json::from_str(line).expect("corpus line")
            } else {
                json!({"text": line})
            };
            let mut v = v;
            v["id"] = json!(format!("{copy}-{k}"));
            text.push_str(&v.to_string());
            text.push('\n');
        }
    }
    let input = temp_file("batch-kill.jsonl", text.as_bytes());
    let full_path = temp_file("batch-kill-full.jsonl", b"");
    run(&["batch", "-o", path_str(&full_path), path_str(&input)]).code(0);
    let out_path = temp_file("batch-kill-out.jsonl", b"");
    let mut child = Command::new(binary())
        .args(["batch", "--jobs", "1", "-o", path_str(&out_path), path_str(&input)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start pencilbox");
    // Kill it once some records are out (if it finishes first, resuming must change nothing).
    let t0 = Instant::now();
    while std::fs::metadata(&out_path).map_or(0, |m| m.len()) == 0 && t0.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
    let kept = std::fs::read(&out_path).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
    println!("killed after {kept} of {} records", text.lines().count());
    run(&["batch", "--resume", path_str(&out_path), path_str(&input)]).code(0);
    assert_eq!(
        std::fs::read(&out_path).expect("resumed"),
        std::fs::read(&full_path).expect("full")
    );
}

#[test]
fn bad_lines_give_error_records_and_the_run_goes_on() {
    let sudoku = ".....21...1......4.9..3.....3....7...6...384.....7...2....1...572.86..1...89...3.";
    let lines = [
        json!({"id": "ok-1", "text": sudoku}).to_string(),
        "{\"id\": \"broken\", \"text\": ".to_string(),
        json!({"id": "kakuro", "puzzle": "kakuro", "text": "1 1"}).to_string(),
        json!({"id": "nothing", "text": "hello"}).to_string(),
        String::new(),
        json!({"id": "bad-cell", "puzzle": "sudoku", "text": "12x4"}).to_string(),
        sudoku.to_string(),
    ];
    let input = temp_file("batch-errors.jsonl", (lines.join("\n") + "\n").as_bytes());
    let recs = records(&batch(&[], &input));
    let ids: Vec<String> = recs.iter().map(|r| r["id"].to_string()).collect();
    assert_eq!(ids, ["\"ok-1\"", "2", "\"kakuro\"", "\"nothing\"", "\"bad-cell\"", "7"]);
    let message = |k: usize| recs[k]["message"].as_str().unwrap_or_default().to_string();
    assert_eq!(recs[0]["status"], "solved");
    assert_eq!(recs[1]["status"], "error");
    assert!(message(1).starts_with("line 2: malformed JSON"), "{}", message(1));
    assert!(
        message(2).starts_with("line 3: unknown puzzle `kakuro`"),
        "{}",
        message(2)
    );
    assert!(message(3).starts_with("line 4: text:1:"), "{}", message(3));
    assert!(message(4).starts_with("line 6: text:1:"), "{}", message(4));
    assert_eq!(recs[5]["status"], "solved");
    // A puzzle past its time limit.
    let timed = records(&batch(&["--timeout", "0"], &input));
    assert_eq!(timed[0]["status"], "error");
    assert!(
        timed[0]["message"]
            .as_str()
            .unwrap_or_default()
            .starts_with("line 1: timeout"),
        "{}",
        timed[0]
    );
    assert_eq!(timed.len(), 6);
}

#[test]
fn usage_errors_exit_with_code_2() {
    let input = temp_file("batch-usage.jsonl", b"{}\n");
    run(&["batch", "--shard", "3/3", path_str(&input)])
        .code(2)
        .stderr_has("--shard");
    run(&["batch", "--puzzle", "kakuro", path_str(&input)]).code(2);
    run(&["batch", "no/such/file.jsonl"])
        .code(2)
        .stderr_has("no/such/file.jsonl: cannot open");
    let not_records = temp_file("batch-not-records.jsonl", b"hello\n");
    run(&["batch", "--resume", path_str(&not_records), path_str(&input)])
        .code(2)
        .stderr_has("not a batch record");
}

#[test]
fn input_is_read_as_a_stream_not_all_at_once() {
    // Standard input stays open: the first record must come out before the input ends.
    let sudoku = ".....21...1......4.9..3.....3....7...6...384.....7...2....1...572.86..1...89...3.";
    let mut child = Command::new(binary())
        .args(["batch", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start pencilbox");
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "{sudoku}").expect("write");
    stdin.flush().expect("flush");
    let mut reader = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    reader.read_line(&mut first).expect("first record");
    let r: Value = serde_json::from_str(&first).expect("a record");
    assert_eq!(r["status"], "solved");
    writeln!(stdin, "{sudoku}").expect("write");
    drop(stdin);
    let mut second = String::new();
    reader.read_line(&mut second).expect("second record");
    assert_eq!(second.replace("\"id\":2", "\"id\":1"), first);
    assert!(child.wait().expect("exit").success());
    // The same through `run_with_stdin` with several lines at once.
    let out = run_with_stdin(
        &["batch", "--op", "rate", "-"],
        format!("{sudoku}\n{sudoku}\n").as_bytes(),
    );
    assert_eq!(records(&out.code(0).stdout).len(), 2);
}

#[test]
fn issue_29_dev_zero_ends_with_a_message_in_bounded_memory() {
    // `timeout 30 pencilbox batch /dev/zero` printed nothing and never ended. Now: line 1 gets
    // its error record, and the reader gives up 1 GiB past the line limit, with exit code 2,
    // inside a 600 MB address space.
    if !Path::new("/dev/zero").exists() {
        pencilbox_core::testing::skip("no /dev/zero on this system");
        return;
    }
    // Under coreutils' `timeout 60`, so that a regression fails instead of hanging.
    let t0 = Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 600000 && exec timeout 60 \"$0\" batch /dev/zero")
        .arg(binary())
        .stdin(Stdio::null())
        .output()
        .expect("sh runs");
    let took = t0.elapsed();
    let out = pencilbox_tests::Output {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(took < Duration::from_secs(20), "took {took:?}");
    assert!(
        out.stderr.contains("line 1 is longer than 64 MiB") && out.stderr.contains("stopped reading"),
        "{}",
        out.stderr
    );
    let records: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 1, "{}", out.stdout);
    assert_eq!((&records[0]["id"], &records[0]["status"]), (&json!(1), &json!("error")));
    assert!(
        records[0]["message"].as_str().unwrap().contains("no end within 1 GiB"),
        "{}",
        records[0]
    );
}

#[test]
fn issue_29_a_line_over_the_limit_is_an_error_record_and_the_run_goes_on() {
    let sudoku = ".....21...1......4.9..3.....3....7...6...384.....7...2....1...572.86..1...89...3.";
    let long = format!("{{\"id\": \"long\", \"text\": \"{}\"}}", "x".repeat(5000));
    let input = format!("{sudoku}\n{long}\n{{\"id\": \"after\", \"text\": \"{sudoku}\"}}\n");
    let file = temp_file("long-line.jsonl", input.as_bytes());
    let out = run(&["batch", "--max-line-bytes", "1000", file.to_str().unwrap()]);
    out.code(0);
    let records: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 3, "{}", out.stdout);
    assert_eq!(records[0]["status"], "solved");
    // The long line's id cannot be read (its text is not kept): its line number stands in.
    assert_eq!((&records[1]["id"], &records[1]["status"]), (&json!(2), &json!("error")));
    assert!(
        records[1]["message"]
            .as_str()
            .unwrap()
            .contains("line 2: the line is longer than 1000 bytes (--max-line-bytes)"),
        "{}",
        records[1]
    );
    assert_eq!(
        (&records[2]["id"], &records[2]["status"]),
        (&json!("after"), &json!("solved"))
    );
    // A last line that never ends, on standard input: an error record, and the run ends cleanly.
    let mut endless = format!("{sudoku}\n").into_bytes();
    endless.extend(std::iter::repeat_n(b'7', 50_000));
    let out = run_with_stdin(&["batch", "--max-line-bytes", "1000", "-"], &endless);
    out.code(0);
    let records: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(records.len(), 2, "{}", out.stdout);
    assert_eq!((&records[1]["id"], &records[1]["status"]), (&json!(2), &json!("error")));
    run(&["batch", "--max-line-bytes", "0", file.to_str().unwrap()])
        .code(2)
        .stderr_has("--max-line-bytes 0");
}
