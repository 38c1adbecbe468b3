//! Nurikabe (Nikoli; puzz.link `nurikabe`): shade cells so that the shaded cells (the wall)
//! are orthogonally connected and no 2×2 block is all wall; every unshaded group (an island)
//! holds exactly one numbered cell, and the number is the island's size (`?`: a numbered cell
//! whose size is not given). Numbered cells are unshaded.
//!
//! The genre is a model on core's shading toolkit ([`pencilbox_core::shading`]): one Boolean
//! per cell (the wall), `islands`, `connected` for the wall, `no-2x2`, and — when every number
//! is given — the wall's size as a count.
#![deny(missing_docs)]

mod generate;

use pencilbox_core::board::{Board, Form, Given, Input};
use pencilbox_core::constraints::{BoolSum, SumRule};
use pencilbox_core::engine::Engine;
use pencilbox_core::genre::{self, Genre};
use pencilbox_core::human::RuleInfo;
use pencilbox_core::plugin::{GenerateRequest, Generated, GeneratorInfo, Plugin, Puzzle, SettingInfo};
use pencilbox_core::puzzlink::{self, Frame};
use pencilbox_core::setter::Clue;
use pencilbox_core::shading::{self, answer, Number, ShadeModel, ShadeRules, Shading};
use pencilbox_core::{AlgorithmInfo, CellId, Grid, PuzzleError, Render, Rendered, RunOptions, Shape, VerifyReport};

/// The registry entry.
pub static KIND: Plugin<Nurikabe> = Plugin::new();

/// No number in a cell.
pub const EMPTY: u32 = 0;
/// A numbered cell whose size is not given (`?`).
pub const UNKNOWN: u32 = u32::MAX;

/// A Nurikabe: a number (or [`UNKNOWN`], or [`EMPTY`]) per cell, and a player's entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nurikabe {
    /// The clues.
    pub clues: Grid<u32>,
    entries: Option<answer::Entries>,
}

/// Nurikabe's own rules for explanations (the shading toolkit's come with it).
pub const RULES: [RuleInfo; 1] = [RuleInfo::new(
    "wall-size",
    "wall size",
    3,
    "the numbers add up to the island cells, so the rest is wall",
)];

impl From<Grid<u32>> for Nurikabe {
    fn from(clues: Grid<u32>) -> Self {
        Nurikabe { clues, entries: None }
    }
}

impl Nurikabe {
    /// The grid.
    pub fn shape(&self) -> Shape {
        self.clues.shape()
    }

    /// The numbered cells.
    pub fn numbers(&self) -> Vec<Number> {
        let n = |c: CellId| (self.clues[c] != UNKNOWN).then_some(self.clues[c]);
        self.shape()
            .all()
            .filter(|&c| self.clues[c] != EMPTY)
            .map(|c| (c, n(c)))
            .collect()
    }

    /// The model: islands, a connected wall, no 2×2 wall, the wall's size.
    pub fn model(&self, rules: ShadeRules) -> Result<(Engine, ShadeModel), String> {
        let mut e = Engine::new();
        let mut m = ShadeModel::new(&mut e, self.shape(), ["island", "wall"]);
        let numbers = self.numbers();
        m.islands(&mut e, &numbers)
            .map_err(|_| "two numbers share a cell".to_string())?;
        m.connected(&mut e, true, rules);
        m.no_2x2(&mut e, true);
        if let Some(sum) = numbers.iter().map(|n| n.1).sum::<Option<u32>>() {
            let walls = (self.shape().cells() as u32)
                .checked_sub(sum)
                .ok_or("the numbers need more cells than the grid has")?;
            e.post(BoolSum::new("wall-size", m.cells.clone(), SumRule::Exactly(walls)));
        }
        m.first = pencilbox_core::engine::TRUE;
        Ok((e, m))
    }
}

impl Genre for Nurikabe {
    type Kit = ShadeModel;
    const RULES: &'static [RuleInfo] = &RULES;
    fn model(&self, rules: ShadeRules) -> Result<(Engine, ShadeModel), String> {
        Nurikabe::model(self, rules)
    }
    fn given(&self, c: CellId) -> bool {
        self.clues[c] != EMPTY
    }
    fn entries(&self) -> Option<&answer::Entries> {
        self.entries.as_ref()
    }
}

impl Puzzle for Nurikabe {
    const NAME: &'static str = "nurikabe";
    const SUMMARY: &'static str = "Nurikabe: a connected wall without 2×2 blocks around islands of the numbers' sizes";
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
    const GENERATOR: Option<GeneratorInfo> = Some(pencilbox_core::generate::info(2500, (8, 8)));
    pencilbox_core::genre_methods!();
    pencilbox_core::shading_genre_methods!("nurikabe", shape, entries, ["island", "wall"]);
    /// Measured peaks (docs/cli.md, "Memory"): the engine model 0.56–0.7 KB per cell; the SAT
    /// formula grows with the square of the grid (a cardinality over every cell, as a
    /// totalizer): 31–41 bytes per pair of cells at 50×50 and 100×100.
    const MEMORY: pencilbox_core::puzzle::Memory = pencilbox_core::puzzle::Memory::new(1024, 10 << 10, 40);

    fn detect(text: &str) -> bool {
        text.trim_start().starts_with("nurikabe") || text.contains("?nurikabe/")
    }
    fn parse(text: &str, _: &RunOptions) -> Result<Self, PuzzleError> {
        if genre::is_url(text) {
            let f = Frame::parse(text, &["nurikabe"])?;
            let mut k = 0;
            let clues = puzzlink::decode_numbers(f.body, &mut k, f.shape.cells(), &|k, m| f.at(k, m))?;
            f.finish(k)?;
            let clues = clues.into_iter().map(|c| c.map_or(EMPTY, |n| n.unwrap_or(UNKNOWN)));
            return Ok(Nurikabe::from(Grid::from_vec(f.shape, clues.collect()).expect("sized")));
        }
        let ((), clues) = genre::read_grid(
            text,
            "nurikabe",
            |_, _| Ok(()),
            |t| match t {
                "-" => Ok(EMPTY),
                "?" => Ok(UNKNOWN),
                t => t
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| genre::expected("a number, ? or -", t)),
            },
        )?;
        Ok(Nurikabe::from(clues))
    }
    fn write(&self, url: bool) -> Option<String> {
        let token = |v: u32| match v {
            EMPTY => "-".to_string(),
            UNKNOWN => "?".to_string(),
            n => n.to_string(),
        };
        if url {
            let clues: Vec<_> = self
                .clues
                .as_slice()
                .iter()
                .map(|&v| (v != EMPTY).then_some((v != UNKNOWN).then_some(v)))
                .collect();
            let mut body = String::new();
            puzzlink::encode_numbers(&clues, &mut body);
            return Some(puzzlink::url("nurikabe", None, self.shape(), &body));
        }
        Some(genre::write_grid("nurikabe", &self.clues, "", |o, &v| {
            o.push_str(&token(v))
        }))
    }
    fn board(&self) -> Option<Board> {
        let mut b = Board::new(self.shape(), Input::shade("wall", "island", "block"), Form::Shading);
        for (c, n) in self.numbers() {
            b.give(
                c,
                n.map_or(Given::Text { text: "?".into() }, |value| Given::Number { value }),
            );
        }
        b.edit = Some(pencilbox_core::board::Edit {
            numbers: self.shape().cells() as u32,
            texts: vec!["?".into()],
            ..Default::default()
        });
        Some(b)
    }
    /// A setter's board: its numbers and `?`s.
    fn compose(&self, d: &pencilbox_core::board::Draft) -> Option<Result<Self, PuzzleError>> {
        Some(d.shape().and_then(|shape| {
            let clues = d
                .givens
                .iter()
                .map(|g| match g {
                    None => Ok(EMPTY),
                    Some(Given::Number { value }) if *value > 0 && (*value as usize) <= shape.cells() => Ok(*value),
                    Some(Given::Text { text }) if text == "?" => Ok(UNKNOWN),
                    Some(other) => Err(PuzzleError::unsupported(format!(
                        "a Nurikabe cell holds a number from 1 to {} or ?, not {other:?}",
                        shape.cells()
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Nurikabe::from(Grid::from_vec(shape, clues).expect("sized")))
        }))
    }
    fn verify(&self, g: &Shading) -> VerifyReport {
        let mut violations = shading::check_connected(g, true, "wall");
        violations.extend(shading::check_2x2(g, true, "wall"));
        violations.extend(shading::check_islands(g, &self.numbers()));
        VerifyReport { violations }
    }
    fn render_as(&self, g: &Shading, what: Render) -> Rendered {
        let cell = |c: CellId| match self.clues[c] {
            UNKNOWN => "?".to_string(),
            EMPTY => (if g[c] { "#" } else { "." }).to_string(),
            n => n.to_string(),
        };
        answer::rendered(g, what, || shading::draw(self.shape(), None, &[], &[], &cell))
    }
    fn separating_clues(&self, keep: &Shading, drop: &Shading) -> Option<Vec<Clue<Self>>> {
        // A `?` given its size in `keep`, when that breaks `drop`.
        let size = |g: &Shading, c: CellId| {
            shading::connect::groups(self.shape(), |x| !g[x])
                .into_iter()
                .find(|i| i.contains(&c))
                .map(|i| i.len() as u32)
        };
        let clue = |c: CellId| {
            (self.clues[c] == UNKNOWN)
                .then(|| size(keep, c))
                .flatten()
                .filter(|&n| size(drop, c) != Some(n))
        };
        Some(genre::clues_added(&self.clues, clue, Nurikabe::from))
    }
    fn removable_clues(&self) -> Option<Vec<Clue<Self>>> {
        // A number's size taken away (the cell stays numbered: `?`).
        let known = |v: u32| v != EMPTY && v != UNKNOWN;
        Some(genre::clues_replaced(&self.clues, known, UNKNOWN, Nurikabe::from))
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
        R::Rule::defining("islands", "each island holds one number and that many cells"),
        R::Rule::defining("connected", "the wall is one group"),
        R::Rule::defining("no-2x2", "no 2×2 block is all wall"),
        R::Rule::defining(
            "wall-size",
            "the wall has every cell the islands leave (posted when the numbers give the count)",
        ),
        R::SHADE_RULES[0],
        R::SHADE_RULES[1],
    ],
};
