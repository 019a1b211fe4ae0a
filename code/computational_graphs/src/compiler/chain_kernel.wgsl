// Template of a chain kernel: a run of small Linears (and ReLUs, and a final softmax) in one
// dispatch. Rows are independent through all of these, so each workgroup takes RB rows of the
// input and carries them through every layer in workgroup memory; only the weights (packed into
// `params`) are read from global memory, and only the last layer's rows are written back.
const RB: u32 = {RB}u;
const T: u32 = {T}u;
const CPT: u32 = {CPT}u;
const CHUNK: u32 = 8u;

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> params: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

// RB rows of the widest layer.
var<workgroup> act: array<f32, {ACT}>;

fn load_rows(rows: u32, row0: u32, width: u32, t: u32) {
    for (var i = t; i < RB * width; i += T) {
        var v = 0.0;
        if (row0 + i / width < rows) {
            v = x[row0 * width + i];
        }
        act[i] = v;
    }
    workgroupBarrier();
}

// ANCHOR: linear
// act (RB × k) becomes act · W + bias (RB × n), then max(·, 0) if `relu`. W starts at params[w]
// (k × n, row-major), the bias at params[b]. Invocation t computes columns t, t + T, ….
fn linear(k: u32, n: u32, w: u32, b: u32, relu: bool, t: u32) {
    var acc: array<f32, {ACC}>;
    for (var p0 = 0u; p0 < k; p0 += CHUNK) {
        for (var j = 0u; j < CPT; j++) {
            let col = t + j * T;
            // CHUNK loads issued together, so that their latencies overlap.
            var wv: array<f32, 8>;
            for (var q = 0u; q < CHUNK; q++) {
                if (col < n && p0 + q < k) {
                    wv[q] = params[w + (p0 + q) * n + col];
                }
            }
            for (var r = 0u; r < RB; r++) {
                var s = acc[r * CPT + j];
                if (p0 + CHUNK <= k) {
                    for (var q = 0u; q < CHUNK; q++) {
                        s = fma(act[r * k + p0 + q], wv[q], s);
                    }
                } else {
                    for (var q = 0u; p0 + q < k; q++) {
                        s = fma(act[r * k + p0 + q], wv[q], s);
                    }
                }
                acc[r * CPT + j] = s;
            }
        }
    }
    // Every invocation has read its inputs before any overwrites them.
    workgroupBarrier();
    for (var j = 0u; j < CPT; j++) {
        let col = t + j * T;
        if (col < n) {
            let bias = params[b + col];
            for (var r = 0u; r < RB; r++) {
                var v = acc[r * CPT + j] + bias;
                if (relu) {
                    v = max(v, 0.0);
                }
                act[r * n + col] = v;
            }
        }
    }
    workgroupBarrier();
}
// ANCHOR_END: linear

fn relu_rows(width: u32, t: u32) {
    for (var i = t; i < RB * width; i += T) {
        act[i] = max(act[i], 0.0);
    }
    workgroupBarrier();
}

// One invocation per row: the rows are short (at most a few hundred values).
fn softmax_rows(width: u32, t: u32) {
    if (t < RB) {
        let row = t * width;
        var m = -0x1.fffffep+127f;
        for (var c = 0u; c < width; c++) {
            m = max(m, act[row + c]);
        }
        var sum = 0.0;
        for (var c = 0u; c < width; c++) {
            let e = exp(act[row + c] - m);
            act[row + c] = e;
            sum += e;
        }
        for (var c = 0u; c < width; c++) {
            act[row + c] = act[row + c] / sum;
        }
    }
    workgroupBarrier();
}

fn store_rows(rows: u32, row0: u32, width: u32, t: u32) {
    for (var i = t; i < RB * width; i += T) {
        if (row0 + i / width < rows) {
            y[row0 * width + i] = act[i];
        }
    }
}

// The rows, then the steps are data at the start of `params` (STEPS of them, six words each:
// kind, k, n, the weights' and the bias's offsets, ReLU), so that the shader is the same at any
// depth and any number of rows. `params` is read-only, so every value read from it is uniform,
// and the barriers may follow it.
fn word(i: u32) -> u32 {
    return bitcast<u32>(params[i]);
}

@compute @workgroup_size({T})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let rows = word(0u);
    let row0 = wg.x * RB;
    load_rows(rows, row0, {WIDTH_IN}u, t);
    for (var s = 0u; s < {STEPS}u; s++) {
        let d = 1u + 6u * s;
        let kind = word(d);
        if (kind == 0u) {
            linear(word(d + 1u), word(d + 2u), word(d + 3u), word(d + 4u), word(d + 5u) != 0u, t);
        } else if (kind == 1u) {
            relu_rows(word(d + 2u), t);
        } else {
            softmax_rows(word(d + 2u), t);
        }
    }
    store_rows(rows, row0, {WIDTH_OUT}u, t);
}
