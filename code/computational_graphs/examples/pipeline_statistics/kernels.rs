//! The ladder's kernels as the ladder builds them for one square product: the WGSL, the override
//! constants and whether wgpu's runtime checks are left out (the rule of `tuned_pipeline_with`).
//! The last rungs depend on the device (workgroup memory, subgroup size): they are generated for
//! the wgpu adapter the ladder itself would run on, through the ladder's own `Rung::pipelining`.

use computational_graphs::Error;
use computational_graphs::matmul_ladder::{Rung, tuned};
use gpu_context::GpuContext;

/// One kernel to hand to the driver.
pub struct LadderKernel {
    /// The rung's name, with a suffix for the checked twin of an unchecked rung.
    pub name: String,
    pub wgsl: String,
    /// `override` constants, as `tuned_pipeline` sets them (empty for the first five rungs).
    pub constants: Vec<(String, f64)>,
    /// Created without wgpu's runtime checks (`create_shader_module_trusted` with
    /// `ShaderRuntimeChecks::unchecked()`).
    pub unchecked: bool,
}

/// The suffix of a checked twin's name.
pub const TWIN: &str = " (wgpu checks kept)";

/// The kernels of every rung for an n×n · n×n product (those of [`Rung::ALL`] and
/// [`Rung::BEYOND`]) and, for each rung that runs without wgpu's checks, the same kernel with
/// them, so that the checks' effect is seen apart from the edge tests'. Rungs that `ctx`'s device
/// cannot run come back in the second list with the reason. `quick`: only the prefetch rungs.
pub fn ladder_kernels(
    ctx: &GpuContext,
    n: usize,
    quick: bool,
) -> Result<(Vec<LadderKernel>, Vec<String>), Error> {
    let rungs: Vec<Rung> = if quick {
        vec![Rung::Prefetch, Rung::Unchecked]
    } else {
        Rung::ALL.into_iter().chain(Rung::BEYOND).collect()
    };
    let mut kernels = Vec::new();
    let mut skipped = Vec::new();
    for rung in rungs {
        let Some(t) = rung.tuning(n, n, n) else {
            kernels.push(LadderKernel {
                name: rung.name().to_owned(),
                wgsl: rung.source()?,
                constants: Vec::new(),
                unchecked: false,
            });
            continue;
        };
        let p = match rung.pipelining(ctx) {
            Ok(p) => p,
            Err(e @ Error::AdapterLacks { .. }) => {
                skipped.push(format!("{}: {e}", rung.name()));
                continue;
            }
            Err(e) => return Err(e),
        };
        // The same test as `matmul_ladder::tuned_pipeline_with`.
        let unchecked = t.is_in_bounds_with(&p) && t.fits_exactly(n, n, n);
        let wgsl = tuned::source_with(&t, &p)?;
        let constants: Vec<(String, f64)> = ["M", "N", "K"]
            .iter()
            .map(|c| ((*c).to_owned(), n as f64))
            .collect();
        if unchecked {
            kernels.push(LadderKernel {
                name: format!("{}{TWIN}", rung.name()),
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
    Ok((kernels, skipped))
}
