//! The `pencilbox` Python module: the command line's operations as functions returning the
//! same JSON objects as dicts, and `batch` over any iterable on every core.
//!
//! A thin layer over [`pencilbox_cli::batch::Config`], which runs one puzzle through the
//! plug-in trait and builds exactly the JSON of `pencilbox solve|count|verify|explain --format
//! json` (so a record from `pencilbox.batch` equals the line `pencilbox batch` writes). The GIL
//! is released while puzzles are solved (`Python::detach`). Bad input raises
//! `pencilbox.PuzzleError` (a `ValueError`) with `.line` and `.col` (1-based, within the text;
//! `None` when the problem has no position, like an unknown family) and `.message`. A puzzle
//! whose memory estimate is above the budget (`memory=`, default: half of the machine's memory
//! or of a lower limit; [`pencilbox_core::memory`]), or memory the system refuses, raises
//! `MemoryError`: an allocation that fails must never abort the interpreter. A generator
//! stopped by `timeout=` raises `TimeoutError`.
//!
//! Ctrl-C works during a long call on the main thread: a SIGINT handler chained after Python's
//! own cancels the search (it stops at its next check, as at a timeout), and once the work has
//! returned Python raises `KeyboardInterrupt`. `batch`'s iterator keeps the chunk it was running
//! and runs it again on the next `next()`, so no item is lost.

use pencilbox_cli::batch::{Config, Failure, Op};
use pencilbox_core::plugin::GenerateRequest;
use pencilbox_core::PuzzleError as CoreError;
use pyo3::create_exception;
use pyo3::exceptions::{PyMemoryError, PyRuntimeError, PyTimeoutError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyIterator, PyString, PyTuple};
use rayon::prelude::*;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Runs `work` with the GIL released, with Ctrl-C stopping it: on Python's main thread, the
/// search gets [`interrupt_flag`] as its cancellation flag, which a SIGINT handler chained
/// after Python's own sets, so the search stops at its next check as at a timeout; afterwards
/// Python's signal handlers run (`KeyboardInterrupt`). Work on other threads is not cancelled:
/// Python delivers the interrupt to the main thread only. Returns the work's result and
/// whether Ctrl-C cut it short.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(Option<Arc<AtomicBool>>) -> T + Send,
) -> PyResult<(T, bool)> {
    let main = on_main_thread(py)?;
    let cancel = if main { interrupt_flag(py)? } else { None };
    if let Some(flag) = &cancel {
        flag.store(false, Ordering::SeqCst);
    }
    let out = py.detach(|| work(cancel.clone()));
    let cut = cancel.as_ref().is_some_and(|f| f.load(Ordering::SeqCst));
    if main {
        py.check_signals()?;
    }
    Ok((out, cut))
}

/// The flag SIGINT sets: registered once ([`signal_hook::flag`], chained after Python's own
/// handler), the first time a call finds Python handling SIGINT with a handler of its own (by
/// default the one raising `KeyboardInterrupt`). `None` while a program has set `SIG_DFL`
/// (Ctrl-C ends the process) or `SIG_IGN`: Ctrl-C keeps the effect the program chose. (A
/// program that sets a handler after the flag was registered replaces it, and calls are then
/// no longer cancelled.)
fn interrupt_flag(py: Python<'_>) -> PyResult<Option<Arc<AtomicBool>>> {
    static FLAG: std::sync::OnceLock<Option<Arc<AtomicBool>>> = std::sync::OnceLock::new();
    if let Some(f) = FLAG.get() {
        return Ok(f.clone());
    }
    let signal = PyModule::import(py, "signal")?;
    let handler = signal.call_method1("getsignal", (signal.getattr("SIGINT")?,))?;
    if !handler.is_callable() {
        return Ok(None);
    }
    let flag = Arc::new(AtomicBool::new(false));
    let registered = signal_hook::flag::register(signal_hook::consts::SIGINT, flag.clone()).is_ok();
    Ok(FLAG.get_or_init(|| registered.then_some(flag)).clone())
}

/// Is this Python's main thread (where signal handlers run)? Asked of Python once per thread.
fn on_main_thread(py: Python<'_>) -> PyResult<bool> {
    thread_local! {
        static MAIN: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
    }
    if let Some(main) = MAIN.with(std::cell::Cell::get) {
        return Ok(main);
    }
    let threading = PyModule::import(py, "threading")?;
    let main = threading
        .call_method0("current_thread")?
        .is(&threading.call_method0("main_thread")?);
    MAIN.with(|m| m.set(Some(main)));
    Ok(main)
}

create_exception!(
    pencilbox,
    PuzzleError,
    PyValueError,
    "Bad input: malformed puzzle text (see .line and .col), an unknown or unrecognised family, \
     an unknown algorithm or setting."
);

/// The Python exception of a failure.
fn raise(py: Python<'_>, f: Failure) -> PyErr {
    if f.memory {
        // Above the memory budget, or refused by the system: never an abort of the interpreter.
        return PyMemoryError::new_err(f.message);
    }
    let err = PuzzleError::new_err(f.message.clone());
    let value = err.value(py);
    let (line, col) = match f.pos {
        Some((l, c)) => (Some(l), Some(c)),
        None => (None, None),
    };
    let set = value
        .setattr("line", line)
        .and_then(|_| value.setattr("col", col))
        .and_then(|_| value.setattr("message", f.message));
    match set {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// Parses a JSON text into Python objects (`json.loads`).
fn to_python(py: Python<'_>, json: &str) -> PyResult<Py<PyAny>> {
    Ok(PyModule::import(py, "json")?.call_method1("loads", (json,))?.unbind())
}

/// The configuration of one call.
fn config(
    op: Op,
    puzzle: Option<String>,
    algorithm: Option<String>,
    timeout: Option<f64>,
    settings: Option<Vec<(String, String)>>,
    memory: Option<u64>,
) -> Config {
    Config {
        op: Some(op),
        puzzle,
        algorithm,
        timeout,
        settings: settings.unwrap_or_default(),
        timings: true,
        memory,
        ..Config::default()
    }
}

/// The memory budget of a call: `memory` in bytes (an int) or as a size (`"2G"`, `"512M"`:
/// powers of 1024), else the system's default ([`pencilbox_core::memory::default_budget`]:
/// half of the machine's memory or of a lower limit). Work whose estimate is above it raises
/// `MemoryError` before anything is allocated.
fn budget(py: Python<'_>, memory: Option<Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(m) = memory else {
        return Ok(pencilbox_core::memory::default_budget());
    };
    let size = if let Ok(bytes) = m.extract::<u64>() {
        Ok(bytes).and_then(|b| {
            if b > 0 {
                Ok(b)
            } else {
                Err("memory must be at least one byte".to_string())
            }
        })
    } else if let Ok(text) = m.extract::<String>() {
        pencilbox_core::memory::parse_size(&text)
    } else {
        return Err(PyTypeError::new_err(
            "memory is a number of bytes or a size such as \"2G\"",
        ));
    };
    size.map(Some).map_err(|message| {
        raise(
            py,
            Failure {
                message: format!("memory: {message}"),
                pos: None,
                memory: false,
            },
        )
    })
}

/// Runs one operation with the GIL released and returns its JSON as a dict.
fn run_one(
    py: Python<'_>,
    cfg: Config,
    puzzle: Option<String>,
    text: String,
    solution: Option<String>,
) -> PyResult<Py<PyAny>> {
    json_call(py, cfg, move |cfg| {
        cfg.run(puzzle.as_deref(), &text, solution.as_deref())
    })
}

/// Runs `work` under `cfg` with Ctrl-C able to stop it ([`interruptible`]); its JSON as a
/// dict, or its failure raised.
fn json_call(
    py: Python<'_>,
    mut cfg: Config,
    work: impl FnOnce(&Config) -> Result<serde_json::Value, Failure> + Send,
) -> PyResult<Py<PyAny>> {
    let (out, _) = interruptible(py, move |cancel| {
        cfg.cancel = cancel;
        work(&cfg).map(|v| v.to_string())
    })?;
    match out {
        Ok(json) => to_python(py, &json),
        Err(f) => Err(raise(py, f)),
    }
}

/// Solve a puzzle: the dict of `pencilbox solve --format json` (`status` "solved",
/// "unsolvable" or "timeout", `solution`, `stats`, ...). The family is detected from the text
/// when `puzzle` is None; `settings` are `(key, value)` pairs like `--set key=value`.
#[pyfunction]
#[pyo3(signature = (text, puzzle=None, algorithm=None, timeout=None, settings=None, memory=None))]
fn solve(
    py: Python<'_>,
    text: String,
    puzzle: Option<String>,
    algorithm: Option<String>,
    timeout: Option<f64>,
    settings: Option<Vec<(String, String)>>,
    memory: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let cfg = config(Op::Solve, None, algorithm, timeout, settings, budget(py, memory)?);
    run_one(py, cfg, puzzle, text, None)
}

/// Count solutions up to `limit` (None: all; 2: a uniqueness check): the dict of `pencilbox
/// count --format json` plus `status` ("counted" or "timeout").
#[pyfunction]
#[pyo3(signature = (text, puzzle=None, algorithm=None, timeout=None, limit=None, settings=None, memory=None))]
#[allow(clippy::too_many_arguments)]
fn count(
    py: Python<'_>,
    text: String,
    puzzle: Option<String>,
    algorithm: Option<String>,
    timeout: Option<f64>,
    limit: Option<u64>,
    settings: Option<Vec<(String, String)>>,
    memory: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let mut cfg = config(Op::Count, None, algorithm, timeout, settings, budget(py, memory)?);
    cfg.limit = limit;
    run_one(py, cfg, puzzle, text, None)
}

/// Check a proposed solution (the answer-file format): the dict of `pencilbox verify --format
/// json` (`valid`, `violations`) plus `status` ("valid" or "invalid").
#[pyfunction]
#[pyo3(signature = (text, solution, puzzle=None, settings=None))]
fn verify(
    py: Python<'_>,
    text: String,
    solution: String,
    puzzle: Option<String>,
    settings: Option<Vec<(String, String)>>,
) -> PyResult<Py<PyAny>> {
    let cfg = config(Op::Verify, None, None, None, settings, None);
    run_one(py, cfg, puzzle, text, Some(solution))
}

/// The steps a person would take and the rating: the dict of `pencilbox explain --format
/// json` (`steps`, `status`, `rating`); with `rating_only`, only `puzzle`, `status` and
/// `rating`. `entries` is the player's position, as `explain --entries` takes it (a partly
/// filled answer grid; for Path the drawn lines as arrows): the steps start from it, and a
/// position without solutions lists the entries at fault under `wrong`.
#[pyfunction]
#[pyo3(signature = (text, puzzle=None, timeout=None, rating_only=false, settings=None, entries=None, memory=None))]
#[allow(clippy::too_many_arguments)]
fn explain(
    py: Python<'_>,
    text: String,
    puzzle: Option<String>,
    timeout: Option<f64>,
    rating_only: bool,
    settings: Option<Vec<(String, String)>>,
    entries: Option<String>,
    memory: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let op = if rating_only { Op::Rate } else { Op::Explain };
    let cfg = config(op, None, None, timeout, settings, budget(py, memory)?);
    run_one(py, cfg, puzzle, text, entries)
}

/// The next step at one of three depths (`level`: "nudge" where to look, "rule" which rule
/// applies there, "answer" the conclusion): the dict of `pencilbox hint --format json`, from the
/// player's position `entries` when given (as `explain`'s). Without a step, `text` is None and
/// `message` says why (`wrong` lists the entries the puzzle's only solution lacks).
#[pyfunction]
#[pyo3(signature = (text, level="rule", puzzle=None, entries=None, timeout=None, settings=None, memory=None))]
#[allow(clippy::too_many_arguments)]
fn hint(
    py: Python<'_>,
    text: String,
    level: &str,
    puzzle: Option<String>,
    entries: Option<String>,
    timeout: Option<f64>,
    settings: Option<Vec<(String, String)>>,
    memory: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let cfg = config(Op::Explain, None, None, timeout, settings, budget(py, memory)?);
    let level = level.to_string();
    json_call(py, cfg, move |cfg| {
        cfg.hint(puzzle.as_deref(), &text, entries.as_deref(), &level)
    })
}

/// Generate a puzzle with a unique solution: a dict with `text` (the family's file format),
/// `json`, `url` (or None), `answer`, `seed` and `unique`. `size` is "RxC" or (rows, cols)
/// (default: the generator's); `seed` None draws one from the clock.
#[pyfunction]
#[pyo3(signature = (puzzle, size=None, difficulty=None, seed=None, settings=None, timeout=None, memory=None))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    puzzle: String,
    size: Option<Bound<'_, PyAny>>,
    difficulty: Option<String>,
    seed: Option<u64>,
    settings: Option<Vec<(String, String)>>,
    timeout: Option<f64>,
    memory: Option<Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let memory = budget(py, memory)?;
    let plain = |m: String| {
        raise(
            py,
            Failure {
                message: m,
                pos: None,
                memory: false,
            },
        )
    };
    let kind = pencilbox_registry::by_name(&puzzle).ok_or_else(|| {
        let names: Vec<_> = pencilbox_registry::PUZZLES
            .iter()
            .filter(|k| k.generator().is_some())
            .map(|k| k.name())
            .collect();
        plain(format!("no generator for `{puzzle}`; generators: {}", names.join(", ")))
    })?;
    let info = kind
        .generator()
        .ok_or_else(|| plain(format!("there is no generator for {}", kind.name())))?;
    let (height, width) = match size {
        None => info.default_size,
        Some(s) => {
            if let Ok(text) = s.extract::<String>() {
                pencilbox_cli::generate::parse_size(&text).map_err(plain)?
            } else {
                s.extract::<(usize, usize)>()
                    .map_err(|_| PyTypeError::new_err("size is \"RxC\" or a (rows, cols) tuple"))?
            }
        }
    };
    let mut req = GenerateRequest {
        height,
        width,
        difficulty,
        seed: seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64)
        }),
        settings: settings.unwrap_or_default(),
        ..GenerateRequest::default()
    };
    if let Some(t) = timeout {
        if !(t.is_finite() && t > 0.0) {
            return Err(plain(format!(
                "timeout must be a positive number of seconds, found {t}"
            )));
        }
        req.limits.deadline = Some(Instant::now() + Duration::from_secs_f64(t.min(1e9)));
    }
    req.limits.memory = memory;
    let (g, _) = interruptible(py, move |cancel| {
        req.limits.cancel = cancel;
        kind.generate(&req)
    })?;
    match g {
        Ok(g) => to_python(py, &serde_json::to_string(&g).unwrap_or_default()),
        Err(CoreError::NotFound(m)) => Err(PyRuntimeError::new_err(m)),
        Err(e @ CoreError::Memory(_)) => Err(PyMemoryError::new_err(e.to_string())),
        // The time limit (or Ctrl-C) stopped the generator before it made a puzzle.
        Err(e @ CoreError::Interrupted { .. }) => Err(PyTimeoutError::new_err(e.to_string())),
        Err(e) => Err(plain(e.to_string())),
    }
}

/// The iterator `batch` returns: reads the source a chunk at a time, runs the chunk on the
/// worker threads with the GIL released, yields the records in order.
#[pyclass(module = "pencilbox")]
struct BatchIter {
    source: Py<PyIterator>,
    cfg: Arc<Config>,
    pool: Arc<rayon::ThreadPool>,
    ready: VecDeque<String>,
    /// The chunk being run: kept until its records are in, so that a Ctrl-C part-way loses
    /// nothing (the next `next()` runs it again).
    running: Vec<(u64, String)>,
    next_line: u64,
    chunk: usize,
    done: bool,
}

impl BatchIter {
    /// The next chunk of (line number, JSON line or bare puzzle), blank ones left out.
    fn pull(&mut self, py: Python<'_>) -> PyResult<Vec<(u64, String)>> {
        let json = PyModule::import(py, "json")?;
        let mut items = Vec::new();
        let source = self.source.bind(py).clone();
        while items.len() < self.chunk {
            let Some(item) = source.clone().next() else {
                self.done = true;
                break;
            };
            let item = item?;
            let (line, item) = match item.downcast::<PyTuple>() {
                Ok(t) if t.len() == 2 => (t.get_item(0)?.extract::<u64>()?, t.get_item(1)?),
                _ => (self.next_line, item),
            };
            self.next_line = line + 1;
            let text = if item.is_instance_of::<PyString>() {
                item.extract::<String>()?
            } else if item.is_instance_of::<PyDict>() {
                json.call_method1("dumps", (item,))?.extract::<String>()?
            } else {
                return Err(PyTypeError::new_err(
                    "batch items are JSON lines (str), dicts {\"id\", \"puzzle\", \"text\"} or (line, item) pairs",
                ));
            };
            // Blank as `pencilbox batch` skips it (ASCII white space only).
            if !text.bytes().all(|b| b.is_ascii_whitespace()) {
                items.push((line, text));
            }
        }
        Ok(items)
    }
}

#[pymethods]
impl BatchIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        while self.ready.is_empty() && !(self.done && self.running.is_empty()) {
            if self.running.is_empty() {
                self.running = self.pull(py)?;
            }
            let (items, pool, base) = (&self.running, &self.pool, &self.cfg);
            let (records, cut): (Vec<String>, bool) = interruptible(py, move |cancel| {
                let cfg = Config {
                    cancel,
                    ..(**base).clone()
                };
                pool.install(|| items.par_iter().map(|(line, text)| cfg.record(*line, text)).collect())
            })?;
            if cut {
                // A handler that did not raise: the chunk stays, to run again.
                return Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
                    "Ctrl-C stopped the batch; next() runs the interrupted chunk again",
                ));
            }
            self.running.clear();
            self.ready.extend(records);
        }
        match self.ready.pop_front() {
            Some(r) => Ok(Some(to_python(py, &r)?)),
            None => Ok(None),
        }
    }
}

/// Run one operation over many puzzles on `jobs` threads (default: every core), like
/// `pencilbox batch`: each item is a JSON line or dict `{"id", "puzzle", "text"}` (plus
/// `"solution"` for op="verify") or a bare one-line puzzle, optionally as a `(line, item)`
/// pair giving its line number (else items are numbered from 1). Yields one record per
/// non-blank item, in order: `{"id", "status", ...}` with the fields of the single-file JSON
/// (no `elapsed_us` unless `timings`), or `{"id", "status": "error", "message": "line L: ..."}`.
#[pyfunction]
#[pyo3(signature = (items, op="solve", puzzle=None, algorithm=None, timeout=None, node_limit=None, limit=None, settings=None, jobs=None, timings=false, memory=None))]
#[allow(clippy::too_many_arguments)]
fn batch(
    items: &Bound<'_, PyAny>,
    op: &str,
    puzzle: Option<String>,
    algorithm: Option<String>,
    timeout: Option<f64>,
    node_limit: Option<u64>,
    limit: Option<u64>,
    settings: Option<Vec<(String, String)>>,
    jobs: Option<usize>,
    timings: bool,
    memory: Option<Bound<'_, PyAny>>,
) -> PyResult<BatchIter> {
    let py = items.py();
    let memory = budget(py, memory)?;
    let op = match op {
        "solve" => Op::Solve,
        "count" => Op::Count,
        "verify" => Op::Verify,
        "explain" => Op::Explain,
        "rate" => Op::Rate,
        other => {
            return Err(raise(
                py,
                Failure {
                    message: format!("unknown op `{other}`; choose solve, count, verify, explain or rate"),
                    pos: None,
                    memory: false,
                },
            ))
        }
    };
    if let Some(p) = &puzzle {
        if pencilbox_registry::by_name(p).is_none() {
            return Err(raise(
                py,
                Failure {
                    message: format!("unknown puzzle `{p}`"),
                    pos: None,
                    memory: false,
                },
            ));
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let threads = pool.current_num_threads().max(1);
    let chunk = pencilbox_cli::batch::window(threads);
    Ok(BatchIter {
        source: PyIterator::from_object(items)?.unbind(),
        cfg: Arc::new(Config {
            op: Some(op),
            puzzle,
            algorithm,
            timeout,
            node_limit,
            limit,
            settings: settings.unwrap_or_default(),
            timings,
            cancel: None,
            // Every worker may hold a puzzle's model at once: each gets its share.
            memory: memory.map(|b| b / threads as u64),
        }),
        pool: Arc::new(pool),
        ready: VecDeque::new(),
        running: Vec::new(),
        next_line: 1,
        chunk,
        done: false,
    })
}

/// The names of the puzzle families.
#[pyfunction]
fn families() -> Vec<&'static str> {
    pencilbox_registry::PUZZLES.iter().map(|k| k.name()).collect()
}

/// The module.
#[pymodule]
#[pyo3(name = "pencilbox")]
fn pencilbox_py(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("PuzzleError", m.py().get_type::<PuzzleError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<BatchIter>()?;
    for f in [
        wrap_pyfunction!(solve, m)?,
        wrap_pyfunction!(count, m)?,
        wrap_pyfunction!(verify, m)?,
        wrap_pyfunction!(explain, m)?,
        wrap_pyfunction!(hint, m)?,
        wrap_pyfunction!(generate, m)?,
        wrap_pyfunction!(batch, m)?,
        wrap_pyfunction!(families, m)?,
    ] {
        m.add_function(f)?;
    }
    Ok(())
}
