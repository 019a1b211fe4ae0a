//! A byte histogram on the GPU in WGSL: global atomics vs workgroup-privatised bins.

use std::fmt;

use gpu_context::{GpuContext, GpuError};

pub const SHADER: &str = include_str!("histogram.wgsl");
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
    let n_bytes =
        u32::try_from(data.len()).map_err(|_| GpuHistogramError::TooLong { len: data.len() })?;
    if data.is_empty() {
        return Ok([0; 256]);
    }
    // Pack the bytes four to a word (WGSL has no u8); the tail word is zero-padded and the
    // kernel skips the padding by comparing with n_bytes.
    let mut words = vec![0u32; data.len().div_ceil(4)];
    bytemuck::cast_slice_mut::<u32, u8>(&mut words)[..data.len()].copy_from_slice(data);

    let data_buffer = ctx.upload("histogram data", &words)?;
    let params = ctx.upload("histogram params", &[n_bytes])?;
    let bins = ctx.storage_buffer("histogram bins", 256 * 4)?;
    let pipeline = ctx.cached_pipeline("histogram", SHADER, kind.entry_point())?;
    let bind_group = ctx.bind_buffers(&pipeline, &[&data_buffer, &params, &bins]);

    let groups = (words.len() as u32)
        .div_ceil(WORKGROUP_SIZE)
        .clamp(1, MAX_WORKGROUPS);
    ctx.dispatch(&pipeline, &bind_group, [groups, 1, 1]);
    let counts: Vec<u32> = ctx.download(&bins)?;
    let mut out = [0u32; 256];
    out.copy_from_slice(&counts[..256]);
    Ok(out)
}
// ANCHOR_END: host

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
}
