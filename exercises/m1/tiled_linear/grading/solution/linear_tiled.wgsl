// y = x · w + b with 16×16 tiles staged in workgroup memory (solution).
struct Dims { m: u32, k: u32, n: u32, pad: u32 }

@group(0) @binding(0) var<storage, read> dims: Dims;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read> w: array<f32>;
@group(0) @binding(3) var<storage, read> b: array<f32>;
@group(0) @binding(4) var<storage, read_write> y: array<f32>;

const TILE: u32 = 16u;
var<workgroup> tile_x: array<array<f32, 16>, 16>;
var<workgroup> tile_w: array<array<f32, 16>, 16>;

@compute @workgroup_size(16, 16)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let row = wid.y * TILE + lid.y;
    let col = wid.x * TILE + lid.x;
    var acc = 0.0;
    let steps = (dims.k + TILE - 1u) / TILE;
    for (var t = 0u; t < steps; t++) {
        // Each thread stages one element of x and one of w; zeros outside the matrices.
        let kx = t * TILE + lid.x;
        let kw = t * TILE + lid.y;
        var xv = 0.0;
        if (row < dims.m && kx < dims.k) {
            xv = x[row * dims.k + kx];
        }
        var wv = 0.0;
        if (kw < dims.k && col < dims.n) {
            wv = w[kw * dims.n + col];
        }
        tile_x[lid.y][lid.x] = xv;
        tile_w[lid.y][lid.x] = wv;
        workgroupBarrier();
        for (var i = 0u; i < TILE; i++) {
            acc += tile_x[lid.y][i] * tile_w[i][lid.x];
        }
        workgroupBarrier();
    }
    if (row < dims.m && col < dims.n) {
        y[row * dims.n + col] = acc + b[col];
    }
}
