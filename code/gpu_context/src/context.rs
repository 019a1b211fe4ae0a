use crate::{AdapterReport, GpuError, PipelineCache};

/// What a program needs from the adapter beyond the defaults. Checked before the device opens,
/// so a missing feature is one clear error instead of a validation failure deep inside wgpu.
#[derive(Clone, Debug, Default)]
pub struct Requirements {
    pub features: wgpu::Features,
    /// Features to take when the adapter has them, and to go without when it has not (check
    /// `device.features()` before using one).
    pub optional_features: wgpu::Features,
    /// Bytes one storage buffer binding must be able to hold (0: no requirement).
    pub min_storage_buffer_binding_size: u64,
    /// Ask for the software adapter even when a real GPU exists (to compare, or to reproduce CI).
    pub force_software: bool,
}

/// An open GPU: the adapter it runs on, the device and queue, and a pipeline cache.
pub struct GpuContext {
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    pub pipelines: PipelineCache,
    report: AdapterReport,
}

impl GpuContext {
    /// Opens the best adapter there is: a high-performance GPU first, a software one second.
    pub fn new() -> Result<Self, GpuError> {
        Self::with_requirements(&Requirements::default())
    }

    /// Like [`GpuContext::new`], but checks the features and limits the caller needs.
    pub fn with_requirements(req: &Requirements) -> Result<Self, GpuError> {
        pollster::block_on(Self::open(req))
    }

    /// For tests: the context, or a panic whose message says how to get an adapter.
    ///
    /// A GPU test never skips: with no adapter it fails, and the failure says what to install.
    pub fn for_tests() -> Self {
        match Self::new() {
            Ok(ctx) => ctx,
            Err(err) => panic!("this is a GPU test and it needs an adapter: {err}"),
        }
    }

    // ANCHOR: open
    /// The opening itself, as a future: [`GpuContext::with_requirements`] blocks on it, and a
    /// browser page (which must never block) awaits it.
    pub async fn open(req: &Requirements) -> Result<Self, GpuError> {
        let instance =
            wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env());
        let adapter = Self::pick_adapter(&instance, req.force_software, None).await?;
        let info = adapter.get_info();
        let missing = req.features - adapter.features();
        if !missing.is_empty() {
            return Err(GpuError::MissingFeature {
                adapter: info.name,
                feature: format!("{missing:?}"),
            });
        }
        let limits = adapter.limits();
        let binding = limits.max_storage_buffer_binding_size;
        if binding < req.min_storage_buffer_binding_size {
            return Err(GpuError::LimitTooLow {
                adapter: info.name,
                limit: "max_storage_buffer_binding_size",
                needed: req.min_storage_buffer_binding_size,
                available: binding,
            });
        }
        // Timestamps are optional: take them when offered, fall back to the CPU clock otherwise.
        let optional =
            (wgpu::Features::TIMESTAMP_QUERY | req.optional_features) & adapter.features();
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("gpu_context device"),
                required_features: req.features | optional,
                // The adapter's own limits: the defaults would cap buffers at 128 MiB even on
                // a GPU that can bind 2 GiB.
                required_limits: limits,
                ..Default::default()
            })
            .await
            .map_err(GpuError::DeviceRequest)?;
        let report = AdapterReport::new(&adapter, &device);
        Ok(Self {
            adapter,
            device,
            queue,
            pipelines: PipelineCache::default(),
            report,
        })
    }
    // ANCHOR_END: open

    // ANCHOR: pick_adapter
    /// A high-performance adapter first, the software one second; with a surface, only adapters
    /// that can present to it. Shared by compute ([`GpuContext`]) and windows (`RenderGpu`).
    pub(crate) async fn pick_adapter(
        instance: &wgpu::Instance,
        force_software: bool,
        compatible_surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<wgpu::Adapter, GpuError> {
        let mut tried = Vec::new();
        let attempts: &[bool] = if force_software {
            &[true]
        } else {
            &[false, true]
        };
        for &fallback in attempts {
            let options = wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter: fallback,
                compatible_surface,
                ..Default::default()
            };
            match instance.request_adapter(&options).await {
                Ok(adapter) => return Ok(adapter),
                Err(e) => tried.push(format!(
                    "{}: {e}",
                    if fallback {
                        "software fallback"
                    } else {
                        "hardware"
                    }
                )),
            }
        }
        Err(GpuError::NoAdapter {
            details: tried.join("; "),
        })
    }
    // ANCHOR_END: pick_adapter

    /// A description of the adapter and device, for logs, `cargo xtask doctor` and sidecars.
    pub fn report(&self) -> &AdapterReport {
        &self.report
    }

    // ANCHOR: wait
    /// Blocks until the GPU has finished all submitted work.
    pub fn wait(&self) -> Result<(), GpuError> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| GpuError::Execution(e.to_string()))
    }
    // ANCHOR_END: wait

    /// [`GpuContext::wait`] as a future, for a caller that must not block (a web page): it
    /// resolves once the GPU has finished everything submitted before the call.
    pub async fn wait_async(&self) -> Result<(), GpuError> {
        let (done, finished) = futures_channel::oneshot::channel();
        self.queue.on_submitted_work_done(move || {
            let _ = done.send(());
        });
        // Natively the callback runs inside `poll`; in a browser the page's event loop runs it.
        #[cfg(not(target_arch = "wasm32"))]
        self.wait()?;
        finished
            .await
            .map_err(|_| GpuError::Execution("the device dropped the wait (was it lost?)".into()))
    }
}
