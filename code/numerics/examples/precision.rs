//! Prints the numbers of the book's "Float precision: cancellation, conditioning, variance"
//! page: every value is computed (the same on every machine), nothing is timed.
//!
//! `cargo run --release -p numerics --example precision`

use numerics::precision::accumulation::{blocked, lanes, one_lane};
use numerics::precision::cancellation::{
    one_minus_cos_naive, one_minus_cos_stable, relative_error, squares_difference_factored,
    squares_difference_naive,
};
use numerics::precision::conditioning::{cancelling_terms, sum_condition};
use numerics::precision::variance::{
    offset_data, variance_f64, variance_two_moment, variance_welford,
};
use numerics::summation::{naive, pairwise};

fn main() {
    println!("x² − y², x = 3000 + 2^-10, y = 3000 (f32):");
    let (x, y) = (3000.0f32 + 2f32.powi(-10), 3000.0f32);
    let exact = (f64::from(x) - f64::from(y)) * (f64::from(x) + f64::from(y));
    for (name, got) in [
        ("x*x - y*y", squares_difference_naive(x, y)),
        ("(x-y)*(x+y)", squares_difference_factored(x, y)),
    ] {
        let err = relative_error(got, exact);
        println!("  {name:<12} {got:<10} relative error {err:.1e}");
    }
    println!("  exact        {exact}");

    println!("1 − cos x (f32):");
    for x in [1e-2f32, 1e-3, 1e-4] {
        let exact = 1.0 - f64::from(x).cos();
        let (naive_cos, stable) = (one_minus_cos_naive(x), one_minus_cos_stable(x));
        println!(
            "  x = {x:.0e}: 1 - cos x = {naive_cos:.3e} (error {:.1e}), 2 sin²(x/2) = {stable:.3e} \
             (error {:.1e})",
            relative_error(naive_cos, exact),
            relative_error(stable, exact)
        );
    }

    println!("Naive f32 sums of 5000 values in [0, 1) then the same times -(1 - shrink):");
    let u = f64::from(f32::EPSILON) / 2.0;
    for shrink in [1.0f32, 1e-1, 1e-2, 1e-3, 1e-4] {
        let xs = cancelling_terms(10_000, shrink, 7);
        let wide: Vec<f64> = xs.iter().map(|&x| f64::from(x)).collect();
        let exact: f64 = wide.iter().sum();
        let kappa = sum_condition(&wide);
        let err = ((f64::from(naive(&xs)) - exact) / exact).abs();
        println!(
            "  shrink {shrink:.0e}: κ = {kappa:.1e}, relative error {err:.1e}, \
             bound (n-1)·u·κ = {:.1e}",
            9_999.0 * u * kappa
        );
    }

    println!("Variance of 10 000 values offset + {{-1.5, -0.5, 0.5, 1.5}} (exact 1.25):");
    for offset in [0.0f32, 100.0, 10_000.0] {
        let xs = offset_data(10_000, offset);
        println!(
            "  offset {offset:>6}: E[x²]−E[x]² = {:<10} Welford = {:<10} (f64: {})",
            variance_two_moment(&xs),
            variance_welford(&xs),
            variance_f64(&xs)
        );
    }

    println!("Adding 2^24 + 2^20 ones (exact 17825792), f32:");
    let ones = vec![1.0f32; (1 << 24) + (1 << 20)];
    println!("  one lane     {}", one_lane(&ones));
    println!("  8 lanes      {}", lanes::<8>(&ones));
    println!("  blocks, 4096 {}", blocked(&ones, 4096));
    println!("  pairwise     {}", pairwise(&ones));

    println!("Dot product of two vectors of 2^24 values uniform in [0, 1), f32 products:");
    let mut rng = bench_harness::rng::SplitMix64::new(11);
    let products: Vec<f32> = (0..1 << 24)
        .map(|_| rng.next_f32() * rng.next_f32())
        .collect();
    let exact: f64 = products.iter().map(|&p| f64::from(p)).sum();
    let share_below =
        |t: f32| 100.0 * products.iter().filter(|&&p| p < t).count() as f64 / products.len() as f64;
    println!(
        "  exact {exact:.0}; {:.0} % of the products are below 0.125, {:.0} % below 0.25",
        share_below(0.125),
        share_below(0.25)
    );
    for (name, got) in [
        ("one lane", one_lane(&products)),
        ("8 lanes", lanes::<8>(&products)),
        ("pairwise", pairwise(&products)),
    ] {
        println!(
            "  {name:<9} {got:.0} relative error {:.1e}",
            ((f64::from(got) - exact) / exact).abs()
        );
    }
}
