//! Puzzle-specific routes beyond solve/count/verify, and the feature list the page reads to
//! decide which buttons to show.
//!
//! | route | body | answer |
//! |---|---|---|
//! | `POST /api/hint` | `{"puzzle":"suguru","text":..,"solution":<current grid, 0 = empty>}` | `{"cell":"r2c3","value":4,"reason":..}` or `{"cell":null,"message":..}` |
//! | `POST /api/generate` | `{"puzzle":..,"rows":R,"cols":C,"difficulty":"easy"\|"medium"\|"hard","seed":N}` (Sudoku: `"size":n`) | `{"puzzle":..,"text":..,"seed":N,"unique":true}` |
//! | `POST /api/nishio` | `{"puzzle":"sudoku","text":..,"digit":d,"candidates":[bitmask per cell]?,"method":"dag"?}` | `{"digit":d,"removed":["r1c5",..],"candidates":k,"placements":N}` |
//! | `POST /api/step` | `{"puzzle":"sudoku","text":<givens and entries>,"candidates":[bitmask per cell]?}` | the next deduction the player has not made: `{"rule","text","placed":[{"cell","digit"}],"eliminated":[..]}` or `{"rule":null,"message"}` |
//! | `GET /api/levels` | – | the bundled levels ([`super::levels`]) |
//! | `POST /api/convert` | `{"puzzle":..,"text":<file format, JSON or puzz.link URL>,"to":"text"\|"url"}` | `{"text": <converted>}` |
//!
//! The generators and the hint are the puzzle crates' own: `pencilbox_suguru::generate` (the
//! same as `pencilbox generate suguru`), `pencilbox_suguru::hint`,
//! `pencilbox_pathpuzzle::generate`, `pencilbox_sudoku_nishio::generate::generate` and
//! `pencilbox_sudoku_nishio::nishio_for_digit_limited` (Eppstein's DAG reachability, under the
//! request's deadline).

use super::api::{check_family_size, check_size, decode, ApiError, AppState, Shared};
use super::levels;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::routing::{get, post};
use axum::{Json, Router};
use pencilbox_core::{Domain, Grid, PuzzleError};
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// The extra features the server offers for a family (names the page looks for).
pub fn features(puzzle: &str) -> Vec<&'static str> {
    match puzzle {
        "suguru" => vec!["hint", "generate", "levels"],
        "path" => vec!["generate"],
        "sudoku" => vec!["nishio", "step", "generate"],
        _ => Vec::new(),
    }
}

/// The difficulty names `/api/generate` accepts for a family.
pub fn difficulties(puzzle: &str) -> Vec<&'static str> {
    match puzzle {
        "suguru" => vec!["easy", "medium", "hard"],
        _ => Vec::new(),
    }
}

/// The puzzle-specific routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/api/hint", post(hint))
        .route("/api/generate", post(generate))
        .route("/api/nishio", post(nishio))
        .route("/api/levels", get(list_levels))
        .route("/api/convert", post(convert))
        .route("/api/step", post(step))
}

fn only(puzzle: &str, wanted: &str, what: &str) -> Result<(), ApiError> {
    if puzzle == wanted {
        Ok(())
    } else {
        Err(ApiError::bad(format!(
            "{what} is offered for {wanted} only, not for `{puzzle}`"
        )))
    }
}

#[derive(Debug, Deserialize)]
struct HintRequest {
    puzzle: String,
    text: String,
    #[serde(default)]
    solution: Option<String>,
}

async fn hint(State(state): Shared, body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let req: HintRequest = decode(&state, body)?;
    only(&req.puzzle, "suguru", "a hint")?;
    check_size(&state.config, &req.text)?;
    let out = state
        .jobs
        .run(None, move |_limits| {
            let p = pencilbox_suguru::parse(&req.text)?;
            let shape = p.shape();
            let entries = match req.solution.as_deref().filter(|s| !s.trim().is_empty()) {
                Some(s) => pencilbox_suguru::parse_answer(s, shape).map_err(PuzzleError::Solution)?,
                None => Grid::filled(shape, 0),
            };
            let partial = Grid::from_vec(shape, entries.as_slice().iter().map(|&v| v.min(255) as u8).collect())
                .ok_or_else(|| PuzzleError::unsupported("the grid of entries has the wrong size"))?;
            Ok(match pencilbox_suguru::hint(&p, &partial) {
                Some(h) => json!({
                    "puzzle": "suguru",
                    "cell": shape.name(h.cell),
                    "value": h.value,
                    "reason": h.reason,
                }),
                None => {
                    let complete = shape.all().all(|c| p.hint(c) != 0 || partial[c] != 0);
                    let message = if complete {
                        "every cell is filled: press Check to see whether it is right"
                    } else {
                        "no cell is forced from here: an entry may break a rule (press Check), or the next step needs a guess"
                    };
                    json!({"puzzle": "suguru", "cell": null, "message": message})
                }
            })
        })
        .await?;
    Ok(Json(out))
}

#[derive(Debug, Deserialize)]
struct GenerateRequest {
    puzzle: String,
    #[serde(default)]
    rows: Option<usize>,
    #[serde(default)]
    cols: Option<usize>,
    /// Sudoku: the side `n` (block shape from `n`).
    #[serde(default)]
    size: Option<usize>,
    #[serde(default)]
    difficulty: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    /// Path: the percentage of clues to keep at most (default 50).
    #[serde(default)]
    clues: Option<u8>,
}

/// The largest generated Suguru or Path grid side (generation is not interruptible).
pub const MAX_GENERATED_SIDE: usize = 10;
/// The largest generated Sudoku side.
pub const MAX_GENERATED_SUDOKU: usize = 12;

fn side(v: Option<usize>, default: usize, what: &str) -> Result<usize, ApiError> {
    let v = v.unwrap_or(default);
    if !(2..=MAX_GENERATED_SIDE).contains(&v) {
        return Err(ApiError::bad(format!(
            "the generator makes grids of 2 to {MAX_GENERATED_SIDE} {what}, not {v}"
        )));
    }
    Ok(v)
}

async fn generate(State(state): Shared, body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let req: GenerateRequest = decode(&state, body)?;
    let seed = req.seed.unwrap_or(1);
    let out = match req.puzzle.as_str() {
        "suguru" => {
            let (rows, cols) = (side(req.rows, 6, "rows")?, side(req.cols, 6, "columns")?);
            let name = req.difficulty.clone().unwrap_or_else(|| "medium".to_string());
            let difficulty = pencilbox_suguru::Difficulty::from_name(&name)
                .ok_or_else(|| ApiError::bad(format!("unknown difficulty `{name}`; choose easy, medium or hard")))?;
            state
                .jobs
                .run(None, move |_| {
                    let p = pencilbox_suguru::generate(rows, cols, difficulty, seed);
                    Ok(
                        json!({"puzzle": "suguru", "text": p.to_text(), "seed": seed, "unique": true,
                              "difficulty": name}),
                    )
                })
                .await?
        }
        "path" => {
            let (rows, cols) = (side(req.rows, 6, "rows")?, side(req.cols, 6, "columns")?);
            let percent = req.clues.unwrap_or(50).min(100);
            state
                .jobs
                .run(None, move |_| {
                    // Up to 20 consecutive seeds, as `pencilbox generate path`; the reply names
                    // the seed that gave the puzzle.
                    let (p, seed) = pencilbox_pathpuzzle::generate::generate_trying(
                        rows,
                        cols,
                        pencilbox_pathpuzzle::ClueDensity::Percent(percent),
                        true,
                        seed,
                        20,
                    )
                    .map_err(|e| PuzzleError::unsupported(e.to_string()))?;
                    Ok(json!({"puzzle": "path", "text": p.to_text(), "seed": seed, "unique": true}))
                })
                .await?
        }
        "sudoku" => {
            use pencilbox_sudoku_nishio::{generate as sg, BlockShape};
            let n = req.size.unwrap_or(9);
            let block = BlockShape::default_for(n)
                .filter(|b| b.n() == n && (4..=MAX_GENERATED_SUDOKU).contains(&n))
                .ok_or_else(|| {
                    ApiError::bad(format!("the generator makes Sudoku of side 4, 6, 8, 9 or 12, not {n}"))
                })?;
            state
                .jobs
                .run(None, move |_| {
                    let (p, _) = sg::generate(block, &mut sg::Rng::new(seed), 0);
                    Ok(
                        json!({"puzzle": "sudoku", "text": p.to_line(), "seed": seed, "unique": true,
                              "block": format!("{}x{}", block.height, block.width)}),
                    )
                })
                .await?
        }
        other => {
            super::api::kind_named(other)?;
            return Err(ApiError::bad(format!("there is no generator for `{other}`")));
        }
    };
    Ok(Json(out))
}

#[derive(Debug, Deserialize)]
struct NishioRequest {
    puzzle: String,
    text: String,
    digit: u32,
    /// Optional candidates per cell (bit `d` set = `d` is still possible), intersected with what
    /// the givens leave: lets the page apply earlier eliminations.
    #[serde(default)]
    candidates: Option<Vec<u64>>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    settings: std::collections::BTreeMap<String, String>,
}

/// The Sudoku block shape from a request's `settings` (`block=AxB`), when given.
fn sudoku_block(
    settings: &std::collections::BTreeMap<String, String>,
) -> Result<Option<pencilbox_sudoku_nishio::BlockShape>, ApiError> {
    settings
        .get("block")
        .map(|b| {
            pencilbox_sudoku_nishio::BlockShape::parse(b)
                .ok_or_else(|| ApiError::bad(format!("block must look like 3x3, found `{b}`")))
        })
        .transpose()
}

/// The page sends one candidate bitmask per cell of an `n × n` Sudoku.
fn check_candidate_count(masks: &[u64], n: usize) -> Result<(), PuzzleError> {
    if masks.len() == n * n {
        return Ok(());
    }
    Err(PuzzleError::unsupported(format!(
        "`candidates` must have one bitmask per cell ({}), found {}",
        n * n,
        masks.len()
    )))
}

async fn nishio(State(state): Shared, body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    use pencilbox_sudoku_nishio::{nishio_for_digit_limited, Candidates, Method, Sudoku};
    let req: NishioRequest = decode(&state, body)?;
    only(&req.puzzle, "sudoku", "Nishio")?;
    check_size(&state.config, &req.text)?;
    check_family_size("sudoku", &req.text)?;
    let method_name = req.method.clone().unwrap_or_else(|| "dag".to_string());
    let method = Method::from_name(&method_name).ok_or_else(|| {
        ApiError::bad(format!(
            "unknown Nishio method `{method_name}`; choose dag, paper, overlay or matching"
        ))
    })?;
    let block = sudoku_block(&req.settings)?;
    let out = state
        .jobs
        .run(None, move |limits| {
            let p = Sudoku::parse(&req.text, block)?;
            let n = p.n();
            if req.digit == 0 || req.digit as usize > n {
                return Err(PuzzleError::unsupported(format!(
                    "`digit` must be between 1 and {n}, found {}",
                    req.digit
                )));
            }
            let mut cand = Candidates::from_puzzle(&p).map_err(|c| PuzzleError::unsupported(c.message))?;
            if let Some(masks) = &req.candidates {
                check_candidate_count(masks, n)?;
                for (cell, &mask) in cand.cells_mut().iter_mut().zip(masks) {
                    let mut allowed = Domain::EMPTY;
                    for v in 1..=n as u32 {
                        if mask >> v & 1 == 1 {
                            allowed.insert(v);
                        }
                    }
                    *cell = cell.and(allowed);
                }
            }
            let Some(r) =
                nishio_for_digit_limited(&cand, req.digit as u8, method, &limits).map_err(PuzzleError::unsupported)?
            else {
                return Err(PuzzleError::unsupported(
                    "the time limit was reached before Nishio finished",
                ));
            };
            Ok(json!({
                "puzzle": "sudoku",
                "digit": req.digit,
                "method": method.name(),
                "candidates": r.candidates.len(),
                "removed": r.removed.names(),
                "placements": r.placements.map(|x| x.to_string()),
            }))
        })
        .await?;
    Ok(Json(out))
}

#[derive(Debug, Deserialize)]
struct ConvertRequest {
    puzzle: String,
    text: String,
    /// `text` (the file format, default) or `url` (a puzz.link URL).
    #[serde(default)]
    to: Option<String>,
}

/// Reads a puzzle in any format its crate reads (file format, JSON, puzz.link URL) and writes
/// it in the file format or as a puzz.link URL: the page's import and export.
async fn convert(State(state): Shared, body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let req: ConvertRequest = decode(&state, body)?;
    check_size(&state.config, &req.text)?;
    check_family_size(&req.puzzle, &req.text)?;
    let to = req.to.clone().unwrap_or_else(|| "text".to_string());
    if to != "text" && to != "url" {
        return Err(ApiError::bad(format!("`to` must be `text` or `url`, found `{to}`")));
    }
    let out = match req.puzzle.as_str() {
        "suguru" => {
            let p = pencilbox_suguru::parse(&req.text).map_err(|e| ApiError::from_puzzle(e.into()))?;
            if to == "url" {
                pencilbox_suguru::puzzlink::to_url(&p)
            } else {
                p.to_text()
            }
        }
        "path" => {
            if to == "url" {
                return Err(ApiError::bad("Path puzzles have no puzz.link form in pencilbox"));
            }
            pencilbox_pathpuzzle::PathPuzzle::parse(&req.text)
                .map_err(|e| ApiError::from_puzzle(e.into()))?
                .to_text()
        }
        "sudoku" => {
            let p =
                pencilbox_sudoku_nishio::Sudoku::parse(&req.text, None).map_err(|e| ApiError::from_puzzle(e.into()))?;
            if to == "url" {
                p.to_url()
            } else {
                p.to_line()
            }
        }
        other => {
            super::api::kind_named(other)?;
            return Err(ApiError::bad(format!("no conversion for `{other}`")));
        }
    };
    Ok(Json(json!({"puzzle": req.puzzle, "to": to, "text": out})))
}

#[derive(Debug, Deserialize)]
struct StepRequest {
    puzzle: String,
    text: String,
    #[serde(default)]
    candidates: Option<Vec<u64>>,
    #[serde(default)]
    settings: std::collections::BTreeMap<String, String>,
}

/// The next step of the explained deductive Sudoku solver (`pencilbox sudoku explain`) that
/// tells the player something new: the solver replays its steps from the givens and entries
/// and returns the first one that places a digit in an empty cell or removes a candidate the
/// page still shows.
async fn step(State(state): Shared, body: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    use pencilbox_sudoku_nishio::{Deducer, RuleSet, Sudoku};
    let req: StepRequest = decode(&state, body)?;
    only(&req.puzzle, "sudoku", "a deduction step")?;
    check_size(&state.config, &req.text)?;
    check_family_size("sudoku", &req.text)?;
    let block = sudoku_block(&req.settings)?;
    let out = state
        .jobs
        .run(None, move |limits| {
            let p = Sudoku::parse(&req.text, block)?;
            let n = p.n();
            let known: Vec<u64> = match &req.candidates {
                Some(m) => {
                    check_candidate_count(m, n)?;
                    m.clone()
                }
                None => vec![u64::MAX; n * n],
            };
            let name = |i: usize| format!("r{}c{}", i / n + 1, i % n + 1);
            let mut d = match Deducer::new(&p, RuleSet::ALL) {
                Ok(d) => d.with_limits(limits.clone()),
                Err(c) => return Ok(json!({"puzzle": "sudoku", "rule": null, "message": c.message})),
            };
            while limits.interrupted().is_none() {
                let Some(s) = d.step() else { break };
                let new = s.placed.iter().any(|&(i, _)| p.givens()[i] == 0)
                    || s.eliminated.iter().any(|&(i, v)| known[i] >> v & 1 == 1);
                if new {
                    let cells = |v: &[(usize, u8)]| -> Vec<Value> {
                        v.iter().map(|&(i, d)| json!({"cell": name(i), "digit": d})).collect()
                    };
                    return Ok(json!({
                        "puzzle": "sudoku",
                        "rule": s.rule.name(),
                        "text": s.text,
                        "placed": cells(&s.placed),
                        "eliminated": cells(&s.eliminated),
                    }));
                }
            }
            let message = if let Some(c) = d.contradiction() {
                format!("the grid has no solution: {c}")
            } else if d.is_solved() {
                "nothing left to deduce: every cell is decided".to_string()
            } else if limits.interrupted().is_some() {
                "the time limit was reached".to_string()
            } else {
                "the rules are stuck here: the next step needs a guess".to_string()
            };
            Ok(json!({"puzzle": "sudoku", "rule": null, "message": message}))
        })
        .await?;
    Ok(Json(out))
}

async fn list_levels() -> Json<Value> {
    Json(json!({ "levels": levels::all() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_advertised_feature_names_a_registered_family() {
        for name in ["suguru", "path", "sudoku"] {
            assert!(crate::registry::by_name(name).is_some(), "{name}");
            assert!(!features(name).is_empty());
        }
        assert!(features("chess").is_empty());
        let kind: &dyn pencilbox_core::PuzzleKind = crate::registry::by_name("suguru").unwrap();
        assert_eq!(kind.name(), "suguru");
    }
}
