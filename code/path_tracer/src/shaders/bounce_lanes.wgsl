@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> triangles: array<Triangle>;
@group(0) @binding(2) var<storage, read> nodes: array<Node>;
@group(0) @binding(3) var<storage, read> materials: array<Material>;
// For bounce b: [3b] lanes busy, summed over the subgroups that ran bounce b; [3b + 1] lanes
// offered (the subgroup's width, once for each subgroup that ran it); [3b + 2] those subgroups.
@group(0) @binding(4) var<storage, read_write> lane_counters: array<atomic<u32>>;

// The megakernel's paths (first sample), with a ballot at the top of every bounce: the lanes
// whose paths are still alive vote, so a subgroup that runs bounce b reports how many of its
// lanes have work there. No image is written.
@compute @workgroup_size(64)
fn count_bounce_lanes(
    @builtin(global_invocation_id) id: vec3u,
    @builtin(subgroup_size) width: u32,
    @builtin(subgroup_invocation_id) lane: u32,
) {
    let pixel = id.x;
    if pixel >= params.width * params.height { return; }
    let s = params.sample;
    let jitter = vec2f(random(params.seed, pixel, s, 0u, 0u), random(params.seed, pixel, s, 0u, 1u));
    var origin = CAMERA;
    var dir = camera_dir(params, pixel, jitter);
    for (var bounce = 0u; bounce < params.max_depth; bounce++) {
        count_ballot(lane, width, 3u * bounce, 3u * bounce + 1u, 3u * bounce + 2u);
        let hit = closest_hit(origin, dir);
        if hit.triangle == NO_HIT { break; }
        let tri = triangles[hit.triangle];
        let m = materials[tri.material];
        if is_emitter(m) || bounce + 1u == params.max_depth { break; }
        let q = select(survival(m), 1.0, bounce == 0u);
        if random(params.seed, pixel, s, bounce, 4u) >= q { break; }
        let n = facing_normal(tri, dir);
        let p = origin + dir * hit.t;
        origin = p + n * SURFACE_OFFSET;
        dir = cosine_direction(n, random(params.seed, pixel, s, bounce, 2u),
                               random(params.seed, pixel, s, bounce, 3u));
    }
}
