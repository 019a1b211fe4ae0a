//! The CPU renderer the GPU is tested against: the same projection, module 3's splat on CPU
//! threads, and the same resolve.

use quantization::specialisations::atomic_depth::{EMPTY32, Packing32};
use quantization::specialisations::splat::{ScreenPoint, splat32};

use crate::{BACKGROUND, Camera, Frame, PointCloud, RenderError};

/// Every point projected by [`Camera::project`].
pub fn project_all(cloud: &PointCloud, camera: &Camera) -> Vec<ScreenPoint> {
    cloud.positions.iter().map(|&p| camera.project(p)).collect()
}

// ANCHOR: reference
/// The frame the GPU must produce from already projected points: each pixel keeps the smallest
/// packed depth|id (module 3's `splat32`), then takes that point's colour.
pub fn render_projected(
    screen: &[ScreenPoint],
    colours: &[u32],
    (width, height): (u32, u32),
    packing: &Packing32,
) -> Result<Frame, RenderError> {
    if screen.len() != colours.len() {
        return Err(RenderError::Colours {
            positions: screen.len(),
            colours: colours.len(),
        });
    }
    let packed = splat32(screen, width, height, 2, packing)?;
    let rgba = packed
        .iter()
        .map(|&v| match packing.unpack(v) {
            Some((_, id)) => colours[id as usize],
            None => BACKGROUND,
        })
        .collect();
    Ok(Frame {
        width,
        height,
        packed,
        rgba,
    })
}
// ANCHOR_END: reference

/// The whole frame on the CPU: projection, then [`render_projected`].
pub fn render(
    cloud: &PointCloud,
    camera: &Camera,
    size: (u32, u32),
    packing: &Packing32,
) -> Result<Frame, RenderError> {
    if cloud.is_empty() {
        return Err(RenderError::Empty);
    }
    render_projected(&project_all(cloud, camera), &cloud.colours, size, packing)
}

/// How many pixels a frame covers (not [`EMPTY32`]).
pub fn covered_pixels(frame: &Frame) -> usize {
    frame.packed.iter().filter(|&&v| v != EMPTY32).count()
}
