//! A byte histogram on the GPU in WGSL: global atomics vs workgroup-privatised bins.

use std::fmt;
use std::sync::Arc;

use gpu_context::{GpuContext, GpuError, TimedRun, wgpu};

pub const SHADER: &str = crate::HISTOGRAM_WGSL;
const WORKGROUP_SIZE: u32 = 256;
/// Enough workgroups to fill a big GPU; each thread then loops over several words.
const MAX_WORKGROUPS: u32 = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuHistogramKind {
    GlobalAtomics,
    Privatised,
}

impl GpuHistogramKind {
    fn entry_point(self) -> &'static str {
        match self {
            Self::GlobalAtomics => "global_atomics",
            Self::Privatised => "privatised",
        }
    }
}

#[derive(Debug)]
pub enum GpuHistogramError {
    /// More bytes than a u32 counter can count.
    TooLong {
        len: usize,
    },
    Gpu(GpuError),
}

impl fmt::Display for GpuHistogramError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLong { len } => write!(
                f,
                "{len} bytes is more than the GPU histogram counts in one call ({} at most): \
                 split the input and add the histograms",
                u32::MAX
            ),
            Self::Gpu(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for GpuHistogramError {}

impl From<GpuError> for GpuHistogramError {
    fn from(e: GpuError) -> Self {
        Self::Gpu(e)
    }
}

// ANCHOR: host
/// The histogram of `data` computed on the GPU of `ctx` by the chosen kernel.
pub fn gpu_histogram(
    ctx: &GpuContext,
    data: &[u8],
    kind: GpuHistogramKind,
) -> Result<[u32; 256], GpuHistogramError> {
    if data.is_empty() {
        return Ok([0; 256]);
    }
    let input = HistogramInput::upload(ctx, data)?;
    let (pipeline, bind_group) = input.bind(ctx, kind)?;
    ctx.dispatch(&pipeline, &bind_group, [input.groups, 1, 1]);
    Ok(input.read_bins(ctx)?)
}
// ANCHOR_END: host

// ANCHOR: host_upload
/// The input on the GPU, four bytes to a word, and the 256 bins the kernels count into.
struct HistogramInput {
    words: wgpu::Buffer,
    params: wgpu::Buffer,
    bins: wgpu::Buffer,
    groups: u32,
}

impl HistogramInput {
    fn upload(ctx: &GpuContext, data: &[u8]) -> Result<Self, GpuHistogramError> {
        let too_long = |_| GpuHistogramError::TooLong { len: data.len() };
        let n_bytes = u32::try_from(data.len()).map_err(too_long)?;
        // Pack the bytes four to a word (WGSL has no u8); the tail word is zero-padded and the
        // kernel skips the padding by comparing with n_bytes. A buffer is never empty.
        let mut words = vec![0u32; data.len().div_ceil(4).max(1)];
        bytemuck::cast_slice_mut::<u32, u8>(&mut words)[..data.len()].copy_from_slice(data);
        let groups = (words.len() as u32)
            .div_ceil(WORKGROUP_SIZE)
            .clamp(1, MAX_WORKGROUPS);
        Ok(Self {
            words: ctx.upload("histogram data", &words)?,
            params: ctx.upload("histogram params", &[n_bytes])?,
            bins: ctx.storage_buffer("histogram bins", 256 * 4)?,
            groups,
        })
    }
}
// ANCHOR_END: host_upload

impl HistogramInput {
    /// The kernel's pipeline (compiled once per context) with this input bound to it.
    fn bind(
        &self,
        ctx: &GpuContext,
        kind: GpuHistogramKind,
    ) -> Result<(Arc<wgpu::ComputePipeline>, wgpu::BindGroup), GpuError> {
        let pipeline = ctx.cached_pipeline("histogram", SHADER, kind.entry_point())?;
        let bind_group = ctx.bind_buffers(&pipeline, &[&self.words, &self.params, &self.bins]);
        Ok((pipeline, bind_group))
    }

    fn read_bins(&self, ctx: &GpuContext) -> Result<[u32; 256], GpuError> {
        let counts: Vec<u32> = ctx.download(&self.bins)?;
        let mut out = [0u32; 256];
        out.copy_from_slice(&counts[..256]);
        Ok(out)
    }
}

// ANCHOR: bench
/// The input uploaded and both pipelines built once, so that a timing measures one histogram:
/// clearing the 256 bins and one dispatch of the chosen kernel, nothing else.
pub struct GpuHistogramBench {
    input: HistogramInput,
    kernels: Vec<(
        GpuHistogramKind,
        Arc<wgpu::ComputePipeline>,
        wgpu::BindGroup,
    )>,
}

impl GpuHistogramBench {
    pub fn new(ctx: &GpuContext, data: &[u8]) -> Result<Self, GpuHistogramError> {
        let input = HistogramInput::upload(ctx, data)?;
        let mut kernels = Vec::new();
        for kind in [
            GpuHistogramKind::GlobalAtomics,
            GpuHistogramKind::Privatised,
        ] {
            let (pipeline, bind_group) = input.bind(ctx, kind)?;
            kernels.push((kind, pipeline, bind_group));
        }
        Ok(Self { input, kernels })
    }

    // ANCHOR: bench_time
    /// One histogram by `kind`, timed with the GPU's timestamps where the adapter has them.
    pub fn time(&self, ctx: &GpuContext, kind: GpuHistogramKind) -> Result<TimedRun, GpuError> {
        let (_, pipeline, bind_group) = self
            .kernels
            .iter()
            .find(|(k, _, _)| *k == kind)
            .expect("new() builds both kernels");
        ctx.time_commands(|encoder| {
            encoder.clear_buffer(&self.input.bins, 0, None);
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, bind_group, &[]);
            pass.dispatch_workgroups(self.input.groups, 1, 1);
        })
    }
    // ANCHOR_END: bench_time

    /// The bins the last timed run left: a timing counts only if they are right.
    pub fn bins(&self, ctx: &GpuContext) -> Result<[u32; 256], GpuError> {
        self.input.read_bins(ctx)
    }
}
// ANCHOR_END: bench

#[cfg(test)]
mod tests {
    use super::*;
    use crate::histogram::histogram_sequential;

    fn cpu(data: &[u8]) -> [u32; 256] {
        histogram_sequential(data).map(|c| c as u32)
    }

    #[test]
    fn gpu_histograms_match_the_cpu_on_lavapipe_or_any_gpu() {
        let ctx = GpuContext::for_tests();
        let mut x = 12345u32;
        let random: Vec<u8> = (0..300_001)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x >> 24) as u8
            })
            .collect();
        // Odd lengths test the padding; one repeated byte is the worst case for contention.
        let inputs: [Vec<u8>; 4] = [random, vec![7; 10_003], vec![1, 2, 3], vec![]];
        for data in &inputs {
            for kind in [
                GpuHistogramKind::GlobalAtomics,
                GpuHistogramKind::Privatised,
            ] {
                let got = gpu_histogram(&ctx, data, kind).unwrap();
                assert_eq!(got, cpu(data), "{kind:?} on {} bytes", data.len());
            }
        }
    }

    #[test]
    fn the_timed_runs_leave_the_right_bins_each_time() {
        let ctx = GpuContext::for_tests();
        let data: Vec<u8> = (0..100_003u32).map(|i| (i * 7 % 251) as u8).collect();
        let bench = GpuHistogramBench::new(&ctx, &data).unwrap();
        for kind in [
            GpuHistogramKind::GlobalAtomics,
            GpuHistogramKind::Privatised,
        ] {
            for _ in 0..2 {
                // The bins are cleared inside each timed run: the second equals the first.
                let run = bench.time(&ctx, kind).unwrap();
                assert!(run.time > std::time::Duration::ZERO);
                assert_eq!(bench.bins(&ctx).unwrap(), cpu(&data), "{kind:?}");
            }
        }
    }
}
