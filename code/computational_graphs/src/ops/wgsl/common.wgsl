// Shared by every hand-written operator kernel: the shape of the work, in a small buffer.
// m×k input, k×n weights, m×n output (unary operators use m×n only).
struct Dims {
    m: u32,
    k: u32,
    n: u32,
    pad: u32,
}
