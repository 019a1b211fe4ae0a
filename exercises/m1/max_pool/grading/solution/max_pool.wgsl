// Max pooling, window and stride k, one thread per output element (solution).
@group(0) @binding(0) var<storage, read> image: array<f32>;
@group(0) @binding(1) var<storage, read_write> pooled: array<f32>;
@group(0) @binding(2) var<storage, read> dims: array<u32, 8>;

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    let channels = dims[0];
    let height = dims[1];
    let width = dims[2];
    let k = dims[3];
    let out_h = dims[4];
    let out_w = dims[5];
    let ox = gid.x;
    let oy = gid.y;
    let c = gid.z;
    if (ox >= out_w || oy >= out_h || c >= channels) {
        return;
    }
    var best = -3.40282347e+38;
    for (var dy = 0u; dy < k; dy++) {
        for (var dx = 0u; dx < k; dx++) {
            let y = oy * k + dy;
            let x = ox * k + dx;
            best = max(best, image[(c * height + y) * width + x]);
        }
    }
    pooled[(c * out_h + oy) * out_w + ox] = best;
}
