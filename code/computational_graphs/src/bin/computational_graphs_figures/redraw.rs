//! `--redraw`: draws a sweep's SVG again from its committed CSV, after the chart code changed.
//! It measures nothing and opens no adapter; the sidecar keeps describing the measurement and
//! only gains a note that says which commit drew the picture.

use std::path::{Path, PathBuf};

use bench_harness::{FigureError, LineChart, SidecarRecord, read_rows, read_sidecar};

use crate::charts::{line_chart, sweep_title};
use crate::sweep::setup_chart;
use crate::tables::{OverlapPoint, Row, SweepRecord, TransferPoint, read_pytorch};
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
    #[error("{0}; fix or re-measure that row, --redraw draws only what parses")]
    Table(#[from] FigureError),
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

/// A table's rows, or a clear error naming the file (and, for a row that does not parse, the
/// line: the csv crate reports it).
fn rows<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Vec<T>, RedrawError> {
    if !path.is_file() {
        let source = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        return Err(RedrawError::Read {
            path: path.to_owned(),
            source,
        });
    }
    Ok(read_rows(path)?)
}

/// A row that parses but names something this program does not know.
fn unknown(path: &Path, index: usize, why: String) -> RedrawError {
    // Line 1 is the header; the writers leave no blank lines.
    RedrawError::Row {
        path: path.to_owned(),
        line: index + 2,
        why,
    }
}

/// Reads a sweep CSV back into the rows the measuring code wrote it from.
pub fn read_sweep(path: &Path) -> Result<Vec<Row>, RedrawError> {
    rows::<SweepRecord>(path)?
        .into_iter()
        .enumerate()
        .map(|(i, record)| Row::from_record(record).map_err(|why| unknown(path, i, why)))
        .collect()
}

/// The note a redraw adds to the sidecar's "notes".
pub fn note(commit: &str) -> String {
    format!("SVG redrawn from this CSV by computational_graphs_figures --redraw at commit {commit}")
}

/// The chart's subtitle as the measuring run wrote it, from the sidecar's machine and adapter.
fn subtitle(path: &Path, sidecar: &SidecarRecord) -> Result<String, RedrawError> {
    let machine = sidecar
        .machine_label
        .clone()
        .unwrap_or_else(|| sidecar.cpu.clone());
    let text = |key: &str| sidecar.adapter[key].as_str().map(str::to_owned);
    match (text("name"), text("backend")) {
        (Some(name), Some(backend)) => Ok(crate::charts::subtitle_of(&machine, &name, &backend)),
        _ => Err(RedrawError::Sidecar {
            path: path.to_owned(),
            why: "no adapter name/backend".into(),
        }),
    }
}

/// The measurement's sidecar `{name}.json` in `dir` and the chart subtitle it implies.
fn sidecar(dir: &Path, name: &str) -> Result<(PathBuf, SidecarRecord, String), RedrawError> {
    let path = dir.join(format!("{name}.json"));
    let record = read_sidecar(&path).map_err(|e| RedrawError::Sidecar {
        path: path.clone(),
        why: e.to_string(),
    })?;
    let sub = subtitle(&path, &record)?;
    Ok((path, record, sub))
}

/// Writes the chart as `{name}.svg`, then adds the redraw note to the sidecar (once: a second
/// redraw at the same commit leaves it as it is). The sidecar keeps describing the measurement.
fn finish(
    dir: &Path,
    name: &str,
    chart: &str,
    (json_path, mut record): (PathBuf, SidecarRecord),
    commit: &str,
) -> Result<PathBuf, RedrawError> {
    let svg = dir.join(format!("{name}.svg"));
    std::fs::write(&svg, chart).map_err(|source| RedrawError::Write {
        path: svg.clone(),
        source,
    })?;
    let note = note(commit);
    if !record.notes.contains(&note) {
        record.notes.push(note);
        let mut json = serde_json::to_string_pretty(&record).expect("a sidecar always serialises");
        json.push('\n');
        std::fs::write(&json_path, json).map_err(|source| RedrawError::Write {
            path: json_path.clone(),
            source,
        })?;
    }
    Ok(svg)
}

/// The transfers chart from `{prefix}_transfers.csv`.
fn transfers_chart(csv: &Path, sub: String) -> Result<LineChart, RedrawError> {
    let mut series = transfer_bench::empty_series();
    for (i, p) in rows::<TransferPoint>(csv)?.into_iter().enumerate() {
        let s = series
            .iter_mut()
            .find(|s| s.name == p.path)
            .ok_or_else(|| unknown(csv, i, format!("no transfer path is called {:?}", p.path)))?;
        s.point_with_spread(p.bytes, p.median_gb_s, p.p10_gb_s, p.p90_gb_s);
    }
    Ok(transfer_bench::chart(sub, series))
}

/// The overlap chart from `{prefix}_overlap.csv`; the perfect-overlap line is, as when measured,
/// the longest of the three serial phases' medians at each chunk count.
fn overlap_chart(csv: &Path, sub: String) -> Result<LineChart, RedrawError> {
    use overlap_bench::PHASES;
    let mut lines = overlap_bench::empty_lines();
    let mut bounds: Vec<(f64, f64)> = Vec::new();
    let mut rows_per_batch = 0;
    for (i, p) in rows::<OverlapPoint>(csv)?.into_iter().enumerate() {
        rows_per_batch = p.rows;
        if let Some(l) = lines.iter_mut().find(|l| l.name == p.schedule) {
            l.point_with_spread(p.chunks, p.median_ms, p.p10_ms, p.p90_ms);
        } else if PHASES.contains(&p.schedule.as_str()) {
            match bounds.iter_mut().find(|(x, _)| *x == p.chunks) {
                Some((_, b)) => *b = b.max(p.median_ms),
                None => bounds.push((p.chunks, p.median_ms)),
            }
        } else {
            return Err(unknown(
                csv,
                i,
                format!("no schedule is called {:?}", p.schedule),
            ));
        }
    }
    for (chunks, bound) in bounds {
        lines[3].point(chunks, bound);
    }
    Ok(overlap_bench::chart(rows_per_batch, sub, lines))
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
        let (json_path, record, sub) = sidecar(dir, &name)?;
        // The depth sweep's tensor size is in its rows: the run may have been --quick.
        let sweep_size = rows.first().map_or(0, |r| r.size);
        let (title, x_label) = sweep_title(sweep, sweep_size);
        let chart = line_chart(&rows, &pytorch, sweep, &title, &sub, x_label);
        written.push(finish(
            dir,
            &name,
            &chart.to_svg(),
            (json_path, record),
            commit,
        )?);
    }
    let setup_sidecar = dir.join(format!("{prefix}_setup.json"));
    if parts.contains(&"depths") && setup_sidecar.exists() {
        // The set-up bars come from the depth sweep's setup_ms column; the sidecar is their own.
        let rows = read_sweep(&dir.join(format!("{prefix}_depth.csv")))?;
        let name = format!("{prefix}_setup");
        let (json_path, record, sub) = sidecar(dir, &name)?;
        let size = rows
            .iter()
            .find(|r| r.sweep == "depth")
            .map_or(0, |r| r.size);
        if let Some(chart) = setup_chart(&rows, size, &sub) {
            written.push(finish(
                dir,
                &name,
                &chart.to_svg(),
                (json_path, record),
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
        if !csv.is_file() {
            rows::<TransferPoint>(&csv)?;
        }
        let (json_path, record, sub) = sidecar(dir, &name)?;
        let chart = if part == "transfers" {
            transfers_chart(&csv, sub)?
        } else {
            overlap_chart(&csv, sub)?
        };
        written.push(finish(
            dir,
            &name,
            &chart.to_svg(),
            (json_path, record),
            commit,
        )?);
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A measurement's sidecar as the figure program writes it.
    fn measured_sidecar() -> SidecarRecord {
        let mut record = bench_harness::Sidecar::new("t_size", "a test sweep").record();
        record.machine_label = Some("test host".into());
        record.adapter = serde_json::json!({"backend": "Vulkan", "name": "llvmpipe"});
        record.notes = vec!["full sweep".into()];
        // Fixed, so two calls give the same record (the clock, the load and HEAD move on).
        record.date = "2026-01-01T00:00:00Z".into();
        record.load_average = Some([0.25, 0.5, 0.75]);
        record.commit = "0123456789abcdef0123456789abcdef01234567".into();
        record.dirty = false;
        record
    }

    fn sidecar_text(record: &SidecarRecord) -> String {
        serde_json::to_string_pretty(record).unwrap() + "\n"
    }

    fn write_inputs(dir: &Path) {
        let sweep = "sweep,size,depth,variant,setup_ms,median_ms,p10_ms,p90_ms,gpu_timestamps_ms\n\
                     size,64,64,CPU,0.5,2.0,1.9,2.1,\n\
                     size,128,64,CPU,0.5,4.0,3.9,4.1,\n\
                     size,64,64,GPU immediate,1.0,1.0,0.9,1.1,0.8\n\
                     size,128,64,GPU immediate,1.0,1.5,1.4,1.6,1.2\n";
        std::fs::write(dir.join("t_size.csv"), sweep).unwrap();
        std::fs::write(dir.join("t_size.json"), sidecar_text(&measured_sidecar())).unwrap();
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
        let text = sidecar_text(&measured_sidecar());
        std::fs::write(dir.path().join("t_setup.json"), &text).unwrap();
        std::fs::write(dir.path().join("t_depth.json"), &text).unwrap();
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
        let mut noted = measured_sidecar();
        let before = std::mem::take(&mut noted.notes);
        noted.notes = [before, vec![note("feed1234")]].concat();
        // Only the note is new: every other field reads back as the measurement wrote it.
        let expected = sidecar_text(&noted);
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
        assert!(matches!(err, RedrawError::Table(_)), "{err}");
        let message = err.to_string();
        assert!(
            message.contains("t_size.csv") && message.contains("line: 6"),
            "{message}"
        );
        // A row that parses but names no variant is refused with its line too.
        write_inputs(dir.path());
        let mut text = std::fs::read_to_string(&csv).unwrap();
        text.push_str("size,256,64,GPU magic,0.5,1.0,0.9,1.1,\n");
        std::fs::write(&csv, text).unwrap();
        let err = redraw(dir.path(), "t", &["sizes"], None, "c").unwrap_err();
        assert!(matches!(err, RedrawError::Row { line: 6, .. }), "{err}");
        assert!(err.to_string().contains("t_size.csv:6"), "{err}");
        assert!(!dir.path().join("t_size.svg").exists());
    }
}
