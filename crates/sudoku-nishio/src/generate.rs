//! A small puzzle generator: fill a random grid, then remove givens in random order while the
//! solution stays unique. Used for the bundled examples and for tests (planted answers).

use crate::backtrack::{search, UnitBrancher};
use crate::board::{BlockShape, Candidates, Sudoku};
use crate::model::{values, Model};
use crate::solver::RuleSet;
use pencilbox_core::engine::{Brancher, Decision, Engine, EngineSearch};
use pencilbox_core::plugin::{GenerateRequest, Generated, GeneratorInfo, SettingInfo};
use pencilbox_core::search::{run, Flow, Limits};
use pencilbox_core::PuzzleError;

/// A tiny deterministic random generator (xorshift64*), so tests and examples are reproducible
/// without extra dependencies.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// A number in `0..k` (`k > 0`).
    pub fn below(&mut self, k: usize) -> usize {
        (self.next_u64() % k as u64) as usize
    }
    /// Shuffles a slice.
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// Sudoku's brancher with the branches of every node in a random order, for filling grids.
struct RandomFill<'a> {
    inner: UnitBrancher,
    rng: &'a mut Rng,
}

impl Brancher for RandomFill<'_> {
    fn branch(&mut self, engine: &Engine, out: &mut Vec<Decision>) {
        let start = out.len();
        self.inner.branch(engine, out);
        self.rng.shuffle(&mut out[start..]);
    }
}

/// A random complete grid (a search of the empty grid's engine model with shuffled branches).
pub fn random_solution(block: BlockShape, rng: &mut Rng) -> Vec<u8> {
    let m = Model::new(&Candidates::full(block), RuleSet::SINGLES, &Limits::default());
    let brancher = RandomFill {
        inner: UnitBrancher::new(m.geo.clone()),
        rng,
    };
    let mut st = EngineSearch::new(m.engine, brancher);
    let mut out = Vec::new();
    run(&mut st, &Limits::first(), |s| {
        out = values(&s.engine);
        Flow::Stop
    });
    out
}

/// A random solved grid without search: the standard pattern `(b·(r mod a) + r div a + c) mod n`,
/// then the digits, the rows within each band, the columns within each stack, the bands and the
/// stacks shuffled (all validity-preserving). Fast for any size.
pub fn pattern_solution(block: BlockShape, rng: &mut Rng) -> Vec<u8> {
    let (a, b, n) = (block.height, block.width, block.n());
    let mut digits: Vec<u8> = (1..=n as u8).collect();
    rng.shuffle(&mut digits);
    let order = |groups: usize, size: usize, rng: &mut Rng| {
        let mut gs: Vec<usize> = (0..groups).collect();
        rng.shuffle(&mut gs);
        let mut out = Vec::with_capacity(groups * size);
        for g in gs {
            let mut inner: Vec<usize> = (0..size).collect();
            rng.shuffle(&mut inner);
            out.extend(inner.into_iter().map(|i| g * size + i));
        }
        out
    };
    let rows = order(n / a, a, rng);
    let cols = order(n / b, b, rng);
    let mut g = vec![0u8; n * n];
    for r in 0..n {
        for c in 0..n {
            let (pr, pc) = (rows[r], cols[c]);
            g[r * n + c] = digits[(b * (pr % a) + pr / a + pc) % n];
        }
    }
    g
}

/// A random partial grid for tests and benchmarks of large shapes: a [`pattern_solution`] with
/// each cell emptied with probability `empty_percent / 100` (consistent, not unique in
/// general).
///
/// ```
/// use pencilbox_sudoku_nishio::board::BlockShape;
/// use pencilbox_sudoku_nishio::generate::{partial_grid, Rng};
/// let p = partial_grid(BlockShape::new(3, 3), 60, &mut Rng::new(1));
/// assert!(p.num_givens() > 0 && p.num_givens() < 81);
/// ```
pub fn partial_grid(block: BlockShape, empty_percent: u64, rng: &mut Rng) -> Sudoku {
    let mut g = pattern_solution(block, rng);
    for v in g.iter_mut() {
        if rng.next_u64() % 100 < empty_percent {
            *v = 0;
        }
    }
    Sudoku::new(block, g).expect("a pattern grid has the block's size")
}

/// Is the puzzle's solution unique?
pub fn is_unique(p: &Sudoku) -> bool {
    match Candidates::from_puzzle(p) {
        Ok(c) => search(&c, &Limits::count_up_to(2), 0)
            .1
            .is_some_and(|r| r.solutions == 1),
        Err(_) => false,
    }
}

/// A puzzle with a unique solution: givens removed in random order while unique, keeping at
/// least `min_givens`. Returns the puzzle and its solution.
pub fn generate(block: BlockShape, rng: &mut Rng, min_givens: usize) -> (Sudoku, Vec<u8>) {
    let sol = if block.n() <= 9 {
        random_solution(block, rng)
    } else {
        pattern_solution(block, rng)
    };
    let mut givens = sol.clone();
    let mut order: Vec<usize> = (0..givens.len()).collect();
    rng.shuffle(&mut order);
    let mut left = givens.len();
    for i in order {
        if left <= min_givens {
            break;
        }
        let v = givens[i];
        givens[i] = 0;
        let p = Sudoku::new(block, givens.clone()).expect("sizes fit");
        if is_unique(&p) {
            left -= 1;
        } else {
            givens[i] = v;
        }
    }
    (Sudoku::new(block, givens).expect("sizes fit"), sol)
}

/// What the generator offers through the plug-in (`pencilbox generate sudoku --size 9x9`, the
/// playground): square grids of side 4 to 12, the block shape as a setting.
pub const GENERATOR: GeneratorInfo = GeneratorInfo {
    difficulties: &["any", "easy", "medium", "hard"],
    settings: &[SettingInfo {
        key: "block",
        summary: "block shape RxC (default: the squarest shape for the side, e.g. 2x3 for 6)",
    }],
    max_cells: 144,
    default_size: (9, 9),
};

/// How many minimal puzzles a difficulty may draw before giving up.
const DIFFICULTY_DRAWS: usize = 300;

/// The rating of `p` on Sudoku's scale ([`mod@crate::explain`]).
pub fn rating(p: &Sudoku) -> f64 {
    crate::explain::explain(p, &pencilbox_core::human::ExplainOptions::default())
        .rating
        .score
}

/// The difficulty of a rating: `easy` below 3 (singles suffice), `medium` below 4 (locked
/// candidates), `hard` from 4 (pairs and beyond: subsets, Nishio, chains, guesses).
pub fn difficulty_of(rating: f64) -> &'static str {
    if rating < 3.0 {
        "easy"
    } else if rating < 4.0 {
        "medium"
    } else {
        "hard"
    }
}

/// [`generate`] behind the plug-in's generator capability: a minimal unique puzzle (every given
/// is needed) as a line of symbols, JSON rows, a puzz.link URL, and its solution.
pub fn generated(req: &GenerateRequest) -> Result<Generated, PuzzleError> {
    let n = req.height;
    if req.width != n || n < 4 {
        return Err(PuzzleError::unsupported(format!(
            "the Sudoku generator makes square grids of side 4 to 12, not {}x{}",
            req.height, req.width
        )));
    }
    let block = match req.setting("block") {
        Some(b) => BlockShape::parse(b)
            .filter(|b| b.n() == n)
            .ok_or_else(|| PuzzleError::unsupported(format!("block={b}: not a block shape RxC with R*C = {n}")))?,
        None => BlockShape::default_for(n)
            .filter(|b| b.n() == n)
            .ok_or_else(|| PuzzleError::unsupported(format!("no block shape for side {n}; give --set block=RxC")))?,
    };
    let mut rng = Rng::new(req.seed);
    let wanted = req.difficulty.as_deref().unwrap_or("any");
    let mut draws = 0;
    let (p, solution) = loop {
        // A draw takes milliseconds: the deadline is read before each one.
        if req.limits.interrupted().is_some() {
            return Err(pencilbox_core::generate::stopped(&req.limits));
        }
        let (p, solution) = generate(block, &mut rng, 0);
        draws += 1;
        if wanted == "any" || difficulty_of(rating(&p)) == wanted {
            break (p, solution);
        }
        if draws >= DIFFICULTY_DRAWS {
            return Err(PuzzleError::NotFound(format!(
                "no {wanted} puzzle among {DIFFICULTY_DRAWS} minimal puzzles drawn from seed {}; try another seed",
                req.seed
            )));
        }
    };
    Ok(Generated {
        text: format!("{}\n", p.to_line()),
        json: serde_json::json!({
            "size": n,
            "block": format!("{}x{}", block.height, block.width),
            "givens": p.to_rows(),
        }),
        url: Some(p.to_url()),
        answer: format!(
            "{}\n",
            solution.iter().map(|&v| crate::board::symbol(v)).collect::<String>()
        ),
        seed: req.seed,
        unique: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::check_solution;

    #[test]
    fn pattern_solutions_are_valid_for_every_shape() {
        let mut rng = Rng::new(1);
        for (a, b) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3), (3, 4), (4, 4), (5, 5)] {
            let block = BlockShape::new(a, b);
            let g = pattern_solution(block, &mut rng);
            let empty = Sudoku::new(block, vec![0; block.n() * block.n()]).unwrap();
            assert!(check_solution(&empty, &g).is_empty(), "{block}");
        }
    }

    #[test]
    fn generated_puzzles_are_unique_and_contain_their_planted_answer() {
        let mut rng = Rng::new(7);
        for block in [BlockShape::new(2, 2), BlockShape::new(2, 3), BlockShape::new(3, 3)] {
            let (p, sol) = generate(block, &mut rng, 0);
            assert!(is_unique(&p));
            assert!(check_solution(&p, &sol).is_empty());
        }
    }
}
