// ANCHOR: group4_weights
// 4-bit weights as `quantization::group4::Group4Weights` lays them out: column c's k nibbles,
// eight to a u32, one f32 scale per `group` rows of a column.
@group(0) @binding(1) var<storage, read> packed: array<u32>;
@group(0) @binding(2) var<storage, read> scales: array<f32>;

// Rows 4·chunk … 4·chunk+3 of column `col`: half a word, one group (groups are multiples of 8).
fn weights4(col: u32, chunk: u32) -> vec4<f32> {
    let word = bitcast<i32>(packed[col * shape.words_per_col + chunk / 2u]);
    let first = 16u * (chunk % 2u);
    // extractBits on an i32 sign-extends the 4-bit field.
    let q = vec4<i32>(
        extractBits(word, first, 4u),
        extractBits(word, first + 4u, 4u),
        extractBits(word, first + 8u, 4u),
        extractBits(word, first + 12u, 4u),
    );
    let scale = scales[col * shape.groups_per_col + 4u * chunk / shape.group];
    return vec4<f32>(q) * scale;
}
// ANCHOR_END: group4_weights
