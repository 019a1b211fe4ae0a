//! The verdict outside the student's process.
//!
//! A hidden test runs in the same process as the student's code, and safe Rust has soundness
//! holes that read and write any memory: whatever the test decides (its asserts, its token) the
//! student's code can fake. So a hidden test also *records* what the student's code returned:
//! `grade_record!("label", value, rtol)` prints `GRADE-RECORD <label> <rtol> <Debug of value>`.
//! The grader runs the same hidden tests against the course's reference solution (once per
//! version of the exercise, cached), and a test scores only if the submission's records equal the
//! reference's: same labels, same text, numbers within the tolerance the *reference* run printed.
//! The comparison runs here, in the grader, a process that never executes student code; a
//! submission passes it only by returning the right values, which is the work.
//!
//! What records cannot see (how a value was computed: an allocation count, a loom model, a
//! kernel's source) stays decided inside the process, with the residual risk the teachers' guide
//! states.

use std::collections::BTreeMap;

/// One test's records, in the order printed.
pub type Records = BTreeMap<String, Vec<Record>>;

/// One `GRADE-RECORD` line.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Record {
    pub label: String,
    pub rtol: f64,
    pub value: String,
}

/// The records in a test's output.
pub fn parse(stdout: &str) -> Vec<Record> {
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("GRADE-RECORD ")?;
            let (label, rest) = rest.split_once(' ')?;
            let (rtol, value) = rest.split_once(' ')?;
            Some(Record {
                label: label.to_string(),
                rtol: rtol
                    .parse()
                    .ok()
                    .filter(|r: &f64| r.is_finite() && *r >= 0.0)?,
                value: value.to_string(),
            })
        })
        .collect()
}

/// Whether a submission's records are the reference's. `None` when they are; else what differs,
/// in words a student may read (it names the record, never the expected value).
pub fn compare(reference: &[Record], got: &[Record]) -> Option<String> {
    if got.len() != reference.len() {
        return Some(format!(
            "recorded {} results where {} were expected",
            got.len(),
            reference.len()
        ));
    }
    for (want, have) in reference.iter().zip(got) {
        if want.label != have.label || !values_match(&want.value, &have.value, want.rtol) {
            return Some(format!("wrong result for `{}`", want.label));
        }
    }
    None
}

/// A piece of a recorded value: text, an integer, or a floating-point number.
#[derive(Debug, PartialEq)]
enum Piece<'a> {
    Text(&'a str),
    Int(&'a str),
    Float(f64),
}

/// Same text and integers; floats within `rtol` of the largest magnitude in the reference value
/// (the scale the hidden tests' own `assert_close` uses), NaN only where the reference has NaN.
fn values_match(want: &str, have: &str, rtol: f64) -> bool {
    let (w, h) = (pieces(want), pieces(have));
    if w.len() != h.len() {
        return false;
    }
    let scale = w
        .iter()
        .filter_map(|p| match p {
            Piece::Float(x) if x.is_finite() => Some(x.abs()),
            _ => None,
        })
        .fold(1.0f64, f64::max);
    w.iter().zip(&h).all(|pair| match pair {
        (Piece::Float(a), Piece::Float(b)) => {
            if a.is_nan() || b.is_nan() {
                a.is_nan() && b.is_nan()
            } else if a.is_infinite() || b.is_infinite() {
                a == b
            } else {
                (a - b).abs() <= rtol * scale
            }
        }
        (a, b) => a == b,
    })
}

/// Splits Debug text into numbers (not parts of identifiers such as `u8` or `m1`) and the rest.
fn pieces(text: &str) -> Vec<Piece<'_>> {
    let bytes = text.as_bytes();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let (mut i, mut text_start) = (0, 0);
    while i < bytes.len() {
        let starts_number = (bytes[i].is_ascii_digit()
            || (bytes[i] == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)))
            && (i == 0 || !ident(bytes[i - 1]));
        // Bytes, not `text[i..]`: `i` may sit inside a multi-byte character of the text.
        let word =
            |w: &str| bytes[i..].starts_with(w.as_bytes()) && (i == 0 || !ident(bytes[i - 1]));
        let special = ["-inf", "inf", "NaN"]
            .into_iter()
            .find(|w| word(w) && !bytes.get(i + w.len()).copied().is_some_and(ident));
        if let Some(w) = special {
            if text_start < i {
                out.push(Piece::Text(&text[text_start..i]));
            }
            out.push(Piece::Float(match w {
                "NaN" => f64::NAN,
                "inf" => f64::INFINITY,
                _ => f64::NEG_INFINITY,
            }));
            i += w.len();
            text_start = i;
            continue;
        }
        if !starts_number {
            i += 1;
            continue;
        }
        if text_start < i {
            out.push(Piece::Text(&text[text_start..i]));
        }
        let start = i;
        i += 1;
        let mut float = false;
        while i < bytes.len() {
            let b = bytes[i];
            let exponent_sign =
                (b == b'-' || b == b'+') && matches!(bytes[i - 1], b'e' | b'E') && float;
            if b.is_ascii_digit() || exponent_sign {
                i += 1;
            } else if (b == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
                || ((b == b'e' || b == b'E')
                    && bytes
                        .get(i + 1)
                        .is_some_and(|n| n.is_ascii_digit() || *n == b'-' || *n == b'+'))
            {
                float = true;
                i += 1;
            } else {
                break;
            }
        }
        let number = &text[start..i];
        out.push(match number.parse::<f64>() {
            Ok(x) if float => Piece::Float(x),
            _ => Piece::Int(number),
        });
        text_start = i;
    }
    if text_start < bytes.len() {
        out.push(Piece::Text(&text[text_start..]));
    }
    out
}

/// The macro the grader puts in front of the hidden tests, beside `grade_ok!`.
pub const RECORD_MACRO: &str = "\
// Put here by the grader: prints what the student's code returned, for the grader to compare
// with the reference solution's output (outside this process).
#[allow(unused_macros)]
macro_rules! grade_record {
    ($label:literal, $value:expr, $rtol:expr) => {
        ::std::println!(
            \"GRADE-RECORD {} {:e} {}\",
            $label,
            $rtol as f64,
            ::std::format!(\"{:?}\", $value).replace('\\n', \" \")
        )
    };
}
";

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(label: &str, rtol: f64, value: &str) -> Record {
        Record {
            label: label.into(),
            rtol,
            value: value.into(),
        }
    }

    #[test]
    fn integers_are_exact_and_floats_within_the_tolerance() {
        let want = [rec("plan", 0.0, "[Some(0), None, Some(12)]")];
        assert_eq!(compare(&want, &want), None);
        assert!(compare(&want, &[rec("plan", 0.0, "[Some(0), None, Some(13)]")]).is_some());
        let want = [rec("y", 1e-4, "[1.0, -2.5, 1000.0]")];
        assert_eq!(
            compare(&want, &[rec("y", 1e-4, "[1.0, -2.5, 1000.05]")]),
            None
        );
        assert!(compare(&want, &[rec("y", 1e-4, "[1.0, -2.5, 1000.5]")]).is_some());
        // The tolerance is the reference's: a submission printing a huge one changes nothing.
        assert!(compare(&want, &[rec("y", 1e9, "[1.0, -2.5, 1000.5]")]).is_some());
    }

    #[test]
    fn identifiers_with_digits_are_text_and_special_floats_are_numbers() {
        assert_eq!(
            pieces("m1 u8 x2 -3 4.5e-3 inf"),
            vec![
                Piece::Text("m1 u8 x2 "),
                Piece::Int("-3"),
                Piece::Text(" "),
                Piece::Float(4.5e-3),
                Piece::Text(" "),
                Piece::Float(f64::INFINITY),
            ]
        );
        // Multi-byte characters anywhere (a student's names are any text).
        let names = [rec(
            "rows",
            0.0,
            "[(\"µs → ×\", 3, 4.5), (\"naïve\", 7, 1.0)]",
        )];
        assert_eq!(compare(&names, &names), None);
        assert!(
            compare(
                &names,
                &[rec(
                    "rows",
                    0.0,
                    "[(\"µs → ×\", 3, 4.5), (\"naive\", 7, 1.0)]"
                )]
            )
            .is_some()
        );
        let nan = [rec("v", 0.0, "[NaN]")];
        assert_eq!(compare(&nan, &nan), None);
        assert!(compare(&nan, &[rec("v", 0.0, "[0.0]")]).is_some());
    }

    #[test]
    fn any_text_is_compared_without_panicking() {
        // What a submission prints is any text: the comparison must never panic on it.
        let alphabet: Vec<char> = "0123456789-+.eE NaNinf×µé_[](),\"\\x".chars().collect();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..5000 {
            let len = next(24);
            let a: String = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
            let b: String = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
            let _ = compare(&[rec("x", 1e-3, &a)], &[rec("x", 1e-3, &b)]);
            let _ = parse(&format!("GRADE-RECORD {a} {b} {a}"));
        }
    }

    #[test]
    fn extra_missing_or_renamed_records_fail() {
        let want = [rec("a", 0.0, "1"), rec("b", 0.0, "2")];
        assert!(compare(&want, &want[..1]).is_some());
        assert!(compare(&want, &[rec("a", 0.0, "1"), rec("c", 0.0, "2")]).is_some());
        let lines = "noise\nGRADE-RECORD a 1e-4 [1.0, 2.0]\nGRADE-RECORD b bad 3\n";
        assert_eq!(parse(lines), vec![rec("a", 1e-4, "[1.0, 2.0]")]);
    }
}
