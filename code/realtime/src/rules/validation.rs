//! Rule: check everything before the hot loop. Once a frame is known to be valid, the loop
//! does not check it again, and the type says so.

/// Why a frame was refused.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum InvalidSample {
    #[error("sample {index} is {value}, not a finite number; clean the input or drop the frame")]
    NotFinite { index: usize, value: f32 },
    #[error("sample {index} is {value}, outside the sensor's range -{limit}..={limit}")]
    OutOfRange {
        index: usize,
        value: f32,
        limit: f32,
    },
}

const LIMIT: f32 = 10.0;

fn check(index: usize, value: f32) -> Result<f32, InvalidSample> {
    if !value.is_finite() {
        return Err(InvalidSample::NotFinite { index, value });
    }
    if value.abs() > LIMIT {
        return Err(InvalidSample::OutOfRange {
            index,
            value,
            limit: LIMIT,
        });
    }
    Ok(value)
}

/// Lanes of the sum: eight partial sums let the compiler use SIMD (the sum of squares is then
/// taken in a fixed order that both variants share, so their results are equal).
const LANES: usize = 8;

fn lanes_total(acc: [f32; LANES]) -> f64 {
    acc.iter().map(|&a| f64::from(a)).sum()
}

// ANCHOR: inside
/// Before: every sample is checked inside the processing loop, every time the frame is used.
/// The early return on a bad sample keeps the loop scalar.
pub fn energy_checking_inside(frame: &[f32]) -> Result<f64, InvalidSample> {
    let mut acc = [0.0f32; LANES];
    for (c, chunk) in frame.chunks_exact(LANES).enumerate() {
        for (lane, &x) in chunk.iter().enumerate() {
            let x = check(c * LANES + lane, x)?;
            acc[lane] += x * x;
        }
    }
    let tail = frame.len() - frame.len() % LANES;
    for (lane, &x) in frame[tail..].iter().enumerate() {
        let x = check(tail + lane, x)?;
        acc[lane] += x * x;
    }
    Ok(lanes_total(acc))
}
// ANCHOR_END: inside

// ANCHOR: before_loop
/// After: a frame is validated once, when it enters the system; the loop takes a
/// `ValidFrame`, which can only be made by `ValidFrame::new`.
pub struct ValidFrame<'a>(&'a [f32]);

impl<'a> ValidFrame<'a> {
    pub fn new(frame: &'a [f32]) -> Result<Self, InvalidSample> {
        for (i, &x) in frame.iter().enumerate() {
            check(i, x)?;
        }
        Ok(Self(frame))
    }
}

/// No checks, no early exit: the compiler is free to vectorise.
pub fn energy(frame: &ValidFrame<'_>) -> f64 {
    let mut acc = [0.0f32; LANES];
    let chunks = frame.0.chunks_exact(LANES);
    let rest = chunks.remainder();
    for chunk in chunks {
        for lane in 0..LANES {
            acc[lane] += chunk[lane] * chunk[lane];
        }
    }
    for (lane, &x) in rest.iter().enumerate() {
        acc[lane] += x * x;
    }
    lanes_total(acc)
}
// ANCHOR_END: before_loop
