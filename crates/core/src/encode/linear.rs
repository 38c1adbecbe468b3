//! The formula as linear rows over 0–1 variables: OPB (pseudo-Boolean competition format) and
//! CPLEX LP (the MIP model's form).
//!
//! Every row becomes `Σ aᵢ·xᵢ ⋈ k` over positive variables (a negated literal `¬x` is `1 − x`,
//! its constant moved to the right): a clause is `Σ ℓ ≥ 1`, a parity `Σ ℓ − 2·Σ 2ⁱ·kᵢ = [odd]`
//! with fresh 0–1 variables `kᵢ`, and an order `c → A < B` the Miller–Tucker–Zemlin row
//! `Σ 2ⁱbᵢ − Σ 2ⁱaᵢ + 2ᵐ·(1 − c) ≥ 1` over the `m` bits of the two numbers.

use super::{Cmp, Constraint, Encoder};
use rustsat::types::Lit;
use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;
use std::io::Write;

/// A row over variable indices (0-based), with merged coefficients.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// `(variable index, coefficient)`, by index, no zero coefficients.
    pub terms: Vec<(u32, i64)>,
    /// The comparison.
    pub cmp: Cmp,
    /// The right-hand side.
    pub rhs: i64,
}

impl Row {
    /// Does the assignment (`value[i]` of variable `i`) satisfy the row?
    pub fn holds(&self, value: impl Fn(u32) -> bool) -> bool {
        let s: i64 = self.terms.iter().filter(|&&(v, _)| value(v)).map(|&(_, a)| a).sum();
        match self.cmp {
            Cmp::Le => s <= self.rhs,
            Cmp::Ge => s >= self.rhs,
            Cmp::Eq => s == self.rhs,
        }
    }
}

/// Builds a row from literal terms.
fn row(terms: impl IntoIterator<Item = (Lit, i64)>, cmp: Cmp, mut rhs: i64) -> Row {
    let mut merged: BTreeMap<u32, i64> = BTreeMap::new();
    for (l, a) in terms {
        if l.is_neg() {
            // a·(1 − x)
            rhs -= a;
            *merged.entry(l.vidx32()).or_default() -= a;
        } else {
            *merged.entry(l.vidx32()).or_default() += a;
        }
    }
    let mut r = Row {
        terms: merged.into_iter().filter(|&(_, a)| a != 0).collect(),
        cmp,
        rhs,
    };
    // `−a − b ≥ −1` reads better as `a + b ≤ 1` (the MIP model's neighbour row).
    if !r.terms.is_empty() && r.terms.iter().all(|&(_, a)| a < 0) {
        for t in &mut r.terms {
            t.1 = -t.1;
        }
        r.rhs = -r.rhs;
        r.cmp = match r.cmp {
            Cmp::Le => Cmp::Ge,
            Cmp::Ge => Cmp::Le,
            Cmp::Eq => Cmp::Eq,
        };
    }
    r
}

impl Encoder<'_> {
    /// The rows as linear rows over 0–1 variables, and the number of variables (the
    /// formula's, then the parities' auxiliaries).
    pub fn linear_rows(&self) -> (Vec<Row>, u32) {
        let mut rows = Vec::with_capacity(self.rows().len());
        let n = self.each_linear_row(|r| {
            rows.push(r);
            Ok(())
        });
        (rows, n.unwrap_or(0))
    }

    /// The number of variables of [`Encoder::linear_rows`] (the formula's and the parities'
    /// auxiliaries), without making the rows.
    fn num_linear_vars(&self) -> u32 {
        let parity_bits: u32 = self
            .rows()
            .iter()
            .map(|r| match r {
                Constraint::Parity { lits, .. } => 64 - (lits.len() as u64 / 2).leading_zeros(),
                _ => 0,
            })
            .sum();
        self.num_lits() as u32 + parity_bits
    }

    /// Calls `each` with every row as a linear row, one at a time (none are held), and
    /// returns the number of variables.
    fn each_linear_row(&self, mut each: impl FnMut(Row) -> std::io::Result<()>) -> std::io::Result<u32> {
        let mut next = self.num_lits() as u32;
        for r in self.rows() {
            let row = match r {
                Constraint::Clause(lits) => row(lits.iter().map(|&l| (l, 1)), Cmp::Ge, 1),
                Constraint::Linear { terms, cmp, rhs } => row(terms.iter().copied(), *cmp, *rhs),
                Constraint::Parity { lits, odd } => {
                    let half = lits.len() as u64 / 2;
                    let bits = 64 - half.leading_zeros();
                    let mut terms: Vec<(Lit, i64)> = lits.iter().map(|&l| (l, 1)).collect();
                    for i in 0..bits {
                        terms.push((Lit::positive(next), -(2i64 << i)));
                        next += 1;
                    }
                    row(terms, Cmp::Eq, i64::from(*odd))
                }
                Constraint::Less { cond, a, b } => {
                    let m = a.len().min(b.len()) as u32;
                    let mut terms: Vec<(Lit, i64)> = Vec::with_capacity(2 * m as usize + 1);
                    for i in 0..m as usize {
                        terms.push((b[i], 1 << i));
                        terms.push((a[i], -(1 << i)));
                    }
                    terms.push((!*cond, 1 << m));
                    row(terms, Cmp::Ge, 1)
                }
            };
            each(row)?;
        }
        Ok(next)
    }

    /// OPB text: a `*` header (`header` lines, then `* xN NAME` for the named variables), the
    /// (empty) objective left out, one row a line.
    pub fn opb(&self, header: &[String]) -> String {
        let mut out = Vec::new();
        // Writing into memory cannot fail.
        let _ = self.opb_to(header, &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// [`Encoder::opb`] to a writer, row by row.
    pub fn opb_to(&self, header: &[String], out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "* #variable= {} #constraint= {}",
            self.num_linear_vars(),
            self.rows().len()
        )?;
        for h in header {
            writeln!(out, "* {h}")?;
        }
        for i in 0..self.num_lits() {
            if !self.name(i).is_empty() {
                writeln!(out, "* x{} {}", i + 1, self.name(i))?;
            }
        }
        let mut line = String::new();
        self.each_linear_row(|r| {
            line.clear();
            // OPB has `>=` and `=`: a `≤` row is written negated.
            let sign = if r.cmp == Cmp::Le { -1 } else { 1 };
            for &(v, a) in &r.terms {
                let _ = write!(line, "{:+} x{} ", sign * a, v + 1);
            }
            let op = if r.cmp == Cmp::Eq { "=" } else { ">=" };
            let _ = writeln!(line, "{op} {} ;", sign * r.rhs);
            out.write_all(line.as_bytes())
        })?;
        Ok(())
    }

    /// CPLEX LP text: `\` comments (`header`), a zero objective, the rows under `Subject To`
    /// named `c1, c2, …`, every variable under `Binary`. Named variables keep their names
    /// (`r3c1=5` is `x_r3c1_5`), auxiliaries are `a` and their number.
    pub fn lp(&self, header: &[String]) -> String {
        let mut out = Vec::new();
        // Writing into memory cannot fail.
        let _ = self.lp_to(header, &mut out);
        String::from_utf8(out).unwrap_or_default()
    }

    /// [`Encoder::lp`] to a writer, row by row (the variables' LP names are held).
    pub fn lp_to(&self, header: &[String], out: &mut dyn Write) -> std::io::Result<()> {
        let n = self.num_linear_vars();
        let names = self.lp_names(n);
        for h in header {
            writeln!(out, "\\ {h}")?;
        }
        out.write_all(b"Minimize\n obj:")?;
        if n > 0 {
            write!(out, " 0 {}", names[0])?;
        }
        out.write_all(b"\nSubject To\n")?;
        let mut k = 0;
        let mut line = String::new();
        self.each_linear_row(|r| {
            k += 1;
            line.clear();
            let _ = write!(line, " c{k}:");
            if r.terms.is_empty() {
                // `0 ⋈ rhs`: LP needs a variable in a row.
                if n > 0 {
                    let _ = write!(line, " 0 {}", names[0]);
                }
            }
            for (j, &(v, a)) in r.terms.iter().enumerate() {
                let sign = if a < 0 {
                    " -"
                } else if j > 0 {
                    " +"
                } else {
                    ""
                };
                let mag = a.unsigned_abs();
                if mag == 1 {
                    let _ = write!(line, "{sign} {}", names[v as usize]);
                } else {
                    let _ = write!(line, "{sign} {mag} {}", names[v as usize]);
                }
            }
            let op = match r.cmp {
                Cmp::Le => "<=",
                Cmp::Ge => ">=",
                Cmp::Eq => "=",
            };
            let _ = writeln!(line, " {op} {}", r.rhs);
            out.write_all(line.as_bytes())
        })?;
        out.write_all(b"Binary\n")?;
        for chunk in names.chunks(10) {
            writeln!(out, " {}", chunk.join(" "))?;
        }
        out.write_all(b"End\n")
    }

    /// LP names of the `n` variables: `x_` and the name with other characters than letters,
    /// digits and `_` made `_`; `a{i}` for auxiliaries; `x{i}` if two names would clash.
    pub fn lp_names(&self, n: u32) -> Vec<String> {
        let mut seen = HashSet::new();
        (0..n as usize)
            .map(|i| {
                let name = if i < self.num_lits() { self.name(i) } else { "" };
                let s = if name.is_empty() {
                    format!("a{}", i + 1)
                } else {
                    let clean: String = name
                        .chars()
                        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                        .collect();
                    format!("x_{clean}")
                };
                if seen.insert(s.clone()) {
                    s
                } else {
                    format!("x{}", i + 1)
                }
            })
            .collect()
    }
}
