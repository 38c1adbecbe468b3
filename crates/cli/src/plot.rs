//! SVG figures of `pencilbox study --plot DIR` and `pencilbox bench --plot FILE`, drawn with
//! the `plotters` crate's SVG backend (no bitmap or font libraries: text is laid out by
//! plotters' own estimate and rendered by the viewer).
//!
//! Every data point is one mark: a `<rect>` per heat-map cell and per bar, a `<circle>` per
//! instance in a scatter plot and per measurement in a growth plot (the tests count them).

use crate::study::{Change, FamilyStudy, InstanceResult};
use pencilbox_core::Status;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor;
use std::path::Path;

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

/// A drawing error as text.
fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

/// The colour of a ratio: white at 1, red above (the rule saves work: without it more is
/// needed), blue below, saturated at 16× either way.
fn ratio_colour(r: f64) -> RGBColor {
    let t = (r.max(1e-9).log2() / 4.0).clamp(-1.0, 1.0);
    let fade = |t: f64| (255.0 * (1.0 - t.abs() * 0.85)) as u8;
    if t >= 0.0 {
        RGBColor(255, fade(t), fade(t))
    } else {
        RGBColor(fade(t), fade(t), 255)
    }
}

const SERIES: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// A heat map: one cell per `(row, column, value)`, coloured by its ratio (white at 1, red
/// above, blue below) and
/// labelled with the value; rows and columns named.
pub fn heatmap(
    path: &Path,
    title: &str,
    rows: &[&str],
    cols: &[&str],
    cells: &[(usize, usize, f64)],
) -> Result<(), String> {
    let (w, h) = (160 + 110 * cols.len() as u32, 130 + 34 * rows.len() as u32);
    let root = SVGBackend::new(path, (w, h)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 16))
        .margin(8)
        .margin_left(140)
        .margin_top(16)
        .margin_bottom(40)
        .build_cartesian_2d(0f64..cols.len() as f64, 0f64..rows.len() as f64)
        .map_err(err)?;
    let style = ("sans-serif", 13).into_font().color(&BLACK);
    let centred = style.clone().pos(text_anchor::Pos::new(
        text_anchor::HPos::Center,
        text_anchor::VPos::Center,
    ));
    chart
        .draw_series(cells.iter().map(|&(r, c, v)| {
            let y = (rows.len() - 1 - r) as f64;
            Rectangle::new([(c as f64, y), (c as f64 + 1.0, y + 1.0)], ratio_colour(v).filled())
        }))
        .map_err(err)?;
    for &(r, c, v) in cells {
        let y = (rows.len() - 1 - r) as f64 + 0.5;
        let at = chart.backend_coord(&(c as f64 + 0.5, y));
        root.draw(&Text::new(format!("{v:.2}×"), at, centred.clone()))
            .map_err(err)?;
    }
    for (r, name) in rows.iter().enumerate() {
        let y = (rows.len() - 1 - r) as f64 + 0.5;
        let (x, y) = chart.backend_coord(&(0.0, y));
        let right = style.clone().pos(text_anchor::Pos::new(
            text_anchor::HPos::Right,
            text_anchor::VPos::Center,
        ));
        root.draw(&Text::new(name.to_string(), (x - 6, y), right))
            .map_err(err)?;
    }
    for (c, name) in cols.iter().enumerate() {
        let (x, y) = chart.backend_coord(&(c as f64 + 0.5, 0.0));
        let below = style
            .clone()
            .pos(text_anchor::Pos::new(text_anchor::HPos::Center, text_anchor::VPos::Top));
        root.draw(&Text::new(name.to_string(), (x, y + 6), below))
            .map_err(err)?;
    }
    root.present().map_err(err)
}

/// The log-axis range that holds `values` (at least one decade).
fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (mut lo, mut hi) = (f64::INFINITY, 0f64);
    for v in values {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() || hi <= 0.0 {
        return 1.0..10.0;
    }
    let lo = 10f64.powf(lo.max(1e-9).log10().floor());
    let hi = 10f64.powf(hi.log10().ceil()).max(lo * 10.0);
    lo..hi
}

/// A log-log chart on `area` over `xs` × `ys`, its mesh and axis names drawn.
fn log_chart<'a, 'b>(
    area: &'a Area<'b>,
    xs: std::ops::Range<f64>,
    ys: std::ops::Range<f64>,
    x_desc: &str,
    y_desc: &str,
) -> Result<LogChart<'a, 'b>, String> {
    let mut chart = ChartBuilder::on(area)
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(64)
        .build_cartesian_2d(xs.log_scale(), ys.log_scale())
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .label_style(("sans-serif", 12))
        .draw()
        .map_err(err)?;
    Ok(chart)
}

type LogChart<'a, 'b> = ChartContext<
    'a,
    SVGBackend<'b>,
    Cartesian2d<plotters::coord::combinators::LogCoord<f64>, plotters::coord::combinators::LogCoord<f64>>,
>;

/// A log-log scatter plot, one circle per point, with the diagonal `y = x`.
pub fn scatter(path: &Path, title: &str, x_desc: &str, y_desc: &str, points: &[(f64, f64)]) -> Result<(), String> {
    let root = SVGBackend::new(path, (520, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let range = log_range(points.iter().flat_map(|&(x, y)| [x, y]));
    let root = root.titled(title, ("sans-serif", 15)).map_err(err)?;
    let mut chart = log_chart(&root, range.clone(), range.clone(), x_desc, y_desc)?;
    chart
        .draw_series(LineSeries::new(
            [(range.start, range.start), (range.end, range.end)],
            &BLACK.mix(0.4),
        ))
        .map_err(err)?;
    chart
        .draw_series(points.iter().map(|&p| Circle::new(p, 4, SERIES[0].mix(0.7).filled())))
        .map_err(err)?;
    root.present().map_err(err)
}

/// Grouped bars: for each of `groups` (rules), one bar per measure (`measures`: calls,
/// removed, time), the values in percent.
pub fn shares(path: &Path, title: &str, groups: &[&str], measures: &[&str], values: &[Vec<f64>]) -> Result<(), String> {
    let root = SVGBackend::new(path, (140 + 90 * groups.len() as u32, 420)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 15))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..groups.len() as f64, 0f64..100f64)
        .map_err(err)?;
    let names = groups.to_vec();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(groups.len() * 2 + 1)
        .x_label_formatter(&|x| {
            let i = x.floor() as usize;
            if (x - x.floor() - 0.5).abs() < 1e-6 && i < names.len() {
                names[i].to_string()
            } else {
                String::new()
            }
        })
        .y_desc("share of the reference's total (%)")
        .label_style(("sans-serif", 12))
        .draw()
        .map_err(err)?;
    let k = measures.len().max(1) as f64;
    for (m, name) in measures.iter().enumerate() {
        let colour = SERIES[m % SERIES.len()];
        chart
            .draw_series(values[m].iter().enumerate().map(|(g, &v)| {
                let x0 = g as f64 + 0.1 + 0.8 * m as f64 / k;
                Rectangle::new([(x0, 0.0), (x0 + 0.8 / k, v)], colour.filled())
            }))
            .map_err(err)?
            .label(*name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(6)));
    }
    chart
        .configure_series_labels()
        .border_style(BLACK)
        .background_style(WHITE.mix(0.9))
        .draw()
        .map_err(err)?;
    root.present().map_err(err)
}

/// A series of a growth plot: its name and `(size, time in ms, nodes)` per measurement.
pub type Growth = (String, Vec<(f64, f64, f64)>);

/// A named series of `(x, y)` points.
pub type Series = (String, Vec<(f64, f64)>);

/// Time and nodes against instance size, side by side on log axes, one circle per
/// measurement and a line through each series' median at each size.
pub fn growth(path: &Path, title: &str, size_desc: &str, series: &[Growth]) -> Result<(), String> {
    let root = SVGBackend::new(path, (980, 440)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let root = root.titled(title, ("sans-serif", 16)).map_err(err)?;
    let (left, right) = root.split_horizontally(490);
    let pick = |f: fn(&(f64, f64, f64)) -> f64| -> Vec<Series> {
        series
            .iter()
            .map(|(n, pts)| (n.clone(), pts.iter().map(|p| (p.0, f(p))).collect()))
            .collect()
    };
    panel(&left, size_desc, "time (ms)", &pick(|p| p.1))?;
    panel(&right, size_desc, "nodes", &pick(|p| p.2))?;
    root.present().map_err(err)
}

/// One log-log chart of `series`, one circle per point and a line through each series.
pub fn lines(path: &Path, title: &str, x_desc: &str, y_desc: &str, series: &[Series]) -> Result<(), String> {
    let root = SVGBackend::new(path, (620, 460)).into_drawing_area();
    root.fill(&WHITE).map_err(err)?;
    let root = root.titled(title, ("sans-serif", 16)).map_err(err)?;
    panel(&root, x_desc, y_desc, series)?;
    root.present().map_err(err)
}

fn panel(area: &Area, x_desc: &str, y_desc: &str, series: &[Series]) -> Result<(), String> {
    let xs = log_range(series.iter().flat_map(|s| s.1.iter().map(|p| p.0)));
    let ys = log_range(series.iter().flat_map(|s| s.1.iter().map(|p| p.1.max(1e-3))));
    let mut chart = log_chart(area, xs, ys, x_desc, y_desc)?;
    for (i, (name, pts)) in series.iter().enumerate() {
        let colour = SERIES[i % SERIES.len()];
        let mut line: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.1.max(1e-3))).collect();
        line.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
        chart
            .draw_series(LineSeries::new(medians(&line), colour.mix(0.5)))
            .map_err(err)?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(3)));
        chart
            .draw_series(line.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(err)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .border_style(BLACK)
        .background_style(WHITE.mix(0.9))
        .draw()
        .map_err(err)
}

/// The median `y` of each `x` of points sorted by `x` then `y`: the line through a series
/// with several instances per size.
fn medians(sorted: &[(f64, f64)]) -> Vec<(f64, f64)> {
    sorted
        .chunk_by(|a, b| a.0 == b.0)
        .map(|g| (g[0].0, g[g.len() / 2].1))
        .collect()
}

/// A file name made of letters, digits and `-`.
fn slug(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Writes the figures of a study into `dir`; returns how many.
pub fn study_figures(dir: &Path, studies: &[FamilyStudy], results: &[InstanceResult]) -> Result<usize, String> {
    std::fs::create_dir_all(dir).map_err(err)?;
    let mut written = 0;
    // Heat maps: rule × family, the toggled configuration against the reference.
    let mut rules: Vec<&str> = Vec::new();
    for f in studies {
        for s in &f.summary {
            if let Change::Toggle(r) = s.config.change {
                if !rules.contains(&r) {
                    rules.push(r);
                }
            }
        }
    }
    let families: Vec<&str> = studies.iter().map(|f| f.family).collect();
    for (what, pick) in [
        (
            "nodes",
            (|s: &crate::study::Summary| s.node_ratio) as fn(&crate::study::Summary) -> Option<f64>,
        ),
        ("time", |s: &crate::study::Summary| s.time_ratio),
    ] {
        let mut cells = Vec::new();
        for (c, f) in studies.iter().enumerate() {
            for s in &f.summary {
                if let (Change::Toggle(r), Some(v)) = (&s.config.change, pick(s)) {
                    let row = rules.iter().position(|x| x == r).expect("collected");
                    cells.push((row, c, v));
                }
            }
        }
        if !cells.is_empty() {
            heatmap(
                &dir.join(format!("heatmap-{what}.svg")),
                &format!("{what} with the rule toggled ÷ {what} of the reference (geometric mean)"),
                &rules,
                &families,
                &cells,
            )?;
            written += 1;
        }
    }
    // Scatter plots: per family and toggled rule, nodes of the reference against nodes with
    // the rule toggled, one point per instance both finished.
    for f in studies {
        let r0 = f
            .summary
            .iter()
            .position(|s| s.config.label == f.reference)
            .unwrap_or(0);
        for (i, s) in f.summary.iter().enumerate() {
            let Change::Toggle(rule) = s.config.change else {
                continue;
            };
            let pts: Vec<(f64, f64)> = results
                .iter()
                .filter(|r| r.family == f.family)
                .filter(|r| r.runs[r0].status != Status::Timeout && r.runs[i].status != Status::Timeout)
                .map(|r| (r.runs[r0].nodes.max(1) as f64, r.runs[i].nodes.max(1) as f64))
                .collect();
            if pts.is_empty() {
                continue;
            }
            scatter(
                &dir.join(format!("scatter-{}-{}.svg", slug(f.family), slug(rule))),
                &format!("{}: nodes, `{}` against `{}`", f.family, s.config.label, f.reference),
                &format!("nodes of `{}`", f.reference),
                &format!("nodes of `{}`", s.config.label),
                &pts,
            )?;
            written += 1;
        }
    }
    // Shares: the reference's counters per rule.
    for f in studies {
        let Some(r) = f.summary.iter().find(|s| s.config.label == f.reference) else {
            continue;
        };
        if r.rules.is_empty() {
            continue;
        }
        let names: Vec<&str> = r.rules.iter().map(|c| c.rule).collect();
        let pct = |get: fn(&pencilbox_core::puzzle::RuleCount) -> u64, skip_probe: bool| -> Vec<f64> {
            let counted = |c: &&pencilbox_core::puzzle::RuleCount| !(skip_probe && c.rule == "probe");
            let total: u64 = r.rules.iter().filter(counted).map(get).sum();
            r.rules
                .iter()
                .map(|c| {
                    if counted(&c) && total > 0 {
                        100.0 * get(c) as f64 / total as f64
                    } else {
                        0.0
                    }
                })
                .collect()
        };
        let values = vec![
            pct(|c| c.stats.runs, false),
            pct(|c| c.stats.removed, false),
            // Probing's time holds the propagation it runs: shares of the propagators only.
            pct(|c| c.stats.time_ns, true),
        ];
        shares(
            &dir.join(format!("shares-{}.svg", slug(f.family))),
            &format!("{}: each rule's share of `{}`'s work", f.family, f.reference),
            &names,
            &["calls", "values removed", "time (propagators)"],
            &values,
        )?;
        written += 1;
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratio_colours_are_white_at_one_red_above_blue_below() {
        assert_eq!(ratio_colour(1.0), RGBColor(255, 255, 255));
        let up = ratio_colour(16.0);
        assert!(up.0 == 255 && up.1 < 100);
        let down = ratio_colour(1.0 / 16.0);
        assert!(down.2 == 255 && down.0 < 100);
    }

    #[test]
    fn the_line_goes_through_the_median_of_each_size() {
        let pts = [(10.0, 1.0), (10.0, 2.0), (10.0, 9.0), (20.0, 4.0)];
        assert_eq!(medians(&pts), [(10.0, 2.0), (20.0, 4.0)]);
    }

    #[test]
    fn log_ranges_cover_the_values_by_whole_decades() {
        assert_eq!(log_range([3.0, 450.0].into_iter()), 1.0..1000.0);
        assert_eq!(log_range(std::iter::empty()), 1.0..10.0);
        assert_eq!(log_range([5.0].into_iter()), 1.0..10.0);
    }
}
