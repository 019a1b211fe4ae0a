//! What a layer needs on the GPU: its weights (uploaded once by every server), the kernels that
//! can run it, and the buffers and bind groups a request uses (made per request or once).

use std::sync::Arc;

use gpu_context::{GpuContext, wgpu};
use quantization::gemm::GemmKind;
use tracing::info_span;

use super::{InferenceError, PackedLayer, Pass, WeightFormat};

const DEQUANTIZE: &str = include_str!("wgsl/dequantize.wgsl");
const BIAS_RELU: &str = include_str!("wgsl/bias_relu.wgsl");
const FUSED_LINEAR: &str = include_str!("wgsl/fused_linear.wgsl");
const FUSED_GEMV: &str = include_str!("wgsl/fused_gemv.wgsl");

/// Which kernels run a layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// Three passes: weights written out as f32, module 3's tiled f32 GEMM, bias and ReLU.
    Unfused,
    /// One pass: the tiled GEMM that unpacks the weights in its tile load, then bias and ReLU.
    Tiled,
    /// One pass: one workgroup per output, for requests of a few rows.
    Gemv,
}

/// The compiled pipelines of one weight format (compiled once: the context caches them).
pub(super) struct Kernels {
    dequantize: Arc<wgpu::ComputePipeline>,
    gemm: Arc<wgpu::ComputePipeline>,
    bias_relu: Arc<wgpu::ComputePipeline>,
    tiled: Arc<wgpu::ComputePipeline>,
    gemv: Arc<wgpu::ComputePipeline>,
}

impl Kernels {
    pub fn new(ctx: &GpuContext, format: WeightFormat) -> Result<Self, InferenceError> {
        let shared = |body: &str| format!("{}\n{body}", super::SHAPE);
        Ok(Self {
            dequantize: ctx.cached_pipeline(
                "dequantize",
                &format.kernel_source(DEQUANTIZE),
                "main",
            )?,
            // Module 3's tiled GEMM, unchanged: C = A · Bᵀ over rows of vec4<f32>.
            gemm: ctx.cached_pipeline("f32 gemm", &GemmKind::F32.source(), "main")?,
            bias_relu: ctx.cached_pipeline("bias relu", &shared(BIAS_RELU), "main")?,
            tiled: ctx.cached_pipeline(
                "fused linear",
                &format.kernel_source(FUSED_LINEAR),
                "main",
            )?,
            gemv: ctx.cached_pipeline("fused gemv", &format.kernel_source(FUSED_GEMV), "main")?,
        })
    }
}

/// One layer's packed weights, scales and bias on the GPU.
pub(super) struct LayerWeights {
    packed: wgpu::Buffer,
    scales: wgpu::Buffer,
    bias: wgpu::Buffer,
}

impl LayerWeights {
    pub fn upload(ctx: &GpuContext, layer: &PackedLayer) -> Result<Self, InferenceError> {
        Ok(Self {
            packed: ctx.upload("packed weights", &layer.words)?,
            scales: ctx.upload("weight scales", &layer.scales)?,
            bias: ctx.upload("bias", &layer.bias)?,
        })
    }
}

/// A layer's buffers for requests of up to `rows` rows, and the bind groups of the kernels it
/// was made for.
pub(super) struct LayerBuffers {
    pub shape: wgpu::Buffer,
    pub gemm_params: wgpu::Buffer,
    pub output: wgpu::Buffer,
    /// Each kernel's bind groups, one per pass; they hold the buffers they name (among them the
    /// f32 weights of the unfused kernels) alive.
    bind_groups: Vec<(Kernel, Vec<wgpu::BindGroup>)>,
}

impl LayerBuffers {
    // ANCHOR: make_layer
    /// New buffers (zeroed by wgpu before first use), a bind group per pass of each kernel.
    pub fn make(
        ctx: &GpuContext,
        k: &Kernels,
        (layer, w): (&PackedLayer, &LayerWeights),
        x: &wgpu::Buffer,
        rows: usize,
        kernels: &[Kernel],
    ) -> Result<Self, InferenceError> {
        let buffer = |label, bytes: usize| ctx.storage_buffer(label, bytes as u64);
        let span = info_span!("create_buffers").entered();
        let shape = buffer("shape", 28)?;
        let gemm_params = buffer("gemm params", 12)?;
        let output = buffer("activations", rows * layer.n * 4)?;
        let unfused = kernels.contains(&Kernel::Unfused);
        let f32_weights = unfused
            .then(|| buffer("f32 weights", layer.f32_bytes()))
            .transpose()?;
        drop(span);
        let _span = info_span!("create_bind_groups").entered();
        let bind = |p: &wgpu::ComputePipeline, b: &[&wgpu::Buffer]| ctx.bind_buffers(p, b);
        let fused = [&shape, &w.packed, &w.scales, x, &w.bias, &output];
        let bind_groups = kernels.iter().map(|&kernel| {
            let groups = match (kernel, &f32_weights) {
                (Kernel::Unfused, Some(f)) => vec![
                    bind(&k.dequantize, &[&shape, &w.packed, &w.scales, f]),
                    bind(&k.gemm, &[&gemm_params, x, f, &output]),
                    bind(&k.bias_relu, &[&shape, &w.bias, &output]),
                ],
                (Kernel::Tiled, _) => vec![bind(&k.tiled, &fused)],
                _ => vec![bind(&k.gemv, &fused)],
            };
            (kernel, groups)
        });
        let bind_groups = bind_groups.collect();
        Ok(Self {
            shape,
            gemm_params,
            output,
            bind_groups,
        })
    }
    // ANCHOR_END: make_layer
}

impl LayerBuffers {
    /// The passes that run `kernel` on `m` rows, each with the name of its GPU timing scope.
    pub fn passes(
        &self,
        k: &Kernels,
        layer: &PackedLayer,
        kernel: Kernel,
        m: usize,
    ) -> Result<Vec<(&'static str, Pass)>, InferenceError> {
        let Some((_, groups)) = self.bind_groups.iter().find(|(kk, _)| *kk == kernel) else {
            return Err(InferenceError::Shape(format!(
                "no bind groups for the {kernel:?} kernel: the buffers were made for others"
            )));
        };
        let n = layer.n;
        let tiles = [n.div_ceil(16) as u32, m.div_ceil(16) as u32, 1];
        let pass = |label, pipeline: &Arc<wgpu::ComputePipeline>, i: usize, groups_xyz| {
            let bind_group = groups[i].clone();
            (
                label,
                Pass {
                    pipeline: pipeline.clone(),
                    bind_group,
                    groups: groups_xyz,
                },
            )
        };
        Ok(match kernel {
            Kernel::Unfused => vec![
                pass(
                    "dequantize",
                    &k.dequantize,
                    0,
                    [layer.chunks().div_ceil(64) as u32, n as u32, 1],
                ),
                pass("matmul", &k.gemm, 1, tiles),
                pass(
                    "bias+relu",
                    &k.bias_relu,
                    2,
                    [(m * n).div_ceil(64) as u32, 1, 1],
                ),
            ],
            Kernel::Tiled => vec![pass("matmul", &k.tiled, 0, tiles)],
            Kernel::Gemv => vec![pass("matmul", &k.gemv, 0, [n as u32, m as u32, 1])],
        })
    }
}
