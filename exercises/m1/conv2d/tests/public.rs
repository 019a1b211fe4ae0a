//! Public tests: `cargo nextest run -p ex_m1_conv2d` (the GPU one needs an adapter; lavapipe is
//! enough).

use computational_graphs::Error;
use computational_graphs::graph::{GraphBuilder, runner_cpu, validate};
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_conv2d::{Conv2d, conv2d_cpu, conv2d_gpu, conv2d_shape};
use gpu_context::GpuContext;

fn random(rows: usize, cols: usize, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, 1.0, &mut SplitMix64::new(seed))
}

#[test]
fn conv2d_public_cpu_4x4_image_2x2_kernel() {
    let image = Tensor2D::from_rows(&[
        [1.0, 2.0, 3.0, 4.0],
        [5.0, 6.0, 7.0, 8.0],
        [9.0, 10.0, 11.0, 12.0],
        [13.0, 14.0, 15.0, 16.0],
    ]);
    let kernel = Tensor2D::from_rows(&[[1.0, 2.0], [3.0, 4.0]]);
    // Top left: 1·1 + 2·2 + 3·5 + 4·6 = 44; one step right adds 1 + 2 + 3 + 4 = 10, one step
    // down adds 4 times that.
    let want = Tensor2D::from_rows(&[
        [44.0, 54.0, 64.0],
        [84.0, 94.0, 104.0],
        [124.0, 134.0, 144.0],
    ]);
    assert_eq!(conv2d_cpu(&image, &kernel, 1).unwrap(), want);
}

#[test]
fn conv2d_public_kernel_larger_than_image_is_an_error() {
    assert_eq!(conv2d_shape((5, 7), (3, 3), 2).unwrap(), (2, 3));
    assert!(conv2d_shape((3, 3), (4, 1), 1).is_err());
    let err = conv2d_cpu(&random(3, 3, 1), &random(4, 1, 2), 1).unwrap_err();
    assert!(matches!(err, Error::Shape { op: "Conv2d", .. }), "{err}");
}

#[test]
fn conv2d_public_gpu_matches_cpu() {
    let ctx = GpuContext::for_tests();
    let (image, kernel) = (random(9, 11, 3), random(3, 3, 4));
    for stride in [1, 2] {
        let cpu = conv2d_cpu(&image, &kernel, stride).unwrap();
        let gpu = conv2d_gpu(&ctx, &image, &kernel, stride).unwrap();
        assert_eq!(gpu.shape(), cpu.shape(), "stride {stride}");
        assert!(gpu.max_abs_diff(&cpu) < 1e-4, "stride {stride}");
    }
}

#[test]
fn conv2d_public_graph_on_the_cpu_runner() {
    let kernel = random(3, 2, 5);
    let mut g = GraphBuilder::new();
    let x = g.input("image", 6, 5);
    let k = g.parameter("kernel", kernel.clone());
    let xd = g.to_device(x);
    let y = g.custom(Conv2d { stride: 1 }, &[xd, k]);
    let y = g.relu(y);
    g.to_host(y);
    let graph = validate(&g.finish()).unwrap();
    let image = random(6, 5, 6);
    let got = runner_cpu::run(&graph, std::slice::from_ref(&image)).unwrap();
    let conv = conv2d_cpu(&image, &kernel, 1).unwrap();
    let relu: Vec<f32> = conv.data().iter().map(|v| v.max(0.0)).collect();
    assert_eq!(got[0], Tensor2D::new(4, 4, relu).unwrap());
}
