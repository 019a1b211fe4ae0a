//! The browser entry points, called from the book's "Run it on your GPU" boxes.
//!
//! `gpu_context` opens its device with `pollster::block_on`, which a browser page cannot do (the
//! page's one thread would wait for a promise that only that thread can resolve). So the device
//! is opened here with `await`; everything after that is the shared code in `vector_add`.

use wasm_bindgen::prelude::*;

use crate::{VectorAdd, reference};

/// Timed runs after one untimed warm-up (which compiles the pipeline).
const RUNS: usize = 5;

/// What the demo box shows.
#[wasm_bindgen(getter_with_clone)]
pub struct VectorAddReport {
    pub adapter: String,
    pub backend: String,
    pub elements: u32,
    pub checked: u32,
    pub mismatches: u32,
    /// Median of the timed round trips (upload, dispatch, read back), in milliseconds.
    pub median_ms: f64,
    pub runs: u32,
}

/// Whether this browser can give a WebGPU adapter at all.
#[wasm_bindgen]
pub async fn webgpu_available() -> bool {
    wgpu::util::is_browser_webgpu_supported().await
}

async fn open_device() -> Result<(wgpu::Adapter, wgpu::Device, wgpu::Queue), JsError> {
    let instance = wgpu::Instance::new(wgpu::InstanceDescriptor {
        backends: wgpu::Backends::BROWSER_WEBGPU,
        ..wgpu::InstanceDescriptor::new_without_display_handle()
    });
    let adapter = instance
        .request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        })
        .await
        .map_err(|e| JsError::new(&format!("the browser gave no WebGPU adapter: {e}")))?;
    let (device, queue) = adapter
        .request_device(&Default::default())
        .await
        .map_err(|e| JsError::new(&format!("the adapter refused to open a device: {e}")))?;
    Ok((adapter, device, queue))
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Adds two vectors of `elements` floats on the browser's GPU, checks the sum against the CPU
/// and times the round trip.
#[wasm_bindgen]
pub async fn run_vector_add(elements: u32) -> Result<VectorAddReport, JsError> {
    let (adapter, device, queue) = open_device().await?;
    let (a, b) = reference::vector_add_inputs(elements as usize);
    let demo = VectorAdd::new(&device);
    demo.run(&device, &queue, &a, &b).await?;
    let mut times = Vec::with_capacity(RUNS);
    let mut sum = Vec::new();
    for _ in 0..RUNS {
        let start = now_ms();
        sum = demo.run(&device, &queue, &a, &b).await?;
        times.push(now_ms() - start);
    }
    times.sort_by(f64::total_cmp);
    let check = reference::check(&sum, &reference::cpu_vector_add(&a, &b));
    let info = adapter.get_info();
    // Browsers may hide some of these fields (privacy): show what there is.
    let mut adapter_name = [&info.name, &info.driver, &info.driver_info]
        .into_iter()
        .filter(|s| !s.is_empty())
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if adapter_name.is_empty() {
        adapter_name = "(the browser does not name it)".into();
    }
    Ok(VectorAddReport {
        adapter: adapter_name,
        backend: format!("{:?}", info.backend),
        elements,
        checked: check.checked as u32,
        mismatches: check.mismatches as u32,
        median_ms: times[RUNS / 2],
        runs: RUNS as u32,
    })
}
