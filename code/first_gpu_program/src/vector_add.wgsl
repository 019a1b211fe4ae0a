// ANCHOR: shader
// Three storage buffers, bound at group 0: two inputs the shader only reads, one output.
@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> sum: array<f32>;

// 64 invocations ("threads") per workgroup; the host launches enough workgroups to cover n.
@compute @workgroup_size(64)
fn add(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    // The last workgroup may run past the end: those invocations must do nothing.
    if i < arrayLength(&sum) {
        sum[i] = a[i] + b[i];
    }
}
// ANCHOR_END: shader
