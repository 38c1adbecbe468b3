//! `POST /api/explain`: the explained steps of a puzzle, rated — `pencilbox explain --format
//! json` for every family with the explain capability
//! ([`pencilbox_core::PuzzleKind::explain`]; no family is named here).
//!
//! | route | body | answer |
//! |---|---|---|
//! | `POST /api/explain` | `puzzle`, `text`, optional `solution` (entries, region families), `settings`, `no_guess`, `max_level`, `timeout` | `pencilbox explain --format json` (`steps`, `status`, `rating`), plus `"steps_total"` and `"truncated": true` when more than [`MAX_STEPS`] steps were found |
//!
//! The grid is size-checked like every route and the run is a job under the deadline; a
//! deadline reached while explaining is the status `"timeout"` (the steps found so far), not an
//! error.

use super::{decode, ApiError, Config, Plan, PuzzleRequest};
use crate::json::explanation_json;
use pencilbox_core::human::ExplainOptions;
use serde::Deserialize;
use serde_json::json;
use std::collections::BTreeMap;

/// The most steps one answer lists (the rating still counts them all): keeps the answer of a
/// large grid to a few hundred kilobytes.
pub const MAX_STEPS: usize = 1000;

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
    /// A time limit in seconds, at most the host's.
    #[serde(default)]
    timeout: Option<f64>,
}

/// `POST /api/explain`.
pub fn explain(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: ExplainRequest = decode(body)?;
    // The common request checks (family, size, settings, timeout) are the other routes'.
    let common = PuzzleRequest {
        puzzle: req.puzzle.clone(),
        text: req.text.clone(),
        solution: None,
        algorithm: None,
        settings: req.settings.clone(),
        limit: None,
        timeout: req.timeout,
    };
    let kind = common.kind(config)?;
    let opts = common.options(kind)?;
    let timeout = common.timeout()?;
    Ok(Plan::job(timeout, move |limits| {
        let entries = req.solution.as_deref().filter(|s| !s.trim().is_empty());
        let eo = ExplainOptions {
            no_guess: req.no_guess,
            max_level: req.max_level,
            limits,
            check_chains: false,
            check_steps: false,
            refute: Vec::new(),
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
    }))
}
