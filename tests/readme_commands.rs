//! Every command in the shell blocks (```sh, ```bash, ```console) of README.md and docs/*.md
//! runs as written from the repository root (issue 14 item 6), with `pencilbox` (and
//! `target/release/pencilbox`) mapped to this build's binary.
//!
//! Skipped: commands that need the server (`pencilbox serve`, `curl`) or cargo itself, and
//! lines ending in `# not run`. A command must exit 0 unless it ends in `# exit N` (e.g. a
//! puzzle documented to have no solution: `# exit 1`). Each command has a time limit, and the
//! commands together must leave no new file in the checkout (they write to `/tmp`).
//!
//! Also checked: every relative link and image of these documents names a file that exists, and
//! a `#fragment` names a heading of its target (GitHub's anchors).

use pencilbox_tests::{binary, root};
use std::collections::BTreeSet;
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

/// The files of the checkout, without build output (`target`) and `.git`.
fn checkout_files() -> BTreeSet<PathBuf> {
    fn walk(dir: &Path, out: &mut BTreeSet<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = e.file_name();
            if name == "target" || name == ".git" {
                continue;
            }
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.insert(p);
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(&root(), &mut out);
    out
}

/// GitHub's anchor for a heading: lower case, inline-code ticks and punctuation other than `-`
/// and `_` dropped, spaces turned into `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of the headings of a markdown text (outside fenced blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced && t.starts_with('#') {
            out.insert(anchor(t.trim_start_matches('#')));
        }
    }
    out
}

/// The relative link targets of a markdown text, with their line numbers: `[text](target)`
/// and `src="target"`, outside fenced blocks and inline code; web and mail links left out.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop inline code spans (odd-numbered pieces between backticks).
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(k, _)| k % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut found = Vec::new();
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let tail = &rest[at + 2..];
            match tail.find(')') {
                Some(end) => {
                    found.push(tail[..end].to_string());
                    rest = &tail[end..];
                }
                None => break,
            }
        }
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("src=\"") {
            let tail = &rest[at + 5..];
            match tail.find('"') {
                Some(end) => {
                    found.push(tail[..end].to_string());
                    rest = &tail[end..];
                }
                None => break,
            }
        }
        for target in found {
            let target = target.trim().to_string();
            if !(target.contains("://") || target.starts_with("mailto:")) {
                out.push((i + 1, target));
            }
        }
    }
    out
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
fn the_link_reader_finds_relative_links_and_github_anchors() {
    let text = "See [cli](docs/cli.md#exit-codes) and `[x](not-a-link)`, [web](https://a.b/c).\n<img src=\"docs/p.png\" alt=\"\">\n```\n[y](in-code.md)\n# not a heading\n```\n## Export to SAT, and `--algorithm sat`\n";
    let l: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(l, ["docs/cli.md#exit-codes", "docs/p.png"]);
    let a = anchors(text);
    assert!(a.contains("export-to-sat-and---algorithm-sat"), "{a:?}");
    assert!(!a.contains("not-a-heading"), "{a:?}");
    assert_eq!(anchor("Setter's tools: forced facts"), "setters-tools-forced-facts");
}

#[test]
fn every_link_between_the_documents_resolves() {
    let docs = documents();
    assert!(docs.len() > 1, "no documents under docs/");
    let mut failures = Vec::new();
    let mut checked = 0;
    for doc in &docs {
        let text = std::fs::read_to_string(doc).expect("read document");
        let name = doc.strip_prefix(root()).unwrap_or(doc).display().to_string();
        let dir = doc.parent().expect("document folder");
        for (line, target) in links(&text) {
            checked += 1;
            let (file, fragment) = match target.split_once('#') {
                Some((f, frag)) => (f, Some(frag)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() { doc.clone() } else { dir.join(file) };
            if !path.exists() {
                failures.push(format!("{name}:{line}: `{target}`: no such file"));
                continue;
            }
            if let Some(frag) = fragment {
                let target_text = std::fs::read_to_string(&path).unwrap_or_default();
                if !anchors(&target_text).contains(frag) {
                    failures.push(format!("{name}:{line}: `{target}`: no heading with that anchor"));
                }
            }
        }
    }
    assert!(checked >= 20, "found only {checked} links in the documents");
    assert!(failures.is_empty(), "broken links:\n{}", failures.join("\n"));
}

#[test]
fn every_documented_shell_command_runs_as_written() {
    let before = checkout_files();
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
    let left: Vec<String> = checkout_files()
        .difference(&before)
        .map(|p| {
            // Removed, so that the next run does not count them as part of the checkout.
            let _ = std::fs::remove_file(p);
            p.strip_prefix(root()).unwrap_or(p).display().to_string()
        })
        .collect();
    assert!(
        left.is_empty(),
        "documented commands left files in the checkout (write them to /tmp): {left:?}"
    );
    assert!(
        failures.is_empty(),
        "{} of {} documented commands failed:\n{}",
        failures.len(),
        all.len(),
        failures.join("\n")
    );
}
