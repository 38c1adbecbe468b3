//! `bits`: a bit-parallel solver for 9×9 Sudoku with 3×3 blocks (the default there).
//!
//! # Representation
//! The grid is cut into three *bands* of three rows. For every digit `d` and band `b` one
//! 27-bit word `cand[9·b + d]` holds the cells of the band where `d` is still possible (bit
//! `9·r + c` for row `r` of the band and column `c`); a placed cell keeps its own digit's bit
//! and loses every other digit's; a band's nine words lie side by side, so a placement clears
//! its cell from the other digits in one pass without a branch. `unsolved[b]` marks the cells
//! of band `b` not placed yet. Beside them, the band rule keeps each word's non-empty
//! mini-rows and configuration count for the triad rule and the branching. The whole state
//! is 180 bytes, so a branch copies it (no trail, no allocation).
//!
//! # Propagation (word operations on whole bands)
//! * *Band rule* for one digit and band: the digit occupies one cell per row and one per block
//!   of the band, so its three row-block intersections ("mini-rows") it occupies form one of
//!   the 6 permutations of a 3×3 matrix. A 512-entry table maps the 9-bit mask of non-empty
//!   mini-rows to the union of the permutations inside it, and the word keeps only those
//!   mini-rows. This one lookup does pointing and claiming (locked candidates) within the
//!   band, finds a block with a single place for the digit (its row keeps only that cell) and
//!   detects a band with no room for the digit.
//! * A row of a band word with one bit left is a placement: its column is cleared from the
//!   digit's other two bands and its cell from the other digits' words.
//! * *Naked singles*: per band, bit-sliced counters over the nine digit words (`ones`,
//!   `twos`) give the unsolved cells with exactly one candidate and those with none.
//! * *Hidden singles in columns*: the same counters over the nine rows of one digit.
//! * *Stack rule*: the band rule turned a quarter: in a stack (three blocks side by side
//!   vertically) a digit's mini-columns (band × column) also form a permutation, looked up in
//!   the same table from the columns each band word still has. This is pointing and claiming
//!   along columns.
//! * *Triad rule* (T. Dillon's "exactly three" constraint on triads): the three cells of a
//!   mini-row or mini-column hold three different digits, so when only three digits can go
//!   there, each is locked in it, and when three are certain there (a digit's only mini-row in
//!   its row of the band, or only mini-column in its block), no other digit can go there.
//!   Bit-sliced counters over the nine digits' mini-row (mini-column) masks find both.
//!
//! # Branching
//! On the configurations of one digit in one band: in the band with the fewest
//! configurations summed over its digits, the digit with the fewest (at least two); each
//! child keeps one permutation's three mini-rows. The configurations partition the digit's
//! placements in the band, so every solution lies below exactly one child and counting stays
//! exact. (Branching on a bivalue cell, as before, left heavy tails: one 17-clue puzzle took
//! 2,392 nodes where this takes a handful.) When every digit has a single configuration left in
//! every band but cells are open, the search branches on the first cell with two candidates
//! (bit-sliced `threes` give them), otherwise on a cell with the fewest.
//!
//! Counting follows every branch; the node counter, the node limit, the deadline and the
//! cancellation flag are checked as in core's driver (`stats.nodes`, every
//! [`CHECK_EVERY`] nodes).
//!
//! # Sources
//! Ideas learned, not code: J. F. Crook's band-per-digit words with mini-row tables and
//! bit-sliced naked singles as in Zhou Yundong's and "JCZSolve" (as benchmarked in
//! T. Dillon's *tdoku*, github.com/t-dillon/tdoku, `docs/sudoku.md` "Getting Vectorized":
//! a digit's band has only 6 configurations), tdoku's triads with their exactly-three
//! constraints and its branch on a band's configurations (its `docs/sudoku.md`). The tables
//! here are computed at compile time from the permutation argument above.

use crate::board::{BlockShape, Sudoku};
use pencilbox_core::search::{Limits, SearchResult, Stats, StopReason, CHECK_EVERY};
use pencilbox_core::time::Instant;

/// The block shape `bits` solves.
pub const SHAPE: BlockShape = BlockShape::new(3, 3);

const BAND: u32 = (1 << 27) - 1;
const ROW: u32 = 0x1ff;

/// For a 9-bit row: bit `k` set when block `k` of the row has a candidate.
const MINIROWS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        t[x] = ((x & 7 != 0) as u8) | (((x >> 3) & 7 != 0) as u8) << 1 | (((x >> 6) & 7 != 0) as u8) << 2;
        x += 1;
    }
    t
};

/// For a 9-bit mask of mini-rows (bit `3·r + k`: row `r`, block `k` of a band), the union of
/// the permutations `{(0, p0), (1, p1), (2, p2)}` contained in it (bits 0–8), and how many
/// there are ([`PERM_COUNT`], bits 12–14: the band rule keeps it for the branching).
const PERMS: [u16; 512] = {
    let perms = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 6 {
            let p = perms[i];
            let bits = (1u16 << p[0]) | (1u16 << (3 + p[1])) | (1u16 << (6 + p[2]));
            if m as u16 & bits == bits {
                t[m] |= bits;
            }
            i += 1;
        }
        t[m] |= (PERM_COUNT[m] as u16) << 12;
        m += 1;
    }
    t
};

/// The six permutations as mini-row masks.
const PERM_BITS: [u16; 6] = [
    0b100_010_001,
    0b010_100_001,
    0b100_001_010,
    0b001_100_010,
    0b010_001_100,
    0b001_010_100,
];

/// For a mini-row mask: how many permutations it contains.
const PERM_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 6 {
            if m as u16 & PERM_BITS[i] == PERM_BITS[i] {
                t[m] += 1;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// The words of band 0 (bits `d`); shifted by `9·b`, those of band `b`.
const BAND_WORDS: u32 = 0x1ff;

/// The words of digit 0 (bits `9·b`); shifted by `d`, those of digit `d`.
const DIGIT_WORDS: u32 = 0x40201;

/// For a 3-bit set: itself when it has one bit, else 0.
const ALONE: [u8; 8] = [0, 1, 2, 0, 4, 0, 0, 0];

/// For a 9-bit row: itself when it has at most one bit, else 0.
const SINGLE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut x: usize = 0;
    while x < 512 {
        if x & x.wrapping_sub(1) == 0 {
            t[x] = x as u16;
        }
        x += 1;
    }
    t
};

/// [`ALONE`] on each of the three 3-bit groups of a 9-bit mask at once.
const ALONE9: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = ALONE[m & 7] as u16 | (ALONE[(m >> 3) & 7] as u16) << 3 | (ALONE[m >> 6] as u16) << 6;
        m += 1;
    }
    t
};

/// For a mini-row `j = 3·r + k` of a band: the other mini-rows of row `r` and of block `k`.
const LOCKED_OUT: [u16; 9] = {
    let mut t = [0u16; 9];
    let mut j = 0;
    while j < 9 {
        let (r, k) = (j / 3, j % 3);
        t[j] = ((7 << (3 * r)) | (0b001_001_001 << k)) & !(1 << j);
        j += 1;
    }
    t
};

/// A 9-bit mini-row mask as the 27 cells it covers.
const EXPAND: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut j = 0;
        while j < 9 {
            if m & (1 << j) != 0 {
                t[m] |= 7 << (9 * (j / 3) + 3 * (j % 3));
            }
            j += 1;
        }
        m += 1;
    }
    t
};

/// For a cell of a band (bit `j`): the other cells of its row and block in the band.
const BAND_PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut j = 0;
    while j < 27 {
        let (r, c) = (j / 9, j % 9);
        let block = 7u32 << (3 * (c / 3));
        t[j] = ((ROW << (9 * r)) | block | (block << 9) | (block << 18)) & !(1 << j);
        j += 1;
    }
    t
};

/// A 9-bit set of columns as the 27 cells it covers in a band.
#[inline(always)]
fn columns(cols: u32) -> u32 {
    cols * 0x40201
}

/// `cand[k] &= mask`, marking `k` in `dirty` when it changed.
#[inline(always)]
fn clear(cand: &mut [u32; 27], dirty: &mut u32, k: usize, mask: u32) {
    let old = cand[k];
    let new = old & mask;
    cand[k] = new;
    *dirty |= ((old != new) as u32) << k;
}

/// Clears the cells `cells` of band `b` from every digit's word there but digit `d`'s (the
/// nine words of a band lie side by side, so this is one pass over them without a branch);
/// returns the dirty bits of the words it changed.
#[inline(always)]
fn clear_band(cand: &mut [u32; 27], b: usize, d: usize, cells: u32) -> u32 {
    let words: &mut [u32; 9] = (&mut cand[9 * b.min(2)..9 * b.min(2) + 9])
        .try_into()
        .expect("nine words");
    let mut changed = 0u32;
    for (e, w) in words.iter_mut().enumerate() {
        let keep = if e == d { u32::MAX } else { !cells };
        let old = *w;
        *w = old & keep;
        changed |= u32::from(old != *w) << e;
    }
    changed << (9 * b)
}

/// The 9-bit mask of a band word's non-empty mini-rows (bit `3·r + k`: row `r`, block `k`).
#[inline(always)]
fn minirows(a: u32) -> usize {
    MINIROWS[(a & ROW) as usize] as usize
        | (MINIROWS[((a >> 9) & ROW) as usize] as usize) << 3
        | (MINIROWS[((a >> 18) & ROW) as usize] as usize) << 6
}

/// The other two bands of band `b`.
#[inline(always)]
fn others(b: usize) -> (usize, usize) {
    match b {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    }
}

/// The solver's state (see the module docs): copied on every branch.
#[derive(Clone, Copy, Debug)]
struct State {
    cand: [u32; 27],
    unsolved: [u32; 3],
    /// Words changed since the band rule last ran on them (bit `9·b + d`).
    dirty: u32,
    /// Each word's non-empty mini-rows (bits 0–8) and its configurations (permutations of its
    /// mini-rows, bits 12–14) as the band rule last left the word: exact whenever no word is
    /// dirty (every changed word is dirty until the band rule runs on it), when the triad rule
    /// and the branching read them.
    shape: [u16; 27],
}

impl State {
    fn empty() -> Self {
        State {
            cand: [BAND; 27],
            unsolved: [BAND; 3],
            dirty: BAND,
            shape: [0x1ff | 6 << 12; 27],
        }
    }

    /// The state after placing the givens (row-major, 0 = empty, 1–9), built digit by
    /// digit: what [`State::place`] on each given gives, without its bookkeeping. `None`
    /// when two equal givens share a row, column or block.
    fn from_givens(givens: &[u8]) -> Option<State> {
        // Band by band and without a branch on the givens (`of[0]` collects the empty cells),
        // as the givens of a puzzle are too irregular for a branch to be predicted. (Givens
        // are 0–9, as `search_givens` checks; the `min` only spares the bounds check.)
        let mut of = [[0u32; 3]; 10];
        for (b, band) in givens.chunks_exact(27).take(3).enumerate() {
            for (j, &g) in band.iter().enumerate() {
                of[usize::from(g).min(9)][b] |= 1 << j;
            }
        }
        let mut st = State::empty();
        st.unsolved = of[0];
        for (d, given) in of[1..].iter().enumerate() {
            let mut w: [u32; 3] = std::array::from_fn(|b| st.unsolved[b] | given[b]);
            for b in 0..3 {
                let mut x = given[b];
                while x != 0 {
                    let j = x.trailing_zeros();
                    x &= x - 1;
                    if w[b] >> j & 1 == 0 {
                        return None;
                    }
                    w[b] &= !BAND_PEERS[j as usize];
                    let (b1, b2) = others(b);
                    let col = !columns(1 << (j % 9));
                    w[b1] &= col;
                    w[b2] &= col;
                }
            }
            for (b, &x) in w.iter().enumerate() {
                st.cand[9 * b + d] = x;
            }
        }
        Some(st)
    }

    #[inline(always)]
    fn and(&mut self, i: usize, mask: u32) {
        let old = self.cand[i];
        let new = old & mask;
        self.cand[i] = new;
        self.dirty |= ((old != new) as u32) << i;
    }

    /// Places digit `d` (0-based) on bit `j` of band `b`; false when `d` is no longer possible
    /// there.
    #[inline]
    fn place(&mut self, d: usize, b: usize, j: u32) -> bool {
        let m = 1u32 << j;
        if self.cand[9 * b + d] & m == 0 {
            return false;
        }
        self.and(9 * b + d, !BAND_PEERS[j as usize]);
        let (b1, b2) = others(b);
        let col = !columns(1 << (j % 9));
        self.and(9 * b1 + d, col);
        self.and(9 * b2 + d, col);
        self.dirty |= clear_band(&mut self.cand, b, d, m);
        self.unsolved[b] &= !m;
        true
    }

    /// The band rule on every dirty word until none is left; false on a contradiction. The
    /// words processed are added to `seen`.
    #[inline]
    fn bands(&mut self, seen: &mut u32) -> bool {
        // The worklist and the placed cells stay in registers (`self.dirty` is written back).
        let (mut dirty, mut unsolved, mut all) = (self.dirty, self.unsolved, *seen);
        let (cand, shape) = (&mut self.cand, &mut self.shape);
        while dirty != 0 {
            all |= dirty;
            let i = (dirty.trailing_zeros() as usize).min(26);
            dirty &= dirty - 1;
            let a = cand[i];
            let m = minirows(a);
            let perms = PERMS[m] as usize;
            let allowed = perms & 0x1ff;
            if allowed == 0 {
                self.dirty = dirty;
                return false;
            }
            // The word keeps the mini-rows of its permutations.
            shape[i] = ((m & allowed) | (perms & 0x7000)) as u16;
            let a = a & EXPAND[allowed];
            cand[i] = a;
            // Rows with one cell left: placements (cells placed before had their columns
            // and their cell in the other digits' words cleared then).
            let placed = SINGLE[(a & ROW) as usize] as u32
                | (SINGLE[((a >> 9) & ROW) as usize] as u32) << 9
                | (SINGLE[((a >> 18) & ROW) as usize] as u32) << 18;
            let (d, b) = (i % 9, i / 9);
            let new = placed & unsolved[b];
            if new == 0 {
                continue;
            }
            unsolved[b] &= !new;
            let (b1, b2) = others(b);
            let col = !columns((new | new >> 9 | new >> 18) & ROW);
            clear(cand, &mut dirty, 9 * b1 + d, col);
            clear(cand, &mut dirty, 9 * b2 + d, col);
            dirty |= clear_band(cand, b, d, new);
        }
        self.dirty = 0;
        self.unsolved = unsolved;
        *seen = all;
        true
    }

    /// Propagates to a fixpoint; false on a contradiction.
    fn propagate(&mut self) -> bool {
        // Words changed since each later stage last looked at them: a stage skips the bands
        // (digits) whose words did not change, as it would find nothing new there. At a node
        // that is the word its branch restricted (the parent reached a fixpoint), at the root
        // every word.
        let (mut naked, mut hidden, mut triad) = (self.dirty, self.dirty, self.dirty);
        loop {
            let mut seen = 0;
            if !self.bands(&mut seen) {
                return false;
            }
            naked |= seen;
            hidden |= seen;
            triad |= seen;
            // Every cell placed (each with one digit, no two alike in a row, column or block:
            // a placement clears its peers) and every band word has its three rows: solved.
            if self.unsolved == [0; 3] {
                return true;
            }
            // Naked singles, band by band.
            let mut progress = false;
            for b in 0..3 {
                let u = self.unsolved[b];
                if u == 0 || naked & (BAND_WORDS << (9 * b)) == 0 {
                    continue;
                }
                let (mut ones, mut twos) = (0u32, 0u32);
                for d in 0..9 {
                    let x = self.cand[9 * b + d];
                    twos |= ones & x;
                    ones |= x;
                }
                if u & !ones != 0 {
                    return false;
                }
                let singles = u & !twos;
                if singles == 0 {
                    continue;
                }
                progress = true;
                for d in 0..9 {
                    let mut x = self.cand[9 * b + d] & singles;
                    while x != 0 {
                        let j = x.trailing_zeros();
                        x &= x - 1;
                        if !self.place(d, b, j) {
                            return false;
                        }
                    }
                }
            }
            naked = 0;
            if progress {
                continue;
            }
            // Hidden singles in columns, digit by digit.
            for d in 0..9 {
                if hidden & (DIGIT_WORDS << d) == 0 {
                    continue;
                }
                let (mut ones, mut twos) = (0u32, 0u32);
                for b in 0..3 {
                    let a = self.cand[9 * b + d];
                    for r in 0..3 {
                        let x = (a >> (9 * r)) & ROW;
                        twos |= ones & x;
                        ones |= x;
                    }
                }
                if ones != ROW {
                    return false;
                }
                // The stack rule: per stack, the digit's mini-columns (band × column) form a
                // permutation, as its mini-rows do in a band.
                let c = [
                    self.cand[d] | self.cand[d] >> 9 | self.cand[d] >> 18,
                    self.cand[9 + d] | self.cand[9 + d] >> 9 | self.cand[9 + d] >> 18,
                    self.cand[18 + d] | self.cand[18 + d] >> 9 | self.cand[18 + d] >> 18,
                ];
                let mut keep = [0u32; 3];
                for s in 0..3 {
                    let m = ((c[0] >> (3 * s)) & 7) | ((c[1] >> (3 * s)) & 7) << 3 | ((c[2] >> (3 * s)) & 7) << 6;
                    let p = PERMS[m as usize] as u32 & 0x1ff;
                    if p == 0 {
                        return false;
                    }
                    keep[0] |= (p & 7) << (3 * s);
                    keep[1] |= ((p >> 3) & 7) << (3 * s);
                    keep[2] |= ((p >> 6) & 7) << (3 * s);
                }
                for b in 0..3 {
                    if (c[b] & ROW) & !keep[b] != 0 {
                        progress = true;
                        self.and(9 * b + d, columns(keep[b]));
                    }
                }
                let single = columns(ones & !twos);
                if single == 0 {
                    continue;
                }
                for b in 0..3 {
                    let mut x = self.cand[9 * b + d] & self.unsolved[b] & single;
                    while x != 0 {
                        progress = true;
                        let j = x.trailing_zeros();
                        x &= x - 1;
                        if !self.place(d, b, j) {
                            return false;
                        }
                    }
                }
            }
            hidden = 0;
            if progress {
                continue;
            }
            let which = triad;
            triad = 0;
            match self.triads(which) {
                None => return false,
                Some(false) => return true,
                Some(true) => {}
            }
        }
    }

    /// The triad rule: the three cells of a mini-row (or mini-column) hold three digits, so
    /// when only three digits can go there, each is locked in it (it leaves the rest of the
    /// mini-row's row and block, or the mini-column's column and block), and when three digits
    /// are certain there, no other can go there. `None` on a contradiction (fewer than three
    /// digits possible, or more than three certain), else whether anything changed.
    fn triads(&mut self, which: u32) -> Option<bool> {
        let mut progress = false;
        for b in 0..3 {
            // (A band whose cells are all placed satisfies the rule.)
            if which & (BAND_WORDS << (9 * b)) == 0 || self.unsolved[b] == 0 {
                continue;
            }
            // Horizontal: mini-rows of band b (bit 3·r + k).
            let mut rows = [0u32; 9];
            let (mut c1, mut c2, mut c3, mut c4) = (0u32, 0u32, 0u32, 0u32);
            let (mut s1, mut s2, mut s3, mut s4) = (0u32, 0u32, 0u32, 0u32);
            let mut sure = [0u32; 9];
            for d in 0..9 {
                // The band rule's mini-rows, unless this run changed the word (in another
                // band's vertical part).
                let i = 9 * b + d;
                let m = if self.dirty >> i & 1 == 0 {
                    u32::from(self.shape[i] & 0x1ff)
                } else {
                    minirows(self.cand[i]) as u32
                };
                debug_assert_eq!(m as usize, minirows(self.cand[i]), "stale mini-rows");
                rows[d] = m;
                c4 |= c3 & m;
                c3 |= c2 & m;
                c2 |= c1 & m;
                c1 |= m;
                // Certain: the only mini-row of its row.
                let t = u32::from(ALONE9[m as usize]);
                sure[d] = t;
                s4 |= s3 & t;
                s3 |= s2 & t;
                s2 |= s1 & t;
                s1 |= t;
            }
            if c3 != 0x1ff || s4 != 0 {
                return None;
            }
            let exact = !c4 & 0x1ff;
            for d in 0..9 {
                let m = rows[d];
                let mut cut = (m & s3 & !sure[d]) as usize;
                let mut req = m & exact & !sure[d];
                while req != 0 {
                    let j = req.trailing_zeros() as usize;
                    req &= req - 1;
                    cut |= LOCKED_OUT[j] as usize;
                }
                if cut != 0 && self.cand[9 * b + d] & EXPAND[cut & 0x1ff] != 0 {
                    progress = true;
                    self.and(9 * b + d, !EXPAND[cut & 0x1ff]);
                }
            }
            // Vertical: mini-columns of band b (bit c: column c).
            let (mut c1, mut c2, mut c3, mut c4) = (0u32, 0u32, 0u32, 0u32);
            let (mut s1, mut s2, mut s3, mut s4) = (0u32, 0u32, 0u32, 0u32);
            for d in 0..9 {
                let a = self.cand[9 * b + d];
                let m = (a | a >> 9 | a >> 18) & ROW;
                rows[d] = m;
                c4 |= c3 & m;
                c3 |= c2 & m;
                c2 |= c1 & m;
                c1 |= m;
                // Certain: the only mini-column of its block in the band.
                let t = u32::from(ALONE9[m as usize]);
                sure[d] = t;
                s4 |= s3 & t;
                s3 |= s2 & t;
                s2 |= s1 & t;
                s1 |= t;
            }
            if c3 != ROW || s4 != 0 {
                return None;
            }
            let exact = !c4 & ROW;
            for d in 0..9 {
                let m = rows[d];
                let cut = m & s3 & !sure[d];
                if cut != 0 {
                    progress = true;
                    self.and(9 * b + d, !columns(cut));
                }
                // Locked in mini-column c: the digit leaves column c in the other bands and
                // the other columns of its block in this band.
                let req = m & exact & !sure[d];
                if req != 0 {
                    let mut keep = ROW;
                    for s in 0..3 {
                        let r = (req >> (3 * s)) & 7;
                        if r != 0 {
                            keep &= !(7 << (3 * s)) | (r << (3 * s));
                        }
                    }
                    if m & !keep != 0 {
                        progress = true;
                        self.and(9 * b + d, columns(keep));
                    }
                    let (b1, b2) = others(b);
                    let out = !columns(req);
                    for o in [b1, b2] {
                        if self.cand[9 * o + d] & !out != 0 {
                            progress = true;
                            self.and(9 * o + d, out);
                        }
                    }
                }
            }
        }
        Some(progress)
    }

    fn solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The cell to branch on (band, bit): the first with two candidates, else one with the
    /// fewest. Only called on a propagated, unsolved state.
    fn choose(&self) -> (usize, u32) {
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let (mut ones, mut twos, mut threes) = (0u32, 0u32, 0u32);
            for d in 0..9 {
                let x = self.cand[9 * b + d];
                threes |= twos & x;
                twos |= ones & x;
                ones |= x;
            }
            let pairs = u & twos & !threes;
            if pairs != 0 {
                return (b, pairs.trailing_zeros());
            }
        }
        let mut best = (0, 0, u32::MAX);
        for b in 0..3 {
            let mut u = self.unsolved[b];
            while u != 0 {
                let j = u.trailing_zeros();
                u &= u - 1;
                let k = (0..9).filter(|&d| self.cand[9 * b + d] >> j & 1 != 0).count() as u32;
                if k < best.2 {
                    best = (b, j, k);
                }
            }
        }
        (best.0, best.1)
    }

    /// The digit and band to branch on, with the digit's mini-rows still allowed there: in
    /// the band with the fewest configurations summed over its digits, the digit with the
    /// fewest (at least two). `None` when every digit has one configuration left in every band.
    fn choose_band(&self) -> Option<(usize, usize, u16)> {
        let mut best: Option<(usize, usize, u16)> = None;
        let mut best_score = u32::MAX;
        for b in 0..3 {
            if self.unsolved[b] == 0 {
                continue;
            }
            let (mut total, mut k_min, mut here) = (0u32, u32::MAX, 0usize);
            for d in 0..9 {
                let k = u32::from(self.shape[9 * b + d] >> 12);
                debug_assert_eq!(k, PERM_COUNT[minirows(self.cand[9 * b + d])] as u32, "stale count");
                total += k;
                if k >= 2 && k < k_min {
                    (k_min, here) = (k, d);
                }
            }
            if k_min != u32::MAX && total * 8 + k_min < best_score {
                best_score = total * 8 + k_min;
                best = Some((here, b, PERMS[minirows(self.cand[9 * b + here])] & 0x1ff));
            }
        }
        best
    }

    /// The grid, row-major, values 1–9 (a solved state).
    fn values(&self) -> Vec<u8> {
        let mut v = vec![0u8; 81];
        for d in 0..9 {
            for b in 0..3 {
                let mut x = self.cand[9 * b + d];
                while x != 0 {
                    let j = x.trailing_zeros() as usize;
                    x &= x - 1;
                    v[27 * b + j] = d as u8 + 1;
                }
            }
        }
        v
    }
}

/// One search: counters, limits and the solutions kept.
struct Run<'a> {
    limits: &'a Limits,
    keep: usize,
    stats: Stats,
    solutions: u64,
    kept: Vec<Vec<u8>>,
    stop: Option<StopReason>,
}

impl Run<'_> {
    /// Searches below `st` (a copy); true when the search must stop.
    fn node(&mut self, mut st: State, depth: u64) -> bool {
        self.stats.nodes += 1;
        if let Some(limit) = self.limits.node_limit {
            if self.stats.nodes > limit {
                self.stats.nodes = limit;
                self.stop = Some(StopReason::NodeLimit);
                return true;
            }
        }
        if self.stats.nodes % CHECK_EVERY == 0 {
            if let Some(why) = self.limits.checkpoint() {
                self.stop = Some(why);
                return true;
            }
        }
        self.stats.max_depth = self.stats.max_depth.max(depth);
        if !st.propagate() {
            self.stats.failures += 1;
            return false;
        }
        if st.solved() {
            self.solutions += 1;
            self.limits.solution_found();
            if self.kept.len() < self.keep {
                self.kept.push(st.values());
            }
            if self.limits.max_solutions.is_some_and(|m| self.solutions >= m) {
                self.stop = Some(StopReason::SolutionLimit);
                return true;
            }
            return false;
        }
        // Branch on the configurations of one digit in one band (see `choose_band`); a
        // state whose every digit has one configuration left in every band branches on a cell.
        if let Some((d, b, allowed)) = st.choose_band() {
            for p in PERM_BITS {
                if allowed & p == p {
                    let mut child = st;
                    child.and(9 * b + d, EXPAND[p as usize]);
                    if self.node(child, depth + 1) {
                        return true;
                    }
                }
            }
            return false;
        }
        let (b, j) = st.choose();
        for d in 0..9 {
            if st.cand[9 * b + d] >> j & 1 == 0 {
                continue;
            }
            let mut child = st;
            if child.place(d, b, j) && self.node(child, depth + 1) {
                return true;
            }
        }
        false
    }
}

/// Searches a 9×9 grid of givens (row-major, 0 = empty, 1–9) under `limits`
/// (`max_solutions`, node limit, deadline, cancellation), keeping the first `keep` solutions
/// (values row-major). `None` when the grid is not 81 values of 0–9.
pub fn search_givens(givens: &[u8], limits: &Limits, keep: usize) -> Option<(Vec<Vec<u8>>, SearchResult)> {
    if givens.len() != 81 || givens.iter().any(|&g| g > 9) {
        return None;
    }
    let started = Instant::now();
    let mut run = Run {
        limits,
        keep,
        stats: Stats::default(),
        solutions: 0,
        kept: Vec::new(),
        stop: limits.interrupted(),
    };
    if run.stop.is_none() {
        if let Some(st) = State::from_givens(givens) {
            run.node(st, 0);
        } else {
            // The givens clash: the root node fails.
            run.stats.nodes = 1;
            run.stats.failures = 1;
        }
    }
    run.stats.elapsed_us = started.elapsed().as_micros() as u64;
    limits.search_ended(run.stats.nodes);
    let r = SearchResult {
        solutions: run.solutions,
        stop: run.stop.unwrap_or(StopReason::Exhausted),
        stats: run.stats,
    };
    Some((run.kept, r))
}

/// [`search_givens`] on a puzzle; `None` unless it is 9×9 with 3×3 blocks.
pub fn search(p: &Sudoku, limits: &Limits, keep: usize) -> Option<(Vec<Vec<u8>>, SearchResult)> {
    if p.block() != SHAPE {
        return None;
    }
    search_givens(p.givens(), limits, keep)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backtrack::tests::{brute, random_puzzle};
    use crate::board::Candidates;
    use crate::solver::check_solution;
    use proptest::prelude::*;

    const FIG4: &str = "3.9....74..5...9.2....49...6....3.2....2.5....3.1....7...78....8.3...7..91....5.8";

    fn nine(line: &str) -> Sudoku {
        Sudoku::parse(line, None).unwrap()
    }

    /// `backtrack`'s count (up to `max`) of a puzzle; 0 when the givens clash.
    fn backtrack_count(p: &Sudoku, max: Option<u64>) -> u64 {
        match Candidates::from_puzzle(p) {
            Err(_) => 0,
            Ok(c) => {
                crate::backtrack::search(&c, &Limits::default().with_max_solutions(max), 0)
                    .1
                    .unwrap()
                    .solutions
            }
        }
    }

    #[test]
    fn the_tables_follow_the_permutation_argument() {
        // Every mini-row of a full band is in some permutation; a missing row leaves none.
        assert_eq!(PERMS[0x1ff], 0x1ff | 6 << 12);
        assert_eq!(PERMS[0x1ff & !0b111], 0);
        // The diagonal alone is one permutation; the diagonal plus one off-diagonal bit keeps
        // only the diagonal.
        assert_eq!(PERMS[0b100_010_001], 0b100_010_001 | 1 << 12);
        assert_eq!(PERMS[0b100_010_011], 0b100_010_001 | 1 << 12);
        // The count beside the union is the number of permutations inside the mask.
        for m in 0..512 {
            assert_eq!(usize::from(PERMS[m] >> 12), usize::from(PERM_COUNT[m]), "{m:09b}");
        }
        assert_eq!(EXPAND[1], 7);
        assert_eq!(EXPAND[0b1000], 7 << 9);
        assert_eq!(MINIROWS[0b010_000_000], 0b100);
        assert_eq!((SINGLE[0], SINGLE[0b100_000], SINGLE[0b100_001]), (0, 0b100_000, 0));
        for m in 0..512 {
            assert_eq!(ALONE9[m] & 7, u16::from(ALONE[m & 7]), "{m:09b}");
        }
        assert_eq!(BAND_PEERS[0].count_ones(), 8 + 6);
        // What a branch copies (the module docs give the figure).
        assert_eq!(std::mem::size_of::<State>(), 180);
    }

    #[test]
    fn the_figure_four_puzzle_has_one_solution_that_verifies() {
        let p = nine(FIG4);
        let (sols, r) = search(&p, &Limits::default(), 2).unwrap();
        assert_eq!((r.solutions, r.stop), (1, StopReason::Exhausted));
        assert!(check_solution(&p, &sols[0]).is_empty());
        assert!(r.stats.nodes >= 1);
    }

    #[test]
    fn an_empty_grid_counts_up_to_the_limit_with_distinct_witnesses() {
        let p = nine(&".".repeat(81));
        let (sols, r) = search(&p, &Limits::count_up_to(1000), 2).unwrap();
        assert_eq!((r.solutions, r.stop), (1000, StopReason::SolutionLimit));
        assert_eq!(sols.len(), 2);
        assert_ne!(sols[0], sols[1]);
        assert!(sols.iter().all(|s| check_solution(&p, s).is_empty()));
    }

    #[test]
    fn limits_stop_the_search_and_say_why() {
        let p = nine(&".".repeat(81));
        let (_, r) = search(
            &p,
            &Limits {
                node_limit: Some(50),
                ..Limits::default()
            },
            0,
        )
        .unwrap();
        assert_eq!((r.stop, r.stats.nodes), (StopReason::NodeLimit, 50));
        let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
        let (_, r) = search(
            &p,
            &Limits {
                cancel: Some(flag),
                ..Limits::default()
            },
            0,
        )
        .unwrap();
        assert_eq!((r.stop, r.solutions), (StopReason::Cancelled, 0));
        let started = Instant::now();
        let (_, r) = search(
            &p,
            &Limits {
                deadline: Some(started + std::time::Duration::from_millis(200)),
                ..Limits::default()
            },
            0,
        )
        .unwrap();
        assert_eq!(r.stop, StopReason::Deadline);
        assert!(r.solutions > 0);
    }

    #[test]
    fn clashing_givens_and_other_shapes_are_handled() {
        let p = nine(&format!("11{}", ".".repeat(79)));
        let (sols, r) = search(&p, &Limits::default(), 1).unwrap();
        assert_eq!((r.solutions, r.stop, sols.len()), (0, StopReason::Exhausted, 0));
        assert!(search(&Sudoku::parse(&".".repeat(16), None).unwrap(), &Limits::first(), 1).is_none());
        assert!(search_givens(&[0; 80], &Limits::first(), 1).is_none());
        assert!(search_givens(&[10; 81], &Limits::first(), 1).is_none());
    }

    #[test]
    fn counts_agree_with_brute_force_on_dense_random_grids() {
        let mut rng = crate::generate::Rng::new(5);
        let mut several = 0;
        for k in 0..60 {
            // Even: givens with a few wrong digits (often unsolvable); odd: half of a solved
            // grid's cells, uncorrupted (solvable, often several solutions).
            let p = if k % 2 == 0 {
                random_puzzle(SHAPE, &mut rng, 72)
            } else {
                let mut g = crate::generate::pattern_solution(SHAPE, &mut rng);
                for v in g.iter_mut() {
                    if rng.below(100) < 50 {
                        *v = 0;
                    }
                }
                Sudoku::new(SHAPE, g).unwrap()
            };
            let all = brute(&p, Some(10_000));
            several += usize::from(all.len() > 1);
            let (sols, r) = search(&p, &Limits::default(), usize::MAX).unwrap();
            assert_eq!(r.solutions, all.len() as u64, "{}", p.to_line());
            let mut mine: Vec<Vec<u32>> = sols.iter().map(|s| s.iter().map(|&v| v as u32).collect()).collect();
            let mut theirs = all.clone();
            mine.sort();
            theirs.sort();
            assert_eq!(mine, theirs, "{}", p.to_line());
        }
        // The sample has grids with several solutions, not only unique and unsolvable ones.
        assert!(several >= 5, "{several}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Propagation is sound: from any subset of a solved grid's cells, the band, stack and
        /// triad rules and the singles never remove a digit of that solution.
        #[test]
        fn propagation_keeps_a_solution_of_the_givens(seed in any::<u64>(), pct in 0usize..60) {
            let mut rng = crate::generate::Rng::new(seed);
            let sol = crate::generate::pattern_solution(SHAPE, &mut rng);
            let mut st = State::empty();
            for (i, &v) in sol.iter().enumerate() {
                if rng.below(100) < pct {
                    prop_assert!(st.place(v as usize - 1, i / 27, (i % 27) as u32));
                }
            }
            prop_assert!(st.propagate());
            for (i, &v) in sol.iter().enumerate() {
                let d = v as usize - 1;
                prop_assert!(st.cand[9 * (i / 27) + d] >> (i % 27) & 1 == 1, "cell {} lost {}", i, v);
            }
        }

        /// Building the root from the givens at once is placing them one by one.
        #[test]
        fn the_root_is_the_givens_placed_one_by_one(seed in any::<u64>(), pct in 0usize..90) {
            let mut rng = crate::generate::Rng::new(seed);
            let p = random_puzzle(SHAPE, &mut rng, pct);
            let mut st = State::empty();
            let placed = p
                .givens()
                .iter()
                .enumerate()
                .filter(|&(_, &g)| g != 0)
                .all(|(i, &g)| st.place(g as usize - 1, i / 27, (i % 27) as u32));
            match State::from_givens(p.givens()) {
                None => prop_assert!(!placed),
                Some(at_once) => {
                    prop_assert!(placed);
                    prop_assert_eq!((at_once.cand, at_once.unsolved), (st.cand, st.unsolved));
                }
            }
        }

        /// Full counts of sparse grids (hundreds to thousands of solutions, so the search
        /// branches on band configurations many levels deep) agree with `backtrack`.
        #[test]
        fn full_counts_agree_with_backtrack(seed in any::<u64>(), pct in 30usize..45) {
            let mut rng = crate::generate::Rng::new(seed);
            let mut g = crate::generate::pattern_solution(SHAPE, &mut rng);
            for v in g.iter_mut() {
                if rng.below(100) >= pct {
                    *v = 0;
                }
            }
            let p = Sudoku::new(SHAPE, g).unwrap();
            let max = Some(3000);
            let (_, r) = search(&p, &Limits::count_up_to(3000), 0).unwrap();
            prop_assert_eq!(r.solutions, backtrack_count(&p, max), "{}", p.to_line());
        }

        /// Counts with any solution limit, and first solutions, agree with `backtrack` on
        /// random partial grids (some with clashing or wrong givens, many with several
        /// solutions); every kept solution verifies and keeps the givens.
        #[test]
        fn counts_agree_with_backtrack(seed in any::<u64>(), pct in 20usize..80, max in 1u64..6) {
            let mut rng = crate::generate::Rng::new(seed);
            let p = random_puzzle(SHAPE, &mut rng, pct);
            let limits = Limits::count_up_to(max);
            let (sols, r) = search(&p, &limits, 3).unwrap();
            let expected = backtrack_count(&p, Some(max));
            prop_assert_eq!(r.solutions, expected, "{}", p.to_line());
            // The limit is reached exactly when there are at least `max` solutions.
            prop_assert_eq!(r.stop == StopReason::SolutionLimit, expected == max);
            prop_assert_eq!(sols.len() as u64, expected.min(3));
            for s in &sols {
                prop_assert!(check_solution(&p, s).is_empty());
            }
            if sols.len() == 2 {
                prop_assert_ne!(&sols[0], &sols[1]);
            }
        }

        /// A node limit stops the search with at most that many nodes, and a search that
        /// ends within it is the unlimited search.
        #[test]
        fn node_limits_hold(seed in any::<u64>(), pct in 0usize..60, limit in 0u64..40) {
            let mut rng = crate::generate::Rng::new(seed);
            let p = random_puzzle(SHAPE, &mut rng, pct);
            let limited = Limits { node_limit: Some(limit), max_solutions: Some(2), ..Limits::default() };
            let (_, r) = search(&p, &limited, 0).unwrap();
            prop_assert!(r.stats.nodes <= limit.max(1));
            let (_, full) = search(&p, &Limits::count_up_to(2), 0).unwrap();
            if r.stop != StopReason::NodeLimit {
                prop_assert_eq!(r.solutions, full.solutions);
                prop_assert_eq!(r.stats.nodes, full.stats.nodes);
            } else {
                prop_assert!(full.stats.nodes > limit);
            }
        }
    }
}
