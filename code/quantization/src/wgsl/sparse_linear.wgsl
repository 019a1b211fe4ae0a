// y = x · W + b with W stored dense (transposed), as CSR, or as 2:4, all inside `params`.
// params: [m, k, n, layout, a, b, c, bias offset, then the weights...]
//   layout 0 dense:  a = offset of Wᵀ (n × k floats)
//   layout 1 CSR:    a = offset of starts (n + 1), b = offset of input positions, c = of values
//   layout 2 2:4:    a = offset of nibble words (8 groups a word), b = words per column, c = values
@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> x: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

fn weight(at: u32) -> f32 {
    return bitcast<f32>(params[at]);
}

// ANCHOR: sparse_linear
@compute @workgroup_size(16, 16)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let m = params[0];
    let k = params[1];
    let n = params[2];
    let col = id.x;
    let row = id.y;
    if row >= m || col >= n {
        return;
    }
    let xr = row * k;
    var acc = 0.0;
    switch params[3] {
        case 0u: {
            let w = params[4] + col * k;
            for (var p = 0u; p < k; p++) {
                acc += x[xr + p] * weight(w + p);
            }
        }
        case 1u: {
            for (var i = params[params[4] + col]; i < params[params[4] + col + 1u]; i++) {
                acc += x[xr + params[params[5] + i]] * weight(params[6] + i);
            }
        }
        default: {
            let groups = k / 4u;
            for (var g = 0u; g < groups; g++) {
                let nibble = params[params[4] + col * params[5] + g / 8u] >> (4u * (g % 8u));
                let v = params[6] + (col * groups + g) * 2u;
                acc += x[xr + 4u * g + (nibble & 3u)] * weight(v);
                acc += x[xr + 4u * g + ((nibble >> 2u) & 3u)] * weight(v + 1u);
            }
        }
    }
    y[row * n + col] = acc + weight(params[7] + col);
}
// ANCHOR_END: sparse_linear
