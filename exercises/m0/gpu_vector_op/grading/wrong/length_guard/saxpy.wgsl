// SAXPY: y[i] = a * x[i] + y[i] for every i < params.n, and nothing else. Keep the bindings, the
// entry point's name and the workgroup size: the host code in lib.rs relies on them.
struct Params {
    n: u32,
    a: f32,
}

@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(64)
fn saxpy(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    // Rows of the grid are groups.x workgroups of 64 invocations wide.
    let i = id.y * groups.x * 64u + id.x;
    // The grid overshoots n (whole workgroups, whole rows), and y may be longer than n: the
    // buffer's length is no guard here, only n is.
    // Wrong on purpose: guarded by y's length, not by n (elements past n change).
    if i < arrayLength(&y) {
        y[i] = params.a * x[i] + y[i];
    }
}
