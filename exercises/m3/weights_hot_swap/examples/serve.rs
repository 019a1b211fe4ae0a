//! Once `WeightSlot` works: a trainer thread learns XOR with the 2 → 4 → 1 MLP and publishes its
//! weights every 100 steps, while an inference thread answers the four inputs with whatever
//! version is current and reports each new version it sees.
//!
//! `cargo run -p ex_m3_weights_hot_swap --example serve`

use ex_m3_weights_hot_swap::{WeightSlot, Weights};

const XOR: [([f32; 2], f32); 4] = [
    ([0.0, 0.0], 0.0),
    ([0.0, 1.0], 1.0),
    ([1.0, 0.0], 1.0),
    ([1.0, 1.0], 0.0),
];
const STEPS: u64 = 2_000;
const PUBLISH_EVERY: u64 = 100;

/// The hidden layer's tanh outputs and the sigmoid output. `hidden` holds the 2×4 weights
/// (input-major) then 4 biases; `output` the 4 weights then the bias.
fn forward(w: &Weights, x: [f32; 2]) -> ([f32; 4], f32) {
    let h: [f32; 4] = std::array::from_fn(|j| {
        (x[0] * w.hidden[j] + x[1] * w.hidden[4 + j] + w.hidden[8 + j]).tanh()
    });
    let z = (0..4).map(|j| h[j] * w.output[j]).sum::<f32>() + w.output[4];
    (h, 1.0 / (1.0 + (-z).exp()))
}

/// Mean squared error over the four XOR cases.
fn loss(w: &Weights) -> f32 {
    XOR.iter()
        .map(|&(x, y)| (forward(w, x).1 - y).powi(2))
        .sum::<f32>()
        / 4.0
}

/// One full-batch gradient step on the squared error, into a new `Weights`.
fn step(w: &Weights, rate: f32) -> Weights {
    let mut next = w.clone();
    for &(x, y) in &XOR {
        let (h, p) = forward(w, x);
        let dz = (p - y) * p * (1.0 - p) * rate;
        next.output[4] -= dz;
        for (j, &hj) in h.iter().enumerate() {
            next.output[j] -= dz * hj;
            let dh = dz * w.output[j] * (1.0 - hj * hj);
            next.hidden[j] -= dh * x[0];
            next.hidden[4 + j] -= dh * x[1];
            next.hidden[8 + j] -= dh;
        }
    }
    next
}

fn main() {
    // Fixed, asymmetric starting weights: no random-number crate needed.
    let start = Weights {
        hidden: (0..12).map(|i| ((i * 7 % 12) as f32 - 5.5) / 6.0).collect(),
        output: (0..5).map(|i| ((i * 3 % 5) as f32 - 2.0) / 2.0).collect(),
    };
    let slot = WeightSlot::new(start.clone());
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut w = start;
            for k in 1..=STEPS {
                w = step(&w, 0.5);
                if k % PUBLISH_EVERY == 0 {
                    slot.publish(k / PUBLISH_EVERY, w.clone())
                        .expect("versions increase");
                    // A real trainer takes far longer per step: give the reader time to see
                    // every version.
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
            }
        });
        s.spawn(|| {
            let mut seen = None;
            while seen != Some(STEPS / PUBLISH_EVERY) {
                let snap = slot.current();
                if seen != Some(snap.version) {
                    let answers = XOR.map(|(x, _)| forward(&snap.weights, x).1);
                    println!(
                        "version {:>2}: loss {:.4}, answers {answers:.2?}",
                        snap.version,
                        loss(&snap.weights)
                    );
                    seen = Some(snap.version);
                }
                std::thread::yield_now();
            }
        });
    });
}
