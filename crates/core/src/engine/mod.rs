//! The shared engine: variables with [`Domain`](crate::Domain)s, named propagators run to a
//! fixpoint by a priority queue, one trail for every undo, failed-value probing, branching
//! rules, restarts and an explanation log — the layer every default solver of pencilbox is a
//! model on.
//!
//! # Background
//! A puzzle is *modelled* as variables (a Suguru cell's number, a Path link's "used or not")
//! and constraints (a region is a permutation of `1..=size`; a clued row visits exactly `k`
//! cells). Each constraint is a [`Propagator`] that removes values no solution can use; after
//! each decision the [`Engine`] runs the propagators woken by the changes until nothing
//! changes (the *fixpoint*). An empty domain is a conflict, and the search backtracks. This is
//! the architecture of constraint solvers such as Gecode and Pumpkin, and of the puzzle
//! solvers built on them (cspuz_core models a puzzle in a few dozen lines on such a layer).
//!
//! # Practical
//! * **Variables** ([`VarId`]) hold a `Domain` (values `1..=64`). Booleans are variables over
//!   `{FALSE, TRUE}` ([`BOOL`]). **Trailed integers** ([`IntId`]) hold reversible propagator
//!   state (counters, chain ends).
//! * **One trail** ([`crate::trail::Trail`]) records every domain change, every trailed integer
//!   change and the explanation log's length; [`Engine::push_level`] / [`Engine::pop_level`]
//!   open and undo a decision level.
//! * **Propagators** are named; the name is the rule's name in `--set rules=...`, in
//!   statistics ([`Engine::rule_stats`]) and in explanations. Each has a [`Priority`]; the
//!   queue always runs the lowest non-empty level first, so singles reach their fixpoint before
//!   pairs are looked for, and reachability runs last.
//! * **Search** ([`EngineSearch`]) is a [`Backtrack`](crate::search::Backtrack) state for core's
//!   driver: root propagation, failed-value [`Probe`]s at every node (a value that an earlier
//!   successful probe of the same pass already fixed is not probed again: it would succeed and
//!   teach nothing), then a [`Brancher`]
//!   ([`SmallestDomain`] or a model's own). [`solve_restarting`] adds Luby
//!   restarts; [`crate::search::race`] runs several branchings against each other.
//! * **Limits** ([`Engine::set_limits`]): the deadline and cancellation flag are polled by
//!   elapsed work inside propagation (every few propagator runs, and inside long propagators
//!   through [`Context::should_stop`]), so a deadline holds even when one node is expensive.
//! * **Learning** ([`learn`], `--set learn=on|auto`): conflict-driven clause learning on the
//!   same trail — 1-UIP analysis over the explanation log's premises, learned nogoods with two
//!   watched literals, VSIDS, Luby restarts and LBD-based deletion, inside the core driver
//!   through its lazy-successor hook; blocking clauses keep counts exact.
//! * **Explanations** ([`Engine::explain`]): when on, every domain change is recorded as part of
//!   a [`Step`]: the rule, the premises it rested on and what it removed. When off, a change
//!   costs one `Option` test more.
//!
//! # How to add a constraint
//! 1. Write a struct holding the variables (and any immutable data) and implement
//!    [`Propagator`]: `name` and a from-scratch `propagate` that removes values (through
//!    [`Context::restrict`] and friends) and returns `Err(Conflict)` when the constraint is
//!    violated — in particular when all its variables are fixed and it does not hold. That is
//!    already correct: without watches it is woken by every change.
//! 2. For speed, declare watches in [`Propagator::init`] and do only the work the events call
//!    for in [`Propagator::notify`] and [`Propagator::incremental`]; keep reversible counters in
//!    trailed integers. A watch can ask only for the removals that matter
//!    ([`Init::watch_removal`]: a Boolean becoming true), wake the propagator without a call
//!    ([`Init::wake_on_removal`]: a reachability check run from scratch), or just hand it the
//!    tags of what changed ([`Init::watch_buffered`], read with [`Context::events`]). A
//!    propagator that reaches its own fixpoint in one run and counts its own changes declares
//!    itself [`Propagator::idempotent`] and is not told of them. Test it against `propagate` from scratch (the `test-support` feature's
//!    checks do) and against brute force.
//! 3. When explanations are on ([`Context::explaining`]), call [`Context::because`] with the
//!    facts a step rests on before making its changes.
//! 4. Post it with [`Engine::post`]. Reusable constraints live in [`crate::constraints`].
//!
//! # Bibliography
//! * C. Bessière, "Constraint propagation", *Handbook of Constraint Programming*, 2006 —
//!   fixpoint propagation with event queues.
//! * Pumpkin (ConSol-Lab): a propagator requires only a name and `propagate_from_scratch`;
//!   incremental hooks are optional.
//! * R. Debruyne and C. Bessière, "Some practicable filtering techniques for the constraint
//!   satisfaction problem", IJCAI 1997 — singleton consistency (probing).
//! * F. Boussemart, F. Hemery, C. Lecoutre, L. Sais, "Boosting systematic search by weighting
//!   constraints", ECAI 2004 — dom/wdeg.
//! * M. Luby, A. Sinclair, D. Zuckerman, "Optimal speedup of Las Vegas algorithms", IPL 47,
//!   1993 — the restart sequence.

mod explain;
pub mod learn;
mod propagation;
mod propagator;
mod search;
mod store;

pub use explain::{Change, Failure, Focus, Log, Premise, Step, StepKind};
pub use propagation::{Engine, PropId, RuleStats, TIME_SAMPLE};
pub use propagator::{Init, Priority, Propagator};
pub use search::{luby, solve_restarting, Brancher, Decision, EngineSearch, Passes, Probe, Reseed, SmallestDomain};
pub use store::{Conflict, Context, IntId, Ints, VarId, BOOL, FALSE, TRUE};

#[cfg(test)]
mod tests;
