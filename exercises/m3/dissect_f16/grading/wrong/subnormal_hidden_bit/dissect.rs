use crate::{F16Parts, Kind};

/// Takes the f16 bit pattern `bits` apart (IEEE 754 binary16: 1 sign bit, 5 exponent bits with
/// bias 15, 10 mantissa bits).
pub fn dissect(bits: u16) -> F16Parts {
    let negative = bits >> 15 == 1;
    let exponent_field = ((bits >> 10) & 0x1f) as u8;
    let mantissa_field = bits & 0x3ff;
    let sign = if negative { -1.0 } else { 1.0 };
    let m = f64::from(mantissa_field);
    let (kind, value) = match (exponent_field, mantissa_field) {
        (0, 0) => (Kind::Zero, sign * 0.0),
        // No hidden bit; the exponent stays at 1 - 15 = -14, and the mantissa counts 2^-10ths.
        // Wrong on purpose: a subnormal given the hidden bit of a normal number.
        (0, _) => (Kind::Subnormal, sign * (1024.0 + m) * 2f64.powi(-24)),
        (31, 0) => (Kind::Infinity, sign * f64::INFINITY),
        (31, _) => (Kind::Nan, f64::NAN),
        (e, _) => (
            Kind::Normal,
            sign * (1024.0 + m) * 2f64.powi(i32::from(e) - 25),
        ),
    };
    F16Parts {
        negative,
        exponent_field,
        mantissa_field,
        kind,
        value,
    }
}
