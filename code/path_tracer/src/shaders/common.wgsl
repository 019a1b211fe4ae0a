// What both GPU renderers share: the scene's layout, the random streams, the camera, the
// closest-hit traversal and the bounce. Each function mirrors the Rust one of the same name.

struct Triangle { v0: vec3f, material: u32, e1: vec3f, pad1: u32, e2: vec3f, pad2: u32 }
struct Material { albedo: vec3f, pad1: u32, emission: vec3f, pad2: u32 }
struct Node { min: vec3f, right_or_first: u32, max: vec3f, count: u32 }
struct Params {
    width: u32, height: u32, sample: u32, bounce: u32,
    max_depth: u32, seed: u32, tan_half_fov: f32, pad: u32,
}
struct Hit { t: f32, triangle: u32 }

const T_MIN: f32 = 1e-5;
const SURFACE_OFFSET: f32 = 1e-4;
const CAMERA: vec3f = vec3f(0.5, 0.5, -1.4);
const STACK_SIZE: u32 = 64u;
const NO_HIT: u32 = 0xffffffffu;

fn pcg_hash(v: u32) -> u32 {
    let state = v * 747796405u + 2891336453u;
    let word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}

fn random(seed: u32, pixel: u32, sample: u32, bounce: u32, dim: u32) -> f32 {
    let h = pcg_hash(pixel ^ pcg_hash(sample ^ pcg_hash(bounce * 8u + dim + pcg_hash(seed))));
    return f32(h >> 8u) * (1.0 / 16777216.0);
}

fn camera_dir(p: Params, pixel: u32, jitter: vec2f) -> vec3f {
    let x = f32(pixel % p.width);
    let y = f32(pixel / p.width);
    let aspect = f32(p.width) / f32(p.height);
    let sx = ((x + jitter.x) / f32(p.width) * 2.0 - 1.0) * p.tan_half_fov * aspect;
    let sy = (1.0 - (y + jitter.y) / f32(p.height) * 2.0) * p.tan_half_fov;
    return normalize(vec3f(sx, sy, 1.0));
}

fn intersect_triangle(tri: Triangle, origin: vec3f, dir: vec3f, t_max: f32) -> f32 {
    let p = cross(dir, tri.e2);
    let det = dot(tri.e1, p);
    if abs(det) < 1e-12 { return -1.0; }
    let inv_det = 1.0 / det;
    let s = origin - tri.v0;
    let u = dot(s, p) * inv_det;
    if u < 0.0 || u > 1.0 { return -1.0; }
    let q = cross(s, tri.e1);
    let v = dot(dir, q) * inv_det;
    if v < 0.0 || u + v > 1.0 { return -1.0; }
    let t = dot(tri.e2, q) * inv_det;
    if t > T_MIN && t < t_max { return t; }
    return -1.0;
}

fn inverse_dir(d: vec3f) -> vec3f {
    return 1.0 / select(d, vec3f(1e-20), abs(d) < vec3f(1e-20));
}

fn hits_box(node: Node, origin: vec3f, inv_dir: vec3f, t_max: f32) -> bool {
    let t0 = (node.min - origin) * inv_dir;
    let t1 = (node.max - origin) * inv_dir;
    let lo = min(t0, t1);
    let hi = max(t0, t1);
    let t_near = max(max(0.0, lo.x), max(lo.y, lo.z));
    let t_far = min(min(t_max, hi.x), min(hi.y, hi.z));
    return t_near <= t_far;
}

// ANCHOR: closest_hit
// The nearest triangle along the ray: pop a node, skip it if the ray misses its box, test a
// leaf's triangles, push an inner node's two children (left on top).
fn closest_hit(origin: vec3f, dir: vec3f) -> Hit {
    let inv_dir = inverse_dir(dir);
    var best = Hit(3.4e38, NO_HIT);
    var stack: array<u32, STACK_SIZE>;
    var top = 1u;
    stack[0] = 0u;
    while top > 0u {
        top -= 1u;
        let index = stack[top];
        let node = nodes[index];
        if !hits_box(node, origin, inv_dir, best.t) { continue; }
        if node.count > 0u {
            for (var i = node.right_or_first; i < node.right_or_first + node.count; i++) {
                let t = intersect_triangle(triangles[i], origin, dir, best.t);
                if t > 0.0 { best = Hit(t, i); }
            }
        } else if top + 2u <= STACK_SIZE {
            stack[top] = node.right_or_first;
            stack[top + 1u] = index + 1u;
            top += 2u;
        }
    }
    return best;
}
// ANCHOR_END: closest_hit

fn cosine_direction(n: vec3f, u1: f32, u2: f32) -> vec3f {
    let sign = select(-1.0, 1.0, n.z >= 0.0);
    let a = -1.0 / (sign + n.z);
    let b = n.x * n.y * a;
    let tangent = vec3f(1.0 + sign * n.x * n.x * a, sign * b, -sign * n.x);
    let bitangent = vec3f(b, sign + n.y * n.y * a, -n.y);
    let r = sqrt(u1);
    let phi = 6.2831855 * u2;
    let z = sqrt(max(1.0 - u1, 0.0));
    return tangent * (r * cos(phi)) + bitangent * (r * sin(phi)) + n * z;
}

fn facing_normal(tri: Triangle, dir: vec3f) -> vec3f {
    let n = normalize(cross(tri.e1, tri.e2));
    return select(n, -n, dot(n, dir) > 0.0);
}

fn is_emitter(m: Material) -> bool {
    return max(m.emission.x, max(m.emission.y, m.emission.z)) > 0.0;
}

// The chance that a path goes on after a bounce (Russian roulette), as `survival` in Rust.
fn survival(m: Material) -> f32 {
    return min(max(m.albedo.x, max(m.albedo.y, m.albedo.z)), 0.95);
}
