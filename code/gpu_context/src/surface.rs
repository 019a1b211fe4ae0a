//! Opening the GPU for drawing into windows (and into offscreen textures that stand in for them).
//!
//! Compute programs use [`crate::GpuContext`]. A program with windows needs three more things:
//! an instance that knows the display (the GL backend cannot present without it), an adapter that
//! can present to the window's surface, and a surface configuration in a format the adapter
//! offers. [`RenderGpu`] does those, and can open several devices on one adapter, so that each
//! thread that draws can own its own device.

use crate::{AdapterReport, GpuError};

pub use wgpu::wgt::WgpuHasDisplayHandle;

/// An instance and an adapter, chosen so that they can draw into a given surface.
pub struct RenderGpu {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
}

impl RenderGpu {
    /// An instance for windows. Pass the event loop's display handle (with winit:
    /// `Box::new(event_loop.owned_display_handle())`); backends and flags come from the usual
    /// `WGPU_*` environment variables.
    pub fn instance_for_display(display: Box<dyn WgpuHasDisplayHandle>) -> wgpu::Instance {
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle_from_env(
            display,
        ))
    }

    /// An instance with no display, for drawing into offscreen textures only (tests, CI).
    pub fn instance_without_display() -> wgpu::Instance {
        wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env())
    }

    /// Picks an adapter that can present to `compatible_surface` (any adapter when `None`):
    /// a high-performance GPU first, the software one second.
    pub fn open(
        instance: wgpu::Instance,
        compatible_surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self, GpuError> {
        let adapter = pollster::block_on(crate::GpuContext::pick_adapter(
            &instance,
            false,
            compatible_surface,
        ))
        .map_err(|err| match err {
            GpuError::NoAdapter { details } if compatible_surface.is_some() => {
                GpuError::NoAdapter {
                    details: format!("no adapter that can present to this window; {details}"),
                }
            }
            other => other,
        })?;
        Ok(Self { instance, adapter })
    }

    /// Opens one more device (and its queue) on this adapter, with the default limits.
    pub fn open_device(&self, label: &str) -> Result<(wgpu::Device, wgpu::Queue), GpuError> {
        pollster::block_on(self.adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some(label),
            ..Default::default()
        }))
        .map_err(GpuError::DeviceRequest)
    }

    /// The adapter and `device`, described for logs and figure sidecars.
    pub fn report(&self, device: &wgpu::Device) -> AdapterReport {
        AdapterReport::new(&self.adapter, device)
    }
}

/// Which kind of colour format a surface should use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorSpace {
    /// An `…Srgb` format: the shader writes linear colour and the hardware encodes it.
    /// Right for 3D scenes and anything that blends light.
    Srgb,
    /// A plain `…Unorm` format: the bytes the shader writes are stored as they are. egui wants
    /// this, because it already works in gamma space.
    Gamma,
}

/// A configuration for `surface` of `width` × `height` pixels (each at least 1) in a format of the
/// given colour space, with vsync (`Fifo`, which every adapter supports). When the surface offers
/// it, `COPY_SRC` is added to the usage, so a frame can be copied out for a screenshot.
pub fn surface_config(
    surface: &wgpu::Surface<'_>,
    adapter: &wgpu::Adapter,
    width: u32,
    height: u32,
    space: ColorSpace,
) -> Result<wgpu::SurfaceConfiguration, GpuError> {
    let caps = surface.get_capabilities(adapter);
    let wanted = |f: &wgpu::TextureFormat| f.is_srgb() == (space == ColorSpace::Srgb);
    let format = caps
        .formats
        .iter()
        .copied()
        .find(wanted)
        .or_else(|| caps.formats.first().copied())
        .ok_or_else(|| GpuError::NoAdapter {
            details: "the adapter offers no format for this window's surface".into(),
        })?;
    let mut usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
    if caps.usages.contains(wgpu::TextureUsages::COPY_SRC) {
        usage |= wgpu::TextureUsages::COPY_SRC;
    }
    Ok(wgpu::SurfaceConfiguration {
        usage,
        format,
        width: width.max(1),
        height: height.max(1),
        present_mode: wgpu::PresentMode::Fifo,
        desired_maximum_frame_latency: 2,
        alpha_mode: caps
            .alpha_modes
            .first()
            .copied()
            .unwrap_or(wgpu::CompositeAlphaMode::Auto),
        view_formats: Vec::new(),
        color_space: wgpu::SurfaceColorSpace::Auto,
    })
}
