//! Given (the grader uses the staff's copy): the host side of the GPU layer. It checks the
//! shapes, packs four int8 values into each u32 (the layout `dot4I8Packed` reads), uploads,
//! runs your kernel `linear_int8.wgsl` with one invocation per output, and reads `y` back.

use gpu_context::{GpuContext, GpuError};

use crate::{
    Asymmetric, MAX_DEPTH, QuantizedWeights, ShapeError, asymmetric_params, check_length,
    quantize_asymmetric, quantize_weights,
};

/// Your kernel, compiled into the library.
pub const LINEAR_INT8_WGSL: &str = include_str!("linear_int8.wgsl");

/// The kernel's `@workgroup_size(16, 16)`: x walks the n columns, y the m rows.
const GROUP: u32 = 16;

/// What can go wrong on the GPU path, each with what to do.
#[derive(Debug, thiserror::Error)]
pub enum LinearError {
    #[error(transparent)]
    Shape(#[from] ShapeError),
    #[error(
        "{m}×{n} outputs need {groups:?} workgroups of 16×16, more than the device's {max} per \
         dimension: split the batch or the layer"
    )]
    TooLarge {
        m: usize,
        n: usize,
        groups: [usize; 2],
        max: u32,
    },
    #[error(transparent)]
    Gpu(#[from] GpuError),
}

/// `x · W + b` on the GPU, quantized on the CPU by your `asymmetric_params`,
/// `quantize_asymmetric` and `quantize_weights`: the GPU twin of [`crate::linear_int8`].
pub fn linear_int8_gpu(
    ctx: &GpuContext,
    x: &[f32],
    w: &[f32],
    bias: &[f32],
    (m, k, n): (usize, usize, usize),
) -> Result<Vec<f32>, LinearError> {
    check_length("x", m, k, x.len())?;
    let weights = quantize_weights(w, k, n)?;
    let params = asymmetric_params(x);
    let qx = quantize_asymmetric(x, params);
    quantized_linear_gpu(ctx, &qx, m, params, &weights, bias)
}

/// Your kernel on already-quantized operands: `qx` is m×k (row-major, `k = weights.k`) and
/// quantized with `x`; the result is the m×n f32 output.
pub fn quantized_linear_gpu(
    ctx: &GpuContext,
    qx: &[i8],
    m: usize,
    x: Asymmetric,
    weights: &QuantizedWeights,
    bias: &[f32],
) -> Result<Vec<f32>, LinearError> {
    let (k, n) = (weights.k, weights.n);
    check_length("qx", m, k, qx.len())?;
    check_length("weights.values", k, n, weights.values.len())?;
    check_length("weights.scales", 1, n, weights.scales.len())?;
    check_length("weights.column_sums", 1, n, weights.column_sums.len())?;
    check_length("bias", 1, n, bias.len())?;
    if k > MAX_DEPTH {
        return Err(ShapeError::TooDeep { k, max: MAX_DEPTH }.into());
    }
    if m == 0 || n == 0 {
        return Ok(Vec::new());
    }
    let max = ctx.device.limits().max_compute_workgroups_per_dimension;
    let groups = [n.div_ceil(GROUP as usize), m.div_ceil(GROUP as usize)];
    if groups.iter().any(|&g| g > max as usize) {
        return Err(LinearError::TooLarge { m, n, groups, max });
    }

    // Rows of x and columns of W, each padded with zeros to whole words: a zero byte adds
    // nothing to a dot product, and the column sums cover only the k real values.
    let words = k.div_ceil(4);
    let x_packed: Vec<u32> = (0..m)
        .flat_map(|row| pack(words, |p| qx[row * k + p], k))
        .collect();
    let w_packed: Vec<u32> = (0..n)
        .flat_map(|col| pack(words, |p| weights.values[p * n + col], k))
        .collect();
    // The sizes (m, n < 65 536 · 16 and k ≤ MAX_DEPTH, checked above) all fit a u32.
    let params = [
        m as u32,
        k as u32,
        n as u32,
        words as u32,
        x.scale.to_bits(),
        i32::from(x.zero_point) as u32,
    ];

    let buffers = [
        ctx.upload("linear_int8 params", &params)?,
        ctx.upload("linear_int8 x", &at_least_one(x_packed))?,
        ctx.upload("linear_int8 w", &at_least_one(w_packed))?,
        ctx.upload("linear_int8 w scales", &weights.scales)?,
        ctx.upload("linear_int8 w column sums", &weights.column_sums)?,
        ctx.upload("linear_int8 bias", bias)?,
        ctx.storage_buffer("linear_int8 y", (m * n * 4) as u64)?,
    ];
    let pipeline = ctx.cached_pipeline("linear_int8", LINEAR_INT8_WGSL, "main")?;
    let bind_group = ctx.bind_buffers(&pipeline, &buffers.each_ref());
    ctx.dispatch(
        &pipeline,
        &bind_group,
        [groups[0] as u32, groups[1] as u32, 1],
    );
    let mut y: Vec<f32> = ctx.download(&buffers[6])?;
    y.truncate(m * n);
    Ok(y)
}

/// `words` little-endian words holding `value(0..len)` as bytes, zeros after `len`.
fn pack(words: usize, value: impl Fn(usize) -> i8, len: usize) -> Vec<u32> {
    (0..words)
        .map(|w| {
            (0..4).fold(0u32, |word, byte| {
                let p = 4 * w + byte;
                let v = if p < len { value(p) } else { 0 };
                word | (u32::from(v as u8) << (8 * byte))
            })
        })
        .collect()
}

/// A buffer cannot be bound empty (k = 0 packs nothing): one unused zero word stands in.
fn at_least_one(mut words: Vec<u32>) -> Vec<u32> {
    if words.is_empty() {
        words.push(0);
    }
    words
}
