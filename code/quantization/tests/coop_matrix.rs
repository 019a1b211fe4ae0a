//! The cooperative-matrix GEMM: its shaders pass naga's validation and translate to SPIR-V on
//! any machine; on an adapter without the feature (lavapipe) opening fails with a clear
//! message, and on one with it the product matches the CPU exactly.

use gpu_context::wgpu::naga;
use quantization::coop_matrix::{
    CoopError, CoopGpu, CoopShape, check_exact, reference, small_integer_matrix,
};
use quantization::gemm::{GemmKind, TileLayout};

#[test]
fn every_shape_validates_and_translates_to_spirv() {
    for shape in CoopShape::PREFERRED {
        let source = shape.source();
        let module = naga::front::wgsl::parse_str(&source)
            .unwrap_or_else(|e| panic!("{}: {}", shape.label(), e.emit_to_string(&source)));
        let info = naga::valid::Validator::new(
            naga::valid::ValidationFlags::all(),
            naga::valid::Capabilities::all(),
        )
        .validate(&module)
        .unwrap_or_else(|e| panic!("{}: {e:?}", shape.label()));
        // wgpu's Vulkan backend writes buffer bounds checks unless the driver is robust.
        use naga::proc::BoundsCheckPolicy::{Restrict, Unchecked};
        for buffer in [Unchecked, Restrict] {
            let mut options = naga::back::spv::Options::default();
            options.bounds_check_policies.index = Restrict;
            options.bounds_check_policies.buffer = buffer;
            let words = naga::back::spv::write_vec(&module, &info, &options, None)
                .unwrap_or_else(|e| panic!("{} {buffer:?}: {e}", shape.label()));
            assert!(words.len() > 100, "{}", shape.label());
        }
    }
}

#[test]
fn sizes_that_do_not_fill_whole_tiles_are_refused_with_the_rule() {
    let shape = CoopShape::PREFERRED[0];
    let err = shape.check_sizes(48, 64, 64).unwrap_err();
    assert!(err.to_string().contains("multiples of 32"), "{err}");
    assert!(shape.check_sizes(64, 96, 48).is_ok());
}

#[test]
fn the_gemm_runs_exactly_where_supported_and_fails_clearly_where_not() {
    match CoopGpu::open() {
        Err(CoopError::Unsupported { adapter, configs }) => {
            let message = CoopError::Unsupported {
                adapter: adapter.clone(),
                configs,
            }
            .to_string();
            assert!(
                message.contains("EXPERIMENTAL_COOPERATIVE_MATRIX"),
                "{message}"
            );
            assert!(message.contains(&adapter) && message.contains("VK_KHR_cooperative_matrix"));
        }
        Err(other) => panic!("opening failed in an unexpected way: {other}"),
        Ok(gpu) => {
            let (m, n, k) = (64, 96, 80);
            let a = small_integer_matrix(m, k, 1);
            let b = small_integer_matrix(k, n, 2);
            let want = reference(&a, &b, m, n, k);
            for shape in gpu.usable() {
                let p = gpu.prepare_coop(shape, &a, &b, (m, n, k)).unwrap();
                check_exact(&p.label, &gpu.result(&p).unwrap(), &want, n).unwrap();
            }
            for layout in [TileLayout::Strided, TileLayout::Padded] {
                let tiled = gpu
                    .prepare_tiled(GemmKind::F32, layout, &a, &b, (m, n, k))
                    .unwrap();
                check_exact(&tiled.label, &gpu.result(&tiled).unwrap(), &want, n).unwrap();
            }
        }
    }
}
