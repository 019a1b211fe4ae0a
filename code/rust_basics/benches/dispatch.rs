//! The dispatch comparison of `rust_basics_measuring_figures`, written for divan:
//! `cargo bench -p rust_basics --bench dispatch`. Divan picks the number of iterations per
//! sample, takes 100 samples, and prints the fastest, slowest, median and mean time per call.

use divan::{Bencher, black_box};
use rust_basics::traits::{
    Activation, ActivationKind, LeakyRelu, activate, activate_all, activate_each_dyn,
    activate_each_enum,
};

const N: usize = 4096;

fn main() {
    divan::main();
}

fn input() -> Vec<f32> {
    (0..N).map(|i| ((i * 37) % 101) as f32 - 50.0).collect()
}

// ANCHOR: divan
#[divan::bench]
fn generic_static(bencher: Bencher) {
    let leaky = LeakyRelu {
        slope: black_box(1.0),
    };
    let mut values = input();
    bencher.bench_local(|| activate(black_box(&leaky), black_box(&mut values)));
}

#[divan::bench]
fn dyn_per_element(bencher: Bencher) {
    let leaky = LeakyRelu {
        slope: black_box(1.0),
    };
    let mut values = input();
    bencher.bench_local(|| {
        activate_each_dyn(black_box(&leaky as &dyn Activation), black_box(&mut values))
    });
}
// ANCHOR_END: divan

#[divan::bench]
fn boxed_dyn_per_slice(bencher: Bencher) {
    let layers: Vec<Box<dyn Activation>> = vec![Box::new(LeakyRelu {
        slope: black_box(1.0),
    })];
    let mut values = input();
    bencher.bench_local(|| activate_all(black_box(&layers), black_box(&mut values)));
}

#[divan::bench]
fn enum_per_element(bencher: Bencher) {
    let kind = ActivationKind::LeakyRelu {
        slope: black_box(1.0),
    };
    let mut values = input();
    bencher.bench_local(|| activate_each_enum(black_box(kind), black_box(&mut values)));
}
