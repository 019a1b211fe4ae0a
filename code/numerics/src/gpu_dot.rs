//! Chapter 2's GPU part: a WGSL dot product over f16 storage, accumulated in f16 or in f32,
//! and a CPU emulation of the same order of operations with the `half` crate.
//!
//! f16 arithmetic in WGSL needs the adapter feature `SHADER_F16`. Where it is missing,
//! [`open_f16_context`] returns an error that says so, and [`emulate`] gives the numbers the
//! kernel would produce.

use gpu_context::{GpuContext, GpuError, Requirements};
use half::f16;

/// The shader, with `ACC` standing for the accumulator type.
pub const SHADER_TEMPLATE: &str = include_str!("gpu_dot.wgsl");

/// Lanes of the one workgroup: each accumulates every 64th product, then a tree joins them.
pub const LANES: usize = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Accumulator {
    F16,
    F32,
}

impl Accumulator {
    pub fn name(&self) -> &'static str {
        match self {
            Accumulator::F16 => "f16",
            Accumulator::F32 => "f32",
        }
    }

    /// The shader source for this accumulator.
    pub fn shader(&self) -> String {
        SHADER_TEMPLATE.replace("ACC", self.name())
    }
}

/// A GPU context that can run f16 shaders, or [`GpuError::MissingFeature`] naming the adapter.
pub fn open_f16_context() -> Result<GpuContext, GpuError> {
    GpuContext::with_requirements(&Requirements {
        features: wgpu::Features::SHADER_F16,
        ..Default::default()
    })
}

/// Why a dot product could not run.
#[derive(Debug, thiserror::Error)]
pub enum DotError {
    #[error("the vectors have lengths {a} and {b}; a dot product needs equal lengths")]
    LengthMismatch { a: usize, b: usize },
    #[error("the vectors are empty; give at least one element")]
    Empty,
    #[error(transparent)]
    Gpu(#[from] GpuError),
}

fn check(a: &[f16], b: &[f16]) -> Result<(), DotError> {
    if a.len() != b.len() {
        return Err(DotError::LengthMismatch {
            a: a.len(),
            b: b.len(),
        });
    }
    if a.is_empty() {
        return Err(DotError::Empty);
    }
    Ok(())
}

// ANCHOR: gpu_dot
/// Runs the kernel once and returns its result as f32.
pub fn gpu_dot(ctx: &GpuContext, a: &[f16], b: &[f16], acc: Accumulator) -> Result<f32, DotError> {
    check(a, b)?;
    // Buffers hold whole 4-byte words: pad an odd length with a zero product, which adds
    // exactly nothing in either accumulator.
    let pad = |v: &[f16]| {
        let mut v = v.to_vec();
        if v.len() % 2 == 1 {
            v.push(f16::ZERO);
        }
        v
    };
    let (a_buf, b_buf) = (ctx.upload("dot a", &pad(a))?, ctx.upload("dot b", &pad(b))?);
    let result = ctx.storage_buffer("dot result", 4)?;
    let pipeline = ctx.cached_pipeline(&format!("dot_{}", acc.name()), &acc.shader(), "dot")?;
    let bind_group = ctx.bind_buffers(&pipeline, &[&a_buf, &b_buf, &result]);
    ctx.dispatch(&pipeline, &bind_group, [1, 1, 1]);
    Ok(ctx.download::<f32>(&result)?[0])
}
// ANCHOR_END: gpu_dot

// ANCHOR: emulate
/// What the kernel computes, operation by operation, on the CPU: lane `l` adds products
/// `l, l + 64, l + 128, …` in order, then the 64 partials meet in a tree. With an f16
/// accumulator every product and every sum is rounded to f16.
pub fn emulate(a: &[f16], b: &[f16], acc: Accumulator) -> Result<f32, DotError> {
    check(a, b)?;
    let round = |x: f32| match acc {
        Accumulator::F16 => f16::from_f32(x).to_f32(),
        Accumulator::F32 => x,
    };
    let mut partial = [0.0f32; LANES];
    for (lane, sum) in partial.iter_mut().enumerate() {
        for i in (lane..a.len()).step_by(LANES) {
            let product = round(a[i].to_f32() * b[i].to_f32());
            *sum = round(*sum + product);
        }
    }
    let mut stride = LANES / 2;
    while stride > 0 {
        for lane in 0..stride {
            partial[lane] = round(partial[lane] + partial[lane + stride]);
        }
        stride /= 2;
    }
    Ok(partial[0])
}
// ANCHOR_END: emulate

#[cfg(test)]
mod tests {
    use super::*;

    /// 64 lanes × 4096 products of 1 × 0.25: each lane's true sum is 1024, but an f16 sum
    /// stops growing at 512, where the spacing is 0.5 and +0.25 is a tie that rounds to even.
    fn stalling_input() -> (Vec<f16>, Vec<f16>) {
        let n = LANES * 4096;
        (vec![f16::ONE; n], vec![f16::from_f32(0.25); n])
    }

    #[test]
    fn emulation_shows_the_stall() {
        let (a, b) = stalling_input();
        assert_eq!(emulate(&a, &b, Accumulator::F32).unwrap(), 65_536.0);
        assert_eq!(emulate(&a, &b, Accumulator::F16).unwrap(), 32_768.0);
    }

    #[test]
    fn bad_lengths_are_errors() {
        let one = [f16::ONE];
        assert!(matches!(
            emulate(&one, &[], Accumulator::F32),
            Err(DotError::LengthMismatch { a: 1, b: 0 })
        ));
        assert!(matches!(
            emulate(&[], &[], Accumulator::F16),
            Err(DotError::Empty)
        ));
    }

    #[test]
    fn the_shader_names_its_accumulator() {
        assert!(Accumulator::F16.shader().contains("array<f16, 64>"));
        assert!(!Accumulator::F32.shader().contains("ACC"));
    }
}
