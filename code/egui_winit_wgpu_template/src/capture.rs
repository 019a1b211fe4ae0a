//! Getting pixels out of the GPU: offscreen targets, texture read-back and PNG files.

use gpu_context::wgpu;
use std::path::Path;

use crate::error::CaptureError;

/// An 8-bit RGBA image, rows top to bottom.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub rgba: Vec<u8>,
}

impl Image {
    /// The pixel at column `x`, row `y` (0, 0 is the top-left corner).
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let i = ((y * self.width + x) * 4) as usize;
        [
            self.rgba[i],
            self.rgba[i + 1],
            self.rgba[i + 2],
            self.rgba[i + 3],
        ]
    }

    /// Writes the image as a PNG file, creating the folder if needed.
    pub fn write_png(&self, path: &Path) -> Result<(), CaptureError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(file_error("create", dir))?;
        }
        let file = std::fs::File::create(path).map_err(file_error("create", path))?;
        let encode = |source| CaptureError::Encode {
            path: path.to_path_buf(),
            source,
        };
        let mut encoder = png::Encoder::new(std::io::BufWriter::new(file), self.width, self.height);
        encoder.set_color(png::ColorType::Rgba);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(encode)?;
        writer.write_image_data(&self.rgba).map_err(encode)
    }

    /// Reads an RGBA or RGB 8-bit PNG file (what [`Image::write_png`] writes), for tests.
    pub fn read_png(path: &Path) -> Result<Image, CaptureError> {
        let file = std::fs::File::open(path).map_err(file_error("open", path))?;
        let decode = |source| CaptureError::Decode {
            path: path.to_path_buf(),
            source,
        };
        let decoder = png::Decoder::new(std::io::BufReader::new(file));
        let mut reader = decoder.read_info().map_err(decode)?;
        let size = reader
            .output_buffer_size()
            .ok_or_else(|| CaptureError::TooLarge {
                path: path.to_path_buf(),
            })?;
        let mut buf = vec![0; size];
        let info = reader.next_frame(&mut buf).map_err(decode)?;
        let rgba = match info.color_type {
            png::ColorType::Rgba => buf[..info.buffer_size()].to_vec(),
            png::ColorType::Rgb => buf[..info.buffer_size()]
                .chunks(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect(),
            colour => {
                return Err(CaptureError::ColourType {
                    path: path.to_path_buf(),
                    colour,
                });
            }
        };
        Ok(Image {
            width: info.width,
            height: info.height,
            rgba,
        })
    }
}

/// Wraps an I/O error with what was being done to which file.
fn file_error(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> CaptureError {
    let path = path.to_path_buf();
    move |source| CaptureError::File {
        action,
        path,
        source,
    }
}

/// A texture to draw into instead of a window.
pub struct OffscreenTarget {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
}

impl OffscreenTarget {
    pub fn new(
        device: &wgpu::Device,
        format: wgpu::TextureFormat,
        width: u32,
        height: u32,
    ) -> Self {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen target"),
            size: wgpu::Extent3d {
                width: width.max(1),
                height: height.max(1),
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        Self { texture, view }
    }
}

/// A copy of a texture on its way back to the CPU: record it into an encoder with
/// [`Readback::record`], submit, then [`Readback::finish`].
pub struct Readback {
    buffer: wgpu::Buffer,
    width: u32,
    height: u32,
    padded_row: u32,
    bgra: bool,
}

impl Readback {
    /// Records a copy of `texture` (8-bit RGBA or BGRA, sRGB or not) into a mappable buffer.
    pub fn record(
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        texture: &wgpu::Texture,
    ) -> Result<Self, CaptureError> {
        use wgpu::TextureFormat as F;
        let bgra = match texture.format() {
            F::Bgra8Unorm | F::Bgra8UnormSrgb => true,
            F::Rgba8Unorm | F::Rgba8UnormSrgb => false,
            other => return Err(CaptureError::Format(other)),
        };
        let (width, height) = (texture.width(), texture.height());
        // Rows of a texture-to-buffer copy must start at multiples of 256 bytes.
        let padded_row = (width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("readback"),
            size: u64::from(padded_row) * u64::from(height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        encoder.copy_texture_to_buffer(
            texture.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(padded_row),
                    rows_per_image: Some(height),
                },
            },
            texture.size(),
        );
        Ok(Self {
            buffer,
            width,
            height,
            padded_row,
            bgra,
        })
    }

    /// Waits for the copy (submitted with the encoder) and returns the pixels as RGBA.
    pub fn finish(self, device: &wgpu::Device) -> Result<Image, CaptureError> {
        let slice = self.buffer.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(CaptureError::Poll)?;
        rx.recv()
            .map_err(|_| CaptureError::CallbackDropped)?
            .map_err(CaptureError::Map)?;
        let mapped = slice
            .get_mapped_range()
            .map_err(CaptureError::MappedRange)?;
        let mut rgba = Vec::with_capacity((self.width * self.height * 4) as usize);
        for row in mapped.chunks(self.padded_row as usize) {
            for px in row[..(self.width * 4) as usize].chunks(4) {
                if self.bgra {
                    rgba.extend_from_slice(&[px[2], px[1], px[0], px[3]]);
                } else {
                    rgba.extend_from_slice(px);
                }
            }
        }
        drop(mapped);
        self.buffer.unmap();
        Ok(Image {
            width: self.width,
            height: self.height,
            rgba,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{FrameError, chain};

    #[test]
    fn the_chain_names_the_step_then_its_cause() {
        let path = std::path::Path::new("/nonexistent-folder/shot.png");
        let err = Image::read_png(path).unwrap_err();
        assert!(
            matches!(err, CaptureError::File { action: "open", .. }),
            "{err:?}"
        );
        let text = chain(&FrameError::from(err));
        assert!(
            text.starts_with("the screenshot failed: cannot open /nonexistent-folder/shot.png: "),
            "{text}"
        );
    }
}
