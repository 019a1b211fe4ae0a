// A dot product of two f16 vectors in one workgroup of 64 lanes. `ACC` is replaced by f16 or
// f32 before compiling: the storage is f16 either way, only the accumulator changes.
enable f16;

@group(0) @binding(0) var<storage, read> a: array<f16>;
@group(0) @binding(1) var<storage, read> b: array<f16>;
@group(0) @binding(2) var<storage, read_write> result: array<f32>;

var<workgroup> partial: array<ACC, 64>;

@compute @workgroup_size(64)
fn dot(@builtin(local_invocation_index) lane: u32) {
    // Each lane walks the vectors with a stride of 64 (neighbouring lanes read neighbouring
    // elements), adding into its own accumulator: n / 64 additions in a row, each one rounded.
    var acc = ACC(0.0);
    let n = arrayLength(&a);
    for (var i = lane; i < n; i += 64u) {
        acc += ACC(a[i]) * ACC(b[i]);
    }
    partial[lane] = acc;
    workgroupBarrier();
    // Then a tree over the 64 partial sums: only 6 more roundings.
    for (var stride = 32u; stride > 0u; stride /= 2u) {
        if lane < stride {
            partial[lane] += partial[lane + stride];
        }
        workgroupBarrier();
    }
    if lane == 0u {
        result[0] = f32(partial[0]);
    }
}
