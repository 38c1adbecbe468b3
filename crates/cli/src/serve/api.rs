//! The JSON API: routes, request parsing, limits and error answers.
//!
//! Every puzzle endpoint takes `{"puzzle": NAME, "text": PUZZLE_TEXT, ...}` and answers with the
//! object the CLI prints with `--format json` ([`crate::output::solve_json`],
//! [`crate::output::count_json_report`], [`crate::output::verify_json`]). Errors are
//! `{"error": MESSAGE}` (plus `field`, `line` and `col` for parse errors) with a 4xx/5xx status.
//!
//! | route | body | answer |
//! |---|---|---|
//! | `GET /api/puzzles` | – | families, algorithms, extra features, the server's limits |
//! | `POST /api/solve` | `puzzle`, `text`, optional `algorithm`, `settings`, `timeout` | `pencilbox solve --format json` |
//! | `POST /api/count` | as solve, optional `limit` (default 2 = uniqueness) | `pencilbox count --format json` |
//! | `POST /api/verify` | `puzzle`, `text`, `solution` | `pencilbox verify --format json` |
//!
//! Puzzle-specific routes (hints, generator, levels, Nishio) are in [`super::extras`].

use super::jobs::{JobError, Jobs};
use super::{assets, extras, Config};
use crate::output::{count_json_report, solve_json, verify_json};
use crate::registry;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use pencilbox_core::{Limits, PuzzleError, PuzzleKind, RunOptions};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

/// State shared by all requests.
#[derive(Debug)]
pub struct AppState {
    /// The limits.
    pub config: Config,
    /// The pool puzzle work runs on.
    pub jobs: Jobs,
}

impl AppState {
    /// State for a configuration.
    pub fn new(config: Config) -> Self {
        let jobs = Jobs::new(config.jobs, config.timeout, config.queue_wait);
        AppState { config, jobs }
    }
}

/// Shared state as handlers receive it.
pub type Shared = State<Arc<AppState>>;

/// Every route of the server.
pub fn router(state: Arc<AppState>) -> Router {
    let max_body = state.config.max_body;
    Router::new()
        .merge(assets::routes())
        .route("/api/puzzles", get(puzzles))
        .route("/api/solve", post(solve))
        .route("/api/count", post(count))
        .route("/api/verify", post(verify))
        .merge(extras::routes())
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(state)
}

/// An error answer: a status and `{"error": message, ...}`.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// The JSON body.
    pub body: Value,
}

impl ApiError {
    /// An error with a status and a message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            body: json!({ "error": message.into() }),
        }
    }

    /// A `400 Bad Request`.
    pub fn bad(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// The answer to a puzzle error: parse errors name the field, line and column.
    pub fn from_puzzle(e: PuzzleError) -> Self {
        let (field, pe) = match &e {
            PuzzleError::Parse(pe) => ("text", pe),
            PuzzleError::Solution(pe) => ("solution", pe),
            other => return Self::bad(other.to_string()),
        };
        ApiError {
            status: StatusCode::BAD_REQUEST,
            body: json!({
                "error": format!("{field}: line {}, column {}: {}", pe.pos.line, pe.pos.col, pe.message),
                "field": field,
                "line": pe.pos.line,
                "col": pe.pos.col,
            }),
        }
    }
}

impl From<JobError> for ApiError {
    fn from(e: JobError) -> Self {
        match e {
            JobError::Busy { jobs } => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the server is busy ({jobs} puzzle jobs running); try again in a moment"),
            ),
            JobError::Overran { limit } => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!("the time limit of {:.1} s was reached", limit.as_secs_f64()),
            ),
            JobError::Panicked => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error: the puzzle code failed on this input (the server goes on)",
            ),
            JobError::Puzzle(p) => ApiError::from_puzzle(p),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

/// Decodes a JSON body, answering `413` for an oversized body and `400` for bad JSON.
pub fn decode<T: DeserializeOwned>(state: &AppState, body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body.map_err(|rej| {
        if rej.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!(
                    "the request body is larger than the server's limit of {} KiB",
                    state.config.max_body / 1024
                ),
            )
        } else {
            ApiError::new(
                rej.status(),
                format!("cannot read the request body: {}", rej.body_text()),
            )
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("the request is not the JSON expected here: {e}")))
}

/// The body of the puzzle endpoints.
#[derive(Debug, Deserialize)]
pub struct PuzzleRequest {
    /// The family (`suguru`, `path`, `sudoku`).
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
    /// A time limit in seconds, at most the server's.
    #[serde(default)]
    pub timeout: Option<f64>,
}

/// The family named `name`, or a `400` listing the known ones.
pub fn kind_named(name: &str) -> Result<&'static dyn PuzzleKind, ApiError> {
    registry::by_name(name).ok_or_else(|| {
        let names: Vec<_> = registry::PUZZLES.iter().map(|k| k.name()).collect();
        ApiError::bad(format!("unknown puzzle `{name}`; choose one of: {}", names.join(", ")))
    })
}

/// The `(rows, columns)` a puzzle text declares, read cheaply before parsing: a puzz.link URL's
/// `W/H`, an `m n` header line, or (for one-line and grid formats) the lines and symbols.
pub fn declared_dims(text: &str) -> Option<(u64, u64)> {
    let trimmed = text.trim();
    if trimmed.starts_with('{') {
        return None;
    }
    if let Some(q) = trimmed.find("p?") {
        let mut parts = trimmed[q + 2..].split('/').skip(1);
        let w = parts.next()?.parse::<u64>().ok()?;
        let h = parts.next()?.parse::<u64>().ok()?;
        return Some((h, w));
    }
    let mut lines = trimmed.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next()?;
    let toks: Vec<&str> = first.split_whitespace().collect();
    if let [m, n] = toks.as_slice() {
        if let (Ok(m), Ok(n)) = (m.parse::<u64>(), n.parse::<u64>()) {
            return Some((m, n));
        }
    }
    let rows = 1 + lines.count() as u64;
    let symbols = first.chars().filter(|c| !c.is_whitespace()).count() as u64;
    if rows == 1 {
        // One line of n² symbols (a Sudoku): n × n.
        let n = symbols.isqrt();
        Some((n, n.max(1)))
    } else {
        // A grid of lines: symbols per line, separated by spaces or not.
        let cols = if toks.len() > 1 { toks.len() as u64 } else { symbols };
        Some((rows, cols))
    }
}

/// Refuses grids above the server's size limits, with a message saying what they are.
pub fn check_size(config: &Config, text: &str) -> Result<(), ApiError> {
    let Some((m, n)) = declared_dims(text) else {
        return Ok(());
    };
    let cells = m.saturating_mul(n);
    if m > config.max_side as u64 || n > config.max_side as u64 || cells > config.max_cells as u64 {
        return Err(ApiError::bad(format!(
            "the grid is too large for this server: {m}×{n} = {cells} cells; the limit is {} rows or columns \
             and {} cells (see `pencilbox serve --max-cells`)",
            config.max_side, config.max_cells
        )));
    }
    Ok(())
}

/// The largest Sudoku side the server accepts: 25×25, the largest shape whose Nishio graph the
/// deductive solver builds (every rule, the graph build and the search poll the request's
/// deadline, so a job ends within milliseconds of it). Larger grids: `pencilbox solve`.
pub const MAX_SUDOKU_SIDE: u64 = 25;

/// Per-family limits on top of [`check_size`].
pub fn check_family_size(puzzle: &str, text: &str) -> Result<(), ApiError> {
    if puzzle == "sudoku" {
        if let Some((m, n)) = declared_dims(text) {
            if m.max(n) > MAX_SUDOKU_SIDE {
                return Err(ApiError::bad(format!(
                    "the server takes Sudoku up to {MAX_SUDOKU_SIDE}×{MAX_SUDOKU_SIDE}, this one is {m}×{n}: \
                     use `pencilbox solve` for larger grids"
                )));
            }
        }
    }
    Ok(())
}

impl PuzzleRequest {
    /// The family, after the size checks.
    pub fn kind(&self, config: &Config) -> Result<&'static dyn PuzzleKind, ApiError> {
        let kind = kind_named(&self.puzzle)?;
        check_size(config, &self.text)?;
        check_family_size(kind.name(), &self.text)?;
        Ok(kind)
    }

    /// Run options (the limits are filled in by the job).
    pub fn options(&self, kind: &dyn PuzzleKind) -> Result<RunOptions, ApiError> {
        if let Some(a) = &self.algorithm {
            kind.algorithm(Some(a)).map_err(ApiError::from_puzzle)?;
        }
        Ok(RunOptions {
            algorithm: self.algorithm.clone(),
            limits: Limits::default(),
            settings: self.settings.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
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

async fn puzzles(State(state): Shared) -> Json<Value> {
    let families: Vec<Value> = registry::PUZZLES
        .iter()
        .map(|k| {
            json!({
                "name": k.name(),
                "summary": k.summary(),
                "algorithms": k.algorithms(),
                "features": extras::features(*k),
                "difficulties": extras::difficulties(*k),
            })
        })
        .collect();
    let c = &state.config;
    Json(json!({
        "puzzles": families,
        "limits": {
            "max_side": c.max_side,
            "max_cells": c.max_cells,
            "max_body_bytes": c.max_body,
            "timeout_s": c.timeout.as_secs_f64(),
            "jobs": c.jobs,
        },
    }))
}

async fn solve(State(state): Shared, body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let req: PuzzleRequest = decode(&state, body)?;
    let kind = req.kind(&state.config)?;
    let mut opts = req.options(kind)?;
    let timeout = req.timeout()?;
    let text = req.text;
    let out = state
        .jobs
        .run(timeout, move |limits| {
            opts.limits = limits;
            kind.solve(&text, &opts).map(|r| solve_json(kind.name(), &r))
        })
        .await?;
    Ok(Json(out))
}

async fn count(State(state): Shared, body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let req: PuzzleRequest = decode(&state, body)?;
    let kind = req.kind(&state.config)?;
    let mut opts = req.options(kind)?;
    let timeout = req.timeout()?;
    let limit = match req.limit {
        Some(0) => return Err(ApiError::bad("`limit` must be at least 1")),
        Some(l) => l,
        None => 2,
    };
    let text = req.text;
    let out = state
        .jobs
        .run(timeout, move |limits| {
            opts.limits = limits;
            kind.count(&text, Some(limit), &opts).map(|r| {
                let mut v = count_json_report(kind.name(), &r);
                // The CLI says this through its exit code (3); the page needs it in the answer.
                v["interrupted"] = json!(r.interrupted);
                v
            })
        })
        .await?;
    Ok(Json(out))
}

async fn verify(State(state): Shared, body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let req: PuzzleRequest = decode(&state, body)?;
    let kind = req.kind(&state.config)?;
    let mut opts = req.options(kind)?;
    let timeout = req.timeout()?;
    let Some(solution) = req.solution else {
        return Err(ApiError::bad(
            "verify needs `solution`: the proposed solution in the answer-file format",
        ));
    };
    let text = req.text;
    let out = state
        .jobs
        .run(timeout, move |limits| {
            opts.limits = limits;
            kind.verify(&text, &solution, &opts)
                .map(|r| verify_json(kind.name(), &r))
        })
        .await?;
    Ok(Json(out))
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no such page or endpoint: {}", uri.path()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dimensions_are_read_from_headers_urls_and_symbol_lines() {
        assert_eq!(declared_dims("6 7\n1 2 3\n"), Some((6, 7)));
        assert_eq!(declared_dims("https://puzz.link/p?suguru/10/12/abc"), Some((12, 10)));
        assert_eq!(declared_dims(&".".repeat(81)), Some((9, 9)));
        assert_eq!(declared_dims("...\n...\n..."), Some((3, 3)));
        assert_eq!(declared_dims("{\"rows\": 3}"), None);
        assert_eq!(declared_dims("   \n"), None);
    }

    #[test]
    fn grids_above_the_limits_are_refused_with_the_limits_in_the_message() {
        let c = Config {
            max_side: 10,
            max_cells: 50,
            ..Config::default()
        };
        assert!(check_size(&c, "5 10\n").is_ok());
        let e = check_size(&c, "100000 100000\n").unwrap_err();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert!(e.body["error"].as_str().unwrap().contains("100000×100000"));
        assert!(check_size(&c, "8 8\n").is_err());
        assert!(check_size(&c, "18446744073709551615 18446744073709551615").is_err());
    }

    #[test]
    fn sudoku_above_twenty_five_by_twenty_five_is_refused_by_the_server() {
        assert!(check_family_size("sudoku", &".".repeat(256)).is_ok());
        assert!(check_family_size("sudoku", &".".repeat(625)).is_ok());
        let e = check_family_size("sudoku", &".".repeat(36 * 36)).unwrap_err();
        assert!(e.body["error"].as_str().unwrap().contains("36×36"), "{:?}", e.body);
        assert!(check_family_size("suguru", "25 25\n").is_ok());
    }
}
