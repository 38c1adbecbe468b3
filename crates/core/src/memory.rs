//! Memory as a budget: estimates checked before a model is built, and allocations that may
//! fail instead of aborting.
//!
//! # Why
//! A grid the parsers admit (up to [`crate::scan::MAX_CELLS`] cells) can need more memory than
//! the machine or the process may have: an empty 2000×2000 Path model takes about 4 GB.
//! Rust's standard collections abort the process when an allocation fails, and an abort
//! cannot be caught (in Python it takes the interpreter with it). So memory is treated like
//! time: a run has a budget ([`crate::search::Limits::memory`]), every operation that builds a
//! model or a formula estimates what it needs *before* allocating and refuses above the
//! budget with both figures ([`MemoryError`]), and the allocations that grow with the grid
//! use `try_reserve`, so a system that refuses memory below the budget (an address-space
//! limit, an overcommitted machine) still gets a clean error and never an abort.
//!
//! # The default budget
//! [`default_budget`] is half of the smallest of: the machine's physical memory
//! (`MemTotal` in `/proc/meminfo`), the memory limit of the process's control group
//! (`memory.max`, cgroup v2, or `memory.limit_in_bytes`, v1) and the address-space limit (`RLIMIT_AS`, `ulimit -v`, from
//! `/proc/self/limits`). Half, because estimates are of the memory used (resident), while an
//! address-space limit counts what is reserved too (an engine reserves its vectors ahead,
//! thread stacks, the allocator's arenas): about twice as much, measured; and a machine's
//! memory is shared with everything else it runs. (The address space a process already uses
//! says little: the binary's allocator reserves a 1 GiB arena at start-up, which later
//! allocations fill.) Where `/proc` cannot be read (macOS, Windows, the browser) there is no
//! default budget and only the system's own limits apply.
//!
//! Estimates are per family and algorithm, from measured bytes per cell
//! ([`crate::plugin::Puzzle::memory_estimate`]; the figures are in `docs/cli.md`).

use crate::search::Limits;
use std::fmt;

/// The share of the system's memory (or of a lower limit) that is the default budget:
/// `NUMERATOR / DENOMINATOR` (see the module docs).
pub const DEFAULT_SHARE: (u64, u64) = (1, 2);

/// A run refused for memory: the estimate was above the budget, or the system refused an
/// allocation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemoryError {
    /// What needed the memory, e.g. "this 2000×2000 path puzzle with `fast`".
    pub what: String,
    /// The estimate (or, when [`MemoryError::refused`], the allocation refused), in bytes.
    pub needed: u64,
    /// The budget in force, in bytes (`None`: no budget; the system refused).
    pub budget: Option<u64>,
    /// True when the system refused an allocation (the estimate was within the budget).
    pub refused: bool,
    /// True when [`MemoryError::needed`] is what was counted when the work stopped, a lower
    /// bound of the whole (a formula measured as it is made).
    pub at_least: bool,
}

impl fmt::Display for MemoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let budget = self
            .budget
            .map_or("no budget".to_string(), |b| format!("a budget of {}", format_size(b)));
        if self.refused {
            write!(
                f,
                "out of memory: the system refused memory for {} (about {} in all; {budget}); give the process \
                 more memory or use a smaller grid",
                self.what,
                format_size(self.needed),
            )
        } else {
            write!(
                f,
                "{} would need {} {} of memory, above {budget}; use a smaller grid or raise the budget \
                 (`--memory SIZE`, e.g. `--memory 8G`; Python: `memory=`)",
                self.what,
                if self.at_least { "more than" } else { "about" },
                format_size(self.needed),
            )
        }
    }
}

impl std::error::Error for MemoryError {}

/// Refuses an estimate above the budget of `limits` ([`Limits::memory`]); `what` names the
/// work (made only when refusing).
pub fn check(needed: u64, limits: &Limits, what: impl FnOnce() -> String) -> Result<(), MemoryError> {
    match limits.memory {
        Some(budget) if needed > budget => Err(MemoryError {
            what: what(),
            needed,
            budget: Some(budget),
            refused: false,
            at_least: false,
        }),
        _ => Ok(()),
    }
}

/// A vector with room for `n` items, or the error of a refused allocation (`what` names the
/// work) instead of an abort.
pub fn try_vec<T>(n: usize, what: &str) -> Result<Vec<T>, MemoryError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| MemoryError {
        what: what.to_string(),
        needed: (n as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        budget: None,
        refused: true,
        at_least: false,
    })?;
    Ok(v)
}

/// Parses a size: a number of bytes with an optional unit `K`, `M`, `G` or `T` (powers of
/// 1024; `KB`, `KiB`, `MB`, … are the same; case does not matter), fractions allowed:
/// `2G`, `512M`, `1.5GiB`, `100000`.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let bad = || format!("expected a size such as 2G, 512M or 1500000 (bytes), found `{s}`");
    let value: f64 = num.parse().map_err(|_| bad())?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        _ => return Err(bad()),
    };
    let bytes = value * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes < 1.0 {
        return Err(format!("the size must be at least one byte, found `{s}`"));
    }
    Ok(bytes.min(u64::MAX as f64) as u64)
}

/// A size for people: `512 KiB`, `3.4 MiB`, `2.1 GiB`.
pub fn format_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut v = bytes as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    match u {
        0 => format!("{bytes} bytes"),
        _ if v < 10.0 => format!("{v:.1} {}", UNITS[u]),
        _ => format!("{v:.0} {}", UNITS[u]),
    }
}

/// What the system says about memory (each `None` when unknown or unlimited).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct System {
    /// Physical memory (`MemTotal`).
    pub physical: Option<u64>,
    /// The control group's memory limit.
    pub cgroup: Option<u64>,
    /// The address-space limit (`RLIMIT_AS`, soft).
    pub address_space: Option<u64>,
}

impl System {
    /// Reads `/proc` (Linux); every figure is `None` elsewhere.
    pub fn read() -> Self {
        let read = read_small;
        let physical = read("/proc/meminfo").and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
                .map(|k| k.saturating_mul(1024))
        });
        // The process's own control group (`/proc/self/cgroup`: `0::PATH` for v2,
        // `N:…memory…:PATH` for v1), then the hierarchy's root.
        let mut files = Vec::new();
        for line in read("/proc/self/cgroup").unwrap_or_default().lines() {
            let mut parts = line.splitn(3, ':');
            let (Some(id), Some(controllers), Some(path)) = (parts.next(), parts.next(), parts.next()) else {
                continue;
            };
            let path = path.trim_end_matches('/');
            if id == "0" && controllers.is_empty() {
                files.push(format!("/sys/fs/cgroup{path}/memory.max"));
            } else if controllers.split(',').any(|c| c == "memory") {
                files.push(format!("/sys/fs/cgroup/memory{path}/memory.limit_in_bytes"));
            }
        }
        for root in [
            "/sys/fs/cgroup/memory.max",
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
        ] {
            // (A process in the hierarchy's root group has named it already.)
            if !files.iter().any(|f| f == root) {
                files.push(root.into());
            }
        }
        let cgroup = files
            .iter()
            .filter_map(|f| read(f))
            .filter_map(|t| t.trim().parse::<u64>().ok())
            // v2 writes "max" (not a number) and v1 a huge number near 2⁶³ for no limit.
            .filter(|&b| b < 1 << 60)
            .min();
        let address_space = read("/proc/self/limits").and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("Max address space"))
                .and_then(|l| l.split_whitespace().nth(3))
                .and_then(|soft| soft.parse::<u64>().ok())
        });
        System {
            physical,
            cgroup,
            address_space,
        }
    }

    /// The default budget these figures give (see the module docs); `None` when nothing is
    /// known.
    pub fn budget(&self) -> Option<u64> {
        [self.physical, self.cgroup, self.address_space]
            .into_iter()
            .flatten()
            .min()
            .map(|b| b / DEFAULT_SHARE.1 * DEFAULT_SHARE.0)
    }
}

/// A small text file (the `/proc` and cgroup files of [`System::read`]) read into a 4 KiB
/// buffer: `std::fs::read_to_string` asks for the size first (0 for them) and then grows its
/// buffer from 32 bytes, a system call per doubling, about 40 calls for the five files of a
/// start-up instead of about 15.
fn read_small(path: &str) -> Option<String> {
    use std::io::Read;
    let mut buf = Vec::with_capacity(4096);
    // (Through `take`, which asks no size; a kernel file is a few pages at most.)
    std::fs::File::open(path)
        .ok()?
        .take(1 << 20)
        .read_to_end(&mut buf)
        .ok()?;
    String::from_utf8(buf).ok()
}

/// The default budget of this process (see the module docs), read once per call.
pub fn default_budget() -> Option<u64> {
    System::read().budget()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_size(" 100000 "), Ok(100_000));
        assert_eq!(parse_size("64KB"), Ok(64 << 10));
        assert!(parse_size("0").is_err());
        assert!(parse_size("-1G").is_err());
        assert!(parse_size("2X").is_err());
        assert!(parse_size("G").is_err());
    }

    #[test]
    fn small_files_read_as_read_to_string_reads_them() {
        // A file over the first 4 KiB buffer, one exactly its size, and a missing one.
        let dir = std::env::temp_dir();
        for (name, len) in [("big", 10_000), ("page", 4096), ("tiny", 3)] {
            let path = dir.join(format!("pencilbox-read-small-{}-{name}", std::process::id()));
            let text: String = (0..len).map(|i| char::from(b'a' + (i % 26) as u8)).collect();
            std::fs::write(&path, &text).unwrap();
            assert_eq!(read_small(path.to_str().unwrap()), Some(text), "{name}");
            std::fs::remove_file(&path).unwrap();
        }
        assert_eq!(read_small("/nonexistent/pencilbox"), None);
        // The kernel's own files, where they exist (their size reads as 0).
        for f in ["/proc/self/limits", "/proc/self/cgroup"] {
            if let Ok(text) = std::fs::read_to_string(f) {
                assert_eq!(read_small(f), Some(text), "{f}");
            }
        }
    }

    #[test]
    fn sizes_print_for_people() {
        assert_eq!(format_size(512), "512 bytes");
        assert_eq!(format_size(3 << 19), "1.5 MiB");
        assert_eq!(format_size(40 << 30), "40 GiB");
    }

    #[test]
    fn the_budget_is_half_the_lowest_limit() {
        let s = System {
            physical: Some(16 << 30),
            cgroup: None,
            address_space: Some(4 << 30),
        };
        assert_eq!(s.budget(), Some(2 << 30));
        let s = System {
            physical: Some(16 << 30),
            cgroup: Some(2 << 30),
            ..System::default()
        };
        assert_eq!(s.budget(), Some(1 << 30));
        assert_eq!(System::default().budget(), None);
    }

    #[test]
    fn estimates_above_the_budget_are_refused_with_both_figures() {
        let limits = Limits {
            memory: Some(1 << 30),
            ..Limits::default()
        };
        assert!(check(1 << 30, &limits, || unreachable!()).is_ok());
        let e = check(3 << 30, &limits, || "this puzzle".into()).unwrap_err();
        let m = e.to_string();
        assert!(
            m.contains("3.0 GiB") && m.contains("1.0 GiB") && m.contains("--memory"),
            "{m}"
        );
        assert!(check(u64::MAX, &Limits::default(), || unreachable!()).is_ok());
    }

    #[test]
    fn a_refused_allocation_is_an_error_not_an_abort() {
        let e = try_vec::<u64>(usize::MAX / 4, "a test").unwrap_err();
        assert!(e.refused && e.to_string().contains("out of memory"), "{e}");
        assert_eq!(try_vec::<u8>(10, "small").unwrap().capacity(), 10);
    }
}
