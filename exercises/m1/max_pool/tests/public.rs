//! Public tests: `cargo nextest run -p ex_m1_max_pool` (the GPU ones need an adapter; lavapipe
//! is enough).

use computational_graphs::graph::{GraphBuilder, runner_cpu, runner_gpu, validate};
use computational_graphs::ops::gpu::Pipelines;
use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;
use ex_m1_max_pool::{MaxPool, max_pool_cpu, max_pool_gpu, pooled_shape};
use gpu_context::GpuContext;

fn random(rows: usize, cols: usize, seed: u64) -> Tensor2D {
    Tensor2D::random(rows, cols, 1.0, &mut SplitMix64::new(seed))
}

#[test]
fn max_pool_public_shape_of_a_4x6_tensor() {
    assert_eq!(pooled_shape(4, 6, 2).unwrap(), (2, 3));
    assert_eq!(
        pooled_shape(5, 7, 2).unwrap(),
        (2, 3),
        "leftover edges are dropped"
    );
    assert!(pooled_shape(4, 6, 0).is_err(), "k = 0 must be an error");
}

#[test]
fn max_pool_public_cpu_2x2() {
    let x = Tensor2D::from_rows(&[[1.0, 5.0, -1.0, 0.0], [3.0, 2.0, -7.0, -2.0]]);
    let pooled = max_pool_cpu(&x, 2).unwrap();
    assert_eq!(pooled, Tensor2D::from_rows(&[[5.0, 0.0]]));
}

#[test]
fn max_pool_public_gpu_matches_cpu() {
    let ctx = GpuContext::for_tests();
    let x = random(9, 13, 1);
    let cpu = max_pool_cpu(&x, 3).unwrap();
    assert_eq!(cpu.shape(), (3, 4));
    assert_eq!(max_pool_gpu(&ctx, &x, 3).unwrap(), cpu);
}

#[test]
fn max_pool_public_graph_on_cpu_and_gpu() {
    let ctx = GpuContext::for_tests();
    // x (6×4) → Linear (4→10) → ReLU → MaxPool k=2 → back to the host: a 3×5 result.
    let mut g = GraphBuilder::new();
    let x = g.input("x", 6, 4);
    let w = g.parameter("w", random(4, 10, 2));
    let b = g.parameter("b", random(1, 10, 3));
    let xd = g.to_device(x);
    let h = g.linear(xd, w, b);
    let h = g.relu(h);
    let p = g.custom(MaxPool { k: 2 }, &[h]);
    g.to_host(p);
    let graph = validate(&g.finish()).unwrap();
    let input = random(6, 4, 4);
    let cpu = runner_cpu::run(&graph, std::slice::from_ref(&input)).unwrap();
    assert_eq!(cpu[0].shape(), (3, 5));
    let program = runner_gpu::build(&ctx, &graph, Pipelines::Cached).unwrap();
    let gpu = program.run(&ctx, &[input]).unwrap();
    assert_eq!(gpu[0].shape(), (3, 5));
    for (g, c) in gpu[0].data().iter().zip(cpu[0].data()) {
        assert!((g - c).abs() < 1e-4, "GPU {g}, CPU {c}");
    }
}
