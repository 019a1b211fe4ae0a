//! Where one iteration of a compiled loop spends its time, step by step on the CPU's clock.
//!
//! A sample of the size sweep calls `GpuProgram::run_loop`: it uploads the input, records the
//! graph `n` times and the copy of the output into a read-back buffer, submits once, waits, and
//! maps and copies the output out; the sweep divides the time by `n`. Here the same steps run
//! one by one, each timed, next to the GPU timestamps of the kernels and of the read-back copy,
//! and two shorter loops: one with the input already on the device (as PyTorch's timing has it),
//! and one that also reads nothing back.

use std::time::{Duration, Instant};

use bench_harness::digits::round_to;
use bench_harness::{Figure, Progress, Stats};
use computational_graphs::gpu_program::GpuProgram;
use computational_graphs::graph::validate;
use computational_graphs::random_graph::random_graph;
use computational_graphs::tensor::Tensor2D;
use gpu_context::GpuContext;

use crate::args::Args;
use crate::autotune_report;
use crate::sweep::seed;
use crate::tables::SWEEP_DEPTH;
use crate::variants::{Variant, build_loop_program, gpu_time, warm_up_gpu};

/// The loops whose phases are timed: the compiled ones whose Linears run tuned kernels.
const TIMED: [Variant; 3] = [
    Variant::CompiledChosen,
    Variant::CompiledAutotuned,
    Variant::CompiledChained,
];

/// The CPU-clock time of each step of one submission of `n` iterations.
#[derive(Clone, Copy, Debug, Default)]
pub struct PhaseTimes {
    /// `queue.write_buffer` of the inputs (wgpu copies them into a staging buffer).
    pub upload: Duration,
    /// Creating the encoder and recording the passes and the read-back copy.
    pub encode: Duration,
    /// `encoder.finish()`.
    pub finish: Duration,
    /// `queue.submit`.
    pub submit: Duration,
    /// `device.poll(Wait)` until the GPU has finished everything submitted.
    pub wait: Duration,
    /// Mapping the read-back buffer, copying the output into a `Vec`, unmapping.
    pub read: Duration,
}

impl PhaseTimes {
    pub fn total(&self) -> Duration {
        self.upload + self.encode + self.finish + self.submit + self.wait + self.read
    }
}

/// What one submission includes besides the graph's iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Steps {
    /// Write the inputs first (the sweep does; PyTorch's timing starts with them on the GPU).
    pub upload: bool,
    /// Copy the outputs back to the host at the end (the sweep and PyTorch both do).
    pub read_back: bool,
}

impl Steps {
    pub const SWEEP: Steps = Steps {
        upload: true,
        read_back: true,
    };
    pub const INPUT_RESIDENT: Steps = Steps {
        upload: false,
        read_back: true,
    };
    pub const NO_READ_BACK: Steps = Steps {
        upload: false,
        read_back: false,
    };
}

/// The steps of `GpuProgram::run_loop`, each timed; with `Steps::SWEEP` it does exactly what
/// `run_loop` does. Without `upload` the device keeps the inputs of the previous submission;
/// without `read_back` the outputs are empty.
pub fn run_in_phases(
    ctx: &GpuContext,
    program: &GpuProgram,
    inputs: &[Tensor2D],
    iterations: usize,
    steps: Steps,
) -> Result<(PhaseTimes, Vec<Tensor2D>), computational_graphs::Error> {
    let t0 = Instant::now();
    if steps.upload {
        program.write_inputs(ctx, inputs)?;
    }
    let t1 = Instant::now();
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    program.record(&mut encoder, iterations);
    if steps.read_back {
        program.record_downloads(&mut encoder);
    }
    let t2 = Instant::now();
    let commands = encoder.finish();
    let t3 = Instant::now();
    ctx.queue.submit([commands]);
    let t4 = Instant::now();
    ctx.wait()?;
    let t5 = Instant::now();
    // The GPU is idle now, so the wait inside `read_outputs` returns at once: what is left is
    // the mapping and the copy.
    let outputs = if steps.read_back {
        program.read_outputs(ctx)?
    } else {
        Vec::new()
    };
    let t6 = Instant::now();
    let times = PhaseTimes {
        upload: t1 - t0,
        encode: t2 - t1,
        finish: t3 - t2,
        submit: t4 - t3,
        wait: t5 - t4,
        read: t6 - t5,
    };
    Ok((times, outputs))
}

/// One loop at one size of `{prefix}_phases.csv`: every time in ms per iteration of the graph
/// (per-submission steps divided by `iterations`), medians over `samples`.
#[derive(Debug, serde::Serialize)]
struct PhaseRow {
    size: usize,
    depth: usize,
    variant: &'static str,
    iterations: usize,
    samples: usize,
    /// Bytes uploaded and read back once per submission.
    input_bytes: usize,
    output_bytes: usize,
    /// The whole submission as the sweep times it (upload, iterations, read-back).
    sweep_ms: f64,
    upload_ms: f64,
    encode_ms: f64,
    finish_ms: f64,
    submit_ms: f64,
    wait_ms: f64,
    read_ms: f64,
    /// GPU timestamps around the iterations alone (as the sweep's `gpu_timestamps_ms`).
    gpu_kernels_ms: Option<f64>,
    /// GPU timestamps around the copy into the read-back buffer, per iteration.
    gpu_read_back_copy_ms: Option<f64>,
    /// The input left on the device (no upload), output read back: PyTorch's timed region.
    input_resident_ms: f64,
    /// No upload and no read-back: record, submit, wait.
    no_read_back_ms: f64,
}

pub fn run(ctx: &GpuContext, args: &Args) -> Result<(), Box<dyn std::error::Error>> {
    // Lavapipe takes seconds per run of the larger quick graphs: --quick keeps the small ones.
    let sizes: Vec<usize> = (args.sizes().into_iter())
        .filter(|&s| !args.quick || s <= 64)
        .collect();
    let progress = Progress::new((sizes.len() * TIMED.len()) as u64, "phases");
    let mut tuner = autotune_report::tuner(ctx, args)?;
    let mut rows = Vec::new();
    for &size in &sizes {
        let (list, input) = random_graph(seed(size, SWEEP_DEPTH), size, SWEEP_DEPTH);
        let graph = validate(&list)?;
        let fused = computational_graphs::compiler::fuse(&graph);
        let inputs = [input];
        for v in TIMED {
            progress.step(&format!("{} {size}", v.name()));
            let program = build_loop_program(ctx, v, &graph, &fused, &mut tuner)?;
            for n in iterations_at(args, size) {
                warm_up_gpu(ctx, &program, &inputs, n)?;
                rows.push(measure_row(ctx, args, v, &program, &inputs, n)?);
            }
        }
        write(ctx, args, &rows)?;
    }
    progress.finish();
    tuner.save()?;
    Ok(())
}

/// Iterations per submission at `size`: the sweep's, and, where it differs (the largest
/// size), the PyTorch script's, which takes the sweeps' reference size's at every size.
fn iterations_at(args: &Args, size: usize) -> Vec<usize> {
    let (_, _, ours) = args.effort(size);
    let (_, _, pytorch) = args.effort(args.sweep_size());
    if ours == pytorch {
        vec![ours]
    } else {
        vec![ours, pytorch]
    }
}

fn measure_row(
    ctx: &GpuContext,
    args: &Args,
    v: Variant,
    program: &GpuProgram,
    inputs: &[Tensor2D],
    n: usize,
) -> Result<PhaseRow, computational_graphs::Error> {
    let size = inputs[0].rows();
    // Fewer samples where one submission is long: the median is steady by then.
    let samples = match (args.quick, size >= 1024) {
        (true, _) => 3,
        (false, false) => 30,
        (false, true) => 10,
    };
    let runs = time_three_ways(ctx, program, inputs, n, samples)?;
    let per_iteration = |d: Duration| d.as_secs_f64() * 1e3 / n as f64;
    let median_of = |f: fn(&PhaseTimes) -> Duration| {
        let times: Vec<f64> = runs.sweep.iter().map(|p| per_iteration(f(p))).collect();
        round_to(median(&times), 5)
    };
    let total_of = |runs: &[PhaseTimes]| {
        let times: Vec<f64> = runs.iter().map(|p| per_iteration(p.total())).collect();
        round_to(median(&times), 5)
    };
    let bytes = |ts: &[Tensor2D]| ts.iter().map(|t| t.data().len() * 4).sum();
    let read_back_copy = read_back_copy_time(ctx, program)?;
    Ok(PhaseRow {
        size,
        depth: SWEEP_DEPTH,
        variant: v.name(),
        iterations: n,
        samples,
        input_bytes: bytes(inputs),
        output_bytes: bytes(&program.run(ctx, inputs)?),
        sweep_ms: total_of(&runs.sweep),
        upload_ms: median_of(|p| p.upload),
        encode_ms: median_of(|p| p.encode),
        finish_ms: median_of(|p| p.finish),
        submit_ms: median_of(|p| p.submit),
        wait_ms: median_of(|p| p.wait),
        read_ms: median_of(|p| p.read),
        // `gpu_time` is per iteration already.
        gpu_kernels_ms: gpu_time(ctx, program, n)?.map(|d| round_to(d.as_secs_f64() * 1e3, 5)),
        gpu_read_back_copy_ms: read_back_copy.map(|d| round_to(per_iteration(d), 5)),
        input_resident_ms: total_of(&runs.input_resident),
        no_read_back_ms: total_of(&runs.no_read_back),
    })
}

/// The samples of the three kinds of submission.
#[derive(Default)]
struct ThreeWays {
    sweep: Vec<PhaseTimes>,
    input_resident: Vec<PhaseTimes>,
    no_read_back: Vec<PhaseTimes>,
}

/// `samples` submissions of each kind, interleaved (sweep, input resident, no read-back), so
/// that a drift of the clocks touches all three alike; three untimed rounds first.
fn time_three_ways(
    ctx: &GpuContext,
    program: &GpuProgram,
    inputs: &[Tensor2D],
    n: usize,
    samples: usize,
) -> Result<ThreeWays, computational_graphs::Error> {
    let mut runs = ThreeWays::default();
    for round in 0..3 + samples {
        let a = run_in_phases(ctx, program, inputs, n, Steps::SWEEP)?.0;
        let b = run_in_phases(ctx, program, inputs, n, Steps::INPUT_RESIDENT)?.0;
        let c = run_in_phases(ctx, program, inputs, n, Steps::NO_READ_BACK)?.0;
        if round >= 3 {
            runs.sweep.push(a);
            runs.input_resident.push(b);
            runs.no_read_back.push(c);
        }
    }
    Ok(runs)
}

/// The GPU's time for the copy of the outputs into the read-back buffers (median of 5), or
/// `None` without timestamps.
fn read_back_copy_time(
    ctx: &GpuContext,
    program: &GpuProgram,
) -> Result<Option<Duration>, computational_graphs::Error> {
    if !ctx.has_timestamps() {
        return Ok(None);
    }
    let mut times = Vec::new();
    for _ in 0..5 {
        times.push(ctx.time_commands(|enc| program.record_downloads(enc))?.time);
    }
    times.sort();
    Ok(Some(times[2]))
}

fn median(values: &[f64]) -> f64 {
    Stats::from_seconds(values).map_or(f64::NAN, |s| s.median)
}

fn write(
    ctx: &GpuContext,
    args: &Args,
    rows: &[PhaseRow],
) -> Result<(), Box<dyn std::error::Error>> {
    let name = format!("{}_phases", args.prefix);
    let mut sidecar = args.sidecar(
        &name,
        &format!(
            "one submission of the compiled loops at depth {SWEEP_DEPTH}, step by step on the CPU \
             clock (upload, encode, finish, submit, wait, read), the GPU timestamps of the kernels \
             and of the read-back copy, and the loop without upload and without read-back; \
             ms per iteration, medians"
        ),
        Some(ctx.report()),
    );
    // A table in the book, no chart.
    sidecar.files = vec![format!("{name}.csv")];
    Figure::new(sidecar)
        .rows(rows)?
        .write_to(&bench_harness::figures_dir())?;
    eprintln!("wrote {name}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use computational_graphs::compiler::autotune::{AutotuneSettings, Autotuner};

    fn program_at(ctx: &GpuContext, v: Variant) -> (GpuProgram, Vec<Tensor2D>) {
        let (list, input) = random_graph(seed(24, 6), 24, 6);
        let graph = validate(&list).unwrap();
        let fused = computational_graphs::compiler::fuse(&graph);
        let mut tuner = Autotuner::new(ctx, AutotuneSettings::default()).unwrap();
        let program = build_loop_program(ctx, v, &graph, &fused, &mut tuner).unwrap();
        (program, vec![input])
    }

    #[test]
    fn the_phased_loop_computes_what_run_loop_does() {
        let ctx = GpuContext::for_tests();
        for v in TIMED {
            let (program, inputs) = program_at(&ctx, v);
            let expected = program.run_loop(&ctx, &inputs, 2).unwrap();
            let (times, got) = run_in_phases(&ctx, &program, &inputs, 2, Steps::SWEEP).unwrap();
            assert_eq!(got.len(), expected.len());
            for (g, e) in got.iter().zip(&expected) {
                assert_eq!(g.data(), e.data(), "{}", v.name());
            }
            let parts = [
                times.upload,
                times.encode,
                times.finish,
                times.submit,
                times.read,
            ];
            assert_eq!(times.total(), times.wait + parts.iter().sum::<Duration>());
        }
    }

    #[test]
    fn without_upload_the_device_keeps_the_last_input() {
        let ctx = GpuContext::for_tests();
        let (program, first) = program_at(&ctx, Variant::CompiledAutotuned);
        let other = first[0].data().iter().map(|x| 1.0 - 2.0 * x).collect();
        let other = vec![Tensor2D::new(first[0].rows(), first[0].cols(), other).unwrap()];
        let (_, from_first) = run_in_phases(&ctx, &program, &first, 1, Steps::SWEEP).unwrap();
        let (_, from_other) = run_in_phases(&ctx, &program, &other, 1, Steps::SWEEP).unwrap();
        assert_ne!(from_first[0].data(), from_other[0].data());
        // Handed the first input, a resident run still computes on the one uploaded last.
        let (_, resident) =
            run_in_phases(&ctx, &program, &first, 1, Steps::INPUT_RESIDENT).unwrap();
        assert_eq!(resident[0].data(), from_other[0].data());
    }

    #[test]
    fn without_read_back_nothing_comes_back_but_the_graph_runs() {
        let ctx = GpuContext::for_tests();
        let (program, inputs) = program_at(&ctx, Variant::CompiledChained);
        let expected = program.run(&ctx, &inputs).unwrap();
        // Clear the output on the device: only a run that really computes can restore it.
        let zeros = vec![
            Tensor2D::new(
                inputs[0].rows(),
                inputs[0].cols(),
                vec![0.0; inputs[0].data().len()],
            )
            .unwrap(),
        ];
        let (_, on_zeros) = run_in_phases(&ctx, &program, &zeros, 1, Steps::SWEEP).unwrap();
        assert_ne!(on_zeros[0].data(), expected[0].data());
        program.write_inputs(&ctx, &inputs).unwrap();
        let (_, nothing) = run_in_phases(&ctx, &program, &inputs, 1, Steps::NO_READ_BACK).unwrap();
        assert!(nothing.is_empty());
        // The buffer the last dispatch wrote now holds the real output: copy it out without
        // running the graph again.
        let mut encoder = ctx.device.create_command_encoder(&Default::default());
        program.record_downloads(&mut encoder);
        ctx.queue.submit([encoder.finish()]);
        let read = program.read_outputs(&ctx).unwrap();
        assert_eq!(read[0].data(), expected[0].data());
    }
}
