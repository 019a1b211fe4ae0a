// The unfused path's last pass per layer: y = max(y + b, 0) (no max on the last layer).
@group(0) @binding(1) var<storage, read> bias: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= shape.m * shape.n {
        return;
    }
    var v = y[i] + bias[i % shape.n];
    if shape.relu != 0u {
        v = max(v, 0.0);
    }
    y[i] = v;
}
