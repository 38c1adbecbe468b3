//! Body of the `cli` target: a command line built from structured input (tokens from the
//! CLI's own vocabulary of subcommands, flags and values, or any string) and the contents of a
//! puzzle file and a second file (solution or answer), run in-process by
//! `pencilbox_cli::run_from`, the binary's own entry.
//!
//! Every execution is bounded by the harness, not by the input: `serve` is never run (it would
//! listen), the standard-input name `-` is replaced by the puzzle file, `solve`, `count`,
//! `bench` and `generate` get `--timeout 0.05` (and `--node-limit 2000` where accepted) added
//! at the end, `generate` sizes above 36 cells are skipped, and `sudoku explain`/`nishio` run
//! only on files under 300 bytes (grids up to 16×16; they take no time limit).
//!
//! Asserted: no panic, and the exit code is one the CLI documents (0, 1, 2, 3).

use arbitrary::Arbitrary;
use std::path::PathBuf;
use std::sync::OnceLock;

const WORDS: &[&str] = &[
    "solve", "verify", "count", "bench", "list", "sudoku", "generate", "nishio", "explain", "reduce", "help",
    "--help", "--version", "-p", "--puzzle", "-a", "--algorithm", "--timeout", "--node-limit", "--set", "-f",
    "--format", "--stats", "--limit", "-l", "--size", "--seed", "--difficulty", "--answer", "--repeat", "-q",
    "--quiet", "--block", "--method", "--digit", "--bench", "--no-guess", "--no-nishio", "--no-chains",
    "--square", "--theorem3", "--check", "suguru", "path", "sudoku", "ripple", "fast", "paper", "linear",
    "extend", "deduce", "backtrack", "dag", "overlay", "matching", "lanes", "json", "text", "pretty", "url", "0",
    "1", "2", "-1", "1e308", "NaN", "inf", "0.01", "3x3", "4x4", "2x3", "block=2x3", "block=99x99", "rules=none",
    "rules=-probe", "prune=all", "clues=50", "tries=2", "any=yes", "easy", "hard", "medium",
    "18446744073709551616", "=", "--",
];

/// One command-line word.
#[derive(Arbitrary, Debug)]
pub enum Token {
    /// A word of the CLI's vocabulary.
    Word(u8),
    /// The puzzle file's path.
    File,
    /// The second file's path.
    Second,
    /// Any string.
    Raw(String),
}

/// A command line and two files.
#[derive(Arbitrary, Debug)]
pub struct CliInput {
    args: Vec<Token>,
    file: Vec<u8>,
    second: Vec<u8>,
}

fn paths() -> &'static (PathBuf, PathBuf) {
    static P: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    P.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("pencilbox-fuzz-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        (dir.join("puzzle.in"), dir.join("second.ans"))
    })
}

/// Runs the command line (see the module docs).
pub fn cli(input: &CliInput) {
    let (file, second) = paths();
    let _ = std::fs::write(file, &input.file);
    let _ = std::fs::write(second, &input.second);
    let mut argv: Vec<String> = vec!["pencilbox".into()];
    for t in input.args.iter().take(16) {
        argv.push(match t {
            Token::Word(i) => WORDS[*i as usize % WORDS.len()].to_string(),
            Token::File => file.display().to_string(),
            Token::Second => second.display().to_string(),
            Token::Raw(s) if s == "-" => file.display().to_string(),
            Token::Raw(s) => s.clone(),
        });
    }
    let has = |argv: &[String], w: &str| argv.iter().any(|a| a == w);
    let first = argv.get(1).cloned().unwrap_or_default();
    if has(&argv, "serve") || argv.iter().any(|a| a.contains('\0')) {
        return;
    }
    match first.as_str() {
        "solve" | "count" => argv.extend(["--timeout", "0.05", "--node-limit", "2000"].map(String::from)),
        "bench" => argv.extend(["--timeout", "0.05"].map(String::from)),
        "generate" => {
            let small = argv.windows(2).filter(|w| w[0] == "--size").all(|w| {
                let cells = w[1]
                    .split_once(['x', 'X'])
                    .and_then(|(r, c)| Some(r.trim().parse::<u64>().ok()? * c.trim().parse::<u64>().ok()?));
                cells.is_some_and(|c| c <= 36)
            });
            if !has(&argv, "--size") || !small {
                return;
            }
            argv.extend(["--timeout", "0.05"].map(String::from));
        }
        "sudoku" if input.file.len() >= 300 => return,
        _ => {}
    }
    if first == "bench" && argv.iter().skip(2).any(|a| !a.starts_with('-') && !a.contains("pencilbox-fuzz-cli")) {
        // bench walks folders: only our own files.
        return;
    }
    let code = pencilbox_cli::run_from(&argv);
    assert!(code <= 3, "{argv:?}: exit code {code}");
}
