//! A depth and a point id packed into one integer, so that a single atomic minimum per pixel
//! keeps the nearest point *and* says which point it was: the depth test of a compute-shader
//! point-cloud renderer.
//!
//! Two layouts: 64 bits (the f32 depth's bits above a 32-bit id, for `AtomicU64::fetch_min` on
//! the CPU) and 32 bits (a quantised depth above a short id, for `atomicMin` on `atomic<u32>` in
//! WGSL, which has no 64-bit atomics in its core). [`super::splat`] fills an image with them from
//! several CPU threads, [`super::gpu_splat`] on the GPU.

/// A pixel that no point reached: larger than every packed 64-bit value (a finite depth's bits
/// are below `0x7F80_0000`).
pub const EMPTY64: u64 = u64::MAX;
/// A pixel that no point reached in the 32-bit layout: its depth code is all ones, a code that
/// [`Packing32`] never gives a point.
pub const EMPTY32: u32 = u32::MAX;

/// Why a depth, an id, a packing or an image was refused.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    #[error(
        "depth {depth} cannot be packed: give a finite depth >= 0 (a distance in front of the camera)"
    )]
    BadDepth { depth: f32 },
    #[error(
        "depth {depth} lies outside [{near}, {far}), the range this 32-bit packing quantises: \
         clip the point, or widen the range"
    )]
    DepthOutOfRange { depth: f32, near: f32, far: f32 },
    #[error(
        "point id {id} does not fit the {id_bits} bits this packing keeps for ids (ids 0 to \
         {max}): use fewer points per buffer, fewer depth bits, or the 64-bit packing"
    )]
    IdTooLarge { id: u64, id_bits: u32, max: u64 },
    #[error(
        "{depth_bits} depth bits is not supported: choose 8 to 24 (the rest of 32 bits hold the id)"
    )]
    DepthBits { depth_bits: u32 },
    #[error("the depth range [{near}, {far}) is empty or not finite: give finite 0 <= near < far")]
    Range { near: f32, far: f32 },
    #[error(
        "an image of {width}×{height} pixels cannot be splatted into: give sides from 1 to 65536"
    )]
    Image { width: u32, height: u32 },
    #[error("splatting needs at least one thread")]
    NoThreads,
    #[error(transparent)]
    Gpu(#[from] gpu_context::GpuError),
}

// ANCHOR: pack64
/// The depth's f32 bits above the id. For non-negative floats the bits, read as an unsigned
/// integer, grow with the value, so comparing packed integers compares depths first and, for
/// equal depths, ids.
pub fn pack64(depth: f32, id: u32) -> Result<u64, PackError> {
    if !(depth.is_finite() && depth >= 0.0) {
        return Err(PackError::BadDepth { depth });
    }
    // -0.0 == 0.0, but its sign bit would sort it after every positive depth.
    let bits = if depth == 0.0 { 0 } else { depth.to_bits() };
    Ok(u64::from(bits) << 32 | u64::from(id))
}

/// The depth and id of a packed pixel, or `None` for a pixel no point reached.
pub fn unpack64(packed: u64) -> Option<(f32, u32)> {
    (packed != EMPTY64).then(|| (f32::from_bits((packed >> 32) as u32), packed as u32))
}
// ANCHOR_END: pack64

/// The 32-bit layout: `depth_bits` of depth quantised linearly over `[near, far)`, above
/// `32 - depth_bits` bits of id (16 | 16 or 24 | 8, for example).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Packing32 {
    depth_bits: u32,
    near: f32,
    far: f32,
    /// Depth codes per metre: `(2^depth_bits - 1) / (far - near)`.
    scale: f32,
}

impl Packing32 {
    pub fn new(depth_bits: u32, near: f32, far: f32) -> Result<Self, PackError> {
        if !(8..=24).contains(&depth_bits) {
            return Err(PackError::DepthBits { depth_bits });
        }
        if !(near.is_finite() && far.is_finite() && near >= 0.0 && near < far) {
            return Err(PackError::Range { near, far });
        }
        let levels = ((1u32 << depth_bits) - 1) as f32;
        let scale = levels / (far - near);
        Ok(Self {
            depth_bits,
            near,
            far,
            scale,
        })
    }

    /// The largest code a point gets; one above it, all ones, marks an empty pixel.
    pub fn max_code(&self) -> u32 {
        (1 << self.depth_bits) - 2
    }

    // ANCHOR: pack32
    /// The depth's bin: truncation of one subtraction and one multiplication. WGSL computes the
    /// same two correctly rounded operations, so GPU and CPU agree bit for bit (a rounding
    /// `+ 0.5` after the multiply could be fused into one FMA on one side and not the other).
    pub fn depth_code(&self, depth: f32) -> Result<u32, PackError> {
        if !(depth >= self.near && depth < self.far) {
            return Err(PackError::DepthOutOfRange {
                depth,
                near: self.near,
                far: self.far,
            });
        }
        Ok((((depth - self.near) * self.scale) as u32).min(self.max_code()))
    }

    pub fn pack(&self, depth: f32, id: u32) -> Result<u32, PackError> {
        let code = self.depth_code(depth)?;
        if u64::from(id) >= self.max_points() {
            return Err(PackError::IdTooLarge {
                id: id.into(),
                id_bits: self.id_bits(),
                max: self.max_points() - 1,
            });
        }
        Ok(code << self.id_bits() | id)
    }
    // ANCHOR_END: pack32

    /// The depth code and id of a packed pixel, or `None` for a pixel no point reached.
    pub fn unpack(&self, packed: u32) -> Option<(u32, u32)> {
        let id_mask = (1u32 << self.id_bits()) - 1;
        (packed != EMPTY32).then(|| (packed >> self.id_bits(), packed & id_mask))
    }

    /// The middle of a code's bin: no depth in the bin is further from it than [`Self::step`]/2.
    pub fn decode_depth(&self, code: u32) -> f32 {
        self.near + (code as f32 + 0.5) / self.scale
    }

    /// The width of one depth bin in metres: `(far - near) / (2^depth_bits - 1)`.
    pub fn step(&self) -> f32 {
        1.0 / self.scale
    }

    pub fn depth_bits(&self) -> u32 {
        self.depth_bits
    }

    pub fn id_bits(&self) -> u32 {
        32 - self.depth_bits
    }

    /// How many points one buffer can tell apart: `2^id_bits`.
    pub fn max_points(&self) -> u64 {
        1 << self.id_bits()
    }

    pub fn near(&self) -> f32 {
        self.near
    }

    pub fn far(&self) -> f32 {
        self.far
    }

    /// Depth codes per metre, `(2^depth_bits - 1) / (far - near)`: what a kernel multiplies by.
    pub fn scale(&self) -> f32 {
        self.scale
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn packed64_order_is_depth_then_id(
            a in 0.0f32..1e30, b in 0.0f32..1e30, i: u32, j: u32
        ) {
            let (pa, pb) = (pack64(a, i).unwrap(), pack64(b, j).unwrap());
            prop_assert_eq!(Some(pa.cmp(&pb)), (a, i).partial_cmp(&(b, j)));
            prop_assert_eq!(unpack64(pa), Some((a, i)));
        }

        #[test]
        fn packed32_order_is_code_then_id_and_codes_follow_depths(
            depth_bits in 8u32..=24, a in 0.5f32..20.0, b in 0.5f32..20.0,
            i in 0u32..256, j in 0u32..256
        ) {
            let packing = Packing32::new(depth_bits, 0.5, 20.0).unwrap();
            let (ca, cb) = (packing.depth_code(a).unwrap(), packing.depth_code(b).unwrap());
            let (pa, pb) = (packing.pack(a, i).unwrap(), packing.pack(b, j).unwrap());
            prop_assert_eq!(pa.cmp(&pb), (ca, i).cmp(&(cb, j)));
            if a < b {
                prop_assert!(ca <= cb, "depth {a} < {b} but code {ca} > {cb}");
            }
            prop_assert_eq!(packing.unpack(pa), Some((ca, i)));
            // The middle of the bin is within half a bin of the depth (and a few f32 roundings).
            let err = (packing.decode_depth(ca) - a).abs();
            prop_assert!(err <= 0.5 * packing.step() + 4.0 * f32::EPSILON * 20.0, "{err}");
        }
    }

    #[test]
    fn bin_widths_quoted_in_the_book() {
        let mm = |bits, near, far| Packing32::new(bits, near, far).unwrap().step() * 1e3;
        assert!((mm(16, 0.0, 10.0) - 0.1526).abs() < 1e-4);
        assert!((mm(24, 0.0, 10.0) - 0.000_596).abs() < 1e-6);
        assert!((mm(16, 0.1, 1000.0) - 15.26).abs() < 1e-2);
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        assert!(matches!(pack64(-1.0, 0), Err(PackError::BadDepth { .. })));
        assert!(matches!(
            pack64(f32::NAN, 0),
            Err(PackError::BadDepth { .. })
        ));
        assert_eq!(pack64(-0.0, 7).unwrap(), pack64(0.0, 7).unwrap());
        assert!(matches!(
            Packing32::new(28, 0.0, 1.0),
            Err(PackError::DepthBits { depth_bits: 28 })
        ));
        assert!(matches!(
            Packing32::new(16, 2.0, 1.0),
            Err(PackError::Range { .. })
        ));
        let packing = Packing32::new(24, 0.0, 1.0).unwrap();
        let err = packing.pack(0.5, 256).unwrap_err();
        assert!(err.to_string().contains("ids 0 to 255"), "{err}");
        assert!(matches!(
            packing.pack(1.0, 0),
            Err(PackError::DepthOutOfRange { .. })
        ));
    }
}
