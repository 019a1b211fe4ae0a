struct Elements {
    count: u32,
    rate: f32,
}

@group(0) @binding(0) var<storage, read> elements: Elements;
@group(0) @binding(1) var<storage, read> grad: array<f32>;
@group(0) @binding(2) var<storage, read_write> param: array<f32>;

// ANCHOR: sgd
// One step of gradient descent, in place: the parameters never leave the GPU.
@compute @workgroup_size(256)
fn main(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let i = id.y * groups.x * 256u + id.x;
    if i >= elements.count {
        return;
    }
    param[i] -= elements.rate * grad[i];
}
// ANCHOR_END: sgd
