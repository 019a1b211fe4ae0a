//! Point-cloud compression by quantisation: every coordinate becomes a `bits`-bit integer on a
//! grid over the cloud's bounding box, and the position error is computed against the grid step.

use computational_graphs::rng::SplitMix64;

/// Why a cloud could not be quantised.
#[derive(Debug, thiserror::Error)]
pub enum PointCloudError {
    #[error("{bits} bits per axis is not supported: choose 1 to 24")]
    Bits { bits: u32 },
    #[error("the point cloud is empty: a bounding box needs at least one point")]
    Empty,
    #[error("point {index} has a coordinate that is not finite ({point:?}): remove or fix it")]
    NotFinite { index: usize, point: [f32; 3] },
}

/// A test scene in a 10 m box: points on three spheres and two tilted rectangles, the same for a
/// given seed on every machine. The rectangles are tilted so that no axis sees a constant
/// coordinate (a plane aligned with the grid would have one error for all of its points).
pub fn scene(points_per_shape: usize, seed: u64) -> Vec<[f32; 3]> {
    let mut rng = SplitMix64::new(seed);
    let mut cloud = Vec::with_capacity(5 * points_per_shape);
    for (centre, radius) in [
        ([2.5, 2.5, 3.0], 1.5),
        ([7.0, 3.0, 6.0], 2.0),
        ([4.0, 7.5, 5.0], 1.0),
    ] {
        for _ in 0..points_per_shape {
            // A uniform direction: a point of the unit ball, by rejection, pushed to the sphere.
            let d = loop {
                let v = [rng.symmetric(1.0), rng.symmetric(1.0), rng.symmetric(1.0)];
                let n2: f32 = v.iter().map(|c| c * c).sum();
                if n2 > 1e-4 && n2 <= 1.0 {
                    break v.map(|c| c / n2.sqrt());
                }
            };
            cloud.push(std::array::from_fn(|k| centre[k] + radius * d[k]));
        }
    }
    let rectangles = [
        // origin, two edge vectors
        ([0.0, 0.0, 0.5], [9.0, 1.0, 0.3], [0.8, 9.0, 0.6]),
        ([0.5, 9.0, 0.0], [8.0, 0.5, 2.0], [0.4, 0.3, 8.0]),
    ];
    for (origin, a, b) in rectangles {
        for _ in 0..points_per_shape {
            let (u, v) = (rng.next_f32(), rng.next_f32());
            cloud.push(std::array::from_fn(|k| origin[k] + u * a[k] + v * b[k]));
        }
    }
    cloud
}

// ANCHOR: grid
/// A grid of `2^bits` cells per axis over a bounding box.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    pub min: [f64; 3],
    /// Cell size per axis: the box's extent over `2^bits`.
    pub step: [f64; 3],
    pub bits: u32,
}
// ANCHOR_END: grid

impl Grid {
    /// The grid over the bounding box of `points`.
    pub fn fit(points: &[[f32; 3]], bits: u32) -> Result<Self, PointCloudError> {
        if !(1..=24).contains(&bits) {
            return Err(PointCloudError::Bits { bits });
        }
        if let Some(index) = points.iter().position(|p| !p.iter().all(|c| c.is_finite())) {
            let point = points[index];
            return Err(PointCloudError::NotFinite { index, point });
        }
        let first = points.first().ok_or(PointCloudError::Empty)?;
        let (mut lo, mut hi) = (first.map(f64::from), first.map(f64::from));
        for p in points {
            for k in 0..3 {
                lo[k] = lo[k].min(f64::from(p[k]));
                hi[k] = hi[k].max(f64::from(p[k]));
            }
        }
        let cells = f64::from(1u32 << bits);
        Ok(Self {
            min: lo,
            step: std::array::from_fn(|k| (hi[k] - lo[k]) / cells),
            bits,
        })
    }

    // ANCHOR: grid_codes
    /// The cell of each coordinate: `floor((x - min) / step)`, the box's far face folded into
    /// the last cell. A flat axis (step 0) has one cell.
    pub fn encode(&self, p: [f32; 3]) -> [u32; 3] {
        let last = (1u32 << self.bits) - 1;
        std::array::from_fn(|k| {
            if self.step[k] == 0.0 {
                return 0;
            }
            let cell = ((f64::from(p[k]) - self.min[k]) / self.step[k]).floor();
            (cell.max(0.0) as u32).min(last)
        })
    }

    /// The centre of a cell: no point of the cell is further from it than half a step per axis.
    pub fn decode(&self, code: [u32; 3]) -> [f64; 3] {
        std::array::from_fn(|k| self.min[k] + (f64::from(code[k]) + 0.5) * self.step[k])
    }
    // ANCHOR_END: grid_codes
}

/// The position error of a cloud quantised with a given number of bits per axis.
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorStats {
    pub bits: u32,
    /// Largest error of one coordinate, over all points and axes (m).
    pub max_axis: f64,
    /// Largest distance between a point and its decoded position (m).
    pub max_position: f64,
    /// Root mean square of that distance (m).
    pub rms_position: f64,
    pub grid: Grid,
}

impl ErrorStats {
    /// The bound on one coordinate: half the largest step, `extent / 2^(bits+1)`.
    pub fn axis_bound(&self) -> f64 {
        0.5 * self.grid.step.iter().cloned().fold(0.0, f64::max)
    }

    /// The bound on the position: half a cell's diagonal.
    pub fn position_bound(&self) -> f64 {
        0.5 * self.grid.step.iter().map(|s| s * s).sum::<f64>().sqrt()
    }

    /// The RMS error if points were spread uniformly within their cells: `step/√12` per axis.
    pub fn rms_uniform(&self) -> f64 {
        (self.grid.step.iter().map(|s| s * s).sum::<f64>() / 12.0).sqrt()
    }
}

// ANCHOR: errors
/// Quantises every point of `cloud` with `bits` bits per axis and measures the errors.
pub fn quantisation_error(cloud: &[[f32; 3]], bits: u32) -> Result<ErrorStats, PointCloudError> {
    let grid = Grid::fit(cloud, bits)?;
    let (mut max_axis, mut max_position, mut sum_sq) = (0.0f64, 0.0f64, 0.0f64);
    for &p in cloud {
        let q = grid.decode(grid.encode(p));
        let d: [f64; 3] = std::array::from_fn(|k| q[k] - f64::from(p[k]));
        let d2: f64 = d.iter().map(|e| e * e).sum();
        max_axis = d.iter().fold(max_axis, |m, e| m.max(e.abs()));
        max_position = max_position.max(d2.sqrt());
        sum_sq += d2;
    }
    Ok(ErrorStats {
        bits,
        max_axis,
        max_position,
        rms_position: (sum_sq / cloud.len() as f64).sqrt(),
        grid,
    })
}
// ANCHOR_END: errors

#[cfg(test)]
mod tests {
    use super::*;

    /// f64 arithmetic in encode and decode may move a point at a cell's edge by a rounding.
    const ROUNDING: f64 = 1e-9;

    #[test]
    fn every_point_is_within_half_a_step_per_axis() {
        let cloud = scene(2_000, 7);
        for bits in 1..=16 {
            let grid = Grid::fit(&cloud, bits).unwrap();
            for &p in &cloud {
                let q = grid.decode(grid.encode(p));
                for k in 0..3 {
                    let err = (q[k] - f64::from(p[k])).abs();
                    assert!(
                        err <= 0.5 * grid.step[k] * (1.0 + ROUNDING),
                        "{bits} bits, axis {k}: error {err}, step {}",
                        grid.step[k]
                    );
                }
            }
        }
    }

    #[test]
    fn errors_follow_the_formula() {
        let cloud = scene(2_000, 7);
        let mut last_max = f64::INFINITY;
        for bits in 8..=16 {
            let e = quantisation_error(&cloud, bits).unwrap();
            assert!(e.max_axis <= e.axis_bound() * (1.0 + ROUNDING));
            assert!(e.max_position <= e.position_bound() * (1.0 + ROUNDING));
            // 10 000 points reach close to the worst case of their cells...
            assert!(e.max_axis > 0.9 * e.axis_bound(), "{e:?}");
            // ...and their RMS is near that of points spread evenly within cells.
            let ratio = e.rms_position / e.rms_uniform();
            assert!(
                (0.9..1.1).contains(&ratio),
                "{bits} bits: RMS ratio {ratio}"
            );
            // One more bit halves the error.
            assert!(e.max_axis < 0.55 * last_max, "{bits} bits");
            last_max = e.max_axis;
        }
    }

    #[test]
    fn sixteen_bit_round_trip_stays_within_the_bound() {
        let cloud = scene(1_000, 11);
        let grid = Grid::fit(&cloud, 16).unwrap();
        // Six bytes a point instead of twelve: each code fits a u16.
        let packed: Vec<[u16; 3]> = cloud
            .iter()
            .map(|&p| grid.encode(p).map(|c| u16::try_from(c).unwrap()))
            .collect();
        for (p, c) in cloud.iter().zip(&packed) {
            let back = grid.decode(c.map(u32::from)).map(|v| v as f32);
            for k in 0..3 {
                // Decoding to f32 adds at most half an f32 spacing of the coordinate.
                let f32_half_ulp = 0.5 * f64::from(p[k].abs().max(back[k].abs())) * 2f64.powi(-23);
                let err = (f64::from(back[k]) - f64::from(p[k])).abs();
                assert!(
                    err <= 0.5 * grid.step[k] + f32_half_ulp,
                    "{p:?} -> {back:?}"
                );
            }
        }
    }

    #[test]
    fn the_scene_fills_its_box_and_is_reproducible() {
        let cloud = scene(500, 3);
        assert_eq!(cloud.len(), 2_500);
        assert_eq!(cloud, scene(500, 3));
        let grid = Grid::fit(&cloud, 8).unwrap();
        for k in 0..3 {
            let extent = grid.step[k] * 256.0;
            assert!((8.0..=11.0).contains(&extent), "axis {k}: {extent} m");
        }
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        assert!(matches!(Grid::fit(&[], 8), Err(PointCloudError::Empty)));
        assert!(matches!(
            Grid::fit(&[[0.0; 3]], 0),
            Err(PointCloudError::Bits { bits: 0 })
        ));
        let err = Grid::fit(&[[0.0; 3], [1.0, f32::NAN, 0.0]], 8).unwrap_err();
        assert!(err.to_string().contains("point 1"), "{err}");
        // One point: a flat box, every error zero.
        let one = quantisation_error(&[[1.0, 2.0, 3.0]], 8).unwrap();
        assert_eq!(one.max_position, 0.0);
    }
}
