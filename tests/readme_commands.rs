//! Every command in the shell blocks (```sh, ```bash, ```console) of README.md and docs/*.md
//! runs as written from the repository root (issue 14 item 6), with `pencilbox` (and
//! `target/release/pencilbox`) mapped to this build's binary.
//!
//! Skipped: commands that need the server (`pencilbox serve`, `curl`) or cargo itself, and
//! lines ending in `# not run`. A command must exit 0 unless it ends in `# exit N` (e.g. a
//! puzzle documented to have no solution: `# exit 1`). Each command has a time limit.

use pencilbox_tests::{binary, root};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest one documented command may run (debug build).
const PER_COMMAND: Duration = Duration::from_secs(60);

/// One command of a shell block.
struct Documented {
    file: String,
    line: usize,
    command: String,
    exit: i32,
}

/// The command lines of the shell blocks of `text` (continuation lines joined), with the exit
/// code each is documented to give; skipped lines are left out.
fn commands(file: &str, text: &str) -> Vec<Documented> {
    let mut out = Vec::new();
    let mut in_shell = false;
    let mut in_block = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let t = raw.trim_start();
        if let Some(info) = t.strip_prefix("```") {
            if in_block {
                in_block = false;
                in_shell = false;
            } else {
                in_block = true;
                in_shell = matches!(info.trim(), "sh" | "bash" | "console" | "shell");
            }
            continue;
        }
        if !in_shell {
            continue;
        }
        let mut line = raw.trim().to_string();
        if let Some(rest) = line.strip_prefix("$ ") {
            line = rest.to_string();
        }
        let (start, joined) = match pending.take() {
            Some((start, mut acc)) => {
                acc.push(' ');
                acc.push_str(&line);
                (start, acc)
            }
            None => (line_no, line),
        };
        if let Some(head) = joined.strip_suffix('\\') {
            pending = Some((start, head.trim_end().to_string()));
            continue;
        }
        let cmd = joined.trim().to_string();
        if cmd.is_empty() || cmd.starts_with('#') || skipped(&cmd) {
            continue;
        }
        out.push(Documented {
            file: file.to_string(),
            line: start,
            exit: documented_exit(&cmd),
            command: cmd.strip_prefix("target/release/").unwrap_or(&cmd).to_string(),
        });
    }
    out
}

/// The code after a trailing `# exit N`, else 0.
fn documented_exit(cmd: &str) -> i32 {
    cmd.rsplit_once("# exit ")
        .and_then(|(_, n)| n.trim().parse().ok())
        .unwrap_or(0)
}

/// Needs the server or cargo, or is marked `# not run`.
fn skipped(cmd: &str) -> bool {
    let code = cmd.split(" #").next().unwrap_or(cmd);
    let words: Vec<&str> = code.split_whitespace().collect();
    cmd.trim_end().ends_with("# not run")
        || words.iter().any(|w| *w == "cargo" || *w == "curl")
        || words.windows(2).any(|w| w[0].ends_with("pencilbox") && w[1] == "serve")
}

/// README.md and docs/*.md.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md")];
    if let Ok(entries) = std::fs::read_dir(root().join("docs")) {
        let mut docs: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        docs.sort();
        files.extend(docs);
    }
    files
}

/// A directory holding `pencilbox`, a link to this build's binary, to put first on the PATH.
fn bin_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pencilbox-readme-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let link = dir.join("pencilbox");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(binary(), &link).expect("link pencilbox");
    dir
}

/// Runs `cmd` with `sh -c` in the repository root; `None` when it ran past the limit.
fn run_shell(cmd: &str, path: &Path) -> Option<(i32, String)> {
    let old_path = std::env::var("PATH").unwrap_or_default();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(root())
        .env("PATH", format!("{}:{old_path}", path.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sh");
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let mut err = String::new();
                if let Some(mut e) = child.stderr.take() {
                    use std::io::Read;
                    let _ = e.read_to_string(&mut err);
                }
                return Some((status.code().unwrap_or(-1), err));
            }
            Ok(None) if start.elapsed() > PER_COMMAND => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => panic!("waiting for `{cmd}`: {e}"),
        }
    }
}

#[test]
fn the_block_parser_joins_continuations_and_reads_markers() {
    let text = "```sh\npencilbox solve a \\\n  b   # exit 1\n# comment\ncargo test\npencilbox serve\ncurl x\nfoo # not run\n```\n```text\npencilbox FILE\n```\n";
    let c = commands("t.md", text);
    assert_eq!(c.len(), 1);
    assert_eq!((c[0].line, c[0].exit), (2, 1));
    assert_eq!(c[0].command, "pencilbox solve a b   # exit 1");
}

#[test]
fn every_documented_shell_command_runs_as_written() {
    let path = bin_dir();
    let mut all = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).expect("read document");
        let name = doc.strip_prefix(root()).unwrap_or(&doc).display().to_string();
        all.extend(commands(&name, &text));
    }
    assert!(all.len() >= 20, "found only {} commands in the documents", all.len());
    let mut failures = Vec::new();
    for d in &all {
        match run_shell(&d.command, &path) {
            Some((code, _)) if code == d.exit => {}
            Some((code, err)) => failures.push(format!(
                "{}:{}: `{}` exited {code} (documented: {}): {}",
                d.file,
                d.line,
                d.command,
                d.exit,
                err.lines().last().unwrap_or("")
            )),
            None => failures.push(format!(
                "{}:{}: `{}` ran over {PER_COMMAND:?}",
                d.file, d.line, d.command
            )),
        }
    }
    let _ = std::fs::remove_dir_all(&path);
    assert!(
        failures.is_empty(),
        "{} of {} documented commands failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}
