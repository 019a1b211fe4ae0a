//! Your file: the adaptor behind `BatchExt::batches` (its rules are in `lib.rs`).

use std::marker::PhantomData;

/// The iterator that `batches` returns: it owns the source iterator and the weight function.
pub struct Batches<I: Iterator, F> {
    // TODO: replace this placeholder with the fields `next` needs: the source, the budget, the
    // weight function, and whatever must survive from one call of `next` to the next.
    _todo: PhantomData<(I, F)>,
}

impl<I: Iterator, F> Batches<I, F> {
    /// Called by `BatchExt::batches`; it must not pull anything from `source`.
    pub(crate) fn new(_source: I, _budget: u64, _weight: F) -> Self {
        todo!("keep the source, the budget and the weight function for `next`")
    }
}

impl<I, F> Iterator for Batches<I, F>
where
    I: Iterator,
    F: FnMut(&I::Item) -> u64,
{
    type Item = Vec<I::Item>;

    fn next(&mut self) -> Option<Vec<I::Item>> {
        todo!("pull items from the source into one batch, up to the budget")
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        todo!("bounds on the number of batches still to come, from the source's size_hint")
    }
}
