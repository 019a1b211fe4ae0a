//! "The GPU is asynchronous": `queue.submit` returns long before the work is done.
//!
//! [`BusyJob`] is a kernel whose cost is set by a number of rounds. [`submit_and_wait`] times
//! the submit call and the wait separately with the CPU clock; [`timed_on_gpu`] asks the GPU's own
//! timestamps through [`GpuContext::time_commands`]. The figure program compares the three.

use std::fmt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use gpu_context::{GpuContext, GpuError, TimedRun, wgpu, workgroups_for};

/// The WGSL kernel, compiled into the binary.
pub const SHADER: &str = include_str!("busy.wgsl");
const WORKGROUP_SIZE: u32 = 64;

/// What can go wrong when setting up a [`BusyJob`].
#[derive(Debug)]
pub enum BusyJobError {
    /// No elements: there is nothing to dispatch.
    Empty,
    /// More elements than one dispatch can cover.
    TooLong {
        len: usize,
        max: u64,
    },
    Gpu(GpuError),
}

impl fmt::Display for BusyJobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "a busy job needs at least one element"),
            Self::TooLong { len, max } => write!(
                f,
                "{len} elements is more than one dispatch covers here ({max}): use fewer elements"
            ),
            Self::Gpu(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for BusyJobError {}

impl From<GpuError> for BusyJobError {
    fn from(e: GpuError) -> Self {
        Self::Gpu(e)
    }
}

/// A compute job set up once and recordable many times: buffers, pipeline and bind group.
pub struct BusyJob {
    input: Vec<f32>,
    rounds: u32,
    output: wgpu::Buffer,
    pipeline: Arc<wgpu::ComputePipeline>,
    bind_group: wgpu::BindGroup,
    groups: u32,
}

impl BusyJob {
    /// `len` elements, each going through `rounds` steps of the recurrence.
    pub fn new(ctx: &GpuContext, len: usize, rounds: u32) -> Result<Self, BusyJobError> {
        if len == 0 {
            return Err(BusyJobError::Empty);
        }
        let max_groups = ctx.device.limits().max_compute_workgroups_per_dimension;
        let max = u64::from(max_groups) * u64::from(WORKGROUP_SIZE);
        if len as u64 > max {
            return Err(BusyJobError::TooLong { len, max });
        }
        let input: Vec<f32> = (0..len).map(|i| (i % 10) as f32 / 10.0).collect();
        let input_buffer = ctx.upload("busy input", &input)?;
        let output = ctx.storage_buffer("busy output", (len * 4) as u64)?;
        let rounds_buffer = ctx.upload("busy rounds", &[rounds])?;
        let pipeline = ctx.cached_pipeline("busy", SHADER, "busy")?;
        let bind_group = ctx.bind_buffers(&pipeline, &[&input_buffer, &output, &rounds_buffer]);
        Ok(Self {
            input,
            rounds,
            output,
            pipeline,
            bind_group,
            groups: workgroups_for(len as u32, WORKGROUP_SIZE),
        })
    }

    // ANCHOR: record
    /// Records one dispatch of the job into `encoder`. Nothing runs until the encoder's commands
    /// are submitted.
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder) {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        pass.dispatch_workgroups(self.groups, 1, 1);
    }
    // ANCHOR_END: record

    /// The output buffer, read back (waits for submitted work).
    pub fn read(&self, ctx: &GpuContext) -> Result<Vec<f32>, GpuError> {
        ctx.download(&self.output)
    }

    /// What the GPU should compute, computed on the CPU.
    pub fn expected(&self) -> Vec<f32> {
        self.input
            .iter()
            .map(|&x0| {
                let mut x = x0;
                for _ in 0..self.rounds {
                    x = 0.999 * x + 0.001;
                }
                x
            })
            .collect()
    }
}

/// CPU-clock times of one submission.
#[derive(Clone, Copy, Debug)]
pub struct AsyncTimes {
    /// From just before `queue.submit` until it returned.
    pub submit_returned: Duration,
    /// From just before `queue.submit` until the wait for the GPU returned.
    pub work_done: Duration,
}

// ANCHOR: submit_and_wait
/// Submits one run of `job` and times, with the CPU clock, when `submit` returns and when the
/// GPU has finished.
pub fn submit_and_wait(ctx: &GpuContext, job: &BusyJob) -> Result<AsyncTimes, GpuError> {
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    job.record(&mut encoder);
    let commands = encoder.finish();

    let start = Instant::now();
    ctx.queue.submit([commands]);
    let submit_returned = start.elapsed(); // the GPU has barely started, if at all
    ctx.wait()?; // blocks until the GPU is done
    let work_done = start.elapsed();
    Ok(AsyncTimes {
        submit_returned,
        work_done,
    })
}
// ANCHOR_END: submit_and_wait

// ANCHOR: timed_on_gpu
/// Times one run of `job` with the GPU's own clock (timestamp queries), when the adapter has it.
/// `run.time` is the GPU's time for the work alone; `run.wall` the CPU's submit-to-done time.
pub fn timed_on_gpu(ctx: &GpuContext, job: &BusyJob) -> Result<TimedRun, GpuError> {
    ctx.time_commands(|encoder| job.record(encoder))
}
// ANCHOR_END: timed_on_gpu

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::check_close;

    #[test]
    fn busy_job_computes_the_recurrence() {
        let ctx = GpuContext::for_tests();
        // 1000 is not a multiple of 64: the bounds check in the kernel matters.
        let job = BusyJob::new(&ctx, 1000, 50).unwrap();
        let times = submit_and_wait(&ctx, &job).unwrap();
        assert!(times.submit_returned <= times.work_done);
        check_close(&job.read(&ctx).unwrap(), &job.expected(), 1e-5).unwrap();
    }

    #[test]
    fn timed_runs_give_the_same_result() {
        let ctx = GpuContext::for_tests();
        let job = BusyJob::new(&ctx, 130, 7).unwrap();
        let run = timed_on_gpu(&ctx, &job).unwrap();
        assert_eq!(
            run.source == gpu_context::TimingSource::GpuTimestamps,
            ctx.has_timestamps()
        );
        check_close(&job.read(&ctx).unwrap(), &job.expected(), 1e-5).unwrap();
    }

    #[test]
    fn bad_sizes_are_errors_that_say_what_to_do() {
        let ctx = GpuContext::for_tests();
        assert!(matches!(BusyJob::new(&ctx, 0, 1), Err(BusyJobError::Empty)));
        let err = BusyJob::new(&ctx, usize::MAX / 8, 1).err().unwrap();
        assert!(matches!(err, BusyJobError::TooLong { .. }));
        assert!(err.to_string().contains("use fewer elements"), "{err}");
    }
}
