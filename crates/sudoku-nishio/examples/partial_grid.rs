//! Prints a random partial grid (a solved grid from the pattern generator with a share of the
//! cells emptied) for quick tests of large shapes:
//! `cargo run --release -p pencilbox-sudoku-nishio --example partial_grid -- 5x7 60 [SEED]`.

use pencilbox_sudoku_nishio::board::BlockShape;
use pencilbox_sudoku_nishio::generate::{partial_grid, Rng};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let block = args
        .get(1)
        .and_then(|s| BlockShape::parse(s))
        .unwrap_or(BlockShape::new(3, 3));
    let empty_pct: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(50);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    println!("{}", partial_grid(block, empty_pct, &mut Rng::new(seed)).to_line());
}
