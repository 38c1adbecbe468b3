//! The formula as clauses (CNF) and in DIMACS: rustsat's encodings for cardinality and
//! pseudo-Boolean rows, Tseitin chains for parities, a lexicographic comparator for orders.
//!
//! Clauses go to any [`CollectClauses`]: a [`Cnf`] held in memory (tests, small formulas),
//! the SAT solver directly ([`crate::sat`]), or a writer ([`write_dimacs`]), which streams
//! the DIMACS text of a formula far larger than memory: a million-cell Path model has
//! hundreds of millions of clauses (about 50 bytes each when held), so they are written as
//! they are made and never kept.

use super::{Cmp, Constraint, Encoder, Sink, Unsupported, VarInfo};
use crate::domain::Domain;
use crate::error::PuzzleError;
use crate::memory::MemoryError;
use crate::search::Limits;
use crate::var::VarId;
use rustsat::encodings::am1::{Commander, Encode as _, Pairwise};
use rustsat::encodings::pb::default_encode_pb_constraint;
use rustsat::encodings::CollectClauses;
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::constraints::PbConstraint;
use rustsat::types::{Clause, Lit, Var};
use std::fmt::Write as _;
use std::io::Write;

/// Up to this many literals, at-most-one is written pairwise; above, by the commander
/// encoding (fewer clauses, a few auxiliaries).
const PAIRWISE_MAX: usize = 8;

/// A formula in conjunctive normal form.
#[derive(Clone, Debug, Default)]
pub struct Cnf {
    /// The clauses.
    pub clauses: rustsat::instances::Cnf,
    /// Number of variables (named ones first, then the encodings' auxiliaries).
    pub num_vars: u32,
}

impl Cnf {
    /// DIMACS CNF text: `c` lines (`header`, then `c VAR NAME` for every named variable),
    /// the `p cnf` line and one clause a line.
    pub fn dimacs(&self, enc: &Encoder, header: &[String]) -> String {
        let mut out = Vec::new();
        // Writing into memory cannot fail.
        let _ = self.dimacs_to(enc, header, &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// [`Cnf::dimacs`] to a writer.
    pub fn dimacs_to(&self, enc: &Encoder, header: &[String], out: &mut dyn Write) -> std::io::Result<()> {
        for h in header {
            writeln!(out, "c {h}")?;
        }
        for i in 0..enc.num_lits() {
            let name = enc.name(i);
            if !name.is_empty() {
                writeln!(out, "c {} {}", i + 1, name)?;
            }
        }
        writeln!(out, "p cnf {} {}", self.num_vars, self.clauses.len())?;
        let mut line = String::new();
        for cl in self.clauses.iter() {
            clause_line(&mut line, cl);
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }
}

/// A clause as a DIMACS line into `line` (cleared first).
fn clause_line(line: &mut String, cl: &rustsat::types::Cl) {
    line.clear();
    for l in cl.iter() {
        let _ = write!(line, "{} ", l.to_ipasir());
    }
    line.push_str("0\n");
}

impl Encoder<'_> {
    /// The formula as clauses (see the module docs for the encodings); an error when the
    /// system refuses the memory of the clauses.
    pub fn cnf(&self) -> Result<Cnf, MemoryError> {
        let mut cnf = rustsat::instances::Cnf::new();
        let mut vm = BasicVarManager::from_next_free(Var::new(self.num_lits() as u32));
        for row in self.rows() {
            encode_row(row, &mut cnf, &mut vm).map_err(|_| MemoryError {
                what: "the formula's clauses".into(),
                needed: (cnf.len() as u64).saturating_mul(48),
                budget: None,
                refused: true,
                at_least: false,
            })?;
        }
        Ok(Cnf {
            clauses: cnf,
            num_vars: vm.n_used(),
        })
    }
}

fn clause(lits: &[Lit]) -> Clause {
    lits.iter().copied().collect()
}

/// Adds the clauses of `row` to `cnf`, auxiliaries from `vm`; an error when the collector
/// runs out of memory.
pub(crate) fn encode_row<C: CollectClauses>(
    row: &Constraint,
    cnf: &mut C,
    vm: &mut dyn ManageVars,
) -> Result<(), rustsat::OutOfMemory> {
    match row {
        Constraint::Clause(lits) => cnf.add_clause(clause(lits)),
        Constraint::Linear { terms, cmp, rhs } => linear(terms, *cmp, *rhs, cnf, vm),
        Constraint::Parity { lits, odd } => {
            // t₁ = ℓ₁, tᵢ = tᵢ₋₁ ⊕ ℓᵢ, and the last t is the parity.
            let Some((&first, rest)) = lits.split_first() else {
                if *odd {
                    cnf.add_clause(Clause::new())?;
                }
                return Ok(());
            };
            let mut t = first;
            for &l in rest {
                let n = vm.new_lit();
                cnf.add_clause(clause(&[!n, t, l]))?;
                cnf.add_clause(clause(&[!n, !t, !l]))?;
                cnf.add_clause(clause(&[n, !t, l]))?;
                cnf.add_clause(clause(&[n, t, !l]))?;
                t = n;
            }
            cnf.add_clause(clause(&[if *odd { t } else { !t }]))
        }
        Constraint::Less { cond, a, b } => {
            // From the most significant bit down, `e` = "cond and the bits so far are equal":
            // then aᵢ ≤ bᵢ, equal bits keep `e` on, and it must be off below the last bit.
            let mut e = *cond;
            for (&ai, &bi) in a.iter().zip(b).rev() {
                cnf.add_clause(clause(&[!e, !ai, bi]))?;
                let n = vm.new_lit();
                cnf.add_clause(clause(&[!e, ai, bi, n]))?;
                cnf.add_clause(clause(&[!e, !ai, !bi, n]))?;
                e = n;
            }
            cnf.add_clause(clause(&[!e]))
        }
    }
}

fn linear<C: CollectClauses>(
    terms: &[(Lit, i64)],
    cmp: Cmp,
    rhs: i64,
    cnf: &mut C,
    vm: &mut dyn ManageVars,
) -> Result<(), rustsat::OutOfMemory> {
    // Exactly one / at most one over plain literals: the dedicated encodings.
    if terms.iter().all(|&(_, a)| a == 1) && rhs == 1 && cmp != Cmp::Ge {
        let lits: Vec<Lit> = terms.iter().map(|&(l, _)| l).collect();
        if cmp == Cmp::Eq {
            cnf.add_clause(clause(&lits))?;
        }
        return if lits.len() <= PAIRWISE_MAX {
            Pairwise::from(lits).encode(cnf, vm)
        } else {
            Commander::<4, Pairwise>::from(lits).encode(cnf, vm)
        };
    }
    let wl = terms.iter().map(|&(l, a)| (l, a as isize));
    let rhs = rhs as isize;
    let c = match cmp {
        Cmp::Le => PbConstraint::new_ub(wl, rhs),
        Cmp::Ge => PbConstraint::new_lb(wl, rhs),
        Cmp::Eq => PbConstraint::new_eq(wl, rhs),
    };
    default_encode_pb_constraint(c, cnf, vm)
}

/// A clause collector that only counts.
#[derive(Default)]
struct Counting {
    clauses: u64,
}

impl CollectClauses for Counting {
    fn n_clauses(&self) -> usize {
        self.clauses as usize
    }
    fn extend_clauses<T: IntoIterator<Item = Clause>>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory> {
        self.clauses += cl_iter.into_iter().count() as u64;
        Ok(())
    }
}

/// A clause collector that writes each clause as a DIMACS line (the first write error is
/// kept, and stops the writing).
struct Writing<'w> {
    out: &'w mut dyn Write,
    line: String,
    clauses: u64,
    error: Option<std::io::Error>,
}

impl CollectClauses for Writing<'_> {
    fn n_clauses(&self) -> usize {
        self.clauses as usize
    }
    fn extend_clauses<T: IntoIterator<Item = Clause>>(&mut self, cl_iter: T) -> Result<(), rustsat::OutOfMemory> {
        for cl in cl_iter {
            self.clauses += 1;
            if self.error.is_none() {
                clause_line(&mut self.line, &cl);
                if let Err(e) = self.out.write_all(self.line.as_bytes()) {
                    self.error = Some(e);
                }
            }
        }
        Ok(())
    }
}

/// Where the auxiliaries of the first pass are numbered: above any formula variable, so that
/// only their number matters.
const FIRST_PASS_AUX: u32 = 1 << 30;

/// The first pass of [`write_dimacs`]: writes the `c VAR NAME` lines and counts the
/// formula's variables, its clauses and the encodings' auxiliaries.
struct Names<'w> {
    out: &'w mut dyn Write,
    clauses: u64,
    aux: BasicVarManager,
}

impl Sink for Names<'_> {
    fn var(&mut self, index: u32, name: &str) -> std::io::Result<()> {
        if name.is_empty() {
            return Ok(());
        }
        writeln!(self.out, "c {} {name}", index + 1)
    }
    fn row(&mut self, row: Constraint, _: u32) -> std::io::Result<()> {
        let mut count = Counting::default();
        // Counting cannot run out of memory.
        let _ = encode_row(&row, &mut count, &mut self.aux);
        self.clauses += count.clauses;
        Ok(())
    }
}

/// The second pass of [`write_dimacs`]: writes the clauses, auxiliaries numbered after every
/// formula variable.
struct Clauses<'w> {
    writing: Writing<'w>,
    vm: BasicVarManager,
}

impl Sink for Clauses<'_> {
    fn var(&mut self, _: u32, _: &str) -> std::io::Result<()> {
        Ok(())
    }
    fn row(&mut self, row: Constraint, _: u32) -> std::io::Result<()> {
        let _ = encode_row(&row, &mut self.writing, &mut self.vm);
        match self.writing.error.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Writes a model as DIMACS CNF to `out`, streamed: the formula is built twice and never
/// held. The model is its variables' `domains` and `rows`, which adds its constraints' rows
/// to an encoder (an engine model's: `|enc| engine.encode(enc)`). The first pass writes the
/// `c` lines (`header`, then `c VAR NAME` for every named variable) and counts the variables
/// and clauses; the second writes the `p cnf` line with those counts and the clauses, one a
/// line, the encodings' auxiliaries numbered after the formula's variables (the same text as
/// [`Cnf::dimacs`] of the kept formula). Memory is the model's and one row's encoding at a
/// time. `limits` (deadline, cancellation) are polled while building.
pub fn write_dimacs(
    domains: &[Domain],
    rows: impl Fn(&mut Encoder<'_>) -> Result<(), Unsupported>,
    mut info: impl FnMut(VarId) -> VarInfo,
    header: &[String],
    limits: &Limits,
    out: &mut dyn Write,
) -> Result<(), PuzzleError> {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, out);
    let halted = super::halt_error;
    let io = |e: std::io::Error| PuzzleError::unsupported(format!("cannot write the formula: {e}"));
    for h in header {
        writeln!(out, "c {h}").map_err(io)?;
    }
    let mut names = Names {
        out: &mut out,
        clauses: 0,
        aux: BasicVarManager::from_next_free(Var::new(FIRST_PASS_AUX)),
    };
    let mut enc = Encoder::streaming(domains, &mut info, &mut names, limits);
    rows(&mut enc).map_err(|u| PuzzleError::unsupported(u.to_string()))?;
    if let Some(h) = enc.take_halt() {
        return Err(halted(h));
    }
    let named = enc.num_lits() as u32;
    drop(enc);
    let (clauses, aux) = (names.clauses, names.aux.n_used() - FIRST_PASS_AUX);
    writeln!(out, "p cnf {} {clauses}", named + aux).map_err(io)?;
    let mut second = Clauses {
        writing: Writing {
            out: &mut out,
            line: String::new(),
            clauses: 0,
            error: None,
        },
        vm: BasicVarManager::from_next_free(Var::new(named)),
    };
    let mut enc = Encoder::streaming(domains, &mut info, &mut second, limits);
    rows(&mut enc).map_err(|u| PuzzleError::unsupported(u.to_string()))?;
    if let Some(h) = enc.take_halt() {
        return Err(halted(h));
    }
    drop(enc);
    if second.writing.clauses != clauses || second.vm.n_used() != named + aux {
        return Err(PuzzleError::unsupported(format!(
            "internal error: the formula's two passes differ ({clauses} and {} clauses)",
            second.writing.clauses
        )));
    }
    out.flush().map_err(io)
}
