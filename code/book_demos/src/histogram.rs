//! Module 2's GPU histogram on the reader's GPU: global atomics against workgroup-privatised
//! bins. The kernels are `parallelism`'s WGSL, taken from that crate without its `host` feature.
//! Its host code cannot come along (that crate's threads and tokio do not build for a web page),
//! so the few lines that upload, dispatch and read back are written here, with `await` and the
//! same constants.

use gpu_context::{GpuContext, wgpu};
use serde::Serialize;

use crate::DemoError;
use crate::clock::{Timing, time_repeated};
use crate::display::{Display, Row, describe, sig3};
use crate::error::check_offered;
use crate::reference::{Check, cpu_histogram};

/// The kernels, from the parallelism crate.
pub const SHADER: &str = parallelism::HISTOGRAM_WGSL;
/// As in `parallelism::gpu_histogram`: 256 invocations a workgroup, at most 1024 workgroups,
/// each invocation looping over as many words as it takes.
const WORKGROUP_SIZE: u32 = 256;
const MAX_WORKGROUPS: u32 = 1024;
/// Input sizes a reader can pick, in MiB.
pub const SIZES_MIB: [usize; 3] = [1, 16, 64];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Kernel {
    GlobalAtomics,
    Privatised,
}

impl Kernel {
    pub const ALL: [Kernel; 2] = [Kernel::GlobalAtomics, Kernel::Privatised];

    pub fn entry_point(self) -> &'static str {
        match self {
            Kernel::GlobalAtomics => "global_atomics",
            Kernel::Privatised => "privatised",
        }
    }
}

/// What the bytes look like: contention differs wildly between the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Pattern {
    /// Uniform random bytes: 256 counters share the updates.
    Random,
    /// Nine bytes in ten are 0: most updates hit one counter, but not all the threads of a
    /// warp agree.
    Skewed,
    /// Every byte the same: every update hits one counter (the worst case for atomics, unless
    /// the GPU combines a warp's identical updates).
    Constant,
}

impl Pattern {
    pub const NAMES: [&'static str; 3] = ["random", "skewed", "constant"];

    pub fn parse(name: &str) -> Result<Self, DemoError> {
        match name {
            "random" => Ok(Pattern::Random),
            "skewed" => Ok(Pattern::Skewed),
            "constant" => Ok(Pattern::Constant),
            other => Err(DemoError::not_offered("pattern", other, &Self::NAMES)),
        }
    }
}

/// The demo's input: `bytes` bytes of `pattern`, always the same for the same arguments.
pub fn input(bytes: usize, pattern: Pattern) -> Vec<u8> {
    match pattern {
        Pattern::Constant => vec![7; bytes],
        Pattern::Random => {
            let mut rng = computational_graphs::rng::SplitMix64::new(0x4157);
            let mut data = Vec::with_capacity(bytes + 8);
            while data.len() < bytes {
                data.extend_from_slice(&rng.next_u64().to_le_bytes());
            }
            data.truncate(bytes);
            data
        }
        Pattern::Skewed => {
            // Each random byte b becomes 0 unless b < 26 (about one in ten), then it is kept
            // and spread by a multiplier so the rare bytes reach every bin.
            let mut data = input(bytes, Pattern::Random);
            for b in &mut data {
                *b = if *b < 26 { b.wrapping_mul(157) } else { 0 };
            }
            data
        }
    }
}

#[derive(Debug, Serialize)]
pub struct KernelResult {
    pub kernel: Kernel,
    pub check: Check,
    pub timing: Timing,
    pub gigabytes_per_s: f64,
}

#[derive(Debug, Serialize)]
pub struct HistogramReport {
    pub bytes: usize,
    pub pattern: Pattern,
    pub kernels: Vec<KernelResult>,
}

/// Both kernels on `mib` MiB of `pattern`, each checked against the CPU and timed.
pub async fn run_histograms(
    ctx: &GpuContext,
    mib: usize,
    pattern: Pattern,
) -> Result<HistogramReport, DemoError> {
    check_offered("size in MiB", mib, &SIZES_MIB)?;
    let data = input(mib << 20, pattern);
    let want = cpu_histogram(&data);
    let mut kernels = Vec::with_capacity(Kernel::ALL.len());
    for kernel in Kernel::ALL {
        kernels.push(run_kernel(ctx, &data, &want, kernel).await?);
    }
    Ok(HistogramReport {
        bytes: data.len(),
        pattern,
        kernels,
    })
}

/// One kernel on `data` (at least one byte, at most u32::MAX).
pub async fn run_kernel(
    ctx: &GpuContext,
    data: &[u8],
    want: &[u32; 256],
    kernel: Kernel,
) -> Result<KernelResult, DemoError> {
    let n_bytes =
        u32::try_from(data.len())
            .ok()
            .filter(|&n| n > 0)
            .ok_or(DemoError::OutOfRange {
                what: "the input's length in bytes",
                value: data.len(),
                min: 1,
                max: u32::MAX as usize,
            })?;
    // Four bytes to a word (WGSL has no u8); the kernel skips the zero padding of the last one.
    let mut words = vec![0u32; data.len().div_ceil(4)];
    bytemuck::cast_slice_mut::<u32, u8>(&mut words)[..data.len()].copy_from_slice(data);
    let data_buffer = ctx.upload("histogram data", &words)?;
    let params = ctx.upload("histogram params", &[n_bytes])?;
    let bins = ctx.storage_buffer("histogram bins", 256 * 4)?;
    let pipeline = ctx.cached_pipeline("histogram", SHADER, kernel.entry_point())?;
    let bind_group = ctx.bind_buffers(&pipeline, &[&data_buffer, &params, &bins]);
    let groups = (words.len() as u32)
        .div_ceil(WORKGROUP_SIZE)
        .clamp(1, MAX_WORKGROUPS);
    // Each repetition clears the bins and counts again, so the last one leaves the histogram.
    let submit = |repeats: u32| {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        for _ in 0..repeats {
            encoder.clear_buffer(&bins, 0, None);
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(groups, 1, 1);
        }
        ctx.queue.submit([encoder.finish()]);
    };
    submit(1);
    let got: Vec<u32> = ctx.download_async(&bins).await?;
    let check = count_check(&got, want);
    let timing = time_repeated(|repeats| {
        submit(repeats);
        async move { Ok(ctx.wait_async().await?) }
    })
    .await?;
    Ok(KernelResult {
        kernel,
        check,
        gigabytes_per_s: data.len() as f64 / (timing.median_ms * 1e6),
        timing,
    })
}

/// Bin by bin, exactly.
fn count_check(got: &[u32], want: &[u32; 256]) -> Check {
    let mut mismatches = got.len().abs_diff(want.len());
    let mut first_mismatch = None;
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g != w {
            mismatches += 1;
            first_mismatch.get_or_insert(i);
        }
    }
    Check {
        checked: want.len(),
        mismatches,
        first_mismatch,
    }
}

impl HistogramReport {
    pub fn display(&self) -> Display {
        let rows = self
            .kernels
            .iter()
            .map(|k| Row {
                key: k.kernel.entry_point().into(),
                yours: format!(
                    "{} GB/s ({} ms)",
                    sig3(k.gigabytes_per_s),
                    sig3(k.timing.median_ms)
                ),
                check: describe(&k.check, "bins equal the CPU's"),
                ok: k.check.passed(),
                ran: true,
            })
            .collect();
        Display {
            rows,
            notes: vec![format!(
                "{} MiB of {} bytes; time per histogram (clearing the bins included), the \
                 median of a few samples.",
                self.bytes >> 20,
                match self.pattern {
                    Pattern::Random => "uniform random",
                    Pattern::Skewed => "skewed (nine in ten 0)",
                    Pattern::Constant => "identical",
                },
            )],
        }
    }
}
