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

// ANCHOR: inside
/// Before: every sample is checked inside the processing loop, every time the frame is used.
pub fn energy_checking_inside(frame: &[f32]) -> Result<f64, InvalidSample> {
    let mut sum = 0.0f64;
    for (i, &x) in frame.iter().enumerate() {
        let x = check(i, x)?;
        sum += f64::from(x * x);
    }
    Ok(sum)
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
    frame.0.iter().map(|&x| f64::from(x * x)).sum()
}
// ANCHOR_END: before_loop
