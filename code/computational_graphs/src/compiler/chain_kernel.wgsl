// Template of a chain kernel: a run of small Linears (and ReLUs, and a final softmax) in one
// dispatch. Rows are independent through all of these, so each workgroup takes one row of the
// input and carries it through every layer in workgroup memory; only the weights (packed into
// `params`) are read from global memory, and only the last layer's row is written back.
const T: u32 = {T}u;

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> params: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

// The workgroup's row, as wide as the widest layer; `red` for the softmax's reductions.
var<workgroup> act: array<f32, {WIDEST}>;
var<workgroup> red: array<f32, {T}>;

fn load_row(row: u32, width: u32, t: u32) {
    for (var c = t; c < width; c += T) {
        act[c] = x[row * width + c];
    }
    workgroupBarrier();
}

// ANCHOR: linear
// act (1 × k) becomes act · W + bias (1 × n), then max(·, 0) if `relu`. W starts at params[w]
// (k × n, row-major), the bias at params[b]. Invocation t computes column t with one scalar
// sum; eight weights are loaded together, so that their latencies overlap.
fn linear(k: u32, n: u32, w: u32, b: u32, relu: bool, t: u32) {
    var s = 0.0;
    if (t < n) {
        var p = 0u;
        for (; p + 8u <= k; p += 8u) {
            let at = w + p * n + t;
            let w0 = params[at];
            let w1 = params[at + n];
            let w2 = params[at + 2u * n];
            let w3 = params[at + 3u * n];
            let w4 = params[at + 4u * n];
            let w5 = params[at + 5u * n];
            let w6 = params[at + 6u * n];
            let w7 = params[at + 7u * n];
            s = fma(act[p], w0, s);
            s = fma(act[p + 1u], w1, s);
            s = fma(act[p + 2u], w2, s);
            s = fma(act[p + 3u], w3, s);
            s = fma(act[p + 4u], w4, s);
            s = fma(act[p + 5u], w5, s);
            s = fma(act[p + 6u], w6, s);
            s = fma(act[p + 7u], w7, s);
        }
        for (; p < k; p++) {
            s = fma(act[p], params[w + p * n + t], s);
        }
        s += params[b + t];
        if (relu) {
            s = max(s, 0.0);
        }
    }
    // Every invocation has read the row before any overwrites it.
    workgroupBarrier();
    if (t < n) {
        act[t] = s;
    }
    workgroupBarrier();
}
// ANCHOR_END: linear

fn relu_row(width: u32, t: u32) {
    if (t < width) {
        act[t] = max(act[t], 0.0);
    }
    workgroupBarrier();
}

// A tree reduction over the T invocations (T is a power of two).
fn reduce(t: u32, value: f32, take_max: bool) -> f32 {
    red[t] = value;
    workgroupBarrier();
    for (var stride = T / 2u; stride > 0u; stride /= 2u) {
        if (t < stride) {
            let other = red[t + stride];
            red[t] = select(red[t] + other, max(red[t], other), take_max);
        }
        workgroupBarrier();
    }
    let result = red[0];
    workgroupBarrier();
    return result;
}

fn softmax_row(width: u32, t: u32) {
    var v = -0x1.fffffep+127f;
    if (t < width) {
        v = act[t];
    }
    let row_max = reduce(t, v, true);
    var e = 0.0;
    if (t < width) {
        e = exp(v - row_max);
    }
    let sum = reduce(t, e, false);
    if (t < width) {
        act[t] = e / sum;
    }
    workgroupBarrier();
}

fn store_row(row: u32, width: u32, t: u32) {
    for (var c = t; c < width; c += T) {
        y[row * width + c] = act[c];
    }
}

// The steps are data at the start of `params` (STEPS of them, six words each: kind, k, n, the
// weights' and the bias's offsets, ReLU), so that the shader is the same at any depth and any
// number of rows. `params` is read-only, so every value read from it is uniform, and the
// barriers may follow it.
fn word(i: u32) -> u32 {
    return bitcast<u32>(params[i]);
}

@compute @workgroup_size({T})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let row = wg.x;
    load_row(row, {WIDTH_IN}u, t);
    for (var s = 0u; s < {STEPS}u; s++) {
        let d = 6u * s;
        let kind = word(d);
        if (kind == 0u) {
            linear(word(d + 1u), word(d + 2u), word(d + 3u), word(d + 4u), word(d + 5u) != 0u, t);
        } else if (kind == 1u) {
            relu_row(word(d + 2u), t);
        } else {
            softmax_row(word(d + 2u), t);
        }
    }
    store_row(row, {WIDTH_OUT}u, t);
}
