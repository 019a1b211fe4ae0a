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

/// `count` candidates as a detector produces them: clusters of about 40 jittered, overlapping
/// boxes around each object, with varied scores and classes. Deterministic for a seed.
///
/// The jitter is relative to the object's size (centres move by up to ±10 % of its width and
/// height, sides scale by 0.9–1.1), as a detector's neighbouring anchors see one object: a small
/// object's candidates stay as tightly clustered as a large one's. The scene scales with the
/// image: the same seed on an image ten times wider gives boxes ten times wider.
pub fn generated_detections(seed: u64, count: usize, width: f32, height: f32) -> Vec<Detection> {
    let mut rng = SplitMix64::new(seed ^ 0x9E37_79B9_7F4A_7C15);
    let mut next = move || rng.next_f32();
    let objects = (count / 40).max(1);
    let centres: Vec<(f32, f32, f32, f32, u32)> = (0..objects)
        .map(|i| {
            let (w, h) = (
                width * (0.03 + 0.3 * next()),
                height * (0.03 + 0.3 * next()),
            );
            (next() * width, next() * height, w, h, (i % 5) as u32)
        })
        .collect();
    (0..count)
        .map(|i| {
            let (cx, cy, w, h, class) = centres[i % objects];
            // ANCHOR: jitter
            let (cx, cy) = (cx + (next() - 0.5) * 0.2 * w, cy + (next() - 0.5) * 0.2 * h);
            let (w, h) = (w * (0.9 + 0.2 * next()), h * (0.9 + 0.2 * next()));
            // ANCHOR_END: jitter
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
