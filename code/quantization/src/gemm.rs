//! One tiled GEMM kernel in four number formats, to compare what the format alone changes.

use computational_graphs::rng::SplitMix64;
use gpu_context::{GpuContext, GpuError, wgpu};
use half::f16;

use crate::int8::pack_i8x4;

const TEMPLATE: &str = include_str!("wgsl/gemm_tiled.wgsl");
const DOT4_SHIFTS: &str = include_str!("wgsl/dot4_shifts.wgsl");

/// The number formats of the GEMM figure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GemmKind {
    F32,
    /// f16 inputs, products summed four at a time in f16, then in f32.
    F16,
    /// int8 inputs, `dot4I8Packed`, i32 sums.
    Int8,
    /// int8 with the byte products written out as shifts.
    Int8Shifts,
}

impl GemmKind {
    pub const ALL: [GemmKind; 4] = [
        GemmKind::F32,
        GemmKind::F16,
        GemmKind::Int8,
        GemmKind::Int8Shifts,
    ];

    pub fn label(self) -> &'static str {
        match self {
            GemmKind::F32 => "f32",
            GemmKind::F16 => "f16",
            GemmKind::Int8 => "int8 dot4I8Packed",
            GemmKind::Int8Shifts => "int8 shifts",
        }
    }

    /// Bytes of one four-value word.
    fn word_bytes(self) -> usize {
        match self {
            GemmKind::F32 => 16,
            GemmKind::F16 => 8,
            GemmKind::Int8 | GemmKind::Int8Shifts => 4,
        }
    }

    // ANCHOR: source
    /// The template with this format's word type, zero and four-value dot product filled in.
    pub fn source(self) -> String {
        let (word, zero, acc, dot, prelude) = match self {
            GemmKind::F32 => ("vec4<f32>", "vec4<f32>()", "0.0", "dot(A, B)", ""),
            GemmKind::F16 => (
                "vec4<f16>",
                "vec4<f16>()",
                "0.0",
                "f32(dot(A, B))",
                "enable f16;\n",
            ),
            GemmKind::Int8 => ("u32", "0u", "0i", "dot4I8Packed(A, B)", ""),
            GemmKind::Int8Shifts => ("u32", "0u", "0i", "dot4(A, B)", DOT4_SHIFTS),
        };
        let dot = dot
            .replace('A', "tile_a[l.y][i]")
            .replace('B', "tile_b[l.x][i]");
        let body = TEMPLATE
            .replace("WORD_ZERO", zero)
            .replace("ACC_ZERO", acc)
            .replace("DOT(tile_a[l.y][i], tile_b[l.x][i])", &dot)
            .replace("WORD", word);
        format!("{prelude}{body}")
    }
    // ANCHOR_END: source

    /// [`GemmKind::source`] with `tile_b` laid out as `layout` says.
    pub fn source_with(self, layout: TileLayout) -> String {
        let source = self.source();
        match layout {
            TileLayout::Strided => source,
            TileLayout::Padded => {
                let word = source
                    .lines()
                    .find_map(|l| l.strip_prefix("var<workgroup> tile_b: array<array<"))
                    .and_then(|rest| rest.strip_suffix(", 16>, 16>;"))
                    .expect("the template declares tile_b as a 16×16 array");
                source.replace(
                    &format!("tile_b: array<array<{word}, 16>, 16>;"),
                    &format!("tile_b: array<array<{word}, 17>, 16>;"),
                )
            }
        }
    }

    /// The device feature this format needs beyond the defaults.
    pub fn feature(self) -> wgpu::Features {
        match self {
            GemmKind::F16 => wgpu::Features::SHADER_F16,
            _ => wgpu::Features::empty(),
        }
    }
}

/// How `tile_b` sits in workgroup memory. In the inner loop neighbouring threads read
/// `tile_b[l.x][i]`, one row of 16 words apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileLayout {
    /// 16 words per row: neighbouring threads' words are 16 words apart, so with 4-byte
    /// banks they fall on the same few banks.
    Strided,
    /// 17 words per row: one spare word shifts each row onto other banks.
    Padded,
}

/// Random inputs of an m×k by k×n product in one format, as the bytes the kernel reads, and
/// the same numbers as f64 for a reference.
pub struct GemmInputs {
    pub a: Vec<u8>,
    pub b_t: Vec<u8>,
    pub a_values: Vec<f64>,
    pub b_t_values: Vec<f64>,
}

impl GemmInputs {
    /// `k` is rounded up to a multiple of 4 by padding with zeros.
    pub fn random(kind: GemmKind, m: usize, n: usize, k: usize, seed: u64) -> Self {
        let k = k.div_ceil(4) * 4;
        let mut rng = SplitMix64::new(seed);
        let mut make = |count: usize| -> (Vec<u8>, Vec<f64>) {
            match kind {
                GemmKind::F32 => {
                    let v: Vec<f32> = (0..count).map(|_| rng.symmetric(1.0)).collect();
                    (
                        bytemuck::cast_slice(&v).to_vec(),
                        v.iter().map(|&x| f64::from(x)).collect(),
                    )
                }
                GemmKind::F16 => {
                    let v: Vec<f16> = (0..count)
                        .map(|_| f16::from_f32(rng.symmetric(1.0)))
                        .collect();
                    (
                        bytemuck::cast_slice(&v).to_vec(),
                        v.iter().map(|x| x.to_f64()).collect(),
                    )
                }
                GemmKind::Int8 | GemmKind::Int8Shifts => {
                    let v: Vec<i8> = (0..count)
                        .map(|_| (rng.next_u64() >> 56) as u8 as i8)
                        .collect();
                    let words: Vec<u32> = v
                        .chunks(4)
                        .map(|c| pack_i8x4([c[0], c[1], c[2], c[3]]))
                        .collect();
                    (
                        bytemuck::cast_slice(&words).to_vec(),
                        v.iter().map(|&x| f64::from(x)).collect(),
                    )
                }
            }
        };
        let (a, a_values) = make(m * k);
        let (b_t, b_t_values) = make(n * k);
        Self {
            a,
            b_t,
            a_values,
            b_t_values,
        }
    }
}

/// A GEMM set up on the device: buffers bound, pipeline compiled, ready to dispatch.
pub struct GemmOnDevice {
    pub kind: GemmKind,
    pub m: usize,
    pub n: usize,
    pub k: usize,
    pipeline: std::sync::Arc<wgpu::ComputePipeline>,
    bind_group: wgpu::BindGroup,
    out: wgpu::Buffer,
}

impl GemmOnDevice {
    /// Checks the format's feature first, so a device without f16 gets a clear error.
    pub fn new(
        ctx: &GpuContext,
        kind: GemmKind,
        m: usize,
        n: usize,
        k: usize,
        seed: u64,
    ) -> Result<Self, GpuError> {
        check_feature(ctx, kind)?;
        let inputs = GemmInputs::random(kind, m, n, k, seed);
        Self::with_inputs(ctx, kind, m, n, k, &inputs)
    }

    /// [`GemmOnDevice::new`] with a chosen layout of `tile_b`.
    pub fn new_with_layout(
        ctx: &GpuContext,
        kind: GemmKind,
        layout: TileLayout,
        (m, n, k): (usize, usize, usize),
        seed: u64,
    ) -> Result<Self, GpuError> {
        check_feature(ctx, kind)?;
        let inputs = GemmInputs::random(kind, m, n, k, seed);
        Self::with_inputs_and_layout(ctx, kind, layout, (m, n, k), &inputs)
    }

    pub fn with_inputs(
        ctx: &GpuContext,
        kind: GemmKind,
        m: usize,
        n: usize,
        k: usize,
        inputs: &GemmInputs,
    ) -> Result<Self, GpuError> {
        Self::with_inputs_and_layout(ctx, kind, TileLayout::Strided, (m, n, k), inputs)
    }

    pub fn with_inputs_and_layout(
        ctx: &GpuContext,
        kind: GemmKind,
        layout: TileLayout,
        (m, n, k): (usize, usize, usize),
        inputs: &GemmInputs,
    ) -> Result<Self, GpuError> {
        let k = k.div_ceil(4) * 4;
        let words = (k / 4) as u32;
        let params = ctx.upload("gemm params", &[m as u32, n as u32, words])?;
        let a = ctx.upload::<u8>("gemm a", &inputs.a)?;
        let b = ctx.upload::<u8>("gemm b", &inputs.b_t)?;
        let out = ctx.storage_buffer("gemm c", (m * n * 4) as u64)?;
        let label = match layout {
            TileLayout::Strided => kind.label().to_string(),
            TileLayout::Padded => format!("{} padded", kind.label()),
        };
        let pipeline = ctx.cached_pipeline(&label, &kind.source_with(layout), "main")?;
        let bind_group = ctx.bind_buffers(&pipeline, &[&params, &a, &b, &out]);
        debug_assert_eq!(inputs.a.len(), m * (k / 4) * kind.word_bytes());
        Ok(Self {
            kind,
            m,
            n,
            k,
            pipeline,
            bind_group,
            out,
        })
    }

    /// Records `times` dispatches of the whole product into one compute pass.
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder, times: usize) {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind_group, &[]);
        for _ in 0..times {
            pass.dispatch_workgroups(self.n.div_ceil(16) as u32, self.m.div_ceil(16) as u32, 1);
        }
    }

    /// Seconds per product, from `times` products in one submission.
    pub fn time(&self, ctx: &GpuContext, times: usize) -> Result<f64, GpuError> {
        let run = ctx.time_commands(|e| self.record(e, times))?;
        Ok(run.time.as_secs_f64() / times as f64)
    }

    pub fn result(&self, ctx: &GpuContext) -> Result<Vec<f32>, GpuError> {
        gpu_context::block_on(self.result_async(ctx))
    }

    /// [`GemmOnDevice::result`] as a future, for a caller that must not block (a web page).
    pub async fn result_async(&self, ctx: &GpuContext) -> Result<Vec<f32>, GpuError> {
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        self.record(&mut encoder, 1);
        ctx.queue.submit([encoder.finish()]);
        ctx.download_async(&self.out).await
    }

    /// Multiply-adds counted as two operations each.
    pub fn ops(&self) -> f64 {
        2.0 * self.m as f64 * self.n as f64 * self.k as f64
    }
}

/// A clear error where the device lacks the format's feature.
fn check_feature(ctx: &GpuContext, kind: GemmKind) -> Result<(), GpuError> {
    if ctx.device.features().contains(kind.feature()) {
        return Ok(());
    }
    Err(GpuError::MissingFeature {
        adapter: ctx.adapter.get_info().name,
        feature: format!("{:?} (for the {} GEMM)", kind.feature(), kind.label()),
    })
}

/// The exact product in f64 (m×n), for checking.
pub fn reference(inputs: &GemmInputs, m: usize, n: usize, k: usize) -> Vec<f64> {
    let k = k.div_ceil(4) * 4;
    let mut out = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            out[i * n + j] = (0..k)
                .map(|p| inputs.a_values[i * k + p] * inputs.b_t_values[j * k + p])
                .sum();
        }
    }
    out
}
