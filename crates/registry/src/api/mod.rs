//! The playground's JSON API without HTTP: a request body in, a status and a JSON body out.
//!
//! `pencilbox serve` (axum, in the CLI crate) and the browser build (`crates/web`, in a Web
//! Worker) call the very same functions, so both answer every route with the same JSON, the
//! same errors and the same limits. What stays in the server is only what HTTP needs: reading
//! bodies, `Host` and `Origin` checks, headers, and the job pool that runs a [`Job`] on another
//! thread with a deadline and a cancellation flag.
//!
//! Every route is an [`Endpoint`] in [`ROUTES`]: it decodes and checks the request (the
//! family, settings, the grid's size, the memory estimate, the time limit) and answers with a
//! [`Plan`]: either the answer at once (`/api/puzzles`, `/api/limits`, `/api/levels`,
//! `/api/convert`) or a [`Job`], the puzzle work, to run under [`Limits`] with the request's
//! time limit. [`call`] runs a route start to end in the calling thread (the browser build).
//!
//! | route | body | answer |
//! |---|---|---|
//! | `GET /api/puzzles` | – | families (name, title, summary, algorithms, extra features, number of bundled levels, the generator's sizes, difficulties and settings), the limits |
//! | `GET /api/limits` | – | the sizes taken: grid side and cells, each family's own largest side, the generator's sides |
//! | `POST /api/solve` | `puzzle`, `text`, optional `algorithm`, `settings`, `timeout` | `pencilbox solve --format json` |
//! | `POST /api/count` | as solve, optional `limit` (default 2 = uniqueness) | `pencilbox count --format json`, plus `interrupted` |
//! | `POST /api/verify` | `puzzle`, `text`, `solution` | `pencilbox verify --format json` |
//! | `POST /api/board` | `puzzle`, `text` | `{"puzzle", "board"}`: the board as the page draws it ([`pencilbox_core::board`]) |
//! | `POST /api/compose` | `puzzle`, `text`, `board` (a [`pencilbox_core::board::Draft`]: the board as a setter edited it) | `{"puzzle", "text"}`: the edited puzzle in the family's file format |
//!
//! Hints, the generator, levels, Nishio, steps and conversion are in [`extras`]; the setter's
//! tools (`/api/forced`, `/api/suggest`, `/api/redundant`) in [`setter`]; the explained steps
//! (`/api/explain`) in [`explain`]. Errors are `{"error": MESSAGE}` (plus `field`, `line` and
//! `col` for parse errors) with a 4xx/5xx status.

pub mod explain;
pub mod extras;
pub mod setter;

use crate::json::{count_json_report, solve_json, verify_json};
use pencilbox_core::time::Instant;
use pencilbox_core::{Limits, PuzzleError, PuzzleKind, Render, RunOptions};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::time::Duration;

/// `200 OK`.
pub const OK: u16 = 200;
/// `400 Bad Request`.
pub const BAD_REQUEST: u16 = 400;
/// `404 Not Found`.
pub const NOT_FOUND: u16 = 404;
/// `413 Payload Too Large`.
pub const PAYLOAD_TOO_LARGE: u16 = 413;
/// `500 Internal Server Error`.
pub const INTERNAL_ERROR: u16 = 500;
/// `503 Service Unavailable`: the work ran out of its time limit (or, in the server, no job
/// slot was free).
pub const SERVICE_UNAVAILABLE: u16 = 503;

/// The limits of the API, whoever serves it.
#[derive(Clone, Debug)]
pub struct Config {
    /// The time limit of a job whose request names none.
    pub timeout: Duration,
    /// The longest time limit a request may ask for (`pencilbox serve`: [`Config::timeout`]).
    pub max_timeout: Duration,
    /// The largest request body, in bytes.
    pub max_body: usize,
    /// The largest number of rows or columns of a grid.
    pub max_side: usize,
    /// The largest number of cells of a grid.
    pub max_cells: usize,
    /// The memory one request may need, in bytes, by the family's estimate
    /// ([`PuzzleKind::memory_estimate`]).
    pub memory_per_request: u64,
    /// More entries of `/api/puzzles`' `limits`, the host's own (the server's job and
    /// connection caps).
    pub more_limits: serde_json::Map<String, Value>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            timeout: Duration::from_secs(10),
            max_timeout: Duration::from_secs(10),
            max_body: 256 * 1024,
            max_side: 60,
            max_cells: 2500,
            // An empty 25×25 Sudoku (Nishio graph) is estimated at about 340 MB.
            memory_per_request: 512 << 20,
            more_limits: serde_json::Map::new(),
        }
    }
}

impl Config {
    /// The time limit of a job that asked for `asked` (none: [`Config::timeout`]), at most
    /// [`Config::max_timeout`].
    pub fn time_limit(&self, asked: Option<Duration>) -> Duration {
        asked.map_or(self.timeout, |t| t.min(self.max_timeout))
    }
}

/// An error answer: a status and `{"error": message, ...}`.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: u16,
    /// The JSON body.
    pub body: Value,
}

impl ApiError {
    /// An error with a status and a message.
    pub fn new(status: u16, message: impl Into<String>) -> Self {
        ApiError {
            status,
            body: json!({ "error": message.into() }),
        }
    }

    /// A `400 Bad Request`.
    pub fn bad(message: impl Into<String>) -> Self {
        Self::new(BAD_REQUEST, message)
    }

    /// The answer to a puzzle error: parse errors name the field, line and column.
    pub fn from_puzzle(e: PuzzleError) -> Self {
        let (field, pe) = match &e {
            PuzzleError::Parse(pe) => ("text", pe),
            PuzzleError::Solution(pe) => ("solution", pe),
            PuzzleError::Entries(m) => return Self::bad(format!("solution: {m}")),
            // A job the time limit stopped (a generator, an explanation cut short): 503, as
            // documented for every time limit; a grid above the memory budget: 413.
            PuzzleError::Interrupted { .. } => return Self::new(SERVICE_UNAVAILABLE, e.to_string()),
            PuzzleError::Memory(_) => return Self::new(PAYLOAD_TOO_LARGE, e.to_string()),
            other => return Self::bad(other.to_string()),
        };
        ApiError {
            status: BAD_REQUEST,
            body: json!({
                "error": format!("{field}: line {}, column {}: {}", pe.pos.line, pe.pos.col, pe.message),
                "field": field,
                "line": pe.pos.line,
                "col": pe.pos.col,
            }),
        }
    }

    /// The answer to a request whose route does not exist.
    pub fn not_found(path: &str) -> Self {
        Self::new(NOT_FOUND, format!("no such page or endpoint: {path}"))
    }

    /// The answer to a body above [`Config::max_body`].
    pub fn too_large(config: &Config) -> Self {
        Self::new(
            PAYLOAD_TOO_LARGE,
            format!(
                "the request body is larger than the server's limit of {} KiB",
                config.max_body / 1024
            ),
        )
    }

    /// The answer to a job that reached its time limit before it had an answer (`503`, as
    /// the server answers a job that overran it).
    pub fn timed_out(message: impl Into<String>) -> Self {
        Self::new(SERVICE_UNAVAILABLE, message)
    }

    /// The answer when the puzzle code panicked on the input.
    pub fn panicked() -> Self {
        Self::new(
            INTERNAL_ERROR,
            "internal error: the puzzle code failed on this input (the server goes on)",
        )
    }
}

/// The puzzle work of a request, run under limits carrying its deadline (and, in the server, a
/// cancellation flag): the answer, or the error answer (a puzzle error's `400`, a time limit's
/// `503`).
pub type Work = Box<dyn FnOnce(Limits) -> Result<Value, ApiError> + Send + 'static>;

/// Puzzle work with the time limit its request asked for.
pub struct Job {
    /// The time limit asked for (`None`: the host's default, [`Config::timeout`]); the host
    /// caps it ([`Config::time_limit`]).
    pub timeout: Option<Duration>,
    /// The work.
    pub work: Work,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

/// What a checked request asks for.
#[derive(Debug)]
pub enum Plan {
    /// The answer, already known.
    Answer(Value),
    /// Puzzle work to run under a deadline.
    Job(Job),
}

impl Plan {
    /// A job whose puzzle errors are answered by [`ApiError::from_puzzle`].
    pub fn job<F>(timeout: Option<Duration>, work: F) -> Self
    where
        F: FnOnce(Limits) -> Result<Value, PuzzleError> + Send + 'static,
    {
        Self::job_answering(timeout, move |limits| work(limits).map_err(ApiError::from_puzzle))
    }

    /// A job that chooses its error answers itself (e.g. [`ApiError::timed_out`]).
    pub fn job_answering<F>(timeout: Option<Duration>, work: F) -> Self
    where
        F: FnOnce(Limits) -> Result<Value, ApiError> + Send + 'static,
    {
        Plan::Job(Job {
            timeout,
            work: Box::new(work),
        })
    }
}

/// A route's request checks: the body (JSON, or empty for `GET`) to a [`Plan`].
pub type Endpoint = fn(&Config, &[u8]) -> Result<Plan, ApiError>;

/// The method of a route.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `GET` (and `HEAD`): no body.
    Get,
    /// `POST` with a JSON body.
    Post,
}

/// Every route: its path, method and endpoint.
pub const ROUTES: &[(&str, Method, Endpoint)] = &[
    ("/api/puzzles", Method::Get, puzzles),
    ("/api/limits", Method::Get, limits),
    ("/api/solve", Method::Post, solve),
    ("/api/count", Method::Post, count),
    ("/api/verify", Method::Post, verify),
    ("/api/hint", Method::Post, extras::hint),
    ("/api/generate", Method::Post, extras::generate),
    ("/api/nishio", Method::Post, extras::nishio),
    ("/api/levels", Method::Get, extras::levels),
    ("/api/convert", Method::Post, extras::convert),
    ("/api/step", Method::Post, extras::step),
    ("/api/forced", Method::Post, setter::forced),
    ("/api/suggest", Method::Post, setter::suggest),
    ("/api/redundant", Method::Post, setter::redundant),
    ("/api/explain", Method::Post, explain::explain),
    ("/api/board", Method::Post, board),
    ("/api/compose", Method::Post, compose),
];

/// The endpoint of `path`.
pub fn endpoint(path: &str) -> Option<Endpoint> {
    ROUTES.iter().find(|r| r.0 == path).map(|r| r.2)
}

/// An answer: a status and a JSON body.
#[derive(Clone, Debug, PartialEq)]
pub struct Response {
    /// The HTTP status.
    pub status: u16,
    /// The JSON body.
    pub body: Value,
}

impl From<ApiError> for Response {
    fn from(e: ApiError) -> Self {
        Response {
            status: e.status,
            body: e.body,
        }
    }
}

/// Answers the request `body` to the route `path` in this thread, start to end: the checks,
/// then the job (if any) under a deadline of its time limit ([`Config::time_limit`]) on
/// [`pencilbox_core::time::Instant`], the browser's clock in the WebAssembly build. Unknown
/// routes get `404`, bodies above [`Config::max_body`] `413`.
pub fn call(path: &str, body: &[u8], config: &Config) -> Response {
    let Some(endpoint) = endpoint(path) else {
        return ApiError::not_found(path).into();
    };
    if body.len() > config.max_body {
        return ApiError::too_large(config).into();
    }
    match endpoint(config, body) {
        Err(e) => e.into(),
        Ok(Plan::Answer(body)) => Response { status: OK, body },
        Ok(Plan::Job(job)) => {
            let limits = Limits {
                deadline: Some(Instant::now() + config.time_limit(job.timeout)),
                ..Limits::default()
            };
            match (job.work)(limits) {
                Ok(body) => Response { status: OK, body },
                Err(e) => e.into(),
            }
        }
    }
}

/// Decodes a JSON body (`400` for bad JSON).
pub fn decode<T: DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError::bad(format!("the request is not the JSON expected here: {e}")))
}

/// The body of the puzzle endpoints.
#[derive(Debug, Deserialize)]
pub struct PuzzleRequest {
    /// The family (`suguru`, `path`, `sudoku`, `ripple`).
    pub puzzle: String,
    /// The puzzle in its file format.
    pub text: String,
    /// The proposed solution (verify).
    #[serde(default)]
    pub solution: Option<String>,
    /// The algorithm (default: the family's default).
    #[serde(default)]
    pub algorithm: Option<String>,
    /// Puzzle-specific settings, e.g. `{"block": "2x3"}` for Sudoku.
    #[serde(default)]
    pub settings: BTreeMap<String, String>,
    /// Count up to this many solutions (count; default 2).
    #[serde(default)]
    pub limit: Option<u64>,
    /// A time limit in seconds, at most the host's.
    #[serde(default)]
    pub timeout: Option<f64>,
}

/// The family named `name`, or a `400` listing the known ones.
pub fn kind_named(name: &str) -> Result<&'static dyn PuzzleKind, ApiError> {
    crate::by_name(name).ok_or_else(|| {
        let names: Vec<_> = crate::PUZZLES.iter().map(|k| k.name()).collect();
        ApiError::bad(format!("unknown puzzle `{name}`; choose one of: {}", names.join(", ")))
    })
}

/// Refuses grids above the size limits (and above the family's own interactive limit,
/// [`PuzzleKind::max_side`]) and requests whose memory estimate
/// ([`PuzzleKind::memory_estimate`]) is above [`Config::memory_per_request`], with a message
/// saying what they are. The size is the plug-in's own reading of the puzzle
/// ([`PuzzleKind::dimensions`]: the parsers check sizes before they allocate, and the body is
/// already capped); a text that does not parse passes here and gets its parse error from the
/// operation itself.
pub fn check_size(config: &Config, kind: &dyn PuzzleKind, text: &str, opts: &RunOptions) -> Result<(), ApiError> {
    let Ok((m, n)) = kind.dimensions(text, opts) else {
        return Ok(());
    };
    let cells = m.saturating_mul(n);
    if m > config.max_side || n > config.max_side || cells > config.max_cells {
        return Err(ApiError::new(
            PAYLOAD_TOO_LARGE,
            format!(
                "the grid is too large for this server: {m}×{n} = {cells} cells; the limit is {} rows or columns \
             and {} cells (see `pencilbox serve --max-cells`)",
                config.max_side, config.max_cells
            ),
        ));
    }
    if let Ok(bytes) = kind.memory_estimate(text, opts) {
        if bytes > config.memory_per_request {
            let mb = |b: u64| b.div_ceil(1 << 20);
            return Err(ApiError::new(
                PAYLOAD_TOO_LARGE,
                format!(
                    "this {m}×{n} {} puzzle would need about {} MB with {}, above this server's memory \
                 budget of {} MB per request (see `pencilbox serve --memory-per-request`): use \
                 `pencilbox solve` or a lighter algorithm",
                    kind.name(),
                    mb(bytes),
                    opts.algorithm
                        .as_deref()
                        .map_or("the default algorithm".to_string(), |a| format!("`{a}`")),
                    mb(config.memory_per_request)
                ),
            ));
        }
    }
    if let Some(side) = kind.max_side() {
        if m.max(n) > side {
            return Err(ApiError::new(
                PAYLOAD_TOO_LARGE,
                format!(
                    "the server takes {} puzzles up to {side}×{side}, this one is {m}×{n}: \
                 use `pencilbox solve` for larger grids",
                    kind.name()
                ),
            ));
        }
    }
    Ok(())
}

/// Refuses settings the family does not declare (`400` naming the accepted keys), as the
/// command line's `--set` does.
pub fn check_settings<'a>(kind: &dyn PuzzleKind, keys: impl IntoIterator<Item = &'a String>) -> Result<(), ApiError> {
    for key in keys {
        if !kind.settings().iter().any(|s| s.key == key) {
            return Err(ApiError::bad(pencilbox_core::puzzle::SettingInfo::unknown(
                kind.name(),
                key,
                None,
                kind.settings(),
            )));
        }
    }
    Ok(())
}

impl PuzzleRequest {
    /// The common path of a puzzle route after decoding: the family, the settings and size
    /// checks, the timeout, then a job running `work(kind, text, options)` with the deadline
    /// (and cancellation) in the options' limits.
    pub fn plan<F>(self, config: &Config, work: F) -> Result<Plan, ApiError>
    where
        F: FnOnce(&'static dyn PuzzleKind, &str, &RunOptions) -> Result<Value, PuzzleError> + Send + 'static,
    {
        let kind = self.kind(config)?;
        let mut opts = self.options(kind)?;
        let timeout = self.timeout()?;
        let text = self.text;
        Ok(Plan::job(timeout, move |limits| {
            opts.limits = limits;
            work(kind, &text, &opts)
        }))
    }

    /// The solution cap asked for (`default` when none was), refusing 0.
    pub fn limit_or(&self, default: u64) -> Result<u64, ApiError> {
        match self.limit {
            Some(0) => Err(ApiError::bad("`limit` must be at least 1")),
            Some(l) => Ok(l),
            None => Ok(default),
        }
    }

    /// The family, after the settings and size checks.
    pub fn kind(&self, config: &Config) -> Result<&'static dyn PuzzleKind, ApiError> {
        let kind = kind_named(&self.puzzle)?;
        check_settings(kind, self.settings.keys())?;
        let opts = RunOptions {
            settings: self.settings(),
            algorithm: self.algorithm.clone(),
            ..RunOptions::default()
        };
        check_size(config, kind, &self.text, &opts)?;
        Ok(kind)
    }

    /// The puzzle settings as run options take them.
    fn settings(&self) -> Vec<(String, String)> {
        self.settings.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// Run options (the limits are filled in by the job).
    pub fn options(&self, kind: &dyn PuzzleKind) -> Result<RunOptions, ApiError> {
        if let Some(a) = &self.algorithm {
            kind.algorithm(Some(a)).map_err(ApiError::from_puzzle)?;
        }
        // The API answers in JSON (with the notes in "stats").
        Ok(RunOptions {
            algorithm: self.algorithm.clone(),
            limits: Limits::default(),
            settings: self.settings(),
            render: Render::Json,
            notes: true,
        })
    }

    /// The requested time limit, if any and valid.
    pub fn timeout(&self) -> Result<Option<Duration>, ApiError> {
        match self.timeout {
            None => Ok(None),
            Some(t) if t.is_finite() && t > 0.0 => Ok(Some(Duration::from_secs_f64(t.min(3600.0)))),
            Some(t) => Err(ApiError::bad(format!(
                "`timeout` must be a positive number of seconds, found {t}"
            ))),
        }
    }
}

/// `GET /api/puzzles`: the families, their algorithms and features, and the limits.
pub fn puzzles(config: &Config, _: &[u8]) -> Result<Plan, ApiError> {
    let families: Vec<Value> = crate::PUZZLES
        .iter()
        .map(|k| {
            let mut v = json!({
                "name": k.name(),
                "title": title(k.summary()),
                "summary": k.summary(),
                "algorithms": k.algorithms(),
                "features": extras::features(*k),
                "difficulties": extras::difficulties(*k),
                "levels": crate::levels::of(k.name()).count(),
            });
            if let Some(g) = k.generator() {
                v["generator"] = json!({
                    "difficulties": g.difficulties,
                    "settings": g.settings.iter().map(|s| json!({"key": s.key, "summary": s.summary})).collect::<Vec<_>>(),
                    "default_size": [g.default_size.0, g.default_size.1],
                    "max_cells": g.max_cells,
                    "min_side": 2,
                    "max_side": extras::MAX_GENERATED_SIDE,
                });
            }
            v
        })
        .collect();
    let mut limits = json!({
        "max_side": config.max_side,
        "max_cells": config.max_cells,
        "max_body_bytes": config.max_body,
        "timeout_s": config.timeout.as_secs_f64(),
        "memory_per_request_mb": config.memory_per_request >> 20,
    });
    if let Value::Object(m) = &mut limits {
        m.extend(config.more_limits.clone());
    }
    Ok(Plan::Answer(json!({ "puzzles": families, "limits": limits })))
}

/// A family's display name: its summary up to the first `:` or `(` (`Ripple Effect`,
/// `Path puzzles`).
pub fn title(summary: &str) -> &str {
    summary.split([':', '(']).next().unwrap_or(summary).trim()
}

/// `GET /api/limits`: every size refused above, so the page never builds a grid the API will
/// not take ([`check_size`] and the generator's bounds).
pub fn limits(config: &Config, _: &[u8]) -> Result<Plan, ApiError> {
    let families: serde_json::Map<String, Value> = crate::PUZZLES
        .iter()
        .map(|k| {
            let side = k.max_side().map_or(config.max_side, |s| s.min(config.max_side));
            (k.name().to_string(), json!({ "max_side": side }))
        })
        .collect();
    Ok(Plan::Answer(json!({
        "max_side": config.max_side,
        "max_cells": config.max_cells,
        "memory_per_request_mb": config.memory_per_request >> 20,
        "generate": { "min_side": 2, "max_side": extras::MAX_GENERATED_SIDE },
        "families": families,
    })))
}

/// `POST /api/solve`.
pub fn solve(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: PuzzleRequest = decode(body)?;
    req.plan(config, |kind, text, opts| {
        kind.solve(text, opts).map(|r| solve_json(kind.name(), &r))
    })
}

/// `POST /api/count`.
pub fn count(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: PuzzleRequest = decode(body)?;
    let limit = req.limit_or(2)?;
    req.plan(config, move |kind, text, opts| {
        kind.count(text, Some(limit), opts).map(|r| {
            let mut v = count_json_report(kind.name(), &r);
            // The CLI says this through its exit code (3); the page needs it in the answer.
            v["interrupted"] = json!(r.interrupted);
            v
        })
    })
}

/// `POST /api/verify`.
pub fn verify(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: PuzzleRequest = decode(body)?;
    let kind = req.kind(config)?;
    let mut opts = req.options(kind)?;
    let timeout = req.timeout()?;
    let Some(solution) = req.solution else {
        return Err(ApiError::bad(
            "verify needs `solution`: the proposed solution in the answer-file format",
        ));
    };
    let text = req.text;
    Ok(Plan::job(timeout, move |limits| {
        opts.limits = limits;
        kind.verify(&text, &solution, &opts)
            .map(|r| verify_json(kind.name(), &r))
    }))
}

/// `POST /api/board`: the board of the puzzle in `text` as the page draws and edits it
/// ([`pencilbox_core::board`]): givens, region walls, clues outside, doors, what a player
/// enters and how a position is written.
pub fn board(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: PuzzleRequest = decode(body)?;
    let kind = req.kind(config)?;
    let opts = req.options(kind)?;
    let timeout = req.timeout()?;
    let text = req.text;
    Ok(Plan::job(timeout, move |_| {
        kind.board(&text, &opts)
            .map(|b| json!({ "puzzle": kind.name(), "board": b }))
    }))
}

/// The body of `POST /api/compose`.
#[derive(Debug, Deserialize)]
struct ComposeRequest {
    puzzle: String,
    /// The puzzle the setter edited (for what its board does not show).
    text: String,
    /// The edited board.
    board: pencilbox_core::board::Draft,
    #[serde(default)]
    settings: BTreeMap<String, String>,
}

/// `POST /api/compose`: the puzzle a setter made by editing the board of `text` (Creative
/// Mode), written in the family's file format; a draft above the size limits is refused
/// before the family reads it.
pub fn compose(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: ComposeRequest = decode(body)?;
    let kind = kind_named(&req.puzzle)?;
    check_settings(kind, req.settings.keys())?;
    let (m, n) = (req.board.rows, req.board.cols);
    let side = kind.max_side().map_or(config.max_side, |s| s.min(config.max_side));
    if m > side || n > side || m.saturating_mul(n) > config.max_cells {
        return Err(ApiError::new(
            PAYLOAD_TOO_LARGE,
            format!(
                "the grid is too large: {m}×{n}; the limit is {side} rows or columns and {} cells",
                config.max_cells
            ),
        ));
    }
    let opts = RunOptions {
        settings: req.settings.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        ..RunOptions::default()
    };
    check_size(config, kind, &req.text, &opts)?;
    Ok(Plan::job(None, move |_| {
        kind.compose(&req.text, &req.board, &opts)
            .map(|text| json!({ "puzzle": kind.name(), "text": text }))
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A puzzle of every family among the bundled examples.
    const EXAMPLES: [(&str, &str); 8] = [
        ("masyu", "masyu/published-wikipedia.txt"),
        ("nurikabe", "nurikabe/published-janko-0007.txt"),
        ("path", "path/example-6x6.txt"),
        ("ripple", "ripple/example-6x6.in"),
        ("snake", "snake/example-8x8.txt"),
        ("starbattle", "starbattle/published-krazydad-10x10-v1-b1-1.txt"),
        ("sudoku", "sudoku/9x9.txt"),
        ("suguru", "suguru/example-6x6.in"),
    ];

    #[test]
    fn every_family_describes_its_board() {
        let c = Config::default();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
        for (name, file) in EXAMPLES {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            let body = json!({ "puzzle": name, "text": text }).to_string();
            let r = call("/api/board", body.as_bytes(), &c);
            assert_eq!(r.status, OK, "{name}: {}", r.body);
            let b = &r.body["board"];
            assert!(b["rows"].as_u64().unwrap() > 0, "{name}");
            assert_eq!(
                b["givens"].as_array().unwrap().len() as u64,
                b["rows"].as_u64().unwrap() * b["cols"].as_u64().unwrap(),
                "{name}"
            );
        }
    }

    /// Creative Mode: every family's board, sent back as drawn, is written as the same
    /// puzzle; an edited one as the edit says.
    #[test]
    fn every_family_writes_its_board_back_and_an_edited_one() {
        let c = Config::default();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
        for (name, file) in EXAMPLES {
            let text = std::fs::read_to_string(root.join(file)).unwrap();
            let body = json!({ "puzzle": name, "text": text }).to_string();
            let board = call("/api/board", body.as_bytes(), &c).body["board"].clone();
            assert!(board["edit"].is_object(), "{name}: {board}");
            let body = json!({ "puzzle": name, "text": text, "board": board }).to_string();
            let r = call("/api/compose", body.as_bytes(), &c);
            assert_eq!(r.status, OK, "{name}: {}", r.body);
            let again = json!({ "puzzle": name, "text": r.body["text"] }).to_string();
            let back = call("/api/board", again.as_bytes(), &c).body["board"].clone();
            assert_eq!(back, board, "{name}: the same board after writing it");
        }
        // A Snake with one end taken away is refused, saying why; a circle placed is written `o`.
        let text = std::fs::read_to_string(root.join("snake/example-8x8.txt")).unwrap();
        let body = json!({ "puzzle": "snake", "text": text }).to_string();
        let mut board = call("/api/board", body.as_bytes(), &c).body["board"].clone();
        let ends: Vec<usize> = (0..64)
            .filter(|&i| board["givens"][i]["kind"] == json!("end"))
            .collect();
        let first_empty = (0..64).find(|&i| board["givens"][i].is_null()).unwrap();
        board["givens"][first_empty] = json!({"kind": "pearl", "black": false});
        let body = json!({ "puzzle": "snake", "text": text, "board": board }).to_string();
        let r = call("/api/compose", body.as_bytes(), &c);
        let row = first_empty / 8;
        let line = r.body["text"]
            .as_str()
            .unwrap()
            .lines()
            .nth(3 + row)
            .unwrap()
            .to_string();
        assert_eq!(line.split(' ').nth(first_empty % 8), Some("o"), "{}", r.body);
        board["givens"][ends[0]] = serde_json::Value::Null;
        let body = json!({ "puzzle": "snake", "text": text, "board": board }).to_string();
        let r = call("/api/compose", body.as_bytes(), &c);
        assert_eq!(r.status, BAD_REQUEST);
        assert_eq!(r.body["error"], json!("a snake has two given ends, found 1"));
        // A Suguru drawn on an empty 3×3: one region, then a region down column 3 and a hint.
        let empty = json!({ "rows": 3, "cols": 3, "givens": vec![serde_json::Value::Null; 9], "regions": [1, 1, 2, 1, 1, 2, 1, 1, 2] });
        let mut draft = empty.clone();
        draft["givens"][4] = json!({"kind": "number", "value": 5});
        let body = json!({ "puzzle": "suguru", "text": "1 1\n0\n1\n", "board": draft }).to_string();
        let r = call("/api/compose", body.as_bytes(), &c);
        assert_eq!(r.body["text"], json!("3 3\n0 0 0\n0 5 0\n0 0 0\n1 1 2\n1 1 2\n1 1 2\n"));
        // A hint larger than its region is refused, naming the cell.
        draft["givens"][2] = json!({"kind": "number", "value": 4});
        let body = json!({ "puzzle": "suguru", "text": "1 1\n0\n1\n", "board": draft }).to_string();
        let r = call("/api/compose", body.as_bytes(), &c);
        assert_eq!(r.status, BAD_REQUEST);
        assert_eq!(r.body["error"], json!("r1c3 holds 4, but its region has 3 cells"));
        // Path needs both doors; a grid above the limits is refused before it is read.
        let body = json!({ "puzzle": "path", "text": "2 2\n1 1\n2 2\n\n-1 -1\n-1 -1\n", "board": empty }).to_string();
        let r = call("/api/compose", body.as_bytes(), &c);
        assert!(r.body["error"].as_str().unwrap().contains("door A"), "{}", r.body);
        let huge = json!({ "rows": 61, "cols": 2, "givens": vec![serde_json::Value::Null; 122] });
        let body = json!({ "puzzle": "masyu", "text": "masyu 1 1\n-\n", "board": huge }).to_string();
        assert_eq!(call("/api/compose", body.as_bytes(), &c).status, PAYLOAD_TOO_LARGE);
    }

    /// A job its time limit stops answers 503, as documented for every time limit (a
    /// generator's `PuzzleError::Interrupted` was a 400).
    #[test]
    fn a_generator_stopped_by_the_time_limit_answers_503() {
        let c = Config {
            timeout: std::time::Duration::from_nanos(1),
            ..Config::default()
        };
        let body = json!({ "puzzle": "suguru", "size": 12, "difficulty": "hard", "seed": 3 }).to_string();
        let r = call("/api/generate", body.as_bytes(), &c);
        assert_eq!(r.status, SERVICE_UNAVAILABLE, "{}", r.body);
        assert!(r.body["error"].as_str().unwrap().contains("time limit"), "{}", r.body);
    }

    #[test]
    fn grids_above_the_limits_are_refused_with_the_limits_in_the_message() {
        let c = Config {
            max_side: 10,
            max_cells: 50,
            ..Config::default()
        };
        let suguru = kind_named("suguru").unwrap();
        let opts = RunOptions::default();
        let grid = |m: usize, n: usize| format!("{m} {n}\n{}", format!("{}\n", "0 ".repeat(n)).repeat(2 * m));
        assert!(check_size(&c, suguru, &grid(5, 10), &opts).is_ok());
        let e = check_size(&c, suguru, &grid(11, 2), &opts).unwrap_err();
        assert_eq!(e.status, PAYLOAD_TOO_LARGE);
        assert!(e.body["error"].as_str().unwrap().contains("11×2"), "{:?}", e.body);
        assert!(check_size(&c, suguru, &grid(8, 8), &opts).is_err());
        // A text that does not parse is left to the operation, which names the error.
        assert!(check_size(&c, suguru, "18446744073709551615 18446744073709551615", &opts).is_ok());
        // Any family, any form it reads: an 11×4 Ripple Effect as a puzz.link URL.
        let ripple = kind_named("ripple").unwrap();
        let g = ripple
            .generate(&pencilbox_core::plugin::GenerateRequest {
                height: 11,
                width: 4,
                seed: 1,
                ..Default::default()
            })
            .unwrap();
        let e = check_size(&c, ripple, g.url.as_deref().unwrap(), &opts).unwrap_err();
        assert!(e.body["error"].as_str().unwrap().contains("11×4"), "{:?}", e.body);
    }

    #[test]
    fn sudoku_above_twenty_five_by_twenty_five_is_refused() {
        let c = Config::default();
        let sudoku = kind_named("sudoku").unwrap();
        let opts = RunOptions::default();
        assert!(check_size(&c, sudoku, &".".repeat(256), &opts).is_ok());
        assert!(check_size(&c, sudoku, &".".repeat(625), &opts).is_ok());
        let e = check_size(&c, sudoku, &".".repeat(30 * 30), &opts).unwrap_err();
        assert!(e.body["error"].as_str().unwrap().contains("30×30"), "{:?}", e.body);
        assert!(check_size(&c, kind_named("suguru").unwrap(), "25 25\n", &opts).is_ok());
    }

    #[test]
    fn call_answers_every_route_start_to_end() {
        let c = Config::default();
        let r = call(
            "/api/solve",
            br#"{"puzzle":"suguru","text":"3 3\n0 3 0\n2 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n"}"#,
            &c,
        );
        assert_eq!(r.status, OK, "{}", r.body);
        assert_eq!(r.body["solution"], json!([[1, 3, 1], [2, 5, 2], [4, 1, 3]]));
        let r = call("/api/nowhere", b"", &c);
        assert_eq!(
            (r.status, r.body["error"].as_str()),
            (NOT_FOUND, Some("no such page or endpoint: /api/nowhere"))
        );
        let r = call("/api/solve", b"{", &c);
        assert_eq!(r.status, BAD_REQUEST);
        let big = vec![b' '; c.max_body + 1];
        assert_eq!(call("/api/solve", &big, &c).status, PAYLOAD_TOO_LARGE);
        for (path, method, _) in ROUTES {
            if *method == Method::Get {
                assert_eq!(call(path, b"", &c).status, OK, "{path}");
            }
        }
    }

    /// A job's deadline is its request's `timeout`, capped by the host's longest.
    #[test]
    fn a_request_timeout_is_capped_by_the_longest_allowed() {
        let c = Config {
            timeout: Duration::from_secs(5),
            max_timeout: Duration::from_secs(60),
            ..Config::default()
        };
        assert_eq!(c.time_limit(None), Duration::from_secs(5));
        assert_eq!(c.time_limit(Some(Duration::from_secs(30))), Duration::from_secs(30));
        assert_eq!(c.time_limit(Some(Duration::from_secs(600))), Duration::from_secs(60));
        // An empty 9×9 Sudoku counted to the end runs into its own short deadline.
        let t0 = Instant::now();
        let r = call(
            "/api/count",
            format!(
                r#"{{"puzzle":"sudoku","text":"{}","limit":100000000,"timeout":0.3}}"#,
                ".".repeat(81)
            )
            .as_bytes(),
            &c,
        );
        assert_eq!(r.status, OK, "{}", r.body);
        assert_eq!(r.body["interrupted"], json!(true));
        assert!(t0.elapsed() < Duration::from_secs(3), "{:?}", t0.elapsed());
    }
}
