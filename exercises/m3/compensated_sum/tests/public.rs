//! Public tests: `cargo nextest run -p ex_m3_compensated_sum`.

use ex_m3_compensated_sum::{naive_sum, neumaier_sum};

#[test]
fn compensated_sum_public_small_values_survive_a_big_one() {
    let xs = [1.0, 1e100, 1.0, -1e100];
    assert_eq!(naive_sum(&xs), 0.0);
    assert_eq!(neumaier_sum(&xs), 2.0);
}

#[test]
fn compensated_sum_public_tenths() {
    let xs = vec![0.1; 10];
    assert_ne!(naive_sum(&xs), 1.0);
    assert_eq!(neumaier_sum(&xs), 1.0);
}

#[test]
fn compensated_sum_public_empty() {
    assert_eq!(neumaier_sum(&[]), 0.0);
}
