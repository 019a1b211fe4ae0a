//! A graph made ready for the GPU: device buffers, pipelines and bind groups created once, then
//! recorded into one command buffer per run. Both the GPU graph runner (hand-written kernels)
//! and the op-code compiler (generated kernels) produce one of these.

use gpu_context::wgpu;
use gpu_context::{GpuContext, ReadbackBuffer};

use crate::Error;
use crate::graph::{BufferId, Contents, NodeKind, VerifiedGraph};
use crate::ops::gpu::Dispatch;
use crate::tensor::Tensor2D;

/// One recorded step.
pub enum Step {
    Dispatch(Dispatch),
    /// A device-to-device copy (a HostToDevice whose source came from the device).
    Copy {
        from: BufferId,
        to: BufferId,
        bytes: u64,
    },
}

pub struct GpuProgram {
    buffers: Vec<Option<wgpu::Buffer>>,
    steps: Vec<Step>,
    /// (index among the graph's inputs, device buffer it is uploaded to)
    uploads: Vec<(usize, BufferId)>,
    /// (device buffer, rows, cols, reusable read-back buffer)
    downloads: Vec<(BufferId, usize, usize, ReadbackBuffer)>,
    /// The graph's input declarations, for the same input check as the CPU runner's.
    inputs_of: VerifiedGraph,
}

impl GpuProgram {
    /// Allocates every device buffer the graph uses and uploads the parameters (once).
    /// Sizes are checked against the device's limits before anything is allocated.
    pub fn allocate(
        ctx: &GpuContext,
        graph: &VerifiedGraph,
    ) -> Result<Vec<Option<wgpu::Buffer>>, Error> {
        for (id, b) in graph.buffers().iter().enumerate() {
            if graph.is_device(id) && graph.is_used(id) {
                ctx.check_buffer_size(&b.name, (b.rows * b.cols * 4) as u64)?;
            }
        }
        let mut buffers = Vec::with_capacity(graph.buffers().len());
        for (id, b) in graph.buffers().iter().enumerate() {
            buffers.push(if !graph.is_device(id) || !graph.is_used(id) {
                None
            } else if let Contents::Parameter(t) = &b.contents {
                Some(ctx.upload(&b.name, t.data())?)
            } else {
                Some(ctx.storage_buffer(&b.name, (b.rows * b.cols * 4) as u64)?)
            });
        }
        Ok(buffers)
    }

    /// Wires up transfers around the given compute dispatches. `dispatches` pairs each dispatch
    /// with the node it runs at (a fused kernel runs at its last node; the others get none; a
    /// node with several dispatches, such as a split-K Linear, runs them in the given order);
    /// transfer nodes become uploads, device copies and read-backs.
    pub fn new(
        ctx: &GpuContext,
        graph: &VerifiedGraph,
        buffers: Vec<Option<wgpu::Buffer>>,
        dispatches: Vec<(usize, Dispatch)>,
    ) -> Result<Self, Error> {
        let inputs = graph.inputs();
        let mut at_node: Vec<Vec<Dispatch>> =
            (0..graph.nodes().len()).map(|_| Vec::new()).collect();
        for (node, d) in dispatches {
            at_node[node].push(d);
        }
        let (mut steps, mut uploads, mut downloads) = (Vec::new(), Vec::new(), Vec::new());
        for (index, node) in graph.nodes().iter().enumerate() {
            let (from, to) = (node.buffers[0], node.output());
            match node.kind {
                NodeKind::HostToDevice => match inputs.iter().position(|&i| i == from) {
                    Some(k) => uploads.push((k, to)),
                    None => {
                        // The host value came from a DeviceToHost: copy on the device instead.
                        let source = graph.nodes().iter().find(|n| n.output() == from);
                        let device = source
                            .map(|n| n.buffers[0])
                            .expect("validated: written before read");
                        let bytes = (graph.buffer(to).rows * graph.buffer(to).cols * 4) as u64;
                        steps.push(Step::Copy {
                            from: device,
                            to,
                            bytes,
                        });
                    }
                },
                NodeKind::DeviceToHost => {
                    let b = graph.buffer(from);
                    let readback = ReadbackBuffer::new(ctx, (b.rows * b.cols * 4) as u64)?;
                    downloads.push((from, b.rows, b.cols, readback));
                }
                _ => steps.extend(
                    std::mem::take(&mut at_node[index])
                        .into_iter()
                        .map(Step::Dispatch),
                ),
            }
        }
        Ok(Self {
            buffers,
            steps,
            uploads,
            downloads,
            inputs_of: graph.inputs_only(),
        })
    }

    pub fn buffer(&self, id: BufferId) -> &wgpu::Buffer {
        self.buffers[id].as_ref().expect("a used device buffer")
    }

    pub fn dispatch_count(&self) -> usize {
        self.steps
            .iter()
            .filter(|s| matches!(s, Step::Dispatch(_)))
            .count()
    }

    // ANCHOR: run_loop
    /// Uploads the inputs once, records the graph `iterations` times into one command buffer,
    /// submits once, and waits only to read the results back.
    pub fn run_loop(
        &self,
        ctx: &GpuContext,
        inputs: &[Tensor2D],
        iterations: usize,
    ) -> Result<Vec<Tensor2D>, Error> {
        let _run = tracing::info_span!("run_gpu", iterations).entered();
        gpu_context::block_on(self.run_loop_async(ctx, inputs, iterations))
    }

    /// The same steps as a future: a web page, which must never block, awaits this.
    pub async fn run_loop_async(
        &self,
        ctx: &GpuContext,
        inputs: &[Tensor2D],
        iterations: usize,
    ) -> Result<Vec<Tensor2D>, Error> {
        self.write_inputs(ctx, inputs)?;
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        self.record(&mut encoder, iterations);
        self.record_downloads(&mut encoder);
        ctx.queue.submit([encoder.finish()]);
        self.read_outputs_async(ctx).await
    }
    // ANCHOR_END: run_loop

    pub fn run(&self, ctx: &GpuContext, inputs: &[Tensor2D]) -> Result<Vec<Tensor2D>, Error> {
        self.run_loop(ctx, inputs, 1)
    }

    /// Copies the inputs into their device buffers (through the queue: no staging buffer of ours).
    pub fn write_inputs(&self, ctx: &GpuContext, inputs: &[Tensor2D]) -> Result<(), Error> {
        self.inputs_of.check_inputs(inputs)?;
        for &(k, to) in &self.uploads {
            let t = inputs.get(k).ok_or_else(|| Error::Shape {
                op: "graph input",
                detail: format!(
                    "the graph needs input {k}, but only {} were given",
                    inputs.len()
                ),
            })?;
            if (t.rows() * t.cols() * 4) as u64 > self.buffer(to).size() {
                return Err(Error::Shape {
                    op: "graph input",
                    detail: format!(
                        "input {k} is {}×{}, larger than the graph declares",
                        t.rows(),
                        t.cols()
                    ),
                });
            }
            ctx.queue
                .write_buffer(self.buffer(to), 0, bytemuck::cast_slice(t.data()));
        }
        Ok(())
    }

    // ANCHOR: record
    /// Records the compute steps `iterations` times. Dispatches in one pass: wgpu makes each
    /// dispatch see the writes of the ones before it.
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder, iterations: usize) {
        for _ in 0..iterations {
            let mut i = 0;
            while i < self.steps.len() {
                if let Step::Copy { from, to, bytes } = &self.steps[i] {
                    encoder.copy_buffer_to_buffer(
                        self.buffer(*from),
                        0,
                        self.buffer(*to),
                        0,
                        *bytes,
                    );
                    i += 1;
                    continue;
                }
                let mut pass = encoder.begin_compute_pass(&Default::default());
                while let Some(Step::Dispatch(d)) = self.steps.get(i) {
                    d.record(&mut pass);
                    i += 1;
                }
            }
        }
    }
    // ANCHOR_END: record

    pub fn record_downloads(&self, encoder: &mut wgpu::CommandEncoder) {
        for (from, rows, cols, readback) in &self.downloads {
            let bytes = (rows * cols * 4) as u64;
            if bytes > 0 {
                encoder.copy_buffer_to_buffer(self.buffer(*from), 0, readback.buffer(), 0, bytes);
            }
        }
    }

    /// Waits for the submitted work and maps the read-back buffers (reused on every run).
    pub fn read_outputs(&self, ctx: &GpuContext) -> Result<Vec<Tensor2D>, Error> {
        gpu_context::block_on(self.read_outputs_async(ctx))
    }

    /// [`GpuProgram::read_outputs`] as a future.
    pub async fn read_outputs_async(&self, ctx: &GpuContext) -> Result<Vec<Tensor2D>, Error> {
        let mut out = Vec::with_capacity(self.downloads.len());
        for (_, rows, cols, readback) in &self.downloads {
            let bytes = (rows * cols * 4) as u64;
            let data: Vec<f32> = if bytes == 0 {
                Vec::new()
            } else {
                readback.read_recorded_async(ctx, bytes).await?
            };
            out.push(Tensor2D::new(*rows, *cols, data)?);
        }
        Ok(out)
    }
}
