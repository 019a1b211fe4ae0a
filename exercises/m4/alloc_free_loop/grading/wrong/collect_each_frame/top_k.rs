use crate::FrameError;

/// The per-frame step of a classifier's output: softmax probabilities of the logits, and the
/// indices of the `k` most probable classes.
///
/// After [`TopK::new`], [`TopK::step`] must not allocate: every buffer it needs is made in `new`,
/// sized for `max_len` logits, and reused.
pub struct TopK {
    max_len: usize,
    k: usize,
    probabilities: Vec<f32>,
    order: Vec<usize>,
}

impl TopK {
    /// Ready for frames of up to `max_len` logits, returning up to `k` indices each.
    pub fn new(max_len: usize, k: usize) -> Self {
        Self {
            max_len,
            k,
            probabilities: Vec::with_capacity(max_len),
            order: Vec::with_capacity(max_len),
        }
    }

    /// One frame: computes the probabilities (softmax; subtract the largest logit before `exp`
    /// so that large logits do not overflow) and returns the indices of the `min(k, len)` most
    /// probable, most probable first; equal probabilities: lower index first.
    ///
    /// Errors: [`FrameError::Empty`] for no logits, [`FrameError::TooLong`] for more than
    /// `max_len`. Neither the errors nor a successful step allocate.
    pub fn step(&mut self, logits: &[f32]) -> Result<&[usize], FrameError> {
        if logits.is_empty() {
            return Err(FrameError::Empty);
        }
        if logits.len() > self.max_len {
            return Err(FrameError::TooLong {
                len: logits.len(),
                max_len: self.max_len,
            });
        }
        let largest = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        // Wrong: collect() makes a new Vec every frame, and the old one is freed.
        self.probabilities = logits.iter().map(|&x| (x - largest).exp()).collect();
        let sum: f32 = self.probabilities.iter().sum();
        self.probabilities.iter_mut().for_each(|p| *p /= sum);

        let p = &self.probabilities;
        let better = |a: &usize, b: &usize| p[*b].total_cmp(&p[*a]).then(a.cmp(b));
        self.order.clear();
        self.order.extend(0..logits.len());
        let k = self.k.min(logits.len());
        if k == 0 {
            self.order.clear();
            return Ok(&self.order);
        }
        if k < self.order.len() {
            // Partition around the k-th best, in place; then sort only the first k.
            self.order.select_nth_unstable_by(k - 1, better);
            self.order.truncate(k);
        }
        // sort_unstable never allocates; the stable sort may take a buffer.
        self.order.sort_unstable_by(better);
        Ok(&self.order)
    }

    /// The probabilities computed by the last successful step, one per logit.
    pub fn probabilities(&self) -> &[f32] {
        &self.probabilities
    }
}
