//! The chains behind the hard steps: from an assumed candidate to a contradiction, as links a
//! person can follow one by one ([`crate::solver::Link`]: cell, digit, holds, rule).
//!
//! [`singles_chain`] propagates an assumption breadth first by the singles (a placed digit
//! leaves its peers and its cell's other digits; a cell with one candidate left takes it, a
//! digit with one place left in a unit takes it), remembering for each fact the facts it came
//! from; at the first contradiction it walks back from it and keeps only the facts it needs,
//! in the order they were found, so each link follows from the assumption and the links before
//! it. Breadth first makes the chain short: no fact is derived in more rounds than it needs.
//! With `digit` set only that digit is followed (the chain of a Nishio step).
//!
//! [`check_chain`] replays a chain on the candidates it started from and is the tests' oracle.

use crate::geometry::Geometry;
use crate::solver::Link;
use pencilbox_core::human::ASSUME;
use pencilbox_core::Domain;

/// The rule id of a link concluded by a naked single (or a placed digit's eliminations).
const NAKED: &str = "naked-single";
/// The rule id of a link concluded by a hidden single.
const HIDDEN: &str = "hidden-single";

struct Fact {
    cell: usize,
    digit: u32,
    holds: bool,
    rule: &'static str,
    parents: Vec<u32>,
}

/// A chain found: its links, the contradiction in words, and whether it is static (every
/// strong link comes from a cell or unit that had two candidates or places to begin with).
pub struct Found {
    /// The links, the assumption first.
    pub links: Vec<Link>,
    /// The contradiction it ends in.
    pub contradiction: String,
    /// Every strong link is a bivalue cell or a bilocal unit of the starting candidates.
    pub is_static: bool,
}

struct Prop<'a> {
    geo: &'a Geometry,
    cand: &'a [Domain],
    val: Vec<Domain>,
    facts: Vec<Fact>,
    /// Fact id per literal `(cell * n + digit - 1) * 2 + holds`, `u32::MAX` for none.
    index: Vec<u32>,
    n: usize,
    digit: Option<u32>,
}

/// Why propagation stopped: the contradiction and the facts it rests on.
type Conflict = (String, Vec<u32>);

impl Prop<'_> {
    fn lit(&self, c: usize, d: u32, holds: bool) -> usize {
        (c * self.n + d as usize - 1) * 2 + holds as usize
    }
    fn fact_of(&self, c: usize, d: u32, holds: bool) -> Option<u32> {
        let f = self.index[self.lit(c, d, holds)];
        (f != u32::MAX).then_some(f)
    }
    fn add(&mut self, c: usize, d: u32, holds: bool, rule: &'static str, parents: Vec<u32>) -> Result<(), Conflict> {
        if self.fact_of(c, d, holds).is_some() {
            return Ok(());
        }
        let id = self.facts.len() as u32;
        let l = self.lit(c, d, holds);
        self.index[l] = id;
        self.facts.push(Fact {
            cell: c,
            digit: d,
            holds,
            rule,
            parents,
        });
        if let Some(o) = self.fact_of(c, d, !holds) {
            return Err((
                format!("{} would be both {d} and not {d}", self.geo.name(c)),
                vec![o, id],
            ));
        }
        Ok(())
    }
    fn run(&mut self) -> Result<(), Conflict> {
        let mut head = 0;
        while head < self.facts.len() {
            let (c, d, holds) = {
                let f = &self.facts[head];
                (f.cell, f.digit, f.holds)
            };
            let me = head as u32;
            head += 1;
            if holds {
                for &p in self.geo.peers(c) {
                    if self.val[p as usize].contains(d) {
                        self.add(p as usize, d, false, NAKED, vec![me])?;
                    }
                }
                if self.digit.is_none() {
                    for e in self.val[c].without(d).iter() {
                        self.add(c, e, false, NAKED, vec![me])?;
                    }
                }
                continue;
            }
            self.val[c].remove(d);
            if self.digit.is_none() {
                let left = self.val[c];
                let why = |p: &Self| -> Vec<u32> {
                    p.cand[c]
                        .minus(left)
                        .iter()
                        .filter_map(|e| p.fact_of(c, e, false))
                        .collect()
                };
                if left.is_empty() {
                    return Err((format!("{} would have no candidate left", self.geo.name(c)), why(self)));
                }
                if let Some(e) = left.value() {
                    let parents = why(self);
                    self.add(c, e, true, NAKED, parents)?;
                }
            }
            for u in self.geo.cell_units(c) {
                let unit = self.geo.unit(u as usize);
                let mut places = unit.iter().map(|&q| q as usize).filter(|&q| self.val[q].contains(d));
                let (first, second) = (places.next(), places.next());
                let why = |p: &Self, except: Option<usize>| -> Vec<u32> {
                    unit.iter()
                        .map(|&q| q as usize)
                        .filter(|&q| Some(q) != except && p.cand[q].contains(d))
                        .filter_map(|q| p.fact_of(q, d, false))
                        .collect()
                };
                match (first, second) {
                    (None, _) => {
                        return Err((
                            format!("{} would have no place for {d}", self.geo.unit_name(u as usize)),
                            why(self, None),
                        ));
                    }
                    (Some(q), None) => {
                        let parents = why(self, Some(q));
                        self.add(q, d, true, HIDDEN, parents)?;
                    }
                    _ => {}
                }
            }
        }
        Ok(())
    }
}

/// The chain from `cell = digit` to a contradiction by the singles (only `only` when set),
/// on the candidates `cand`; `None` when they reach none.
pub fn singles_chain(geo: &Geometry, cand: &[Domain], cell: usize, digit: u32, only: Option<u32>) -> Option<Found> {
    let n = geo.n();
    let mut p = Prop {
        geo,
        cand,
        val: cand.to_vec(),
        facts: Vec::new(),
        index: vec![u32::MAX; cand.len() * n * 2],
        n,
        digit: only,
    };
    let (contradiction, roots) = match p.add(cell, digit, true, ASSUME, Vec::new()).and_then(|_| p.run()) {
        Ok(()) => return None,
        Err(e) => e,
    };
    let mut keep = vec![false; p.facts.len()];
    let mut stack = roots;
    while let Some(f) = stack.pop() {
        if !std::mem::replace(&mut keep[f as usize], true) {
            stack.extend(p.facts[f as usize].parents.iter().copied());
        }
    }
    let mut is_static = true;
    let mut links = Vec::new();
    for (f, fact) in p.facts.iter().enumerate() {
        if !keep[f] {
            continue;
        }
        if fact.holds && fact.rule != ASSUME {
            // Static: the strong link's other end was the only alternative from the start.
            is_static &= match fact.rule {
                NAKED => cand[fact.cell].len() == 2,
                _ => fact.parents.len() == 1,
            };
        }
        links.push((fact.cell, fact.digit as u8, fact.holds, fact.rule));
    }
    Some(Found {
        links,
        contradiction,
        is_static,
    })
}

/// Replays `chain` on the candidates `cand` it started from: the first link is an assumption
/// (a candidate taken as true), and each later link follows from the links before it by its
/// rule (`naked-single`: a true link in the cell or a peer excludes the digit, or the cell has
/// that one candidate left; `hidden-single`: the unit has that one place left), and the links
/// end in a contradiction (a fact and its negation, a cell with no candidate, a unit with no
/// place for a digit). `Err` says which link fails.
pub fn check_chain(geo: &Geometry, cand: &[Domain], chain: &[Link]) -> Result<(), String> {
    let n = geo.n();
    let Some(&(c0, d0, true, ASSUME)) = chain.first() else {
        return Err("the first link is not an assumed candidate".into());
    };
    if !cand[c0].contains(d0 as u32) || cand[c0].len() < 2 {
        return Err(format!(
            "the assumption {} = {d0} is not an open candidate",
            geo.name(c0)
        ));
    }
    let mut t: Vec<Option<u32>> = vec![None; cand.len()];
    let mut f: Vec<Domain> = vec![Domain::EMPTY; cand.len()];
    t[c0] = Some(d0 as u32);
    let left = |f: &[Domain], c: usize| cand[c].minus(f[c]);
    for (i, &(c, d, holds, rule)) in chain.iter().enumerate().skip(1) {
        let d = d as u32;
        let ok = match (holds, rule) {
            (false, NAKED) => t[c].is_some_and(|v| v != d) || geo.peers(c).iter().any(|&p| t[p as usize] == Some(d)),
            (true, NAKED) => left(&f, c).without(d).is_empty(),
            (true, HIDDEN) => geo.cell_units(c).iter().any(|&u| {
                geo.unit(u as usize)
                    .iter()
                    .map(|&q| q as usize)
                    .all(|q| q == c || !left(&f, q).contains(d))
            }),
            _ => false,
        };
        if !ok || !cand[c].contains(d) {
            return Err(format!(
                "link {i} ({} {} {d} by {rule}) does not follow",
                geo.name(c),
                if holds { "=" } else { "≠" }
            ));
        }
        if holds {
            t[c] = Some(d);
        } else {
            f[c].insert(d);
        }
    }
    let both = (0..cand.len()).any(|c| t[c].is_some_and(|v| f[c].contains(v)));
    let empty_cell = (0..cand.len()).any(|c| left(&f, c).is_empty());
    let empty_unit = geo.units().iter().any(|u| {
        (1..=n as u32).any(|d| {
            u.iter().any(|&q| cand[q as usize].contains(d)) && u.iter().all(|&q| !left(&f, q as usize).contains(d))
        })
    });
    if both || empty_cell || empty_unit {
        Ok(())
    } else {
        Err("the chain ends in no contradiction".into())
    }
}
