//! Small, dependency-free SVG charts: enough for line sweeps and bar comparisons.

use std::fmt::Write as _;
use std::io;
use std::path::Path;

use crate::output::write_creating_dirs;

const W: f64 = 760.0;
const H: f64 = 440.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 190.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 60.0;
// Ten well-separated colours, then three darker ones for charts with more lines (the graph
// sweeps with PyTorch have thirteen).
const COLOURS: [&str; 13] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#000000", "#393b79", "#8c6d31",
];

/// A data point `(x, y)` with an optional spread `(low, high)`.
pub type Point = (f64, f64, Option<(f64, f64)>);

/// A labelled bar: `(label, value, optional (low, high) spread)`.
pub type Bar = (String, f64, Option<(f64, f64)>);

/// One line of a [`LineChart`]: points `(x, y)` with an optional spread `(low, high)` drawn as a
/// whisker (use the 10th and 90th percentiles).
#[derive(Clone, Debug, Default)]
pub struct Series {
    pub name: String,
    pub points: Vec<Point>,
}

impl Series {
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            points: Vec::new(),
        }
    }

    pub fn point(&mut self, x: f64, y: f64) {
        self.points.push((x, y, None));
    }

    pub fn point_with_spread(&mut self, x: f64, y: f64, low: f64, high: f64) {
        self.points.push((x, y, Some((low, high))));
    }
}

/// A line chart with optional logarithmic axes.
#[derive(Clone, Debug, Default)]
pub struct LineChart {
    pub title: String,
    /// Shown under the title: say which machine and device produced the data.
    pub subtitle: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub log_y: bool,
    pub series: Vec<Series>,
    /// Vertical marker lines, e.g. cache sizes: `(x, label)`.
    pub markers: Vec<(f64, String)>,
}

/// Maps data values to pixels on one axis.
struct Axis {
    lo: f64,
    hi: f64,
    log: bool,
    from: f64,
    to: f64,
}

impl Axis {
    fn new(values: impl Iterator<Item = f64>, log: bool, from: f64, to: f64) -> Self {
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.filter(|v| v.is_finite() && (!log || *v > 0.0)) {
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if !lo.is_finite() {
            (lo, hi) = (1.0, 10.0);
        }
        if log {
            lo = 10f64.powf(lo.log10().floor());
            hi = 10f64.powf(hi.log10().ceil());
            if lo == hi {
                hi = lo * 10.0;
            }
        } else {
            lo = lo.min(0.0);
            if hi <= lo {
                hi = lo + 1.0;
            }
            hi *= 1.05;
        }
        Self {
            lo,
            hi,
            log,
            from,
            to,
        }
    }

    fn px(&self, v: f64) -> f64 {
        let t = if self.log {
            (v.max(f64::MIN_POSITIVE).log10() - self.lo.log10())
                / (self.hi.log10() - self.lo.log10())
        } else {
            (v - self.lo) / (self.hi - self.lo)
        };
        self.from + t * (self.to - self.from)
    }

    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (a, b) = (
                self.lo.log10().round() as i32,
                self.hi.log10().round() as i32,
            );
            (a..=b).map(|e| 10f64.powi(e)).collect()
        } else {
            let raw = (self.hi - self.lo) / 5.0;
            let step = nice_step(raw);
            let first = (self.lo / step).ceil() as i64;
            let last = (self.hi / step).floor() as i64;
            (first..=last).map(|k| k as f64 * step).collect()
        }
    }
}

fn nice_step(raw: f64) -> f64 {
    let mag = 10f64.powf(raw.log10().floor());
    let frac = raw / mag;
    let nice = if frac <= 1.0 {
        1.0
    } else if frac <= 2.0 {
        2.0
    } else if frac <= 5.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// Short tick labels: 1e-6 → "1e-6", 4096 → "4096", 0.25 → "0.25".
fn label(v: f64) -> String {
    if v == 0.0 {
        "0".into()
    } else if v.abs() >= 1e6 || v.abs() < 1e-3 {
        let e = v.abs().log10().floor() as i32;
        let m = v / 10f64.powi(e);
        if (m - 1.0).abs() < 1e-9 {
            format!("1e{e}")
        } else {
            format!("{m:.1}e{e}")
        }
    } else if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{}", (v * 1000.0).round() / 1000.0)
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Characters of the 10–11 px subtitle per line in a picture `width` wide, kept clear of the
/// y-axis labels on both sides.
fn subtitle_chars(width: f64) -> usize {
    ((width - 2.0 * LEFT) / 5.6) as usize
}

fn header(svg: &mut String, width: f64, title: &str, subtitle: &str) {
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {H}\" width=\"{width}\" height=\"{H}\" \
         font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"20\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n",
        width / 2.0,
        escape(title),
    );
    // A long subtitle (machine, device, sizes) wraps onto a second, smaller line instead of
    // running past both edges of the picture.
    let lines = wrap(subtitle, subtitle_chars(width));
    let (size, step) = if lines.len() > 1 {
        (10, 11.0)
    } else {
        (11, 0.0)
    };
    for (k, line) in lines.iter().take(2).enumerate() {
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{:.1}\" font-size=\"{size}\" fill=\"#555\" text-anchor=\"middle\">{}</text>",
            width / 2.0,
            if step > 0.0 {
                32.0 + step * k as f64
            } else {
                37.0
            },
            escape(line)
        );
    }
}

/// An axis title along the left edge, in two lines when it is longer than the axis.
fn y_title(svg: &mut String, middle: f64, length: f64, text: &str) {
    let lines = wrap(text, (length / 6.5) as usize);
    let x = if lines.len() > 1 { 12.0 } else { 18.0 };
    let spans: String = lines
        .iter()
        .take(2)
        .enumerate()
        .map(|(k, line)| {
            let dy = if k == 0 { 0 } else { 13 };
            format!("<tspan x=\"0\" dy=\"{dy}\">{}</tspan>", escape(line))
        })
        .collect();
    let _ = writeln!(
        svg,
        "<text transform=\"translate({x},{middle:.1}) rotate(-90)\" text-anchor=\"middle\">{spans}</text>"
    );
}

impl LineChart {
    pub fn to_svg(&self) -> String {
        let all = || self.series.iter().flat_map(|s| s.points.iter());
        let xs = Axis::new(
            all().map(|p| p.0).chain(self.markers.iter().map(|m| m.0)),
            self.log_x,
            LEFT,
            W - RIGHT,
        );
        let ys = Axis::new(
            all().flat_map(|p| [p.1, p.2.map_or(p.1, |s| s.0), p.2.map_or(p.1, |s| s.1)]),
            self.log_y,
            H - BOTTOM,
            TOP,
        );
        let mut svg = String::new();
        header(&mut svg, W, &self.title, &self.subtitle);
        axes(&mut svg, &xs, &ys, &self.x_label, &self.y_label);
        for (x, text) in &self.markers {
            let px = xs.px(*x);
            let _ = writeln!(
                svg,
                "<line x1=\"{px:.1}\" y1=\"{TOP}\" x2=\"{px:.1}\" y2=\"{}\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\
                 <text x=\"{:.1}\" y=\"{}\" font-size=\"10\" fill=\"#555\">{}</text>",
                H - BOTTOM,
                px + 3.0,
                TOP + 12.0,
                escape(text)
            );
        }
        let mut legend_y = TOP + 8.0;
        for (i, series) in self.series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            // The line joins the points in x order, whatever order the measurements came in (a
            // CSV may list a variant's sizes out of order).
            let mut ordered: Vec<&Point> = series.points.iter().collect();
            ordered.sort_by(|a, b| a.0.total_cmp(&b.0));
            let path: Vec<String> = ordered
                .iter()
                .map(|p| format!("{:.1},{:.1}", xs.px(p.0), ys.px(p.1)))
                .collect();
            let _ = writeln!(
                svg,
                "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
                path.join(" ")
            );
            for &(x, y, spread) in &series.points {
                let (px, py) = (xs.px(x), ys.px(y));
                let _ = writeln!(
                    svg,
                    "<circle cx=\"{px:.1}\" cy=\"{py:.1}\" r=\"2.5\" fill=\"{colour}\"/>"
                );
                if let Some((lo, hi)) = spread {
                    let _ = writeln!(
                        svg,
                        "<line x1=\"{px:.1}\" y1=\"{:.1}\" x2=\"{px:.1}\" y2=\"{:.1}\" stroke=\"{colour}\"/>",
                        ys.px(lo),
                        ys.px(hi)
                    );
                }
            }
            legend_y = legend(&mut svg, legend_y, colour, &series.name);
        }
        svg.push_str("</svg>\n");
        svg
    }

    pub fn write(&self, path: &Path) -> io::Result<()> {
        write_creating_dirs(path, self.to_svg())
    }
}

/// A light horizontal line from `x0` to `x1` at every tick of `ys`, labelled at the left.
fn y_grid(svg: &mut String, ys: &Axis, x0: f64, x1: f64) {
    for t in ys.ticks() {
        let py = ys.px(t);
        let _ = writeln!(
            svg,
            "<line x1=\"{x0}\" y1=\"{py:.1}\" x2=\"{x1}\" y2=\"{py:.1}\" stroke=\"#eee\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            x0 - 6.0,
            py + 4.0,
            label(t)
        );
    }
}

fn axes(svg: &mut String, xs: &Axis, ys: &Axis, x_label: &str, y_label: &str) {
    let (x0, x1, y0, y1) = (LEFT, W - RIGHT, H - BOTTOM, TOP);
    let _ = writeln!(
        svg,
        "<rect x=\"{x0}\" y=\"{y1}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#333\"/>",
        x1 - x0,
        y0 - y1
    );
    for t in xs.ticks() {
        let px = xs.px(t);
        let _ = writeln!(
            svg,
            "<line x1=\"{px:.1}\" y1=\"{y0}\" x2=\"{px:.1}\" y2=\"{y1}\" stroke=\"#eee\"/>\
             <text x=\"{px:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            y0 + 16.0,
            label(t)
        );
    }
    y_grid(svg, ys, x0, x1);
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>\
",
        (x0 + x1) / 2.0,
        H - 18.0,
        escape(x_label),
    );
    y_title(svg, (y0 + y1) / 2.0, y0 - y1, y_label);
}

/// The legend column is `RIGHT` minus the swatch, about 25 characters of 12 px sans-serif: longer
/// names wrap at a space instead of running off the edge of the picture.
const LEGEND_CHARS: usize = 25;

/// Draws one legend entry with its top line at `y`; returns where the next entry starts.
fn legend(svg: &mut String, y: f64, colour: &str, name: &str) -> f64 {
    let x = W - RIGHT + 12.0;
    let _ = writeln!(
        svg,
        "<rect x=\"{x}\" y=\"{:.1}\" width=\"14\" height=\"4\" fill=\"{colour}\"/>",
        y - 2.0
    );
    let lines = wrap(name, LEGEND_CHARS);
    for (k, line) in lines.iter().enumerate() {
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{:.1}\">{}</text>",
            x + 20.0,
            y + 4.0 + 14.0 * k as f64,
            escape(line)
        );
    }
    y + 18.0 + 14.0 * (lines.len() - 1) as f64
}

/// A bar's name as slanted lines of at most `BAR_CHARS` characters: two lines for most names.
const BAR_CHARS: usize = 24;
/// The narrowest slot per bar: at a 30° slant, two 11 px lines of neighbouring names stay apart.
const MIN_SLOT: f64 = 70.0;
/// Room right of the last bar for its slanted name.
const BAR_RIGHT: f64 = 130.0;

/// A bar's value to three significant figures (a figure's numbers are not more precise).
fn bar_value(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return label(v);
    }
    let digits = 2 - v.abs().log10().floor() as i32;
    if digits <= 0 {
        let unit = 10f64.powi(-digits);
        format!("{}", (v / unit).round() * unit)
    } else if v.abs() >= 1e-3 {
        format!("{v:.*}", digits as usize)
    } else {
        label(v)
    }
}

fn bar_label(name: &str) -> String {
    wrap(name, BAR_CHARS)
        .iter()
        .enumerate()
        .map(|(k, line)| {
            let dy = if k == 0 { 0 } else { 12 };
            format!("<tspan x=\"0\" dy=\"{dy}\">{}</tspan>", escape(line))
        })
        .collect()
}

/// Splits `text` at spaces into lines of at most `width` characters (a longer word keeps a line
/// of its own).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    lines
}

/// Horizontal-label bar chart for comparing a handful of variants, with optional whiskers.
#[derive(Clone, Debug, Default)]
pub struct BarChart {
    pub title: String,
    pub subtitle: String,
    pub y_label: String,
    pub log_y: bool,
    /// `(label, value, optional (low, high) spread)`.
    pub bars: Vec<Bar>,
}

impl BarChart {
    pub fn to_svg(&self) -> String {
        let ys = Axis::new(
            self.bars
                .iter()
                .flat_map(|b| [b.1, b.2.map_or(b.1, |s| s.1)])
                .chain(
                    // A linear axis starts at zero; a log one at the decade below the smallest bar.
                    (!self.log_y).then_some(0.0),
                ),
            self.log_y,
            H - BOTTOM - 40.0,
            TOP,
        );
        // Each bar gets at least `MIN_SLOT` pixels, so that slanted names of two lines stay apart;
        // many bars make a wider picture. The last name slants past its slot: room on the right.
        let n = self.bars.len().max(1) as f64;
        let width = W.max(LEFT + n * MIN_SLOT + BAR_RIGHT);
        let (x0, x1) = (LEFT, width - BAR_RIGHT);
        let mut svg = String::new();
        header(&mut svg, width, &self.title, &self.subtitle);
        let base = H - BOTTOM - 40.0;
        let _ = writeln!(
            svg,
            "<line x1=\"{x0}\" y1=\"{base}\" x2=\"{x1}\" y2=\"{base}\" stroke=\"#333\"/>"
        );
        y_grid(&mut svg, &ys, x0, x1);
        let slot = (x1 - x0) / n;
        for (i, (name, value, spread)) in self.bars.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let x = x0 + slot * i as f64 + slot * 0.15;
            let top = ys.px(*value);
            let _ = writeln!(
                svg,
                "<rect x=\"{x:.1}\" y=\"{top:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\" text-anchor=\"middle\">{}</text>\
                 <text transform=\"translate({:.1},{:.1}) rotate(30)\" font-size=\"11\">{}</text>",
                slot * 0.7,
                (base - top).max(0.0),
                x + slot * 0.35,
                spread.map_or(top, |(_, hi)| ys.px(hi).min(top)) - 4.0,
                bar_value(*value),
                x + 4.0,
                base + 14.0,
                bar_label(name)
            );
            if let Some((lo, hi)) = spread {
                let cx = x + slot * 0.35;
                let _ = writeln!(
                    svg,
                    "<line x1=\"{cx:.1}\" y1=\"{:.1}\" x2=\"{cx:.1}\" y2=\"{:.1}\" stroke=\"#000\"/>",
                    ys.px(*lo),
                    ys.px(*hi)
                );
            }
        }
        y_title(&mut svg, (base + TOP) / 2.0, base - TOP, &self.y_label);
        svg.push_str("</svg>\n");
        svg
    }

    pub fn write(&self, path: &Path) -> io::Result<()> {
        write_creating_dirs(path, self.to_svg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_joins_its_points_in_x_order() {
        let mut series = Series::new("s");
        series.point(4.0, 1.0);
        series.point(1.0, 2.0);
        series.point(2.0, 3.0);
        let chart = LineChart {
            title: "t".into(),
            series: vec![series],
            ..Default::default()
        };
        let svg = chart.to_svg();
        let line = svg.lines().find(|l| l.contains("<polyline")).unwrap();
        let xs: Vec<f64> = line
            .split("points=\"")
            .nth(1)
            .unwrap()
            .trim_end_matches("\"/>")
            .split(' ')
            .map(|p| p.split(',').next().unwrap().parse().unwrap())
            .collect();
        assert!(xs.windows(2).all(|w| w[0] < w[1]), "{line}");
    }

    #[test]
    fn line_chart_draws_every_series_and_marker() {
        let mut s = Series::new("latency");
        s.point_with_spread(4096.0, 1.0, 0.9, 1.1);
        s.point(1e6, 80.0);
        let chart = LineChart {
            title: "t".into(),
            log_x: true,
            log_y: true,
            series: vec![s],
            markers: vec![(32768.0, "L1".into())],
            ..Default::default()
        };
        let svg = chart.to_svg();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert!(svg.contains(">L1<") && svg.contains(">latency<"));
        assert!(!svg.contains("NaN"));
    }

    #[test]
    fn bar_chart_labels_each_bar() {
        let chart = BarChart {
            title: "t".into(),
            bars: vec![("a".into(), 1.0, None), ("b".into(), 3.0, Some((2.5, 3.5)))],
            ..Default::default()
        };
        let svg = chart.to_svg();
        assert!(svg.contains(">a<") && svg.contains(">b<"));
        let long = BarChart {
            bars: vec![("compiled loop, kernels chosen per shape".into(), 1.0, None)],
            ..Default::default()
        }
        .to_svg();
        assert!(long.contains(">compiled loop, kernels<") && long.contains(">chosen per shape<"));
        assert!(!svg.contains("NaN"));
    }

    #[test]
    fn long_legend_names_wrap_inside_the_picture() {
        let mut s = Series::new("device copy only: staging → device");
        s.point(1.0, 1.0);
        let svg = LineChart {
            series: vec![s],
            ..Default::default()
        }
        .to_svg();
        assert!(svg.contains(">device copy only: staging<"), "{svg}");
        assert!(svg.contains(">→ device<"), "{svg}");
        assert_eq!(wrap("short", LEGEND_CHARS), ["short"]);
        assert!(
            wrap("upload: mapped staging + copy and more words", LEGEND_CHARS)
                .iter()
                .all(|l| l.chars().count() <= LEGEND_CHARS)
        );
    }

    #[test]
    fn bar_values_have_three_significant_figures() {
        assert_eq!(bar_value(335.455), "335");
        assert_eq!(bar_value(14312.4), "14300");
        assert_eq!(bar_value(39.339), "39.3");
        assert_eq!(bar_value(6.914), "6.91");
        assert_eq!(bar_value(0.102), "0.102");
        assert_eq!(bar_value(0.0), "0");
    }

    #[test]
    fn many_bars_widen_the_picture_and_long_titles_wrap() {
        let bars = (0..16)
            .map(|i| {
                (
                    format!("unfused int4 g32: stage {i}"),
                    10.0 + i as f64,
                    None,
                )
            })
            .collect();
        let chart = BarChart {
            title: "t".into(),
            subtitle: "x ".repeat(150),
            y_label: "set-up (ms): validate, fuse, compile pipelines, allocate, upload weights"
                .into(),
            bars,
            ..Default::default()
        };
        let svg = chart.to_svg();
        let width = LEFT + 16.0 * MIN_SLOT + BAR_RIGHT;
        assert!(
            svg.contains(&format!("viewBox=\"0 0 {width} {H}\"")),
            "{svg}"
        );
        // The subtitle is two lines, the y title two tspans.
        assert_eq!(svg.matches("fill=\"#555\"").count(), 2);
        assert!(
            svg.contains(">set-up (ms): validate, fuse, compile<"),
            "{svg}"
        );
    }

    #[test]
    fn labels_are_short() {
        assert_eq!(label(4096.0), "4096");
        assert_eq!(label(1e-6), "1e-6");
        assert_eq!(label(0.25), "0.25");
    }
}
