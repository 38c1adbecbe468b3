//! `pencilbox sudoku ...` (owned by the Sudoku work; wired to pencilbox-sudoku-nishio).
//!
//! * `pencilbox sudoku nishio [--digit D] [--method dag|paper|overlay|matching] [--format text|json]
//!   [--block AxB] FILE` — for each puzzle of FILE, the candidates Nishio removes per digit (on the
//!   candidates left by the givens) and the number of valid placements.
//! * `pencilbox sudoku nishio --bench [--method dag|paper|overlay|matching|lanes] [--format json] FILE`
//!   — Nishio for every digit of every puzzle, all in-process, timed.
//! * `pencilbox sudoku reduce [--square] [--theorem3] [--check] FILE.cnf` — the 3-SAT → Nishio
//!   decision reduction of Theorems 2–3; prints the cell set `S` as a grid of `o`/`.`.
//! * `pencilbox sudoku explain [--no-guess] [--no-nishio] [--no-chains] [--format text|json] FILE` — the step log
//!   and rating; with `--no-guess`, exit 0 when the rules solve it and 1 when they stall.

use crate::commands::fail;
use crate::input::{describe, display_name, read_text, InputError};
use crate::output::emit;
use crate::Format;
use pencilbox_core::{PuzzleError, PuzzleKind};
use pencilbox_sudoku_nishio::backtrack::search;
use pencilbox_sudoku_nishio::board::{pretty_grid, symbol, symbol_value, BlockShape, CellMask};
use pencilbox_sudoku_nishio::nishio::nishio_lanes;
use pencilbox_sudoku_nishio::solver::{check_solution, explain, RuleSet};
use pencilbox_sudoku_nishio::{AbGraph, Candidates, Engine, Method, Rule, Sudoku, KIND};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Sudoku subcommands.
#[derive(clap::Subcommand, Debug)]
#[command(defer = true)]
pub enum SudokuCommand {
    /// Nishio (single-digit deduction, Eppstein's DAG reachability) on the candidates left by
    /// the givens: the candidates removed per digit and the number of valid placements.
    Nishio(NishioArgs),
    /// Solve with human rules and print the step log and the rating (hardest rule needed).
    Explain(ExplainArgs),
    /// Theorems 2-3: turn a CNF formula (DIMACS) into a Nishio decision instance (a cell set S
    /// that contains a valid placement exactly when the formula is satisfiable).
    Reduce(ReduceArgs),
    /// The size of Nishio's DAG of almost-balanced matrices against the side n (squarest
    /// blocks): vertices (counted), edges and build time (built), against the valid
    /// placements it stands for.
    Dag(DagArgs),
}

// Arguments of `pencilbox sudoku dag`.
#[derive(clap::Args, Debug)]
pub struct DagArgs {
    /// The largest side n (from 4; sides without a block shape, such as primes, are skipped).
    #[arg(long, default_value_t = 25)]
    pub max_n: usize,
    /// Build the graphs up to this side to count their edges and time the build.
    #[arg(long, default_value_t = 16)]
    pub build_up_to: usize,
    /// Output format: text or json (`pretty` prints the same as text).
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Draw vertices, edges and placements against n into this SVG file (log axes).
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
}

// Arguments of `pencilbox sudoku reduce`.
#[derive(clap::Args, Debug)]
pub struct ReduceArgs {
    /// Use the paper's n²×n² grid with n×n blocks instead of the smallest a×b blocks.
    #[arg(long)]
    pub square: bool,
    /// Apply Theorem 3's transformation first (adds v0; S always contains a placement).
    #[arg(long)]
    pub theorem3: bool,
    /// Also decide the instance (exact search for a valid placement inside S) and compare with
    /// brute-force satisfiability when the formula has at most 24 variables.
    #[arg(long)]
    pub check: bool,
    /// DIMACS CNF file; `-` for standard input.
    pub file: PathBuf,
}

// Arguments of `pencilbox sudoku nishio`.
#[derive(clap::Args, Debug)]
pub struct NishioArgs {
    /// Only this digit (1-9, then A-Z or 10-35).
    #[arg(long)]
    pub digit: Option<String>,
    /// dag (default, with exact placement count), paper (Section 3 DFS as published), overlay
    /// (every valid placement), matching (row-column approximation); `lanes` (64 sets per
    /// sweep, bit-parallel) with --bench only.
    #[arg(long, default_value = "dag")]
    pub method: String,
    /// Output format: text or json (`pretty` prints the same as text).
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Block shape AxB (rows x columns); default from the grid size.
    #[arg(long)]
    pub block: Option<String>,
    /// Time Nishio for every digit of every puzzle in FILE (in-process).
    #[arg(long)]
    pub bench: bool,
    /// Puzzle file (one puzzle, or one per line); `-` for standard input.
    pub file: PathBuf,
}

// Arguments of `pencilbox sudoku explain`.
#[derive(clap::Args, Debug)]
pub struct ExplainArgs {
    /// Stop when the rules stall (print the candidate grid, exit 1) instead of searching.
    #[arg(long)]
    pub no_guess: bool,
    /// Leave the Nishio rule out.
    #[arg(long)]
    pub no_nishio: bool,
    /// Leave the chain rules out (implication chains and one-level forcing chains).
    #[arg(long)]
    pub no_chains: bool,
    /// Output format: text or json (`pretty` prints the same as text).
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Block shape AxB (rows x columns); default from the grid size.
    #[arg(long)]
    pub block: Option<String>,
    /// Puzzle file (one puzzle, or one per line); `-` for standard input.
    pub file: PathBuf,
}

/// Runs a Sudoku subcommand.
pub fn run(c: SudokuCommand) -> u8 {
    let r = match c {
        SudokuCommand::Nishio(a) if a.bench => bench(&a),
        SudokuCommand::Nishio(a) => nishio(&a),
        SudokuCommand::Explain(a) => explain_cmd(&a),
        SudokuCommand::Reduce(a) => reduce_cmd(&a),
        SudokuCommand::Dag(a) => dag_cmd(&a),
    };
    r.unwrap_or_else(fail)
}

fn block_of(s: &Option<String>) -> Result<Option<BlockShape>, InputError> {
    match s {
        None => Ok(None),
        Some(b) => BlockShape::parse(b)
            .map(Some)
            .ok_or_else(|| InputError(format!("--block must look like 3x3 (rows x columns), found `{b}`"))),
    }
}

/// Reads every puzzle of a file (batch files hold one per line).
fn read_puzzles(file: &Path, block: Option<BlockShape>) -> Result<(String, Vec<(u32, Sudoku)>), InputError> {
    let text = read_text(file)?;
    let name = display_name(file);
    let mut out = Vec::new();
    // A file of another family gets called that, not a Sudoku with a strange first row.
    let other: Vec<_> = crate::registry::detect(&text)
        .into_iter()
        .filter(|k| k.name() != KIND.name())
        .map(|k| k.name())
        .collect();
    for inst in KIND.instances(&text) {
        let p = Sudoku::parse(inst.text, block).map_err(|e| match other.as_slice() {
            [] => describe(&name, inst.first_line, &PuzzleError::Parse(e)),
            kinds => InputError(format!(
                "{name}:1:1: this is a {} file, not a Sudoku (the `sudoku` commands read Sudoku only)",
                kinds.join(" or ")
            )),
        })?;
        // These tools build Nishio's graph (hundreds of megabytes at 25×25): its estimate is
        // checked against the memory budget before anything is built.
        let limits = pencilbox_core::Limits {
            memory: crate::memory_budget(),
            ..pencilbox_core::Limits::default()
        };
        let needed = pencilbox_core::plugin::Puzzle::memory_estimate(&p, Some("deduce"));
        pencilbox_core::memory::check(needed, &limits, || format!("Nishio on this {0}×{0} Sudoku", p.n()))
            .map_err(|e| InputError(format!("{name}:{}: {e}", inst.first_line)))?;
        out.push((inst.first_line, p));
    }
    Ok((name, out))
}

fn method_of(s: &str, allow_lanes: bool) -> Result<Option<Method>, InputError> {
    if allow_lanes && s == "lanes" {
        return Ok(None);
    }
    Method::from_name(s).map(Some).ok_or_else(|| {
        InputError(format!(
            "unknown method `{s}`; choose one of: dag, paper, overlay, matching{}",
            if allow_lanes { ", lanes" } else { "" }
        ))
    })
}

fn count_value(n: u128) -> Value {
    match u64::try_from(n) {
        Ok(v) => json!(v),
        Err(_) => json!(n.to_string()),
    }
}

fn nishio(a: &NishioArgs) -> Result<u8, InputError> {
    let method = method_of(&a.method, false)?.unwrap_or(Method::Dag);
    let (name, puzzles) = read_puzzles(&a.file, block_of(&a.block)?)?;
    let many = puzzles.len() > 1;
    let mut code = 0;
    let mut engines: HashMap<BlockShape, Engine> = HashMap::new();
    for (line, p) in &puzzles {
        let n = p.n();
        let digits: Vec<u8> = match &a.digit {
            None => (1..=n as u8).collect(),
            Some(d) => {
                let v = d.parse::<u8>().ok().or_else(|| {
                    let mut cs = d.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c), None) => symbol_value(c).filter(|&v| v > 0),
                        _ => None,
                    }
                });
                match v {
                    Some(v) if v >= 1 && v as usize <= n => vec![v],
                    _ => {
                        return Err(InputError(format!(
                            "--digit must be a symbol 1-{}, found `{d}`",
                            symbol(n as u8)
                        )))
                    }
                }
            }
        };
        let cand = match Candidates::from_puzzle(p) {
            Ok(c) => c,
            Err(e) => {
                code = 1;
                let msg = format!("{name}:{line}: no solution: {}", e.message);
                match a.format {
                    Format::Json => emit(
                        &json!({"puzzle": name, "line": line, "status": "unsolvable", "reason": e.message}).to_string(),
                    ),
                    _ => emit(&msg),
                }
                continue;
            }
        };
        let engine = match engines.get(&p.block()) {
            Some(e) => e.clone(),
            None => {
                let e = Engine::new(p.block(), method).map_err(|m| InputError(format!("{name}: {m}")))?;
                engines.insert(p.block(), e.clone());
                e
            }
        };
        let mut rows = Vec::new();
        let mut text = String::new();
        if many {
            text.push_str(&format!("puzzle at line {line}:\n"));
        }
        for d in digits {
            let s = cand.digit_cells(d);
            let r = engine.run(&s);
            let removed = r.removed(&s);
            let placements = r.placements;
            rows.push(json!({
                "digit": d,
                "candidates": s.len(),
                "removed": removed.names(),
                "placements": placements.map(count_value),
            }));
            let count = match placements {
                Some(k) => format!("{k} valid placement{}", if k == 1 { "" } else { "s" }),
                None => format!("{} kept", s.len() - removed.len()),
            };
            let what = if removed.is_empty() {
                "removes nothing".to_string()
            } else {
                format!("removes {}", removed.names().join(" "))
            };
            text.push_str(&format!("digit {}: {count}, {what}\n", symbol(d)));
        }
        match a.format {
            Format::Json => emit(
                &json!({"puzzle": name, "line": line, "method": method.name(), "block": p.block().to_string(), "digits": rows})
                    .to_string(),
            ),
            _ => emit(text.trim_end()),
        }
    }
    Ok(code)
}

fn bench(a: &NishioArgs) -> Result<u8, InputError> {
    let method = method_of(&a.method, true)?;
    let (name, puzzles) = read_puzzles(&a.file, block_of(&a.block)?)?;
    // All candidate sets, grouped by block shape; puzzles whose givens conflict are skipped.
    let mut sets: HashMap<BlockShape, Vec<CellMask>> = HashMap::new();
    let mut skipped = 0;
    for (_, p) in &puzzles {
        match Candidates::from_puzzle(p) {
            Ok(c) => sets
                .entry(p.block())
                .or_default()
                .extend((1..=p.n() as u8).map(|d| c.digit_cells(d))),
            Err(_) => skipped += 1,
        }
    }
    // Prepare (build or fetch the cached graph / placement list) before timing.
    let mut prepared = Vec::new();
    for (block, list) in &sets {
        let engine = match method {
            Some(m) => Some(Engine::new(*block, m).map_err(|m| InputError(format!("{name}: {m}")))?),
            None => {
                AbGraph::get(*block).map_err(|e| InputError(format!("{name}: {e}")))?;
                None
            }
        };
        // One untimed call per shape, so per-thread buffers are allocated before the clock runs.
        if let (Some(e), Some(s)) = (&engine, list.first()) {
            e.run(s);
        }
        prepared.push((*block, engine, list));
    }
    let mut calls = 0u64;
    let mut removed = 0u64;
    let start = Instant::now();
    for (block, engine, list) in &prepared {
        match engine {
            Some(e) => {
                for s in list.iter() {
                    let r = e.run(s);
                    removed += r.removed(s).len() as u64;
                    calls += 1;
                }
            }
            None => {
                let g = AbGraph::get(*block).map_err(|e| InputError(format!("{name}: {e}")))?;
                for chunk in list.chunks(64) {
                    let keep = nishio_lanes(&g, chunk);
                    for (s, k) in chunk.iter().zip(&keep) {
                        removed += s.minus(k).len() as u64;
                        calls += 1;
                    }
                }
            }
        }
    }
    let elapsed = start.elapsed();
    let us = elapsed.as_micros() as u64;
    let mname = method.map_or("lanes", Method::name);
    let mean = if calls > 0 {
        elapsed.as_secs_f64() * 1e6 / calls as f64
    } else {
        0.0
    };
    match a.format {
        Format::Json => emit(
            &json!({"method": mname, "calls": calls, "elapsed_us": us, "removed": removed, "mean_us": mean, "puzzles": puzzles.len(), "skipped": skipped})
                .to_string(),
        ),
        _ => emit(&format!(
            "method {mname}: {} puzzles, {calls} calls, total {:.3} ms, mean {mean:.3} µs per call, {removed} candidates removed{}",
            puzzles.len(),
            us as f64 / 1000.0,
            if skipped > 0 { format!(" ({skipped} puzzles with conflicting givens skipped)") } else { String::new() }
        )),
    }
    Ok(0)
}

fn explain_cmd(a: &ExplainArgs) -> Result<u8, InputError> {
    let (name, puzzles) = read_puzzles(&a.file, block_of(&a.block)?)?;
    let rules = RuleSet {
        nishio: !a.no_nishio,
        chains: !a.no_chains,
        ..RuleSet::ALL
    };
    let many = puzzles.len() > 1;
    let mut code = 0u8;
    for (line, p) in &puzzles {
        let e = match explain(p, rules) {
            Ok(e) => e,
            Err(c) => {
                code = code.max(1);
                match a.format {
                    Format::Json => emit(
                        &json!({"puzzle": name, "line": line, "status": "unsolvable", "reason": c.message}).to_string(),
                    ),
                    _ => emit(&format!("{name}:{line}: no solution: {}", c.message)),
                }
                continue;
            }
        };
        let mut out = String::new();
        if many {
            out.push_str(&format!("puzzle at line {line}:\n"));
        }
        for (i, s) in e.steps.iter().enumerate() {
            out.push_str(&format!("{:>3}. {}\n", i + 1, s.text));
        }
        for n in &e.notes {
            out.push_str(&format!("note: {n}\n"));
        }
        let mut rating = e.rating;
        let mut status = "solved";
        let mut solution: Option<Vec<u8>> = None;
        if let Some(reason) = &e.contradiction {
            status = "unsolvable";
            code = code.max(1);
            out.push_str(&format!("contradiction: {reason}: the puzzle has no solution\n"));
        } else if e.solved {
            solution = Some(
                e.candidates
                    .cells()
                    .iter()
                    .map(|d| d.value().unwrap_or(0) as u8)
                    .collect(),
            );
        } else if a.no_guess {
            status = "stalled";
            code = code.max(1);
            out.push_str(&format!(
                "stalled after {} steps; candidates:\n{}",
                e.steps.len(),
                e.candidates.to_pretty()
            ));
        } else {
            rating = Some(Rule::Guess);
            let (sols, r) = search(&e.candidates, &pencilbox_core::Limits::first(), 1);
            match sols.first() {
                Some(v) => {
                    out.push_str(&format!(
                        "rules stalled after {} steps; search finished the grid ({} nodes)\n",
                        e.steps.len(),
                        r.map_or(0, |r| r.stats.nodes)
                    ));
                    solution = Some(v.clone());
                }
                None => {
                    status = "unsolvable";
                    code = code.max(1);
                    out.push_str("rules stalled and search found no solution\n");
                }
            }
        }
        if let Some(v) = &solution {
            let violations = check_solution(p, v);
            if !violations.is_empty() {
                return Err(InputError(format!(
                    "internal error: solution failed verification: {}",
                    violations[0].message
                )));
            }
            out.push_str(&pretty_grid(p.block(), v));
            out.push('\n');
            out.push_str(&v.iter().map(|&x| symbol(x)).collect::<String>());
            out.push('\n');
        }
        let rating_name = match (status, rating) {
            ("stalled", r) => format!("stalled (hardest rule used: {})", r.map_or("none", |r| r.name())),
            (_, r) => r.map_or("givens only", |r| r.name()).to_string(),
        };
        let se = if rating == Some(Rule::Guess) {
            pencilbox_sudoku_nishio::explain::se_of("guess", 0, false, 0)
        } else {
            pencilbox_sudoku_nishio::explain::se_of_steps(p.n(), &e.steps)
        };
        out.push_str(&format!("rating: {rating_name} (SE-like {se:.1})"));
        match a.format {
            Format::Json => {
                let steps: Vec<Value> = e
                    .steps
                    .iter()
                    .map(|s| {
                        let mut v =
                            json!({"rule": s.rule, "text": s.text, "placed": s.placed, "eliminated": s.eliminated});
                        if !s.chain.is_empty() {
                            v["chain"] = json!(s.chain);
                            v["contradiction"] = json!(s.contradiction);
                        }
                        if let Some(pat) = &s.pattern {
                            v["pattern"] = json!(pat);
                        }
                        v
                    })
                    .collect();
                emit(
                    &json!({
                        "puzzle": name, "line": line, "status": status, "rating": rating_name, "se": se,
                        "steps": steps,
                        "solution": solution.map(|v| v.chunks(p.n()).map(|r| r.to_vec()).collect::<Vec<_>>()),
                    })
                    .to_string(),
                )
            }
            _ => emit(&out),
        }
    }
    Ok(code)
}

fn reduce_cmd(a: &ReduceArgs) -> Result<u8, InputError> {
    use pencilbox_sudoku_nishio::reduction::{has_valid_placement, reduce, theorem3, Cnf, Layout};
    let text = read_text(&a.file)?;
    let name = display_name(&a.file);
    let mut f = Cnf::parse_dimacs(&text).map_err(|e| describe(&name, 1, &PuzzleError::Parse(e)))?;
    let mut v0 = None;
    if a.theorem3 {
        let (g, v) = theorem3(&f);
        f = g;
        v0 = Some(v);
    }
    let layout = if a.square { Layout::Square } else { Layout::Compact };
    let r = reduce(&f, layout).map_err(|m| InputError(format!("{name}: {m}")))?;
    let mut out = r.to_text();
    if let Some(v) = v0 {
        out.push_str(&format!(
            "# v0 = variable {v}; its false cells: {:?}\n",
            r.var_cells[v - 1].1
        ));
    }
    let mut code = 0;
    if a.check {
        if r.n() > 64 {
            return Err(InputError(format!(
                "{name}: --check supports grids up to 64×64, this one is {0}×{0}",
                r.n()
            )));
        }
        let found = has_valid_placement(r.block, &r.cells);
        out.push_str(&format!(
            "# S contains a valid placement: {}\n",
            if found.is_some() { "yes" } else { "no" }
        ));
        if let Some(sat) = f.brute_force_sat() {
            out.push_str(&format!(
                "# formula satisfiable (brute force): {}\n",
                if sat { "yes" } else { "no" }
            ));
            if sat != found.is_some() {
                code = 1;
            }
        }
        if found.is_none() {
            code = 1;
        }
    }
    emit(out.trim_end());
    Ok(code)
}

/// `pencilbox sudoku dag`: the DAG's size per side n.
fn dag_cmd(a: &DagArgs) -> Result<u8, InputError> {
    use pencilbox_sudoku_nishio::graph::{placement_count, vertex_count};
    if a.max_n < 4 || a.max_n > 32 {
        return Err(InputError(format!("--max-n {}: the side must be 4 to 32", a.max_n)));
    }
    let mut rows = Vec::new();
    for n in 4..=a.max_n {
        let Some(block) = BlockShape::default_for(n) else {
            continue;
        };
        let vertices = vertex_count(block);
        let placements = placement_count(block);
        let built = (n <= a.build_up_to && AbGraph::check(block).is_ok()).then(|| {
            let t0 = Instant::now();
            let g = AbGraph::build(block);
            (g.num_edges(), t0.elapsed().as_secs_f64() * 1000.0)
        });
        rows.push((n, block, vertices, placements, built));
    }
    if a.format == Format::Json {
        let v: Vec<Value> = rows
            .iter()
            .map(|(n, b, v, p, built)| {
                json!({"n": n, "block": b.to_string(), "vertices": v.to_string(), "placements": p.to_string(),
                       "edges": built.map(|x| x.0), "build_ms": built.map(|x| x.1)})
            })
            .collect();
        emit(&Value::Array(v).to_string());
    } else {
        emit(&format!(
            "{:>3} {:>6} {:>14} {:>14} {:>26} {:>10}",
            "n", "block", "vertices", "edges", "valid placements", "build (ms)"
        ));
        for (n, b, v, p, built) in &rows {
            let (e, t) = built.map_or(("-".to_string(), "-".to_string()), |(e, t)| {
                (e.to_string(), format!("{t:.3}"))
            });
            emit(&format!("{n:>3} {:>6} {v:>14} {e:>14} {p:>26} {t:>10}", b.to_string()));
        }
    }
    if let Some(path) = &a.plot {
        let series: Vec<crate::plot::Series> = vec![
            (
                "vertices".into(),
                rows.iter().map(|r| (r.0 as f64, r.2 as f64)).collect(),
            ),
            (
                "edges".into(),
                rows.iter()
                    .filter_map(|r| r.4.map(|(e, _)| (r.0 as f64, e as f64)))
                    .collect(),
            ),
            (
                "valid placements".into(),
                rows.iter().map(|r| (r.0 as f64, r.3 as f64)).collect(),
            ),
        ];
        crate::plot::lines(path, "Nishio's DAG against the side n", "side n", "count", &series)
            .map_err(|e| InputError(format!("--plot {}: {e}", path.display())))?;
    }
    Ok(0)
}
