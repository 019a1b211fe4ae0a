@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> triangles: array<Triangle>;
@group(0) @binding(2) var<storage, read> nodes: array<Node>;
// 0: lanes busy, summed over every trip of every subgroup; 1: lanes offered (subgroup size per
// trip); 2: trips of every lane; 3: trips of every subgroup.
@group(0) @binding(3) var<storage, read_write> lane_counters: array<atomic<u32>, 4>;

// Each camera ray walks the tree as in `closest_hit`. At the top of every trip round the loop,
// the lanes that run it together vote (`count_ballot`, in ballot.wgsl), counting the lanes
// busy in the walk.
@compute @workgroup_size(64)
fn count_lanes(
    @builtin(global_invocation_id) id: vec3u,
    @builtin(subgroup_size) width: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let pixel = id.x;
    if pixel >= params.width * params.height { return; }
    let jitter = vec2f(random(params.seed, pixel, 0u, 0u, 0u), random(params.seed, pixel, 0u, 0u, 1u));
    let dir = camera_dir(params, pixel, jitter);
    let inv_dir = inverse_dir(dir);
    var t_max = 3.4e38;
    var stack: array<u32, STACK_SIZE>;
    var top = 1u;
    stack[0] = 0u;
    // ANCHOR: lane_count
    var trips = 0u;
    while top > 0u {
        count_ballot(lane, width, 0u, 1u, 3u);
        trips += 1u;
        top -= 1u;
        let index = stack[top];
        let node = nodes[index];
        if !hits_box(node, CAMERA, inv_dir, t_max) { continue; }
        if node.count > 0u {
            for (var i = node.right_or_first; i < node.right_or_first + node.count; i++) {
                let t = intersect_triangle(triangles[i], CAMERA, dir, t_max);
                if t > 0.0 { t_max = t; }
            }
        } else if top + 2u <= STACK_SIZE {
            stack[top] = node.right_or_first;
            stack[top + 1u] = index + 1u;
            top += 2u;
        }
    }
    atomicAdd(&lane_counters[2], trips);
}
// ANCHOR_END: lane_count
