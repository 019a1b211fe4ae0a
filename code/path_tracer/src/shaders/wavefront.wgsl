// A ray waiting in a queue: where it is, where it goes, whose pixel it lights and how much of
// the light it finds still reaches the camera.
struct Ray { origin: vec3f, pixel: u32, dir: vec3f, pad1: u32, throughput: vec3f, pad2: u32 }

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> triangles: array<Triangle>;
@group(0) @binding(2) var<storage, read> nodes: array<Node>;
@group(0) @binding(3) var<storage, read> materials: array<Material>;
@group(0) @binding(4) var<storage, read_write> image: array<vec4f>;
@group(0) @binding(5) var<storage, read> rays_in: array<Ray>;
@group(0) @binding(6) var<storage, read_write> rays_out: array<Ray>;
@group(0) @binding(7) var<storage, read_write> hits: array<Hit>;
// Per (sample, bounce), four counters: rays in the queue, terminated, continued, unused.
@group(0) @binding(8) var<storage, read_write> counts: array<atomic<u32>>;
// Per (sample, bounce), the workgroup counts (x, y, z) of an indirect dispatch.
@group(0) @binding(9) var<storage, read_write> dispatch_args: array<u32>;

fn counter(bounce: u32, which: u32) -> u32 {
    return (params.sample * params.max_depth + bounce) * 4u + which;
}

// ANCHOR: generate
// One camera ray per pixel into the first queue.
@compute @workgroup_size(64)
fn generate(@builtin(global_invocation_id) id: vec3u) {
    let pixel = id.x;
    let n = params.width * params.height;
    if pixel == 0u { atomicStore(&counts[counter(0u, 0u)], n); }
    if pixel >= n { return; }
    let s = params.sample;
    let jitter = vec2f(random(params.seed, pixel, s, 0u, 0u), random(params.seed, pixel, s, 0u, 1u));
    rays_out[pixel] = Ray(CAMERA, pixel, camera_dir(params, pixel, jitter), 0u, vec3f(1.0), 0u);
}
// ANCHOR_END: generate

// ANCHOR: intersect
// Every thread traces one queued ray and stores its nearest hit. Threads still diverge inside
// the walk, but none waits for another path's later bounces.
@compute @workgroup_size(64)
fn intersect(@builtin(global_invocation_id) id: vec3u) {
    let i = id.x;
    if i >= atomicLoad(&counts[counter(params.bounce, 0u)]) { return; }
    let ray = rays_in[i];
    hits[i] = closest_hit(ray.origin, ray.dir);
}
// ANCHOR_END: intersect

var<workgroup> group_continued: atomic<u32>;
var<workgroup> group_terminated: atomic<u32>;
var<workgroup> group_base: u32;

// Every thread shades one hit: light found is added to its pixel, and a path that goes on
// appends its next ray to the next queue. Slots are handed out per workgroup first (cheap
// workgroup atomics) and then claimed with one global atomic per workgroup.
@compute @workgroup_size(64)
fn shade(@builtin(global_invocation_id) id: vec3u, @builtin(local_invocation_index) lane: u32) {
    if lane == 0u {
        atomicStore(&group_continued, 0u);
        atomicStore(&group_terminated, 0u);
    }
    workgroupBarrier();
    let bounce = params.bounce;
    let i = id.x;
    var next: Ray;
    var goes_on = false;
    var slot = 0u;
    if i < atomicLoad(&counts[counter(bounce, 0u)]) {
        let ray = rays_in[i];
        let hit = hits[i];
        if hit.triangle != NO_HIT {
            let tri = triangles[hit.triangle];
            let m = materials[tri.material];
            if is_emitter(m) {
                // One live ray per pixel at a time, so this add needs no atomic.
                image[ray.pixel] += vec4f(ray.throughput * m.emission, 0.0);
            } else if bounce + 1u < params.max_depth {
                let s = params.sample;
                let q = select(survival(m), 1.0, bounce == 0u);
                goes_on = random(params.seed, ray.pixel, s, bounce, 4u) < q;
                let n = facing_normal(tri, ray.dir);
                let p = ray.origin + ray.dir * hit.t;
                let dir = cosine_direction(n, random(params.seed, ray.pixel, s, bounce, 2u),
                                           random(params.seed, ray.pixel, s, bounce, 3u));
                let weight = m.albedo * (1.0 / q);
                next = Ray(p + n * SURFACE_OFFSET, ray.pixel, dir, 0u, ray.throughput * weight, 0u);
            }
        }
        if goes_on {
            slot = atomicAdd(&group_continued, 1u);
        } else {
            atomicAdd(&group_terminated, 1u);
        }
    }
    // ANCHOR: claim
    workgroupBarrier();
    if lane == 0u {
        let continued = atomicLoad(&group_continued);
        if continued > 0u {
            group_base = atomicAdd(&counts[counter(bounce + 1u, 0u)], continued);
            atomicAdd(&counts[counter(bounce, 2u)], continued);
        }
        atomicAdd(&counts[counter(bounce, 1u)], atomicLoad(&group_terminated));
    }
    workgroupBarrier();
    if goes_on {
        rays_out[group_base + slot] = next;
    }
    // ANCHOR_END: claim
}

// ANCHOR: prepare
// One thread turns the next queue's length into the workgroup count of the next bounce's
// dispatches, so the CPU never waits to read it.
@compute @workgroup_size(1)
fn prepare() {
    let next = params.bounce + 1u;
    let n = atomicLoad(&counts[counter(next, 0u)]);
    let at = (params.sample * params.max_depth + next) * 3u;
    dispatch_args[at] = (n + 63u) / 64u;
    dispatch_args[at + 1u] = 1u;
    dispatch_args[at + 2u] = 1u;
}
// ANCHOR_END: prepare
