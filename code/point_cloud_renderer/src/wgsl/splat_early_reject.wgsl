// Module 3's splat kernel with one change: read the pixel first, and skip the atomic when it
// already holds a nearer (smaller) value. The result is the same; an atomicMin that would not
// change the pixel is never issued.

@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read> points: array<ScreenPoint>;
@group(0) @binding(2) var<storage, read_write> image: array<atomic<u32>>;

// ANCHOR: early_reject
@compute @workgroup_size(64)
fn splat(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    for (var i = gid.x; i < params.count; i += groups.x * 64u) {
        let p = points[i];
        let on_screen = p.x >= 0.0 && p.x < f32(params.width)
            && p.y >= 0.0 && p.y < f32(params.height);
        let in_range = p.depth >= params.near && p.depth < params.far;
        if on_screen && in_range {
            let code = min(u32((p.depth - params.near) * params.scale), params.max_code);
            let packed = (code << params.id_bits) | i;
            let pixel = u32(p.y) * params.width + u32(p.x);
            // A plain load may be stale, but values only ever shrink: a stale value is larger
            // than the current one, so the test can let a useless atomic through, never skip a
            // needed one.
            if atomicLoad(&image[pixel]) > packed {
                atomicMin(&image[pixel], packed);
            }
        }
    }
}
// ANCHOR_END: early_reject
