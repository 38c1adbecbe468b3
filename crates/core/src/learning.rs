//! The learning settings and counters ([`crate::engine::learn`] is the learning itself): plain
//! data, kept apart so that [`crate::search::Limits`] can carry them without the search
//! driver depending on the engine.

/// Nodes a search under [`LearnMode::Auto`] runs without learning.
pub const AUTO_THRESHOLD: u64 = 1000;
/// Whether a search learns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LearnMode {
    /// Plain depth-first search.
    #[default]
    Off,
    /// Learning from the first node.
    On,
    /// Plain search for [`AUTO_THRESHOLD`] nodes, then learning.
    Auto,
}

/// The learning settings of a search (`--set learn=on|off|auto`, `--set decide=model|activity`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Learning {
    /// Off, on or auto.
    pub mode: LearnMode,
    /// Branch on the most active variable (VSIDS) instead of the model's brancher.
    pub activity: bool,
    /// Under [`LearnMode::Auto`], the nodes searched before learning begins
    /// ([`AUTO_THRESHOLD`] from the command line).
    pub auto_after: u64,
}

impl Default for Learning {
    fn default() -> Self {
        Learning {
            mode: LearnMode::Off,
            activity: true,
            auto_after: AUTO_THRESHOLD,
        }
    }
}

impl Learning {
    /// Reads `learn=` and `decide=` from `key=value` settings, leaving the others; `Err` names
    /// a bad value.
    pub fn from_settings<'a>(settings: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Learning, String> {
        let mut l = Learning::default();
        for (k, v) in settings {
            match k {
                "learn" => {
                    l.mode = match v {
                        "on" => LearnMode::On,
                        "off" => LearnMode::Off,
                        "auto" => LearnMode::Auto,
                        _ => return Err(format!("learn wants `on`, `off` or `auto`, found `{v}`")),
                    }
                }
                "decide" => {
                    l.activity = match v {
                        "activity" => true,
                        "model" => false,
                        _ => return Err(format!("decide wants `model` or `activity`, found `{v}`")),
                    }
                }
                _ => {}
            }
        }
        Ok(l)
    }
}

/// What learning did, for `--stats`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LearnStats {
    /// Searches that learned.
    pub searches: u64,
    /// Conflicts analysed.
    pub conflicts: u64,
    /// Clauses learned (units included).
    pub learned: u64,
    /// Literals in the learned clauses, summed.
    pub literals: u64,
    /// Learned unit clauses (facts for the rest of the search).
    pub units: u64,
    /// Learned clauses deleted.
    pub deleted: u64,
    /// Restarts.
    pub restarts: u64,
    /// Blocking clauses of found solutions.
    pub blocking: u64,
    /// Facts whose rule gave no reason, replaced by the decisions above them.
    pub fallbacks: u64,
    /// Facts resolved with their rule's own reason.
    pub explained: u64,
    /// Literals removed from learned clauses by minimisation.
    pub minimised: u64,
    /// Probed values refuted by a learned clause (probing while learning).
    pub probes: u64,
}

impl LearnStats {
    /// The counters in a fixed order (the order of the fields).
    fn fields(&self) -> [u64; 12] {
        [
            self.searches,
            self.conflicts,
            self.learned,
            self.literals,
            self.units,
            self.deleted,
            self.restarts,
            self.blocking,
            self.fallbacks,
            self.explained,
            self.minimised,
            self.probes,
        ]
    }
    /// The counters from [`LearnStats::fields`]'s order.
    fn from_fields(v: [u64; 12]) -> LearnStats {
        let [searches, conflicts, learned, literals, units, deleted, restarts, blocking, fallbacks, explained, minimised, probes] =
            v;
        LearnStats {
            searches,
            conflicts,
            learned,
            literals,
            units,
            deleted,
            restarts,
            blocking,
            fallbacks,
            explained,
            minimised,
            probes,
        }
    }
    /// Adds another search's counters.
    pub fn absorb(&mut self, o: &LearnStats) {
        let (mut a, b) = (self.fields(), o.fields());
        for (x, y) in a.iter_mut().zip(b) {
            *x += y;
        }
        *self = LearnStats::from_fields(a);
    }
}

/// [`LearnStats`] shared by the searches of one run ([`crate::search::Limits::learn_counters`]),
/// for the notes of `--stats`.
#[derive(Debug, Default)]
pub struct LearnCounters {
    sums: [std::sync::atomic::AtomicU64; 12],
}

impl LearnCounters {
    /// Adds what a search did since its last report.
    pub(crate) fn add(&self, now: &LearnStats, before: &LearnStats) {
        let (a, b) = (now.fields(), before.fields());
        for k in 0..a.len() {
            if a[k] != b[k] {
                self.sums[k].fetch_add(a[k] - b[k], std::sync::atomic::Ordering::Relaxed);
            }
        }
    }
    /// The sums so far.
    pub fn snapshot(&self) -> LearnStats {
        LearnStats::from_fields(std::array::from_fn(|k| {
            self.sums[k].load(std::sync::atomic::Ordering::Relaxed)
        }))
    }
}
