use computational_graphs::rng::SplitMix64;
use computational_graphs::tensor::Tensor2D;

/// Points (m×2) and their class labels.
#[derive(Clone, Debug)]
pub struct Dataset {
    pub x: Tensor2D,
    pub labels: Vec<usize>,
}

// ANCHOR: spirals
/// `classes` interleaved spiral arms, `per_class` points each, with a little noise: a problem a
/// linear model cannot solve and a small MLP can. The same seed gives the same points everywhere.
pub fn spirals(classes: usize, per_class: usize, seed: u64) -> Dataset {
    let mut rng = SplitMix64::new(seed);
    let mut data = Vec::with_capacity(classes * per_class * 2);
    let mut labels = Vec::with_capacity(classes * per_class);
    for c in 0..classes {
        for i in 0..per_class {
            let t = i as f32 / per_class as f32; // 0 at the centre, 1 at the end of the arm
            let angle =
                4.0 * t + c as f32 * std::f32::consts::TAU / classes as f32 + rng.symmetric(0.2);
            data.extend([t * angle.cos(), t * angle.sin()]);
            labels.push(c);
        }
    }
    let x = Tensor2D::new(classes * per_class, 2, data).expect("two numbers per point");
    Dataset { x, labels }
}
// ANCHOR_END: spirals

// ANCHOR: held_out
/// Points the model has never seen: the arms of [`spirals`], but each point's place along its
/// arm drawn at random (evenly over the radius, as the grid of `spirals` is) with fresh noise.
/// `spirals` with another seed only re-noises the training grid; this draws new places as well.
pub fn held_out_spirals(classes: usize, per_class: usize, seed: u64) -> Dataset {
    let mut rng = SplitMix64::new(seed);
    let mut data = Vec::with_capacity(classes * per_class * 2);
    let mut labels = Vec::with_capacity(classes * per_class);
    for c in 0..classes {
        for _ in 0..per_class {
            let t = rng.next_f32();
            let angle =
                4.0 * t + c as f32 * std::f32::consts::TAU / classes as f32 + rng.symmetric(0.2);
            data.extend([t * angle.cos(), t * angle.sin()]);
            labels.push(c);
        }
    }
    let x = Tensor2D::new(classes * per_class, 2, data).expect("two numbers per point");
    Dataset { x, labels }
}
// ANCHOR_END: held_out

// ANCHOR: spiral_task
/// A harder spiral problem for pruning experiments: `turns` full turns per arm and angular
/// noise of up to `noise` radians. Unlike [`spirals`], each point's place along its arm is drawn
/// at random, so two seeds give two different point sets (a held-out test set, not the
/// training points re-noised).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpiralTask {
    pub classes: usize,
    pub turns: f32,
    pub noise: f32,
}

impl SpiralTask {
    pub fn sample(&self, per_class: usize, seed: u64) -> Dataset {
        let mut rng = SplitMix64::new(seed);
        let n = self.classes * per_class;
        let (mut data, mut labels) = (Vec::with_capacity(2 * n), Vec::with_capacity(n));
        for c in 0..self.classes {
            let offset = c as f32 * std::f32::consts::TAU / self.classes as f32;
            for _ in 0..per_class {
                let t = rng.next_f32().sqrt(); // even density over the disc, not the radius
                let angle = self.turns * std::f32::consts::TAU * t + offset;
                let angle = angle + rng.symmetric(self.noise);
                data.extend([t * angle.cos(), t * angle.sin()]);
                labels.push(c);
            }
        }
        let x = Tensor2D::new(n, 2, data).expect("two numbers per point");
        Dataset { x, labels }
    }
}
// ANCHOR_END: spiral_task
