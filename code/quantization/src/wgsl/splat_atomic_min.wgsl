// The depth test of a point renderer as one atomicMin per point: the depth, quantised to a bin,
// sits above the point's id in one u32, so the smallest value in a pixel is the nearest point,
// and its low bits say which point that was. Ties (one bin) go to the lower id.

struct Point {
    x: f32,
    y: f32,
    depth: f32,
}

struct Params {
    width: u32,
    height: u32,
    count: u32,
    id_bits: u32,
    near: f32,
    far: f32,
    scale: f32,    // depth codes per metre
    max_code: u32, // the all-ones code above it marks an empty pixel
}

@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read> points: array<Point>;
@group(0) @binding(2) var<storage, read_write> image: array<atomic<u32>>;

// ANCHOR: splat
@compute @workgroup_size(64)
fn splat(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    // A grid-stride loop: a dispatch has at most 65 535 workgroups in x, a cloud may have more
    // points than that many invocations.
    let stride = groups.x * 64u;
    for (var i = gid.x; i < params.count; i += stride) {
        let p = points[i];
        let on_screen = p.x >= 0.0 && p.x < f32(params.width)
            && p.y >= 0.0 && p.y < f32(params.height);
        let in_range = p.depth >= params.near && p.depth < params.far;
        if on_screen && in_range {
            // The same two correctly rounded operations and truncation as Packing32::depth_code.
            let code = min(u32((p.depth - params.near) * params.scale), params.max_code);
            let pixel = u32(p.y) * params.width + u32(p.x);
            atomicMin(&image[pixel], (code << params.id_bits) | i);
        }
    }
}
// ANCHOR_END: splat
