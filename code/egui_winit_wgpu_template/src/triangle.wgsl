// ANCHOR: shader
struct Uniforms {
    colour: vec4<f32>,
    // x, y: centre in clip space; z: angle (radians); w: radius.
    transform: vec4<f32>,
    // x: width / height of the target.
    aspect: vec4<f32>,
};

@group(0) @binding(0) var<uniform> u: Uniforms;

// No vertex buffer: the three corners are computed from the vertex index.
@vertex
fn vs_main(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let corner = f32(i) * 2.0943951 + 1.5707964; // 120 degrees apart, the first pointing up
    let a = corner + u.transform.z;
    let p = vec2<f32>(cos(a), sin(a)) * u.transform.w;
    // Divide x by the aspect ratio so the triangle keeps its shape in a wide window.
    return vec4<f32>(p.x / u.aspect.x + u.transform.x, p.y + u.transform.y, 0.0, 1.0);
}

@fragment
fn fs_main() -> @location(0) vec4<f32> {
    return u.colour;
}
// ANCHOR_END: shader
