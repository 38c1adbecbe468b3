//! Writes generated Path puzzles (and their unique answers) with [`generate`].
//!
//! ```text
//! cargo run --release -p pencilbox-pathpuzzle --example make_fixtures -- OUT_DIR NAME HEIGHT WIDTH PERCENT SEED [COUNT [any|long]]
//! ```
//! Writes `OUT_DIR/NAME.txt` and `OUT_DIR/NAME.sol` (or `NAME-01` … with COUNT > 1, seeds
//! SEED, SEED+1, …). PERCENT = 100 keeps every clue; every puzzle is unique (checked by the
//! `fast` count and by `paper` when it finishes within 3 s), unless `any` is given: then the
//! puzzle is the planted one without a uniqueness requirement and the `.sol` holds the first
//! solution `fast` finds. With `long` the path is never shortened ([`generate_long`]: 40–80 %
//! of the grid, up to 20,000 random paths per seed), the kind of puzzle the bundled
//! `examples/path/bench-*` sets hold; fresh seeds give a held-out set of that kind.

use pencilbox_core::Limits;
use pencilbox_pathpuzzle::generate::generate_long;
use pencilbox_pathpuzzle::solve::{count, Algorithm};
use pencilbox_pathpuzzle::{configuration_to_text, generate, ClueDensity};
use std::time::{Duration, Instant};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    if a.len() < 6 {
        eprintln!("usage: make_fixtures OUT_DIR NAME HEIGHT WIDTH PERCENT SEED [COUNT [any|long]]");
        std::process::exit(2);
    }
    let dir = std::path::PathBuf::from(&a[0]);
    let (h, w): (usize, usize) = (a[2].parse().expect("HEIGHT"), a[3].parse().expect("WIDTH"));
    let percent: u8 = a[4].parse().expect("PERCENT");
    let seed: u64 = a[5].parse().expect("SEED");
    let n: u64 = a.get(6).map_or(1, |s| s.parse().expect("COUNT"));
    let unique = a.get(7).map(String::as_str) != Some("any");
    let long = a.get(7).map(String::as_str) == Some("long");
    std::fs::create_dir_all(&dir).expect("output directory");
    let density = if percent >= 100 {
        ClueDensity::Complete
    } else {
        ClueDensity::Percent(percent)
    };
    for k in 0..n {
        let t = Instant::now();
        let made = if long {
            generate_long(h, w, density, seed + k, 20_000)
        } else {
            generate(h, w, density, unique, seed + k)
        };
        let p = match made {
            Ok(p) => p,
            Err(e) => {
                eprintln!("seed {}: {e}", seed + k);
                continue;
            }
        };
        let o = if unique {
            count(&p, &Algorithm::default(), None, &Limits::default())
        } else {
            pencilbox_pathpuzzle::solve::solve(&p, &Algorithm::default(), &Limits::default())
        };
        if unique {
            assert_eq!((o.count, o.complete()), (1, true), "generated puzzle is not unique");
        }
        let check = Limits {
            deadline: Some(Instant::now() + Duration::from_secs(3)),
            ..Limits::default()
        };
        let paper = count(&p, &Algorithm::Paper, Some(2), &check);
        if unique && (paper.complete() || paper.stop == pencilbox_core::StopReason::SolutionLimit) {
            assert_eq!(paper.count, 1, "paper disagrees on uniqueness");
        }
        let name = if n > 1 {
            format!("{}-{:02}", a[1], k + 1)
        } else {
            a[1].clone()
        };
        std::fs::write(dir.join(format!("{name}.txt")), p.to_text()).expect("write .txt");
        std::fs::write(
            dir.join(format!("{name}.sol")),
            configuration_to_text(&p, &o.solutions[0]),
        )
        .expect("write .sol");
        let kept = p
            .row_clues()
            .iter()
            .chain(p.col_clues())
            .filter(|c| c.is_some())
            .count();
        eprintln!(
            "{name}: {h}×{w}, {kept}/{} clues, seed {}, {:.1} s",
            h + w,
            seed + k,
            t.elapsed().as_secs_f64()
        );
    }
}
