// ANCHOR: int8_weights
// int8 weights as `quantization::int8::Int8Weights::packed` lays them out: column c's k bytes,
// four to a u32, one f32 scale per column.
@group(0) @binding(1) var<storage, read> packed: array<u32>;
@group(0) @binding(2) var<storage, read> scales: array<f32>;

// Rows 4·chunk … 4·chunk+3 of column `col`, as real numbers.
fn weights4(col: u32, chunk: u32) -> vec4<f32> {
    let q = unpack4xI8(packed[col * shape.words_per_col + chunk]);
    return vec4<f32>(q) * scales[col];
}
// ANCHOR_END: int8_weights
