//! Command-line flags: the ones every figure program shares (`bench_harness::FigureArgs`) and
//! this program's own.

use std::path::PathBuf;

/// The parts `--only` can name.
pub const PARTS: &[&str] = &[
    "sizes",
    "depths",
    "ladder",
    "floor",
    "cpu",
    "cpu_kernel",
    "roofline",
    "loops",
    "compiled",
    "chains",
    "transfers",
    "overlap",
    "phases",
];

#[derive(clap::Parser)]
#[command(about = "Benchmarks of module 1's graph chapters")]
struct Cli {
    #[command(flatten)]
    figures: bench_harness::FigureArgs,
    /// File name prefix (the H100 run uses "graphs_h100").
    #[arg(long, default_value = "graphs")]
    prefix: String,
    /// Write the sweeps' random graphs as JSON (for the PyTorch script) and exit.
    #[arg(long, value_name = "FILE")]
    export_graphs: Option<PathBuf>,
    /// Add the PyTorch script's measurements to the charts.
    #[arg(long, value_name = "FILE")]
    pytorch_csv: Option<PathBuf>,
    /// Matrix size of the matmul ladder (default 4096, 64 with --quick).
    #[arg(long, value_name = "N")]
    ladder_size: Option<usize>,
    /// The autotuner's cache file: winners are read from it (a second run skips tuning) and
    /// written back after the sweeps.
    #[arg(long, value_name = "FILE")]
    tune_cache: Option<PathBuf>,
    /// Let the autotuner measure a software adapter too (on lavapipe it otherwise keeps the
    /// heuristic's choice).
    #[arg(long)]
    tune_software: bool,
}

pub struct Args {
    pub quick: bool,
    pub prefix: String,
    pub machine: Option<String>,
    pub export_graphs: Option<String>,
    pub pytorch_csv: Option<String>,
    pub ladder_size: usize,
    pub redraw: bool,
    pub tune_cache: Option<PathBuf>,
    pub tune_software: bool,
    figures: bench_harness::FigureArgs,
}

impl Args {
    /// Parses the command line and checks the tree and the machine (see `FigureArgs::start`);
    /// exporting graphs and redrawing measure nothing, so they skip those checks.
    pub fn parse() -> Result<Self, bench_harness::FigureArgsError> {
        let cli: Cli = clap::Parser::parse();
        if cli.export_graphs.is_none() && !cli.figures.redraw {
            cli.figures.start(PARTS)?;
        }
        let quick = cli.figures.quick;
        Ok(Args {
            quick,
            prefix: cli.prefix,
            machine: cli.figures.machine.clone(),
            export_graphs: cli.export_graphs.map(|p| p.display().to_string()),
            pytorch_csv: cli.pytorch_csv.map(|p| p.display().to_string()),
            ladder_size: cli.ladder_size.unwrap_or(if quick { 64 } else { 4096 }),
            redraw: cli.figures.redraw,
            tune_cache: cli.tune_cache,
            tune_software: cli.tune_software,
            figures: cli.figures,
        })
    }

    /// The flags every figure program shares.
    pub fn figures(&self) -> &bench_harness::FigureArgs {
        &self.figures
    }

    pub fn wants(&self, part: &str) -> bool {
        self.figures.wants(part)
    }

    /// True when `--only` names `part` explicitly (for modifiers such as `loops`).
    pub fn wants_only(&self, part: &str) -> bool {
        self.figures.only.iter().any(|p| p == part)
    }

    pub fn sizes(&self) -> Vec<usize> {
        if self.quick {
            vec![16, 32, 64, 128, 256]
        } else {
            vec![64, 128, 256, 512, 1024]
        }
    }

    /// Tensor size of the depth sweep: 256 as in the seed; 32 with `--quick`, because lavapipe
    /// on a busy 2-core machine needs seconds for one depth-64 graph at 256×256.
    pub fn sweep_size(&self) -> usize {
        if self.quick { 32 } else { 256 }
    }

    pub fn depths(&self) -> Vec<usize> {
        if self.quick {
            vec![2, 4, 8, 16, 32, 64]
        } else {
            vec![4, 8, 16, 32, 64, 128, 256]
        }
    }

    /// (warm-up runs, timed samples, iterations per sample of the loop variants) at a size:
    /// large tensors take long enough per run that fewer runs give a steady median.
    pub fn effort(&self, size: usize) -> (usize, usize, usize) {
        match (self.quick, size >= 1024) {
            (true, _) => (1, 3, 3),
            (false, false) => (3, 10, 20),
            (false, true) => (1, 5, 3),
        }
    }

    /// The CPU variants are skipped above this size (a depth-64 graph at 1024² is ~70 GFLOP).
    pub fn cpu_max_size(&self) -> usize {
        if self.quick { 256 } else { 512 }
    }

    pub fn sidecar(
        &self,
        figure: &str,
        description: &str,
        adapter: Option<&gpu_context::AdapterReport>,
    ) -> bench_harness::Sidecar {
        let mut s = bench_harness::Sidecar::new(figure, description);
        if let Some(adapter) = adapter {
            s.set_adapter(adapter);
        }
        if let Some(m) = &self.machine {
            s.notes.push(format!("machine: {m}"));
        }
        s.notes.push(if self.quick {
            "quick sweep (--quick)".into()
        } else {
            "full sweep".into()
        });
        s
    }
}
