//! Distinctness: pairs of variables that must differ (on all values or on some), groups whose
//! variables are pairwise different, and *permutation* groups that take each of a set of
//! values exactly once — with the classic deductions as named rules.
//!
//! # Background
//! Suguru (regions hold `1..=size`, touching cells differ), Sudoku (rows, columns and blocks
//! hold `1..=n`), Ripple Effect (regions hold `1..=size`, two equal numbers `N` in a line are
//! more than `N` cells apart) and many other grid puzzles are one structure: a *conflict
//! graph* whose edges say "these two cells cannot both hold a value of this set", plus groups
//! that are permutations. [`Distinct`] collects that structure once; every rule below reads it,
//! so a technique written here serves every such puzzle:
//!
//! | rule (name) | priority | deduction |
//! |---|---|---|
//! | `naked-single` | immediate | a fixed value leaves every peer that conflicts with it on that value |
//! | `hidden-single` | linear | in a permutation group, a value that fits one cell goes there; a value that fits none, or two fixed cells with one value, is a conflict; in an all-different group, fewer values than cells is a conflict |
//! | `pointing` | costly | when a permutation group's places for `v` all conflict (on `v`) with a cell outside them, that cell loses `v` (Sudoku's pointing and claiming, Suguru's "a region's value confined to cells with a common neighbour") |
//! | `naked-subset` | costly | `k` open cells of a group whose candidates are `k` values between them: the values leave the group's other cells (naked pairs, triples; nothing outside the group, which is pointing's step) |
//! | `hidden-subset` | costly | `k` values of a permutation group whose places are `k` cells between them: those cells lose every other value (hidden pairs, triples) |
//!
//! `naked-single` and `hidden-single` together are exactly the "all-different with permutation"
//! propagation of finite-domain solvers (and of the papers' models: the Suguru MIP model's
//! region and neighbourhood rows, the Suguru playground's CNF); the others are the human
//! techniques that make most puzzles solvable without search.
//!
//! # Practical
//! Build a [`Distinct`], then [`Distinct::post`] it with the [`DistinctRules`] wanted; it
//! returns the shared [`DistinctGraph`] (for branching rules and verifiers that want the
//! structure). Pairs given several times are merged (their value sets united).

use crate::domain::Domain;
use crate::encode::{Cmp, Encoded, Encoder, Lit};
use crate::engine::{Conflict, Context, Engine, Init, Premise, Priority, Propagator, VarId};
use std::sync::Arc;

/// Which of the rules run (`naked-single` always does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistinctRules {
    /// `hidden-single` (also the checker of permutation and all-different groups).
    pub hidden_single: bool,
    /// `pointing`.
    pub pointing: bool,
    /// `naked-subset` up to this many cells (0 or 1: off; 2: pairs; 3: pairs and triples; at most 4).
    pub naked_subsets: u8,
    /// `hidden-subset` up to this many values (0 or 1: off; at most 4).
    pub hidden_subsets: u8,
    /// Post the subset rules one propagator per size, named by their technique
    /// (`naked-pair`, `naked-triple`, `naked-quad`, `hidden-pair`, …) instead of one
    /// `naked-subset` and one `hidden-subset`: an explainer switches pairs on before triples
    /// (its levels), and `--max-level` stops exactly between them. The deductions are the same.
    pub by_size: bool,
}

impl DistinctRules {
    /// Every rule, subsets up to triples.
    pub const ALL: DistinctRules = DistinctRules {
        hidden_single: true,
        pointing: true,
        naked_subsets: 3,
        hidden_subsets: 3,
        by_size: false,
    };
    /// [`DistinctRules::ALL`] with the subsets posted per size ([`DistinctRules::by_size`]),
    /// for explanations.
    pub const EXPLAIN: DistinctRules = DistinctRules {
        by_size: true,
        ..DistinctRules::ALL
    };
    /// `naked-single` and `hidden-single`: the finite-domain all-different propagation.
    pub const SINGLES: DistinctRules = DistinctRules {
        hidden_single: true,
        pointing: false,
        naked_subsets: 0,
        hidden_subsets: 0,
        by_size: false,
    };
    /// `naked-single` only.
    pub const NAKED_SINGLES: DistinctRules = DistinctRules {
        hidden_single: false,
        pointing: false,
        naked_subsets: 0,
        hidden_subsets: 0,
        by_size: false,
    };
}

impl Default for DistinctRules {
    fn default() -> Self {
        DistinctRules::ALL
    }
}

/// A group of pairwise different variables.
#[derive(Clone, Debug)]
struct Group {
    /// Local indices of its variables.
    members: Vec<u32>,
    /// For a permutation group, the values it takes exactly once each.
    values: Option<Domain>,
}

/// The conflict structure shared by the rules (see the module docs).
#[derive(Clone, Debug)]
pub struct DistinctGraph {
    vars: Vec<VarId>,
    peer_off: Vec<u32>,
    peers: Vec<(u32, Domain)>,
    group_off: Vec<u32>,
    groups_of: Vec<u32>,
    groups: Vec<Group>,
}

impl DistinctGraph {
    /// The structure from peer lists a model already has in order, without the sorting and
    /// merging of [`Distinct::build`] (a region grid knows each cell's peers in row-major order:
    /// [`RegionModel::post_touching`](crate::regions::RegionModel::post_touching)).
    ///
    /// `vars` are the engine variables by local index, increasing; local variable `i`'s peers
    /// are `peers[peer_off[i]..peer_off[i + 1]]`, sorted by peer with no repeats, and the lists
    /// are symmetric (`j` in `i`'s list on values `m` exactly when `i` is in `j`'s on `m`),
    /// every member of a common group included on all values; `groups` are local member lists
    /// with the values of a permutation group. The result is what [`Distinct::build`] gives for
    /// the same constraints (checked in debug builds and by the tests).
    pub fn from_sorted_peers(
        vars: Vec<VarId>,
        peer_off: Vec<u32>,
        peers: Vec<(u32, Domain)>,
        groups: Vec<(Vec<u32>, Option<Domain>)>,
    ) -> Arc<DistinctGraph> {
        let n = vars.len();
        assert_eq!(peer_off.len(), n + 1, "one list per variable");
        debug_assert!(vars.windows(2).all(|w| w[0] < w[1]), "variables in increasing order");
        debug_assert!(
            (0..n).all(|i| {
                let list = &peers[peer_off[i] as usize..peer_off[i + 1] as usize];
                list.windows(2).all(|w| w[0].0 < w[1].0)
                    && list.iter().all(|&(j, m)| {
                        let back = &peers[peer_off[j as usize] as usize..peer_off[j as usize + 1] as usize];
                        j as usize != i
                            && back
                                .binary_search_by_key(&(i as u32), |e| e.0)
                                .is_ok_and(|k| back[k].1 == m)
                    })
            }),
            "peer lists sorted, without self-loops and symmetric"
        );
        let groups = groups
            .into_iter()
            .map(|(members, values)| Group { members, values })
            .collect();
        DistinctGraph::assemble(vars, peer_off, peers, groups)
    }

    /// Adds each variable's groups (in group order, a counting sort) to finished peer lists.
    fn assemble(
        vars: Vec<VarId>,
        peer_off: Vec<u32>,
        peers: Vec<(u32, Domain)>,
        groups: Vec<Group>,
    ) -> Arc<DistinctGraph> {
        let n = vars.len();
        // The groups of each variable, in group order (counting sort again).
        let mut group_off = vec![0u32; n + 1];
        for g in &groups {
            for &a in &g.members {
                group_off[a as usize + 1] += 1;
            }
        }
        for i in 0..n {
            group_off[i + 1] += group_off[i];
        }
        let mut groups_of = vec![0u32; group_off[n] as usize];
        {
            let mut next = group_off.clone();
            for (k, g) in groups.iter().enumerate() {
                for &a in &g.members {
                    groups_of[next[a as usize] as usize] = k as u32;
                    next[a as usize] += 1;
                }
            }
        }
        Arc::new(DistinctGraph {
            vars,
            peer_off,
            peers,
            group_off,
            groups_of,
            groups,
        })
    }

    /// The engine variables, by local index.
    pub fn vars(&self) -> &[VarId] {
        &self.vars
    }
    /// The peers of local variable `i` with the values they conflict on.
    #[inline]
    pub fn peers(&self, i: usize) -> &[(u32, Domain)] {
        &self.peers[self.peer_off[i] as usize..self.peer_off[i + 1] as usize]
    }
    /// The groups local variable `i` belongs to.
    #[inline]
    pub fn groups_of(&self, i: usize) -> &[u32] {
        &self.groups_of[self.group_off[i] as usize..self.group_off[i + 1] as usize]
    }
    /// Number of groups.
    pub fn num_groups(&self) -> usize {
        self.groups.len()
    }
    /// The variables of group `g` (engine ids).
    pub fn group(&self, g: usize) -> impl ExactSizeIterator<Item = VarId> + '_ {
        self.groups[g].members.iter().map(|&i| self.vars[i as usize])
    }
    /// The values of a permutation group (`None` for an all-different group).
    pub fn group_values(&self, g: usize) -> Option<Domain> {
        self.groups[g].values
    }
    fn var(&self, i: u32) -> VarId {
        self.vars[i as usize]
    }
}

/// Collects distinctness constraints (see the module docs).
#[derive(Clone, Debug, Default)]
pub struct Distinct {
    pairs: Vec<(VarId, VarId, Domain)>,
    groups: Vec<(Vec<VarId>, Option<Domain>)>,
}

impl Distinct {
    /// Nothing yet.
    pub fn new() -> Self {
        Distinct::default()
    }
    /// Makes room for `pairs` more pairs (a model that knows how many it adds).
    pub fn reserve(&mut self, pairs: usize) {
        self.pairs.reserve(pairs);
    }
    /// `a ≠ b`.
    pub fn not_equal(&mut self, a: VarId, b: VarId) {
        self.not_equal_on(a, b, Domain::ALL)
    }
    /// `a` and `b` do not both take the same value of `values` (they may share others).
    pub fn not_equal_on(&mut self, a: VarId, b: VarId, values: Domain) {
        if a != b && !values.is_empty() {
            self.pairs.push((a, b, values));
        }
    }
    /// The variables are pairwise different.
    pub fn all_different(&mut self, vars: &[VarId]) {
        self.groups.push((vars.to_vec(), None));
    }
    /// The variables take each value of `values` exactly once (`values.len()` must equal
    /// `vars.len()`; a mismatch makes the group unsatisfiable).
    pub fn permutation(&mut self, vars: &[VarId], values: Domain) {
        self.groups.push((vars.to_vec(), Some(values)));
    }

    /// True when nothing but `regions` permutation groups was added (what
    /// [`RegionModel::new`](crate::regions::RegionModel::new) collects).
    pub(crate) fn is_regions_only(&self, regions: usize) -> bool {
        self.pairs.is_empty() && self.groups.len() == regions && self.groups.iter().all(|g| g.1.is_some())
    }

    /// Builds the shared structure.
    ///
    /// Local indices follow the engine's order of the variables. Everything is laid out in a
    /// few flat vectors (a dense map from engine index to local index, the peer lists sorted by
    /// counting), so building costs a handful of allocations whatever the model's size: models
    /// are built once per instance, and on small puzzles building is a real part of a solve.
    pub fn build(self) -> Arc<DistinctGraph> {
        // Local indices: the variables used, in increasing engine order.
        let top = self
            .pairs
            .iter()
            .flat_map(|&(a, b, _)| [a, b])
            .chain(self.groups.iter().flat_map(|(g, _)| g.iter().copied()))
            .map(|v| v.index() + 1)
            .max()
            .unwrap_or(0);
        const NONE: u32 = u32::MAX;
        let mut local = vec![NONE; top];
        for &(a, b, _) in &self.pairs {
            local[a.index()] = 0;
            local[b.index()] = 0;
        }
        for (g, _) in &self.groups {
            for v in g {
                local[v.index()] = 0;
            }
        }
        let mut vars = Vec::with_capacity(top);
        for (i, l) in local.iter_mut().enumerate() {
            if *l != NONE {
                *l = vars.len() as u32;
                vars.push(VarId::from_index(i));
            }
        }
        let n = vars.len();
        // Every conflict as two directed entries, laid out by their first variable (a counting
        // sort: degrees, then slots); then transposed (the entries are symmetric: `b` is in `a`'s
        // list as often as `a` in `b`'s), which leaves each list sorted by peer without a
        // comparison; then repeated pairs are merged (their value sets united).
        let mut start = vec![0u32; n + 1];
        let mut groups = Vec::with_capacity(self.groups.len());
        for (g, values) in self.groups {
            // Each group's vector is reused for its local indices.
            let members: Vec<u32> = g.into_iter().map(|v| local[v.index()]).collect();
            for &a in &members {
                start[a as usize + 1] += members.len() as u32 - 1;
            }
            groups.push(Group { members, values });
        }
        for &(a, b, _) in &self.pairs {
            start[local[a.index()] as usize + 1] += 1;
            start[local[b.index()] as usize + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut slots: Vec<(u32, Domain)> = vec![(0, Domain::EMPTY); start[n] as usize];
        let mut fill = start.clone();
        let mut put = |a: u32, b: u32, m: Domain| {
            slots[fill[a as usize] as usize] = (b, m);
            fill[a as usize] += 1;
        };
        for g in &groups {
            for &a in &g.members {
                for &b in &g.members {
                    if a != b {
                        put(a, b, Domain::ALL);
                    }
                }
            }
        }
        for &(a, b, m) in &self.pairs {
            let (a, b) = (local[a.index()], local[b.index()]);
            put(a, b, m);
            put(b, a, m);
        }
        // The transpose: walking the variables in increasing order appends each one to its
        // peers' lists, so every list comes out sorted, and a repeated pair arrives right after
        // its twin, where it is merged.
        let mut sorted: Vec<(u32, Domain)> = vec![(0, Domain::EMPTY); slots.len()];
        let mut next = start.clone();
        // A variable repeated within a group leaves its lists shorter than counted.
        let mut merged = (0..n).any(|i| fill[i] != start[i + 1]);
        for b in 0..n {
            for &(a, m) in &slots[start[b] as usize..fill[b] as usize] {
                let (a, at) = (a as usize, next[a as usize] as usize);
                if at > start[a] as usize && sorted[at - 1].0 == b as u32 {
                    sorted[at - 1].1 = sorted[at - 1].1.or(m);
                    merged = true;
                } else {
                    sorted[at] = (b as u32, m);
                    next[a] += 1;
                }
            }
        }
        drop(slots);
        let (peers, peer_off) = if merged {
            // Close the gaps that merges and repeated members left.
            let mut peers = Vec::with_capacity(sorted.len());
            let mut peer_off = Vec::with_capacity(n + 1);
            peer_off.push(0);
            for i in 0..n {
                peers.extend_from_slice(&sorted[start[i] as usize..next[i] as usize]);
                peer_off.push(peers.len() as u32);
            }
            (peers, peer_off)
        } else {
            (sorted, start)
        };
        DistinctGraph::assemble(vars, peer_off, peers, groups)
    }

    /// Posts the rules on `engine` and returns the shared structure.
    pub fn post(self, engine: &mut Engine, rules: DistinctRules) -> Arc<DistinctGraph> {
        let g = self.build();
        post_rules(&g, engine, rules);
        g
    }
}

/// Posts the rules of an already built structure.
pub fn post_rules(g: &Arc<DistinctGraph>, engine: &mut Engine, rules: DistinctRules) {
    engine.post(NakedSingle::new(g.clone()));
    if !g.groups.is_empty() {
        if rules.hidden_single {
            engine.post(GroupRule::new(g.clone(), Kind::HiddenSingle));
        }
        if rules.pointing && g.groups.iter().any(|gr| gr.values.is_some()) {
            engine.post(GroupRule::new(g.clone(), Kind::Pointing));
        }
        // One propagator for all sizes, or one per size (`by_size`).
        let sizes = |max: u8| -> Vec<(u8, u8)> {
            let max = max.min(4);
            match (max >= 2, rules.by_size) {
                (false, _) => Vec::new(),
                (true, false) => vec![(2, max)],
                (true, true) => (2..=max).map(|n| (n, n)).collect(),
            }
        };
        for (min, max) in sizes(rules.naked_subsets) {
            engine.post(GroupRule::new(g.clone(), Kind::NakedSubset(min, max)));
        }
        if g.groups.iter().any(|gr| gr.values.is_some()) {
            for (min, max) in sizes(rules.hidden_subsets) {
                engine.post(GroupRule::new(g.clone(), Kind::HiddenSubset(min, max)));
            }
        }
    }
}

/// `naked-single`: a fixed value leaves its conflicting peers.
struct NakedSingle {
    g: Arc<DistinctGraph>,
}

impl NakedSingle {
    fn new(g: Arc<DistinctGraph>) -> Self {
        NakedSingle { g }
    }
    #[inline]
    fn clear_peers(&self, cx: &mut Context, i: u32) -> Result<(), Conflict> {
        let x = self.g.var(i);
        let Some(v) = cx.value(x) else {
            return Ok(());
        };
        let mut announced = false;
        for &(p, mask) in self.g.peers(i as usize) {
            let y = self.g.var(p);
            if mask.contains(v) && cx.dom(y).contains(v) {
                if !announced && cx.explaining() {
                    cx.because([Premise::is(x, v)]);
                    announced = true;
                }
                cx.remove(y, v)?;
            }
        }
        Ok(())
    }
}

impl Propagator for NakedSingle {
    fn name(&self) -> &'static str {
        "naked-single"
    }
    fn priority(&self) -> Priority {
        Priority::Immediate
    }
    fn init(&mut self, init: &mut Init) {
        // Only the change that fixes a cell matters: the engine buffers those, no call per
        // change.
        for (i, &v) in self.g.vars.iter().enumerate() {
            init.watch_fixed(v, i as u32);
        }
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        // A permutation group's cells take only its values, and it needs one cell per value:
        // with that, pairwise difference is the whole constraint (the other rules only
        // deduce sooner).
        for group in &self.g.groups {
            if let Some(values) = group.values {
                if group.members.len() != values.len() as usize {
                    return Err(Conflict);
                }
                for &i in &group.members {
                    cx.restrict(self.g.var(i), values)?;
                }
            }
        }
        for i in 0..self.g.vars.len() as u32 {
            self.clear_peers(cx, i)?;
        }
        Ok(())
    }
    fn incremental(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        // Latest first (the order of the stack this replaced; explanations keep their order).
        let events = cx.events();
        for &i in events.iter().rev() {
            self.clear_peers(cx, i)?;
        }
        Ok(())
    }
    fn encode(&self, enc: &mut Encoder) -> Encoded {
        encode_distinct(&self.g, enc);
        Encoded::Posted
    }
}

/// The whole distinctness structure as rows (the Suguru MIP model's and playground CNF's): a
/// permutation group takes only its values, each exactly once (`Σ_{c∈G} x[c,v] = 1`); an
/// all-different group takes each value at most once; two peers outside a common group do not
/// share a value of their set (`x[c,v] + x[d,v] ≤ 1`, a binary clause).
fn encode_distinct(g: &DistinctGraph, enc: &mut Encoder) {
    for group in &g.groups {
        let vars: Vec<VarId> = group.members.iter().map(|&i| g.var(i)).collect();
        let (values, cmp) = match group.values {
            Some(values) => {
                if vars.len() != values.len() as usize {
                    enc.clause(Vec::new());
                    continue;
                }
                for &x in &vars {
                    for v in enc.domain(x).minus(values).iter() {
                        if let Some(l) = enc.is(x, v) {
                            enc.clause(vec![!l]);
                        }
                    }
                }
                (values, Cmp::Eq)
            }
            None => (vars.iter().fold(Domain::EMPTY, |d, &x| d.or(enc.domain(x))), Cmp::Le),
        };
        for v in values.iter() {
            let terms: Vec<(Lit, i64)> = vars.iter().filter_map(|&x| enc.is(x, v)).map(|l| (l, 1)).collect();
            if cmp == Cmp::Eq || terms.len() > 1 {
                enc.linear(terms, cmp, 1);
            }
        }
    }
    for i in 0..g.vars.len() {
        let x = g.vars[i];
        for &(p, mask) in g.peers(i) {
            if (p as usize) <= i || share_group(g, i, p as usize) {
                continue;
            }
            let y = g.var(p);
            for v in mask.and(enc.domain(x)).and(enc.domain(y)).iter() {
                if let (Some(a), Some(b)) = (enc.is(x, v), enc.is(y, v)) {
                    enc.clause(vec![!a, !b]);
                }
            }
        }
    }
}

/// Are local variables `i` and `j` in a common group? (Group lists are in group order.)
fn share_group(g: &DistinctGraph, i: usize, j: usize) -> bool {
    let (a, b) = (g.groups_of(i), g.groups_of(j));
    let (mut x, mut y) = (0, 0);
    while x < a.len() && y < b.len() {
        match a[x].cmp(&b[y]) {
            std::cmp::Ordering::Less => x += 1,
            std::cmp::Ordering::Greater => y += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    HiddenSingle,
    Pointing,
    /// Naked subsets of `min..=max` cells.
    NakedSubset(u8, u8),
    /// Hidden subsets of `min..=max` values.
    HiddenSubset(u8, u8),
}

/// The group-based rules: each keeps the groups touched since it last ran.
struct GroupRule {
    g: Arc<DistinctGraph>,
    kind: Kind,
    dirty: Vec<bool>,
    dirty_list: Vec<u32>,
    /// Scratch for common-peer counting: `count[i]` is valid when `stamp[i] == epoch`.
    count: Vec<u32>,
    stamp: Vec<u32>,
    epoch: u32,
    targets: Vec<u32>,
    /// `pointing` only: per group and value (from `point_base[k]`, by the value's rank in the
    /// group's values), the members that held the value when it was last examined, stamped
    /// with `point_epoch`. Since then (no backtrack in between) the value's common peers lost
    /// it and domains only shrank, so the same members give nothing new and are skipped.
    point_seen: Vec<(u32, u64)>,
    point_base: Vec<u32>,
    /// Bumped at every backtrack (and every run from scratch): older stamps are stale.
    point_epoch: u32,
}

impl GroupRule {
    fn new(g: Arc<DistinctGraph>, kind: Kind) -> Self {
        let groups = g.groups.len();
        // Only the rules that look for common peers need the counting scratch.
        let n = match kind {
            Kind::Pointing | Kind::NakedSubset(..) => g.vars.len(),
            Kind::HiddenSingle | Kind::HiddenSubset(..) => 0,
        };
        // Groups of up to 64 members with a value set remember what `pointing` examined.
        let (mut point_base, mut slots) = (Vec::new(), 0u32);
        if kind == Kind::Pointing {
            point_base.reserve(groups);
            for group in &g.groups {
                point_base.push(slots);
                if let Some(values) = group.values.filter(|_| group.members.len() <= 64) {
                    slots += values.len();
                }
            }
        }
        GroupRule {
            g,
            kind,
            dirty: vec![false; groups],
            dirty_list: Vec::with_capacity(groups),
            count: vec![0; n],
            stamp: vec![0; n],
            epoch: 0,
            targets: Vec::new(),
            point_seen: vec![(0, 0); slots as usize],
            point_base,
            point_epoch: 1,
        }
    }

    /// Marks groups `from..` for the next incremental run.
    fn mark_dirty_from(&mut self, from: usize) {
        for k in from..self.g.groups.len() {
            if !self.dirty[k] {
                self.dirty[k] = true;
                self.dirty_list.push(k as u32);
            }
        }
    }

    fn run_group(&mut self, cx: &mut Context, k: usize) -> Result<(), Conflict> {
        match self.kind {
            Kind::HiddenSingle => hidden_single(&self.g, cx, k),
            Kind::Pointing => self.pointing(cx, k),
            Kind::NakedSubset(min, max) => self.naked_subsets(cx, k, min, max),
            Kind::HiddenSubset(min, max) => hidden_subsets(&self.g, cx, k, min, max),
        }
    }

    /// Fills `targets` with the variables outside `cells` that conflict on `v` with every one
    /// of `cells` and can still take `v`.
    fn common_peers(&mut self, cx: &Context, cells: &[u32], v: u32) {
        self.targets.clear();
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.fill(0);
            self.epoch = 1;
        }
        let epoch = self.epoch;
        for (round, &c) in cells.iter().enumerate() {
            let round = round as u32;
            for &(p, mask) in self.g.peers(c as usize) {
                if !mask.contains(v) {
                    continue;
                }
                let pi = p as usize;
                if round == 0 {
                    if cx.dom(self.g.var(p)).contains(v) {
                        self.stamp[pi] = epoch;
                        self.count[pi] = 1;
                    }
                } else if self.stamp[pi] == epoch && self.count[pi] == round {
                    self.count[pi] = round + 1;
                }
            }
        }
        let want = cells.len() as u32;
        for &(p, _) in self.g.peers(cells[0] as usize) {
            if self.stamp[p as usize] == epoch && self.count[p as usize] == want && !cells.contains(&p) {
                self.targets.push(p);
            }
        }
    }

    fn pointing(&mut self, cx: &mut Context, k: usize) -> Result<(), Conflict> {
        let Some(values) = self.g.groups[k].values else {
            return Ok(());
        };
        let g = Arc::clone(&self.g);
        let members = &g.groups[k].members;
        // Only values with two places or more can point (members keep their domains here: the
        // targets are outside the group).
        let (mut once, mut twice) = (Domain::EMPTY, Domain::EMPTY);
        for &i in members {
            let d = cx.dom(g.var(i));
            twice = twice.or(once.and(d));
            once = once.or(d);
        }
        let mut places: smallvec::SmallVec<[u32; 16]> = smallvec::SmallVec::new();
        let remember = members.len() <= 64;
        for v in values.and(twice).iter() {
            if cx.pause_requested() {
                break;
            }
            places.clear();
            let mut mask = 0u64;
            for (j, &i) in members.iter().enumerate() {
                if cx.dom(g.var(i)).contains(v) {
                    places.push(i);
                    mask |= 1u64.checked_shl(j as u32).unwrap_or(0);
                }
            }
            let slot = remember.then(|| {
                let rank = (values.0 & ((1u64 << (v - 1)) - 1)).count_ones();
                (self.point_base[k] + rank) as usize
            });
            if let Some(slot) = slot {
                if self.point_seen[slot] == (self.point_epoch, mask) {
                    continue;
                }
            }
            self.common_peers(cx, &places, v);
            if self.targets.is_empty() {
                if let Some(slot) = slot {
                    self.point_seen[slot] = (self.point_epoch, mask);
                }
                continue;
            }
            if cx.explaining() {
                let premises: Vec<Premise> = members
                    .iter()
                    .filter(|i| !places.contains(i))
                    .map(|&i| Premise::not(self.g.var(i), v))
                    .collect();
                cx.because(premises);
                let group = members.iter().map(|&i| self.g.var(i)).collect();
                cx.focus(places.iter().map(|&i| self.g.var(i)).collect(), Some(v), group);
            }
            // The buffer goes back for the next call (no allocation per deduction).
            let targets = std::mem::take(&mut self.targets);
            let removed = targets.iter().try_for_each(|&t| cx.remove(self.g.var(t), v).map(drop));
            self.targets = targets;
            removed?;
            if let Some(slot) = slot {
                self.point_seen[slot] = (self.point_epoch, mask);
            }
        }
        Ok(())
    }

    fn naked_subsets(&mut self, cx: &mut Context, k: usize, min: u8, max: u8) -> Result<(), Conflict> {
        let members = &self.g.groups[k].members;
        // Unfixed members with at most `max` values.
        let open: smallvec::SmallVec<[u32; 32]> = members
            .iter()
            .copied()
            .filter(|&i| {
                let n = cx.dom(self.g.var(i)).len();
                n >= 2 && n <= max as u32
            })
            .collect();
        if open.len() < 2 {
            return Ok(());
        }
        let mut found: Vec<(smallvec::SmallVec<[u32; 4]>, Domain)> = Vec::new();
        let doms: smallvec::SmallVec<[Domain; 32]> = open.iter().map(|&i| cx.dom(self.g.var(i))).collect();
        for size in min as usize..=max as usize {
            subsets(doms.len(), size, &mut |idx| {
                let union = idx.iter().fold(Domain::EMPTY, |u, &j| u.or(doms[j]));
                if union.len() as usize == size {
                    found.push((idx.iter().map(|&j| open[j]).collect(), union));
                }
            });
        }
        for (cells, union) in found {
            if cx.pause_requested() {
                break;
            }
            // The state may have changed since the subset was found: re-check it.
            // Every cell still open: a cell solved since is no member of a subset (a "triple"
            // of two open cells and a solved one is a pair and a single).
            let now = cells.iter().fold(Domain::EMPTY, |u, &c| u.or(cx.dom(self.g.var(c))));
            let open = cells.iter().all(|&c| cx.dom(self.g.var(c)).len() >= 2);
            if !open || now.len() as usize != cells.len() || now != union {
                continue;
            }
            let rule = match cells.len() {
                2 => "naked-pair",
                3 => "naked-triple",
                _ => "naked-quad",
            };
            let mut announced = false;
            for v in union.iter() {
                let holders: smallvec::SmallVec<[u32; 4]> = cells
                    .iter()
                    .copied()
                    .filter(|&c| cx.dom(self.g.var(c)).contains(v))
                    .collect();
                self.common_peers(cx, &holders, v);
                let mut targets = std::mem::take(&mut self.targets);
                // The subset's removals stay in its group: what else follows (the value
                // confined to cells that also share another group) is pointing's step.
                let members = &self.g.groups[k].members;
                targets.retain(|t| !cells.contains(t) && members.contains(t));
                if targets.is_empty() {
                    self.targets = targets;
                    continue;
                }
                if !announced && cx.explaining() {
                    let premises: Vec<Premise> = cells
                        .iter()
                        .map(|&c| Premise::within(self.g.var(c), cx.dom(self.g.var(c))))
                        .collect();
                    cx.because_rule(rule, premises);
                    let group = members.iter().map(|&i| self.g.var(i)).collect();
                    cx.focus(cells.iter().map(|&c| self.g.var(c)).collect(), None, group);
                    announced = true;
                }
                let removed = targets.iter().try_for_each(|&t| cx.remove(self.g.var(t), v).map(drop));
                self.targets = targets;
                removed?;
            }
        }
        Ok(())
    }
}

/// Calls `f` with every `size`-subset of `0..n` (as increasing indices).
fn subsets(n: usize, size: usize, f: &mut impl FnMut(&[usize])) {
    fn rec(
        start: usize,
        n: usize,
        size: usize,
        cur: &mut smallvec::SmallVec<[usize; 4]>,
        f: &mut impl FnMut(&[usize]),
    ) {
        if cur.len() == size {
            f(cur);
            return;
        }
        for i in start..n {
            if n - i < size - cur.len() {
                break;
            }
            cur.push(i);
            rec(i + 1, n, size, cur, f);
            cur.pop();
        }
    }
    if size <= n {
        rec(0, n, size, &mut smallvec::SmallVec::new(), f);
    }
}

/// `hidden-single` on group `k`, and the group's checks.
fn hidden_single(g: &DistinctGraph, cx: &mut Context, k: usize) -> Result<(), Conflict> {
    let group = &g.groups[k];
    let (mut once, mut twice, mut fixed) = (Domain::EMPTY, Domain::EMPTY, Domain::EMPTY);
    for &i in &group.members {
        let d = cx.dom(g.var(i));
        twice = twice.or(once.and(d));
        once = once.or(d);
        if let Some(v) = d.value() {
            if fixed.contains(v) {
                return Err(Conflict); // two fixed cells with one value
            }
            fixed.insert(v);
        }
    }
    let Some(values) = group.values else {
        // All different: pigeonhole.
        return if (once.len() as usize) < group.members.len() {
            Err(Conflict)
        } else {
            Ok(())
        };
    };
    if !values.minus(once).is_empty() || group.members.len() != values.len() as usize {
        return Err(Conflict); // a value has no place (or the group cannot be a permutation)
    }
    let singles = values.minus(twice);
    if singles.is_empty() {
        return Ok(());
    }
    for &i in &group.members {
        if cx.pause_requested() {
            break;
        }
        let x = g.var(i);
        let d = cx.dom(x);
        let s = d.and(singles);
        if s.is_empty() || d.is_single() {
            continue;
        }
        let Some(v) = s.value() else {
            return Err(Conflict); // two values need this one cell
        };
        if cx.explaining() {
            let premises: Vec<Premise> = group
                .members
                .iter()
                .filter(|&&j| j != i)
                .map(|&j| Premise::not(g.var(j), v))
                .collect();
            cx.because(premises);
        }
        cx.assign(x, v)?;
    }
    Ok(())
}

/// `hidden-subset` on permutation group `k`.
fn hidden_subsets(g: &DistinctGraph, cx: &mut Context, k: usize, min: u8, max: u8) -> Result<(), Conflict> {
    let group = &g.groups[k];
    let Some(values) = group.values else {
        return Ok(());
    };
    if group.members.len() > 64 {
        return Ok(());
    }
    // A value fixed on a member has its place: it takes part in no hidden subset (its other
    // candidates may not have been removed yet, and they are not its places).
    let mut fixed = Domain::EMPTY;
    for &i in &group.members {
        let d = cx.dom(g.var(i));
        if d.is_single() {
            fixed = fixed.or(d);
        }
    }
    // Places of each value, as a bit mask over the members.
    let mut places: smallvec::SmallVec<[(u32, u64); 16]> = smallvec::SmallVec::new();
    for v in values.iter().filter(|&v| !fixed.contains(v)) {
        let mut m = 0u64;
        for (j, &i) in group.members.iter().enumerate() {
            let d = cx.dom(g.var(i));
            if d.contains(v) && !d.is_single() {
                m |= 1 << j;
            }
        }
        let n = m.count_ones();
        if n >= 2 && n <= max as u32 {
            places.push((v, m));
        }
    }
    let mut found: Vec<(Domain, u64)> = Vec::new();
    for size in min as usize..=max as usize {
        subsets(places.len(), size, &mut |idx| {
            let union = idx.iter().fold(0u64, |u, &j| u | places[j].1);
            if union.count_ones() as usize == size {
                found.push((idx.iter().map(|&j| places[j].0).collect(), union));
            }
        });
    }
    for (vals, cells) in found {
        if cx.pause_requested() {
            break;
        }
        // The state may have changed since the subset was found (a smaller subset inside it
        // applied first): each value must still have two places or more, all in the subset.
        let still = vals.iter().all(|v| {
            let places = group.members.iter().enumerate().filter(|(_, &i)| {
                let d = cx.dom(g.var(i));
                d.contains(v) && !d.is_single()
            });
            let (n, m) = places.fold((0, 0u64), |(n, m), (j, _)| (n + 1, m | 1 << j));
            n >= 2 && m & !cells == 0
        });
        if !still {
            continue;
        }
        let rule = match vals.len() {
            2 => "hidden-pair",
            3 => "hidden-triple",
            _ => "hidden-quad",
        };
        let mut announced = false;
        for (j, &i) in group.members.iter().enumerate() {
            if cells >> j & 1 == 0 {
                continue;
            }
            let x = g.var(i);
            if cx.dom(x).minus(vals).is_empty() {
                continue;
            }
            if !announced && cx.explaining() {
                let premises: Vec<Premise> = group
                    .members
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| cells >> j & 1 == 0)
                    .flat_map(|(_, &o)| vals.iter().map(move |v| Premise::not(g.var(o), v)))
                    .collect();
                cx.because_rule(rule, premises);
                announced = true;
            }
            cx.restrict(x, vals)?;
        }
    }
    Ok(())
}

impl Propagator for GroupRule {
    fn encode(&self, _: &mut Encoder) -> Encoded {
        // Deductions from the groups, which `naked-single` encodes whole.
        Encoded::Implied
    }
    fn name(&self) -> &'static str {
        match self.kind {
            Kind::HiddenSingle => "hidden-single",
            Kind::Pointing => "pointing",
            Kind::NakedSubset(2, 2) => "naked-pair",
            Kind::NakedSubset(3, 3) => "naked-triple",
            Kind::NakedSubset(4, 4) => "naked-quad",
            Kind::NakedSubset(..) => "naked-subset",
            Kind::HiddenSubset(2, 2) => "hidden-pair",
            Kind::HiddenSubset(3, 3) => "hidden-triple",
            Kind::HiddenSubset(4, 4) => "hidden-quad",
            Kind::HiddenSubset(..) => "hidden-subset",
        }
    }
    fn priority(&self) -> Priority {
        match self.kind {
            Kind::HiddenSingle => Priority::Linear,
            _ => Priority::Costly,
        }
    }
    fn init(&mut self, init: &mut Init) {
        // Buffered: the engine only records which variables changed (no call per change); the
        // run marks their groups.
        for (i, &v) in self.g.vars.iter().enumerate() {
            if !self.g.groups_of(i).is_empty() {
                init.watch_buffered(v, i as u32);
            }
        }
        if !self.point_seen.is_empty() {
            // What `pointing` remembers holds only until the next backtrack.
            init.on_backtrack();
        }
    }
    fn propagate(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        self.backtracked();
        for k in 0..self.g.groups.len() {
            if cx.should_stop() {
                return Ok(());
            }
            self.run_group(cx, k)?;
            if cx.pause_requested() {
                // Paused (explaining): this group (it may have stopped halfway) and the rest
                // wait for the next run.
                self.mark_dirty_from(k);
                return Ok(());
            }
        }
        Ok(())
    }
    fn incremental(&mut self, cx: &mut Context) -> Result<(), Conflict> {
        let (off, groups_of) = (&self.g.group_off, &self.g.groups_of);
        for &i in cx.events() {
            for &k in &groups_of[off[i as usize] as usize..off[i as usize + 1] as usize] {
                if !self.dirty[k as usize] {
                    self.dirty[k as usize] = true;
                    self.dirty_list.push(k);
                }
            }
        }
        while let Some(k) = self.dirty_list.pop() {
            self.dirty[k as usize] = false;
            self.run_group(cx, k as usize)?;
            if cx.pause_requested() {
                // Paused (explaining): the group may have stopped halfway; it waits with the
                // rest of the list for the next run.
                self.dirty[k as usize] = true;
                self.dirty_list.push(k);
                return Ok(());
            }
        }
        Ok(())
    }
    fn backtracked(&mut self) {
        for k in self.dirty_list.drain(..) {
            self.dirty[k as usize] = false;
        }
        self.point_epoch = self.point_epoch.wrapping_add(1);
        if self.point_epoch == 0 {
            self.point_seen.fill((0, 0));
            self.point_epoch = 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// The peer lists by the definition: every pair of a group on every value, every pair on
    /// its values, repeated pairs united; sorted by peer.
    fn naive(n: usize, groups: &[Vec<usize>], pairs: &[(usize, usize, Domain)]) -> Vec<Vec<(u32, Domain)>> {
        let mut adj: Vec<BTreeMap<u32, Domain>> = vec![BTreeMap::new(); n];
        let mut add = |a: usize, b: usize, m: Domain| {
            if a != b {
                let e = adj[a].entry(b as u32).or_insert(Domain::EMPTY);
                *e = e.or(m);
            }
        };
        for g in groups {
            for &a in g {
                for &b in g {
                    add(a, b, Domain::ALL);
                }
            }
        }
        for &(a, b, m) in pairs {
            add(a, b, m);
            add(b, a, m);
        }
        adj.into_iter().map(|m| m.into_iter().collect()).collect()
    }

    /// The structure of all-different groups and pairs over engine variables `0..`.
    fn build(groups: &[Vec<usize>], pairs: &[(usize, usize, Domain)]) -> Arc<DistinctGraph> {
        let v = |i: usize| VarId::from_index(i);
        let mut d = Distinct::new();
        for g in groups {
            let vars: Vec<VarId> = g.iter().map(|&i| v(i)).collect();
            d.all_different(&vars);
        }
        for &(a, b, m) in pairs {
            d.not_equal_on(v(a), v(b), m);
        }
        d.build()
    }

    proptest::proptest! {
        /// Random groups (with repeated members) and pairs (repeated, both ways, on random
        /// values): the lists equal the definition, and each variable's groups are listed once
        /// per membership, in group order.
        #[test]
        fn random_structures_build_as_defined(
            n in 1usize..12,
            groups in proptest::collection::vec(proptest::collection::vec(0usize..12, 0..6), 0..5),
            pairs in proptest::collection::vec((0usize..12, 0usize..12, 1u64..16), 0..30),
        ) {
            let groups: Vec<Vec<usize>> =
                groups.into_iter().map(|g| g.into_iter().map(|i| i % n).collect()).collect();
            let pairs: Vec<(usize, usize, Domain)> =
                pairs.into_iter().map(|(a, b, m)| (a % n, b % n, Domain(m << 1))).collect();
            let g = build(&groups, &pairs);
            // Local indices are the variables used, in increasing order.
            let used: Vec<usize> = (0..n)
                .filter(|&i| groups.iter().any(|g| g.contains(&i)) || pairs.iter().any(|p| p.0 != p.1 && (p.0 == i || p.1 == i)))
                .collect();
            proptest::prop_assert_eq!(g.vars().iter().map(|x| x.index()).collect::<Vec<_>>(), used.clone());
            let local = |i: usize| used.iter().position(|&u| u == i).unwrap();
            let lgroups: Vec<Vec<usize>> = groups.iter().map(|g| g.iter().map(|&i| local(i)).collect()).collect();
            let lpairs: Vec<(usize, usize, Domain)> = pairs
                .iter()
                .filter(|p| p.0 != p.1)
                .map(|&(a, b, m)| (local(a), local(b), m))
                .collect();
            let want = naive(used.len(), &lgroups, &lpairs);
            for (i, w) in want.iter().enumerate() {
                proptest::prop_assert_eq!(g.peers(i), &w[..], "peers of {}", i);
                let of: Vec<u32> = lgroups
                    .iter()
                    .enumerate()
                    .flat_map(|(k, g)| g.iter().filter(move |&&m| m == i).map(move |_| k as u32))
                    .collect();
                proptest::prop_assert_eq!(g.groups_of(i), &of[..]);
            }
        }
    }

    #[test]
    fn the_peer_lists_are_sorted_and_merged_as_defined() {
        let groups = vec![vec![0, 2, 4], vec![4, 5, 4, 1], vec![3, 1]];
        let pairs = vec![
            (0, 1, Domain::range(1, 2)),
            (1, 0, Domain::range(3, 3)),
            (2, 4, Domain::single(7)),
            (5, 3, Domain::range(2, 4)),
            (5, 3, Domain::single(9)),
        ];
        let g = build(&groups, &pairs);
        let want = naive(6, &groups, &pairs);
        for (i, w) in want.iter().enumerate() {
            assert_eq!(g.peers(i), &w[..], "peers of {i}");
        }
        assert_eq!(g.groups_of(4), &[0, 1, 1]);
    }
}
