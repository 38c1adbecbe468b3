//! The setter's tools, for every family that has them (no family is named here):
//!
//! | route | body | answer |
//! |---|---|---|
//! | `POST /api/forced` | `puzzle`, `text`, optional `settings`, `timeout` | `pencilbox forced --format json` |
//! | `POST /api/suggest` | as forced, optional `algorithm`, `limit` (default 100) | `pencilbox count --suggest --format json`, plus `"message"` when the puzzle has fewer than two solutions |
//! | `POST /api/redundant` | as forced, optional `algorithm` | `pencilbox count --redundant --format json`, plus `"message"` when the puzzle is not unique |
//!
//! A deadline gives the partial answer (`"complete": false` / `"interrupted": true`), not an
//! error.

use super::{decode, ApiError, Config, Plan, PuzzleRequest};
use crate::json::{forced_json, redundant_json, suggest_json};
use pencilbox_core::BigUint;
use serde_json::json;

/// `POST /api/forced`.
pub fn forced(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: PuzzleRequest = decode(body)?;
    req.plan(config, |kind, text, opts| {
        kind.forced(text, opts).map(|r| forced_json(kind.name(), &r))
    })
}

/// `POST /api/suggest`.
pub fn suggest(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: PuzzleRequest = decode(body)?;
    let limit = req.limit_or(100)?;
    req.plan(config, move |kind, text, opts| {
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
}

/// `POST /api/redundant`.
pub fn redundant(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: PuzzleRequest = decode(body)?;
    req.plan(config, |kind, text, opts| {
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
}
