//! End-to-end tests of the `pencilbox` binary: exit codes, error messages, formats.

use pencilbox_tests::{root, run, run_with_stdin, temp_file};

#[test]
fn list_names_every_puzzle_family() {
    let out = run(&["list"]);
    out.code(0);
    for name in ["path", "sudoku", "suguru"] {
        out.stdout_has(name);
    }
}

#[test]
fn usage_errors_exit_with_code_2() {
    run(&["solve"]).code(2);
    run(&["frobnicate"]).code(2);
    run(&["solve", "--format", "yaml", "x"]).code(2);
}

#[test]
fn help_and_version_exit_with_code_0() {
    run(&["--help"]).code(0).stdout_has("solve");
    run(&["solve", "--help"]).code(0).stdout_has("--algorithm");
    run(&["--version"]).code(0).stdout_has("pencilbox");
}

#[test]
fn a_missing_file_is_named_in_one_message() {
    let out = run(&["solve", "no/such/file.in"]);
    out.code(2).stderr_has("no/such/file.in: cannot open");
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
}

#[test]
fn an_unknown_puzzle_family_lists_the_known_ones() {
    let f = temp_file("x.txt", b"1 1\n0\n1\n");
    run(&["solve", "--puzzle", "kakuro", f.to_str().unwrap_or_default()])
        .code(2)
        .stderr_has("unknown puzzle `kakuro`")
        .stderr_has("suguru");
}

#[test]
fn binary_garbage_is_refused_with_a_position() {
    let f = temp_file("garbage.in", b"3 3\n\x00\x01\x02\xff\xfe");
    let out = run(&["solve", f.to_str().unwrap_or_default()]);
    out.code(2).stderr_has("garbage.in:2:1:");
    let out = run_with_stdin(&["solve", "--puzzle", "suguru", "-"], b"\xff\xd8\xff\xe0 JFIF");
    out.code(2).stderr_has("<stdin>:1:1:");
}

#[test]
fn an_empty_file_is_bad_input_not_a_crash() {
    let f = temp_file("empty.in", b"");
    run(&["solve", f.to_str().unwrap_or_default()]).code(2);
    for p in ["suguru", "path", "sudoku"] {
        let out = run_with_stdin(&["solve", "--puzzle", p, "-"], b"");
        out.code(2);
        assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
    }
}

#[test]
fn bench_rejects_a_missing_path() {
    run(&["bench", "does/not/exist"]).code(2).stderr_has("no such file");
}

/// `bench --limit N` counts like `count --limit N`: a unique puzzle counts 1 (exactly) and its
/// answer file, checked by the verifier, matches; a puzzle with several solutions stops at the
/// limit; a wrong answer file is a mismatch (exit 1); `--limit 0` is refused.
#[test]
fn bench_limit_counts_solutions_like_count() {
    let unique = "examples/snake/published-janko-schlange-007.txt";
    let v = run(&["bench", "-f", "json", "--limit", "2", unique]).code(0).json();
    let i = &v["instances"][0];
    assert_eq!(
        (
            i["status"].as_str(),
            i["solutions"].as_u64(),
            i["complete"].as_bool(),
            i["matches_answer"].as_bool()
        ),
        (Some("solved"), Some(1), Some(true), Some(true)),
        "{v}"
    );
    assert_eq!(
        (v["summary"]["limit"].as_u64(), v["summary"]["unique"].as_u64()),
        (Some(2), Some(1)),
        "{v}"
    );
    let several = "examples/several/ripple-6x6-several.in";
    let count = run(&["count", "-f", "json", "--limit", "2", several]).code(0).json();
    let v = run(&["bench", "-f", "json", "-l", "2", several]).code(0).json();
    let i = &v["instances"][0];
    assert_eq!(
        (
            i["solutions"].as_u64(),
            i["complete"].as_bool(),
            v["summary"]["unique"].as_u64()
        ),
        (count["count"].as_u64(), count["complete"].as_bool(), Some(0)),
        "{v} {count}"
    );
    assert_eq!(i["solutions"].as_u64(), Some(2), "{v}");
    let text = run(&["bench", "--limit", "2", unique, several]);
    text.code(0)
        .stdout_has("solutions")
        .stdout_has("≥2")
        .stdout_has("1 of 2 instances have exactly one");
    // A wrong answer file next to a unique puzzle is a mismatch.
    let dir = std::env::temp_dir().join(format!("pencilbox-bench-limit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::copy(root().join(unique), dir.join("p.txt")).expect("copy");
    let answer =
        std::fs::read_to_string(root().join("examples/snake/published-janko-schlange-007.ans")).expect("answer");
    let wrong = answer.replacen('x', "-", 1);
    std::fs::write(dir.join("p.ans"), wrong).expect("write");
    let v = run(&["bench", "-f", "json", "--limit", "2", dir.to_str().unwrap_or_default()])
        .code(1)
        .json();
    assert_eq!(v["instances"][0]["matches_answer"].as_bool(), Some(false), "{v}");
    let _ = std::fs::remove_dir_all(&dir);
    run(&["bench", "--limit", "0", unique]).code(2).stderr_has("--limit");
}

#[test]
fn every_family_generates_through_one_command_a_unique_puzzle_whose_answer_verifies() {
    for (family, size) in [("suguru", "5x5"), ("path", "5x5"), ("sudoku", "4x4"), ("ripple", "5x5")] {
        let sol = temp_file(&format!("gen-{family}.ans"), b"");
        let out = run(&[
            "generate",
            family,
            "--size",
            size,
            "--seed",
            "3",
            "--answer",
            sol.to_str().unwrap_or_default(),
        ]);
        let text = out.code(0).stdout.clone();
        let again = run(&["generate", family, "--size", size, "--seed", "3"]);
        assert_eq!(
            again.code(0).stdout,
            text,
            "{family}: the same seed gives the same puzzle"
        );
        let puzzle = temp_file(&format!("gen-{family}.txt"), text.as_bytes());
        let p = puzzle.to_str().unwrap_or_default();
        let v = run(&["count", "--limit", "2", "--format", "json", p]).code(0).json();
        assert_eq!(v["count"], 1, "{family}: {text}");
        pencilbox_tests::assert_verifies(&puzzle, &sol);
        let j = run(&["generate", family, "--size", size, "--seed", "3", "--format", "json"]);
        assert!(
            serde_json::from_str::<serde_json::Value>(&j.code(0).stdout).is_ok(),
            "{family}"
        );
    }
    let url = run(&["generate", "ripple", "--size", "4x4", "--seed", "1", "--format", "url"]);
    url.code(0).stdout_has("puzz.link/p?ripple/4/4/");
    // Path has pencilbox's own URL in the puzz.link style (puzz.link has no Path genre), read
    // back by every command.
    let url = run(&["generate", "path", "--size", "5x5", "--seed", "2", "--format", "url"]);
    url.code(0).stdout_has("puzz.link/p?pathpuzzle/5/5/");
    let text = run(&["generate", "path", "--size", "5x5", "--seed", "2"]);
    let dir = std::env::temp_dir().join(format!("pencilbox-path-url-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.url");
    std::fs::write(&file, &url.code(0).stdout).unwrap();
    let solved_url = run(&["solve", file.to_str().unwrap()]);
    let file2 = dir.join("p.txt");
    std::fs::write(&file2, &text.code(0).stdout).unwrap();
    let solved_text = run(&["solve", file2.to_str().unwrap()]);
    assert_eq!(solved_url.code(0).stdout, solved_text.code(0).stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn generate_refuses_what_the_generator_does_not_declare() {
    for args in [
        &["generate", "chess"][..],
        &["generate", "suguru", "--difficulty", "extreme"],
        &["generate", "ripple", "--difficulty", "hard"],
        &["generate", "ripple", "--set", "clues=5"],
        &["generate", "sudoku", "--size", "4x6"],
        &["generate", "sudoku", "--size", "6x6", "--set", "block=2x2"],
        &["generate", "masyu", "--set", "clues=5"],
        &["generate", "suguru", "--set", "clues"],
        &["generate", "ripple", "--size", "70x70"],
    ] {
        let out = run(args);
        out.code(2);
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
    }
}

#[test]
fn list_shows_settings_and_generators() {
    let out = run(&["list"]);
    out.code(0).stdout_has("--set block=");
    out.stdout_has("generate: up to");
    out.stdout_has("--difficulty medium|easy|hard");
}

#[test]
fn a_family_setting_reaches_solve_count_and_verify_through_set() {
    // A 6x6 Sudoku with 3-row blocks: the default shape for 6 is 2x3, so the setting matters.
    let sol = temp_file("gen-3x2.sol", b"");
    let out = run(&[
        "generate",
        "sudoku",
        "--size",
        "6x6",
        "--set",
        "block=3x2",
        "--seed",
        "5",
        "--answer",
        sol.to_str().unwrap_or_default(),
    ]);
    let puzzle = temp_file("gen-3x2.txt", out.code(0).stdout.as_bytes());
    let (p, s) = (puzzle.to_str().unwrap_or_default(), sol.to_str().unwrap_or_default());
    let v = run(&["count", "--set", "block=3x2", "--limit", "2", "--format", "json", p])
        .code(0)
        .json();
    assert_eq!(v["count"], 1);
    run(&["verify", "--set", "block=3x2", p, s]).code(0).stdout_has("valid");
    let solved = run(&["solve", "--set", "block=3x2", p]).code(0).stdout.clone();
    assert_eq!(solved.trim(), std::fs::read_to_string(&sol).unwrap_or_default().trim());
    run(&["solve", "--set", "blok=3x2", p]).code(2);
    run(&["solve", "--block", "3x2", p]).code(2);
}

/// Issue 14 item 7: `list` says "(default)" once per default algorithm, never "default: …
/// (default)".
#[test]
fn list_marks_each_default_algorithm_once() {
    let out = run(&["list"]);
    out.code(0);
    let families = out.stdout.lines().filter(|l| !l.starts_with(' ')).count();
    let defaults: Vec<&str> = out.stdout.lines().filter(|l| l.ends_with(" (default)")).collect();
    assert_eq!(
        defaults.len(),
        families,
        "one default algorithm per family:\n{}",
        out.stdout
    );
    for line in defaults {
        assert_eq!(line.matches("default").count(), 1, "{line}");
    }
}

/// Issue 14 item 7: every JSON key is snake_case, the notes in "stats" included.
#[test]
fn json_stats_keys_have_no_spaces() {
    for (file, alg) in [
        ("examples/path/example-6x6.txt", "fast"),
        ("examples/path/example-6x6.txt", "paper"),
        ("examples/sudoku/9x9.txt", "deduce"),
        ("examples/suguru/example-6x6.in", "fast"),
        ("examples/ripple/example-6x6.in", "fast"),
    ] {
        let v = run(&["solve", "-f", "json", "-a", alg, file]).code(0).json();
        let stats = v["stats"].as_object().expect("stats");
        assert!(stats.len() > 4, "{file}: notes in stats: {stats:?}");
        for k in stats.keys() {
            assert!(
                k.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{file} -a {alg}: key {k:?}"
            );
        }
    }
}

/// Issue 14 item 7: the bench table keeps its columns when a file name is longer than 40.
#[test]
fn the_bench_table_aligns_long_file_names() {
    let long = "a-very-long-file-name-that-is-longer-than-forty-characters.in";
    let src = std::fs::read(pencilbox_tests::root().join("examples/suguru/example-6x6.in")).expect("example");
    let f = temp_file(long, &src);
    let short = temp_file("s.in", &src);
    let out = run(&[
        "bench",
        f.to_str().unwrap_or_default(),
        short.to_str().unwrap_or_default(),
    ]);
    out.code(0);
    let lines: Vec<&str> = out.stdout.lines().take(3).collect();
    let ends: Vec<usize> = lines
        .iter()
        .map(|l| l.find("status").or_else(|| l.find("solved")).unwrap_or(0) + 6)
        .collect();
    assert!(ends.iter().all(|&e| e == ends[0] && e > 6), "{}", out.stdout);
}

/// Issue 14 item 7: every command that prints a result takes `-f`, and the help of those where
/// `pretty` is plain text says so.
#[test]
fn every_printing_command_takes_short_f() {
    for args in [
        &["solve", "-f", "json", "examples/sudoku/9x9.txt"][..],
        &["count", "-f", "json", "examples/sudoku/9x9.txt"],
        &[
            "verify",
            "-f",
            "json",
            "examples/suguru/example-6x6.in",
            "examples/suguru/example-6x6.ans",
        ],
        &["forced", "-f", "json", "examples/suguru/example-6x6.in"],
        &["bench", "-f", "json", "examples/ripple/example-6x6.in"],
        &["explain", "-f", "json", "examples/sudoku/4x4.txt"],
        &["hint", "-f", "json", "examples/sudoku/4x4.txt"],
        &["sudoku", "nishio", "-f", "json", "examples/sudoku/4x4.txt"],
        &["sudoku", "explain", "-f", "json", "examples/sudoku/4x4.txt"],
        &["generate", "sudoku", "--size", "4x4", "-f", "json"],
    ] {
        let out = run(args);
        out.code(0);
        out.json();
    }
    for cmd in [&["verify", "--help"][..], &["bench", "--help"], &["forced", "--help"]] {
        run(cmd)
            .code(0)
            .stdout_has("text or json (`pretty` prints the same as text)");
    }
}

/// Issue 15: `bits` is the default on 9×9 (named in the report, counted with a witness pair),
/// other shapes run `backtrack` by default, and `-a bits` on another shape is refused (exit 2).
#[test]
fn sudoku_defaults_to_bits_on_nine_by_nine_and_backtrack_elsewhere() {
    let v = run(&["solve", "-f", "json", "examples/sudoku/9x9.txt"]).code(0).json();
    assert_eq!(
        (v["algorithm"].as_str(), v["status"].as_str()),
        (Some("bits"), Some("solved")),
        "{v}"
    );
    assert!(v["stats"]["nodes"].as_u64().is_some_and(|n| n >= 1), "{v}");
    let empty = temp_file("empty-9x9.txt", ".".repeat(81).as_bytes());
    let empty = empty.to_str().unwrap_or_default();
    let v = run(&["count", "--limit", "3", "-f", "json", empty]).code(0).json();
    assert_eq!(
        (v["count"].as_u64(), v["algorithm"].as_str()),
        (Some(3), Some("bits")),
        "{v}"
    );
    assert_eq!(v["witness"].as_array().map(Vec::len), Some(2), "{v}");
    let v = run(&["solve", "-f", "json", "examples/sudoku/16x16.txt"])
        .code(0)
        .json();
    assert_eq!(v["algorithm"].as_str(), Some("backtrack"), "{v}");
    run(&["solve", "-a", "bits", "examples/sudoku/4x4.txt"])
        .code(2)
        .stderr_has("`bits` solves 9×9 grids");
    // The batch and bench commands run it too, and every answer matches.
    for set in ["top95.txt", "hardest.txt"] {
        let Some(p) = pencilbox_tests::shared_data(&format!("sudoku/{set}")) else {
            continue;
        };
        let p = p.to_str().unwrap_or_default();
        let v = run(&["bench", "-f", "json", "-p", "sudoku", p]).code(0).json();
        let inst = v["instances"].as_array().cloned().unwrap_or_default();
        assert!(
            !inst.is_empty() && inst.iter().all(|i| i["status"] == "solved"),
            "{set}: {v}"
        );
        let out = run(&["batch", p]);
        out.code(0);
        let lines: Vec<serde_json::Value> = out
            .stdout
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        assert_eq!(lines.len(), inst.len(), "{set}");
        assert!(
            lines
                .iter()
                .all(|l| l["status"] == "solved" && l["algorithm"] == "bits"),
            "{set}"
        );
    }
}

/// `bench -f json` reports per instance the same nodes and failures as `solve --stats` and a
/// nanosecond time (scripts/paper-tables.py builds the papers' tables from these fields).
#[test]
fn bench_json_reports_nodes_failures_and_nanoseconds_per_instance() {
    let fig1 = "examples/suguru/paper-fig1-3x3.in";
    let bench = run(&["bench", "-f", "json", "-a", "paper", "--repeat", "2", fig1]);
    bench.code(0);
    let b = bench.json();
    let solve = run(&["solve", "-f", "json", "--stats", "-a", "paper", fig1]);
    solve.code(0);
    let s = solve.json();
    let i = &b["instances"][0];
    assert_eq!(i["nodes"], s["stats"]["nodes"], "{}", bench.stdout);
    assert_eq!(i["failures"], s["stats"]["failures"], "{}", bench.stdout);
    assert_eq!(i["nodes"], 12, "{}", bench.stdout);
    let (us, ns) = (i["elapsed_us"].as_u64(), i["elapsed_ns"].as_u64());
    assert!(
        matches!((us, ns), (Some(us), Some(ns)) if ns > 0 && ns / 1000 == us),
        "{}",
        bench.stdout
    );
}

/// Issue 29: the first hour, second pass.
mod issue_29 {
    use pencilbox_tests::{root, run, run_with_stdin, temp_file};

    #[test]
    fn a_puzzlink_url_given_as_the_argument_is_read_as_the_puzzle() {
        let url = std::fs::read_to_string(root().join("examples/sudoku/9x9-url.txt")).unwrap();
        let by_file = run(&["solve", "examples/sudoku/9x9-url.txt"]);
        by_file.code(0);
        let by_arg = run(&["solve", url.trim()]);
        by_arg.code(0);
        assert_eq!(by_arg.stdout, by_file.stdout);
        // A broken URL is placed in `<url>`.
        run(&["solve", "https://puzz.link/p?mashu/6/6/!!!"])
            .code(2)
            .stderr_has("pencilbox: <url>:1:31:");
    }

    #[test]
    fn a_url_of_an_unknown_genre_on_stdin_is_named_as_a_url() {
        let out = run_with_stdin(&["solve", "-"], b"https://puzz.link/p?kakuro/5/5/abc\n");
        out.code(2)
            .stderr_has("<stdin>:1:21: a puzz.link URL of the genre `kakuro`, which pencilbox does not read");
        assert!(!out.stderr.contains("looks like"), "{}", out.stderr);
    }

    #[test]
    fn help_says_every_family_draws_in_pretty_and_each_does() {
        let help = run(&["help", "solve"]);
        help.code(0).stdout_has("every family draws its own");
        assert!(!help.stdout.contains("others fall back to text"), "{}", help.stdout);
        for file in [
            "examples/suguru/example-6x6.in",
            "examples/path/example-6x6.txt",
            "examples/sudoku/4x4.txt",
            "examples/ripple/example-6x6.in",
            "examples/masyu/example-6x6.txt",
            "examples/nurikabe/example-6x6.txt",
            "examples/starbattle/example-6x6.txt",
            "examples/snake/example-6x6.txt",
        ] {
            let text = run(&["solve", file]);
            let pretty = run(&["solve", "-f", "pretty", file]);
            pretty.code(0);
            assert_ne!(pretty.stdout, text.stdout, "{file}: pretty is the plain text");
        }
    }

    #[test]
    fn a_negative_timeout_is_refused_as_such() {
        for cmd in ["solve", "count", "explain", "batch"] {
            let out = run(&[cmd, "--timeout", "-1", "examples/sudoku/4x4.txt"]);
            out.code(2)
                .stderr_has("--timeout -1: the time limit must be a non-negative number of seconds");
            assert!(!out.stderr.contains("-- -1"), "{cmd}: {}", out.stderr);
        }
    }

    #[test]
    fn naming_the_wrong_family_says_what_was_read_where_and_what_the_file_is() {
        let out = run(&["solve", "-p", "sudoku", "examples/suguru/example-6x6.in"]);
        out.code(2)
            .stderr_has("examples/suguru/example-6x6.in:1:1: read as sudoku: the first row has 2 cells")
            .stderr_has("looks like a suguru puzzle");
        assert!(!out.stderr.contains("2×2 grid"), "{}", out.stderr);
    }

    #[test]
    fn a_short_row_of_a_solution_is_placed_at_its_end() {
        let short = temp_file(
            "short-row.ans",
            b"2 5 4 1 3 1\n3 1 3\n2 4 5 1 5 3\n3 1 2 4 2 1\n2 4 6 3 6 3\n1 5 2 1 4 5\n",
        );
        run(&["verify", "examples/suguru/example-6x6.in", short.to_str().unwrap()])
            .code(2)
            .stderr_has("short-row.ans:2:6: row 2 of the solution has 3 numbers but the grid is 6 wide");
        let last = temp_file(
            "short-last.ans",
            b"2 5 4 1 3 1\n3 1 3 2 4 2\n2 4 5 1 5 3\n3 1 2 4 2 1\n2 4 6 3 6 3\n1 5 2 1 4\n",
        );
        run(&["verify", "examples/suguru/example-6x6.in", last.to_str().unwrap()])
            .code(2)
            .stderr_has("short-last.ans:6:10: expected 1 more number in row 6");
    }

    #[test]
    fn option_errors_name_the_option() {
        let f = "examples/sudoku/9x9.txt";
        for (args, needle) in [
            (
                &["solve", "--set", "blok=3x3", f][..],
                "pencilbox: --set blok=3x3: unknown setting `blok`",
            ),
            (
                &["solve", "--set", "block", f],
                "pencilbox: --set block: a setting is KEY=VALUE",
            ),
            (
                &["count", "-a", "nope", f],
                "pencilbox: --algorithm nope: unknown algorithm `nope`",
            ),
            (
                &["verify", "--set", "x=1", f, f],
                "pencilbox: --set x=1: unknown setting `x`",
            ),
            (
                &["solve", "-p", "nope", f],
                "pencilbox: --puzzle nope: unknown puzzle `nope`",
            ),
            // A part of a setting given on its own: the message shows where it goes.
            (
                &["solve", "--set", "racers=1", "examples/path/example-6x6.txt"],
                "unknown setting `racers` for path; it accepts: rules, prune, learn, decide (`racers` is part of `rules`: --set rules=racers=1)",
            ),
            (
                &["count", "--limit", "0", f],
                "pencilbox: --limit 0: the limit must be at least 1",
            ),
        ] {
            run(args).code(2).stderr_has(needle);
        }
    }

    #[test]
    fn the_python_guide_installs_dask_for_the_dask_example() {
        let guide = std::fs::read_to_string(root().join("docs/python.md")).unwrap();
        assert!(guide.contains("pip install './crates/python[dask]'"), "docs/python.md");
    }
}
