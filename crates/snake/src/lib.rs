//! Snake (puzz.link `snake`; Janko's *Schlange*): shade a snake, a path of orthogonally
//! adjacent cells between its two given ends. Each number outside the grid is how many snake
//! cells its column or row holds. The snake never touches itself, not side by side (every
//! snake cell has exactly two snake neighbours, an end one) and not diagonally (no 2×2 block
//! holds exactly two snake cells on a diagonal). A white circle (`o`) is a snake cell that is
//! not an end.
//!
//! The genre is a model on core's line toolkit answered by cells ([`CellLine`]): one path
//! between the ends (`degree`, `chains`, `connect`, `cuts`), the `touch` rules as clauses (two
//! snake cells side by side are linked; the diagonal rule) and the counts as sums over the
//! cells ([`Counts`]).
#![deny(missing_docs)]

mod generate;

use pencilbox_core::board::{clue_texts, Board, Draft, Edit, Form, Given, Input};
use pencilbox_core::constraints::{Clauses, Literal, SumRule};
use pencilbox_core::counts::Counts;
use pencilbox_core::engine::{Engine, TRUE};
use pencilbox_core::genre::{self, Genre};
use pencilbox_core::human::RuleInfo;
use pencilbox_core::lines::answer::{self, E, S};
use pencilbox_core::lines::{self, CellLine, LineModel, LineRules};
use pencilbox_core::plugin::{GenerateRequest, Generated, GeneratorInfo, Plugin, Puzzle, SettingInfo};
use pencilbox_core::puzzlink::{self, Frame};
use pencilbox_core::setter::Clue;
use pencilbox_core::shading::{self, Shading};
use pencilbox_core::{AlgorithmInfo, CellId, Grid, ParseError, PuzzleError, Render, Rendered, RunOptions, Shape};
use pencilbox_core::{VerifyReport, Violation};

/// The registry entry.
pub static KIND: Plugin<Snake> = Plugin::new();

/// A Snake: its two ends, the cells given on it, the counts, and a player's entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snake {
    /// The two ends.
    pub ends: (CellId, CellId),
    /// Snake cells given that are not ends (white circles).
    pub middles: Grid<bool>,
    /// Snake cells per column (`None`: no count).
    pub columns: Vec<Option<u32>>,
    /// Snake cells per row.
    pub rows: Vec<Option<u32>>,
    entries: Option<shading::answer::Entries>,
}

/// Snake's own rules for explanations (the path's come from the line toolkit).
pub const RULES: [RuleInfo; 2] = [
    RuleInfo::new(
        "touch",
        "no touching",
        1,
        "the snake never touches itself, not even diagonally",
    ),
    RuleInfo::new(
        "counts",
        "count",
        1,
        "the numbers count the snake cells in their row or column",
    ),
];

impl Snake {
    /// The grid.
    pub fn shape(&self) -> Shape {
        self.middles.shape()
    }

    fn counts(&self) -> Counts {
        let mut c = Counts::new("counts");
        c.columns(self.shape(), &self.columns, SumRule::Exactly)
            .rows(self.shape(), &self.rows, SumRule::Exactly);
        c
    }

    /// The model: a path between the ends, no touching, the counts, the white circles.
    pub fn model(&self, rules: LineRules) -> Result<(Engine, CellLine), String> {
        let (shape, mut e) = (self.shape(), Engine::new());
        let line = LineModel::new(&mut e, shape, Some(self.ends));
        let cell = |c: CellId| line.cell(c);
        let mut touch = Clauses::new("touch");
        for c in shape.all() {
            for d in [E, S] {
                if let (Some(l), Some(o)) = (line.link(c, d), answer::step(shape, c, d)) {
                    touch.add(&[Literal::not(cell(c)), Literal::not(cell(o)), Literal::is(l)]);
                }
            }
            let (r, k) = shape.coords(c);
            if r + 1 < shape.height && k + 1 < shape.width {
                let [a, b, x, y] = [c, shape.id(r, k + 1), shape.id(r + 1, k), shape.id(r + 1, k + 1)].map(cell);
                touch.add(&[Literal::not(a), Literal::not(y), Literal::is(b), Literal::is(x)]);
                touch.add(&[Literal::not(b), Literal::not(x), Literal::is(a), Literal::is(y)]);
            }
        }
        e.post(touch);
        for c in shape.all().filter(|&c| self.middles[c]) {
            e.assign(cell(c), TRUE)
                .map_err(|_| "a white circle cannot be on the snake")?;
        }
        self.counts().post(&mut e, &line.vars.cell);
        line.post(&mut e, rules)
            .map_err(|_| "no snake between the ends".to_string())?;
        Ok((e, CellLine::new(line, ["empty", "snake"])))
    }

    fn from_cells(cells: Grid<u8>, columns: Vec<Option<u32>>, rows: Vec<Option<u32>>, ends: &[CellId]) -> Self {
        Snake {
            ends: (ends[0], ends[1]),
            middles: Grid::from_vec(cells.shape(), cells.as_slice().iter().map(|&v| v == 1).collect()).expect("sized"),
            columns,
            rows,
            entries: None,
        }
    }

    fn with_middles(&self, middles: Grid<bool>) -> Self {
        Snake {
            middles,
            ..self.clone()
        }
    }

    /// The cells as puzz.link circles: 1 white (a given middle), 2 black (an end).
    fn circles(&self) -> Grid<u8> {
        let middles = self.middles.as_slice().iter().map(|&m| u8::from(m));
        let mut g = Grid::from_vec(self.shape(), middles.collect()).expect("sized");
        g[self.ends.0] = 2;
        g[self.ends.1] = 2;
        g
    }
}

/// The ends among the cells read (`2`); an error unless there are exactly two.
fn two_ends(cells: &Grid<u8>) -> Result<Vec<CellId>, String> {
    let ends: Vec<CellId> = cells.shape().all().filter(|&c| cells[c] == 2).collect();
    match ends.len() {
        2 => Ok(ends),
        n => Err(format!("a snake has two given ends, found {n}")),
    }
}

impl Genre for Snake {
    type Kit = CellLine;
    const RULES: &'static [RuleInfo] = &RULES;
    fn model(&self, rules: LineRules) -> Result<(Engine, CellLine), String> {
        Snake::model(self, rules)
    }
    fn given(&self, c: CellId) -> bool {
        self.middles[c] || c == self.ends.0 || c == self.ends.1
    }
    fn entries(&self) -> Option<&shading::answer::Entries> {
        self.entries.as_ref()
    }
}

impl Puzzle for Snake {
    const NAME: &'static str = "snake";
    const SUMMARY: &'static str =
        "Snake: a path of cells between two ends that never touches itself, with row and column counts";
    type Solution = Shading;
    type Algorithm = genre::Algorithm;
    const ALGORITHMS: &'static [(genre::Algorithm, AlgorithmInfo)] = genre::ALGORITHMS;
    const SETTINGS: &'static [SettingInfo] = &[
        lines::RULES_SETTING,
        pencilbox_core::rules::LEARN_SETTING,
        pencilbox_core::rules::DECIDE_SETTING,
    ];
    const RULE_TABLE: Option<&'static pencilbox_core::rules::RuleTable> = Some(&RULE_TABLE);
    const ANSWER_EXTENSION: Option<&'static str> = Some("ans");
    const GENERATOR: Option<GeneratorInfo> = Some(pencilbox_core::generate::info(2500, (10, 10)));
    pencilbox_core::genre_methods!();
    pencilbox_core::shading_genre_methods!("snake", shape, entries, ["empty", "snake"]);
    /// Measured peaks per cell (docs/cli.md, "Memory"): the engine model 1.6–1.75 KB, the SAT
    /// formula about 8.5 KB.
    const MEMORY: pencilbox_core::puzzle::Memory = pencilbox_core::puzzle::Memory::new(2048, 10 << 10, 0);

    fn detect(text: &str) -> bool {
        text.trim_start().starts_with("snake") || text.contains("?snake/")
    }
    fn parse(text: &str, _: &RunOptions) -> Result<Self, PuzzleError> {
        if genre::is_url(text) {
            let f = Frame::parse(text, &["snake"])?;
            let (n, h, w) = (f.shape.cells(), f.shape.height, f.shape.width);
            let mut k = 0;
            let circles = puzzlink::decode_circles(f.body, &mut k, n, &|k, m| f.at(k, m))?;
            let start = k;
            let ex = puzzlink::decode_numbers(f.body, &mut k, w + h, &|k, m| f.at(k, m))?;
            f.finish(k)?;
            if ex.contains(&Some(None)) {
                return Err(f
                    .at(
                        start,
                        "a count outside the grid is `?`: Snake counts are numbers".into(),
                    )
                    .into());
            }
            let cells = Grid::from_vec(f.shape, circles).expect("sized");
            let ends = two_ends(&cells).map_err(|m| f.at(0, m))?;
            let ex: Vec<Option<u32>> = ex.into_iter().map(Option::flatten).collect();
            return Ok(Snake::from_cells(cells, ex[..w].to_vec(), ex[w..].to_vec(), &ends));
        }
        let mut counts = (Vec::new(), Vec::new());
        let (_, cells) = genre::read_grid(
            text,
            "snake",
            |s, shape| {
                counts.0 = s.counts_line(shape.width, "column counts", shape.height as u32)?;
                counts.1 = s.counts_line(shape.height, "row counts", shape.width as u32)?;
                Ok(())
            },
            |t| match t {
                "x" => Ok(2),
                "o" => Ok(1),
                "-" => Ok(0),
                o => Err(genre::expected("x (an end), o (a snake cell, not an end) or -", o)),
            },
        )?;
        let ends = two_ends(&cells).map_err(|m| ParseError::new(pencilbox_core::Pos { line: 1, col: 1 }, m))?;
        Ok(Snake::from_cells(cells, counts.0, counts.1, &ends))
    }
    fn write(&self, url: bool) -> Option<String> {
        let count = |c: &Option<u32>| c.map_or("-".to_string(), |k| k.to_string());
        if url {
            let mut body = String::new();
            puzzlink::encode_circles(self.circles().as_slice(), &mut body);
            let ex: Vec<_> = self.columns.iter().chain(&self.rows).map(|c| c.map(Some)).collect();
            puzzlink::encode_numbers(&ex, &mut body);
            return Some(puzzlink::url("snake", None, self.shape(), &body));
        }
        let line = |v: &[Option<u32>]| v.iter().map(count).collect::<Vec<_>>().join(" ") + "\n";
        let extra = line(&self.columns) + &line(&self.rows);
        Some(genre::write_grid("snake", &self.circles(), &extra, |o, &v| {
            o.push(['-', 'o', 'x'][v as usize])
        }))
    }
    fn board(&self) -> Option<Board> {
        let mut b = Board::new(self.shape(), Input::shade("snake", "empty", "snake"), Form::Shading);
        for c in self.shape().all() {
            match self.circles()[c] {
                2 => b.give(c, Given::End),
                1 => b.give(c, Given::Pearl { black: false }),
                _ => {}
            }
        }
        (b.top, b.left) = (clue_texts(&self.columns), clue_texts(&self.rows));
        b.edit = Some(Edit {
            ends: true,
            clues: true,
            ..Default::default()
        });
        Some(b)
    }
    /// A setter's board: its two ends, white circles and counts.
    fn compose(&self, d: &Draft) -> Option<Result<Self, PuzzleError>> {
        Some(d.shape().and_then(|shape| {
            let cells = d.givens.iter().map(|g| match g {
                None => Ok(0),
                Some(Given::Pearl { black: false }) => Ok(1),
                Some(Given::End) => Ok(2),
                Some(o) => Err(PuzzleError::unsupported(format!(
                    "a Snake cell holds an end or a circle, not {o:?}"
                ))),
            });
            let cells = Grid::from_vec(shape, cells.collect::<Result<_, _>>()?).expect("sized");
            let ([columns, rows], ends) = (d.clue_numbers()?, two_ends(&cells).map_err(PuzzleError::unsupported)?);
            Ok(Snake::from_cells(cells, columns, rows, &ends))
        }))
    }
    fn verify(&self, g: &Shading) -> VerifyReport {
        let shape = self.shape();
        let mut violations = lines::cells::check(g, self.ends, "snake");
        violations.extend(shading::check_diagonal_pairs(g, "snake"));
        let circles = shape.all().filter(|&c| self.middles[c] && !g[c]).map(|c| shape.name(c));
        let message = |at: &String| format!("the white circle at {at} is not on the snake");
        violations.extend(circles.map(|at| Violation::new(at.clone(), "circle", message(&at))));
        violations.extend(self.counts().check(g, "snake cell"));
        VerifyReport { violations }
    }
    fn render_as(&self, g: &Shading, what: Render) -> Rendered {
        let circles = self.circles();
        let cell = |c: CellId| ["·", "#", "○", "○", "●", "●"][circles[c] as usize * 2 + usize::from(g[c])].to_string();
        let (top, left) = (clue_texts(&self.columns), clue_texts(&self.rows));
        shading::answer::rendered(g, what, || shading::draw(self.shape(), None, &top, &left, &cell))
    }
    fn separating_clues(&self, keep: &Shading, drop: &Shading) -> Option<Vec<Clue<Self>>> {
        let circle = |c: CellId| (keep[c] && !drop[c] && !self.given(c)).then_some(true);
        Some(genre::clues_added(&self.middles, circle, |m| self.with_middles(m)))
    }
    fn removable_clues(&self) -> Option<Vec<Clue<Self>>> {
        let mut out = genre::clues_removed(&self.middles, false, |m| self.with_middles(m));
        out.extend(genre::counts_removed(&self.columns, &self.rows, |columns, rows| {
            Snake {
                columns,
                rows,
                ..self.clone()
            }
        }));
        Some(out)
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
        R::LINE_DEFINITION[0],
        R::LINE_DEFINITION[1],
        R::Rule::defining("touch", "the snake does not touch itself, not even diagonally"),
        R::Rule::defining(
            "counts",
            "each clued row and column holds its clue's cells of the snake",
        ),
        R::LINE_RULES[0],
        R::LINE_RULES[1],
        R::LINE_RULES[2],
        R::LINE_RULES[3],
    ],
};
