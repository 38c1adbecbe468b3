//! `pencilbox generate ...`: puzzle generators (Suguru: `pencilbox_suguru::generate`; Path:
//! `pencilbox_pathpuzzle::generate`).
//!
//! `pencilbox generate suguru --size 8x8 --difficulty medium [--seed N] [--format text|json|url]
//! [--answer FILE]` prints a puzzle with exactly one solution in the paper-repository format
//! (or JSON, or a puzz.link URL). Exit 2 on a bad size.
//!
//! `pencilbox generate path --size 8x8 [--clues PERCENT] [--seed N] [--tries N] [--any]
//! [--format text|json] [--answer FILE]` prints a Path puzzle in the paper's format: a random
//! self-avoiding path between two edge cells, its row and column counts, then clues removed
//! (down to PERCENT) while the puzzle stays unique. Random complete-clue paths are rarely
//! unique, so the generator tries 200 paths per seed and up to `--tries` seeds (`seed`,
//! `seed + 1`, …), naming the seed it used; exit 1 when none gave a unique puzzle. `--any` keeps
//! the planted puzzle without the uniqueness requirement. Exit 2 on a bad size or percentage.

use clap::ValueEnum;
use pencilbox_core::search::Limits;
use pencilbox_suguru::{solver, Difficulty};
use std::time::{SystemTime, UNIX_EPOCH};

/// The largest side length `generate suguru` accepts.
pub const MAX_SIDE: usize = 60;

/// Generator subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum GenerateCommand {
    /// Generate a Suguru puzzle with exactly one solution.
    Suguru(SuguruArgs),
    /// Generate a Path puzzle (unique unless --any).
    Path(PathArgs),
}

/// Output formats of a generated Path puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum PathFormat {
    /// The paper's repository format (`m n`, doors, blank line, clues).
    Text,
    /// JSON (`height`, `width`, `door_a`, `door_b`, `row_clues`, `col_clues`).
    Json,
}

/// Options of `generate path`.
#[derive(clap::Args, Debug)]
pub struct PathArgs {
    /// Grid size ROWSxCOLS, at most 400 cells, e.g. 10x10.
    #[arg(long, default_value = "8x8", value_name = "RxC")]
    pub size: String,
    /// Percentage of the row and column clues to keep (100 = all).
    #[arg(long, default_value_t = 100, value_name = "PERCENT")]
    pub clues: u8,
    /// Random seed (the same seed gives the same puzzle); drawn from the clock when omitted.
    #[arg(long)]
    pub seed: Option<u64>,
    /// How many consecutive seeds to try for a unique puzzle.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub tries: u32,
    /// Keep the planted puzzle even when it has other solutions.
    #[arg(long)]
    pub any: bool,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = PathFormat::Text)]
    pub format: PathFormat,
    /// Also write a solution (a `.sol` file) here.
    #[arg(long, value_name = "FILE")]
    pub answer: Option<std::path::PathBuf>,
}

/// Difficulty levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Level {
    /// Naked and hidden singles suffice; many hints.
    Easy,
    /// Propagation suffices, no guessing.
    Medium,
    /// Minimal: every hint is needed for uniqueness.
    Hard,
}

/// Output formats of a generated puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GenFormat {
    /// The paper-repository format (`m n`, hint rows, region rows).
    Text,
    /// JSON (`height`, `width`, `hints`, `regions`).
    Json,
    /// A puzz.link URL.
    Url,
}

/// Options of `generate suguru`.
#[derive(clap::Args, Debug)]
pub struct SuguruArgs {
    /// Grid size ROWSxCOLS (each 1..=60), e.g. 10x10.
    #[arg(long, default_value = "8x8", value_name = "RxC")]
    pub size: String,
    /// How hard the puzzle is.
    #[arg(long, value_enum, default_value_t = Level::Medium)]
    pub difficulty: Level,
    /// Random seed (the same seed gives the same puzzle); drawn from the clock when omitted.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = GenFormat::Text)]
    pub format: GenFormat,
    /// Also write the solution (an `.ans` file) here.
    #[arg(long, value_name = "FILE")]
    pub answer: Option<std::path::PathBuf>,
}

/// Parses `RxC` (also `R×C`), each side in `1..=MAX_SIDE`.
pub fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (r, c) = s
        .split_once(['x', 'X', '×'])
        .ok_or_else(|| format!("--size must look like 8x8, found `{s}`"))?;
    let side = |t: &str, what: &str| -> Result<usize, String> {
        let v: usize = t
            .trim()
            .parse()
            .map_err(|_| format!("--size: the number of {what} must be a whole number, found `{t}`"))?;
        if v == 0 || v > MAX_SIDE {
            return Err(format!(
                "--size: the number of {what} must be between 1 and {MAX_SIDE}, found {v}"
            ));
        }
        Ok(v)
    };
    Ok((side(r, "rows")?, side(c, "columns")?))
}

/// Runs a generator subcommand.
pub fn run(c: GenerateCommand) -> u8 {
    match c {
        GenerateCommand::Suguru(a) => suguru(&a),
        GenerateCommand::Path(a) => path(&a),
    }
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

fn path(a: &PathArgs) -> u8 {
    use pencilbox_pathpuzzle::generate::generate_trying;
    use pencilbox_pathpuzzle::generate::MAX_GENERATED_CELLS;
    use pencilbox_pathpuzzle::{configuration_to_text, solve, Algorithm, ClueDensity};
    let (h, w) = match parse_size(&a.size) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("pencilbox: {e}");
            return 2;
        }
    };
    if h * w < 2 || h * w > MAX_GENERATED_CELLS {
        eprintln!("pencilbox: --size: the Path generator makes grids of 2 to {MAX_GENERATED_CELLS} cells, not {h}x{w}");
        return 2;
    }
    if a.clues > 100 {
        eprintln!("pencilbox: --clues is a percentage (0 to 100), found {}", a.clues);
        return 2;
    }
    let density = if a.clues == 100 {
        ClueDensity::Complete
    } else {
        ClueDensity::Percent(a.clues)
    };
    let first = a.seed.unwrap_or_else(clock_seed);
    let tries = a.tries.max(1);
    let (p, seed) = match generate_trying(h, w, density, !a.any, first, tries) {
        Ok(x) => x,
        Err(_) => {
            eprintln!(
                "pencilbox: no unique {h}x{w} Path puzzle from seeds {first}..{} (200 paths each); try other seeds, more --tries, or --any",
                first.wrapping_add(u64::from(tries) - 1)
            );
            return 1;
        }
    };
    if a.seed.is_none() || seed != first {
        eprintln!("pencilbox: seed {seed}");
    }
    match a.format {
        PathFormat::Text => print!("{}", p.to_text()),
        PathFormat::Json => match serde_json::to_string(&p) {
            Ok(j) => println!("{j}"),
            Err(e) => {
                eprintln!("pencilbox: internal error: {e}");
                return 1;
            }
        },
    }
    if let Some(file) = &a.answer {
        let o = solve::solve(&p, &Algorithm::default(), &Limits::default());
        let Some(sol) = o.solutions.first() else {
            eprintln!("pencilbox: internal error: the generated puzzle did not solve");
            return 1;
        };
        if let Err(e) = std::fs::write(file, configuration_to_text(&p, sol)) {
            eprintln!("pencilbox: cannot write {}: {e}", file.display());
            return 2;
        }
    }
    0
}

fn suguru(a: &SuguruArgs) -> u8 {
    let (h, w) = match parse_size(&a.size) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("pencilbox: {e}");
            return 2;
        }
    };
    let seed = a.seed.unwrap_or_else(clock_seed);
    let difficulty = match a.difficulty {
        Level::Easy => Difficulty::Easy,
        Level::Medium => Difficulty::Medium,
        Level::Hard => Difficulty::Hard,
    };
    let p = pencilbox_suguru::generate(h, w, difficulty, seed);
    if a.seed.is_none() {
        eprintln!("pencilbox: seed {seed}");
    }
    let out = match a.format {
        GenFormat::Text => p.to_text(),
        GenFormat::Json => format!("{}\n", p.to_json()),
        GenFormat::Url => format!("{}\n", pencilbox_suguru::puzzlink::to_url(&p)),
    };
    print!("{out}");
    if let Some(path) = &a.answer {
        let sol = solver::solve(&p, None, &Limits::default())
            .ok()
            .and_then(|r| r.solution);
        let Some(sol) = sol else {
            eprintln!("pencilbox: internal error: the generated puzzle did not solve");
            return 1;
        };
        if let Err(e) = std::fs::write(path, format!("{}\n", sol.to_text())) {
            eprintln!("pencilbox: cannot write {}: {e}", path.display());
            return 2;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_rows_by_columns_within_limits() {
        assert_eq!(parse_size("6x8"), Ok((6, 8)));
        assert_eq!(parse_size("10×10"), Ok((10, 10)));
        assert!(parse_size("0x5").is_err());
        assert!(parse_size("61x5").is_err());
        assert!(parse_size("axb").is_err());
        assert!(parse_size("8").is_err());
    }
}
