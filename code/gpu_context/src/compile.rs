//! Compiling compute pipelines: once per call, or once per shader through the context's
//! [`PipelineCache`](crate::PipelineCache), with or without override constants and wgpu's
//! runtime checks.

use std::sync::Arc;

use crate::{GpuContext, GpuError};

impl GpuContext {
    // ANCHOR: compile_pipeline
    /// Compiles a compute pipeline with an automatic bind-group layout. No caching: every call
    /// pays the full compilation cost (the "immediate mode without a cache" of the course).
    pub fn compile_pipeline(
        &self,
        label: &str,
        wgsl: &str,
        entry_point: &str,
    ) -> Result<wgpu::ComputePipeline, GpuError> {
        self.validated(label, || {
            let module = self
                .device
                .create_shader_module(wgpu::ShaderModuleDescriptor {
                    label: Some(label),
                    source: wgpu::ShaderSource::Wgsl(wgsl.into()),
                });
            self.device
                .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                    label: Some(label),
                    layout: None,
                    module: &module,
                    entry_point: Some(entry_point),
                    compilation_options: Default::default(),
                    cache: None,
                })
        })
    }

    /// Runs `create` inside an error scope, so that an invalid shader is a `GpuError::Shader`
    /// with the compiler's message. In a browser the scope's answer is a promise that cannot be
    /// waited for here; there the error goes to the device's uncaptured-error handler instead.
    fn validated<T>(&self, label: &str, create: impl FnOnce() -> T) -> Result<T, GpuError> {
        #[cfg(target_arch = "wasm32")]
        {
            let _ = label;
            Ok(create())
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
            let created = create();
            match pollster::block_on(scope.pop()) {
                None => Ok(created),
                Some(err) => Err(GpuError::Shader {
                    label: label.to_owned(),
                    message: err.to_string(),
                }),
            }
        }
    }
    // ANCHOR_END: compile_pipeline

    /// The pipeline for this source and entry point, compiled on first use only.
    pub fn cached_pipeline(
        &self,
        label: &str,
        wgsl: &str,
        entry_point: &str,
    ) -> Result<Arc<wgpu::ComputePipeline>, GpuError> {
        let key = (wgsl.to_owned(), entry_point.to_owned());
        self.pipelines
            .get_or_compile(key, || self.compile_pipeline(label, wgsl, entry_point))
    }
}

/// How a pipeline is specialised when it is created: values for the shader's `override`
/// constants, and whether wgpu's own runtime checks stay in the generated code.
#[derive(Clone, Copy, Debug, Default)]
pub struct Specialisation<'a> {
    /// `(name, value)` for each `override` declaration the shader leaves open.
    pub constants: &'a [(&'a str, f64)],
    /// Leave out wgpu's injected bounds checks, loop bounding and division guards.
    pub unchecked: bool,
}

impl Specialisation<'_> {
    fn key(&self) -> String {
        let mut key = format!("unchecked={};", self.unchecked);
        for (name, value) in self.constants {
            key.push_str(&format!("{name}={value};"));
        }
        key
    }
}

impl GpuContext {
    /// Like [`GpuContext::compile_pipeline`], with override constants and, optionally, without
    /// wgpu's runtime checks.
    ///
    /// # Safety
    ///
    /// With `unchecked`, the shader runs exactly as written: every buffer and array index it
    /// computes must be in bounds for the buffers bound to it, every loop must terminate, and no
    /// integer division may divide by zero. The caller proves this for the shader and the
    /// constants it passes (see `computational_graphs::matmul_ladder::tuned` for such a proof).
    /// Without `unchecked`, this function is as safe as `compile_pipeline`.
    pub unsafe fn compile_specialised(
        &self,
        label: &str,
        wgsl: &str,
        entry_point: &str,
        spec: Specialisation<'_>,
    ) -> Result<wgpu::ComputePipeline, GpuError> {
        self.validated(label, || {
            // SAFETY: passed on from the caller.
            let module = unsafe { self.shader_module(label, wgsl, spec.unchecked) };
            self.specialise(label, &module, entry_point, spec)
        })
    }

    /// A shader module, with or without wgpu's runtime checks.
    ///
    /// # Safety
    ///
    /// As for [`GpuContext::compile_specialised`] when `unchecked`.
    unsafe fn shader_module(&self, label: &str, wgsl: &str, unchecked: bool) -> wgpu::ShaderModule {
        let desc = wgpu::ShaderModuleDescriptor {
            label: Some(label),
            source: wgpu::ShaderSource::Wgsl(wgsl.into()),
        };
        if unchecked {
            // SAFETY: the caller upholds `compile_specialised`'s contract.
            unsafe {
                self.device
                    .create_shader_module_trusted(desc, wgpu::ShaderRuntimeChecks::unchecked())
            }
        } else {
            self.device.create_shader_module(desc)
        }
    }

    /// The pipeline of `module`'s entry point with `spec`'s constants.
    fn specialise(
        &self,
        label: &str,
        module: &wgpu::ShaderModule,
        entry_point: &str,
        spec: Specialisation<'_>,
    ) -> wgpu::ComputePipeline {
        self.device
            .create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(label),
                layout: None,
                module,
                entry_point: Some(entry_point),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: spec.constants,
                    ..Default::default()
                },
                cache: None,
            })
    }

    /// [`GpuContext::compile_specialised`] through the cache, keyed by source, entry point,
    /// constants and checks.
    ///
    /// # Safety
    ///
    /// As for [`GpuContext::compile_specialised`].
    pub unsafe fn cached_specialised(
        &self,
        label: &str,
        wgsl: &str,
        entry_point: &str,
        spec: Specialisation<'_>,
    ) -> Result<Arc<wgpu::ComputePipeline>, GpuError> {
        let key = (wgsl.to_owned(), format!("{entry_point}#{}", spec.key()));
        self.pipelines.get_or_compile(key, || {
            // Other constants for a module compiled before: only the pipeline is new.
            let module_key = (wgsl.to_owned(), spec.unchecked);
            if let Some(module) = self.pipelines.module(&module_key) {
                return self
                    .validated(label, || self.specialise(label, &module, entry_point, spec));
            }
            let (module, pipeline) = self.validated(label, || {
                // SAFETY: passed on from the caller.
                let module = unsafe { self.shader_module(label, wgsl, spec.unchecked) };
                let pipeline = self.specialise(label, &module, entry_point, spec);
                (module, pipeline)
            })?;
            self.pipelines.keep_module(module_key, module);
            Ok(pipeline)
        })
    }
}
