// ANCHOR: shader
// A kernel whose cost we can dial: each invocation applies x ← 0.999·x + 0.001 `rounds` times.
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;
@group(0) @binding(2) var<storage, read> rounds: u32;

@compute @workgroup_size(64)
fn busy(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= arrayLength(&output) {
        return;
    }
    var x = input[i];
    for (var r = 0u; r < rounds; r++) {
        x = 0.999 * x + 0.001;
    }
    output[i] = x;
}
// ANCHOR_END: shader
