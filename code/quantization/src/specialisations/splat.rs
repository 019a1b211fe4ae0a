//! The depth test of a point renderer on the CPU: points splatted into an image from several
//! threads, one atomic minimum of a packed (depth, id) value per point.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use super::atomic_depth::{EMPTY32, EMPTY64, PackError, Packing32, pack64};

/// A point already projected to the screen: pixel coordinates (the pixel is their integer part)
/// and its distance from the camera. Its id is its index in the slice.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
pub struct ScreenPoint {
    pub x: f32,
    pub y: f32,
    pub depth: f32,
}

/// The number of pixels of a `width`×`height` image, or why it cannot be splatted into.
pub fn check_image(width: u32, height: u32) -> Result<usize, PackError> {
    if !(1..=1 << 16).contains(&width) || !(1..=1 << 16).contains(&height) {
        return Err(PackError::Image { width, height });
    }
    Ok(width as usize * height as usize)
}

/// The pixel a point lands in, or `None` off screen. Written as `!(inside)` so that NaN
/// coordinates are off screen too; the kernel makes the same tests.
fn pixel(p: &ScreenPoint, width: u32, height: u32) -> Option<usize> {
    let inside = p.x >= 0.0 && p.x < width as f32 && p.y >= 0.0 && p.y < height as f32;
    inside.then(|| p.y as usize * width as usize + p.x as usize)
}

/// An atomic integer with a minimum, so one splatting loop serves both layouts.
trait AtomicMin: Sync {
    type Value: Copy + Send + Sync;
    fn new(v: Self::Value) -> Self;
    fn fetch_min(&self, v: Self::Value);
    fn into_inner(self) -> Self::Value;
}

impl AtomicMin for AtomicU64 {
    type Value = u64;
    fn new(v: u64) -> Self {
        AtomicU64::new(v)
    }
    fn fetch_min(&self, v: u64) {
        // Relaxed is enough: each pixel is one atomic on its own, and the threads' join
        // publishes every result before the image is read.
        AtomicU64::fetch_min(self, v, Ordering::Relaxed);
    }
    fn into_inner(self) -> u64 {
        AtomicU64::into_inner(self)
    }
}

impl AtomicMin for AtomicU32 {
    type Value = u32;
    fn new(v: u32) -> Self {
        AtomicU32::new(v)
    }
    fn fetch_min(&self, v: u32) {
        AtomicU32::fetch_min(self, v, Ordering::Relaxed);
    }
    fn into_inner(self) -> u32 {
        AtomicU32::into_inner(self)
    }
}

// ANCHOR: splat
/// Splats `points` into a `width`×`height` image from `threads` threads, each taking a
/// contiguous share of the points. `pack` gives a point's packed value from its index, or `None`
/// for a point that is clipped.
fn splat_with<A: AtomicMin>(
    points: &[ScreenPoint],
    (width, height): (u32, u32),
    threads: usize,
    empty: A::Value,
    pack: impl Fn(&ScreenPoint, u32) -> Option<A::Value> + Sync,
) -> Result<Vec<A::Value>, PackError> {
    let pixels = check_image(width, height)?;
    if threads == 0 {
        return Err(PackError::NoThreads);
    }
    let image: Vec<A> = (0..pixels).map(|_| A::new(empty)).collect();
    let share = points.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        for (t, part) in points.chunks(share).enumerate() {
            let (image, pack) = (&image, &pack);
            scope.spawn(move || {
                for (k, p) in part.iter().enumerate() {
                    let id = (t * share + k) as u32;
                    if let (Some(px), Some(v)) = (pixel(p, width, height), pack(p, id)) {
                        image[px].fetch_min(v);
                    }
                }
            });
        }
    });
    Ok(image.into_iter().map(A::into_inner).collect())
}
// ANCHOR_END: splat

/// The nearest point of every pixel, as [`pack64`] values ([`EMPTY64`] where none landed).
/// Points behind the camera (negative depth) are clipped.
pub fn splat64(
    points: &[ScreenPoint],
    width: u32,
    height: u32,
    threads: usize,
) -> Result<Vec<u64>, PackError> {
    if let Some(last) = points.len().checked_sub(1)
        && last > u32::MAX as usize
    {
        return Err(PackError::IdTooLarge {
            id: last as u64,
            id_bits: 32,
            max: u32::MAX.into(),
        });
    }
    splat_with::<AtomicU64>(points, (width, height), threads, EMPTY64, |p, id| {
        pack64(p.depth, id).ok()
    })
}

/// The same with the 32-bit layout: what [`super::gpu_splat::gpu_splat32`] computes. Points
/// outside the packing's depth range are clipped, as a renderer's near and far planes do.
pub fn splat32(
    points: &[ScreenPoint],
    width: u32,
    height: u32,
    threads: usize,
    packing: &Packing32,
) -> Result<Vec<u32>, PackError> {
    check_ids(points.len(), packing)?;
    splat_with::<AtomicU32>(points, (width, height), threads, EMPTY32, |p, id| {
        packing.pack(p.depth, id).ok()
    })
}

/// Every point's index must fit the packing's id bits.
pub fn check_ids(count: usize, packing: &Packing32) -> Result<(), PackError> {
    match count.checked_sub(1) {
        Some(last) if last as u64 >= packing.max_points() => Err(PackError::IdTooLarge {
            id: last as u64,
            id_bits: packing.id_bits(),
            max: packing.max_points() - 1,
        }),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::specialisations::atomic_depth::unpack64;

    /// The obvious single-threaded depth test, keeping the nearest (depth, id) per pixel.
    fn reference64(points: &[ScreenPoint], width: u32, height: u32) -> Vec<u64> {
        let mut image = vec![EMPTY64; (width * height) as usize];
        for (id, p) in points.iter().enumerate() {
            if let (Some(px), Ok(v)) = (pixel(p, width, height), pack64(p.depth, id as u32)) {
                image[px] = image[px].min(v);
            }
        }
        image
    }

    fn scattered(n: usize, width: u32, height: u32, seed: u64) -> Vec<ScreenPoint> {
        let mut rng = computational_graphs::rng::SplitMix64::new(seed);
        (0..n)
            .map(|_| ScreenPoint {
                // A margin of 2 pixels off every side, so that some points are clipped.
                x: rng.next_f32() * (width + 4) as f32 - 2.0,
                y: rng.next_f32() * (height + 4) as f32 - 2.0,
                depth: 0.05 + rng.next_f32() * 10.0,
            })
            .collect()
    }

    #[test]
    fn equal_depths_are_won_by_the_lower_id() {
        let at = |depth| ScreenPoint {
            x: 0.5,
            y: 0.5,
            depth,
        };
        let points = [at(3.0), at(2.0), at(2.0), at(5.0)];
        let image = splat64(&points, 1, 1, 2).unwrap();
        assert_eq!(unpack64(image[0]), Some((2.0, 1)));
        // In 16 bits over 10 m, 2.0 and 2.0001 share a bin: the lower id wins though it is
        // the farther point; that is the price of 16 bits (a bin is 0.15 mm wide).
        let packing = Packing32::new(16, 0.0, 10.0).unwrap();
        let points = [at(3.0), at(2.0001), at(2.0)];
        let image = splat32(&points, 1, 1, 3, &packing).unwrap();
        let (code, id) = packing.unpack(image[0]).unwrap();
        assert_eq!(id, 1);
        assert_eq!(code, packing.depth_code(2.0).unwrap());
    }

    #[test]
    fn splat64_matches_the_sequential_depth_test_for_any_thread_count() {
        let points = scattered(5_000, 13, 7, 1);
        let want = reference64(&points, 13, 7);
        assert!(want.iter().all(|&v| v != EMPTY64), "every pixel is hit");
        for threads in [1, 2, 3, 8] {
            assert_eq!(splat64(&points, 13, 7, threads).unwrap(), want, "{threads}");
        }
    }

    #[test]
    fn splat32_keeps_the_nearest_point_up_to_one_bin() {
        let (w, h) = (16, 16);
        let points = scattered(20_000, w, h, 2);
        let packing = Packing32::new(16, 0.0, 12.0).unwrap();
        let exact = splat64(&points, w, h, 2).unwrap();
        let coarse = splat32(&points, w, h, 2, &packing).unwrap();
        for (e, c) in exact.iter().zip(&coarse) {
            let (d_exact, _) = unpack64(*e).unwrap();
            let (_, id) = packing.unpack(*c).unwrap();
            let d_chosen = points[id as usize].depth;
            // The 16-bit winner may be a different point, but never one a full bin behind
            // (the 0.1 % allows for f32 rounding at a bin's edge).
            assert!(
                d_chosen - d_exact < packing.step() * 1.001,
                "{d_chosen} vs {d_exact}"
            );
        }
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        let packing = Packing32::new(24, 0.0, 1.0).unwrap();
        let many = vec![
            ScreenPoint {
                x: 0.0,
                y: 0.0,
                depth: 0.5
            };
            257
        ];
        assert!(matches!(
            splat32(&many, 1, 1, 1, &packing),
            Err(PackError::IdTooLarge { id: 256, .. })
        ));
        assert!(matches!(
            splat64(&many, 0, 1, 1),
            Err(PackError::Image { .. })
        ));
        assert!(matches!(splat64(&many, 1, 1, 0), Err(PackError::NoThreads)));
    }
}
