//! wgpu's experimental cooperative matrices (tensor cores on NVIDIA, simdgroup matrices on
//! Apple): ask the adapter what it supports, open a device with the feature, and run a GEMM
//! on them, checked against the CPU and timed beside the tiled WGSL kernel of [`crate::gemm`].
//!
//! [`GpuContext`](gpu_context::GpuContext) does not opt into experimental features, so this
//! module opens its own device.

use std::time::Instant;

use gpu_context::wgpu;
use half::f16;
use thiserror::Error;
use wgpu::util::DeviceExt;
use wgpu::{CooperativeMatrixProperties as Config, CooperativeScalarType as Scalar};

use crate::gemm::{GemmKind, TileLayout};

const TEMPLATE: &str = include_str!("wgsl/coop_matrix_gemm.wgsl");

/// Why the cooperative-matrix GEMM could not run.
#[derive(Debug, Error)]
pub enum CoopError {
    #[error("no GPU adapter: {0}")]
    NoAdapter(String),
    #[error(
        "{adapter} does not offer wgpu's EXPERIMENTAL_COOPERATIVE_MATRIX ({configs} usable \
         configurations reported): wgpu 30 needs Vulkan's VK_KHR_cooperative_matrix with \
         subgroup-scope 8×8 or 16×16 tiles and the Vulkan memory model at device scope; \
         run this on a GPU whose driver has them (NVIDIA since Turing, recent AMD)"
    )]
    Unsupported { adapter: String, configs: usize },
    #[error(
        "{adapter} offers cooperative matrices, but none in a layout this GEMM uses: {configs:?}"
    )]
    NoUsableConfig {
        adapter: String,
        configs: Vec<Config>,
    },
    #[error("opening the device with cooperative matrices: {0}")]
    Device(String),
    #[error("the {what} shader or pipeline was rejected: {detail}")]
    Pipeline { what: String, detail: String },
    #[error("the GPU failed: {0}")]
    Execution(String),
    #[error("{what}: {got} at ({row}, {col}) where the exact product is {want}")]
    Mismatch {
        what: String,
        row: usize,
        col: usize,
        got: f64,
        want: f64,
    },
    #[error("{0}")]
    Size(String),
}

// ANCHOR: coop_open
/// A device opened with `EXPERIMENTAL_COOPERATIVE_MATRIX`, and the configurations it supports.
pub struct CoopGpu {
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub configs: Vec<Config>,
}

impl CoopGpu {
    /// The high-performance adapter (the software one if there is none), with the feature.
    pub fn open() -> Result<Self, CoopError> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter =
            gpu_context::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                ..Default::default()
            }))
            .map_err(|e| CoopError::NoAdapter(e.to_string()))?;
        let name = adapter.get_info().name;
        let configs = adapter.cooperative_matrix_properties();
        let feature = wgpu::Features::EXPERIMENTAL_COOPERATIVE_MATRIX;
        if !adapter.features().contains(feature) {
            return Err(CoopError::Unsupported {
                adapter: name,
                configs: configs.len(),
            });
        }
        let wanted = feature | wgpu::Features::SHADER_F16;
        let (device, queue) =
            gpu_context::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
                label: Some("cooperative matrices"),
                required_features: wanted & adapter.features(),
                required_limits: adapter.limits(),
                // SAFETY: the opt-in wgpu asks for: experimental features may have bugs, which
                // the CPU check of every result below would catch.
                experimental_features: unsafe { wgpu::ExperimentalFeatures::enabled() },
                ..Default::default()
            }))
            .map_err(|e| CoopError::Device(e.to_string()))?;
        Ok(Self {
            adapter,
            device,
            queue,
            configs,
        })
    }
    // ANCHOR_END: coop_open

    pub fn adapter_name(&self) -> String {
        self.adapter.get_info().name
    }

    /// The GEMM shapes this device can run: 16×16×16 before 8×8×8, f32 sums before f16.
    pub fn usable(&self) -> Vec<CoopShape> {
        let mut found: Vec<CoopShape> = CoopShape::PREFERRED
            .into_iter()
            .filter(|s| self.configs.iter().any(|c| s.matches(c)))
            .filter(|s| {
                s.ab != Scalar::F16 || self.device.features().contains(wgpu::Features::SHADER_F16)
            })
            .collect();
        found.dedup();
        found
    }
}

/// One cooperative-matrix layout: S×S tiles, inputs of type `ab`, sums of type `cr`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoopShape {
    pub size: u32,
    pub ab: Scalar,
    pub cr: Scalar,
}

impl CoopShape {
    pub const PREFERRED: [CoopShape; 3] = [
        CoopShape {
            size: 16,
            ab: Scalar::F16,
            cr: Scalar::F32,
        },
        CoopShape {
            size: 16,
            ab: Scalar::F16,
            cr: Scalar::F16,
        },
        CoopShape {
            size: 8,
            ab: Scalar::F32,
            cr: Scalar::F32,
        },
    ];

    fn matches(&self, c: &Config) -> bool {
        (c.m_size, c.n_size, c.k_size) == (self.size, self.size, self.size)
            && c.ab_type == self.ab
            && c.cr_type == self.cr
    }

    pub fn label(&self) -> String {
        format!(
            "coop {0}×{0}×{0} {1}→{2}",
            self.size,
            wgsl_type(self.ab),
            wgsl_type(self.cr)
        )
    }

    /// The template with this shape's tile size and types filled in.
    pub fn source(&self) -> String {
        let body = TEMPLATE
            .replace("coop_matSxS", &format!("coop_mat{0}x{0}", self.size))
            .replace("<AB", &format!("<{}", wgsl_type(self.ab)))
            .replace("<CR", &format!("<{}", wgsl_type(self.cr)));
        let f16 = [self.ab, self.cr].contains(&Scalar::F16);
        format!(
            "{}enable wgpu_cooperative_matrix;\nconst S: u32 = {}u;\n{body}",
            if f16 { "enable f16;\n" } else { "" },
            self.size
        )
    }

    /// Sizes must fill whole 2S×2S blocks of C and whole S steps of k.
    pub fn check_sizes(&self, m: usize, n: usize, k: usize) -> Result<(), CoopError> {
        let (block, step) = (2 * self.size as usize, self.size as usize);
        if !m.is_multiple_of(block)
            || !n.is_multiple_of(block)
            || !k.is_multiple_of(step)
            || m * n * k == 0
        {
            return Err(CoopError::Size(format!(
                "{}: m and n must be multiples of {block} and k of {step}, got {m}×{n}×{k}",
                self.label()
            )));
        }
        Ok(())
    }
}

fn wgsl_type(s: Scalar) -> &'static str {
    match s {
        Scalar::F16 => "f16",
        Scalar::F32 => "f32",
        Scalar::I32 => "i32",
        Scalar::U32 => "u32",
    }
}

/// Small integers (−2..=2) as inputs: every product and sum up to 2048 is exact in f16 and
/// f32, so a correct kernel matches the CPU exactly whatever the accumulator type.
pub fn small_integer_matrix(rows: usize, cols: usize, seed: u64) -> Vec<f32> {
    let mut rng = computational_graphs::rng::SplitMix64::new(seed);
    (0..rows * cols)
        .map(|_| (rng.next_u64() % 5) as f32 - 2.0)
        .collect()
}

/// The exact product of row-major A (m×k) and B (k×n).
pub fn reference(a: &[f32], b: &[f32], m: usize, n: usize, k: usize) -> Vec<f64> {
    let mut c = vec![0.0; m * n];
    for i in 0..m {
        for p in 0..k {
            let x = f64::from(a[i * k + p]);
            for j in 0..n {
                c[i * n + j] += x * f64::from(b[p * n + j]);
            }
        }
    }
    c
}

/// Compares a result with the exact product, which it must equal (small-integer inputs).
pub fn check_exact(what: &str, got: &[f32], want: &[f64], n: usize) -> Result<(), CoopError> {
    match got.iter().zip(want).position(|(g, w)| f64::from(*g) != *w) {
        None => Ok(()),
        Some(i) => Err(CoopError::Mismatch {
            what: what.into(),
            row: i / n,
            col: i % n,
            got: f64::from(got[i]),
            want: want[i],
        }),
    }
}

/// A compute pipeline ready to dispatch, with its bind group and output buffer.
pub struct Prepared {
    pub label: String,
    pipeline: wgpu::ComputePipeline,
    bind_group: wgpu::BindGroup,
    out: wgpu::Buffer,
    out_f16: bool,
    groups: [u32; 3],
    pub ops: f64,
    m: usize,
    n: usize,
}

impl CoopGpu {
    fn buffer(&self, label: &str, bytes: &[u8]) -> wgpu::Buffer {
        self.device
            .create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytes,
                usage: wgpu::BufferUsages::STORAGE,
            })
    }

    /// Compiles `source` under an error scope, so a rejected shader is an error, not a panic.
    fn pipeline(&self, label: &str, source: &str) -> Result<wgpu::ComputePipeline, CoopError> {
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = self
            .device
            .create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
        let pipeline = self
            .device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(label),
                layout: None,
                module: &module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            });
        match gpu_context::block_on(scope.pop()) {
            None => Ok(pipeline),
            Some(e) => Err(CoopError::Pipeline {
                what: label.into(),
                detail: e.to_string(),
            }),
        }
    }

    fn bind(&self, pipeline: &wgpu::ComputePipeline, buffers: &[&wgpu::Buffer]) -> wgpu::BindGroup {
        let entries: Vec<_> = buffers
            .iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        })
    }

    fn output(&self, bytes: usize) -> wgpu::Buffer {
        self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("c"),
            size: bytes as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        })
    }

    // ANCHOR: coop_prepare
    /// The cooperative-matrix GEMM of row-major A (m×k) and B (k×n).
    pub fn prepare_coop(
        &self,
        shape: CoopShape,
        a: &[f32],
        b: &[f32],
        (m, n, k): (usize, usize, usize),
    ) -> Result<Prepared, CoopError> {
        shape.check_sizes(m, n, k)?;
        let as_bytes = |v: &[f32], t: Scalar| -> Vec<u8> {
            match t {
                Scalar::F16 => {
                    bytemuck::cast_slice(&v.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>())
                        .to_vec()
                }
                _ => bytemuck::cast_slice(v).to_vec(),
            }
        };
        let s = shape.size as usize;
        let dims = [m as u32, n as u32, k as u32];
        let zeros = vec![0.0f32; s * s];
        let cr_bytes = if shape.cr == Scalar::F16 { 2 } else { 4 };
        let label = shape.label();
        let pipeline = self.pipeline(&label, &shape.source())?;
        let out = self.output(m * n * cr_bytes);
        let buffers = [
            self.buffer("dims", bytemuck::cast_slice(&dims)),
            self.buffer("a", &as_bytes(a, shape.ab)),
            self.buffer("b", &as_bytes(b, shape.ab)),
            self.buffer("zeros", &as_bytes(&zeros, shape.cr)),
        ];
        let bind_group = self.bind(
            &pipeline,
            &[&buffers[0], &buffers[1], &buffers[2], &buffers[3], &out],
        );
        Ok(Prepared {
            label,
            pipeline,
            bind_group,
            out,
            out_f16: shape.cr == Scalar::F16,
            groups: [(n / (2 * s)) as u32, (m / (2 * s)) as u32, 1],
            ops: 2.0 * (m * n * k) as f64,
            m,
            n,
        })
    }
    // ANCHOR_END: coop_prepare

    /// The tiled WGSL GEMM of [`crate::gemm`] on this device, for the same product, with
    /// `tile_b` strided or padded in workgroup memory.
    pub fn prepare_tiled(
        &self,
        kind: GemmKind,
        layout: TileLayout,
        a: &[f32],
        b: &[f32],
        (m, n, k): (usize, usize, usize),
    ) -> Result<Prepared, CoopError> {
        if !k.is_multiple_of(4) || !matches!(kind, GemmKind::F32 | GemmKind::F16) {
            return Err(CoopError::Size(format!(
                "the tiled comparison takes f32 or f16 and k a multiple of 4, got {kind:?} and k = {k}"
            )));
        }
        // The tiled kernel reads Bᵀ (n×k).
        let mut b_t = vec![0.0f32; n * k];
        for p in 0..k {
            for j in 0..n {
                b_t[j * k + p] = b[p * n + j];
            }
        }
        let bytes = |v: &[f32]| -> Vec<u8> {
            if kind == GemmKind::F16 {
                bytemuck::cast_slice(&v.iter().map(|&x| f16::from_f32(x)).collect::<Vec<_>>())
                    .to_vec()
            } else {
                bytemuck::cast_slice(v).to_vec()
            }
        };
        let label = match layout {
            TileLayout::Strided => format!("tiled {}", kind.label()),
            TileLayout::Padded => format!("tiled {} padded", kind.label()),
        };
        let pipeline = self.pipeline(&label, &kind.source_with(layout))?;
        let out = self.output(m * n * 4);
        let params = [m as u32, n as u32, (k / 4) as u32];
        let buffers = [
            self.buffer("params", bytemuck::cast_slice(&params)),
            self.buffer("a", &bytes(a)),
            self.buffer("b_t", &bytes(&b_t)),
        ];
        let bind_group = self.bind(&pipeline, &[&buffers[0], &buffers[1], &buffers[2], &out]);
        Ok(Prepared {
            label,
            pipeline,
            bind_group,
            out,
            out_f16: false,
            groups: [n.div_ceil(16) as u32, m.div_ceil(16) as u32, 1],
            ops: 2.0 * (m * n * k) as f64,
            m,
            n,
        })
    }

    fn record(&self, p: &Prepared, times: usize) -> wgpu::CommandEncoder {
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&p.pipeline);
            pass.set_bind_group(0, &p.bind_group, &[]);
            for _ in 0..times {
                pass.dispatch_workgroups(p.groups[0], p.groups[1], p.groups[2]);
            }
        }
        encoder
    }

    fn wait(&self) -> Result<(), CoopError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| CoopError::Execution(e.to_string()))
    }

    /// Seconds per product: `times` dispatches in one submission, timed on the CPU clock
    /// from submission to completion (this device has no timestamp queries requested).
    pub fn time(&self, p: &Prepared, times: usize) -> Result<f64, CoopError> {
        let encoder = self.record(p, times);
        let start = Instant::now();
        self.queue.submit([encoder.finish()]);
        self.wait()?;
        Ok(start.elapsed().as_secs_f64() / times as f64)
    }

    /// One product, read back as f32 (row-major m×n).
    pub fn result(&self, p: &Prepared) -> Result<Vec<f32>, CoopError> {
        let bytes = p.m * p.n * if p.out_f16 { 2 } else { 4 };
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("read-back"),
            size: bytes as u64,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut encoder = self.record(p, 1);
        encoder.copy_buffer_to_buffer(&p.out, 0, &staging, 0, bytes as u64);
        self.queue.submit([encoder.finish()]);
        let slice = staging.slice(..);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        self.wait()?;
        let data = slice
            .get_mapped_range()
            .map_err(|e| CoopError::Execution(format!("reading the result back: {e}")))?;
        let values = if p.out_f16 {
            bytemuck::cast_slice::<u8, f16>(&data)
                .iter()
                .map(|x| x.to_f32())
                .collect()
        } else {
            bytemuck::cast_slice::<u8, f32>(&data).to_vec()
        };
        Ok(values)
    }
}
