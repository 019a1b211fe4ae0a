//! The point-cloud renderer's figures (run from the repository root):
//!
//! - `sweep`: every optimization step at 1M to 16M points (fewer on a software adapter and with
//!   `--quick`): ms per frame and points per second, and each pass's GPU scope at the largest
//!   size;
//! - `frame`: one rendered frame as a PNG;
//! - `atomics`: the atomics each splat kernel issues in one frame, counted by the kernel (a
//!   debug variant of the splat), at 1M and 16M points, in scene and Morton order;
//! - `capture` (only when named in `--only`): one fused frame per point order between wgpu's
//!   graphics-debugger capture calls, with debug groups, for RenderDoc or Xcode to save.
//!
//! ```text
//! cargo run --release -p point_cloud_renderer --bin point_cloud_figures -- --machine h100
//! renderdoccmd capture -w -c captures/pointcloud \
//!     target/release/point_cloud_figures --only capture
//! ```

mod atomics;
mod capture;
mod frame;
mod redraw;
mod sweep;

use anyhow::Context;
use bench_harness::FigureArgs;
use gpu_context::{GpuContext, GpuScopes};

const PARTS: &[&str] = &["sweep", "frame", "atomics", "capture"];

/// A device with the timestamp features the scopes use; without them, frames are timed by the
/// CPU clock around submit-and-wait.
fn open_gpu() -> anyhow::Result<GpuContext> {
    GpuScopes::open_context()
        .or_else(|_| GpuContext::new())
        .context("the renderer needs an adapter (lavapipe will do for a smoke test)")
}

fn main() -> std::process::ExitCode {
    bench_harness::exit_code(run())
}

fn run() -> anyhow::Result<()> {
    let args = &FigureArgs::parse_with_about(
        "Point-cloud renderer figures: frame time and points/s per optimization step, GPU scopes. \
         Parts: sweep, frame, atomics; capture (one fused frame per point order for a frame \
         debugger) runs only when named in --only",
    );
    // Before the checks and before any adapter: a redraw measures nothing.
    if args.redraw {
        return redraw::run(args, PARTS);
    }
    // A capture is for a debugger, not a figure: it runs only when asked for, and (measuring
    // and writing nothing) from any tree on any machine.
    let capture = args.only.iter().any(|part| part == "capture");
    let measures = args.only.iter().any(|part| part != "capture") || args.only.is_empty();
    let checks = FigureArgs {
        allow_dirty: args.allow_dirty || !measures,
        allow_busy: args.allow_busy || !measures,
        ..args.clone()
    };
    checks.start(PARTS)?;
    let ctx = open_gpu()?;
    eprintln!("GPU: {}", ctx.report().to_json());
    if args.wants("sweep") {
        sweep::run(args, &ctx)?;
    }
    if args.wants("frame") {
        frame::run(args, &ctx)?;
    }
    if args.wants("atomics") {
        atomics::run(args, &ctx)?;
    }
    if capture {
        capture::run(args.quick, &ctx)?;
    }
    Ok(())
}
