//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use ex_m1_max_pool::{Device, Image, Node, max_pool_cpu, max_pool_gpu, pooled_shape, run_graph};
use gpu_context::GpuContext;

fn values(channels: usize, height: usize, width: usize, seed: u32) -> Image {
    let mut s = seed.wrapping_mul(2_246_822_519).wrapping_add(5);
    let data = (0..channels * height * width)
        .map(|_| {
            s = s.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            (s >> 8) as f32 / (1u32 << 23) as f32 - 1.0
        })
        .collect();
    Image::new(channels, height, width, data).unwrap()
}

/// The reference, written independently of the exercise.
fn reference(image: &Image, k: usize) -> Image {
    let (oh, ow) = (image.height / k, image.width / k);
    let mut data = vec![f32::MIN; image.channels * oh * ow];
    for c in 0..image.channels {
        for y in 0..oh * k {
            for x in 0..ow * k {
                let o = (c * oh + y / k) * ow + x / k;
                data[o] = data[o].max(image.at(c, y, x));
            }
        }
    }
    Image::new(image.channels, oh, ow, data).unwrap()
}

#[test]
fn max_pool_hidden_shapes_and_errors() {
    assert_eq!(pooled_shape(7, 5, 2).unwrap(), (3, 2));
    assert_eq!(pooled_shape(3, 3, 3).unwrap(), (1, 1));
    assert_eq!(pooled_shape(9, 4, 1).unwrap(), (9, 4));
    assert!(pooled_shape(4, 4, 0).is_err());
    assert!(pooled_shape(2, 8, 3).is_err());
    assert!(max_pool_cpu(&values(1, 2, 2, 1), 3).is_err());
    grade_ok!("max_pool_hidden_shapes_and_errors");
}

#[test]
fn max_pool_hidden_cpu_known_values() {
    let image = values(3, 7, 5, 2);
    assert_eq!(max_pool_cpu(&image, 2).unwrap(), reference(&image, 2));
    grade_ok!("max_pool_hidden_cpu_known_values");
}

#[test]
fn max_pool_hidden_cpu_negative_windows() {
    let image = Image::new(1, 2, 2, vec![-4.0, -3.0, -2.5, -9.0]).unwrap();
    assert_eq!(max_pool_cpu(&image, 2).unwrap().data, vec![-2.5]);
    grade_ok!("max_pool_hidden_cpu_negative_windows");
}

#[test]
fn max_pool_hidden_gpu_matches_cpu_on_odd_sizes() {
    let ctx = GpuContext::for_tests();
    for (c, h, w, k) in [(1, 1, 1, 1), (4, 33, 17, 3), (2, 9, 10, 2), (1, 2, 2, 2)] {
        let image = values(c, h, w, (h * w) as u32);
        assert_eq!(
            max_pool_gpu(&ctx, &image, k).unwrap(),
            reference(&image, k),
            "{c}×{h}×{w}, k={k}"
        );
    }
    let negative = Image::new(1, 2, 2, vec![-4.0, -3.0, -2.5, -9.0]).unwrap();
    assert_eq!(max_pool_gpu(&ctx, &negative, 2).unwrap().data, vec![-2.5]);
    grade_ok!("max_pool_hidden_gpu_matches_cpu_on_odd_sizes");
}

#[test]
fn max_pool_hidden_graph_runs_on_both_devices() {
    let ctx = GpuContext::for_tests();
    let image = values(2, 12, 9, 7);
    let nodes = [
        Node::Input,
        Node::MaxPool { input: 0, k: 2 },
        Node::Relu(1),
        Node::MaxPool { input: 2, k: 2 },
    ];
    let relu = |im: Image| Image {
        data: im.data.iter().map(|v| v.max(0.0)).collect(),
        ..im
    };
    let want = reference(&relu(reference(&image, 2)), 2);
    assert_eq!(run_graph(&Device::Cpu, &nodes, &image).unwrap(), want);
    assert_eq!(run_graph(&Device::Gpu(&ctx), &nodes, &image).unwrap(), want);
    grade_ok!("max_pool_hidden_graph_runs_on_both_devices");
}
