//! What the parts measure and how they measure it: the model, the requests, the two servers they
//! compare and the warm-up before timing.

use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;
use profiling_lab::inference::{Changes, InferenceError, PackedModel, Server, WeightFormat};
use quantization::model::{Mlp, spirals};

/// Batch sizes: one request at a time, and a batch of 64.
pub const BATCHES: [usize; 2] = [1, 64];
pub const FORMATS: [WeightFormat; 2] = [WeightFormat::Int8, WeightFormat::Group4 { group: 32 }];

/// The baseline or the server with all three changes, as the latency and stages parts compare
/// them.
pub fn start(
    ctx: &GpuContext,
    fused: bool,
    model: PackedModel,
    batch: usize,
) -> Result<Server, InferenceError> {
    let changes = if fused { Changes::ALL } else { Changes::NONE };
    Server::new(ctx, model, changes, batch)
}

/// `unfused` for the baseline, `fused` for all three changes, else the changes made.
pub fn server_label(server: &Server) -> String {
    match server.changes() {
        Changes::NONE => "unfused".into(),
        Changes::ALL => "fused".into(),
        other => other.label(),
    }
}

/// Untimed requests before measuring: at least 10, and at least 0.3 s of them, so that pipelines
/// are compiled, the allocator has its blocks and the GPU's clocks have risen from idle.
pub fn warm_up(
    ctx: &GpuContext,
    server: &mut Server,
    requests: &Requests,
    batch: usize,
) -> Result<(), InferenceError> {
    let start = std::time::Instant::now();
    let mut i = 0;
    while i < 10 || start.elapsed() < std::time::Duration::from_millis(300) {
        server.infer(ctx, &requests.get(i, batch))?;
        i += 1;
    }
    Ok(())
}

/// The widened spiral classifier (random weights: latency does not depend on their values).
pub fn model(hidden: usize) -> Mlp {
    Mlp::new(&[2, hidden, hidden, hidden, 3], 5)
}

/// Request `i` of `batch` rows, taken in turn from a pool of spiral points.
pub struct Requests {
    pool: Tensor2D,
}

impl Default for Requests {
    fn default() -> Self {
        Self {
            pool: spirals(3, 200, 8).x,
        }
    }
}

impl Requests {
    pub fn get(&self, i: usize, batch: usize) -> Tensor2D {
        let rows = self.pool.rows();
        let data = (0..batch)
            .flat_map(|r| {
                let row = (i * batch + r) % rows;
                self.pool.data()[row * 2..row * 2 + 2].to_vec()
            })
            .collect();
        Tensor2D::new(batch, 2, data).expect("two columns per point")
    }
}
