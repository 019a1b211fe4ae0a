//! What is in a tensor: a shape and a flat, row-major block of numbers.

use gpu_context::{GpuContext, ReadbackBuffer};

use crate::Error;
use crate::rng::SplitMix64;

// ANCHOR: tensor2d
/// A 2D tensor on the CPU: `rows × cols` numbers stored row by row (row-major).
///
/// Element (r, c) lives at `data[r * cols + c]`: walking along a row touches neighbouring
/// memory, walking down a column jumps `cols` elements at a time.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor2D {
    rows: usize,
    cols: usize,
    data: Vec<f32>,
}
// ANCHOR_END: tensor2d

impl Tensor2D {
    /// A tensor from its shape and data; the data must hold exactly `rows * cols` numbers.
    pub fn new(rows: usize, cols: usize, data: Vec<f32>) -> Result<Self, Error> {
        if data.len() != rows * cols {
            return Err(Error::Shape {
                op: "Tensor2D::new",
                detail: format!(
                    "a {rows}×{cols} tensor needs {} numbers, got {}: fix the shape or the data",
                    rows * cols,
                    data.len()
                ),
            });
        }
        Ok(Self { rows, cols, data })
    }

    pub fn zeros(rows: usize, cols: usize) -> Self {
        Self {
            rows,
            cols,
            data: vec![0.0; rows * cols],
        }
    }

    pub fn identity(n: usize) -> Self {
        let mut t = Self::zeros(n, n);
        for i in 0..n {
            t.data[i * n + i] = 1.0;
        }
        t
    }

    /// From nested arrays, for tests and examples: `Tensor2D::from_rows(&[[1.0, 2.0]])`.
    pub fn from_rows<const C: usize>(rows: &[[f32; C]]) -> Self {
        Self {
            rows: rows.len(),
            cols: C,
            data: rows.iter().flatten().copied().collect(),
        }
    }

    /// Uniform random numbers in [-scale, scale), reproducible from the generator's seed.
    pub fn random(rows: usize, cols: usize, scale: f32, rng: &mut SplitMix64) -> Self {
        Self {
            rows,
            cols,
            data: (0..rows * cols).map(|_| rng.symmetric(scale)).collect(),
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    pub fn data(&self) -> &[f32] {
        &self.data
    }

    pub fn data_mut(&mut self) -> &mut [f32] {
        &mut self.data
    }

    pub fn get(&self, row: usize, col: usize) -> f32 {
        self.data[row * self.cols + col]
    }

    pub fn bytes(&self) -> u64 {
        (self.data.len() * std::mem::size_of::<f32>()) as u64
    }

    /// The largest absolute difference to `other`: infinity if the shapes differ or if either
    /// side holds a NaN (which `f32::max` would silently skip, letting a broken kernel pass).
    ///
    /// ```
    /// # use computational_graphs::tensor::Tensor2D;
    /// let a = Tensor2D::from_rows(&[[1.0, 2.0]]);
    /// assert_eq!(a.max_abs_diff(&Tensor2D::from_rows(&[[1.5, 2.0]])), 0.5);
    /// assert_eq!(a.max_abs_diff(&Tensor2D::from_rows(&[[1.0, f32::NAN]])), f32::INFINITY);
    /// ```
    pub fn max_abs_diff(&self, other: &Tensor2D) -> f32 {
        if self.shape() != other.shape() {
            return f32::INFINITY;
        }
        self.data
            .iter()
            .zip(&other.data)
            .map(|(a, b)| {
                let d = (a - b).abs();
                if d.is_nan() { f32::INFINITY } else { d }
            })
            .fold(0.0, f32::max)
    }
}

// ANCHOR: gpu_tensor
/// A 2D tensor in GPU memory: the same shape, and a storage buffer instead of a `Vec`.
///
/// No staging buffer lives here: uploads go through the queue, and read-backs through a
/// [`ReadbackBuffer`] that the caller keeps (and can reuse) only where one is needed.
pub struct GpuTensor {
    pub rows: usize,
    pub cols: usize,
    pub buffer: gpu_context::wgpu::Buffer,
}
// ANCHOR_END: gpu_tensor

impl GpuTensor {
    pub fn upload(ctx: &GpuContext, label: &str, t: &Tensor2D) -> Result<Self, Error> {
        Ok(Self {
            rows: t.rows,
            cols: t.cols,
            buffer: ctx.upload(label, t.data())?,
        })
    }

    /// A zero-filled tensor, checked against the device's buffer limits before allocation.
    pub fn zeros(ctx: &GpuContext, label: &str, rows: usize, cols: usize) -> Result<Self, Error> {
        let bytes = (rows * cols * std::mem::size_of::<f32>()) as u64;
        Ok(Self {
            rows,
            cols,
            buffer: ctx.storage_buffer(label, bytes)?,
        })
    }

    /// Copies the tensor back with a one-off staging buffer (immediate mode does this).
    pub fn download(&self, ctx: &GpuContext) -> Result<Tensor2D, Error> {
        gpu_context::block_on(self.download_async(ctx))
    }

    /// [`GpuTensor::download`] as a future, for a caller that must not block (a web page).
    pub async fn download_async(&self, ctx: &GpuContext) -> Result<Tensor2D, Error> {
        let mut data: Vec<f32> = ctx.download_async(&self.buffer).await?;
        data.truncate(self.rows * self.cols);
        Tensor2D::new(self.rows, self.cols, data)
    }

    /// Copies the tensor back through a read-back buffer the caller keeps between calls.
    pub fn read_with(
        &self,
        ctx: &GpuContext,
        readback: &ReadbackBuffer,
    ) -> Result<Tensor2D, Error> {
        let mut data: Vec<f32> = readback.read(ctx, &self.buffer)?;
        data.truncate(self.rows * self.cols);
        Tensor2D::new(self.rows, self.cols, data)
    }
}
