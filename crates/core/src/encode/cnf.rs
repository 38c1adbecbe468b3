//! The formula as clauses (CNF) and in DIMACS: rustsat's encodings for cardinality and
//! pseudo-Boolean rows, Tseitin chains for parities, a lexicographic comparator for orders.

use super::{Cmp, Constraint, Encoder};
use rustsat::encodings::am1::{Commander, Encode as _, Pairwise};
use rustsat::encodings::pb::default_encode_pb_constraint;
use rustsat::instances::{BasicVarManager, ManageVars};
use rustsat::types::constraints::PbConstraint;
use rustsat::types::{Clause, Lit, Var};
use std::fmt::Write as _;

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
        let mut out = String::new();
        for h in header {
            let _ = writeln!(out, "c {h}");
        }
        for i in 0..enc.num_lits() {
            let name = enc.name(i);
            if !name.is_empty() {
                let _ = writeln!(out, "c {} {}", i + 1, name);
            }
        }
        let _ = writeln!(out, "p cnf {} {}", self.num_vars, self.clauses.len());
        for cl in self.clauses.iter() {
            for l in cl.iter() {
                let _ = write!(out, "{} ", l.to_ipasir());
            }
            out.push_str("0\n");
        }
        out
    }
}

impl Encoder {
    /// The formula as clauses (see the module docs for the encodings).
    pub fn cnf(&self) -> Cnf {
        let mut cnf = rustsat::instances::Cnf::new();
        let mut vm = BasicVarManager::from_next_free(Var::new(self.num_lits() as u32));
        for row in self.rows() {
            encode_row(row, &mut cnf, &mut vm);
        }
        Cnf {
            clauses: cnf,
            num_vars: vm.n_used(),
        }
    }
}

fn clause(lits: &[Lit]) -> Clause {
    lits.iter().copied().collect()
}

fn encode_row(row: &Constraint, cnf: &mut rustsat::instances::Cnf, vm: &mut BasicVarManager) {
    match row {
        Constraint::Clause(lits) => cnf.add_clause(clause(lits)),
        Constraint::Linear { terms, cmp, rhs } => linear(terms, *cmp, *rhs, cnf, vm),
        Constraint::Parity { lits, odd } => {
            // t₁ = ℓ₁, tᵢ = tᵢ₋₁ ⊕ ℓᵢ, and the last t is the parity.
            let Some((&first, rest)) = lits.split_first() else {
                if *odd {
                    cnf.add_clause(Clause::new());
                }
                return;
            };
            let mut t = first;
            for &l in rest {
                let n = vm.new_lit();
                cnf.add_clause(clause(&[!n, t, l]));
                cnf.add_clause(clause(&[!n, !t, !l]));
                cnf.add_clause(clause(&[n, !t, l]));
                cnf.add_clause(clause(&[n, t, !l]));
                t = n;
            }
            cnf.add_clause(clause(&[if *odd { t } else { !t }]));
        }
        Constraint::Less { cond, a, b } => {
            // From the most significant bit down, `e` = "cond and the bits so far are equal":
            // then aᵢ ≤ bᵢ, equal bits keep `e` on, and it must be off below the last bit.
            let mut e = *cond;
            for (&ai, &bi) in a.iter().zip(b).rev() {
                cnf.add_clause(clause(&[!e, !ai, bi]));
                let n = vm.new_lit();
                cnf.add_clause(clause(&[!e, ai, bi, n]));
                cnf.add_clause(clause(&[!e, !ai, !bi, n]));
                e = n;
            }
            cnf.add_clause(clause(&[!e]));
        }
    }
}

fn linear(terms: &[(Lit, i64)], cmp: Cmp, rhs: i64, cnf: &mut rustsat::instances::Cnf, vm: &mut BasicVarManager) {
    // Exactly one / at most one over plain literals: the dedicated encodings.
    if terms.iter().all(|&(_, a)| a == 1) && rhs == 1 && cmp != Cmp::Ge {
        let lits: Vec<Lit> = terms.iter().map(|&(l, _)| l).collect();
        if cmp == Cmp::Eq {
            cnf.add_clause(clause(&lits));
        }
        let r = if lits.len() <= PAIRWISE_MAX {
            Pairwise::from(lits).encode(cnf, vm)
        } else {
            Commander::<4, Pairwise>::from(lits).encode(cnf, vm)
        };
        r.expect("clauses fit in memory");
        return;
    }
    let wl = terms.iter().map(|&(l, a)| (l, a as isize));
    let rhs = rhs as isize;
    let c = match cmp {
        Cmp::Le => PbConstraint::new_ub(wl, rhs),
        Cmp::Ge => PbConstraint::new_lb(wl, rhs),
        Cmp::Eq => PbConstraint::new_eq(wl, rhs),
    };
    default_encode_pb_constraint(c, cnf, vm).expect("clauses fit in memory");
}
