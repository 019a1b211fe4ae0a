use crate::F16Parts;

/// Takes the f16 bit pattern `bits` apart (IEEE 754 binary16: 1 sign bit, 5 exponent bits with
/// bias 15, 10 mantissa bits).
pub fn dissect(bits: u16) -> F16Parts {
    let _ = bits;
    todo!("split the fields, classify the pattern, compute its value")
}
