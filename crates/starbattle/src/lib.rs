//! Star Battle (puzz.link `starbattle`): place `K` stars in every row, every column and every
//! region; no two stars touch, not even diagonally.
//!
//! The genre is a model on core's shading and counts toolkits ([`pencilbox_core::shading`],
//! [`pencilbox_core::counts`]): one Boolean per cell (a star), `no-touch` clauses, exactly `K`
//! per row, column and region, `packing` (a 2×2 block holds one star at most: [`Packing`]),
//! and the `bands` pigeonhole rule between rows (columns) and regions ([`Bands`]).
#![deny(missing_docs)]

mod generate;

use pencilbox_core::board::{Board, Form, Input};
use pencilbox_core::constraints::SumRule;
use pencilbox_core::counts::{Bands, Counts, Packing, PACKING};
use pencilbox_core::engine::Engine;
use pencilbox_core::genre::{self, Genre};
use pencilbox_core::grid::ORTHOGONAL;
use pencilbox_core::human::RuleInfo;
use pencilbox_core::plugin::{GenerateRequest, Generated, GeneratorInfo, Plugin, Puzzle, SettingInfo};
use pencilbox_core::puzzlink::{self, Frame};
use pencilbox_core::regions::Regions;
use pencilbox_core::setter::Clue;
use pencilbox_core::shading::{self, answer, ShadeModel, ShadeRules, Shading};
use pencilbox_core::VerifyReport;
use pencilbox_core::{AlgorithmInfo, CellId, Grid, PuzzleError, Render, Rendered, RunOptions, Shape};

/// The registry entry.
pub static KIND: Plugin<StarBattle> = Plugin::new();

/// A Star Battle: the regions (labels `1..`, connected), the stars `k` per row, column and
/// region, and a player's entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StarBattle {
    /// The region of each cell, numbered from 1 in order of first cells.
    pub regions: Grid<u32>,
    /// Stars per row, column and region.
    pub k: u32,
    entries: Option<answer::Entries>,
}

/// Star Battle's own rules for explanations.
pub const RULES: [RuleInfo; 5] = [
    PACKING,
    RuleInfo::new("rows", "row", 1, "every row holds exactly K stars"),
    RuleInfo::new("columns", "column", 1, "every column holds exactly K stars"),
    RuleInfo::new("regions", "region", 1, "every region holds exactly K stars"),
    RuleInfo::new(
        "bands",
        "pigeonhole",
        3,
        "as many regions as rows (columns) fill a band of them",
    ),
];

impl StarBattle {
    /// A puzzle from region labels (any labels; connected parts become regions 1, 2, …).
    pub fn new(labels: &Grid<u32>, k: u32) -> Self {
        let r = Regions::new(labels);
        let regions = Grid::from_vec(
            labels.shape(),
            labels.shape().all().map(|c| r.region_of(c) as u32 + 1).collect(),
        );
        StarBattle {
            regions: regions.expect("sized"),
            k,
            entries: None,
        }
    }

    /// The grid.
    pub fn shape(&self) -> Shape {
        self.regions.shape()
    }

    fn counts(&self) -> [Counts; 3] {
        let shape = self.shape();
        let k = vec![Some(self.k); shape.height.max(shape.width)];
        let (mut rows, mut cols, mut regions) = (Counts::new("rows"), Counts::new("columns"), Counts::new("regions"));
        rows.rows(shape, &k[..shape.height], SumRule::Exactly);
        cols.columns(shape, &k[..shape.width], SumRule::Exactly);
        regions.regions(&self.regions, SumRule::Exactly(self.k));
        [rows, cols, regions]
    }

    /// The model: stars that do not touch, `k` per row, column and region with the packing
    /// rule, and (with `rules.connect`) the bands.
    pub fn model(&self, rules: ShadeRules) -> Result<(Engine, ShadeModel), String> {
        let mut e = Engine::new();
        let m = ShadeModel::new(&mut e, self.shape(), ["empty", "star"]);
        m.no_touch(&mut e);
        let counts = self.counts();
        counts.iter().for_each(|c| c.post(&mut e, &m.cells));
        e.post(Packing::new(self.shape(), &counts, m.cells.clone()));
        if let Some(bands) = rules
            .connect
            .then(|| Bands::new(&self.regions, m.cells.clone()))
            .flatten()
        {
            e.post(bands);
        }
        Ok((e, m))
    }
}

impl Genre for StarBattle {
    type Kit = ShadeModel;
    const RULES: &'static [RuleInfo] = &RULES;
    fn model(&self, rules: ShadeRules) -> Result<(Engine, ShadeModel), String> {
        StarBattle::model(self, rules)
    }
    fn given(&self, _: CellId) -> bool {
        false
    }
    fn entries(&self) -> Option<&answer::Entries> {
        self.entries.as_ref()
    }
}

impl Puzzle for StarBattle {
    const NAME: &'static str = "starbattle";
    const SUMMARY: &'static str = "Star Battle: K stars in every row, column and region; stars never touch";
    type Solution = Shading;
    type Algorithm = genre::Algorithm;
    const ALGORITHMS: &'static [(genre::Algorithm, AlgorithmInfo)] = genre::ALGORITHMS;
    const SETTINGS: &'static [SettingInfo] = &[
        shading::RULES_SETTING,
        pencilbox_core::rules::LEARN_SETTING,
        pencilbox_core::rules::DECIDE_SETTING,
    ];
    const RULE_TABLE: Option<&'static pencilbox_core::rules::RuleTable> = Some(&RULE_TABLE);
    const ANSWER_EXTENSION: Option<&'static str> = Some("ans");
    const GENERATOR: Option<GeneratorInfo> = Some(GeneratorInfo {
        settings: &[SettingInfo {
            key: "stars",
            summary: "stars per row, column and region (default: 1, 2 from 10×10)",
        }],
        ..pencilbox_core::generate::info(900, (8, 8))
    });
    pencilbox_core::genre_methods!();
    pencilbox_core::shading_genre_methods!("starbattle", shape, entries, ["empty", "star"]);
    /// Measured peaks per cell (docs/cli.md, "Memory"): the engine model 0.7–1 KB, the SAT
    /// formula about 5.3 KB.
    const MEMORY: pencilbox_core::puzzle::Memory = pencilbox_core::puzzle::Memory::new(1228, 8 << 10, 0);

    fn detect(text: &str) -> bool {
        text.trim_start().starts_with("starbattle") || text.contains("?starbattle/")
    }
    fn parse(text: &str, _: &RunOptions) -> Result<Self, PuzzleError> {
        if genre::is_url(text) {
            let f = Frame::parse(text, &["starbattle"])?;
            let (k, borders) = f.body.split_once('/').unwrap_or((f.body, ""));
            let k = k
                .parse()
                .map_err(|_| f.at(0, format!("expected the stars per row, found `{k}`")))?;
            let (h, w, off) = (f.shape.height, f.shape.width, f.body.len() - borders.len());
            let (at, bytes, mut i) = (|i: usize, m| f.at(off + i, m), borders.as_bytes(), 0);
            let mut bits = puzzlink::decode_borders(bytes, &mut i, (w - 1) * h, &at)?;
            bits.extend(puzzlink::decode_borders(bytes, &mut i, w * (h - 1), &at)?);
            f.finish(off + i)?;
            return Ok(StarBattle::new(
                &Grid::from_vec(f.shape, puzzlink::rooms(h, w, &bits)).expect("sized"),
                k,
            ));
        }
        let mut k = 0;
        let (_, labels) = genre::read_grid(
            text,
            "starbattle",
            |s, shape| {
                k = s.int_in(
                    "the stars per row, column and region",
                    1,
                    shape.height.min(shape.width) as i64,
                )? as u32;
                Ok(())
            },
            |t| {
                t.parse::<u32>()
                    .ok()
                    .filter(|&v| v > 0)
                    .ok_or_else(|| genre::expected("a region label (a positive whole number)", t))
            },
        )?;
        Ok(StarBattle::new(&labels, k))
    }
    fn write(&self, url: bool) -> Option<String> {
        let (s, g) = (self.shape(), &self.regions);
        if url {
            let mut body = format!("{}/", self.k);
            let v: Vec<bool> = (0..s.height)
                .flat_map(|r| (0..s.width - 1).map(move |c| (r, c)))
                .map(|(r, c)| g.at(r, c) != g.at(r, c + 1))
                .collect();
            let h: Vec<bool> = (0..s.height - 1)
                .flat_map(|r| (0..s.width).map(move |c| (r, c)))
                .map(|(r, c)| g.at(r, c) != g.at(r + 1, c))
                .collect();
            puzzlink::encode_borders(&v, &mut body);
            puzzlink::encode_borders(&h, &mut body);
            return Some(puzzlink::url("starbattle", None, s, &body));
        }
        let text = genre::write_grid("starbattle", g, "", |o, &l| o.push_str(&l.to_string()));
        Some(text.replacen('\n', &format!(" {}\n", self.k), 1))
    }
    fn board(&self) -> Option<Board> {
        let mut b =
            Board::new(self.shape(), Input::shade("star", "empty", "star"), Form::Shading).with_regions(&self.regions);
        b.note = format!("{} ★ in every row, column and region", self.k);
        b.edit = Some(pencilbox_core::board::Edit {
            regions: true,
            ..Default::default()
        });
        Some(b)
    }
    /// A setter's board: its regions (parts of one label that do not touch become separate
    /// regions), with this puzzle's number of stars.
    fn compose(&self, d: &pencilbox_core::board::Draft) -> Option<Result<Self, PuzzleError>> {
        Some(d.labels().map(|labels| {
            let regions = Regions::new(&labels);
            let numbered = Grid::from_vec(
                labels.shape(),
                regions.grid().as_slice().iter().map(|r| r + 1).collect(),
            )
            .expect("sized");
            StarBattle {
                regions: numbered,
                k: self.k,
                entries: None,
            }
        }))
    }
    fn verify(&self, g: &Shading) -> VerifyReport {
        let mut violations: Vec<_> = self.counts().iter().flat_map(|c| c.check(g, "star")).collect();
        violations.extend(shading::check_no_touch(g, "star"));
        VerifyReport { violations }
    }
    fn render_as(&self, g: &Shading, what: Render) -> Rendered {
        let cell = |c: CellId| (if g[c] { "*" } else { "." }).to_string();
        answer::rendered(g, what, || {
            shading::draw(self.shape(), Some(&self.regions), &[], &[], &cell)
        })
    }
    fn separating_clues(&self, keep: &Shading, drop: &Shading) -> Option<Vec<Clue<Self>>> {
        // A cell moved into a neighbouring region, so that `drop` breaks a region's count.
        let shape = self.shape();
        let mut out = Vec::new();
        for c in shape.all().filter(|&c| keep[c] != drop[c]) {
            for n in ORTHOGONAL.iter().filter_map(|&d| shape.step(c, d)) {
                let mut next = self.regions.clone();
                next[c] = self.regions[n];
                let q = StarBattle::new(&next, self.k);
                let ok = q.verify(keep).is_valid()
                    && !q.verify(drop).is_valid()
                    && Regions::new(&next).num_regions() == Regions::new(&self.regions).num_regions();
                if ok {
                    out.push(Clue {
                        at: format!("{} into region {}", shape.name(c), self.regions[n]),
                        value: self.regions[n],
                        puzzle: q,
                    });
                }
            }
        }
        Some(out)
    }
    fn removable_clues(&self) -> Option<Vec<Clue<Self>>> {
        Some(Vec::new()) // the regions are the whole puzzle: no clue can go
    }
    fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
        generate::generate(req)
    }
}

use pencilbox_core::rules as R;

/// The rules of `fast` in core's vocabulary ([`pencilbox_core::rules`]): the defining rules,
/// then the toolkit's optional rules (`--set rules=…`).
pub static RULE_TABLE: pencilbox_core::rules::RuleTable = pencilbox_core::rules::RuleTable {
    algorithm: "fast",
    rules: &[
        R::Rule::defining("no-touch", "stars do not touch, not even diagonally"),
        R::Rule::defining("rows", "each row holds K stars"),
        R::Rule::defining("columns", "each column holds K stars"),
        R::Rule::defining("regions", "each region holds K stars"),
        R::Rule::always(
            "packing",
            "a 2×2 block holds at most one star, so a row pair needs K such blocks (always on)",
        ),
        R::CONNECT.saying(
            "Star Battle's `connect` switch: the bands rule (k rows holding the stars of the k regions inside them)",
        ),
        R::SHADE_RULES[1],
    ],
};
