//! The pruning rules of every family in one vocabulary: which rules a family's engine
//! algorithm has, which of them *define* the puzzle (they cannot be switched off: without them
//! a wrong grid would pass) and which are *optional* deductions that only prune, and the
//! `--set rules=…` list that switches the optional ones.
//!
//! The same rule has the same name, and the same meaning, in every family: `hidden-single` in
//! Suguru, Ripple Effect and Sudoku is core's one propagator
//! ([`crate::constraints::Distinct`]); `connect` is "cells or links between the known parts
//! that every connection must use" in the line and shading genres and in Path; `probe` is
//! core's failed-value probing ([`crate::engine::Probe`]). A family's [`RuleTable`] lists
//! them, [`crate::kind::PuzzleKind::rule_table`] publishes it (`pencilbox list`), and
//! `pencilbox study` reads it to switch each optional rule off in turn, and on alone.
//!
//! A rule list is read by [`RuleTable::parse`] with core's [`crate::switches`] grammar
//! (`-pointing`, `none,+probe`, `hidden-single,pointing`, presets `all`, `none`, `default`).
//!
//! ```
//! use pencilbox_core::rules::{Rule, RuleTable, NAKED_SINGLE, HIDDEN_SINGLE, POINTING, PROBE};
//! static TABLE: RuleTable = RuleTable {
//!     algorithm: "fast",
//!     rules: &[NAKED_SINGLE, HIDDEN_SINGLE, POINTING.off_by_default(), PROBE],
//! };
//! let on = TABLE.parse(Some("-probe")).unwrap();
//! assert!(on.has("hidden-single") && !on.has("pointing") && !on.has("probe"));
//! assert!(TABLE.parse(Some("none,+pointing")).unwrap().has("pointing"));
//! assert!(TABLE.parse(Some("-naked-single")).unwrap_err().contains("defines the puzzle"));
//! ```

use crate::switches::{self, Switches};

/// What a rule is to its family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// It defines the puzzle: always on.
    Defining,
    /// An optional deduction, on by default.
    Optional,
    /// An optional deduction, off by default (`+name` switches it on).
    OffByDefault,
    /// A deduction that is always on without defining the puzzle (not switchable yet).
    Always,
}

/// One rule of a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Rule {
    /// Its name: the propagator's name in counters and explanations, the item of `--set rules=`.
    pub name: &'static str,
    /// Defining or optional.
    pub role: Role,
    /// What it does, the same words in every family.
    pub summary: &'static str,
}

impl Rule {
    /// A defining rule.
    pub const fn defining(name: &'static str, summary: &'static str) -> Rule {
        Rule {
            name,
            role: Role::Defining,
            summary,
        }
    }
    /// An optional rule, on by default.
    pub const fn optional(name: &'static str, summary: &'static str) -> Rule {
        Rule {
            name,
            role: Role::Optional,
            summary,
        }
    }
    /// The same rule, off by default in this family.
    pub const fn off_by_default(self) -> Rule {
        Rule {
            role: Role::OffByDefault,
            ..self
        }
    }
    /// The same rule with a family's own wording.
    pub const fn saying(self, summary: &'static str) -> Rule {
        Rule { summary, ..self }
    }
    /// An always-on deduction that does not define the puzzle.
    pub const fn always(name: &'static str, summary: &'static str) -> Rule {
        Rule {
            name,
            role: Role::Always,
            summary,
        }
    }
    /// Can it be switched?
    pub fn is_optional(&self) -> bool {
        matches!(self.role, Role::Optional | Role::OffByDefault)
    }
}

/// A fixed value leaves every cell that must differ from it (its region, its neighbours).
pub const NAKED_SINGLE: Rule = Rule::defining(
    "naked-single",
    "a fixed value leaves every cell that must differ from it (the all-different rule itself)",
);
/// A value with one place left in a group goes there.
pub const HIDDEN_SINGLE: Rule = Rule::optional(
    "hidden-single",
    "a value with one place left in a region goes there; none left is a conflict",
);
/// A group's value confined to cells with common neighbours leaves those neighbours.
pub const POINTING: Rule = Rule::optional(
    "pointing",
    "a region's value confined to cells that all see a cell outside leaves that cell (pointing/claiming)",
);
/// Naked subsets.
pub const NAKED_PAIR: Rule = Rule::optional(
    "naked-pair",
    "k cells of a region with k values between them take those values from the rest (naked pairs; triples where the family looks for them)",
);
/// Hidden subsets.
pub const HIDDEN_PAIR: Rule = Rule::optional(
    "hidden-pair",
    "k values of a region with k places between them clear those places of other values (hidden pairs; triples where the family looks for them)",
);
/// Failed-value probing.
pub const PROBE: Rule = Rule::optional(
    "probe",
    "failed-value probing at every node: a value whose propagation fails is removed",
);
/// Connectivity cuts.
pub const CONNECT: Rule = Rule::optional(
    "connect",
    "whatever every connection of the known parts must use (cut cells, bridges) is used; parts that cannot join are a conflict",
);
/// Premature loops.
pub const LOOPS: Rule = Rule::optional(
    "loops",
    "the link that would close a chain into a premature loop is off",
);
/// Cut parity.
pub const CUTS: Rule = Rule::optional(
    "cuts",
    "a line crosses each row and column cut an even number of times (one more for a path with one end on each side)",
);

/// The line toolkit's optional rules ([`crate::lines::LineRules`]), for a line genre's table.
/// `loops` and `connect` run inside the `chains` and `connect` propagators.
pub const LINE_RULES: [Rule; 4] = [LOOPS, CONNECT, CUTS, PROBE];
/// The line toolkit's defining rules (a genre adds its clues).
pub const LINE_DEFINITION: [Rule; 2] = [
    Rule::defining(
        "degree",
        "a cell of the line has two used links (an end one), any other none",
    ),
    Rule::defining("chains", "the used links form chains; a premature loop is a conflict"),
];
/// The shading toolkit's optional rules ([`crate::shading::ShadeRules`]). `connect` is the
/// articulation part of the `connected` propagator.
pub const SHADE_RULES: [Rule; 2] = [
    CONNECT.saying("a cell that every connection of the known parts of a group must use takes the group's colour (runs inside `connected`)"),
    PROBE,
];

/// The rules of a region genre's engine model (core's all-different rules and probing):
/// Ripple Effect's table, and the pattern of Suguru's and Sudoku's.
pub static REGION_TABLE: RuleTable = RuleTable {
    algorithm: "fast",
    rules: &[NAKED_SINGLE, HIDDEN_SINGLE, POINTING, NAKED_PAIR, HIDDEN_PAIR, PROBE],
};

/// A family's rules, for the algorithm that switches them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RuleTable {
    /// The algorithm whose `--set rules=…` switches them (usually the default).
    pub algorithm: &'static str,
    /// Every rule, defining ones first.
    pub rules: &'static [Rule],
}

/// Which rules are on (the result of [`RuleTable::parse`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesOn(Vec<(&'static str, bool)>);

impl RulesOn {
    /// Is the rule `name` on? (Defining rules always are; unknown names are not.)
    pub fn has(&self, name: &str) -> bool {
        self.0.iter().any(|&(n, on)| n == name && on)
    }
    /// The rules on, in the table's order.
    pub fn names(&self) -> Vec<&'static str> {
        self.0.iter().filter(|(_, on)| *on).map(|(n, _)| *n).collect()
    }
    /// The all-different rules of [`crate::constraints::Distinct`] these switch on:
    /// `hidden-single`, `pointing`, and `naked-pair`/`hidden-pair` as naked and hidden
    /// subsets up to `subsets` cells or values (2: pairs, 3: pairs and triples).
    pub fn distinct(&self, subsets: u8) -> crate::constraints::DistinctRules {
        crate::constraints::DistinctRules {
            hidden_single: self.has("hidden-single"),
            pointing: self.has("pointing"),
            naked_subsets: if self.has("naked-pair") { subsets } else { 0 },
            hidden_subsets: if self.has("hidden-pair") { subsets } else { 0 },
            by_size: false,
        }
    }
    fn flag<'x>(&'x mut self, name: &str) -> Option<&'x mut bool> {
        self.0.iter_mut().find(|(n, _)| *n == name).map(|(_, on)| on)
    }
}

impl RuleTable {
    /// The optional rules.
    pub fn optional(&self) -> impl Iterator<Item = &Rule> {
        self.rules.iter().filter(|r| r.is_optional())
    }
    /// The defining rules.
    pub fn defining(&self) -> impl Iterator<Item = &Rule> {
        self.rules.iter().filter(|r| !r.is_optional())
    }
    /// The rule called `name`.
    pub fn get(&self, name: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.name == name)
    }
    fn set(&self, on: impl Fn(&Rule) -> bool) -> RulesOn {
        RulesOn(self.rules.iter().map(|r| (r.name, !r.is_optional() || on(r))).collect())
    }
    /// The default set.
    pub fn default_set(&self) -> RulesOn {
        self.set(|r| r.role == Role::Optional)
    }
    /// The rules the `rules` setting of `opts` asks for ([`RuleTable::parse`]; a bad list is
    /// the family's error).
    pub fn of(&self, opts: &crate::puzzle::RunOptions) -> Result<RulesOn, crate::error::PuzzleError> {
        self.parse(opts.setting("rules"))
            .map_err(crate::error::PuzzleError::unsupported)
    }
    /// Reads a rule list (`None`: the default set). Switching a defining rule is refused
    /// with a message that says so; so is an unknown name (the message lists the rules).
    pub fn parse(&self, spec: Option<&str>) -> Result<RulesOn, String> {
        let Some(spec) = spec else {
            return Ok(self.default_set());
        };
        let names: Vec<&str> = self.optional().map(|r| r.name).collect();
        for item in spec.split(',').map(str::trim) {
            let name = item.trim_start_matches(['-', '+']);
            if self.get(name).is_some_and(|r| !r.is_optional()) {
                return Err(format!(
                    "`{name}` defines the puzzle and cannot be switched; the optional rules are {}",
                    names.join(", ")
                ));
            }
        }
        let sw = Switches {
            default: self.default_set(),
            none: self.set(|_| false),
            presets: vec![
                ("all", self.set(|_| true)),
                ("none", self.set(|_| false)),
                ("default", self.default_set()),
            ],
            names: &names,
        };
        let flag: switches::Flag<RulesOn> = |set, name| {
            // Only optional rules are switches (defining ones were refused above).
            set.flag(name)
        };
        switches::parse(spec, &sw, flag, |_, key, value| {
            Err(format!("unknown setting `{key}={value}` in the rule list"))
        })
    }
}

/// The `rules` setting's help line for families whose rules a [`RuleTable`] lists.
pub const RULES_SETTING: crate::puzzle::SettingInfo = crate::puzzle::SettingInfo {
    key: "rules",
    summary:
        "the optional rules (`pencilbox list` names them): all, none, default, or changes such as -pointing,+probe",
};

/// The `learn` setting of the families that search on the engine (`pencilbox list`).
pub const LEARN_SETTING: crate::puzzle::SettingInfo = crate::puzzle::SettingInfo {
    key: "learn",
    summary: "conflict-driven learning in the engine search: auto (default: on after a budget of nodes, fewer on larger grids; auto:N after N), on, or off",
};

/// The `decide` setting that goes with [`LEARN_SETTING`].
pub const DECIDE_SETTING: crate::puzzle::SettingInfo = crate::puzzle::SettingInfo {
    key: "decide",
    summary: "with learning, branch on the most active variable (activity, default) or as the model does (model)",
};

/// The settings of a region family on the engine: its rule list, and learning
/// ([`crate::learning`]).
pub const ENGINE_SETTINGS: &[crate::puzzle::SettingInfo] = &[RULES_SETTING, LEARN_SETTING, DECIDE_SETTING];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_learning_settings_describe_the_defaults_in_force() {
        let l = crate::learning::Learning::default();
        assert_eq!(l.mode, crate::learning::LearnMode::Auto);
        assert!(LEARN_SETTING.summary.contains("auto (default"));
        assert!(l.auto_after.is_none() && LEARN_SETTING.summary.contains("fewer on larger grids"));
        let default = if l.activity {
            "(activity, default)"
        } else {
            "(model, default)"
        };
        assert!(DECIDE_SETTING.summary.contains(default), "{}", DECIDE_SETTING.summary);
    }

    static T: RuleTable = RuleTable {
        algorithm: "fast",
        rules: &[NAKED_SINGLE, HIDDEN_SINGLE, POINTING.off_by_default(), PROBE],
    };

    #[test]
    fn default_set_has_the_rules_on_by_default_and_the_defining_ones() {
        assert_eq!(
            T.parse(None).unwrap().names(),
            ["naked-single", "hidden-single", "probe"]
        );
        assert_eq!(T.parse(Some("default")).unwrap(), T.parse(None).unwrap());
    }

    #[test]
    fn none_keeps_only_defining_rules_and_plus_adds_one() {
        assert_eq!(T.parse(Some("none")).unwrap().names(), ["naked-single"]);
        assert_eq!(
            T.parse(Some("none,+pointing")).unwrap().names(),
            ["naked-single", "pointing"]
        );
        assert_eq!(
            T.parse(Some("all,-probe")).unwrap().names(),
            ["naked-single", "hidden-single", "pointing"]
        );
    }

    #[test]
    fn unknown_and_defining_rules_are_refused_with_the_list() {
        let e = T.parse(Some("-speed")).unwrap_err();
        assert!(e.contains("hidden-single, pointing, probe"), "{e}");
        assert!(T
            .parse(Some("naked-single"))
            .unwrap_err()
            .contains("defines the puzzle"));
    }
}
