//! Your file: the adaptor behind `BatchExt::batches` (its rules are in `lib.rs`).

use std::iter::{Fuse, FusedIterator};

/// The iterator that `batches` returns: it owns the source iterator and the weight function.
pub struct Batches<I: Iterator, F> {
    // Fused, so that a source that ended is never asked again (some iterators would restart).
    source: Fuse<I>,
    budget: u64,
    weight: F,
    /// The item that did not fit in the last batch, with its weight: it starts the next one.
    held: Option<(I::Item, u64)>,
}

impl<I: Iterator, F> Batches<I, F> {
    /// Called by `BatchExt::batches`; it must not pull anything from `source`.
    pub(crate) fn new(source: I, budget: u64, weight: F) -> Self {
        Self {
            source: source.fuse(),
            budget,
            weight,
            held: None,
        }
    }
}

impl<I, F> Iterator for Batches<I, F>
where
    I: Iterator,
    F: FnMut(&I::Item) -> u64,
{
    type Item = Vec<I::Item>;

    fn next(&mut self) -> Option<Vec<I::Item>> {
        let (first, mut total) = match self.held.take() {
            Some(held) => held,
            None => {
                let item = self.source.next()?;
                let w = (self.weight)(&item);
                (item, w)
            }
        };
        // The first item always goes in, even when it alone is over the budget.
        let mut batch = vec![first];
        for item in self.source.by_ref() {
            let w = (self.weight)(&item);
            match total.checked_add(w) {
                // Wrong on purpose: a batch that fills the budget exactly is cut short.
                Some(sum) if sum < self.budget => {
                    total = sum;
                    batch.push(item);
                }
                _ => {
                    self.held = Some((item, w));
                    break;
                }
            }
        }
        Some(batch)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let held = usize::from(self.held.is_some());
        let (low, high) = self.source.size_hint();
        // Any item left makes at least one batch; at most, every item is a batch of its own.
        let low = usize::from(held > 0 || low > 0);
        (low, high.and_then(|h| h.checked_add(held)))
    }
}

impl<I, F> FusedIterator for Batches<I, F>
where
    I: Iterator,
    F: FnMut(&I::Item) -> u64,
{
}
