//! The GEMM kernels of the throughput figure compute the right numbers (on lavapipe in CI).

use gpu_context::GpuContext;
use quantization::gemm::{GemmInputs, GemmKind, GemmOnDevice, reference};

#[test]
fn every_format_computes_the_product_on_odd_sizes() {
    let ctx = GpuContext::for_tests();
    for (m, n, k) in [(5, 7, 12), (33, 17, 100)] {
        for kind in GemmKind::ALL {
            if !ctx.device.features().contains(kind.feature()) {
                // The f16 kernel needs SHADER_F16; without it the error must say so.
                let err = GemmOnDevice::new(&ctx, kind, m, n, k, 1)
                    .err()
                    .expect("refused");
                assert!(err.to_string().contains("SHADER_F16"), "{err}");
                continue;
            }
            let inputs = GemmInputs::random(kind, m, n, k, 3);
            let gemm = GemmOnDevice::with_inputs(&ctx, kind, m, n, k, &inputs).unwrap();
            let got = gemm.result(&ctx).unwrap();
            let want = reference(&inputs, m, n, k);
            for (g, w) in got.iter().zip(&want) {
                let tol = match kind {
                    GemmKind::Int8 | GemmKind::Int8Shifts => 0.0, // exact: integers below 2^24
                    _ => 1e-2 * (k as f64).sqrt(),
                };
                assert!(
                    (f64::from(*g) - w).abs() <= tol,
                    "{kind:?} {m}×{n}×{k}: {g} vs {w}"
                );
            }
        }
    }
}
