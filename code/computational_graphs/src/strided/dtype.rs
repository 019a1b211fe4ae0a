//! The element type of a tensor (its *dtype*): what one element is and how many bytes it takes.

// ANCHOR: dtype
/// The element types a tensor library commonly offers. The dtype fixes the element's size, so it
/// turns strides counted in elements (PyTorch's convention) into strides in bytes (NumPy's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DType {
    F64,
    F32,
    /// Half precision: Rust has no stable `f16` yet, so its bits travel as a `u16`.
    F16,
    I32,
    I8,
    U8,
}

impl DType {
    pub fn size_bytes(self) -> usize {
        match self {
            DType::F64 => 8,
            DType::F32 | DType::I32 => 4,
            DType::F16 => 2,
            DType::I8 | DType::U8 => 1,
        }
    }
}

/// A Rust type that can be a tensor's element, and the dtype it stands for.
pub trait Element: Copy {
    const DTYPE: DType;
}
// ANCHOR_END: dtype

impl Element for f64 {
    const DTYPE: DType = DType::F64;
}
impl Element for f32 {
    const DTYPE: DType = DType::F32;
}
impl Element for i32 {
    const DTYPE: DType = DType::I32;
}
impl Element for i8 {
    const DTYPE: DType = DType::I8;
}
impl Element for u8 {
    const DTYPE: DType = DType::U8;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_rust_types() {
        assert_eq!(DType::F64.size_bytes(), size_of::<f64>());
        assert_eq!(DType::F32.size_bytes(), size_of::<f32>());
        assert_eq!(DType::F16.size_bytes(), size_of::<u16>());
        assert_eq!(<i8 as Element>::DTYPE.size_bytes(), 1);
        assert_eq!(<u8 as Element>::DTYPE, DType::U8);
        assert_eq!(<i32 as Element>::DTYPE.size_bytes(), 4);
    }
}
