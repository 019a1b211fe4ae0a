//! Stage 2: dequantize inside the GEMM, allocate once, submit once.

use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuContext, GpuScopes, ReadbackBuffer, ScopeTiming, wgpu};

use super::{InferenceError, PackedModel, Pass, f32_bytes, record_copy, u32_bytes};

const FUSED_LINEAR: &str = include_str!("wgsl/fused_linear.wgsl");
const FUSED_GEMV: &str = include_str!("wgsl/fused_gemv.wgsl");

/// Requests of at most this many rows take the matrix-vector kernel: the 16×16 tiles of the
/// GEMM would leave most of their threads without a row.
pub const GEMV_MAX_ROWS: usize = 8;

/// One layer's buffers and bind group, made when the server starts.
struct LayerOnDevice {
    shape: wgpu::Buffer,
    output: wgpu::Buffer,
    tiled: wgpu::BindGroup,
    gemv: wgpu::BindGroup,
}

/// Everything a request needs exists before the first request: serving one writes the input
/// and the batch size, records every layer and the read-back, and submits once.
pub struct FusedServer {
    model: PackedModel,
    max_batch: usize,
    input: wgpu::Buffer,
    layers: Vec<LayerOnDevice>,
    tiled: std::sync::Arc<wgpu::ComputePipeline>,
    gemv: std::sync::Arc<wgpu::ComputePipeline>,
    readback: ReadbackBuffer,
}

impl FusedServer {
    /// Buffers sized for requests of up to `max_batch` rows.
    pub fn new(
        ctx: &GpuContext,
        model: PackedModel,
        max_batch: usize,
    ) -> Result<Self, InferenceError> {
        let tiled = ctx.cached_pipeline(
            "fused linear",
            &model.format.kernel_source(FUSED_LINEAR),
            "main",
        )?;
        let gemv = ctx.cached_pipeline(
            "fused gemv",
            &model.format.kernel_source(FUSED_GEMV),
            "main",
        )?;
        let in_stride = model.inputs().div_ceil(4) * 4;
        let input = ctx.storage_buffer("input", (max_batch * in_stride * 4) as u64)?;
        let mut layers: Vec<LayerOnDevice> = Vec::new();
        let last = model.layers.len() - 1;
        for (i, l) in model.layers.iter().enumerate() {
            let shape = ctx.upload("shape", &l.shape(max_batch, i < last))?;
            let packed = ctx.upload("packed weights", &l.words)?;
            let scales = ctx.upload("weight scales", &l.scales)?;
            let bias = ctx.upload("bias", &l.bias)?;
            let output = ctx.storage_buffer("activations", (max_batch * l.n * 4) as u64)?;
            let x = layers.last().map_or(&input, |prev| &prev.output);
            let buffers = [&shape, &packed, &scales, x, &bias, &output];
            let tiled = ctx.bind_buffers(&tiled, &buffers);
            let gemv = ctx.bind_buffers(&gemv, &buffers);
            layers.push(LayerOnDevice {
                shape,
                output,
                tiled,
                gemv,
            });
        }
        let readback = ReadbackBuffer::new(ctx, (max_batch * model.outputs() * 4) as u64)?;
        Ok(Self {
            model,
            max_batch,
            input,
            layers,
            tiled,
            gemv,
            readback,
        })
    }

    pub fn infer(&mut self, ctx: &GpuContext, x: &Tensor2D) -> Result<Tensor2D, InferenceError> {
        Ok(self.serve(ctx, x, None)?.0)
    }

    /// One request with a GPU timing scope around every layer and the read-back.
    pub fn infer_profiled(
        &mut self,
        ctx: &GpuContext,
        scopes: &mut GpuScopes,
        x: &Tensor2D,
    ) -> Result<(Tensor2D, Vec<ScopeTiming>), InferenceError> {
        self.serve(ctx, x, Some(scopes))
    }

    // ANCHOR: fused_request
    /// Writes the request into the buffers made at start-up, records one fused pass per layer
    /// (the matrix-vector kernel for a few rows, the tiled one for more)
    /// and the read-back copy into one encoder, and submits it once.
    fn serve(
        &mut self,
        ctx: &GpuContext,
        x: &Tensor2D,
        scopes: Option<&mut GpuScopes>,
    ) -> Result<(Tensor2D, Vec<ScopeTiming>), InferenceError> {
        let m = x.rows();
        if m > self.max_batch {
            return Err(InferenceError::Shape(format!(
                "a request of {m} rows for a server started for at most {}: start it with a \
                 larger max_batch",
                self.max_batch
            )));
        }
        ctx.queue
            .write_buffer(&self.input, 0, &f32_bytes(&self.model.padded_input(x)?));
        let last = self.layers.len() - 1;
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        let profiler = scopes.as_deref().map(|s| s.profiler());
        for (i, (layer, dev)) in self.model.layers.iter().zip(&self.layers).enumerate() {
            let shape = layer.shape(m, i < last);
            ctx.queue.write_buffer(&dev.shape, 0, &u32_bytes(&shape));
            let pass = if m <= GEMV_MAX_ROWS {
                Pass {
                    pipeline: self.gemv.clone(),
                    bind_group: dev.gemv.clone(),
                    groups: [layer.n as u32, m as u32, 1],
                }
            } else {
                Pass {
                    pipeline: self.tiled.clone(),
                    bind_group: dev.tiled.clone(),
                    groups: [layer.n.div_ceil(16) as u32, m.div_ceil(16) as u32, 1],
                }
            };
            pass.record(&mut encoder, profiler, "matmul");
        }
        let bytes = (m * self.model.outputs() * 4) as u64;
        let out = &self.layers[last].output;
        record_copy(
            &mut encoder,
            profiler,
            "read-back",
            (out, self.readback.buffer(), bytes),
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
        let logits = self.readback.read_recorded::<f32>(ctx, bytes)?;
        let out = Tensor2D::new(m, self.model.outputs(), logits)
            .map_err(|e| InferenceError::Shape(e.to_string()))?;
        Ok((out, timings))
    }
    // ANCHOR_END: fused_request
}
