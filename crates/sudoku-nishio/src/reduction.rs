//! The reduction of Section 6 (Theorems 2–3): 3-SAT → the Nishio decision problem ("does `S`
//! contain a valid placement?").
//!
//! # Construction (Theorem 2, Figure 5)
//! Every literal occurrence gets its own *stack* of blocks, plus one terminal stack; every
//! variable that occurs and every clause gets its own *band*.
//! * **Variable gadget** for `x` with occurrences `o_0..o_{m−1}` in band `β_x`: block
//!   `(β_x, stack(o_i))` holds two cells of `S`, `A_i = (R_i, p_i)` and `B_i = (R_{i+1 mod m}, q_i)`,
//!   where `R_i` are `m` rows of the band and `p_i, q_i` two columns of the stack. Each row holds
//!   two gadget cells from different blocks, so the conflict graph is one cycle; the only ways to
//!   cover these rows and blocks are all `A` (x true: columns `p` taken) or all `B` (x false).
//! * **Clause gadget** for a clause of `K` literals in band `γ`: a truth-setting row `τ` and
//!   conflict rows `κ_0..κ_{K−1}`. Term block `(γ, stack(o_k))` holds `(κ_k, p)`, `(κ_k, q)` and
//!   one cell in row `τ`, in column `q` for a positive literal (free when x is true) or `p` for a
//!   negative one. The terminal block `(γ, terminal stack)` holds `(κ_k, t_γ)` for every `k`, all
//!   in one column. The terminal takes some `κ_k`, so term `k` must use `τ`: possible exactly
//!   when literal `k` is true.
//! * **Filler**: every cell outside the rows, columns and blocks used by gadgets is in `S`. Per
//!   band the free rows and free blocks are equally many, and per stack the free columns and free
//!   blocks, so any bijections complete a placement.
//!
//! The paper uses an `n² × n²` grid with `n × n` blocks, `n ≥ max(v + c, 3c + 1)`
//! ([`Layout::Square`]). The same gadgets fit `a × b` blocks with `a ≥` (occurrences + 1) stacks
//! and rows per band, and `b ≥` (variables + clauses) bands and `≥ max(2, c)` columns per stack
//! ([`Layout::Compact`]), which keeps small formulas within 35×35 so the DAG can check them.
//!
//! # Theorem 3
//! [`theorem3`] adds a fresh variable `v0` to every clause and splits each 4-literal clause
//! `(a ∨ b ∨ c ∨ d)` into `(a ∨ b ∨ x) ∧ (¬x ∨ c ∨ d)`. The result is always satisfiable (with
//! `v0` true), and the "v0 false" cells of its instance are in Nishio(S) exactly when the
//! original formula is satisfiable.

use crate::board::{BlockShape, CellMask, MAX_N};
use pencilbox_core::error::{ParseError, Pos};

/// A CNF formula: variables `1..=num_vars`, literals as signed integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cnf {
    /// Number of variables.
    pub num_vars: usize,
    /// The clauses.
    pub clauses: Vec<Vec<i32>>,
}

impl Cnf {
    /// Reads DIMACS CNF (`c` comments, `p cnf V C`, clauses ended by `0`).
    pub fn parse_dimacs(text: &str) -> Result<Cnf, ParseError> {
        let mut header: Option<(usize, usize)> = None;
        let mut clauses = Vec::new();
        let mut cur: Vec<i32> = Vec::new();
        let mut last = Pos::START;
        for (i, line) in text.lines().enumerate() {
            let line_no = i as u32 + 1;
            let t = line.trim();
            if t.is_empty() || t.starts_with('c') || t.starts_with('%') {
                continue;
            }
            let col_of = |tok: &str| (tok.as_ptr() as usize - line.as_ptr() as usize) as u32 + 1;
            if t.starts_with('p') {
                let toks: Vec<&str> = t.split_whitespace().collect();
                let pos = Pos {
                    line: line_no,
                    col: col_of(t),
                };
                if header.is_some() {
                    return Err(ParseError::new(pos, "a second `p cnf` header"));
                }
                match toks.as_slice() {
                    ["p", "cnf", v, c] => match (v.parse::<usize>(), c.parse::<usize>()) {
                        (Ok(v), Ok(c)) if v <= 1_000_000 && c <= 10_000_000 => header = Some((v, c)),
                        _ => {
                            return Err(ParseError::new(
                                pos,
                                "expected `p cnf VARIABLES CLAUSES` with sane counts",
                            ))
                        }
                    },
                    _ => return Err(ParseError::new(pos, "expected `p cnf VARIABLES CLAUSES`")),
                }
                continue;
            }
            let Some((nv, _)) = header else {
                return Err(ParseError::new(
                    Pos { line: line_no, col: 1 },
                    "expected the `p cnf` header before the clauses",
                ));
            };
            for tok in t.split_whitespace() {
                let pos = Pos {
                    line: line_no,
                    col: col_of(tok),
                };
                last = pos;
                let v: i32 = tok
                    .parse()
                    .map_err(|_| ParseError::new(pos, format!("expected a literal, found `{tok}`")))?;
                if v == 0 {
                    if cur.is_empty() {
                        return Err(ParseError::new(pos, "an empty clause (always false) is not supported"));
                    }
                    clauses.push(std::mem::take(&mut cur));
                } else if v.unsigned_abs() as usize > nv {
                    return Err(ParseError::new(
                        pos,
                        format!("variable {} is above the declared {nv}", v.abs()),
                    ));
                } else {
                    cur.push(v);
                }
            }
        }
        if !cur.is_empty() {
            clauses.push(cur);
        }
        let Some((num_vars, _)) = header else {
            return Err(ParseError::new(last, "no `p cnf` header found"));
        };
        Ok(Cnf { num_vars, clauses })
    }

    /// DIMACS text.
    pub fn to_dimacs(&self) -> String {
        let mut s = format!("p cnf {} {}\n", self.num_vars, self.clauses.len());
        for c in &self.clauses {
            for l in c {
                s.push_str(&format!("{l} "));
            }
            s.push_str("0\n");
        }
        s
    }

    /// Is the formula true under `assign` (bit `i` = variable `i + 1`)?
    pub fn eval(&self, assign: u64) -> bool {
        self.clauses.iter().all(|c| {
            c.iter()
                .any(|&l| (assign >> (l.unsigned_abs() - 1) & 1 == 1) == (l > 0))
        })
    }

    /// Satisfiability by trying every assignment (at most 24 variables).
    pub fn brute_force_sat(&self) -> Option<bool> {
        (self.num_vars <= 24).then(|| (0..1u64 << self.num_vars).any(|a| self.eval(a)))
    }
}

/// Theorem 3's transformation: returns `X'` and the index of `v0`.
pub fn theorem3(x: &Cnf) -> (Cnf, usize) {
    let v0 = x.num_vars + 1;
    let mut next = v0 + 1;
    let mut clauses = Vec::new();
    for c in &x.clauses {
        let mut c4 = c.clone();
        c4.push(v0 as i32);
        if c4.len() <= 3 {
            clauses.push(c4);
        } else {
            // Split (l1 ∨ … ∨ lk) into a chain of 3-literal clauses with fresh variables.
            let mut rest = c4;
            while rest.len() > 3 {
                let x = next as i32;
                next += 1;
                clauses.push(vec![rest[0], rest[1], x]);
                rest = std::iter::once(-x).chain(rest[2..].iter().copied()).collect();
            }
            clauses.push(rest);
        }
    }
    (
        Cnf {
            num_vars: next - 1,
            clauses,
        },
        v0,
    )
}

/// The grid shape chosen for the reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// As in the paper: `n² × n²` grid, `n × n` blocks.
    Square,
    /// The smallest `a × b` blocks the gadgets need.
    Compact,
}

/// A cell `(row, col)`.
pub type Cell = (usize, usize);

/// A Nishio decision instance produced from a formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reduction {
    /// The block shape (`a` rows × `b` columns; the grid is `ab × ab`).
    pub block: BlockShape,
    /// The cells of `S`, `(row, col)`, sorted.
    pub cells: Vec<(usize, usize)>,
    /// Per variable `1..=num_vars` (index `v − 1`): the cells used when it is true (`A`) and
    /// when false (`B`); empty when the variable does not occur.
    pub var_cells: Vec<(Vec<Cell>, Vec<Cell>)>,
}

impl Reduction {
    /// The side of the grid.
    pub fn n(&self) -> usize {
        self.block.n()
    }
    /// `S` as a [`CellMask`] (grids up to 35×35).
    pub fn mask(&self) -> Option<CellMask> {
        (self.n() <= MAX_N).then(|| {
            let mut m = CellMask::empty(self.n());
            for &(r, c) in &self.cells {
                m.insert(r, c);
            }
            m
        })
    }
    /// The grid drawn with `o` for cells of `S`.
    pub fn to_text(&self) -> String {
        let n = self.n();
        let mut g = vec![vec!['.'; n]; n];
        for &(r, c) in &self.cells {
            g[r][c] = 'o';
        }
        let mut s = format!("# Nishio decision instance: {n}x{n} grid, {} blocks\n", self.block);
        for row in g {
            s.extend(row);
            s.push('\n');
        }
        s
    }
}

/// Builds the instance of Theorem 2 for `f`.
pub fn reduce(f: &Cnf, layout: Layout) -> Result<Reduction, String> {
    if f.clauses.iter().any(Vec::is_empty) {
        return Err("an empty clause cannot be reduced".into());
    }
    let c = f.clauses.len();
    // Occurrences, in clause order.
    let occ: Vec<(usize, usize, i32)> = f
        .clauses
        .iter()
        .enumerate()
        .flat_map(|(j, cl)| cl.iter().enumerate().map(move |(k, &l)| (j, k, l)))
        .collect();
    let l = occ.len();
    let mut by_var: Vec<Vec<usize>> = vec![Vec::new(); f.num_vars];
    for (o, &(_, _, lit)) in occ.iter().enumerate() {
        by_var[lit.unsigned_abs() as usize - 1].push(o);
    }
    let used_vars: Vec<usize> = (0..f.num_vars).filter(|&v| !by_var[v].is_empty()).collect();
    let max_clause = f.clauses.iter().map(Vec::len).max().unwrap_or(0);
    let max_occ = by_var.iter().map(Vec::len).max().unwrap_or(0);
    // a: stacks and rows per band; b: bands and columns per stack.
    let a_min = (l + 1).max(max_clause + 1).max(max_occ).max(2);
    let b_min = (used_vars.len() + c).max(2).max(c);
    let (a, b) = match layout {
        Layout::Compact => (a_min, b_min),
        Layout::Square => {
            let n = a_min.max(b_min);
            (n, n)
        }
    };
    if (a * b) > 4096 {
        return Err(format!("the instance would be {0}×{0}; too large", a * b));
    }
    let block = BlockShape::new(a, b);
    let n = a * b;
    let terminal = l; // stack index
    let cols_of = |stack: usize| (stack * b, stack * b + 1);
    let mut s: Vec<(usize, usize)> = Vec::new();
    let mut used_row = vec![false; n];
    let mut used_col = vec![false; n];
    let mut used_block = vec![false; n];
    let block_id = |band: usize, stack: usize| band * a + stack; // bands × stacks = b × a
    let mut var_cells = vec![(Vec::new(), Vec::new()); f.num_vars];
    for (band, &v) in used_vars.iter().enumerate() {
        let occs = &by_var[v];
        let m = occs.len();
        let rows: Vec<usize> = (0..m).map(|i| band * a + i).collect();
        for (i, &o) in occs.iter().enumerate() {
            let (p, q) = cols_of(o);
            let cell_a = (rows[i], p);
            let cell_b = (rows[(i + 1) % m], q);
            s.push(cell_a);
            s.push(cell_b);
            var_cells[v].0.push(cell_a);
            var_cells[v].1.push(cell_b);
            used_col[p] = true;
            used_col[q] = true;
            used_block[block_id(band, o)] = true;
        }
        for &r in &rows {
            used_row[r] = true;
        }
    }
    for (j, clause) in f.clauses.iter().enumerate() {
        let band = used_vars.len() + j;
        let tau = band * a;
        used_row[tau] = true;
        let t_col = terminal * b + j;
        used_col[t_col] = true;
        used_block[block_id(band, terminal)] = true;
        let first = occ.iter().position(|&(jj, _, _)| jj == j).unwrap_or(0);
        for (k, &lit) in clause.iter().enumerate() {
            let o = first + k;
            let kappa = band * a + 1 + k;
            used_row[kappa] = true;
            let (p, q) = cols_of(o);
            s.push((kappa, p));
            s.push((kappa, q));
            s.push((tau, if lit > 0 { q } else { p }));
            s.push((kappa, t_col));
            used_block[block_id(band, o)] = true;
        }
    }
    for r in 0..n {
        for col in 0..n {
            if !used_row[r] && !used_col[col] && !used_block[block.block_of(r, col)] {
                s.push((r, col));
            }
        }
    }
    s.sort_unstable();
    s.dedup();
    Ok(Reduction {
        block,
        cells: s,
        var_cells,
    })
}

/// Exact decision: does `cells` contain a valid placement (one cell per row, column and block)?
/// An exact-cover search choosing the row, column or block with the fewest usable cells.
/// Returns one placement, or `None`.
pub fn has_valid_placement(block: BlockShape, cells: &[(usize, usize)]) -> Option<Vec<(usize, usize)>> {
    let n = block.n();
    let items: Vec<[usize; 3]> = cells
        .iter()
        .map(|&(r, c)| [r, n + c, 2 * n + block.block_of(r, c)])
        .collect();
    let mut by_item: Vec<Vec<usize>> = vec![Vec::new(); 3 * n];
    for (i, it) in items.iter().enumerate() {
        for &x in it {
            by_item[x].push(i);
        }
    }
    fn rec(items: &[[usize; 3]], by_item: &[Vec<usize>], covered: &mut Vec<bool>, chosen: &mut Vec<usize>) -> bool {
        let mut best: Option<(usize, usize)> = None;
        for (x, opts) in by_item.iter().enumerate() {
            if covered[x] {
                continue;
            }
            let k = opts.iter().filter(|&&i| items[i].iter().all(|&y| !covered[y])).count();
            if best.is_none_or(|(bk, _)| k < bk) {
                best = Some((k, x));
                if k == 0 {
                    return false;
                }
            }
        }
        let Some((_, x)) = best else {
            return true;
        };
        for &i in &by_item[x] {
            if items[i].iter().any(|&y| covered[y]) {
                continue;
            }
            for &y in &items[i] {
                covered[y] = true;
            }
            chosen.push(i);
            if rec(items, by_item, covered, chosen) {
                return true;
            }
            chosen.pop();
            for &y in &items[i] {
                covered[y] = false;
            }
        }
        false
    }
    let mut covered = vec![false; 3 * n];
    let mut chosen = Vec::new();
    rec(&items, &by_item, &mut covered, &mut chosen).then(|| chosen.into_iter().map(|i| cells[i]).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Rng;
    use crate::graph::AbGraph;
    use crate::nishio::nishio;

    fn random_cnf(rng: &mut Rng) -> Cnf {
        // Small formulas whose compact instance fits 35×35: (L + 1)·(vars + clauses) ≤ 35.
        loop {
            let num_vars = 1 + rng.below(3);
            let c = 1 + rng.below(3);
            let clauses: Vec<Vec<i32>> = (0..c)
                .map(|_| {
                    let k = 1 + rng.below(3);
                    (0..k)
                        .map(|_| {
                            let v = 1 + rng.below(num_vars) as i32;
                            if rng.below(2) == 0 {
                                v
                            } else {
                                -v
                            }
                        })
                        .collect()
                })
                .collect();
            let f = Cnf { num_vars, clauses };
            if let Ok(r) = reduce(&f, Layout::Compact) {
                if r.n() <= 35 {
                    return f;
                }
            }
        }
    }

    #[test]
    fn dimacs_round_trips_and_errors_have_positions() {
        let f = Cnf::parse_dimacs("c hi\np cnf 3 2\n1 -2 3 0\n-1 2 0\n").unwrap();
        assert_eq!(f.clauses, vec![vec![1, -2, 3], vec![-1, 2]]);
        assert_eq!(Cnf::parse_dimacs(&f.to_dimacs()).unwrap(), f);
        let e = Cnf::parse_dimacs("p cnf 2 1\n1 x 0\n").unwrap_err();
        assert_eq!(e.pos, Pos { line: 2, col: 3 });
        let e = Cnf::parse_dimacs("p cnf 2 1\n1 5 0\n").unwrap_err();
        assert!(e.message.contains("above"));
    }

    #[test]
    fn nishio_is_nonempty_exactly_when_the_formula_is_satisfiable() {
        let mut rng = Rng::new(11);
        let (mut sat, mut unsat) = (0, 0);
        for _ in 0..120 {
            let f = random_cnf(&mut rng);
            let r = reduce(&f, Layout::Compact).unwrap();
            let expected = f.brute_force_sat().unwrap();
            let found = has_valid_placement(r.block, &r.cells);
            assert_eq!(found.is_some(), expected, "{f:?}");
            if let Some(p) = found {
                // The placement is valid and lies in S.
                assert_eq!(p.len(), r.n());
                let set: std::collections::BTreeSet<_> = r.cells.iter().collect();
                assert!(p.iter().all(|c| set.contains(c)));
            }
            if expected {
                sat += 1
            } else {
                unsat += 1
            }
        }
        assert!(
            sat > 10 && unsat > 10,
            "both outcomes are exercised: {sat} sat, {unsat} unsat"
        );
    }

    #[test]
    fn the_dag_agrees_on_the_instances_whose_graph_is_small() {
        let mut rng = Rng::new(5);
        let mut checked = 0;
        for _ in 0..400 {
            let f = random_cnf(&mut rng);
            let r = reduce(&f, Layout::Compact).unwrap();
            if crate::graph::vertex_count(r.block) > 300_000 {
                continue;
            }
            let g = AbGraph::get(r.block).unwrap();
            let keep = nishio(&g, &r.mask().unwrap()).keep;
            assert_eq!(!keep.is_empty(), f.brute_force_sat().unwrap(), "{f:?}");
            checked += 1;
        }
        assert!(checked >= 20, "only {checked} small instances");
    }

    #[test]
    fn the_square_layout_follows_the_paper_bound() {
        let f = Cnf::parse_dimacs("p cnf 3 2\n1 2 3 0\n-1 -2 3 0\n").unwrap();
        let r = reduce(&f, Layout::Square).unwrap();
        // n ≥ max(v + c, 3c + 1) = max(5, 7) = 7: a 49×49 grid.
        assert_eq!(r.block, BlockShape::new(7, 7));
        assert!(has_valid_placement(r.block, &r.cells).is_some());
    }

    #[test]
    fn theorem_three_keeps_v0_true_always_and_v0_false_iff_satisfiable() {
        let mut rng = Rng::new(3);
        for _ in 0..60 {
            let x = random_cnf(&mut rng);
            let (x2, v0) = theorem3(&x);
            assert!(x2.clauses.iter().all(|c| c.len() <= 3));
            let sat_v0_true = (0..1u64 << x2.num_vars).any(|a| a >> (v0 - 1) & 1 == 1 && x2.eval(a));
            let sat_v0_false = (0..1u64 << x2.num_vars).any(|a| a >> (v0 - 1) & 1 == 0 && x2.eval(a));
            assert!(sat_v0_true);
            assert_eq!(sat_v0_false, x.brute_force_sat().unwrap());
            // On the instance: the v0-false cells are usable exactly when X is satisfiable.
            let r = reduce(&x2, Layout::Compact).unwrap();
            if r.n() > 80 {
                continue;
            }
            let true_cells = &r.var_cells[v0 - 1].0;
            let without_true: Vec<_> = r.cells.iter().copied().filter(|c| !true_cells.contains(c)).collect();
            assert!(has_valid_placement(r.block, &r.cells).is_some());
            assert_eq!(
                has_valid_placement(r.block, &without_true).is_some(),
                sat_v0_false,
                "{x:?}"
            );
        }
    }
}
