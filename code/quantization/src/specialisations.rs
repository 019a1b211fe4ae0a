//! Small number formats from graphics, with their errors computed: octahedral normals, colours
//! in `pack4x8unorm`, depth precision of standard and reversed (inverse) depth buffers, and
//! Morton (Z-order) indices for tiled textures; a depth and an id packed for one atomic minimum
//! ([`atomic_depth`]) and a point renderer's depth test built on it ([`splat`] on CPU threads,
//! [`gpu_splat`] in WGSL); and the position error of a quantised point cloud ([`point_cloud`]).

pub mod atomic_depth;
pub mod gpu_splat;
pub mod point_cloud;
pub mod splat;

// ANCHOR: octahedral
/// A unit vector folded onto the octahedron |x|+|y|+|z| = 1, flattened to a square, each of the
/// two coordinates stored in `bits` bits (snorm).
pub fn octahedral_round_trip(n: [f32; 3], bits: u32) -> [f32; 3] {
    let l1 = n[0].abs() + n[1].abs() + n[2].abs();
    let (mut u, mut v) = (n[0] / l1, n[1] / l1);
    if n[2] < 0.0 {
        // The lower half folds over the square's corners.
        (u, v) = ((1.0 - v.abs()) * u.signum(), (1.0 - u.abs()) * v.signum());
    }
    let levels = ((1u32 << (bits - 1)) - 1) as f32;
    let snap = |t: f32| (t * levels).round() / levels;
    let (u, v) = (snap(u), snap(v));
    let z = 1.0 - u.abs() - v.abs();
    let t = (-z).max(0.0);
    let (x, y) = (u - t * u.signum(), v - t * v.signum());
    let len = (x * x + y * y + z * z).sqrt();
    [x / len, y / len, z / len]
}
// ANCHOR_END: octahedral

/// What WGSL's `pack4x8unorm` then `unpack4x8unorm` does to one channel in [0, 1].
pub fn unorm8_round_trip(c: f32) -> f32 {
    (c.clamp(0.0, 1.0) * 255.0).round() / 255.0
}

// ANCHOR: depth
/// The smallest step in view distance that an f32 depth buffer can tell apart at distance `d`,
/// for a perspective projection with near plane `near` and far plane at infinity.
/// Standard depth stores 1 − near/d (values crowd near 1, where f32 steps are 2⁻²⁴);
/// reversed depth stores near/d, whose f32 steps shrink along with the value.
pub fn depth_resolution(d: f64, near: f64, reversed: bool) -> f64 {
    let stored = if reversed { near / d } else { 1.0 - near / d };
    let x = stored as f32;
    let step = f64::from(f32::from_bits(x.to_bits() + 1) - x);
    // d(stored)/dd = ±near/d², so a step in `stored` is step · d²/near in distance.
    step * d * d / near
}
// ANCHOR_END: depth

// ANCHOR: morton
/// The Z-order index of (x, y): the bits of x and y interleaved, so that a square tile of
/// texels is a contiguous run of indices.
pub fn morton2(x: u16, y: u16) -> u32 {
    let spread = |v: u16| {
        let mut v = u32::from(v);
        v = (v | (v << 8)) & 0x00FF_00FF;
        v = (v | (v << 4)) & 0x0F0F_0F0F;
        v = (v | (v << 2)) & 0x3333_3333;
        (v | (v << 1)) & 0x5555_5555
    };
    spread(x) | (spread(y) << 1)
}
// ANCHOR_END: morton

// ANCHOR: shared_exponent
/// RGB9E5: three 9-bit mantissas (no sign, no hidden bit) sharing one 5-bit exponent (bias 15),
/// chosen for the largest channel, with the rounding of OpenGL's `EXT_texture_shared_exponent`.
pub fn rgb9e5_round_trip(rgb: [f32; 3]) -> [f32; 3] {
    const N: i32 = 9; // mantissa bits
    const B: i32 = 15; // exponent bias
    let largest = 511.0 / 512.0 * 2f64.powi(31 - B);
    let c = rgb.map(|v| {
        if v.is_nan() {
            0.0
        } else {
            f64::from(v).clamp(0.0, largest)
        }
    });
    let m = c.iter().copied().fold(0.0, f64::max);
    // log2(0) is −∞, which the cast saturates; the max then gives the smallest exponent.
    let mut e = (m.log2().floor() as i32).max(-B - 1) + 1 + B;
    let step = |e: i32| 2f64.powi(e - B - N);
    if (m / step(e) + 0.5).floor() == f64::from(1 << N) {
        e += 1;
    }
    c.map(|v| ((v / step(e) + 0.5).floor() * step(e)) as f32)
}
// ANCHOR_END: shared_exponent

/// An unsigned float with a 5-bit exponent (bias 15) and `mantissa_bits` bits after the hidden
/// one, rounded to nearest: R11G11B10F stores red and green with 6, blue with 5.
pub fn unsigned_small_float_round_trip(x: f32, mantissa_bits: i32) -> f32 {
    let x = if x.is_nan() {
        0.0
    } else {
        f64::from(x.max(0.0))
    };
    let largest = (2.0 - 2f64.powi(-mantissa_bits)) * 2f64.powi(15);
    // Below 2^-14 (the subnormals) the step stays that of the smallest binade.
    let binade = (x.log2().floor() as i32).max(-14);
    let step = 2f64.powi(binade - mantissa_bits);
    ((x / step).round() * step).min(largest) as f32
}

/// The largest angle (degrees) between a normal and its round trip, over a grid of directions.
pub fn octahedral_max_error_degrees(bits: u32, steps: usize) -> f64 {
    let mut worst = 0.0f64;
    for i in 0..=steps {
        for j in 0..=2 * steps {
            let theta = std::f64::consts::PI * i as f64 / steps as f64;
            let phi = std::f64::consts::PI * j as f64 / steps as f64;
            let n = [
                (theta.sin() * phi.cos()) as f32,
                (theta.sin() * phi.sin()) as f32,
                theta.cos() as f32,
            ];
            let r = octahedral_round_trip(n, bits);
            // atan2(|n × r|, n · r) in f64: acos of an f32 dot near 1 cannot resolve 0.01°.
            let (a, b) = (n.map(f64::from), r.map(f64::from));
            let cross = [
                a[1] * b[2] - a[2] * b[1],
                a[2] * b[0] - a[0] * b[2],
                a[0] * b[1] - a[1] * b[0],
            ];
            let sin = cross.iter().map(|c| c * c).sum::<f64>().sqrt();
            let cos: f64 = (0..3).map(|k| a[k] * b[k]).sum();
            worst = worst.max(sin.atan2(cos).to_degrees());
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octahedral_16_bits_is_within_a_hundredth_of_a_degree() {
        let e16 = octahedral_max_error_degrees(16, 60);
        let e8 = octahedral_max_error_degrees(8, 60);
        println!("octahedral max error: 16 bits {e16} degrees, 8 bits {e8} degrees");
        assert!(e16 < 0.01, "{e16}");
        assert!(e8 > 50.0 * e16 && e8 < 1.5, "{e8}");
    }

    #[test]
    fn a_shared_exponent_costs_the_small_channels_their_precision() {
        // The exponent follows the red channel (1.0): blue keeps 3 of its 9 bits' steps.
        let [r, g, b] = rgb9e5_round_trip([1.0, 0.5, 0.01]);
        assert_eq!((r, g), (1.0, 0.5));
        assert_eq!(b, 3.0 / 256.0);
        // R11G11B10F gives each channel its own exponent: blue's 5 mantissa bits suffice.
        assert_eq!(unsigned_small_float_round_trip(0.01, 5), 41.0 / 4096.0);
        assert_eq!(unsigned_small_float_round_trip(1.0, 6), 1.0);
        assert_eq!(rgb9e5_round_trip([0.0; 3]), [0.0; 3]);
        assert_eq!(rgb9e5_round_trip([1e9, -1.0, f32::NAN])[1..], [0.0, 0.0]);
        assert_eq!(unsigned_small_float_round_trip(1e9, 6), 65024.0);
        assert_eq!(unsigned_small_float_round_trip(0.0, 6), 0.0);
    }

    #[test]
    fn unorm8_error_is_at_most_half_a_step() {
        for i in 0..=1000 {
            let c = i as f32 / 1000.0;
            assert!((unorm8_round_trip(c) - c).abs() <= 0.5 / 255.0 + 1e-7);
        }
    }

    #[test]
    fn reversed_depth_resolves_far_distances_far_better() {
        let (std, rev) = (
            depth_resolution(1000.0, 0.1, false),
            depth_resolution(1000.0, 0.1, true),
        );
        println!("at 1 km: standard {std} m, reversed {rev} m");
        assert!(
            std > 0.1 && rev < 0.001 && std / rev > 1000.0,
            "standard {std} m, reversed {rev} m at 1 km"
        );
    }

    #[test]
    fn morton_tiles_are_contiguous() {
        assert_eq!(
            (morton2(0, 0), morton2(1, 0), morton2(0, 1), morton2(1, 1)),
            (0, 1, 2, 3)
        );
        let mut tile: Vec<u32> = (0..4)
            .flat_map(|y| (0..4).map(move |x| morton2(x, y)))
            .collect();
        tile.sort_unstable();
        assert_eq!(tile, (0..16).collect::<Vec<_>>());
    }
}
