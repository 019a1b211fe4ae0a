//! These run on whatever adapter `GpuContext::new` finds: lavapipe in CI, a real GPU elsewhere.

use gpu_context::{GpuContext, GpuError, TimingSource};

const DOUBLE: &str = r#"
@group(0) @binding(0) var<storage, read_write> data: array<f32>;

@compute @workgroup_size(64)
fn double(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&data) {
        data[id.x] = 2.0 * data[id.x];
    }
}
"#;

#[test]
fn gpu_context_reports_its_adapter() {
    let ctx = GpuContext::for_tests();
    let report = ctx.report();
    println!("{report}");
    assert!(!report.name.is_empty());
    assert!(report.max_storage_buffer_binding_size >= 128 << 20);
    assert!(report.to_json().starts_with("{\"name\":"));
}

#[test]
fn gpu_upload_then_download_round_trips() {
    let ctx = GpuContext::for_tests();
    let data: Vec<u32> = (0..1000).map(|i| i * 7 + 1).collect();
    let buffer = ctx.upload("data", &data).unwrap();
    assert_eq!(ctx.download::<u32>(&buffer).unwrap(), data);
}

#[test]
fn gpu_async_download_reads_what_the_blocking_one_reads() {
    // The browser demos await these futures; natively they poll the device, then resolve.
    let ctx = GpuContext::for_tests();
    let data: Vec<u32> = (0..777).map(|i| i * 3 + 2).collect();
    let buffer = ctx.upload("data", &data).unwrap();
    assert_eq!(
        pollster::block_on(ctx.download_async::<u32>(&buffer)).unwrap(),
        data
    );
    pollster::block_on(ctx.wait_async()).unwrap();
    let readback = gpu_context::ReadbackBuffer::new(&ctx, 16).unwrap();
    let too_big = pollster::block_on(readback.read_async::<u32>(&ctx, &buffer));
    assert!(matches!(too_big, Err(GpuError::Readback(_))), "{too_big:?}");
}

#[test]
fn gpu_optional_features_never_stop_the_device_from_opening() {
    let req = gpu_context::Requirements {
        optional_features: gpu_context::wgpu::Features::SHADER_F16,
        ..Default::default()
    };
    let ctx = GpuContext::with_requirements(&req).unwrap();
    let has = ctx.adapter.features().contains(req.optional_features);
    assert_eq!(ctx.device.features().contains(req.optional_features), has);
}

#[test]
fn gpu_cached_pipeline_compiles_once_and_runs() {
    let ctx = GpuContext::for_tests();
    let first = ctx.cached_pipeline("double", DOUBLE, "double").unwrap();
    let second = ctx.cached_pipeline("double", DOUBLE, "double").unwrap();
    assert!(std::sync::Arc::ptr_eq(&first, &second));
    assert_eq!(ctx.pipelines.compilations(), 1);

    let input: Vec<f32> = (0..100).map(|i| i as f32).collect();
    let buffer = ctx.upload("data", &input).unwrap();
    let bind_group = ctx.bind_buffers(&first, &[&buffer]);
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        pass.set_pipeline(&first);
        pass.set_bind_group(0, &bind_group, &[]);
        pass.dispatch_workgroups(gpu_context::workgroups_for(100, 64), 1, 1);
    }
    ctx.queue.submit([encoder.finish()]);
    let out: Vec<f32> = ctx.download(&buffer).unwrap();
    let expected: Vec<f32> = input.iter().map(|x| 2.0 * x).collect();
    assert_eq!(out, expected);
}

#[test]
fn gpu_invalid_shader_is_an_error_naming_the_shader() {
    let ctx = GpuContext::for_tests();
    let err = ctx
        .compile_pipeline("broken", "fn oops( {", "main")
        .unwrap_err();
    assert!(matches!(err, GpuError::Shader { .. }), "{err:?}");
    assert!(err.to_string().contains("\"broken\""), "{err}");
}

#[test]
fn gpu_buffer_over_the_limit_is_refused_before_allocation() {
    let ctx = GpuContext::for_tests();
    let too_big = ctx.device.limits().max_buffer_size + 4;
    let err = ctx.storage_buffer("huge", too_big).unwrap_err();
    assert!(matches!(err, GpuError::BufferTooLarge { .. }), "{err:?}");
    assert!(err.to_string().contains("Split the data"), "{err}");
}

#[test]
fn gpu_time_commands_measures_real_work() {
    let ctx = GpuContext::for_tests();
    let pipeline = ctx.cached_pipeline("double", DOUBLE, "double").unwrap();
    let buffer = ctx.storage_buffer("data", 4 * 65536).unwrap();
    let bind_group = ctx.bind_buffers(&pipeline, &[&buffer]);
    let run = ctx
        .time_commands(|encoder| {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(1024, 1, 1);
        })
        .unwrap();
    assert_eq!(
        run.source == TimingSource::GpuTimestamps,
        ctx.has_timestamps()
    );
    assert!(run.wall > std::time::Duration::ZERO);
    assert!(
        run.time <= run.wall * 2 + std::time::Duration::from_millis(5),
        "{run:?}"
    );
}
