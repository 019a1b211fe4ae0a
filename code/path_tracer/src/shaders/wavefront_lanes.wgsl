// Per bounce b: [4b] lanes busy, summed over every trip of every subgroup; [4b + 1] lanes offered
// (the subgroup's width per trip); [4b + 2] trips of every lane; [4b + 3] trips of every subgroup.
@group(0) @binding(10) var<storage, read_write> lane_counters: array<atomic<u32>>;

// `intersect` with a ballot at the top of every trip round the walk: the wavefront's own walk
// over its own queue, so each bounce's lanes are counted as the queue lays them out.
@compute @workgroup_size(64)
fn intersect_counting_lanes(
    @builtin(global_invocation_id) id: vec3u,
    @builtin(subgroup_size) width: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let i = id.x;
    if i >= atomicLoad(&counts[counter(params.bounce, 0u)]) { return; }
    let ray = rays_in[i];
    let inv_dir = inverse_dir(ray.dir);
    let at = 4u * params.bounce;
    var best = Hit(3.4e38, NO_HIT);
    var stack: array<u32, STACK_SIZE>;
    var top = 1u;
    stack[0] = 0u;
    var trips = 0u;
    while top > 0u {
        count_ballot(lane, width, at, at + 1u, at + 3u);
        trips += 1u;
        top -= 1u;
        let index = stack[top];
        let node = nodes[index];
        if !hits_box(node, ray.origin, inv_dir, best.t) { continue; }
        if node.count > 0u {
            for (var t_i = node.right_or_first; t_i < node.right_or_first + node.count; t_i++) {
                let t = intersect_triangle(triangles[t_i], ray.origin, ray.dir, best.t);
                if t > 0.0 { best = Hit(t, t_i); }
            }
        } else if top + 2u <= STACK_SIZE {
            stack[top] = node.right_or_first;
            stack[top + 1u] = index + 1u;
            top += 2u;
        }
    }
    atomicAdd(&lane_counters[at + 2u], trips);
    hits[i] = best;
}
