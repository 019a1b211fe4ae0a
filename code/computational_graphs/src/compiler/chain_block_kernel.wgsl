// Template of a block-chain kernel: the same chain of Linears, ReLUs and softmaxes as
// chain_kernel.wgsl, but each workgroup carries a block of R rows, so that every weight it reads
// serves R rows instead of one. The weights pass through workgroup memory in tiles of BK rows of
// W, read from global memory once per workgroup and layer, in coalesced loads issued one tile
// ahead (into registers) so that their latency hides behind the arithmetic on the current tile.
// Invocation (cg, rg) computes the vec4 of columns cg and RPT rows of the block, so each weight
// vec4 it reads from the tile feeds 4·RPT multiply-adds. The {ACC_…} and {PF_…} lines are
// generated: one named variable per accumulator and per prefetched value keeps them in
// registers.
const T: u32 = 256u;
const R: u32 = {R}u;
const BK: u32 = {BK}u;
// vec4 column groups per row (a power of two), row groups (T / CG), rows per invocation.
const CG: u32 = {CG}u;
const RG: u32 = T / CG;
const RPT: u32 = {RPT}u;
const WIDEST: u32 = {WIDEST}u;
const ROWS: u32 = {ROWS}u;
// Threads per row in the softmax's reductions.
const TPR: u32 = T / R;

@group(0) @binding(0) var<storage, read> x: array<f32>;
@group(0) @binding(1) var<storage, read> params: array<f32>;
@group(0) @binding(2) var<storage, read_write> y: array<f32>;

// The block's rows (row r at r · WIDEST), reductions, and (tiles) one tile of W (BK rows of CG
// vec4s) or (STREAM) the partial sums of each slice of k.
var<workgroup> act: array<f32, {ACT}>;
var<workgroup> red: array<f32, T>;
#ifndef STREAM
var<workgroup> tile: array<vec4<f32>, {TILE}>;
#else
var<workgroup> part: array<f32, {PART}>;
#endif

{ACC_DECL}
{PF_DECL}

fn load_rows(row0: u32, width: u32, t: u32) {
    for (var i = t; i < R * width; i += T) {
        let r = i / width;
        var v = 0.0;
        if (row0 + r < ROWS) {
            v = x[row0 * width + i];
        }
        act[r * WIDEST + i % width] = v;
    }
    workgroupBarrier();
}

#ifndef STREAM
// Element f of the tile that starts at row p0 of W (k × n at params[w]); zero past its edges.
fn weight(f: u32, p0: u32, k: u32, n: u32, w: u32) -> f32 {
    let p = p0 + f / (4u * CG);
    let c = f % (4u * CG);
    if (p < k && c < n) {
        return params[w + p * n + c];
    }
    return 0.0;
}

// Consecutive invocations read consecutive floats of a row of W: coalesced.
fn prefetch(p0: u32, k: u32, n: u32, w: u32, t: u32) {
{PF_LOAD}
}

fn store_tile(t: u32) {
{PF_STORE}
}

// ANCHOR: block_linear
// act (R × k) becomes act · W + bias (R × n), then max(·, 0) if `relu`.
fn linear(k: u32, n: u32, w: u32, b: u32, relu: bool, t: u32) {
    let cg = t % CG;
    let r0 = (t / CG) * RPT;
    let busy = r0 < R && cg * 4u < n;
{ACC_ZERO}
    prefetch(0u, k, n, w, t);
    for (var p0 = 0u; p0 < k; p0 += BK) {
        // Every invocation is done with the last tile before it is overwritten.
        workgroupBarrier();
        store_tile(t);
        workgroupBarrier();
        // The next tile's loads are in flight while this one is used.
        if (p0 + BK < k) {
            prefetch(p0 + BK, k, n, w, t);
        }
        if (busy) {
            let steps = min(BK, k - p0);
            for (var p = 0u; p < steps; p++) {
                let wv = tile[p * CG + cg];
                let a = r0 * WIDEST + p0 + p;
{ACC_FMA}
            }
        }
    }
    // Every invocation has read the rows before any overwrites them.
    workgroupBarrier();
    if (busy) {
{ACC_STORE}
    }
    workgroupBarrier();
}
// ANCHOR_END: block_linear

#else
// ANCHOR: stream_linear
// The same product without tiles: invocation (cg, slice) reads the vec4 of columns cg of W for
// the rows p of its slice of k straight from global memory (each weight once per workgroup,
// consecutive invocations at consecutive addresses), and keeps R accumulators, one per row of
// the block. No barrier until the slices' partial sums are added, so the loads of every warp
// stream without waiting for the others.
fn linear(k: u32, n: u32, w: u32, b: u32, relu: bool, t: u32) {
    let cg = t % CG;
    let slice = t / CG;
    let len = (k + RG - 1u) / RG;
    let p_begin = min(k, slice * len);
    let p_end = min(k, p_begin + len);
    let c = cg * 4u;
{ACC_ZERO}
    if (c < n) {
        var p = p_begin;
        for (; p + 4u <= p_end; p += 4u) {
            // Four rows of W in flight before the arithmetic that needs them.
            let w0 = weight4(w + p * n + c, n - c);
            let w1 = weight4(w + (p + 1u) * n + c, n - c);
            let w2 = weight4(w + (p + 2u) * n + c, n - c);
            let w3 = weight4(w + (p + 3u) * n + c, n - c);
            step(p, w0);
            step(p + 1u, w1);
            step(p + 2u, w2);
            step(p + 3u, w3);
        }
        for (; p < p_end; p++) {
            step(p, weight4(w + p * n + c, n - c));
        }
    }
{ACC_STORE}
    workgroupBarrier();
    for (var o = t; o < R * n; o += T) {
        let r = o / n;
        let col = o % n;
        var s = 0.0;
        for (var q = 0u; q < RG; q++) {
            s += part[(q * R + r) * WIDEST + col];
        }
        act[r * WIDEST + col] = finish(s, params[b + col], relu);
    }
    workgroupBarrier();
}
// ANCHOR_END: stream_linear

// Up to four consecutive weights from params[at] (`left` of them remain in the row).
fn weight4(at: u32, left: u32) -> vec4<f32> {
    var v = vec4<f32>(0.0);
    for (var j = 0u; j < min(4u, left); j++) {
        v[j] = params[at + j];
    }
    return v;
}

// One row p of W (its vec4 wv) into every row's accumulator.
fn step(p: u32, wv: vec4<f32>) {
{ACC_FMA}
}

// Row r's partial sums of this slice, columns c…c+3 (those below n).
fn keep(r: u32, slice: u32, c: u32, v: vec4<f32>, n: u32) {
    for (var j = 0u; j < 4u; j++) {
        if (c + j < n) {
            part[(slice * R + r) * WIDEST + c + j] = v[j];
        }
    }
}

#endif
fn finish(v: f32, bias: f32, relu: bool) -> f32 {
    let s = v + bias;
    return select(s, max(s, 0.0), relu);
}

// The four columns cg·4… of row r: bias, ReLU, and back into the block's rows.
fn put(r: u32, cg: u32, v: vec4<f32>, n: u32, b: u32, relu: bool) {
    for (var j = 0u; j < 4u; j++) {
        let c = cg * 4u + j;
        if (c < n) {
            act[r * WIDEST + c] = finish(v[j], params[b + c], relu);
        }
    }
}

fn relu_rows(width: u32, t: u32) {
    for (var i = t; i < R * width; i += T) {
        let at = (i / width) * WIDEST + i % width;
        act[at] = max(act[at], 0.0);
    }
    workgroupBarrier();
}

// A tree reduction among the TPR invocations of each row (TPR is a power of two).
fn reduce(t: u32, value: f32, take_max: bool) -> f32 {
    red[t] = value;
    workgroupBarrier();
    let l = t % TPR;
    for (var stride = TPR / 2u; stride > 0u; stride /= 2u) {
        if (l < stride) {
            let other = red[t + stride];
            red[t] = select(red[t] + other, max(red[t], other), take_max);
        }
        workgroupBarrier();
    }
    let result = red[t - l];
    workgroupBarrier();
    return result;
}

fn softmax_rows(width: u32, t: u32) {
    let row = (t / TPR) * WIDEST;
    let l = t % TPR;
    var m = -0x1.fffffep+127f;
    for (var c = l; c < width; c += TPR) {
        m = max(m, act[row + c]);
    }
    let row_max = reduce(t, m, true);
    var s = 0.0;
    for (var c = l; c < width; c += TPR) {
        let e = exp(act[row + c] - row_max);
        act[row + c] = e;
        s += e;
    }
    let sum = reduce(t, s, false);
    for (var c = l; c < width; c += TPR) {
        act[row + c] = act[row + c] / sum;
    }
    workgroupBarrier();
}

fn store_rows(row0: u32, width: u32, t: u32) {
    for (var i = t; i < R * width; i += T) {
        let r = i / width;
        if (row0 + r < ROWS) {
            y[row0 * width + i] = act[r * WIDEST + i % width];
        }
    }
}

// The steps are data at the start of `params`, six words each, as in chain_kernel.wgsl.
fn word(i: u32) -> u32 {
    return bitcast<u32>(params[i]);
}

@compute @workgroup_size(256)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) t: u32) {
    let row0 = wg.x * R;
    load_rows(row0, {WIDTH_IN}u, t);
    for (var s = 0u; s < {STEPS}u; s++) {
        let d = 6u * s;
        let kind = word(d);
        if (kind == 0u) {
            linear(word(d + 1u), word(d + 2u), word(d + 3u), word(d + 4u), word(d + 5u) != 0u, t);
        } else if (kind == 1u) {
            relu_rows(word(d + 2u), t);
        } else {
            softmax_rows(word(d + 2u), t);
        }
    }
    store_rows(row0, {WIDTH_OUT}u, t);
}
