//! Figures of the path tracer case study (run from the repository root):
//!
//! - `throughput`: rays per second of the megakernel and the wavefront against the bounce limit,
//!   for a small and a large scene, and the length of the wavefront's queue at each bounce;
//! - `kernels`: where the wavefront's GPU time goes, kernel by kernel, beside the megakernel's;
//! - `bvh`: the Morton-code tree against the binned-SAH tree: node visits per ray, lane use,
//!   and the GPU time of `intersect`, of the wavefront and of the megakernel;
//! - `bounce_lanes`: the megakernel's lanes with a path to trace at each bounce, counted by
//!   subgroup ballots;
//! - `wavefront_lanes`: the lanes taking part in the wavefront's own `intersect`, bounce by
//!   bounce, counted by subgroup ballots, over both trees.
//!
//! GPU time comes from timing scopes around every pass where the adapter has timestamps, and
//! from the CPU clock around submit-and-wait where it has not.

mod bounce_lanes;
mod bvh;
mod kernels;
mod redraw;
mod setup;
mod throughput;
mod wavefront_lanes;

use bench_harness::FigureArgs;
use setup::Gpu;

const PARTS: &[&str] = &[
    "throughput",
    "kernels",
    "bvh",
    "bounce_lanes",
    "wavefront_lanes",
];

fn main() -> anyhow::Result<()> {
    let args = &FigureArgs::parse_with_about(
        "Path tracer figures: megakernel against wavefront (see code/path_tracer/README.md)",
    );
    // Before any check of the machine or any adapter: a redraw measures nothing.
    if args.redraw {
        return redraw::run(args, PARTS);
    }
    args.start(PARTS)?;
    let mut gpu = Gpu::open()?;
    eprintln!(
        "GPU: {} — timing: {}",
        gpu.ctx.report().to_json(),
        gpu.timing_source()
    );
    if args.wants("throughput") {
        throughput::run(args, &mut gpu)?;
    }
    if args.wants("kernels") {
        kernels::run(args, &mut gpu)?;
    }
    if args.wants("bvh") {
        bvh::run(args, &mut gpu)?;
    }
    if args.wants("bounce_lanes") {
        bounce_lanes::run(args, &gpu)?;
    }
    if args.wants("wavefront_lanes") {
        wavefront_lanes::run(args, &gpu)?;
    }
    Ok(())
}
