//! The training step, CPU against GPU: milliseconds per step for a few batch and hidden sizes
//! and the three GPU schedules (`training_gpu`), and one step's GPU scopes against its wall
//! time (`training_scopes`). File names carry the `--machine` tag.

use std::time::{Duration, Instant};

use bench_harness::{Bar, BarChart, Drawn, Figure, FigureArgs, Found, LineChart, Series, Sidecar};
use gpu_context::{GpuContext, GpuScopes, ScopeTiming, wgpu};
use profiling_lab::training::{train, two_layer_mlp};
use profiling_lab::training_gpu::{BatchReduction, GpuTrainer, Schedule};
use quantization::model::spirals;
use serde::{Deserialize, Serialize};
use tracing::info_span;

use crate::args::round_to;

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
    args.figure_name("profiling", name)
}

/// One runner at one size in the sweep: milliseconds per step.
#[derive(Serialize, Deserialize)]
struct SweepRow {
    runner: String,
    batch: usize,
    hidden: usize,
    steps: usize,
    median_ms: f64,
    min_ms: f64,
    max_ms: f64,
}

/// One line per runner and hidden width over the batch sizes.
fn sweep_chart(rows: &[SweepRow], adapter: &str) -> String {
    let mut series: Vec<Series> = Vec::new();
    for row in rows {
        let name = format!("{}, hidden {}", row.runner, row.hidden);
        let line = match series.iter().position(|s| s.name == name) {
            Some(at) => &mut series[at],
            None => {
                series.push(Series::new(&name));
                series.last_mut().expect("just pushed")
            }
        };
        line.point_with_spread(row.batch as f64, row.median_ms, row.min_ms, row.max_ms);
    }
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
    .to_svg()
}

/// One scope (or CPU phase, or difference) of one configuration: its median over the steps.
#[derive(Serialize, Deserialize)]
struct ScopeRow {
    batch: usize,
    hidden: usize,
    batch_sums: String,
    scope: String,
    median_us: f64,
    min_us: f64,
    max_us: f64,
}

/// The scopes chart (the phases and the two totals) and the backward kernels' chart; the CPU's
/// phases and the differences stay in the table.
fn scope_charts(rows: &[ScopeRow], adapter: &str) -> [String; 2] {
    let mut bars: Vec<Bar> = Vec::new();
    let mut kernel_bars: Vec<Bar> = Vec::new();
    for row in rows {
        let config = format!("{}×{}, {}", row.batch, row.hidden, row.batch_sums);
        let spread = Some((row.min_us, row.max_us));
        if let Some(kernel) = row.scope.strip_prefix("backward: ") {
            kernel_bars.push((format!("{config}: {kernel}"), row.median_us, spread));
        } else if !row.scope.contains("(CPU)")
            && !row.scope.contains("outside")
            && !row.scope.contains("beyond")
        {
            bars.push((format!("{config}: {}", row.scope), row.median_us, spread));
        }
    }
    let phases = BarChart {
        title: "Where one training step's time goes (batch × hidden)".into(),
        subtitle: format!(
            "{adapter}: GPU timestamp scopes and the CPU's wall clock around submit and wait"
        ),
        y_label: "microseconds (median)".into(),
        log_y: true,
        bars,
    };
    let kernels = BarChart {
        title: "The backward pass's kernels, one scope each (batch × hidden)".into(),
        subtitle: format!(
            "{adapter}: dW and db are the batch sums, dX the transposed product, relu' the mask"
        ),
        y_label: "microseconds (median)".into(),
        log_y: true,
        bars: kernel_bars,
    };
    [phases.to_svg(), kernels.to_svg()]
}

/// `--redraw`: the sweep's chart, or the scopes' two charts, from the table; the adapter from
/// the sidecar.
pub fn redraw(found: &Found) -> anyhow::Result<Drawn> {
    let adapter = found.adapter_name().unwrap_or("GPU");
    if found.name.ends_with("training_scopes") {
        let [phases, kernels] = scope_charts(&found.rows()?, adapter);
        return Ok(Drawn::Charts(vec![
            (format!("{}.svg", found.name), phases),
            (format!("{}_backward.svg", found.name), kernels),
        ]));
    }
    Ok(Drawn::chart(found, sweep_chart(&found.rows()?, adapter)))
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
    let mut rows = Vec::new();
    // ANCHOR: sweep
    for &hidden in &plan.hiddens {
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
            for (runner, [median, min, max]) in timings {
                eprintln!("training batch {batch} hidden {hidden}: {runner}: {median:.3} ms/step");
                rows.push(SweepRow {
                    runner,
                    batch,
                    hidden,
                    steps,
                    median_ms: round_to(median, 6),
                    min_ms: round_to(min, 6),
                    max_ms: round_to(max, 6),
                });
            }
        }
    }
    // ANCHOR_END: sweep
    let chart = sweep_chart(&rows, &ctx.adapter.get_info().name);
    let sidecar = Sidecar::new(
        &name,
        "Wall time per training step (forward, backward, SGD) on the CPU and on the GPU under \
         three schedules (a submit per kernel, a submit and loss read-back per step, losses \
         read once at the end), and the last with the batch sums of the backward pass done by \
         a workgroup per gradient element",
    )
    .with_adapter(ctx.report())
    .with_notes(vec![format!(
        "median of {} samples after one warm-up, each sample {} steps (4 at batch 30000); \
         min and max as the spread; batches {:?}, hidden {:?}",
        plan.samples, plan.steps, plan.batches, plan.hiddens
    )]);
    Figure::new(sidecar).rows(&rows)?.chart(chart).write()?;
    Ok(())
}

// ANCHOR: scoped_record
/// One step's commands with a GPU scope around each phase, one inside the backward scope around
/// each of its kernels (each kernel its own compute pass), and one around the loss's copy.
fn record_scoped(
    ctx: &GpuContext,
    scopes: &mut GpuScopes,
    trainer: &GpuTrainer,
) -> wgpu::CommandBuffer {
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    {
        let forward = scopes.profiler().scope("forward", &mut encoder);
        trainer.record_forward(&mut forward.recorder.begin_compute_pass(&Default::default()));
    }
    {
        let mut backward = scopes.profiler().scope("backward", &mut encoder);
        for kernel in trainer.backward_kernels() {
            let scope = backward.scope(kernel.label.clone());
            kernel.record(&mut scope.recorder.begin_compute_pass(&Default::default()));
        }
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
    encoder.finish()
}
// ANCHOR_END: scoped_record

// ANCHOR: scoped_step
/// One scoped step, submitted and waited for (the per-step schedule), with the CPU's side timed
/// too: recording, submit, the wait for the GPU (with the scopes' read-back) and the loss's
/// read-back, each also a `tracing` span.
fn scoped_step(
    ctx: &GpuContext,
    scopes: &mut GpuScopes,
    trainer: &GpuTrainer,
) -> anyhow::Result<ScopedStep> {
    let start = Instant::now();
    let commands = info_span!("record").in_scope(|| record_scoped(ctx, scopes, trainer));
    let recorded = Instant::now();
    info_span!("submit").in_scope(|| ctx.queue.submit([commands]));
    let submitted = Instant::now();
    let timings = info_span!("wait").in_scope(|| scopes.finish_frame(ctx))?;
    let waited = Instant::now();
    let _loss: Vec<f32> =
        info_span!("read_loss").in_scope(|| trainer.loss_readback().read_recorded(ctx, 4))?;
    let end = Instant::now();
    Ok(ScopedStep {
        scopes: timings,
        cpu: [
            ("record (CPU)", recorded - start),
            ("submit (CPU)", submitted - recorded),
            ("wait for the GPU and its scopes (CPU)", waited - submitted),
            ("loss read-back (CPU)", end - waited),
        ],
        wall: end - start,
    })
}
// ANCHOR_END: scoped_step

/// What [`scoped_step`] measured: the GPU's scopes, the CPU's four phases, and the whole step.
struct ScopedStep {
    scopes: Vec<ScopeTiming>,
    cpu: [(&'static str, Duration); 4],
    wall: Duration,
}

impl ScopedStep {
    /// Every row of one step, in microseconds: each scope (a kernel as `backward: dW1`), the
    /// GPU's busy time (the top-level scopes added), the CPU's phases, the wall clock, the time
    /// outside the scopes, and how much longer submit and wait took than the GPU was busy.
    fn rows(&self) -> Vec<(String, f64)> {
        let mut rows = Vec::new();
        for top in &self.scopes {
            for (depth, scope) in top.walk() {
                let label = match depth {
                    0 => scope.label.clone(),
                    _ => format!("{}: {}", top.label, scope.label),
                };
                rows.push((label, scope.duration_s() * 1e6));
            }
        }
        let busy: f64 = self.scopes.iter().map(|s| s.duration_s() * 1e6).sum();
        let wall = self.wall.as_secs_f64() * 1e6;
        // The GPU can start during the submit call, so its busy time is set against both.
        let submit_and_wait = (self.cpu[1].1 + self.cpu[2].1).as_secs_f64() * 1e6;
        rows.push(("GPU busy (sum of scopes)".into(), busy));
        rows.extend(
            self.cpu
                .iter()
                .map(|(label, d)| (label.to_string(), d.as_secs_f64() * 1e6)),
        );
        rows.push(("wall clock".into(), wall));
        rows.push(("outside the scopes".into(), wall - busy));
        rows.push((
            "submit and wait beyond GPU busy".into(),
            submit_and_wait - busy,
        ));
        rows
    }
}

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
    let mut rows = Vec::new();
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
            for (label, us) in scoped_step(&ctx, &mut scopes, &trainer)?.rows() {
                match by_scope.iter_mut().find(|(l, _)| *l == label) {
                    Some((_, v)) => v.push(us),
                    None => by_scope.push((label, vec![us])),
                }
            }
        }
        for (label, mut us) in by_scope {
            us.sort_by(f64::total_cmp);
            let (median, min, max) = (us[us.len() / 2], us[0], us[us.len() - 1]);
            eprintln!("training scopes {batch}x{hidden}, {sums}: {label}: {median:.1} µs");
            rows.push(ScopeRow {
                batch,
                hidden,
                batch_sums: sums.to_string(),
                scope: label,
                median_us: round_to(median, 3),
                min_us: round_to(min, 3),
                max_us: round_to(max, 3),
            });
        }
    }
    let [phases, kernels] = scope_charts(&rows, &ctx.adapter.get_info().name);
    let kernels_svg = format!("{name}_backward.svg");
    let mut side = Sidecar::new(
        &name,
        "GPU timestamp scopes of one training step (forward with the loss, backward with a scope \
         around each of its kernels, update, the loss's copy for read-back), the CPU's record, \
         submit, wait and read-back, and the step's wall time, with \
         the backward's batch sums done by one invocation or by one workgroup per element",
    )
    .with_adapter(ctx.report())
    .with_notes(vec![format!(
        "median of {steps} steps after one warm-up; min and max as the spread; each backward \
         kernel in its own compute pass inside the backward scope; the CPU's record, submit, \
         wait and loss read-back timed with Instant; 'outside the scopes' is wall clock minus \
         GPU busy, 'submit and wait beyond GPU busy' the CPU's submit and wait minus GPU busy, per \
         step, then the median"
    )]);
    // Listing any file replaces the usual pair, so all three are named.
    side.files = vec![format!("{name}.csv"), format!("{name}.svg")];
    Figure::new(side)
        .rows(&rows)?
        .chart(phases)
        .extra(&kernels_svg, kernels)
        .write()?;
    Ok(())
}
