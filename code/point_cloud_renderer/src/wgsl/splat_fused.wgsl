// Projection and depth test in one kernel: the projected point stays in registers instead of
// making a round trip through memory, and the atomic is skipped when the pixel already holds
// a nearer (smaller) value. Bindings 0 and 3 are those of module 3's splat kernel.

@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read> camera: Camera;
@group(0) @binding(2) var<storage, read> positions: array<Position>;
@group(0) @binding(3) var<storage, read_write> image: array<atomic<u32>>;

// ANCHOR: fused
@compute @workgroup_size(64)
fn project_splat(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    for (var i = gid.x; i < params.count; i += groups.x * 64u) {
        let p = project(camera, positions[i]);
        let on_screen = p.x >= 0.0 && p.x < f32(params.width)
            && p.y >= 0.0 && p.y < f32(params.height);
        let in_range = p.depth >= params.near && p.depth < params.far;
        if on_screen && in_range {
            let code = min(u32((p.depth - params.near) * params.scale), params.max_code);
            let packed = (code << params.id_bits) | i;
            let pixel = u32(p.y) * params.width + u32(p.x);
            if atomicLoad(&image[pixel]) > packed {
                atomicMin(&image[pixel], packed);
            }
        }
    }
}
// ANCHOR_END: fused
