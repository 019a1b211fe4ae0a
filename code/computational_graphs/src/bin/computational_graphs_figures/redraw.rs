//! `--redraw`: draws a sweep's SVG again from its committed CSV, after the chart code changed.
//! It measures nothing and opens no adapter; the sidecar keeps describing the measurement and
//! only gains a note that says which commit drew the picture.

use std::path::{Path, PathBuf};

use bench_harness::LineChart;

use crate::charts::{PytorchRow, line_chart, sweep_title};
use crate::roofline_model::split_csv_line;
use crate::sweep::{Row, setup_chart};
use crate::variants::Variant;
use crate::{overlap_bench, transfer_bench};

/// The `--only` parts that `--redraw` can draw.
/// `depths` also draws the set-up bars, which come from the depth sweep's CSV.
pub const REDRAWABLE: [&str; 4] = ["sizes", "depths", "transfers", "overlap"];

#[derive(Debug, thiserror::Error)]
pub enum RedrawError {
    #[error("cannot read {path}: {source}; --redraw needs the measured CSV in the --out folder")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {why}; fix or re-measure that row, --redraw draws only what parses")]
    Row {
        path: PathBuf,
        line: usize,
        why: String,
    },
    #[error("{path}: {why}; --redraw adds its note to the measurement's sidecar, so it must exist")]
    Sidecar { path: PathBuf, why: String },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("--redraw draws sizes, depths, transfers and overlap, not {0}; leave it out of --only")]
    Unsupported(String),
}

fn read(path: &Path) -> Result<String, RedrawError> {
    std::fs::read_to_string(path).map_err(|source| RedrawError::Read {
        path: path.to_owned(),
        source,
    })
}

/// The data lines of a CSV with header `expected` (1-based line numbers for the errors).
fn cells(
    path: &Path,
    text: &str,
    expected: &[&str],
) -> Result<Vec<(usize, Vec<String>)>, RedrawError> {
    let bad = |line, why: String| RedrawError::Row {
        path: path.to_owned(),
        line,
        why,
    };
    let mut lines = text.lines().enumerate();
    let header = lines
        .next()
        .map(|(_, l)| split_csv_line(l))
        .unwrap_or_default();
    if header.len() < expected.len() || header.iter().zip(expected).any(|(h, e)| h != e) {
        return Err(bad(1, format!("header is not {}", expected.join(","))));
    }
    let mut rows = Vec::new();
    for (i, line) in lines.filter(|(_, l)| !l.trim().is_empty()) {
        let c = split_csv_line(line);
        if c.len() != header.len() {
            return Err(bad(
                i + 1,
                format!("{} cells, the header has {}", c.len(), header.len()),
            ));
        }
        rows.push((i + 1, c));
    }
    Ok(rows)
}

fn number<T: std::str::FromStr>(
    path: &Path,
    line: usize,
    column: &str,
    cell: &str,
) -> Result<T, RedrawError>
where
    T::Err: std::fmt::Display,
{
    cell.parse().map_err(|e| RedrawError::Row {
        path: path.to_owned(),
        line,
        why: format!("{column} {cell:?}: {e}"),
    })
}

/// Reads a sweep CSV back into the rows the measuring code wrote it from.
pub fn read_sweep(path: &Path) -> Result<Vec<Row>, RedrawError> {
    let text = read(path)?;
    let header = [
        "sweep",
        "size",
        "depth",
        "variant",
        "setup_ms",
        "median_ms",
        "p10_ms",
        "p90_ms",
        "gpu_timestamps_ms",
    ];
    let mut rows = Vec::new();
    for (line, c) in cells(path, &text, &header)? {
        let bad = |why: String| RedrawError::Row {
            path: path.to_owned(),
            line,
            why,
        };
        let sweep = match c[0].as_str() {
            "size" => "size",
            "depth" => "depth",
            other => return Err(bad(format!("sweep {other:?} is neither size nor depth"))),
        };
        let variant = Variant::ALL
            .into_iter()
            .find(|v| v.name() == c[3])
            .ok_or_else(|| bad(format!("no variant is called {:?}", c[3])))?;
        rows.push(Row {
            sweep,
            size: number(path, line, "size", &c[1])?,
            depth: number(path, line, "depth", &c[2])?,
            variant,
            setup_ms: number(path, line, "setup_ms", &c[4])?,
            // Older CSVs end before this column: nothing was tuned in them.
            tuning_ms: match c.get(9).map(String::as_str) {
                None | Some("") => 0.0,
                Some(t) => number(path, line, "tuning_ms", t)?,
            },
            median_ms: number(path, line, "median_ms", &c[5])?,
            p10_ms: number(path, line, "p10_ms", &c[6])?,
            p90_ms: number(path, line, "p90_ms", &c[7])?,
            gpu_ms: match c[8].as_str() {
                "" => None,
                g => Some(number(path, line, "gpu_timestamps_ms", g)?),
            },
        });
    }
    Ok(rows)
}

/// Reads the PyTorch script's CSV (`sweep,size,depth,variant,median_ms,p10_ms,p90_ms,…`).
pub fn read_pytorch(path: &Path) -> Result<Vec<PytorchRow>, RedrawError> {
    let text = read(path)?;
    let header = [
        "sweep",
        "size",
        "depth",
        "variant",
        "median_ms",
        "p10_ms",
        "p90_ms",
    ];
    let mut rows = Vec::new();
    for (line, c) in cells(path, &text, &header)? {
        rows.push(PytorchRow {
            sweep: c[0].clone(),
            size: number(path, line, "size", &c[1])?,
            depth: number(path, line, "depth", &c[2])?,
            variant: c[3].clone(),
            median_ms: number(path, line, "median_ms", &c[4])?,
            p10_ms: number(path, line, "p10_ms", &c[5])?,
            p90_ms: number(path, line, "p90_ms", &c[6])?,
        });
    }
    Ok(rows)
}

/// The note a redraw adds to the sidecar's "notes".
pub fn note(commit: &str) -> String {
    format!("SVG redrawn from this CSV by computational_graphs_figures --redraw at commit {commit}")
}

/// The chart's subtitle as the measuring run wrote it, from the sidecar's machine and adapter.
fn subtitle(path: &Path, sidecar: &serde_json::Value) -> Result<String, RedrawError> {
    let text = |v: &serde_json::Value| v.as_str().map(str::to_owned);
    let machine = text(&sidecar["machine_label"]).or_else(|| text(&sidecar["cpu"]));
    let adapter = &sidecar["adapter"];
    match (machine, text(&adapter["name"]), text(&adapter["backend"])) {
        (Some(m), Some(name), Some(backend)) => Ok(crate::charts::subtitle_of(&m, &name, &backend)),
        _ => Err(RedrawError::Sidecar {
            path: path.to_owned(),
            why: "no machine_label/cpu or adapter name/backend".into(),
        }),
    }
}

/// Adds `note` to the sidecar's "notes" array by editing the text, so every other byte (and
/// the key order) stays as the measurement wrote it. A note already there is not added twice.
pub fn add_note(path: &Path, text: &str, note: &str) -> Result<String, RedrawError> {
    let quoted = serde_json::to_string(note).expect("a string always serialises");
    if text.contains(&quoted) {
        return Ok(text.to_owned());
    }
    let missing = || RedrawError::Sidecar {
        path: path.to_owned(),
        why: "no \"notes\" array".into(),
    };
    let open = text.find("\"notes\": [").ok_or_else(missing)? + "\"notes\": [".len();
    // The array's closing bracket: the first `]` outside a string.
    let (mut in_string, mut escaped, mut close) = (false, false, None);
    for (i, c) in text[open..].char_indices() {
        match (c, in_string, escaped) {
            (_, true, true) => escaped = false,
            ('\\', true, false) => escaped = true,
            ('"', _, false) => in_string = !in_string,
            (']', false, _) => {
                close = Some(open + i);
                break;
            }
            _ => {}
        }
    }
    let close = close.ok_or_else(missing)?;
    let body = text[open..close].trim_end();
    let inserted = if body.trim().is_empty() {
        format!("\n    {quoted}\n  ")
    } else {
        format!("{body},\n    {quoted}\n  ")
    };
    Ok(format!("{}{inserted}{}", &text[..open], &text[close..]))
}

/// The measurement's sidecar `{name}.json` in `dir`: its text and the chart subtitle it implies.
fn sidecar(dir: &Path, name: &str) -> Result<(PathBuf, String, String), RedrawError> {
    let path = dir.join(format!("{name}.json"));
    let json = read(&path)?;
    let value: serde_json::Value =
        serde_json::from_str(&json).map_err(|e| RedrawError::Sidecar {
            path: path.clone(),
            why: e.to_string(),
        })?;
    let sub = subtitle(&path, &value)?;
    Ok((path, json, sub))
}

/// Writes the chart as `{name}.svg`, then adds the redraw note to the sidecar.
fn finish(
    dir: &Path,
    name: &str,
    chart: &str,
    (json_path, json): (PathBuf, String),
    commit: &str,
) -> Result<PathBuf, RedrawError> {
    let svg = dir.join(format!("{name}.svg"));
    std::fs::write(&svg, chart).map_err(|source| RedrawError::Write {
        path: svg.clone(),
        source,
    })?;
    let updated = add_note(&json_path, &json, &note(commit))?;
    std::fs::write(&json_path, updated).map_err(|source| RedrawError::Write {
        path: json_path.clone(),
        source,
    })?;
    Ok(svg)
}

/// The transfers chart from `{prefix}_transfers.csv`.
fn transfers_chart(csv: &Path, sub: String) -> Result<LineChart, RedrawError> {
    let text = read(csv)?;
    let mut series = transfer_bench::empty_series();
    for (line, c) in cells(csv, &text, &transfer_bench::HEADER[..8])? {
        let s = series
            .iter_mut()
            .find(|s| s.name == c[0])
            .ok_or_else(|| RedrawError::Row {
                path: csv.to_owned(),
                line,
                why: format!("no transfer path is called {:?}", c[0]),
            })?;
        let bytes: f64 = number(csv, line, "bytes", &c[1])?;
        s.point_with_spread(
            bytes,
            number(csv, line, "median_gb_s", &c[5])?,
            number(csv, line, "p10_gb_s", &c[6])?,
            number(csv, line, "p90_gb_s", &c[7])?,
        );
    }
    Ok(transfer_bench::chart(sub, series))
}

/// The overlap chart from `{prefix}_overlap.csv`; the perfect-overlap line is, as when measured,
/// the longest of the three serial phases' medians at each chunk count.
fn overlap_chart(csv: &Path, sub: String) -> Result<LineChart, RedrawError> {
    use overlap_bench::PHASES;
    let text = read(csv)?;
    let mut lines = overlap_bench::empty_lines();
    let mut bounds: Vec<(f64, f64)> = Vec::new();
    let mut rows = 0;
    for (line, c) in cells(csv, &text, &overlap_bench::HEADER[..7])? {
        let chunks: f64 = number(csv, line, "chunks", &c[0])?;
        let median: f64 = number(csv, line, "median_ms", &c[2])?;
        rows = number(csv, line, "rows", &c[6])?;
        if let Some(l) = lines.iter_mut().find(|l| l.name == c[1]) {
            l.point_with_spread(
                chunks,
                median,
                number(csv, line, "p10_ms", &c[3])?,
                number(csv, line, "p90_ms", &c[4])?,
            );
        } else if PHASES.contains(&c[1].as_str()) {
            match bounds.iter_mut().find(|(x, _)| *x == chunks) {
                Some((_, b)) => *b = b.max(median),
                None => bounds.push((chunks, median)),
            }
        } else {
            return Err(RedrawError::Row {
                path: csv.to_owned(),
                line,
                why: format!("no schedule is called {:?}", c[1]),
            });
        }
    }
    for (chunks, bound) in bounds {
        lines[3].point(chunks, bound);
    }
    Ok(overlap_bench::chart(rows, sub, lines))
}

/// Redraws the SVGs of `parts` (sizes, depths, transfers, overlap) from the CSVs in `dir`;
/// returns the SVGs written.
pub fn redraw(
    dir: &Path,
    prefix: &str,
    parts: &[&str],
    pytorch_csv: Option<&Path>,
    commit: &str,
) -> Result<Vec<PathBuf>, RedrawError> {
    if let Some(p) = parts.iter().find(|p| !REDRAWABLE.contains(p)) {
        return Err(RedrawError::Unsupported((*p).to_owned()));
    }
    let pytorch = match pytorch_csv {
        Some(p) => read_pytorch(p)?,
        None => Vec::new(),
    };
    let mut written = Vec::new();
    for (part, sweep) in [("sizes", "size"), ("depths", "depth")] {
        if !parts.contains(&part) {
            continue;
        }
        let name = format!("{prefix}_{sweep}");
        let rows = read_sweep(&dir.join(format!("{name}.csv")))?;
        let (json_path, json, sub) = sidecar(dir, &name)?;
        // The depth sweep's tensor size is in its rows: the run may have been --quick.
        let sweep_size = rows.first().map_or(0, |r| r.size);
        let (title, x_label) = sweep_title(sweep, sweep_size);
        let chart = line_chart(&rows, &pytorch, sweep, &title, &sub, x_label);
        written.push(finish(
            dir,
            &name,
            &chart.to_svg(),
            (json_path, json),
            commit,
        )?);
    }
    let setup_sidecar = dir.join(format!("{prefix}_setup.json"));
    if parts.contains(&"depths") && setup_sidecar.exists() {
        // The set-up bars come from the depth sweep's setup_ms column; the sidecar is their own.
        let rows = read_sweep(&dir.join(format!("{prefix}_depth.csv")))?;
        let name = format!("{prefix}_setup");
        let (json_path, json, sub) = sidecar(dir, &name)?;
        let size = rows
            .iter()
            .find(|r| r.sweep == "depth")
            .map_or(0, |r| r.size);
        if let Some(chart) = setup_chart(&rows, size, &sub) {
            written.push(finish(
                dir,
                &name,
                &chart.to_svg(),
                (json_path, json),
                commit,
            )?);
        }
    }
    for part in ["transfers", "overlap"] {
        if !parts.contains(&part) {
            continue;
        }
        let name = format!("{prefix}_{part}");
        let csv = dir.join(format!("{name}.csv"));
        // The CSV first, so that a missing CSV is the error reported.
        read(&csv)?;
        let (json_path, json, sub) = sidecar(dir, &name)?;
        let chart = if part == "transfers" {
            transfers_chart(&csv, sub)?
        } else {
            overlap_chart(&csv, sub)?
        };
        written.push(finish(
            dir,
            &name,
            &chart.to_svg(),
            (json_path, json),
            commit,
        )?);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIDECAR: &str = r#"{
  "figure": "t_size",
  "machine_label": "test host",
  "adapter": {
    "backend": "Vulkan",
    "name": "llvmpipe"
  },
  "commit": "abc123",
  "notes": [
    "full sweep"
  ]
}
"#;

    fn write_inputs(dir: &Path) {
        let sweep = "sweep,size,depth,variant,setup_ms,median_ms,p10_ms,p90_ms,gpu_timestamps_ms\n\
                     size,64,64,CPU,0.5,2.0,1.9,2.1,\n\
                     size,128,64,CPU,0.5,4.0,3.9,4.1,\n\
                     size,64,64,GPU immediate,1.0,1.0,0.9,1.1,0.8\n\
                     size,128,64,GPU immediate,1.0,1.5,1.4,1.6,1.2\n";
        std::fs::write(dir.join("t_size.csv"), sweep).unwrap();
        std::fs::write(dir.join("t_size.json"), SIDECAR).unwrap();
        // Interleaved as the PyTorch script writes it.
        let pytorch = "sweep,size,depth,variant,median_ms,p10_ms,p90_ms,compile_s\n\
                       size,64,64,PyTorch eager,0.7,0.6,0.8,0.00\n\
                       size,64,64,PyTorch compiled,0.3,0.2,0.4,9.0\n\
                       size,128,64,PyTorch eager,0.9,0.8,1.0,0.00\n\
                       size,128,64,PyTorch compiled,0.4,0.3,0.5,9.0\n";
        std::fs::write(dir.join("t_pytorch.csv"), pytorch).unwrap();
    }

    #[test]
    fn a_redraw_of_the_depths_also_draws_the_set_up_bars_from_the_depth_csv() {
        let dir = tempfile::tempdir().unwrap();
        let depth = "sweep,size,depth,variant,setup_ms,median_ms,p10_ms,p90_ms,gpu_timestamps_ms\n\
                     depth,32,64,CPU,0.1,2.0,1.9,2.1,\n\
                     depth,32,64,GPU immediate,29.6,1.0,0.9,1.1,0.8\n\
                     depth,32,8,GPU immediate,3.0,1.0,0.9,1.1,0.8\n";
        std::fs::write(dir.path().join("t_depth.csv"), depth).unwrap();
        std::fs::write(dir.path().join("t_setup.json"), SIDECAR).unwrap();
        std::fs::write(dir.path().join("t_depth.json"), SIDECAR).unwrap();
        let svgs = redraw(dir.path(), "t", &["depths"], None, "feed1234").unwrap();
        assert_eq!(
            svgs,
            [
                dir.path().join("t_depth.svg"),
                dir.path().join("t_setup.svg")
            ]
        );
        let svg = std::fs::read_to_string(&svgs[1]).unwrap();
        assert!(
            svg.contains(">CPU<") && svg.contains(">GPU immediate<"),
            "{svg}"
        );
        // Only depth 64's rows are bars: one value label each.
        assert!(svg.contains(">29.6<") && !svg.contains(">3.00<"), "{svg}");
        let json = std::fs::read_to_string(dir.path().join("t_setup.json")).unwrap();
        assert!(json.contains("feed1234"), "{json}");
    }

    #[test]
    fn a_redraw_draws_one_legend_entry_per_variant_and_only_adds_a_note() {
        let dir = tempfile::tempdir().unwrap();
        write_inputs(dir.path());
        let csv_before = std::fs::read_to_string(dir.path().join("t_size.csv")).unwrap();
        let pytorch = dir.path().join("t_pytorch.csv");
        let svgs = redraw(dir.path(), "t", &["sizes"], Some(&pytorch), "feed1234").unwrap();
        assert_eq!(svgs, [dir.path().join("t_size.svg")]);
        let svg = std::fs::read_to_string(&svgs[0]).unwrap();
        for label in ["PyTorch eager", "PyTorch compiled", "GPU immediate"] {
            assert_eq!(
                svg.matches(&format!(">{label}<")).count(),
                1,
                "{label} in {svg}"
            );
        }
        assert!(svg.contains(">CPU<"));
        let csv_after = std::fs::read_to_string(dir.path().join("t_size.csv")).unwrap();
        assert_eq!(csv_before, csv_after);
        let json = std::fs::read_to_string(dir.path().join("t_size.json")).unwrap();
        let expected = SIDECAR.replace(
            "\"full sweep\"\n",
            &format!("\"full sweep\",\n    \"{}\"\n", note("feed1234")),
        );
        assert_eq!(json, expected);
        // A second redraw at the same commit leaves the sidecar as it is.
        redraw(dir.path(), "t", &["sizes"], Some(&pytorch), "feed1234").unwrap();
        let again = std::fs::read_to_string(dir.path().join("t_size.json")).unwrap();
        assert_eq!(again, expected);
    }

    #[test]
    fn a_missing_csv_or_a_bad_row_is_refused_with_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let missing = redraw(dir.path(), "t", &["sizes"], None, "c").unwrap_err();
        assert!(
            matches!(missing, RedrawError::Read { ref path, .. } if path.ends_with("t_size.csv"))
        );
        write_inputs(dir.path());
        let csv = dir.path().join("t_size.csv");
        let mut text = std::fs::read_to_string(&csv).unwrap();
        text.push_str("size,256,64,CPU,0.5,fast,3.9,4.1,\n");
        std::fs::write(&csv, text).unwrap();
        let err = redraw(dir.path(), "t", &["sizes"], None, "c").unwrap_err();
        assert!(matches!(err, RedrawError::Row { line: 6, .. }), "{err}");
        assert!(err.to_string().contains("t_size.csv:6"), "{err}");
        assert!(!dir.path().join("t_size.svg").exists());
    }
}
