//! The specification: the whole signal at once, allocating at every step. Given.

use crate::{Block, Settings, SettingsError};

/// Checks settings in the order the errors are listed.
pub fn check(s: &Settings) -> Result<(), SettingsError> {
    if s.block_len == 0 {
        return Err(SettingsError::EmptyBlock);
    }
    if !(0.0..1.0).contains(&s.pole) {
        return Err(SettingsError::PoleOutOfRange { pole: s.pole });
    }
    // NaN is refused too: it is not greater than zero.
    if s.clip.is_nan() || s.clip <= 0.0 {
        return Err(SettingsError::ClipNotPositive { clip: s.clip });
    }
    Ok(())
}

/// Every complete block of `signal`; a last, incomplete block is not reported.
pub fn blocks(signal: &[f32], s: &Settings) -> Result<Vec<Block>, SettingsError> {
    check(s)?;
    let mut filtered = Vec::with_capacity(signal.len());
    let (mut previous_x, mut previous_y) = (0.0f32, 0.0f32);
    for &x in signal {
        let y = x - previous_x + s.pole * previous_y;
        filtered.push(y);
        (previous_x, previous_y) = (x, y);
    }
    Ok(filtered
        .chunks_exact(s.block_len)
        .zip(signal.chunks_exact(s.block_len))
        .map(|(ys, xs)| {
            let sum: f32 = ys.iter().fold(0.0, |acc, y| acc + y * y);
            Block {
                rms: (sum / s.block_len as f32).sqrt(),
                peak: ys.iter().fold(0.0, |p, y| p.max(y.abs())),
                clipped: xs.iter().filter(|x| x.abs() >= s.clip).count() as u32,
            }
        })
        .collect())
}
