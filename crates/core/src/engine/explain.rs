//! Explanations as data: every domain change, with the rule that made it and the facts it
//! rested on.
//!
//! When [`Engine::explain`](super::Engine::explain) is on, the engine records a [`Step`] for
//! every deduction: the rule (the propagator's name, or a technique name the propagator gives),
//! its premises ("this variable's domain was within these values") and the values it removed.
//! Decisions of the search and the conclusions of probing are steps too, marked by their
//! [`StepKind`]. The log follows the trail: backtracking drops the steps made above the level,
//! so at a solution the log is the chain of reasoning of that branch.
//!
//! When the log is off, recording costs one test of an `Option` per domain change.

use super::store::VarId;
use crate::domain::Domain;
use serde::Serialize;

/// A fact a step rested on: the domain of `var` was within `dom` (`{v}`: "`var` = v";
/// everything but `v`: "`var` ≠ v").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Premise {
    /// The variable.
    pub var: VarId,
    /// The values it could still take, at most.
    pub dom: Domain,
}

impl Premise {
    /// "`var` = `value`".
    pub fn is(var: VarId, value: u32) -> Self {
        Premise {
            var,
            dom: Domain::single(value),
        }
    }
    /// "`var` ≠ `value`".
    pub fn not(var: VarId, value: u32) -> Self {
        Premise {
            var,
            dom: Domain::ALL.without(value),
        }
    }
    /// "`var` takes one of `dom`".
    pub fn within(var: VarId, dom: Domain) -> Self {
        Premise { var, dom }
    }
}

/// Values removed from a variable by a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The variable.
    pub var: VarId,
    /// The values it lost.
    pub removed: Domain,
}

/// What kind of step it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// A rule deduced it.
    Deduction,
    /// The search guessed it (a branch of a decision).
    Decision,
    /// Probing: assuming the opposite led the rules to a contradiction.
    Probe,
}

/// One step of reasoning.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The rule's name.
    pub rule: &'static str,
    /// The propagator that made it (its name; [`Step::rule`] may be a technique it named).
    #[serde(skip)]
    pub by: &'static str,
    /// Deduction, decision or probe.
    pub kind: StepKind,
    /// The facts it rested on (may be empty when the rule gave none).
    pub premises: Vec<Premise>,
    /// What it removed.
    pub changes: Vec<Change>,
    /// What the technique is about, when its propagator says so
    /// ([`Context::focus`](super::Context::focus)): pointing's places of the value, a subset's
    /// cells.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub focus: Option<Focus>,
}

/// What a step's technique is about: the cells a value is confined to (pointing), the cells
/// of a subset, with the value when there is one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Focus {
    /// The cells.
    pub cells: Vec<VarId>,
    /// The value they are about.
    pub value: Option<u32>,
    /// The group (region, row, …) they lie in.
    pub group: Vec<VarId>,
}

/// The step a rule was making when it found a contradiction (its premises are the facts the
/// contradiction rests on), kept by the log at a failed propagation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The failing rule's step: its rule and the premises of the failing deduction (none when
    /// the rule gave none).
    pub step: Step,
    /// The variable that would have lost its last value, when the contradiction is an empty
    /// domain.
    pub emptied: Option<VarId>,
}

/// The explanation log.
#[derive(Clone, Debug, Default)]
pub struct Log {
    pub(crate) steps: Vec<Step>,
    /// The last step accepts further changes of its rule.
    open: bool,
    /// The last contradiction ([`Log::fail`]).
    pub(crate) failure: Option<Failure>,
}

impl Log {
    /// The steps so far.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Records a change of `rule`: into the open step (opened by the running rule, possibly
    /// under a technique name of its own, see `Context::because_rule`), otherwise as a new
    /// step without premises.
    #[inline]
    pub(crate) fn record(&mut self, rule: &'static str, change: Change) {
        match self.steps.last_mut() {
            Some(s) if self.open => s.changes.push(change),
            _ => {
                self.steps.push(Step {
                    rule,
                    by: rule,
                    kind: StepKind::Deduction,
                    premises: Vec::new(),
                    changes: vec![change],
                    focus: None,
                });
                self.open = true;
            }
        }
    }

    /// Starts a step; the changes that follow go into it until the next step or [`Log::close`].
    pub(crate) fn open(&mut self, step: Step) {
        self.drop_empty();
        self.steps.push(step);
        self.open = true;
    }

    /// Sets what the open step is about.
    pub(crate) fn focus(&mut self, focus: Focus) {
        if let Some(s) = self.steps.last_mut().filter(|_| self.open) {
            s.focus = Some(focus);
        }
    }

    /// Keeps the step `rule` was making when it failed (the open step, or an empty one of
    /// `rule` when it opened none) as the log's [`Failure`], out of the steps.
    pub(crate) fn fail(&mut self, rule: &'static str, emptied: Option<VarId>) {
        // An open step is the running rule's (steps are closed at the end of every run). One
        // that changed nothing was opened for the failing deduction: its premises are the
        // contradiction's. One that changed something was an earlier deduction of the same
        // run, and stays: the rule failed without saying why.
        let step = match self.steps.last() {
            Some(s) if self.open && s.changes.is_empty() => self.steps.pop(),
            _ => None,
        };
        let step = step.unwrap_or(Step {
            rule,
            by: rule,
            kind: StepKind::Deduction,
            premises: Vec::new(),
            changes: Vec::new(),
            focus: None,
        });
        self.open = false;
        self.failure = Some(Failure { step, emptied });
    }

    /// Ends the open step (the end of a propagator's run); drops it when it changed nothing.
    pub(crate) fn close(&mut self) {
        self.drop_empty();
        self.open = false;
    }

    fn drop_empty(&mut self) {
        if self.open && self.steps.last().is_some_and(|s| s.changes.is_empty()) {
            self.steps.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_after_a_step_named_by_the_rule_stay_in_that_step() {
        // `because_rule("naked-pair", ..)` inside the propagator `naked-subset`.
        let mut log = Log::default();
        log.open(Step {
            rule: "naked-pair",
            by: "naked-subset",
            kind: StepKind::Deduction,
            premises: vec![Premise::within(VarId(1), Domain::range(1, 2))],
            changes: Vec::new(),
            focus: None,
        });
        log.record(
            "naked-subset",
            Change {
                var: VarId(0),
                removed: Domain::single(1),
            },
        );
        log.close();
        assert_eq!(log.steps().len(), 1);
        assert_eq!((log.steps()[0].rule, log.steps()[0].changes.len()), ("naked-pair", 1));
    }

    #[test]
    fn a_failure_keeps_the_premises_of_the_failing_deduction_and_no_earlier_step() {
        let step = |premises: Vec<Premise>| Step {
            rule: "sum",
            by: "sum",
            kind: StepKind::Deduction,
            premises,
            changes: Vec::new(),
            focus: None,
        };
        let change = Change {
            var: VarId(0),
            removed: Domain::single(1),
        };
        // Opened for the failing deduction, nothing changed yet: its premises are the reason.
        let mut log = Log::default();
        log.open(step(vec![Premise::is(VarId(1), 2)]));
        log.fail("sum", Some(VarId(3)));
        log.close();
        let f = log.failure.take().expect("kept");
        assert_eq!((f.step.premises.len(), f.emptied), (1, Some(VarId(3))));
        assert!(log.steps().is_empty());
        // An earlier deduction of the same run stays a step; the failure has no reason.
        log.open(step(vec![Premise::is(VarId(1), 2)]));
        log.record("sum", change);
        log.fail("sum", None);
        log.close();
        assert_eq!(log.steps().len(), 1);
        assert!(log.failure.take().expect("kept").step.premises.is_empty());
    }
}
