//! The configurations of the tuned generator that the ladder's search times at 4096²: block
//! shape, patch per invocation, k-step and workgroup size, each with register prefetch and no
//! runtime checks, on one of three tile schedules (one set, as rung 8; two sets with the set
//! in a variable; two sets with two steps per trip, as rung 10).

use computational_graphs::Error;
use computational_graphs::matmul_ladder::tuned::{Pipelining, Tuning};
use gpu_context::GpuContext;

/// One configuration: the generator's parameters and its pipelining.
pub struct Candidate {
    pub tuning: Tuning,
    pub pipelining: Pipelining,
}

/// How the tiles are used, step after step.
#[derive(Clone, Copy)]
enum Schedule {
    OneSet,
    TwoSetsVariable,
    TwoSetsPairs,
}

impl Candidate {
    fn new(schedule: Schedule, threads: (u32, u32), rows: u32, vec_cols: u32, bk: u32) -> Self {
        Candidate {
            tuning: Tuning {
                threads,
                rows,
                vec_cols,
                bk,
                ..Tuning::LARGE
            },
            pipelining: Pipelining {
                double_buffer: !matches!(schedule, Schedule::OneSet),
                two_steps_per_trip: matches!(schedule, Schedule::TwoSetsPairs),
                ..Default::default()
            },
        }
    }

    /// "128×128 block, 16×16 threads, 8×8 each, bk 16" in short.
    pub fn name(&self) -> String {
        let t = &self.tuning;
        let (bm, bn) = t.block();
        let p = &self.pipelining;
        format!(
            "{bm}x{bn} t{}x{} {}x{} bk{}, {}{}",
            t.threads.0,
            t.threads.1,
            t.rows,
            4 * t.vec_cols,
            t.bk,
            match (p.double_buffer, p.two_steps_per_trip) {
                (false, _) => "one set",
                (true, false) => "two sets, set in a variable",
                (true, true) => "two sets, two steps per trip",
            },
            if p.unpadded_a { ", unpadded" } else { "" }
        )
    }

    /// A small product the blocks tile exactly, with several k-steps (so both tile sets are used
    /// more than once): the shape each configuration is checked at before it may be timed.
    pub fn check_shape(&self) -> (usize, usize, usize) {
        let (bm, bn) = self.tuning.block();
        (
            2 * bm as usize,
            3 * self.tuning.bk as usize,
            2 * bn as usize,
        )
    }

    /// Whether the device can run this configuration; the A tile loses its padding when two
    /// padded tile sets do not fit the workgroup memory.
    pub fn fits(&mut self, ctx: &GpuContext) -> Result<(), Error> {
        let limits = ctx.device.limits();
        let t = &self.tuning;
        let lacks = |detail: String| Error::AdapterLacks {
            kernel: "tuned matmul",
            detail,
        };
        if t.threads.0 * t.threads.1 > limits.max_compute_invocations_per_workgroup
            || t.threads.0 > limits.max_compute_workgroup_size_x
            || t.threads.1 > limits.max_compute_workgroup_size_y
        {
            return Err(lacks(format!(
                "{}×{} invocations per workgroup are more than this device allows",
                t.threads.0, t.threads.1
            )));
        }
        let limit = limits.max_compute_workgroup_storage_size;
        if t.workgroup_bytes(&self.pipelining) > limit {
            self.pipelining.unpadded_a = true;
        }
        let bytes = t.workgroup_bytes(&self.pipelining);
        if bytes > limit {
            return Err(lacks(format!(
                "two tile sets need {bytes} bytes of workgroup memory; this device offers {limit}"
            )));
        }
        Ok(())
    }
}

/// At most 24 configurations (4 with `quick`): rung 8's and rung 10's own first, then other
/// block shapes (up to 256×128 and 128×256, the size of cuBLAS's largest FP32 tiles), patches,
/// k-steps and workgroup sizes, most on one tile set.
pub fn candidates(quick: bool) -> Vec<Candidate> {
    use Schedule::{OneSet, TwoSetsPairs, TwoSetsVariable};
    // (schedule, threads, rows, vec4 columns, k-step)
    let list = [
        (OneSet, (16, 16), 8, 2, 16),
        (TwoSetsPairs, (16, 16), 8, 2, 16),
        (TwoSetsVariable, (16, 16), 8, 2, 16),
        (OneSet, (16, 16), 8, 2, 8),
        (OneSet, (16, 16), 8, 2, 32),
        (OneSet, (16, 8), 16, 2, 8),
        (OneSet, (16, 16), 16, 2, 8),
        (OneSet, (16, 16), 16, 2, 16),
        (OneSet, (16, 16), 8, 4, 8),
        (OneSet, (16, 16), 8, 4, 16),
        (OneSet, (8, 16), 8, 4, 8),
        (OneSet, (16, 16), 16, 1, 16),
        (OneSet, (16, 16), 4, 4, 16),
        (OneSet, (8, 8), 8, 2, 16),
        (OneSet, (32, 8), 16, 1, 16),
        (OneSet, (16, 16), 8, 1, 16),
        (TwoSetsPairs, (16, 16), 8, 2, 8),
        (TwoSetsPairs, (16, 8), 16, 2, 8),
        (TwoSetsPairs, (16, 16), 16, 2, 8),
        (TwoSetsPairs, (16, 16), 16, 2, 16),
        (TwoSetsPairs, (16, 16), 8, 4, 8),
        (TwoSetsVariable, (16, 8), 16, 2, 8),
        (TwoSetsVariable, (16, 16), 16, 2, 8),
        (TwoSetsVariable, (16, 16), 8, 4, 8),
    ];
    let take = if quick { 4 } else { list.len() };
    list.into_iter()
        .take(take)
        .map(|(schedule, threads, rows, vec_cols, bk)| {
            Candidate::new(schedule, threads, rows, vec_cols, bk)
        })
        .collect()
}
