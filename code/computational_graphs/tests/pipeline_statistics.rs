//! The pipeline_statistics example on the software adapter: every ladder kernel's SPIR-V is
//! accepted by the driver, and the statistics are read where the driver offers the extension
//! (where it does not, the error says so).

#[path = "../examples/pipeline_statistics/driver.rs"]
#[allow(dead_code)]
mod driver;
#[path = "../examples/pipeline_statistics/figure.rs"]
mod figure;
#[path = "../examples/pipeline_statistics/kernels.rs"]
mod kernels;

use computational_graphs::matmul_ladder::Rung;
use driver::{Checks, DriverError, Vulkan};
use gpu_context::GpuContext;

#[test]
fn every_ladder_kernel_compiles_and_its_statistics_are_read_or_refused_clearly() {
    let ctx = GpuContext::for_tests();
    let (kernels, skipped) =
        kernels::ladder_kernels(&ctx, 256, false).expect("the ladder's kernels generate");
    // Every rung is either generated or named with the reason; each unchecked one has a twin.
    let twins = kernels
        .iter()
        .filter(|k| k.name.ends_with(kernels::TWIN))
        .count();
    let unchecked = kernels.iter().filter(|k| k.unchecked).count();
    assert_eq!(
        kernels.len() - twins + skipped.len(),
        Rung::ALL.len() + Rung::BEYOND.len()
    );
    assert_eq!(twins, unchecked);
    assert!(
        unchecked >= 2,
        "prefetch unchecked and bk16 unchecked at least"
    );
    let vulkan = Vulkan::load().expect("a Vulkan loader (lavapipe here)");
    let devices = vulkan.devices().expect("a Vulkan device (lavapipe here)");
    for device in &devices {
        for k in &kernels {
            let checks = Checks {
                unchecked: k.unchecked,
                robust_buffer_access2: device.robust_buffer_access2,
            };
            let (spirv, bindings) = device
                .spirv(&k.name, &k.wgsl, &k.constants, checks)
                .expect("naga writes SPIR-V");
            assert!(!bindings.is_empty(), "{}: its buffers are bound", k.name);
            let plain = device
                .pipeline_statistics(&spirv, &bindings, false)
                .expect("the driver accepts the pipeline");
            assert!(plain.is_empty());
            match device.pipeline_statistics(&spirv, &bindings, true) {
                Ok(stats) => {
                    assert!(device.offers_statistics());
                    assert!(
                        !stats.is_empty(),
                        "{}: the driver reports statistics",
                        k.name
                    );
                    assert!(
                        stats
                            .iter()
                            .all(|s| !s.name.is_empty() && !s.value.is_empty())
                    );
                }
                Err(e @ DriverError::NoExtension { .. }) => {
                    assert!(!device.offers_statistics());
                    let message = e.to_string();
                    assert!(message.contains("VK_KHR_pipeline_executable_properties"));
                    assert!(message.contains(&device.name));
                }
                Err(e) => panic!("{}: {e}", k.name),
            }
        }
    }
}

#[test]
fn the_unchecked_rung_is_written_without_the_checks_its_twin_keeps() {
    let ctx = GpuContext::for_tests();
    let (kernels, _) =
        kernels::ladder_kernels(&ctx, 256, true).expect("the ladder's kernels generate");
    let twin = kernels
        .iter()
        .find(|k| k.name.ends_with(kernels::TWIN))
        .unwrap();
    let unchecked = kernels.iter().find(|k| k.unchecked).unwrap();
    assert_eq!(
        twin.wgsl, unchecked.wgsl,
        "the same kernel, only the checks differ"
    );
    let vulkan = Vulkan::load().expect("a Vulkan loader (lavapipe here)");
    let device = &vulkan.devices().expect("a Vulkan device")[0];
    let words = |k: &kernels::LadderKernel| {
        let checks = Checks {
            unchecked: k.unchecked,
            robust_buffer_access2: device.robust_buffer_access2,
        };
        assert_eq!(
            checks
                .describe()
                .starts_with("index Unchecked, buffer Unchecked, loops bounded no"),
            k.unchecked
        );
        device
            .spirv(&k.name, &k.wgsl, &k.constants, checks)
            .unwrap()
            .0
            .len()
    };
    // Index clamps and the loop bound are code: the checked module is the longer one.
    assert!(words(twin) > words(unchecked));
}

#[test]
fn redraw_reproduces_the_committed_chart() {
    let redrawn =
        bench_harness::check_committed("pipeline_statistics", &figure::SOURCES, |_, found| {
            figure::draw(found)
        })
        .unwrap();
    assert_eq!(redrawn.figures, ["graphs_h200_pipeline_stats"]);
    let report = redrawn.report;
    assert!(report.written.is_empty(), "changed: {:?}", report.written);
    assert_eq!(report.unchanged.len(), 1);
}
