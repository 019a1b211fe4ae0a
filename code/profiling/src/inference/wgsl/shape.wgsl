// One layer's sizes, shared by every kernel of the case study. `words` counts four-value chunks
// of a row of x (k rounded up to a multiple of 4, divided by 4).
struct Shape {
    m: u32,
    n: u32,
    words: u32,
    words_per_col: u32,
    groups_per_col: u32,
    group: u32,
    relu: u32,
}
@group(0) @binding(0) var<storage, read> shape: Shape;
