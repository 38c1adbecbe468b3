//! `pencilbox study`: what each pruning rule prunes and what it costs, per family, over a
//! corpus of instances of any families.
//!
//! For every instance the study runs a set of *configurations* of its family (read from the
//! family's [`RuleTable`], `pencilbox list`):
//! * `default`: the family's default algorithm as shipped;
//! * the *reference*: the table's algorithm with its default rules (`default` itself when the
//!   table's algorithm is the default one; `backtrack` for Sudoku, whose default `bits` is not
//!   on the engine). Ratios are taken against it;
//! * `-RULE` for every optional rule on by default (that rule switched off), `+RULE` for every
//!   one off by default (switched on);
//! * `defining`: the defining rules alone (`--set rules=none`), and `defining+RULE` with each
//!   optional rule added alone;
//! * `paper`, when the family has an algorithm of that name (the published baseline).
//!
//! Each configuration is solved `--repeat N` times: the first run counts per-rule work
//! ([`pencilbox_core::Limits::counters`]); the time reported is the fastest of the other runs
//! (of the one run when N is 1). A run stopped by `--timeout` is a timeout and is not
//! repeated. Output: a text table per family, `--format json` (every run, with its counters)
//! or `csv` (one row per instance and configuration), and `--plot DIR` SVG figures
//! ([`crate::plot`]).
//!
//! Node and time ratios are geometric means over the instances that both the configuration
//! and the reference finished: above 1, the configuration needs more than the reference (a
//! rule switched off that was earning its keep); below 1, less.

use crate::bench::{collect, run_limits};
use crate::commands::fail;
use crate::input::{describe, display_name, read_text, InputError};
use crate::interrupt::Watch;
use crate::output::emit;
use crate::registry;
use pencilbox_core::puzzle::RuleCount;
use pencilbox_core::rules::{Role, RuleTable};
use pencilbox_core::{Limits, PuzzleKind, Render, RunOptions, Status};
use serde::Serialize;
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Output formats of `study`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StudyFormat {
    /// A table per family.
    Text,
    /// Every run with its counters, and the summaries.
    Json,
    /// One row per instance and configuration.
    Csv,
}

// Flags of `pencilbox study`.
#[derive(clap::Args, Debug)]
pub struct StudyArgs {
    /// Study only the instances of this family (others under the paths are skipped).
    #[arg(long, short = 'p')]
    family: Option<String>,
    /// Only these optional rules (comma-separated names, e.g. `pointing,probe`); default: all.
    #[arg(long, value_delimiter = ',')]
    rules: Vec<String>,
    /// Solve each configuration this many times; the time is the fastest run without counters.
    #[arg(long, default_value_t = 1)]
    repeat: u32,
    /// Time limit per run in seconds.
    #[arg(long, value_name = "SECS", allow_negative_numbers = true)]
    timeout: Option<f64>,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = StudyFormat::Text)]
    format: StudyFormat,
    /// Also summarise each family per grid size (a table per family and size, smallest
    /// first, after the families' tables; JSON `"by_size"`): where a rule starts to pay.
    #[arg(long)]
    by_size: bool,
    /// Write SVG figures into this folder (created if missing): a heat map of rule × family,
    /// scatter plots of nodes with and without each rule, and the counters' shares.
    #[arg(long, value_name = "DIR")]
    plot: Option<PathBuf>,
    /// Files or folders (searched recursively) of instances, of any families.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
}

/// What a configuration does to the family's rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "rule")]
pub enum Change {
    /// The default algorithm as shipped.
    Default,
    /// The table's algorithm with its default rules (ratios are taken against it).
    Reference,
    /// One optional rule toggled (off when on by default, on when off by default).
    Toggle(&'static str),
    /// The defining rules alone.
    Defining,
    /// The defining rules and one optional rule.
    DefiningWith(&'static str),
    /// The paper's algorithm.
    Paper,
}

/// One configuration of a family.
#[derive(Clone, Debug, Serialize)]
pub struct Config {
    /// Its label (`default`, `-pointing`, `defining+probe`, `paper`).
    pub label: String,
    /// What it changes.
    pub change: Change,
    /// `--algorithm` (`None`: the default).
    pub algorithm: Option<&'static str>,
    /// `--set rules=…` (`None`: none given).
    pub rules: Option<String>,
}

/// The configurations of a family (see the module docs); `only` restricts the optional rules.
pub fn configs(kind: &dyn PuzzleKind, only: &[String]) -> Vec<Config> {
    let default_alg = kind.algorithms().first().map(|a| a.name);
    let mut out = vec![Config {
        label: "default".into(),
        change: Change::Default,
        algorithm: None,
        rules: None,
    }];
    if let Some(t) = kind.rule_table() {
        let alg = (Some(t.algorithm) != default_alg).then_some(t.algorithm);
        if alg.is_some() {
            out.push(Config {
                label: t.algorithm.to_string(),
                change: Change::Reference,
                algorithm: alg,
                rules: None,
            });
        }
        let studied = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
        for r in t.optional().filter(|r| studied(r.name)) {
            let sign = if r.role == Role::Optional { '-' } else { '+' };
            out.push(Config {
                label: format!("{sign}{}", r.name),
                change: Change::Toggle(r.name),
                algorithm: alg,
                rules: Some(format!("{sign}{}", r.name)),
            });
        }
        out.push(Config {
            label: "defining".into(),
            change: Change::Defining,
            algorithm: alg,
            rules: Some("none".into()),
        });
        for r in t.optional().filter(|r| studied(r.name)) {
            out.push(Config {
                label: format!("defining+{}", r.name),
                change: Change::DefiningWith(r.name),
                algorithm: alg,
                rules: Some(format!("none,+{}", r.name)),
            });
        }
    }
    if kind.algorithms().iter().any(|a| a.name == "paper") && default_alg != Some("paper") {
        out.push(Config {
            label: "paper".into(),
            change: Change::Paper,
            algorithm: Some("paper"),
            rules: None,
        });
    }
    out
}

/// The index of the configuration ratios are taken against.
pub fn reference(configs: &[Config]) -> usize {
    configs.iter().position(|c| c.change == Change::Reference).unwrap_or(0)
}

/// One configuration's run on one instance.
#[derive(Clone, Debug, Serialize)]
pub struct Run {
    /// The configuration's label.
    pub config: String,
    /// How it ended (the first run's status).
    pub status: Status,
    /// Search nodes.
    pub nodes: u64,
    /// Failures.
    pub failures: u64,
    /// The fastest time, in microseconds.
    pub time_us: f64,
    /// The per-rule counters of the counting run.
    pub rules: Vec<RuleCount>,
}

/// One instance with its runs.
#[derive(Clone, Debug, Serialize)]
pub struct InstanceResult {
    /// The family.
    pub family: &'static str,
    /// The file (with `:LINE` for one puzzle of several in a file).
    pub file: String,
    /// Rows and columns.
    pub height: usize,
    /// Columns.
    pub width: usize,
    /// One run per configuration, in the family's configuration order.
    pub runs: Vec<Run>,
}

/// A family's configurations summed over its instances.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The configuration.
    pub config: Config,
    /// Instances run.
    pub instances: usize,
    /// Instances solved or proved unsolvable (not timed out).
    pub finished: usize,
    /// Timeouts.
    pub timeouts: usize,
    /// Nodes over the finished instances.
    pub nodes: u64,
    /// Failures over the finished instances.
    pub failures: u64,
    /// Time over the finished instances, in milliseconds.
    pub time_ms: f64,
    /// Geometric mean of nodes / the reference's nodes, over the instances both finished.
    pub node_ratio: Option<f64>,
    /// Geometric mean of time / the reference's time, over the same instances.
    pub time_ratio: Option<f64>,
    /// The per-rule counters summed over the instances.
    pub rules: Vec<RuleCount>,
}

/// A family's part of the study.
#[derive(Clone, Debug, Serialize)]
pub struct FamilyStudy {
    /// The family.
    pub family: &'static str,
    /// The algorithm its rules belong to, and the label of the reference configuration.
    pub algorithm: Option<&'static str>,
    /// The reference configuration's label.
    pub reference: String,
    /// The grid size (`HxW`) when this part covers one size only (`--by-size`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// Per configuration.
    pub summary: Vec<Summary>,
    /// The family's rule table (for the figures' labels).
    #[serde(skip)]
    pub table: Option<&'static RuleTable>,
}

/// The geometric mean of `ratios` (`None` when empty).
pub fn geo_mean(ratios: &[f64]) -> Option<f64> {
    (!ratios.is_empty()).then(|| (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp())
}

/// Sums a family's instances into one [`Summary`] per configuration.
pub fn summarise(configs: &[Config], results: &[&InstanceResult]) -> Vec<Summary> {
    let r0 = reference(configs);
    configs
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut s = Summary {
                config: c.clone(),
                instances: 0,
                finished: 0,
                timeouts: 0,
                nodes: 0,
                failures: 0,
                time_ms: 0.0,
                node_ratio: None,
                time_ratio: None,
                rules: Vec::new(),
            };
            let (mut nr, mut tr) = (Vec::new(), Vec::new());
            for inst in results {
                let run = &inst.runs[i];
                s.instances += 1;
                pencilbox_core::puzzle::add_rule_counts(&mut s.rules, run.rules.iter().copied());
                if run.status == Status::Timeout {
                    s.timeouts += 1;
                    continue;
                }
                s.finished += 1;
                s.nodes += run.nodes;
                s.failures += run.failures;
                s.time_ms += run.time_us / 1000.0;
                let base = &inst.runs[r0];
                if base.status != Status::Timeout {
                    nr.push(run.nodes.max(1) as f64 / base.nodes.max(1) as f64);
                    tr.push(run.time_us.max(0.1) / base.time_us.max(0.1));
                }
            }
            s.node_ratio = geo_mean(&nr);
            s.time_ratio = geo_mean(&tr);
            s
        })
        .collect()
}

/// Runs the study; returns the exit code (0; 3 when some run timed out; 2 bad input).
pub fn run(args: &StudyArgs) -> u8 {
    match study(args) {
        Ok(code) => code,
        Err(e) => fail(e),
    }
}

fn study(args: &StudyArgs) -> Result<u8, InputError> {
    if let Some(t) = args.timeout {
        if !(t.is_finite() && t >= 0.0) {
            return Err(InputError(format!(
                "--timeout {t}: the time limit must be a non-negative number of seconds"
            )));
        }
    }
    let family = match &args.family {
        Some(f) => Some(registry::by_name(f).ok_or_else(|| {
            let names: Vec<_> = registry::PUZZLES.iter().map(|k| k.name()).collect();
            InputError(format!(
                "--family {f}: unknown family; choose one of: {}",
                names.join(", ")
            ))
        })?),
        None => None,
    };
    if !args.rules.is_empty() {
        let known: Vec<&str> = registry::PUZZLES
            .iter()
            .filter_map(|k| k.rule_table())
            .flat_map(|t| t.optional().map(|r| r.name))
            .collect();
        if let Some(bad) = args.rules.iter().find(|r| !known.contains(&r.as_str())) {
            let mut names = known.clone();
            names.sort();
            names.dedup();
            return Err(InputError(format!(
                "--rules {bad}: no family has an optional rule `{bad}`; the optional rules are {}",
                names.join(", ")
            )));
        }
    }
    let repeat = args.repeat.max(1);
    // Read and classify every file first, so bad input fails before any timing starts.
    let files = collect(&args.paths)?;
    let mut jobs: Vec<(String, &'static dyn PuzzleKind, String)> = Vec::new();
    let mut skipped = Vec::new();
    for f in &files {
        let name = display_name(f);
        let text = read_text(f)?;
        let found = registry::detect(&text);
        let kind = match family {
            Some(k) => found.iter().any(|d| d.name() == k.name()).then_some(k),
            None => match found.as_slice() {
                [k] => Some(*k),
                _ => None,
            },
        };
        match kind {
            Some(k) => jobs.push((name, k, text)),
            None => skipped.push(name),
        }
    }
    if !skipped.is_empty() {
        eprintln!(
            "pencilbox study: skipped {} file(s) that are not {}: {}",
            skipped.len(),
            family.map_or("one family's puzzle".to_string(), |k| format!("{} puzzles", k.name())),
            skipped.join(", ")
        );
    }
    if jobs.is_empty() {
        return Err(InputError(format!(
            "no {}puzzle to study under the paths given",
            family.map_or(String::new(), |k| format!("{} ", k.name()))
        )));
    }
    // The families in registry order, with their configurations.
    let mut fams: Vec<(&'static dyn PuzzleKind, Vec<Config>)> = Vec::new();
    for k in registry::PUZZLES {
        if jobs.iter().any(|(_, j, _)| j.name() == k.name()) {
            fams.push((*k, configs(*k, &args.rules)));
        }
    }
    let mut watched = Limits::default();
    let mut watch = Watch::cancel_only(&mut watched);
    let mut results: Vec<InstanceResult> = Vec::new();
    'jobs: for (name, kind, text) in &jobs {
        let cfgs = &fams.iter().find(|(k, _)| k.name() == kind.name()).expect("listed").1;
        let instances = kind.instances(text);
        let many = instances.len() > 1;
        for inst in instances {
            let file = if many {
                format!("{name}:{}", inst.first_line)
            } else {
                name.clone()
            };
            let (height, width) = kind
                .dimensions(inst.text, &RunOptions::default())
                .map_err(|e| describe(name, inst.first_line, &e))?;
            let mut runs = Vec::new();
            for c in cfgs {
                let mut best: Option<Duration> = None;
                let mut first: Option<(Status, u64, u64, Vec<RuleCount>)> = None;
                for round in 0..repeat {
                    let limits = run_limits(args.timeout, &watched, round == 0);
                    let opts = RunOptions {
                        algorithm: c.algorithm.map(str::to_string),
                        limits,
                        settings: c.rules.iter().map(|r| ("rules".to_string(), r.clone())).collect(),
                        render: Render::Text,
                        notes: false,
                    };
                    let t0 = Instant::now();
                    let r = kind.solve(inst.text, &opts).map_err(|e| {
                        let e = describe(name, inst.first_line, &e);
                        InputError(format!("{} (configuration `{}`)", e.0, c.label))
                    })?;
                    let dt = t0.elapsed();
                    if watch.interrupted() {
                        break 'jobs;
                    }
                    // The first run counts; the others are timed without counters.
                    if round > 0 || repeat == 1 {
                        best = Some(best.map_or(dt, |b| b.min(dt)));
                    }
                    if first.is_none() {
                        first = Some((r.status, r.stats.nodes, r.stats.failures, r.rules));
                    }
                    if r.status == Status::Timeout {
                        best = Some(best.map_or(dt, |b| b.min(dt)));
                        break;
                    }
                }
                let (status, nodes, failures, rules) = first.expect("at least one round");
                runs.push(Run {
                    config: c.label.clone(),
                    status,
                    nodes,
                    failures,
                    time_us: best.unwrap_or_default().as_secs_f64() * 1e6,
                    rules,
                });
            }
            results.push(InstanceResult {
                family: kind.name(),
                file,
                height,
                width,
                runs,
            });
        }
    }
    watch.done();
    let studies: Vec<FamilyStudy> = fams
        .iter()
        .map(|(k, cfgs)| {
            let mine: Vec<&InstanceResult> = results.iter().filter(|r| r.family == k.name()).collect();
            FamilyStudy {
                family: k.name(),
                algorithm: k.rule_table().map(|t| t.algorithm),
                reference: cfgs[reference(cfgs)].label.clone(),
                size: None,
                summary: summarise(cfgs, &mine),
                table: k.rule_table(),
            }
        })
        .collect();
    // Per family and grid size, smallest first.
    let mut by_size: Vec<FamilyStudy> = Vec::new();
    if args.by_size {
        for (k, cfgs) in &fams {
            let mut sizes: Vec<(usize, usize)> = results
                .iter()
                .filter(|r| r.family == k.name())
                .map(|r| (r.height, r.width))
                .collect();
            sizes.sort_by_key(|&(h, w)| (h * w, h));
            sizes.dedup();
            for (h, w) in sizes {
                let mine: Vec<&InstanceResult> = results
                    .iter()
                    .filter(|r| r.family == k.name() && (r.height, r.width) == (h, w))
                    .collect();
                by_size.push(FamilyStudy {
                    family: k.name(),
                    algorithm: k.rule_table().map(|t| t.algorithm),
                    reference: cfgs[reference(cfgs)].label.clone(),
                    size: Some(format!("{h}x{w}")),
                    summary: summarise(cfgs, &mine),
                    table: k.rule_table(),
                });
            }
        }
    }
    let timeouts: usize = results
        .iter()
        .flat_map(|r| &r.runs)
        .filter(|r| r.status == Status::Timeout)
        .count();
    let runs: usize = results.iter().map(|r| r.runs.len()).sum();
    match args.format {
        StudyFormat::Text => {
            let all: Vec<FamilyStudy> = studies.iter().chain(&by_size).cloned().collect();
            emit(&text_report(&all, results.len(), runs, timeouts))
        }
        StudyFormat::Json => emit(
            &json!({
                "families": studies,
                "by_size": by_size,
                "instances": results,
                "totals": {"instances": results.len(), "runs": runs, "timeouts": timeouts,
                           "repeat": repeat, "timeout_s": args.timeout},
            })
            .to_string(),
        ),
        StudyFormat::Csv => emit(csv_report(&results).trim_end()),
    }
    if let Some(dir) = &args.plot {
        let written = crate::plot::study_figures(dir, &studies, &results)
            .map_err(|e| InputError(format!("--plot {}: {e}", dir.display())))?;
        eprintln!("pencilbox study: wrote {written} figure(s) to {}", dir.display());
    }
    Ok(watch.code(if timeouts > 0 { 3 } else { 0 }))
}

fn ratio(r: Option<f64>) -> String {
    r.map_or("-".into(), |x| format!("{x:.2}×"))
}

/// The text report: a table per family, its reference's counters, and the totals.
pub fn text_report(studies: &[FamilyStudy], instances: usize, runs: usize, timeouts: usize) -> String {
    let mut out = String::new();
    for f in studies {
        let n = f.summary.first().map_or(0, |s| s.instances);
        out.push_str(&format!(
            "{}{} — {n} instance(s); ratios against `{}`{}\n",
            f.family,
            f.size.as_ref().map_or(String::new(), |s| format!(" {s}")),
            f.reference,
            f.algorithm.map_or(String::new(), |a| format!(" (rules of `{a}`)"))
        ));
        out.push_str(&format!(
            "  {:<24} {:>8} {:>8} {:>12} {:>12} {:>12} {:>9} {:>9}\n",
            "configuration", "finished", "timeouts", "nodes", "failures", "time (ms)", "nodes ×", "time ×"
        ));
        for s in &f.summary {
            out.push_str(&format!(
                "  {:<24} {:>8} {:>8} {:>12} {:>12} {:>12.3} {:>9} {:>9}\n",
                s.config.label,
                s.finished,
                s.timeouts,
                s.nodes,
                s.failures,
                s.time_ms,
                ratio(s.node_ratio),
                ratio(s.time_ratio)
            ));
        }
        if let Some(r) = f.summary.iter().find(|s| s.config.label == f.reference) {
            if !r.rules.is_empty() {
                let total_calls: u64 = r.rules.iter().map(|c| c.stats.runs).sum::<u64>().max(1);
                let total_removed: u64 = r.rules.iter().map(|c| c.stats.removed).sum::<u64>().max(1);
                out.push_str(&format!(
                    "  counters of `{}`: {:<14} {:>10} {:>10} {:>10} {:>10}\n",
                    f.reference, "rule", "calls", "removed", "conflicts", "time (ms)"
                ));
                for c in &r.rules {
                    out.push_str(&format!(
                        "  {:<20}{:<14} {:>9.1}% {:>9.1}% {:>10} {:>10.3}\n",
                        "",
                        c.rule,
                        100.0 * c.stats.runs as f64 / total_calls as f64,
                        100.0 * c.stats.removed as f64 / total_removed as f64,
                        c.stats.conflicts,
                        c.stats.time_ns as f64 / 1e6
                    ));
                }
            }
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "{instances} instance(s), {runs} configuration run(s), {timeouts} timeout(s)"
    ));
    out
}

/// The CSV report: one row per instance and configuration.
pub fn csv_report(results: &[InstanceResult]) -> String {
    let mut out = String::from("family,file,height,width,config,status,nodes,failures,time_us\n");
    for r in results {
        for run in &r.runs {
            let status = match run.status {
                Status::Solved => "solved",
                Status::Unsolvable => "unsolvable",
                Status::Timeout => "timeout",
            };
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{},{:.1}\n",
                r.family,
                csv_field(&r.file),
                r.height,
                r.width,
                csv_field(&run.config),
                status,
                run.nodes,
                run.failures,
                run.time_us
            ));
        }
    }
    out
}

/// A CSV field, quoted when it holds a comma, a quote or a line break (RFC 4180).
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_with_a_table_gets_a_toggle_and_a_defining_run_per_optional_rule() {
        for k in registry::PUZZLES {
            let Some(t) = k.rule_table() else { continue };
            let c = configs(*k, &[]);
            let optional = t.optional().count();
            let toggles = c.iter().filter(|c| matches!(c.change, Change::Toggle(_))).count();
            let with = c.iter().filter(|c| matches!(c.change, Change::DefiningWith(_))).count();
            assert_eq!((toggles, with), (optional, optional), "{}", k.name());
            assert_eq!(c[0].label, "default");
            assert!(c.iter().any(|c| c.change == Change::Defining));
        }
    }

    #[test]
    fn sudoku_is_referenced_to_its_engine_algorithm_and_suguru_to_its_default() {
        let sudoku = configs(registry::by_name("sudoku").unwrap(), &[]);
        assert_eq!(sudoku[reference(&sudoku)].label, "backtrack");
        assert!(sudoku.iter().any(|c| c.label == "+pointing"));
        let suguru = configs(registry::by_name("suguru").unwrap(), &["pointing".into()]);
        assert_eq!(suguru[reference(&suguru)].label, "default");
        let labels: Vec<&str> = suguru.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            ["default", "-pointing", "defining", "defining+pointing", "paper"]
        );
    }

    #[test]
    fn geometric_mean_of_ratios() {
        assert_eq!(geo_mean(&[]), None);
        assert!((geo_mean(&[2.0, 8.0]).unwrap() - 4.0).abs() < 1e-12);
    }

    #[test]
    fn csv_fields_with_commas_are_quoted() {
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"x\""), "\"say \"\"x\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }
}
