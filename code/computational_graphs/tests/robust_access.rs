//! What WGSL does with an out-of-bounds access: no crash, no error, no write outside the buffer
//! (robust buffer access), and a quietly wrong answer. Only a test can catch it.

use gpu_context::GpuContext;

// ANCHOR: kernel
// A kernel with the bounds check forgotten: 64 invocations, buffers of 10 elements.
const FORGOT_THE_CHECK: &str = r#"
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> copied: array<f32>;
@group(0) @binding(2) var<storage, read_write> index_written: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    copied[i % 10u] = input[i];      // reads past the end for i >= 10
    index_written[i] = f32(i);       // writes past the end for i >= 10
}
"#;
// ANCHOR_END: kernel

#[test]
fn out_of_bounds_access_is_silent_and_stays_inside_the_buffer() {
    let ctx = GpuContext::for_tests();
    let input: Vec<f32> = (1..=10).map(|v| v as f32).collect();
    let input_buf = ctx.upload("input", &input).unwrap();
    let copied = ctx.storage_buffer("copied", 40).unwrap();
    let index_written = ctx.storage_buffer("index_written", 40).unwrap();
    let canary = ctx.upload("canary", &[-1.0f32; 16]).unwrap();
    let pipeline = ctx
        .compile_pipeline("forgot_the_check", FORGOT_THE_CHECK, "main")
        .unwrap();
    let bind = ctx.bind_buffers(&pipeline, &[&input_buf, &copied, &index_written]);
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &bind, &[]);
        pass.dispatch_workgroups(1, 1, 1);
    }
    ctx.queue.submit([encoder.finish()]);
    // 1. No error anywhere: the GPU ran the buggy kernel happily.
    let index_written: Vec<f32> = ctx.download(&index_written).unwrap();
    let copied: Vec<f32> = ctx.download(&copied).unwrap();
    // 2. Nothing outside the buffers changed.
    assert_eq!(ctx.download::<f32>(&canary).unwrap(), vec![-1.0; 16]);
    // 3. In-bounds writes are right…
    for (i, v) in index_written.iter().take(9).enumerate() {
        assert_eq!(*v, i as f32);
    }
    // …but the last element may hold any invocation's index: an out-of-bounds write is either
    // dropped or clamped to the last element, whichever the implementation chose.
    let last = index_written[9];
    assert!(
        (9.0..64.0).contains(&last) && last.fract() == 0.0,
        "index_written[9] = {last}"
    );
    // 4. Out-of-bounds reads give 0 or some value from inside the buffer, never garbage from
    // elsewhere: every copied value is 0 or one of the inputs.
    for v in &copied {
        assert!(*v == 0.0 || input.contains(v), "copied value {v}");
    }
    eprintln!(
        "on {}: index_written[9] = {last}, copied = {copied:?}",
        ctx.report().name
    );
}
