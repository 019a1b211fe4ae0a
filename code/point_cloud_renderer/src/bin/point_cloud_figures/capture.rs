//! The `capture` part: one fused frame per point order for a frame debugger, each between wgpu's
//! capture calls, with the frame and every scope a named debug group. It measures and writes
//! nothing: RenderDoc (Vulkan, Direct3D 12) or Xcode (Metal) saves the two frames when it
//! launched the program; without one attached, the calls do nothing and the frames are only
//! rendered.

use gpu_context::{GpuContext, GpuScopes};
use point_cloud_renderer::{PointCloud, Renderer, Variant, packing_for};

pub fn run(quick: bool, ctx: &GpuContext) -> anyhow::Result<()> {
    // The sweep's largest cloud; a software adapter's bindings (and patience) stop at 2M points.
    let (points, size) = match (quick, ctx.report().is_software()) {
        (true, _) => (1 << 16, (640, 360)),
        (false, true) => (1 << 21, (1920, 1080)),
        (false, false) => (1 << 24, (1920, 1080)),
    };
    let scene = PointCloud::scene(points, 1);
    let sorted = scene.sorted_morton()?;
    let camera = super::sweep::figure_camera(size);
    let packing = packing_for(scene.len())?;
    // ANCHOR: capture
    let mut scopes = GpuScopes::with_debug_groups(ctx, true)?;
    for (order, cloud) in [("scene order", &scene), ("Morton order", &sorted)] {
        let renderer = Renderer::new(ctx, cloud, &camera, size, packing)?;
        let group = format!("fused, {order}, {} points", cloud.len());
        renderer.render_named(ctx, &mut scopes, Variant::Fused, "warm-up")?;
        // SAFETY: no other capture is open (each one stops before the next starts), and the
        // frame has finished on the GPU before its capture stops, as wgpu's documentation asks.
        unsafe { ctx.device.start_graphics_debugger_capture() };
        let frame = renderer.render_named(ctx, &mut scopes, Variant::Fused, &group);
        unsafe { ctx.device.stop_graphics_debugger_capture() };
        frame?;
        println!("capture: {group}");
    }
    // ANCHOR_END: capture
    Ok(())
}
