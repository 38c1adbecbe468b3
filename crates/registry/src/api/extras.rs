//! Puzzle-specific routes beyond solve/count/verify, and the feature list the page reads to
//! decide which buttons to show.
//!
//! | route | body | answer |
//! |---|---|---|
//! | `POST /api/hint` | `{"puzzle":"suguru","text":..,"solution":<current grid, 0 = empty>}` | `{"cell":"r2c3","value":"4","reason":..}` or `{"cell":null,"message":..}` |
//! | `POST /api/hint` with `"level":"nudge"\|"rule"\|"answer"` | any family: `{"puzzle","text","level","solution"?: <the player's entries: a partly filled answer grid; for Path the drawn lines as arrows and `x` for cells marked unused>,"settings"?}` | `{"puzzle","level","cells":[..],"rule"?,"placed"?,"removed"?,"text"}` (the first step of `pencilbox hint --entries` that places something) or `{"cells":[],"text":null,"status","message","wrong"?: [{"cell","value"}]}` (`wrong`: entries the puzzle's only solution does not have) |
//! | `POST /api/generate` | `{"puzzle":..,"rows":R,"cols":C,"difficulty":D?,"seed":N,"settings":{..}?}` (square grids: `"size":n`; settings as the generator declares them, e.g. Path `{"clues":50}`, Sudoku `{"block":"2x3"}`) | `{"puzzle":..,"text":..,"seed":N,"unique":true,"json":..,"url":..,"difficulty":D?}` |
//! | `POST /api/nishio` | `{"puzzle":"sudoku","text":..,"digit":d,"candidates":[bitmask per cell]?,"method":"dag"?}` | `{"digit":d,"removed":["r1c5",..],"candidates":k,"placements":N}` |
//! | `POST /api/step` | `{"puzzle":"sudoku","text":<givens and entries>,"candidates":[bitmask per cell]?}` | the next deduction the player has not made: `{"rule","text","placed":[{"cell","digit"}],"eliminated":[..]}` or `{"rule":null,"message"}` |
//! | `GET /api/levels` | – | the bundled levels ([`crate::levels`]) |
//! | `POST /api/convert` | `{"puzzle":..,"text":<file format, JSON or puzz.link URL>,"to":"text"\|"url"}` | `{"text": <converted>}` |
//!
//! `/api/generate` is the plug-ins' generator capability (`PuzzleKind::generate`, the same as
//! `pencilbox generate FAMILY`) for every family that has one; the hint is
//! `pencilbox_suguru::hint`, and Nishio is
//! `pencilbox_sudoku_nishio::nishio_for_digit_limited` (Eppstein's DAG reachability, under the
//! request's deadline).

use super::{check_settings, check_size, decode, kind_named, ApiError, Config, Plan};
use pencilbox_core::RunOptions;
use pencilbox_core::{Domain, Grid, PuzzleError, PuzzleKind};
use serde::Deserialize;
use serde_json::{json, Value};

/// The extra features offered for a family (names the page looks for): `generate` for every
/// family with a generator capability, `levels` for every family with bundled levels, and the
/// family-specific tools.
pub fn features(kind: &dyn PuzzleKind) -> Vec<&'static str> {
    let mut f = match kind.name() {
        "suguru" => vec!["hint"],
        "sudoku" => vec!["nishio", "step"],
        _ => Vec::new(),
    };
    if crate::levels::of(kind.name()).next().is_some() {
        f.push("levels");
    }
    // Every family with an explainer gives hints at three levels and its explained steps.
    f.push("hint-levels");
    f.push("explain");
    if kind.generator().is_some() {
        f.push("generate");
    }
    f
}

/// The difficulty names `/api/generate` accepts for a family (its generator's).
pub fn difficulties(kind: &dyn PuzzleKind) -> Vec<&'static str> {
    kind.generator().map(|g| g.difficulties.to_vec()).unwrap_or_default()
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
    /// `nudge`, `rule` or `answer`: the generic hint of every family.
    #[serde(default)]
    level: Option<String>,
    #[serde(default)]
    settings: std::collections::BTreeMap<String, String>,
}

/// The generic hint: the first step of the family's explanation that places something, at
/// the requested depth ([`pencilbox_core::human::hint`]).
fn leveled_hint(config: &Config, req: HintRequest, level: &str) -> Result<Plan, ApiError> {
    use pencilbox_core::human::HintLevel;
    let level = HintLevel::parse(level)
        .ok_or_else(|| ApiError::bad(format!("level must be nudge, rule or answer, not `{level}`")))?;
    let kind = kind_named(&req.puzzle)?;
    let opts = RunOptions {
        settings: req.settings.clone().into_iter().collect(),
        ..RunOptions::default()
    };
    check_settings(kind, req.settings.keys())?;
    check_size(config, kind, &req.text, &opts)?;
    Ok(Plan::job(None, move |limits| {
        let entries = req.solution.as_deref().filter(|s| !s.trim().is_empty());
        let opts = RunOptions {
            limits: limits.clone(),
            ..opts
        };
        let (mut v, _, _) = crate::json::hint_json(kind, &req.text, entries, &opts, level)?;
        v["puzzle"] = json!(req.puzzle);
        Ok(v)
    }))
}

/// `POST /api/hint`: with a `level`, the generic hint of every family; without, Suguru's own.
pub fn hint(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: HintRequest = decode(body)?;
    if let Some(level) = req.level.clone() {
        return leveled_hint(config, req, &level);
    }
    only(&req.puzzle, "suguru", "a hint without a level")?;
    check_size(config, kind_named("suguru")?, &req.text, &RunOptions::default())?;
    Ok(Plan::job(None, move |_limits| {
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
                "value": h.value.to_string(),
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
    }))
}

#[derive(Debug, Deserialize)]
struct GenerateRequest {
    puzzle: String,
    #[serde(default)]
    rows: Option<usize>,
    #[serde(default)]
    cols: Option<usize>,
    /// The side of a square grid (Sudoku), instead of `rows` and `cols`.
    #[serde(default)]
    size: Option<usize>,
    #[serde(default)]
    difficulty: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    /// Generator settings, as the generator declares them (Path: `clues`; Sudoku: `block`).
    #[serde(default)]
    settings: serde_json::Map<String, Value>,
    /// Anything else is refused by name (a misspelt field is not silently ignored).
    #[serde(flatten)]
    unknown: serde_json::Map<String, Value>,
}

/// The largest side of a generated grid (generation is not interruptible for every family).
pub const MAX_GENERATED_SIDE: usize = 12;

/// `POST /api/generate`: any family with a generator capability; the size, difficulty and
/// settings are checked against what the generator declares.
pub fn generate(_: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: GenerateRequest = decode(body)?;
    if let Some(field) = req.unknown.keys().next() {
        return Err(ApiError::bad(format!(
            "unknown field `{field}`; generator settings go in \"settings\": {{..}}"
        )));
    }
    let kind = kind_named(&req.puzzle)?;
    let info = kind
        .generator()
        .ok_or_else(|| ApiError::bad(format!("there is no generator for `{}`", req.puzzle)))?;
    let (dh, dw) = info.default_size;
    let (rows, cols) = match req.size {
        Some(n) => (n, n),
        None => (req.rows.unwrap_or(dh.min(6)), req.cols.unwrap_or(dw.min(6))),
    };
    for (v, what) in [(rows, "rows"), (cols, "columns")] {
        if !(2..=MAX_GENERATED_SIDE).contains(&v) {
            return Err(ApiError::bad(format!(
                "the generator makes grids of 2 to {MAX_GENERATED_SIDE} {what}, not {v}"
            )));
        }
    }
    let settings = req
        .settings
        .iter()
        .map(|(k, v)| match v {
            Value::String(s) => Ok((k.clone(), s.clone())),
            Value::Number(n) => Ok((k.clone(), n.to_string())),
            Value::Bool(b) => Ok((k.clone(), if *b { "yes" } else { "no" }.to_string())),
            _ => Err(ApiError::bad(format!("setting `{k}` must be a string or a number"))),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let seed = req.seed.unwrap_or(1);
    let difficulty = req.difficulty.clone();
    let name = kind.name();
    Ok(Plan::job(None, move |limits| {
        let g = kind.generate(&pencilbox_core::plugin::GenerateRequest {
            height: rows,
            width: cols,
            difficulty: difficulty.clone(),
            seed,
            settings,
            limits,
        })?;
        let mut v = json!({"puzzle": name, "text": g.text, "seed": g.seed, "unique": g.unique,
                           "json": g.json, "url": g.url});
        if let Some(d) = difficulty.or_else(|| info.difficulties.first().map(|d| d.to_string())) {
            v["difficulty"] = json!(d);
        }
        Ok(v)
    }))
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

/// `POST /api/nishio`: Eppstein's Nishio deduction on one digit of a Sudoku.
pub fn nishio(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    use pencilbox_sudoku_nishio::{nishio_for_digit_limited, Candidates, Method, Sudoku};
    let req: NishioRequest = decode(body)?;
    only(&req.puzzle, "sudoku", "Nishio")?;
    let sudoku = kind_named("sudoku")?;
    check_settings(sudoku, req.settings.keys())?;
    let opts = RunOptions {
        settings: req.settings.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        ..RunOptions::default()
    };
    check_size(config, sudoku, &req.text, &opts)?;
    let method_name = req.method.clone().unwrap_or_else(|| "dag".to_string());
    let method = Method::from_name(&method_name).ok_or_else(|| {
        ApiError::bad(format!(
            "unknown Nishio method `{method_name}`; choose dag, paper, overlay or matching"
        ))
    })?;
    let block = sudoku_block(&req.settings)?;
    // A time limit reached before Nishio finished is a `503`, like a job that overran it.
    Ok(Plan::job_answering(None, move |limits| {
        let run = || -> Result<Option<Value>, PuzzleError> {
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
            let r =
                nishio_for_digit_limited(&cand, req.digit as u8, method, &limits).map_err(PuzzleError::unsupported)?;
            Ok(r.map(|r| {
                json!({
                    "puzzle": "sudoku",
                    "digit": req.digit,
                    "method": method.name(),
                    "candidates": r.candidates.len(),
                    "removed": r.removed.names(),
                    "placements": r.placements.map(|x| x.to_string()),
                })
            }))
        };
        match run() {
            Ok(Some(v)) => Ok(v),
            Ok(None) => Err(ApiError::timed_out("the time limit was reached before Nishio finished")),
            Err(e) => Err(ApiError::from_puzzle(e)),
        }
    }))
}

#[derive(Debug, Deserialize)]
struct ConvertRequest {
    puzzle: String,
    text: String,
    /// `text` (the file format, default) or `url` (a puzz.link URL).
    #[serde(default)]
    to: Option<String>,
}

/// `POST /api/convert`: reads a puzzle in any format its crate reads (file format, JSON,
/// puzz.link URL) and writes it in the file format or as a puzz.link URL: the page's import
/// and export. Answered at once (no job).
pub fn convert(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    let req: ConvertRequest = decode(body)?;
    check_size(config, kind_named(&req.puzzle)?, &req.text, &RunOptions::default())?;
    let to = req.to.clone().unwrap_or_else(|| "text".to_string());
    if to != "text" && to != "url" {
        return Err(ApiError::bad(format!("`to` must be `text` or `url`, found `{to}`")));
    }
    let kind = kind_named(&req.puzzle)?;
    let out = kind
        .convert(&req.text, to == "url", &RunOptions::default())
        .map_err(ApiError::from_puzzle)?;
    Ok(Plan::Answer(json!({"puzzle": req.puzzle, "to": to, "text": out})))
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

/// `POST /api/step`: the next step of the explained deductive Sudoku solver (`pencilbox sudoku
/// explain`) that tells the player something new: the solver replays its steps from the givens
/// and entries and returns the first one that places a digit in an empty cell or removes a
/// candidate the page still shows.
pub fn step(config: &Config, body: &[u8]) -> Result<Plan, ApiError> {
    use pencilbox_sudoku_nishio::{Deducer, RuleSet, Sudoku};
    let req: StepRequest = decode(body)?;
    only(&req.puzzle, "sudoku", "a deduction step")?;
    let sudoku = kind_named("sudoku")?;
    check_settings(sudoku, req.settings.keys())?;
    let opts = RunOptions {
        settings: req.settings.iter().map(|(k, v)| (k.clone(), v.clone())).collect(),
        ..RunOptions::default()
    };
    check_size(config, sudoku, &req.text, &opts)?;
    let block = sudoku_block(&req.settings)?;
    Ok(Plan::job(None, move |limits| {
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
    }))
}

/// `GET /api/levels`: the bundled levels ([`crate::levels`]).
pub fn levels(_: &Config, _: &[u8]) -> Result<Plan, ApiError> {
    Ok(Plan::Answer(json!({ "levels": crate::levels::all() })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_with_a_generator_advertises_it_with_its_difficulties() {
        for kind in crate::PUZZLES {
            let f = features(*kind);
            assert_eq!(f.contains(&"generate"), kind.generator().is_some(), "{}", kind.name());
            assert_eq!(
                difficulties(*kind),
                kind.generator().map(|g| g.difficulties.to_vec()).unwrap_or_default()
            );
        }
        let ripple = crate::by_name("ripple").unwrap();
        // Bundled levels, hints, explanations, a generator without difficulty levels.
        assert_eq!(features(ripple), vec!["levels", "hint-levels", "explain", "generate"]);
        assert!(difficulties(ripple).is_empty());
        assert_eq!(
            difficulties(crate::by_name("suguru").unwrap()),
            vec!["medium", "easy", "hard"]
        );
    }
}
