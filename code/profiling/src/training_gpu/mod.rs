//! The training step of [`crate::training`] on the GPU: forward, backward and the SGD update
//! as compute dispatches on buffers that stay on the GPU from one step to the next. Only the
//! loss ever comes back, and [`Schedule`] says how often the CPU waits for it.

pub mod kernels;

use computational_graphs::autograd::{Layer, Sequential};
use computational_graphs::ops::gpu::{Dispatch, Kernel, Pipelines, dims_buffer, pipeline};
use computational_graphs::tensor::Tensor2D;
use computational_graphs::{Error, ShapeError};
use gpu_context::{GpuContext, ReadbackBuffer, wgpu};
use quantization::model::Dataset;

use kernels::{TrainingKernel, Transpose, batch_sum, elements, matmul, rows};

pub use kernels::BatchReduction;

/// How the steps of [`GpuTrainer::train`] are submitted and when the loss is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// The CPU loop ported kernel by kernel: every dispatch its own submit, and the loss read
    /// back (a wait for the GPU) after every step.
    SubmitPerKernel,
    /// One command buffer per step, the loss read back after every step.
    SubmitPerStep,
    /// One command buffer per step that also copies the loss into a history on the GPU; the CPU
    /// waits once, at the end, for every step's loss.
    ReadLossAtEnd,
}

impl Schedule {
    pub const ALL: [Schedule; 3] = [
        Schedule::SubmitPerKernel,
        Schedule::SubmitPerStep,
        Schedule::ReadLossAtEnd,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Schedule::SubmitPerKernel => "GPU, a submit per kernel",
            Schedule::SubmitPerStep => "GPU, a submit and loss read per step",
            Schedule::ReadLossAtEnd => "GPU, losses read at the end",
        }
    }
}

/// One Linear layer's parameters and gradients on the GPU.
struct LinearOnGpu {
    /// (inputs, outputs): the weights are inputs × outputs.
    shape: (usize, usize),
    weights: wgpu::Buffer,
    bias: wgpu::Buffer,
    weights_grad: wgpu::Buffer,
    bias_grad: wgpu::Buffer,
}

// ANCHOR: trainer
/// A chain `Linear (ReLU Linear)*` and a batch, ready to train on the GPU.
pub struct GpuTrainer {
    layers: Vec<LinearOnGpu>,
    /// The loss of the last forward pass, one f32.
    loss: wgpu::Buffer,
    forward: Vec<Dispatch>,
    backward: Vec<Dispatch>,
    update: Vec<Dispatch>,
    loss_readback: ReadbackBuffer,
}
// ANCHOR_END: trainer

impl GpuTrainer {
    /// Uploads the network and the batch once and prepares every dispatch of a step, summing
    /// the parameters' gradients over the batch as `reduction` says.
    pub fn new(
        ctx: &GpuContext,
        net: &Sequential,
        data: &Dataset,
        rate: f32,
        reduction: BatchReduction,
    ) -> Result<Self, Error> {
        let params = linear_chain(net)?;
        let m = data.x.rows();
        let classes = params.last().map_or(0, |(w, _)| w.cols());
        check_batch(data, params[0].0.rows(), classes)?;
        let mut layers = Vec::with_capacity(params.len());
        for (i, (w, b)) in params.iter().enumerate() {
            layers.push(LinearOnGpu {
                shape: w.shape(),
                weights: ctx.upload(&format!("W{i}"), w.data())?,
                bias: ctx.upload(&format!("b{i}"), b.data())?,
                weights_grad: ctx.storage_buffer(&format!("dW{i}"), bytes(w.rows() * w.cols()))?,
                bias_grad: ctx.storage_buffer(&format!("db{i}"), bytes(w.cols()))?,
            });
        }
        // activations[0] is the input; activations[i + 1] the output of layer i (ReLU applied
        // for all but the last). grads[i] is the loss's gradient with respect to layer i's output.
        let mut activations = vec![ctx.upload("x", data.x.data())?];
        let mut grads = Vec::new();
        for (i, layer) in layers.iter().enumerate() {
            activations.push(ctx.storage_buffer(&format!("a{}", i + 1), bytes(m * layer.shape.1))?);
            grads.push(ctx.storage_buffer(&format!("dY{i}"), bytes(m * layer.shape.1))?);
        }
        let labels: Vec<u32> = data.labels.iter().map(|&l| l as u32).collect();
        let labels = ctx.upload("labels", &labels)?;
        let ones = ctx.upload("ones", &vec![1.0f32; m])?;
        let row_loss = ctx.storage_buffer("row_loss", bytes(m))?;
        let loss = ctx.storage_buffer("loss", 4)?;

        // ANCHOR: forward
        let mut forward = Vec::new();
        let last = layers.len() - 1;
        for (i, layer) in layers.iter().enumerate() {
            let kernel = if i < last {
                Kernel::LinearRelu
            } else {
                Kernel::Linear
            };
            let (k, n) = layer.shape;
            let pipeline = pipeline(ctx, kernel, Pipelines::Cached)?;
            let dims = dims_buffer(ctx, m, k, n)?;
            let (x, y) = (&activations[i], &activations[i + 1]);
            let bind_group =
                ctx.bind_buffers(&pipeline, &[&dims, x, &layer.weights, &layer.bias, y]);
            forward.push(Dispatch {
                label: format!("{} {i}", kernel.name()),
                workgroups: kernel.workgroups(ctx, m, n)?,
                pipeline,
                bind_group,
            });
        }
        let softmax = TrainingKernel::SoftmaxCrossEntropy;
        let logits = (&activations[last + 1], &grads[last]);
        let buffers = [logits.0, &labels, logits.1, &row_loss];
        forward.push(rows(ctx, softmax, (m, classes), &buffers)?);
        forward.push(rows(
            ctx,
            TrainingKernel::LossMean,
            (m, classes),
            &[&row_loss, &loss],
        )?);
        // ANCHOR_END: forward

        // ANCHOR: backward
        let mut backward = Vec::new();
        for (i, layer) in layers.iter().enumerate().rev() {
            let (k, n) = layer.shape;
            let (x, dy) = (&activations[i], &grads[i]);
            // dW = Xᵀ·dY (k×n, summed over the batch), db = 1ᵀ·dY (the column sums).
            let dw = batch_sum(
                ctx,
                &format!("dW{i}"),
                (k, m, n),
                reduction,
                [x, dy, &layer.weights_grad],
            )?;
            let db = batch_sum(
                ctx,
                &format!("db{i}"),
                (1, m, n),
                reduction,
                [&ones, dy, &layer.bias_grad],
            )?;
            backward.extend([dw, db]);
            if i > 0 {
                // dX = dY·Wᵀ (m×k) is the gradient of the ReLU before: masked where it was 0.
                let dx = &grads[i - 1];
                backward.push(matmul(
                    ctx,
                    &format!("dX{i}"),
                    (m, n, k),
                    Transpose::B,
                    dy,
                    &layer.weights,
                    dx,
                )?);
                let relu = TrainingKernel::ReluBackward;
                let label = format!("relu'{}", i - 1);
                backward.push(elements(ctx, relu, &label, m * k, 0.0, &[x, dx])?);
            }
        }
        // ANCHOR_END: backward

        let mut update = Vec::new();
        for layer in &layers {
            let (k, n) = layer.shape;
            let sgd = TrainingKernel::Sgd;
            let w = [&layer.weights_grad, &layer.weights];
            update.push(elements(ctx, sgd, "sgd W", k * n, rate, &w)?);
            update.push(elements(
                ctx,
                sgd,
                "sgd b",
                n,
                rate,
                &[&layer.bias_grad, &layer.bias],
            )?);
        }
        Ok(Self {
            layers,
            loss,
            forward,
            backward,
            update,
            loss_readback: ReadbackBuffer::new(ctx, 4)?,
        })
    }

    /// Kernels per step: forward (with the loss), backward, update.
    pub fn dispatch_count(&self) -> usize {
        self.forward.len() + self.backward.len() + self.update.len()
    }

    /// The forward pass and the loss, into `pass`.
    pub fn record_forward(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.forward.iter().for_each(|d| d.record(pass));
    }

    /// The gradients of every parameter, into `pass`.
    pub fn record_backward(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.backward.iter().for_each(|d| d.record(pass));
    }

    /// The backward pass's dispatches in the order they run, each labelled with what it computes
    /// and its layer (`dW1`, `db1`, `dX1`, `relu'0`, `dW0`, `db0` for two layers), so that a
    /// profiler can put a scope around each.
    pub fn backward_kernels(&self) -> &[Dispatch] {
        &self.backward
    }

    /// The SGD update of every parameter, into `pass`.
    pub fn record_update(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.update.iter().for_each(|d| d.record(pass));
    }

    /// Copies the last forward pass's loss (4 bytes) to `to` at `offset`.
    pub fn record_loss_copy(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        to: &wgpu::Buffer,
        offset: u64,
    ) {
        encoder.copy_buffer_to_buffer(&self.loss, 0, to, offset, 4);
    }

    /// The buffer [`GpuTrainer::train`] reads one loss through.
    pub fn loss_readback(&self) -> &ReadbackBuffer {
        &self.loss_readback
    }

    /// `steps` steps of full-batch gradient descent; returns the loss before each step, as
    /// [`crate::training::train`] does on the CPU.
    // ANCHOR: train
    pub fn train(
        &self,
        ctx: &GpuContext,
        steps: usize,
        schedule: Schedule,
    ) -> Result<Vec<f32>, Error> {
        match schedule {
            Schedule::SubmitPerKernel => (0..steps)
                .map(|_| {
                    let kernels = [&self.forward, &self.backward, &self.update];
                    for d in kernels.into_iter().flatten() {
                        let mut encoder = ctx.device.create_command_encoder(&Default::default());
                        d.record(&mut encoder.begin_compute_pass(&Default::default()));
                        ctx.queue.submit([encoder.finish()]);
                    }
                    self.read_loss(ctx)
                })
                .collect(),
            Schedule::SubmitPerStep => (0..steps)
                .map(|_| {
                    let mut encoder = self.record_step(ctx);
                    self.record_loss_copy(&mut encoder, self.loss_readback.buffer(), 0);
                    ctx.queue.submit([encoder.finish()]);
                    Ok(self.loss_readback.read_recorded::<f32>(ctx, 4)?[0])
                })
                .collect(),
            Schedule::ReadLossAtEnd => {
                let history = ReadbackBuffer::new(ctx, bytes(steps))?;
                for step in 0..steps {
                    let mut encoder = self.record_step(ctx);
                    self.record_loss_copy(&mut encoder, history.buffer(), bytes(step));
                    ctx.queue.submit([encoder.finish()]);
                }
                Ok(history.read_recorded(ctx, bytes(steps))?)
            }
        }
    }
    // ANCHOR_END: train

    /// One step's three passes in a new encoder.
    fn record_step(&self, ctx: &GpuContext) -> wgpu::CommandEncoder {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        self.record_forward(&mut encoder.begin_compute_pass(&Default::default()));
        self.record_backward(&mut encoder.begin_compute_pass(&Default::default()));
        self.record_update(&mut encoder.begin_compute_pass(&Default::default()));
        encoder
    }

    fn read_loss(&self, ctx: &GpuContext) -> Result<f32, Error> {
        Ok(self.loss_readback.read::<f32>(ctx, &self.loss)?[0])
    }

    /// The network as it stands on the GPU, read back.
    pub fn network(&self, ctx: &GpuContext) -> Result<Sequential, Error> {
        let mut out = Vec::new();
        for (i, layer) in self.layers.iter().enumerate() {
            if i > 0 {
                out.push(Layer::Relu);
            }
            let (k, n) = layer.shape;
            let weights = Tensor2D::new(k, n, ctx.download(&layer.weights)?)?;
            let bias = Tensor2D::new(1, n, ctx.download(&layer.bias)?)?;
            out.push(Layer::linear(weights, bias)?);
        }
        Ok(Sequential::new(out))
    }
}

/// The Linear layers of `Linear (ReLU Linear)*`, or an error naming what else was found.
fn linear_chain(net: &Sequential) -> Result<Vec<(&Tensor2D, &Tensor2D)>, Error> {
    let unsupported = |detail: String| Error::Unsupported {
        kernel: "GpuTrainer",
        detail,
    };
    let mut linears: Vec<(&Tensor2D, &Tensor2D)> = Vec::new();
    for (i, layer) in net.layers.iter().enumerate() {
        match (i % 2, layer) {
            (0, Layer::Linear { weights, bias }) => {
                if let Some((w, _)) = linears.last()
                    && w.cols() != weights.rows()
                {
                    let e = ShapeError::InnerDimension {
                        input: (0, w.cols()),
                        weights: weights.shape(),
                    };
                    return Err(Error::shape("GpuTrainer", e));
                }
                linears.push((weights, bias));
            }
            (1, Layer::Relu) => {}
            _ => {
                return Err(unsupported(format!(
                    "layer {i} is {layer:?}; the GPU step trains Linear layers with one ReLU \
                     between each two (Sequential::mlp builds such a chain)"
                )));
            }
        }
    }
    if net.layers.len().is_multiple_of(2) {
        return Err(unsupported(
            "the chain must start and end with a Linear layer (the last one gives the logits)"
                .into(),
        ));
    }
    Ok(linears)
}

/// One label per sample, each a class the last layer has, and samples as wide as the first.
fn check_batch(data: &Dataset, inputs: usize, classes: usize) -> Result<(), Error> {
    let (m, k) = data.x.shape();
    let op = "GpuTrainer";
    if m == 0 || k != inputs {
        let e = ShapeError::Mismatch {
            what: "the batch",
            got: (m, k),
            expected: (m.max(1), inputs),
        };
        return Err(Error::shape(op, e));
    }
    if data.labels.len() != m {
        let e = ShapeError::invalid(format!(
            "{} labels for {m} samples: give exactly one label per sample",
            data.labels.len()
        ));
        return Err(Error::shape(op, e));
    }
    if let Some((i, l)) = data.labels.iter().enumerate().find(|(_, l)| **l >= classes) {
        let e = ShapeError::invalid(format!(
            "sample {i} has label {l}, but the network has {classes} outputs: labels go from 0 to {}",
            classes - 1
        ));
        return Err(Error::shape(op, e));
    }
    Ok(())
}

fn bytes(floats: usize) -> u64 {
    (floats * 4) as u64
}
