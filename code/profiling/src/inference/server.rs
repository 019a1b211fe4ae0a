//! One server with the case study's three changes as switches, so that each can be measured
//! alone and with the others. Every step of a request outside the GPU's passes is a `tracing`
//! span: `create_buffers`, `create_bind_groups`, `write_buffers`, `record`, `submit`,
//! `wait_for_gpu`, `map_read_back`, `release`, all inside one `request` span.

use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuContext, GpuProfiler, GpuScopes, ReadbackBuffer, ScopeTiming, wgpu};
use tracing::info_span;

use super::layer::{Kernel, Kernels, LayerBuffers, LayerWeights};
use super::{InferenceError, PackedModel, f32_bytes, record_copy, u32_bytes};

/// Requests of at most this many rows take the matrix-vector kernel (with [`Changes::gemv`]):
/// the 16×16 tiles of the GEMM would leave most of their threads without a row.
pub const GEMV_MAX_ROWS: usize = 8;

/// The three changes of the case study, each a switch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Dequantize inside the GEMM's tile load: one pass per layer, no f32 weights in memory.
    pub fuse: bool,
    /// Make every buffer and bind group once, when the server starts; submit a request once.
    pub once: bool,
    /// Give requests of a few rows the matrix-vector kernel (a fused kernel: needs `fuse`).
    pub gemv: bool,
}

impl Changes {
    pub const NONE: Self = Self::new(false, false, false);
    pub const ALL: Self = Self::new(true, true, true);
    /// What the case study measures: none, each change alone (the matrix-vector kernel only
    /// exists fused), and the changes added one by one.
    pub const STEPS: [Self; 6] = [
        Self::NONE,
        Self::new(true, false, false),
        Self::new(false, true, false),
        Self::new(true, false, true),
        Self::new(true, true, false),
        Self::ALL,
    ];

    pub const fn new(fuse: bool, once: bool, gemv: bool) -> Self {
        Self { fuse, once, gemv }
    }

    /// `baseline`, or the changes made joined by `+` (`fuse+once+gemv`).
    pub fn label(self) -> String {
        let names = [
            (self.fuse, "fuse"),
            (self.once, "once"),
            (self.gemv, "gemv"),
        ];
        let on: Vec<&str> = names
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| *n)
            .collect();
        if on.is_empty() {
            "baseline".into()
        } else {
            on.join("+")
        }
    }
}

/// The buffers a request uses: made per request, or kept from start-up.
struct Buffers {
    input: wgpu::Buffer,
    layers: Vec<LayerBuffers>,
    readback: ReadbackBuffer,
}

/// Packed weights resident on the GPU; the rest as [`Changes`] says.
pub struct Server {
    model: PackedModel,
    changes: Changes,
    max_batch: usize,
    kernels: Kernels,
    weights: Vec<LayerWeights>,
    kept: Option<Buffers>,
}

impl Server {
    /// A server for requests of up to `max_batch` rows.
    pub fn new(
        ctx: &GpuContext,
        model: PackedModel,
        changes: Changes,
        max_batch: usize,
    ) -> Result<Self, InferenceError> {
        if changes.gemv && !changes.fuse {
            return Err(InferenceError::Shape(
                "the matrix-vector kernel dequantizes its own weights: turn on `fuse` with `gemv`"
                    .into(),
            ));
        }
        let weights = model
            .layers
            .iter()
            .map(|l| LayerWeights::upload(ctx, l))
            .collect::<Result<_, _>>()?;
        let kernels = Kernels::new(ctx, model.format)?;
        let mut server = Self {
            model,
            changes,
            max_batch,
            kernels,
            weights,
            kept: None,
        };
        if changes.once {
            let all = server.kernels_for_any_batch();
            server.kept = Some(server.make_buffers(ctx, max_batch, &all)?);
        }
        Ok(server)
    }

    pub fn changes(&self) -> Changes {
        self.changes
    }

    pub fn infer(&mut self, ctx: &GpuContext, x: &Tensor2D) -> Result<Tensor2D, InferenceError> {
        Ok(self.serve(ctx, x, None)?.0)
    }

    /// One request with a GPU timing scope around every pass and the read-back.
    pub fn infer_profiled(
        &mut self,
        ctx: &GpuContext,
        scopes: &mut GpuScopes,
        x: &Tensor2D,
    ) -> Result<(Tensor2D, Vec<ScopeTiming>), InferenceError> {
        self.serve(ctx, x, Some(scopes))
    }

    /// The kernel that runs a request of `m` rows.
    fn kernel(&self, m: usize) -> Kernel {
        match (self.changes.fuse, self.changes.gemv && m <= GEMV_MAX_ROWS) {
            (false, _) => Kernel::Unfused,
            (true, true) => Kernel::Gemv,
            (true, false) => Kernel::Tiled,
        }
    }

    fn kernels_for_any_batch(&self) -> Vec<Kernel> {
        let mut all = vec![self.kernel(self.max_batch)];
        if self.kernel(1) != all[0] {
            all.push(self.kernel(1));
        }
        all
    }

    fn make_buffers(
        &self,
        ctx: &GpuContext,
        rows: usize,
        kernels: &[Kernel],
    ) -> Result<Buffers, InferenceError> {
        let in_bytes = rows * self.model.inputs().div_ceil(4) * 16;
        let out_bytes = rows * self.model.outputs() * 4;
        let (input, readback) = info_span!("create_buffers").in_scope(|| {
            let input = ctx.storage_buffer("request input", in_bytes as u64)?;
            Ok::<_, InferenceError>((input, ReadbackBuffer::new(ctx, out_bytes as u64)?))
        })?;
        let mut layers: Vec<LayerBuffers> = Vec::with_capacity(self.weights.len());
        for (layer, w) in self.model.layers.iter().zip(&self.weights) {
            let x = layers.last().map_or(&input, |prev| &prev.output);
            let made = LayerBuffers::make(ctx, &self.kernels, (layer, w), x, rows, kernels)?;
            layers.push(made);
        }
        Ok(Buffers {
            input,
            layers,
            readback,
        })
    }

    // ANCHOR: serve
    /// One request: buffers (made now, or kept), the request's sizes written into them, every
    /// pass recorded (and submitted one by one, or all at once), then the logits read back.
    fn serve(
        &self,
        ctx: &GpuContext,
        x: &Tensor2D,
        scopes: Option<&mut GpuScopes>,
    ) -> Result<(Tensor2D, Vec<ScopeTiming>), InferenceError> {
        let m = self.check_rows(x)?;
        let _request = info_span!("request", m).entered();
        let input = self.model.padded_input(x)?;
        let kernel = self.kernel(m);
        let made = match self.kept {
            Some(_) => None,
            None => Some(self.make_buffers(ctx, m, &[kernel])?),
        };
        let buffers = self.kept.as_ref().or(made.as_ref()).expect("kept or made");
        info_span!("write_buffers").in_scope(|| self.write(ctx, buffers, &input, m));
        let mut encoder = self.record(ctx, buffers, kernel, m, scopes.as_deref())?;
        let timings = match scopes {
            Some(s) => {
                s.resolve(&mut encoder);
                submit(ctx, encoder);
                s.finish_frame(ctx)?
            }
            None => {
                submit(ctx, encoder);
                Vec::new()
            }
        };
        info_span!("wait_for_gpu").in_scope(|| ctx.wait())?;
        let bytes = (m * self.model.outputs() * 4) as u64;
        let logits = info_span!("map_read_back")
            .in_scope(|| buffers.readback.read_recorded::<f32>(ctx, bytes))?;
        info_span!("release").in_scope(|| drop(made));
        let out = Tensor2D::new(m, self.model.outputs(), logits)
            .map_err(|e| InferenceError::Shape(e.to_string()))?;
        Ok((out, timings))
    }
    // ANCHOR_END: serve

    fn check_rows(&self, x: &Tensor2D) -> Result<usize, InferenceError> {
        match x.rows() {
            m if m > self.max_batch => Err(InferenceError::Shape(format!(
                "a request of {m} rows for a server started for at most {}: start it with a \
                 larger max_batch",
                self.max_batch
            ))),
            m => Ok(m),
        }
    }

    /// The input and every layer's sizes for this request, through the queue.
    fn write(&self, ctx: &GpuContext, buffers: &Buffers, input: &[f32], m: usize) {
        ctx.queue.write_buffer(&buffers.input, 0, &f32_bytes(input));
        let last = self.model.layers.len() - 1;
        for (i, (layer, dev)) in self.model.layers.iter().zip(&buffers.layers).enumerate() {
            let params = [m, layer.n, layer.chunks()].map(|v| v as u32);
            ctx.queue
                .write_buffer(&dev.shape, 0, &u32_bytes(&layer.shape(m, i < last)));
            ctx.queue
                .write_buffer(&dev.gemm_params, 0, &u32_bytes(&params));
        }
    }

    // ANCHOR: record
    /// Records every pass and the read-back copy. Without `once`, each pass is submitted as
    /// soon as it is recorded, as first-written code does; the encoder returned holds the rest.
    fn record(
        &self,
        ctx: &GpuContext,
        buffers: &Buffers,
        kernel: Kernel,
        m: usize,
        scopes: Option<&GpuScopes>,
    ) -> Result<wgpu::CommandEncoder, InferenceError> {
        let profiler: Option<&GpuProfiler> = scopes.map(|s| s.profiler());
        let new_encoder = || ctx.device.create_command_encoder(&Default::default());
        let mut encoder = new_encoder();
        for (layer, dev) in self.model.layers.iter().zip(&buffers.layers) {
            for (label, pass) in dev.passes(&self.kernels, layer, kernel, m)? {
                info_span!("record").in_scope(|| pass.record(&mut encoder, profiler, label));
                if !self.changes.once {
                    submit(ctx, std::mem::replace(&mut encoder, new_encoder()));
                }
            }
        }
        let last = &buffers.layers[buffers.layers.len() - 1].output;
        let bytes = (m * self.model.outputs() * 4) as u64;
        info_span!("record").in_scope(|| {
            let copy = (last, buffers.readback.buffer(), bytes);
            record_copy(&mut encoder, profiler, "read-back", copy);
        });
        Ok(encoder)
    }
    // ANCHOR_END: record
}

/// Finishes the encoder (part of recording) and submits it.
fn submit(ctx: &GpuContext, encoder: wgpu::CommandEncoder) {
    let commands = info_span!("record").in_scope(|| encoder.finish());
    info_span!("submit").in_scope(|| ctx.queue.submit([commands]));
}
