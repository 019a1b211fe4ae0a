use crate::FrameError;

/// The per-frame step of a classifier's output: softmax probabilities of the logits, and the
/// indices of the `k` most probable classes.
///
/// After [`TopK::new`], [`TopK::step`] must not allocate: every buffer it needs is made in `new`,
/// sized for `max_len` logits, and reused.
pub struct TopK {
    // Your fields here.
}

impl TopK {
    /// Ready for frames of up to `max_len` logits, returning up to `k` indices each.
    pub fn new(max_len: usize, k: usize) -> Self {
        todo!("buffers for {max_len} logits and the top {k}")
    }

    /// One frame: computes the probabilities (softmax; subtract the largest logit before `exp`
    /// so that large logits do not overflow) and returns the indices of the `min(k, len)` most
    /// probable, most probable first; equal probabilities: lower index first.
    ///
    /// Errors: [`FrameError::Empty`] for no logits, [`FrameError::TooLong`] for more than
    /// `max_len`. Neither the errors nor a successful step allocate.
    pub fn step(&mut self, logits: &[f32]) -> Result<&[usize], FrameError> {
        todo!("softmax and top-k of {} logits", logits.len())
    }

    /// The probabilities computed by the last successful step, one per logit.
    pub fn probabilities(&self) -> &[f32] {
        todo!("the last step's probabilities")
    }
}
