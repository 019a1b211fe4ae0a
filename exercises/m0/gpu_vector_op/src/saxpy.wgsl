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
    // TODO: turn (id, groups) into the element index i, the same way launch.rs lays out the
    // grid; skip invocations with i >= params.n; update y[i]. These lines only keep the bindings
    // in use.
    _ = params.a;
    _ = x[0];
    _ = id;
    _ = groups;
    y[0] = y[0];
}
