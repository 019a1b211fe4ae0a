//! The `cxx` bridge: C++ loops calling back into Rust compute what Rust computes.

use bindings::LengthMismatch;
use bindings::call_cost::{GAIN, expected, frame};
use bindings::cpp::{batched_from_cpp, per_element_from_cpp, per_element_hoisted_from_cpp};

type FromCpp = fn(&[f32], f32, &mut [f32]) -> Result<(), LengthMismatch>;

const ALL: [(&str, FromCpp); 3] = [
    ("per element", per_element_from_cpp),
    (
        "per element, pointers hoisted",
        per_element_hoisted_from_cpp,
    ),
    ("batched", batched_from_cpp),
];

#[test]
fn every_cpp_loop_compute_what_rust_computes() {
    for n in [0, 1, 7, 1000] {
        let input = frame(n);
        for (name, from_cpp) in ALL {
            let mut out = vec![f32::NAN; n];
            from_cpp(&input, GAIN, &mut out).unwrap();
            assert_eq!(out, expected(&input), "{name}, n = {n}");
        }
    }
}

#[test]
fn an_output_of_another_length_is_refused_before_cpp_runs() {
    let input = frame(8);
    for (name, from_cpp) in ALL {
        let mut short = vec![f32::NAN; 5];
        let err = from_cpp(&input, GAIN, &mut short).unwrap_err();
        assert_eq!(err, LengthMismatch { input: 8, out: 5 }, "{name}");
        assert!(
            short.iter().all(|x| x.is_nan()),
            "{name} wrote into a refused output"
        );
        assert!(
            err.to_string()
                .contains("pass an output as long as the input")
        );
    }
}
