//! The ladder's kernels as the ladder builds them for one square product: the WGSL, the override
//! constants and whether wgpu's runtime checks are left out (the rule of `tuned_pipeline`).

use computational_graphs::Error;
use computational_graphs::matmul_ladder::{Rung, tuned};

/// One kernel to hand to the driver.
pub struct LadderKernel {
    /// The rung's name, with a suffix for the extra checked twin of the last rung.
    pub name: String,
    pub wgsl: String,
    /// `override` constants, as `tuned_pipeline` sets them (empty for the first five rungs).
    pub constants: Vec<(String, f64)>,
    /// Created without wgpu's runtime checks (`create_shader_module_trusted` with
    /// `ShaderRuntimeChecks::unchecked()`).
    pub unchecked: bool,
}

/// Every rung for an n×n · n×n product, and one more: the last rung's kernel with wgpu's checks
/// kept, so that the effect of the checks is seen apart from the effect of the edge tests.
/// `quick`: only the last two rungs and that twin.
pub fn ladder_kernels(n: usize, quick: bool) -> Result<Vec<LadderKernel>, Error> {
    let mut kernels = Vec::new();
    let rungs: &[Rung] = if quick {
        &[Rung::Prefetch, Rung::Unchecked]
    } else {
        &Rung::ALL
    };
    for &rung in rungs {
        match rung.tuning(n, n, n) {
            None => kernels.push(LadderKernel {
                name: rung.name().to_owned(),
                wgsl: rung.source()?,
                constants: Vec::new(),
                unchecked: false,
            }),
            Some(t) => {
                // The same test as `matmul_ladder::tuned_pipeline`.
                let unchecked = t.is_in_bounds_by_construction() && t.fits_exactly(n, n, n);
                let wgsl = tuned::source(&t)?;
                let constants = ["M", "N", "K"]
                    .iter()
                    .map(|c| ((*c).to_owned(), n as f64))
                    .collect::<Vec<_>>();
                if unchecked {
                    kernels.push(LadderKernel {
                        name: format!("{} (wgpu checks kept)", rung.name()),
                        wgsl: wgsl.clone(),
                        constants: constants.clone(),
                        unchecked: false,
                    });
                }
                kernels.push(LadderKernel {
                    name: rung.name().to_owned(),
                    wgsl,
                    constants,
                    unchecked,
                });
            }
        }
    }
    Ok(kernels)
}
