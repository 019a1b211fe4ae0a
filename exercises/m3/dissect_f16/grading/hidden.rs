//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.
//! Every one of the 65 536 patterns is compared with the `half` crate.

use ex_m3_dissect_f16::{F16Parts, Kind};

/// The student's `dissect`, with every 97th pattern's answer recorded for the grader (which
/// compares it with the reference solution's outside this process).
fn dissect(bits: u16) -> F16Parts {
    let parts = ex_m3_dissect_f16::dissect(bits);
    if bits % 97 == 0 {
        grade_record!("parts", (bits, &parts), 0.0);
    }
    parts
}
use half::f16;

#[test]
fn dissect_f16_hidden_fields_of_every_pattern() {
    for bits in 0..=u16::MAX {
        let p = dissect(bits);
        assert_eq!(p.negative, bits & 0x8000 != 0, "sign of {bits:#06x}");
        assert_eq!(
            u16::from(p.exponent_field),
            (bits >> 10) & 0x1f,
            "exponent of {bits:#06x}"
        );
        assert_eq!(p.mantissa_field, bits & 0x3ff, "mantissa of {bits:#06x}");
    }
    grade_ok!("dissect_f16_hidden_fields_of_every_pattern");
}

#[test]
fn dissect_f16_hidden_value_of_every_pattern() {
    for bits in 0..=u16::MAX {
        let want = f16::from_bits(bits).to_f64();
        let got = dissect(bits).value;
        if want.is_nan() {
            assert!(got.is_nan(), "{bits:#06x} is a NaN, got {got}");
        } else {
            assert_eq!(
                got.to_bits(),
                want.to_bits(),
                "value of {bits:#06x}: {got} vs {want}"
            );
        }
    }
    grade_ok!("dissect_f16_hidden_value_of_every_pattern");
}

#[test]
fn dissect_f16_hidden_class_of_every_pattern() {
    for bits in 0..=u16::MAX {
        let h = f16::from_bits(bits);
        let want = if h.is_nan() {
            Kind::Nan
        } else if h.is_infinite() {
            Kind::Infinity
        } else if bits & 0x7fff == 0 {
            Kind::Zero
        } else if h.is_normal() {
            Kind::Normal
        } else {
            Kind::Subnormal
        };
        assert_eq!(dissect(bits).kind, want, "kind of {bits:#06x}");
    }
    grade_ok!("dissect_f16_hidden_class_of_every_pattern");
}

#[test]
fn dissect_f16_hidden_nan_patterns() {
    // 2 × 1023 NaN patterns: every non-zero mantissa under an all-ones exponent, either sign.
    let nans = (0..=u16::MAX)
        .filter(|&b| dissect(b).kind == Kind::Nan)
        .count();
    assert_eq!(nans, 2046);
    for bits in [0x7c01u16, 0x7fff, 0xfc01, 0xfe00] {
        assert!(dissect(bits).value.is_nan(), "{bits:#06x}");
    }
    grade_ok!("dissect_f16_hidden_nan_patterns");
}

#[test]
fn dissect_f16_hidden_signed_zero() {
    let z = dissect(0x8000);
    assert_eq!(z.kind, Kind::Zero);
    assert!(z.negative && z.value == 0.0 && z.value.is_sign_negative());
    assert!(dissect(0x0000).value.is_sign_positive());
    grade_ok!("dissect_f16_hidden_signed_zero");
}
