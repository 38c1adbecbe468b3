//! The paper's theorems used as checks and bounds.
//!
//! * [`precheck`] — answered before any search: **Theorem 1** (a 2×2 subgrid containing two or
//!   more complete regions has no solution, since each such region holds a 1 and all four cells
//!   touch; on one-row/one-column grids the same argument on 1×2 windows), and two equal hints in one region or in king-adjacent cells (rules 1 and 2 of
//!   Definition 1 broken by the hints themselves).
//! * [`theorem2_bound`] — `T(m, n, R) = 1 + Σ_α Σ_{i=1}^{ε_α} (Π_{κ<α} ε_κ!) · P(ε_α, i) · i`,
//!   the paper's bound (Theorem 2) on the elementary operations of Algorithm 2, with `ε_α` the
//!   number of empty cells of region `α`.
//! * [`theorem4_bound`] — `Π_k |χ_k|!`, the bound of Theorem 4 on the number of solutions of a
//!   `1×n` instance (it holds for any shape: each region's empty cells take a permutation of χ_k).

use crate::model::Suguru;
use num_bigint::BigUint;
use num_traits::One;

/// Why an instance has no solution, found without search; `None` when the checks pass.
///
/// ```
/// // Two one-cell regions side by side: both must hold 1 (Theorem 1).
/// let p = pencilbox_suguru::parse("1 2\n0 0\n1 2\n").unwrap();
/// assert!(pencilbox_suguru::theorems::precheck(&p).unwrap().starts_with("Theorem 1"));
/// ```
pub fn precheck(p: &Suguru) -> Option<String> {
    let shape = p.shape();
    // Equal hints in one region (a flat table: slot start_k + h − 1 per region k and hint h).
    let mut start = Vec::with_capacity(p.num_regions());
    let mut total = 0usize;
    for k in 0..p.num_regions() {
        start.push(total);
        total += p.region_size(k);
    }
    let mut seen: Vec<u32> = vec![u32::MAX; total];
    for c in shape.all() {
        let h = p.hint(c) as usize;
        if h == 0 {
            continue;
        }
        let k = p.region_of(c);
        let slot = &mut seen[start[k] + h - 1];
        if *slot != u32::MAX {
            return Some(format!(
                "hints: {} and {} are both {h} in region {} (numbers in a region must differ)",
                shape.name(pencilbox_core::CellId(*slot)),
                shape.name(c),
                k + 1
            ));
        }
        *slot = c.0;
    }
    // Equal hints in touching cells (right, and the three cells below).
    let w = shape.width;
    let hints = p.hints().as_slice();
    for r in 0..shape.height {
        for col in 0..w {
            let i = r * w + col;
            let h = hints[i];
            if h == 0 {
                continue;
            }
            let below = r + 1 < shape.height;
            let right = col + 1 < w;
            let left = col > 0;
            let others = [
                right.then(|| i + 1),
                (below && left).then(|| i + w - 1),
                below.then(|| i + w),
                (below && right).then(|| i + w + 1),
            ];
            if let Some(n) = others.into_iter().flatten().find(|&n| hints[n] == h) {
                return Some(format!(
                    "hints: {} and {} touch and are both {h} (neighbouring numbers must differ)",
                    shape.name(pencilbox_core::CellId::from_index(i)),
                    shape.name(pencilbox_core::CellId::from_index(n))
                ));
            }
        }
    }
    if let Some((at, regions)) = crowded_window(p) {
        let (wh, ww) = (shape.height.min(2), shape.width.min(2));
        return Some(format!(
            "Theorem 1: the {wh}×{ww} subgrid at {} contains {} complete regions, and each needs a 1 in mutually adjacent cells",
            shape.name(at),
            regions.len()
        ));
    }
    None
}

/// Theorem 1's obstacle: the top-left cell of a 2×2 window (1×2 or 2×1 on one-row or
/// one-column grids) that contains two or more complete regions, and those regions.
pub fn crowded_window(p: &Suguru) -> Option<(pencilbox_core::CellId, Vec<usize>)> {
    let shape = p.shape();
    // On a one-row or one-column grid the windows are 1×2 (or 2×1): the proof only uses that
    // all cells of the window touch each other, which holds for these too.
    let (wh, ww) = (shape.height.min(2), shape.width.min(2));
    for r in 0..=shape.height - wh {
        for col in 0..=shape.width - ww {
            let mut window = [pencilbox_core::CellId(0); 4];
            let mut len = 0;
            for dr in 0..wh {
                for dc in 0..ww {
                    window[len] = shape.id(r + dr, col + dc);
                    len += 1;
                }
            }
            let window = &window[..len];
            // Two disjoint complete regions each have at most `len − 1` cells, so at least two
            // cells of the window lie in such small regions (a cheap test that skips most
            // windows).
            if window.iter().filter(|&&c| p.region_size_of(c) < len).count() < 2 {
                continue;
            }
            let mut complete = [usize::MAX; 4];
            let mut found = 0;
            for &c in window {
                let k = p.region_of(c);
                if complete[..found].contains(&k) {
                    continue;
                }
                let size = p.region_size(k);
                if size <= window.len() && window.iter().filter(|&&x| p.region_of(x) == k).count() == size {
                    complete[found] = k;
                    found += 1;
                }
            }
            if found >= 2 {
                return Some((window[0], complete[..found].to_vec()));
            }
        }
    }
    None
}

/// `ε_α`: the number of empty cells of each region.
pub fn empty_per_region(p: &Suguru) -> Vec<usize> {
    let mut eps = vec![0usize; p.num_regions()];
    for c in p.shape().all() {
        if p.hint(c) == 0 {
            eps[p.region_of(c)] += 1;
        }
    }
    eps
}

fn factorial(n: usize) -> BigUint {
    (2..=n as u64).fold(BigUint::one(), |acc, k| acc * k)
}

/// The largest number of empty cells for which [`theorem2_bound`] is computed exactly.
pub const THEOREM2_MAX_EMPTY: usize = 5000;

/// Theorem 2's bound `T(m, n, R)` for this instance; `None` when the instance has more than
/// [`THEOREM2_MAX_EMPTY`] empty cells (the number would have tens of thousands of digits).
///
/// ```
/// // Fig. 1: ε = (4, 2, 1): T = 1 + (4·1 + 12·2 + 24·3 + 24·4) + 4!·(2·1 + 2·2) + 4!·2!·1 = 389.
/// let p = pencilbox_suguru::parse("3 3\n0 0 0\n0 5 0\n0 0 3\n1 1 2\n1 1 2\n1 3 2\n").unwrap();
/// assert_eq!(pencilbox_suguru::theorems::theorem2_bound(&p).unwrap().to_string(), "389");
/// ```
pub fn theorem2_bound(p: &Suguru) -> Option<BigUint> {
    let eps = empty_per_region(p);
    if eps.iter().sum::<usize>() > THEOREM2_MAX_EMPTY {
        return None;
    }
    if let Some(t) = theorem2_bound_u128(&eps) {
        return Some(BigUint::from(t));
    }
    let mut total = BigUint::one();
    let mut prefix = BigUint::one(); // Π_{κ<α} ε_κ!
    for &e in &eps {
        if e == 0 {
            continue; // a full region adds no level and multiplies the prefix by 0! = 1
        }
        let mut perm = BigUint::one(); // P(e, i)
        let mut inner = BigUint::default();
        for i in 1..=e {
            perm *= (e - i + 1) as u64;
            inner += &perm * i as u64;
        }
        total += &prefix * inner;
        prefix *= factorial(e);
    }
    Some(total)
}

/// [`theorem2_bound`] in machine integers; `None` on overflow.
fn theorem2_bound_u128(eps: &[usize]) -> Option<u128> {
    let mut total: u128 = 1;
    let mut prefix: u128 = 1;
    for &e in eps {
        if e == 0 {
            continue;
        }
        let mut perm: u128 = 1;
        let mut inner: u128 = 0;
        for i in 1..=e {
            perm = perm.checked_mul((e - i + 1) as u128)?;
            inner = inner.checked_add(perm.checked_mul(i as u128)?)?;
        }
        total = total.checked_add(prefix.checked_mul(inner)?)?;
        prefix = prefix.checked_mul(perm)?; // perm = P(e, e) = e!
    }
    Some(total)
}

/// Theorem 4's bound `Π_k |χ_k|!` on the number of solutions.
pub fn theorem4_bound(p: &Suguru) -> BigUint {
    empty_per_region(p).into_iter().map(factorial).product()
}

/// A big number for a `--stats` line: in full up to 30 digits, else as `d.ddde+N`.
pub fn short_number(n: &BigUint) -> String {
    let s = n.to_string();
    if s.len() <= 30 {
        s
    } else {
        format!("{}.{}e+{}", &s[..1], &s[1..4], s.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::parse;

    #[test]
    fn equal_hints_in_a_region_or_touching_are_refused() {
        let p = parse("1 3\n1 0 1\n1 1 1\n").unwrap();
        assert!(precheck(&p).unwrap().contains("region 1"));
        let p = parse("2 2\n0 2\n2 0\n1 1\n2 2\n").unwrap();
        assert!(precheck(&p).unwrap().contains("touch"));
    }

    #[test]
    fn a_window_with_one_complete_region_is_fine() {
        let p = parse("2 2\n0 0\n0 0\n1 1\n1 1\n").unwrap();
        assert_eq!(precheck(&p), None);
        let p = parse("2 2\n0 0\n0 0\n1 1\n1 2\n").unwrap();
        assert!(precheck(&p).unwrap().starts_with("Theorem 1"));
    }

    #[test]
    fn the_machine_integer_and_big_integer_bounds_agree() {
        let eps = [4, 2, 1, 0, 5, 3];
        let small = theorem2_bound_u128(&eps).unwrap();
        // Recompute with the big-integer path by hand.
        let mut total = BigUint::one();
        let mut prefix = BigUint::one();
        for &e in &eps {
            let mut perm = BigUint::one();
            for i in 1..=e {
                perm *= (e - i + 1) as u64;
                total += &prefix * &perm * i as u64;
            }
            prefix *= factorial(e);
        }
        assert_eq!(BigUint::from(small), total);
        assert_eq!(theorem2_bound_u128(&[30, 30, 30]), None);
    }

    #[test]
    fn theorem4_bound_multiplies_factorials_of_free_values() {
        let p = parse("1 6\n0 0 1 0 2 0\n1 1 2 3 3 3\n").unwrap();
        assert_eq!(theorem4_bound(&p), BigUint::from(4u32)); // 2!·0!·2!
    }
}
