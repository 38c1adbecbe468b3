//! Writes the bundled example puzzles of `examples/sudoku/` with our own generator (a random
//! solved grid, then givens removed in random order while the solution stays unique).
//!
//! `cargo run --release -p pencilbox-sudoku-nishio --example make_examples -- examples/sudoku`

use pencilbox_sudoku_nishio::board::BlockShape;
use pencilbox_sudoku_nishio::generate::{generate, Rng};
use std::path::PathBuf;

fn main() -> std::io::Result<()> {
    let dir = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "examples/sudoku".into()));
    std::fs::create_dir_all(&dir)?;
    let mut rng = Rng::new(20121);
    let singles = [
        ("4x4.txt", BlockShape::new(2, 2), 0),
        ("6x6.txt", BlockShape::new(2, 3), 0),
        ("8x8.txt", BlockShape::new(2, 4), 0),
        ("9x9.txt", BlockShape::new(3, 3), 0),
        ("12x12.txt", BlockShape::new(3, 4), 0),
        ("16x16.txt", BlockShape::new(4, 4), 0),
        ("25x25.txt", BlockShape::new(5, 5), 330),
    ];
    for (name, block, min) in singles {
        let (p, _) = generate(block, &mut rng, min);
        let body = if block.n() <= 9 { p.to_line() } else { p.to_pretty() };
        std::fs::write(dir.join(name), format!("{body}\n"))?;
        eprintln!("{name}: {} givens", p.num_givens());
    }
    let mut batch = String::new();
    for _ in 0..10 {
        let (p, _) = generate(BlockShape::new(3, 3), &mut rng, 0);
        batch.push_str(&p.to_line());
        batch.push('\n');
    }
    std::fs::write(dir.join("batch-9x9.txt"), batch)?;
    let (p, _) = generate(BlockShape::new(3, 3), &mut rng, 0);
    std::fs::write(dir.join("9x9-url.txt"), format!("{}\n", p.to_url()))?;
    Ok(())
}
