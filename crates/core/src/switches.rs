//! Rule lists: the `--set rules=...` / `--set prune=...` mini-language of solvers whose
//! deductions can be switched on and off to measure what each one pays.
//!
//! A list is comma-separated. Items of the form `key=value` are settings, applied last. The
//! other items are either presets (`all`, `none`, … as the solver names them) or rule names:
//! when every one of them is a preset or starts with `+`/`-`, the list *changes* the default
//! set (`-cuts,+edges`, `none,+reach`); otherwise it names exactly the rules that are on
//! (`reach,owed`).
//!
//! ```
//! use pencilbox_core::switches::{parse, Switches};
//! #[derive(Clone, Debug, PartialEq)]
//! struct R { a: bool, b: bool, depth: u32 }
//! let none = R { a: false, b: false, depth: 1 };
//! let sw = Switches {
//!     default: R { a: true, b: true, depth: 1 },
//!     none: none.clone(),
//!     presets: vec![("none", none)],
//!     names: &["a", "b"],
//! };
//! fn flag<'x>(r: &'x mut R, n: &str) -> Option<&'x mut bool> {
//!     match n { "a" => Some(&mut r.a), "b" => Some(&mut r.b), _ => None }
//! }
//! let setting = |r: &mut R, k: &str, v: &str| match k {
//!     "depth" => { r.depth = v.parse().map_err(|_| format!("bad depth `{v}`"))?; Ok(()) }
//!     _ => Err(format!("unknown setting `{k}`")),
//! };
//! assert_eq!(parse("-b", &sw, flag, setting).unwrap(), R { a: true, b: false, depth: 1 });
//! assert_eq!(parse("b,depth=3", &sw, flag, setting).unwrap(), R { a: false, b: true, depth: 3 });
//! assert_eq!(parse("none,+a", &sw, flag, setting).unwrap(), R { a: true, b: false, depth: 1 });
//! assert!(parse("speed", &sw, flag, setting).unwrap_err().contains("a, b"));
//! ```

/// What a rule list is read against.
#[derive(Clone, Debug)]
pub struct Switches<'a, T> {
    /// The set a relative list changes.
    pub default: T,
    /// The set an absolute list starts from (every rule off).
    pub none: T,
    /// Named presets (`all`, `none`, `default`, …) that replace the set where they appear.
    pub presets: Vec<(&'a str, T)>,
    /// The rule names, for the error message.
    pub names: &'a [&'a str],
}

/// The switch of a rule in a set, by name (`None`: no such rule).
pub type Flag<T> = for<'x> fn(&'x mut T, &str) -> Option<&'x mut bool>;

/// Reads `spec` (see the module docs). `flag(set, name)` gives the switch of a rule,
/// `setting(set, key, value)` applies a `key=value` item.
pub fn parse<T: Clone>(
    spec: &str,
    switches: &Switches<T>,
    flag: Flag<T>,
    mut setting: impl FnMut(&mut T, &str, &str) -> Result<(), String>,
) -> Result<T, String> {
    let items: Vec<&str> = spec.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    let (settings, rules): (Vec<&str>, Vec<&str>) = items.into_iter().partition(|s| s.contains('='));
    let preset = |name: &str| {
        switches
            .presets
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.clone())
    };
    let relative = rules.iter().all(|s| s.starts_with(['-', '+']) || preset(s).is_some());
    let mut set = if relative {
        switches.default.clone()
    } else {
        switches.none.clone()
    };
    for item in rules {
        if let Some(p) = preset(item) {
            set = p;
            continue;
        }
        let (on, name) = match item.strip_prefix('-') {
            Some(n) => (false, n),
            None => (true, item.strip_prefix('+').unwrap_or(item)),
        };
        let Some(f) = flag(&mut set, name) else {
            let presets: Vec<&str> = switches.presets.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "unknown rule `{name}`; the rules are {} (presets: {})",
                switches.names.join(", "),
                presets.join(", ")
            ));
        };
        *f = on;
    }
    for item in settings {
        let (key, value) = item.split_once('=').unwrap_or((item, ""));
        setting(&mut set, key.trim(), value.trim())?;
    }
    Ok(set)
}
