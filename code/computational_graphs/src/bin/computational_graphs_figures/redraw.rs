//! `--redraw`: every chart of this program drawn again from the tables in the output folder, by
//! the chart functions the measuring parts draw with; nothing is measured and no adapter opened.
//!
//! A figure is found by its sidecar (the program that wrote it) and known by the end of its name,
//! `{prefix}_{kind}`: every prefix in the folder (`graphs`, `graphs_h100`, …) is redrawn in one
//! run. Titles and subtitles that the measuring run took from the machine and the adapter come
//! from the sidecar, and a sweep's PyTorch lines from the table its measuring command read.

use std::error::Error;

use bench_harness::{Drawn, FigureArgs, Found};

use crate::args::{Args, PARTS};
use crate::charts::{gpu_subtitle, line_chart, sweep_title};
use crate::sweep::setup_chart;
use crate::tables::{PytorchRow, Row, SweepRecord, read_pytorch};
use crate::{cpu_bench, cpu_kernel_bench, ladder_bench, overlap_bench, roofline, transfer_bench};

/// Where this program's sidecars say they were written.
pub const SOURCE: &str = "code/computational_graphs/src/bin/computational_graphs_figures/";

/// The kinds of figure, by the end of their name, and the `--only` parts that write each.
const KINDS: [(&str, &[&str]); 12] = [
    ("_size", &["sizes"]),
    ("_depth", &["depths"]),
    // The set-up bars come from the depth sweep's table.
    ("_setup", &["depths"]),
    // The autotuner's table is written by either sweep.
    ("_autotune", &["sizes", "depths"]),
    ("_phases", &["phases"]),
    ("_matmul_ladder", &["ladder"]),
    ("_dispatch_floor", &["floor"]),
    ("_roofline", &["roofline"]),
    ("_cpu_matmul", &["cpu"]),
    ("_cpu_kernel", &["cpu_kernel"]),
    ("_transfers", &["transfers"]),
    ("_overlap", &["overlap"]),
];

/// Why a table-only figure has nothing to redraw.
const TABLE_ONLY: &str = "a table in the book, no chart";

/// Redraws this program's figures in `--out` (else `$FIGURES_DIR`, else `figures/`); with
/// `--only`, those of the parts it names.
pub fn run(args: &Args) -> Result<(), Box<dyn Error>> {
    let figures = args.figures();
    figures.check_parts(PARTS)?;
    figures.redraw("computational_graphs_figures", &[SOURCE], |found| {
        draw(figures, found)
    })?;
    Ok(())
}

fn draw(args: &FigureArgs, found: &Found) -> Result<Drawn, Box<dyn Error>> {
    let Some((kind, parts)) = KINDS.iter().find(|(kind, _)| found.name.ends_with(kind)) else {
        return Err("its name ends in no kind of figure this program writes".into());
    };
    if !parts.iter().any(|p| args.wants(p)) {
        return Ok(Drawn::Kept(format!(
            "part `{}` is not in --only",
            parts.join("` or `")
        )));
    }
    match *kind {
        "_size" => sweep(found, "size"),
        "_depth" => sweep(found, "depth"),
        "_setup" => setup(found),
        "_matmul_ladder" => ladder_bench::redraw(found),
        "_roofline" => roofline::redraw(found),
        "_cpu_matmul" => cpu_bench::redraw(found),
        "_cpu_kernel" => cpu_kernel_bench::redraw(found),
        "_transfers" => transfer_bench::redraw(found),
        "_overlap" => overlap_bench::redraw(found),
        // The autotuner's shapes, the dispatch floor and the phases of a submission.
        _ => Ok(Drawn::Kept(TABLE_ONLY.into())),
    }
}

/// A sweep's rows from one of its tables, each naming a variant this program knows.
fn sweep_rows(found: &Found, file: &str) -> Result<Vec<Row>, Box<dyn Error>> {
    let records: Vec<SweepRecord> = bench_harness::read_rows(&found.path(file))?;
    records
        .into_iter()
        .enumerate()
        // Line 1 is the header; the writers leave no blank lines.
        .map(|(i, r)| Row::from_record(r).map_err(|why| format!("{file}:{}: {why}", i + 2).into()))
        .collect()
}

/// The PyTorch table the measuring command read (`--pytorch-csv FILE`), from the same folder.
fn pytorch_rows(found: &Found) -> Result<Vec<PytorchRow>, Box<dyn Error>> {
    let Some(file) = found.flag_value("--pytorch-csv") else {
        return Ok(Vec::new());
    };
    let name = std::path::Path::new(file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let path = found.path(&name);
    if !path.is_file() {
        return Err(format!(
            "its measuring command read PyTorch's table {file}; put {name} beside it"
        )
        .into());
    }
    Ok(read_pytorch(&path)?)
}

/// `{prefix}_size` or `{prefix}_depth`: the sweep's lines, PyTorch's among them.
fn sweep(found: &Found, sweep: &str) -> Result<Drawn, Box<dyn Error>> {
    let rows = sweep_rows(found, &format!("{}.csv", found.name))?;
    // The depth sweep's tensor size is in its rows: the run may have been --quick.
    let sweep_size = rows.first().map_or(0, |r| r.size);
    let (title, x_label) = sweep_title(sweep, sweep_size);
    let sub = gpu_subtitle(found)?;
    let chart = line_chart(&rows, &pytorch_rows(found)?, sweep, &title, &sub, x_label);
    Ok(Drawn::chart(found, chart.to_svg()))
}

/// `{prefix}_setup`: bars from the depth sweep's table, which its sidecar lists.
fn setup(found: &Found) -> Result<Drawn, Box<dyn Error>> {
    let Some(table) = found
        .sidecar
        .files
        .iter()
        .find(|f| f.ends_with("_depth.csv"))
    else {
        return Err("its sidecar lists no depth sweep table, which holds its set-up times".into());
    };
    let rows = sweep_rows(found, table)?;
    let size = rows
        .iter()
        .find(|r| r.sweep == "depth")
        .map_or(0, |r| r.size);
    match setup_chart(&rows, size, &gpu_subtitle(found)?) {
        Some(chart) => Ok(Drawn::chart(found, chart.to_svg())),
        None => Err(format!("{table} has no row at the reference depth").into()),
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use bench_harness::{CommittedFigures, RedrawReport, Sidecar};

    use super::*;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("graphs_redraw_{name}_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn redraw_in(dir: &Path, only: &[&str]) -> Result<RedrawReport, bench_harness::RedrawError> {
        let args = FigureArgs {
            out: Some(dir.to_owned()),
            allow_dirty: true,
            redraw: true,
            only: only.iter().map(|p| (*p).to_owned()).collect(),
            ..FigureArgs::default()
        };
        args.redraw("computational_graphs_figures", &[SOURCE], |found| {
            draw(&args, found)
        })
    }

    /// The committed figures of this program (every prefix), with the PyTorch tables they read.
    fn committed_copy(name: &str) -> CommittedFigures {
        let label = format!("graphs_{name}");
        let copy = CommittedFigures::copy(&label, &[SOURCE]).unwrap();
        // At least the 28 graphs_* of four prefixes and one quant_h100 ladder; later runs add.
        assert!(copy.names().len() >= 29, "{:?}", copy.names());
        // The PyTorch script's tables, which the H100 and H200 sweeps draw beside their lines.
        let committed = bench_harness::committed_figures_dir();
        for entry in std::fs::read_dir(&committed).unwrap().flatten() {
            let file = entry.file_name().to_string_lossy().into_owned();
            if file.starts_with("graphs_") && file.ends_with("_pytorch.csv") {
                std::fs::copy(entry.path(), copy.dir().join(&file)).unwrap();
            }
        }
        copy
    }

    fn svgs(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut files: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "svg"))
            .map(|p| (p.clone(), std::fs::read(&p).unwrap()))
            .collect();
        files.sort();
        files
    }

    #[test]
    fn every_committed_chart_is_redrawn_byte_identical() {
        let copy = committed_copy("all");
        let (dir, figures) = (copy.dir(), copy.names().len());
        let before = svgs(dir);
        let report = redraw_in(dir, &[]).unwrap();
        assert!(report.written.is_empty(), "changed: {:?}", report.written);
        assert_eq!(report.unchanged.len() + report.kept.len(), figures);
        assert!(report.unchanged.len() >= 24, "{:?}", report.unchanged);
        // The autotuner's shapes and the dispatch floors are tables; the H100's CPU matmul table
        // predates its thread counts.
        for (name, why) in &report.kept {
            let old_cpu_table = name == "graphs_h100_cpu_matmul" && why.contains("threads");
            assert!(why == TABLE_ONLY || old_cpu_table, "{name}: {why}");
        }
        assert!(report.kept.len() >= 5, "{:?}", report.kept);
        assert_eq!(svgs(dir), before);
    }

    #[test]
    fn only_draws_the_parts_it_names() {
        let copy = committed_copy("only");
        let figures = copy.names().len();
        let report = redraw_in(copy.dir(), &["transfers", "overlap"]).unwrap();
        let drawn: Vec<String> = report
            .unchanged
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert!(
            drawn
                .iter()
                .all(|f| f.ends_with("_transfers.svg") || f.ends_with("_overlap.svg")),
            "{drawn:?}"
        );
        for committed in [
            "graphs_h100_overlap.svg",
            "graphs_h100_transfers.svg",
            "graphs_overlap.svg",
            "graphs_transfers.svg",
        ] {
            assert!(drawn.iter().any(|f| f == committed), "{committed}");
        }
        assert_eq!(report.kept.len(), figures - drawn.len());
        assert!(report.kept.iter().all(|(_, why)| why.contains("--only")));
    }

    /// A sweep figure as the measuring run writes it: table and sidecar.
    fn write_sweep(dir: &Path, table: &str, command: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("t_size.csv"), table).unwrap();
        let mut record = Sidecar::new("t_size", "a test sweep").record();
        record.adapter = serde_json::json!({"backend": "Vulkan", "name": "llvmpipe"});
        record.command = command.into();
        let json = serde_json::to_string_pretty(&record).unwrap();
        std::fs::write(dir.join("t_size.json"), json).unwrap();
    }

    const SWEEP: &str = "sweep,size,depth,variant,setup_ms,median_ms,p10_ms,p90_ms,gpu_timestamps_ms\n\
                         size,64,64,CPU,0.5,2.0,1.9,2.1,\n\
                         size,128,64,CPU,0.5,4.0,3.9,4.1,\n";

    #[test]
    fn a_sweep_draws_the_pytorch_table_its_command_read() {
        let dir = folder("pytorch");
        write_sweep(
            &dir,
            SWEEP,
            "computational_graphs_figures --pytorch-csv figures/t_pt.csv",
        );
        let err = redraw_in(&dir, &[]).unwrap_err().to_string();
        assert!(err.contains("put t_pt.csv beside it"), "{err}");
        // Interleaved as the PyTorch script writes it: one line per variant all the same.
        let pytorch = "sweep,size,depth,variant,median_ms,p10_ms,p90_ms,compile_s\n\
                       size,64,64,PyTorch eager,0.7,0.6,0.8,0.00\n\
                       size,64,64,PyTorch compiled,0.3,0.2,0.4,9.0\n\
                       size,128,64,PyTorch eager,0.9,0.8,1.0,0.00\n\
                       size,128,64,PyTorch compiled,0.4,0.3,0.5,9.0\n";
        std::fs::write(dir.join("t_pt.csv"), pytorch).unwrap();
        let report = redraw_in(&dir, &[]).unwrap();
        assert_eq!(report.written, [dir.join("t_size.svg")]);
        let svg = std::fs::read_to_string(dir.join("t_size.svg")).unwrap();
        for label in ["CPU", "PyTorch eager", "PyTorch compiled"] {
            assert_eq!(svg.matches(&format!(">{label}<")).count(), 1, "{label}");
        }
        assert!(svg.contains("GPU: llvmpipe (Vulkan)"), "{svg}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_row_naming_no_variant_is_refused_with_its_line() {
        let dir = folder("unknown");
        let table = format!("{SWEEP}size,256,64,GPU magic,0.5,1.0,0.9,1.1,\n");
        write_sweep(&dir, &table, "computational_graphs_figures");
        let err = redraw_in(&dir, &[]).unwrap_err().to_string();
        assert!(
            err.contains("t_size.csv:4") && err.contains("GPU magic"),
            "{err}"
        );
        assert!(!dir.join("t_size.svg").exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
