//! The training step, CPU against GPU: milliseconds per step for a few batch and hidden sizes
//! and the three GPU schedules (`training_gpu`), and one step's GPU scopes against its wall
//! time (`training_scopes`). File names carry the `--machine` tag.

use std::time::Instant;

use bench_harness::{Bar, BarChart, Csv, FigureArgs, LineChart, Series, Sidecar, figures_dir};
use gpu_context::{GpuContext, GpuScopes};
use profiling_lab::training::{train, two_layer_mlp};
use profiling_lab::training_gpu::{BatchReduction, GpuTrainer, Schedule};
use quantization::model::spirals;

const RATE: f32 = 1.0;

/// The GPU variants of the sweep: the three schedules with the batch sums of the first
/// backward pass, then the fastest schedule with the workgroup batch sums the profile asked for.
const VARIANTS: [(Schedule, BatchReduction); 4] = [
    (
        Schedule::SubmitPerKernel,
        BatchReduction::InvocationPerElement,
    ),
    (
        Schedule::SubmitPerStep,
        BatchReduction::InvocationPerElement,
    ),
    (
        Schedule::ReadLossAtEnd,
        BatchReduction::InvocationPerElement,
    ),
    (Schedule::ReadLossAtEnd, BatchReduction::WorkgroupPerElement),
];

fn variant_label(schedule: Schedule, reduction: BatchReduction) -> String {
    match reduction {
        BatchReduction::InvocationPerElement => schedule.label().to_string(),
        BatchReduction::WorkgroupPerElement => {
            format!("{}, workgroup batch sums", schedule.label())
        }
    }
}

fn reduction_label(reduction: BatchReduction) -> &'static str {
    match reduction {
        BatchReduction::InvocationPerElement => "invocation sums",
        BatchReduction::WorkgroupPerElement => "workgroup sums",
    }
}

/// `profiling_h100_training_gpu` with `--machine h100`.
fn figure_name(args: &FigureArgs, name: &str) -> String {
    match &args.machine {
        Some(m) => format!("profiling_{m}_{name}"),
        None => format!("profiling_{name}"),
    }
}

/// What the sweep measures: sizes, steps per timed sample, samples per point.
struct Plan {
    batches: Vec<usize>,
    hiddens: Vec<usize>,
    /// Steps per sample below the largest batch (which takes 4: its CPU steps are slow).
    steps: usize,
    samples: usize,
}

impl Plan {
    /// A software adapter (lavapipe) runs the GPU's kernels on the CPU, many times slower than
    /// the CPU loop: it leaves out the largest batch and takes fewer, shorter samples.
    fn new(args: &FigureArgs, ctx: &GpuContext) -> Self {
        if args.quick {
            Plan {
                batches: vec![60, 300],
                hiddens: vec![16],
                steps: 8,
                samples: 3,
            }
        } else if ctx.report().is_software() {
            Plan {
                batches: vec![300, 3000],
                hiddens: vec![64, 256],
                steps: 8,
                samples: 3,
            }
        } else {
            Plan {
                batches: vec![300, 3000, 30000],
                hiddens: vec![64, 256],
                steps: 16,
                samples: 5,
            }
        }
    }

    fn steps_for(&self, batch: usize) -> usize {
        if batch >= 30000 { 4 } else { self.steps }
    }

    /// Median, fastest and slowest of `samples` timings of `f` (after one warm-up), in
    /// milliseconds per step.
    fn per_step_ms<T>(
        &self,
        steps: usize,
        mut f: impl FnMut() -> anyhow::Result<T>,
    ) -> anyhow::Result<[f64; 3]> {
        f()?; // warm-up: pipelines, caches, clocks
        let mut ms = Vec::with_capacity(self.samples);
        for _ in 0..self.samples {
            let start = Instant::now();
            f()?;
            ms.push(start.elapsed().as_secs_f64() * 1e3 / steps as f64);
        }
        ms.sort_by(f64::total_cmp);
        Ok([ms[ms.len() / 2], ms[0], ms[ms.len() - 1]])
    }
}

pub fn run_sweep(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let plan = Plan::new(args, ctx);
    let name = figure_name(args, "training_gpu");
    let mut csv = Csv::new(&[
        "runner",
        "batch",
        "hidden",
        "steps",
        "median_ms",
        "min_ms",
        "max_ms",
    ]);
    // ANCHOR: sweep
    let mut series = Vec::new();
    for &hidden in &plan.hiddens {
        let mut lines: Vec<Series> = std::iter::once("CPU".to_string())
            .chain(VARIANTS.iter().map(|&(s, r)| variant_label(s, r)))
            .map(|l| Series::new(&format!("{l}, hidden {hidden}")))
            .collect();
        for &batch in &plan.batches {
            let data = spirals(3, batch / 3, 7);
            let net = two_layer_mlp(hidden, 11);
            let steps = plan.steps_for(batch);
            let mut timings = vec![(
                "CPU".to_string(),
                plan.per_step_ms(steps, || Ok(train(&mut net.clone(), &data, steps, RATE)?))?,
            )];
            for (schedule, reduction) in VARIANTS {
                let trainer = GpuTrainer::new(ctx, &net, &data, RATE, reduction)?;
                let ms = plan.per_step_ms(steps, || Ok(trainer.train(ctx, steps, schedule)?))?;
                timings.push((variant_label(schedule, reduction), ms));
            }
            for ((runner, [median, min, max]), line) in timings.into_iter().zip(&mut lines) {
                eprintln!("training batch {batch} hidden {hidden}: {runner}: {median:.3} ms/step");
                line.point_with_spread(batch as f64, median, min, max);
                csv.row(&[
                    runner,
                    batch.to_string(),
                    hidden.to_string(),
                    steps.to_string(),
                    format!("{median:.6}"),
                    format!("{min:.6}"),
                    format!("{max:.6}"),
                ]);
            }
        }
        series.extend(lines);
    }
    // ANCHOR_END: sweep
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    let adapter = ctx.adapter.get_info().name;
    LineChart {
        title: "One full-batch training step of a 2-hidden-3 MLP".into(),
        subtitle: format!("CPU: one thread; GPU: {adapter}, wgpu 30; wall time per step"),
        x_label: "batch (spiral points)".into(),
        y_label: "milliseconds per step".into(),
        log_x: true,
        log_y: true,
        series,
        markers: vec![],
    }
    .write(&dir.join(format!("{name}.svg")))?;
    sidecar(
        &name,
        "Wall time per training step (forward, backward, SGD) on the CPU and on the GPU under \
         three schedules (a submit per kernel, a submit and loss read-back per step, losses \
         read once at the end), and the last with the batch sums of the backward pass done by \
         a workgroup per gradient element",
        ctx,
        vec![format!(
            "median of {} samples after one warm-up, each sample {} steps (4 at batch 30000); \
             min and max as the spread; batches {:?}, hidden {:?}",
            plan.samples, plan.steps, plan.batches, plan.hiddens
        )],
    )
    .write(&dir.join(format!("{name}.json")))?;
    Ok(())
}

// ANCHOR: scoped_step
/// One step with a GPU scope around each phase and around the loss's copy, submitted and
/// waited for (the per-step schedule); returns the scopes and the step's wall time.
fn scoped_step(
    ctx: &GpuContext,
    scopes: &mut GpuScopes,
    trainer: &GpuTrainer,
) -> anyhow::Result<(Vec<(String, f64)>, f64)> {
    let start = Instant::now();
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    {
        let profiler = scopes.profiler();
        let forward = profiler.scope("forward", &mut encoder);
        trainer.record_forward(&mut forward.recorder.begin_compute_pass(&Default::default()));
    }
    {
        let backward = scopes.profiler().scope("backward", &mut encoder);
        trainer.record_backward(&mut backward.recorder.begin_compute_pass(&Default::default()));
    }
    {
        let update = scopes.profiler().scope("update", &mut encoder);
        trainer.record_update(&mut update.recorder.begin_compute_pass(&Default::default()));
    }
    {
        let copy = scopes.profiler().scope("loss read-back copy", &mut encoder);
        trainer.record_loss_copy(copy.recorder, trainer.loss_readback().buffer(), 0);
    }
    scopes.resolve(&mut encoder);
    ctx.queue.submit([encoder.finish()]);
    let timings = scopes.finish_frame(ctx)?;
    let _loss: Vec<f32> = trainer.loss_readback().read_recorded(ctx, 4)?;
    let wall = start.elapsed().as_secs_f64();
    Ok((
        timings
            .iter()
            .map(|t| (t.label.clone(), t.duration_s()))
            .collect(),
        wall,
    ))
}
// ANCHOR_END: scoped_step

pub fn run_scopes(args: &FigureArgs) -> anyhow::Result<()> {
    let ctx = GpuScopes::open_context()?;
    let sizes: &[(usize, usize)] = if args.quick {
        &[(300, 16)]
    } else if ctx.report().is_software() {
        &[(3000, 64)]
    } else {
        &[(3000, 64), (30000, 256)]
    };
    let steps = if args.quick { 5 } else { 20 };
    let mut scopes = GpuScopes::new(&ctx)?;
    let name = figure_name(args, "training_scopes");
    let mut csv = Csv::new(&[
        "batch",
        "hidden",
        "batch_sums",
        "scope",
        "median_us",
        "min_us",
        "max_us",
    ]);
    let mut bars: Vec<Bar> = Vec::new();
    let reductions = [
        BatchReduction::InvocationPerElement,
        BatchReduction::WorkgroupPerElement,
    ];
    for (&(batch, hidden), reduction) in sizes
        .iter()
        .flat_map(|s| reductions.iter().map(move |r| (s, *r)))
    {
        let data = spirals(3, batch / 3, 7);
        let net = two_layer_mlp(hidden, 11);
        let trainer = GpuTrainer::new(&ctx, &net, &data, RATE, reduction)?;
        let sums = reduction_label(reduction);
        scoped_step(&ctx, &mut scopes, &trainer)?; // warm-up
        let mut by_scope: Vec<(String, Vec<f64>)> = Vec::new();
        for _ in 0..steps {
            let (timings, wall) = scoped_step(&ctx, &mut scopes, &trainer)?;
            let gpu_total: f64 = timings.iter().map(|t| t.1).sum();
            let rows = timings.into_iter().chain([
                ("GPU busy (sum of scopes)".into(), gpu_total),
                ("wall clock".into(), wall),
            ]);
            for (label, seconds) in rows {
                match by_scope.iter_mut().find(|(l, _)| *l == label) {
                    Some((_, v)) => v.push(seconds * 1e6),
                    None => by_scope.push((label, vec![seconds * 1e6])),
                }
            }
        }
        for (label, mut us) in by_scope {
            us.sort_by(f64::total_cmp);
            let (median, min, max) = (us[us.len() / 2], us[0], us[us.len() - 1]);
            eprintln!("training scopes {batch}x{hidden}, {sums}: {label}: {median:.1} µs");
            bars.push((
                format!("{batch}×{hidden}, {sums}: {label}"),
                median,
                Some((min, max)),
            ));
            csv.row(&[
                batch.to_string(),
                hidden.to_string(),
                sums.to_string(),
                label,
                format!("{median:.3}"),
                format!("{min:.3}"),
                format!("{max:.3}"),
            ]);
        }
    }
    let dir = figures_dir();
    csv.write(&dir.join(format!("{name}.csv")))?;
    BarChart {
        title: "Where one training step's time goes (batch × hidden)".into(),
        subtitle: format!(
            "{}: GPU timestamp scopes and the CPU's wall clock around submit and wait",
            ctx.adapter.get_info().name
        ),
        y_label: "microseconds (median)".into(),
        log_y: true,
        bars,
    }
    .write(&dir.join(format!("{name}.svg")))?;
    sidecar(
        &name,
        "GPU timestamp scopes of one training step (forward with the loss, backward, update, \
         the loss's copy for read-back) and the step's wall time with its submit and wait, with \
         the backward's batch sums done by one invocation or by one workgroup per element",
        &ctx,
        vec![format!(
            "median of {steps} steps after one warm-up; min and max as the spread"
        )],
    )
    .write(&dir.join(format!("{name}.json")))?;
    Ok(())
}

fn sidecar(name: &str, description: &str, ctx: &GpuContext, notes: Vec<String>) -> Sidecar {
    let mut s = Sidecar::new(name, description);
    s.adapter_json = Some(ctx.report().to_json());
    s.notes = notes;
    s
}
