//! The learning settings and counters ([`crate::engine::learn`] is the learning itself): plain
//! data, kept apart so that [`crate::search::Limits`] can carry them without the search
//! driver depending on the engine.

/// The plain search's budget under [`LearnMode::Auto`], in nodes × variables: a model of
/// `n` variables searches `AUTO_WORK / n` nodes without learning (at least
/// [`AUTO_MIN_NODES`]), so the budget is about the same time on a small grid as on a large
/// one, where each node costs more (a 20×20 Path model, 1,160 variables: 3,017 nodes; 40×40,
/// 4,720 variables: 741). Measured in BENCHMARKS.md, "Learning".
pub const AUTO_WORK: u64 = 3_500_000;
/// Solutions after which `auto` stays plain: a search that finds this many within its budget
/// is enumerating, and a learning search pays a blocking clause for each solution (counting
/// the 4,124,832 fillings of an empty 6×6 Suguru takes 2.4 s plain and over a minute with
/// learning).
pub const AUTO_MAX_SOLUTIONS: usize = 8;
/// The fewest nodes `auto` searches without learning.
pub const AUTO_MIN_NODES: u64 = 500;

/// The nodes searched without learning under [`LearnMode::Auto`] by default, for a model of
/// `vars` variables ([`AUTO_WORK`]).
pub fn auto_nodes(vars: usize) -> u64 {
    (AUTO_WORK / vars.max(1) as u64).max(AUTO_MIN_NODES)
}

/// Whether a search learns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LearnMode {
    /// Plain depth-first search.
    Off,
    /// Learning from the first node.
    On,
    /// Plain search for a while ([`Learning::auto_after`]), then learning (the default).
    #[default]
    Auto,
}

/// The learning settings of a search (`--set learn=on|off|auto`, `--set decide=model|activity`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Learning {
    /// Off, on or auto.
    pub mode: LearnMode,
    /// Branch on the most active variable (VSIDS) instead of the model's brancher.
    pub activity: bool,
    /// Under [`LearnMode::Auto`], the nodes searched before learning begins: `N` from
    /// `learn=auto:N`, or `None`, [`auto_nodes`] of the model's size.
    pub auto_after: Option<u64>,
}

impl Default for Learning {
    fn default() -> Self {
        Learning {
            mode: LearnMode::Auto,
            activity: true,
            auto_after: None,
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
                        _ => match v.strip_prefix("auto:").map(str::parse::<u64>) {
                            Some(Ok(n)) => {
                                l.auto_after = Some(n);
                                LearnMode::Auto
                            }
                            _ => {
                                return Err(format!(
                                    "learn wants `on`, `off`, `auto` or `auto:N` (N nodes before learning), found `{v}`"
                                ))
                            }
                        },
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn learn_settings_read_modes_thresholds_and_branching() {
        let read = |pairs: &[(&str, &str)]| Learning::from_settings(pairs.iter().copied());
        assert_eq!(read(&[]).unwrap(), Learning::default());
        let l = read(&[("learn", "auto:5000"), ("decide", "model"), ("rules", "all")]).unwrap();
        assert_eq!((l.mode, l.auto_after, l.activity), (LearnMode::Auto, Some(5000), false));
        let l = read(&[("learn", "auto")]).unwrap();
        assert_eq!((l.mode, l.auto_after), (LearnMode::Auto, None));
        assert_eq!(read(&[("learn", "on")]).unwrap().mode, LearnMode::On);
        for bad in ["auto:", "auto:-1", "auto:1e3", "sometimes"] {
            let e = read(&[("learn", bad)]).unwrap_err();
            assert!(e.contains(bad) && e.contains("auto:N"), "{e}");
        }
        assert!(read(&[("decide", "random")]).unwrap_err().contains("random"));
    }

    #[test]
    fn auto_searches_fewer_plain_nodes_on_larger_models() {
        let path = |n: usize| n * n + 2 * n * (n - 1);
        assert_eq!(auto_nodes(path(20)), 3017);
        assert_eq!(auto_nodes(path(40)), 741);
        assert!(auto_nodes(path(12)) > auto_nodes(path(20)));
        assert_eq!(auto_nodes(1_000_000), AUTO_MIN_NODES);
        assert_eq!(auto_nodes(0), AUTO_WORK);
    }
}
