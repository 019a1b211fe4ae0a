// One frame's result: the values of the frame summed into 16 bins by their low four bits.
// Given: the ring reads back whatever this writes.
@group(0) @binding(0) var<storage, read> values: array<u32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>>;

@compute @workgroup_size(64)
fn histogram(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&values) {
        let v = values[id.x];
        atomicAdd(&bins[v & 15u], v);
    }
}
