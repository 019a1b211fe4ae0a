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

// Element `at` of params where `ok`, else 0: the load itself is never skipped (it reads
// params[0] instead), so that a run of them issues back to back, without branches.
fn load_or_zero(at: u32, ok: bool) -> f32 {
    return select(0.0, params[select(0u, at, ok)], ok);
}

#ifndef STREAM
// The vec4 v of the tile that starts at row p0 of W (k × n at params[w]); zero past its
// edges. Consecutive invocations read consecutive floats of a row of W: coalesced.
fn tile_load(v: u32, p0: u32, k: u32, n: u32, w: u32) -> vec4<f32> {
    let p = p0 + v / CG;
    let c = (v % CG) * 4u;
    let at = w + p * n + c;
    let row = p < k;
    return vec4<f32>(
        load_or_zero(at, row & (c < n)),
        load_or_zero(at + 1u, row & (c + 1u < n)),
        load_or_zero(at + 2u, row & (c + 2u < n)),
        load_or_zero(at + 3u, row & (c + 3u < n)),
    );
}

// ANCHOR: block_linear
// act (R × k) becomes act · W + bias (R × n), then max(·, 0) if `relu`.
fn linear(k: u32, n: u32, w: u32, b: u32, relu: bool, t: u32) {
    let cg = t % CG;
    let r0 = (t / CG) * RPT;
    let busy = r0 < R && cg * 4u < n;
{ACC_ZERO}
{PF_FIRST}
    for (var p0 = 0u; p0 < k; p0 += BK) {
        // Every invocation is done with the last tile before it is overwritten.
        workgroupBarrier();
{PF_STORE}
        workgroupBarrier();
        // The next tile's loads are in flight while this one is used.
        if (p0 + BK < k) {
{PF_NEXT}
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
        // Four rows of W in flight before the arithmetic that needs them.
        for (; p + 4u <= p_end; p += 4u) {
{STREAM_FOUR}
        }
        for (; p < p_end; p++) {
{STREAM_ONE}
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

// Up to four consecutive weights from params[at] (`left` of them remain in the row; at least
// one does).
fn weight4(at: u32, left: u32) -> vec4<f32> {
    return vec4<f32>(
        params[at],
        load_or_zero(at + 1u, left > 1u),
        load_or_zero(at + 2u, left > 2u),
        load_or_zero(at + 3u, left > 3u),
    );
}

// Row r's partial sums of this slice, columns c…c+3 (those below n).
fn keep(r: u32, slice: u32, c: u32, v: vec4<f32>, n: u32) {
    let at = (slice * R + r) * WIDEST + c;
    if (c < n) {
        part[at] = v.x;
    }
    if (c + 1u < n) {
        part[at + 1u] = v.y;
    }
    if (c + 2u < n) {
        part[at + 2u] = v.z;
    }
    if (c + 3u < n) {
        part[at + 3u] = v.w;
    }
}

#endif
fn finish(v: f32, bias: f32, relu: bool) -> f32 {
    let s = v + bias;
    return select(s, max(s, 0.0), relu);
}

// The four columns cg·4… of row r: bias, ReLU, and back into the block's rows.
fn put(r: u32, cg: u32, v: vec4<f32>, n: u32, b: u32, relu: bool) {
    let c = cg * 4u;
    let at = r * WIDEST + c;
    if (c < n) {
        act[at] = finish(v.x, params[b + c], relu);
    }
    if (c + 1u < n) {
        act[at + 1u] = finish(v.y, params[b + c + 1u], relu);
    }
    if (c + 2u < n) {
        act[at + 2u] = finish(v.z, params[b + c + 2u], relu);
    }
    if (c + 3u < n) {
        act[at + 3u] = finish(v.w, params[b + c + 3u], relu);
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
