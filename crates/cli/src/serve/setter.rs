//! The setter's tools over HTTP, for every family that has them (no family is named here):
//!
//! | route | body | answer |
//! |---|---|---|
//! | `POST /api/forced` | `puzzle`, `text`, optional `settings`, `timeout` | `pencilbox forced --format json` |
//! | `POST /api/suggest` | as forced, optional `algorithm`, `limit` (default 100) | `pencilbox count --suggest --format json`, plus `"message"` when the puzzle has fewer than two solutions |
//! | `POST /api/redundant` | as forced, optional `algorithm` | `pencilbox count --redundant --format json`, plus `"message"` when the puzzle is not unique |
//!
//! A deadline gives the partial answer (`"complete": false` / `"interrupted": true`), not an
//! error.

use super::api::{decode, ApiError, AppState, Client, PuzzleRequest, Shared};
use crate::setter::{forced_json, redundant_json, suggest_json};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use pencilbox_core::BigUint;
use serde_json::{json, Value};
use std::sync::Arc;

/// The routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/forced", post(forced))
        .route("/api/suggest", post(suggest))
        .route("/api/redundant", post(redundant))
}

async fn forced(
    State(state): Shared,
    Client(client): Client,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: PuzzleRequest = decode(&state, body)?;
    req.run(&state, client, |kind, text, opts| {
        kind.forced(text, opts).map(|r| forced_json(kind.name(), &r))
    })
    .await
}

async fn suggest(
    State(state): Shared,
    Client(client): Client,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: PuzzleRequest = decode(&state, body)?;
    let limit = req.limit_or(100)?;
    req.run(&state, client, move |kind, text, opts| {
        kind.suggest(text, limit, opts).map(|r| {
            let mut v = suggest_json(kind.name(), &r);
            if r.complete && r.count < BigUint::from(2u32) {
                v["message"] = json!(if r.count == BigUint::default() {
                    "the puzzle has no solution"
                } else {
                    "the puzzle has exactly one solution: there is nothing to separate"
                });
            }
            v
        })
    })
    .await
}

async fn redundant(
    State(state): Shared,
    Client(client): Client,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: PuzzleRequest = decode(&state, body)?;
    req.run(&state, client, |kind, text, opts| {
        kind.redundant(text, opts).map(|r| {
            let mut v = redundant_json(kind.name(), &r);
            if r.count != BigUint::from(1u32) && !r.interrupted {
                v["message"] = json!(if r.count == BigUint::default() {
                    "the puzzle has no solution"
                } else {
                    "the puzzle has several solutions: only a unique puzzle has redundant clues"
                });
            }
            v
        })
    })
    .await
}
