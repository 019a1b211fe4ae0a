//! One frame of a Chrome trace drawn as a timeline (an SVG Gantt chart): the CPU's spans on the
//! upper lanes, a child span one lane below its parent, and the GPU's scopes on lanes of their
//! own. A reader without Perfetto sees what the trace holds; the picture is drawn from the trace
//! file itself, so it cannot disagree with it.

use serde_json::Value;

use crate::chrome_trace::GPU_TID;

/// One span or scope: which row (CPU or GPU), how deep, when, and for how long.
#[derive(Clone, Debug, PartialEq)]
pub struct Slice {
    pub gpu: bool,
    pub depth: usize,
    pub name: String,
    pub start_us: f64,
    pub dur_us: f64,
}

impl Slice {
    fn end_us(&self) -> f64 {
        self.start_us + self.dur_us
    }
}

/// Every span of the trace (begin/end pairs on each thread, depth = spans open around it) and
/// every complete event (`ph: X`, the GPU's scopes, depth from `args.depth`).
pub fn slices(events: &[Value]) -> Vec<Slice> {
    let mut open: Vec<(u64, &str, f64)> = Vec::new();
    let mut out = Vec::new();
    for e in events {
        let (Some(name), Some(ts)) = (e["name"].as_str(), e["ts"].as_f64()) else {
            continue;
        };
        let tid = e["tid"].as_u64().unwrap_or(0);
        match e["ph"].as_str() {
            Some("B") => open.push((tid, name, ts)),
            Some("E") => {
                let Some(at) = open.iter().rposition(|&(t, n, _)| t == tid && n == name) else {
                    continue;
                };
                let (_, _, start) = open.remove(at);
                out.push(Slice {
                    gpu: tid == GPU_TID,
                    depth: open.iter().filter(|(t, _, _)| *t == tid).count(),
                    name: name.to_owned(),
                    start_us: start,
                    dur_us: ts - start,
                });
            }
            Some("X") => out.push(Slice {
                gpu: tid == GPU_TID,
                depth: e["args"]["depth"].as_u64().unwrap_or(0) as usize,
                name: name.to_owned(),
                start_us: ts,
                dur_us: e["dur"].as_f64().unwrap_or(0.0),
            }),
            _ => {}
        }
    }
    out
}

/// The CPU spans named `frame`, in trace order; the index of the one of median length; and the
/// slices that start within it, with times from its start and depths from its own.
pub fn median_frame(all: &[Slice], frame: &str) -> Option<(usize, usize, Vec<Slice>)> {
    let mut frames: Vec<&Slice> = all.iter().filter(|s| !s.gpu && s.name == frame).collect();
    frames.sort_by(|a, b| a.start_us.total_cmp(&b.start_us));
    let mut by_length: Vec<usize> = (0..frames.len()).collect();
    by_length.sort_by(|&a, &b| frames[a].dur_us.total_cmp(&frames[b].dur_us));
    let index = *by_length.get(by_length.len() / 2)?;
    let f = frames[index];
    let within = all
        .iter()
        .filter(|s| s.start_us >= f.start_us && s.start_us < f.end_us())
        .map(|s| Slice {
            depth: if s.gpu {
                s.depth
            } else {
                s.depth.saturating_sub(f.depth)
            },
            start_us: s.start_us - f.start_us,
            ..s.clone()
        })
        .collect();
    Some((index, frames.len(), within))
}

const WIDTH: f64 = 900.0;
const LEFT: f64 = 60.0;
const LANE: f64 = 30.0;
/// Light colours, so that the dark labels inside the bars stay readable; one per name.
const COLOURS: [&str; 12] = [
    "#c7c7c7", "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#9edae5", "#dbdb8d",
    "#f7b6d2", "#c49c94", "#d4e6a5", "#ffd8a8",
];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A tick every 1, 2 or 5 × 10^k µs, about eight across the frame.
fn tick_step(span_us: f64) -> f64 {
    let raw = (span_us / 8.0).max(1e-9);
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * power)
}

/// The slices as an SVG: CPU lanes on top, GPU lanes below, time in µs along the bottom. A slice
/// wide enough carries its name and duration; the others are listed in a key under the chart.
pub fn to_svg(slices: &[Slice], title: &str, subtitle: &str) -> String {
    let mut lanes: Vec<(bool, usize)> = slices.iter().map(|s| (s.gpu, s.depth)).collect();
    lanes.sort();
    lanes.dedup();
    let end = slices
        .iter()
        .map(Slice::end_us)
        .fold(0.0, f64::max)
        .max(1e-9);
    let scale = (WIDTH - LEFT - 20.0) / end;
    let top = 56.0;
    let axis_y = top + LANE * lanes.len() as f64 + 6.0;
    let mut names: Vec<&str> = Vec::new();
    for s in slices {
        if !names.contains(&s.name.as_str()) {
            names.push(&s.name);
        }
    }
    let colour = |name: &str| {
        let i = names.iter().position(|n| *n == name).unwrap_or(0);
        COLOURS[i % COLOURS.len()]
    };
    let mut body = String::new();
    let mut key = Vec::new();
    for (row, &(gpu, depth)) in lanes.iter().enumerate() {
        let y = top + LANE * row as f64;
        if depth
            == lanes
                .iter()
                .filter(|l| l.0 == gpu)
                .map(|l| l.1)
                .min()
                .unwrap_or(0)
        {
            let label = if gpu { "GPU" } else { "CPU" };
            body += &format!(
                "<text x=\"8\" y=\"{:.1}\" font-weight=\"bold\">{label}</text>\n",
                y + 19.0
            );
        }
        for s in slices.iter().filter(|s| (s.gpu, s.depth) == (gpu, depth)) {
            let (x, w) = (LEFT + s.start_us * scale, (s.dur_us * scale).max(1.0));
            let text = format!("{} {:.0} µs", s.name, s.dur_us);
            body += &format!(
                "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{:.1}\" fill=\"{}\" \
                 stroke=\"white\" stroke-width=\"0.5\"><title>{}</title></rect>\n",
                y + 3.0,
                LANE - 6.0,
                colour(&s.name),
                escape(&text)
            );
            if w >= text.chars().count() as f64 * 6.6 + 6.0 {
                body += &format!(
                    "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#222\">{}</text>\n",
                    x + 4.0,
                    y + 19.0,
                    escape(&text)
                );
            } else {
                key.push((colour(&s.name), text));
            }
        }
    }
    let step = tick_step(end);
    let mut t = 0.0;
    while t <= end + 1e-9 {
        let x = LEFT + t * scale;
        body += &format!(
            "<line x1=\"{x:.1}\" y1=\"{top}\" x2=\"{x:.1}\" y2=\"{axis_y:.1}\" stroke=\"#ddd\"/>\n\
             <text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#555\">{t:.0}</text>\n",
            axis_y + 14.0
        );
        t += step;
    }
    body += &format!(
        "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">µs from the frame's start</text>\n",
        LEFT + (WIDTH - LEFT) / 2.0,
        axis_y + 32.0
    );
    let key_top = axis_y + 52.0;
    for (i, (c, text)) in key.iter().enumerate() {
        let (x, y) = (
            LEFT + 280.0 * (i % 3) as f64,
            key_top + 18.0 * (i / 3) as f64,
        );
        body += &format!(
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"12\" height=\"12\" fill=\"{c}\"/>\
             <text x=\"{:.1}\" y=\"{y:.1}\">{}</text>\n",
            y - 10.0,
            x + 18.0,
            escape(text)
        );
    }
    let height = key_top + 18.0 * key.len().div_ceil(3) as f64 + 8.0;
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {WIDTH} {height:.0}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{:.1}\" y=\"20\" font-size=\"15\" text-anchor=\"middle\">{}</text>\n\
         <text x=\"{:.1}\" y=\"38\" fill=\"#555\" text-anchor=\"middle\">{}</text>\n{body}</svg>\n",
        WIDTH / 2.0,
        escape(title),
        WIDTH / 2.0,
        escape(subtitle)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn span(name: &str, ph: &str, ts: f64) -> Value {
        json!({"name": name, "ph": ph, "tid": 0, "ts": ts})
    }

    fn trace() -> Vec<Value> {
        let mut events = Vec::new();
        // Two frames, 120 and 300 µs long, then a third of 200 µs: the median is the third.
        for (start, len) in [(0.0, 120.0), (1000.0, 300.0), (2000.0, 200.0)] {
            events.push(span("frame", "B", start));
            events.push(span("submit", "B", start + 10.0));
            events.push(span("submit", "E", start + 30.0));
            events.push(span("frame", "E", start + len));
            events.push(
                json!({"name": "graph", "ph": "X", "tid": GPU_TID, "ts": start + 30.0,
                "dur": 50.0, "args": {"depth": 0}}),
            );
        }
        events
    }

    #[test]
    fn spans_are_paired_and_nested_by_thread() {
        let all = slices(&trace());
        assert_eq!(all.len(), 9);
        let submit = all
            .iter()
            .find(|s| s.name == "submit")
            .expect("a submit span");
        assert_eq!(
            (submit.depth, submit.start_us, submit.dur_us),
            (1, 10.0, 20.0)
        );
        assert!(
            all.iter()
                .filter(|s| s.name == "graph")
                .all(|s| s.gpu && s.depth == 0)
        );
    }

    #[test]
    fn the_median_frame_is_cut_out_with_times_from_its_start() {
        let (index, count, frame) = median_frame(&slices(&trace()), "frame").expect("frames");
        assert_eq!((index, count), (2, 3));
        let names: Vec<(&str, f64, f64)> = frame
            .iter()
            .map(|s| (s.name.as_str(), s.start_us, s.dur_us))
            .collect();
        assert_eq!(
            names,
            [
                ("submit", 10.0, 20.0),
                ("frame", 0.0, 200.0),
                ("graph", 30.0, 50.0)
            ]
        );
    }

    #[test]
    fn the_svg_has_a_bar_per_slice_and_names_the_narrow_ones_in_a_key() {
        let (_, _, frame) = median_frame(&slices(&trace()), "frame").expect("frames");
        let svg = to_svg(&frame, "one frame", "a <test>");
        assert_eq!(
            svg.matches("<rect x=").count(),
            3 + 1,
            "three bars, a key swatch"
        );
        assert!(
            svg.contains(">frame 200 µs</text>"),
            "the wide frame is labelled inside"
        );
        assert!(
            svg.contains(">submit 20 µs</text>"),
            "the narrow submit is named in the key"
        );
        assert!(svg.contains("a &lt;test&gt;"));
        assert!(svg.contains(">GPU</text>") && svg.contains(">CPU</text>"));
    }

    #[test]
    fn a_trace_without_frames_has_no_median_frame() {
        assert!(median_frame(&slices(&[span("run_cpu", "B", 0.0)]), "frame").is_none());
    }
}
