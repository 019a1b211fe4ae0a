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
