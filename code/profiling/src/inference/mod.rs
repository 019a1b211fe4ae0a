//! Case study: serving module 3's quantized classifier on the GPU, profiled and made faster.
//!
//! The weights stay in their packed form on the GPU (int8 or 4-bit groups, from
//! `quantization::int8` and `quantization::group4`). One [`Server`] answers requests with any
//! set of the case study's three [`Changes`]:
//!
//! - none (the baseline): per request and per layer, a pass that writes the layer's weights out
//!   as f32, module 3's tiled f32 GEMM, a bias-and-ReLU pass; one submit per pass, buffers and
//!   bind groups made per request, a read-back buffer made per request;
//! - `fuse`: one kernel per layer that unpacks and scales the weights inside the GEMM's tile load;
//! - `once`: buffers and bind groups made when the server starts, one submit per request;
//! - `gemv`: a matrix-vector kernel for requests of a few rows (fused, so it needs `fuse`).
//!
//! A request can be profiled stage by stage on the GPU ([`Server::infer_profiled`]), and every
//! step of it on the CPU is a `tracing` span (see [`server`]).

mod layer;
pub mod server;

use std::sync::Arc;

use computational_graphs::ops::cpu;
use computational_graphs::tensor::Tensor2D;
use gpu_context::{GpuError, GpuProfiler, ScopeError, ScopeTiming, wgpu};
use quantization::QuantError;
use quantization::group4::Group4Weights;
use quantization::int8::Int8Weights;
use quantization::model::Mlp;
use thiserror::Error;

pub use layer::Kernel;
pub use server::{Changes, GEMV_MAX_ROWS, Server};

const SHAPE: &str = include_str!("wgsl/shape.wgsl");
const INT8_WEIGHTS: &str = include_str!("wgsl/int8_weights.wgsl");
const GROUP4_WEIGHTS: &str = include_str!("wgsl/group4_weights.wgsl");

/// What can go wrong when packing or serving the model.
#[derive(Debug, Error)]
pub enum InferenceError {
    #[error(transparent)]
    Quant(#[from] QuantError),
    #[error(transparent)]
    Gpu(#[from] GpuError),
    #[error(transparent)]
    Scopes(#[from] ScopeError),
    #[error("{0}")]
    Shape(String),
}

/// How the weights are stored on the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeightFormat {
    /// One byte per weight, one scale per output column.
    Int8,
    /// Half a byte per weight, one scale per `group` rows of a column (a multiple of 8).
    Group4 { group: usize },
}

impl WeightFormat {
    pub fn label(self) -> String {
        match self {
            WeightFormat::Int8 => "int8".into(),
            WeightFormat::Group4 { group } => format!("int4 g{group}"),
        }
    }

    /// The WGSL that declares the packed weights and `weights4(col, chunk)`.
    fn wgsl(self) -> &'static str {
        match self {
            WeightFormat::Int8 => INT8_WEIGHTS,
            WeightFormat::Group4 { .. } => GROUP4_WEIGHTS,
        }
    }

    /// A kernel's full source: the shared shape, this format's weight reader, the kernel.
    fn kernel_source(self, body: &str) -> String {
        format!("{SHAPE}\n{}\n{body}", self.wgsl())
    }
}

/// One Linear layer in its packed form, with the f32 weights it stands for (k×n), which the
/// CPU reference computes with.
#[derive(Clone, Debug)]
pub struct PackedLayer {
    pub k: usize,
    pub n: usize,
    pub words: Vec<u32>,
    pub scales: Vec<f32>,
    pub bias: Vec<f32>,
    pub dequantized: Tensor2D,
    words_per_col: usize,
    groups_per_col: usize,
    group: usize,
}

impl PackedLayer {
    fn pack(w: &Tensor2D, b: &Tensor2D, format: WeightFormat) -> Result<Self, InferenceError> {
        let (k, n) = w.shape();
        let bias = b.data().to_vec();
        if bias.len() != n {
            return Err(InferenceError::Shape(format!(
                "a bias of {} values for a layer of {n} outputs",
                bias.len()
            )));
        }
        Ok(match format {
            WeightFormat::Int8 => {
                let q = Int8Weights::quantize(w)?;
                let mut dequantized = Tensor2D::zeros(k, n);
                for c in 0..n {
                    for r in 0..k {
                        dequantized.data_mut()[r * n + c] =
                            f32::from(q.q_t[c * k + r]) * q.scales[c];
                    }
                }
                Self {
                    k,
                    n,
                    words: q.packed(),
                    scales: q.scales,
                    bias,
                    dequantized,
                    words_per_col: k.div_ceil(4),
                    groups_per_col: 1,
                    group: k.div_ceil(4) * 4,
                }
            }
            WeightFormat::Group4 { group } => {
                let q = Group4Weights::quantize(w, group)?;
                Self {
                    k,
                    n,
                    dequantized: q.dequantize(),
                    words: q.words,
                    scales: q.scales,
                    bias,
                    words_per_col: k.div_ceil(8),
                    groups_per_col: k.div_ceil(group),
                    group,
                }
            }
        })
    }

    /// Four-value chunks in a row of the layer's input.
    pub fn chunks(&self) -> usize {
        self.k.div_ceil(4)
    }

    /// The `Shape` the kernels read, for a batch of `m` rows.
    fn shape(&self, m: usize, relu: bool) -> [u32; 7] {
        [
            m,
            self.n,
            self.chunks(),
            self.words_per_col,
            self.groups_per_col,
            self.group,
            usize::from(relu),
        ]
        .map(|v| v as u32)
    }

    /// Bytes of this layer's weights as f32 (what the unfused path writes and reads again).
    pub fn f32_bytes(&self) -> usize {
        self.n * self.chunks() * 16
    }
}

/// The model's layers packed in one format, ready to upload.
#[derive(Clone, Debug)]
pub struct PackedModel {
    pub format: WeightFormat,
    pub layers: Vec<PackedLayer>,
}

impl PackedModel {
    /// Quantizes every layer. Hidden widths must be multiples of 4: a layer's output rows are
    /// the next layer's input rows of four-value chunks.
    pub fn quantize(model: &Mlp, format: WeightFormat) -> Result<Self, InferenceError> {
        let last = model.layers.len().saturating_sub(1);
        for (i, (w, _)) in model.layers.iter().enumerate() {
            if i < last && w.cols() % 4 != 0 {
                return Err(InferenceError::Shape(format!(
                    "hidden layer {i} has {} outputs: make every hidden width a multiple of 4",
                    w.cols()
                )));
            }
        }
        let layers = model
            .layers
            .iter()
            .map(|(w, b)| PackedLayer::pack(w, b, format))
            .collect::<Result<_, _>>()?;
        Ok(Self { format, layers })
    }

    pub fn inputs(&self) -> usize {
        self.layers.first().map_or(0, |l| l.k)
    }

    pub fn outputs(&self) -> usize {
        self.layers.last().map_or(0, |l| l.n)
    }

    // ANCHOR: reference
    /// The CPU reference: the same dequantized weights, in f32, Linear and ReLU from the graph
    /// crate. A GPU result differs from it only by the order of f32 additions.
    pub fn reference(&self, x: &Tensor2D) -> Result<Tensor2D, InferenceError> {
        let mut h = x.clone();
        for (i, layer) in self.layers.iter().enumerate() {
            let b = Tensor2D::new(1, layer.n, layer.bias.clone())
                .map_err(|e| InferenceError::Shape(e.to_string()))?;
            h = cpu::linear(&h, &layer.dequantized, &b)
                .map_err(|e| InferenceError::Shape(e.to_string()))?;
            if i + 1 < self.layers.len() {
                h = cpu::relu(&h);
            }
        }
        Ok(h)
    }
    // ANCHOR_END: reference

    /// The input rows padded with zeros to whole four-value chunks, as the first layer reads them.
    fn padded_input(&self, x: &Tensor2D) -> Result<Vec<f32>, InferenceError> {
        let k = self.inputs();
        if x.rows() == 0 {
            return Err(InferenceError::Shape(
                "an empty request: send at least one row".into(),
            ));
        }
        if x.cols() != k {
            return Err(InferenceError::Shape(format!(
                "a request of {} columns for a model of {k} inputs",
                x.cols()
            )));
        }
        let stride = k.div_ceil(4) * 4;
        let mut out = vec![0.0; x.rows() * stride];
        for (row, src) in out.chunks_mut(stride).zip(x.data().chunks(k.max(1))) {
            row[..k].copy_from_slice(src);
        }
        Ok(out)
    }
}

// ANCHOR: error_bound
/// How far the quantized model's logits can be from the f32 model's, per output, for input `x`.
///
/// Per layer, with $\hat W = W + \Delta$ ($|\Delta| \le$ half a quantization step) and an input
/// already off by at most $e$: $|\hat x \hat W - x W| \le e\,|\hat W| + |x|\,|\Delta|$. ReLU
/// never widens a gap, so the bound is carried layer to layer from $e = 0$.
pub fn error_bound(model: &Mlp, packed: &PackedModel, x: &Tensor2D) -> Vec<f32> {
    let mut h = x.clone();
    let mut e = Tensor2D::zeros(x.rows(), x.cols());
    for (i, ((w, b), layer)) in model.layers.iter().zip(&packed.layers).enumerate() {
        let (k, n) = w.shape();
        let mut next_e = Tensor2D::zeros(h.rows(), n);
        for r in 0..h.rows() {
            for c in 0..n {
                let mut sum = 0.0f64;
                for p in 0..k {
                    let wq = f64::from(layer.dequantized.get(p, c));
                    let half_step = f64::from(half_step(layer, p, c));
                    sum += f64::from(e.get(r, p)) * wq.abs()
                        + f64::from(h.get(r, p).abs()) * half_step;
                }
                next_e.data_mut()[r * n + c] = sum as f32;
            }
        }
        h = cpu::linear(&h, w, b).expect("the model's own shapes");
        if i + 1 < model.layers.len() {
            h = cpu::relu(&h);
        }
        e = next_e;
    }
    e.data().to_vec()
}
// ANCHOR_END: error_bound

/// The largest rounding error of weight (p, c): half the step of its column's (group's) scale.
fn half_step(layer: &PackedLayer, p: usize, c: usize) -> f32 {
    layer.scales[c * layer.groups_per_col + p / layer.group] / 2.0
}

/// Each row's largest logit.
pub fn predictions(logits: &Tensor2D) -> Vec<usize> {
    logits
        .data()
        .chunks(logits.cols().max(1))
        .map(|row| {
            row.iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map_or(0, |(i, _)| i)
        })
        .collect()
}

/// One compute pass, ready to record: what a stage of a request runs.
struct Pass {
    pipeline: Arc<wgpu::ComputePipeline>,
    bind_group: wgpu::BindGroup,
    groups: [u32; 3],
}

impl Pass {
    /// Records the pass, inside a GPU timing scope named `label` when profiling.
    fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        profiler: Option<&GpuProfiler>,
        label: &str,
    ) {
        let run = |encoder: &mut wgpu::CommandEncoder| {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.bind_group, &[]);
            let [x, y, z] = self.groups;
            pass.dispatch_workgroups(x, y, z);
        };
        match profiler {
            Some(p) => run(p.scope(label, encoder).recorder),
            None => run(encoder),
        }
    }
}

/// Records a buffer copy, inside a scope named `label` when profiling.
fn record_copy(
    encoder: &mut wgpu::CommandEncoder,
    profiler: Option<&GpuProfiler>,
    label: &str,
    (from, to, bytes): (&wgpu::Buffer, &wgpu::Buffer, u64),
) {
    match profiler {
        Some(p) => p
            .scope(label, encoder)
            .recorder
            .copy_buffer_to_buffer(from, 0, to, 0, bytes),
        None => encoder.copy_buffer_to_buffer(from, 0, to, 0, bytes),
    }
}

/// The GPU time of each stage of one request: the scopes of one label added up, in the order
/// the labels first appear.
pub fn stage_totals(scopes: &[ScopeTiming]) -> Vec<(String, f64)> {
    let mut totals: Vec<(String, f64)> = Vec::new();
    for (_, s) in scopes.iter().flat_map(|s| s.walk()) {
        match totals.iter_mut().find(|(l, _)| *l == s.label) {
            Some((_, t)) => *t += s.duration_s(),
            None => totals.push((s.label.clone(), s.duration_s())),
        }
    }
    totals
}

/// Little-endian bytes, for `queue.write_buffer`.
fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn u32_bytes(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}
