//! The pipeline_statistics example on the software adapter: every ladder kernel's SPIR-V is
//! accepted by the driver, and the statistics are read where the driver offers the extension
//! (where it does not, the error says so).

#[path = "../examples/pipeline_statistics/driver.rs"]
#[allow(dead_code)]
mod driver;
#[path = "../examples/pipeline_statistics/kernels.rs"]
mod kernels;

use driver::{Checks, DriverError, Vulkan};

#[test]
fn every_ladder_kernel_compiles_and_its_statistics_are_read_or_refused_clearly() {
    let kernels = kernels::ladder_kernels(256, false).expect("the ladder's kernels generate");
    // Eight rungs and the checked twin of the last.
    assert_eq!(kernels.len(), 9);
    assert_eq!(kernels.iter().filter(|k| k.unchecked).count(), 1);
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
    let kernels = kernels::ladder_kernels(256, true).expect("the ladder's kernels generate");
    let twin = kernels
        .iter()
        .find(|k| k.name.contains("wgpu checks kept"))
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
