use crate::{BinSpec, HistogramError, Slot};

impl BinSpec {
    /// `bins` equal bins over `lo..hi` (`hi` excluded), or the first problem, checked in this
    /// order: `lo >= hi` is `EmptyRange`, `bins == 0` is `NoBins`, and more than
    /// `min(MAX_BINS, hi - lo)` bins is `TooManyBins`.
    pub fn new(lo: u32, hi: u32, bins: usize) -> Result<BinSpec, HistogramError> {
        let _ = (lo, hi, bins);
        todo!("check the three rules, then build the BinSpec")
    }

    /// Where `value` is counted: `Below` under `lo`, `Above` at `hi` or over, and otherwise
    /// bin `(value - lo) * bins / (hi - lo)`, computed without overflow.
    pub fn slot(&self, value: u32) -> Slot {
        let _ = value;
        todo!("compare with lo and hi, then compute the bin")
    }
}
