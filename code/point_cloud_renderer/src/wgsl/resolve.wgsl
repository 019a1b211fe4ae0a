// Ids to colours: each pixel's packed value keeps the winning point's id in its low bits.

const BACKGROUND: u32 = 0xFF201810u; // opaque, dark blue-grey (RGBA8, red in the low byte)

@group(0) @binding(0) var<storage, read> params: Params;
@group(0) @binding(1) var<storage, read> image: array<u32>;
@group(0) @binding(2) var<storage, read> colours: array<u32>;
@group(0) @binding(3) var<storage, read_write> rgba: array<u32>;

// ANCHOR: resolve
@compute @workgroup_size(256)
fn resolve(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let id_mask = (1u << params.id_bits) - 1u;
    for (var i = gid.x; i < arrayLength(&image); i += groups.x * 256u) {
        let packed = image[i];
        var colour = BACKGROUND;
        if packed != 0xFFFFFFFFu {
            colour = colours[packed & id_mask];
        }
        rgba[i] = colour;
    }
}
// ANCHOR_END: resolve
