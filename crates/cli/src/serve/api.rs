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
//! | `GET /api/limits` | – | the sizes the server takes: grid side and cells, each family's own largest side, the generator's sides |
//! | `POST /api/solve` | `puzzle`, `text`, optional `algorithm`, `settings`, `timeout` | `pencilbox solve --format json` |
//! | `POST /api/count` | as solve, optional `limit` (default 2 = uniqueness) | `pencilbox count --format json` |
//! | `POST /api/verify` | `puzzle`, `text`, `solution` | `pencilbox verify --format json` |
//!
//! Puzzle-specific routes (hints, generator, levels, Nishio) are in [`super::extras`]; the
//! setter's tools (`/api/forced`, `/api/suggest`, `/api/redundant`) in [`super::setter`]; the
//! explained steps (`/api/explain`) in [`super::explain`].
//!
//! Every request passes [`guard`] first (`Host` and `Origin` checks, security headers), and
//! every grid the size check in [`check_size`] ([`PuzzleKind::dimensions`]: the plug-in's own
//! parse, any format) before any work; unknown `settings` keys are refused by [`check_settings`].

use super::jobs::{JobError, Jobs};
use super::{assets, extras, Config};
use crate::output::{count_json_report, solve_json, verify_json};
use crate::registry;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{ConnectInfo, DefaultBodyLimit, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use pencilbox_core::{Limits, PuzzleError, PuzzleKind, RunOptions};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
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
        let jobs = Jobs::with_per_client(config.jobs, config.jobs_per_client, config.timeout, config.queue_wait);
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
        .route("/api/limits", get(limits))
        .route("/api/solve", post(solve))
        .route("/api/count", post(count))
        .route("/api/verify", post(verify))
        .merge(extras::routes())
        .merge(super::setter::routes())
        .merge(super::explain::routes())
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(max_body))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
        .with_state(state)
}

/// The client's address (from the connection; loopback when the router runs in-process).
#[derive(Clone, Copy, Debug)]
pub struct Client(pub IpAddr);

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;
    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Client(
            parts
                .extensions
                .get::<ConnectInfo<SocketAddr>>()
                .map_or(IpAddr::from([127, 0, 0, 1]), |c| c.0.ip()),
        ))
    }
}

/// The host part of a `Host` value or an origin's authority, lower case, without the port.
fn host_name(authority: &str) -> String {
    let a = authority.trim().to_ascii_lowercase();
    let name = if a.starts_with('[') {
        a.split_inclusive(']').next().unwrap_or(&a).to_string()
    } else {
        match a.rsplit_once(':') {
            Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h.to_string(),
            _ => a.clone(),
        }
    };
    name.trim_end_matches('.').to_string()
}

/// May a request name this host? Loopback names and addresses, the names of `--allow-host`
/// (and the bound address, added by [`super::serve`]); `*` accepts any.
pub fn host_allowed(config: &Config, authority: &str) -> bool {
    let name = host_name(authority);
    let ip = name.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>();
    name == "localhost"
        || name.ends_with(".localhost")
        || ip.is_ok_and(|ip| ip.is_loopback())
        || config.allowed_hosts.iter().any(|h| h == "*" || *h == name)
}

/// Why a request is refused before routing (`Host`, `Origin`, fetch metadata), if it is.
///
/// A browser page from another origin may send a "simple" cross-origin POST without asking
/// first, and a DNS-rebinding page reaches the server under its own host name: so `Host`
/// must be one of ours, and any request that changes or computes something (every method but
/// `GET`, `HEAD` and `OPTIONS`) that says where it comes from (`Origin`, `Sec-Fetch-Site`) must
/// come from the page's own origin. Clients that say nothing (curl, scripts) are not browsers
/// driven by a foreign page and pass.
pub fn refusal(config: &Config, method: &Method, headers: &axum::http::HeaderMap) -> Option<String> {
    let text = |name: header::HeaderName| headers.get(name).map(|v| v.to_str().unwrap_or("\u{fffd}"));
    let host = text(header::HOST);
    if let Some(h) = host {
        if !host_allowed(config, h) {
            return Some(format!(
                "the host name `{}` is not one of this server's (start it with `--allow-host {}` to accept it)",
                host_name(h),
                host_name(h)
            ));
        }
    }
    if matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return None;
    }
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        if site != "same-origin" && site != "none" {
            return Some(format!("cross-origin requests are refused (Sec-Fetch-Site: {site})"));
        }
    }
    if let Some(origin) = text(header::ORIGIN) {
        let same = match (origin.strip_prefix("http://"), host) {
            (Some(authority), Some(h)) => authority.eq_ignore_ascii_case(h.trim()),
            (Some(authority), None) => host_allowed(config, authority),
            (None, _) => false,
        };
        if !same {
            return Some(format!(
                "cross-origin requests are refused (Origin: {origin}); use the page this server serves"
            ));
        }
    }
    None
}

/// The first layer of every request: refuses foreign hosts and cross-origin requests with
/// `403`, and adds `X-Content-Type-Options: nosniff`, a Content-Security-Policy and
/// `Cache-Control: no-store` to answers that do not set their own (the page's files do).
pub async fn guard(State(state): Shared, req: Request, next: Next) -> Response {
    let mut res = match refusal(&state.config, req.method(), req.headers()) {
        Some(why) => ApiError::new(StatusCode::FORBIDDEN, why).into_response(),
        None => next.run(req).await,
    };
    let h = res.headers_mut();
    for (name, value) in [
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (
            header::CONTENT_SECURITY_POLICY,
            "default-src 'none'; frame-ancestors 'none'; base-uri 'none'",
        ),
        (header::CACHE_CONTROL, "no-store"),
        (
            header::HeaderName::from_static("cross-origin-resource-policy"),
            "same-origin",
        ),
    ] {
        if !h.contains_key(&name) {
            h.insert(name, HeaderValue::from_static(value));
        }
    }
    res
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
            PuzzleError::Entries(m) => return Self::bad(format!("solution: {m}")),
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
            JobError::ClientBusy { per_client } => ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "your {per_client} puzzle jobs are still running (the limit per client); try again when they end"
                ),
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

/// Refuses grids above the server's size limits (and above the family's own interactive limit,
/// [`PuzzleKind::max_side`]) and requests whose memory estimate
/// ([`PuzzleKind::memory_estimate`]) is above [`Config::memory_per_request`], with a message
/// saying what they are. The size is the plug-in's
/// own reading of the puzzle ([`PuzzleKind::dimensions`]: the parsers check sizes before they
/// allocate, and the body is already capped); a text that does not parse passes here and gets
/// its parse error from the operation itself.
pub fn check_size(config: &Config, kind: &dyn PuzzleKind, text: &str, opts: &RunOptions) -> Result<(), ApiError> {
    let Ok((m, n)) = kind.dimensions(text, opts) else {
        return Ok(());
    };
    let cells = m.saturating_mul(n);
    if m > config.max_side || n > config.max_side || cells > config.max_cells {
        return Err(ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
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
                StatusCode::PAYLOAD_TOO_LARGE,
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
                StatusCode::PAYLOAD_TOO_LARGE,
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
    let known: Vec<&str> = kind.settings().iter().map(|s| s.key).collect();
    for key in keys {
        if !known.contains(&key.as_str()) {
            return Err(ApiError::bad(if known.is_empty() {
                format!("unknown setting `{key}`: {} takes no settings", kind.name())
            } else {
                format!(
                    "unknown setting `{key}` for {}; it accepts: {}",
                    kind.name(),
                    known.join(", ")
                )
            }));
        }
    }
    Ok(())
}

impl PuzzleRequest {
    /// The common path of a puzzle route after decoding: the family, the settings and size
    /// checks, the timeout, then `work(kind, text, options)` on one of the client's job slots,
    /// with the deadline and cancellation in the options' limits.
    pub async fn run<F>(self, state: &AppState, client: IpAddr, work: F) -> Result<Json<Value>, ApiError>
    where
        F: FnOnce(&'static dyn PuzzleKind, &str, &RunOptions) -> Result<Value, PuzzleError> + Send + 'static,
    {
        let kind = self.kind(&state.config)?;
        let mut opts = self.options(kind)?;
        let timeout = self.timeout()?;
        let text = self.text;
        let out = state
            .jobs
            .run_for(client, timeout, move |limits| {
                opts.limits = limits;
                work(kind, &text, &opts)
            })
            .await?;
        Ok(Json(out))
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
            render: pencilbox_core::Render::Json,
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
            "jobs_per_client": c.jobs_per_client,
            "memory_per_request_mb": c.memory_per_request >> 20,
            "header_timeout_s": c.header_timeout.as_secs_f64(),
            "max_connections": c.max_connections,
            "max_connections_per_client": c.max_connections_per_client,
        },
    }))
}

/// `GET /api/limits`: every size the server refuses above, so the page never builds a grid the
/// server will not take ([`check_size`] and the generator's bounds).
async fn limits(State(state): Shared) -> Json<Value> {
    let c = &state.config;
    let families: serde_json::Map<String, Value> = registry::PUZZLES
        .iter()
        .map(|k| {
            let side = k.max_side().map_or(c.max_side, |s| s.min(c.max_side));
            (k.name().to_string(), json!({ "max_side": side }))
        })
        .collect();
    Json(json!({
        "max_side": c.max_side,
        "max_cells": c.max_cells,
        "memory_per_request_mb": c.memory_per_request >> 20,
        "generate": { "min_side": 2, "max_side": extras::MAX_GENERATED_SIDE },
        "families": families,
    }))
}

async fn solve(
    State(state): Shared,
    Client(client): Client,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: PuzzleRequest = decode(&state, body)?;
    req.run(&state, client, |kind, text, opts| {
        kind.solve(text, opts).map(|r| solve_json(kind.name(), &r))
    })
    .await
}

async fn count(
    State(state): Shared,
    Client(client): Client,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: PuzzleRequest = decode(&state, body)?;
    let limit = req.limit_or(2)?;
    req.run(&state, client, move |kind, text, opts| {
        kind.count(text, Some(limit), opts).map(|r| {
            let mut v = count_json_report(kind.name(), &r);
            // The CLI says this through its exit code (3); the page needs it in the answer.
            v["interrupted"] = json!(r.interrupted);
            v
        })
    })
    .await
}

async fn verify(
    State(state): Shared,
    Client(client): Client,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
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
        .run_for(client, timeout, move |limits| {
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
        assert_eq!(e.status, StatusCode::PAYLOAD_TOO_LARGE);
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
    fn sudoku_above_twenty_five_by_twenty_five_is_refused_by_the_server() {
        let c = Config::default();
        let sudoku = kind_named("sudoku").unwrap();
        let opts = RunOptions::default();
        assert!(check_size(&c, sudoku, &".".repeat(256), &opts).is_ok());
        assert!(check_size(&c, sudoku, &".".repeat(625), &opts).is_ok());
        let e = check_size(&c, sudoku, &".".repeat(30 * 30), &opts).unwrap_err();
        assert!(e.body["error"].as_str().unwrap().contains("30×30"), "{:?}", e.body);
        assert!(check_size(&c, kind_named("suguru").unwrap(), "25 25\n", &opts).is_ok());
    }
}
