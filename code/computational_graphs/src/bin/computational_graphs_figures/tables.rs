//! The tables this program writes and reads back, one typed row each. The sweeps write them,
//! `--redraw` and the roofline read them, all through `bench_harness`'s figure layer (serde and
//! the `csv` crate), so a column cannot mean one thing to the writer and another to a reader.

use std::path::Path;

use bench_harness::FigureError;
use bench_harness::digits::round_to;
use serde::{Deserialize, Serialize};

use crate::variants::Variant;

/// The graph depth of the size sweep, and the reference point of the depth sweep.
pub const SWEEP_DEPTH: usize = 64;

/// One measured point of a sweep, as the measuring code holds it.
pub struct Row {
    pub sweep: &'static str,
    pub size: usize,
    pub depth: usize,
    pub variant: Variant,
    pub setup_ms: f64,
    /// Autotuning during set-up, apart from it (0 for the other variants and on cache hits).
    pub tuning_ms: f64,
    pub median_ms: f64,
    pub p10_ms: f64,
    pub p90_ms: f64,
    pub gpu_ms: Option<f64>,
}

/// A sweep row as a line of `<prefix>_size.csv` / `<prefix>_depth.csv`.
#[derive(Debug, Serialize, Deserialize)]
pub struct SweepRecord {
    pub sweep: String,
    pub size: usize,
    pub depth: usize,
    pub variant: String,
    pub setup_ms: f64,
    pub median_ms: f64,
    pub p10_ms: f64,
    pub p90_ms: f64,
    /// Empty where the variant has no GPU timestamps.
    pub gpu_timestamps_ms: Option<f64>,
    /// Absent in tables from before the autotuner: nothing was tuned in them.
    #[serde(default)]
    pub tuning_ms: Option<f64>,
}

impl Row {
    pub fn record(&self) -> SweepRecord {
        SweepRecord {
            sweep: self.sweep.to_owned(),
            size: self.size,
            depth: self.depth,
            variant: self.variant.name().to_owned(),
            setup_ms: round_to(self.setup_ms, 4),
            median_ms: round_to(self.median_ms, 5),
            p10_ms: round_to(self.p10_ms, 5),
            p90_ms: round_to(self.p90_ms, 5),
            gpu_timestamps_ms: self.gpu_ms.map(|g| round_to(g, 5)),
            tuning_ms: Some(round_to(self.tuning_ms, 3)),
        }
    }

    /// The row a table line describes, or why it describes none.
    pub fn from_record(r: SweepRecord) -> Result<Self, String> {
        let sweep = match r.sweep.as_str() {
            "size" => "size",
            "depth" => "depth",
            other => return Err(format!("sweep {other:?} is neither size nor depth")),
        };
        let variant = Variant::ALL
            .into_iter()
            .find(|v| v.name() == r.variant)
            .ok_or_else(|| format!("no variant is called {:?}", r.variant))?;
        Ok(Self {
            sweep,
            size: r.size,
            depth: r.depth,
            variant,
            setup_ms: r.setup_ms,
            tuning_ms: r.tuning_ms.unwrap_or(0.0),
            median_ms: r.median_ms,
            p10_ms: r.p10_ms,
            p90_ms: r.p90_ms,
            gpu_ms: r.gpu_timestamps_ms,
        })
    }
}

/// One line of `bench/pytorch_baseline.py`'s CSV (its other columns are not read here).
#[derive(Debug, Deserialize)]
pub struct PytorchRow {
    pub sweep: String,
    pub size: usize,
    pub depth: usize,
    pub variant: String,
    pub median_ms: f64,
    pub p10_ms: f64,
    pub p90_ms: f64,
}

/// The columns of the matmul ladder's table that the roofline places.
#[derive(Debug, Deserialize)]
pub struct LadderPoint {
    pub kernel: String,
    pub size: usize,
    pub gflops: f64,
}

/// Reads the PyTorch script's CSV.
pub fn read_pytorch(path: &Path) -> Result<Vec<PytorchRow>, FigureError> {
    bench_harness::read_rows(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_survives_its_table() {
        let row = Row {
            sweep: "depth",
            size: 256,
            depth: 64,
            variant: Variant::ALL[1],
            setup_ms: 1.234_56,
            tuning_ms: 0.0,
            median_ms: 0.123_456_7,
            p10_ms: 0.1,
            p90_ms: 0.2,
            gpu_ms: None,
        };
        let text = bench_harness::rows_to_csv(&[row.record()]).unwrap();
        assert!(text.contains(",0.12346,"), "{text}");
        let back: Vec<SweepRecord> = bench_harness::rows_from_csv(&text).unwrap();
        let back = Row::from_record(back.into_iter().next().unwrap()).unwrap();
        assert_eq!(back.variant, row.variant);
        assert_eq!((back.size, back.depth, back.gpu_ms), (256, 64, None));
    }

    #[test]
    fn an_old_table_without_tuning_reads_as_untuned() {
        let text = "sweep,size,depth,variant,setup_ms,median_ms,p10_ms,p90_ms,gpu_timestamps_ms\n\
                    size,64,64,CPU,0.5,2.0,1.9,2.1,\n";
        let rows: Vec<SweepRecord> = bench_harness::rows_from_csv(text).unwrap();
        assert_eq!(rows[0].tuning_ms, None);
        assert_eq!(rows[0].gpu_timestamps_ms, None);
        let unknown = SweepRecord {
            variant: "GPU magic".into(),
            ..rows.into_iter().next().unwrap()
        };
        let err = Row::from_record(unknown).err().unwrap();
        assert!(err.contains("GPU magic"), "{err}");
    }
}
