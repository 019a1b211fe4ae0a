//! How big and how many: the one setting every section reads.

use bench_harness::MachineInfo;

/// Sizes and sample counts, chosen so the whole run fits in a few minutes on a 2-core VM.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// Bytes of the last-level cache, as the OS reports it.
    pub llc: usize,
    /// "Past the LLC": the working set of the big-array measurements.
    pub big: usize,
    pub warmup: usize,
    pub samples: usize,
    pub quick: bool,
}

impl Config {
    pub fn new(machine: &MachineInfo, quick: bool) -> Self {
        let llc = machine
            .data_cache_bytes(3)
            .or_else(|| machine.data_cache_bytes(2))
            .unwrap_or(8 << 20) as usize;
        // Four times the LLC (at most 512 MiB); a quarter of that for a quick smoke run.
        let big = (4 * llc).min(512 << 20);
        Self {
            llc,
            big: if quick { big / 16 } else { big },
            warmup: 1,
            samples: if quick { 3 } else { 7 },
            quick,
        }
    }
}
