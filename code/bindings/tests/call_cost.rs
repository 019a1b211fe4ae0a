//! The figure's measurements on a tiny plan: every crossing is checked against Rust, then timed.

use bindings::call_cost::{Crossing, Plan, PythonHarness, measure_native};
use bindings::embedded;
use pyo3::Python;

fn tiny() -> Plan {
    Plan {
        sizes: vec![3],
        warmup: 1,
        samples: 3,
        elements_per_sample: 12,
    }
}

#[test]
fn every_crossing_is_measured_with_a_positive_time_per_sample() {
    let plan = tiny();
    embedded::start();
    Python::attach(|py| {
        let harness = PythonHarness::load(py).unwrap();
        for crossing in Crossing::ALL {
            let m = if crossing.part() == "python" {
                harness.measure(crossing, 3, &plan)
            } else {
                measure_native(crossing, 3, &plan)
            }
            .unwrap_or_else(|e| panic!("{crossing:?}: {e}"));
            assert_eq!((m.n, m.reps), (3, 4), "{crossing:?}");
            assert_eq!(m.per_element.samples, 3, "{crossing:?}");
            assert!(m.per_element.min > 0.0, "{crossing:?}: {:?}", m.per_element);
        }
    });
}

#[test]
fn a_small_frame_is_repeated_so_every_sample_scales_about_the_same_number_of_samples() {
    let plan = Plan::full();
    assert_eq!(plan.reps(1), plan.elements_per_sample);
    assert_eq!(plan.reps(plan.elements_per_sample * 2), 1);
}
