//! The browser's entry point, called by the book's "Run it on your GPU" boxes
//! (`book/theme/demo-box.js`): `run_demo(name, params)` opens the browser's WebGPU device through
//! `gpu_context`, runs one demo and returns what the box shows, as JSON.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use gpu_context::{GpuContext, Requirements, wgpu};
use wasm_bindgen::prelude::*;

use crate::display::Display;
use crate::{DemoError, formats, graph_modes, histogram, matmul, vector_add};

/// Whether this browser can give a WebGPU adapter at all.
#[wasm_bindgen]
pub async fn webgpu_available() -> bool {
    wgpu::util::is_browser_webgpu_supported().await
}

/// What a box gets back: its table's rows, notes, and the adapter the browser chose.
#[derive(serde::Serialize)]
struct Answer {
    adapter: String,
    backend: String,
    passed: bool,
    #[serde(flatten)]
    display: Display,
}

/// Runs the demo `name` with the box's choices (`params`: a JSON object of strings) and returns
/// an `Answer` as JSON; an error's message says what went wrong and what to try.
#[wasm_bindgen]
pub async fn run_demo(name: String, params: String) -> Result<String, JsError> {
    let params: HashMap<String, String> = serde_json::from_str(&params)
        .map_err(|e| JsError::new(&format!("the box's choices are not a JSON object: {e}")))?;
    // ANCHOR: features
    let ctx = GpuContext::open(&Requirements {
        // Every box's device asks for these where the adapter offers them: the formats demo runs
        // f16 where it can and says so where it cannot; the vector add times its pass with
        // timestamp queries when the page asks (`?timestamps=1`).
        optional_features: wgpu::Features::SHADER_F16 | wgpu::Features::TIMESTAMP_QUERY,
        ..Default::default()
    })
    .await
    .map_err(|e| JsError::new(&format!("the browser gave no usable WebGPU device: {e}")))?;
    // ANCHOR_END: features
    // A page cannot wait on an error scope while it compiles a pipeline (see gpu_context), so
    // the device's own errors are collected here and turn a run into an error.
    let device_errors = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = Arc::clone(&device_errors);
    ctx.device
        .on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            if let Ok(mut errors) = sink.lock() {
                errors.push(e.to_string());
            }
        }));
    let display = run(&ctx, &name, &params).await;
    let errors = device_errors
        .lock()
        .map(|e| e.join("\n"))
        .unwrap_or_default();
    let display = match display {
        Ok(_) | Err(_) if !errors.is_empty() => Err(DemoError::Device(errors)),
        other => other,
    }
    .map_err(|e| JsError::new(&e.to_string()))?;
    let report = ctx.report();
    let answer = Answer {
        adapter: report.name.clone(),
        backend: report.backend.clone(),
        passed: display.passed(),
        display,
    };
    serde_json::to_string(&answer).map_err(|e| JsError::new(&e.to_string()))
}

async fn run(
    ctx: &GpuContext,
    name: &str,
    params: &HashMap<String, String>,
) -> Result<Display, DemoError> {
    let number = |key: &'static str, default: usize| -> Result<usize, DemoError> {
        match params.get(key) {
            None => Ok(default),
            Some(text) => text
                .parse()
                .map_err(|_| DemoError::not_offered(key, text, &["a whole number"])),
        }
    };
    Ok(match name {
        "vector_add" => {
            let timestamps = params.get("timestamps").is_some_and(|t| t == "1");
            vector_add::run_vector_add(ctx, number("elements", 1 << 20)?, timestamps)
                .await?
                .display()
        }
        "matmul_ladder" => matmul::run_ladder(ctx, number("size", matmul::SIZES[0])?)
            .await?
            .display(),
        "graph_modes" => graph_modes::run_graph_modes(ctx, number("size", graph_modes::SIZES[0])?)
            .await?
            .display(),
        "gpu_histogram" => {
            let pattern = params.get("pattern").map_or("random", String::as_str);
            histogram::run_histograms(
                ctx,
                number("mib", histogram::SIZES_MIB[0])?,
                histogram::Pattern::parse(pattern)?,
            )
            .await?
            .display()
        }
        "number_formats" => formats::run_formats(ctx, number("size", formats::SIZES[0])?)
            .await?
            .display(),
        other => {
            return Err(DemoError::not_offered(
                "demo",
                other,
                &[
                    "vector_add",
                    "matmul_ladder",
                    "graph_modes",
                    "gpu_histogram",
                    "number_formats",
                ],
            ));
        }
    })
}
