//! `pencilbox generate ...`: puzzle generators (Suguru: `pencilbox_suguru::generate`).
//!
//! `pencilbox generate suguru --size 8x8 --difficulty medium [--seed N] [--format text|json|url]
//! [--answer FILE]` prints a puzzle with exactly one solution in the paper-repository format
//! (or JSON, or a puzz.link URL). Exit 2 on a bad size.

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
    }
}

fn suguru(a: &SuguruArgs) -> u8 {
    let (h, w) = match parse_size(&a.size) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("pencilbox: {e}");
            return 2;
        }
    };
    let seed = a.seed.unwrap_or_else(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
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
