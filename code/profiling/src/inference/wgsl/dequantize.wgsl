// ANCHOR: dequantize
// The unfused path's first pass: every weight of the layer written out as f32, transposed
// (n rows of `words` vec4s), for the f32 GEMM to read back.
@group(0) @binding(3) var<storage, read_write> w_t: array<vec4<f32>>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let chunk = id.x;
    let col = id.y;
    if chunk >= shape.words || col >= shape.n {
        return;
    }
    w_t[col * shape.words + chunk] = weights4(col, chunk);
}
// ANCHOR_END: dequantize
