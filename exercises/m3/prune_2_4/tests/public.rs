//! Public tests: `cargo nextest run -p ex_m3_prune_2_4`.

use ex_m3_prune_2_4::{PruneError, prune_2_4};

#[test]
fn prune_2_4_public_one_row() {
    let w = [0.5, -3.0, 2.0, 0.1, 0.0, 0.0, 1.0, -1.5];
    let s = prune_2_4(&w, 1, 8).unwrap();
    assert_eq!(s.values, vec![-3.0, 2.0, 1.0, -1.5]);
    assert_eq!(s.positions, vec![1, 2, 2, 3]);
    assert_eq!(s.to_dense(), vec![0.0, -3.0, 2.0, 0.0, 0.0, 0.0, 1.0, -1.5]);
    assert_eq!(s.matvec(&[1.0; 8]).unwrap(), vec![-1.5]);
}

#[test]
fn prune_2_4_public_columns_must_come_in_fours() {
    assert_eq!(
        prune_2_4(&[1.0; 6], 1, 6),
        Err(PruneError::NotMultipleOfFour { cols: 6 })
    );
}

#[test]
fn prune_2_4_public_three_rows() {
    #[rustfmt::skip]
    let w = [
        1.0, 2.0, 3.0, 4.0,    -8.0, 0.5, 0.25, 7.0,
        0.0, -1.0, 0.0, 1.0,    2.0, 2.0, 2.0, 2.0,
        -6.0, 5.0, -4.0, 3.0,   0.1, -0.2, 0.3, -0.4,
    ];
    let s = prune_2_4(&w, 3, 8).unwrap();
    assert_eq!(s.positions, vec![2, 3, 0, 3, 1, 3, 0, 1, 0, 1, 2, 3]);
    assert_eq!(
        s.values,
        vec![
            3.0, 4.0, -8.0, 7.0, -1.0, 1.0, 2.0, 2.0, -6.0, 5.0, 0.3, -0.4
        ]
    );
    let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0];
    // Row 0: 3·3 + 4·4 − 8·5 + 7·8; row 1: −1·2 + 1·4 + 2·5 + 2·6; row 2: −6·1 + 5·2 + 0.3·7 − 0.4·8.
    let y = s.matvec(&x).unwrap();
    let want = [41.0, 24.0, 2.9];
    for (r, (got, want)) in y.iter().zip(want).enumerate() {
        assert!((got - want).abs() < 1e-5, "row {r}: {got} vs {want}");
    }
    assert_eq!(y.len(), 3);
}

#[test]
fn prune_2_4_public_the_input_needs_one_value_per_column() {
    let s = prune_2_4(&[1.0; 16], 2, 8).unwrap();
    assert_eq!(
        s.matvec(&[1.0; 4]),
        Err(PruneError::InputLength { cols: 8, got: 4 })
    );
}
