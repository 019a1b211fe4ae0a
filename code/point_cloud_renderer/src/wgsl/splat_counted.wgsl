// A debug variant of the two splat kernels (module 3's naive one and splat_early_reject.wgsl)
// that counts, in one frame, the points it tests, the atomicMins it issues and the atomicMins
// that lowered their pixel. Each thread counts in registers, its workgroup adds the counts in
// shared memory, and one atomicAdd per workgroup and counter reaches the counter buffer: the
// counting adds about 3 global atomics per 64 threads to the image's.

struct Counts {
    tested: atomic<u32>,
    issued: atomic<u32>,
    won: atomic<u32>,
}

@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read> points: array<ScreenPoint>;
@group(0) @binding(2) var<storage, read_write> image: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> counts: Counts;

// Workgroup memory starts at zero in every workgroup.
var<workgroup> group_tested: atomic<u32>;
var<workgroup> group_issued: atomic<u32>;
var<workgroup> group_won: atomic<u32>;

// ANCHOR: counted
fn splat_counting(first: u32, stride: u32, local: u32, early_reject: bool) {
    var tested = 0u;
    var issued = 0u;
    var won = 0u;
    for (var i = first; i < params.count; i += stride) {
        let p = points[i];
        let on_screen = p.x >= 0.0 && p.x < f32(params.width)
            && p.y >= 0.0 && p.y < f32(params.height);
        let in_range = p.depth >= params.near && p.depth < params.far;
        if on_screen && in_range {
            let code = min(u32((p.depth - params.near) * params.scale), params.max_code);
            let packed = (code << params.id_bits) | i;
            let pixel = u32(p.y) * params.width + u32(p.x);
            tested += 1u;
            if !early_reject || atomicLoad(&image[pixel]) > packed {
                issued += 1u;
                // atomicMin returns the value it replaced: larger means this point won.
                if atomicMin(&image[pixel], packed) > packed {
                    won += 1u;
                }
            }
        }
    }
    atomicAdd(&group_tested, tested);
    atomicAdd(&group_issued, issued);
    atomicAdd(&group_won, won);
    workgroupBarrier();
    if local == 0u {
        atomicAdd(&counts.tested, atomicLoad(&group_tested));
        atomicAdd(&counts.issued, atomicLoad(&group_issued));
        atomicAdd(&counts.won, atomicLoad(&group_won));
    }
}
// ANCHOR_END: counted

@compute @workgroup_size(64)
fn splat_naive_counted(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    splat_counting(gid.x, groups.x * 64u, local, false);
}

@compute @workgroup_size(64)
fn splat_early_reject_counted(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    splat_counting(gid.x, groups.x * 64u, local, true);
}
