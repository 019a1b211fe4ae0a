//! An integration test: it sees `rust_basics` only from outside, as any other crate would, so it
//! checks the public API and how the modules fit together.

// ANCHOR: integration
use rust_basics::errors::{ShapeError, element_count, parse_shape};
use rust_basics::iterators::{Linspace, dot_iter};
use rust_basics::move_copy_clone::{Tensor, relu};
use rust_basics::testing::check_close;

#[test]
fn a_parsed_shape_makes_a_tensor_that_relu_keeps_in_place() {
    let shape = parse_shape("2x3").expect("a valid shape");
    let data: Vec<f32> = Linspace::new(-1.0, 1.0, 6).map(|x| x as f32).collect();
    let tensor = Tensor::from_vec(&shape, data).expect("6 values for a 2x3 shape");
    let out = relu(tensor);
    check_close(&out.data, &[0.0, 0.0, 0.0, 0.2, 0.6, 1.0], 1e-6).unwrap();
    assert_eq!(dot_iter(&out.data, &[1.0; 6]), out.data.iter().sum::<f32>());
}

#[test]
fn errors_travel_through_question_marks() {
    assert_eq!(element_count("4x0"), Err(ShapeError::Zero { position: 1 }));
}
// ANCHOR_END: integration
