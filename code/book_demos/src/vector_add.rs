//! The first GPU program's vector addition, written without any blocking call so that the same
//! code runs natively and in a browser.

use gpu_context::GpuContext;
use serde::Serialize;
use wgpu::util::DeviceExt;

use crate::DemoError;
use crate::clock::{SAMPLES, Timing, time_repeated};
use crate::display::{Display, Row, describe, sig3};
use crate::reference;
use crate::timestamps::PassTimer;

/// The kernel of `first_gpu_program`, the same file (not a copy): the book explains it there.
pub const SHADER: &str = first_gpu_program::SHADER;
const WORKGROUP_SIZE: u32 = 64;

/// The compiled vector-add pipeline, built once and run many times.
pub struct VectorAdd {
    pipeline: wgpu::ComputePipeline,
}

impl VectorAdd {
    pub fn new(device: &wgpu::Device) -> Self {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("vector_add"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("vector_add"),
            layout: None,
            module: &module,
            entry_point: Some("add"),
            compilation_options: Default::default(),
            cache: None,
        });
        Self { pipeline }
    }

    /// Uploads `a` and `b`, adds them on the GPU and reads the sum back: one full round trip.
    pub async fn run(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        a: &[f32],
        b: &[f32],
    ) -> Result<Vec<f32>, DemoError> {
        self.run_timed(device, queue, (a, b), None).await
    }

    /// [`VectorAdd::run`], with the compute pass's timestamps written into `timer` when one is
    /// given (read them with [`PassTimer::read_ms`] afterwards).
    pub async fn run_timed(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        (a, b): (&[f32], &[f32]),
        timer: Option<&PassTimer>,
    ) -> Result<Vec<f32>, DemoError> {
        if a.len() != b.len() {
            return Err(DemoError::LengthMismatch {
                a: a.len(),
                b: b.len(),
            });
        }
        if a.is_empty() {
            return Ok(Vec::new());
        }
        let groups = (a.len() as u64).div_ceil(u64::from(WORKGROUP_SIZE));
        let max = device.limits().max_compute_workgroups_per_dimension;
        if groups > u64::from(max) {
            return Err(DemoError::TooLong {
                elements: a.len(),
                groups,
                max,
            });
        }
        let input = |label, data: &[f32]| {
            device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                label: Some(label),
                contents: bytemuck::cast_slice(data),
                usage: wgpu::BufferUsages::STORAGE,
            })
        };
        let (a_buffer, b_buffer) = (input("a", a), input("b", b));
        let bytes = std::mem::size_of_val(a) as u64;
        let output = |label, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage,
                mapped_at_creation: false,
            })
        };
        let sum = output(
            "sum",
            wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
        );
        let readback = output(
            "readback",
            wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        );
        let bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &self.pipeline.get_bind_group_layout(0),
            entries: &[
                a_buffer.as_entire_binding(),
                b_buffer.as_entire_binding(),
                sum.as_entire_binding(),
            ]
            .into_iter()
            .enumerate()
            .map(|(i, resource)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource,
            })
            .collect::<Vec<_>>(),
        });
        // ANCHOR: pass
        let mut encoder = device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("vector_add"),
                timestamp_writes: timer.map(PassTimer::writes),
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(groups as u32, 1, 1);
        }
        encoder.copy_buffer_to_buffer(&sum, 0, &readback, 0, bytes);
        if let Some(timer) = timer {
            timer.resolve(&mut encoder);
        }
        queue.submit([encoder.finish()]);
        // ANCHOR_END: pass
        read_back(device, &readback).await
    }
}

// ANCHOR: read_back
/// Maps `buffer` and copies it out, without blocking the thread.
pub async fn read_back<T: bytemuck::Pod>(
    device: &wgpu::Device,
    buffer: &wgpu::Buffer,
) -> Result<Vec<T>, DemoError> {
    let slice = buffer.slice(..);
    let (done, mapped) = futures_channel::oneshot::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = done.send(result);
    });
    // Natively, wgpu calls the callback from inside `poll`, so we drive it here. In a browser the
    // page's event loop calls it, and blocking would freeze the page: we only await.
    #[cfg(not(target_arch = "wasm32"))]
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(DemoError::Poll)?;
    #[cfg(target_arch = "wasm32")]
    let _ = device;
    mapped
        .await
        .map_err(|_| DemoError::Cancelled)?
        .map_err(DemoError::Map)?;
    let data =
        bytemuck::cast_slice(&slice.get_mapped_range().map_err(DemoError::MappedRange)?).to_vec();
    buffer.unmap();
    Ok(data)
}
// ANCHOR_END: read_back

/// The add kernel's own time on the GPU's clock, when it was asked for.
#[derive(Clone, Debug, Serialize)]
pub enum DispatchTime {
    /// The median of [`SAMPLES`] passes, each timed by its timestamp queries; `quantized` when
    /// every reading was a whole multiple of 65.536 µs (a browser's coarsening, see
    /// [`crate::timestamps::QUANTUM_NS`]).
    Measured {
        median_ms: f64,
        samples: Vec<f64>,
        quantized: bool,
    },
    /// The device has no timestamp queries: the adapter does not offer `timestamp-query`.
    NotOffered,
}

/// The demo's one run: 2^20 floats by default, each way checked.
#[derive(Debug, Serialize)]
pub struct VectorAddReport {
    pub elements: usize,
    pub check: reference::Check,
    /// One round trip: upload, dispatch, read back.
    pub timing: Timing,
    /// The compute pass on the GPU's clock (the page's `?timestamps=1`); `None` when not asked.
    pub dispatch: Option<DispatchTime>,
}

/// Adds two vectors of `elements` floats, checks the sum against the CPU and times the round
/// trip (a warm-up first, which compiles the pipeline). With `timestamps`, it then runs
/// [`SAMPLES`] more round trips whose compute pass writes timestamp queries, where the device
/// has them: those round trips are not in the page-clock timing.
pub async fn run_vector_add(
    ctx: &GpuContext,
    elements: usize,
    timestamps: bool,
) -> Result<VectorAddReport, DemoError> {
    let (a, b) = reference::vector_add_inputs(elements);
    let demo = VectorAdd::new(&ctx.device);
    let sum = demo.run(&ctx.device, &ctx.queue, &a, &b).await?;
    let check = reference::check(&sum, &reference::cpu_vector_add(&a, &b));
    let timing = time_repeated(|repeats| {
        let (demo, a, b) = (&demo, &a, &b);
        async move {
            for _ in 0..repeats {
                demo.run(&ctx.device, &ctx.queue, a, b).await?;
            }
            Ok(())
        }
    })
    .await?;
    let dispatch = match timestamps.then(|| PassTimer::new(&ctx.device, &ctx.queue)) {
        None => None,
        Some(None) => Some(DispatchTime::NotOffered),
        Some(Some(timer)) => {
            let (mut samples, mut quantized) = (Vec::with_capacity(SAMPLES), true);
            for _ in 0..SAMPLES {
                demo.run_timed(&ctx.device, &ctx.queue, (&a, &b), Some(&timer))
                    .await?;
                let pass = timer.read(&ctx.device).await?;
                samples.push(pass.ms);
                quantized &= pass.quantized;
            }
            let mut sorted = samples.clone();
            sorted.sort_by(f64::total_cmp);
            Some(DispatchTime::Measured {
                median_ms: sorted[SAMPLES / 2],
                samples,
                quantized,
            })
        }
    };
    Ok(VectorAddReport {
        elements,
        check,
        timing,
        dispatch,
    })
}

impl VectorAddReport {
    pub fn display(&self) -> Display {
        Display {
            rows: vec![Row {
                key: "round trip".into(),
                yours: format!("{} ms", sig3(self.timing.median_ms)),
                check: describe(&self.check, "sums equal the CPU's"),
                ok: self.check.passed(),
                ran: true,
            }],
            notes: [format!(
                "{} floats each way; time per round trip, {}.",
                self.elements,
                self.timing.describe("round trip", "round trips")
            )]
            .into_iter()
            .chain(
                self.dispatch
                    .as_ref()
                    .map(|d| d.describe(self.timing.median_ms)),
            )
            .collect(),
        }
    }
}

impl DispatchTime {
    /// The note a box prints for `?timestamps=1`.
    pub fn describe(&self, round_trip_ms: f64) -> String {
        match self {
            DispatchTime::NotOffered => "Timestamps asked for (?timestamps=1), but this adapter \
                does not offer WebGPU's timestamp-query feature: only the round trip is timed, \
                with the page's clock."
                .into(),
            DispatchTime::Measured {
                median_ms,
                samples,
                quantized,
            } => {
                // Each pass to 0.1 µs, so that a browser's quantization of the timestamps shows.
                let list: Vec<String> = samples.iter().map(|t| format!("{t:.4}")).collect();
                format!(
                    "The add kernel's pass on the GPU's clock (timestamp queries): {} ms, median \
                     of {} passes ({} ms); the round trip takes {} ms.{}",
                    sig3(*median_ms),
                    samples.len(),
                    list.join(", "),
                    sig3(round_trip_ms),
                    if *quantized {
                        " Every timestamp was a multiple of 65.536 µs (2^16 ns): this browser \
                         quantizes them unless its WebGPU developer features are on, so a pass \
                         reads as a whole number of such steps."
                    } else {
                        ""
                    }
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::DispatchTime;
    use crate::timestamps::{PassTime, QUANTUM_NS};

    /// Five passes as `read` returns them, from raw nanosecond readings.
    fn measured(readings: &[(u64, u64)]) -> DispatchTime {
        let passes: Vec<PassTime> = readings
            .iter()
            .map(|&(begin, end)| PassTime::from_ticks(begin, end, 1.0))
            .collect();
        let samples: Vec<f64> = passes.iter().map(|p| p.ms).collect();
        let mut sorted = samples.clone();
        sorted.sort_by(f64::total_cmp);
        DispatchTime::Measured {
            median_ms: sorted[sorted.len() / 2],
            samples,
            quantized: passes.iter().all(|p| p.quantized),
        }
    }

    #[test]
    fn quantized_timestamps_are_named_and_read_in_steps_of_65_536_us() {
        // Dawn's mask leaves whole steps: a 15.4 ms pass reads 235 steps, 15.40096 ms.
        let start = 7_000 * QUANTUM_NS;
        let steps = [235, 234, 235, 236, 235];
        let readings: Vec<(u64, u64)> = steps
            .iter()
            .map(|&n| (start, start + n * QUANTUM_NS))
            .collect();
        let pass = PassTime::from_ticks(start, start + 235 * QUANTUM_NS, 1.0);
        assert!(pass.quantized);
        assert!((pass.ms - 235.0 * 0.065_536).abs() < 1e-9, "{pass:?}");
        // A kernel of a few microseconds reads as no step or one.
        assert_eq!(PassTime::from_ticks(start, start, 1.0).ms, 0.0);
        let note = measured(&readings).describe(33.6);
        assert!(note.contains("15.4 ms"), "{note}");
        assert!(note.contains("15.4010"), "{note}");
        assert!(note.contains("multiple of 65.536 µs"), "{note}");
    }

    #[test]
    fn unquantized_timestamps_carry_no_such_note() {
        // Readings as a browser with full precision gives them: low 16 bits not zero.
        let readings = [
            (1_000_062_353, 1_015_746_228),
            (2_000_000_986, 2_015_388_486),
            (3_000_029_270, 3_015_424_270),
            (4_000_000_000, 4_015_349_200),
            (5_000_000_001, 5_015_330_001),
        ];
        let note = measured(&readings).describe(33.6);
        assert!(note.contains("15.4 ms"), "{note}");
        assert!(!note.contains("65.536"), "{note}");
        // One reading on a step is not enough: both ends must be.
        let one_end = PassTime::from_ticks(7 * QUANTUM_NS, 7 * QUANTUM_NS + 1_000_001, 1.0);
        assert!(!one_end.quantized);
        // A difference of whole steps between unquantized readings is not quantization either.
        let both_off = PassTime::from_ticks(5, 5 + 3 * QUANTUM_NS, 1.0);
        assert!(!both_off.quantized);
    }
}
