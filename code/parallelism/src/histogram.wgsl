// A 256-bin histogram of bytes, packed four to a u32 word, two ways.

struct Params {
    n_bytes: u32,
}

@group(0) @binding(0) var<storage, read> data: array<u32>;
@group(0) @binding(1) var<storage, read> params: Params;
@group(0) @binding(2) var<storage, read_write> bins: array<atomic<u32>, 256>;

const WG: u32 = 256u;

// ANCHOR: global
// Every byte is one atomicAdd on the histogram in global memory: 256 counters that all the
// GPU's threads fight over.
@compute @workgroup_size(256)
fn global_atomics(@builtin(global_invocation_id) gid: vec3<u32>,
                  @builtin(num_workgroups) groups: vec3<u32>) {
    let n_words = (params.n_bytes + 3u) / 4u;
    for (var w = gid.x; w < n_words; w += groups.x * WG) {
        let word = data[w];
        for (var k = 0u; k < 4u; k++) {
            if (w * 4u + k < params.n_bytes) {
                atomicAdd(&bins[(word >> (8u * k)) & 255u], 1u);
            }
        }
    }
}
// ANCHOR_END: global

// ANCHOR: privatised
// Each workgroup counts into its own copy in fast on-chip workgroup memory, then adds its
// 256 totals to the global histogram once: 256 global atomics per workgroup instead of one
// per byte.
var<workgroup> local_bins: array<atomic<u32>, 256>;

@compute @workgroup_size(256)
fn privatised(@builtin(global_invocation_id) gid: vec3<u32>,
              @builtin(local_invocation_index) lid: u32,
              @builtin(num_workgroups) groups: vec3<u32>) {
    atomicStore(&local_bins[lid], 0u);
    workgroupBarrier();
    let n_words = (params.n_bytes + 3u) / 4u;
    for (var w = gid.x; w < n_words; w += groups.x * WG) {
        let word = data[w];
        for (var k = 0u; k < 4u; k++) {
            if (w * 4u + k < params.n_bytes) {
                atomicAdd(&local_bins[(word >> (8u * k)) & 255u], 1u);
            }
        }
    }
    // Every invocation must reach the barrier: no early return above.
    workgroupBarrier();
    let count = atomicLoad(&local_bins[lid]);
    if (count != 0u) {
        atomicAdd(&bins[lid], count);
    }
}
// ANCHOR_END: privatised
