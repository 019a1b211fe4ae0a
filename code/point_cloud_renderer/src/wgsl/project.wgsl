// Pass 1 of the two-pass renderer: every point to the screen, written out for the splat pass.

@group(0) @binding(0) var<storage, read> camera: Camera;
@group(0) @binding(1) var<storage, read> positions: array<Position>;
@group(0) @binding(2) var<storage, read_write> screen: array<ScreenPoint>;

@compute @workgroup_size(64)
fn project_points(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    for (var i = gid.x; i < camera.count; i += groups.x * 64u) {
        screen[i] = project(camera, positions[i]);
    }
}
