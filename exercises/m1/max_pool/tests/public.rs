//! Public tests: `cargo nextest run -p ex_m1_max_pool` (the GPU ones need an adapter; lavapipe
//! is enough).

use ex_m1_max_pool::{Device, Image, Node, max_pool_cpu, max_pool_gpu, pooled_shape, run_graph};
use gpu_context::GpuContext;

fn ramp(channels: usize, height: usize, width: usize) -> Image {
    let data = (0..channels * height * width)
        .map(|i| ((i * 7) % 11) as f32 - 5.0)
        .collect();
    Image::new(channels, height, width, data).unwrap()
}

#[test]
fn max_pool_public_shape_of_a_4x6_image() {
    assert_eq!(pooled_shape(4, 6, 2).unwrap(), (2, 3));
}

#[test]
fn max_pool_public_cpu_2x2() {
    let image = Image::new(1, 2, 4, vec![1.0, 5.0, -1.0, 0.0, 3.0, 2.0, -7.0, -2.0]).unwrap();
    let pooled = max_pool_cpu(&image, 2).unwrap();
    assert_eq!(pooled, Image::new(1, 1, 2, vec![5.0, 0.0]).unwrap());
}

#[test]
fn max_pool_public_gpu_and_graph_match_cpu() {
    let ctx = GpuContext::for_tests();
    let image = ramp(2, 6, 6);
    let cpu = max_pool_cpu(&image, 3).unwrap();
    assert_eq!(max_pool_gpu(&ctx, &image, 3).unwrap(), cpu);
    let nodes = [Node::Input, Node::MaxPool { input: 0, k: 3 }];
    assert_eq!(run_graph(&Device::Gpu(&ctx), &nodes, &image).unwrap(), cpu);
}
