//! Rule: convert once, not per sample. The work is a gain applied to an 8-bit image: every
//! pixel goes `u8` → `f32`, is multiplied, and comes back `f32` → `u8`.
//!
//! The way back is the expensive one. Rust defines `f32 as u8` to saturate (NaN becomes 0,
//! values below 0 become 0, above 255 become 255), and on x86-64's baseline instruction set
//! (SSE2) the compiler does that clamp and conversion one element at a time, so the loop is not
//! vectorised. There are only 256 different pixels, so the conversion can be done 256 times per
//! frame instead of once per pixel.

/// A deterministic 64 × 64 8-bit frame (a gradient with a little texture).
pub fn pixel_frame(frame: u64) -> Vec<u8> {
    (0..64u64 * 64)
        .map(|i| {
            let (row, col) = (i / 64, i % 64);
            (((row * 3 + col * 2 + frame) % 251) ^ (col & 5)) as u8
        })
        .collect()
}

// ANCHOR: per_pixel
/// Before: two conversions per pixel, the saturating `f32 as u8` among them.
pub fn gain_per_pixel(pixels: &[u8], gain: f32, out: &mut [u8]) {
    for (o, &p) in out.iter_mut().zip(pixels) {
        *o = (f32::from(p) * gain) as u8;
    }
}
// ANCHOR_END: per_pixel

// ANCHOR: table
/// After: the same expression evaluated for each of the 256 possible pixels, once per frame
/// (when the gain changes); the loop is one load per pixel. Same expression, same results.
pub struct GainTable {
    table: [u8; 256],
}

impl GainTable {
    pub fn new(gain: f32) -> Self {
        let mut table = [0u8; 256];
        for (value, entry) in (0..=255u8).zip(table.iter_mut()) {
            *entry = (f32::from(value) * gain) as u8;
        }
        Self { table }
    }

    pub fn apply(&self, pixels: &[u8], out: &mut [u8]) {
        for (o, &p) in out.iter_mut().zip(pixels) {
            *o = self.table[usize::from(p)];
        }
    }
}
// ANCHOR_END: table
