// Every pixel back to "no point yet": all ones, above every packed value.

@group(0) @binding(0) var<storage, read_write> image: array<u32>;

@compute @workgroup_size(256)
fn clear(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    for (var i = gid.x; i < arrayLength(&image); i += groups.x * 256u) {
        image[i] = 0xFFFFFFFFu;
    }
}
