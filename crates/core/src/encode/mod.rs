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

pub(crate) mod cnf;
mod linear;

pub use cnf::{write_dimacs, Cnf};

use crate::domain::Domain;
use crate::memory::MemoryError;
use crate::search::{Limits, StopReason};
use crate::var::{VarId, BOOL, TRUE};
pub use rustsat::types::Lit;
use std::fmt;

/// Rows and variables between two looks at the limits' clock and cancellation flag while a
/// formula is built ([`Encoder::limited`]).
const POLL_EVERY: u32 = 1024;

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

/// Where a streaming [`Encoder`] sends its variables and rows instead of keeping them
/// ([`Encoder::streaming`]): a formula written as it is made, so that its size is not held
/// in memory (`pencilbox export -f dimacs` on a million-cell grid).
pub trait Sink {
    /// Formula variable `index` (0-based) was made, named `name` (empty: an auxiliary).
    fn var(&mut self, index: u32, name: &str) -> std::io::Result<()>;
    /// A row was added; the formula variables made so far number `vars`.
    fn row(&mut self, row: Constraint, vars: u32) -> std::io::Result<()>;
}

/// Why an [`Encoder`] stopped taking rows: the formula is incomplete and must not be used.
#[derive(Debug)]
pub enum Halt {
    /// The deadline passed or the run was cancelled ([`Encoder::limited`]).
    Limit(StopReason),
    /// The rows and names kept would take more memory than the budget, or the system
    /// refused it.
    Memory(MemoryError),
    /// The [`Sink`] failed (a write error).
    Sink(std::io::Error),
}

impl fmt::Display for Halt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Halt::Limit(StopReason::Cancelled) => f.write_str("cancelled while the formula was built"),
            Halt::Limit(_) => f.write_str("the time limit passed while the formula was built"),
            Halt::Memory(e) => e.fmt(f),
            Halt::Sink(e) => write!(f, "cannot write the formula: {e}"),
        }
    }
}

/// A formula under construction over an engine model's variables (see the module docs).
///
/// It keeps its rows and the names of its variables ([`Encoder::new`]), or hands them to a
/// [`Sink`] as they come ([`Encoder::streaming`]). Under [`Encoder::limited`] it reads the
/// limits' clock every 1024 rows and variables and counts the bytes it keeps
/// against a budget: past either it stops taking rows ([`Encoder::halted`]), so building a
/// formula honours a deadline and a memory budget like building a model does.
pub struct Encoder<'s> {
    /// The name of each formula variable (by index; empty for unnamed auxiliaries), when kept.
    names: Vec<String>,
    /// Formula variables made so far.
    count: u32,
    /// The literals of each engine variable.
    vars: Vec<VarLits>,
    /// The initial domains.
    domains: Vec<Domain>,
    rows: Vec<Constraint>,
    /// Whether constraints may be checked lazily ([`Encoder::lazy`]).
    lazy_ok: bool,
    lazy: Vec<std::sync::Arc<dyn LazyCheck>>,
    /// The receiver of rows and variables, when streaming.
    sink: Option<&'s mut dyn Sink>,
    /// The deadline and cancellation flag polled while building.
    limits: Option<Limits>,
    /// The bytes the kept rows and names may take; `None`: no bound.
    budget: Option<u64>,
    /// The bytes the kept rows and names take (an estimate from their lengths).
    bytes: u64,
    ticks: u32,
    halted: Option<Halt>,
}

impl fmt::Debug for Encoder<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Encoder")
            .field("vars", &self.count)
            .field("rows", &self.rows.len())
            .field("lazy", &self.lazy.len())
            .field("streaming", &self.sink.is_some())
            .field("halted", &self.halted)
            .finish()
    }
}

impl Encoder<'static> {
    /// The literals of variables with these domains, named by `info`, and each number's
    /// *exactly one value* row (a fixed variable gets a unit clause); rows and names kept.
    pub fn new(domains: &[Domain], info: impl FnMut(VarId) -> VarInfo) -> Self {
        Encoder::build(domains, info, None, None, None)
    }

    /// [`Encoder::new`] polling the deadline and cancellation flag of `limits` while the
    /// formula is built, and keeping at most `budget` bytes of rows and names (the caller's
    /// share of [`Limits::memory`]); past either it stops taking rows ([`Encoder::halted`]).
    pub fn limited(
        domains: &[Domain],
        info: impl FnMut(VarId) -> VarInfo,
        limits: &Limits,
        budget: Option<u64>,
    ) -> Self {
        Encoder::build(domains, info, None, Some(limits.clone()), budget)
    }
}

impl<'s> Encoder<'s> {
    /// An encoder that keeps nothing: every variable and row goes to `sink` as it is made (see
    /// [`write_dimacs`]); `limits` are polled while building.
    pub fn streaming(
        domains: &[Domain],
        info: impl FnMut(VarId) -> VarInfo,
        sink: &'s mut dyn Sink,
        limits: &Limits,
    ) -> Self {
        Encoder::build(domains, info, Some(sink), Some(limits.clone()), None)
    }

    fn build(
        domains: &[Domain],
        mut info: impl FnMut(VarId) -> VarInfo,
        sink: Option<&'s mut dyn Sink>,
        limits: Option<Limits>,
        budget: Option<u64>,
    ) -> Self {
        let mut e = Encoder {
            names: Vec::new(),
            count: 0,
            vars: Vec::new(),
            domains: Vec::new(),
            rows: Vec::new(),
            lazy_ok: false,
            lazy: Vec::new(),
            sink,
            limits,
            budget,
            bytes: 0,
            ticks: 0,
            halted: None,
        };
        // One entry per engine variable, asked with `try_reserve`.
        let per_var = (std::mem::size_of::<VarLits>() + std::mem::size_of::<Domain>()) as u64;
        if !e.account(domains.len() as u64 * per_var)
            || e.vars.try_reserve_exact(domains.len()).is_err()
            || e.domains.try_reserve_exact(domains.len()).is_err()
        {
            e.refused(domains.len() as u64 * per_var);
            return e;
        }
        e.domains.extend_from_slice(domains);
        for (i, &d) in domains.iter().enumerate() {
            if e.halted.is_some() {
                break;
            }
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

    /// Why the encoder stopped taking rows, if it did: then the formula is incomplete.
    pub fn halted(&self) -> Option<&Halt> {
        self.halted.as_ref()
    }
    /// Takes the reason the encoder stopped, if it did.
    pub fn take_halt(&mut self) -> Option<Halt> {
        self.halted.take()
    }
    /// Counts `bytes` more kept against the budget; false (and halted) when over it.
    fn account(&mut self, bytes: u64) -> bool {
        self.bytes = self.bytes.saturating_add(bytes);
        match self.budget {
            Some(budget) if self.bytes > budget => {
                self.halted = Some(Halt::Memory(MemoryError {
                    what: "building the formula".into(),
                    needed: self.bytes,
                    budget: Some(budget),
                    refused: false,
                    at_least: true,
                }));
                false
            }
            _ => true,
        }
    }
    /// The system refused `bytes` for the kept rows or names.
    fn refused(&mut self, bytes: u64) {
        self.halted = Some(Halt::Memory(MemoryError {
            what: "building the formula".into(),
            needed: self.bytes.saturating_add(bytes),
            budget: self.budget,
            refused: true,
            at_least: false,
        }));
    }
    /// One unit of building work: every [`POLL_EVERY`] units the limits are read.
    fn tick(&mut self) {
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks % POLL_EVERY == 0 {
            if let Some(r) = self.limits.as_ref().and_then(Limits::interrupted) {
                self.halted = Some(Halt::Limit(r));
            }
        }
    }
    /// Adds a row: to the sink, or kept (counted against the budget, room asked with
    /// `try_reserve`). Nothing once halted.
    fn push(&mut self, row: Constraint) {
        if self.halted.is_some() {
            return;
        }
        self.tick();
        if self.halted.is_some() {
            return;
        }
        if let Some(sink) = &mut self.sink {
            if let Err(e) = sink.row(row, self.count) {
                self.halted = Some(Halt::Sink(e));
            }
            return;
        }
        let bytes = row_bytes(&row);
        if !self.account(bytes) {
            return;
        }
        if self.rows.len() == self.rows.capacity() && self.rows.try_reserve(self.rows.len().max(64)).is_err() {
            self.refused(bytes);
            return;
        }
        self.rows.push(row);
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
        // A halted encoder may hold fewer variables: its formula is never used.
        match self.vars.get(var.index())? {
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
        self.domains.get(var.index()).copied().unwrap_or(Domain::EMPTY)
    }
    /// A new literal (an auxiliary when `name` is empty).
    pub fn new_lit(&mut self, name: impl Into<String>) -> Lit {
        let index = self.count;
        self.count += 1;
        if self.halted.is_none() {
            self.tick();
        }
        if self.halted.is_none() {
            let name = name.into();
            if let Some(sink) = &mut self.sink {
                if let Err(e) = sink.var(index, &name) {
                    self.halted = Some(Halt::Sink(e));
                }
            } else {
                let bytes = (std::mem::size_of::<String>() + name.len()) as u64;
                if self.account(bytes) {
                    if self.names.len() == self.names.capacity()
                        && self.names.try_reserve(self.names.len().max(64)).is_err()
                    {
                        self.refused(bytes);
                    } else {
                        self.names.push(name);
                    }
                }
            }
        }
        Lit::positive(index)
    }
    /// Adds a clause (empty: the formula is unsatisfiable).
    pub fn clause(&mut self, lits: Vec<Lit>) {
        self.push(Constraint::Clause(lits));
    }
    /// Adds `Σ terms ⋈ rhs`.
    pub fn linear(&mut self, terms: Vec<(Lit, i64)>, cmp: Cmp, rhs: i64) {
        self.push(Constraint::Linear { terms, cmp, rhs });
    }
    /// Adds "an odd (`odd`) or even number of `lits` are true".
    pub fn parity(&mut self, lits: Vec<Lit>, odd: bool) {
        self.push(Constraint::Parity { lits, odd });
    }
    /// Adds "when `cond`, the number with bits `a` is less than the one with bits `b`".
    pub fn less(&mut self, cond: Lit, a: Vec<Lit>, b: Vec<Lit>) {
        self.push(Constraint::Less { cond, a, b });
    }
    /// Number of formula variables (named and auxiliary) before any CNF encoding.
    pub fn num_lits(&self) -> usize {
        self.count as usize
    }
    /// The name of a formula variable (empty for auxiliaries, and when names are not kept:
    /// streaming, or halted).
    pub fn name(&self, var_index: usize) -> &str {
        self.names.get(var_index).map_or("", String::as_str)
    }
    /// The bytes the kept rows and names take, estimated from their lengths.
    pub fn kept_bytes(&self) -> u64 {
        self.bytes
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
        match self.vars.get(var.index())? {
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
        let mut out = Vec::new();
        // Writing into memory cannot fail.
        let _ = self.write_to(format, header, &mut out);
        String::from_utf8(out).unwrap_or_default()
    }
    /// [`Encoder::write`] to a writer, row by row (the formula's text is not held).
    pub fn write_to(
        &self,
        format: ExportFormat,
        header: &[String],
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
        match format {
            ExportFormat::Dimacs => self
                .cnf()
                .map_err(|e| std::io::Error::new(std::io::ErrorKind::OutOfMemory, e.to_string()))?
                .dimacs_to(self, header, &mut out)?,
            ExportFormat::Lp => self.lp_to(header, &mut out)?,
            ExportFormat::Opb => self.opb_to(header, &mut out)?,
        }
        std::io::Write::flush(&mut out)
    }
}

impl Encoder<'static> {
    /// A formula without solutions, in any format (one variable `unsat` and the clauses
    /// `unsat`, `¬unsat`): what a puzzle proved unsolvable before any model exports.
    pub fn unsatisfiable() -> Self {
        let mut e = Encoder::new(&[], |_| unreachable_name());
        let x = e.new_lit("unsat");
        e.clause(vec![x]);
        e.clause(vec![!x]);
        e
    }
}

impl Encoder<'_> {
    /// The literals that are true when every engine variable takes `values[i]` (one per
    /// variable: the positive literal of its value, or a Boolean's literal with its sign).
    pub fn assignment_lits(&self, values: &[u32]) -> Vec<Lit> {
        (0..self.vars.len())
            .filter_map(|i| self.is(VarId::from_index(i), values[i]))
            .collect()
    }
}

/// Counts the bytes a kept formula takes, keeping nothing ([`formula_size`]).
#[derive(Default)]
struct Measure {
    rows: u64,
    vars: u64,
}

impl Sink for Measure {
    fn var(&mut self, _: u32, name: &str) -> std::io::Result<()> {
        self.vars += 1;
        self.rows += (std::mem::size_of::<String>() + name.len()) as u64;
        Ok(())
    }
    fn row(&mut self, row: Constraint, _: u32) -> std::io::Result<()> {
        self.rows += row_bytes(&row);
        Ok(())
    }
}

/// The size of a model's formula before it is kept (the model as in [`write_dimacs`]: its
/// variables' `domains` and the `rows` of its constraints): the bytes its rows and names take
/// when kept ([`Encoder::kept_bytes`]) and its number of variables, from a pass that keeps
/// nothing (`limits` polled).
pub fn formula_size(
    domains: &[Domain],
    rows: impl Fn(&mut Encoder<'_>) -> Result<(), Unsupported>,
    info: impl FnMut(VarId) -> VarInfo,
    limits: &Limits,
) -> Result<(u64, u64), crate::error::PuzzleError> {
    let mut m = Measure::default();
    let mut enc = Encoder::streaming(domains, info, &mut m, limits);
    rows(&mut enc).map_err(|u| crate::error::PuzzleError::unsupported(u.to_string()))?;
    let per_var = (std::mem::size_of::<VarLits>() + std::mem::size_of::<Domain>()) as u64;
    let engine_vars = domains.len() as u64 * per_var;
    if let Some(h) = enc.take_halt() {
        return Err(halt_error(h));
    }
    drop(enc);
    Ok((m.rows + engine_vars, m.vars))
}

/// The error of an encoder that halted: a time limit, the memory budget or a write.
pub fn halt_error(h: Halt) -> crate::error::PuzzleError {
    match h {
        Halt::Limit(r) => {
            crate::error::PuzzleError::interrupted(r, "the time limit passed while the formula was built")
        }
        Halt::Memory(m) => crate::error::PuzzleError::Memory(m),
        Halt::Sink(e) => crate::error::PuzzleError::unsupported(format!("cannot write the formula: {e}")),
    }
}

/// The bytes a kept row takes (its vector and its literals).
fn row_bytes(row: &Constraint) -> u64 {
    let lits = match row {
        Constraint::Clause(l) | Constraint::Parity { lits: l, .. } => l.capacity() * std::mem::size_of::<Lit>(),
        Constraint::Linear { terms, .. } => terms.capacity() * std::mem::size_of::<(Lit, i64)>(),
        Constraint::Less { a, b, .. } => (a.capacity() + b.capacity()) * std::mem::size_of::<Lit>(),
    };
    (std::mem::size_of::<Constraint>() + lits) as u64
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
