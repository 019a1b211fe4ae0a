use super::BoxXyxy;

/// Why an image cannot be letterboxed.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum LetterboxError {
    #[error("the image is {width}×{height}: both sides must be at least one pixel")]
    EmptyImage { width: u32, height: u32 },
    #[error("the model input is {size}×{size}: it must be at least one pixel")]
    EmptyInput { size: u32 },
    #[error("the image has {got} bytes, but {width}×{height} RGB needs {needed}")]
    WrongLength {
        width: u32,
        height: u32,
        got: usize,
        needed: usize,
    },
}

/// How an image of `width × height` sits inside a square model input of `size × size`: scaled by
/// one factor (no distortion) and centred, with padding on two sides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Letterbox {
    pub scale: f32,
    pub pad_x: f32,
    pub pad_y: f32,
    pub size: u32,
    pub width: u32,
    pub height: u32,
}

// ANCHOR: letterbox
impl Letterbox {
    pub fn fit(width: u32, height: u32, size: u32) -> Result<Self, LetterboxError> {
        if width == 0 || height == 0 {
            return Err(LetterboxError::EmptyImage { width, height });
        }
        if size == 0 {
            return Err(LetterboxError::EmptyInput { size });
        }
        let scale = (size as f32 / width as f32).min(size as f32 / height as f32);
        Ok(Self {
            scale,
            pad_x: (size as f32 - width as f32 * scale) / 2.0,
            pad_y: (size as f32 - height as f32 * scale) / 2.0,
            size,
            width,
            height,
        })
    }

    /// A box the model found (in input pixels) back in the original image, clipped to it.
    pub fn to_image(&self, b: &BoxXyxy) -> BoxXyxy {
        let x = |v: f32| ((v - self.pad_x) / self.scale).clamp(0.0, self.width as f32);
        let y = |v: f32| ((v - self.pad_y) / self.scale).clamp(0.0, self.height as f32);
        BoxXyxy {
            x0: x(b.x0),
            y0: y(b.y0),
            x1: x(b.x1),
            y1: y(b.y1),
        }
    }
}
// ANCHOR_END: letterbox

impl Letterbox {
    /// A box of the original image in model-input pixels.
    pub fn to_input(&self, b: &BoxXyxy) -> BoxXyxy {
        BoxXyxy {
            x0: b.x0 * self.scale + self.pad_x,
            y0: b.y0 * self.scale + self.pad_y,
            x1: b.x1 * self.scale + self.pad_x,
            y1: b.y1 * self.scale + self.pad_y,
        }
    }

    /// The model input for an RGB image (3 bytes a pixel, rows top to bottom): nearest-neighbour
    /// scaling, grey (114, as YOLO's tools use) in the padding.
    pub fn apply(&self, rgb: &[u8]) -> Result<Vec<u8>, LetterboxError> {
        let needed = self.width as usize * self.height as usize * 3;
        if rgb.len() != needed {
            return Err(LetterboxError::WrongLength {
                width: self.width,
                height: self.height,
                got: rgb.len(),
                needed,
            });
        }
        let size = self.size as usize;
        let mut out = vec![114u8; size * size * 3];
        for row in 0..size {
            let sy = (row as f32 + 0.5 - self.pad_y) / self.scale;
            if sy < 0.0 || sy >= self.height as f32 {
                continue;
            }
            for col in 0..size {
                let sx = (col as f32 + 0.5 - self.pad_x) / self.scale;
                if sx < 0.0 || sx >= self.width as f32 {
                    continue;
                }
                let from = (sy as usize * self.width as usize + sx as usize) * 3;
                let to = (row * size + col) * 3;
                out[to..to + 3].copy_from_slice(&rgb[from..from + 3]);
            }
        }
        Ok(out)
    }
}
