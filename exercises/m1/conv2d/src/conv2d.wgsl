// A 2D convolution without padding, one invocation per output element. Write this kernel; keep
// the bindings, and keep the workgroup size in step with launch.rs. `params` holds the numbers
// `params()` in launch.rs returns, in that order.
@group(0) @binding(0) var<storage, read> params: array<u32>;
@group(0) @binding(1) var<storage, read> image: array<f32>;
@group(0) @binding(2) var<storage, read> weights: array<f32>; // the convolution kernel
@group(0) @binding(3) var<storage, read_write> output: array<f32>;

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
    // TODO: x = output column, y = output row; return early outside the output; sum the kernel
    // times its window. These lines only keep the bindings in use (an unused binding drops out
    // of the pipeline's layout, and binding the buffers would then fail).
    _ = params[0];
    _ = image[0];
    _ = weights[0];
    _ = gid;
    output[0] = output[0];
}
