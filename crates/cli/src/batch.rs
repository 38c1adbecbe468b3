//! `pencilbox batch`: one JSON Lines file of puzzles in, one result record per line out, on
//! every core.
//!
//! Input lines are `{"id": …, "puzzle": "sudoku", "text": "…"}` (`puzzle` optional when the
//! text is recognised; `solution` for `--op verify`, and for `--op explain`/`rate` the player's
//! entries as `explain --entries` takes them; `id` a string or number, the line number
//! when absent) or a bare one-line puzzle (an 81-character Sudoku), whose id is its line
//! number. Blank lines are skipped. Each record is `{"id": …, "status": …}` plus exactly the
//! fields the single-file command prints with `--format json` ([`crate::output::solve_json`],
//! [`crate::output::count_json_report`], [`crate::output::verify_json`],
//! [`crate::explain::explanation_json`]), except the wall-clock `stats.elapsed_us`, left out
//! unless `--timings` so that a run is byte-for-byte reproducible. A line that cannot be served
//! (malformed JSON, an unknown or unrecognised puzzle, a parse error, the time or node limit)
//! gives `{"id": …, "status": "error", "message": "line L: …"}` and the run goes on.
//!
//! How it runs: the calling thread reads the file line by line (never all of it) and hands each
//! selected line to a rayon pool; a writer thread puts the records back in input order (unless
//! `--unordered`). At most [`window`] lines are in flight (read, not yet written), so memory
//! stays flat however long the input; a slow puzzle holds back the output only when the window
//! behind it is full. `--shard I/N` keeps the lines whose 0-based index is `I mod N`;
//! `--resume OUT` drops a partial last line of `OUT`, skips the ids already in it and appends.
//! Ctrl-C stops the searches in flight and the reading: the records finished before it are
//! written, the unfinished ones (running or queued) are not, and `--resume OUT` continues from
//! there.
//! A line longer than `--max-line-bytes` gets an error record and is skipped to its newline
//! ([`read_line`]); one with no newline within [`MAX_SKIP_BYTES`] past the limit (`/dev/zero`)
//! gets its error record and stops the reading (exit 2), so no input reads forever.
//! Exit code: 0 when every selected line got its record (error records included), 130 when
//! Ctrl-C stopped the run, 2 for a usage error or unreadable input or output.

use crate::commands::{parse_settings, resolve_kind};
use crate::explain::explanation_json;
use crate::input::{describe, InputError, MAX_INPUT_BYTES};
use crate::output::{count_json_report, solve_json, verify_json};
use crate::registry;
use clap::ValueEnum;
use pencilbox_core::human::ExplainOptions;
use pencilbox_core::{Limits, ParseError, PuzzleError, PuzzleKind, Render, RunOptions};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, BufReader, IsTerminal, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// What a batch does to each puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Op {
    /// `solve --format json`: status solved / unsolvable, the solution, the search's counters.
    Solve,
    /// `count --format json` (up to `--limit`): status `counted`.
    Count,
    /// `verify --format json` of the line's `solution`: status `valid` / `invalid`.
    Verify,
    /// `explain --format json`: every step and the rating; status solved / stalled / no solution.
    Explain,
    /// `explain --rating-only --format json`: the status and the rating.
    Rate,
}

// Arguments of `pencilbox batch`.
#[derive(clap::Args, Debug)]
pub struct BatchArgs {
    /// What to do with each puzzle.
    #[arg(long, value_enum, default_value_t = Op::Solve)]
    pub op: Op,
    /// Puzzle family of the lines without a "puzzle" field that are not recognised by their text.
    #[arg(long, short = 'p')]
    pub puzzle: Option<String>,
    /// Algorithm (see `pencilbox list`); each family's default when omitted.
    #[arg(long, short = 'a')]
    pub algorithm: Option<String>,
    /// Worker threads (0: one per core).
    #[arg(long, short = 'j', default_value_t = 0)]
    pub jobs: usize,
    /// Only the lines whose 0-based index is I modulo N (e.g. `--shard $SLURM_ARRAY_TASK_ID/8`).
    #[arg(long, value_name = "I/N")]
    pub shard: Option<String>,
    /// Give each puzzle at most this many seconds (past it: an error record).
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// Give each puzzle at most this many search nodes (past it: an error record).
    #[arg(long, value_name = "N")]
    pub node_limit: Option<u64>,
    /// `--op count`: stop counting at this many solutions (2: uniqueness; default: all).
    #[arg(long, short = 'l')]
    pub limit: Option<u64>,
    /// Puzzle-specific setting KEY=VALUE for every line; repeatable.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub settings: Vec<String>,
    /// Write the records to this file instead of standard output.
    #[arg(long, short = 'o', value_name = "OUT", conflicts_with = "resume")]
    pub output: Option<PathBuf>,
    /// Continue an interrupted run: skip the ids already recorded in OUT (a partial last line
    /// is dropped) and append the rest to OUT.
    #[arg(long, value_name = "OUT")]
    pub resume: Option<PathBuf>,
    /// Write each record as soon as it is ready instead of in input order.
    #[arg(long)]
    pub unordered: bool,
    /// Keep `stats.elapsed_us` in the records (then two runs no longer give identical bytes).
    #[arg(long)]
    pub timings: bool,
    /// The longest input line, in bytes (default 64 MiB, also the most a puzzle file may
    /// hold): a longer line gets an error record and is skipped.
    #[arg(long, value_name = "BYTES", default_value_t = MAX_INPUT_BYTES)]
    pub max_line_bytes: u64,
    /// The JSON Lines file, or `-` for standard input.
    pub file: PathBuf,
}

/// How every line of a batch is run (what [`BatchArgs`] resolve to; the Python package builds
/// one too).
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// The operation.
    pub op: Option<Op>,
    /// The family of lines that do not name one and are not recognised.
    pub puzzle: Option<String>,
    /// The algorithm.
    pub algorithm: Option<String>,
    /// Seconds per puzzle.
    pub timeout: Option<f64>,
    /// Search nodes per puzzle.
    pub node_limit: Option<u64>,
    /// The count's solution cap.
    pub limit: Option<u64>,
    /// `--set` settings.
    pub settings: Vec<(String, String)>,
    /// Keep wall-clock times in the records.
    pub timings: bool,
    /// Cancels every run (the CLI's Ctrl-C): a search stops at its next check, and a record
    /// finished once it is set is dropped, not written, so `--resume` runs that line again.
    pub cancel: Option<Arc<AtomicBool>>,
    /// The memory budget of one puzzle ([`Limits::memory`]): `pencilbox batch` shares the
    /// run's budget (`--memory`) among its worker threads.
    pub memory: Option<u64>,
}

/// Why a puzzle could not be served: a message and, for malformed text, where (1-based line
/// and column within the puzzle's text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What is wrong.
    pub message: String,
    /// The line and column in the text, for a parse error.
    pub pos: Option<(u32, u32)>,
    /// The work needed more memory than the budget, or the system refused it
    /// ([`PuzzleError::Memory`]; Python raises `MemoryError`).
    pub memory: bool,
}

impl Failure {
    fn plain(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            pos: None,
            memory: false,
        }
    }
}

impl From<InputError> for Failure {
    fn from(e: InputError) -> Self {
        Failure::plain(e.0)
    }
}

/// The failure of a puzzle error, positions within the text (`text:L:C: …`).
fn puzzle_failure(e: &PuzzleError) -> Failure {
    let pos = match e {
        PuzzleError::Parse(ParseError { pos, .. }) | PuzzleError::Solution(ParseError { pos, .. }) => {
            Some((pos.line, pos.col))
        }
        _ => None,
    };
    let name = if matches!(e, PuzzleError::Solution(_) | PuzzleError::Entries(_)) {
        "solution"
    } else {
        "text"
    };
    Failure {
        message: describe(name, 1, e).0,
        pos,
        memory: matches!(e, PuzzleError::Memory(_)),
    }
}

impl Config {
    /// Has [`Config::cancel`] been set?
    pub fn cancelled(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// The run options of one puzzle: the deadline counts from now.
    pub fn run_options(&self) -> Result<RunOptions, Failure> {
        let mut limits = Limits::default();
        if let Some(t) = self.timeout {
            if !(t.is_finite() && t >= 0.0) {
                return Err(Failure::plain(format!(
                    "the timeout must be a number of seconds ≥ 0, found {t}"
                )));
            }
            limits.deadline = Some(Instant::now() + Duration::from_secs_f64(t.min(1e9)));
        }
        limits.node_limit = self.node_limit;
        limits.cancel = self.cancel.clone();
        limits.memory = self.memory;
        Ok(RunOptions {
            algorithm: self.algorithm.clone(),
            limits,
            settings: self.settings.clone(),
            render: Render::Json,
            notes: true,
        })
    }

    /// Picks the family of `text`: `puzzle` when given, else by detection, else the
    /// configured default family. A text no family recognises fails at the position where it
    /// stops looking like the family it most resembles ([`registry::closest`]).
    pub fn kind(&self, puzzle: Option<&str>, text: &str) -> Result<&'static dyn PuzzleKind, Failure> {
        self.kind_of(puzzle, text).map_err(|mut f| {
            f.message = f.message.replace("with --puzzle", "with a \"puzzle\" field");
            if let Some((_, rest)) = f.message.strip_prefix("--puzzle ").and_then(|m| m.split_once(": ")) {
                f.message = rest.to_string();
            }
            f
        })
    }

    fn kind_of(&self, puzzle: Option<&str>, text: &str) -> Result<&'static dyn PuzzleKind, Failure> {
        if let Some(name) = puzzle {
            return resolve_kind(Some(name), text, "text").map_err(Failure::from);
        }
        let found = registry::detect(text);
        if found.is_empty() {
            if let Some(name) = &self.puzzle {
                return resolve_kind(Some(name), text, "text").map_err(Failure::from);
            }
            if !text.trim().is_empty() {
                if let Some((_, e)) = registry::closest(text) {
                    let mut f = Failure::from(
                        resolve_kind(None, text, "text")
                            .err()
                            .unwrap_or(InputError(e.message.clone())),
                    );
                    f.pos = Some((e.pos.line, e.pos.col));
                    return Err(f);
                }
            }
        }
        resolve_kind(None, text, "text").map_err(Failure::from)
    }

    /// Runs the operation on one puzzle and returns the single-file command's JSON, with a
    /// `status` for the operations whose JSON has none (count: `counted`, verify: `valid` /
    /// `invalid`) and without `stats.elapsed_us` unless [`Config::timings`]. A time or node
    /// limit is not a failure here: the status says `timeout` (count: `"complete": false`
    /// and status `timeout`).
    pub fn run(&self, puzzle: Option<&str>, text: &str, solution: Option<&str>) -> Result<Value, Failure> {
        let kind = self.kind(puzzle, text)?;
        let instances = kind.instances(text);
        if instances.len() != 1 {
            return Err(Failure::plain(format!(
                "the text holds {} puzzles; give one puzzle per line",
                instances.len()
            )));
        }
        let opts = self.run_options()?;
        let mut v = match self.op.unwrap_or(Op::Solve) {
            Op::Solve => solve_json(kind.name(), &kind.solve(text, &opts).map_err(|e| puzzle_failure(&e))?),
            Op::Count => {
                if self.limit == Some(0) {
                    return Err(Failure::plain("the limit must be at least 1"));
                }
                let r = kind.count(text, self.limit, &opts).map_err(|e| puzzle_failure(&e))?;
                let mut v = count_json_report(kind.name(), &r);
                v["status"] = json!(if r.interrupted { "timeout" } else { "counted" });
                v
            }
            Op::Verify => {
                let Some(solution) = solution else {
                    return Err(Failure::plain("`--op verify` needs a \"solution\" field"));
                };
                let r = kind.verify(text, solution, &opts).map_err(|e| puzzle_failure(&e))?;
                let mut v = verify_json(kind.name(), &r);
                v["status"] = json!(if r.is_valid() { "valid" } else { "invalid" });
                v
            }
            op @ (Op::Explain | Op::Rate) => {
                let eo = ExplainOptions {
                    limits: opts.limits.clone(),
                    ..ExplainOptions::default()
                };
                // A `solution` field is the player's position (`explain --entries`).
                let x = kind
                    .explain(text, solution, &opts, &eo)
                    .map_err(|e| puzzle_failure(&e))?;
                if op == Op::Rate {
                    json!({"puzzle": kind.name(), "status": x.status, "rating": pencilbox_registry::json::rating_json(kind.name(), &x)})
                } else {
                    explanation_json(kind.name(), &x)
                }
            }
        };
        if !self.timings {
            if let Some(stats) = v.get_mut("stats").and_then(Value::as_object_mut) {
                stats.remove("elapsed_us");
            }
        }
        Ok(v)
    }

    /// The hint of `text` at `level` from the player's `entries`, as `pencilbox hint --format
    /// json` prints it ([`crate::explain::hint_json`]), under this configuration's limits.
    pub fn hint(&self, puzzle: Option<&str>, text: &str, entries: Option<&str>, level: &str) -> Result<Value, Failure> {
        let level = pencilbox_core::human::HintLevel::parse(level)
            .ok_or_else(|| Failure::plain(format!("the level is nudge, rule or answer, not `{level}`")))?;
        let kind = self.kind(puzzle, text)?;
        let opts = self.run_options()?;
        crate::explain::hint_json(kind, text, entries, &opts, level)
            .map(|(v, _, _)| v)
            .map_err(|e| puzzle_failure(&e))
    }

    /// Why a run stopped early.
    fn limit_message(&self) -> String {
        match (self.timeout, self.node_limit) {
            (Some(t), None) => format!("timeout: no answer within {t} s"),
            (None, Some(n)) => format!("timeout: no answer within {n} nodes"),
            (Some(t), Some(n)) => format!("timeout: no answer within {t} s and {n} nodes"),
            (None, None) => "timeout: stopped before an answer".to_string(),
        }
    }

    /// The record of one input line (1-based `line`): the JSON text, on one line, without the
    /// newline.
    pub fn record(&self, line: u64, input: &str) -> String {
        let (id, result) = match parse_line(line, input) {
            Ok(job) => {
                let result = self.run(job.puzzle.as_deref(), &job.text, job.solution.as_deref());
                (job.id, result)
            }
            Err((id, f)) => (id, Err(f)),
        };
        let body = match result {
            Ok(v) if timed_out(&v) => error_body(line, &self.limit_message()),
            Ok(v) => v,
            Err(f) => error_body(line, &f.message),
        };
        with_id(&id, &body)
    }
}

/// True when a run's JSON says the limit stopped it.
fn timed_out(v: &Value) -> bool {
    v.get("status").and_then(Value::as_str) == Some("timeout")
}

fn error_body(line: u64, message: &str) -> Value {
    json!({"status": "error", "message": format!("line {line}: {message}")})
}

/// `{"id": id, …body's fields}`: the id first, the rest as serde_json writes them.
fn with_id(id: &Value, body: &Value) -> String {
    let body = body.to_string();
    let rest = body.strip_prefix('{').unwrap_or("}");
    if rest == "}" {
        format!("{{\"id\":{id}}}")
    } else {
        format!("{{\"id\":{id},{rest}")
    }
}

/// One input line, understood.
#[derive(Debug)]
struct Job {
    id: Value,
    puzzle: Option<String>,
    text: String,
    solution: Option<String>,
}

/// Reads one line (1-based number `line`): a JSON object or a bare one-line puzzle. On failure,
/// the id to report (the line number when the line gives none) and why.
fn parse_line(line: u64, input: &str) -> Result<Job, (Value, Failure)> {
    let trimmed = input.trim();
    let number = json!(line);
    if !trimmed.starts_with('{') {
        return Ok(Job {
            id: number,
            puzzle: None,
            text: trimmed.to_string(),
            solution: None,
        });
    }
    let obj = match serde_json::from_str::<Value>(trimmed) {
        Ok(Value::Object(m)) => m,
        Ok(_) => return Err((number, Failure::plain("expected a JSON object"))),
        Err(e) => {
            return Err((
                number,
                Failure {
                    message: format!("malformed JSON: {e}"),
                    pos: Some((1, e.column() as u32)),
                    memory: false,
                },
            ))
        }
    };
    let id = match obj.get("id") {
        None | Some(Value::Null) => number.clone(),
        Some(v @ (Value::String(_) | Value::Number(_))) => v.clone(),
        Some(_) => return Err((number, Failure::plain("\"id\" must be a string or a number"))),
    };
    let string = |key: &str| -> Result<Option<String>, Failure> {
        match obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(Failure::plain(format!("\"{key}\" must be a string"))),
        }
    };
    let fields = (|| Ok((string("puzzle")?, string("text")?, string("solution")?)))();
    match fields {
        Ok((puzzle, Some(text), solution)) => Ok(Job {
            id,
            puzzle,
            text,
            solution,
        }),
        Ok((_, None, _)) => Err((id, Failure::plain("the line has no \"text\" field"))),
        Err(f) => Err((id, f)),
    }
}

/// The id a line's record will carry (for `--resume`), as canonical JSON text.
fn id_key(line: u64, input: &str) -> String {
    match parse_line(line, input) {
        Ok(job) => job.id.to_string(),
        Err((id, _)) => id.to_string(),
    }
}

/// Parses `I/N` with `I < N`.
pub fn parse_shard(s: &str) -> Result<(u64, u64), String> {
    let bad = || format!("--shard wants I/N with 0 ≤ I < N, found `{s}`");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (
        i.trim().parse().map_err(|_| bad())?,
        n.trim().parse().map_err(|_| bad())?,
    );
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// How many lines may be read and not yet written: enough to keep every worker busy past a
/// slow puzzle, few enough that memory does not grow with the input.
pub fn window(jobs: usize) -> usize {
    (jobs * 64).max(256)
}

/// How far past a line's limit the reader looks for the line's end before it gives up on the
/// input (a stream without newlines, such as `/dev/zero`, would otherwise be read forever).
pub const MAX_SKIP_BYTES: u64 = 1 << 30;

/// Text taken in flight at most (read, not yet written), besides one line: with the window of
/// lines ([`window`]) it bounds the reader's memory, however long the lines.
pub const MAX_IN_FLIGHT_BYTES: u64 = 256 << 20;

/// What [`read_line`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line (or the last, unterminated one) of at most the limit, in the buffer.
    Whole,
    /// A line longer than the limit, read to its end and dropped (the buffer holds its start).
    TooLong,
    /// A line longer than the limit with no end within [`MAX_SKIP_BYTES`] more: the rest of
    /// the input is not read.
    Unending,
}

/// Reads one line of at most `max_line` bytes into `buf` (without the newline); `Ok(None)` at
/// the end of the input. A longer line is skipped up to its newline, [`MAX_SKIP_BYTES`] at most.
pub fn read_line(r: &mut impl BufRead, buf: &mut Vec<u8>, max_line: u64) -> std::io::Result<Option<Line>> {
    read_line_within(r, buf, max_line, MAX_SKIP_BYTES)
}

/// [`read_line`] with the skip bound given.
pub fn read_line_within(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max_line: u64,
    max_skip: u64,
) -> std::io::Result<Option<Line>> {
    buf.clear();
    // By chunks, so that a long line's buffer grows to the limit and no further (a doubling
    // `Vec` would reach twice the limit).
    let cap = usize::try_from(max_line.saturating_add(1)).unwrap_or(usize::MAX);
    let mut n = 0usize;
    loop {
        let (used, end) = {
            let chunk = r.fill_buf()?;
            if chunk.is_empty() {
                break;
            }
            let (len, end) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            };
            let len = len.min(cap - buf.len());
            if buf.len() + len > buf.capacity() && buf.capacity().saturating_mul(2) > cap {
                buf.reserve_exact(cap - buf.len());
            }
            buf.extend_from_slice(&chunk[..len]);
            (len, end && buf.last() == Some(&b'\n'))
        };
        r.consume(used);
        n += used;
        if end || buf.len() == cap {
            break;
        }
    }
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        return Ok(Some(Line::Whole));
    }
    if (buf.len() as u64) <= max_line {
        return Ok(Some(Line::Whole));
    }
    // Skip the rest of the long line, a bounded amount at most.
    let mut skipped = 0u64;
    loop {
        let (used, end) = {
            let chunk = r.fill_buf()?;
            if chunk.is_empty() {
                return Ok(Some(Line::TooLong));
            }
            match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (chunk.len(), false),
            }
        };
        r.consume(used);
        if end {
            return Ok(Some(Line::TooLong));
        }
        skipped += used as u64;
        if skipped >= max_skip {
            return Ok(Some(Line::Unending));
        }
    }
}

/// The size of a limit for people: `64 MiB`, `1 GiB`, or bytes.
fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 30 && b % (1 << 30) == 0 => format!("{} GiB", b >> 30),
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Reads `OUT` of an interrupted run: drops a partial last line (truncating the file) and
/// returns the ids recorded.
fn resume_ids(path: &Path) -> Result<HashSet<String>, InputError> {
    let name = path.display().to_string();
    let mut ids = HashSet::new();
    let mut f = match std::fs::OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ids),
        Err(e) => return Err(InputError(format!("{name}: cannot open: {e}"))),
    };
    let mut r = BufReader::new(&mut f);
    let (mut buf, mut complete_end, mut line) = (Vec::new(), 0u64, 0u64);
    loop {
        buf.clear();
        let n = r
            .read_until(b'\n', &mut buf)
            .map_err(|e| InputError(format!("{name}: cannot read: {e}")))?;
        if n == 0 || buf.last() != Some(&b'\n') {
            break;
        }
        line += 1;
        let record: Value = serde_json::from_slice(&buf)
            .map_err(|e| InputError(format!("{name}:{line}:{}: not a batch record: {e}", e.column())))?;
        let Some(id) = record.get("id") else {
            return Err(InputError(format!("{name}:{line}:1: a record without an \"id\"")));
        };
        ids.insert(id.to_string());
        complete_end += n as u64;
    }
    drop(r);
    let len = f
        .seek(std::io::SeekFrom::End(0))
        .map_err(|e| InputError(format!("{name}: {e}")))?;
    if len != complete_end {
        f.set_len(complete_end)
            .map_err(|e| InputError(format!("{name}: cannot drop the partial last line: {e}")))?;
    }
    Ok(ids)
}

/// Counts the lines a run will process (for the progress bar): non-blank lines of the shard.
fn count_selected(path: &Path, shard: (u64, u64), max_line: u64) -> Option<u64> {
    let mut r = BufReader::new(std::fs::File::open(path).ok()?);
    let (mut buf, mut index, mut n) = (Vec::new(), 0u64, 0u64);
    loop {
        match read_line(&mut r, &mut buf, max_line) {
            Ok(Some(Line::Whole | Line::TooLong)) => {}
            Ok(Some(Line::Unending)) => return None,
            Ok(None) | Err(_) => break,
        }
        if index % shard.1 == shard.0 && !buf.iter().all(u8::is_ascii_whitespace) {
            n += 1;
        }
        index += 1;
    }
    Some(n)
}

/// The lines in flight and the signal the writer gives when one is written.
struct Window {
    /// Lines and bytes of text read and not yet written.
    in_flight: Mutex<(usize, u64)>,
    freed: Condvar,
}

/// Runs `pencilbox batch`; returns the exit code.
pub fn run(a: &BatchArgs) -> u8 {
    match batch(a) {
        Ok(Ended::Done) => 0,
        Ok(Ended::Interrupted) => crate::interrupt::INTERRUPTED,
        Err(e) => {
            eprintln!("pencilbox: {e}");
            2
        }
    }
}

fn batch(a: &BatchArgs) -> Result<Ended, InputError> {
    let shard = match &a.shard {
        Some(s) => parse_shard(s).map_err(InputError)?,
        None => (0, 1),
    };
    if let Some(t) = a.timeout {
        if !(t.is_finite() && t >= 0.0) {
            return Err(InputError(format!(
                "--timeout {t}: the time limit must be a non-negative number of seconds"
            )));
        }
    }
    if a.limit == Some(0) {
        return Err(InputError("--limit 0: the limit must be at least 1".into()));
    }
    if let Some(p) = &a.puzzle {
        registry::by_name(p).ok_or_else(|| {
            let names: Vec<_> = registry::PUZZLES.iter().map(|k| k.name()).collect();
            InputError(format!("unknown puzzle `{p}`; choose one of: {}", names.join(", ")))
        })?;
    }
    // The first Ctrl-C cancels the searches in flight and stops the reading; the records
    // finished before it are written, and `--resume` continues from them.
    let mut watched = Limits::default();
    let _watch = crate::interrupt::Watch::cancel_only(&mut watched);
    // Every worker may hold a puzzle's model at once: each gets its share of the budget.
    let workers = match a.jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let cfg = Arc::new(Config {
        memory: crate::memory_budget().map(|b| b / workers as u64),
        cancel: watched.cancel.clone(),
        op: Some(a.op),
        puzzle: a.puzzle.clone(),
        algorithm: a.algorithm.clone(),
        timeout: a.timeout,
        node_limit: a.node_limit,
        limit: a.limit,
        settings: parse_settings(&a.settings)?,
        timings: a.timings,
    });
    let name = crate::input::display_name(&a.file);
    if a.max_line_bytes == 0 {
        return Err(InputError(
            "--max-line-bytes 0: the limit must be at least 1 byte".into(),
        ));
    }
    let input: Box<dyn BufRead> = if a.file.as_os_str() == "-" {
        Box::new(BufReader::new(std::io::stdin()))
    } else {
        let f = std::fs::File::open(&a.file).map_err(|e| InputError(format!("{name}: cannot open: {e}")))?;
        Box::new(BufReader::new(f))
    };
    let done = match &a.resume {
        Some(out) => resume_ids(out)?,
        None => HashSet::new(),
    };
    let out: Box<dyn Write + Send> = match (&a.output, &a.resume) {
        (Some(p), _) => {
            Box::new(std::fs::File::create(p).map_err(|e| InputError(format!("{}: cannot create: {e}", p.display())))?)
        }
        (None, Some(p)) => Box::new(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| InputError(format!("{}: cannot open: {e}", p.display())))?,
        ),
        (None, None) => Box::new(std::io::stdout()),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.jobs)
        .build()
        .map_err(|e| InputError(format!("cannot start the worker threads: {e}")))?;
    let jobs = pool.current_num_threads();
    let progress = if std::io::stderr().is_terminal() {
        let total = if a.file.as_os_str() == "-" {
            None
        } else {
            count_selected(&a.file, shard, a.max_line_bytes)
        };
        let bar = indicatif::ProgressBar::with_draw_target(total, indicatif::ProgressDrawTarget::stderr());
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{bar:40} {human_pos}/{human_len} puzzles, {elapsed} elapsed, eta {eta}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        Some(bar)
    } else {
        None
    };
    let started = Instant::now();
    let summary = run_lines(
        input,
        out,
        &cfg,
        shard,
        &done,
        &pool,
        !a.unordered,
        progress.as_ref(),
        &name,
        a.max_line_bytes,
    )?;
    if let Some(bar) = &progress {
        bar.finish_and_clear();
    }
    let plural = |n: u64, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    eprintln!(
        "pencilbox: batch: {} ({}), {} already done, {}, {:.1} s",
        plural(summary.written, "record", "records"),
        plural(summary.errors, "error", "errors"),
        summary.resumed,
        plural(jobs as u64, "thread", "threads"),
        started.elapsed().as_secs_f64()
    );
    if summary.interrupted {
        let out = match (&a.output, &a.resume) {
            (Some(p), _) | (None, Some(p)) => p.display().to_string(),
            (None, None) => "OUT".to_string(),
        };
        eprintln!(
            "pencilbox: batch: interrupted: Ctrl-C stopped the run; {} not written; `pencilbox batch --resume {out} …` continues",
            plural(summary.dropped, "unfinished record", "unfinished records"),
        );
        return Ok(Ended::Interrupted);
    }
    Ok(Ended::Done)
}

/// How a batch that could run ended.
enum Ended {
    /// Every selected line has its record.
    Done,
    /// Ctrl-C stopped it.
    Interrupted,
}

/// What a run did.
#[derive(Debug, Default)]
struct Summary {
    written: u64,
    errors: u64,
    resumed: u64,
    /// Ctrl-C stopped the run.
    interrupted: bool,
    /// Records dropped because Ctrl-C came before they finished (running or queued).
    dropped: u64,
}

/// Reads, dispatches and writes (see the module docs).
#[allow(clippy::too_many_arguments)]
fn run_lines(
    mut input: Box<dyn BufRead>,
    out: Box<dyn Write + Send>,
    cfg: &Arc<Config>,
    shard: (u64, u64),
    done: &HashSet<String>,
    pool: &rayon::ThreadPool,
    ordered: bool,
    progress: Option<&indicatif::ProgressBar>,
    name: &str,
    max_line: u64,
) -> Result<Summary, InputError> {
    let limit = window(pool.current_num_threads());
    let win = Arc::new(Window {
        in_flight: Mutex::new((0, 0)),
        freed: Condvar::new(),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel::<(u64, Option<String>, u64)>();
    let writer = {
        let (win, stop, progress) = (win.clone(), stop.clone(), progress.cloned());
        std::thread::spawn(move || write_records(rx, out, ordered, &win, &stop, progress.as_ref()))
    };
    let mut resumed = 0u64;
    let read: Result<(), InputError> = pool.in_place_scope(|scope| {
        let (mut buf, mut index, mut seq) = (Vec::new(), 0u64, 0u64);
        loop {
            if stop.load(Ordering::Relaxed) || cfg.cancelled() {
                return Ok(());
            }
            let read = match read_line(&mut input, &mut buf, max_line) {
                Ok(Some(read)) => read,
                Ok(None) => return Ok(()),
                Err(e) => return Err(InputError(format!("{name}: cannot read: {e}"))),
            };
            let line = index + 1;
            index += 1;
            if read == Line::Whole && ((line - 1) % shard.1 != shard.0 || buf.iter().all(u8::is_ascii_whitespace)) {
                continue;
            }
            let too_long = format!("the line is longer than {} (--max-line-bytes)", size_text(max_line));
            let text = match (read, std::str::from_utf8(&buf)) {
                (Line::Whole, Ok(t)) => Ok(t.to_string()),
                (Line::TooLong, _) => Err(too_long),
                (Line::Unending, _) => Err(format!(
                    "{too_long} and has no end within {} more bytes: the rest of the input is not read",
                    size_text(MAX_SKIP_BYTES)
                )),
                (Line::Whole, Err(e)) => Err(format!("not UTF-8 text at byte {}", e.valid_up_to() + 1)),
            };
            if buf.capacity() > 1 << 20 {
                buf = Vec::new(); // after a long line: give its memory back
            }
            if read == Line::Unending {
                // Its error record, then the reading stops (the records so far are written).
                let message = text.as_ref().err().map_or("", String::as_str);
                win.in_flight.lock().unwrap_or_else(|p| p.into_inner()).0 += 1;
                let _ = tx.send((seq, Some(with_id(&json!(line), &error_body(line, message))), 0));
                return Err(InputError(format!(
                    "{name}: line {line} is longer than {} and has no end within {} more bytes; stopped reading \
                     (is this a JSON Lines file?)",
                    size_text(max_line),
                    size_text(MAX_SKIP_BYTES)
                )));
            }
            let bytes = text.as_ref().map_or(0, |t| t.len() as u64);
            if !done.is_empty() && done.contains(&id_key(line, text.as_deref().unwrap_or(""))) {
                resumed += 1;
                if let Some(bar) = progress {
                    bar.inc(1);
                }
                continue;
            }
            {
                let mut n = win.in_flight.lock().unwrap_or_else(|p| p.into_inner());
                while n.0 > 0
                    && (n.0 >= limit || n.1 + bytes > MAX_IN_FLIGHT_BYTES)
                    && !stop.load(Ordering::Relaxed)
                    && !cfg.cancelled()
                {
                    n = win.freed.wait(n).unwrap_or_else(|p| p.into_inner());
                }
                n.0 += 1;
                n.1 += bytes;
            }
            let (tx, cfg, s) = (tx.clone(), cfg.clone(), seq);
            seq += 1;
            scope.spawn(move |_| {
                // A panic in a plug-in is a bug; it costs its record, not the run.
                let record = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match &text {
                    Ok(t) => cfg.record(line, t),
                    Err(m) => with_id(&json!(line), &error_body(line, m)),
                }))
                .unwrap_or_else(|_| {
                    with_id(
                        &json!(line),
                        &error_body(line, "internal error (a panic; please report it)"),
                    )
                });
                // A record finished after Ctrl-C may have been cut short: dropped, so that
                // `--resume` runs its line again.
                let _ = tx.send((s, (!cfg.cancelled()).then_some(record), bytes));
            });
        }
    });
    drop(tx);
    let written = writer.join().unwrap_or_else(|_| Err("the writer thread failed".into()));
    read?;
    let (written, errors, dropped) = written.map_err(InputError)?;
    Ok(Summary {
        written,
        errors,
        resumed,
        interrupted: cfg.cancelled(),
        dropped,
    })
}

/// The writer thread: records in sequence order (or as they come), flushed whenever no other
/// record is waiting. A closed pipe stops the run quietly. Returns (records, error records).
fn write_records(
    rx: mpsc::Receiver<(u64, Option<String>, u64)>,
    out: Box<dyn Write + Send>,
    ordered: bool,
    win: &Window,
    stop: &AtomicBool,
    progress: Option<&indicatif::ProgressBar>,
) -> Result<(u64, u64, u64), String> {
    let mut out = std::io::BufWriter::new(out);
    let (mut next, mut pending) = (0u64, BTreeMap::new());
    let (mut written, mut errors, mut dropped) = (0u64, 0u64, 0u64);
    let mut failed = None;
    let mut put = |record: &Option<String>, bytes: u64, out: &mut std::io::BufWriter<Box<dyn Write + Send>>| {
        if let Some(record) = record {
            if failed.is_none() {
                if let Err(e) = writeln!(out, "{record}") {
                    failed = Some(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            written += 1;
            if record.contains("\"status\":\"error\"") {
                errors += 1;
            }
            if let Some(bar) = progress {
                bar.inc(1);
            }
        } else {
            dropped += 1;
        }
        let mut n = win.in_flight.lock().unwrap_or_else(|p| p.into_inner());
        n.0 -= 1;
        n.1 -= bytes;
        win.freed.notify_one();
    };
    loop {
        let (seq, record, bytes) = match rx.try_recv() {
            Ok(r) => r,
            Err(mpsc::TryRecvError::Empty) => {
                let _ = out.flush();
                match rx.recv() {
                    Ok(r) => r,
                    Err(_) => break,
                }
            }
            Err(mpsc::TryRecvError::Disconnected) => break,
        };
        if !ordered {
            put(&record, bytes, &mut out);
            continue;
        }
        pending.insert(seq, (record, bytes));
        while let Some((record, bytes)) = pending.remove(&next) {
            put(&record, bytes, &mut out);
            next += 1;
        }
    }
    let flushed = out.flush();
    match failed.map_or(flushed, Err) {
        Ok(()) => Ok((written, errors, dropped)),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok((written, errors, dropped)),
        Err(e) => Err(format!("cannot write the output: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_an_index_and_a_count() {
        assert_eq!(parse_shard("0/3"), Ok((0, 3)));
        assert_eq!(parse_shard(" 2 / 3 "), Ok((2, 3)));
        assert!(parse_shard("3/3").is_err());
        assert!(parse_shard("0/0").is_err());
        assert!(parse_shard("1").is_err());
        assert!(parse_shard("a/b").is_err());
    }

    #[test]
    fn a_record_starts_with_its_id_and_keeps_the_single_file_fields() {
        let cfg = Config::default();
        let sudoku = ".....21...1......4.9..3.....3....7...6...384.....7...2....1...572.86..1...89...3.";
        let r: Value = serde_json::from_str(&cfg.record(7, sudoku)).unwrap();
        assert_eq!(r["id"], 7);
        assert_eq!(r["status"], "solved");
        assert_eq!(r["puzzle"], "sudoku");
        assert!(r["solution"].is_array() || r["solution"].is_string(), "{r}");
        assert!(r["stats"].get("nodes").is_some() && r["stats"].get("elapsed_us").is_none());
        let line = json!({"id": "a", "text": sudoku}).to_string();
        let rec = cfg.record(1, &line);
        assert!(rec.starts_with("{\"id\":\"a\","), "{rec}");
    }

    #[test]
    fn bad_lines_give_error_records_with_their_line() {
        let cfg = Config::default();
        for (input, id, needle) in [
            ("{\"id\": 5, \"text\": ", json!(3), "line 3: malformed JSON"),
            ("{\"id\": [1], \"text\": \"x\"}", json!(3), "line 3: \"id\" must be"),
            (
                "{\"id\": \"k\", \"puzzle\": \"kakuro\", \"text\": \"1\"}",
                json!("k"),
                "unknown puzzle `kakuro`",
            ),
            ("{\"id\": \"t\"}", json!("t"), "no \"text\" field"),
            (
                "{\"id\": \"s\", \"puzzle\": \"sudoku\", \"text\": \"12x\"}",
                json!("s"),
                "line 3: text:1:",
            ),
        ] {
            let r: Value = serde_json::from_str(&cfg.record(3, input)).unwrap();
            assert_eq!(r["id"], id, "{input}");
            assert_eq!(r["status"], "error", "{input}");
            let m = r["message"].as_str().unwrap();
            assert!(m.contains(needle), "{input}: {m}");
        }
    }

    #[test]
    fn an_unrecognised_text_fails_where_it_stops_looking_like_a_puzzle() {
        let f = Config::default().run(None, "2 2\n0 0\n0 0\n1 1\n", None).unwrap_err();
        assert!(f.message.contains("looks like a suguru"), "{}", f.message);
        assert!(f.pos.is_some_and(|(line, _)| line >= 4), "{f:?}");
    }
}
