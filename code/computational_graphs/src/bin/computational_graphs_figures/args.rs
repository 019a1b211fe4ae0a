//! Command-line flags (a dozen lines do not need a parser crate).

pub struct Args {
    pub quick: bool,
    pub prefix: String,
    pub machine: Option<String>,
    pub only: Option<Vec<String>>,
    pub export_graphs: Option<String>,
    pub pytorch_csv: Option<String>,
    pub ladder_size: usize,
}

impl Args {
    pub fn parse() -> Result<Self, String> {
        let mut a = Args {
            quick: false,
            prefix: "graphs".into(),
            machine: None,
            only: None,
            export_graphs: None,
            pytorch_csv: None,
            ladder_size: 0,
        };
        let mut it = std::env::args().skip(1);
        while let Some(flag) = it.next() {
            let mut value = || it.next().ok_or(format!("{flag} needs a value"));
            match flag.as_str() {
                "--quick" => a.quick = true,
                "--prefix" => a.prefix = value()?,
                "--machine" => a.machine = Some(value()?),
                "--only" => a.only = Some(value()?.split(',').map(str::to_owned).collect()),
                "--export-graphs" => a.export_graphs = Some(value()?),
                "--pytorch-csv" => a.pytorch_csv = Some(value()?),
                "--ladder-size" => {
                    a.ladder_size = value()?
                        .parse()
                        .map_err(|e| format!("--ladder-size: {e}"))?
                }
                other => {
                    return Err(format!(
                        "unknown flag {other}; see the comment at the top of main.rs"
                    ));
                }
            }
        }
        if a.ladder_size == 0 {
            a.ladder_size = if a.quick { 64 } else { 4096 };
        }
        Ok(a)
    }

    pub fn wants(&self, part: &str) -> bool {
        self.only
            .as_ref()
            .is_none_or(|o| o.iter().any(|p| p == part))
    }

    /// True when `--only` names `part` explicitly (for modifiers such as `loops`).
    pub fn wants_only(&self, part: &str) -> bool {
        self.only
            .as_ref()
            .is_some_and(|o| o.iter().any(|p| p == part))
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
        adapter: Option<String>,
    ) -> bench_harness::Sidecar {
        let mut s = bench_harness::Sidecar::new(figure, description);
        s.adapter_json = adapter;
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
