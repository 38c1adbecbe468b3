//! Writes planted Path puzzles of any size as files, for benchmarks of whole `pencilbox`
//! commands on grids beyond the generator's 400 cells (BENCHMARKS.md, "Learning").
//!
//! ```text
//! cargo run --release -p pencilbox-pathpuzzle --example planted_files -- SIZE COUNT DIR [PERCENT] [FIRST_SEED]
//! ```
//! Writes `DIR/planted{SIZE}-{k}.txt` for `k = 1..=COUNT`: a random path from seed
//! `FIRST_SEED + k - 1` (default first seed 1) covering at least `PERCENT` % of the cells
//! (default 60), every row and column clued; not unique in general.

use pencilbox_pathpuzzle::generate::planted;

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() < 3 {
        eprintln!("usage: planted_files SIZE COUNT DIR [PERCENT] [FIRST_SEED]");
        std::process::exit(2);
    }
    let n: usize = a[0].parse().expect("SIZE");
    let count: u64 = a[1].parse().expect("COUNT");
    let dir = std::path::Path::new(&a[2]);
    let percent: usize = a.get(3).map_or(60, |s| s.parse().expect("PERCENT"));
    let first: u64 = a.get(4).map_or(1, |s| s.parse().expect("FIRST_SEED"));
    std::fs::create_dir_all(dir).expect("the directory");
    for k in 1..=count {
        let p = planted(n, n, percent, first + k - 1).expect("a path that long");
        let file = dir.join(format!("planted{n}-{k:02}.txt"));
        std::fs::write(&file, p.to_text()).expect("written");
    }
}
