use bench_harness::rng::SplitMix64;

/// An axis-aligned box by its corners, in pixels: `x0 <= x1`, `y0 <= y1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxXyxy {
    pub x0: f32,
    pub y0: f32,
    pub x1: f32,
    pub y1: f32,
}

impl BoxXyxy {
    pub fn area(&self) -> f32 {
        (self.x1 - self.x0).max(0.0) * (self.y1 - self.y0).max(0.0)
    }

    // ANCHOR: iou
    /// Intersection over union: 0 for disjoint boxes, 1 for identical ones.
    pub fn iou(&self, other: &BoxXyxy) -> f32 {
        let w = (self.x1.min(other.x1) - self.x0.max(other.x0)).max(0.0);
        let h = (self.y1.min(other.y1) - self.y0.max(other.y0)).max(0.0);
        let inter = w * h;
        let union = self.area() + other.area() - inter;
        if union > 0.0 { inter / union } else { 0.0 }
    }
    // ANCHOR_END: iou
}

/// One candidate from the detector's head.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Detection {
    pub bbox: BoxXyxy,
    pub score: f32,
    pub class: u32,
}

/// `count` candidates as a detector produces them: clusters of jittered, overlapping boxes
/// around a few objects, with varied scores and classes. Deterministic for a seed.
pub fn generated_detections(seed: u64, count: usize, width: f32, height: f32) -> Vec<Detection> {
    let mut rng = SplitMix64::new(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut next = move || rng.next_f32();
    let objects = (count / 40).max(1);
    let centres: Vec<(f32, f32, f32, f32, u32)> = (0..objects)
        .map(|i| {
            let (w, h) = (20.0 + next() * width * 0.3, 20.0 + next() * height * 0.3);
            (next() * width, next() * height, w, h, (i % 5) as u32)
        })
        .collect();
    (0..count)
        .map(|i| {
            let (cx, cy, w, h, class) = centres[i % objects];
            let jitter = |v: f32, r: f32| v + (r - 0.5) * 0.2 * v.abs().max(20.0);
            let (cx, cy) = (jitter(cx, next()), jitter(cy, next()));
            let (w, h) = (w * (0.8 + 0.4 * next()), h * (0.8 + 0.4 * next()));
            Detection {
                bbox: BoxXyxy {
                    x0: (cx - w / 2.0).clamp(0.0, width),
                    y0: (cy - h / 2.0).clamp(0.0, height),
                    x1: (cx + w / 2.0).clamp(0.0, width),
                    y1: (cy + h / 2.0).clamp(0.0, height),
                },
                score: next(),
                class,
            }
        })
        .collect()
}
