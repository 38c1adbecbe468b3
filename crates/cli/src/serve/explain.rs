//! `POST /api/explain`: the explained steps of a puzzle, rated — `pencilbox explain --format
//! json` over HTTP, for every family with the explain capability
//! ([`pencilbox_core::PuzzleKind::explain`]; no family is named here).
//!
//! | route | body | answer |
//! |---|---|---|
//! | `POST /api/explain` | `puzzle`, `text`, optional `solution` (entries, region families), `settings`, `no_guess`, `max_level`, `timeout` | `pencilbox explain --format json` (`steps`, `status`, `rating`), plus `"steps_total"` and `"truncated": true` when more than [`MAX_STEPS`] steps were found |
//!
//! The grid is size-checked like every route and the run goes through the job pool under the
//! server's deadline; a deadline reached while explaining is the status `"timeout"` (the steps
//! found so far), not an error.

use super::api::{decode, ApiError, AppState, Client, Shared};
use crate::explain::explanation_json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use pencilbox_core::human::ExplainOptions;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The most steps one answer lists (the rating still counts them all): keeps the answer of a
/// large grid to a few hundred kilobytes.
pub const MAX_STEPS: usize = 1000;

/// The routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new().route("/api/explain", post(explain))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExplainRequest {
    puzzle: String,
    text: String,
    /// The player's entries (answer format, `0` = empty), for families that take them.
    #[serde(default)]
    solution: Option<String>,
    #[serde(default)]
    settings: BTreeMap<String, String>,
    /// Stop with `stalled` instead of guessing.
    #[serde(default)]
    no_guess: bool,
    /// Use only the rules up to this level.
    #[serde(default)]
    max_level: Option<u8>,
    /// A time limit in seconds, at most the server's.
    #[serde(default)]
    timeout: Option<f64>,
}

async fn explain(
    State(state): Shared,
    Client(client): Client,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: ExplainRequest = decode(&state, body)?;
    // The common request checks (family, size, settings, timeout) are the other routes'.
    let common = super::api::PuzzleRequest {
        puzzle: req.puzzle.clone(),
        text: req.text.clone(),
        solution: None,
        algorithm: None,
        settings: req.settings.clone(),
        limit: None,
        timeout: req.timeout,
    };
    let kind = common.kind(&state.config)?;
    let opts = common.options(kind)?;
    let timeout = common.timeout()?;
    let out = state
        .jobs
        .run_for(client, timeout, move |limits| {
            let entries = req.solution.as_deref().filter(|s| !s.trim().is_empty());
            let eo = ExplainOptions {
                no_guess: req.no_guess,
                max_level: req.max_level,
                limits,
            };
            let x = kind.explain(&req.text, entries, &opts, &eo)?;
            let mut v = explanation_json(kind.name(), &x);
            let total = x.steps.len();
            if total > MAX_STEPS {
                if let Some(steps) = v["steps"].as_array_mut() {
                    steps.truncate(MAX_STEPS);
                }
                v["truncated"] = json!(true);
            }
            v["steps_total"] = json!(total);
            Ok(v)
        })
        .await?;
    Ok(Json(out))
}
