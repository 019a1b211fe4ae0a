//! Stage 1, the straightforward server: dequantize, then multiply in f32.

use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuContext, GpuScopes, ReadbackBuffer, ScopeTiming, wgpu};
use quantization::gemm::GemmKind;

use super::{InferenceError, PackedModel, Pass, record_copy};

const DEQUANTIZE: &str = include_str!("wgsl/dequantize.wgsl");
const BIAS_RELU: &str = include_str!("wgsl/bias_relu.wgsl");

/// One layer's packed weights, uploaded once: what the server keeps between requests.
struct LayerOnDevice {
    packed: wgpu::Buffer,
    scales: wgpu::Buffer,
    bias: wgpu::Buffer,
}

/// Weights resident on the GPU in their packed form; everything else made per request.
pub struct UnfusedServer {
    model: PackedModel,
    layers: Vec<LayerOnDevice>,
    dequantize: std::sync::Arc<wgpu::ComputePipeline>,
    gemm: std::sync::Arc<wgpu::ComputePipeline>,
    bias_relu: std::sync::Arc<wgpu::ComputePipeline>,
}

impl UnfusedServer {
    pub fn new(ctx: &GpuContext, model: PackedModel) -> Result<Self, InferenceError> {
        let layers = model
            .layers
            .iter()
            .map(|l| {
                Ok(LayerOnDevice {
                    packed: ctx.upload("packed weights", &l.words)?,
                    scales: ctx.upload("weight scales", &l.scales)?,
                    bias: ctx.upload("bias", &l.bias)?,
                })
            })
            .collect::<Result<_, InferenceError>>()?;
        let format = model.format;
        let dequantize =
            ctx.cached_pipeline("dequantize", &format.kernel_source(DEQUANTIZE), "main")?;
        // Module 3's tiled GEMM, unchanged: C = A · Bᵀ over rows of vec4<f32>.
        let gemm = ctx.cached_pipeline("f32 gemm", &GemmKind::F32.source(), "main")?;
        let bias_relu = ctx.cached_pipeline(
            "bias relu",
            &format!("{}\n{BIAS_RELU}", super::SHAPE),
            "main",
        )?;
        Ok(Self {
            model,
            layers,
            dequantize,
            gemm,
            bias_relu,
        })
    }

    pub fn infer(&mut self, ctx: &GpuContext, x: &Tensor2D) -> Result<Tensor2D, InferenceError> {
        Ok(self.serve(ctx, x, None)?.0)
    }

    /// One request with a GPU timing scope around every stage.
    pub fn infer_profiled(
        &mut self,
        ctx: &GpuContext,
        scopes: &mut GpuScopes,
        x: &Tensor2D,
    ) -> Result<(Tensor2D, Vec<ScopeTiming>), InferenceError> {
        self.serve(ctx, x, Some(scopes))
    }

    // ANCHOR: unfused_request
    /// Per layer: write the weights out as f32, multiply, add the bias (and ReLU), each pass
    /// its own submit; new buffers for every activation, every f32 weight matrix and the
    /// read-back.
    fn serve(
        &mut self,
        ctx: &GpuContext,
        x: &Tensor2D,
        scopes: Option<&mut GpuScopes>,
    ) -> Result<(Tensor2D, Vec<ScopeTiming>), InferenceError> {
        let m = x.rows();
        let mut h = ctx.upload("request input", &self.model.padded_input(x)?)?;
        let last = self.layers.len() - 1;
        for (i, (layer, dev)) in self.model.layers.iter().zip(&self.layers).enumerate() {
            let shape = ctx.upload("shape", &layer.shape(m, i < last))?;
            let (n, words) = (layer.n, layer.chunks());
            let w_f32 = ctx.storage_buffer("f32 weights", layer.f32_bytes() as u64)?;
            let y = ctx.storage_buffer("activations", (m * n * 4) as u64)?;
            let gemm_params = ctx.upload("gemm params", &[m as u32, n as u32, words as u32])?;
            let passes = [
                (
                    "dequantize",
                    Pass {
                        bind_group: ctx.bind_buffers(
                            &self.dequantize,
                            &[&shape, &dev.packed, &dev.scales, &w_f32],
                        ),
                        pipeline: self.dequantize.clone(),
                        groups: [words.div_ceil(64) as u32, n as u32, 1],
                    },
                ),
                (
                    "matmul",
                    Pass {
                        bind_group: ctx.bind_buffers(&self.gemm, &[&gemm_params, &h, &w_f32, &y]),
                        pipeline: self.gemm.clone(),
                        groups: [n.div_ceil(16) as u32, m.div_ceil(16) as u32, 1],
                    },
                ),
                (
                    "bias+relu",
                    Pass {
                        bind_group: ctx.bind_buffers(&self.bias_relu, &[&shape, &dev.bias, &y]),
                        pipeline: self.bias_relu.clone(),
                        groups: [(m * n).div_ceil(64) as u32, 1, 1],
                    },
                ),
            ];
            for (label, pass) in &passes {
                let mut encoder = ctx.device.create_command_encoder(&Default::default());
                pass.record(&mut encoder, scopes.as_deref().map(|s| s.profiler()), label);
                ctx.queue.submit([encoder.finish()]);
            }
            h = y;
        }
        let bytes = (m * self.model.outputs() * 4) as u64;
        let readback = ReadbackBuffer::new(ctx, bytes)?;
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        let profiler = scopes.as_deref().map(|s| s.profiler());
        record_copy(
            &mut encoder,
            profiler,
            "read-back",
            (&h, readback.buffer(), bytes),
        );
        let timings = match scopes {
            Some(s) => {
                s.resolve(&mut encoder);
                ctx.queue.submit([encoder.finish()]);
                s.finish_frame(ctx)?
            }
            None => {
                ctx.queue.submit([encoder.finish()]);
                Vec::new()
            }
        };
        let logits = readback.read_recorded::<f32>(ctx, bytes)?;
        let out = Tensor2D::new(m, self.model.outputs(), logits)
            .map_err(|e| InferenceError::Shape(e.to_string()))?;
        Ok((out, timings))
    }
    // ANCHOR_END: unfused_request
}
