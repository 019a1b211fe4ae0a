@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> triangles: array<Triangle>;
@group(0) @binding(2) var<storage, read> nodes: array<Node>;
@group(0) @binding(3) var<storage, read> materials: array<Material>;
@group(0) @binding(4) var<storage, read_write> image: array<vec4f>;

// ANCHOR: megakernel
// One thread follows one path of one pixel through every bounce. Threads of a workgroup whose
// paths ended early idle until the longest path in the group is done.
@compute @workgroup_size(64)
fn megakernel(@builtin(global_invocation_id) id: vec3u) {
    let pixel = id.x;
    if pixel >= params.width * params.height { return; }
    let s = params.sample;
    let jitter = vec2f(random(params.seed, pixel, s, 0u, 0u), random(params.seed, pixel, s, 0u, 1u));
    var origin = CAMERA;
    var dir = camera_dir(params, pixel, jitter);
    var throughput = vec3f(1.0);
    var radiance = vec3f(0.0);
    for (var bounce = 0u; bounce < params.max_depth; bounce++) {
        let hit = closest_hit(origin, dir);
        if hit.triangle == NO_HIT { break; }
        let tri = triangles[hit.triangle];
        let m = materials[tri.material];
        if is_emitter(m) {
            radiance += throughput * m.emission;
            break;
        }
        if bounce + 1u == params.max_depth { break; }
        let q = select(survival(m), 1.0, bounce == 0u);
        if random(params.seed, pixel, s, bounce, 4u) >= q { break; }
        let n = facing_normal(tri, dir);
        let p = origin + dir * hit.t;
        throughput *= m.albedo * (1.0 / q);
        origin = p + n * SURFACE_OFFSET;
        dir = cosine_direction(n, random(params.seed, pixel, s, bounce, 2u),
                               random(params.seed, pixel, s, bounce, 3u));
    }
    image[pixel] += vec4f(radiance, 0.0);
}
// ANCHOR_END: megakernel
