//! Long runs: a progress line on a terminal, and Ctrl-C that stops the search cleanly.
//!
//! A command that can run long holds a [`Watch`] while it works:
//!
//! * **Progress.** When stderr is a terminal and the run is still going after [`QUIET_FOR`],
//!   one line on stderr shows the nodes searched, the solutions found (for counts) and the
//!   elapsed time, redrawn every [`REDRAW`] and cleared before the results are printed. The
//!   figures come from the [`Progress`] counters the search drivers fill (see
//!   [`pencilbox_core::search::Limits::checkpoint`]). When stderr is not a terminal (pipes,
//!   files, tests) nothing is drawn, so the output is exactly what it is without the watch.
//! * **Ctrl-C.** [`Watch::search`] puts a cancellation flag into the run's limits; the first
//!   Ctrl-C sets it, the search stops at its next check as it does at a `--timeout`, and the
//!   command prints what it has, naming Ctrl-C ([`Watch::stopped_by`]) where a timeout names
//!   the limit, and exits with [`INTERRUPTED`] (130, as shells report a process ended by
//!   SIGINT). A second Ctrl-C, or one while no cancellable search is running (for example during
//!   [`Watch::uncancellable`] work such as a generator, which has nothing to report part-way),
//!   ends the process at once with the same code.
//!
//! The Ctrl-C handler is installed the first time a watch starts (never for `serve`, which
//! handles its own shutdown) and stays installed for the rest of the process. A
//! [`Watch::search`] (`solve`, `count`, `explain`, …) installs it only once its run has lasted
//! [`HANDLER_AFTER`] (at the searches' next poll of their limits: [`Progress::after`]): the
//! handler is a thread of its own, about 40 µs, which a process solving a small puzzle in a
//! few microseconds should not pay for. Before then Ctrl-C has its default effect, ending the
//! process at once (a shell reports 130 for it as well), with nothing to report.

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use pencilbox_core::search::{Limits, Progress};
use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Exit code of a run stopped by Ctrl-C: 128 + SIGINT, what a shell reports for a process
/// that SIGINT ended.
pub const INTERRUPTED: u8 = 130;

/// How long a run goes before its progress line appears (a quick run never shows one).
pub const QUIET_FOR: Duration = Duration::from_secs(1);

/// How often the progress line is redrawn.
pub const REDRAW: Duration = Duration::from_millis(200);

/// How long a [`Watch::search`] runs before it installs the Ctrl-C handler.
pub const HANDLER_AFTER: Duration = Duration::from_millis(5);

/// What the Ctrl-C handler acts on.
struct Handler {
    /// The cancellation flag of the search being watched, while one is.
    cancel: Mutex<Option<Arc<AtomicBool>>>,
    /// Ctrl-C presses since the current watch started.
    presses: AtomicU32,
}

static HANDLER: OnceLock<Option<Handler>> = OnceLock::new();

/// Points the handler at the run that starts (its cancellation flag, or none: then Ctrl-C ends
/// the process) and counts its presses from zero.
fn watch_with(h: &Handler, cancel: Option<Arc<AtomicBool>>) {
    if let Ok(mut slot) = h.cancel.lock() {
        *slot = cancel;
    }
    h.presses.store(0, Ordering::SeqCst);
}

/// The handler's state, once installed (`None` when the handler could not be installed: then
/// Ctrl-C keeps its default effect of ending the process).
fn handler() -> Option<&'static Handler> {
    HANDLER
        .get_or_init(|| {
            ctrlc::set_handler(on_ctrl_c).ok()?;
            Some(Handler {
                cancel: Mutex::new(None),
                presses: AtomicU32::new(0),
            })
        })
        .as_ref()
}

/// Runs on the handler's own thread at each Ctrl-C.
fn on_ctrl_c() {
    let Some(h) = handler() else { return };
    let first = h.presses.fetch_add(1, Ordering::SeqCst) == 0;
    let cancel = h.cancel.lock().map(|c| c.clone()).unwrap_or(None);
    match cancel {
        Some(flag) if first => flag.store(true, Ordering::SeqCst),
        _ => {
            if std::io::stderr().is_terminal() {
                // Erase a progress line (and the terminal's `^C`) before the message.
                eprint!("\r\x1b[2K");
            }
            eprintln!("pencilbox: interrupted");
            std::process::exit(i32::from(INTERRUPTED));
        }
    }
}

/// The progress line and Ctrl-C handling of one run; see the module docs. [`Watch::done`] (or
/// dropping it) clears the line and hands Ctrl-C back to its immediate exit.
pub struct Watch {
    cancel: Option<Arc<AtomicBool>>,
    display: Option<(Sender<()>, JoinHandle<()>)>,
    /// The run's counters, which may still hold the handler's installation for later.
    progress: Option<Arc<Progress>>,
}

impl Watch {
    /// Watches a search run under `limits`: adds the cancellation flag (set by the first
    /// Ctrl-C) and the progress counters to them. `label` starts the progress line (the
    /// command, e.g. `count`); `solutions` adds the solutions found so far to it.
    pub fn search(label: &str, limits: &mut Limits, solutions: bool) -> Watch {
        let flag = Arc::new(AtomicBool::new(false));
        limits.cancel = Some(flag.clone());
        Self::start(label, limits, solutions, Some(flag))
    }

    /// Puts the cancellation flag (set by the first Ctrl-C) into `limits` without a progress
    /// line: for commands that draw their own (`bench`) and hand the flag to every search
    /// they run.
    pub fn cancel_only(limits: &mut Limits) -> Watch {
        let flag = Arc::new(AtomicBool::new(false));
        limits.cancel = Some(flag.clone());
        if let Some(h) = handler() {
            watch_with(h, Some(flag.clone()));
        }
        Watch {
            cancel: Some(flag),
            display: None,
            progress: None,
        }
    }

    /// Watches work that cannot stop part-way with a result (a generator): Ctrl-C ends the
    /// process at once with [`INTERRUPTED`]. The progress line shows the elapsed time, and the
    /// nodes of whatever searches run under `limits` (which get the progress counters only).
    pub fn uncancellable(label: &str, limits: &mut Limits) -> Watch {
        Self::start(label, limits, false, None)
    }

    fn start(label: &str, limits: &mut Limits, solutions: bool, cancel: Option<Arc<AtomicBool>>) -> Watch {
        let progress = Arc::new(Progress::default());
        limits.progress = Some(progress.clone());
        // A search not yet under the handler installs it once it has lasted `HANDLER_AFTER`;
        // other work installs it at once, and an installed one acts on this run from now.
        if HANDLER.get().is_none() && cancel.is_some() {
            let flag = cancel.clone();
            let at = pencilbox_core::time::Instant::now() + HANDLER_AFTER;
            progress.after(at, move || {
                if let Some(h) = handler() {
                    watch_with(h, flag);
                }
            });
        } else if let Some(h) = handler() {
            watch_with(h, cancel.clone());
        }
        let display = std::io::stderr().is_terminal().then(|| {
            let progress = progress.clone();
            let (stop, wait) = mpsc::channel();
            let label = label.to_string();
            let started = Instant::now();
            let thread = std::thread::spawn(move || {
                // Nothing for a quick run; a stop (or a dropped sender) ends the wait early.
                if wait.recv_timeout(QUIET_FOR) != Err(RecvTimeoutError::Timeout) {
                    return;
                }
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                bar.set_style(
                    ProgressStyle::with_template("{msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                loop {
                    let shown = solutions.then(|| progress.solutions());
                    // Setting the message redraws the line.
                    bar.set_message(progress_line(&label, progress.nodes(), shown, started.elapsed()));
                    if wait.recv_timeout(REDRAW) != Err(RecvTimeoutError::Timeout) {
                        break;
                    }
                }
                bar.finish_and_clear();
            });
            (stop, thread)
        });
        Watch {
            cancel,
            display,
            progress: Some(progress),
        }
    }

    /// The run is over: stops and clears the progress line (before the results are printed),
    /// and from now on Ctrl-C ends the process at once. Idempotent; [`Watch::interrupted`]
    /// still answers for the run.
    pub fn done(&mut self) {
        // A run that ended before `HANDLER_AFTER` leaves Ctrl-C as it was.
        if let Some(p) = self.progress.take() {
            p.forget_later();
        }
        if let Some((stop, thread)) = self.display.take() {
            let _ = stop.send(());
            let _ = thread.join();
        }
        if let (Some(h), Some(mine)) = (HANDLER.get().and_then(Option::as_ref), &self.cancel) {
            if let Ok(mut slot) = h.cancel.lock() {
                if slot.as_ref().is_some_and(|flag| Arc::ptr_eq(flag, mine)) {
                    *slot = None;
                }
            }
        }
    }

    /// Did Ctrl-C stop the run?
    pub fn interrupted(&self) -> bool {
        self.cancel.as_ref().is_some_and(|c| c.load(Ordering::SeqCst))
    }

    /// What stopped a run that ended early: `Ctrl-C`, or `the time or node limit`.
    pub fn stopped_by(&self) -> &'static str {
        if self.interrupted() {
            "Ctrl-C"
        } else {
            "the time or node limit"
        }
    }

    /// A command's JSON with `"stopped_by": "ctrl-c"` added when Ctrl-C stopped the run (a
    /// time or node limit leaves it as it is), so JSON readers can tell the two apart.
    pub fn mark(&self, mut v: serde_json::Value) -> serde_json::Value {
        if self.interrupted() {
            v["stopped_by"] = serde_json::json!("ctrl-c");
        }
        v
    }

    /// The exit code: [`INTERRUPTED`] when Ctrl-C stopped the run, else `code`.
    pub fn code(&self, code: u8) -> u8 {
        if self.interrupted() {
            INTERRUPTED
        } else {
            code
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.done();
    }
}

/// The text of the progress line: `count: 1,234,567 nodes, 3 solutions, 2.4 s (Ctrl-C stops)`.
pub fn progress_line(label: &str, nodes: u64, solutions: Option<u64>, elapsed: Duration) -> String {
    let mut s = format!("{label}: ");
    if nodes > 0 {
        s.push_str(&format!("{} nodes, ", HumanCount(nodes)));
    }
    if let Some(n) = solutions {
        s.push_str(&format!("{} solution(s), ", HumanCount(n)));
    }
    let secs = elapsed.as_secs_f64();
    if secs < 60.0 {
        s.push_str(&format!("{secs:.1} s"));
    } else {
        let whole = elapsed.as_secs();
        s.push_str(&format!("{} min {:02} s", whole / 60, whole % 60));
    }
    s.push_str(" (Ctrl-C stops)");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_shows_nodes_solutions_and_time() {
        let d = Duration::from_millis(2_400);
        assert_eq!(
            progress_line("count", 1_234_567, Some(3), d),
            "count: 1,234,567 nodes, 3 solution(s), 2.4 s (Ctrl-C stops)"
        );
        assert_eq!(
            progress_line("solve", 512, None, Duration::from_secs(125)),
            "solve: 512 nodes, 2 min 05 s (Ctrl-C stops)"
        );
        // Work whose searches record no nodes (yet) shows the time only.
        assert_eq!(
            progress_line("generate suguru 8x8", 0, None, d),
            "generate suguru 8x8: 2.4 s (Ctrl-C stops)"
        );
    }

    #[test]
    fn a_search_watch_leaves_the_handler_for_later_and_forgets_it_when_done() {
        let installed_before = HANDLER.get().is_some();
        let mut limits = Limits::default();
        let mut w = Watch::search("solve", &mut limits, false);
        let progress = limits.progress.clone().expect("counters");
        if !installed_before {
            // (Unless another test of this binary installed it already.)
            assert!(HANDLER.get().is_none(), "installed at the start of the watch");
            assert!(format!("{progress:?}").contains("pending: true"), "{progress:?}");
        }
        w.done();
        assert!(format!("{progress:?}").contains("pending: false"), "{progress:?}");
        // Later polls of the limits install nothing.
        assert_eq!(limits.interrupted(), None);
        assert_eq!(HANDLER.get().is_some(), installed_before);
    }

    #[test]
    fn a_search_watch_puts_its_flag_and_counters_into_the_limits() {
        let mut limits = Limits::default();
        let w = Watch::search("count", &mut limits, true);
        assert!(limits.cancel.is_some() && limits.progress.is_some());
        assert!(!w.interrupted());
        assert_eq!(w.code(3), 3);
        assert_eq!(w.stopped_by(), "the time or node limit");
        limits.cancel.as_ref().unwrap().store(true, Ordering::SeqCst);
        assert!(w.interrupted());
        assert_eq!(w.code(3), INTERRUPTED);
        assert_eq!(w.stopped_by(), "Ctrl-C");
    }
}
