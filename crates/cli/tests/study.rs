//! End-to-end tests of `pencilbox study` through the binary, on a mixed corpus of every
//! family: the text table, the JSON and the CSV agree with each other, the SVG figures parse
//! as XML and hold one mark per data point, and bad input is refused with exit code 2. And,
//! in-process, that every family's rule table names the rules its engine really runs.

use pencilbox_cli::registry;
use pencilbox_core::rules::Role;
use pencilbox_core::{Limits, RunOptions, Status};
use serde_json::Value;
use std::path::{Path, PathBuf};

mod cli_common;
use cli_common::{root, run, Out};

/// One small bundled example of every family.
const CORPUS: [&str; 8] = [
    "examples/suguru/example-6x6.in",
    "examples/path/example-6x6.txt",
    "examples/sudoku/6x6.txt",
    "examples/ripple/example-6x6.in",
    "examples/masyu/example-6x6.txt",
    "examples/snake/example-6x6.txt",
    "examples/nurikabe/example-6x6.txt",
    "examples/starbattle/example-6x6.txt",
];

/// A fresh scratch folder outside the checkout.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pencilbox-study-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn study(extra: &[&str], paths: &[&str]) -> Out {
    let mut args = vec!["study", "--timeout", "20"];
    args.extend_from_slice(extra);
    args.extend_from_slice(paths);
    run(&args)
}

/// The elements of an SVG file with the tag `tag`.
fn marks(svg: &Path, tag: &str) -> usize {
    let text = std::fs::read_to_string(svg).unwrap_or_else(|e| panic!("{}: {e}", svg.display()));
    let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: not XML: {e}", svg.display()));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants().filter(|n| n.tag_name().name() == tag).count()
}

#[test]
fn study_of_a_mixed_corpus_covers_every_family_in_text_json_and_csv() {
    let json = study(&["--format", "json"], &CORPUS);
    assert_eq!(json.code, 0, "{}\n{}", json.stdout, json.stderr);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    let families: Vec<&str> = v["families"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["family"].as_str().unwrap())
        .collect();
    let mut all: Vec<&str> = registry::PUZZLES.iter().map(|k| k.name()).collect();
    all.sort();
    let mut sorted = families.clone();
    sorted.sort();
    assert_eq!(sorted, all, "every family is studied");
    let instances = v["instances"].as_array().unwrap();
    assert_eq!(instances.len(), CORPUS.len());
    let mut runs = 0;
    for inst in instances {
        let fam = inst["family"].as_str().unwrap();
        let f = v["families"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["family"] == fam)
            .unwrap();
        let configs: Vec<&str> = f["summary"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["config"]["label"].as_str().unwrap())
            .collect();
        let labels: Vec<&str> = inst["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["config"].as_str().unwrap())
            .collect();
        assert_eq!(labels, configs, "{fam}: one run per configuration");
        assert!(labels.contains(&"defining"), "{fam}");
        // Every engine family's reference run counted its rules.
        let reference = f["reference"].as_str().unwrap();
        let r = inst["runs"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["config"] == reference)
            .unwrap();
        assert_eq!(r["status"], "solved", "{fam}");
        if fam != "suguru" && fam != "path" {
            // (Suguru's presolve and Path's walk settle their 6×6 examples before the engine
            // starts.)
            assert!(
                !r["rules"].as_array().unwrap().is_empty(),
                "{fam}: counters of {reference}"
            );
        }
        runs += labels.len();
    }
    assert_eq!(v["totals"]["runs"], runs);
    assert_eq!(v["totals"]["timeouts"], 0);

    let csv = study(&["--format", "csv"], &CORPUS);
    assert_eq!(csv.code, 0, "{}", csv.stderr);
    let lines: Vec<&str> = csv.stdout.lines().collect();
    assert_eq!(
        lines[0],
        "family,file,height,width,config,status,nodes,failures,time_us"
    );
    assert_eq!(lines.len(), runs + 1, "one row per instance and configuration");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("suguru,examples/suguru/example-6x6.in,6,6,paper,solved,")));

    let text = study(&[], &CORPUS);
    assert_eq!(text.code, 0, "{}", text.stderr);
    for fam in &all {
        assert!(
            text.stdout.contains(&format!("{fam} — 1 instance(s)")),
            "{fam}\n{}",
            text.stdout
        );
    }
    assert!(
        text.stdout.contains("ratios against `backtrack`"),
        "Sudoku's engine reference"
    );
    assert!(text.stdout.ends_with(&format!(
        "{} instance(s), {runs} configuration run(s), 0 timeout(s)\n",
        CORPUS.len()
    )));
}

#[test]
fn study_plots_hold_one_mark_per_data_point() {
    let dir = scratch("plots");
    let d = dir.to_str().unwrap();
    let corpus = [
        "examples/suguru/example-6x6.in",
        "examples/suguru/example-10x10.in",
        "examples/suguru/paper-fig1-3x3.in",
        "examples/several/suguru-6x6-several.in",
        "examples/ripple/example-6x6.in",
        "examples/ripple/example-8x8.in",
    ];
    let o = study(&["--rules", "pointing,probe", "--format", "json", "--plot", d], &corpus);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stderr.contains("figure(s)"), "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    // Scatter plots: one circle per instance both runs finished.
    for (fam, rule) in [("suguru", "pointing"), ("suguru", "probe"), ("ripple", "pointing")] {
        let both = v["instances"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["family"] == fam)
            .filter(|i| {
                let runs = i["runs"].as_array().unwrap();
                let st = |label: &str| runs.iter().find(|r| r["config"] == label).unwrap()["status"].clone();
                st("default") != "timeout" && st(&format!("-{rule}")) != "timeout"
            })
            .count();
        assert!(both >= 2, "{fam}");
        let svg = dir.join(format!("scatter-{fam}-{rule}.svg"));
        assert_eq!(marks(&svg, "circle"), both, "{}", svg.display());
    }
    // Heat maps: one cell per family and studied rule, on top of the background.
    let cells: usize = v["families"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["summary"].as_array().unwrap())
        .filter(|s| s["config"]["change"]["kind"] == "toggle" && !s["node_ratio"].is_null())
        .count();
    assert_eq!(cells, 4, "pointing and probe in two families");
    let empty = scratch("empty-heat");
    let bare = empty.join("bare.svg");
    pencilbox_cli::plot::heatmap(&bare, "t", &["a"], &["b"], &[]).unwrap();
    let background = marks(&bare, "rect");
    assert_eq!(marks(&dir.join("heatmap-nodes.svg"), "rect"), background + cells);
    assert_eq!(marks(&dir.join("heatmap-time.svg"), "rect"), background + cells);
    // Shares: one bar per rule and measure (three measures) over the background.
    let bars = |fam: &str| {
        let f = v["families"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["family"] == fam)
            .unwrap();
        let r = f["summary"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["config"]["label"] == "default")
            .unwrap();
        3 * r["rules"].as_array().unwrap().len()
    };
    let shares = dir.join("shares-ripple.svg");
    let legend_and_background = marks(&shares, "rect") - bars("ripple");
    assert!(legend_and_background <= 3, "{legend_and_background}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&empty);
}

#[test]
fn study_refuses_bad_input_with_one_message_and_exit_2() {
    for (args, says) in [
        (
            vec!["study", "--rules", "speed", CORPUS[0]],
            "no family has an optional rule `speed`",
        ),
        (
            vec!["study", "--family", "kakuro", CORPUS[0]],
            "--family kakuro: unknown family",
        ),
        (vec!["study", "--timeout", "-1", CORPUS[0]], "--timeout -1"),
        (
            vec!["study", "--family", "masyu", CORPUS[0]],
            "no masyu puzzle to study",
        ),
        (vec!["study", "no/such/folder"], "no such file or folder"),
    ] {
        let o = run(&args);
        assert_eq!(o.code, 2, "{args:?}\n{}", o.stderr);
        assert!(o.stderr.contains(says), "{args:?}: {}", o.stderr);
        assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    }
}

#[test]
fn study_counts_a_timeout_per_run_and_exits_3() {
    // The paper's Algorithm 2 on a 20×20 Suguru takes far longer than a millisecond.
    let o = run(&[
        "study",
        "--format",
        "json",
        "--timeout",
        "0.001",
        "--rules",
        "probe",
        "examples/suguru/example-20x20.in",
    ]);
    assert_eq!(o.code, 3, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let runs = v["instances"][0]["runs"].as_array().unwrap();
    let paper = runs.iter().find(|r| r["config"] == "paper").unwrap();
    assert_eq!(paper["status"], "timeout");
    let timeouts = runs.iter().filter(|r| r["status"] == "timeout").count();
    assert_eq!(v["totals"]["timeouts"], timeouts);
}

/// Under `rules=none` only defining (or always-on) rules run, and every optional rule of
/// a table is accepted alone, off and on.
#[test]
fn rule_tables_name_the_rules_their_engines_run() {
    for (file, fam) in CORPUS.iter().zip([
        "suguru",
        "path",
        "sudoku",
        "ripple",
        "masyu",
        "snake",
        "nurikabe",
        "starbattle",
    ]) {
        let kind = registry::by_name(fam).unwrap();
        let table = kind.rule_table().unwrap_or_else(|| panic!("{fam} lists its rules"));
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let solve = |rules: &str| {
            let opts = RunOptions {
                algorithm: Some(table.algorithm.to_string()),
                settings: vec![("rules".into(), rules.into())],
                limits: Limits {
                    counters: true,
                    ..Limits::default()
                },
                ..RunOptions::default()
            };
            kind.solve(&text, &opts)
                .unwrap_or_else(|e| panic!("{fam} rules={rules}: {e}"))
        };
        let none = solve("none");
        assert_eq!(none.status, Status::Solved, "{fam}");
        for c in none.rules.iter().filter(|c| c.stats.runs > 0) {
            let r = table
                .get(c.rule)
                .unwrap_or_else(|| panic!("{fam}: `{}` runs but the table does not name it", c.rule));
            assert!(
                matches!(r.role, Role::Defining | Role::Always),
                "{fam}: `{}` ran under none",
                c.rule
            );
        }
        for r in table.optional() {
            for spec in [format!("-{}", r.name), format!("none,+{}", r.name)] {
                assert_eq!(solve(&spec).status, Status::Solved, "{fam} rules={spec}");
            }
        }
        let refused = kind.solve(
            &text,
            &RunOptions {
                algorithm: Some(table.algorithm.to_string()),
                settings: vec![("rules".into(), "-no-such-rule".into())],
                ..RunOptions::default()
            },
        );
        assert!(refused.is_err(), "{fam}");
    }
}

#[test]
fn bench_plot_draws_both_algorithms_one_circle_per_run_in_each_panel() {
    let dir = scratch("bench");
    let svg = dir.join("growth.svg");
    let o = run(&[
        "bench",
        "--format",
        "json",
        "--timeout",
        "20",
        "--plot",
        svg.to_str().unwrap(),
        "examples/path/bench-6x6",
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let main = v["instances"].as_array().unwrap().len();
    let paper = v["compare"]["paper"].as_array().unwrap().len();
    assert!(main >= 2 && paper == main, "{main} {paper}");
    // Two panels (time, nodes), one circle per finished run of each algorithm.
    assert_eq!(marks(&svg, "circle"), 2 * (main + paper));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn nishio_dag_plot_has_a_point_per_side_and_series() {
    let dir = scratch("dag");
    let svg = dir.join("dag.svg");
    let o = run(&[
        "sudoku",
        "dag",
        "--max-n",
        "12",
        "--build-up-to",
        "9",
        "--format",
        "json",
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let rows = v.as_array().unwrap();
    // Sides 4, 6, 8, 9, 10, 12 have block shapes; the graphs of 4 to 9 are built.
    assert_eq!(rows.len(), 6);
    assert_eq!(rows[3]["vertices"], "290");
    let built = rows.iter().filter(|r| !r["edges"].is_null()).count();
    assert_eq!(built, 4);
    assert_eq!(marks(&svg, "circle"), 2 * rows.len() + built);
    let bad = run(&["sudoku", "dag", "--max-n", "3"]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn study_by_size_summarises_each_grid_size_apart() {
    let files = ["examples/suguru/example-6x6.in", "examples/suguru/example-10x10.in"];
    let o = study(&["--by-size", "--rules", "pointing", "--format", "json"], &files);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let v: Value = serde_json::from_str(&o.stdout).unwrap();
    let sizes: Vec<&str> = v["by_size"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["size"].as_str().unwrap())
        .collect();
    assert_eq!(sizes, ["6x6", "10x10"]);
    for f in v["by_size"].as_array().unwrap() {
        assert_eq!(f["summary"][0]["instances"], 1);
    }
    let text = study(&["--by-size", "--rules", "pointing"], &files);
    assert!(text.stdout.contains("suguru 10x10 — 1 instance(s)"), "{}", text.stdout);
}

#[test]
fn list_shows_every_familys_defining_and_optional_rules() {
    let o = run(&["list"]);
    assert_eq!(o.code, 0);
    assert_eq!(o.stdout.matches("    rules of `").count(), registry::PUZZLES.len());
    assert!(
        o.stdout.contains("    rules of `backtrack` (--set rules=…):"),
        "{}",
        o.stdout
    );
    for line in [
        "naked-single   defines",
        "pointing       optional",
        "pointing       opt, off",
        "packing        always",
    ] {
        assert!(o.stdout.contains(line), "{line}\n{}", o.stdout);
    }
    // A defining rule cannot be switched off, with a message that says so.
    let r = run(&["solve", "--set", "rules=-naked-single", CORPUS[0]]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("`naked-single` defines the puzzle"), "{}", r.stderr);
}
