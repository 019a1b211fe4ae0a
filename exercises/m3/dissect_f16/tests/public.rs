//! Public tests: `cargo nextest run -p ex_m3_dissect_f16`.

use ex_m3_dissect_f16::{Kind, dissect};

#[test]
fn dissect_f16_public_one() {
    let one = dissect(0x3c00);
    assert!(!one.negative);
    assert_eq!((one.exponent_field, one.mantissa_field), (15, 0));
    assert_eq!(one.kind, Kind::Normal);
    assert_eq!(one.value, 1.0);
}

#[test]
fn dissect_f16_public_largest_and_smallest() {
    assert_eq!(dissect(0x7bff).value, 65_504.0);
    assert_eq!(dissect(0x0001).kind, Kind::Subnormal);
    assert_eq!(dissect(0x0001).value, 2f64.powi(-24));
    assert_eq!(dissect(0xc000).value, -2.0);
}

#[test]
fn dissect_f16_public_specials() {
    assert_eq!(dissect(0x7c00).kind, Kind::Infinity);
    assert_eq!(dissect(0xfc00).value, f64::NEG_INFINITY);
    assert!(dissect(0x7e00).value.is_nan());
}
