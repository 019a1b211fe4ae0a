//! Exercise: an iterator adaptor, `batches`, added to every iterator by an extension trait.
//!
//! This file is given (the grader uses the staff copy): the trait and its rules. Your work:
//! `src/batches.rs`.

mod batches;

pub use batches::Batches;

/// Adds [`batches`](BatchExt::batches) to every iterator: `use ex_m0_iterator_adaptor::BatchExt;`
/// and any iterator has it, the way `itertools` adds its adaptors.
pub trait BatchExt: Iterator + Sized {
    /// Groups consecutive items into batches (`Vec`s) whose total weight stays within `budget`,
    /// e.g. tensors into uploads that fit one GPU buffer. `weight` gives an item's weight.
    ///
    /// - Items keep their order; every item is in exactly one batch; no batch is empty.
    /// - An item joins the current batch if the batch's weight plus its own is at most `budget`;
    ///   otherwise the batch is finished and the item starts the next one. So an item heavier
    ///   than `budget` is a batch on its own, and an item of weight 0 joins any batch that is
    ///   within the budget. (Weights are added without overflowing: a sum past `u64::MAX` is
    ///   more than any budget.)
    /// - `weight` is called once per item.
    /// - Lazy: making the adaptor pulls nothing from the source. Each `next` pulls items until
    ///   one does not fit (kept for the next batch) or the source ends, and no further.
    /// - `size_hint` is correct: the number of batches still to come is never below its lower
    ///   bound nor above its upper bound.
    ///
    /// `[3, 4, 2, 5, 1]` with budget 6 and weight = value gives `[3]`, `[4, 2]`, `[5, 1]`.
    fn batches<F>(self, budget: u64, weight: F) -> Batches<Self, F>
    where
        F: FnMut(&Self::Item) -> u64,
    {
        Batches::new(self, budget, weight)
    }
}

impl<I: Iterator> BatchExt for I {}
