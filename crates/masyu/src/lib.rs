//! Masyu (Nikoli; puzz.link `mashu`): draw one closed loop through the centres of orthogonally
//! adjacent cells, visiting no cell twice and passing through every pearl. On a white pearl
//! the loop goes straight and turns in at least one of the two cells next to it on the loop;
//! on a black pearl it turns and goes straight through both cells next to it.
//!
//! The genre is a model on core's line toolkit ([`pencilbox_core::lines`]): one loop
//! (`degree`, `chains`, `connect`, `cuts`) and the pearls as clauses over links
//! ([`Clauses`]): a white pearl's opposite links are both used or both blank, and not both
//! neighbours go straight on; a black pearl's opposite links are never both used, and a used
//! link goes straight on through the next cell.
#![deny(missing_docs)]

use pencilbox_core::board::{Board, Form, Given, Input};
use pencilbox_core::constraints::{Clauses, Literal};
use pencilbox_core::engine::{Engine, VarId, TRUE};
use pencilbox_core::genre::{self, Genre};
use pencilbox_core::human::RuleInfo;
use pencilbox_core::lines::answer::{self, LineGrid, E, N, S, W};
use pencilbox_core::lines::{self, draw, Blob, Entries, LineModel, LineRules};
use pencilbox_core::plugin::{GenerateRequest, Generated, GeneratorInfo, Plugin, Puzzle, SettingInfo};
use pencilbox_core::puzzlink::{self, Frame};
use pencilbox_core::rng::SplitMix64;
use pencilbox_core::setter::Clue;
use pencilbox_core::{generate, AlgorithmInfo, CellId, Grid, PuzzleError, Render, Rendered, RunOptions, Shape};
use pencilbox_core::{VerifyReport, Violation};

/// The registry entry.
pub static KIND: Plugin<Masyu> = Plugin::new();

/// A white pearl.
pub const WHITE: u8 = 1;
/// A black pearl.
pub const BLACK: u8 = 2;

/// A Masyu: the pearls of a grid (0 none, [`WHITE`], [`BLACK`]) and a player's entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Masyu {
    /// The pearls.
    pub pearls: Grid<u8>,
    entries: Option<Entries>,
}

/// Masyu's own rules for explanations (the loop's come from the line toolkit).
pub const RULES: [RuleInfo; 2] = [
    RuleInfo::new(
        "white",
        "white pearl",
        1,
        "a white pearl is passed straight, and the loop turns next to it",
    ),
    RuleInfo::new(
        "black",
        "black pearl",
        1,
        "a black pearl is a turn, and the loop goes straight on next to it",
    ),
];

/// The straight-on link after leaving `c` towards `d`: the link from `c`'s neighbour onwards.
fn beyond(m: &LineModel, c: CellId, d: u8) -> Option<VarId> {
    m.link(answer::step(m.shape(), c, d)?, d)
}

impl Masyu {
    /// The grid.
    pub fn shape(&self) -> Shape {
        self.pearls.shape()
    }

    /// The loop model with the pearl clauses (`Err`: no loop at once).
    pub fn model(&self, rules: LineRules) -> Result<(Engine, LineModel), String> {
        let shape = self.pearls.shape();
        let mut e = Engine::new();
        let m = LineModel::new(&mut e, shape, None);
        let (mut white, mut black) = (Clauses::new("white"), Clauses::new("black"));
        for c in shape.all().filter(|&c| self.pearls[c] != 0) {
            e.assign(m.cell(c), TRUE)
                .map_err(|_| "a pearl cannot be visited".to_string())?;
            // Every clause starts "the pearl's cell is unused or …", a literal false from the
            // start: the clauses say the same, and an explanation names the pearl as a premise
            // (`r3c4 used`).
            let at = Literal::not(m.cell(c));
            for (a, b) in [(N, S), (W, E)] {
                let (la, lb) = (m.link(c, a), m.link(c, b));
                if self.pearls[c] == WHITE {
                    // Both or neither; with both, one of the next cells turns.
                    for (x, y) in [(la, lb), (lb, la)] {
                        match (x, y) {
                            (Some(x), Some(y)) => white.add(&[at, Literal::not(x), Literal::is(y)]),
                            (Some(x), None) => white.add(&[at, Literal::not(x)]),
                            _ => &mut white,
                        };
                    }
                    if let (Some(x), Some(y), Some(fx), Some(fy)) = (la, lb, beyond(&m, c, a), beyond(&m, c, b)) {
                        white.add(&[at, Literal::not(x), Literal::not(y), Literal::not(fx), Literal::not(fy)]);
                    }
                } else {
                    if let (Some(x), Some(y)) = (la, lb) {
                        black.add(&[at, Literal::not(x), Literal::not(y)]);
                    }
                    for (d, l) in [(a, la), (b, lb)] {
                        match (l, beyond(&m, c, d)) {
                            (Some(x), Some(f)) => black.add(&[at, Literal::not(x), Literal::is(f)]),
                            (Some(x), None) => black.add(&[at, Literal::not(x)]),
                            _ => &mut black,
                        };
                    }
                }
            }
        }
        e.post(white);
        e.post(black);
        m.post(&mut e, rules).map_err(|_| "no loop".to_string())?;
        Ok((e, m))
    }

    /// Every pearl the loop `g` would allow at `c`: white where it goes straight and turns
    /// next to it, black where it turns and goes straight on next to it.
    fn fits(g: &LineGrid, c: CellId) -> u8 {
        let shape = g.shape();
        let straight = |x: CellId| g[x] == N | S || g[x] == W | E;
        let next: Vec<CellId> = answer::DIRS
            .iter()
            .filter(|d| g[c] & d.0 != 0)
            .filter_map(|d| answer::step(shape, c, d.0))
            .collect();
        match (g[c] == 0, straight(c)) {
            (true, _) => 0,
            (false, true) if next.iter().any(|&x| !straight(x)) => WHITE,
            (false, false) if next.iter().all(|&x| straight(x)) => BLACK,
            _ => 0,
        }
    }
}

impl Genre for Masyu {
    type Kit = LineModel;
    const RULES: &'static [RuleInfo] = &RULES;
    fn model(&self, rules: LineRules) -> Result<(Engine, LineModel), String> {
        Masyu::model(self, rules)
    }
    fn given(&self, c: CellId) -> bool {
        self.pearls[c] != 0
    }
    fn entries(&self) -> Option<&Entries> {
        self.entries.as_ref()
    }
}

impl Puzzle for Masyu {
    const NAME: &'static str = "masyu";
    const SUMMARY: &'static str = "Masyu: one loop through every pearl; straight on white, turning on black";
    type Solution = LineGrid;
    type Algorithm = genre::Algorithm;
    const ALGORITHMS: &'static [(genre::Algorithm, AlgorithmInfo)] = genre::ALGORITHMS;
    const SETTINGS: &'static [SettingInfo] = &[
        lines::RULES_SETTING,
        pencilbox_core::rules::LEARN_SETTING,
        pencilbox_core::rules::DECIDE_SETTING,
    ];
    const RULE_TABLE: Option<&'static pencilbox_core::rules::RuleTable> = Some(&RULE_TABLE);
    const ANSWER_EXTENSION: Option<&'static str> = Some("ans");
    const GENERATOR: Option<GeneratorInfo> = Some(generate::info(2500, (8, 8)));
    pencilbox_core::genre_methods!();
    pencilbox_core::line_genre_methods!("masyu", shape, entries);
    /// Measured peaks per cell (docs/cli.md, "Memory"): the engine model 1.2–1.35 KB, the SAT
    /// formula 8.5–10 KB.
    const MEMORY: pencilbox_core::puzzle::Memory = pencilbox_core::puzzle::Memory::new(1400, 10 << 10, 0);

    fn detect(text: &str) -> bool {
        let t = text.trim_start();
        t.starts_with("masyu") || ["?mashu/", "?masyu/", "?pearl/"].iter().any(|p| t.contains(p))
    }
    fn parse(text: &str, _: &RunOptions) -> Result<Self, PuzzleError> {
        if genre::is_url(text) {
            let f = Frame::parse(text, &["mashu", "masyu", "pearl"])?;
            let mut k = 0;
            let pearls = puzzlink::decode_circles(f.body, &mut k, f.shape.cells(), &|k, m| f.at(k, m))?;
            f.finish(k)?;
            return Ok(Masyu::from(Grid::from_vec(f.shape, pearls).expect("sized")));
        }
        let ((), pearls) = genre::read_grid(
            text,
            "masyu",
            |_, _| Ok(()),
            |t| match t {
                "w" => Ok(WHITE),
                "b" => Ok(BLACK),
                "-" => Ok(0),
                o => Err(genre::expected("w (a white pearl), b (a black pearl) or -", o)),
            },
        )?;
        Ok(Masyu::from(pearls))
    }
    fn write(&self, url: bool) -> Option<String> {
        if url {
            let mut body = String::new();
            puzzlink::encode_circles(self.pearls.as_slice(), &mut body);
            return Some(puzzlink::url("mashu", None, self.shape(), &body));
        }
        Some(genre::write_grid("masyu", &self.pearls, "", |o, &p| {
            o.push(['-', 'w', 'b'][p as usize])
        }))
    }
    fn board(&self) -> Option<Board> {
        let mut b = Board::new(self.shape(), Input::lines(), Form::Pairs);
        for c in self.shape().all().filter(|&c| self.pearls[c] != 0) {
            b.give(
                c,
                Given::Pearl {
                    black: self.pearls[c] == BLACK,
                },
            );
        }
        b.edit = Some(pencilbox_core::board::Edit {
            pearls: true,
            ..Default::default()
        });
        Some(b)
    }
    /// A setter's board: its pearls (other givens are refused).
    fn compose(&self, d: &pencilbox_core::board::Draft) -> Option<Result<Self, PuzzleError>> {
        Some(d.shape().and_then(|shape| {
            let pearls = d
                .givens
                .iter()
                .map(|g| match g {
                    None => Ok(0),
                    Some(Given::Pearl { black }) => Ok(if *black { BLACK } else { WHITE }),
                    Some(other) => Err(PuzzleError::unsupported(format!(
                        "a Masyu cell holds a pearl, not {other:?}"
                    ))),
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Masyu::from(Grid::from_vec(shape, pearls).expect("sized")))
        }))
    }
    fn verify(&self, g: &LineGrid) -> VerifyReport {
        let mut violations = lines::check(g, None);
        for c in g
            .shape()
            .all()
            .filter(|&c| self.pearls[c] != 0 && Masyu::fits(g, c) != self.pearls[c])
        {
            let (colour, rule) = if self.pearls[c] == WHITE {
                ("white", &RULES[0])
            } else {
                ("black", &RULES[1])
            };
            let how = if g[c] == 0 {
                "the loop does not pass it"
            } else {
                rule.why
            };
            let name = g.shape().name(c);
            violations.push(Violation::new(
                name.clone(),
                colour,
                format!("the {colour} pearl at {name}: {how}"),
            ));
        }
        VerifyReport { violations }
    }
    fn render_as(&self, g: &LineGrid, what: Render) -> Rendered {
        let glyph = |c: CellId, k: u8| [draw::line_glyph(k, false), '○', '●'][self.pearls[c] as usize];
        let picture = draw::Picture {
            lines: g,
            glyph: &glyph,
            top: vec![],
            left: vec![],
            openings: vec![],
        };
        lines::rendered(g, what, || draw::draw(&picture))
    }
    fn separating_clues(&self, keep: &LineGrid, drop: &LineGrid) -> Option<Vec<Clue<Self>>> {
        let pearl = |c: CellId| {
            (self.pearls[c] == 0)
                .then(|| Masyu::fits(keep, c))
                .filter(|&p| p != 0 && Masyu::fits(drop, c) != p)
        };
        Some(genre::clues_added(&self.pearls, pearl, Masyu::from))
    }
    fn removable_clues(&self) -> Option<Vec<Clue<Self>>> {
        Some(genre::clues_removed(&self.pearls, 0, Masyu::from))
    }
    fn generate(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
        let shape = Shape::new(req.height, req.width);
        let of = |b: &Blob| {
            // The blob's grid once, not once per cell (quadratic: 0.15 s a call at 50×50).
            let grid = b.grid();
            Masyu::from(Grid::from_vec(shape, shape.all().map(|c| Masyu::fits(&grid, c)).collect()).expect("sized"))
        };
        generate::make(req, |rng: &mut SplitMix64| {
            let blob = Blob::random(shape, rng)?;
            let blob = generate::settle(
                blob,
                rng,
                4 * shape.cells(),
                |b| genre::undecided_limited(&of(b), &req.limits),
                Blob::toggle_near,
                &req.limits,
            );
            Some((of(&blob), blob.grid()))
        })
    }
}

impl From<Grid<u8>> for Masyu {
    fn from(pearls: Grid<u8>) -> Self {
        Masyu { pearls, entries: None }
    }
}

use pencilbox_core::rules as R;

/// The rules of `fast` in core's vocabulary ([`pencilbox_core::rules`]): the defining rules,
/// then the toolkit's optional rules (`--set rules=…`).
pub static RULE_TABLE: pencilbox_core::rules::RuleTable = pencilbox_core::rules::RuleTable {
    algorithm: "fast",
    rules: &[
        R::LINE_DEFINITION[0],
        R::LINE_DEFINITION[1],
        R::Rule::defining(
            "white",
            "a white pearl is passed straight, turning next to it on at least one side",
        ),
        R::Rule::defining(
            "black",
            "a black pearl is turned on, going straight for two cells on both sides",
        ),
        R::LINE_RULES[0],
        R::LINE_RULES[1],
        R::LINE_RULES[2],
        R::LINE_RULES[3],
    ],
};
