struct Elements {
    count: u32,
    rate: f32, // unused here; the same header as the SGD kernel's
}

@group(0) @binding(0) var<storage, read> elements: Elements;
@group(0) @binding(1) var<storage, read> activation: array<f32>;
@group(0) @binding(2) var<storage, read_write> grad: array<f32>;

// ANCHOR: relu_backward
// The gradient passes where the ReLU's output is positive (exactly where its input was) and
// stops elsewhere, in place.
@compute @workgroup_size(256)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = id.y * groups.x * 256u + id.x;
    if i >= elements.count {
        return;
    }
    if activation[i] <= 0.0 {
        grad[i] = 0.0;
    }
}
// ANCHOR_END: relu_backward
