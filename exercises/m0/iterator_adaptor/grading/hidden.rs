//! Hidden tests. The grader puts a `grade_ok!` macro above this file; each test calls it last.

use std::cell::Cell;

use ex_m0_iterator_adaptor::BatchExt;

/// A small deterministic generator (SplitMix64), so the tests need no dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The reference, written another way: cut before every item that would overflow the batch.
fn reference(weights: &[u64], budget: u64) -> Vec<Vec<u64>> {
    let mut cuts = vec![0];
    let mut total: u128 = 0;
    for (i, &w) in weights.iter().enumerate() {
        if i > cuts[cuts.len() - 1] && total + u128::from(w) > u128::from(budget) {
            cuts.push(i);
            total = 0;
        }
        total += u128::from(w);
    }
    cuts.push(weights.len());
    cuts.windows(2)
        .filter(|c| c[0] < c[1])
        .map(|c| weights[c[0]..c[1]].to_vec())
        .collect()
}

fn batches_of(weights: &[u64], budget: u64) -> Vec<Vec<u64>> {
    let got: Vec<Vec<u64>> = weights.iter().copied().batches(budget, |&w| w).collect();
    grade_record!("batches", &got, 0.0);
    got
}

#[test]
fn iterator_adaptor_hidden_known_batches() {
    assert_eq!(batches_of(&[], 5), Vec::<Vec<u64>>::new());
    assert_eq!(batches_of(&[7], 5), [vec![7]]);
    assert_eq!(batches_of(&[1, 1, 1, 1, 1], 5), [vec![1, 1, 1, 1, 1]]);
    assert_eq!(
        batches_of(&[1, 1, 1, 1, 1, 1], 5),
        [vec![1, 1, 1, 1, 1], vec![1]]
    );
    assert_eq!(batches_of(&[5, 5, 5], 5), [vec![5], vec![5], vec![5]]);
    assert_eq!(batches_of(&[6, 1, 6], 5), [vec![6], vec![1], vec![6]]);
    assert_eq!(
        batches_of(&[2, 3, 4, 1, 9, 2], 5),
        [vec![2, 3], vec![4, 1], vec![9], vec![2]]
    );
    grade_ok!("iterator_adaptor_hidden_known_batches");
}

#[test]
fn iterator_adaptor_hidden_matches_a_reference_on_random_input() {
    let mut rng = Rng(42);
    for case in 0..300 {
        let len = rng.below(40) as usize;
        let budget = rng.below(30);
        let weights: Vec<u64> = (0..len).map(|_| rng.below(budget + 8)).collect();
        assert_eq!(
            batches_of(&weights, budget),
            reference(&weights, budget),
            "case {case}: weights {weights:?}, budget {budget}"
        );
    }
    grade_ok!("iterator_adaptor_hidden_matches_a_reference_on_random_input");
}

#[test]
fn iterator_adaptor_hidden_zero_weights_and_zero_budget() {
    assert_eq!(batches_of(&[5, 0, 0, 1], 5), [vec![5, 0, 0], vec![1]]);
    assert_eq!(batches_of(&[0, 0, 0], 0), [vec![0, 0, 0]]);
    // A batch already over the budget (a heavy item alone) takes nothing more, not even a 0.
    assert_eq!(
        batches_of(&[0, 3, 0, 0, 2], 0),
        [vec![0], vec![3], vec![0, 0], vec![2]]
    );
    assert_eq!(batches_of(&[1, 1], 0), [vec![1], vec![1]]);
    grade_ok!("iterator_adaptor_hidden_zero_weights_and_zero_budget");
}

#[test]
fn iterator_adaptor_hidden_no_overflow_near_u64_max() {
    let big = u64::MAX / 2 + 1;
    assert_eq!(
        batches_of(&[big, big, 1], u64::MAX),
        [vec![big], vec![big, 1]]
    );
    assert_eq!(
        batches_of(&[u64::MAX, 0, u64::MAX, 1], u64::MAX),
        [vec![u64::MAX, 0], vec![u64::MAX], vec![1]]
    );
    assert_eq!(
        batches_of(&[u64::MAX, u64::MAX], 3),
        [vec![u64::MAX], vec![u64::MAX]]
    );
    grade_ok!("iterator_adaptor_hidden_no_overflow_near_u64_max");
}

#[test]
fn iterator_adaptor_hidden_is_lazy_on_an_endless_source() {
    // Weights 1, 2, 3, … and budget 20: 1+…+5 = 15 fits, +6 does not; then 6+7 = 13 fits, …
    let mut endless = (1u64..).batches(20, |&x| x);
    assert_eq!(endless.next(), Some(vec![1, 2, 3, 4, 5]));
    assert_eq!(endless.next(), Some(vec![6, 7]));
    let later: Vec<usize> = endless.skip(10).take(3).map(|b| b.len()).collect();
    assert_eq!(later, [1, 1, 1]);
    let mut hint = (1u64..).batches(20, |&x| x);
    assert_eq!(hint.size_hint(), (1, None));
    hint.next();
    assert_eq!(
        hint.size_hint(),
        (1, None),
        "an item is held and the source is endless"
    );
    grade_ok!("iterator_adaptor_hidden_is_lazy_on_an_endless_source");
}

#[test]
fn iterator_adaptor_hidden_pulls_one_item_ahead_at_most() {
    let pulled = Cell::new(0usize);
    let weights = [4u64, 4, 1, 9, 2, 2, 2, 8];
    let source = weights.iter().inspect(|_| pulled.set(pulled.get() + 1));
    let mut batches = source.batches(10, |w| **w);
    grade_record!("pulled", pulled.get(), 0.0);
    assert_eq!(pulled.get(), 0, "making the adaptor must pull nothing");
    let first = batches.next();
    grade_record!("pulled", (&first, pulled.get()), 0.0);
    assert_eq!(first.map(|b| b.len()), Some(3));
    assert_eq!(pulled.get(), 4, "the batch of 3 and the 9 that did not fit");
    assert_eq!(batches.next().map(|b| b.len()), Some(1));
    assert_eq!(
        pulled.get(),
        5,
        "the 9 was held: only the 2 after it is new"
    );
    assert_eq!(batches.next().map(|b| b.len()), Some(3));
    assert_eq!(pulled.get(), 8);
    assert_eq!(batches.next().map(|b| b.len()), Some(1));
    assert_eq!(batches.next(), None);
    assert_eq!(batches.next(), None);
    assert_eq!(pulled.get(), 8);
    grade_ok!("iterator_adaptor_hidden_pulls_one_item_ahead_at_most");
}

#[test]
fn iterator_adaptor_hidden_weighs_each_item_once() {
    let calls = Cell::new(0usize);
    let weights = [3u64, 3, 3, 3, 3, 3, 3];
    let batches: Vec<Vec<u64>> = weights
        .into_iter()
        .batches(7, |&w| {
            calls.set(calls.get() + 1);
            w
        })
        .collect();
    grade_record!("weighed", (&batches, calls.get()), 0.0);
    assert_eq!(batches, [vec![3, 3], vec![3, 3], vec![3, 3], vec![3]]);
    assert_eq!(calls.get(), weights.len());
    grade_ok!("iterator_adaptor_hidden_weighs_each_item_once");
}

#[test]
fn iterator_adaptor_hidden_size_hint_is_honest() {
    let weights = [2u64, 9, 1, 1, 7, 3];
    let mut b = weights.iter().batches(8, |w| **w);
    grade_record!("hint", b.size_hint(), 0.0);
    assert_eq!(b.size_hint(), (1, Some(6)));
    b.next(); // [2], the 9 is held
    assert_eq!(b.size_hint(), (1, Some(5)));
    assert_eq!(weights.iter().batches(8, |w| **w).count(), 5);
    // The source is spent but an item is held: one batch is still certain.
    let mut last_held = [2u64, 9].iter().batches(8, |w| **w);
    last_held.next();
    grade_record!("hint_held", last_held.size_hint(), 0.0);
    assert_eq!(last_held.size_hint(), (1, Some(1)), "the held 9 is still to come");
    let mut empty = std::iter::empty::<u64>().batches(8, |w| *w);
    assert_eq!(empty.size_hint(), (0, Some(0)));
    assert_eq!(empty.next(), None);
    let filtered = (0u64..10).filter(|x| x % 3 == 0).batches(8, |w| *w);
    assert_eq!(filtered.size_hint(), (0, Some(10)));
    // At every step, the batches still to come lie within the hint.
    let mut rng = Rng(7);
    for _ in 0..100 {
        let len = rng.below(20) as usize;
        let weights: Vec<u64> = (0..len).map(|_| rng.below(12)).collect();
        let total = reference(&weights, 10).len();
        let mut b = weights.iter().batches(10, |w| **w);
        for done in 0..=total {
            let left = total - done;
            let (low, high) = b.size_hint();
            assert!(
                low <= left && high.is_none_or(|h| left <= h),
                "weights {weights:?}: hint ({low}, {high:?}) with {left} batches left"
            );
            assert_eq!(b.next().is_some(), left > 0);
        }
    }
    grade_ok!("iterator_adaptor_hidden_size_hint_is_honest");
}

#[test]
fn iterator_adaptor_hidden_works_with_other_adaptors() {
    // Owned strings (not Copy, not even Clone needed), weighed by their length in bytes.
    let lines = ["tensor a", "b", "a long tensor called c", "d", "e", "f"].map(String::from);
    let joined: Vec<String> = lines
        .into_iter()
        .filter(|s| s != "e")
        .batches(10, |s| s.len() as u64)
        .map(|batch| batch.join("+"))
        .collect();
    assert_eq!(joined, ["tensor a+b", "a long tensor called c", "d+f"]);
    let numbered: Vec<(usize, usize)> = (0u64..7)
        .batches(3, |&x| x)
        .map(|b| b.len())
        .enumerate()
        .collect();
    assert_eq!(numbered, [(0, 3), (1, 1), (2, 1), (3, 1), (4, 1)]);
    let sum: u64 = (1u64..=100)
        .batches(50, |&x| x)
        .map(|b| b.iter().sum::<u64>())
        .sum();
    assert_eq!(sum, 5050);
    let zipped: Vec<(char, Vec<u64>)> = "xyz"
        .chars()
        .zip([1u64, 1, 5, 1].into_iter().batches(2, |&x| x))
        .collect();
    assert_eq!(zipped, [('x', vec![1, 1]), ('y', vec![5]), ('z', vec![1])]);
    let mut total = 0;
    for batch in std::iter::repeat_n(1u64, 10).batches(4, |&x| x) {
        assert!(batch.len() <= 4);
        total += batch.len();
    }
    assert_eq!(total, 10);
    grade_ok!("iterator_adaptor_hidden_works_with_other_adaptors");
}
