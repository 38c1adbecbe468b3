//! Any engine model as Boolean formulas: CNF for SAT solvers (DIMACS), pseudo-Boolean
//! constraints (OPB) and a 0–1 linear program (CPLEX LP), and a CDCL search on them
//! (`--algorithm sat`, [`sat_search`](crate::sat::sat_search)).
//!
//! # Background
//! The Suguru playground manual (Appendix A) solves a Suguru with a SAT solver: one literal
//! per cell and value, "exactly one value per cell", "each value once per region" and "touching
//! cells differ". The MIP model (`suguru-mip-model.txt`) is the same as 0–1 linear rows
//! (`Σ_v x[c,v] = 1`, `Σ_{c∈R} x[c,v] = 1`, `x[c,v] + x[d,v] ≤ 1`) and proves uniqueness by
//! adding a cut that excludes the solution found and solving again. Both are *this* module
//! applied to the engine model every family already builds: the model's meaning is its
//! variables and its constraints, so each constraint of the library writes its own rows.
//!
//! # Practical
//! * [`Encoder::new`] makes the literals of the engine's variables from their domains: a
//!   Boolean variable is one literal (true = [`crate::engine::TRUE`]); any other variable
//!   gets one literal per value of its domain and an *exactly one* row.
//! * [`Engine::encode`](crate::engine::Engine::encode) asks every posted propagator for its
//!   rows through [`Propagator::encode`](crate::engine::Propagator::encode). A propagator
//!   answers [`Encoded::Posted`] (it wrote its rows), [`Encoded::Implied`] (a deduction that the
//!   defining constraints already imply: `pointing`, `connect`, Nishio) or
//!   [`Encoded::Unsupported`] (the default): a model with such a constraint cannot be
//!   encoded, and says which rule is missing (no panic).
//! * Rows are [`Constraint`]s: clauses, linear rows `Σ a·ℓ ⋈ k`, parities and the
//!   conditional order `c → A < B` of two binary numbers. [`Encoder::cnf`] turns them into
//!   clauses (rustsat's encodings for cardinality and pseudo-Boolean rows: at-most-one by
//!   pairwise or commander encodings, anything larger by its default totalizer / generalized
//!   totalizer; Tseitin chains for parities; a lexicographic comparator for orders);
//!   [`Encoder::opb`] and [`Encoder::lp`] keep linear rows linear (an order becomes the
//!   Miller–Tucker–Zemlin row `Σ2ⁱbᵢ − Σ2ⁱaᵢ + 2ᵏ·¬c ≥ 1`, a parity `Σℓ − 2·Σ2ⁱkᵢ = odd`).
//!
//! # How a constraint encodes itself
//! Implement `encode` next to `propagate`: read literals with [`Encoder::is`] (`None` when the
//! value is not in the variable's initial domain, i.e. the literal is false) and add rows with
//! [`Encoder::clause`], [`Encoder::linear`], [`Encoder::parity`] or [`Encoder::less`]; make
//! auxiliary literals with [`Encoder::new_lit`]. The rows must have exactly the solutions of the
//! constraint on the variables (auxiliary literals may take any values that satisfy them):
//! counting by blocking clauses over the engine's variables relies on it.
//!
//! # Bibliography
//! * The Suguru playground manual, Appendix A (the CNF); the Suguru MIP model and its
//!   uniqueness cut (`../shared/papers/`).
//! * C. Sinz, "Towards an optimal CNF encoding of Boolean cardinality constraints", CP 2005;
//!   O. Bailleux, Y. Boufkhad, "Efficient CNF encoding of Boolean cardinality constraints", CP
//!   2003 (the totalizer) — as implemented by the rustsat crate.
//! * C. E. Miller, A. W. Tucker, R. A. Zemlin, "Integer programming formulation of traveling
//!   salesman problems", JACM 7, 1960 — order (rank) variables that forbid detached cycles.

mod cnf;
mod linear;

pub use cnf::Cnf;

use crate::domain::Domain;
use crate::var::{VarId, BOOL, TRUE};
pub use rustsat::types::Lit;
use std::fmt;

/// A file format of [`Encoder::write`] (`pencilbox export --format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// DIMACS CNF.
    Dimacs,
    /// CPLEX LP.
    Lp,
    /// OPB (pseudo-Boolean).
    Opb,
}

impl ExportFormat {
    /// The format named `name` (`dimacs`, `cnf`, `lp`, `opb`).
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "dimacs" | "cnf" => Some(ExportFormat::Dimacs),
            "lp" => Some(ExportFormat::Lp),
            "opb" => Some(ExportFormat::Opb),
            _ => None,
        }
    }
}

/// How a linear row compares its sum with its right-hand side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    /// `≤`
    Le,
    /// `≥`
    Ge,
    /// `=`
    Eq,
}

/// One row of a formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constraint {
    /// At least one of the literals is true.
    Clause(Vec<Lit>),
    /// `Σ coefficient · literal ⋈ rhs` (a literal counts 1 when true).
    Linear {
        /// `(literal, coefficient)` pairs.
        terms: Vec<(Lit, i64)>,
        /// The comparison.
        cmp: Cmp,
        /// The right-hand side.
        rhs: i64,
    },
    /// An odd (`odd`) or even number of the literals are true.
    Parity {
        /// The literals.
        lits: Vec<Lit>,
        /// True: odd.
        odd: bool,
    },
    /// When `cond` is true, the number with bits `a` is less than the number with bits `b`
    /// (bits least significant first, equally many).
    Less {
        /// The condition.
        cond: Lit,
        /// The smaller number's bits.
        a: Vec<Lit>,
        /// The larger number's bits.
        b: Vec<Lit>,
    },
}

/// What a propagator's [`encode`](crate::engine::Propagator::encode) did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoded {
    /// It added the rows that define its constraint.
    Posted,
    /// It is a deduction implied by the model's defining constraints: nothing to add.
    Implied,
    /// It has no encoding: the model cannot be written as a formula.
    Unsupported,
}

/// A model that cannot be encoded: the rule without an encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// The rule's name.
    pub rule: &'static str,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the rule `{}` has no SAT/LP encoding", self.rule)
    }
}

/// How an engine variable is named and read in a formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VarInfo {
    /// Its name (`r3c1`, `r2c3-r2c4`).
    pub name: String,
    /// True for a yes/no variable (one literal, named by the variable's name); false for a
    /// number (one literal per value, named `name=value`).
    pub boolean: bool,
}

/// The literals of one engine variable.
#[derive(Clone, Debug)]
enum VarLits {
    /// One literal: true ⇔ the variable is [`TRUE`].
    Bool(Lit),
    /// One literal per value of the initial domain.
    Values(Vec<(u32, Lit)>),
}

/// A constraint checked on each model instead of encoded in full (`--algorithm sat` only):
/// it returns the clauses a model violates (none: the model satisfies it). Each clause must
/// hold in every solution of the constraint, so adding it loses none.
pub trait LazyCheck: Send + Sync {
    /// The clauses `truth` violates.
    fn cuts(&self, truth: &dyn Fn(Lit) -> bool) -> Vec<Vec<Lit>>;
}

/// A formula under construction over an engine model's variables (see the module docs).
#[derive(Clone)]
pub struct Encoder {
    /// The name of each formula variable (by index); empty for unnamed auxiliaries.
    names: Vec<String>,
    /// The literals of each engine variable.
    vars: Vec<VarLits>,
    /// The initial domains.
    domains: Vec<Domain>,
    rows: Vec<Constraint>,
    /// Whether constraints may be checked lazily ([`Encoder::lazy`]).
    lazy_ok: bool,
    lazy: Vec<std::sync::Arc<dyn LazyCheck>>,
}

impl fmt::Debug for Encoder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Encoder")
            .field("vars", &self.names.len())
            .field("rows", &self.rows.len())
            .field("lazy", &self.lazy.len())
            .finish()
    }
}

impl Encoder {
    /// The literals of variables with these domains, named by `info`, and each number's
    /// *exactly one value* row (a fixed variable gets a unit clause).
    pub fn new(domains: &[Domain], mut info: impl FnMut(VarId) -> VarInfo) -> Self {
        let mut e = Encoder {
            names: Vec::new(),
            vars: Vec::with_capacity(domains.len()),
            domains: domains.to_vec(),
            rows: Vec::new(),
            lazy_ok: false,
            lazy: Vec::new(),
        };
        for (i, &d) in domains.iter().enumerate() {
            let VarInfo { name, boolean } = info(VarId::from_index(i));
            if boolean && d.and(BOOL) == d {
                let x = e.new_lit(name);
                e.vars.push(VarLits::Bool(x));
                match d.value() {
                    Some(v) => e.clause(vec![if v == TRUE { x } else { !x }]),
                    None if d.is_empty() => e.clause(Vec::new()),
                    None => {}
                }
            } else {
                let lits: Vec<(u32, Lit)> = d.iter().map(|v| (v, e.new_lit(format!("{name}={v}")))).collect();
                let terms = lits.iter().map(|&(_, l)| (l, 1)).collect();
                e.vars.push(VarLits::Values(lits));
                e.linear(terms, Cmp::Eq, 1);
            }
        }
        e
    }

    /// The same formula builder, allowing constraints to be checked lazily on each model
    /// ([`LazyCheck`]) rather than written in full: for solving, never for export.
    pub fn allowing_lazy(mut self) -> Self {
        self.lazy_ok = true;
        self
    }
    /// May a constraint register a [`LazyCheck`] instead of its full rows?
    pub fn lazy_allowed(&self) -> bool {
        self.lazy_ok
    }
    /// Registers a lazy check (only when [`Encoder::lazy_allowed`]).
    pub fn lazy(&mut self, check: std::sync::Arc<dyn LazyCheck>) {
        self.lazy.push(check);
    }
    /// The clauses the lazy checks find violated by `truth`.
    pub fn lazy_cuts(&self, truth: &dyn Fn(Lit) -> bool) -> Vec<Vec<Lit>> {
        self.lazy.iter().flat_map(|c| c.cuts(truth)).collect()
    }
    /// The literal "`var` takes `value`"; `None` when `value` is not in its initial domain
    /// (the literal is false). For a Boolean, `is(x, FALSE)` is the negation of `is(x, TRUE)`.
    pub fn is(&self, var: VarId, value: u32) -> Option<Lit> {
        match &self.vars[var.index()] {
            VarLits::Bool(x) => match value {
                TRUE => Some(*x),
                crate::var::FALSE => Some(!*x),
                _ => None,
            },
            VarLits::Values(lits) => lits.iter().find(|&&(v, _)| v == value).map(|&(_, l)| l),
        }
    }
    /// The initial domain of `var`.
    pub fn domain(&self, var: VarId) -> Domain {
        self.domains[var.index()]
    }
    /// A new literal (an auxiliary when `name` is empty).
    pub fn new_lit(&mut self, name: impl Into<String>) -> Lit {
        self.names.push(name.into());
        Lit::positive(self.names.len() as u32 - 1)
    }
    /// Adds a clause (empty: the formula is unsatisfiable).
    pub fn clause(&mut self, lits: Vec<Lit>) {
        self.rows.push(Constraint::Clause(lits));
    }
    /// Adds `Σ terms ⋈ rhs`.
    pub fn linear(&mut self, terms: Vec<(Lit, i64)>, cmp: Cmp, rhs: i64) {
        self.rows.push(Constraint::Linear { terms, cmp, rhs });
    }
    /// Adds "an odd (`odd`) or even number of `lits` are true".
    pub fn parity(&mut self, lits: Vec<Lit>, odd: bool) {
        self.rows.push(Constraint::Parity { lits, odd });
    }
    /// Adds "when `cond`, the number with bits `a` is less than the one with bits `b`".
    pub fn less(&mut self, cond: Lit, a: Vec<Lit>, b: Vec<Lit>) {
        self.rows.push(Constraint::Less { cond, a, b });
    }
    /// Number of formula variables (named and auxiliary) before any CNF encoding.
    pub fn num_lits(&self) -> usize {
        self.names.len()
    }
    /// The name of a formula variable (empty for auxiliaries).
    pub fn name(&self, var_index: usize) -> &str {
        &self.names[var_index]
    }
    /// The rows.
    pub fn rows(&self) -> &[Constraint] {
        &self.rows
    }
    /// Number of engine variables.
    pub fn num_engine_vars(&self) -> usize {
        self.vars.len()
    }
    /// The value of engine variable `var` under an assignment of the formula's variables
    /// (`None` when the assignment gives it no value or several).
    pub fn value(&self, var: VarId, truth: impl Fn(Lit) -> bool) -> Option<u32> {
        match &self.vars[var.index()] {
            VarLits::Bool(x) => Some(if truth(*x) { TRUE } else { crate::var::FALSE }),
            VarLits::Values(lits) => {
                let mut on = lits.iter().filter(|&&(_, l)| truth(l));
                let first = on.next()?;
                on.next().is_none().then_some(first.0)
            }
        }
    }
    /// The formula in `format`, with `header` as comment lines.
    pub fn write(&self, format: ExportFormat, header: &[String]) -> String {
        match format {
            ExportFormat::Dimacs => self.cnf().dimacs(self, header),
            ExportFormat::Lp => self.lp(header),
            ExportFormat::Opb => self.opb(header),
        }
    }
    /// A formula without solutions, in any format (one variable `unsat` and the clauses
    /// `unsat`, `¬unsat`): what a puzzle proved unsolvable before any model exports.
    pub fn unsatisfiable() -> Self {
        let mut e = Encoder::new(&[], |_| unreachable_name());
        let x = e.new_lit("unsat");
        e.clause(vec![x]);
        e.clause(vec![!x]);
        e
    }
    /// The literals that are true when every engine variable takes `values[i]` (one per
    /// variable: the positive literal of its value, or a Boolean's literal with its sign).
    pub fn assignment_lits(&self, values: &[u32]) -> Vec<Lit> {
        (0..self.vars.len())
            .filter_map(|i| self.is(VarId::from_index(i), values[i]))
            .collect()
    }
}

/// Never called: [`Encoder::unsatisfiable`] has no engine variables to name.
fn unreachable_name() -> VarInfo {
    VarInfo {
        name: String::new(),
        boolean: true,
    }
}

#[cfg(test)]
mod tests;
