//! Public tests: `cargo nextest run -p ex_m0_iterator_adaptor`.

use ex_m0_iterator_adaptor::BatchExt;

#[test]
fn iterator_adaptor_public_numbers_into_batches() {
    let mut got = Vec::new();
    for batch in [3u64, 4, 2, 5, 1].into_iter().batches(6, |&x| x) {
        got.push(batch);
    }
    assert_eq!(got, [vec![3], vec![4, 2], vec![5, 1]]);
}

#[test]
fn iterator_adaptor_public_a_heavy_item_is_a_batch_of_its_own() {
    let sizes = [2u64, 10, 2, 3];
    let got: Vec<Vec<u64>> = sizes
        .iter()
        .batches(5, |x| **x)
        .map(|b| b.into_iter().copied().collect())
        .collect();
    assert_eq!(got, [vec![2], vec![10], vec![2, 3]]);
    assert_eq!(sizes.iter().batches(5, |x| **x).size_hint(), (1, Some(4)));
}

#[test]
fn iterator_adaptor_public_lazy_on_an_endless_source() {
    let first: Vec<Vec<u64>> = (1u64..).batches(10, |&x| x).take(3).collect();
    assert_eq!(first, [vec![1, 2, 3, 4], vec![5], vec![6]]);
}
