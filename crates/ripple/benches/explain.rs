//! What the engine's explanation log costs: the bundled Ripple Effect fixtures counted up to 2
//! (a uniqueness proof: the whole tree) with the log off (the default) and on, in one run.
//!
//! ```text
//! cargo bench -p pencilbox-ripple --bench explain
//! ```
//!
//! With the log off, a domain change costs one `Option` test more than an engine without a log
//! (BENCHMARKS.md bounds it by instruction counts); with it on, every change is recorded with
//! its rule and premises.

use criterion::{criterion_group, criterion_main, Criterion};
use pencilbox_core::constraints::DistinctRules;
use pencilbox_core::search::{run, Flow, Limits};
use pencilbox_ripple::Ripple;
use std::hint::black_box;
use std::path::Path;

fn fixtures() -> Vec<(String, Ripple)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/ripple");
    ["example-6x6", "example-8x8", "example-10x10"]
        .iter()
        .map(|name| {
            let text = std::fs::read_to_string(dir.join(format!("{name}.in"))).expect("bundled fixture");
            (
                name.to_string(),
                Ripple(pencilbox_ripple::FAMILY.parse(&text).expect("valid fixture")),
            )
        })
        .collect()
}

/// Counts the solutions of `p` up to 2, with the explanation log on or off.
fn count(p: &Ripple, explain: bool) -> u64 {
    let (mut s, _) = p.model(DistinctRules::EXPLAIN).expect("regions fit a domain");
    s.engine.explain(explain);
    run(&mut s, &Limits::count_up_to(2), |_| Flow::Continue).solutions
}

fn explain(c: &mut Criterion) {
    let mut g = c.benchmark_group("ripple-count-to-2");
    for (name, p) in fixtures() {
        assert_eq!(count(&p, false), 1);
        assert_eq!(count(&p, true), 1);
        g.bench_function(format!("{name}/explain-off"), |b| {
            b.iter(|| black_box(count(&p, false)))
        });
        g.bench_function(format!("{name}/explain-on"), |b| b.iter(|| black_box(count(&p, true))));
    }
    g.finish();
}

criterion_group!(benches, explain);
criterion_main!(benches);
