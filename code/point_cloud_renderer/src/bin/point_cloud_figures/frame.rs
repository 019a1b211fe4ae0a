use bench_harness::{FigureArgs, Sidecar, figures_dir};
use gpu_context::{GpuContext, GpuScopes};
use point_cloud_renderer::{PointCloud, Renderer, Variant, packing_for};

/// One frame of the sweep's scene and camera, as a PNG: what the renderer draws.
pub fn run(args: &FigureArgs, ctx: &GpuContext) -> anyhow::Result<()> {
    let (points, size) = if args.quick {
        (100_000, (480, 270))
    } else {
        (1 << 20, (960, 540))
    };
    let cloud = PointCloud::scene(points, 1).sorted_morton()?;
    let camera = super::sweep::figure_camera(size);
    let renderer = Renderer::new(ctx, &cloud, &camera, size, packing_for(cloud.len())?)?;
    renderer.render(ctx, &mut GpuScopes::new(ctx)?, Variant::Fused)?;
    let frame = renderer.read_frame(ctx)?;
    let name = args.figure_name("pointcloud", "frame");
    let dir = figures_dir();
    std::fs::create_dir_all(&dir)?;
    let path = dir.join(format!("{name}.png"));
    let file = std::io::BufWriter::new(std::fs::File::create(&path)?);
    let mut encoder = png::Encoder::new(file, size.0, size.1);
    encoder.set_color(png::ColorType::Rgba);
    encoder.set_depth(png::BitDepth::Eight);
    // RGBA8 with red in the low byte: little-endian bytes are already R, G, B, A.
    let bytes: Vec<u8> = frame.rgba.iter().flat_map(|c| c.to_le_bytes()).collect();
    encoder.write_header()?.write_image_data(&bytes)?;
    let mut sidecar = Sidecar::new(
        &name,
        "One frame of the point-cloud renderer (fused kernel, Morton-sorted cloud)",
    );
    sidecar.set_adapter(ctx.report());
    sidecar.notes = vec![format!(
        "{} points of module 3's scene (seed 1), {}×{} pixels, the sweep's camera",
        cloud.len(),
        size.0,
        size.1
    )];
    sidecar.files = vec![format!("{name}.png")];
    sidecar.write(&dir.join(format!("{name}.json")))?;
    println!("frame → {name}.png");
    Ok(())
}
