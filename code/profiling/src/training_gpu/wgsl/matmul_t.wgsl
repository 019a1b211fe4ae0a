// C = op(A) · op(B), where op either leaves a matrix as it is stored or reads it transposed.
// The transpose is only a different index: no transposed copy is ever written.
struct Product {
    m: u32, // rows of C and of op(A)
    k: u32, // columns of op(A), rows of op(B)
    n: u32, // columns of C and of op(B)
    // bit 0: A is stored k×m and read transposed; bit 1: B is stored n×k and read transposed
    flags: u32,
}

@group(0) @binding(0) var<storage, read> shape: Product;
@group(0) @binding(1) var<storage, read> a: array<f32>;
@group(0) @binding(2) var<storage, read> b: array<f32>;
@group(0) @binding(3) var<storage, read_write> c: array<f32>;

// ANCHOR: matmul_t
// One invocation per element of C, x along its columns (as the course's Linear kernel).
// Walking p moves through op(A)'s row and op(B)'s column: one step of 1 or of a row's length,
// depending on how each matrix is stored.
@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let col = id.x;
    let row = id.y;
    if row >= shape.m || col >= shape.n {
        return;
    }
    var a_at = row * shape.k;
    var a_step = 1u;
    if (shape.flags & 1u) != 0u {
        a_at = row;
        a_step = shape.m;
    }
    var b_at = col;
    var b_step = shape.n;
    if (shape.flags & 2u) != 0u {
        b_at = col * shape.k;
        b_step = 1u;
    }
    var acc = 0.0;
    for (var p = 0u; p < shape.k; p++) {
        acc += a[a_at] * b[b_at];
        a_at += a_step;
        b_at += b_step;
    }
    c[row * shape.n + col] = acc;
}
// ANCHOR_END: matmul_t
