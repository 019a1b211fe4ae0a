//! The GEMM kernels of the throughput figure compute the right numbers (on lavapipe in CI).

use gpu_context::GpuContext;
use quantization::gemm::{GemmInputs, GemmKind, GemmOnDevice, TileLayout, reference};

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
            let want = reference(&inputs, m, n, k);
            for layout in [TileLayout::Strided, TileLayout::Padded] {
                let gemm =
                    GemmOnDevice::with_inputs_and_layout(&ctx, kind, layout, (m, n, k), &inputs)
                        .unwrap();
                let got = gemm.result(&ctx).unwrap();
                for (g, w) in got.iter().zip(&want) {
                    let tol = match kind {
                        GemmKind::Int8 | GemmKind::Int8Shifts => 0.0, // exact: integers below 2^24
                        _ => 1e-2 * (k as f64).sqrt(),
                    };
                    assert!(
                        (f64::from(*g) - w).abs() <= tol,
                        "{kind:?} {layout:?} {m}×{n}×{k}: {g} vs {w}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_padded_layout_changes_only_the_declaration_of_tile_b() {
    for kind in GemmKind::ALL {
        let (strided, padded) = (kind.source(), kind.source_with(TileLayout::Padded));
        let changed: Vec<_> = strided
            .lines()
            .zip(padded.lines())
            .filter(|(a, b)| a != b)
            .collect();
        assert_eq!(changed.len(), 1, "{kind:?}");
        assert!(changed[0].1.contains("tile_b") && changed[0].1.contains(", 17>, 16>"));
    }
}
